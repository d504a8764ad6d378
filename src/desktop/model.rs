//! The key-safety model: what each key and click does in Solo, in every state the bot may find
//! the game in, so that a plan is proven before anything is sent.
//!
//! Solo (`solo.c` `interpret_move`, `midend.c`) reads a value key `1-9a-z` (or Backspace) as a
//! move only when a cell is selected (`hshow`), the cell is not a given, and, in pencil mode,
//! the cell is empty. A key it rejects falls through to the midend, where `n` starts a new
//! game, `u` undoes, `r` redoes and `q` quits; `m` fills every pencil mark. On grids of side 22
//! and more those letters are also values, so a value key sent in the wrong state is a
//! command.
//!
//! [`Tracker`] follows the game's input state as far as it is known: cursor column and row (as
//! ranges, so homing with arrows makes them known), whether a cell is selected, whether the
//! selection is the keyboard cursor, pencil mode, and every cell (given, empty, a value, or
//! unknown). [`Tracker::step`] takes one key or click and returns its [`Effect`] when the
//! effect is the same in every state consistent with what is known, and an error naming why
//! otherwise. A value key is accepted only when it provably places the solution's value in the
//! cell under the cursor; the one exception is an explicit probe ([`Allow::Probe`]) of an empty
//! cell with the pencil mode unknown, where the key either places the value or toggles a pencil
//! mark (never a command), and the bot reads the board back to learn which.
//!
//! Killer games have no Copy, so the bot types there without knowing the cells' contents or
//! the pencil mode ([`Allow::Blind`], [`Worlds`]): a value key on a cell of unknown content is
//! allowed when every outcome is safe (placed in normal mode; in pencil mode a mark toggled in
//! an empty cell or, on a filled cell, a key Solo rejects that is no command), and [`Worlds`]
//! follows the game once per possible pencil mode, requiring every key to be proven in each.

use crate::grid::Grid;
use crate::grid::symbol;

use super::backend::MouseButton;
use super::keys::{Key, is_command_key};

/// What the bot knows of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// A given (immutable).
    Given,
    /// Empty (pencil marks possible).
    Empty,
    /// A value the player or the bot put there.
    Value(u8),
    /// Not known (after a probe, until the board is read back).
    Unknown,
}

/// What a key or click does to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The selection or the cursor changed; no move.
    Selection,
    /// Pencil mode toggled (or nothing, with no cell selected); no move.
    Mode,
    /// The value went into the cell (a move).
    Place {
        /// Reading-order index.
        cell: usize,
        /// Value.
        value: u8,
    },
    /// The cell was cleared (a move).
    Clear {
        /// Reading-order index.
        cell: usize,
    },
    /// A pencil mark was toggled (a move): on, or with the cell's marks unknown (a probe's
    /// plan only).
    Mark {
        /// Reading-order index.
        cell: usize,
        /// Value.
        value: u8,
    },
    /// A pencil mark known to be there was toggled off (a move).
    Unmark {
        /// Reading-order index.
        cell: usize,
        /// Value.
        value: u8,
    },
    /// Probe: places the value or toggles a pencil mark, by the unknown pencil mode.
    PlaceOrMark {
        /// Reading-order index.
        cell: usize,
        /// Value.
        value: u8,
    },
    /// Probe: clears the cell (normal mode) or does nothing (pencil mode on a filled cell).
    ClearOrNothing {
        /// Reading-order index.
        cell: usize,
    },
    /// Blind, pencil mode on a cell of unknown content: a pencil mark toggled (empty cell) or
    /// the key rejected (filled cell; the key is no command).
    MarkOrNothing {
        /// Reading-order index.
        cell: usize,
        /// Value.
        value: u8,
    },
    /// Blind: a value key Solo rejects (pencil mode on a filled cell); the key is no command.
    Nothing,
}

/// What a plan may do beyond proven placements and clears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allow {
    /// Only values placed (the solution's) and cells cleared.
    Values,
    /// Also pencil marks in empty cells whose marks are known (show-thinking): every pencil key
    /// is proven to add a mark that is not there or to remove one that is.
    Marks,
    /// Also one probe of the unknown pencil mode.
    Probe,
    /// Also value keys on cells of unknown content whose every outcome is safe (Killer, where
    /// the board cannot be read): see [`Worlds`].
    Blind,
}

