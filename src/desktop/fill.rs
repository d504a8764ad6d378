//! Putting the answer into the game: which cells to type (empty ones and wrong user values),
//! in which order, by keyboard cursor or by mouse, and the show-thinking display.

use super::backend::{Desktop, MouseButton, Rect};
use super::error::DesktopError;
use super::game;
use super::keys::{Key, Keys, snake_order};
use super::model::{Allow, CellState, Effect, Tracker, Worlds};
use super::mouse::MouseGrid;
use super::send::Sendable;
use super::{Input, Options};
use crate::grid::Grid;

/// One step of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A key.
    Key(Key),
    /// A click at a screen point, meant for a cell (reading-order index).
    Click(MouseButton, i32, i32, usize),
    /// A pause for a person to watch (show-thinking only).
    Watch,
}

/// Input the key model has proven, in order. Only [`check`] and [`check_blind`] make one (its
/// field is private and it has no other constructor), and [`perform`] sends nothing else, so a
/// key that was not proven cannot reach the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proven {
    actions: Vec<Action>,
}

impl Proven {
    /// The proven actions.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// How many actions.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether there is nothing to send.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// This plan followed by `next`, which was proven on the model this plan left.
    pub fn then(mut self, next: Proven) -> Proven {
        self.actions.extend(next.actions);
        self
    }
}

/// Proves a click of a run by pixels, which has no key model: a left click at `at` for
/// `cell`, where `area` is the window's place read just before it; the point must be inside
/// the window.
pub fn check_click_in(area: Rect, at: (i32, i32), cell: usize) -> Result<Proven, DesktopError> {
    let inside = Rect { x: at.0, y: at.1, width: 1, height: 1 }.inside(area);
    if !inside {
        return Err(DesktopError::UnsafeKey {
            reason: format!("a click at {},{} is outside the window ({area:?})", at.0, at.1),
        });
    }
    Ok(Proven { actions: vec![Action::Click(MouseButton::Left, at.0, at.1, cell)] })
}

/// Proves a digit of a run by pixels: the solution's value for the cell the window showed as
/// the one selected (only [`Selected::seen`] makes that proof), typed as one key.
pub fn check_digit(selected: &Selected, solution: &Grid) -> Result<Proven, DesktopError> {
    let index = selected.index;
    let value = solution.get(index).filter(|&v| (1..=9).contains(&v)).ok_or_else(|| {
        DesktopError::UnsafeKey {
            reason: format!(
                "no single digit for {}",
                crate::grid::Cell::from_index(index, solution.side())
            ),
        }
    })?;
    Ok(Proven { actions: vec![Action::Key(Key::Char(char::from(b'0' + value)))] })
}

/// A cell the window's pixels showed as the one selected, just after the bot clicked it.
#[derive(Debug)]
pub struct Selected {
    index: usize,
}

impl Selected {
    /// The proof that `index` is the selected cell: made by the run by pixels only once it has
    /// seen the cell's own rectangle take a look no other cell on the board has.
    pub(crate) fn seen(index: usize) -> Selected {
        Selected { index }
    }
}

/// Cells (reading-order indices) whose value on `board` differs from `solution`: empty cells
/// and wrong user values. Givens are never in the list (they equal the solution).
pub fn cells_to_type(board: &Grid, solution: &Grid) -> Vec<usize> {
    (0..board.cells().len()).filter(|&i| board.cells()[i] != solution.cells()[i]).collect()
}

/// Keyboard plan: walk the cells in snake order typing each value (homing the cursor first
/// when its position is unknown).
pub fn keyboard_plan(keys: &mut Keys, cells: &[usize], solution: &Grid) -> Vec<Action> {
    let side = solution.side();
    let mut order = cells.to_vec();
    snake_order(&mut order, side);
    for &i in &order {
        keys.put(i % side, i / side, solution.cells()[i]);
    }
    keys.take().into_iter().map(Action::Key).collect()
}

/// Keyboard plan for a game whose pencil mode and cell contents are unknown (Killer, where
/// the board cannot be read): at each cell, in snake order, the value, Return, the value
/// again. In normal mode the first key places the value, Return switches to pencil mode and
/// Solo rejects the second key (a filled cell takes no pencil mark); in pencil mode the first
/// key toggles a mark (empty cell) or is rejected (filled cell), Return switches to normal
/// mode and the second key places the value. Either way the cell ends holding the value (and
/// no pencil marks), and the mode has flipped, so the next cell starts in an unknown mode
/// again. [`check_blind`] proves this per key in both modes.
pub fn blind_plan(keys: &mut Keys, cells: &[usize], solution: &Grid) -> Vec<Action> {
    let side = solution.side();
    let mut order = cells.to_vec();
    snake_order(&mut order, side);
    for &i in &order {
        let value = solution.cells()[i];
        if keys.put(i % side, i / side, value) {
            keys.toggle_pencil();
            keys.value(value);
        }
    }
    keys.take().into_iter().map(Action::Key).collect()
}

