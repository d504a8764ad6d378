//! A model of Solo for unit tests: the key and click handling of `interpret_move` (cursor,
//! shared pencil flag, selection rules), the GTK Game menu (Copy greyed out in Killer), the
//! Specific... dialog and the clipboard. It records every key and every command that fired, so
//! tests can prove nothing dangerous was sent.

use std::time::Duration;

use super::DesktopError;
use super::backend::{Desktop, MouseButton, Rect};
use super::keys::Key;
use crate::format::{solo_id, solo_text};
use crate::grid::Grid;

/// GTK Game menu items in order (separators are skipped by the keyboard).
const MENU: [&str; 12] = [
    "New",
    "Restart",
    "Specific",
    "Random Seed",
    "Load",
    "Save",
    "Print",
    "Undo",
    "Redo",
    "Copy",
    "Solve",
    "Exit",
];

/// The fake game.
pub struct FakeSolo {
    /// The game ID text the dialog shows.
    pub id_text: String,
    killer: bool,
    /// Current values (0 empty).
    pub grid: Vec<u8>,
    immutable: Vec<bool>,
    /// Pencil marks, bit v-1 for v.
    pub pencil: Vec<u64>,
    side: usize,
    /// Selection state, as in Solo's game_ui.
    pub hx: usize,
    /// Selected row.
    pub hy: usize,
    /// Whether a cell is selected.
    pub hshow: bool,
    /// Pencil mode.
    pub hpencil: bool,
    /// Keyboard-cursor selection.
    pub hcursor: bool,
    menu: Option<usize>,
    dialog: bool,
    clipboard: Option<String>,
    now: Duration,
    /// Every key received.
    pub keys: Vec<Key>,
    /// Commands that fired (rejected command keys and menu actions other than Copy/Specific).
    pub fired: Vec<String>,
    template: Grid,
    /// Whether menus and dialogs are visible to the bot (false: like the portable backend).
    pub sees_windows: bool,
    /// Model the Win32 front end's menu (mnemonics) and CRLF clipboard.
    pub windows: bool,
    /// Where the pointer is.
    pub pointer_at: (i32, i32),
    /// Every pointer move without a click.
    pub walked: Vec<(i32, i32)>,
}

impl FakeSolo {
    /// A fresh game from a descriptive ID (Killer IDs give an empty 9x9 board with Copy
    /// disabled).
    pub fn new(id: &str) -> FakeSolo {
        let killer = id.split(':').next().is_some_and(|p| p.contains('k'));
        let template = if killer {
            crate::format::line::parse(&".".repeat(81)).expect("empty grid")
        } else {
            solo_id::parse(id).expect("test ID")
        };
        let side = template.side();
        FakeSolo {
            id_text: id.to_string(),
            killer,
            grid: template.cells().to_vec(),
            immutable: template.cells().iter().map(|&v| v != 0).collect(),
            pencil: vec![0; side * side],
            side,
            hx: 0,
            hy: 0,
            hshow: false,
            hpencil: false,
            hcursor: false,
            menu: None,
            dialog: false,
            clipboard: None,
            now: Duration::ZERO,
            keys: Vec::new(),
            fired: Vec::new(),
            template,
            sees_windows: true,
            windows: false,
            pointer_at: (0, 0),
            walked: Vec::new(),
        }
    }

    /// The current board as a grid.
    pub fn board(&self) -> Grid {
        Grid::new(self.template.geometry_arc().clone(), self.grid.clone()).expect("in range")
    }

    fn value_of(&self, c: char) -> Option<u8> {
        let v = match c {
            '1'..='9' => c as u8 - b'0',
            'a'..='z' => c as u8 - b'a' + 10,
            _ => return None,
        };
        (v as usize <= self.side).then_some(v)
    }

    fn game_key(&mut self, key: Key) {
        let side = self.side;
        match key {
            Key::Up | Key::Down | Key::Left | Key::Right => {
                match key {
                    Key::Up => self.hy = self.hy.saturating_sub(1),
                    Key::Down => self.hy = (self.hy + 1).min(side - 1),
                    Key::Left => self.hx = self.hx.saturating_sub(1),
                    _ => self.hx = (self.hx + 1).min(side - 1),
                }
                self.hshow = true;
                self.hcursor = true;
            }
            Key::Return if self.hshow => {
                self.hpencil = !self.hpencil;
                self.hcursor = true;
            }
            Key::Backspace if self.hshow => {
                let i = self.hy * side + self.hx;
                if !self.immutable[i] {
                    self.grid[i] = 0;
                    self.pencil[i] = 0;
                }
                if !self.hcursor {
                    self.hshow = false;
                }
            }
            Key::Char(c) if self.hshow && self.value_of(c).is_some() => {
                let v = self.value_of(c).unwrap_or(0);
                let i = self.hy * side + self.hx;
                if self.immutable[i] || (self.hpencil && self.grid[i] != 0) {
                    return;
                }
                if self.hpencil {
                    self.pencil[i] ^= 1 << (v - 1);
                } else {
                    self.grid[i] = v;
                    self.pencil[i] = 0;
                }
                if !self.hcursor {
                    self.hshow = false;
                }
            }
            Key::Char(c) if "nNuUrRqQmM*#".contains(c) => self.fired.push(format!("command {c}")),
            Key::Ctrl(c) if "snzrq".contains(c) => self.fired.push(format!("command ctrl+{c}")),
            Key::Alt('g') => self.menu = Some(0),
            _ => {}
        }
    }