/// The game's input state as far as the bot knows it.
#[derive(Clone, Debug)]
pub struct Tracker {
    side: usize,
    solution: Vec<u8>,
    cells: Vec<CellState>,
    /// Possible cursor columns and rows, as inclusive ranges.
    col: (usize, usize),
    row: (usize, usize),
    shown: Option<bool>,
    keyboard: Option<bool>,
    pencil: Option<bool>,
    /// Pencil marks of each cell (bit v-1 for v), when known: Copy does not show them, so the
    /// marks of an empty cell are unknown until a Backspace clears them; a value clears them.
    marks: Vec<Option<u64>>,
}

impl Tracker {
    /// Everything about the selection unknown; cells from the board as read, givens from the
    /// puzzle, the values allowed from the solution.
    pub fn new(board: &Grid, givens: &Grid, solution: &Grid) -> Tracker {
        let side = board.side();
        let cells: Vec<CellState> = (0..side * side)
            .map(|i| match (givens.get(i), board.get(i)) {
                (Some(_), _) => CellState::Given,
                (None, Some(v)) => CellState::Value(v),
                (None, None) => CellState::Empty,
            })
            .collect();
        let marks = cells.iter().map(|&c| (c != CellState::Empty).then_some(0)).collect();
        Tracker {
            side,
            solution: solution.cells().to_vec(),
            cells,
            col: (0, side - 1),
            row: (0, side - 1),
            shown: None,
            keyboard: None,
            pencil: None,
            marks,
        }
    }

    /// A game whose board cannot be read (Killer): givens from the puzzle, every other cell
    /// of unknown content, the selection and mode unknown.
    pub fn blind(givens: &Grid, solution: &Grid) -> Tracker {
        let mut tracker = Tracker::new(givens, givens, solution);
        for cell in &mut tracker.cells {
            if *cell != CellState::Given {
                *cell = CellState::Unknown;
            }
        }
        tracker
    }

    /// The pencil marks of a cell (bit v-1 for v), when known.
    pub fn marks(&self, index: usize) -> Option<u64> {
        self.marks[index]
    }

    /// The pencil mode, when known.
    pub fn pencil(&self) -> Option<bool> {
        self.pencil
    }

    /// What is known of a cell.
    pub fn cell(&self, index: usize) -> CellState {
        self.cells[index]
    }

    /// The cursor cell, when known.
    pub fn cursor(&self) -> Option<usize> {
        (self.col.0 == self.col.1 && self.row.0 == self.row.1)
            .then_some(self.row.0 * self.side + self.col.0)
    }

    /// Records what a read-back showed after a probe: the pencil mode and the cell's content.
    pub fn learn(&mut self, pencil: bool, cell: usize, now: Option<u8>) {
        self.pencil = Some(pencil);
        if self.cells[cell] != CellState::Given {
            self.cells[cell] = now.map_or(CellState::Empty, CellState::Value);
            // A value has no marks; an empty cell's marks were unknown before the probe.
            self.marks[cell] = now.map(|_| 0);
        }
    }

    /// Forgets the selection and mode (after anything the model does not follow).
    pub fn forget_selection(&mut self) {
        self.col = (0, self.side - 1);
        self.row = (0, self.side - 1);
        (self.shown, self.keyboard, self.pencil) = (None, None, None);
    }

    /// The effect of one key, or why it cannot be proven safe and intended.
    pub fn step(&mut self, key: Key, allow: Allow) -> Result<Effect, String> {
        match key {
            Key::Up | Key::Down | Key::Left | Key::Right => Ok(self.arrow(key)),
            Key::Return => Ok(self.return_key()),
            Key::Backspace => self.backspace(allow),
            Key::Char(c) => self.value_key(c, allow),
            Key::Escape | Key::Alt(_) | Key::Ctrl(_) | Key::Tab | Key::AltTap => {
                Err(format!("{key:?} is a menu key, not part of typing"))
            }
        }
    }

