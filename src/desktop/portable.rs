//! A desktop backend for any OS enigo and arboard support (Windows, where MobaXterm runs its
//! games; macOS; X11 without window access). It cannot find or focus windows, nor see menus
//! and dialogs: the user focuses the game (interactive mode), and menu steps are paced with
//! the menu delay instead of observed. The copy steps still wait on the clipboard with bounds.

use std::time::{Duration, Instant};

use enigo::{Button, Coordinate, Direction, Enigo, Keyboard, Mouse, Settings};

use super::DesktopError;
use super::backend::{Desktop, MouseButton, Rect};
use super::keys::Key;
use super::send::{self, Sendable};

/// Keyboard, mouse and clipboard through enigo and arboard: the part every backend shares.
pub(crate) struct Input {
    enigo: Enigo,
    clipboard: arboard::Clipboard,
    start: Instant,
}

fn input_error(e: impl std::fmt::Display) -> DesktopError {
    DesktopError::Input(e.to_string())
}

impl Input {
    /// Opens the input and clipboard connections.
    pub(crate) fn new() -> Result<Input, DesktopError> {
        Ok(Input {
            enigo: Enigo::new(&Settings::default()).map_err(input_error)?,
            clipboard: arboard::Clipboard::new()
                .map_err(|e| DesktopError::Clipboard(e.to_string()))?,
            start: Instant::now(),
        })
    }

    /// Sends one input (see [`Desktop::send`]).
    pub(crate) fn send(&mut self, input: Sendable) -> Result<(), DesktopError> {
        match input.input() {
            send::Input::Key(key) => self.key(key),
            send::Input::Click(button, x, y) => self.click(button, x, y),
        }
    }

    /// Presses and releases one key, with its modifier if it has one.
    fn key(&mut self, key: Key) -> Result<(), DesktopError> {
        let enigo = &mut self.enigo;
        let simple = match key {
            Key::Up => enigo::Key::UpArrow,
            Key::Down => enigo::Key::DownArrow,
            Key::Left => enigo::Key::LeftArrow,
            Key::Right => enigo::Key::RightArrow,
            Key::Return => enigo::Key::Return,
            Key::Escape => enigo::Key::Escape,
            Key::Backspace => enigo::Key::Backspace,
            Key::Tab => enigo::Key::Tab,
            Key::AltTap => enigo::Key::Alt,
            Key::Char(c) => enigo::Key::Unicode(c),
            Key::Alt(c) | Key::Ctrl(c) => {
                let modifier =
                    if matches!(key, Key::Alt(_)) { enigo::Key::Alt } else { enigo::Key::Control };
                enigo.key(modifier, Direction::Press).map_err(input_error)?;
                let result =
                    enigo.key(enigo::Key::Unicode(c), Direction::Click).map_err(input_error);
                enigo.key(modifier, Direction::Release).map_err(input_error)?;
                return result;
            }
        };
        enigo.key(simple, Direction::Click).map_err(input_error)
    }

    fn click(&mut self, button: MouseButton, x: i32, y: i32) -> Result<(), DesktopError> {
        self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(input_error)?;
        let button = match button {
            MouseButton::Left => Button::Left,
            MouseButton::Right => Button::Right,
        };
        self.enigo.button(button, Direction::Click).map_err(input_error)
    }

    pub(crate) fn move_pointer(&mut self, x: i32, y: i32) -> Result<(), DesktopError> {
        self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(input_error)
    }

    pub(crate) fn pointer(&mut self) -> Result<(i32, i32), DesktopError> {
        self.enigo.location().map_err(input_error)
    }

    pub(crate) fn clipboard_text(&mut self) -> Result<Option<String>, DesktopError> {
        match self.clipboard.get_text() {
            Ok(text) => Ok(Some(text)),
            Err(arboard::Error::ContentNotAvailable) => Ok(None),
            Err(e) => Err(DesktopError::Clipboard(e.to_string())),
        }
    }

    pub(crate) fn set_clipboard_text(&mut self, text: &str) -> Result<(), DesktopError> {
        self.clipboard.set_text(text).map_err(|e| DesktopError::Clipboard(e.to_string()))
    }

    pub(crate) fn clear_clipboard(&mut self) -> Result<(), DesktopError> {
        self.clipboard.clear().map_err(|e| DesktopError::Clipboard(e.to_string()))
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Waits between actions: only for the user's pacing (`--step-delay`, `--key-delay`), the
    /// menu delay where menus cannot be observed, and poll intervals of bounded waits.
    pub(crate) fn pause(&mut self, duration: Duration) {
        std::thread::sleep(duration);
    }

    /// Releases the modifiers, so an abort never leaves Alt or Ctrl held.
    pub(crate) fn release_all(&mut self) {
        for key in [enigo::Key::Alt, enigo::Key::Control, enigo::Key::Shift] {
            let _ = self.enigo.key(key, Direction::Release);
        }
    }
}

/// Input and clipboard only.
pub struct PortableDesktop {
    input: Input,
}

impl PortableDesktop {
    /// Opens the input and clipboard connections.
    pub fn new() -> Result<PortableDesktop, DesktopError> {
        Ok(PortableDesktop { input: Input::new()? })
    }
}

impl Desktop for PortableDesktop {
    fn send(&mut self, input: Sendable) -> Result<(), DesktopError> {
        self.input.send(input)
    }

    fn move_pointer(&mut self, x: i32, y: i32) -> Result<(), DesktopError> {
        self.input.move_pointer(x, y)
    }

    fn pointer(&mut self) -> Result<(i32, i32), DesktopError> {
        self.input.pointer()
    }

    fn clipboard_text(&mut self) -> Result<Option<String>, DesktopError> {
        self.input.clipboard_text()
    }

    fn set_clipboard_text(&mut self, text: &str) -> Result<(), DesktopError> {
        self.input.set_clipboard_text(text)
    }

    fn clear_clipboard(&mut self) -> Result<(), DesktopError> {
        self.input.clear_clipboard()
    }

    fn menu_showing(&mut self) -> Result<Option<bool>, DesktopError> {
        Ok(None)
    }

    fn focus_dialog(&mut self, _title: &str) -> Result<Option<bool>, DesktopError> {
        Ok(None)
    }

    fn close_dialog(&mut self, _title: &str) -> Result<bool, DesktopError> {
        Ok(false)
    }

    fn focus_game(&mut self) -> Result<(), DesktopError> {
        Ok(())
    }

    /// Windows: the focused window's client area (the window a capture reads); elsewhere
    /// unknown.
    fn game_area(&mut self) -> Result<Option<Rect>, DesktopError> {
        #[cfg(windows)]
        return Ok(super::win_capture::foreground_area().ok().map(|(_, area)| area));
        #[cfg(not(windows))]
        Ok(None)
    }

    /// Windows: the focused window's pixels through GDI (see `win_capture`); elsewhere this
    /// backend cannot capture.
    #[cfg(windows)]
    fn capture(&mut self) -> Result<crate::pixels::RgbaImage, DesktopError> {
        super::win_capture::capture_foreground()
    }

    fn elapsed(&self) -> Duration {
        self.input.elapsed()
    }

    fn pause(&mut self, duration: Duration) {
        self.input.pause(duration)
    }

    fn release_all(&mut self) {
        self.input.release_all()
    }
}
