//! Keys and the safe builder of in-game key sequences.
//!
//! Solo treats some letters as commands whenever it rejects a key (for instance when no cell is
//! selected): `n` new game, `u` undo, `r` redo, `q` quit, `m` fill all pencil marks, and Ctrl+S
//! solves. On grids of side 22 and more some of those letters are also digits. So value keys are
//! never built directly: [`Keys`] only emits a value character after it has put the cursor on a
//! cell itself, and only for a value the grid can hold. Menu and dialog keys live in
//! [`super::menu`] and contain no letters Solo could take as a command.

use crate::grid::symbol::{self, Style};

/// A key press as the game sees it (press and release, with modifiers held around it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Return: toggles pencil mode on a selected cell; activates a menu item.
    Return,
    /// Escape: closes menus and dialogs.
    Escape,
    /// Backspace: clears the selected cell.
    Backspace,
    /// Tab: moves the focus between a dialog's controls.
    Tab,
    /// Alt pressed and released on its own: on Win32 it gives the menu bar the keyboard, so the
    /// next letter opens a menu.
    AltTap,
    /// A character key, unmodified.
    Char(char),
    /// Alt + a character (menu mnemonics).
    Alt(char),
    /// Ctrl + a character (select all and copy in dialogs).
    Ctrl(char),
}

/// Characters Solo takes as commands when it rejects them as input.
pub const COMMAND_LETTERS: [char; 10] = ['n', 'N', 'u', 'U', 'r', 'R', 'q', 'Q', 'm', 'M'];

/// Whether a key would be a Solo command if the game rejected it.
pub fn is_command_key(key: Key) -> bool {
    match key {
        Key::Char(c) => COMMAND_LETTERS.contains(&c) || c == '*' || c == '#',
        Key::Ctrl(c) => matches!(c.to_ascii_lowercase(), 's' | 'n' | 'z' | 'r' | 'q'),
        _ => false,
    }
}

/// Where the keyboard cursor is, as far as the builder knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// Column, 0-based.
    pub x: usize,
    /// Row, 0-based.
    pub y: usize,
}

/// Builds key sequences for the keyboard cursor of a grid of side `side`.
///
/// The cursor position is unknown until [`Keys::home`] is called; until then no value can be
/// typed. Arrow keys clamp at the edges, so `side` x Up and `side` x Left always reach (0,0),
/// and the first arrow press also shows the cursor.
#[derive(Clone, Debug)]
pub struct Keys {
    side: usize,
    cursor: Option<Cursor>,
    pencil: Option<bool>,
    keys: Vec<Key>,
}

impl Keys {
    /// A builder for a grid of `side`, cursor position and pencil mode unknown.
    pub fn new(side: usize) -> Keys {
        Keys { side, cursor: None, pencil: None, keys: Vec::new() }
    }

    /// Declares the pencil mode known (a fresh game starts in normal mode).
    pub fn assume_pencil(&mut self, pencil: bool) {
        self.pencil = Some(pencil);
    }

    /// The pencil mode as tracked, `None` when unknown.
    pub fn pencil(&self) -> Option<bool> {
        self.pencil
    }

    /// Declares the cursor on a cell the caller selected itself (with a mouse click).
    pub fn assume_cursor(&mut self, x: usize, y: usize) {
        self.cursor = Some(Cursor { x: x.min(self.side - 1), y: y.min(self.side - 1) });
    }

    /// Moves the cursor to (0,0) from anywhere: `side` x Up and `side` x Left.
    pub fn home(&mut self) {
        for _ in 0..self.side {
            self.keys.push(Key::Up);
        }
        for _ in 0..self.side {
            self.keys.push(Key::Left);
        }
        self.cursor = Some(Cursor { x: 0, y: 0 });
    }

    /// Moves the cursor to a cell with arrows (homing first if the position is unknown).
    pub fn go_to(&mut self, x: usize, y: usize) {
        let x = x.min(self.side - 1);
        let y = y.min(self.side - 1);
        let Some(at) = self.cursor else {
            self.home();
            return self.go_to(x, y);
        };
        let (h, steps_h) = if x >= at.x { (Key::Right, x - at.x) } else { (Key::Left, at.x - x) };
        let (v, steps_v) = if y >= at.y { (Key::Down, y - at.y) } else { (Key::Up, at.y - y) };
        self.keys.extend(std::iter::repeat_n(h, steps_h));
        self.keys.extend(std::iter::repeat_n(v, steps_v));
        self.cursor = Some(Cursor { x, y });
    }

