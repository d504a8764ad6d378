//! The operating-system edge: everything the bot does to the screen goes through [`Desktop`],
//! so the game logic runs unchanged against the real X11 session ([`super::x11`]) or a
//! recording fake in unit tests.

use std::time::Duration;

use super::send::Sendable;
use super::{DesktopError, Options};

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MouseButton {
    /// Left: selects a cell for a value.
    Left,
    /// Right: selects an empty cell for pencil marks.
    Right,
}

/// A rectangle on the screen, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl Rect {
    /// The centres of the cells of an `n` x `n` lattice over the rectangle, column by column:
    /// where a capture looks for another window covering it.
    pub fn probes(self, n: i32) -> impl Iterator<Item = (i32, i32)> {
        let (w, h) = (self.width as i32, self.height as i32);
        (0..n).flat_map(move |i| {
            (0..n).map(move |j| {
                (self.x + (2 * i + 1) * w / (2 * n), self.y + (2 * j + 1) * h / (2 * n))
            })
        })
    }

    /// Whether the rectangle lies wholly inside `outer`.
    pub fn inside(self, outer: Rect) -> bool {
        let end = |at: i32, len: u32| i64::from(at) + i64::from(len);
        self.x >= outer.x
            && self.y >= outer.y
            && end(self.x, self.width) <= end(outer.x, outer.width)
            && end(self.y, self.height) <= end(outer.y, outer.height)
    }
}

/// Points across a window (a 5x5 lattice, [`Rect::probes`]) a capture tests for another window
/// covering it: clicks at a covered point would land on that window.
pub const COVER_PROBES: i32 = 5;

/// The game's menus and dialogs showing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Popups {
    /// Menus (drop-down windows) showing.
    pub menus: usize,
    /// Titles of the game's dialogs showing.
    pub dialogs: Vec<String>,
}

impl Popups {
    /// Whether nothing is showing.
    pub fn is_empty(&self) -> bool {
        self.menus == 0 && self.dialogs.is_empty()
    }
}

/// The window interactive F2 found focused, now bound as the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Focused {
    /// The game itself (Solo, by its title): played through its menus.
    Game,
    /// Another window (GNOME Sudoku, a browser...): played by its pixels.
    Other {
        /// Its title (or id), for messages.
        name: String,
        /// Its `WM_CLASS`, instance and class (GNOME Sudoku is told by it).
        class: Vec<String>,
    },
}

/// What the bot needs from the desktop.
pub trait Desktop {
    /// Sends one input: presses and releases a key (with its modifiers) in the focused
    /// window, or moves the pointer to a screen point and clicks. Only a proven plan, a named
    /// menu or dialog command, or Escape make a [`Sendable`] (see [`super::send`]).
    fn send(&mut self, input: Sendable) -> Result<(), DesktopError>;

    /// Moves the pointer to a screen point without clicking.
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<(), DesktopError>;

    /// Where the pointer is.
    fn pointer(&mut self) -> Result<(i32, i32), DesktopError>;

    /// The clipboard's text, `None` when it holds none.
    fn clipboard_text(&mut self) -> Result<Option<String>, DesktopError>;

    /// Puts text on the clipboard.
    fn set_clipboard_text(&mut self, text: &str) -> Result<(), DesktopError>;

    /// Whether a menu is showing; `None` when the platform cannot tell (then the bot paces
    /// menu keys with the configured menu delay instead).
    fn menu_showing(&mut self) -> Result<Option<bool>, DesktopError>;

    /// Focuses the game's dialog with this title if it is showing: `Some(true)` when it was
    /// found and focused, `Some(false)` when it is not showing, `None` when the platform cannot
    /// tell (the bot then paces with the menu delay).
    fn focus_dialog(&mut self, title: &str) -> Result<Option<bool>, DesktopError>;

    /// Asks the game's dialog with this title to close, as its window's close button would
    /// (no key is sent). Returns false when the backend cannot do that; the bot then sends
    /// Escape.
    fn close_dialog(&mut self, title: &str) -> Result<bool, DesktopError>;

    /// Gives the game window the keyboard focus again.
    fn focus_game(&mut self) -> Result<(), DesktopError>;

