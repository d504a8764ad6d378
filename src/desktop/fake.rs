//! A model of Solo for unit tests: the key and click handling of `interpret_move` (cursor,
//! shared pencil flag, selection rules), the GTK Game menu (Copy greyed out in Killer), the
//! Specific... dialog, the Save... file dialog (which writes a save file as Solo does) and the
//! clipboard. It records every key and every command that fired, so tests can prove nothing
//! dangerous was sent.

use std::time::Duration;

use super::DesktopError;
use super::backend::{Desktop, MouseButton, Popups, Rect};
use super::keys::Key;
use super::send::{self, Sendable};
use crate::format::{solo_id, solo_text};
use crate::grid::Grid;

/// GTK Game menu items in order (separators are skipped by the keyboard).
/// What another program puts on the clipboard in the tests of a shared clipboard.
pub const FOREIGN_TEXT: &str = "/home/someone/notes.txt";

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
    pub clipboard: Option<String>,
    now: Duration,
    /// Every key received.
    pub keys: Vec<Key>,
    /// Commands that fired (rejected command keys and menu actions other than Copy/Specific).
    pub fired: Vec<String>,
    template: Grid,
    /// Whether menus and dialogs are visible to the bot (false: like the portable backend).
    pub sees_windows: bool,
    /// Model the Win32 front end: menus opened by an Alt tap then a letter (Alt+G together does
    /// nothing), items picked by mnemonic, a Specific... dialog whose edit box starts without
    /// the focus, and a CRLF clipboard.
    pub windows: bool,
    /// Win32: Alt was tapped, the menu bar has the keyboard.
    menu_bar: bool,
    /// Win32: an Alt tap does not reach the menu bar (as when the game is not active).
    pub alt_tap_lost: bool,
    /// Win32: the Specific... dialog's focus (0 none, 1 the edit box, 2 OK, 3 Cancel).
    dialog_focus: usize,
    /// Win32: where the dialog's focus starts (0 under Wine: nowhere).
    pub dialog_focus_at_open: usize,
    /// Where the pointer is.
    pub pointer_at: (i32, i32),
    /// Every pointer move without a click.
    pub walked: Vec<(i32, i32)>,
    /// The game window's client area (menu bar included), 25 px menu bar.
    pub area: Rect,
    /// The screen's size.
    pub screen: (u32, u32),
    /// Windows above the game.
    pub covers: Vec<Rect>,
    /// Moves recorded in the undo history, as Solo writes them (`R0,1,5`, `P2,3,4`).
    pub moves: Vec<String>,
    /// The Save... file dialog is open, with this file name in its entry.
    save_dialog: Option<String>,
    /// Confirmations of the save dialog to drop (GTK's file chooser drops the first now and
    /// then).
    pub save_confirms_lost: usize,
    /// The name of the game window, for the lock (`None`: no lock).
    pub window_key: Option<String>,
    /// Pastes into the save dialog that get another program's text ([`FOREIGN_TEXT`]).
    pub foreign_pastes: usize,
    /// Save files written.
    pub saves: Vec<std::path::PathBuf>,
    /// Every pause: the number of moves made before it, and its length.
    pub pauses: Vec<(usize, Duration)>,
    /// Sets the flag (as Esc or Ctrl-C would) once this many moves are made.
    pub abort_at: Option<(usize, std::sync::Arc<std::sync::atomic::AtomicBool>)>,
    /// What interactive F2 finds focused (the game unless set).
    pub focused: Option<super::Focused>,
}

