//! The board sources: how a board is waited for, read, typed into and read back, by kind.
//! [`play`](super::play) tells the one story over any [`BoardSource`] (read, solve once, plan,
//! the run's mode, type, one retry for dropped keys, confirm); what differs by source lives
//! here:
//!
//! - [`dom`]: a board of page elements, read in one script, typed with real keys behind the
//!   in-page guard, the first clicked key proven;
//! - [`canvas`]: a board drawn on a canvas, read from an element screenshot by
//!   [`crate::pixels`], typed by clicking cell centres, the first key proven, read back from
//!   its pixels;
//! - `fake` (tests only): `FakeBoard`, a page in memory that drops keys, changes its puzzle
//!   while keys are typed or raises an alert, for unit tests of the story.
//!
//! Two waits of the sources are written once here, over [`poll`]: the click proof
//! ([`prove_first`]) and the settle rule of a board still being drawn ([`Settle`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::error::PlayError;
use super::fill::Target;
use super::options::Outcome;
use super::poll::{CLICK_PROOF, SETTLE, Waited, poll};
use super::read::PageBoard;
use super::site::Success;
use crate::grid::{Cell, Geometry, Grid};

pub mod canvas;
pub mod dom;
#[cfg(test)]
pub(crate) mod fake;

/// A board as its source read it, ready to solve.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    /// What the page shows, cell by cell.
    pub(crate) board: PageBoard,
    /// The board's shape (the site's, or the one a pixel read measured).
    pub(crate) geometry: Arc<Geometry>,
    /// Cells the read could not tell: never typed into.
    pub(crate) unsure: Vec<usize>,
    /// The read itself, where the source waited for its board first (the wait then counts as
    /// navigation); `None`: the whole call was the read.
    pub(crate) read_took: Option<Duration>,
}

/// How typing ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Typed {
    /// Every key was sent, and nothing left the board.
    Done,
    /// The board was not the one solved (before the first key or while typing): why.
    Changed(String),
}

/// A typed cell that does not show its value: the cell to type and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Missed {
    /// The cell and the value it should hold.
    pub(crate) target: Target,
    /// What it shows instead.
    pub(crate) found: String,
}

/// The board as read back after typing.
#[derive(Debug)]
pub(crate) enum Back {
    /// Every cell shows the solution.
    Right,
    /// These typed cells lost their key (the rest is right).
    Dropped(Vec<Missed>),
}

/// What typing and reading back leave for the page's confirmation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Finished {
    /// A dialog that opened with the keys (already dismissed): the page's word on the board.
    pub(crate) alert: Option<String>,
    /// The success marker showed success before the first key (then it proves nothing).
    pub(crate) before: bool,
}

/// A board on a page: what [`play`](super::play) needs of it. Every method waits (bounded) for
/// what it needs of the page; none solves, plans or knows the run's mode.
pub(crate) trait BoardSource {
    /// The page's sign of success.
    fn success(&self) -> &Success;

    /// Waits until the board is ready and reads it. `again`: the board changed under the keys
    /// and is read a second time.
    async fn read(&mut self, again: bool) -> Result<Seen, PlayError>;

    /// The givens of `seen` break a rule or leave no solution: the player's mistakes, named, where
    /// nothing on the page proves which filled cells are givens; `None`: the solver's verdict
    /// stands.
    async fn mistakes(&mut self, seen: &Seen) -> Option<PlayError>;

    /// Types `targets` into `seen` (with show-thinking, `notes[i]` told before `targets[i]`).
    /// May set [`Outcome::clicked`].
    async fn type_cells(
        &mut self,
        seen: &Seen,
        targets: &[Target],
        notes: &[Vec<String>],
        outcome: &mut Outcome,
    ) -> Result<Typed, PlayError>;

    /// Reads the board back after typing `targets` (or retyping them): right, or the typed cells
    /// that lost their key; any other difference from `solution` is an error.
    async fn read_back(
        &mut self,
        seen: &Seen,
        targets: &[Target],
        solution: &Grid,
    ) -> Result<Back, PlayError>;

    /// Types again the cells that lost their key (each cleared of what it shows first).
    async fn retype(&mut self, seen: &Seen, cells: &[Target]) -> Result<(), PlayError>;

    /// What typing left for the confirmation: a dialog the keys met, a marker shown too early.
    fn finished(&mut self) -> Finished;

    /// Waits for the page's own confirmation of the finished board (the story has judged any
    /// alert and an early marker already): what it showed, empty where only the read-back
    /// proves the board.
    async fn confirm(&mut self, seen: &Seen) -> Result<String, PlayError>;
}

/// The board `now` after typing `targets`: right, the typed cells that lost their key, or (a
/// cell not typed that does not show `solution`) an error. What a source that reads its cells
/// back at once gives [`BoardSource::read_back`].
pub(crate) fn back_of(
    now: &PageBoard,
    targets: &[Target],
    solution: &Grid,
) -> Result<Back, PlayError> {
    let wrong = missed(now, targets);
    if !wrong.is_empty() {
        return Ok(Back::Dropped(wrong));
    }
    check_full(now, solution.cells()).map(|()| Back::Right)
}

/// The typed cells of `targets` the board `now` does not show holding their value.
pub(crate) fn missed(now: &PageBoard, targets: &[Target]) -> Vec<Missed> {
    targets
        .iter()
        .filter(|t| now.digit(t.index) != t.digit)
        .map(|t| Missed { target: *t, found: now.raw[t.index].clone() })
        .collect()
}

