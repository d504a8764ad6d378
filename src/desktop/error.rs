//! The desktop bot's errors: one enum, each message saying what happened and, where nothing
//! reached the game, that nothing was typed. The window's state (minimized, covered, its
//! pixels unreadable) can change at any time, so those messages say nothing of what was typed:
//! a run that meets one wraps it in [`DesktopError::Stopped`], which says how many values it
//! had typed, and where.

use crate::format::ParseError;
use crate::grid::{Cell, Conflict};

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
    /// No window with the title and the game's `WM_CLASS` was found.
    #[error(
        "no window titled {title:?} of the class {class:?} is showing (is the game running, \
         with a game started? use --window to give another title)"
    )]
    WindowOfClassNotFound {
        /// The title looked for.
        title: String,
        /// The class required.
        class: String,
    },
    /// The game window is minimized (or otherwise not shown).
    #[error("the window titled {title:?} is minimized: restore it, then run again")]
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
    /// Another window covers part of the game's window, so its pixels cannot be read whole.
    #[error(
        "cannot read the window's pixels: it is covered by {by} (at {x},{y}): bring it to the \
         front"
    )]
    Covered {
        /// The covering window's title (or id).
        by: String,
        /// A screen point where it covers the game.
        x: i32,
        /// A screen point where it covers the game.
        y: i32,
    },
    /// The window's pixels could not be captured (off-screen, an unknown format).
    #[error("cannot read the window's pixels: {0}")]
    Capture(String),
    /// The pixel reader refused the window's board (none found, uncertain cells, a shape it
    /// does not read).
    #[error("cannot read the window's pixels: {}{reason}", window_note(window))]
    Pixels {
        /// The window read, when the user may not have meant it (interactive F2 on another
        /// window than Solo).
        window: Option<String>,
        /// Why the reader refused.
        reason: crate::pixels::PixelError,
    },
    /// A board by pixels larger than 9x9: its values are letters, which a run by pixels does
    /// not type.
    #[error(
        "a {side}x{side} board needs letters, which this mode does not type; nothing was typed"
    )]
    NeedsLetters {
        /// The board's side.
        side: usize,
    },
    /// The window's place on the screen, needed to click its cells, is unknown.
    #[error("cannot read the window's pixels: the window's place on the screen is unknown")]
    PlaceUnknown,
    /// The test hook's file could not be written.
    #[error("cannot write the test pause's file {}", path.display())]
    TestPause {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
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
    /// Another bot holds the game (see [`super::lock`]).
    #[error(
        "another sudobot is already playing this game (window {window}): wait for it to finish; \
         nothing was typed"
    )]
    Busy {
        /// The game window.
        window: String,
    },
    /// The lock that keeps a second bot off the game could not be taken.
    #[error("cannot lock the game for this run ({}); nothing was typed", path.display())]
    Lock {
        /// The lock file.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A run stopped by `reason`, after typing the values of `typed` (none: nothing was
    /// typed).
    #[error("{reason}; {}", typed_note(typed))]
    Stopped {
        /// Why it stopped.
        reason: Box<DesktopError>,
        /// The cells whose values had been sent, in order.
        typed: Vec<Cell>,
    },
    /// A click did not show its cell as the one selected (the window moved under the click,
    /// the game did not answer, another cell looks selected): no digit is sent to it.
    #[error("a click on {cell} did not show it as the selected cell ({why}); no digit sent to it")]
    NotSelected {
        /// The cell clicked.
        cell: Cell,
        /// What was seen.
        why: String,
    },
    /// The window's board shows other values than the solution (read back by its pixels).
    #[error("{when}, the window shows other values than the solution in {cells}")]
    WrongValues {
        /// When it was read ("before the last digit", "after typing").
        when: &'static str,
        /// The cells, named.
        cells: String,
    },
    /// The hotkey listener failed.
    #[error("cannot listen for hotkeys: {0}")]
    Hotkeys(String),
}

/// The window named, as the start of a pixel refusal.
fn window_note(window: &Option<String>) -> String {
    window.as_ref().map(|w| format!("{w} (focused, not Solo): ")).unwrap_or_default()
}

/// "nothing was typed", or how many values were typed and in which cells.
fn typed_note(typed: &[Cell]) -> String {
    if typed.is_empty() {
        return "nothing was typed".into();
    }
    let cells: Vec<String> = typed.iter().map(Cell::to_string).collect();
    format!("{} value(s) had been typed, in {}", typed.len(), cells.join(" "))
}

impl DesktopError {
    /// `self`, saying that the values of `typed` had been typed when it happened (none:
    /// nothing was typed). An abort keeps its kind (its exit code) inside the wrapper
    /// ([`DesktopError::cause`]); messages that already say nothing was typed are kept as they
    /// are when nothing was; an error already wrapped is not wrapped again.
    pub fn stopped(self, typed: &[Cell]) -> DesktopError {
        let says_nothing = self.to_string().contains("nothing was typed");
        match self {
            DesktopError::Stopped { .. } => self,
            e if typed.is_empty() && says_nothing => e,
            e => DesktopError::Stopped { reason: Box::new(e), typed: typed.to_vec() },
        }
    }

    /// The error itself, or the one a [`DesktopError::Stopped`] wraps: what the exit code is
    /// chosen by.
    pub fn cause(&self) -> &DesktopError {
        match self {
            DesktopError::Stopped { reason, .. } => reason.cause(),
            e => e,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_run_says_what_it_had_typed_and_keeps_its_cause() {
        let minimized = || DesktopError::Minimized { title: "Sudoku".into() };
        // Nothing typed: said so, once.
        let e = minimized().stopped(&[]);
        assert!(e.to_string().ends_with("restore it, then run again; nothing was typed"), "{e}");
        assert!(matches!(e.cause(), DesktopError::Minimized { .. }));
        let unsolvable = DesktopError::Unsolvable.to_string();
        assert_eq!(DesktopError::Unsolvable.stopped(&[]).to_string(), unsolvable);
        // Typed: how many and where, never "nothing was typed".
        let typed = [Cell::from_index(2, 9), Cell::from_index(10, 9)];
        let e = minimized().stopped(&typed);
        assert!(e.to_string().ends_with("; 2 value(s) had been typed, in r1c3 r2c2"), "{e}");
        assert!(!e.to_string().contains("nothing was typed"), "{e}");
        // An abort keeps its kind for the exit code; a wrapped error is not wrapped again.
        let e = DesktopError::Aborted.stopped(&typed).stopped(&[]);
        assert!(matches!(e.cause(), DesktopError::Aborted), "{e}");
        assert_eq!(e.to_string().matches("had been typed").count(), 1, "{e}");
    }
}
