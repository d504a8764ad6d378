//! Arguments of `sudobot solve`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

macro_rules! examples {
    () => {
        "\
Examples:
  sudobot solve 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
  sudobot solve --file puzzles.txt > solutions.txt      # batch on all cores, one line each
  sudobot solve --file puzzles.txt --stats -o line      # with puzzles per second and the slowest
  sudobot solve --count=100 PUZZLE                      # how many solutions (up to 100)
  sudobot solve --check PUZZLE && echo unique           # exit 0 only for a unique solution
  sudobot solve '3x3:a8a3d7c9b3_6_5a1c7g1b5a8a5a2a1a4a7b6g6c7a1_9_2b8c7d4a9a'   # Solo game ID
  xclip -o -selection clipboard | sudobot solve -       # Solo's Game > Copy text
  sudobot solve '3x3k:zzzc,<cage walls>,<sums>'          # a Solo Killer game ID
  sudobot solve --file killer.txt                       # cage text: grid line + '23: r1c1 r1c2'
  sudobot solve --box 2x3 PUZZLE                        # 6x6 with boxes 2 wide, 3 tall
  sudobot solve --image screenshot.png --show-read      # read the board from pixels"
    };
}

const AFTER_HELP: &str = concat!(
    examples!(),
    "

Run `sudobot solve --help` for formats, output and exit codes."
);

