//! Playing any sudoku window by its pixels (`desktop --auto --game pixels`, and GNOME Sudoku):
//! the window is captured and read with the pixel reader, the puzzle solved, and each empty
//! cell clicked, seen selected and given its digit; then the window is read again, and the run
//! succeeds only when every cell shows the solution.
//!
//! The rules of the desktop bot hold here too:
//! - nothing is typed unless every cell was read with certainty and the puzzle has exactly one
//!   solution;
//! - every click is placed by the window's place read just before it, and read again after
//!   it: a window that moved meanwhile is clicked again where it is now;
//! - a digit goes only to a cell the bot has just clicked and seen selected by its own
//!   rectangle: its look changed with the click, and no other cell on the board looks like it
//!   (a game's highlighter tints the selected cell's row, column and box, which must not pass
//!   for the selection); else the run stops, naming the cell;
//! - the bot waits for the digit to show before the next cell;
//! - a failure says how many values had been typed and in which cells ("nothing was typed"
//!   only when none was);
//! - an abort (Esc, a signal) stops between cells; a popover or selection left by a click
//!   without its digit is closed with Escape.
//!
//! Pencil marks (GNOME Sudoku's earmarks) are an empty cell to the reader; as they are drawn
//! where the digit goes, the digit is seen by the cell's middle changing, as for a wrong value.
//!
//! A player's entries are told from the givens as the game draws them ([`Entries`]): by the
//! ink (Solo draws entries in another colour) or by the background (GNOME Sudoku shades its
//! givens). The puzzle is the givens; a right entry is kept and a wrong one retyped. Where the
//! givens alone have no single solution (an entry taken for a given's look, say), every value
//! is kept as a given instead, and a wrong one refuses the run with nothing typed.

use std::time::Duration;

use super::backend::{Desktop, Rect, wait_for};
use super::fill::{self, Selected};
use super::lock::GameLock;
use super::verify::unique_solution;
use super::{Check, DesktopError, Options, Report};
use crate::grid::{Cell, Grid};
use crate::pixels::{self, Board, CellKind, RgbaImage};

/// How a game draws a player's entries apart from its givens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entries {
    /// In another ink colour, as the pixel reader tells (Solo).
    Ink,
    /// On the plain background, where givens are on a grey one (GNOME Sudoku); a coloured
    /// background (the selection, a mistake shown in red) is an entry's too.
    Background,
}

/// What the bot knows of a game it plays by pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelGame {
    /// How entries look apart from givens.
    pub entries: Entries,
    /// The game covers its board with a dialog once solved: a window over the board after the
    /// last digit confirms the run, provided every other cell was read back right just
    /// before that digit.
    pub completion_dialog: bool,
    /// The `WM_CLASS` its window is told by, if it has one of its own.
    pub class: Option<&'static str>,
}

impl PixelGame {
    /// Debian's GNOME Sudoku.
    pub const GNOME_SUDOKU: PixelGame = PixelGame {
        entries: Entries::Background,
        completion_dialog: true,
        class: Some("gnome-sudoku"),
    };
    /// Any other window.
    pub const ANY: PixelGame =
        PixelGame { entries: Entries::Ink, completion_dialog: false, class: None };

    /// The game a window of this `WM_CLASS` (instance and class names) shows.
    pub fn of_class(names: &[String]) -> PixelGame {
        let told = |game: &PixelGame| {
            game.class.is_some_and(|class| names.iter().any(|n| n.eq_ignore_ascii_case(class)))
        };
        [Self::GNOME_SUDOKU].into_iter().find(told).unwrap_or(Self::ANY)
    }
}

/// A board read from the window: where it is, what it shows, and how each cell was read.
struct Seen {
    board: Board,
    grid: Grid,
    kinds: Vec<CellKind>,
    image: RgbaImage,
}

fn pixel_error(e: pixels::PixelError) -> DesktopError {
    DesktopError::Capture(e.to_string())
}

/// Captures the window and reads its board; fails on any uncertain cell.
fn read_window<D: Desktop + ?Sized>(desktop: &mut D) -> Result<Seen, DesktopError> {
    let image = desktop.capture()?;
    let read = image.view().and_then(pixels::read).map_err(pixel_error)?;
    let grid = read.grid().map_err(pixel_error)?;
    let kinds = read.cells.iter().map(|c| c.kind).collect();
    Ok(Seen { board: read.board, grid, kinds, image })
}

