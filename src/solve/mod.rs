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
}

/// Solves a puzzle, counting up to two solutions.
pub fn solve(puzzle: &Grid) -> Verdict {
    match count_solutions(puzzle, 2) {
        Err(conflict) => Verdict::Invalid(conflict),
        Ok(count) => {
            let mut examples = count.examples.into_iter();
            match (examples.next(), examples.next()) {
                (None, _) => Verdict::Unsolvable,
                (Some(a), None) => Verdict::Unique(a),
                (Some(a), Some(b)) => Verdict::Multiple(a, b),
            }
        }
    }
}

/// Counts solutions, stopping once `limit` are found (`limit` 0 counts nothing). Fails only for
/// givens that conflict in a house; Killer givens that break a cage (see
/// [`Grid::cage_conflict`]) simply have no solution.
pub fn count_solutions(puzzle: &Grid, limit: u64) -> Result<Count, Conflict> {
    count_solutions_with(puzzle, limit, Isa::detected())
}

/// [`count_solutions`] on a chosen instruction-set level (or the highest supported one below
/// it): every level gives the same result, so this is for tests and benchmarks.
pub fn count_solutions_with(puzzle: &Grid, limit: u64, isa: Isa) -> Result<Count, Conflict> {
    let classic = puzzle.geometry().is_classic();
    // The 9x9 engine finds no solution for givens that conflict (every given is fixed in its
    // cell, and a solution breaks no house), so there the check waits until nothing is found.
    if !classic && let Some(conflict) = puzzle.conflict() {
        return Err(conflict);
    }
    let mut sink = Sink { limit, found: 0, examples: Vec::new() };
    let guesses = if puzzle.geometry().is_killer() {
        killer::search(puzzle, &mut sink)
    } else if classic && !sink.wants_more() {
        0
    } else if classic {
        let cells: &[u8; 81] =
            puzzle.cells().try_into().expect("a classic grid has 81 cells, each at most 9");
        classic::search(cells, &mut GridReport { sink: &mut sink, puzzle }, isa)
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
        exhaustive: sink.found < limit,
        examples: sink.examples,
        guesses,
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
/// instruction-set level, and copies the first one found into `first`. Returns the number
/// found, or `None` when a value is above 9. Conflicting givens simply have no solution here;
/// [`count_solutions`] on the same puzzle names the conflict.
pub fn count_classic(cells: &[u8; 81], limit: u64, first: &mut [u8; 81]) -> Option<u64> {
    if cells.iter().any(|&v| v > 9) {
        return None;
    }
    let mut report = RawReport { limit, found: 0, first };
    if limit > 0 {
        classic::search(cells, &mut report, Isa::detected());
    }
    Some(report.found)
}

/// How an engine reports a solution (values in reading order); `accept` returns whether the
/// search should go on.
pub(crate) trait Report {
    fn accept(&mut self, values: &[u8]) -> bool;
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
}

/// Solutions counted, the first one kept as raw values.
struct RawReport<'a> {
    limit: u64,
    found: u64,
    first: &'a mut [u8; 81],
}

impl Report for RawReport<'_> {
    fn accept(&mut self, values: &[u8]) -> bool {
        if self.found == 0 {
            self.first.copy_from_slice(values);
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
}

impl Sink {
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
