//! The answer to a board read from the page, whatever the source: solved once
//! ([`solve_board`]), the `--hint` step, the show-thinking order, and the player's mistakes
//! named where nothing proves the givens. Nothing here touches the page.

use std::sync::Arc;

use super::error::PlayError;
use super::fill::Target;
use super::options::Hint;
use super::read::PageBoard;
use crate::grid::{Cell, Geometry, Grid};
use crate::logic::{self, Board, Scale};
use crate::solve::{self, Verdict};

/// Solves the givens on `geometry` (the site's, or the one a pixel read measured): the puzzle
/// and its one solution; a board problem is an error that says nothing was typed.
pub fn solve_board(geometry: Arc<Geometry>, board: &PageBoard) -> Result<(Grid, Grid), PlayError> {
    let puzzle =
        Grid::new(geometry, board.puzzle_values()?).map_err(|e| PlayError::Logic(e.to_string()))?;
    match solve::solve(&puzzle) {
        Verdict::Unique(s) => Ok((puzzle, s)),
        Verdict::Invalid(c) => Err(PlayError::Invalid(c)),
        Verdict::Unsolvable => Err(PlayError::Unsolvable),
        Verdict::Multiple(..) => Err(PlayError::Multiple { givens: board.givens() }),
    }
}

/// [`PlayError::Mistakes`] for `board`, every filled cell fixed.
pub fn unproven_error(
    board: &PageBoard,
    geometry: &Arc<Geometry>,
    hint: Option<&[bool]>,
    rule: String,
) -> PlayError {
    let found = super::mistakes::find(board, geometry, hint);
    PlayError::Mistakes { cells: found.cells, detail: found.detail, rule }
}

/// The grid as the player left it: givens and the values typed so far (anything else blank).
fn board_grid(board: &PageBoard, puzzle: &Grid) -> Grid {
    let cells = (0..board.raw.len()).map(|i| board.digit(i)).collect();
    // The board's symbols on the board's geometry always fit.
    Grid::new(puzzle.geometry_arc().clone(), cells).expect("a board's values fit its grid")
}

/// The `--hint` answer: the values typed so far that are wrong, else the easiest next step.
pub fn hint_for(board: &PageBoard, solution: &Grid, scale: Scale) -> Result<Hint, PlayError> {
    let wrong: Vec<(Cell, String)> = (0..board.raw.len())
        .filter(|&i| {
            !board.given[i] && !board.raw[i].is_empty() && board.digit(i) != solution.cells()[i]
        })
        .map(|i| (Cell::from_index(i, board.side), board.raw[i].clone()))
        .collect();
    if !wrong.is_empty() {
        return Ok(Hint::Mistakes(wrong));
    }
    let grid = board_grid(board, solution);
    let start = Board::new(&grid).map_err(|c| PlayError::Logic(c.to_string()))?;
    match logic::hint(&start, scale) {
        Ok(Some(step)) => Ok(Hint::Step(step)),
        Ok(None) => Ok(Hint::Solved),
        Err(e) => Err(PlayError::Logic(e.to_string())),
    }
}

/// Orders `targets` as the technique engine places their values, starting from the board with
/// the player's right values (wrong ones are retyped where the engine places that cell). Returns
/// for each target, in the new order, the texts of the steps told before it is typed: every
/// step since the previous placement, eliminations included.
pub fn engine_order(
    board: &PageBoard,
    solution: &Grid,
    scale: Scale,
    targets: &mut Vec<Target>,
) -> Result<Vec<Vec<String>>, PlayError> {
    let right: Vec<u8> = (0..board.raw.len())
        .map(|i| {
            let d = board.digit(i);
            if d == solution.cells()[i] { d } else { 0 }
        })
        .collect();
    // Right values only: a subset of the solution on the same geometry.
    let grid = Grid::new(solution.geometry_arc().clone(), right).expect("a subset of the solution");
    let path = logic::explain(&grid, scale).map_err(|e| PlayError::Logic(e.to_string()))?;
    let mut order = Vec::with_capacity(targets.len());
    let mut notes = Vec::with_capacity(targets.len());
    let mut pending = Vec::new();
    for step in &path.steps {
        pending.push(step.text());
        for &(cell, _) in &step.place {
            if let Some(t) = targets.iter().find(|t| t.index == cell) {
                order.push(*t);
                notes.push(std::mem::take(&mut pending));
            }
        }
    }
    if order.len() != targets.len() {
        return Err(PlayError::Logic(format!(
            "its path places {} of the {} cells to type",
            order.len(),
            targets.len()
        )));
    }
    *targets = order;
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page board from a one-line puzzle plus the player's values (`.` for none).
    fn page(puzzle: &str, player: &str) -> PageBoard {
        let raw = puzzle
            .bytes()
            .zip(player.bytes())
            .map(|(g, p)| match (g, p) {
                (b'.', b'.') => String::new(),
                (b'.', p) => (p as char).to_string(),
                (g, _) => (g as char).to_string(),
            })
            .collect();
        PageBoard {
            side: 9,
            raw,
            given: puzzle.bytes().map(|g| g != b'.').collect(),
            dom_order: (0..81).collect(),
        }
    }

    // top1465 #1: needs more than singles.
    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn engine_order_types_every_cell_once_in_path_order_and_tells_every_step() {
        let geometry = Geometry::standard(9).unwrap();
        let (puzzle, solution) = solve_board(geometry, &page(HARD, &".".repeat(81))).unwrap();
        let s = solution.cells();
        // One right value (r1c2) and one wrong value (r1c3) typed by the player.
        let mut player = vec![b'.'; 81];
        player[1] = b'0' + s[1];
        player[2] = b'0' + (s[2] % 9 + 1);
        let board = page(HARD, std::str::from_utf8(&player).unwrap());
        let mut targets = super::super::fill::plan(&board, s);
        let before = targets.len();
        let notes = engine_order(&board, &solution, Scale::Score, &mut targets).unwrap();
        assert_eq!(targets.len(), before);
        assert_eq!(notes.len(), targets.len());
        assert!(targets.iter().all(|t| t.digit == s[t.index]));
        assert!(!targets.iter().any(|t| t.index == 1), "a right value is not retyped");
        assert!(targets.iter().any(|t| t.index == 2 && t.clear == 1), "a wrong value is retyped");
        // The texts told are the path from the board with the right values, in order; the
        // path needs more than singles, so some texts are eliminations told with a placement.
        let mut right = puzzle.cells().to_vec();
        right[1] = s[1];
        let start = Grid::new(puzzle.geometry_arc().clone(), right).unwrap();
        let path = logic::explain(&start, Scale::Score).unwrap();
        let told: Vec<String> = notes.iter().flatten().cloned().collect();
        let texts: Vec<String> = path.steps.iter().map(|s| s.text()).collect();
        assert!(texts.starts_with(&told), "told steps are a prefix of the path");
        assert!(notes.iter().any(|n| n.len() > 1), "eliminations are told too");
        let placed: Vec<usize> =
            path.steps.iter().flat_map(|s| s.place.iter().map(|&(c, _)| c)).collect();
        let order: Vec<usize> = targets.iter().map(|t| t.index).collect();
        assert_eq!(order, placed.into_iter().filter(|c| order.contains(c)).collect::<Vec<_>>());
    }
}
