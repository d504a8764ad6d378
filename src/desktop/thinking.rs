//! Show thinking: the desktop bot plays the technique engine's path ([`crate::logic::explain`])
//! on the screen. First the wrong user values are cleared and every open cell gets its
//! candidates as pencil marks; then each step of the engine, in the engine's order, is told
//! (its text, as `sudobot explain` prints it) and played: a placement types the value (Solo
//! clears that cell's marks) and removes the value's mark from the peers that had it; an
//! elimination removes exactly the step's marks. A Guess step (when the scale's techniques run
//! out) places the solution's value, and its text says "Guess". `--step-delay` pauses after
//! every step; `--stop-after N` stops once N values are placed, leaving the marks.
//!
//! Every key is proven by the key-safety model before anything is sent: the plan is checked
//! against a [`Tracker`] step by step, and after every step the model's view of the game (each
//! cell's value and pencil marks) must equal the engine's board, so no key can add a mark meant
//! to be removed, place a value in pencil mode or land on another cell. Copy does not show
//! pencil marks, so the marks an open cell already has are unknown: the plan clears each open
//! cell (Backspace, which in Solo removes all of a cell's marks in either mode) before writing
//! its candidates.
//!
//! Pencil mode is shared between keyboard and mouse in Solo (notes section 5). With the
//! keyboard, the bot toggles it with Return and tracks it (the caller finds it out first). With
//! the mouse, each mark is a right click then the digit, preceded by a left click on a given
//! cell so that the right click always selects afresh (builds that keep the pencil highlight
//! would otherwise toggle the selection off and lose the digit); on a board without givens
//! (most Killer games) the first click is the other button on the cell itself.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::backend::{Desktop, MouseButton};
use super::error::DesktopError;
use super::fill::{self, Action, Proven};
use super::keys::Keys;
use super::model::{Allow, CellState, Tracker};
use super::mouse::MouseGrid;
use super::{Input, Options};
use crate::grid::{Cell, Grid};
use crate::logic::{self, Board};

/// Where the text of each step goes as the show plays it (the library prints nothing).
#[derive(Clone)]
pub struct Tell(pub Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for Tell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tell(..)")
    }
}

/// A part of the show: the setup (clearing wrong values, pencilling the candidates) or one step
/// of the engine with its text.
#[derive(Clone, Debug)]
pub struct Segment {
    /// The step's text (`None` for the setup).
    pub text: Option<String>,
    /// The input, proven by the key model.
    pub actions: Proven,
    /// Values placed.
    pub placed: usize,
    /// Pencil marks removed.
    pub unmarked: usize,
}

/// The whole show, proven.
#[derive(Clone, Debug, Default)]
pub struct Show {
    /// The setup, then one segment per engine step (up to `--stop-after`).
    pub segments: Vec<Segment>,
}

impl Show {
    /// Values the show places.
    pub fn placed(&self) -> usize {
        self.segments.iter().map(|s| s.placed).sum()
    }

    /// Input actions the show sends.
    pub fn actions(&self) -> usize {
        self.segments.iter().map(|s| s.actions.len()).sum()
    }

    /// The step texts, in order.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| s.text.as_deref())
    }
}

/// The candidate set of every cell of `grid` as the engine starts from it (bit v-1 for value v;
/// 0 for filled cells); `None` when the grid breaks a rule.
pub fn candidates(grid: &Grid) -> Option<Vec<u64>> {
    let board = Board::new(grid).ok()?;
    Some((0..grid.cells().len()).map(|i| board.cands(i)).collect())
}

