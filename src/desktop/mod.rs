//! The desktop bot: solves Simon Tatham's Solo (the sudoku in MobaXterm's Games menu) on the
//! screen with synthetic keyboard and mouse input.
//!
//! - [`backend`]: the [`Desktop`] trait, the only way to touch the OS (keys, clicks, clipboard,
//!   window focus); [`x11`] implements it with enigo, arboard and x11rb, [`portable`] with
//!   enigo and arboard alone (Windows/MobaXterm, interactive mode).
//! - [`keys`]: key values and the builder that cannot emit a Solo command letter by accident.
//! - [`menu`]: Game-menu navigation per front end (GTK vs Windows).
//! - [`game`]: reading the game ID (Specific...) and the board (Copy) with bounded waits.
//! - [`fill`]: what to type and in which order, by keyboard cursor or mouse.
//! - [`thinking`]: the show-thinking display (pencil marks, then the technique engine's steps:
//!   eliminations and placements, each step's text told as it is played).
//! - [`interactive`]: the hotkey session (F1 origin, F4 step, F3 walk, F2 solve, Esc abort);
//!   [`hotkeys`] listens for those keys (X11 RECORD, Windows `RegisterHotKey`).
//!
//! - [`killer`] and [`save`]: Killer games, which have no Copy: typed blind, checked by
//!   saving the game to a private file and replaying its moves.
//!
//! [`run_auto`] ties them together: read, solve, type, copy back (Killer: save), confirm.

pub mod backend;
#[cfg(test)]
mod fake;
pub mod fill;
pub mod game;
pub mod hotkeys;
pub mod interactive;
pub mod keys;
mod killer;
pub mod menu;
pub mod model;
pub mod portable;
pub mod save;
#[cfg(test)]
mod tests;
pub mod thinking;
#[cfg(all(unix, not(target_os = "macos")))]
pub mod x11;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

pub use backend::{Desktop, MouseButton, Rect};
pub use menu::Platform;

use crate::format::ParseError;
use crate::grid::{Cell, Conflict, Grid};
use crate::solve::{self, Verdict};

