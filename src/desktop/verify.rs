//! Checks on a solution before anything is typed and after: the solver's verdict as the bot's
//! error, a puzzle the user gave against the game's, and a board read back against the
//! solution.

use super::error::DesktopError;
use super::fill;
use crate::grid::{Cell, Grid};
use crate::logic::{self, LogicError};

/// Solves a puzzle, refusing anything but a unique solution: the solver's verdict
/// ([`logic::unique_solution`]) as the bot's error, the only place the desktop maps it.
pub fn unique_solution(puzzle: &Grid) -> Result<Grid, DesktopError> {
    logic::unique_solution(puzzle).map_err(|e| match e {
        LogicError::NoSolution => DesktopError::Unsolvable,
        LogicError::Several(_) => DesktopError::Multiple,
        LogicError::Invalid(c) => DesktopError::Invalid(c),
        other => DesktopError::Logic(other),
    })
}

/// Fails with the cells that still differ from the solution; `why` names how the board was
/// read when that is not the usual Copy (or is empty).
pub fn check_solved(board: &Grid, solution: &Grid, why: &str) -> Result<(), DesktopError> {
    let wrong = fill::cells_to_type(board, solution);
    match wrong.first() {
        Some(&first) => Err(DesktopError::NotSolved {
            count: wrong.len(),
            first: Cell::from_index(first, solution.side()),
            why: why.into(),
        }),
        None => Ok(()),
    }
}

/// Whether a puzzle the user gave is the game's: same grid shape and regions, the game's
/// givens kept, and the same unique solution.
pub fn check_matches(expected: &Grid, givens: &Grid, solution: &Grid) -> Result<(), DesktopError> {
    let side = givens.side();
    if expected.side() != side {
        return Err(DesktopError::PuzzleMismatch {
            detail: format!("it is {0}x{0}, the game is {1}x{1}", expected.side(), side),
        });
    }
    if expected.geometry().region_map() != givens.geometry().region_map() {
        return Err(DesktopError::PuzzleMismatch {
            detail: "its regions differ from the game's".into(),
        });
    }
    if let Some(i) = (0..side * side).find(|&i| {
        givens.get(i).is_some() && expected.get(i).is_some_and(|v| Some(v) != givens.get(i))
    }) {
        return Err(DesktopError::PuzzleMismatch {
            detail: format!(
                "cell {} holds a given the puzzle disagrees with",
                Cell::from_index(i, side)
            ),
        });
    }
    match unique_solution(expected) {
        Ok(s) if s.cells() == solution.cells() => Ok(()),
        Ok(_) => Err(DesktopError::PuzzleMismatch {
            detail: "its solution differs from the game's".into(),
        }),
        Err(e) => {
            Err(DesktopError::PuzzleMismatch { detail: format!("it cannot be checked ({e})") })
        }
    }
}