/// Plans the show from the board as found (`board`: the game's values; the tracker knows the
/// same), proving every segment against `tracker` as it is built. `keys` carries the keyboard
/// cursor and pencil mode as the caller left them (keyboard input only).
pub fn plan(
    opts: &Options,
    keys: &mut Keys,
    tracker: &mut Tracker,
    givens: &Grid,
    board: &Grid,
    solution: &Grid,
) -> Result<Show, DesktopError> {
    let side = solution.side();
    let n = side * side;
    if board.cells() == solution.cells() {
        return Ok(Show::default());
    }
    let wrong: Vec<usize> = (0..n)
        .filter(|&i| board.get(i).is_some() && board.cells()[i] != solution.cells()[i])
        .collect();
    // The engine starts from the right values only; it places the cleared ones itself.
    let right: Vec<u8> = (0..n)
        .map(|i| if board.cells()[i] == solution.cells()[i] { board.cells()[i] } else { 0 })
        .collect();
    let start =
        Grid::new(solution.geometry_arc().clone(), right).map_err(|_| DesktopError::Unsolvable)?;
    let path = logic::explain(&start, opts.scale)?;
    let mut mirror = Board::new(&start).map_err(DesktopError::Invalid)?;
    let mut input = Builder::new(opts, keys, givens, side)?;

    // Setup: clear the wrong values, then every open cell's unknown marks, then its candidates.
    let mut order: Vec<usize> = (0..n).filter(|&i| mirror.value(i) == 0).collect();
    super::keys::snake_order(&mut order, side);
    input.normal_mode();
    for &i in &wrong {
        input.clear(i, false);
    }
    for &i in &order {
        input.clear(i, true);
        for v in values(mirror.cands(i)) {
            input.mark(i, v);
        }
    }
    let mut show = Show::default();
    let actions = prove(tracker, input.take(), &mirror, "pencilling the candidates")?;
    show.segments.push(Segment { text: None, actions, placed: 0, unmarked: 0 });

    let limit = opts.stop_after.unwrap_or(usize::MAX);
    let mut placed = 0;
    for step in &path.steps {
        if placed >= limit {
            break;
        }
        let before = mirror.clone();
        logic::apply(&mut mirror, step);
        let mut seg_placed = 0;
        for &(cell, v) in &step.place {
            if before.value(cell) == 0 {
                input.place(cell, v);
                seg_placed += 1;
            }
        }
        // Every mark the step takes away on a cell that stays open: the placed values' marks
        // in the peers, or the step's eliminations.
        let mut unmarked = 0;
        for i in (0..n).filter(|&i| mirror.value(i) == 0) {
            for v in values(before.cands(i) & !mirror.cands(i)) {
                input.unmark(i, v);
                unmarked += 1;
            }
        }
        let text = step.text();
        let actions = prove(tracker, input.take(), &mirror, &text)?;
        placed += seg_placed;
        show.segments.push(Segment { text: Some(text), actions, placed: seg_placed, unmarked });
    }
    // Leave the keyboard in normal mode, as the game starts; with the mouse, no selection.
    input.finish();
    let tail = input.take();
    if !tail.is_empty() {
        let tail = prove(tracker, tail, &mirror, "leaving pencil mode")?;
        if let Some(last) = show.segments.last_mut() {
            last.actions = std::mem::take(&mut last.actions).then(tail);
        }
    }
    Ok(show)
}

/// Plays a proven show: tells each step's text, sends its input, then pauses `--step-delay`.
/// Esc or Ctrl-C stops it between two actions, so nothing of a later step is sent.
pub fn perform<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    show: &Show,
) -> Result<(), DesktopError> {
    let aborted = || opts.abort.as_ref().is_some_and(|a| a.load(Ordering::Relaxed));
    for segment in &show.segments {
        if aborted() {
            desktop.release_all();
            return Err(DesktopError::Aborted);
        }
        if let (Some(text), Some(tell)) = (&segment.text, &opts.tell) {
            (tell.0)(text);
        }
        fill::perform(desktop, opts, &segment.actions)?;
        desktop.pause(opts.step_delay);
    }
    Ok(())
}

