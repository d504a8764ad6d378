//! Show thinking: the seed bot's display mode. First every empty cell gets its candidates as
//! pencil marks, then values go in one at a time in the order a person could find them (naked
//! and hidden singles; when none is left, the cell with the fewest candidates takes its value
//! from the solution), and each placed value's pencil marks are removed from the cell's
//! neighbours, with a pause (`--step-delay`) after every step.
//!
//! Pencil mode is shared between keyboard and mouse in Solo (notes section 5). With the
//! keyboard, the bot toggles it with Return and tracks it, assuming the game starts in normal
//! mode (a fresh game does; so does any game after a left click on a cell). With the mouse, each
//! mark is a right click then the digit, preceded by a left click on a given cell so that the
//! right click always selects afresh (builds that keep the pencil highlight would otherwise
//! toggle the selection off and lose the digit).

use super::backend::MouseButton;
use super::fill::Action;
use super::keys::Keys;
use super::{DesktopError, Input, MouseGrid, Options};
use crate::grid::Grid;

/// One value placed while showing the thinking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The cell (reading-order index).
    pub cell: usize,
    /// Its value.
    pub value: u8,
    /// Neighbours whose pencil mark for `value` is removed.
    pub unmark: Vec<usize>,
}

/// The candidate set of every cell of `grid` (bit v-1 for value v; 0 for filled cells).
pub fn candidates(grid: &Grid) -> Vec<u64> {
    let side = grid.side();
    let all = if side >= 64 { u64::MAX } else { (1u64 << side) - 1 };
    let mut cands: Vec<u64> = grid.cells().iter().map(|&v| if v == 0 { all } else { 0 }).collect();
    for house in grid.geometry().houses() {
        let used = house.cells.iter().fold(0u64, |m, &i| match grid.cells()[i] {
            0 => m,
            v => m | 1 << (v - 1),
        });
        for &i in &house.cells {
            cands[i] &= !used;
        }
    }
    cands
}

