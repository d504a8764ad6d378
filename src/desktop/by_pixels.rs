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

use std::path::Path;
use std::time::Duration;

use super::backend::{Desktop, Rect, wait_for};
use super::fill::{self, Selected};
use super::lock::GameLock;
use super::verify::unique_solution;
use super::{Check, DesktopError, Options, Report};
use crate::grid::{Cell, Grid};
use crate::pixels::watch::{self, CellLook, Glyph, Rgb, Selection};
use crate::pixels::{self, Board, BoardRead, CellKind, PixelError, Puzzle, RgbaImage, Uncertain};

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

fn pixel_error(reason: PixelError) -> DesktopError {
    DesktopError::Pixels { window: None, reason }
}

/// A refused read, with the picture it was refused on and what was found in it, when the
/// window was captured (for the evidence picture).
struct Refused {
    error: DesktopError,
    seen: Option<Box<(RgbaImage, Option<BoardRead>)>>,
}

/// Captures the window and reads its board; fails on any uncertain cell.
fn read_window<D: Desktop + ?Sized>(desktop: &mut D) -> Result<Seen, Refused> {
    let image = desktop.capture().map_err(|error| Refused { error, seen: None })?;
    let read = match image.view().and_then(pixels::read) {
        Ok(read) => read,
        Err(e) => {
            return Err(Refused { error: pixel_error(e), seen: Some(Box::new((image, None))) });
        }
    };
    let puzzle = match Puzzle::from_read(&read, Uncertain::Refuse) {
        Ok(puzzle) => puzzle,
        Err(e) => {
            return Err(Refused {
                error: pixel_error(e),
                seen: Some(Box::new((image, Some(read)))),
            });
        }
    };
    let kinds = read.cells.iter().map(|c| c.kind).collect();
    Ok(Seen { board: read.board, grid: puzzle.givens, kinds, image })
}

/// [`read_window`], the error alone.
fn read_again<D: Desktop + ?Sized>(desktop: &mut D) -> Result<Seen, DesktopError> {
    read_window(desktop).map_err(|refused| refused.error)
}

/// The first read of a run: a refused one leaves the window's picture, annotated with what
/// was found, in `opts.evidence_dir` when one is set.
fn first_read<D: Desktop + ?Sized>(desktop: &mut D, opts: &Options) -> Result<Seen, DesktopError> {
    read_window(desktop).map_err(|refused| {
        if let (Some(dir), Some(seen)) = (&opts.evidence_dir, refused.seen) {
            keep_evidence(dir, &seen.0, seen.1.as_ref());
        }
        refused.error
    })
}

/// Writes the annotated picture of a refused read into `dir` (a failure to write is logged:
/// the refusal is the error that matters).
fn keep_evidence(dir: &Path, image: &RgbaImage, read: Option<&BoardRead>) {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    let path = dir.join(format!("sudobot-pixels-{}-{stamp}.png", std::process::id()));
    match std::fs::create_dir_all(dir)
        .map_err(|e| e.to_string())
        .and_then(|()| pixels::save_annotated(&path, image, read).map_err(|e| e.to_string()))
    {
        Ok(()) => tracing::warn!("the refused read is annotated in {}", path.display()),
        Err(e) => tracing::warn!("cannot keep the refused read in {}: {e}", path.display()),
    }
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
    let path = Path::new(path);
    std::fs::write(path, typed.to_string())
        .map_err(|source| DesktopError::TestPause { path: path.to_path_buf(), source })?;
    wait_for(opts, desktop, "the test pause to end", TEST_PAUSE_MAX, READ_POLL, |_| {
        Ok((!path.exists()).then_some(()))
    })
}

/// How many times a cell is clicked again when the window moves under the click.
const CLICK_TRIES: usize = 3;

/// The window's place on the screen now.
fn place<D: Desktop + ?Sized>(desktop: &mut D) -> Result<Rect, DesktopError> {
    desktop.game_area()?.ok_or(DesktopError::PlaceUnknown)
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
    let cell = Cell::from_index(index, board.side);
    let (x, y) = board.cell_centre(cell.row, cell.col).ok_or_else(|| {
        DesktopError::NotSelected { cell, why: "the cell is not on the board read".into() }
    })?;
    for tries in 1..=CLICK_TRIES {
        let area = place(desktop)?;
        let at = (area.x + x as i32, area.y + y as i32);
        fill::perform(desktop, opts, &fill::check_click_in(area, at, index)?)?;
        let now = place(desktop)?;
        if now == area {
            return Ok(tries);
        }
        tracing::debug!(?area, ?now, "the window moved under a click; clicked again");
    }
    Err(DesktopError::NotSelected {
        cell,
        why: format!("the window moved under each of {CLICK_TRIES} clicks"),
    })
}

