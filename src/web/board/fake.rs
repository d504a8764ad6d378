//! `FakeBoard`: a page in memory behind [`BoardSource`], the web's `FakeSolo`. It keeps the
//! board the page shows, applies the keys it is sent, and decides "solved" by its own rule
//! (every cell filled, no rule broken), never by the bot's solution. It can drop keys, replace
//! its puzzle while keys are typed (the player typed, or a new game), open a dialog with the
//! last key, draw a read-back that differs (a canvas) and leave the givens unproven, so the
//! story of [`play_on`](crate::web::play::play_on) is tested without a browser.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use super::{Back, BoardSource, Finished, Seen, Typed, back_of};
use crate::grid::{Cell, Geometry, Grid};
use crate::web::answer::unproven_error;
use crate::web::error::PlayError;
use crate::web::fill::Target;
use crate::web::options::Outcome;
use crate::web::read::{PageBoard, symbol_key};
use crate::web::site::Success;

/// A page with a board, in memory.
pub(crate) struct FakeBoard {
    /// The page's sign of success.
    pub(crate) success: Success,
    /// What the page shows now.
    pub(crate) page: PageBoard,
    geometry: Arc<Geometry>,
    /// Cells whose key the page loses, and how many times it loses it.
    pub(crate) drops: HashMap<usize, usize>,
    /// Boards the page shows instead when the next typings begin, in order (the page ignores
    /// those keys): a player's value, a new game.
    pub(crate) changes: Vec<PageBoard>,
    /// A dialog the page opens with the last key.
    pub(crate) alert: Option<String>,
    /// A canvas that draws the cell at this index with another digit whatever it was sent.
    pub(crate) draws_wrong: Option<usize>,
    /// Nothing on the page proves which filled cells are givens.
    pub(crate) unproven: bool,
    /// Every call the story made, in order, in words.
    pub(crate) calls: Vec<String>,
}

impl FakeBoard {
    /// A page showing the 9x9 `line` (`.` blank; the other cells givens) that confirms in
    /// `#msg` with "Solved!".
    pub(crate) fn new(line: &str) -> FakeBoard {
        FakeBoard {
            success: Success {
                selector: Some("#msg".into()),
                text: "Solved!".into(),
                ..Success::default()
            },
            page: board(line),
            geometry: Geometry::standard(9).expect("9x9"),
            drops: HashMap::new(),
            changes: Vec::new(),
            alert: None,
            draws_wrong: None,
            unproven: false,
            calls: Vec::new(),
        }
    }

    /// Whether the page's own rule finds the board solved: every cell filled, no rule broken.
    pub(crate) fn solved(&self) -> bool {
        let values: Vec<u8> = (0..self.page.raw.len()).map(|i| self.page.digit(i)).collect();
        !values.contains(&0)
            && Grid::new(self.geometry.clone(), values).is_ok_and(|g| g.conflict().is_none())
    }

    /// How many calls to the story's `what` (the first word of each) were made.
    pub(crate) fn count(&self, what: &str) -> usize {
        self.calls.iter().filter(|c| c.split(' ').next() == Some(what)).count()
    }

    /// Sends `targets`' keys: a cell that drops its key keeps what it showed.
    fn keys(&mut self, targets: &[Target]) {
        for t in targets {
            if let Some(left) = self.drops.get_mut(&t.index).filter(|left| **left > 0) {
                *left -= 1;
                continue;
            }
            let drawn = match self.draws_wrong {
                Some(i) if i == t.index => t.digit % 9 + 1,
                _ => t.digit,
            };
            self.page.raw[t.index] = symbol_key(drawn).to_string();
        }
    }
}

/// A 9x9 page board from a line (`.` blank, a digit a given, `a`-`i` the player's 1-9).
pub(crate) fn board(line: &str) -> PageBoard {
    let raw: Vec<String> = line
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => char::from(b).to_string(),
            b'a'..=b'i' => char::from(b - b'a' + b'1').to_string(),
            _ => String::new(),
        })
        .collect();
    PageBoard {
        side: 9,
        given: line.bytes().map(|b| b.is_ascii_digit() && b != b'0').collect(),
        raw,
        dom_order: (0..81).collect(),
    }
}

impl BoardSource for FakeBoard {
    fn success(&self) -> &Success {
        &self.success
    }

    async fn read(&mut self, again: bool) -> Result<Seen, PlayError> {
        self.calls.push(if again { "read again" } else { "read" }.into());
        let board = self.page.clone();
        Ok(Seen { board, geometry: self.geometry.clone(), unsure: Vec::new(), read_took: None })
    }

    async fn mistakes(&mut self, seen: &Seen) -> Option<PlayError> {
        self.calls.push("mistakes".into());
        let rule = "the fake page marks no givens".to_string();
        self.unproven.then(|| unproven_error(&seen.board, &seen.geometry, None, rule))
    }

