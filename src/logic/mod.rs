//! Solving the way a person does: a technique engine that finds one deduction at a time on a
//! candidate grid, explains it, grades puzzles and gives hints.
//!
//! - [`Board`]: the candidate grid, for every geometry sudobot plays (sides 4 to 36, square or
//!   rectangular boxes, jigsaw, X diagonals as houses).
//! - [`Step`]: one deduction (technique, cells, houses, placements or eliminations) with its
//!   text in the usual notation. `explain`, `grade`, `hint` and the bots all use it.
//! - [`Scale`]: which techniques are allowed, in which order, and how a path is graded:
//!   [`Scale::Solo`] reproduces Simon Tatham's Solo grader exactly, [`Scale::Score`] is sudobot's
//!   own scale with measured weights (see [`score`]).
//!
//! The engine always starts again from the easiest technique after a step. Every step is
//! checked against the puzzle's unique solution before it is applied, so a false deduction can
//! never reach a player ([`LogicError::FalseStep`] reports such a bug instead).
//!
//! ```
//! use sudobot::{format, logic};
//!
//! let puzzle = format::parse("3x3:b5d8_2a6c3_9_7e1g4_2a5b2g7b4a6_8g5e7_6_9c1a3_4d6b", None)?;
//! let path = logic::explain(&puzzle, logic::Scale::Solo)?;
//! assert_eq!(path.grade.level.name(), "Extreme");
//! assert!(path.steps.iter().all(|s| !s.text().is_empty()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A new technique family (Killer cages, say) is one more module with finders of the same shape
//! (`fn(&mut Ctx) -> Option<Step>`) added to a scale's list; [`Ctx`] gives it the board and
//! through it the puzzle's geometry.

mod als;
pub mod board;
mod chains;
mod colouring;
mod fish;
mod forcing;
mod intersections;
pub mod json;
mod killer;
pub mod marks;
pub mod score;
mod single_digit;
mod singles;
pub mod step;
mod subsets;
mod uniqueness;
mod wings;

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

pub use board::{Board, Contradiction, Layout};
pub use step::{Detail, Node, Step, Technique};

use crate::grid::{Cell, Conflict, Grid, HouseKind};
use crate::solve::{self, Verdict};

/// What a technique finder sees: the board, the solution (only the guess step reads it), and a
/// counter of the elementary checks made (patterns tried), used to measure the score weights.
pub struct Ctx<'a> {
    /// The candidate grid.
    pub board: &'a Board,
    /// The unique solution, values in reading order.
    pub solution: &'a [u8],
    /// Elementary checks made so far.
    pub work: u64,
}

/// A technique finder: the first deduction of its technique on the board, if any.
pub type Finder = fn(&mut Ctx) -> Option<Step>;

/// A grading scale: the techniques allowed, their order, and the levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scale {
    /// Simon Tatham's Solo: Trivial, Basic, Intermediate, Advanced, Extreme, Unreasonable.
    Solo,
    /// sudobot's scale: every technique weighted by measurement; Easy, Medium, Hard, Unfair,
    /// Extreme.
    Score,
}

impl Scale {
    /// The name, as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Solo => "solo",
            Scale::Score => "score",
        }
    }

    /// The finders, easiest first.
    pub fn finders(self) -> &'static [Finder] {
        match self {
            Scale::Solo => SOLO,
            Scale::Score => score_finders(),
        }
    }

    /// The finders for a puzzle's geometry, easiest first: with Killer cages, the scale's list
    /// with its cage techniques.
    pub fn finders_for(self, geometry: &crate::grid::Geometry) -> &'static [Finder] {
        match (self, geometry.is_killer()) {
            (_, false) => self.finders(),
            (Scale::Solo, true) => SOLO_KILLER,
            (Scale::Score, true) => score_killer_finders(),
        }
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scale {
    type Err = String;
    fn from_str(s: &str) -> Result<Scale, String> {
        match s {
            "solo" => Ok(Scale::Solo),
            "score" => Ok(Scale::Score),
            _ => Err(format!("unknown scale '{s}' (solo or score)")),
        }
    }
}

