//! Menu navigation per front end, kept in one place so the Windows path is a small, visible
//! difference.
//!
//! | action | GTK (Linux, Debian's sgt-puzzles) | Win32 (`windows.c`, MobaXterm) |
//! |---|---|---|
//! | open the Game menu | Alt+G | tap Alt alone, then `g` |
//! | Copy | 9 x Down, Return (no accelerator, no mnemonic) | `c` (mnemonic `&Copy`) |
//! | Specific... | 2 x Down, Return | `f` (mnemonic `Speci&fic...`) |
//! | Save... | 5 x Down, Return | `s` (mnemonic `&Save...`) |
//! | copy the Specific... game ID | Ctrl+A, Ctrl+C (the entry has the focus) | Tab, Ctrl+A, Ctrl+C |
//! | clipboard line ends | LF | CRLF |
//!
//! On GTK, Copy is greyed out in Killer games and the keyboard skips it, so the nine Downs land
//! on Solve: never send the Copy sequence before knowing the game is not Killer.
//!
//! The Win32 front end's message loop translates only `WM_KEYDOWN`, so Alt+G pressed together
//! never becomes the `WM_SYSCHAR` menu access needs; Alt tapped alone activates the menu bar
//! and `g` then opens Game. [`super::game::pick`] sends the item's letter only once the menu
//! shows where the backend can see menus; where it cannot (the portable backend on Windows) the
//! only letters sent are `c` and `f`, which Solo ignores when a menu did not open (they are not
//! commands). The Specific... dialog's edit box starts without the focus; Tab gives it the
//! focus and selects its text. Tab is repeated with each copy attempt: the focus cycles through
//! the edit box and the two buttons, so a later attempt reaches the edit box whichever control
//! had the focus first.

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
    /// Game > Save...: a file dialog; the game then writes its save file (Killer games, which
    /// have no Copy, are read this way).
    Save,
}

impl Platform {
    /// The platform this binary runs on.
    pub fn native() -> Platform {
        if cfg!(windows) { Platform::Windows } else { Platform::Gtk }
    }

    /// The front end of a window from its X11 `WM_CLASS` (instance and class names), `None`
    /// when it is not a known Solo front end. The GTK build names itself `sgt-solo`; a Windows
    /// program under Wine carries its executable's name (`solo.exe` for the Win32 front end
    /// built from the puzzles' source), so any `.exe` is taken as the Win32 front end.
    pub fn from_window_class(instance: &str, class: &str) -> Option<Platform> {
        let names = [instance, class];
        if names.iter().any(|n| n.eq_ignore_ascii_case("sgt-solo")) {
            Some(Platform::Gtk)
        } else if names.iter().any(|n| n.to_ascii_lowercase().ends_with(".exe")) {
            Some(Platform::Windows)
        } else {
            None
        }
    }

    /// The keys that open the Game menu.
    pub fn open_game_menu(self) -> Vec<Key> {
        match self {
            Platform::Gtk => vec![Key::Alt('g')],
            Platform::Windows => vec![Key::AltTap, Key::Char('g')],
        }
    }

    /// The keys that pick `item` once the Game menu is open.
    pub fn pick(self, item: MenuItem) -> Vec<Key> {
        match (self, item) {
            // GTK 20230122 order: New, Restart, Specific..., Random Seed..., Load..., Save...,
            // Print..., Undo, Redo, Copy, Solve, Exit (separators are skipped).
            (Platform::Gtk, MenuItem::Copy) => [vec![Key::Down; 9], vec![Key::Return]].concat(),
            (Platform::Gtk, MenuItem::Specific) => vec![Key::Down, Key::Down, Key::Return],
            (Platform::Gtk, MenuItem::Save) => [vec![Key::Down; 5], vec![Key::Return]].concat(),
            (Platform::Windows, MenuItem::Copy) => vec![Key::Char('c')],
            (Platform::Windows, MenuItem::Specific) => vec![Key::Char('f')],
            (Platform::Windows, MenuItem::Save) => vec![Key::Char('s')],
        }
    }

    /// The title of the Specific... dialog.
    pub fn specific_dialog_title(self) -> &'static str {
        "Solo game selection"
    }

    /// Keys that copy the game ID from the Specific... dialog. GTK's entry starts focused with
    /// its text selected; the Win32 edit box starts without the focus, and Tab gives it.
    pub fn copy_dialog_text(self) -> Vec<Key> {
        match self {
            Platform::Gtk => vec![Key::Ctrl('a'), Key::Ctrl('c')],
            Platform::Windows => vec![Key::Tab, Key::Ctrl('a'), Key::Ctrl('c')],
        }
    }

    /// Whether the save dialog's file name field can be copied back to check it before Save.
    /// Solo's Win32 save dialog under Wine gives no copy of it (Ctrl+A, Ctrl+C left the
    /// clipboard unchanged for 2 s and more, measured), so there only the game lock keeps a
    /// second bot's name out.
    pub fn save_field_copies(self) -> bool {
        self == Platform::Gtk
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
            for item in [MenuItem::Copy, MenuItem::Specific, MenuItem::Save] {
                assert!(platform.pick(item).iter().all(|&k| !is_command_key(k)));
            }
            assert!(platform.copy_dialog_text().iter().all(|&k| !is_command_key(k)));
            assert!(platform.open_game_menu().iter().all(|&k| !is_command_key(k)));
        }
        // Where menus cannot be seen (Windows), a letter that missed the menu reaches the game:
        // only letters that are no Solo command are ever sent there.
        for key in Platform::Windows.pick(MenuItem::Copy) {
            assert!(matches!(key, Key::Char('c')));
        }
        assert_eq!(Platform::Gtk.pick(MenuItem::Copy).len(), 10);
    }

    #[test]
    fn front_end_from_window_class() {
        // As the GTK build and Wine set them (xprop WM_CLASS).
        assert_eq!(Platform::from_window_class("sgt-solo", "Sgt-solo"), Some(Platform::Gtk));
        assert_eq!(Platform::from_window_class("solo.exe", "solo.exe"), Some(Platform::Windows));
        assert_eq!(Platform::from_window_class("SOLO.EXE", ""), Some(Platform::Windows));
        assert_eq!(Platform::from_window_class("xterm", "XTerm"), None);
        assert_eq!(Platform::from_window_class("", ""), None);
    }
}
