//! Solo's save files (Game > Save...), read and replayed.
//!
//! A save file is a list of records, each `KEY:LEN:VALUE` followed by a line end (LF from the
//! GTK front end, CRLF from the Win32 one): `KEY` is the record's name left-justified in 8
//! characters (`MOVE    `), `LEN` the decimal length of `VALUE` in bytes, and `VALUE` exactly
//! that many bytes, whatever they contain (`midend.c`, `midend_serialise`). Records, in order:
//!
//! | key | value |
//! |---|---|
//! | `SAVEFILE` | `Simon Tatham's Portable Puzzle Collection` |
//! | `VERSION` | `1` |
//! | `GAME` | `Solo` |
//! | `PARAMS`, `CPARAMS` | the parameters in full (`3x3kdu`) |
//! | `SEED` or `HEXSEED` | the random seed, when the game had one |
//! | `DESC` | the game description: the part of the game ID after `:` |
//! | `PRIVDESC`, `AUXINFO`, `UI`, `TIME` | optional, not used here |
//! | `NSTATES` | states in the undo history, the initial one included |
//! | `STATEPOS` | the current state, 1-based (states after it can be redone) |
//! | `MOVE`, `SOLVE`, `RESTART` | one per state after the initial one |
//!
//! Solo's moves (`solo.c`, `execute_move`): `R<x>,<y>,<n>` puts value `n` in column `x`, row
//! `y` (0 clears) and clears the cell's pencil marks; `P<x>,<y>,<n>` toggles pencil mark `n`;
//! `M` pencils every mark into every empty cell. A `SOLVE` record holds `S` and every cell's
//! value; a `RESTART` record holds the description the game restarted from.
//!
//! [`SaveFile::replay`] rebuilds the board at `STATEPOS` from the givens and the history.

use crate::grid::Grid;

/// The magic value of the `SAVEFILE` record.
pub const MAGIC: &str = "Simon Tatham's Portable Puzzle Collection";

/// What went wrong reading or replaying a save file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// A record does not have the `KEY:LEN:VALUE` shape.
    #[error("record {record} (byte {offset}) is malformed: {why}")]
    Malformed {
        /// 1-based record number.
        record: usize,
        /// Byte offset of the record.
        offset: usize,
        /// What is wrong.
        why: String,
    },
    /// The file is no puzzle save file, or not Solo's.
    #[error("not a Solo save file: {0}")]
    NotSolo(String),
    /// A record the replay needs is missing.
    #[error("the save file has no {0} record")]
    Missing(&'static str),
    /// The counts disagree with the records.
    #[error(
        "the save file says {nstates} states at position {statepos} but holds {entries} moves after the first"
    )]
    Counts {
        /// `NSTATES`.
        nstates: usize,
        /// `STATEPOS`.
        statepos: usize,
        /// History records found.
        entries: usize,
    },
    /// A move the replay cannot apply.
    #[error("move {index} ({text:?}) cannot be applied to a {side}x{side} grid")]
    BadMove {
        /// 1-based index in the history.
        index: usize,
        /// The record's value.
        text: String,
        /// The grid side.
        side: usize,
    },
    /// The save file is of another game than the one it is replayed on.
    #[error("the save file's game description differs from the game ID's")]
    OtherGame,
}

/// One state of the undo history after the initial one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A player's move (`R...`, `P...`, `M`).
    Move(String),
    /// The game's Solve (`S...`).
    Solve(String),
    /// Restart, with the description restarted from.
    Restart(String),
}

/// A save file's records that matter here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveFile {
    /// The `PARAMS` record (full parameters, `3x3kdu`), if any.
    pub params: Option<String>,
    /// The `DESC` record: the game ID after its `:`.
    pub desc: String,
    /// The `NSTATES` record.
    pub nstates: usize,
    /// The `STATEPOS` record (1-based).
    pub statepos: usize,
    /// Every state after the initial one, in order.
    pub history: Vec<Entry>,
}

/// The board a replay ends with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Values in reading order, 0 for empty.
    pub values: Vec<u8>,
    /// Pencil marks in reading order, bit `n - 1` for mark `n`.
    pub marks: Vec<u64>,
}

