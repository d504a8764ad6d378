//! Menu navigation per front end, kept in one place so the Windows path is a small, visible
//! difference.
//!
//! | action | GTK (Linux, Debian's sgt-puzzles) | Windows (MobaXterm) |
//! |---|---|---|
//! | open the Game menu | Alt+G | Alt+G |
//! | Copy | 9 x Down, Return (no accelerator, no mnemonic) | `c` (mnemonic `&Copy`) |
//! | Specific... | 2 x Down, Return | `f` (mnemonic `Speci&fic...`; untested) |
//! | clipboard line ends | LF | CRLF |
//!
//! On GTK, Copy is greyed out in Killer games and the keyboard skips it, so the nine Downs land
//! on Solve: never send the Copy sequence before knowing the game is not Killer.

use super::keys::Key;

/// The game's front end, which decides the menu keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Platform {
    /// The GTK front end (Linux builds of sgt-puzzles).
    #[default]
    Gtk,
    /// The Win32 front end (MobaXterm's Games menu, the Windows build).
    Windows,
}

/// A menu item sudobot uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuItem {
    /// Game > Copy: the board as text on the clipboard.
    Copy,
    /// Game > Specific...: a dialog showing the game ID.
    Specific,
}

impl Platform {
    /// The platform this binary runs on.
    pub fn native() -> Platform {
        if cfg!(windows) { Platform::Windows } else { Platform::Gtk }
    }

    /// The key that opens the Game menu.
    pub fn open_game_menu(self) -> Key {
        Key::Alt('g')
    }

    /// The keys that pick `item` once the Game menu is open.
    pub fn pick(self, item: MenuItem) -> Vec<Key> {
        match (self, item) {
            // GTK 20230122 order: New, Restart, Specific..., Random Seed..., Load..., Save...,
            // Print..., Undo, Redo, Copy, Solve, Exit (separators are skipped).
            (Platform::Gtk, MenuItem::Copy) => [vec![Key::Down; 9], vec![Key::Return]].concat(),
            (Platform::Gtk, MenuItem::Specific) => vec![Key::Down, Key::Down, Key::Return],
            (Platform::Windows, MenuItem::Copy) => vec![Key::Char('c')],
            (Platform::Windows, MenuItem::Specific) => vec![Key::Char('f')],
        }
    }

    /// The title of the Specific... dialog.
    pub fn specific_dialog_title(self) -> &'static str {
        "Solo game selection"
    }

    /// Keys that copy the game ID from the Specific... dialog (its text starts selected).
    pub fn copy_dialog_text(self) -> Vec<Key> {
        vec![Key::Ctrl('a'), Key::Ctrl('c')]
    }

    /// The line ending of the Copy text.
    pub fn line_ending(self) -> &'static str {
        match self {
            Platform::Gtk => "\n",
            Platform::Windows => "\r\n",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::keys::is_command_key;
    use super::*;

    #[test]
    fn menu_keys_hold_no_command_letters() {
        for platform in [Platform::Gtk, Platform::Windows] {
            for item in [MenuItem::Copy, MenuItem::Specific] {
                assert!(platform.pick(item).iter().all(|&k| !is_command_key(k)));
            }
            assert!(platform.copy_dialog_text().iter().all(|&k| !is_command_key(k)));
        }
        assert_eq!(Platform::Gtk.pick(MenuItem::Copy).len(), 10);
    }
}