/// A cell's rectangle in the window's pixels: (left, top, width, height).
fn cell_rect(board: &Board, index: usize) -> (f64, f64, f64, f64) {
    let side = board.side as f64;
    let (w, h) = (board.width as f64 / side, board.height as f64 / side);
    let (row, col) = ((index / board.side) as f64, (index % board.side) as f64);
    (board.left as f64 + col * w, board.top as f64 + row * h, w, h)
}

/// The colour of a cell's margin (between 12% and 25% in from its edges, where no digit is
/// drawn; the median of each channel, so that pencil marks drawn there do not tint it) and how
/// much of its middle is ink (far from that colour).
fn cell_look(image: &RgbaImage, board: &Board, index: usize) -> ([f64; 3], f64) {
    let (left, top, w, h) = cell_rect(board, index);
    let at = |x: f64, y: f64| -> [f64; 3] {
        let (x, y) = (x as usize, y as usize);
        if x >= image.width || y >= image.height {
            return [0.0; 3];
        }
        let i = (y * image.width + x) * 4;
        [image.data[i] as f64, image.data[i + 1] as f64, image.data[i + 2] as f64]
    };
    let mut channels: [Vec<f64>; 3] = Default::default();
    for k in 0..20 {
        let t = 0.12 + 0.13 * (k as f64 / 19.0);
        for (fx, fy) in [(t, 0.5), (1.0 - t, 0.5), (0.5, t), (0.5, 1.0 - t)] {
            let c = at(left + fx * w, top + fy * h);
            (0..3).for_each(|j| channels[j].push(c[j]));
        }
    }
    let background = channels.map(|mut values| {
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied().unwrap_or(0.0)
    });
    let mut ink = 0.0;
    let mut total = 0.0;
    for i in 0..16 {
        for j in 0..16 {
            let c = at(
                left + (0.3 + 0.4 * i as f64 / 15.0) * w,
                top + (0.3 + 0.4 * j as f64 / 15.0) * h,
            );
            let far: f64 = (0..3).map(|k| (c[k] - background[k]).abs()).sum();
            if far > 150.0 {
                ink += 1.0;
            }
            total += 1.0;
        }
    }
    (background, ink / total)
}

/// Grey levels of a cell's middle (a 16 x 16 lattice), to see its digit change.
fn glyph_sample(image: &RgbaImage, board: &Board, index: usize) -> Vec<u8> {
    let (left, top, w, h) = cell_rect(board, index);
    let mut out = Vec::with_capacity(256);
    for i in 0..16 {
        for j in 0..16 {
            let x = (left + (0.25 + 0.5 * i as f64 / 15.0) * w) as usize;
            let y = (top + (0.25 + 0.5 * j as f64 / 15.0) * h) as usize;
            let k = (y.min(image.height - 1) * image.width + x.min(image.width - 1)) * 4;
            let grey = (u16::from(image.data[k])
                + u16::from(image.data[k + 1])
                + u16::from(image.data[k + 2]))
                / 3;
            out.push(grey as u8);
        }
    }
    out
}

/// Whether a cell's middle looks different from a sample of it.
fn glyph_changed(before: &[u8], now: &[u8]) -> bool {
    let diff: u32 = before.iter().zip(now).map(|(a, b)| u32::from(a.abs_diff(*b))).sum();
    diff > 4 * before.len() as u32
}

/// Whether a colour is a shade of grey (no hue).
fn neutral(c: [f64; 3]) -> bool {
    let (max, min) =
        (c.iter().copied().fold(0.0, f64::max), c.iter().copied().fold(255.0, f64::min));
    max - min < 16.0
}

/// Whether two background colours differ enough to tell a selection.
fn changed(a: [f64; 3], b: [f64; 3]) -> bool {
    (0..3).map(|k| (a[k] - b[k]).abs()).sum::<f64>() > 18.0
}

/// The cells where `board` differs from `solution` (but `except`), named.
fn differences(board: &Grid, solution: &Grid, except: Option<usize>) -> String {
    let names: Vec<String> = fill::cells_to_type(board, solution)
        .into_iter()
        .filter(|&i| Some(i) != except)
        .map(|i| Cell::from_index(i, board.side()).to_string())
        .collect();
    names.join(" ")
}