impl FakeSolo {
    /// A fresh game from a descriptive ID (Killer IDs give an empty 9x9 board with Copy
    /// disabled).
    pub fn new(id: &str) -> FakeSolo {
        let killer = id.split(':').next().is_some_and(|p| p.contains('k'));
        let template = solo_id::parse(id).expect("test ID");
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
            menu_bar: false,
            alt_tap_lost: false,
            dialog_focus: 0,
            dialog_focus_at_open: 0,
            pointer_at: (0, 0),
            walked: Vec::new(),
            area: Rect {
                x: 0,
                y: 0,
                width: (side * 48 + 49) as u32,
                height: (side * 48 + 74) as u32,
            },
            screen: (4000, 4000),
            covers: Vec::new(),
            moves: Vec::new(),
            save_dialog: None,
            save_confirms_lost: 0,
            foreign_pastes: 0,
            window_key: None,
            saves: Vec::new(),
            pauses: Vec::new(),
            abort_at: None,
            focused: None,
        }
    }

    /// Writes the save file as `midend_serialise` does (LF on GTK, CRLF on Windows).
    fn write_save(&mut self, name: &str) {
        let path = match name.strip_prefix("Z:") {
            Some(rest) if self.windows => rest.replace('\\', "/"),
            _ => name.to_string(),
        };
        let eol = if self.windows { "\r\n" } else { "\n" };
        let mut text = String::new();
        let mut rec = |k: &str, v: &str| text.push_str(&format!("{k:<8}:{}:{v}{eol}", v.len()));
        let params = self.id_text.split(':').next().unwrap_or_default().to_string();
        rec("SAVEFILE", crate::format::solo_save::MAGIC);
        rec("VERSION", "1");
        rec("GAME", "Solo");
        rec("PARAMS", &params);
        rec("CPARAMS", &params);
        rec("DESC", self.id_text.split_once(':').map_or("", |(_, d)| d));
        rec("NSTATES", &(self.moves.len() + 1).to_string());
        rec("STATEPOS", &(self.moves.len() + 1).to_string());
        for m in &self.moves {
            rec("MOVE", m);
        }
        std::fs::write(&path, text).expect("the fake writes its save file");
        self.saves.push(path.into());
    }

    fn save_dialog_key(&mut self, key: Key) {
        match key {
            Key::Ctrl('a') => {}
            // Another program's text, as if it had set the clipboard just before the paste.
            Key::Ctrl('v') if self.foreign_pastes > 0 => {
                self.foreign_pastes -= 1;
                self.save_dialog = Some(FOREIGN_TEXT.into());
            }
            Key::Ctrl('v') => self.save_dialog = self.clipboard.clone(),
            Key::Ctrl('c') => self.clipboard = self.save_dialog.clone(),
            Key::Alt('s') | Key::Return if self.save_confirms_lost > 0 => {
                self.save_confirms_lost -= 1
            }
            Key::Alt('s') | Key::Return => {
                let name = self.save_dialog.take().unwrap_or_default();
                self.write_save(&name);
            }
            Key::Escape => self.save_dialog = None,
            _ => {}
        }
    }

    /// Opens the Game menu, as a player may leave it.
    pub fn open_menu(&mut self) {
        self.menu = Some(0);
    }

    /// Opens the Specific... dialog, as a player may leave it.
    pub fn open_dialog(&mut self) {
        self.dialog = true;
    }

    /// Where Solo draws the board in the area: tile size and the screen point of the board's
    /// top-left corner (largest tile that fits under the menu bar, board centred).
    fn board_at(&self) -> (i32, i32, i32) {
        let (w, h) = (self.area.width as i32, self.area.height as i32 - 25);
        let side = self.side as i32;
        let size = |t: i32| t * side + 2 * (t / 2) + 1;
        let tile = (1..=200).take_while(|&t| size(t) <= w.min(h)).last().unwrap_or(1);
        let (ox, oy) = ((w - size(tile)) / 2, 25 + (h - size(tile)) / 2);
        (tile, self.area.x + ox + tile / 2, self.area.y + oy + tile / 2)
    }

    /// A key Solo rejected: the midend takes some as commands.
    fn rejected(&mut self, key: Key) {
        match key {
            Key::Char(c) if "nNuUrRqQmM*#".contains(c) => self.fired.push(format!("command {c}")),
            Key::Ctrl(c) if "snzrq".contains(c) => self.fired.push(format!("command ctrl+{c}")),
            _ => {}
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
                if self.immutable[i] || (self.hpencil && self.grid[i] != 0) {
                    return;
                }
                // Clearing an empty cell without marks is no move (solo.c: hides a mouse
                // selection, else the key is rejected; Backspace is no command).
                if self.grid[i] == 0 && self.pencil[i] == 0 {
                    if !self.hcursor {
                        self.hshow = false;
                    }
                    return;
                }
                self.grid[i] = 0;
                self.pencil[i] = 0;
                self.moves.push(format!("R{},{},0", self.hx, self.hy));
                if !self.hcursor {
                    self.hshow = false;
                }
            }
            Key::Char(c) if self.hshow && self.value_of(c).is_some() => {
                let v = self.value_of(c).unwrap_or(0);
                let i = self.hy * side + self.hx;
                if self.immutable[i] || (self.hpencil && self.grid[i] != 0) {
                    return self.rejected(key);
                }
                // The value the cell already holds, with no marks: no move; rejected (a command
                // letter fires) with the keyboard cursor, the selection hidden with the mouse.
                if !self.hpencil && self.grid[i] == v && self.pencil[i] == 0 {
                    if self.hcursor {
                        return self.rejected(key);
                    }
                    self.hshow = false;
                    return;
                }
                if self.hpencil {
                    self.pencil[i] ^= 1 << (v - 1);
                    self.moves.push(format!("P{},{},{v}", self.hx, self.hy));
                } else {
                    self.grid[i] = v;
                    self.pencil[i] = 0;
                    self.moves.push(format!("R{},{},{v}", self.hx, self.hy));
                }
                if !self.hcursor {
                    self.hshow = false;
                }
            }
            Key::Alt('g') if !self.windows => self.menu = Some(0),
            Key::AltTap if self.windows && !self.alt_tap_lost => self.menu_bar = true,
            Key::Char(_) | Key::Ctrl(_) => self.rejected(key),
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
                Key::Char('s') => self.activate(5),
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
            "Specific" => {
                self.dialog = true;
                self.dialog_focus = self.dialog_focus_at_open;
            }
            "Save" => self.save_dialog = Some(String::new()),
            other => self.fired.push(format!("menu {other}")),
        }
    }
}