/// The cells sharing a house with `cell`.
fn peers(grid: &Grid, cell: usize) -> Vec<usize> {
    let mut out: Vec<usize> = grid
        .geometry()
        .houses()
        .iter()
        .filter(|h| h.cells.contains(&cell))
        .flat_map(|h| h.cells.iter().copied())
        .filter(|&i| i != cell)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The order in which values are placed, starting from `start` (which must agree with
/// `solution`), with the pencil marks each placement removes.
pub fn solving_order(start: &Grid, solution: &Grid) -> Vec<Step> {
    let mut grid = start.clone();
    let mut marks = candidates(&grid);
    let mut steps = Vec::new();
    let side = grid.side();
    while !grid.is_full() {
        let cands = candidates(&grid);
        let naked = (0..cands.len()).find(|&i| grid.cells()[i] == 0 && cands[i].count_ones() == 1);
        let hidden = || {
            grid.geometry().houses().iter().find_map(|h| {
                (0..side).find_map(|bit| {
                    let mut places = h.cells.iter().filter(|&&i| cands[i] >> bit & 1 == 1);
                    match (places.next(), places.next()) {
                        (Some(&i), None) => Some(i),
                        _ => None,
                    }
                })
            })
        };
        let cell = naked.or_else(hidden).unwrap_or_else(|| {
            (0..cands.len())
                .filter(|&i| grid.cells()[i] == 0)
                .min_by_key(|&i| cands[i].count_ones())
                .unwrap_or(0)
        });
        let value = solution.cells()[cell];
        if value == 0 || grid.set(cell, Some(value)).is_err() {
            break;
        }
        marks[cell] = 0;
        let bit = 1u64 << (value - 1);
        let unmark: Vec<usize> =
            peers(&grid, cell).into_iter().filter(|&p| marks[p] & bit != 0).collect();
        for &p in &unmark {
            marks[p] &= !bit;
        }
        steps.push(Step { cell, value, unmark });
    }
    steps
}

/// The show-thinking input plan: correct wrong user values, pencil in every candidate, then
/// place values in solving order (stopping after `opts.stop_after` values if set). The
/// keyboard plan assumes normal (not pencil) mode; the caller establishes it.
pub fn plan(
    opts: &Options,
    givens: &Grid,
    board: &Grid,
    solution: &Grid,
) -> Result<Vec<Action>, DesktopError> {
    let side = solution.side();
    let wrong: Vec<usize> = (0..board.cells().len())
        .filter(|&i| board.get(i).is_some() && board.cells()[i] != solution.cells()[i])
        .collect();
    let mut start = board.clone();
    for &i in &wrong {
        start.set(i, Some(solution.cells()[i])).map_err(|_| DesktopError::Unsolvable)?;
    }
    let marks = candidates(&start);
    let steps = solving_order(&start, solution);
    let limit = opts.stop_after.unwrap_or(usize::MAX);
    match &opts.input {
        Input::Keyboard => Ok(keyboard(side, &wrong, &marks, &steps, limit, solution)),
        Input::Mouse(Some(grid)) => mouse(grid, givens, &wrong, &marks, &steps, limit, solution),
        Input::Mouse(None) => Err(DesktopError::NoMouseGrid),
    }
}

fn keyboard(
    side: usize,
    wrong: &[usize],
    marks: &[u64],
    steps: &[Step],
    limit: usize,
    solution: &Grid,
) -> Vec<Action> {
    let mut keys = Keys::new(side);
    keys.assume_pencil(false);
    let mut actions = Vec::new();
    let flush = |keys: &mut Keys, actions: &mut Vec<Action>| {
        actions.extend(keys.take().into_iter().map(Action::Key))
    };
    for &i in wrong {
        keys.put(i % side, i / side, solution.cells()[i]);
    }
    keys.set_pencil(true);
    for (i, &m) in marks.iter().enumerate() {
        if m == 0 {
            continue;
        }
        keys.go_to(i % side, i / side);
        for v in 1..=side as u8 {
            if m >> (v - 1) & 1 == 1 {
                keys.value(v);
            }
        }
    }
    flush(&mut keys, &mut actions);
    actions.push(Action::Watch);
    for step in steps.iter().take(limit) {
        keys.go_to(step.cell % side, step.cell / side);
        keys.set_pencil(false);
        keys.value(step.value);
        if !step.unmark.is_empty() {
            keys.set_pencil(true);
            for &p in &step.unmark {
                keys.go_to(p % side, p / side);
                keys.value(step.value);
            }
        }
        flush(&mut keys, &mut actions);
        actions.push(Action::Watch);
    }
    keys.set_pencil(false);
    flush(&mut keys, &mut actions);
    actions
}

fn mouse(
    grid: &MouseGrid,
    givens: &Grid,
    wrong: &[usize],
    marks: &[u64],
    steps: &[Step],
    limit: usize,
    solution: &Grid,
) -> Result<Vec<Action>, DesktopError> {
    let side = solution.side();
    let given = super::fill::first_given(givens)?;
    let at = |i: usize| grid.centre(i % side, i / side);
    let (gx, gy) = at(given);
    let deselect = Action::Click(MouseButton::Left, gx, gy, given);
    let mut actions = Vec::new();
    // Every key follows a click that selected its cell afresh, so it can never be rejected.
    let press = |actions: &mut Vec<Action>, button: MouseButton, cell: usize, value: u8| {
        let (x, y) = at(cell);
        let mut keys = Keys::new(side);
        keys.assume_cursor(cell % side, cell / side);
        if keys.value(value) {
            actions.push(deselect);
            actions.push(Action::Click(button, x, y, cell));
            actions.extend(keys.take().into_iter().map(Action::Key));
        }
    };
    for &i in wrong {
        press(&mut actions, MouseButton::Left, i, solution.cells()[i]);
    }
    for (i, &m) in marks.iter().enumerate() {
        for v in 1..=side as u8 {
            if m >> (v - 1) & 1 == 1 {
                press(&mut actions, MouseButton::Right, i, v);
            }
        }
    }
    actions.push(Action::Watch);
    for step in steps.iter().take(limit) {
        press(&mut actions, MouseButton::Left, step.cell, step.value);
        for &p in &step.unmark {
            press(&mut actions, MouseButton::Right, p, step.value);
        }
        actions.push(Action::Watch);
    }
    actions.push(deselect);
    Ok(actions)
}
