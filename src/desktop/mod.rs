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
//! - [`thinking`]: the show-thinking display (pencil marks, then values in solving order).
//! - [`interactive`]: the hotkey session (F1 origin, F4 step, F3 walk, F2 solve, Esc abort);
//!   [`hotkeys`] listens for those keys (X11 RECORD, Windows `RegisterHotKey`).
//!
//! [`run_auto`] ties them together: read, solve, type, copy back, confirm.

pub mod backend;
#[cfg(test)]
mod fake;
pub mod fill;
pub mod game;
pub mod hotkeys;
pub mod interactive;
pub mod keys;
pub mod menu;
pub mod portable;
#[cfg(test)]
mod tests;
pub mod thinking;
#[cfg(all(unix, not(target_os = "macos")))]
pub mod x11;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
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
    /// The game is Killer, which sudobot does not handle yet.
    #[error(
        "the game is Killer sudoku ({params}), which `sudobot desktop` does not support yet; nothing was typed"
    )]
    Killer {
        /// The game's parameters.
        params: String,
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
    /// Mouse input needs a given cell to clear the selection safely.
    #[error("the board has no given cell to click for clearing the selection")]
    NoGivenToClick,
    /// The board copied back after typing is not the solution.
    #[error("after typing, {count} cell(s) still differ from the solution (first: {first})")]
    NotSolved {
        /// How many cells differ.
        count: usize,
        /// The first of them.
        first: Cell,
    },
    /// The user pressed Esc.
    #[error("aborted (Esc or Ctrl-C); keys released")]
    Aborted,
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

    /// The grid of a GTK Solo window from its client area and side: the canvas is square and
    /// `side * tile + 2 * (tile / 2) + 1` wide, below the menu bar.
    pub fn from_gtk_window(area: Rect, side: usize) -> Option<MouseGrid> {
        let canvas = area.width as i32;
        let tile = (canvas - 1) / (side as i32 + 1);
        let menubar = area.height as i32 - canvas;
        if tile < 8 || menubar < 0 {
            return None;
        }
        let border = tile / 2;
        let first = border + tile / 2;
        Some(MouseGrid { origin: (area.x + first, area.y + menubar + first), step: tile as f64 })
    }
}

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
    /// Set to abort between moves (Esc in interactive mode).
    pub abort: Option<Arc<AtomicBool>>,
    /// Escapes the bot itself is about to send, so a hotkey listener that also sees synthetic
    /// keys can tell them from the user's Esc.
    pub own_escapes: Option<Arc<OwnEscapes>>,
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
            abort: None,
            own_escapes: None,
        }
    }
}

/// Escapes the bot sends itself, so a hotkey listener that also sees synthetic keys can skip
/// them. A note expires after [`OwnEscapes::WINDOW`]: if the game merged the bot's Escape with
/// the user's (both pressed at once) the listener sees one event, and an unexpired note must
/// not swallow a later Esc of the user's.
#[derive(Debug, Default)]
pub struct OwnEscapes {
    pending: AtomicUsize,
    last_ms: AtomicU64,
}

impl OwnEscapes {
    /// How long a noted Escape may take to reach the listener.
    pub const WINDOW: Duration = Duration::from_millis(500);