/// Solo's techniques and order, level by level (solo.c's solver): blockwise positional
/// elimination; row, column and diagonal positional elimination and numeric elimination;
/// intersectional analysis; set elimination in every house; row-vs-column set elimination on
/// one value (fish of any size) and forcing chains; then recursion.
const SOLO: &[Finder] = &[
    singles::hidden_single_region,
    singles::hidden_single_line,
    singles::naked_single,
    intersections::solo_intersections,
    subsets::solo_sets,
    fish::solo_fish,
    chains::solo_forcing,
    forcing::guess,
];

/// Solo's order on a Killer puzzle (solo.c's solver): blockwise positional elimination; then the
/// Killer passes: placed values leave their cages (not graded, and the passes go on), cages
/// with one open cell (Killer Trivial), the 45 rule's deduced single cells (Advanced), min/max
/// analysis (Simple), sum possibilities (Intermediate); then the rest of [`SOLO`].
const SOLO_KILLER: &[Finder] = &[
    singles::hidden_single_region,
    killer::solo_cage_exclusion,
    killer::solo_cage_singles,
    killer::solo_innies,
    killer::solo_bounds,
    killer::solo_sums,
    singles::hidden_single_line,
    singles::naked_single,
    intersections::solo_pairs,
    subsets::solo_sets_exact,
    fish::solo_fish,
    chains::solo_forcing,
    forcing::guess,
];

/// The cage techniques of the score scale, which go right after the singles on a Killer
/// puzzle.
pub const KILLER_ORDER: &[Technique] = &[
    Technique::CageExclusion,
    Technique::CageSingle,
    Technique::CageCombination,
    Technique::InnieOutie,
];

/// The score scale's techniques in the usual order (HoDoKu's default sequence).
pub const SCORE_ORDER: &[Technique] = &[
    Technique::FullHouse,
    Technique::NakedSingle,
    Technique::HiddenSingle,
    Technique::Pointing,
    Technique::Claiming,
    Technique::LockedSubset(2),
    Technique::LockedSubset(3),
    Technique::NakedSubset(2),
    Technique::HiddenSubset(2),
    Technique::NakedSubset(3),
    Technique::HiddenSubset(3),
    Technique::NakedSubset(4),
    Technique::HiddenSubset(4),
    Technique::Fish(2),
    Technique::Fish(3),
    Technique::Fish(4),
    Technique::Skyscraper,
    Technique::TwoStringKite,
    Technique::EmptyRectangle,
    Technique::WWing,
    Technique::XyWing,
    Technique::XyzWing,
    Technique::UniqueRectangle(1),
    Technique::UniqueRectangle(2),
    Technique::UniqueRectangle(3),
    Technique::UniqueRectangle(4),
    Technique::BugPlusOne,
    Technique::FinnedFish(2),
    Technique::SimpleColours,
    Technique::FinnedFish(3),
    Technique::FinnedFish(4),
    Technique::XChain,
    Technique::XyChain,
    Technique::Aic,
    Technique::AlsXz,
    Technique::ForcingChain,
    Technique::CellForcingChain,
    Technique::UnitForcingChain,
    Technique::Guess,
];

/// The finders of [`SCORE_ORDER`].
fn score_finders() -> &'static [Finder] {
    static FINDERS: OnceLock<Vec<Finder>> = OnceLock::new();
    FINDERS.get_or_init(|| SCORE_ORDER.iter().filter_map(|&t| finder(t)).collect())
}

/// The finders of [`SCORE_ORDER`] with [`KILLER_ORDER`] after the singles.
fn score_killer_finders() -> &'static [Finder] {
    static FINDERS: OnceLock<Vec<Finder>> = OnceLock::new();
    FINDERS.get_or_init(|| {
        let at =
            SCORE_ORDER.iter().position(|&t| t == Technique::HiddenSingle).map_or(0, |k| k + 1);
        let mut order = SCORE_ORDER.to_vec();
        order.splice(at..at, KILLER_ORDER.iter().copied());
        order.iter().filter_map(|&t| finder(t)).collect()
    })
}

