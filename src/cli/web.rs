//! Arguments of `sudobot web` and `sudobot sites`.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use sudobot::web::variant::VariantSpec;

use super::grade::ScaleArg;
use super::hint::Reveal;

/// Arguments of `sudobot web`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  sudobot web --site demo                        # offline practice page served by sudobot itself
  sudobot web --url https://example.org/sudoku   # any page: the board is found by itself
  sudobot web --site demo --difficulty hard --count 5 --stats
  sudobot web --site sudoku.name --difficulty 4
  sudobot web --site sudokupuzzle.org --dry-run  # read and solve, type nothing
  sudobot web --site sudoku.name --url http://127.0.0.1:8000/sudoku_name.html
  sudobot web --site demo --browser firefox --headless # Firefox through geckodriver
  sudobot web --site demo --remote http://grid:4444   # a Selenium Grid / remote WebDriver
  sudobot web --site linkedin --attach 9222      # your Chromium (--remote-debugging-port=9222)
  sudobot web --site linkedin --profile ~/.config/sudobot-profile   # a profile you logged in with
  sudobot web --site demo --count 20 --report runs.jsonl -v   # one JSON line per puzzle, logs
  sudobot web --site sudoku.name --hint --reveal cells   # where to look next; types nothing
  sudobot web --site demo --show-thinking --step-delay 300   # type in solving order, tell why
  sudobot web --site demo --count 12 --parallel 2      # two browsers at once, local drivers
  sudobot web --site sudoku.name --count 50 --parallel --remote http://grid:4444  # Grid's free slots
  RUST_LOG=thirtyfour=debug sudobot web --site sudoku.name    # every WebDriver command

Keys go only into the board: the Tab walk is checked in the page before the first key (else each
cell is clicked), and a guard stops any key that would leave the board. Ctrl-C, SIGTERM and SIGHUP
stop the browser at once (no key after the signal) and delete the run's files; a second Ctrl-C
exits immediately. When a puzzle fails after the page loaded, a screenshot and the page source are
kept in a directory named in the message (--debug-dir, --no-debug-files).

