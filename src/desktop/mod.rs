//! The desktop bot: solves Simon Tatham's Solo (the sudoku in MobaXterm's Games menu) on the
//! screen with synthetic keyboard and mouse input. The modules, top to bottom (each uses only
//! those below it):
//!
//! - [`interactive`]: the hotkey session (F1 origin, F4 step, F3 walk, F2 solve, Esc abort);
//!   [`hotkeys`] listens for those keys (X11 RECORD, Windows `RegisterHotKey`) and keeps
//!   [`OwnEscapes`], the Escapes the bot sends itself.
//! - `auto`: the automatic run (`--auto`, F2): read, solve, type, copy back, confirm, with
//!   the game locked against a second bot ([`lock`]). Killer games go to `killer`, which types
//!   blind and checks by saving the game ([`save`]).
//! - [`thinking`]: the show-thinking display (pencil marks, then the technique engine's steps,
//!   each step's text told as it is played).
//! - [`mouse`]: the cell grid on the screen and the check that every click lands on its cell.
//! - [`verify`]: the solver's verdict as the bot's error, a given puzzle against the game's, a
//!   board read back against the solution.
//! - [`fill`]: what to type and in which order, by keyboard cursor or mouse; the key model
//!   ([`model`]) proves a plan before [`fill::perform`] may send it.
//! - [`game`]: reading the game ID (Specific...) and the board (Copy) with bounded waits;
//!   [`menu`]: Game-menu navigation per front end (GTK vs Windows).
//! - [`keys`]: key values and the builder that cannot emit a Solo command letter by accident.
//! - [`backend`]: the [`Desktop`] trait, the only way to touch the OS (keys, clicks, clipboard,
//!   window focus); `x11` implements it with enigo, arboard and x11rb, [`portable`] with
//!   enigo and arboard alone (Windows/MobaXterm, interactive mode).
//! - [`error`]: the errors ([`DesktopError`]).
//!
//! This file holds only what every layer shares: the run's [`Options`] and its [`Report`].

mod auto;
pub mod backend;
pub mod by_pixels;
pub mod error;
#[cfg(test)]
mod fake;
pub mod fill;
pub mod game;
pub mod hotkeys;
pub mod interactive;
pub mod keys;
mod killer;
pub mod lock;
pub mod menu;
pub mod model;
pub mod mouse;
pub mod portable;
// Windows' capture of the focused window (GDI), for the pixel path; compiled and linted for
// Windows by `.ci/run`, never run.
pub mod save;
pub mod send;
#[cfg(test)]
mod tests;
pub mod thinking;
pub mod verify;
#[cfg(windows)]
#[allow(unsafe_code)]
mod win_capture;
#[cfg(all(unix, not(target_os = "macos")))]
pub mod x11;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use auto::run_matching;
pub use backend::{Desktop, Focused, MouseButton, Rect};
pub use error::DesktopError;
pub use hotkeys::OwnEscapes;
pub use menu::Platform;
pub use mouse::{GTK_MENUBAR, MouseGrid};
pub use verify::{check_matches, unique_solution};

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
    /// Where a run by pixels keeps the window's picture, annotated with what was read, when
    /// the read is refused (`None`: nowhere).
    pub evidence_dir: Option<std::path::PathBuf>,
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
            evidence_dir: None,
        }
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
    /// The window's pixels, read again.
    Pixels,
    /// The window's pixels read before the last digit (every other cell right), then the
    /// game's completion dialog over the board (GNOME Sudoku).
    Completion,
}

impl Report {
    /// A run's report once the game is read (`read`) and solved (`solve`): nothing typed yet.
    pub(crate) fn solved(
        solution: &crate::grid::Grid,
        params: String,
        check: Check,
        read: Duration,
        solve: Duration,
    ) -> Report {
        Report {
            side: solution.side(),
            params,
            typed: 0,
            corrected: 0,
            actions: 0,
            read,
            solve,
            typing: Duration::ZERO,
            verify: Duration::ZERO,
            verified: false,
            check,
        }
    }

    /// Total time.
    pub fn total(&self) -> Duration {
        self.read + self.solve + self.typing + self.verify
    }
}