/// Checks a segment against the key model, then that the model's view of the game is the
/// engine's board: the same values, and every open cell's pencil marks its candidates.
fn prove(
    tracker: &mut Tracker,
    actions: Vec<Action>,
    board: &Board,
    what: &str,
) -> Result<Proven, DesktopError> {
    let proven = fill::check(tracker, actions, Allow::Marks)?;
    let side = board.side();
    for i in 0..side * side {
        let want = board.value(i);
        let ok = match tracker.cell(i) {
            CellState::Given => want != 0,
            CellState::Value(v) => v == want,
            CellState::Empty => want == 0 && tracker.marks(i) == Some(board.cands(i)),
            CellState::Unknown => false,
        };
        if !ok {
            return Err(DesktopError::UnsafeKey {
                reason: format!(
                    "after {what}, cell {} would be {:?} with pencil marks {:?}, not the engine's \
                     value {want} with candidates {:#b}",
                    Cell::from_index(i, side),
                    tracker.cell(i),
                    tracker.marks(i),
                    board.cands(i)
                ),
            });
        }
    }
    Ok(proven)
}

/// The values of a candidate mask, ascending.
fn values(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
}

/// Builds the input for placing values, clearing cells and toggling marks, by keyboard cursor
/// or by mouse.
struct Builder<'a> {
    side: usize,
    keys: &'a mut Keys,
    /// Mouse input: the grid, and the click on a given that clears the selection (none on a
    /// board without givens, such as most Killer games).
    mouse: Option<(MouseGrid, Option<Action>)>,
    actions: Vec<Action>,
}

impl<'a> Builder<'a> {
    fn new(
        opts: &Options,
        keys: &'a mut Keys,
        givens: &Grid,
        side: usize,
    ) -> Result<Builder<'a>, DesktopError> {
        let mouse = match &opts.input {
            Input::Keyboard => None,
            Input::Mouse(Some(grid)) => {
                let deselect = fill::first_given(givens).ok().map(|given| {
                    let (gx, gy) = grid.centre(given % side, given / side);
                    Action::Click(MouseButton::Left, gx, gy, given)
                });
                Some((*grid, deselect))
            }
            Input::Mouse(None) => return Err(DesktopError::NoMouseGrid),
        };
        Ok(Builder { side, keys, mouse, actions: Vec::new() })
    }

    /// Keyboard: pencil mode off (the tracked mode; the model refuses it if unknown).
    fn normal_mode(&mut self) {
        if self.mouse.is_none() {
            self.keys.set_pencil(false);
            self.actions.extend(self.keys.take().into_iter().map(Action::Key));
        }
    }

    /// One key on a cell: by keyboard, in the given pencil mode; by mouse, after a click on a
    /// given (which deselects) and a left (normal) or right (pencil) click on the cell, so the
    /// key can never be rejected. Without a given, two clicks on the cell itself: right then
    /// left for normal mode (a right click leaves pencil mode on, whether it selected or
    /// deselected, so the left click selects), left then right for pencil mode (likewise).
    fn on_cell(&mut self, cell: usize, pencil: bool, key: impl FnOnce(&mut Keys) -> bool) {
        let (x, y) = (cell % self.side, cell / self.side);
        match self.mouse {
            None => {
                self.keys.go_to(x, y);
                self.keys.set_pencil(pencil);
                key(self.keys);
                self.actions.extend(self.keys.take().into_iter().map(Action::Key));
            }
            Some((grid, deselect)) => {
                let mut keys = Keys::new(self.side);
                keys.assume_cursor(x, y);
                if key(&mut keys) {
                    let (px, py) = grid.centre(x, y);
                    let (button, other) = if pencil {
                        (MouseButton::Right, MouseButton::Left)
                    } else {
                        (MouseButton::Left, MouseButton::Right)
                    };
                    match deselect {
                        Some(click) => self.actions.push(click),
                        None => self.actions.push(Action::Click(other, px, py, cell)),
                    }
                    self.actions.push(Action::Click(button, px, py, cell));
                    self.actions.extend(keys.take().into_iter().map(Action::Key));
                }
            }
        }
    }

    /// Clears a cell (its value, or all its marks).
    fn clear(&mut self, cell: usize, pencil: bool) {
        self.on_cell(cell, pencil, Keys::clear);
    }

    fn place(&mut self, cell: usize, value: u8) {
        self.on_cell(cell, false, |k| k.value(value));
    }

    fn mark(&mut self, cell: usize, value: u8) {
        self.on_cell(cell, true, |k| k.value(value));
    }

    fn unmark(&mut self, cell: usize, value: u8) {
        self.on_cell(cell, true, |k| k.value(value));
    }

    /// Keyboard: back to normal mode; mouse: nothing selected.
    fn finish(&mut self) {
        match self.mouse {
            None => self.normal_mode(),
            Some((_, deselect)) => self.actions.extend(deselect),
        }
    }

    fn take(&mut self) -> Vec<Action> {
        std::mem::take(&mut self.actions)
    }
}

