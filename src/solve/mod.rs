//! Solving: exact, exhaustive, and fast.
//!
//! Four engines share one contract (find solutions in a fixed order, stop at a limit):
//!
//! - [`generic`]: any geometry the model allows (sides up to 36, boxes or jigsaw, X diagonals).
//!   Bitmask candidates per cell, naked singles propagated as they appear, hidden singles in
//!   every house at every node, and minimum-remaining-values branching.
//! - [`classic`]: the plain 9x9 grid, where the targets are tens of thousands of hard puzzles a
//!   second. Per-digit band bitboards with table-driven row/box reasoning.
//! - [`banded`]: boxed grids with boxes 2 to 4 cells wide and tall (4x4, 6x6, 8x8, 12x12,
//!   16x16), no diagonals or cages. The 9x9 engine's design sized up: per-value band bitboards
//!   of 64 bits, permutation filters in both directions, a worklist.
//!
//! The order is fixed per engine (the same puzzle always gives the same solutions in the same
//! order), but two engines may meet the solutions of a multi-solution puzzle in different
//! orders; [`Count::examples`] are the first two of that engine's order.
//! - [`killer`](mod@killer): Killer sudoku (cages with sums) on any geometry up to 12x12, with
//!   cage combinations and the 45 rule inside the search.
//!
//! The hot loops of the 9x9 engine are also compiled for newer x86-64 processors (AVX2,
//! AVX-512) and picked at run time; see [`Isa`].
//!
//! [`solve`] checks the givens first, so a puzzle with two equal values in a house is reported
//! as [`Verdict::Invalid`] naming both cells, never searched.

mod banded;
mod classic;
mod generic;
#[allow(unsafe_code)]
mod isa;
mod killer;

pub use isa::{AVX2, AVX512, Isa};

use std::time::{Duration, Instant};

use crate::grid::{Conflict, Grid};

/// What a puzzle turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution.
    Unique(Grid),
    /// Two or more solutions; the first two found.
    Multiple(Grid, Grid),
    /// No solution.
    Unsolvable,
    /// The givens already break a rule.
    Invalid(Conflict),
}

impl Verdict {
    /// The solution, when there is exactly one.
    pub fn unique(&self) -> Option<&Grid> {
        match self {
            Verdict::Unique(g) => Some(g),
            _ => None,
        }
    }
}

/// The result of counting solutions up to a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found (never more than the limit).
    pub found: u64,
    /// Whether the search was exhaustive (`found` is the exact number).
    pub exhaustive: bool,
    /// The first two solutions found, in search order.
    pub examples: Vec<Grid>,
    /// Branch points the search went through.
    pub guesses: u64,
    /// Whether the search stopped because its [`Budget`] ran out (then `found` is a lower
    /// bound and `exhaustive` is false).
    pub gave_up: bool,
}

/// Limits on one search, for callers that must answer in bounded time. A search past its
/// budget stops and reports [`Count::gave_up`]. The default is no limit.
///
/// The time is checked every [`Budget::CHECK_EVERY`] branch points, so a search may run a
/// little past it. The plain 9x9 engine (whose worst case is milliseconds) does not check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time from the start of the search.
    pub time: Option<Duration>,
    /// Branch points.
    pub guesses: Option<u64>,
}

impl Budget {
    /// Branch points between two looks at the clock.
    pub const CHECK_EVERY: u64 = 256;

    /// No limit.
    pub const NONE: Budget = Budget { time: None, guesses: None };
}

/// A search that ran out of its [`Budget`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("gave up after {seconds:.1} s: the search went past its budget ({guesses} branch points)")]
pub struct GaveUp {
    /// Seconds spent.
    pub seconds: f64,
    /// Branch points gone through.
    pub guesses: u64,
}