/// Proves a plan for a game whose cells and pencil mode may be unknown: every key and click
/// must be safe in each possible pencil mode (see [`Worlds`]), and afterwards every cell of
/// `cells` must hold its solution value in each.
pub fn check_blind(
    worlds: &mut Worlds,
    actions: Vec<Action>,
    cells: &[usize],
    solution: &Grid,
) -> Result<Proven, DesktopError> {
    for action in &actions {
        match *action {
            Action::Key(key) => worlds.step(key, Allow::Blind),
            Action::Click(button, _, _, cell) => worlds.click(button, cell),
            Action::Watch => continue,
        }
        .map_err(|reason| DesktopError::UnsafeKey { reason })?;
    }
    for &i in cells {
        let want = CellState::Value(solution.cells()[i]);
        if worlds.cell(i) != Some(want) {
            return Err(DesktopError::UnsafeKey {
                reason: format!(
                    "the plan does not provably leave cell {} holding {}",
                    crate::grid::Cell::from_index(i, solution.side()),
                    solution.cells()[i]
                ),
            });
        }
    }
    Ok(Proven { actions })
}

/// Mouse plan: clear any selection by clicking a given (clicking a given always deselects),
/// then left-click each cell and type its value (the selection disappears after each value).
pub fn mouse_plan(
    grid: &MouseGrid,
    givens: &Grid,
    cells: &[usize],
    solution: &Grid,
) -> Result<Vec<Action>, DesktopError> {
    let side = solution.side();
    let given = first_given(givens)?;
    let mut actions = Vec::with_capacity(cells.len() * 2 + 1);
    let (gx, gy) = grid.centre(given % side, given / side);
    actions.push(Action::Click(MouseButton::Left, gx, gy, given));
    for &i in cells {
        let (x, y) = grid.centre(i % side, i / side);
        let mut keys = Keys::new(side);
        keys.assume_cursor(i % side, i / side);
        if keys.value(solution.cells()[i]) {
            actions.push(Action::Click(MouseButton::Left, x, y, i));
            actions.extend(keys.take().into_iter().map(Action::Key));
        }
    }
    Ok(actions)
}

/// The first given cell (clicking it deselects whatever is selected).
pub fn first_given(givens: &Grid) -> Result<usize, DesktopError> {
    (0..givens.cells().len()).find(|&i| givens.get(i).is_some()).ok_or(DesktopError::NoGivenToClick)
}

/// Runs proven actions, pacing keys with the key delay and watch steps with the step delay.
pub fn perform<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    proven: &Proven,
) -> Result<(), DesktopError> {
    tracing::debug!("sending {} proven actions", proven.len());
    for input in Sendable::plan(proven) {
        match input {
            Some(input) => game::send(desktop, opts, &[input])?,
            None => desktop.pause(opts.step_delay),
        }
        if opts.aborted() {
            desktop.release_all();
            return Err(DesktopError::Aborted);
        }
    }
    Ok(())
}

/// Proves a plan against the key model before anything of it is sent: every key and click
/// must have one known effect in every state the game may be in, values must be the
/// solution's, and pencil marks or probes only where `allow` says. Returns the plan, proven.
pub fn check(
    tracker: &mut Tracker,
    actions: Vec<Action>,
    allow: Allow,
) -> Result<Proven, DesktopError> {
    let mut probes = 0;
    for action in &actions {
        let effect = match *action {
            Action::Key(key) => tracker.step(key, allow),
            Action::Click(button, _, _, cell) => tracker.click(button, cell),
            Action::Watch => continue,
        }
        .map_err(|reason| DesktopError::UnsafeKey { reason })?;
        if matches!(effect, Effect::PlaceOrMark { .. } | Effect::ClearOrNothing { .. }) {
            probes += 1;
            if probes > 1 {
                return Err(DesktopError::UnsafeKey {
                    reason: "a second key before the pencil mode is known".into(),
                });
            }
        }
    }
    Ok(Proven { actions })
}

/// Proves a plan ([`check`]) and sends it ([`perform`]); returns how many actions went.
pub fn prove_and_send<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    tracker: &mut Tracker,
    actions: Vec<Action>,
    allow: Allow,
) -> Result<usize, DesktopError> {
    let proven = check(tracker, actions, allow)?;
    perform(desktop, opts, &proven)?;
    Ok(proven.len())
}

/// The input plan for the chosen strategy (without show-thinking), starting from what the
/// tracker knows of the keyboard cursor and mode.
pub fn plan(
    opts: &Options,
    keys: &mut Keys,
    givens: &Grid,
    cells: &[usize],
    solution: &Grid,
) -> Result<Vec<Action>, DesktopError> {
    match &opts.input {
        Input::Keyboard => Ok(keyboard_plan(keys, cells, solution)),
        Input::Mouse(Some(grid)) => mouse_plan(grid, givens, cells, solution),
        Input::Mouse(None) => Err(DesktopError::NoMouseGrid),
    }
}