/// Errors of the desktop bot.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DesktopError {
    /// No window with the title was found.
    #[error(
        "no window titled {title:?} is showing (is Solo running? use --window to give another title)"
    )]
    WindowNotFound {
        /// The title looked for.
        title: String,
    },
    /// The game window is minimized (or otherwise not shown).
    #[error(
        "the window titled {title:?} is minimized: restore it, then run again; nothing was typed"
    )]
    Minimized {
        /// The title.
        title: String,
    },
    /// Interactive F2 with the focus on another window than the game.
    #[error("the focused window is {focused}, not the Solo game: click the game, then press F2")]
    NotTheGame {
        /// The focused window.
        focused: String,
    },
    /// Could not talk to the display server.
    #[error("cannot use the display: {0}")]
    Display(String),
    /// Synthetic input failed.
    #[error("cannot send input: {0}")]
    Input(String),
    /// The clipboard failed.
    #[error("cannot use the clipboard: {0}")]
    Clipboard(String),
    /// A bounded wait ran out.
    #[error("timed out after {waited_ms} ms waiting for {what}")]
    Timeout {
        /// What was awaited.
        what: String,
        /// How long.
        waited_ms: u64,
    },
    /// The game is Killer, whose board Game > Copy cannot read (Killer games have no Copy).
    #[error(
        "the game is Killer sudoku ({params}), which has no Game > Copy to read the board from; \
         only solving it (--auto, F2) works on Killer games; nothing was typed"
    )]
    Killer {
        /// The game's parameters.
        params: String,
    },
    /// A Killer game cannot be checked here (it is checked by saving it).
    #[error(
        "a Killer game is checked by saving it, which cannot be done here: {why}; nothing was typed"
    )]
    CannotSave {
        /// Why.
        why: String,
    },
    /// The save file could not be written, found or used.
    #[error("the game's save file: {0}")]
    SaveFile(String),
    /// The save file could not be read or replayed.
    #[error("cannot read the game's save file")]
    BadSave {
        /// Why.
        #[source]
        source: crate::format::solo_save::SaveError,
    },
    /// The game ID could not be read.
    #[error("cannot read the game ID {id:?}")]
    BadGameId {
        /// The text read.
        id: String,
        /// Why.
        #[source]
        source: ParseError,
    },
    /// The copied board could not be read.
    #[error("cannot read the board copied from the game")]
    BadCopy {
        /// Why.
        #[source]
        source: ParseError,
    },
    /// A puzzle given on the command line or the clipboard could not be read.
    #[error("cannot read the puzzle")]
    BadPuzzle(#[from] ParseError),
    /// The copied board disagrees with the game ID.
    #[error("the copied board does not match the game ID: {detail}")]
    CopyMismatch {
        /// How.
        detail: String,
    },
    /// The givens break a rule.
    #[error("the puzzle is invalid: {0}; nothing was typed")]
    Invalid(Conflict),
    /// No solution.
    #[error("the puzzle has no solution; nothing was typed")]
    Unsolvable,
    /// Several solutions.
    #[error("the puzzle has more than one solution; nothing was typed")]
    Multiple,
    /// The mouse strategy needs the cell grid on the screen.
    #[error(
        "the mouse strategy needs the first cell's centre and the cell step (--origin X,Y --step PX, or the F1/F4 hotkeys)"
    )]
    NoMouseGrid,
    /// A click would land outside its cell.
    #[error(
        "the mouse grid (origin {origin:?}, step {step} px) misses cell {cell} of the game window; \
         recalibrate (F1/F4) or leave out --origin/--step"
    )]
    MouseGridOff {
        /// The first cell missed.
        cell: Cell,
        /// The origin given.
        origin: (i32, i32),
        /// The step given.
        step: f64,
    },
    /// Mouse input on a large grid whose window cannot be checked.
    #[error(
        "on a {side}x{side} grid some values are letters Solo also takes as commands, and the mouse \
         grid cannot be checked against the window here: use --input keyboard"
    )]
    UncheckedMouse {
        /// The side.
        side: usize,
    },
    /// Mouse input cannot reach every cell it would click.
    #[error("mouse input cannot be used here: {reason}; nothing was typed (use --input keyboard)")]
    MouseUnsafe {
        /// Why: off-screen, covered, window shape.
        reason: String,
    },
    /// A planned key could not be proven safe by the key model, so it was not sent.
    #[error("refusing a key the model cannot prove safe: {reason}")]
    UnsafeKey {
        /// Why.
        reason: String,
    },
    /// The puzzle the user gave is not the game's.
    #[error("the given puzzle does not match the game in the window: {detail}; nothing was typed")]
    PuzzleMismatch {
        /// How.
        detail: String,
    },
    /// A menu or dialog of the game stayed open.
    #[error("the game's {what} is open and could not be closed; nothing was typed")]
    Blocked {
        /// What is open.
        what: String,
    },
    /// Mouse input needs a given cell to clear the selection safely.
    #[error(
        "the board has no given cell to click for clearing the selection (Killer games often have \
         none); use --input keyboard"
    )]
    NoGivenToClick,
    /// The board copied back after typing is not the solution.
    #[error("after typing, {count} cell(s) still differ from the solution (first: {first}){why}")]
    NotSolved {
        /// How many cells differ.
        count: usize,
        /// The first of them.
        first: Cell,
        /// A likely reason seen on the screen (a window over the board), or empty.
        why: String,
    },
    /// The user pressed Esc.
    #[error("aborted (Esc or Ctrl-C); keys released")]
    Aborted,
    /// The technique engine could not explain the board (show-thinking).
    #[error("the technique engine cannot explain the board: {0}; nothing was typed")]
    Logic(#[from] crate::logic::LogicError),
    /// The hotkey listener failed.
    #[error("cannot listen for hotkeys: {0}")]
    Hotkeys(String),
}

/// The cell grid on the screen, for mouse input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MouseGrid {
    /// Screen point of the centre of the top-left cell.
    pub origin: (i32, i32),
    /// Distance between cell centres, in pixels (Solo's tile size; 48 by default).
    pub step: f64,
}