    async fn type_cells(
        &mut self,
        _seen: &Seen,
        targets: &[Target],
        _notes: &[Vec<String>],
        _outcome: &mut Outcome,
    ) -> Result<Typed, PlayError> {
        self.calls.push(format!("type {}", targets.len()));
        if !self.changes.is_empty() {
            self.page = self.changes.remove(0);
            return Ok(Typed::Changed("the page shows another board".into()));
        }
        self.keys(targets);
        Ok(Typed::Done)
    }

    async fn read_back(
        &mut self,
        _seen: &Seen,
        targets: &[Target],
        solution: &Grid,
    ) -> Result<Back, PlayError> {
        self.calls.push(format!("read_back {}", targets.len()));
        if let Some(i) = self.draws_wrong {
            // A canvas reads back by waiting until every cell shows the solution.
            return Err(PlayError::NotShown {
                waited: Duration::ZERO,
                detail: format!(
                    "{} shows {} (solution {})",
                    Cell::from_index(i, 9),
                    self.page.raw[i],
                    solution.cells()[i]
                ),
            });
        }
        back_of(&self.page, targets, solution)
    }

    async fn retype(&mut self, _seen: &Seen, cells: &[Target]) -> Result<(), PlayError> {
        let names: Vec<String> =
            cells.iter().map(|t| Cell::from_index(t.index, 9).to_string()).collect();
        self.calls.push(format!("retype {}", names.join(" ")));
        self.keys(cells);
        Ok(())
    }

    fn finished(&mut self) -> Finished {
        Finished { alert: self.alert.clone(), before: false }
    }

