//! Candidate grids: a board with the player's pencil marks, as text.
//!
//! Two forms are read:
//!
//! - a grid of N*N tokens separated by spaces (and `|` walls), one token a cell: its candidates
//!   (`1679`), a single value (a placed cell), or `.`/`0` for a cell without marks. Lines made
//!   only of rule characters (`-`, `+`, `.`, `:`, `=`, `*`, `'`, box drawing) are skipped, so
//!   HoDoKu's and SudokuWiki's pencil-mark grids read as they are:
//!
//!   ```text
//!   .--------------------.------------------.
//!   | 4     1679   12679 | 139   2369   269 |
//!   ```
//!
//! - one line of N*N*N characters (the "Sukaku" form): cell by cell, N characters each, the
//!   character at position k being the symbol of value k+1 when it is a candidate, `.` or `0`
//!   when not. A cell with one candidate is read as placed.
//!
//! Symbols are those of the one-line format (`1`-`9`, then `A`-`Z` in any case).

use std::sync::Arc;

use super::board::bit;
use crate::format::{ParseError, ParseErrorKind};
use crate::grid::{Geometry, Grid, MAX_SIDE, symbol};

/// A candidate grid: values of placed cells and the marks of open ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    /// The side.
    pub side: usize,
    /// Per cell: its value, 0 when open.
    pub values: Vec<u8>,
    /// Per cell: its candidates (bit `v - 1`), 0 for placed cells and for open cells without
    /// marks.
    pub marks: Vec<u64>,
}

impl Marks {
    /// The placed values as a grid on `geometry` (the usual boxes for the side when `None`).
    pub fn grid(&self, geometry: Option<Arc<Geometry>>) -> Result<Grid, ParseError> {
        let geometry = match geometry {
            Some(g) => g,
            None => Geometry::standard(self.side)?,
        };
        Ok(Grid::new(geometry, self.values.clone())?)
    }
}

/// Whether text looks like a candidate grid rather than a puzzle: 16 or more tokens, one of
/// two or more symbols, or one line of N*N*N characters.
pub fn looks_like_marks(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if let [one] = lines.as_slice()
        && sukaku_side(one.chars().count()).is_some()
    {
        return true;
    }
    // At least a 4x4 grid of tokens, one of them two or more symbols.
    let all: Vec<&str> =
        lines.iter().filter(|l| !is_rule(l)).flat_map(|l| tokens(l).map(|(_, t)| t)).collect();
    all.len() >= 16
        && all
            .iter()
            .any(|t| t.chars().count() >= 2 && t.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn sukaku_side(len: usize) -> Option<usize> {
    (4..=MAX_SIDE).find(|&n| n * n * n == len)
}

fn is_rule(line: &str) -> bool {
    line.chars().any(|c| matches!(c, '-' | '=' | '─' | '━' | '═'))
        && line.chars().all(|c| {
            matches!(c, '-' | '+' | '.' | ':' | '=' | '*' | '\'' | '|' | ' ' | '\t')
                || ('\u{2500}'..='\u{257f}').contains(&c)
        })
}

/// Tokens of a line with their 1-based character columns: split at whitespace and walls.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    for (k, &(_, c)) in chars.iter().enumerate() {
        let sep = c.is_whitespace() || c == '|' || c == '│' || c == '┃' || c == '║';
        match (sep, start) {
            (false, None) => start = Some(k),
            (true, Some(s)) => {
                out.push((s, k));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, chars.len()));
    }
    out.into_iter().map(move |(s, e)| {
        let from = chars[s].0;
        let to = chars.get(e).map_or(line.len(), |&(i, _)| i);
        (s + 1, &line[from..to])
    })
}

