//! Putting the answer into the game: which cells to type (empty ones and wrong user values),
//! in which order, by keyboard cursor or by mouse, and the show-thinking display.

use super::backend::{Desktop, MouseButton};
use super::game::send_keys;
use super::keys::{Key, Keys, snake_order};
use super::{DesktopError, Input, MouseGrid, Options};
use crate::grid::Grid;

/// One step of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A key.
    Key(Key),
    /// A click at a screen point.
    Click(MouseButton, i32, i32),
    /// A pause for a person to watch (show-thinking only).
    Watch,
}

/// Cells (reading-order indices) whose value on `board` differs from `solution`: empty cells
/// and wrong user values. Givens are never in the list (they equal the solution).
pub fn cells_to_type(board: &Grid, solution: &Grid) -> Vec<usize> {
    (0..board.cells().len()).filter(|&i| board.cells()[i] != solution.cells()[i]).collect()
}

/// Keyboard plan: home the cursor, then walk the cells in snake order typing each value.
pub fn keyboard_plan(keys: &mut Keys, cells: &[usize], solution: &Grid) -> Vec<Action> {
    let side = solution.side();
    let mut order = cells.to_vec();
    snake_order(&mut order, side);
    keys.home();
    for &i in &order {
        keys.put(i % side, i / side, solution.cells()[i]);
    }
    keys.take().into_iter().map(Action::Key).collect()
}

/// Mouse plan: clear any selection by clicking a given (clicking a given always deselects),
/// then left-click each cell and type its value (the selection disappears after each value).
pub fn mouse_plan(
    grid: &MouseGrid,
    board: &Grid,
    cells: &[usize],
    solution: &Grid,
) -> Result<Vec<Action>, DesktopError> {
    let side = solution.side();
    let given = (0..board.cells().len())
        .find(|&i| board.get(i).is_some() && !cells.contains(&i))
        .ok_or(DesktopError::NoGivenToClick)?;
    let mut actions = Vec::with_capacity(cells.len() * 2 + 1);
    let (gx, gy) = grid.centre(given % side, given / side);
    actions.push(Action::Click(MouseButton::Left, gx, gy));
    for &i in cells {
        let (x, y) = grid.centre(i % side, i / side);
        let mut keys = Keys::new(side);
        keys.assume_cursor(i % side, i / side);
        if keys.value(solution.cells()[i]) {
            actions.push(Action::Click(MouseButton::Left, x, y));
            actions.extend(keys.take().into_iter().map(Action::Key));
        }
    }
    Ok(actions)
}

/// Runs actions, pacing keys with the key delay and watch steps with the step delay.
pub fn perform<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    actions: &[Action],
) -> Result<(), DesktopError> {
    for action in actions {
        match *action {
            Action::Key(key) => send_keys(desktop, opts, &[key])?,
            Action::Click(button, x, y) => desktop.click(button, x, y)?,
            Action::Watch => desktop.pause(opts.step_delay),
        }
        if opts.abort.as_ref().is_some_and(|a| a.load(std::sync::atomic::Ordering::Relaxed)) {
            desktop.release_all();
            return Err(DesktopError::Aborted);
        }
    }
    Ok(())
}

/// The input plan for the chosen strategy (without show-thinking).
pub fn plan(
    opts: &Options,
    board: &Grid,
    cells: &[usize],
    solution: &Grid,
    pencil_known: bool,
) -> Result<Vec<Action>, DesktopError> {
    match &opts.input {
        Input::Keyboard => {
            let mut keys = Keys::new(solution.side());
            if pencil_known {
                keys.assume_pencil(false);
            }
            Ok(keyboard_plan(&mut keys, cells, solution))
        }
        Input::Mouse(Some(grid)) => mouse_plan(grid, board, cells, solution),
        Input::Mouse(None) => Err(DesktopError::NoMouseGrid),
    }
}