/// The finder of one technique of the score scale (what the scale's list runs for it), for
/// building other technique sets with [`explain_with`]. Subsets and fish come in sizes 2 to 4;
/// uniqueness tests in types 1 to 4. Singles come as one finder each; locked candidates as
/// pointing and claiming.
pub fn finder(t: Technique) -> Option<Finder> {
    Some(match t {
        Technique::FullHouse => singles::full_house,
        Technique::NakedSingle => singles::naked_single,
        Technique::HiddenSingle => singles::hidden_single,
        Technique::Cleanup => singles::cleanup,
        Technique::Pointing => intersections::pointing,
        Technique::Claiming => intersections::claiming,
        Technique::LockedSubset(2) => |cx| subsets::locked(cx, 2),
        Technique::LockedSubset(3) => |cx| subsets::locked(cx, 3),
        Technique::NakedSubset(2) => |cx| subsets::naked(cx, 2),
        Technique::NakedSubset(3) => |cx| subsets::naked(cx, 3),
        Technique::NakedSubset(4) => |cx| subsets::naked(cx, 4),
        Technique::HiddenSubset(2) => |cx| subsets::hidden(cx, 2),
        Technique::HiddenSubset(3) => |cx| subsets::hidden(cx, 3),
        Technique::HiddenSubset(4) => |cx| subsets::hidden(cx, 4),
        Technique::Fish(2) => |cx| fish::basic(cx, 2),
        Technique::Fish(3) => |cx| fish::basic(cx, 3),
        Technique::Fish(4) => |cx| fish::basic(cx, 4),
        Technique::FinnedFish(2) | Technique::SashimiFish(2) => |cx| fish::finned(cx, 2),
        Technique::FinnedFish(3) | Technique::SashimiFish(3) => |cx| fish::finned(cx, 3),
        Technique::FinnedFish(4) | Technique::SashimiFish(4) => |cx| fish::finned(cx, 4),
        Technique::Skyscraper => single_digit::skyscraper,
        Technique::TwoStringKite => single_digit::two_string_kite,
        Technique::EmptyRectangle => single_digit::empty_rectangle,
        Technique::WWing => wings::w_wing,
        Technique::XyWing => wings::xy_wing,
        Technique::XyzWing => wings::xyz_wing,
        Technique::SimpleColours => colouring::simple_colours,
        Technique::XChain => chains::x_chain,
        Technique::XyChain => chains::xy_chain,
        Technique::Aic => chains::aic,
        Technique::UniqueRectangle(1) => |cx| uniqueness::unique_rectangle(cx, 1),
        Technique::UniqueRectangle(2) => |cx| uniqueness::unique_rectangle(cx, 2),
        Technique::UniqueRectangle(3) => |cx| uniqueness::unique_rectangle(cx, 3),
        Technique::UniqueRectangle(4) => |cx| uniqueness::unique_rectangle(cx, 4),
        Technique::BugPlusOne => uniqueness::bug_plus_one,
        Technique::AlsXz => |cx| als::als_xz(cx, 4),
        Technique::ForcingChain => forcing::contradiction,
        Technique::CellForcingChain => forcing::cell_forcing,
        Technique::UnitForcingChain => forcing::unit_forcing,
        Technique::Guess => forcing::guess,
        Technique::CageExclusion => killer::cage_exclusion,
        Technique::CageSingle => killer::cage_single,
        Technique::CageCombination => killer::cage_combination,
        Technique::InnieOutie => killer::innie_outie,
        _ => return None,
    })
}

/// Solo's difficulty levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SoloLevel {
    /// Blockwise positional elimination only.
    Trivial,
    /// Row/column/number elimination required.
    Basic,
    /// Intersectional analysis required.
    Intermediate,
    /// Set elimination required.
    Advanced,
    /// Complex non-recursive techniques required.
    Extreme,
    /// Guesswork and backtracking required.
    Unreasonable,
}

