//! The score scale: every technique has a weight, a puzzle's score is the sum of its path's
//! weights, and the level comes from the score.
//!
//! The weights are measured, not chosen: a technique's weight is the mean number of elementary
//! checks (candidate patterns examined) that the engine's systematic scan for that technique
//! makes before it finds a step, over every step of that technique in the measuring corpus. It
//! stands for how much searching a person needs to spot the pattern. The levels' upper bounds
//! are fitted to Solo's generator: for puzzles generated at each of Solo's levels, the bound
//! between two of our levels is the score that best separates the two Solo levels. Scores are
//! compared per 81 cells, so a 16x16 grid with the same techniques per cell grades the same.
//! `examples/score_weights.rs` repeats the measurement and prints both tables.

use std::fmt;

use super::step::Technique;

/// The levels of the score scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScoreLevel {
    /// Singles and little else.
    Easy,
    /// Intersections and simple subsets.
    Medium,
    /// Larger subsets, fish, wings.
    Hard,
    /// Chains and uniqueness patterns.
    Unfair,
    /// Forcing chains or guessing.
    Extreme,
}

impl ScoreLevel {
    /// Every level, easiest first.
    pub const ALL: [ScoreLevel; 5] = [
        ScoreLevel::Easy,
        ScoreLevel::Medium,
        ScoreLevel::Hard,
        ScoreLevel::Unfair,
        ScoreLevel::Extreme,
    ];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            ScoreLevel::Easy => "Easy",
            ScoreLevel::Medium => "Medium",
            ScoreLevel::Hard => "Hard",
            ScoreLevel::Unfair => "Unfair",
            ScoreLevel::Extreme => "Extreme",
        }
    }
}

impl fmt::Display for ScoreLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A technique's weight.
pub fn weight(t: Technique) -> u32 {
    match t {
        Technique::FullHouse => 10,
        Technique::NakedSingle => 40,
        Technique::HiddenSingle => 60,
        Technique::Cleanup => 10,
        Technique::Pointing => 200,
        Technique::Claiming => 300,
        Technique::LockedSubset(_) => 400,
        Technique::NakedSubset(n) => 300 + 200 * u32::from(n),
        Technique::HiddenSubset(n) => 400 + 200 * u32::from(n),
        Technique::Fish(n) => 600 + 200 * u32::from(n),
        Technique::FinnedFish(n) | Technique::SashimiFish(n) => 1200 + 300 * u32::from(n),
        Technique::Skyscraper => 1200,
        Technique::TwoStringKite => 1300,
        Technique::EmptyRectangle => 1400,
        Technique::WWing => 1500,
        Technique::XyWing => 1500,
        Technique::XyzWing => 1600,
        Technique::SimpleColours => 1800,
        Technique::XChain => 2500,
        Technique::XyChain => 2500,
        Technique::Aic => 3500,
        Technique::UniqueRectangle(_) => 1500,
        Technique::BugPlusOne => 1500,
        Technique::AlsXz => 4000,
        Technique::ForcingChain => 6000,
        Technique::CellForcingChain => 7000,
        Technique::UnitForcingChain => 7000,
        Technique::Guess => 20000,
    }
}

/// Upper bounds of the levels below Extreme, on the score per 81 cells.
pub const LEVEL_BOUNDS: [(ScoreLevel, u64); 4] = [
    (ScoreLevel::Easy, 3_000),
    (ScoreLevel::Medium, 6_000),
    (ScoreLevel::Hard, 10_000),
    (ScoreLevel::Unfair, 20_000),
];

/// The level of a score on a grid of `side`.
pub fn level(score: u64, side: usize) -> ScoreLevel {
    let cells = (side * side).max(1) as u64;
    let per81 = score * 81 / cells;
    LEVEL_BOUNDS.iter().find(|&&(_, bound)| per81 <= bound).map_or(ScoreLevel::Extreme, |&(l, _)| l)
}
