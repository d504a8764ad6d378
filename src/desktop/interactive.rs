//! The interactive session, compatible with the seed bot's hotkeys:
//!
//! | key | action |
//! |---|---|
//! | F1 | the pointer is on the centre of the top-left cell: remember it as the origin (step 48, or the calibrated one) and move the pointer to the bottom-right cell as a check |
//! | F4 | calibrate: press on the top-left cell, then on the cell right of it (or below it) |
//! | F3 | walk the pointer over every empty cell, as a check of origin and step |
//! | F2 | read the board, solve, type the answer, confirm (a focused window that is not Solo: by its pixels) |
//! | Esc | abort what is running (keys are released), or leave the session when idle |
//!
//! The listener itself lives in the binary; this module is the state machine, driven through
//! [`Session::handle`], so it is tested without a display.

use super::backend::{Desktop, Focused};
use super::by_pixels::{self, PixelGame};
pub use super::hotkeys::Hotkey;
use super::{DesktopError, Input, MouseGrid, Options, Report, auto, game};
use crate::format::{self, ParseError, ParseErrorKind, solo_id, solo_text};
use crate::grid::Grid;

/// Where the puzzle comes from when F2 is pressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game itself (Specific... and Copy).
    Game,
    /// Text given by the user: a game ID, Copy text or a one-line puzzle.
    Text(String),
    /// The clipboard's text at the time F2 is pressed.
    Clipboard,
}

/// What handling a hotkey did, for the binary to print.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The origin was set.
    Origin(MouseGrid),
    /// First calibration point taken; press F4 on the neighbouring cell.
    CalibrationStarted((i32, i32)),
    /// Calibrated.
    Calibrated(MouseGrid),
    /// The calibration points were too close together.
    CalibrationRejected,
    /// F3 walked this many cells.
    Walked(usize),
    /// F2 finished.
    Solved(Report),
    /// The user wants to leave.
    Quit,
}

/// Default cell pitch: Solo's default tile size.
pub const DEFAULT_STEP: f64 = 48.0;

/// The hotkey session's state.
#[derive(Clone, Debug)]
pub struct Session {
    /// Bot options (input strategy, delays, ...).
    pub opts: Options,
    /// Where the puzzle comes from.
    pub source: Source,
    origin: Option<(i32, i32)>,
    step: f64,
    first_calibration: Option<(i32, i32)>,
    /// The last puzzle read (for F1's check and F3's walk).
    known: Option<Grid>,
}

/// Reads a puzzle given as text: a Solo game ID, Solo Copy text, or a one-line puzzle.
pub fn parse_puzzle(text: &str) -> Result<Grid, ParseError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    }
    if !trimmed.contains('\n') && trimmed.contains(':') {
        solo_id::parse(trimmed)
    } else if trimmed.contains('\n') || trimmed.contains(' ') {
        solo_text::parse(text)
    } else {
        format::line::parse(trimmed)
    }
}

impl Session {
    /// A session with the given options and puzzle source.
    pub fn new(opts: Options, source: Source) -> Session {
        let (origin, step) = match &opts.input {
            Input::Mouse(Some(g)) => (Some(g.origin), g.step),
            _ => (None, DEFAULT_STEP),
        };
        Session { opts, source, origin, step, first_calibration: None, known: None }
    }

    /// The mouse grid, once an origin is set.
    pub fn grid(&self) -> Option<MouseGrid> {
        self.origin.map(|origin| MouseGrid { origin, step: self.step })
    }

