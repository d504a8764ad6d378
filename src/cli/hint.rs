//! Arguments of `sudobot hint`.

use clap::{Args, ValueEnum};

use super::explain::StyleArgs;
use super::grade::ReadArgs;

const AFTER_HELP: &str = "\
Examples:
  sudobot hint 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
  sudobot hint --reveal cells PUZZLE              # where to look
  sudobot hint --reveal step PUZZLE               # the whole step
  xclip -o -selection clipboard | sudobot hint -  # the board as Solo's Game > Copy gives it
  sudobot hint --marks marks.txt PUZZLE           # fit the hint to your pencil marks
  sudobot hint marks.txt                          # a candidate grid alone (HoDoKu/SudokuWiki)

The board is the puzzle with the values entered so far (Solo's Copy text includes them). With
pencil marks (--marks, or a candidate grid as the board) the hint is the easiest step on what
you see: marks that a placed value already rules out come first, and marks that leave out a
cell's solution value are reported as a mistake.

Candidate grids: N*N tokens, one a cell (its candidates like 1679, a placed value, or '.'
for no marks), separated by spaces and '|', rule lines skipped; or one line of N*N*N
characters (value k at position k of its cell, else '.').

Reveal:
  technique  which technique to look for (the default)
  cells      the technique and the cells and houses of the pattern
  step       the whole step: pattern and what it places or removes

Exit codes: 0 a hint (or the board is solved), 2 bad input, 3 no solution (an entry is
wrong), 4 several solutions, 5 gave up (the solver went past --max-time,
30 s unless given).";

/// How much of the hint to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Reveal {
    /// Only the technique.
    Technique,
    /// The technique and where to look.
    Cells,
    /// The whole step.
    Step,
}

/// Arguments of `sudobot hint`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct HintArgs {
    /// The board (one line, Solo grid text, Solo game ID, or a candidate grid), a file holding
    /// it, or `-` for standard input. Without it, standard input is read when it is not a
    /// terminal.
    #[arg(value_name = "BOARD")]
    pub board: Option<String>,

    /// The player's pencil marks: a candidate grid, as text, a file, or `-` for standard input.
    #[arg(long, value_name = "MARKS")]
    pub marks: Option<String>,

    /// How much to show.
    #[arg(long, value_enum, default_value_t = Reveal::Technique)]
    pub reveal: Reveal,

    #[command(flatten)]
    pub style: StyleArgs,

    #[command(flatten)]
    pub read: ReadArgs,
}
