//! The cell grid on the screen for mouse input: where a cell's centre is, the grid a GTK Solo
//! window implies, and the check that every click a run would make lands on a visible,
//! uncovered cell of the game.

use super::backend::{Desktop, Rect};
use super::error::DesktopError;
use super::fill;
use super::menu::Platform;
use super::{Input, Options};
use crate::grid::{Cell, Grid};

/// The cell grid on the screen, for mouse input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MouseGrid {
    /// Screen point of the centre of the top-left cell.
    pub origin: (i32, i32),
    /// Distance between cell centres, in pixels (Solo's tile size; 48 by default).
    pub step: f64,
}

impl MouseGrid {
    /// Screen point of the centre of cell (x, y).
    pub fn centre(&self, x: usize, y: usize) -> (i32, i32) {
        (
            self.origin.0 + (self.step * x as f64).round() as i32,
            self.origin.1 + (self.step * y as f64).round() as i32,
        )
    }

    /// The first cell whose centre, by this grid, would not land in that cell of the game
    /// window described by `window` (Solo's mapping: a click selects the tile it falls in).
    pub fn first_misplaced(&self, window: &MouseGrid, side: usize) -> Option<Cell> {
        let tile = window.step;
        // Top-left corner of cell (0,0) on the screen.
        let (left, top) =
            (window.origin.0 as f64 - tile / 2.0, window.origin.1 as f64 - tile / 2.0);
        (0..side * side).map(|i| Cell::from_index(i, side)).find(|cell| {
            let (x, y) = self.centre(cell.col, cell.row);
            let tx = ((x as f64 - left) / tile).floor();
            let ty = ((y as f64 - top) / tile).floor();
            tx != cell.col as f64 || ty != cell.row as f64
        })
    }

    /// The grid of a GTK Solo window from its client area (menu bar included) and side.
    ///
    /// Solo (`gtk.c`, `midend_size`) picks the largest tile for which the board
    /// (`side * tile + 2 * (tile / 2) + 1` square) fits the drawing area under the menu bar,
    /// and centres the board there, so a window taller or wider than the board has margins.
    /// The menu bar is the window's height minus its width when that is a menu bar's height
    /// (the window as Solo sized it), else GTK's usual 25 pixels.
    pub fn from_gtk_window(area: Rect, side: usize) -> Option<MouseGrid> {
        let (w, h) = (area.width as i32, area.height as i32);
        let menubar = if (18..=40).contains(&(h - w)) { h - w } else { GTK_MENUBAR };
        let (dw, dh) = (w, h - menubar);
        let fit = dw.min(dh);
        let side = side as i32;
        let size = |t: i32| t * side + 2 * (t / 2) + 1;
        let mut tile = (fit - 1) / (side + 1) + 1;
        while tile > 0 && size(tile) > fit {
            tile -= 1;
        }
        if tile < 8 {
            return None;
        }
        let (ox, oy) = ((dw - size(tile)) / 2, menubar + (dh - size(tile)) / 2);
        let first = tile / 2 + tile / 2;
        Some(MouseGrid { origin: (area.x + ox + first, area.y + oy + first), step: tile as f64 })
    }
}

/// GTK's menu bar height with the default theme (measured on Debian 12).
pub const GTK_MENUBAR: i32 = 25;

/// Fills in the mouse grid from the game window when the user gave none, and checks every
/// click the run would make lands on a visible, uncovered cell centre of the game: on the
/// screen, inside the board's area of the window and under no other window. Anything else is
/// refused before typing, naming the reason.
pub(super) fn resolve<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    givens: &Grid,
    todo: &[usize],
    solution: &Grid,
) -> Result<Options, DesktopError> {
    let side = solution.side();
    let mut opts = opts.clone();
    let Input::Mouse(given) = opts.input else {
        return Ok(opts);
    };
    let area = if opts.platform == Platform::Gtk { desktop.game_area()? } else { None };
    let from_window = area.and_then(|area| MouseGrid::from_gtk_window(area, side));
    let grid = match (given, from_window) {
        (None, found) => found.ok_or(DesktopError::NoMouseGrid)?,
        // Check every cell centre lands in its own cell by Solo's click mapping, so no value
        // is typed with nothing selected (where a letter could be a command).
        (Some(grid), Some(window)) => {
            if let Some(cell) = grid.first_misplaced(&window, side) {
                return Err(DesktopError::MouseGridOff {
                    cell,
                    origin: grid.origin,
                    step: grid.step,
                });
            }
            grid
        }
        // Unchecked clicks on grids where values are letters Solo also takes as commands.
        (Some(_), None) if side >= 22 => return Err(DesktopError::UncheckedMouse { side }),
        (Some(grid), None) => grid,
    };
    opts.input = Input::Mouse(Some(grid));
    // Show-thinking clicks a given to clear the selection, when there is one.
    let mut clicked = if opts.show_thinking {
        fill::first_given(givens).into_iter().collect()
    } else {
        vec![fill::first_given(givens)?]
    };
    if opts.show_thinking {
        clicked.extend((0..side * side).filter(|&i| givens.get(i).is_none()));
    } else {
        clicked.extend_from_slice(todo);
    }
    let screen = desktop.screen_size()?;
    for &i in &clicked {
        let cell = Cell::from_index(i, side);
        let (x, y) = grid.centre(i % side, i / side);
        if let Some((w, h)) = screen
            && !(0..w as i32).contains(&x) | !(0..h as i32).contains(&y)
        {
            return Err(DesktopError::MouseUnsafe {
                reason: format!(
                    "the centre of cell {cell} ({x},{y}) is off the {w}x{h} screen (move the \
                     game window fully into view)"
                ),
            });
        }
        if let Some(area) = area {
            let inside = (area.x..area.x + area.width as i32).contains(&x)
                && (area.y + GTK_MENUBAR..area.y + area.height as i32).contains(&y);
            if !inside {
                return Err(DesktopError::MouseUnsafe {
                    reason: format!(
                        "the centre of cell {cell} ({x},{y}) is outside the game window's board \
                         area ({}x{} at {},{})",
                        area.width, area.height, area.x, area.y
                    ),
                });
            }
        }
        if let Some(cover) = desktop.covered_at(x, y)? {
            return Err(DesktopError::MouseUnsafe {
                reason: format!("cell {cell} is covered by the window {cover}"),
            });
        }
    }
    Ok(opts)
}