impl SoloLevel {
    /// Every level, easiest first.
    pub const ALL: [SoloLevel; 6] = [
        SoloLevel::Trivial,
        SoloLevel::Basic,
        SoloLevel::Intermediate,
        SoloLevel::Advanced,
        SoloLevel::Extreme,
        SoloLevel::Unreasonable,
    ];

    /// The name Solo prints.
    pub fn name(self) -> &'static str {
        match self {
            SoloLevel::Trivial => "Trivial",
            SoloLevel::Basic => "Basic",
            SoloLevel::Intermediate => "Intermediate",
            SoloLevel::Advanced => "Advanced",
            SoloLevel::Extreme => "Extreme",
            SoloLevel::Unreasonable => "Unreasonable",
        }
    }

    /// Solo's generator suffix (`dt`, `db`, `di`, `da`, `de`, `du`).
    pub fn suffix(self) -> &'static str {
        match self {
            SoloLevel::Trivial => "dt",
            SoloLevel::Basic => "db",
            SoloLevel::Intermediate => "di",
            SoloLevel::Advanced => "da",
            SoloLevel::Extreme => "de",
            SoloLevel::Unreasonable => "du",
        }
    }

    /// The level of one step on Solo's scale.
    pub fn of(step: &Step) -> SoloLevel {
        match step.technique {
            Technique::HiddenSingle | Technique::FullHouse
                if matches!(step.houses.first(), Some(HouseKind::Region(_))) =>
            {
                SoloLevel::Trivial
            }
            Technique::HiddenSingle | Technique::NakedSingle | Technique::FullHouse => {
                SoloLevel::Basic
            }
            Technique::Pointing | Technique::Claiming => SoloLevel::Intermediate,
            Technique::NakedSubset(_) | Technique::HiddenSubset(_) | Technique::LockedSubset(_) => {
                SoloLevel::Advanced
            }
            Technique::Fish(_) | Technique::XyChain => SoloLevel::Extreme,
            // Solo grades Killer deductions on their own scale ([`KillerLevel`]).
            Technique::CageExclusion
            | Technique::CageSingle
            | Technique::CageBounds
            | Technique::CageCombination
            | Technique::InnieOutie => SoloLevel::Trivial,
            _ => SoloLevel::Unreasonable,
        }
    }
}

impl fmt::Display for SoloLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Solo's Killer difficulty levels, graded beside the main level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KillerLevel {
    /// Single square cages only.
    Trivial,
    /// Maximum sum analysis required.
    Simple,
    /// Sum possibilities.
    Intermediate,
    /// Sum region intersections.
    Advanced,
}

impl KillerLevel {
    /// Every level, easiest first.
    pub const ALL: [KillerLevel; 4] = [
        KillerLevel::Trivial,
        KillerLevel::Simple,
        KillerLevel::Intermediate,
        KillerLevel::Advanced,
    ];

    /// The name Solo prints.
    pub fn name(self) -> &'static str {
        match self {
            KillerLevel::Trivial => "Trivial",
            KillerLevel::Simple => "Simple",
            KillerLevel::Intermediate => "Intermediate",
            KillerLevel::Advanced => "Advanced",
        }
    }

    /// The Killer level of one step, for the cage techniques: cage singles Trivial, sum bounds
    /// Simple, combinations Intermediate, the 45 rule Advanced.
    pub fn of(step: &Step) -> Option<KillerLevel> {
        match step.technique {
            Technique::CageSingle => Some(KillerLevel::Trivial),
            Technique::CageBounds => Some(KillerLevel::Simple),
            Technique::CageCombination => Some(KillerLevel::Intermediate),
            Technique::InnieOutie => Some(KillerLevel::Advanced),
            _ => None,
        }
    }
}

impl fmt::Display for KillerLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level on either scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// On Solo's scale.
    Solo(SoloLevel),
    /// On the score scale.
    Score(score::ScoreLevel),
}