    /// The game window's client area (menu bar included), when known.
    fn game_area(&mut self) -> Result<Option<Rect>, DesktopError>;

    /// The game window's pixels (for the pixel reader), where the platform can capture them.
    fn capture(&mut self) -> Result<crate::pixels::RgbaImage, DesktopError> {
        Err(DesktopError::Capture("this platform cannot capture a window's pixels".into()))
    }

    /// The size of the screen, when known.
    fn screen_size(&mut self) -> Result<Option<(u32, u32)>, DesktopError> {
        Ok(None)
    }

    /// The title (or a description) of a window above the game covering the screen point,
    /// `None` when nothing covers it or the platform cannot tell.
    fn covered_at(&mut self, _x: i32, _y: i32) -> Result<Option<String>, DesktopError> {
        Ok(None)
    }

    /// The game's own menus and dialogs that are showing: `None` when the platform cannot see
    /// them (then the bot escapes out blindly).
    fn open_popups(&mut self) -> Result<Option<Popups>, DesktopError> {
        Ok(None)
    }

    /// Binds the bot to the window that has the keyboard focus now (interactive F2): the game
    /// (its title is the game's), or another window, which is then played by its pixels.
    /// Fails when no window has the focus. Backends that cannot see windows type into
    /// whatever has the focus and say it is the game.
    fn bind_focused_game(&mut self) -> Result<Focused, DesktopError> {
        Ok(Focused::Game)
    }

    /// A name for the game window, unique on this machine while the window lives (a run locks
    /// the game by it, see [`super::lock`]); `None` when the backend cannot tell windows apart.
    fn game_window_key(&self) -> Option<String> {
        None
    }

    /// Empties the clipboard (after a run, when it held no text before).
    fn clear_clipboard(&mut self) -> Result<(), DesktopError> {
        Ok(())
    }

    /// Time since the backend was created (a fake may run a virtual clock).
    fn elapsed(&self) -> Duration;

    /// Waits a little: only for polling intervals and the documented key pacing.
    fn pause(&mut self, duration: Duration);

    /// Releases every key and button the bot may hold (after an abort).
    fn release_all(&mut self);
}

/// Polls `check` every `interval` until it yields a value or `timeout` passes; on timeout the
/// error names `what` was awaited. An abort (Esc, Ctrl-C, [`Options::aborted`]) ends the wait
/// at once: a read waiting on a menu or the clipboard that the user's Esc closed would
/// otherwise sit out its timeout first.
pub fn wait_for<D: Desktop + ?Sized, T>(
    opts: &Options,
    desktop: &mut D,
    what: &str,
    timeout: Duration,
    interval: Duration,
    mut check: impl FnMut(&mut D) -> Result<Option<T>, DesktopError>,
) -> Result<T, DesktopError> {
    let deadline = desktop.elapsed() + timeout;
    loop {
        if opts.aborted() {
            return Err(DesktopError::Aborted);
        }
        if let Some(value) = check(desktop)? {
            return Ok(value);
        }
        if desktop.elapsed() >= deadline {
            return Err(DesktopError::Timeout {
                what: what.to_string(),
                waited_ms: timeout.as_millis() as u64,
            });
        }
        desktop.pause(interval);
    }
}

#[cfg(test)]
mod rect_tests {
    use super::Rect;

    #[test]
    fn probes_are_lattice_centres_and_inside_is_strict_about_every_edge() {
        let r = Rect { x: 10, y: 20, width: 100, height: 50 };
        let points: Vec<(i32, i32)> = r.probes(2).collect();
        assert_eq!(points, [(35, 32), (35, 57), (85, 32), (85, 57)]);
        assert_eq!(r.probes(5).count(), 25);
        let screen = Rect { x: 0, y: 0, width: 110, height: 70 };
        assert!(r.inside(screen));
        assert!(!Rect { width: 101, ..r }.inside(screen));
        assert!(!Rect { height: 51, ..r }.inside(screen));
        assert!(!Rect { x: -1, ..r }.inside(screen));
        assert!(!Rect { y: -1, ..r }.inside(screen));
    }
}