Exit codes: 0 solved and confirmed by the page, 1 failure (browser, driver, page, verification;
with --count: any puzzle failed), 2 bad configuration or arguments, 3 the board has no solution
or breaks a rule, 4 the board has several solutions, 130 SIGINT (Ctrl-C), 143 SIGTERM, 129
SIGHUP.")]
pub struct WebArgs {
    /// The site to play (see `sudobot sites list`). Default: `demo`, or with --url alone, no
    /// site: the board is found on the page by itself.
    #[arg(long)]
    pub site: Option<String>,
    /// Difficulty: a level name or value of the site (default: the site's default).
    #[arg(long, short)]
    pub difficulty: Option<String>,
    /// With --site: the variant to play (`killer`, `jigsaw`, `x`, `classic`; default: the site
    /// file's, else whatever the page marks). The board must show it, or nothing is typed; a
    /// site URL parameter named after it (sudoku.name's `{killer}`) is set to 1.
    #[arg(long, value_name = "NAME", value_parser = VariantSpec::NAMES)]
    pub variant: Option<String>,
    /// Open this URL. With --site, instead of the site's own (mirrors, local copies, tests;
    /// the site's selectors still apply). Without --site, any page: sudobot finds the board
    /// itself (inputs, clickable cells of any element, sides 4 to 16, in any frame).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The page's own sign of success, on a page found by itself: text it shows once the board
    /// is solved (in --success-selector's element, else in the title).
    #[arg(long, value_name = "TEXT")]
    pub success_text: Option<String>,
    /// The element whose text shows success (with --success-text; alone: any text in it).
    #[arg(long, value_name = "CSS")]
    pub success_selector: Option<String>,
    /// Never look for the board by itself: when the site file's board does not match the
    /// page, fail instead of finding it (self-healing is on by default).
    #[arg(long)]
    pub no_discover: bool,
    /// Read and solve, print the board and the answer, type nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the technique engine's next step for the board on the page, values typed so far
    /// included (as `sudobot hint`); type nothing. A wrong value typed earlier is named first.
    #[arg(long, conflicts_with_all = ["dry_run", "show_thinking", "parallel"])]
    pub hint: bool,
    /// With --hint: how much to show: technique (which one to look for), cells (and where),
    /// step (the whole step).
    #[arg(long, value_enum, value_name = "HOW", requires = "hint", default_value_t = Reveal::Technique)]
    pub reveal: Reveal,
    /// Type the values in the order a person could find them, printing each step of the
    /// technique engine (eliminations too) before the cell it leads to; one cell at a time.
    #[arg(long, conflicts_with_all = ["dry_run", "parallel"])]
    pub show_thinking: bool,
    /// With --show-thinking: pause after each cell, in milliseconds.
    #[arg(long, value_name = "MS", requires = "show_thinking", default_value_t = 0)]
    pub step_delay: u64,
    /// The technique set for --hint and --show-thinking: score (sudobot's, the default) or solo
    /// (Simon Tatham's Solo).
    #[arg(long, value_enum, default_value_t = ScaleArg::Score)]
    pub scale: ScaleArg,
    /// Print the time of each phase (session start, navigation, read, solve, fill, verify); with
    /// --count, medians.
    #[arg(long)]
    pub stats: bool,
    /// Play this many puzzles (in a row in one browser session; over several with --parallel).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub count: u32,
    /// Play the puzzles over K browser sessions at once: K local drivers on free ports, or K
    /// sessions on the --remote Grid. `--parallel` alone: half the cores, at most one per 400 MB
    /// of free memory, locally; the Grid's free slots remotely. A puzzle that fails for anything
    /// but its board (crash, timeout, Grid node lost) is retried once on a fresh session.
    #[arg(long, value_name = "K", num_args = 0..=1, default_missing_value = "auto",
          value_parser = parse_parallel)]
    pub parallel: Option<Parallel>,
    /// With --remote and --parallel K: start K sessions even when the Grid has fewer free slots
    /// (the others wait in the Grid's queue).
    #[arg(long, requires = "parallel")]
    pub oversubscribe: bool,
    /// How to type, overriding the site file's `[fill] strategy` (default: the file's, else
    /// keys).
    #[arg(long, value_name = "HOW")]
    pub strategy: Option<StrategyArg>,
    /// WebDriver settings file (default: the built-in webdriver.toml).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// A directory of extra site files; a file replaces the built-in site of the same name.
    #[arg(long, value_name = "DIR")]
    pub sites_dir: Option<PathBuf>,
    /// The browser: chromium (through chromedriver) or firefox (through geckodriver); overrides
    /// `browser.kind` (default: chromium). With --remote, the capabilities asked of the Grid.
    #[arg(long, value_enum, value_name = "BROWSER")]
    pub browser: Option<BrowserArg>,
    /// Show the browser window.
    #[arg(long, conflicts_with = "headless")]
    pub headed: bool,
    /// Hide the browser window (the default when there is no display).
    #[arg(long)]
    pub headless: bool,
    /// The driver binary to spawn (overrides `driver.driver_binary`).
    #[arg(long, value_name = "PATH", conflicts_with = "remote")]
    pub driver: Option<PathBuf>,
    /// Play in a browser you already run, in a tab of sudobot's own that is closed at the end
    /// (nothing else of the browser is touched): Chromium or Chrome started with
    /// `--remote-debugging-port=PORT`, or Firefox started with `-marionette` (port 2828). PORT,
    /// HOST:PORT or http://HOST:PORT; overrides `browser.attach`.
    #[arg(long, value_name = "URL-OR-PORT", conflicts_with_all = ["remote", "parallel", "profile", "browser_binary"])]
    pub attach: Option<String>,
    /// With --attach: play in a new tab (closed at the end) or the current one (left open).
    #[arg(long, value_enum, value_name = "TAB", requires = "attach")]
    pub tab: Option<TabArg>,
    /// A persistent profile for the browser sudobot starts (Chromium's --user-data-dir,
    /// Firefox's -profile), so a login made once is used again; refused while a running
    /// browser holds it. Overrides `browser.profile`.
    #[arg(long, value_name = "DIR", conflicts_with = "remote")]
    pub profile: Option<PathBuf>,
    /// Connect to a running WebDriver server or Selenium Grid instead of spawning a driver.
    #[arg(long, value_name = "URL")]
    pub remote: Option<String>,
    /// The browser binary (overrides `browser.binary`).
    #[arg(long, value_name = "PATH")]
    pub browser_binary: Option<PathBuf>,
    /// Append one JSON object per puzzle to FILE (phases, outcome, reason).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Where to keep the screenshot and page source of a failed puzzle (default: a
    /// `sudobot-debug-*` directory in the system temporary directory).
    #[arg(long, value_name = "DIR", conflicts_with = "no_debug_files")]
    pub debug_dir: Option<PathBuf>,
    /// Keep no screenshot or page source when a puzzle fails.
    #[arg(long)]
    pub no_debug_files: bool,
    /// Log what the bot does: -v each WebDriver command with its duration, -vv everything.
    /// RUST_LOG (e.g. `sudobot=debug,thirtyfour=debug`) overrides it.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// `--browser`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BrowserArg {
    /// Chromium or Chrome, through chromedriver.
    #[value(alias = "chrome")]
    Chromium,
    /// Firefox, through geckodriver.
    Firefox,
}