/// What a Killer show did: values placed, input actions sent, and the board the game's save
/// file shows at the end (`None` with `--stop-after`).
pub(super) struct KillerShow {
    pub placed: usize,
    pub actions: usize,
    pub board: Option<Grid>,
}

/// Show thinking on a Killer game, which has no Game > Copy: the board (values, and pencil
/// marks, which Copy never shows) is read by saving the game to a private file and replaying
/// its moves ([`super::save`]). By keyboard the pencil mode is found with one probe key, read
/// back the same way; then the show plays as on any game, the engine using its cage techniques.
pub(super) fn run_killer<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    givens: &Grid,
    desc: &str,
    solution: &Grid,
) -> Result<KillerShow, DesktopError> {
    use super::save;
    save::check_backend(desktop)?;
    let mut dir = save::PrivateDir::new()?;
    let side = solution.side();
    let read = |desktop: &mut D, dir: &mut save::PrivateDir| -> Result<Grid, DesktopError> {
        let (board, _) = save::read_board(desktop, opts, dir, givens, desc)?;
        Grid::new(givens.geometry_arc().clone(), board.values)
            .map_err(|e| DesktopError::SaveFile(format!("the replayed board: {e}")))
    };
    let mut board = read(desktop, &mut dir)?;
    let mut tracker = Tracker::new(&board, givens, solution);
    let mut keys = Keys::new(side);
    let mut sent = 0;
    let wrong = (0..side * side).find(|&i| {
        board.get(i).is_some_and(|v| v != solution.cells()[i]) && givens.get(i).is_none()
    });
    let empty = (0..side * side).find(|&i| board.get(i).is_none());
    if let (Input::Keyboard, Some(cell)) = (&opts.input, wrong.or(empty)) {
        // Backspace on a wrong value: cleared (normal mode) or nothing (pencil mode). Else the
        // solution's value in an empty cell: placed, or a pencil mark toggled.
        keys.go_to(cell % side, cell / side);
        if wrong.is_some() {
            keys.clear();
        } else {
            keys.value(solution.cells()[cell]);
        }
        let probe: Vec<Action> = keys.take().into_iter().map(Action::Key).collect();
        sent += fill::prove_and_send(desktop, opts, &mut tracker, probe, Allow::Probe)?;
        let now = read(desktop, &mut dir)?;
        let got = now.get(cell);
        let pencil =
            if wrong.is_some() { got.is_some() } else { got != Some(solution.cells()[cell]) };
        tracker.learn(pencil, cell, got);
        keys.assume_pencil(pencil);
        // Back to normal mode, and the probed empty cell empty again (value or mark cleared),
        // so the show starts from the board as found.
        keys.set_pencil(false);
        if wrong.is_none() {
            keys.clear();
        }
        let back: Vec<Action> = keys.take().into_iter().map(Action::Key).collect();
        sent += fill::prove_and_send(desktop, opts, &mut tracker, back, Allow::Values)?;
        board = now;
        if wrong.is_none() {
            let _ = board.set(cell, None);
        }
    }
    let show = plan(opts, &mut keys, &mut tracker, givens, &board, solution)?;
    perform(desktop, opts, &show)?;
    let board = match opts.stop_after {
        Some(_) => None,
        None => Some(read(desktop, &mut dir)?),
    };
    Ok(KillerShow { placed: show.placed(), actions: sent + show.actions(), board })
}
