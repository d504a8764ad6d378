//! A desktop backend for any OS enigo and arboard support (Windows, where MobaXterm runs its
//! games; macOS; X11 without window access). It cannot find or focus windows, nor see menus
//! and dialogs: the user focuses the game (interactive mode), and menu steps are paced with
//! the menu delay instead of observed. The copy steps still wait on the clipboard with bounds.

use std::time::{Duration, Instant};

use enigo::{Button, Coordinate, Direction, Enigo, Keyboard, Mouse, Settings};

use super::DesktopError;
use super::backend::{Desktop, MouseButton, Rect};
use super::keys::Key;

/// Input and clipboard only.
pub struct PortableDesktop {
    enigo: Enigo,
    clipboard: arboard::Clipboard,
    start: Instant,
}

fn input_error(e: impl std::fmt::Display) -> DesktopError {
    DesktopError::Input(e.to_string())
}

impl PortableDesktop {
    /// Opens the input and clipboard connections.
    pub fn new() -> Result<PortableDesktop, DesktopError> {
        Ok(PortableDesktop {
            enigo: Enigo::new(&Settings::default()).map_err(input_error)?,
            clipboard: arboard::Clipboard::new()
                .map_err(|e| DesktopError::Clipboard(e.to_string()))?,
            start: Instant::now(),
        })
    }
}

/// Sends one key through enigo (shared with the X11 backend).
pub(crate) fn send_key(enigo: &mut Enigo, key: Key) -> Result<(), DesktopError> {
    let simple = match key {
        Key::Up => enigo::Key::UpArrow,
        Key::Down => enigo::Key::DownArrow,
        Key::Left => enigo::Key::LeftArrow,
        Key::Right => enigo::Key::RightArrow,
        Key::Return => enigo::Key::Return,
        Key::Escape => enigo::Key::Escape,
        Key::Backspace => enigo::Key::Backspace,
        Key::Char(c) => enigo::Key::Unicode(c),
        Key::Alt(c) | Key::Ctrl(c) => {
            let modifier =
                if matches!(key, Key::Alt(_)) { enigo::Key::Alt } else { enigo::Key::Control };
            enigo.key(modifier, Direction::Press).map_err(input_error)?;
            let result = enigo.key(enigo::Key::Unicode(c), Direction::Click).map_err(input_error);
            enigo.key(modifier, Direction::Release).map_err(input_error)?;
            return result;
        }
    };
    enigo.key(simple, Direction::Click).map_err(input_error)
}

impl Desktop for PortableDesktop {
    fn key(&mut self, key: Key) -> Result<(), DesktopError> {
        send_key(&mut self.enigo, key)
    }

    fn click(&mut self, button: MouseButton, x: i32, y: i32) -> Result<(), DesktopError> {
        self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(input_error)?;
        let button = match button {
            MouseButton::Left => Button::Left,
            MouseButton::Right => Button::Right,
        };
        self.enigo.button(button, Direction::Click).map_err(input_error)
    }

    fn move_pointer(&mut self, x: i32, y: i32) -> Result<(), DesktopError> {
        self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(input_error)
    }

    fn pointer(&mut self) -> Result<(i32, i32), DesktopError> {
        self.enigo.location().map_err(input_error)
    }

    fn clipboard_text(&mut self) -> Result<Option<String>, DesktopError> {
        match self.clipboard.get_text() {
            Ok(text) => Ok(Some(text)),
            Err(arboard::Error::ContentNotAvailable) => Ok(None),
            Err(e) => Err(DesktopError::Clipboard(e.to_string())),
        }
    }

    fn set_clipboard_text(&mut self, text: &str) -> Result<(), DesktopError> {
        self.clipboard.set_text(text).map_err(|e| DesktopError::Clipboard(e.to_string()))
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

    fn game_area(&mut self) -> Result<Option<Rect>, DesktopError> {
        Ok(None)
    }

    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn pause(&mut self, duration: Duration) {
        std::thread::sleep(duration);
    }

    fn release_all(&mut self) {
        for key in [enigo::Key::Alt, enigo::Key::Control, enigo::Key::Shift] {
            let _ = self.enigo.key(key, Direction::Release);
        }
    }
}
