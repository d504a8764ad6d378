//! Arguments of `sudobot explain`.

use clap::{Args, ValueEnum};

use super::grade::{ReadArgs, ScaleArg};

const AFTER_HELP: &str = "\
Examples:
  sudobot explain 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
  sudobot explain --scale solo '3x3:b5d8_2a6c3_9_7e1g4_2a5b2g7b4a6_8g5e7_6_9c1a3_4d6b'
  sudobot explain -o json PUZZLE | jq '.steps[].text'
  xclip -o -selection clipboard | sudobot explain -      # Solo's Game > Copy text

Output (text): one step a line in the usual notation, then '# LEVEL, score N (scale S, K
steps)'. Rows and columns are 1-based; values are the symbols of the one-line format:
  Hidden Single: r3c4=5
  Naked Pair: 1,2 in r1c23 => r1c4<>1, r1c7<>2
  X-Wing: 4 in r2,r7 c3,c8 => r5c3<>4
Each step places values or removes candidates (<>); a placed value also leaves its row, column
and region (and diagonal), which is not listed. The path ends with the grid solved; when no
technique of the scale applies, a Guess step places the solution's value in the cell with the
fewest candidates.

Output (-o json): {\"givens\": \"...\", \"steps\": [{\"technique\", \"text\", \"place\": [{\"cell\",
\"value\"}], \"eliminate\": [...]}], \"grade\": {\"scale\", \"level\", \"score\"}}; jigsaw, X and
unusual box shapes add \"id\", the Solo game ID.

Exit codes: 0 explained, 2 bad input, 3 no solution, 4 several solutions, 5 gave up (the
solver went past --max-time, 30 s unless given).";

/// Output forms of `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainOutput {
    /// One step a line, then the grade.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `sudobot explain`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct ExplainArgs {
    /// The puzzle (one line, Solo grid text or Solo game ID), or `-` for standard input.
    /// Without it, standard input is read when it is not a terminal.
    #[arg(value_name = "PUZZLE")]
    pub puzzle: Option<String>,

    #[command(flatten)]
    pub style: StyleArgs,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// The technique set and the output form (shared with `hint`).
#[derive(Debug, Args)]
pub struct StyleArgs {
    /// Which techniques are allowed, and how the path is graded.
    #[arg(long, value_enum, default_value_t = ScaleArg::Score)]
    pub scale: ScaleArg,

    /// Output form (json: for `hint`, the step as in `explain -o json`, whatever --reveal says).
    #[arg(short, long, value_enum, default_value_t = ExplainOutput::Text)]
    pub output: ExplainOutput,
}