impl MouseGrid {
    /// Screen point of the centre of cell (x, y).
    pub fn centre(&self, x: usize, y: usize) -> (i32, i32) {
        (
            self.origin.0 + (self.step * x as f64).round() as i32,
            self.origin.1 + (self.step * y as f64).round() as i32,
        )
    }

    /// The first cell whose centre, by this grid, would not land in that cell of the game
    /// window described by `window` (Solo's mapping: a click selects the tile it falls in).
    pub fn first_misplaced(&self, window: &MouseGrid, side: usize) -> Option<Cell> {
        let tile = window.step;
        // Top-left corner of cell (0,0) on the screen.
        let (left, top) =
            (window.origin.0 as f64 - tile / 2.0, window.origin.1 as f64 - tile / 2.0);
        (0..side * side).map(|i| Cell::from_index(i, side)).find(|cell| {
            let (x, y) = self.centre(cell.col, cell.row);
            let tx = ((x as f64 - left) / tile).floor();
            let ty = ((y as f64 - top) / tile).floor();
            tx != cell.col as f64 || ty != cell.row as f64
        })
    }

    /// The grid of a GTK Solo window from its client area (menu bar included) and side.
    ///
    /// Solo (`gtk.c`, `midend_size`) picks the largest tile for which the board
    /// (`side * tile + 2 * (tile / 2) + 1` square) fits the drawing area under the menu bar,
    /// and centres the board there, so a window taller or wider than the board has margins.
    /// The menu bar is the window's height minus its width when that is a menu bar's height
    /// (the window as Solo sized it), else GTK's usual 25 pixels.
    pub fn from_gtk_window(area: Rect, side: usize) -> Option<MouseGrid> {
        let (w, h) = (area.width as i32, area.height as i32);
        let menubar = if (18..=40).contains(&(h - w)) { h - w } else { GTK_MENUBAR };
        let (dw, dh) = (w, h - menubar);
        let fit = dw.min(dh);
        let side = side as i32;
        let size = |t: i32| t * side + 2 * (t / 2) + 1;
        let mut tile = (fit - 1) / (side + 1) + 1;
        while tile > 0 && size(tile) > fit {
            tile -= 1;
        }
        if tile < 8 {
            return None;
        }
        let (ox, oy) = ((dw - size(tile)) / 2, menubar + (dh - size(tile)) / 2);
        let first = tile / 2 + tile / 2;
        Some(MouseGrid { origin: (area.x + ox + first, area.y + oy + first), step: tile as f64 })
    }
}

/// GTK's menu bar height with the default theme (measured on Debian 12).
pub const GTK_MENUBAR: i32 = 25;

/// How values get into the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Arrow keys from a homed cursor; needs no calibration.
    Keyboard,
    /// Mouse clicks at cell centres (`None`: from the window when possible).
    Mouse(Option<MouseGrid>),
}

/// Everything the bot is told.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game's front end (menu keys, line endings).
    pub platform: Platform,
    /// Input strategy.
    pub input: Input,
    /// Pacing between synthetic keys (0 = as fast as the display takes them).
    pub key_delay: Duration,
    /// Pause after opening a menu when the platform cannot report menus.
    pub menu_delay: Duration,
    /// Bound on every wait (menu, dialog, clipboard).
    pub timeout: Duration,
    /// Show thinking: pencil marks first, then values in solving order.
    pub show_thinking: bool,
    /// Pause between show-thinking moves.
    pub step_delay: Duration,
    /// Show thinking: stop after placing this many values (pencil marks stay for inspection).
    pub stop_after: Option<usize>,
    /// Show thinking: the technique engine's scale (its techniques and their order).
    pub scale: crate::logic::Scale,
    /// Show thinking: receives the text of each step as it is played.
    pub tell: Option<thinking::Tell>,
    /// Set to abort between moves and inside waits (Esc in interactive mode).
    pub abort: Option<Arc<AtomicBool>>,
    /// Escapes the bot itself is about to send, so a hotkey listener that also sees synthetic
    /// keys can tell them from the user's Esc.
    pub own_escapes: Option<Arc<OwnEscapes>>,
}

