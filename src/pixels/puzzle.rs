//! The one rule by which a board read from pixels becomes a puzzle, for every caller
//! (`solve --image`, the web's canvas boards, the desktop's pixel games): a digit below the
//! confidence bar ([`super::CERTAIN`]) is uncertain, and a board with uncertain cells is played
//! only when the certain cells alone have exactly one solution. That solution is then the only
//! one the full board can have, whatever the uncertain cells hold; they are left out and never
//! typed into.

use std::sync::Arc;

use super::{BoardRead, PixelError};
use crate::grid::{Cage, Cell, Grid};
use crate::solve::{self, Budget, Verdict};

/// What to do with cells the reader is not sure of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uncertain {
    /// Refuse the board ([`PixelError::Uncertain`]).
    Refuse,
    /// Leave them out when the certain cells alone have exactly one solution; refuse the board
    /// otherwise ([`PixelError::UncertainNeeded`]).
    LeaveOutIfUnique,
}

/// How a read becomes a puzzle: [`Puzzle::from_read`] takes the defaults (no diagonals, no
/// search budget).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// What to do with uncertain cells.
    pub uncertain: Uncertain,
    /// Both diagonals are houses too (sudoku X: a picture does not say).
    pub diagonals: bool,
    /// The most the uniqueness search may take; one that gives up refuses the board.
    pub budget: Budget,
}

impl Rules {
    /// The rules with `uncertain`, no diagonals and no budget.
    pub const fn new(uncertain: Uncertain) -> Rules {
        Rules { uncertain, diagonals: false, budget: Budget::NONE }
    }
}

/// Why the certain cells alone do not make a puzzle with one solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rest {
    /// More than one solution.
    #[error("more than one solution")]
    Several,
    /// No solution.
    #[error("no solution")]
    Unsolvable,
    /// Two certain values break a rule.
    #[error("certain values that break a rule")]
    Conflict,
    /// The search gave up within its budget.
    #[error("too many possibilities to search within the time given")]
    GaveUp,
}

/// A board read from pixels, as a puzzle by the one rule (see the module's text).
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// The certain values (givens and entries alike) in place; uncertain cells blank.
    pub givens: Grid,
    /// The uncertain cells left out (empty unless [`Uncertain::LeaveOutIfUnique`] let some go):
    /// never to be typed into.
    pub left_out: Vec<Cell>,
    /// The solution, when the rule had to find it (cells were left out).
    solution: Option<Grid>,
}

impl Puzzle {
    /// The puzzle of a read, by the one rule, with no diagonals and no search budget.
    pub fn from_read(read: &BoardRead, uncertain: Uncertain) -> Result<Puzzle, PixelError> {
        Puzzle::with_rules(read, &Rules::new(uncertain))
    }

    /// The puzzle of a read, by the one rule, with the given [`Rules`].
    pub fn with_rules(read: &BoardRead, rules: &Rules) -> Result<Puzzle, PixelError> {
        Puzzle::with_cages(read, rules, None)
    }

    /// [`Puzzle::with_rules`], the board a Killer with `cages` when there are some (read from
    /// the same picture: [`super::killer`]).
    pub fn with_cages(
        read: &BoardRead,
        rules: &Rules,
        cages: Option<&[Cage]>,
    ) -> Result<Puzzle, PixelError> {
        let mut givens = read.grid_without_uncertain()?;
        if rules.diagonals || cages.is_some() {
            let mut geometry = givens.geometry().clone();
            if rules.diagonals {
                geometry = geometry.with_diagonals();
            }
            if let Some(cages) = cages {
                geometry = geometry.with_cages(cages.to_vec())?;
            }
            givens = Grid::new(Arc::new(geometry), givens.cells().to_vec())?;
        }
        let uncertain = read.uncertain();
        if uncertain.is_empty() {
            return Ok(Puzzle { givens, left_out: uncertain, solution: None });
        }
        if rules.uncertain == Uncertain::Refuse {
            return Err(PixelError::Uncertain { cells: uncertain });
        }
        let rest = match solve::solve_within(&givens, &rules.budget) {
            Ok(Verdict::Unique(solution)) => {
                return Ok(Puzzle { givens, left_out: uncertain, solution: Some(solution) });
            }
            Ok(Verdict::Multiple(..)) => Rest::Several,
            Ok(Verdict::Unsolvable) => Rest::Unsolvable,
            Ok(Verdict::Invalid(_)) => Rest::Conflict,
            Err(_) => Rest::GaveUp,
        };
        Err(PixelError::UncertainNeeded { cells: uncertain, rest })
    }