/// Every cell of `now` shows `solution`, or the first that does not, as an error.
pub(crate) fn check_full(now: &PageBoard, solution: &[u8]) -> Result<(), PlayError> {
    match (0..now.raw.len()).find(|&i| now.digit(i) != solution[i]) {
        None => Ok(()),
        Some(i) => Err(PlayError::Dropped {
            cell: Cell::from_index(i, now.side),
            expected: solution[i],
            found: now.raw[i].clone(),
        }),
    }
}

/// What one look of [`prove_first`] found.
pub(crate) enum Proof {
    /// The first typed cell shows its value.
    Shown,
    /// Not yet: what the page shows instead, in words.
    Not(String),
}

/// The click proof: after the first cell was typed alone, looks every `every` (bounded by
/// [`CLICK_PROOF`]; the page may draw the value on its next frame) until `look` finds it
/// shown. `Ok(None)`: shown; `Ok(Some(what))`: never, with what the last look found; an
/// error of a look ends the wait with it.
pub(crate) async fn prove_first(
    every: Duration,
    mut look: impl AsyncFnMut() -> Result<Proof, PlayError>,
) -> Result<Option<String>, PlayError> {
    let mut shown = String::from("the first typed cell was never read");
    let proven = poll(CLICK_PROOF, every, "the first typed cell", async |_| match look().await? {
        Proof::Shown => Ok(Some(())),
        Proof::Not(what) => {
            shown = what;
            Ok(None)
        }
    })
    .await;
    match proven {
        Ok(()) => Ok(None),
        Err(Waited::Stopped(e)) => Err(e),
        Err(Waited::Out(_)) => Ok(Some(shown)),
    }
}

/// The settle rule of a board still being drawn: a board that shows some givens but fewer than
/// it needs (or cells a read could not tell) is taken as it is once it has read the same for
/// [`SETTLE`] (it is then solved, or refused as having several solutions, rather than called
/// "not ready").
#[derive(Debug, Default)]
pub(crate) struct Settle<K> {
    /// What the board read as, and since when.
    last: Option<(K, Instant)>,
}

impl<K: PartialEq> Settle<K> {
    /// Whether the board, reading as `now` with `givens` givens, has read the same for
    /// [`SETTLE`]. A board with no givens never settles.
    pub(crate) fn settled(&mut self, now: K, givens: usize) -> bool {
        if givens == 0 {
            return false;
        }
        match &self.last {
            Some((seen, since)) if *seen == now => since.elapsed() >= SETTLE,
            _ => {
                self.last = Some((now, Instant::now()));
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(f)
    }

    /// A 4x4 board from a line (`.` blank), r1c1 a given.
    fn board4(line: &str) -> PageBoard {
        let raw: Vec<String> =
            line.chars().map(|c| if c == '.' { String::new() } else { c.to_string() }).collect();
        PageBoard {
            side: 4,
            given: (0..raw.len()).map(|i| i == 0).collect(),
            raw,
            dom_order: (0..16).collect(),
        }
    }

    #[test]
    fn a_cell_that_dropped_its_key_is_named_with_what_it_holds() {
        let solution: Vec<u8> = (0..16).map(|i| (i % 4) as u8 + 1).collect();
        let full = board4("1234123412341234");
        assert!(check_full(&full, &solution).is_ok());
        // r2c3 lost its key: blank where a 3 belongs.
        let dropped = board4("123412.412341234");
        let e = check_full(&dropped, &solution).unwrap_err();
        assert!(
            matches!(&e, PlayError::Dropped { cell, expected: 3, found } if cell.to_string() == "r2c3" && found.is_empty()),
            "{e}"
        );
        assert_eq!(e.kind(), crate::web::FailureKind::DroppedKeys);
    }

    #[test]
    fn the_click_proof_ends_when_the_cell_shows_its_value() {
        let mut looks = 0;
        let got = run(prove_first(Duration::from_millis(1), async || {
            looks += 1;
            Ok(if looks < 3 { Proof::Not(format!("look {looks}")) } else { Proof::Shown })
        }));
        assert_eq!(got.unwrap(), None);
        assert_eq!(looks, 3);
    }

    #[test]
    fn the_click_proof_gives_what_the_cell_showed_last_when_it_never_shows_it() {
        let mut looks = 0;
        let got = run(prove_first(Duration::from_millis(100), async || {
            looks += 1;
            Ok(Proof::Not(format!("look {looks}")))
        }));
        assert_eq!(got.unwrap(), Some(format!("look {looks}")));
        assert!(looks >= 2, "the proof looked more than once within {CLICK_PROOF:?}");
        // A look's error ends it at once.
        let got = run(prove_first(Duration::from_millis(1), async || {
            Err(PlayError::BoardChanged("another puzzle".into()))
        }));
        assert!(matches!(got, Err(PlayError::BoardChanged(_))));
    }

    #[test]
    fn a_board_settles_only_when_it_reads_the_same_with_some_givens() {
        let mut settle = Settle::default();
        assert!(!settle.settled("a", 3), "the first look starts the clock");
        assert!(!settle.settled("a", 3), "not yet {SETTLE:?}");
        // Changing starts again; no givens never settles.
        assert!(!settle.settled("b", 3));
        let mut empty = Settle::default();
        assert!(!empty.settled("", 0));
        assert!(!empty.settled("", 0));
        // After SETTLE of the same reading, it settles (the clock is the settle's own).
        settle.last = Some(("b", Instant::now() - SETTLE));
        assert!(settle.settled("b", 3));
    }
}