    /// An arrow key: the selection moves (or the keyboard cursor shows).
    fn arrow(&mut self, key: Key) -> Effect {
        let max = self.side - 1;
        let (axis, down) = match key {
            Key::Up => (&mut self.row, false),
            Key::Down => (&mut self.row, true),
            Key::Left => (&mut self.col, false),
            _ => (&mut self.col, true),
        };
        *axis = if down {
            ((axis.0 + 1).min(max), (axis.1 + 1).min(max))
        } else {
            (axis.0.saturating_sub(1), axis.1.saturating_sub(1))
        };
        (self.shown, self.keyboard) = (Some(true), Some(true));
        Effect::Selection
    }

    /// Return: the pencil mode flips where the cursor shows.
    fn return_key(&mut self) -> Effect {
        match self.shown {
            Some(true) => {
                self.pencil = self.pencil.map(|p| !p);
                self.keyboard = Some(true);
            }
            Some(false) => {}
            None => self.pencil = None,
        }
        Effect::Mode
    }

    /// Backspace: clears the selected cell.
    fn backspace(&mut self, allow: Allow) -> Result<Effect, String> {
        let cell = self.selected("Backspace")?;
        let effect = match (self.pencil, self.cells[cell]) {
            (_, CellState::Given) => return Err(format!("Backspace on the given {cell}")),
            (_, CellState::Unknown) => {
                return Err(format!("Backspace on cell {cell} of unknown content"));
            }
            (Some(false), _) | (_, CellState::Empty) => Effect::Clear { cell },
            (Some(true), CellState::Value(_)) => {
                return Err(format!(
                    "Backspace in pencil mode on the filled cell {cell} does nothing"
                ));
            }
            (None, CellState::Value(_)) if allow == Allow::Probe => Effect::ClearOrNothing { cell },
            (None, CellState::Value(_)) => {
                return Err(format!(
                    "Backspace on the filled cell {cell} with the pencil mode unknown"
                ));
            }
        };
        (self.cells[cell], self.marks[cell]) = match effect {
            // Solo's clear (`R x,y,0`) also removes every pencil mark of the cell.
            Effect::Clear { .. } => (CellState::Empty, Some(0)),
            _ => (CellState::Unknown, None),
        };
        self.after_move();
        Ok(effect)
    }

    /// A value's key (a digit or letter): places, marks or is rejected.
    fn value_key(&mut self, c: char, allow: Allow) -> Result<Effect, String> {
        let command = is_command_key(Key::Char(c));
        let danger = if command {
            format!(" ('{c}' would be a command if Solo rejected it)")
        } else {
            String::new()
        };
        let Some(value) = symbol::from_char(c, self.side).filter(|_| c.is_alphanumeric()) else {
            return Err(format!("'{c}' is no value of a {0}x{0} grid{danger}", self.side));
        };
        let cell = self.selected(&format!("'{c}'")).map_err(|e| format!("{e}{danger}"))?;
        let effect = self.value_effect(c, cell, value, allow, &danger)?;
        let places = matches!(effect, Effect::Place { .. } | Effect::PlaceOrMark { .. });
        if places && self.solution[cell] != value {
            return Err(format!(
                "'{c}' is not the solution's value of cell {cell}, which is {}",
                self.solution[cell]
            ));
        }
        match effect {
            // Rejected: no move, the selection stays.
            Effect::Nothing => return Ok(effect),
            // A move or nothing: the keyboard cursor stays either way.
            Effect::MarkOrNothing { .. } => {
                if self.keyboard != Some(true) {
                    self.shown = None;
                }
                return Ok(effect);
            }
            _ => {}
        }
        let bit = 1u64 << (value - 1);
        (self.cells[cell], self.marks[cell]) = match effect {
            Effect::Place { .. } => (CellState::Value(value), Some(0)),
            Effect::Mark { .. } | Effect::Unmark { .. } => {
                (CellState::Empty, self.marks[cell].map(|m| m ^ bit))
            }
            _ => (CellState::Unknown, None),
        };
        self.after_move();
        Ok(effect)
    }