    /// The solver's verdict on the givens: the solution found by the rule when cells were left
    /// out (always unique then), else a fresh solve.
    pub fn verdict(&self) -> Verdict {
        match &self.solution {
            Some(solution) => Verdict::Unique(solution.clone()),
            None => solve::solve(&self.givens),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pixels::{CellKind, CellRead};

    /// A 9x9 read of `text`: digits certain givens, `a`-`i` certain entries (1-9), `?` an
    /// uncertain 1, anything else empty.
    fn read(text: &str) -> BoardRead {
        let board = crate::pixels::test_board(9, (3, 3), (0, 0), 48, 2);
        let cell = |kind, value, confidence| CellRead { kind, value, confidence };
        let cells = text
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => cell(CellKind::Given, Some(b - b'0'), 1.0),
                b'a'..=b'i' => cell(CellKind::Entry, Some(b - b'a' + 1), 0.9),
                b'?' => cell(CellKind::Unclear, Some(1), 0.2),
                _ => cell(CellKind::Empty, None, 1.0),
            })
            .collect();
        BoardRead { board, cells, settled: Vec::new() }
    }

    const PUZZLE: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    fn solution() -> Grid {
        let puzzle = read(PUZZLE).grid().unwrap();
        solve::solve(&puzzle).unique().unwrap().clone()
    }

    /// The puzzle with its first `n` givens unreadable.
    fn smeared(n: usize) -> String {
        let mut left = n;
        PUZZLE
            .chars()
            .map(|c| match c {
                '1'..='9' if left > 0 => {
                    left -= 1;
                    '?'
                }
                c => c,
            })
            .collect()
    }

    /// The puzzle with r1c5 (a given 6) unreadable: the other givens still have one solution.
    fn r1c5() -> String {
        PUZZLE.replacen('6', "?", 1)
    }

    #[test]
    fn a_certain_read_is_its_puzzle_whatever_the_policy() {
        for policy in [Uncertain::Refuse, Uncertain::LeaveOutIfUnique] {
            let p = Puzzle::from_read(&read(PUZZLE), policy).unwrap();
            assert_eq!(p.givens, read(PUZZLE).grid().unwrap());
            assert!(p.left_out.is_empty());
            assert_eq!(p.verdict().unique(), Some(&solution()));
        }
        // Entries are certain values too: kept in place.
        let mut with_entry = PUZZLE.as_bytes().to_vec();
        with_entry[0] = b'a' + solution().cells()[0] - 1;
        let with_entry = String::from_utf8(with_entry).unwrap();
        let p = Puzzle::from_read(&read(&with_entry), Uncertain::Refuse).unwrap();
        assert_eq!(p.givens.get(0), solution().get(0));
    }

    #[test]
    fn an_uncertain_cell_is_left_out_only_when_the_rest_has_one_solution() {
        let one = r1c5();
        let p = Puzzle::from_read(&read(&one), Uncertain::LeaveOutIfUnique).unwrap();
        assert_eq!(p.left_out, [Cell { row: 0, col: 4 }]);
        assert_eq!(p.givens.get(4), None);
        assert_eq!(p.verdict().unique(), Some(&solution()));
        // Refused by the other policy, naming it.
        let err = Puzzle::from_read(&read(&one), Uncertain::Refuse).unwrap_err();
        assert_eq!(err, PixelError::Uncertain { cells: vec![Cell { row: 0, col: 4 }] });
        // Most givens unreadable: the rest has many solutions; refused, naming the cells.
        let err = Puzzle::from_read(&read(&smeared(30)), Uncertain::LeaveOutIfUnique).unwrap_err();
        let PixelError::UncertainNeeded { cells, rest } = &err else { panic!("{err}") };
        assert_eq!((cells.len(), *rest), (30, Rest::Several));
        let message = err.to_string();
        assert!(message.starts_with("the board was found, but 30 cells are uncertain: r1c4 r1c5"));
        assert!(
            message.ends_with(
                "without them the board has no unique solution (more than one solution)"
            )
        );
    }

    #[test]
    fn the_rest_may_have_no_solution_or_break_a_rule() {
        // Two certain 2s in row 1 beside an uncertain cell: a conflict.
        let mut text = r1c5().into_bytes();
        text[0] = b'2';
        let err = Puzzle::from_read(
            &read(&String::from_utf8(text).unwrap()),
            Uncertain::LeaveOutIfUnique,
        );
        assert!(
            matches!(err, Err(PixelError::UncertainNeeded { rest: Rest::Conflict, .. })),
            "{err:?}"
        );
        // A certain value no solution allows: none.
        let mut text = r1c5().into_bytes();
        text[2] = b'0' + (solution().cells()[2] % 9 + 1);
        let rules = Rules::new(Uncertain::LeaveOutIfUnique);
        let err = Puzzle::with_rules(&read(&String::from_utf8(text).unwrap()), &rules);
        assert!(
            matches!(
                err,
                Err(PixelError::UncertainNeeded { rest: Rest::Unsolvable | Rest::Conflict, .. })
            ),
            "{err:?}"
        );
    }

    #[test]
    fn diagonals_make_the_puzzle_an_x_sudoku() {
        let rules = Rules { diagonals: true, ..Rules::new(Uncertain::Refuse) };
        let p = Puzzle::with_rules(&read(PUZZLE), &rules).unwrap();
        assert!(p.givens.geometry().has_diagonals());
        assert!(
            !Puzzle::from_read(&read(PUZZLE), Uncertain::Refuse)
                .unwrap()
                .givens
                .geometry()
                .has_diagonals()
        );
    }
}