impl Level {
    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Solo(l) => l.name(),
            Level::Score(l) => l.name(),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How hard a puzzle is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// The scale graded on.
    pub scale: Scale,
    /// The level.
    pub level: Level,
    /// The sum of the steps' weights ([`score::weight`]).
    pub score: u64,
    /// The hardest technique used (by weight), if any step was needed.
    pub hardest: Option<Technique>,
    /// Steps in the path.
    pub steps: usize,
    /// Guess steps in the path.
    pub guesses: usize,
    /// On Solo's scale, for a Killer puzzle: Solo's Killer level (the hardest cage technique
    /// used before the first guess, as Solo keeps the level of its outermost pass).
    pub killer: Option<KillerLevel>,
}

/// A puzzle's full path: every step from the givens to the solution, and its grade.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its unique solution.
    pub solution: Grid,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The grade of the path.
    pub grade: Grade,
}

/// Why a puzzle cannot be explained or graded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LogicError {
    /// Two givens (or entries) of a house are equal.
    #[error("invalid givens: {0}")]
    Invalid(Conflict),
    /// No solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// More than one solution.
    #[error("the puzzle has several solutions (two of them differ in {0})")]
    Several(String),
    /// The player's pencil marks leave out a cell's solution value.
    #[error("the pencil marks of {cell} leave out its solution value {value}")]
    MarksMissSolution {
        /// The cell.
        cell: Cell,
        /// The missing value's symbol.
        value: char,
    },
    /// A technique produced a deduction the solution contradicts (a bug; never printed as a
    /// step).
    #[error("internal error: a false deduction was found and withheld: {0}")]
    FalseStep(String),
}

/// The unique solution of a puzzle, or why there is none.
pub fn unique_solution(puzzle: &Grid) -> Result<Grid, LogicError> {
    match solve::solve(puzzle) {
        Verdict::Unique(s) => Ok(s),
        Verdict::Multiple(a, b) => Err(LogicError::Several(
            a.differences(&b).iter().take(4).map(|c| c.to_string()).collect::<Vec<_>>().join(", "),
        )),
        Verdict::Unsolvable => Err(LogicError::NoSolution),
        Verdict::Invalid(c) => Err(LogicError::Invalid(c)),
    }
}

/// Checks a step against the solution and the board: it places solution values that are still
/// candidates, or removes live candidates that are not the solution's, and does something.
pub fn check_step(board: &Board, solution: &[u8], step: &Step) -> Result<(), LogicError> {
    let ok = !step.is_empty()
        && (step.place.is_empty() || step.eliminate.is_empty())
        && step.place.iter().all(|&(c, v)| solution[c] == v && board.has(c, v))
        && step.eliminate.iter().all(|&(c, v)| solution[c] != v && board.has(c, v));
    if ok { Ok(()) } else { Err(LogicError::FalseStep(step.text())) }
}

/// Applies a (checked) step.
pub fn apply(board: &mut Board, step: &Step) {
    for &(c, v) in &step.place {
        if board.value(c) == 0 {
            board.place(c, v);
        }
    }
    for &(c, v) in &step.eliminate {
        board.eliminate(c, v);
    }
}

/// The next step on a board: the first finder of `finders` from `start` on that finds something,
/// checked against the solution, with the finder's index. `None` only when the board is solved.
/// With `trace`, the checks each finder tried made are pushed there, in order (the last one
/// found the step).
fn next(
    board: &Board,
    solution: &[u8],
    finders: &[Finder],
    start: usize,
    mut trace: Option<&mut Vec<u64>>,
) -> Result<Option<(Step, usize)>, LogicError> {
    if board.is_solved() {
        return Ok(None);
    }
    let mut cx = Ctx { board, solution, work: 0 };
    for (k, finder) in finders.iter().enumerate().skip(start) {
        let before = cx.work;
        let found = finder(&mut cx);
        if let Some(t) = trace.as_deref_mut() {
            t.push(cx.work - before);
        }
        if let Some(mut step) = found {
            step.eliminate.sort_unstable_by_key(|&(c, v)| (v, c));
            step.eliminate.dedup();
            check_step(board, solution, &step)?;
            return Ok(Some((step, k)));
        }
    }
    Err(LogicError::FalseStep("no technique applies to an unsolved board".into()))
}