/// How often the window is captured while waiting for a cell to change.
const POLL: Duration = Duration::from_millis(15);

/// How often the whole board is read while waiting for it to show the solution.
const READ_POLL: Duration = Duration::from_millis(30);

/// Waits (bounded by `opts.timeout`) until `done` holds for a fresh capture.
fn wait_for_look<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    what: &str,
    mut done: impl FnMut(&RgbaImage) -> bool,
) -> Result<RgbaImage, DesktopError> {
    wait_for(opts, desktop, what, opts.timeout, POLL, |d| {
        let image = d.capture()?;
        Ok(done(&image).then_some(image))
    })
}

/// Reads, solves, types and verifies a sudoku window by its pixels (see the module's text).
/// Any failure says what had been typed ([`DesktopError::Stopped`]).
pub fn run_by_pixels<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    game: PixelGame,
) -> Result<Report, DesktopError> {
    let mut typed = Vec::new();
    play(desktop, opts, game, &mut typed).map_err(|e| e.stopped(&typed))
}

/// Test hook: `SUDOBOT_TEST_PAUSE=N:PATH` makes a run, once its N-th value shows, create the
/// file PATH and wait (at most [`TEST_PAUSE_MAX`]) until it is removed, so that an integration
/// test can move, minimize or cover the window mid-fill at a known point.
const TEST_PAUSE: &str = "SUDOBOT_TEST_PAUSE";

/// The longest a test pause lasts.
const TEST_PAUSE_MAX: Duration = Duration::from_secs(60);

fn test_pause<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    typed: usize,
) -> Result<(), DesktopError> {
    let Ok(spec) = std::env::var(TEST_PAUSE) else { return Ok(()) };
    let Some((n, path)) = spec.split_once(':') else { return Ok(()) };
    if n.parse::<usize>().ok() != Some(typed) {
        return Ok(());
    }
    let path = std::path::Path::new(path);
    std::fs::write(path, typed.to_string()).map_err(|e| {
        DesktopError::Capture(format!("cannot write {TEST_PAUSE}'s file {}: {e}", path.display()))
    })?;
    wait_for(opts, desktop, "the test pause to end", TEST_PAUSE_MAX, READ_POLL, |_| {
        Ok((!path.exists()).then_some(()))
    })
}

/// How many times a cell is clicked again when the window moves under the click.
const CLICK_TRIES: usize = 3;

/// The window's place on the screen now.
fn place<D: Desktop + ?Sized>(desktop: &mut D) -> Result<Rect, DesktopError> {
    desktop
        .game_area()?
        .ok_or_else(|| DesktopError::Capture("the window's place on the screen is unknown".into()))
}

/// Clicks a cell's middle where the window is now: its place is read just before the click
/// and again after it, and a window that moved meanwhile (the click may have hit another
/// cell, or none) is clicked again at its new place. Returns how many clicks went.
fn click_cell<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    board: &Board,
    index: usize,
) -> Result<usize, DesktopError> {
    let (left, top, w, h) = cell_rect(board, index);
    for tries in 1..=CLICK_TRIES {
        let area = place(desktop)?;
        let at = (area.x + (left + w / 2.0) as i32, area.y + (top + h / 2.0) as i32);
        fill::perform(desktop, opts, &fill::check_click_in(area, at, index)?)?;
        let now = place(desktop)?;
        if now == area {
            return Ok(tries);
        }
        tracing::debug!(?area, ?now, "the window moved under a click; clicked again");
    }
    Err(DesktopError::NotSelected {
        cell: Cell::from_index(index, board.side),
        why: format!("the window moved under each of {CLICK_TRIES} clicks"),
    })
}