/// Splits a save file into `(key, value)` records, checking each record's length.
pub fn records(bytes: &[u8]) -> Result<Vec<(String, String)>, SaveError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        // Line ends of any form separate records.
        if matches!(bytes[at], b'\r' | b'\n') {
            at += 1;
            continue;
        }
        let record = out.len() + 1;
        let offset = at;
        let bad = |why: String| SaveError::Malformed { record, offset, why };
        let colon = bytes[at..]
            .iter()
            .position(|&b| b == b':')
            .ok_or_else(|| bad("no ':' after the key".into()))?;
        if colon > 8 {
            return Err(bad(format!("a key of {colon} bytes (at most 8)")));
        }
        let key = String::from_utf8_lossy(&bytes[at..at + colon]).trim_end().to_string();
        at += colon + 1;
        let digits = bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 9 || bytes.get(at + digits) != Some(&b':') {
            return Err(bad(format!("record {key:?} has no length followed by ':'")));
        }
        let len: usize = std::str::from_utf8(&bytes[at..at + digits])
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| bad("unreadable length".into()))?;
        at += digits + 1;
        let Some(value) = bytes.get(at..at + len) else {
            return Err(bad(format!(
                "record {key:?} says {len} bytes but only {} follow",
                bytes.len() - at
            )));
        };
        at += len;
        if !matches!(bytes.get(at), None | Some(b'\r' | b'\n')) {
            return Err(bad(format!("record {key:?} runs on past its {len} bytes")));
        }
        out.push((key, String::from_utf8_lossy(value).into_owned()));
    }
    Ok(out)
}

impl SaveFile {
    /// Reads a Solo save file.
    pub fn parse(bytes: &[u8]) -> Result<SaveFile, SaveError> {
        let records = records(bytes)?;
        match records.first() {
            Some((k, v)) if k == "SAVEFILE" && v == MAGIC => {}
            Some((k, v)) => {
                return Err(SaveError::NotSolo(format!("it starts with {k}:{v:?}")));
            }
            None => return Err(SaveError::NotSolo("it is empty".into())),
        }
        let find = |key: &str| records.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        match find("GAME") {
            Some("Solo") => {}
            Some(other) => return Err(SaveError::NotSolo(format!("it is a {other} game"))),
            None => return Err(SaveError::Missing("GAME")),
        }
        let number = |key: &'static str| -> Result<usize, SaveError> {
            find(key)
                .ok_or(SaveError::Missing(key))?
                .parse()
                .map_err(|_| SaveError::NotSolo(format!("{key} is no number")))
        };
        let nstates = number("NSTATES")?;
        let statepos = number("STATEPOS")?;
        let desc = find("DESC").ok_or(SaveError::Missing("DESC"))?.to_string();
        let history: Vec<Entry> = records
            .iter()
            .filter_map(|(k, v)| match k.as_str() {
                "MOVE" => Some(Entry::Move(v.clone())),
                "SOLVE" => Some(Entry::Solve(v.clone())),
                "RESTART" => Some(Entry::Restart(v.clone())),
                _ => None,
            })
            .collect();
        if nstates == 0 || history.len() != nstates - 1 || !(1..=nstates).contains(&statepos) {
            return Err(SaveError::Counts { nstates, statepos, entries: history.len() });
        }
        Ok(SaveFile {
            params: find("PARAMS").map(str::to_string),
            desc,
            nstates,
            statepos,
            history,
        })
    }

    /// The entries up to the current state (the ones after it are only there for Redo).
    pub fn current(&self) -> &[Entry] {
        &self.history[..self.statepos - 1]
    }

    /// Replays the history up to the current state over `puzzle` (the givens of the game ID
    /// whose description is `desc`), as Solo's `execute_move` does.
    pub fn replay(&self, puzzle: &Grid, desc: &str) -> Result<Board, SaveError> {
        if self.desc != desc {
            return Err(SaveError::OtherGame);
        }
        let side = puzzle.side();
        let mut board =
            Board { values: puzzle.cells().to_vec(), marks: vec![0; puzzle.cells().len()] };
        for (k, entry) in self.current().iter().enumerate() {
            let bad = |text: &str| SaveError::BadMove { index: k + 1, text: text.into(), side };
            match entry {
                Entry::Move(text) if text == "M" => {
                    let all = if side >= 64 { u64::MAX } else { (1u64 << side) - 1 };
                    for (v, m) in board.values.iter().zip(board.marks.iter_mut()) {
                        if *v == 0 {
                            *m = all;
                        }
                    }
                }
                Entry::Move(text) => {
                    let (x, y, n) = cell_move(text, side).ok_or_else(|| bad(text))?;
                    let i = y * side + x;
                    if text.starts_with('P') && n > 0 {
                        board.marks[i] ^= 1 << (n - 1);
                    } else {
                        board.values[i] = n as u8;
                        board.marks[i] = 0;
                    }
                }
                Entry::Solve(text) => {
                    let values: Vec<u8> = text
                        .strip_prefix('S')
                        .ok_or_else(|| bad(text))?
                        .split(',')
                        .map(|v| v.parse::<u8>().ok().filter(|&v| v >= 1 && v as usize <= side))
                        .collect::<Option<_>>()
                        .ok_or_else(|| bad(text))?;
                    if values.len() != side * side {
                        return Err(bad(text));
                    }
                    board.values = values;
                }
                Entry::Restart(text) => {
                    if text != desc {
                        return Err(SaveError::OtherGame);
                    }
                    board.values = puzzle.cells().to_vec();
                    board.marks.iter_mut().for_each(|m| *m = 0);
                }
            }
        }
        Ok(board)
    }
}

