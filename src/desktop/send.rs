//! What may reach the game: the [`Desktop`](super::Desktop) trait takes keys and clicks only
//! as [`Sendable`], and this module alone makes one (its field is private), from three
//! sources:
//! - a plan the key model proved ([`Sendable::plan`] of a [`Proven`]), which is how every
//!   value reaches a cell (the keyboard and mouse plans, show-thinking, and a run by pixels,
//!   whose click and digit have their own small proofs in [`super::fill`]);
//! - one of the game's own menu and dialog commands, named ([`Command`]), whose keys the
//!   platform gives;
//! - Escape, which closes what the bot or the player opened.
//!
//! So a key that is neither proven, nor a named command, nor Escape cannot be sent.

use super::backend::MouseButton;
use super::fill::{Action, Proven};
use super::keys::Key;
use super::menu::{MenuItem, Platform};

/// One input the bot may send: a key, or a click at a screen point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sendable(Input);

/// What a [`Sendable`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A key (with its modifiers).
    Key(Key),
    /// A click of `button` at the screen point (`x`, `y`).
    Click(MouseButton, i32, i32),
}

/// The game's menu and dialog commands the bot uses, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Opens the Game menu.
    OpenGameMenu,
    /// Picks an item of the open Game menu.
    Pick(MenuItem),
    /// Selects and copies the text of the Game > Specific... dialog.
    CopyDialogText,
    /// Selects a dialog field's text and pastes the clipboard over it.
    PasteOver,
    /// Selects a dialog field's text and copies it.
    CopyField,
    /// Presses the save dialog's Save button (Alt+S).
    Save,
}

impl Sendable {
    /// What to send.
    pub fn input(self) -> Input {
        self.0
    }

    /// The key, for a key.
    pub fn key(self) -> Option<Key> {
        match self.0 {
            Input::Key(key) => Some(key),
            Input::Click(..) => None,
        }
    }

    /// A proven plan's input, in order (its watch steps are pauses, not input).
    pub(super) fn plan(proven: &Proven) -> impl Iterator<Item = Option<Sendable>> + '_ {
        proven.actions().iter().map(|action| match *action {
            Action::Key(key) => Some(Sendable(Input::Key(key))),
            Action::Click(button, x, y, _) => Some(Sendable(Input::Click(button, x, y))),
            Action::Watch => None,
        })
    }

    /// A named command's keys on `platform`.
    pub(super) fn command(platform: Platform, command: Command) -> Vec<Sendable> {
        let keys = match command {
            Command::OpenGameMenu => platform.open_game_menu(),
            Command::Pick(item) => platform.pick(item),
            Command::CopyDialogText => platform.copy_dialog_text(),
            Command::PasteOver => vec![Key::Ctrl('a'), Key::Ctrl('v')],
            Command::CopyField => vec![Key::Ctrl('a'), Key::Ctrl('c')],
            Command::Save => vec![Key::Alt('s')],
        };
        keys.into_iter().map(|key| Sendable(Input::Key(key))).collect()
    }

    /// Escape.
    pub(super) fn escape() -> Sendable {
        Sendable(Input::Key(Key::Escape))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desktop::backend::Rect;
    use crate::desktop::fill;

    #[test]
    fn a_proven_click_and_the_named_commands_are_what_is_sent() {
        let area = Rect { x: 0, y: 0, width: 100, height: 100 };
        let proven = fill::check_click_in(area, (10, 20), 0).unwrap();
        let sent: Vec<Option<Sendable>> = Sendable::plan(&proven).collect();
        assert_eq!(sent, [Some(Sendable(Input::Click(MouseButton::Left, 10, 20)))]);
        assert_eq!(sent[0].unwrap().key(), None);
        let gtk = Platform::Gtk;
        let keys: Vec<Option<Key>> =
            Sendable::command(gtk, Command::OpenGameMenu).into_iter().map(Sendable::key).collect();
        assert_eq!(keys, [Some(Key::Alt('g'))]);
        let paste: Vec<Option<Key>> =
            Sendable::command(gtk, Command::PasteOver).into_iter().map(Sendable::key).collect();
        assert_eq!(paste, [Some(Key::Ctrl('a')), Some(Key::Ctrl('v'))]);
        assert_eq!(Sendable::escape().key(), Some(Key::Escape));
    }
}