/// Whether the window shows `index` as the selected cell: its look changed with the click
/// (from `before`) or is not the plain one; no other cell of the board looks like it (a
/// highlighted row, column or box has one tint for many cells; the selection is one cell's);
/// and it looks as `selected`, how the bare cells selected before in this run looked (given
/// for a bare cell only: pencil marks and digits tint a margin), so that a tint left alone on
/// a cell is not taken for the selection either.
/// Says what was seen when not.
fn selection(
    image: &RgbaImage,
    board: &Board,
    index: usize,
    before: [f64; 3],
    plain: [f64; 3],
    selected: Option<[f64; 3]>,
) -> Result<([f64; 3], Selected), String> {
    let after = cell_look(image, board, index).0;
    let rgb = |c: [f64; 3]| format!("rgb({:.0}, {:.0}, {:.0})", c[0], c[1], c[2]);
    if !changed(after, before) && !changed(after, plain) {
        return Err(format!("its look, {}, did not change", rgb(after)));
    }
    if let Some(look) = selected.filter(|&look| changed(after, look)) {
        return Err(format!(
            "it looks {}, not as the cells selected before ({})",
            rgb(after),
            rgb(look)
        ));
    }
    let side = board.side;
    let alike: Vec<String> = (0..side * side)
        .filter(|&i| i != index && !changed(cell_look(image, board, i).0, after))
        .map(|i| Cell::from_index(i, side).to_string())
        .collect();
    if !alike.is_empty() {
        return Err(format!(
            "it looks {}, as {} do(es): a highlight, not the selection",
            rgb(after),
            alike.join(" ")
        ));
    }
    Ok((after, Selected::seen(index)))
}