    /// What a value's key would do on `cell` in the mode known, or why it is refused.
    fn value_effect(
        &self,
        c: char,
        cell: usize,
        value: u8,
        allow: Allow,
        danger: &str,
    ) -> Result<Effect, String> {
        let command = is_command_key(Key::Char(c));
        let blind = allow == Allow::Blind;
        Ok(match (self.pencil, self.cells[cell]) {
            (_, CellState::Given) => {
                return Err(format!("'{c}' on the given {cell}{danger}"));
            }
            (Some(false), CellState::Unknown) if blind => Effect::Place { cell, value },
            (Some(true), CellState::Unknown) if blind && !command => {
                Effect::MarkOrNothing { cell, value }
            }
            (Some(true), CellState::Value(_)) if blind && !command => Effect::Nothing,
            (_, CellState::Unknown) => {
                return Err(format!("'{c}' on cell {cell} of unknown content{danger}"));
            }
            // Blind (Killer): the value may be the player's already; Solo makes no
            // move then, and the selection ends as after a move.
            (Some(false), CellState::Value(v)) if v == value && blind => {
                Effect::Place { cell, value }
            }
            (Some(false), CellState::Value(v)) if v == value => {
                return Err(format!(
                    "'{c}' on cell {cell}, which already holds it: Solo rejects it{danger}"
                ));
            }
            (Some(false), _) => Effect::Place { cell, value },
            (Some(true), CellState::Empty) if allow != Allow::Values => match self.marks[cell] {
                Some(m) if m & 1 << (value - 1) != 0 => Effect::Unmark { cell, value },
                Some(_) => Effect::Mark { cell, value },
                None if allow == Allow::Marks => {
                    return Err(format!(
                        "'{c}' in pencil mode on cell {cell}, whose pencil marks are \
                             unknown: it may add or remove {c}"
                    ));
                }
                None => Effect::Mark { cell, value },
            },
            (Some(true), CellState::Empty) => {
                return Err(format!("'{c}' in pencil mode would only mark cell {cell}"));
            }
            (Some(true), CellState::Value(_)) => {
                return Err(format!(
                    "'{c}' in pencil mode on the filled cell {cell}: Solo rejects it{danger}"
                ));
            }
            (None, CellState::Empty) if allow == Allow::Probe => {
                Effect::PlaceOrMark { cell, value }
            }
            (None, _) => {
                return Err(format!("'{c}' on cell {cell} with the pencil mode unknown{danger}"));
            }
        })
    }

    /// The effect of a click on a cell (the caller proved the click lands in that cell).
    pub fn click(&mut self, button: MouseButton, cell: usize) -> Result<Effect, String> {
        let (x, y) = (cell % self.side, cell / self.side);
        let here = self.cursor() == Some(cell);
        let maybe_here =
            (self.col.0..=self.col.1).contains(&x) && (self.row.0..=self.row.1).contains(&y);
        let state = self.cells[cell];
        // A left click depends only on whether the cell is a given.
        if state == CellState::Unknown && button != MouseButton::Left {
            return Err(format!("click on cell {cell} of unknown content"));
        }
        let select = |t: &mut Tracker, pencil: bool| {
            (t.col, t.row, t.shown, t.pencil) = ((x, x), (y, y), Some(true), Some(pencil));
        };
        match button {
            MouseButton::Left if state == CellState::Given => self.shown = Some(false),
            MouseButton::Left => {
                let toggles_off = self.shown != Some(false) && self.pencil != Some(true);
                if here && self.shown == Some(true) && self.pencil == Some(false) {
                    self.shown = Some(false);
                } else if maybe_here && toggles_off {
                    // Either deselected or selected: the mode is normal either way.
                    (self.col, self.row, self.shown, self.pencil) =
                        ((x, x), (y, y), None, Some(false));
                } else {
                    select(self, false);
                }
            }
            MouseButton::Right if state != CellState::Empty => self.shown = Some(false),
            MouseButton::Right => {
                let toggles_off = self.shown != Some(false) && self.pencil != Some(false);
                if here && self.shown == Some(true) && self.pencil == Some(true) {
                    self.shown = Some(false);
                } else if maybe_here && toggles_off {
                    // Deselected (which needs pencil mode on) or selected in pencil mode: the
                    // mode is pencil either way.
                    (self.col, self.row, self.shown, self.pencil) =
                        ((x, x), (y, y), None, Some(true));
                } else {
                    select(self, true);
                }
            }
        }
        self.keyboard = Some(false);
        Ok(Effect::Selection)
    }