/// `--strategy`: the site file's `[fill] strategy` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// One Element Send Keys of the whole board (digits and Tabs).
    Keys,
    /// One WebDriver Actions chain of key events.
    Actions,
    /// Click each cell, then send its key (two commands a cell).
    PerCell,
    /// Set values by script with input/keyup/change events (only for sites that accept them).
    Script,
    /// Click each cell's centre, then its key (cells that are not inputs).
    Click,
}

/// `--tab`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TabArg {
    /// A tab of sudobot's own, closed at the end.
    New,
    /// The tab the browser shows now (most recently used); left open.
    Current,
}

/// `--parallel [K]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// Chosen from the cores and memory, or the Grid's free slots.
    Auto,
    /// K sessions.
    Sessions(usize),
}

fn parse_parallel(s: &str) -> Result<Parallel, String> {
    if s == "auto" {
        return Ok(Parallel::Auto);
    }
    match s.parse::<usize>() {
        Ok(k) if (1..=64).contains(&k) => Ok(Parallel::Sessions(k)),
        _ => Err(format!("`{s}` is not a number of sessions from 1 to 64 (or `auto`)")),
    }
}

/// Arguments of `sudobot sites`.
#[derive(Debug, Args)]
pub struct SitesArgs {
    /// What to do with the site files.
    #[command(subcommand)]
    pub action: SitesAction,
    /// A directory of extra site files (as for `sudobot web --sites-dir`).
    #[arg(long, value_name = "DIR", global = true)]
    pub sites_dir: Option<PathBuf>,
}

/// `sudobot sites` subcommands.
#[derive(Debug, Subcommand)]
pub enum SitesAction {
    /// List the sites, their difficulty levels and where each file comes from.
    List,
    /// Validate every site file (selectors parse, placeholders known); errors name file and key.
    /// With --url: open the page in the browser and show what each selector of --site matches.
    Check(CheckArgs),
    /// Open a page, find its board by itself, and write a site file for it (frames, cells,
    /// order, values, givens, typing), so `--site NAME` plays it from then on.
    Learn(LearnArgs),
}

/// Arguments of `sudobot sites learn`.
#[derive(Debug, Args)]
#[command(after_help = "\
The file is written to --output, else to DIR/NAME.toml with --sites-dir, else to standard output.
It says success only by reading the board back: add the page's own sign (`[completion]`
`success`) where you know it. Check it with `sudobot sites check --sites-dir DIR`.

Examples:
  sudobot sites learn --url https://example.org/sudoku
  sudobot sites learn --url https://example.org/sudoku --name example --sites-dir ~/.sudobot
  sudobot web --site example --sites-dir ~/.sudobot")]
pub struct LearnArgs {
    /// The page to learn.
    #[arg(long, value_name = "URL")]
    pub url: String,
    /// The site's name (default: the URL's host).
    #[arg(long)]
    pub name: Option<String>,
    /// Write the file here.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// WebDriver settings file (default: the built-in webdriver.toml).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Hide the browser window (the default when there is no display).
    #[arg(long)]
    pub headless: bool,
    /// The browser: chromium or firefox (overrides `browser.kind`).
    #[arg(long, value_enum, value_name = "BROWSER")]
    pub browser: Option<BrowserArg>,
}

/// Arguments of `sudobot sites check`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  sudobot sites check
  sudobot sites check --site sudokupuzzle.org --url 'https://cn.sudokupuzzle.org/online2.php?nd=4'")]
pub struct CheckArgs {
    /// Open this page and report what the selectors of --site match there.
    #[arg(long, value_name = "URL", requires = "site")]
    pub url: Option<String>,
    /// The site whose selectors to try (with --url).
    #[arg(long)]
    pub site: Option<String>,
    /// WebDriver settings file (default: the built-in webdriver.toml).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// The browser: chromium or firefox (overrides `browser.kind`).
    #[arg(long, value_enum, value_name = "BROWSER")]
    pub browser: Option<BrowserArg>,
}