impl Options {
    /// Whether the user asked to abort (Esc, Ctrl-C).
    pub fn aborted(&self) -> bool {
        self.abort.as_ref().is_some_and(|a| a.load(std::sync::atomic::Ordering::SeqCst))
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            platform: Platform::native(),
            input: Input::Keyboard,
            key_delay: Duration::ZERO,
            menu_delay: Duration::from_millis(250),
            timeout: Duration::from_secs(3),
            show_thinking: false,
            step_delay: Duration::from_millis(100),
            stop_after: None,
            scale: crate::logic::Scale::Score,
            tell: None,
            abort: None,
            own_escapes: None,
        }
    }
}

/// Escapes the bot sends itself, so that a hotkey listener that also sees synthetic keys (X11)
/// can skip them: the bot notes each Escape before sending it, the listener takes a note for
/// each Escape it sees, and after sending the bot waits until its notes are taken.
///
/// A note must not outlive its key: when the bot's Escape and the user's are down at the same
/// time the server merges them into one press (both go through the same keyboard), and a note
/// left over would swallow the user's next Esc. So [`OwnEscapes::settle`] drops whatever the
/// listener has not taken within [`OwnEscapes::WINDOW`].
#[derive(Debug, Default)]
pub struct OwnEscapes {
    pending: Mutex<usize>,
    taken: Condvar,
}

impl OwnEscapes {
    /// How long the bot waits for the listener to see an Escape it sent.
    pub const WINDOW: Duration = Duration::from_millis(500);

    fn pending(&self) -> MutexGuard<'_, usize> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes that the bot is about to send Escape.
    pub fn note(&self) {
        *self.pending() += 1;
    }

    /// For the listener: whether the Escape just seen is the bot's own (consuming the note).
    pub fn take(&self) -> bool {
        let mut pending = self.pending();
        if *pending == 0 {
            return false;
        }
        *pending -= 1;
        self.taken.notify_all();
        true
    }

    /// For the bot, after sending: waits until the listener has taken every note (at most
    /// [`OwnEscapes::WINDOW`]), then drops the notes left, whose keys were merged or lost.
    /// Returns whether all were taken.
    pub fn settle(&self) -> bool {
        let (mut pending, _) = self
            .taken
            .wait_timeout_while(self.pending(), Self::WINDOW, |pending| *pending > 0)
            .unwrap_or_else(PoisonError::into_inner);
        let all = *pending == 0;
        *pending = 0;
        all
    }
}

/// What a run did, with timings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Grid side.
    pub side: usize,
    /// The game's parameters as Solo writes them (`3x3`, `9j`, ...).
    pub params: String,
    /// Values typed (empty cells plus corrected ones).
    pub typed: usize,
    /// User values found wrong and corrected.
    pub corrected: usize,
    /// Input actions sent.
    pub actions: usize,
    /// Time to read the ID and the board.
    pub read: Duration,
    /// Time to solve.
    pub solve: Duration,
    /// Time to type.
    pub typing: Duration,
    /// Time to copy back and compare.
    pub verify: Duration,
    /// Whether the board read back was confirmed to be the solution.
    pub verified: bool,
    /// How the board was read back.
    pub check: Check,
}

/// How a run read the board back after typing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Game > Copy.
    Copy,
    /// Game > Save... and a replay of the save file's moves (Killer games have no Copy).
    Save,
}

impl Report {
    /// Total time.
    pub fn total(&self) -> Duration {
        self.read + self.solve + self.typing + self.verify
    }
}

/// Solves a puzzle, refusing anything but a unique solution.
pub fn unique_solution(puzzle: &Grid) -> Result<Grid, DesktopError> {
    match solve::solve(puzzle) {
        Verdict::Unique(s) => Ok(s),
        Verdict::Multiple(..) => Err(DesktopError::Multiple),
        Verdict::Unsolvable => Err(DesktopError::Unsolvable),
        Verdict::Invalid(c) => Err(DesktopError::Invalid(c)),
    }
}