    /// Sets pencil mode on or off with Return (needs a selected cell; homes if necessary).
    /// With the mode unknown it does nothing and returns false.
    pub fn set_pencil(&mut self, on: bool) -> bool {
        if self.cursor.is_none() {
            self.home();
        }
        match self.pencil {
            Some(mode) if mode == on => true,
            Some(_) => {
                self.keys.push(Key::Return);
                self.pencil = Some(on);
                true
            }
            None => false,
        }
    }

    /// Toggles pencil mode with Return, known or not.
    pub fn toggle_pencil(&mut self) {
        if self.cursor.is_none() {
            self.home();
        }
        self.keys.push(Key::Return);
        self.pencil = self.pencil.map(|p| !p);
    }

    /// Types a value at the cursor. Returns false, emitting nothing, when the cursor is not on a
    /// cell or the value is not one of the grid's (so a command letter can never slip out).
    pub fn value(&mut self, value: u8) -> bool {
        if self.cursor.is_none() || value == 0 || value as usize > self.side {
            return false;
        }
        match symbol::to_char(value, self.side, Style::Solo) {
            Some(c) => {
                self.keys.push(Key::Char(c));
                true
            }
            None => false,
        }
    }

    /// Clears the cell under the cursor (Backspace). Returns false, emitting nothing, when the
    /// cursor is not on a cell.
    pub fn clear(&mut self) -> bool {
        if self.cursor.is_none() {
            return false;
        }
        self.keys.push(Key::Backspace);
        true
    }

    /// Goes to a cell and types a value there.
    pub fn put(&mut self, x: usize, y: usize, value: u8) -> bool {
        self.go_to(x, y);
        self.value(value)
    }

    /// The keys built so far.
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// Takes the keys built so far, keeping the tracked cursor and mode.
    pub fn take(&mut self) -> Vec<Key> {
        std::mem::take(&mut self.keys)
    }
}

/// Orders cells for typing so arrow moves stay short: rows top to bottom, alternately left to
/// right and right to left.
pub fn snake_order(cells: &mut [usize], side: usize) {
    cells.sort_by_key(|&i| {
        let (y, x) = (i / side, i % side);
        (y, if y % 2 == 0 { x } else { side - 1 - x })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_typed_before_the_cursor_is_placed() {
        let mut k = Keys::new(25);
        assert!(!k.value(23)); // 'n' on 25x25
        assert!(k.keys().is_empty());
        assert!(k.put(0, 0, 23));
        assert_eq!(k.keys().last(), Some(&Key::Char('n')));
    }

    #[test]
    fn values_outside_the_grid_are_refused() {
        let mut k = Keys::new(9);
        k.home();
        assert!(!k.value(10));
        assert!(!k.value(0));
        assert!(k.keys().iter().all(|&key| !matches!(key, Key::Char(_))));
        // On 9x9 and 16x16 no value is a command letter.
        for side in [4usize, 6, 9, 12, 16] {
            let mut k = Keys::new(side);
            for v in 1..=side as u8 {
                assert!(k.put(v as usize % side, 0, v));
            }
            assert!(k.keys().iter().all(|&key| !is_command_key(key)), "{side}");
        }
    }

    #[test]
    fn homing_then_moving_uses_arrows() {
        let mut k = Keys::new(4);
        k.put(2, 1, 3);
        let keys = k.take();
        assert_eq!(
            &keys[..8],
            &[Key::Up, Key::Up, Key::Up, Key::Up, Key::Left, Key::Left, Key::Left, Key::Left]
        );
        assert_eq!(&keys[8..], &[Key::Right, Key::Right, Key::Down, Key::Char('3')]);
        k.put(0, 1, 4);
        assert_eq!(k.take(), vec![Key::Left, Key::Left, Key::Char('4')]);
    }

    #[test]
    fn pencil_mode_is_tracked() {
        let mut k = Keys::new(9);
        assert!(!k.set_pencil(true), "unknown mode is not guessed");
        k.assume_pencil(false);
        assert!(k.set_pencil(true));
        assert!(k.set_pencil(true));
        assert_eq!(k.keys().iter().filter(|&&key| key == Key::Return).count(), 1);
        assert_eq!(k.pencil(), Some(true));
    }

    #[test]
    fn snake_order_alternates() {
        let mut cells = vec![0, 1, 2, 3, 4, 5, 6, 7, 8];
        snake_order(&mut cells, 3);
        assert_eq!(cells, vec![0, 1, 2, 5, 4, 3, 6, 7, 8]);
    }
}
