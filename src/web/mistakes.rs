//! The player's mistakes on a board whose givens nothing proves.
//!
//! When no read-only, disabled or `aria-readonly` state (and no site file's marker) tells the
//! givens from the player's entries, every filled cell is fixed: sudobot never types into one.
//! If those cells break a rule or leave no solution, the run is refused, and this module names
//! the cells to check. A style or class that only some filled cells carry (the hint) may mark
//! the givens or the entries, so both readings are tried: the cells of one side alone, solved,
//! have one solution, and the filled cells of the other side that differ from it are the
//! mistakes. Without a usable hint, a conflict names its two cells, and a board with no
//! solution names the cells whose removal alone would leave one.

use std::sync::Arc;
use std::time::Duration;

use super::read::PageBoard;
use crate::grid::{Cell, Geometry, Grid};
use crate::solve::{self, Budget, Verdict};

/// What is wrong with the filled cells, as far as it can be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistakes {
    /// The cells to check, in reading order (empty when they cannot be narrowed down).
    pub cells: Vec<Cell>,
    /// What is wrong, in words.
    pub detail: String,
}

/// The bound on each search while naming mistakes (a failure path; one search per reading of
/// the hint, or per filled cell without one).
const EACH: Budget = Budget { time: Some(Duration::from_millis(500)), guesses: Some(200_000) };

/// At most this many cells are named from the removal search (more would not help the player).
const MAX_NAMED: usize = 8;

/// Names the mistakes among the filled cells of `board` (all of them fixed). `hint` marks, cell
/// by cell, the filled cells a style or class sets apart, when there is one.
pub fn find(board: &PageBoard, geometry: &Arc<Geometry>, hint: Option<&[bool]>) -> Mistakes {
    let n = board.side * board.side;
    let filled: Vec<bool> = (0..n).map(|i| board.digit(i) != 0).collect();
    let grid_of = |keep: &dyn Fn(usize) -> bool| {
        let cells = (0..n).map(|i| if keep(i) { board.digit(i) } else { 0 }).collect();
        Grid::new(geometry.clone(), cells).ok()
    };
    let verdict = |keep: &dyn Fn(usize) -> bool| {
        grid_of(keep).and_then(|g| solve::solve_within(&g, &EACH).ok())
    };
    let cell = |i: usize| Cell::from_index(i, board.side);
    let conflict = match verdict(&|i| filled[i]) {
        Some(Verdict::Invalid(c)) => Some(c),
        _ => None,
    };
    let what = match &conflict {
        Some(c) => c.to_string(),
        None => "the filled cells leave no solution".to_string(),
    };

    // Both readings of the hint: the marked cells are the givens, or the unmarked ones are.
    if let Some(hint) = hint.filter(|h| h.len() == n) {
        let mut found: Vec<(Vec<usize>, bool)> = Vec::new();
        for marked in [true, false] {
            let side: Vec<bool> = (0..n).map(|i| filled[i] && hint[i] == marked).collect();
            let count = side.iter().filter(|s| **s).count();
            if count == 0 || count == filled.iter().filter(|f| **f).count() {
                continue;
            }
            if let Some(Verdict::Unique(solution)) = verdict(&|i| side[i]) {
                let wrong: Vec<usize> = (0..n)
                    .filter(|&i| filled[i] && !side[i] && board.digit(i) != solution.cells()[i])
                    .collect();
                if !wrong.is_empty() {
                    found.push((wrong, marked));
                }
            }
        }
        if let Some(fewest) = found.iter().map(|(w, _)| w.len()).min() {
            let mut cells: Vec<usize> = found
                .iter()
                .filter(|(w, _)| w.len() == fewest)
                .flat_map(|(w, _)| w.iter().copied())
                .collect();
            cells.sort_unstable();
            cells.dedup();
            let reading = if found.iter().filter(|(w, _)| w.len() == fewest).count() == 1 {
                "the filled cells on one side of the hint alone have one solution, and those named \
                 here differ from it"
            } else {
                "the hint reads either way: the filled cells on each side of it alone have one \
                 solution, and those named here differ from one of them"
            };
            return Mistakes {
                cells: cells.into_iter().map(cell).collect(),
                detail: format!("{what}; {reading}"),
            };
        }
    }
    if let Some(c) = conflict {
        return Mistakes { cells: vec![c.first, c.second], detail: what };
    }
    // No solution and no hint that helps: the cells whose removal alone leaves a solution.
    let mut suspects = Vec::new();
    if board.side <= 9 {
        for i in (0..n).filter(|&i| filled[i]) {
            if let Some(Verdict::Unique(_) | Verdict::Multiple(..)) =
                verdict(&|j| filled[j] && j != i)
            {
                suspects.push(i);
            }
        }
    }
    if suspects.is_empty() || suspects.len() > MAX_NAMED {
        return Mistakes { cells: Vec::new(), detail: what };
    }
    Mistakes {
        cells: suspects.into_iter().map(cell).collect(),
        detail: format!("{what}; without any one of these cells it has one"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// A 9x9 page board from `text` (`.` empty), every filled cell fixed.
    fn board(text: &str) -> PageBoard {
        let raw: Vec<String> =
            text.chars().map(|c| if c == '.' { String::new() } else { c.to_string() }).collect();
        let given = raw.iter().map(|r| !r.is_empty()).collect();
        PageBoard { side: 9, raw, given, dom_order: (0..81).collect() }
    }

    fn geometry() -> Arc<Geometry> {
        Arc::new(Geometry::for_side(9).unwrap())
    }

    #[test]
    fn the_hint_names_the_wrong_entry_whichever_side_it_marks() {
        // The givens: the well-known example puzzle's cells. The player's entries fill every
        // other cell but those of the last two rows, and one of them (r5c5) is wrong.
        let puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let givens: Vec<bool> = puzzle.chars().map(|c| c != '.').collect();
        let mut text: Vec<char> = SOLUTION.chars().collect();
        for (i, c) in text.iter_mut().enumerate() {
            if i >= 63 && !givens[i] {
                *c = '.';
            }
        }
        let wrong = Cell { row: 4, col: 4 }.index(9);
        assert!(!givens[wrong]);
        text[wrong] = if text[wrong] == '5' { '6' } else { '5' };
        let b = board(&text.iter().collect::<String>());
        for hint in [givens.clone(), givens.iter().map(|g| !g).collect()] {
            let m = find(&b, &geometry(), Some(&hint));
            assert_eq!(m.cells, vec![Cell { row: 4, col: 4 }], "{m:?}");
        }
        // Without a hint, the conflict's cells are named.
        let m = find(&b, &geometry(), None);
        assert!(m.cells.contains(&Cell { row: 4, col: 4 }), "{m:?}");
    }
}