    /// Handles one hotkey. Errors leave the session usable (the binary prints them).
    pub fn handle<D: Desktop + ?Sized>(
        &mut self,
        key: Hotkey,
        desktop: &mut D,
    ) -> Result<Outcome, DesktopError> {
        match key {
            Hotkey::Origin => {
                let at = desktop.pointer()?;
                self.origin = Some(at);
                let grid = MouseGrid { origin: at, step: self.step };
                // As the seed bot did, point at the bottom-right cell as a visible check; the
                // side comes from the puzzle (read now if it was not read yet).
                if self.known.is_none() {
                    // Not fatal: F1 still sets the origin when the puzzle cannot be read.
                    let _ = self.puzzle(desktop);
                }
                if let Some(side) = self.known.as_ref().map(Grid::side) {
                    let (x, y) = grid.centre(side - 1, side - 1);
                    desktop.move_pointer(x, y)?;
                }
                Ok(Outcome::Origin(grid))
            }
            Hotkey::Calibrate => {
                let at = desktop.pointer()?;
                match self.first_calibration.take() {
                    None => {
                        self.first_calibration = Some(at);
                        Ok(Outcome::CalibrationStarted(at))
                    }
                    Some(first) => {
                        let step = f64::from((at.0 - first.0).abs().max((at.1 - first.1).abs()));
                        if step < 8.0 {
                            return Ok(Outcome::CalibrationRejected);
                        }
                        self.origin = Some(first);
                        self.step = step;
                        Ok(Outcome::Calibrated(MouseGrid { origin: first, step }))
                    }
                }
            }
            Hotkey::Walk => {
                let grid = self.grid().ok_or(DesktopError::NoMouseGrid)?;
                let puzzle = self.puzzle(desktop)?;
                let side = puzzle.side();
                let mut walked = 0;
                for i in (0..puzzle.cells().len()).filter(|&i| puzzle.get(i).is_none()) {
                    let (x, y) = grid.centre(i % side, i / side);
                    desktop.move_pointer(x, y)?;
                    desktop.pause(self.opts.step_delay);
                    walked += 1;
                    if self.aborted() {
                        return Err(DesktopError::Aborted);
                    }
                }
                Ok(Outcome::Walked(walked))
            }
            Hotkey::Solve => self.solve(desktop).map(Outcome::Solved),
            Hotkey::Escape => Ok(Outcome::Quit),
        }
    }

    fn aborted(&self) -> bool {
        self.opts.aborted()
    }

    fn options_now(&self) -> Options {
        let mut opts = self.opts.clone();
        if opts.input == Input::Mouse(None) {
            opts.input = Input::Mouse(self.grid());
        }
        opts
    }

    /// The puzzle from the configured source (givens only when read from the game).
    fn puzzle<D: Desktop + ?Sized>(&mut self, desktop: &mut D) -> Result<Grid, DesktopError> {
        let grid = match &self.source {
            Source::Game => {
                // The game window first: a session bound to no window yet sends no menu key.
                desktop.focus_game()?;
                let state = game::read_game(desktop, &self.opts)?;
                state.board
            }
            Source::Text(text) => parse_puzzle(text)?,
            Source::Clipboard => parse_puzzle(&desktop.clipboard_text()?.unwrap_or_default())?,
        };
        self.known = Some(grid.clone());
        Ok(grid)
    }