    async fn confirm(&mut self, _seen: &Seen) -> Result<String, PlayError> {
        self.calls.push("confirm".into());
        if self.solved() {
            return Ok(self.success.text.clone());
        }
        Err(PlayError::NotConfirmed { waited: Duration::ZERO, detail: "`#msg` shows \"\"".into() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::FailureKind;
    use crate::web::options::{Mode, PlayOptions, Timings};
    use crate::web::play::play_on;

    // A classic puzzle with one solution (the same as the play tests'), and another.
    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const OTHER: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(f)
    }

    fn play(fake: &mut FakeBoard, mode: Mode) -> Result<Outcome, PlayError> {
        let options = PlayOptions::for_test(mode);
        run(play_on(fake, &options, &mut Timings::default(), None))
    }

    fn blanks(line: &str) -> Vec<usize> {
        line.bytes().enumerate().filter(|(_, b)| *b == b'.').map(|(i, _)| i).collect()
    }

    #[test]
    fn a_board_is_read_solved_typed_read_back_and_confirmed_by_the_page() {
        let mut fake = FakeBoard::new(EASY);
        let outcome = play(&mut fake, Mode::Solve).unwrap();
        assert!(fake.solved(), "the page's own rule");
        assert_eq!(outcome.typed, blanks(EASY).len());
        assert_eq!((outcome.retried, outcome.resolved), (0, 0));
        assert_eq!(outcome.confirmation, "Solved!");
        assert!(outcome.confirmed);
        assert_eq!(fake.calls, ["read", "type 51", "read_back 51", "confirm"]);
    }

    #[test]
    fn a_dry_run_and_a_hint_read_and_type_nothing() {
        for mode in [Mode::DryRun, Mode::Hint(crate::logic::Scale::Score)] {
            let mut fake = FakeBoard::new(EASY);
            play(&mut fake, mode).unwrap();
            assert_eq!(fake.calls, ["read"]);
            assert_eq!(fake.page, board(EASY), "the page is as it was");
        }
    }

    #[test]
    fn a_dropped_key_is_typed_once_more_and_the_board_confirmed() {
        let mut fake = FakeBoard::new(EASY);
        let cell = blanks(EASY)[5];
        fake.drops.insert(cell, 1);
        let outcome = play(&mut fake, Mode::Solve).unwrap();
        assert_eq!(outcome.retried, 1);
        assert!(fake.solved());
        let name = Cell::from_index(cell, 9);
        assert_eq!(
            fake.calls,
            [
                "read",
                "type 51",
                "read_back 51",
                &format!("retype {name}"),
                "read_back 1",
                "confirm"
            ]
        );
    }

    #[test]
    fn a_key_dropped_twice_fails_naming_the_cell_and_nothing_is_confirmed() {
        let mut fake = FakeBoard::new(EASY);
        let cell = blanks(EASY)[0];
        fake.drops.insert(cell, 2);
        let e = play(&mut fake, Mode::Solve).unwrap_err();
        // r1c3 of EASY is 4 in its solution.
        assert!(
            matches!(&e, PlayError::Dropped { cell, expected: 4, found } if cell.to_string() == "r1c3" && found.is_empty()),
            "{e}"
        );
        assert_eq!(e.kind(), FailureKind::DroppedKeys);
        assert!(e.kind().is_retried(), "a fresh session may keep its keys");
        assert_eq!(fake.count("confirm"), 0);
    }

    #[test]
    fn a_value_the_player_typed_while_keys_were_typed_is_read_and_typed_over() {
        let mut fake = FakeBoard::new(EASY);
        // The player typed a wrong 1 in r1c3 (its solution is 4) as the bot began.
        let mut typed = EASY.as_bytes().to_vec();
        typed[2] = b'a';
        fake.changes.push(board(std::str::from_utf8(&typed).unwrap()));
        let outcome = play(&mut fake, Mode::Solve).unwrap();
        assert_eq!(outcome.resolved, 1);
        assert_eq!(outcome.corrected, 1, "the player's wrong value is cleared and typed over");
        assert!(fake.solved());
        assert_eq!(
            fake.calls,
            ["read", "type 51", "read again", "type 51", "read_back 51", "confirm"]
        );
    }

    #[test]
    fn a_new_puzzle_while_typing_is_solved_again_and_a_second_one_stops_the_run() {
        let mut fake = FakeBoard::new(EASY);
        fake.changes.push(board(OTHER));
        let outcome = play(&mut fake, Mode::Solve).unwrap();
        assert_eq!(outcome.resolved, 1);
        assert_eq!(outcome.puzzle.cells()[0], 4, "the new puzzle's answer, not the old one's");
        assert!(fake.solved());

        let mut fake = FakeBoard::new(EASY);
        fake.changes = vec![board(OTHER), board(EASY)];
        let e = play(&mut fake, Mode::Solve).unwrap_err();
        assert!(matches!(e, PlayError::BoardChanged(_)), "{e}");
        assert!(e.kind().is_retried() && e.keeps_evidence());
        assert_eq!(fake.count("type"), 2, "never a third time");
    }

    #[test]
    fn an_alert_with_the_last_key_is_the_confirmation_where_the_site_confirms_by_one() {
        let mut fake = FakeBoard::new(EASY);
        fake.success =
            Success { alert: true, text: "Congratulations".into(), ..Success::default() };
        fake.alert = Some("Congratulations, you solved it!".into());
        let outcome = play(&mut fake, Mode::Solve).unwrap();
        assert_eq!(outcome.confirmation, "alert: Congratulations, you solved it!");
        assert_eq!(fake.count("confirm"), 0, "the alert settled it: the page is not asked");
    }

    #[test]
    fn an_alert_that_says_wrong_fails_and_one_that_says_nothing_leaves_it_to_the_page() {
        let mut fake = FakeBoard::new(EASY);
        fake.alert = Some("That is incorrect".into());
        let e = play(&mut fake, Mode::Solve).unwrap_err();
        assert_eq!(e.kind(), FailureKind::PageSaysWrong, "{e}");
        assert_eq!(fake.count("confirm"), 0);

        let mut fake = FakeBoard::new(EASY);
        fake.alert = Some("Saved".into());
        let outcome = play(&mut fake, Mode::Solve).unwrap();
        assert_eq!(outcome.confirmation, "Solved!", "the site's own marker decides");
        assert_eq!(fake.count("confirm"), 1);
    }

    #[test]
    fn a_canvas_whose_read_back_differs_is_not_confirmed() {
        let mut fake = FakeBoard::new(EASY);
        let cell = blanks(EASY)[3];
        fake.draws_wrong = Some(cell);
        let e = play(&mut fake, Mode::Solve).unwrap_err();
        assert!(
            matches!(&e, PlayError::NotShown { detail, .. } if detail.starts_with(&Cell::from_index(cell, 9).to_string())),
            "{e}"
        );
        assert_eq!(e.kind(), FailureKind::NotReadBack);
        assert!(e.kind().is_retried() && e.keeps_evidence());
        assert_eq!(fake.count("confirm"), 0);
        assert!(!fake.solved(), "the page's own rule agrees");
    }

    #[test]
    fn givens_that_break_a_rule_are_refused_or_named_as_the_players_mistakes_untyped() {
        // r1c3 holds a second 5 in row 1.
        let broken = EASY.replacen("53..", "535.", 1);
        let mut fake = FakeBoard::new(&broken);
        let e = play(&mut fake, Mode::Solve).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidBoard, "{e}");
        assert!(!e.kind().is_retried() && !e.keeps_evidence());
        assert_eq!(fake.calls, ["read", "mistakes"], "nothing was typed");

        let mut fake = FakeBoard::new(&broken);
        fake.unproven = true;
        let e = play(&mut fake, Mode::Solve).unwrap_err();
        assert!(
            matches!(&e, PlayError::Mistakes { cells, .. } if cells.iter().any(|c| ["r1c1", "r1c3"].contains(&c.to_string().as_str()))),
            "{e}"
        );
        assert_eq!(e.kind(), FailureKind::PlayersMistakes);
        assert!(!e.kind().is_retried());
        assert_eq!(fake.count("type"), 0);
    }
}