/// The whole `--auto` run on a focused game: read the ID and board, solve the givens, type
/// every empty or wrong cell, copy the board back and confirm it is the solution.
pub fn run_auto<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
) -> Result<Report, DesktopError> {
    run_matching(desktop, opts, None)
}

/// [`run_auto`], first checking the game against a puzzle the user gave (`--puzzle`, the
/// clipboard): its solution must be the game's and its values must keep the game's givens,
/// else nothing is typed.
pub fn run_matching<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    expected: Option<&Grid>,
) -> Result<Report, DesktopError> {
    let t0 = desktop.elapsed();
    game::close_popups(desktop, opts)?;
    let text = game::read_game_id(desktop, opts)?;
    let id = game::parse_game_id(&text)?;
    if id.params.killer {
        let t1 = desktop.elapsed();
        return killer::run(desktop, opts, &text, &id, expected, (t0, t1));
    }
    let board = game::read_board(desktop, opts, &id)?;
    let state = game::GameState { id, board };
    let t1 = desktop.elapsed();
    let solution = unique_solution(&state.id.grid)?;
    if let Some(expected) = expected {
        check_matches(expected, &state.id.grid, &solution)?;
    }
    let t2 = desktop.elapsed();
    let givens = &state.id.grid;
    let cells = fill::cells_to_type(&state.board, &solution);
    let corrected = cells.iter().filter(|&&i| state.board.get(i).is_some()).count();
    let opts = &resolve_mouse(desktop, opts, givens, &cells, &solution)?;
    let report = |typed, actions, typing, verify, verified| Report {
        side: solution.side(),
        params: state.id.params.to_string(),
        typed,
        corrected,
        actions,
        read: t1 - t0,
        solve: t2 - t1,
        typing,
        verify,
        verified,
        check: Check::Copy,
    };
    if opts.show_thinking {
        let (placed, actions) = show_thinking(desktop, opts, &state, &solution)?;
        let t3 = desktop.elapsed();
        if opts.stop_after.is_some() {
            return Ok(report(placed, actions, t3 - t2, Duration::ZERO, false));
        }
        let board = game::read_board(desktop, opts, &state.id)?;
        let t4 = desktop.elapsed();
        check_solved(&board, &solution)?;
        return Ok(report(placed, actions, t3 - t2, t4 - t3, board.is_solution_of(givens)));
    }
    // Two passes at most: the second corrects anything the first left (keys the game dropped),
    // so a run never ends with a value it typed wrongly while it can still fix it.
    let mut board = state.board.clone();
    let (mut actions, mut typing, mut verify) = (0, Duration::ZERO, Duration::ZERO);
    for _pass in 0..2 {
        let todo = fill::cells_to_type(&board, &solution);
        if todo.is_empty() {
            break;
        }
        let start = desktop.elapsed();
        let mut tracker = model::Tracker::new(&board, givens, &solution);
        actions += type_cells(desktop, opts, &state.id, &mut tracker, &board, &todo, &solution)?;
        let typed = desktop.elapsed();
        board = game::read_board(desktop, opts, &state.id)?;
        typing += typed - start;
        verify += desktop.elapsed() - typed;
    }
    if let Err(DesktopError::NotSolved { count, first, .. }) = check_solved(&board, &solution) {
        // Name a window over the board, the likeliest reason keys or clicks went astray.
        let mut why = String::new();
        if let Some(area) = desktop.game_area()? {
            let (x, y) = (area.x + area.width as i32 / 2, area.y + area.height as i32 / 2);
            if let Some(cover) = desktop.covered_at(x, y)? {
                why = format!("; the board is covered by the window {cover}");
            }
        }
        return Err(DesktopError::NotSolved { count, first, why });
    }
    Ok(report(cells.len(), actions, typing, verify, board.is_solution_of(givens)))
}