    /// F2: acts on the window focused now. Solo (by its title) is read through its menus, and
    /// a puzzle from text or the clipboard must match it (its ID and givens) before anything is
    /// typed. Any other window is played by its pixels, as `--auto --game pixels` plays it
    /// (GNOME Sudoku, told by its class, as `--game gnome-sudoku`), with the same rules.
    fn solve<D: Desktop + ?Sized>(&mut self, desktop: &mut D) -> Result<Report, DesktopError> {
        let opts = self.options_now();
        if let Focused::Other { name, class } = desktop.bind_focused_game()? {
            // A puzzle given as text is Solo's: another window shows its own.
            if self.source != Source::Game {
                return Err(DesktopError::NotTheGame { focused: name });
            }
            let game = PixelGame::of_class(&class);
            desktop.focus_game()?;
            // A refusal names the window read, which the user may not have meant.
            let named = |e: DesktopError| match e {
                DesktopError::Capture(why) => {
                    DesktopError::Capture(format!("{name} (focused, not Solo): {why}"))
                }
                DesktopError::Pixels { reason, .. } => {
                    DesktopError::Pixels { window: Some(name.clone()), reason }
                }
                other => other,
            };
            return by_pixels::run_by_pixels(desktop, &opts, game).map_err(|e| match e {
                DesktopError::Stopped { reason, typed } => {
                    DesktopError::Stopped { reason: Box::new(named(*reason)), typed }
                }
                other => named(other),
            });
        }
        let expected = match self.source {
            Source::Game => None,
            _ => Some(self.puzzle(desktop)?),
        };
        desktop.focus_game()?;
        auto::run_matching(desktop, &opts, expected.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desktop::Platform;
    use crate::desktop::fake::FakeSolo;

    const ID: &str = "2x3:6c5a5d6_4a3_1d6_3a5_3d1a1c4";

    fn session(source: Source, input: Input) -> Session {
        let opts = Options {
            platform: Platform::Gtk,
            input,
            step_delay: std::time::Duration::ZERO,
            ..Options::default()
        };
        Session::new(opts, source)
    }

    #[test]
    fn seed_workflow_f1_f4_f3_f2_by_mouse() {
        let mut game = FakeSolo::new(ID);
        let mut s = session(
            Source::Text(solo_text::write(&solo_id::parse(ID).expect("id"))),
            Input::Mouse(None),
        );
        // F4 on the top-left cell, then on its right neighbour.
        game.pointer_at = (48, 73);
        assert_eq!(
            s.handle(Hotkey::Calibrate, &mut game).expect("f4"),
            Outcome::CalibrationStarted((48, 73))
        );
        game.pointer_at = (96, 73);
        let Outcome::Calibrated(grid) = s.handle(Hotkey::Calibrate, &mut game).expect("f4") else {
            panic!("calibrated")
        };
        assert_eq!(grid, MouseGrid { origin: (48, 73), step: 48.0 });
        // F3 walks the empty cells.
        let Outcome::Walked(n) = s.handle(Hotkey::Walk, &mut game).expect("f3") else {
            panic!("walked")
        };
        assert_eq!(n, 36 - solo_id::parse(ID).expect("id").filled());
        assert_eq!(game.walked.len(), n);
        // F2 types the answer.
        let Outcome::Solved(report) = s.handle(Hotkey::Solve, &mut game).expect("f2") else {
            panic!("solved")
        };
        assert_eq!(report.typed, n);
        assert!(game.board().is_full() && game.board().conflict().is_none());
        assert!(game.fired.is_empty());
    }

    #[test]
    fn f1_sets_the_origin_and_points_at_the_last_cell() {
        let mut game = FakeSolo::new(ID);
        let mut s = session(Source::Text(ID.into()), Input::Mouse(None));
        assert!(matches!(s.handle(Hotkey::Walk, &mut game), Err(DesktopError::NoMouseGrid)));
        game.pointer_at = (48, 73);
        s.handle(Hotkey::Origin, &mut game).expect("f1");
        assert_eq!(game.pointer_at, (48 + 5 * 48, 73 + 5 * 48));
        s.handle(Hotkey::Walk, &mut game).expect("f3 reads the puzzle");
        game.pointer_at = (48, 73);
        s.handle(Hotkey::Origin, &mut game).expect("f1 again");
        assert_eq!(game.pointer_at, (48 + 5 * 48, 73 + 5 * 48));
    }

    #[test]
    fn f2_from_the_game_by_keyboard_confirms() {
        let mut game = FakeSolo::new(ID);
        let mut s = session(Source::Game, Input::Keyboard);
        let Outcome::Solved(report) = s.handle(Hotkey::Solve, &mut game).expect("f2") else {
            panic!()
        };
        assert!(report.verified);
        assert_eq!(s.handle(Hotkey::Escape, &mut game).expect("esc"), Outcome::Quit);
    }

    #[test]
    fn f2_over_another_window_goes_to_its_pixels_and_refuses_a_given_puzzle() {
        let other =
            Focused::Other { name: "\"Sudoku\"".into(), class: vec!["gnome-sudoku".into()] };
        // A puzzle given as text is Solo's: refused before anything is sent.
        let mut game = FakeSolo::new(ID);
        game.focused = Some(other);
        let mut s = session(Source::Text(ID.into()), Input::Keyboard);
        let err = s.handle(Hotkey::Solve, &mut game).expect_err("not Solo");
        assert!(matches!(err, DesktopError::NotTheGame { .. }), "{err}");
        assert!(game.keys.is_empty(), "{:?}", game.keys);
        // Read from the window: by its pixels, not Solo's menus (no key before the capture,
        // which this fake cannot do: refused, nothing typed).
        let mut s = session(Source::Game, Input::Keyboard);
        let err = s.handle(Hotkey::Solve, &mut game).expect_err("no capture");
        assert!(err.to_string().contains("cannot capture a window's pixels"), "{err}");
        assert!(game.keys.is_empty(), "{:?}", game.keys);
    }

    #[test]
    fn puzzles_are_read_in_any_of_the_three_formats() {
        let grid = solo_id::parse(ID).expect("id");
        assert_eq!(parse_puzzle(ID).expect("id"), grid);
        assert_eq!(parse_puzzle(&solo_text::write(&grid)).expect("text").cells(), grid.cells());
        assert_eq!(parse_puzzle(&format::line::write(&grid)).expect("line").cells(), grid.cells());
        assert!(parse_puzzle("  ").is_err());
    }
}