const AFTER_LONG_HELP: &str = concat!(
    examples!(),
    "
  sudobot solve -x PUZZLE                               # X sudoku: the diagonals count too

Input formats (detected; --format forces one):
  line       N*N symbols in reading order: '.' or '0' blank, 1-9 then A-Z (any case) for
             10 and up (on 36x36 '0' is 36, so only '.' is blank). One puzzle a line; blank
             lines and '#' comment lines are skipped; CRLF is fine. Sides 4, 6, 8, 9, 10, 12,
             ..., 36; the box shape is as square as possible, wider than tall (6 = 3x2,
             12 = 4x3); --box overrides it.
  solo-text  Solo's Game > Copy text: rows like '. 8 . | 3 . .', rules like '------+------',
             '_' for a blank on an X diagonal, jigsaw walls. One puzzle per input.
  solo-id    A Solo game ID: 3x3:..., 2x3:..., 3x3x:... (X), 9j:...,walls (jigsaw), Killer
             with cage walls and sums: 3x3k:..., 2x3k:..., 3x3xk:..., 9jk:.... One a line.
  cages      Killer sudoku by hand: the grid line (as 'line'; all dots when there are no
             givens), then one cage a line, its sum, a colon and its cells:
               .................................................................................
               23: r1c1 r1c2 r2c1
               7: r1c3 r1c4
             Every cell in exactly one cage. Settings before the grid line: 'box: 2x3' (as
             --box), 'regions: 1112...' (jigsaw: a region label per cell), 'diagonals: yes'.
             The grid line may be left out for one puzzle with no givens. Each puzzle starts
             at its grid line, so a file may hold several.
  pretty     A drawn grid: sudobot's pretty output (Unicode or --ascii) or a similar ASCII
             drawing with an outer border ('+-------+', '| 4 . . | . . . |', '|4..|...|').
             Cells are the symbols; the regions are what the walls enclose (boxes or a
             jigsaw). Several grids separated by blank lines make a batch.

Output (--output):
  pretty     the grid with its boxes or jigsaw regions drawn (--ascii for plain characters);
             Killer cages are outlined with their sums on their top-left edges (cage walls
             light, region walls heavy, dashed inside a cage; ASCII: | = for both, : - for
             cages, ! ~ for regions inside a cage)
  line       the one-line form, for scripts (values only: a Killer grid's cages are not in it)
  id         a Solo game ID (with the cages for Killer)
  cages      cage text: the grid line, then the cages one a line (Killer)
  Default: pretty for a single puzzle when standard output is a terminal, line otherwise.

  One puzzle: the solution. With several solutions, the first two found are printed and
  the message names the cells where they differ. No solution or an error: a message on
  standard error, nothing on standard output.

  A batch (more than one puzzle: a file or several lines): every puzzle is solved in
  parallel on all cores (--jobs to limit) and gets exactly one output line in input order:
  its solution, or '# line N: <why>' (no solution, several solutions, or the input error
  with its column). The output therefore lines up with the input and reads back as input.
  The batch never stops at a bad puzzle; a summary of the unsolved ones goes to standard
  error. A progress bar is shown on standard error when it is a terminal.

  --count prints the number of solutions ('at least N' when the limit was reached);
  --check prints 'unique', 'no solution' or 'several solutions'. In a batch each puzzle
  gets one such line.

Exit codes:
  0  solved: exactly one solution (also for --check and --count)
  1  a runtime failure (e.g. standard output cannot be written)
  2  bad input: missing or unreadable file, empty input, wrong length, a bad character
     (line and column named), two equal givens in a house (both cells and the house named),
     a bad cage (the cage and the cell named)
  3  no solution
  4  several solutions
  5  gave up: the search went past --max-time (30 s unless given; in a batch, that puzzle's
     line says so and the batch goes on)
  A batch exits with its worst outcome, in the order 2, 5, 3, 4, 0."
);

/// Arguments of `sudobot solve`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP, after_long_help = AFTER_LONG_HELP)]
pub struct SolveArgs {
    /// The puzzle (one line, Solo grid text, a Solo game ID or cage text; several lines make a batch), or
    /// `-` for standard input. Without it and without --file, standard input is read when it
    /// is not a terminal.
    #[arg(value_name = "PUZZLE", conflicts_with = "file")]
    pub puzzle: Option<String>,

    /// Read the puzzles from a file: one-line puzzles or game IDs one a line, or one Solo
    /// grid text.
    #[arg(short, long, value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Read the puzzle from a picture of the board: a PNG or JPEG file (a screenshot), or `-`
    /// for standard input. Boards of 4x4, 6x6 and 9x9 cells; pencil marks count as empty.
    /// A board with a cell the reader is unsure of is refused with the cells named (exit 2),
    /// unless the rest of the board has exactly one solution without them. Killer cages
    /// (dashed outlines, corner sums), jigsaw regions (thick lines between cells off the box
    /// lines) and X diagonals (shaded, or crossed by lines) are read from the picture; -x
    /// makes the diagonals count where the picture does not mark them.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "puzzle", "format", "box_shape"])]
    pub image: Option<PathBuf>,

    /// With --image: print the board as read to standard error before solving (`.` empty,
    /// `,` pencil marks, `'` after an entry, `?` after an uncertain cell).
    #[arg(long, requires = "image")]
    pub show_read: bool,

    /// With --image: write the picture to OUT.png with what was read drawn over it: the board
    /// outlined in blue, each digit read on a tag in its cell's corner (blue a given, green an
    /// entry, red an uncertain cell, outlined in red). Written also when the read is refused
    /// (the whole picture framed in red when no board was found). A photo's board is drawn on
    /// the picture straightened.
    #[arg(long, value_name = "OUT.png", requires = "image")]
    pub annotate: Option<PathBuf>,

    /// The input format, instead of detecting it.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<InputFormat>,

    /// Box shape of one-line puzzles and cage text, WIDTHxHEIGHT (cells per box row x box rows),
    /// instead of the usual one for the side: `--box 2x3` reads a 6x6 grid with boxes 2 wide,
    /// 3 tall.
    #[arg(long = "box", value_name = "WxH", value_parser = parse_box)]
    pub box_shape: Option<BoxShape>,

    /// X sudoku: both main diagonals must also hold every value once.
    #[arg(short = 'x', long)]
    pub diagonals: bool,

    /// Output format [default: pretty for one puzzle on a terminal, else line].
    #[arg(short, long, value_enum, value_name = "FORMAT")]
    pub output: Option<OutputFormat>,

    /// Draw pretty output with ASCII `+-|` instead of Unicode box drawing.
    #[arg(long)]
    pub ascii: bool,

    /// Colour the filled-in values in pretty output (auto: on a terminal, unless NO_COLOR is
    /// set).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColourChoice::Auto)]
    pub color: ColourChoice,

    /// Count the solutions instead of printing one, stopping at LIMIT (default 1000, at
    /// least 2; write `--count=LIMIT`).
    #[arg(
        long,
        value_name = "LIMIT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "1000",
        value_parser = clap::value_parser!(u64).range(2..),
        conflicts_with_all = ["check", "output"]
    )]
    pub count: Option<u64>,

    /// Only check: print a short verdict and exit 0 only for a unique solution.
    #[arg(long, conflicts_with = "output")]
    pub check: bool,

    /// Print timing to standard error: puzzles per second, total time, the slowest puzzle.
    #[arg(long)]
    pub stats: bool,

    /// Threads for a batch [default: one per core].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Give up on a puzzle whose search runs longer than SECONDS (exit code 5; in a batch, per
    /// puzzle), or `off` for no limit. The plain 9x9 solver (milliseconds at worst) does not
    /// check it.
    #[arg(long, value_name = "SECONDS", value_parser = parse_max_time, default_value = DEFAULT_MAX_TIME)]
    pub max_time: MaxTime,
}