    /// The selected cell, if a cell is provably selected and known.
    fn selected(&self, what: &str) -> Result<usize, String> {
        if self.shown != Some(true) {
            return Err(format!("{what} with no cell known to be selected"));
        }
        self.cursor().ok_or_else(|| format!("{what} with the cursor position unknown"))
    }

    /// After a move: a mouse selection disappears, the keyboard cursor stays.
    fn after_move(&mut self) {
        match self.keyboard {
            Some(true) => {}
            Some(false) => self.shown = Some(false),
            None => self.shown = None,
        }
    }
}

/// The game followed once per possible state where the bot cannot know which holds (the
/// pencil mode of a game whose board cannot be read): every key must be proven in each.
#[derive(Clone, Debug)]
pub struct Worlds {
    worlds: Vec<Tracker>,
}

impl Worlds {
    /// Splits a tracker on its unknown pencil mode (one world if the mode is known).
    pub fn new(tracker: Tracker) -> Worlds {
        let worlds = match tracker.pencil {
            Some(_) => vec![tracker],
            None => [false, true]
                .into_iter()
                .map(|pencil| Tracker { pencil: Some(pencil), ..tracker.clone() })
                .collect(),
        };
        Worlds { worlds }
    }

    /// Steps every world by one key; the effect in the first world, or why the key is not
    /// proven safe in some world.
    pub fn step(&mut self, key: Key, allow: Allow) -> Result<Effect, String> {
        let mut first = None;
        for world in &mut self.worlds {
            let mode = if world.pencil == Some(true) { "pencil" } else { "normal" };
            let effect = world
                .step(key, allow)
                .map_err(|e| format!("{e} (if the game was in {mode} mode)"))?;
            first.get_or_insert(effect);
        }
        first.ok_or_else(|| "no game state to follow".to_string())
    }

    /// Clicks in every world.
    pub fn click(&mut self, button: MouseButton, cell: usize) -> Result<Effect, String> {
        let mut first = None;
        for world in &mut self.worlds {
            first.get_or_insert(world.click(button, cell)?);
        }
        first.ok_or_else(|| "no game state to follow".to_string())
    }

    /// What is known of a cell when every world agrees on it.
    pub fn cell(&self, index: usize) -> Option<CellState> {
        let first = self.worlds.first()?.cell(index);
        self.worlds.iter().all(|w| w.cell(index) == first).then_some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Geometry;

    /// A valid 25x25 grid (pattern solution) with a few cells emptied or set wrong.
    fn grids() -> (Grid, Grid, Grid) {
        let g = std::sync::Arc::new(Geometry::boxed(5, 5).expect("5x5"));
        let side = 25;
        let sol: Vec<u8> = (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                ((5 * (r % 5) + r / 5 + c) % side + 1) as u8
            })
            .collect();
        let solution = Grid::new(g.clone(), sol.clone()).expect("grid");
        assert!(solution.conflict().is_none());
        let mut givens = sol.clone();
        givens[0] = 0;
        givens[1] = 0;
        let givens = Grid::new(g.clone(), givens).expect("grid");
        let mut board = givens.clone();
        board.set(1, Some(if sol[1] == 23 { 1 } else { 23 })).expect("wrong value");
        (board, givens, solution)
    }

    #[test]
    fn a_letter_is_refused_until_the_cursor_and_mode_are_known() {
        let (board, givens, solution) = grids();
        let mut t = Tracker::new(&board, &givens, &solution);
        let v0 = symbol::to_char(solution.cells()[0], 25, symbol::Style::Solo).expect("c");
        assert!(t.step(Key::Char(v0), Allow::Values).is_err(), "no cursor");
        for _ in 0..25 {
            t.step(Key::Up, Allow::Values).expect("arrow");
        }
        assert_eq!(t.cursor(), None, "rows known, columns not");
        for _ in 0..25 {
            t.step(Key::Left, Allow::Values).expect("arrow");
        }
        assert_eq!(t.cursor(), Some(0));
        assert!(t.step(Key::Char(v0), Allow::Values).is_err(), "pencil mode unknown");
        assert_eq!(
            t.step(Key::Char(v0), Allow::Probe),
            Ok(Effect::PlaceOrMark { cell: 0, value: solution.cells()[0] })
        );
        assert_eq!(t.cell(0), CellState::Unknown, "until read back");
    }