/// [`solve`] within a budget: [`GaveUp`] when the budget ran out first.
pub fn solve_within(puzzle: &Grid, budget: &Budget) -> Result<Verdict, GaveUp> {
    let start = Instant::now();
    match count_solutions_within(puzzle, 2, budget) {
        Err(conflict) => Ok(Verdict::Invalid(conflict)),
        Ok(count) if count.gave_up => {
            Err(GaveUp { seconds: start.elapsed().as_secs_f64(), guesses: count.guesses })
        }
        Ok(count) => {
            let mut examples = count.examples.into_iter();
            Ok(match (examples.next(), examples.next()) {
                (None, _) => Verdict::Unsolvable,
                (Some(a), None) => Verdict::Unique(a),
                (Some(a), Some(b)) => Verdict::Multiple(a, b),
            })
        }
    }
}

/// Solves a puzzle, counting up to two solutions.
pub fn solve(puzzle: &Grid) -> Verdict {
    match solve_within(puzzle, &Budget::NONE) {
        Ok(verdict) => verdict,
        Err(_) => unreachable!("a search without a budget never gives up"),
    }
}

/// Counts solutions, stopping once `limit` are found (`limit` 0 counts nothing). Fails only for
/// givens that conflict in a house; Killer givens that break a cage (see
/// [`Grid::cage_conflict`]) simply have no solution.
pub fn count_solutions(puzzle: &Grid, limit: u64) -> Result<Count, Conflict> {
    count_solutions_with(puzzle, limit, Isa::detected())
}

/// [`count_solutions`] within a budget: a search that runs out stops with what it found so
/// far and [`Count::gave_up`] set.
pub fn count_solutions_within(
    puzzle: &Grid,
    limit: u64,
    budget: &Budget,
) -> Result<Count, Conflict> {
    count_within(puzzle, limit, Isa::detected(), budget)
}

/// [`count_solutions`] on a chosen instruction-set level (or the highest supported one below
/// it): every level gives the same result, so this is for tests and benchmarks.
pub fn count_solutions_with(puzzle: &Grid, limit: u64, isa: Isa) -> Result<Count, Conflict> {
    count_within(puzzle, limit, isa, &Budget::NONE)
}

fn count_within(puzzle: &Grid, limit: u64, isa: Isa, budget: &Budget) -> Result<Count, Conflict> {
    let classic = puzzle.geometry().is_classic();
    // The 9x9 engine finds no solution for givens that conflict (every given is fixed in its
    // cell, and a solution breaks no house), so there the check waits until nothing is found.
    if !classic && let Some(conflict) = puzzle.conflict() {
        return Err(conflict);
    }
    let mut sink = Sink { limit, found: 0, examples: Vec::new(), meter: Meter::new(budget) };
    let guesses = if puzzle.geometry().is_killer() {
        killer::search(puzzle, &mut sink)
    } else if classic && !sink.wants_more() {
        0
    } else if classic {
        let cells: &[u8; 81] =
            puzzle.cells().try_into().expect("a classic grid has 81 cells, each at most 9");
        isa::classic(isa, &mut GridReport { sink: &mut sink, puzzle }, cells)
    } else if let Some((width, height)) = banded_shape(puzzle.geometry()) {
        banded::search(width, height, puzzle.cells(), &mut GridReport { sink: &mut sink, puzzle })
    } else {
        generic::search(puzzle, &mut sink)
    };
    if classic
        && sink.found == 0
        && let Some(conflict) = puzzle.conflict()
    {
        return Err(conflict);
    }
    Ok(Count {
        found: sink.found,
        exhaustive: sink.found < limit && !sink.meter.gave_up,
        examples: sink.examples,
        guesses,
        gave_up: sink.meter.gave_up,
    })
}

/// The box shape when the [`banded`] engine takes the geometry: boxes 2 to 4 cells wide and
/// tall, no diagonals, no cages, not the classic 9x9 grid.
fn banded_shape(geometry: &crate::grid::Geometry) -> Option<(usize, usize)> {
    let (width, height) = geometry.box_shape()?;
    (banded::fits(width, height)
        && !geometry.has_diagonals()
        && !geometry.is_killer()
        && !geometry.is_classic())
    .then_some((width, height))
}