/// Killer on Solo's scale: Solo splits cages in a pass of the 45 rule that it makes before its
/// later techniques; when finder `k` of Solo's Killer list found the step, the cages that pass
/// leaves, to carry on the board.
fn solo_cages_after(
    scale: Scale,
    board: &Board,
    finders: &[Finder],
    k: usize,
) -> Option<std::sync::Arc<board::SoloCages>> {
    let solo_killer = scale == Scale::Solo && std::ptr::eq(finders, SOLO_KILLER);
    if solo_killer && k >= killer::SOLO_PASS_AT { killer::solo_pass_cages(board) } else { None }
}

/// Where the search for the step after `step` (found by finder `k`) starts: at the easiest
/// technique, except after Solo's Killer clean-up, which Solo makes on its way to the next
/// Killer technique.
fn restart(scale: Scale, step: &Step, k: usize) -> usize {
    if scale == Scale::Solo && step.technique == Technique::CageExclusion { k + 1 } else { 0 }
}

/// One step of a path with the work spent finding it (see [`score`]).
#[derive(Clone, Debug)]
pub struct Measured {
    /// The step.
    pub step: Step,
    /// Checks made by each finder tried in that position, easiest first; the last one found the
    /// step.
    pub tried: Vec<u64>,
}

impl Measured {
    /// Checks made by the finder that found the step.
    pub fn work(&self) -> u64 {
        self.tried.last().copied().unwrap_or(0)
    }

    /// Checks made by every finder tried in that position.
    pub fn total_work(&self) -> u64 {
        self.tried.iter().sum()
    }
}

/// The whole path of a puzzle on a scale, each step with the work spent finding it.
pub fn explain_measured(
    puzzle: &Grid,
    scale: Scale,
) -> Result<(Explanation, Vec<Measured>), LogicError> {
    explain_with(puzzle, scale.finders_for(puzzle.geometry()), scale)
}

/// The whole path of a puzzle with a technique set of one's own (finders easiest first; end
/// with [`Technique::Guess`]'s finder so that every puzzle gets a full path), graded on
/// `scale`; each step with the work spent finding it.
pub fn explain_with(
    puzzle: &Grid,
    finders: &[Finder],
    scale: Scale,
) -> Result<(Explanation, Vec<Measured>), LogicError> {
    let solution = unique_solution(puzzle)?;
    let mut board = Board::new(puzzle).map_err(LogicError::Invalid)?;
    let mut measured = Vec::new();
    let mut tried = Vec::new();
    let mut start = 0;
    while let Some((step, k)) = next(&board, solution.cells(), finders, start, Some(&mut tried))? {
        let cages = solo_cages_after(scale, &board, finders, k);
        apply(&mut board, &step);
        if let Some(c) = cages {
            board.set_solo_cages(c);
        }
        start = restart(scale, &step, k);
        measured.push(Measured { step, tried: std::mem::take(&mut tried) });
    }
    let steps: Vec<Step> = measured.iter().map(|m| m.step.clone()).collect();
    let grade = grade_path(scale, &steps, puzzle.geometry());
    Ok((Explanation { puzzle: puzzle.clone(), solution, steps, grade }, measured))
}

/// The whole path of a puzzle on a scale.
pub fn explain(puzzle: &Grid, scale: Scale) -> Result<Explanation, LogicError> {
    explain_measured(puzzle, scale).map(|(e, _)| e)
}

/// The grade of a puzzle on a scale.
pub fn grade(puzzle: &Grid, scale: Scale) -> Result<Grade, LogicError> {
    let solution = unique_solution(puzzle)?;
    let mut board = Board::new(puzzle).map_err(LogicError::Invalid)?;
    let mut acc = Accumulator::new(scale, puzzle.side(), puzzle.geometry().is_killer());
    let finders = scale.finders_for(puzzle.geometry());
    let mut start = 0;
    while let Some((step, k)) = next(&board, solution.cells(), finders, start, None)? {
        let cages = solo_cages_after(scale, &board, finders, k);
        apply(&mut board, &step);
        if let Some(c) = cages {
            board.set_solo_cages(c);
        }
        start = restart(scale, &step, k);
        acc.add(&step);
    }
    Ok(acc.finish())
}