    fn now_ms() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }

    /// Notes that the bot is about to send Escape.
    pub fn note(&self) {
        self.last_ms.store(Self::now_ms(), Ordering::SeqCst);
        self.pending.fetch_add(1, Ordering::SeqCst);
    }

    /// For the listener: whether the Escape just seen is the bot's own (consuming the note).
    pub fn take(&self) -> bool {
        let age = Self::now_ms().saturating_sub(self.last_ms.load(Ordering::SeqCst));
        if age > Self::WINDOW.as_millis() as u64 {
            self.pending.store(0, Ordering::SeqCst);
            return false;
        }
        self.pending.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok()
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
    /// Whether the board copied back was confirmed to be the solution.
    pub verified: bool,
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
    let t0 = desktop.elapsed();
    let state = game::read_game(desktop, opts)?;
    let t1 = desktop.elapsed();
    let solution = unique_solution(&state.id.grid)?;
    let t2 = desktop.elapsed();
    let opts = &resolve_mouse(desktop, opts, solution.side())?;
    let cells = fill::cells_to_type(&state.board, &solution);
    let corrected = cells.iter().filter(|&&i| state.board.get(i).is_some()).count();
    let actions = if opts.show_thinking {
        // Pencil mode matters for every key of the display: find it out first (keyboard only;
        // mouse clicks set the mode themselves).
        let board = if opts.input == Input::Keyboard {
            settle_pencil_mode(desktop, opts, &state.id, &state.board, &solution)?
        } else {
            state.board.clone()
        };
        thinking::plan(opts, &board, &solution)?
    } else {
        fill::plan(opts, &state.board, &cells, &solution, false)?
    };
    fill::perform(desktop, opts, &actions)?;
    let t3 = desktop.elapsed();
    if opts.show_thinking && opts.stop_after.is_some() {
        return Ok(Report {
            side: solution.side(),
            params: state.id.params.to_string(),
            typed: cells.len(),
            corrected,
            actions: actions.len(),
            read: t1 - t0,
            solve: t2 - t1,
            typing: t3 - t2,
            verify: Duration::ZERO,
            verified: false,
        });
    }
    let mut extra = 0;
    let mut board = game::read_board(desktop, opts, &state.id)?;
    let missing = fill::cells_to_type(&board, &solution);
    // Keyboard: if every typed cell is still untouched, the game was left in pencil mode (the
    // values went in as pencil marks). Return switches back; typing a value clears the marks.
    if !missing.is_empty()
        && opts.input == Input::Keyboard
        && missing.iter().all(|i| cells.contains(i))
        && missing.len() == cells.len()
    {
        let mut keys = keys::Keys::new(solution.side());
        keys.home();
        keys.toggle_pencil();
        let mut retry: Vec<fill::Action> = keys.take().into_iter().map(fill::Action::Key).collect();
        retry.extend(fill::keyboard_plan(&mut keys, &missing, &solution));
        extra = retry.len();
        fill::perform(desktop, opts, &retry)?;
        board = game::read_board(desktop, opts, &state.id)?;
    }
    let t4 = desktop.elapsed();
    let wrong = fill::cells_to_type(&board, &solution);
    if let Some(&first) = wrong.first() {
        return Err(DesktopError::NotSolved {
            count: wrong.len(),
            first: Cell::from_index(first, solution.side()),
        });
    }
    Ok(Report {
        side: solution.side(),
        params: state.id.params.to_string(),
        typed: cells.len(),
        corrected,
        actions: actions.len() + extra,
        read: t1 - t0,
        solve: t2 - t1,
        typing: t3 - t2,
        verify: t4 - t3,
        verified: board.is_solution_of(&state.id.grid),
    })
}

/// Fills in the mouse grid from the game window when the user gave none.
fn resolve_mouse<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    side: usize,
) -> Result<Options, DesktopError> {
    let mut opts = opts.clone();
    let Input::Mouse(given) = opts.input else {
        return Ok(opts);
    };
    let area = if opts.platform == Platform::Gtk { desktop.game_area()? } else { None };
    let from_window = area.and_then(|area| MouseGrid::from_gtk_window(area, side));
    match (given, from_window) {
        (None, found) => opts.input = Input::Mouse(found),
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
        }
        // Unchecked clicks on grids where values are letters Solo also takes as commands.
        (Some(_), None) if side >= 22 => return Err(DesktopError::UncheckedMouse { side }),
        (Some(_), None) => {}
    }
    Ok(opts)
}

/// Leaves the game in normal (not pencil) mode with the keyboard cursor shown, changing
/// nothing on the board: types the first empty cell's value and copies the board. If the value
/// is there, the mode was normal and Backspace clears the cell again; if not, it went in as a
/// pencil mark (pencil mode), so typing it again removes the mark and Return switches mode.
fn settle_pencil_mode<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id: &crate::format::solo_id::SoloId,
    board: &Grid,
    solution: &Grid,
) -> Result<Grid, DesktopError> {
    let side = solution.side();
    let Some(first) = (0..board.cells().len()).find(|&i| board.get(i).is_none()) else {
        return Ok(board.clone());
    };
    let (x, y, value) = (first % side, first / side, solution.cells()[first]);
    let mut keys = keys::Keys::new(side);
    keys.put(x, y, value);
    let as_actions =
        |keys: &mut keys::Keys| keys.take().into_iter().map(fill::Action::Key).collect::<Vec<_>>();
    fill::perform(desktop, opts, &as_actions(&mut keys))?;
    let now = game::read_board(desktop, opts, id)?;
    if now.cells()[first] == value {
        keys.clear();
    } else {
        keys.value(value);
        keys.toggle_pencil();
    }
    fill::perform(desktop, opts, &as_actions(&mut keys))?;
    Ok(board.clone())
}