/// Fails with the cells that still differ from the solution.
fn check_solved(board: &Grid, solution: &Grid) -> Result<(), DesktopError> {
    let wrong = fill::cells_to_type(board, solution);
    match wrong.first() {
        Some(&first) => Err(DesktopError::NotSolved {
            count: wrong.len(),
            first: Cell::from_index(first, solution.side()),
            why: String::new(),
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

/// Types the cells in `todo` by the chosen input, every key proven by the key model first.
/// Keyboard: with the pencil mode unknown, one probe finds it (Backspace on a wrong value, or
/// the first empty cell's value), read back by Copy; then the rest in normal mode.
fn type_cells<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id: &crate::format::solo_id::SoloId,
    tracker: &mut model::Tracker,
    board: &Grid,
    todo: &[usize],
    solution: &Grid,
) -> Result<usize, DesktopError> {
    let side = solution.side();
    let mut keys = keys::Keys::new(side);
    let mut sent = 0;
    if opts.input == Input::Keyboard && tracker.pencil().is_none() {
        sent += probe_pencil_mode(desktop, opts, id, tracker, &mut keys, board, todo, solution)?;
    }
    let rest: Vec<usize> = todo
        .iter()
        .copied()
        .filter(|&i| tracker.cell(i) != model::CellState::Value(solution.cells()[i]))
        .collect();
    let actions = fill::plan(opts, &mut keys, &id.grid, &rest, solution)?;
    fill::check(tracker, &actions, model::Allow::Values)?;
    fill::perform(desktop, opts, &actions)?;
    Ok(sent + actions.len())
}

/// Finds the pencil mode with one key whose every outcome is safe, reads the board back to
/// learn which outcome it was, and leaves the game in normal mode with the cursor shown.
#[allow(clippy::too_many_arguments)]
fn probe_pencil_mode<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id: &crate::format::solo_id::SoloId,
    tracker: &mut model::Tracker,
    keys: &mut keys::Keys,
    board: &Grid,
    todo: &[usize],
    solution: &Grid,
) -> Result<usize, DesktopError> {
    let side = solution.side();
    // Backspace on a wrong value: clears it (normal mode) or does nothing (pencil mode), and
    // adds no pencil move either way. Else the first empty cell's value: placed, or a pencil
    // mark the value typed after Return removes again.
    let wrong = todo.iter().copied().find(|&i| board.get(i).is_some());
    let Some(cell) = wrong.or_else(|| todo.first().copied()) else {
        return Ok(0);
    };
    keys.go_to(cell % side, cell / side);
    if wrong.is_some() {
        keys.clear();
    } else {
        keys.value(solution.cells()[cell]);
    }
    let actions: Vec<fill::Action> = keys.take().into_iter().map(fill::Action::Key).collect();
    fill::check(tracker, &actions, model::Allow::Probe)?;
    fill::perform(desktop, opts, &actions)?;
    let now = game::read_board(desktop, opts, id)?.get(cell);
    let pencil = if wrong.is_some() { now.is_some() } else { now != Some(solution.cells()[cell]) };
    tracker.learn(pencil, cell, now);
    keys.assume_pencil(pencil);
    let mut sent = actions.len();
    if pencil {
        keys.set_pencil(false);
        let back: Vec<fill::Action> = keys.take().into_iter().map(fill::Action::Key).collect();
        fill::check(tracker, &back, model::Allow::Values)?;
        fill::perform(desktop, opts, &back)?;
        sent += back.len();
    }
    Ok(sent)
}

/// Show thinking: establishes the mode (keyboard), then plays the technique engine's path
/// (pencilled candidates, eliminations, placements), every key proven first. Returns values
/// placed and actions sent.
fn show_thinking<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    state: &game::GameState,
    solution: &Grid,
) -> Result<(usize, usize), DesktopError> {
    let givens = &state.id.grid;
    let mut tracker = model::Tracker::new(&state.board, givens, solution);
    let mut board = state.board.clone();
    let mut keys = keys::Keys::new(solution.side());
    let mut sent = 0;
    if opts.input == Input::Keyboard {
        let todo = fill::cells_to_type(&state.board, solution);
        sent += probe_pencil_mode(
            desktop,
            opts,
            &state.id,
            &mut tracker,
            &mut keys,
            &state.board,
            &todo,
            solution,
        )?;
        // The show starts from the board as found: the value (or pencil mark) a probe of an
        // empty cell left goes again.
        if let Some(&i) =
            todo.first().filter(|_| todo.iter().all(|&i| state.board.get(i).is_none()))
        {
            keys.go_to(i % solution.side(), i / solution.side());
            keys.clear();
            let back: Vec<fill::Action> = keys.take().into_iter().map(fill::Action::Key).collect();
            fill::check(&mut tracker, &back, model::Allow::Values)?;
            fill::perform(desktop, opts, &back)?;
            sent += back.len();
        }
        // A wrong value the probe cleared is placed again by the engine.
        for i in 0..board.cells().len() {
            if let model::CellState::Value(v) = tracker.cell(i) {
                let _ = board.set(i, Some(v));
            } else if tracker.cell(i) == model::CellState::Empty {
                let _ = board.set(i, None);
            }
        }
    }
    let show = thinking::plan(opts, &mut keys, &mut tracker, givens, &board, solution)?;
    thinking::perform(desktop, opts, &show)?;
    Ok((show.placed(), sent + show.actions()))
}

/// Fills in the mouse grid from the game window when the user gave none, and checks every
/// click the run would make lands on a visible, uncovered cell centre of the game: on the
/// screen, inside the board's area of the window and under no other window. Anything else is
/// refused before typing, naming the reason.
fn resolve_mouse<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    givens: &Grid,
    todo: &[usize],
    solution: &Grid,
) -> Result<Options, DesktopError> {
    let side = solution.side();
    let mut opts = opts.clone();
    let Input::Mouse(given) = opts.input else {
        return Ok(opts);
    };
    let area = if opts.platform == Platform::Gtk { desktop.game_area()? } else { None };
    let from_window = area.and_then(|area| MouseGrid::from_gtk_window(area, side));
    let grid = match (given, from_window) {
        (None, found) => found.ok_or(DesktopError::NoMouseGrid)?,
        // Check every cell centre lands in its own cell by Solo's click mapping, so no value
        // is typed with nothing selected (where a letter could be a command).
        (Some(grid), Some(window)) => {
            if let Some(cell) = grid.first_misplaced(&window, side) {
                return Err(DesktopError::MouseGridOff {
                    cell,
                    origin: grid.origin,
                    step: grid.step,
                });
            }
            grid
        }
        // Unchecked clicks on grids where values are letters Solo also takes as commands.
        (Some(_), None) if side >= 22 => return Err(DesktopError::UncheckedMouse { side }),
        (Some(grid), None) => grid,
    };
    opts.input = Input::Mouse(Some(grid));
    // Show-thinking clicks a given to clear the selection, when there is one.
    let mut clicked = if opts.show_thinking {
        fill::first_given(givens).into_iter().collect()
    } else {
        vec![fill::first_given(givens)?]
    };
    if opts.show_thinking {
        clicked.extend((0..side * side).filter(|&i| givens.get(i).is_none()));
    } else {
        clicked.extend_from_slice(todo);
    }
    let screen = desktop.screen_size()?;
    for &i in &clicked {
        let cell = Cell::from_index(i, side);
        let (x, y) = grid.centre(i % side, i / side);
        if let Some((w, h)) = screen
            && !(0..w as i32).contains(&x) | !(0..h as i32).contains(&y)
        {
            return Err(DesktopError::MouseUnsafe {
                reason: format!(
                    "the centre of cell {cell} ({x},{y}) is off the {w}x{h} screen (move the \
                     game window fully into view)"
                ),
            });
        }
        if let Some(area) = area {
            let inside = (area.x..area.x + area.width as i32).contains(&x)
                && (area.y + GTK_MENUBAR..area.y + area.height as i32).contains(&y);
            if !inside {
                return Err(DesktopError::MouseUnsafe {
                    reason: format!(
                        "the centre of cell {cell} ({x},{y}) is outside the game window's board \
                         area ({}x{} at {},{})",
                        area.width, area.height, area.x, area.y
                    ),
                });
            }
        }
        if let Some(cover) = desktop.covered_at(x, y)? {
            return Err(DesktopError::MouseUnsafe {
                reason: format!("cell {cell} is covered by the window {cover}"),
            });
        }
    }
    Ok(opts)
}