    #[test]
    fn pencil_mode_on_a_filled_cell_is_refused() {
        let (board, givens, solution) = grids();
        let mut t = Tracker::new(&board, &givens, &solution);
        t.step(Key::Right, Allow::Values).expect("arrow");
        for _ in 0..25 {
            t.step(Key::Up, Allow::Values).expect("arrow");
            t.step(Key::Left, Allow::Values).expect("arrow");
        }
        t.step(Key::Right, Allow::Values).expect("arrow");
        assert_eq!(t.cursor(), Some(1));
        t.learn(true, 1, Some(board.cells()[1]));
        let c = symbol::to_char(solution.cells()[1], 25, symbol::Style::Solo).expect("c");
        let err = t.step(Key::Char(c), Allow::Probe).expect_err("rejected by Solo");
        assert!(err.contains("pencil mode on the filled cell"), "{err}");
        assert!(t.step(Key::Backspace, Allow::Probe).is_err());
        t.step(Key::Return, Allow::Values).expect("mode");
        assert_eq!(t.pencil(), Some(false));
        assert_eq!(
            t.step(Key::Char(c), Allow::Values),
            Ok(Effect::Place { cell: 1, value: solution.cells()[1] })
        );
        // A wrong value is never proven, even in normal mode.
        let wrong = symbol::to_char(solution.cells()[1] % 25 + 1, 25, symbol::Style::Solo);
        assert!(t.step(Key::Char(wrong.expect("c")), Allow::Values).is_err());
    }

    #[test]
    fn clicks_set_the_mode() {
        let (board, givens, solution) = grids();
        let mut t = Tracker::new(&board, &givens, &solution);
        t.click(MouseButton::Left, 5).expect("given");
        t.click(MouseButton::Left, 0).expect("empty cell");
        assert_eq!((t.pencil(), t.cursor()), (Some(false), Some(0)));
        let c = symbol::to_char(solution.cells()[0], 25, symbol::Style::Solo).expect("c");
        assert!(matches!(t.step(Key::Char(c), Allow::Values), Ok(Effect::Place { .. })));
        // The mouse selection went away with the value.
        assert!(t.step(Key::Char(c), Allow::Values).is_err());
    }

    #[test]
    fn pencil_keys_are_proven_only_on_known_marks() {
        let (board, givens, solution) = grids();
        let mut t = Tracker::new(&board, &givens, &solution);
        for _ in 0..25 {
            t.step(Key::Up, Allow::Marks).expect("arrow");
            t.step(Key::Left, Allow::Marks).expect("arrow");
        }
        t.learn(true, 0, None);
        assert_eq!(t.marks(0), None, "Copy shows no marks");
        let c = symbol::to_char(3, 25, symbol::Style::Solo).expect("c");
        let err = t.step(Key::Char(c), Allow::Marks).expect_err("unknown marks");
        assert!(err.contains("unknown"), "{err}");
        assert_eq!(t.step(Key::Backspace, Allow::Marks), Ok(Effect::Clear { cell: 0 }));
        assert_eq!(t.marks(0), Some(0));
        assert_eq!(t.step(Key::Char(c), Allow::Marks), Ok(Effect::Mark { cell: 0, value: 3 }));
        assert_eq!(t.marks(0), Some(0b100));
        assert_eq!(t.step(Key::Char(c), Allow::Marks), Ok(Effect::Unmark { cell: 0, value: 3 }));
        assert_eq!(t.marks(0), Some(0));
        // Marks only: not allowed when only values are.
        assert!(t.step(Key::Char(c), Allow::Values).is_err());
        // A value clears the cell's marks; typing it again would be rejected (a command key).
        t.step(Key::Char(c), Allow::Marks).expect("mark");
        t.step(Key::Return, Allow::Marks).expect("mode");
        let v = solution.cells()[0];
        let vc = symbol::to_char(v, 25, symbol::Style::Solo).expect("c");
        assert_eq!(t.step(Key::Char(vc), Allow::Marks), Ok(Effect::Place { cell: 0, value: v }));
        assert_eq!((t.cell(0), t.marks(0)), (CellState::Value(v), Some(0)));
        let err = t.step(Key::Char(vc), Allow::Marks).expect_err("same value");
        assert!(err.contains("already holds"), "{err}");
    }
}