    fn menu_key(&mut self, at: usize, key: Key) {
        let enabled = |i: usize| !(self.killer && MENU[i] == "Copy");
        if self.windows {
            // Win32 menus: mnemonics pick items (&Copy, Speci&fic...).
            match key {
                Key::Char('c') if enabled(9) => self.activate(9),
                Key::Char('f') => self.activate(2),
                Key::Escape => self.menu = None,
                _ => {}
            }
            return;
        }
        match key {
            Key::Down => {
                let mut next = (at + 1) % MENU.len();
                while !enabled(next) {
                    next = (next + 1) % MENU.len();
                }
                self.menu = Some(next);
            }
            Key::Escape => self.menu = None,
            Key::Return => self.activate(at),
            _ => {}
        }
    }
}

impl FakeSolo {
    fn activate(&mut self, at: usize) {
        self.menu = None;
        match MENU[at] {
            "Copy" => {
                let eol = if self.windows { "\r\n" } else { "\n" };
                self.clipboard = Some(solo_text::write_with(&self.board(), eol));
            }
            "Specific" => self.dialog = true,
            other => self.fired.push(format!("menu {other}")),
        }
    }
}

impl Desktop for FakeSolo {
    fn key(&mut self, key: Key) -> Result<(), DesktopError> {
        self.keys.push(key);
        self.now += Duration::from_micros(100);
        if self.dialog {
            match key {
                Key::Ctrl('c') => self.clipboard = Some(self.id_text.clone()),
                Key::Escape => self.dialog = false,
                _ => {}
            }
        } else if let Some(at) = self.menu {
            self.menu_key(at, key);
        } else {
            self.game_key(key);
        }
        Ok(())
    }

    fn click(&mut self, button: MouseButton, x: i32, y: i32) -> Result<(), DesktopError> {
        // GTK, no WM: the canvas starts under a 25 px menu bar; tile 48, border 24.
        let (ts, border) = (48i32, 24i32);
        let tx = (x + ts - border).div_euclid(ts) - 1;
        let ty = (y - 25 + ts - border).div_euclid(ts) - 1;
        let side = self.side as i32;
        if !(0..side).contains(&tx) || !(0..side).contains(&ty) {
            return Ok(());
        }
        let (tx, ty) = (tx as usize, ty as usize);
        let i = ty * self.side + tx;
        let same = tx == self.hx && ty == self.hy && self.hshow;
        match button {
            MouseButton::Left => {
                if self.immutable[i] || (same && !self.hpencil) {
                    self.hshow = false;
                } else {
                    (self.hx, self.hy, self.hshow, self.hpencil) = (tx, ty, true, false);
                }
            }
            MouseButton::Right => {
                if self.grid[i] != 0 || (same && self.hpencil) {
                    self.hshow = false;
                } else {
                    (self.hx, self.hy, self.hshow, self.hpencil) = (tx, ty, true, true);
                }
            }
        }
        self.hcursor = false;
        Ok(())
    }

    fn move_pointer(&mut self, x: i32, y: i32) -> Result<(), DesktopError> {
        self.pointer_at = (x, y);
        self.walked.push((x, y));
        Ok(())
    }

    fn pointer(&mut self) -> Result<(i32, i32), DesktopError> {
        Ok(self.pointer_at)
    }

    fn clipboard_text(&mut self) -> Result<Option<String>, DesktopError> {
        Ok(self.clipboard.clone())
    }

    fn set_clipboard_text(&mut self, text: &str) -> Result<(), DesktopError> {
        self.clipboard = Some(text.to_string());
        Ok(())
    }

    fn menu_showing(&mut self) -> Result<Option<bool>, DesktopError> {
        Ok(self.sees_windows.then_some(self.menu.is_some()))
    }

    fn focus_dialog(&mut self, _title: &str) -> Result<Option<bool>, DesktopError> {
        Ok(self.sees_windows.then_some(self.dialog))
    }

    fn close_dialog(&mut self, _title: &str) -> Result<bool, DesktopError> {
        if self.sees_windows && self.dialog {
            self.dialog = false;
            return Ok(true);
        }
        Ok(false)
    }

    fn focus_game(&mut self) -> Result<(), DesktopError> {
        Ok(())
    }

    fn game_area(&mut self) -> Result<Option<Rect>, DesktopError> {
        let size = (self.side * 48 + 49) as u32;
        Ok(self.sees_windows.then_some(Rect { x: 0, y: 0, width: size, height: size + 25 }))
    }

    fn elapsed(&self) -> Duration {
        self.now
    }

    fn pause(&mut self, duration: Duration) {
        self.now += duration.max(Duration::from_micros(1));
    }

    fn release_all(&mut self) {}
}