/// Reads a candidate grid in either form.
pub fn parse(text: &str) -> Result<Marks, ParseError> {
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(n, l)| (n + 1, l.trim_end_matches('\r'))).collect();
    let content: Vec<(usize, &str)> = lines
        .iter()
        .copied()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .collect();
    if content.is_empty() {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    }
    if let [(n, one)] = content.as_slice()
        && let Some(side) = sukaku_side(one.trim().chars().count())
    {
        return sukaku(*n, one.trim(), side);
    }
    let mut cells: Vec<(usize, usize, &str)> = Vec::new();
    for &(n, l) in &content {
        if is_rule(l.trim()) {
            continue;
        }
        cells.extend(tokens(l).map(|(col, t)| (n, col, t)));
    }
    let side = (4..=MAX_SIDE).find(|&s| s * s == cells.len()).ok_or_else(|| {
        ParseError::whole(ParseErrorKind::Syntax(format!(
            "a candidate grid needs N*N cells (81 for 9x9), found {}",
            cells.len()
        )))
    })?;
    let mut marks = Marks { side, values: vec![0; side * side], marks: vec![0; side * side] };
    for (i, &(line, col, token)) in cells.iter().enumerate() {
        if token == "." || (token == "0" && side != 36) {
            continue;
        }
        let mut mask = 0u64;
        for (k, c) in token.chars().enumerate() {
            let v = symbol::from_char(c, side).ok_or_else(|| {
                ParseError::at(
                    line,
                    col + k,
                    ParseErrorKind::BadSymbol { found: c, side, hint: String::new() },
                )
            })?;
            mask |= bit(v);
        }
        if mask.count_ones() == 1 {
            marks.values[i] = mask.trailing_zeros() as u8 + 1;
        } else {
            marks.marks[i] = mask;
        }
    }
    Ok(marks)
}

fn sukaku(line: usize, text: &str, side: usize) -> Result<Marks, ParseError> {
    let mut marks = Marks { side, values: vec![0; side * side], marks: vec![0; side * side] };
    let chars: Vec<char> = text.chars().collect();
    for cell in 0..side * side {
        let mut mask = 0u64;
        for k in 0..side {
            let at = cell * side + k;
            let c = chars[at];
            if c == '.' || (c == '0' && side != 36) {
                continue;
            }
            match symbol::from_char(c, side) {
                Some(v) if v as usize == k + 1 => mask |= bit(v),
                _ => {
                    return Err(ParseError::at(
                        line,
                        at + 1,
                        ParseErrorKind::Syntax(format!(
                            "'{c}' at position {} of cell {} should be {} or '.'",
                            k + 1,
                            cell + 1,
                            symbol::to_char(k as u8 + 1, side, symbol::Style::Line).unwrap_or('?')
                        )),
                    ));
                }
            }
        }
        if mask.count_ones() == 1 {
            marks.values[cell] = mask.trailing_zeros() as u8 + 1;
        } else {
            marks.marks[cell] = mask;
        }
    }
    Ok(marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_pencil_mark_grid_with_rules() {
        let mut text = String::from(".------------.\n");
        for r in 0..4 {
            let row: Vec<String> = (0..4)
                .map(
                    |c| if (r + c) % 2 == 0 { format!("{}", (r + c) % 4 + 1) } else { "12".into() },
                )
                .collect();
            text.push_str(&format!("| {} {} | {} {} |\n", row[0], row[1], row[2], row[3]));
        }
        text.push_str("'------------'\n");
        assert!(looks_like_marks(&text));
        let m = parse(&text).unwrap();
        assert_eq!(m.side, 4);
        assert_eq!(m.values[0], 1);
        assert_eq!(m.marks[1], 0b11);
    }

    #[test]
    fn reads_the_sukaku_line() {
        let mut line = String::new();
        for cell in 0..16 {
            for k in 0..4 {
                let keep = cell == 0 && k == 2 || cell > 0 && k < 2;
                line.push(if keep { char::from(b'1' + k as u8) } else { '.' });
            }
        }
        let m = parse(&line).unwrap();
        assert_eq!(m.values[0], 3);
        assert_eq!(m.marks[5], 0b11);
        let bad = line.replacen("3", "4", 1);
        let e = parse(&bad).unwrap_err();
        assert!(e.to_string().contains("should be 3"), "{e}");
    }

    #[test]
    fn wrong_cell_counts_and_symbols_are_named() {
        assert!(parse("12 34 5").unwrap_err().to_string().contains("found 3"));
        let text = ["1 2 3 4", "12 . . .", ". . . .", ". . . 9"].join("\n");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.to_string(), "line 4, column 7: '9' is not a value of a 4x4 grid");
    }
}
