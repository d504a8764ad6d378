//! Arguments of `sudobot grade`, and the puzzle-reading and scale options it shares with
//! `explain` and `hint`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::solve::{BoxShape, DEFAULT_MAX_TIME, InputFormat, MaxTime, parse_box, parse_max_time};

const AFTER_HELP: &str = "\
Examples:
  sudobot grade '3x3:b5d8_2a6c3_9_7e1g4_2a5b2g7b4a6_8g5e7_6_9c1a3_4d6b'     # Unfair 28929
  sudobot grade --scale solo '3x3:b5d8_2a6c3_9_7e1g4_2a5b2g7b4a6_8g5e7_6_9c1a3_4d6b'   # Extreme
  sudobot grade --file puzzles.txt --stats       # one line per puzzle, in input order
  sgt-solo --generate 10 3x3de | sudobot grade --scale solo -

Output: one line per puzzle, in input order, the level first: on the solo scale the level
(Trivial, Basic, Intermediate, Advanced, Extreme, Unreasonable); on the score scale the level
(Easy, Medium, Hard, Unfair, Extreme) and the score. A puzzle that cannot be graded gets
'# line N: why' (bad input, no solution, several solutions).

Scales:
  solo   Simon Tatham's Solo exactly: the level is the hardest of Solo's techniques the
         path needs, each step taken by the easiest technique that applies.
  score  sudobot's own: every technique weighs what finding it takes (measured), the score
         sums the path's steps, and the level follows the score per 81 cells.

Exit codes: 0 all graded, 2 bad input, 3 a puzzle has no solution, 4 several solutions,
5 gave up (the solver went past --max-time, 30 s unless given; in a batch that line says so
and the rest are graded); a batch exits with its worst outcome.";

/// Which technique set and grading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScaleArg {
    /// Simon Tatham's Solo, exactly (Trivial ... Unreasonable).
    Solo,
    /// sudobot's measured score (Easy ... Extreme).
    Score,
}

/// How to read puzzles (shared by grade, explain and hint).
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The input format, instead of detecting it.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<InputFormat>,

    /// Box shape of one-line puzzles, WIDTHxHEIGHT (cells per box row x box rows).
    #[arg(long = "box", value_name = "WxH", value_parser = parse_box)]
    pub box_shape: Option<BoxShape>,

    /// X sudoku: both main diagonals must also hold every value once.
    #[arg(short = 'x', long)]
    pub diagonals: bool,

    /// Give up on a puzzle when finding its solution takes longer than SECONDS (exit code 5),
    /// or `off` for no limit.
    #[arg(long, value_name = "SECONDS", value_parser = parse_max_time, default_value = DEFAULT_MAX_TIME)]
    pub max_time: MaxTime,
}

/// Arguments of `sudobot grade`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct GradeArgs {
    /// Puzzles (one line, Solo grid text or Solo game ID), or `-` for standard input. Without
    /// any and without --file, standard input is read when it is not a terminal.
    #[arg(value_name = "PUZZLE", conflicts_with = "file")]
    pub puzzles: Vec<String>,

    /// Read the puzzles from a file, one a line (or one Solo grid text).
    #[arg(short, long, value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// The grading scale.
    #[arg(long, value_enum, default_value_t = ScaleArg::Score)]
    pub scale: ScaleArg,

    #[command(flatten)]
    pub read: ReadArgs,

    /// Print timing to standard error: grades per second, total time, the slowest puzzle.
    #[arg(long)]
    pub stats: bool,

    /// Threads for a batch [default: one per core].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}