/// The easiest next step on a board (a puzzle's or the player's, with pencil marks), on a
/// scale; `None` when the board is solved. Fails when the board has no unique solution or when
/// the pencil marks leave out a solution value.
pub fn hint(board: &Board, scale: Scale) -> Result<Option<Step>, LogicError> {
    let grid = board.to_grid();
    let solution = unique_solution(&grid)?;
    for c in 0..board.layout().cells() {
        let v = solution.cells()[c];
        if board.value(c) == 0 && !board.has(c, v) {
            return Err(LogicError::MarksMissSolution {
                cell: Cell::from_index(c, board.side()),
                value: crate::grid::symbol::to_char(
                    v,
                    board.side(),
                    crate::grid::symbol::Style::Line,
                )
                .unwrap_or('?'),
            });
        }
    }
    // Pencil marks a placed value already rules out go first.
    let mut cx = Ctx { board, solution: solution.cells(), work: 0 };
    if let Some(step) = singles::cleanup(&mut cx) {
        check_step(board, solution.cells(), &step)?;
        return Ok(Some(step));
    }
    Ok(next(board, solution.cells(), scale.finders_for(grid.geometry()), 0, None)?.map(|(s, _)| s))
}

/// The grade of a path of steps (on a grid of `side` without Killer cages).
pub fn grade_steps(scale: Scale, steps: &[Step], side: usize) -> Grade {
    let mut acc = Accumulator::new(scale, side, false);
    for s in steps {
        acc.add(s);
    }
    acc.finish()
}

/// The grade of a path of steps on a geometry (Killer cages give Solo's Killer level too).
pub fn grade_path(scale: Scale, steps: &[Step], geometry: &crate::grid::Geometry) -> Grade {
    let mut acc = Accumulator::new(scale, geometry.side(), geometry.is_killer());
    for s in steps {
        acc.add(s);
    }
    acc.finish()
}

struct Accumulator {
    scale: Scale,
    side: usize,
    solo: SoloLevel,
    score: u64,
    hardest: Option<(u32, Technique)>,
    steps: usize,
    guesses: usize,
    killer: Option<KillerLevel>,
    is_killer: bool,
}

impl Accumulator {
    fn new(scale: Scale, side: usize, killer: bool) -> Accumulator {
        Accumulator {
            scale,
            side,
            solo: SoloLevel::Trivial,
            score: 0,
            hardest: None,
            steps: 0,
            guesses: 0,
            killer: (killer && scale == Scale::Solo).then_some(KillerLevel::Trivial),
            is_killer: killer,
        }
    }

    fn add(&mut self, step: &Step) {
        self.solo = self.solo.max(SoloLevel::of(step));
        if self.guesses == 0
            && let (Some(k), Some(s)) = (self.killer, KillerLevel::of(step))
        {
            self.killer = Some(k.max(s));
        }
        let w = score::weight(step.technique);
        self.score += u64::from(w);
        if self.hardest.is_none_or(|(hw, _)| w > hw) {
            self.hardest = Some((w, step.technique));
        }
        self.steps += 1;
        self.guesses += usize::from(step.technique == Technique::Guess);
    }

    fn finish(self) -> Grade {
        let level = match self.scale {
            Scale::Solo => Level::Solo(self.solo),
            Scale::Score => Level::Score(score::level(
                self.score,
                self.hardest.map_or(0, |(w, _)| w),
                self.side,
                self.is_killer,
            )),
        };
        Grade {
            scale: self.scale,
            level,
            score: self.score,
            hardest: self.hardest.map(|(_, t)| t),
            steps: self.steps,
            guesses: self.guesses,
            killer: self.killer,
        }
    }
}
