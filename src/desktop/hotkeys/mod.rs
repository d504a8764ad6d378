//! Global hotkeys for the interactive mode (F1-F4 and Esc), with no system library to link.
//!
//! | platform | F1-F4 | Esc | the bot's own keys |
//! |---|---|---|---|
//! | X11 | observed through the RECORD extension (x11rb, pure Rust): they also reach the focused window, where Solo ignores them | observed the same way | seen like the user's: the listener skips the Escapes the bot noted in [`OwnEscapes`] |
//! | Windows | `RegisterHotKey`: taken, they do not reach the focused window | a low-level keyboard hook that observes and never swallows | injected keys are ignored, so never reported |
//!
//! Esc is never a registered (taken) hotkey: that would take Esc away from every other program,
//! and the bot closes Solo's menus and dialogs with Escape itself. F-keys pressed together with
//! Ctrl, Shift, Alt or the logo key (Alt+F4 closes a window) are not hotkeys.
//!
//! [`Listener::start`] returns once the keys are really being listened to, so a caller can say
//! "ready" truthfully; dropping the [`Listener`] stops it.

#[cfg(windows)]
#[allow(unsafe_code)]
mod windows;
#[cfg(all(unix, not(target_os = "macos")))]
mod x11;

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::error::DesktopError;

/// A hotkey the session reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hotkey {
    /// F1: set the origin at the pointer.
    Origin,
    /// F2: read, solve, type.
    Solve,
    /// F3: walk the empty cells.
    Walk,
    /// F4: calibrate the step (press twice).
    Calibrate,
    /// Esc: abort or leave.
    Escape,
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

/// Where the listener sends what it hears: a hotkey, or the error that stopped it (the last
/// message).
pub type Sink = Box<dyn FnMut(Result<Hotkey, DesktopError>) + Send>;

/// A running hotkey listener; dropping it stops listening.
pub struct Listener {
    #[cfg(all(unix, not(target_os = "macos")))]
    inner: x11::Listener,
    #[cfg(windows)]
    inner: windows::Listener,
}

impl Listener {
    /// Starts listening on a thread of its own and returns once the keys are being listened to.
    /// Fails, naming the cause, when the display or the system refuses (no RECORD extension on
    /// the X server, a key registered by another program). `own` holds the notes of the
    /// Escapes the bot sends itself, which a listener that sees them skips.
    pub fn start(sink: Sink, own: Arc<OwnEscapes>) -> Result<Listener, DesktopError> {
        #[cfg(all(unix, not(target_os = "macos")))]
        return Ok(Listener { inner: x11::Listener::start(sink, own)? });
        #[cfg(windows)]
        return Ok(Listener { inner: windows::Listener::start(sink, own)? });
        #[cfg(not(any(windows, all(unix, not(target_os = "macos")))))]
        {
            drop((sink, own));
            Err(DesktopError::Hotkeys("global hotkeys are not supported on this platform".into()))
        }
    }

    /// Whether the keys the bot sends itself are seen (X11), so that its Escapes must be noted
    /// in the [`OwnEscapes`] given to [`Listener::start`]; false where injected keys are
    /// filtered out (Windows).
    pub fn sees_own_keys(&self) -> bool {
        #[cfg(all(unix, not(target_os = "macos")))]
        return self.inner.sees_own_keys();
        #[cfg(windows)]
        return self.inner.sees_own_keys();
        #[cfg(not(any(windows, all(unix, not(target_os = "macos")))))]
        false
    }
}