/// The plain 9x9 grid without [`Grid`]s, for batches of one-line puzzles: counts the solutions
/// of `cells` (81 values in reading order, 0 for blank) up to `limit` on the detected
/// instruction-set level, and copies the first two found, in search order (the order
/// [`count_solutions`] gives them), into `found`. Returns the number found, or `None` when a
/// value is above 9. Conflicting givens simply have no solution here; [`count_solutions`] on
/// the same puzzle names the conflict.
///
/// With `limit` 2 this is the whole verdict of a one-line puzzle, a second solution included,
/// in one search.
pub fn count_classic(cells: &[u8; 81], limit: u64, found: &mut [[u8; 81]; 2]) -> Option<u64> {
    if cells.iter().any(|&v| v > 9) {
        return None;
    }
    let mut report = RawReport { limit, found: 0, kept: found };
    if limit > 0 {
        isa::classic(Isa::detected(), &mut report, cells);
    }
    Some(report.found)
}

/// How an engine reports a solution (values in reading order); `accept` returns whether the
/// search should go on.
pub(crate) trait Report {
    fn accept(&mut self, values: &[u8]) -> bool;

    /// Called at each branch point of engines whose worst case is long; returns whether the
    /// search may go on (false once the budget is spent).
    fn branch(&mut self) -> bool {
        true
    }
}

/// Solutions of a [`Grid`] into a [`Sink`].
struct GridReport<'a> {
    sink: &'a mut Sink,
    puzzle: &'a Grid,
}

impl Report for GridReport<'_> {
    fn accept(&mut self, values: &[u8]) -> bool {
        self.sink.accept(self.puzzle, values)
    }

    fn branch(&mut self) -> bool {
        self.sink.branch()
    }
}

/// Solutions counted, the first two kept as raw values.
struct RawReport<'a> {
    limit: u64,
    found: u64,
    kept: &'a mut [[u8; 81]; 2],
}

impl Report for RawReport<'_> {
    fn accept(&mut self, values: &[u8]) -> bool {
        if let Some(slot) = self.kept.get_mut(self.found as usize) {
            slot.copy_from_slice(values);
        }
        self.found += 1;
        self.found < self.limit
    }
}

/// Where engines report solutions. `accept` returns whether the search should go on.
pub(crate) struct Sink {
    limit: u64,
    found: u64,
    examples: Vec<Grid>,
    meter: Meter,
}

/// A [`Budget`] being spent: branch points counted, the clock read every
/// [`Budget::CHECK_EVERY`] of them.
struct Meter {
    deadline: Option<Instant>,
    guesses_left: u64,
    until_clock: u64,
    gave_up: bool,
}

impl Meter {
    fn new(budget: &Budget) -> Meter {
        Meter {
            deadline: budget.time.and_then(|t| Instant::now().checked_add(t)),
            guesses_left: budget.guesses.unwrap_or(u64::MAX),
            until_clock: Budget::CHECK_EVERY,
            gave_up: false,
        }
    }

    /// One more branch point; returns whether the search may go on.
    fn branch(&mut self) -> bool {
        if self.guesses_left == 0 {
            self.gave_up = true;
            return false;
        }
        self.guesses_left -= 1;
        self.until_clock -= 1;
        if self.until_clock == 0 {
            self.until_clock = Budget::CHECK_EVERY;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.gave_up = true;
            }
        }
        !self.gave_up
    }
}

impl Sink {
    /// One more branch point; returns whether the search may go on.
    fn branch(&mut self) -> bool {
        self.meter.branch()
    }

    fn wants_more(&self) -> bool {
        self.found < self.limit
    }

    /// Records a solution given as values in reading order; returns whether to go on.
    fn accept(&mut self, puzzle: &Grid, values: &[u8]) -> bool {
        self.found += 1;
        if self.examples.len() < 2 {
            let grid = Grid::new(puzzle.geometry_arc().clone(), values.to_vec())
                .expect("engines only report in-range values of the puzzle's geometry");
            self.examples.push(grid);
        }
        self.wants_more()
    }
}