/// [`run_by_pixels`]; `typed` gets the cells whose digit was sent.
fn play<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    game: PixelGame,
    typed: &mut Vec<Cell>,
) -> Result<Report, DesktopError> {
    let completion_dialog = game.completion_dialog;
    let _lock = desktop.game_window_key().map(|key| GameLock::take(&key)).transpose()?;
    let t0 = desktop.elapsed();
    let seen = read_window(desktop)?;
    let read = desktop.elapsed() - t0;
    let side = seen.board.side;
    if side > 9 {
        return Err(DesktopError::Capture(format!(
            "a {side}x{side} board needs letters, which this mode does not type; nothing was typed"
        )));
    }
    let board = seen.board;
    let image = seen.image;
    let empty: Vec<usize> = (0..side * side).filter(|&i| seen.grid.get(i).is_none()).collect();
    // How an empty cell looks unselected: the middle of the empty cells' colours, so that a
    // cell left selected before the run (its look unchanged by the click) still counts.
    let plain = {
        let mut looks: Vec<[f64; 3]> =
            empty.iter().map(|&i| cell_look(&image, &board, i).0).collect();
        looks.sort_by(|a, b| a.iter().sum::<f64>().total_cmp(&b.iter().sum::<f64>()));
        looks.get(looks.len() / 2).copied().unwrap_or([255.0; 3])
    };
    let entry: Vec<bool> = (0..side * side)
        .map(|i| {
            seen.grid.get(i).is_some()
                && match game.entries {
                    Entries::Ink => seen.kinds[i] == CellKind::Entry,
                    Entries::Background => {
                        let bg = cell_look(&image, &board, i).0;
                        !changed(bg, plain) || !neutral(bg)
                    }
                }
        })
        .collect();
    let mut givens = seen.grid.clone();
    for i in (0..side * side).filter(|&i| entry[i]) {
        givens.set(i, None).map_err(|e| DesktopError::Capture(e.to_string()))?;
    }
    // The givens alone, else every value as a given (nothing then corrected).
    let (solution, entry) = match unique_solution(&givens) {
        Ok(solution) if entry.iter().any(|&e| e) => (solution, entry),
        _ => (unique_solution(&seen.grid)?, vec![false; side * side]),
    };
    let mut report = Report::solved(
        &solution,
        format!("pixels {side}x{side}"),
        Check::Pixels,
        read,
        desktop.elapsed() - t0 - read,
    );
    // The empty cells and the entries that are wrong, in reading order.
    let targets: Vec<usize> = (0..side * side)
        .filter(|&i| {
            seen.grid.get(i).is_none() || (entry[i] && seen.grid.cells()[i] != solution.cells()[i])
        })
        .collect();
    report.corrected = targets.iter().filter(|&&i| seen.grid.get(i).is_some()).count();
    let typing = desktop.elapsed();
    // How the selected cell looks, learnt from the first bare one.
    let mut selected_look = None;
    for (k, &index) in targets.iter().enumerate() {
        if opts.aborted() {
            return Err(DesktopError::Aborted);
        }
        if completion_dialog && k + 1 == targets.len() {
            // The last digit may end the game behind a dialog: the rest is read back first.
            let now = read_window(desktop)?;
            let wrong = differences(&now.grid, &solution, Some(index));
            if !wrong.is_empty() {
                return Err(DesktopError::WrongValues {
                    when: "before the last digit",
                    cells: wrong,
                });
            }
        }
        let cell = Cell::from_index(index, side);
        // A wrong value or pencil marks (GNOME Sudoku's earmarks, drawn where the digit will
        // be, and across the cell's margin): its glyph is sampled, to see it replaced; a bare
        // cell needs no capture for that. Its margin's colour is not the selection's alone, so
        // it is neither checked against the learnt selection look nor taught it.
        let held = seen.grid.get(index).is_some() || seen.kinds[index] == CellKind::Pencil;
        let learnt = selected_look.filter(|_| !held);
        // A fresh capture before each click: a window minimized, covered or moved off the
        // screen since the last cell is refused here, before anything is sent to it.
        let image = desktop.capture()?;
        let before = cell_look(&image, &board, index).0;
        report.actions += click_cell(desktop, opts, &board, index)?;
        let mut seen_last = String::from("no capture");
        let selected =
            wait_for(opts, desktop, &format!("{cell} to show selected"), opts.timeout, POLL, |d| {
                let img = d.capture()?;
                Ok(match selection(&img, &board, index, before, plain, learnt) {
                    Ok(selected) => Some(selected),
                    Err(why) => {
                        seen_last = why;
                        None
                    }
                })
            });
        let selected = match selected {
            Ok((look, selected)) => {
                if !held {
                    selected_look.get_or_insert(look);
                }
                selected
            }
            Err(e) => {
                // Whatever the click opened (a popover) is closed; no digit was sent. The
                // Escape is the bot's own, so an interactive session's listener does not take
                // it for the user's.
                let _ = super::game::escape(desktop, opts);
                return Err(match e {
                    DesktopError::Timeout { .. } => {
                        DesktopError::NotSelected { cell, why: seen_last }
                    }
                    other => other,
                });
            }
        };
        let before_key = match held {
            true => glyph_sample(&desktop.capture()?, &board, index),
            false => Vec::new(),
        };
        let digit = fill::check_digit(&selected, &solution)?;
        // Counted once sent: a failed send typed nothing; an abort comes after the key went.
        match fill::perform(desktop, opts, &digit) {
            Ok(()) => typed.push(cell),
            Err(DesktopError::Aborted) => {
                typed.push(cell);
                return Err(DesktopError::Aborted);
            }
            Err(e) => return Err(e),
        }
        report.actions += 1;
        report.typed += 1;
        let shown = wait_for_look(desktop, opts, &format!("the digit to show in {cell}"), |img| {
            // A wrong value or marks replaced: the glyph changes; a bare cell: ink shows.
            if held {
                glyph_changed(&before_key, &glyph_sample(img, &board, index))
            } else {
                cell_look(img, &board, index).1 > 0.04
            }
        });
        match shown {
            Ok(_) => {}
            // The game covered its board at once (its completion dialog): checked below.
            Err(DesktopError::Covered { .. }) if completion_dialog && k + 1 == targets.len() => {
                break;
            }
            Err(e) => return Err(e),
        };
        test_pause(desktop, opts, typed.len())?;
    }
    report.typing = desktop.elapsed() - typing;
    let verifying = desktop.elapsed();
    // The last digit may still be settling (a selection fading, a popover closing): the board
    // is read until it shows the solution, within the bound.
    let mut last = None;
    let settled =
        wait_for(opts, desktop, "the board to show the solution", opts.timeout, READ_POLL, |d| {
            match read_window(d) {
                Ok(now) if now.grid.cells() == solution.cells() => Ok(Some(Check::Pixels)),
                Err(DesktopError::Covered { by, .. })
                    if completion_dialog && !targets.is_empty() =>
                {
                    tracing::debug!(%by, "a window over the board after the last digit");
                    Ok(Some(Check::Completion))
                }
                other => {
                    last = Some(other.map(|now| now.grid));
                    Ok(None)
                }
            }
        });
    report.check = match (settled, last) {
        (Ok(check), _) => check,
        (Err(DesktopError::Timeout { .. }), Some(Ok(now))) => {
            return Err(DesktopError::WrongValues {
                when: "after typing",
                cells: differences(&now, &solution, None),
            });
        }
        (Err(DesktopError::Timeout { .. }), Some(Err(e))) | (Err(e), _) => return Err(e),
    };
    report.verify = desktop.elapsed() - verifying;
    report.verified = true;
    Ok(report)
}