/// The default of `--max-time` (solve, grade, explain, hint), in seconds: above the slowest
/// answer measured (a 30x30 board of `benches/hostile.txt`: 12 s on a quiet machine, 18 s
/// under load), and an end to the boards the solver cannot answer.
pub const DEFAULT_MAX_TIME: &str = "30";

/// A `--max-time`: a limit, or none (`off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxTime(pub Option<Duration>);

impl MaxTime {
    /// What a message about a search that went past it says: the limit and how to change it.
    pub fn note(&self) -> String {
        let default = parse_max_time(DEFAULT_MAX_TIME).ok() == Some(*self);
        let limit = match self.0 {
            Some(d) => format!("--max-time {}", d.as_secs_f64()),
            None => "--max-time off".to_string(),
        };
        let default = if default { " (the default)" } else { "" };
        format!(
            "the time limit was {limit}{default}; give it longer with --max-time SECONDS, or no \
             limit with --max-time off"
        )
    }
}

/// `--max-time`: a positive number of seconds (fractions allowed), or `off`.
pub(crate) fn parse_max_time(text: &str) -> Result<MaxTime, String> {
    if text.trim().eq_ignore_ascii_case("off") {
        return Ok(MaxTime(None));
    }
    let bad = || format!("'{text}' is not a number of seconds above 0 (e.g. 2 or 0.5) or 'off'");
    let seconds: f64 = text.trim().parse().map_err(|_| bad())?;
    if seconds > 0.0 {
        Duration::try_from_secs_f64(seconds).map(|d| MaxTime(Some(d))).map_err(|_| bad())
    } else {
        Err(bad())
    }
}

/// Input formats as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// One line of N*N symbols.
    Line,
    /// Solo's Game > Copy text.
    SoloText,
    /// A Solo game ID.
    SoloId,
    /// A drawn grid (pretty output, or ASCII like `| 4 . . | . . . |`).
    Pretty,
    /// Cage text: the grid line, then one Killer cage a line (`23: r1c1 r1c2`).
    Cages,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Boxes or jigsaw regions drawn.
    Pretty,
    /// One line of N*N symbols.
    Line,
    /// A Solo game ID.
    Id,
    /// Cage text: the grid line, then one Killer cage a line.
    Cages,
}

/// When to colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// A box shape from `--box`: the library's, which site files' `board.boxes` use too.
pub use sudobot::grid::BoxShape;

pub(crate) fn parse_box(text: &str) -> Result<BoxShape, String> {
    text.parse().map_err(|_| format!("'{text}' is not a box shape; write WIDTHxHEIGHT, e.g. 3x2"))
}