/// What a run knows once the board is read and solved.
struct Plan {
    /// The board's place and shape in the window.
    board: Board,
    /// The board as first read.
    seen: Grid,
    /// How each cell was first read.
    kinds: Vec<CellKind>,
    /// The solution.
    solution: Grid,
    /// The empty cells and the wrong entries, in reading order.
    targets: Vec<usize>,
    /// How an empty cell looks unselected.
    plain: Rgb,
    /// The game covers its board with a dialog once solved.
    completion_dialog: bool,
}

impl Plan {
    /// Solves the board read: the givens alone (entries told apart as the game draws them),
    /// else every value as a given (nothing then corrected).
    fn new(seen: Seen, game: PixelGame) -> Result<Plan, DesktopError> {
        let side = seen.board.side;
        if side > 9 {
            return Err(DesktopError::NeedsLetters { side });
        }
        let (board, image) = (seen.board, seen.image);
        let empty: Vec<usize> = (0..side * side).filter(|&i| seen.grid.get(i).is_none()).collect();
        // The middle of the empty cells' looks, so that a cell left selected before the run
        // (its look unchanged by the click) still counts.
        let plain = watch::plain(&image, &board, &empty);
        let entry: Vec<bool> = (0..side * side)
            .map(|i| {
                seen.grid.get(i).is_some()
                    && match game.entries {
                        Entries::Ink => seen.kinds[i] == CellKind::Entry,
                        Entries::Background => watch::entry_by_background(
                            CellLook::at(&image, &board, i).background,
                            plain,
                        ),
                    }
            })
            .collect();
        let kept = seen.grid.cells().iter().zip(&entry).map(|(&v, &e)| if e { 0 } else { v });
        let givens = Grid::new(seen.grid.geometry_arc().clone(), kept.collect())
            .map_err(|e| pixel_error(e.into()))?;
        let (solution, entry) = match unique_solution(&givens) {
            Ok(solution) if entry.iter().any(|&e| e) => (solution, entry),
            _ => (unique_solution(&seen.grid)?, vec![false; side * side]),
        };
        let targets = (0..side * side)
            .filter(|&i| {
                seen.grid.get(i).is_none()
                    || (entry[i] && seen.grid.cells()[i] != solution.cells()[i])
            })
            .collect();
        Ok(Plan {
            board,
            seen: seen.grid,
            kinds: seen.kinds,
            solution,
            targets,
            plain,
            completion_dialog: game.completion_dialog,
        })
    }

    /// Whether `k` is the last target.
    fn last(&self, k: usize) -> bool {
        k + 1 == self.targets.len()
    }
}

/// [`run_by_pixels`]; `typed` gets the cells whose digit was sent.
fn play<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    game: PixelGame,
    typed: &mut Vec<Cell>,
) -> Result<Report, DesktopError> {
    let _lock = desktop.game_window_key().map(|key| GameLock::take(&key)).transpose()?;
    let t0 = desktop.elapsed();
    let seen = first_read(desktop, opts)?;
    let read = desktop.elapsed() - t0;
    let plan = Plan::new(seen, game)?;
    let side = plan.board.side;
    let mut report = Report::solved(
        &plan.solution,
        format!("pixels {side}x{side}"),
        Check::Pixels,
        read,
        desktop.elapsed() - t0 - read,
    );
    report.corrected = plan.targets.iter().filter(|&&i| plan.seen.get(i).is_some()).count();
    let typing = desktop.elapsed();
    // How the selected cell looks, learnt from the first bare one.
    let mut learnt = None;
    for (k, &index) in plan.targets.iter().enumerate() {
        if opts.aborted() {
            return Err(DesktopError::Aborted);
        }
        match type_cell(desktop, opts, &plan, (k, index), &mut learnt, typed, &mut report)? {
            Typed::Shown => test_pause(desktop, opts, typed.len())?,
            Typed::Covered => break,
        }
    }
    report.typing = desktop.elapsed() - typing;
    let verifying = desktop.elapsed();
    report.check = settle(desktop, opts, &plan)?;
    report.verify = desktop.elapsed() - verifying;
    report.verified = true;
    Ok(report)
}

/// How a typed digit ended.
enum Typed {
    /// It shows in its cell.
    Shown,
    /// The last digit, and the game covered its board at once (its completion dialog).
    Covered,
}