/// `R<x>,<y>,<n>` or `P<x>,<y>,<n>` with every number in range.
fn cell_move(text: &str, side: usize) -> Option<(usize, usize, usize)> {
    let rest = text.strip_prefix('R').or_else(|| text.strip_prefix('P'))?;
    let mut nums = rest.split(',').map(|n| n.parse::<usize>().ok());
    let (x, y, n) = (nums.next()??, nums.next()??, nums.next()??);
    (nums.next().is_none() && x < side && y < side && n <= side).then_some((x, y, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::solo_id;

    const ID: &str = "2x2:3a1j4a1";

    fn save(moves: &[&str], statepos: usize, eol: &str) -> String {
        let mut s = String::new();
        let mut rec = |k: &str, v: &str| s.push_str(&format!("{k:<8}:{}:{v}{eol}", v.len()));
        rec("SAVEFILE", MAGIC);
        rec("VERSION", "1");
        rec("GAME", "Solo");
        rec("PARAMS", "2x2dt");
        rec("CPARAMS", "2x2dt");
        rec("DESC", "3a1j4a1");
        rec("NSTATES", &(moves.len() + 1).to_string());
        rec("STATEPOS", &statepos.to_string());
        for m in moves {
            match m.chars().next() {
                Some('S') => rec("SOLVE", m),
                Some(c) if c.is_ascii_uppercase() => rec("MOVE", m),
                _ => rec("RESTART", m),
            }
        }
        s
    }

    #[test]
    fn replays_values_marks_and_undo_position() {
        let puzzle = solo_id::parse(ID).expect("id");
        for eol in ["\n", "\r\n"] {
            let text = save(&["R1,0,2", "P0,1,3", "P0,1,4", "P0,1,3", "R3,0,2"], 5, eol);
            let file = SaveFile::parse(text.as_bytes()).expect("parses");
            assert_eq!((file.nstates, file.statepos), (6, 5));
            assert_eq!(file.params.as_deref(), Some("2x2dt"));
            let board = file.replay(&puzzle, "3a1j4a1").expect("replays");
            assert_eq!(board.values[1], 2);
            assert_eq!(board.values[3], 0, "the last move is past STATEPOS");
            assert_eq!(board.marks[4], 1 << 3);
        }
    }

    #[test]
    fn value_clears_marks_m_fills_them_and_restart_resets() {
        let puzzle = solo_id::parse(ID).expect("id");
        let file =
            SaveFile::parse(save(&["P1,0,2", "R1,0,4", "M"], 4, "\n").as_bytes()).expect("parses");
        let board = file.replay(&puzzle, "3a1j4a1").expect("replays");
        assert_eq!((board.values[1], board.marks[1]), (4, 0));
        assert_eq!(board.marks[3], 0b1111);
        assert_eq!(board.marks[2], 0, "a given gets no marks");
        let file = SaveFile::parse(save(&["R1,0,4", "3a1j4a1"], 3, "\n").as_bytes()).expect("ok");
        assert_eq!(file.replay(&puzzle, "3a1j4a1").expect("replays").values, puzzle.cells());
        let solve = format!("S{}", ["3", "2", "1", "4"].repeat(4).join(","));
        let file = SaveFile::parse(save(&[&solve], 2, "\n").as_bytes()).expect("ok");
        assert_eq!(file.replay(&puzzle, "3a1j4a1").expect("replays").values[1], 2);
    }

    #[test]
    fn lengths_are_bytes_and_values_may_hold_colons() {
        let text = "SAVEFILE:41:Simon Tatham's Portable Puzzle Collection\nX       :5:a:b:c\n";
        let recs = records(text.as_bytes()).expect("records");
        assert_eq!(recs[1], ("X".to_string(), "a:b:c".to_string()));
    }

    #[test]
    fn broken_files_are_refused_with_a_reason() {
        let puzzle = solo_id::parse(ID).expect("id");
        let good = save(&["R1,0,2"], 2, "\n");
        // Cut anywhere: an error, never a panic.
        for cut in 0..good.len() {
            let _ = SaveFile::parse(&good.as_bytes()[..cut]);
        }
        let cut = &good.as_bytes()[..good.len() - 4];
        assert!(matches!(SaveFile::parse(cut), Err(SaveError::Malformed { .. })));
        let wrong_len = good.replace("MOVE    :6:", "MOVE    :5:");
        assert!(SaveFile::parse(wrong_len.as_bytes()).is_err());
        let counts = good.replace("NSTATES :1:2", "NSTATES :1:3");
        assert!(matches!(SaveFile::parse(counts.as_bytes()), Err(SaveError::Counts { .. })));
        let other = good.replace("GAME    :4:Solo", "GAME    :4:Mine");
        assert!(matches!(SaveFile::parse(other.as_bytes()), Err(SaveError::NotSolo(_))));
        let file = SaveFile::parse(good.as_bytes()).expect("parses");
        assert_eq!(file.replay(&puzzle, "3a1j4a2"), Err(SaveError::OtherGame));
        for bad in ["R4,0,1", "R0,0,5", "R0,0", "Q1,1,1", "R0,0,1,2", "R-1,0,1"] {
            let file = SaveFile::parse(save(&[bad], 2, "\n").as_bytes()).expect("parses");
            assert!(
                matches!(file.replay(&puzzle, "3a1j4a1"), Err(SaveError::BadMove { .. })),
                "{bad}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn no_input_makes_it_panic(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            cut in 0usize..400,
            flip in 0usize..400,
        ) {
            let _ = SaveFile::parse(&bytes);
            // A real file, cut short and with one byte changed.
            let mut good = save(&["R1,0,2", "P0,1,3", "M"], 3, "\n").into_bytes();
            if let Some(b) = good.get_mut(flip) {
                *b = bytes.first().copied().unwrap_or(b'x');
            }
            good.truncate(cut);
            if let Ok(file) = SaveFile::parse(&good) {
                let puzzle = solo_id::parse(ID).expect("id");
                let _ = file.replay(&puzzle, "3a1j4a1");
            }
        }
    }

    #[test]
    fn reads_a_file_saved_by_sgt_solo() {
        // Saved by sgt-solo 20230122 (GTK) from a 3x3 Killer game after three moves.
        let text = include_str!("../../tests/fixtures/desktop/killer-3x3k.sav");
        let file = SaveFile::parse(text.as_bytes()).expect("parses");
        let id = include_str!("../../tests/fixtures/desktop/killer-3x3k.id").trim();
        let puzzle = solo_id::parse(id).expect("id");
        let desc = id.split_once(':').map(|(_, d)| d).unwrap_or_default();
        let board = file.replay(&puzzle, desc).expect("replays");
        assert_eq!(&board.values[..3], &[6, 0, 0]);
        assert_eq!(board.marks[1], (1 << 2) | (1 << 4));
    }

    #[test]
    fn reads_a_crlf_file_saved_by_the_win32_front_end() {
        // Saved by solo.exe (the Win32 front end, built from the same source) under Wine after
        // `sudobot desktop --auto` typed a 3x3 Killer blind: pencil marks then values.
        let text = include_str!("../../tests/fixtures/desktop/killer-3x3k-win32.sav");
        assert!(text.contains("\r\n"));
        let file = SaveFile::parse(text.as_bytes()).expect("parses");
        let id = include_str!("../../tests/fixtures/desktop/killer-3x3k-win32.id").trim();
        let puzzle = solo_id::parse(id).expect("id");
        let desc = id.split_once(':').map(|(_, d)| d).unwrap_or_default();
        let board = file.replay(&puzzle, desc).expect("replays");
        let grid = Grid::new(puzzle.geometry_arc().clone(), board.values).expect("grid");
        assert!(grid.is_solution_of(&puzzle));
        assert!(board.marks.iter().all(|&m| m == 0));
        assert!(file.current().iter().any(|e| matches!(e, Entry::Move(m) if m.starts_with('P'))));
    }
}
