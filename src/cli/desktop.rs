//! Arguments of `sudobot desktop`.

use clap::{Args, ValueEnum};

use super::grade::ScaleArg;

/// Arguments of `sudobot desktop`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  sudobot desktop --auto                      find the Solo window, solve it by keyboard, confirm
  sudobot desktop --auto --stats              ... and print the timings
  sudobot desktop --auto --input mouse --origin 48,73 --step 48
  sudobot desktop --auto --show-thinking --step-delay 200   pencil marks, then the engine's steps
  sudobot desktop --show-read --window Solo   read the window by its pixels, type nothing
  sudobot desktop --auto --game gnome-sudoku  GNOME Sudoku, by its pixels: click, digit, read back
  sudobot desktop --auto --game pixels --window 'My Sudoku'   any window showing a 9x9 grid
  sudobot desktop                             interactive: F1 origin, F4 step (twice), F3 walk,
                                              F2 read + solve + type, Esc abort

Killer games (no Game > Copy): every non-given cell is typed, then the game is saved to a
private temporary file and its moves replayed to confirm.

Exit codes: 0 solved and confirmed, 1 failure (also another bot already on the game), 2 bad
input, 3 no solution, 4 several solutions, 129 SIGHUP, 130 aborted (Esc, Ctrl-C), 143 SIGTERM.")]
pub struct DesktopArgs {
    /// Find the game window, read, solve, type and confirm, then exit (no hotkeys).
    #[arg(long)]
    pub auto: bool,

    /// Title of the game window [default: Solo; Sudoku with --game gnome-sudoku].
    #[arg(long, value_name = "TITLE")]
    pub window: Option<String>,

    /// Which game: Solo (read and checked through its menus), or any window read by its
    /// pixels (clicks on the cells, then digit keys; verified by reading the pixels again).
    #[arg(long, value_enum, default_value_t = GameArg::Solo)]
    pub game: GameArg,

    /// How values get into the game.
    #[arg(long, value_enum, default_value_t = InputArg::Keyboard)]
    pub input: InputArg,

    /// Screen point of the centre of the top-left cell (mouse input).
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub origin: Option<(i32, i32)>,

    /// Pixels between cell centres (mouse input; Solo's default tile is 48).
    #[arg(long, value_name = "PX")]
    pub step: Option<f64>,

    /// Show the thinking: pencil in all candidates, then play the technique engine's path in
    /// its order (eliminations remove pencil marks, placements type values), printing each
    /// step's text as `sudobot explain` does. A Guess step, where the scale's techniques run
    /// out, places the solution's value.
    #[arg(long)]
    pub show_thinking: bool,

    /// Pause after each show-thinking step, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub step_delay: u64,

    /// With --show-thinking: the technique set and order, score (sudobot's, the default) or
    /// solo (Simon Tatham's Solo).
    #[arg(long, value_enum, requires = "show_thinking", default_value_t = ScaleArg::Score)]
    pub scale: ScaleArg,

    /// With --show-thinking: stop after placing this many values, leaving the pencil marks.
    #[arg(long, value_name = "N", requires = "show_thinking")]
    pub stop_after: Option<usize>,

    /// Pacing between synthetic key presses, in milliseconds (0 = as fast as the display
    /// accepts them; raise it if a slow remote display drops keys).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub key_delay: u64,

    /// Bound on each wait for the game (menu, dialog, clipboard), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub timeout: u64,

    /// The game's front end, which decides the menu keys (Windows = MobaXterm). Default: the
    /// one the game window shows (X11 WM_CLASS `sgt-solo` or `solo.exe`), else this OS's own.
    #[arg(long, value_enum)]
    pub platform: Option<PlatformArg>,

    /// Interactive mode: take the puzzle from this text (game ID, Copy text or one line)
    /// instead of reading it from the game.
    #[arg(long, value_name = "PUZZLE", conflicts_with = "auto")]
    pub puzzle: Option<String>,

    /// Interactive mode: take the puzzle from the clipboard (paste of Game > Copy or an ID).
    #[arg(long, conflicts_with_all = ["puzzle", "auto"])]
    pub from_clipboard: bool,

    /// Read the game window's pixels instead of its menus, print the board as read (standard
    /// error: where it was found and every cell, `'` after a player's entry) and the puzzle as
    /// one line (standard output), then exit; nothing is typed. Works on any window showing a
    /// sudoku grid (--window TITLE); exit 2 when no board is found or any cell is uncertain.
    #[arg(long, conflicts_with_all = ["auto", "show_thinking"])]
    pub show_read: bool,

    /// Print timings (read, solve, type, verify).
    #[arg(long)]
    pub stats: bool,

    /// When a board read by pixels (--game gnome-sudoku|pixels, F2 on another window) is
    /// refused, keep the window's picture there, annotated with the board found and each cell
    /// as read (uncertain ones in red).
    #[arg(long, value_name = "DIR")]
    pub debug_dir: Option<std::path::PathBuf>,

    /// Log what the bot does on standard error: -v its steps (menus, dialogs, key plans, the
    /// save), -vv everything (each hotkey event too). RUST_LOG (e.g. `sudobot=debug`)
    /// overrides it.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// The games `desktop` plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    /// Simon Tatham's Solo (GTK or Win32, as in MobaXterm): its menus give the board.
    Solo,
    /// Debian's GNOME Sudoku, by its pixels (window title Sudoku).
    GnomeSudoku,
    /// Any window showing a 4x4, 6x6 or 9x9 sudoku, by its pixels (--window TITLE).
    Pixels,
}

impl DesktopArgs {
    /// The game window's title: --window, else the game's own.
    pub fn title(&self) -> &str {
        match (&self.window, self.game) {
            (Some(title), _) => title,
            (None, GameArg::GnomeSudoku) => "Sudoku",
            (None, _) => "Solo",
        }
    }
}

/// Input strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputArg {
    /// Arrow keys from a homed cursor: no calibration, works partly off-screen.
    Keyboard,
    /// Clicks at cell centres (--origin/--step, the window, or the F1/F4 hotkeys).
    Mouse,
}

/// Front ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlatformArg {
    /// Linux GTK build (Copy is the 10th item of the Game menu).
    Gtk,
    /// Win32 build, as in MobaXterm (Alt tapped alone, then G, C; Tab in the Specific...
    /// dialog; CRLF clipboard).
    Windows,
}

fn parse_point(text: &str) -> Result<(i32, i32), String> {
    let (x, y) = text.split_once(',').ok_or_else(|| format!("expected X,Y, got {text:?}"))?;
    let x = x.trim().parse().map_err(|_| format!("{x:?} is not a pixel coordinate"))?;
    let y = y.trim().parse().map_err(|_| format!("{y:?} is not a pixel coordinate"))?;
    Ok((x, y))
}