/// Clicks target `k` (cell `index`), waits for it to show selected, sends its digit and
/// waits for the digit to show. `learnt` is how the bare cells selected so far looked.
fn type_cell<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    plan: &Plan,
    (k, index): (usize, usize),
    learnt: &mut Option<Rgb>,
    typed: &mut Vec<Cell>,
    report: &mut Report,
) -> Result<Typed, DesktopError> {
    let board = &plan.board;
    if plan.completion_dialog && plan.last(k) {
        // The last digit may end the game behind a dialog: the rest is read back first.
        let now = read_again(desktop)?;
        let wrong = differences(&now.grid, &plan.solution, Some(index));
        if !wrong.is_empty() {
            return Err(DesktopError::WrongValues { when: "before the last digit", cells: wrong });
        }
    }
    let cell = Cell::from_index(index, board.side);
    // A wrong value or pencil marks (GNOME Sudoku's earmarks, drawn where the digit will be,
    // and across the cell's margin): its glyph is sampled, to see it replaced; a bare cell
    // needs no capture for that. Its margin's colour is not the selection's alone, so it is
    // neither checked against the learnt selection look nor taught it.
    let held = plan.seen.get(index).is_some() || plan.kinds[index] == CellKind::Pencil;
    // A fresh capture before each click: a window minimized, covered or moved off the screen
    // since the last cell is refused here, before anything is sent to it.
    let image = desktop.capture()?;
    let around = Selection {
        before: CellLook::at(&image, board, index).background,
        plain: plan.plain,
        learnt: learnt.filter(|_| !held),
    };
    report.actions += click_cell(desktop, opts, board, index)?;
    let selected = see_selected(desktop, opts, board, index, &around)?;
    if !held {
        learnt.get_or_insert(selected.0);
    }
    let before_key = match held {
        true => Glyph::sample(&desktop.capture()?, board, index),
        false => Glyph::default(),
    };
    let digit = fill::check_digit(&selected.1, &plan.solution)?;
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
    let shown =
        wait_for(opts, desktop, &format!("the digit to show in {cell}"), opts.timeout, POLL, |d| {
            let img = d.capture()?;
            // A wrong value or marks replaced: the glyph changes; a bare cell: ink shows.
            Ok(match held {
                true => before_key.changed(&Glyph::sample(&img, board, index)),
                false => CellLook::at(&img, board, index).shows_ink(),
            }
            .then_some(()))
        });
    match shown {
        Ok(()) => Ok(Typed::Shown),
        // The game covered its board at once (its completion dialog): checked by [`settle`].
        Err(DesktopError::Covered { .. }) if plan.completion_dialog && plan.last(k) => {
            Ok(Typed::Covered)
        }
        Err(e) => Err(e),
    }
}

/// Waits (bounded) for cell `index` to show as the one selected after its click: its margin
/// colour and the proof, or (with whatever the click opened closed by Escape) why not.
fn see_selected<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    board: &Board,
    index: usize,
    around: &Selection,
) -> Result<(Rgb, Selected), DesktopError> {
    let cell = Cell::from_index(index, board.side);
    let mut seen_last = String::from("no capture");
    let selected =
        wait_for(opts, desktop, &format!("{cell} to show selected"), opts.timeout, POLL, |d| {
            let img = d.capture()?;
            Ok(match watch::selected(&img, board, index, around) {
                Ok(look) => Some((look, Selected::seen(index))),
                Err(why) => {
                    seen_last = why.to_string();
                    None
                }
            })
        });
    selected.map_err(|e| {
        // Whatever the click opened (a popover) is closed; no digit was sent. The Escape is
        // the bot's own, so an interactive session's listener does not take it for the user's.
        let _ = super::game::escape(desktop, opts);
        match e {
            DesktopError::Timeout { .. } => DesktopError::NotSelected { cell, why: seen_last },
            other => other,
        }
    })
}

/// Reads the board until it shows the solution, within the bound (the last digit may still
/// be settling: a selection fading, a popover closing): how it was checked.
fn settle<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    plan: &Plan,
) -> Result<Check, DesktopError> {
    let solution = &plan.solution;
    let mut last = None;
    let settled =
        wait_for(opts, desktop, "the board to show the solution", opts.timeout, READ_POLL, |d| {
            match read_again(d) {
                Ok(now) if now.grid.cells() == solution.cells() => Ok(Some(Check::Pixels)),
                Err(DesktopError::Covered { by, .. })
                    if plan.completion_dialog && !plan.targets.is_empty() =>
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
    match (settled, last) {
        (Ok(check), _) => Ok(check),
        (Err(DesktopError::Timeout { .. }), Some(Ok(now))) => Err(DesktopError::WrongValues {
            when: "after typing",
            cells: differences(&now, solution, None),
        }),
        (Err(DesktopError::Timeout { .. }), Some(Err(e))) | (Err(e), _) => Err(e),
    }
}