impl FakeSolo {
    /// What the game does with a key.
    fn press(&mut self, key: Key) -> Result<(), DesktopError> {
        self.keys.push(key);
        self.now += Duration::from_micros(100);
        if self.save_dialog.is_some() {
            self.save_dialog_key(key);
        } else if self.dialog {
            match key {
                Key::Ctrl('c') if !self.windows || self.dialog_focus == 1 => {
                    self.clipboard = Some(self.id_text.clone())
                }
                Key::Tab => self.dialog_focus = self.dialog_focus % 3 + 1,
                Key::Escape => self.dialog = false,
                _ => {}
            }
        } else if self.menu_bar {
            // Win32 menu bar: a mnemonic opens its menu; any other key leaves it.
            self.menu_bar = false;
            if key == Key::Char('g') {
                self.menu = Some(0);
            }
        } else if let Some(at) = self.menu {
            self.menu_key(at, key);
        } else {
            self.game_key(key);
        }
        if let Some((at, flag)) = &self.abort_at
            && self.moves.len() >= *at
        {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        Ok(())
    }

    /// What the game does with a click.
    fn click_at(&mut self, button: MouseButton, x: i32, y: i32) -> Result<(), DesktopError> {
        // Clicks outside the screen go nowhere; on a window above the game they miss it.
        let on_screen =
            (0..self.screen.0 as i32).contains(&x) && (0..self.screen.1 as i32).contains(&y);
        let covered = self.covers.iter().any(|r| {
            (r.x..r.x + r.width as i32).contains(&x) && (r.y..r.y + r.height as i32).contains(&y)
        });
        if !on_screen || covered {
            return Ok(());
        }
        let (ts, left, top) = self.board_at();
        let tx = (x - left).div_euclid(ts);
        let ty = (y - top).div_euclid(ts);
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
}

impl Desktop for FakeSolo {
    fn bind_focused_game(&mut self) -> Result<super::Focused, DesktopError> {
        Ok(self.focused.clone().unwrap_or(super::Focused::Game))
    }

    fn send(&mut self, input: Sendable) -> Result<(), DesktopError> {
        match input.input() {
            send::Input::Key(key) => self.press(key),
            send::Input::Click(button, x, y) => self.click_at(button, x, y),
        }
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

    fn clear_clipboard(&mut self) -> Result<(), DesktopError> {
        self.clipboard = None;
        Ok(())
    }

    fn game_window_key(&self) -> Option<String> {
        self.window_key.clone()
    }

    fn menu_showing(&mut self) -> Result<Option<bool>, DesktopError> {
        Ok(self.sees_windows.then_some(self.menu.is_some()))
    }

    fn focus_dialog(&mut self, title: &str) -> Result<Option<bool>, DesktopError> {
        let open = if title == super::save::SAVE_DIALOG_TITLE {
            self.save_dialog.is_some()
        } else {
            self.dialog
        };
        Ok(self.sees_windows.then_some(open))
    }

    fn close_dialog(&mut self, title: &str) -> Result<bool, DesktopError> {
        if !self.sees_windows {
            return Ok(false);
        }
        if title == super::save::SAVE_DIALOG_TITLE && self.save_dialog.is_some() {
            self.save_dialog = None;
            return Ok(true);
        }
        if title != super::save::SAVE_DIALOG_TITLE && self.dialog {
            self.dialog = false;
            return Ok(true);
        }
        Ok(false)
    }

    fn focus_game(&mut self) -> Result<(), DesktopError> {
        Ok(())
    }

    fn game_area(&mut self) -> Result<Option<Rect>, DesktopError> {
        Ok(self.sees_windows.then_some(self.area))
    }

    fn screen_size(&mut self) -> Result<Option<(u32, u32)>, DesktopError> {
        Ok(self.sees_windows.then_some(self.screen))
    }

    fn covered_at(&mut self, x: i32, y: i32) -> Result<Option<String>, DesktopError> {
        let covered = self.covers.iter().any(|r| {
            (r.x..r.x + r.width as i32).contains(&x) && (r.y..r.y + r.height as i32).contains(&y)
        });
        Ok((self.sees_windows && covered).then(|| "\"always on top\"".to_string()))
    }

    fn open_popups(&mut self) -> Result<Option<Popups>, DesktopError> {
        Ok(self.sees_windows.then(|| Popups {
            menus: usize::from(self.menu.is_some()),
            dialogs: [
                self.dialog.then(|| "Solo game selection".to_string()),
                self.save_dialog.as_ref().map(|_| super::save::SAVE_DIALOG_TITLE.to_string()),
            ]
            .into_iter()
            .flatten()
            .collect(),
        }))
    }

    fn elapsed(&self) -> Duration {
        self.now
    }

    fn pause(&mut self, duration: Duration) {
        self.pauses.push((self.moves.len(), duration));
        self.now += duration.max(Duration::from_micros(1));
    }

    fn release_all(&mut self) {}
}
