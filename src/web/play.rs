//! One puzzle on one page: navigate, dismiss overlays, enter frames, wait for the board, read,
//! solve, type, verify, and wait for the page's own confirmation. Every wait is bounded and says
//! what it waited for when it gives up.

use std::time::{Duration, Instant};

use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;

use super::discover::{self, DiscoverError};
use super::fill::{self, Route, Target};
use super::guard::{self, GuardReport, PrepareArgs, Prepared};
use super::read::{self, PageBoard, ReadArgs, ReadError};
use super::site::{
    Given, InputMode, KeyName, Navigate, Order, ReadMode, Site, Strategy, Success, ValueSource,
    failure_text, frame_index,
};
use crate::grid::{Cell, Conflict, Grid};
use crate::logic::{self, Board, Scale, Step};
use crate::solve::{self, Verdict};

/// What to do on the page.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The URL to open.
    pub url: String,
    /// Read and solve only; type nothing.
    pub dry_run: bool,
    /// How long to wait for the board and frames.
    pub element_timeout: Duration,
    /// The browser's page-load timeout (named when a load times out).
    pub page_load_timeout: Duration,
    /// Targets per Send Keys command (0: the whole board in one). A remote driver gets small
    /// chunks, so a cancelled run stops after the command in flight.
    pub chunk: usize,
    /// Read, then give the technique engine's next step on this scale ([`Outcome::hint`]);
    /// type nothing.
    pub hint: Option<Scale>,
    /// Type in the technique engine's order, telling each step as it goes.
    pub thinking: Option<Thinking>,
    /// When to find the board by itself instead of (or after) the site file's selectors.
    pub discover: Discover,
    /// The page's confirmation, named by the user (`--success-text`, `--success-selector`);
    /// replaces the site's, and is used on discovered boards.
    pub success: Option<Success>,
}

/// When board discovery runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Discover {
    /// Never: the site file's board or nothing (`--no-discover`).
    Off,
    /// When the site file's board does not match the page (its selectors match no cells or the
    /// wrong number, a frame is missing): self-healing.
    #[default]
    Fallback,
    /// Always: there is no site file (`sudobot web --url URL`).
    Only,
}

/// How `--show-thinking` plays: the engine's scale, the pause after each placed value, and
/// where each step's text goes (printed by the caller; the library prints nothing).
#[derive(Clone)]
pub struct Thinking {
    /// The technique set and order.
    pub scale: Scale,
    /// The pause after each cell typed (the user's pacing).
    pub step_delay: Duration,
    /// Receives the text of each step, just before the cell it places is typed.
    pub tell: std::sync::Arc<dyn Fn(&str) + Send + Sync>,
}

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinking")
            .field("scale", &self.scale)
            .field("step_delay", &self.step_delay)
            .finish_non_exhaustive()
    }
}

/// The next step for the board on the page, as `--hint` reports it.
#[derive(Clone, Debug)]
pub enum Hint {
    /// Values the player typed that are not the solution's: no technique applies to a board
    /// with a wrong value. The cell and what it holds.
    Mistakes(Vec<(Cell, String)>),
    /// The board is already full and right.
    Solved,
    /// The easiest next step.
    Step(Step),
}

/// Time spent in each phase; `None` for a phase not reached.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Timings {
    /// Navigation, overlays, frames and the ready wait.
    pub navigate: Option<Duration>,
    /// Finding the board on the page (discovered pages and self-healing only).
    pub discover: Option<Duration>,
    /// Reading the board.
    pub read: Option<Duration>,
    /// Solving.
    pub solve: Option<Duration>,
    /// Typing.
    pub fill: Option<Duration>,
    /// Read-back, retries and the page's confirmation.
    pub verify: Option<Duration>,
}

/// A finished puzzle.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The givens.
    pub puzzle: Grid,
    /// The solution.
    pub solution: Grid,
    /// Cells typed.
    pub typed: usize,
    /// Cells that held a wrong user value and were retyped.
    pub corrected: usize,
    /// Cells retyped after dropping a key.
    pub retried: usize,
    /// Times the page showed a different puzzle and it was read and solved again.
    pub resolved: usize,
    /// Whether the cells were clicked because Tab would not reach exactly them.
    pub clicked: bool,
    /// What the page showed to confirm (empty on a dry run, and where no confirmation is
    /// known: see [`Outcome::confirmed`]).
    pub confirmation: String,
    /// Whether the page confirmed the board; `false` where the site names no confirmation
    /// (`success = { read_back = true }`) and success is every cell read back right.
    pub confirmed: bool,
    /// Where the board came from when the site file's board did not match and discovery found
    /// it (the self-healing note, printed on stderr by the caller).
    pub healed: Option<String>,
    /// The next step, with [`PlayOptions::hint`].
    pub hint: Option<Hint>,
    /// Phase times.
    pub timings: Timings,
}

impl Outcome {
    /// A solved board's outcome before typing: the cells planned, nothing retried or confirmed
    /// yet.
    pub(super) fn planned(
        targets: &[Target],
        (puzzle, solution): (Grid, Grid),
        resolved: usize,
        healed: Option<String>,
        timings: Timings,
    ) -> Outcome {
        Outcome {
            typed: targets.len(),
            corrected: targets.iter().filter(|t| t.clear > 0).count(),
            puzzle,
            solution,
            retried: 0,
            resolved,
            clicked: false,
            confirmation: String::new(),
            confirmed: false,
            healed,
            hint: None,
            timings,
        }
    }
}

/// Why a puzzle failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The page did not load.
    #[error("cannot open {url}: {reason}")]
    Navigate {
        /// The URL.
        url: String,
        /// Why, in words (the browser's own error code where it gave one).
        reason: String,
        /// The driver's error, when a command failed (not when the browser showed an error
        /// page).
        #[source]
        source: Option<WebDriverError>,
    },
    /// A frame was not found.
    #[error("frame `{frame}` not found within {waited:?}: {}", short(.source))]
    Frame {
        /// The frame selector.
        frame: String,
        /// How long we waited.
        waited: Duration,
        /// The driver's error.
        #[source]
        source: WebDriverError,
    },
    /// The board never became ready.
    #[error(
        "the board was not ready after {waited:?}: {detail} (need {cells} cells and at least {min_givens} givens)"
    )]
    NotReady {
        /// The cells the board has.
        cells: usize,
        /// The last look found the wrong number of cells (or none), not too few givens.
        mismatch: bool,
        /// How long we waited.
        waited: Duration,
        /// What the last look found.
        detail: String,
        /// The givens needed.
        min_givens: usize,
    },
    /// The board could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// No board was found on the page (discovery).
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    /// The site file's board did not match the page, and discovery found none either.
    #[error("{site_error}; looking for the board on the page instead: {discover}")]
    NotHealed {
        /// Why the site file's board did not match.
        site_error: Box<PlayError>,
        /// Why discovery found nothing.
        discover: DiscoverError,
    },
    /// The givens break a rule; nothing was typed.
    #[error("the board on the page is invalid ({0}); nothing was typed")]
    Invalid(Conflict),
    /// No solution; nothing was typed.
    #[error("the board on the page has no solution; nothing was typed")]
    Unsolvable,
    /// Nothing proves which cells are givens, so every filled cell is fixed, and they break a
    /// rule or leave no solution: the player's mistakes, named where they can be; nothing was
    /// typed.
    #[error(
        "the filled cells on the page are wrong: {detail}{}; {rule}, so every filled cell is \
         fixed and the player's values are never changed; nothing was typed",
        check_cells(.cells)
    )]
    Mistakes {
        /// The cells to check (empty when they cannot be narrowed down).
        cells: Vec<Cell>,
        /// What is wrong, in words.
        detail: String,
        /// Why the givens are not proven, in words (the rule used).
        rule: String,
    },
    /// Several solutions; nothing was typed.
    #[error("the board on the page has several solutions ({givens} givens); nothing was typed")]
    Multiple {
        /// The givens the board has.
        givens: usize,
    },
    /// The page replaced the puzzle after it was read, twice in a row.
    #[error("the page loaded a different puzzle after it was read ({0}); no old answer was typed")]
    BoardChanged(String),
    /// A key or focus left the board; the guard swallowed the rest.
    #[error(
        "keys left the board: {detail}; {blocked} key events were stopped before reaching the page"
    )]
    LeftBoard {
        /// What happened.
        detail: String,
        /// Key events swallowed by the guard.
        blocked: usize,
    },
    /// The page could not be put in normal input mode; nothing was typed.
    #[error("the page could not be put in normal input mode ({0}); nothing was typed")]
    InputMode(String),
    /// A click on a cell did not select it: one key was sent, nothing more.
    #[error("a click does not select a cell on this page ({0}); nothing more was typed")]
    ClickDoesNotSelect(String),
    /// Typing failed.
    #[error("typing the answer failed: {}", short(.0))]
    Typing(#[source] WebDriverError),
    /// A cell still does not hold its digit after one retry.
    #[error("{cell} holds {found:?} after typing {expected} twice (the page drops keys)")]
    Dropped {
        /// The cell.
        cell: Cell,
        /// The digit typed.
        expected: u8,
        /// What the cell holds.
        found: String,
    },
    /// The page opened a dialog (an alert, a confirm or a prompt) that is not its known
    /// confirmation while keys were typed: it was dismissed (Cancel) and the run stopped.
    #[error(
        "the page opened a dialog while {when}: {text:?}; it was dismissed (Cancel: nothing the \
         player would lose is accepted) and the run stopped; {typed} of {total} cells to type \
         hold their value"
    )]
    Dialog {
        /// What was being done.
        when: &'static str,
        /// The dialog's text.
        text: String,
        /// Cells to type that hold their value now.
        typed: usize,
        /// Cells there were to type.
        total: usize,
    },
    /// The page said the solution is wrong (its confirmation, an alert, its title or marker
    /// holds one of [`super::site::FAILURE_TEXTS`]).
    #[error(
        "the page says the solution is not right: {where_} {shown:?} ({word:?} reads as a failure)"
    )]
    Refuted {
        /// Where it said so.
        where_: String,
        /// What it said.
        shown: String,
        /// The failure word found.
        word: &'static str,
    },
    /// The page never showed its success marker.
    #[error("the page did not confirm the solution{}: {detail}", within(*.waited))]
    NotConfirmed {
        /// How long we waited.
        waited: Duration,
        /// What it showed instead.
        detail: String,
    },
    /// The technique engine failed on a board the solver solved (a bug, said as such).
    #[error("the technique engine: {0}; nothing was typed")]
    Logic(String),
    /// A board drawn in an element (a canvas) could not be read from its pixels, or not with
    /// certainty; nothing was typed.
    #[error("the board drawn in `{selector}` cannot be read: {source}{note}; nothing was typed")]
    Pixels {
        /// The element's selector.
        selector: String,
        /// What the pixel reader said.
        #[source]
        source: crate::pixels::PixelError,
        /// More about it (e.g. the board without the uncertain cells is not unique).
        note: String,
    },
    /// After typing on a canvas, the board read back does not show the solution.
    #[error(
        "after typing, the board read back does not show the solution (read back for {:.1} s): \
         {detail}",
        waited.as_secs_f64()
    )]
    NotShown {
        /// How long it was read back for.
        waited: Duration,
        /// The cells that differ and what they show.
        detail: String,
    },
    /// The site needs the player's login and the page shows its login wall; nothing was typed.
    #[error(transparent)]
    Login(#[from] super::login::LoginError),
    /// Another WebDriver failure.
    #[error("{step}: {}{}", selector_of(.selector), short(.source))]
    WebDriver {
        /// What we were doing.
        step: &'static str,
        /// The selector it was looking for, if any.
        selector: Option<String>,
        /// The driver's error.
        #[source]
        source: WebDriverError,
    },
}

fn check_cells(cells: &[Cell]) -> String {
    match cells {
        [] => String::new(),
        [one] => format!("; check {one}"),
        [rest @ .., last] => format!(
            "; check {} and {last}",
            rest.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// " within 1.2 s", or nothing for a verdict that needed no wait (an alert already open).
fn within(waited: Duration) -> String {
    if waited.is_zero() { String::new() } else { format!(" within {:.1} s", waited.as_secs_f64()) }
}

fn selector_of(selector: &Option<String>) -> String {
    selector.as_ref().map(|s| format!("selector `{s}`: ")).unwrap_or_default()
}

impl PlayError {
    /// Whether the board itself was at fault (invalid, unsolvable, several solutions).
    pub fn is_board_problem(&self) -> bool {
        matches!(
            self,
            PlayError::Invalid(_)
                | PlayError::Unsolvable
                | PlayError::Mistakes { .. }
                | PlayError::Multiple { .. }
        )
    }

    /// The WebDriver error it carries, if a command failed.
    pub fn driver_error(&self) -> Option<&WebDriverError> {
        match self {
            PlayError::WebDriver { source, .. }
            | PlayError::Typing(source)
            | PlayError::Frame { source, .. } => Some(source),
            PlayError::Navigate { source, .. } => source.as_ref(),
            PlayError::Discover(d) | PlayError::NotHealed { discover: d, .. } => d.driver_error(),
            _ => None,
        }
    }

    /// Whether the HTTP exchange with the driver failed or timed out (the driver may have just
    /// died, or the browser hangs).
    pub fn is_transport(&self) -> bool {
        self.driver_error().is_some_and(is_transport)
    }

    /// Whether the browser session itself looks lost (the driver, the browser or a Grid node
    /// went away, or stopped answering), as opposed to the page misbehaving.
    pub fn is_session_lost(&self) -> bool {
        self.driver_error().is_some_and(is_session_lost)
    }

    /// A short name for the kind of failure (summaries count failures by it).
    pub fn kind(&self) -> &'static str {
        if self.is_session_lost() {
            return "session lost";
        }
        match self {
            PlayError::Navigate { .. } => "page did not load",
            PlayError::Frame { .. } => "frame not found",
            PlayError::NotReady { .. } => "board not ready",
            PlayError::Read(_) | PlayError::Pixels { .. } => "board unreadable",
            PlayError::NotShown { .. } => "not read back",
            PlayError::Discover(_) | PlayError::NotHealed { .. } => "no board found",
            PlayError::Invalid(_) => "invalid board",
            PlayError::Unsolvable => "no solution",
            PlayError::Mistakes { .. } => "player's mistakes",
            PlayError::Multiple { .. } => "several solutions",
            PlayError::BoardChanged(_) => "board changed",
            PlayError::LeftBoard { .. } => "keys left the board",
            PlayError::Typing(_) => "typing failed",
            PlayError::ClickDoesNotSelect(_) => "click does not select",
            PlayError::InputMode(_) => "input mode",
            PlayError::Dropped { .. } => "dropped keys",
            PlayError::NotConfirmed { .. } => "not confirmed",
            PlayError::Dialog { .. } => "dialog",
            PlayError::Refuted { .. } => "page says wrong",
            PlayError::Logic(_) => "technique engine",
            PlayError::WebDriver { .. } => "webdriver error",
            PlayError::Login(_) => "login required",
        }
    }

    /// Whether the site file's board does not match the page: a frame or the cells are not
    /// there, or not as many as the board has (self-healing looks for the board then).
    pub fn is_board_mismatch(&self) -> bool {
        matches!(self, PlayError::Frame { .. } | PlayError::NotReady { mismatch: true, .. })
    }

    /// Whether the page had loaded when it failed (evidence is worth keeping).
    pub fn after_load(&self) -> bool {
        !matches!(self, PlayError::Navigate { .. })
    }
}

/// A failed lookup named with its selector.
fn wd_selector(step: &'static str, selector: &str, e: WebDriverError) -> PlayError {
    PlayError::WebDriver { step, selector: Some(selector.to_string()), source: e }
}

fn wd(step: &'static str) -> impl Fn(WebDriverError) -> PlayError {
    move |source| PlayError::WebDriver { step, selector: None, source }
}

/// Whether the error is the HTTP exchange with the driver failing: no connection, or no answer
/// within the bound on each command ([`WebDriverErrorInner::Timeout`], given by the session's
/// client; thirtyfour's element waits, which give it too, are not used here).
fn is_transport(e: &WebDriverError) -> bool {
    matches!(
        e.as_inner(),
        WebDriverErrorInner::HttpError(..)
            | WebDriverErrorInner::RequestFailed(..)
            | WebDriverErrorInner::Timeout(..)
    )
}

/// Whether the error says the session is gone, by its kind: the transport, a W3C "invalid
/// session id" or "no such window", thirtyfour's own session errors. A driver's "unknown
/// error" says it only in words (chromedriver's "disconnected" and "not reachable", a Grid's
/// "Unable to find session"), so for those kinds alone the message is read.
pub(super) fn is_session_lost(e: &WebDriverError) -> bool {
    use WebDriverErrorInner as K;
    let message = match e.as_inner() {
        K::HttpError(..)
        | K::RequestFailed(..)
        | K::Timeout(..)
        | K::InvalidSessionId(..)
        | K::NoSuchWindow(..)
        | K::FatalError(..)
        | K::CommandSendError(..)
        | K::CommandRecvError(..) => return true,
        K::UnknownError(info) | K::NotInSpec(info) => &info.value.message,
        K::UnknownResponse(_, body) => body,
        _ => return false,
    };
    [
        "disconnected",
        "not reachable",
        "session deleted",
        "Unable to find session",
        "Unable to execute request",
        "Connection failure",
        // geckodriver, once Firefox is gone.
        "without establishing a connection",
        "Failed to decode response from marionette",
    ]
    .iter()
    .any(|m| message.contains(m))
}

/// The driver's message on one line, without the stack trace chromedriver appends.
pub fn short(e: &WebDriverError) -> String {
    let text = e.to_string();
    let text = text.split("Stacktrace").next().unwrap_or("");
    let mut line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.len() > 300 {
        let cut = (0..=300).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
        line.truncate(cut);
        line.push_str("...");
    }
    line
}

/// Adds the time since `start` to a phase's time.
pub(super) fn timed(slot: &mut Option<Duration>, start: Instant) {
    *slot = Some(slot.unwrap_or_default() + start.elapsed());
}

/// Plays one puzzle. `timings` is filled phase by phase, so a failure still shows the phases
/// it reached.
pub async fn play(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
    timings: &mut Timings,
) -> Result<Outcome, PlayError> {
    if site.board.is_pixels() {
        super::canvas::warm_up();
    }
    let t = Instant::now();
    navigate(driver, site, options).await?;
    super::login::check(driver, site, options.element_timeout).await?;
    timed(&mut timings.navigate, t);
    let (owned, healed) = find_board(driver, site, options, timings).await?;
    let site = owned.as_ref().unwrap_or(site);
    if site.board.is_pixels() {
        return super::canvas::play(driver, site, options, timings, healed).await;
    }

    let mut resolved = 0;
    let mut mode = site.board.read;
    loop {
        let t = Instant::now();
        let board = read_board(driver, site, mode).await?;
        timed(&mut timings.read, t);

        let t = Instant::now();
        let (puzzle, solution) = match solve_board(site, &board) {
            Err(PlayError::Invalid(_) | PlayError::Unsolvable) if site.board.unproven.is_some() => {
                return Err(unproven_mistakes(driver, site, &board).await);
            }
            solved => solved?,
        };
        timed(&mut timings.solve, t);

        let mut targets = fill::plan(&board, solution.cells());
        // With show-thinking, the engine's order and the step texts told before each cell.
        let notes = match &options.thinking {
            Some(thinking) => engine_order(&board, &solution, thinking.scale, &mut targets)?,
            None => Vec::new(),
        };
        let mut outcome =
            Outcome::planned(&targets, (puzzle, solution), resolved, healed.clone(), *timings);
        if let Some(scale) = options.hint {
            outcome.hint = Some(hint_for(&board, &outcome.solution, scale)?);
            return Ok(outcome);
        }
        if options.dry_run {
            return Ok(outcome);
        }

        let t = Instant::now();
        if let Some(mode) = &site.input_mode {
            normal_mode(driver, mode).await?;
        }
        let typed =
            type_guarded(driver, site, options, &board, &targets, &notes, &mut outcome).await;
        timed(&mut timings.fill, t);
        let t = Instant::now();
        let result = match typed {
            Ok(Typed::Done(typed)) => {
                verify(driver, site, typed, &board, &targets, &mut outcome).await
            }
            Ok(Typed::Changed(why)) if resolved == 0 => {
                // Read, solve and type again, once: never an old answer into a new puzzle.
                tracing::info!("{why}: reading the board again");
                resolved += 1;
                mode = ReadMode::Script;
                timed(&mut timings.verify, t);
                continue;
            }
            Ok(Typed::Changed(why)) => Err(PlayError::BoardChanged(why)),
            Err(e) => Err(e),
        };
        timed(&mut timings.verify, t);
        outcome.timings = *timings;
        return result.map(|()| outcome);
    }
}

/// Solves the givens; a board problem is an error that says nothing was typed.
fn solve_board(site: &Site, board: &PageBoard) -> Result<(Grid, Grid), PlayError> {
    // Validation checked the side and box shape; values come from the board's own symbols.
    let geometry = site.geometry().map_err(|e| PlayError::Logic(e.to_string()))?;
    let puzzle = Grid::new(std::sync::Arc::new(geometry), board.puzzle_values()?)
        .map_err(|e| PlayError::Logic(e.to_string()))?;
    match solve::solve(&puzzle) {
        Verdict::Unique(s) => Ok((puzzle, s)),
        Verdict::Invalid(c) => Err(PlayError::Invalid(c)),
        Verdict::Unsolvable => Err(PlayError::Unsolvable),
        Verdict::Multiple(..) => Err(PlayError::Multiple { givens: board.givens() }),
    }
}

/// Where nothing proves the givens and the filled cells (all fixed) break the board: the
/// player's mistakes, named with the help of the discovered hint (read again, by its marker)
/// where it tells them.
async fn unproven_mistakes(driver: &WebDriver, site: &Site, board: &PageBoard) -> PlayError {
    let unproven = site.board.unproven.clone().unwrap_or_default();
    let mut hint = None;
    if let Some(marker) = &unproven.hint {
        let mut hinted = site.clone();
        hinted.board.given_marker = Some(marker.clone());
        hinted.board.unproven = None;
        if let Ok(cells) = read::cells(driver, &ReadArgs::new(&hinted)).await
            && let Ok(again) = read::from_script(&hinted, cells)
            && again.raw == board.raw
        {
            hint = Some(again.given);
        }
    }
    let rule = format!(
        "nothing on the page proves which cells are givens (no `readonly`, `disabled` or \
         `aria-readonly` mark{})",
        if unproven.hint_note.is_empty() {
            String::new()
        } else {
            format!("; {} is only a hint", unproven.hint_note)
        }
    );
    match site.geometry() {
        Ok(g) => unproven_error(board, &std::sync::Arc::new(g), hint.as_deref(), rule),
        Err(e) => PlayError::Logic(e),
    }
}

/// [`PlayError::Mistakes`] for `board`, every filled cell fixed.
pub(super) fn unproven_error(
    board: &PageBoard,
    geometry: &std::sync::Arc<crate::grid::Geometry>,
    hint: Option<&[bool]>,
    rule: String,
) -> PlayError {
    let found = super::mistakes::find(board, geometry, hint);
    PlayError::Mistakes { cells: found.cells, detail: found.detail, rule }
}

/// The grid as the player left it: givens and the values typed so far (anything else blank).
fn board_grid(board: &PageBoard, puzzle: &Grid) -> Grid {
    let cells = (0..board.raw.len()).map(|i| board.digit(i)).collect();
    // The board's symbols on the board's geometry always fit.
    Grid::new(puzzle.geometry_arc().clone(), cells).expect("a board's values fit its grid")
}

/// The `--hint` answer: the values typed so far that are wrong, else the easiest next step.
pub(super) fn hint_for(
    board: &PageBoard,
    solution: &Grid,
    scale: Scale,
) -> Result<Hint, PlayError> {
    let wrong: Vec<(Cell, String)> = (0..board.raw.len())
        .filter(|&i| {
            !board.given[i] && !board.raw[i].is_empty() && board.digit(i) != solution.cells()[i]
        })
        .map(|i| (Cell::from_index(i, board.side), board.raw[i].clone()))
        .collect();
    if !wrong.is_empty() {
        return Ok(Hint::Mistakes(wrong));
    }
    let grid = board_grid(board, solution);
    let start = Board::new(&grid).map_err(|c| PlayError::Logic(c.to_string()))?;
    match logic::hint(&start, scale) {
        Ok(Some(step)) => Ok(Hint::Step(step)),
        Ok(None) => Ok(Hint::Solved),
        Err(e) => Err(PlayError::Logic(e.to_string())),
    }
}

/// Orders `targets` as the technique engine places their values, starting from the board with
/// the player's right values (wrong ones are retyped where the engine places that cell). Returns
/// for each target, in the new order, the texts of the steps told before it is typed: every
/// step since the previous placement, eliminations included.
pub(super) fn engine_order(
    board: &PageBoard,
    solution: &Grid,
    scale: Scale,
    targets: &mut Vec<Target>,
) -> Result<Vec<Vec<String>>, PlayError> {
    let right: Vec<u8> = (0..board.raw.len())
        .map(|i| {
            let d = board.digit(i);
            if d == solution.cells()[i] { d } else { 0 }
        })
        .collect();
    // Right values only: a subset of the solution on the same geometry.
    let grid = Grid::new(solution.geometry_arc().clone(), right).expect("a subset of the solution");
    let path = logic::explain(&grid, scale).map_err(|e| PlayError::Logic(e.to_string()))?;
    let mut order = Vec::with_capacity(targets.len());
    let mut notes = Vec::with_capacity(targets.len());
    let mut pending = Vec::new();
    for step in &path.steps {
        pending.push(step.text());
        for &(cell, _) in &step.place {
            if let Some(t) = targets.iter().find(|t| t.index == cell) {
                order.push(*t);
                notes.push(std::mem::take(&mut pending));
            }
        }
    }
    if order.len() != targets.len() {
        return Err(PlayError::Logic(format!(
            "its path places {} of the {} cells to type",
            order.len(),
            targets.len()
        )));
    }
    *targets = order;
    Ok(notes)
}

/// The result of typing.
enum Typed {
    /// Typed, and the guard saw nothing leave the board.
    Done(TypingDone),
    /// The board was not the one solved (before the first key or while typing).
    Changed(String),
}

/// A typing run that finished, for [`verify`].
struct TypingDone {
    /// The board's cells, as typed into.
    cells: Vec<WebElement>,
    /// Whether the success marker showed success before the first key (then it cannot confirm).
    before: bool,
    /// An alert the page raised while keys were typed.
    alert: Option<String>,
    /// The board as read back right after typing.
    after: PageBoard,
}

/// Re-reads the givens and checks the route and installs the guard (one script), types, then
/// reads the guard's report. Keys reach only board cells.
async fn type_guarded(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
    board: &PageBoard,
    targets: &[Target],
    notes: &[Vec<String>],
    outcome: &mut Outcome,
) -> Result<Typed, PlayError> {
    let (prepared, handle) = prepare(driver, site, board, targets).await?;
    if let Some(missing) = prepared.missing {
        return Ok(Typed::Changed(format!("{missing} board cells are gone")));
    }
    let now = read::from_script(site, prepared.cells)?;
    if let Some(i) = (0..board.raw.len())
        .find(|&i| now.given[i] != board.given[i] || (board.given[i] && now.raw[i] != board.raw[i]))
    {
        return Ok(Typed::Changed(format!(
            "{} was {:?} when read and is {:?} now",
            Cell::from_index(i, board.side),
            board.raw[i],
            now.raw[i]
        )));
    }
    let cells: Vec<WebElement> = prepared
        .elements
        .into_iter()
        .map(|v| WebElement::from_json(v, handle.clone()))
        .collect::<WebDriverResult<_>>()
        .map_err(wd("preparing to type"))?;
    let success = &site.completion.success;
    let before = prepared.marker.is_some_and(|m| success.confirmed_by(&m) && !success.alert);
    let click = site.fill.strategy == Strategy::Click;
    let route = match site.fill.navigate {
        // Show-thinking types in the engine's order, one cell at a time; clicked cells are
        // clicked.
        _ if options.thinking.is_some() || click => Route::Click,
        Navigate::Click => Route::Click,
        Navigate::Tab if prepared.tab.ok => {
            let position: Vec<usize> = prepared
                .tab
                .order
                .iter()
                .map(|&i| targets.iter().position(|t| t.index == i).unwrap_or(0))
                .collect();
            Route::Tab { order: position, steps: prepared.tab.steps }
        }
        Navigate::Tab => {
            tracing::info!(
                "Tab would not reach exactly the cells to type ({}); clicking each cell",
                prepared.tab.reason
            );
            Route::Click
        }
    };
    outcome.clicked = route == Route::Click && site.fill.navigate == Navigate::Tab && !click;
    let started = Instant::now();
    // A clicked board types its first cell alone and reads it back: a page where a click does
    // not select a cell gets one key, not a whole board of them.
    let rest = match targets.split_first() {
        Some((first, rest)) if click && options.thinking.is_none() && !rest.is_empty() => {
            match prove_click(driver, site, &cells, first, targets.len()).await? {
                None => rest,
                Some(why) => {
                    let (guard, now) = finish(driver, site, &mut None).await?;
                    // A dialog the guard answered on the first key is what stopped the value:
                    // it stops the run whatever it was (no cell was finished for it to judge).
                    let dialog = guard.as_ref().and_then(|g| g.dialog.clone());
                    dialog_stop(&dialog, true, &now, targets, "the first cell was typed")?;
                    return Err(match guard.and_then(|g| g.left.map(|l| (l, g.blocked))) {
                        Some((detail, blocked)) => PlayError::LeftBoard { detail, blocked },
                        None => PlayError::ClickDoesNotSelect(why),
                    });
                }
            }
        }
        _ => targets,
    };
    let typing = match &options.thinking {
        Some(th) => {
            fill::type_thinking(
                driver,
                !click,
                &cells,
                targets,
                notes,
                th.step_delay,
                th.tell.as_ref(),
            )
            .await
        }
        None => {
            fill::type_plan(driver, site.fill.strategy, &route, &cells, rest, options.chunk).await
        }
    };
    tracing::debug!(elapsed = ?started.elapsed(), cells = targets.len(), ?route, "typed");
    let mut alert = None;
    if let Err(e) = typing {
        match take_alert(driver, &e).await? {
            Some(text) => alert = Some(text),
            None => return Err(PlayError::Typing(e)),
        }
    }
    let (guard, after) = finish(driver, site, &mut alert).await?;
    let (alert, after) = typing_dialog(driver, site, alert, &guard, after).await?;
    dialog_stop(&alert, asked(&guard, site), &after, targets, "the answer was typed")?;
    let Some(guard) = guard else {
        return Ok(Typed::Changed("the page reloaded or navigated while keys were typed".into()));
    };
    tracing::debug!(?guard, "guard report");
    if let Some(why) = guard.changed {
        return Ok(Typed::Changed(why));
    }
    if let Some(detail) = guard.left {
        return Err(PlayError::LeftBoard { detail, blocked: guard.blocked });
    }
    if !guard.others.is_empty() {
        return Err(PlayError::LeftBoard {
            detail: format!("other controls changed: {}", guard.others.join(", ")),
            blocked: guard.blocked,
        });
    }
    if let Some(i) = (0..board.raw.len()).find(|&i| board.given[i] && after.raw[i] != board.raw[i])
    {
        return Ok(Typed::Changed(format!(
            "given {} changed from {:?} to {:?}",
            Cell::from_index(i, board.side),
            board.raw[i],
            after.raw[i]
        )));
    }
    Ok(Typed::Done(TypingDone { cells, before, alert, after }))
}

/// Puts the page in normal input mode (a key enters a value, not a pencil mark) and checks
/// that it is: `active` matches, before or within a bounded wait after clicking `select`.
async fn normal_mode(driver: &WebDriver, mode: &InputMode) -> Result<(), PlayError> {
    let on = || async {
        driver
            .execute(
                "return document.querySelector(arguments[0]) !== null;",
                vec![mode.active.clone().into()],
            )
            .await
            .and_then(|r| r.convert::<bool>())
            .map_err(|e| wd_selector("checking the input mode", &mode.active, e))
    };
    if on().await? {
        return Ok(());
    }
    let button = driver
        .find(By::Css(&mode.select))
        .await
        .map_err(|e| wd_selector("finding the normal-mode control", &mode.select, e))?;
    button.click().await.map_err(|e| wd_selector("clicking normal mode", &mode.select, e))?;
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    loop {
        tick.tick().await;
        if on().await? {
            return Ok(());
        }
        if start.elapsed() >= CLICK_PROOF {
            return Err(PlayError::InputMode(format!(
                "`{}` does not match after clicking `{}`",
                mode.active, mode.select
            )));
        }
    }
}

/// Clicks the first cell to type and presses its key, then reads that cell: `None` when it
/// shows the value, else what it shows (the click did not select the cell). `total`: the cells
/// there are to type, for the message when a dialog stops the run.
async fn prove_click(
    driver: &WebDriver,
    site: &Site,
    cells: &[WebElement],
    first: &Target,
    total: usize,
) -> Result<Option<String>, PlayError> {
    if let Err(e) = fill::type_with_clicks(driver, cells, std::slice::from_ref(first), false).await
    {
        let Some(text) = take_alert(driver, &e).await? else {
            return Err(PlayError::Typing(e));
        };
        // The key may have landed before the dialog: the count is the page's.
        let now = read::cells(driver, &ReadArgs::new(site)).await.map_err(wd("reading back"))?;
        let now = read::from_script(site, now)?;
        let typed = typed_count(&now, std::slice::from_ref(first));
        return Err(PlayError::Dialog { when: "the first cell was typed", text, typed, total });
    }
    // The page may draw the value on its next frame: wait for it, briefly and bounded.
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(10));
    loop {
        tick.tick().await;
        let now = read::cells(driver, &ReadArgs::new(site)).await.map_err(wd("reading back"))?;
        let board = read::from_script(site, now)?;
        if board.digit(first.index) == first.digit {
            return Ok(None);
        }
        if start.elapsed() >= CLICK_PROOF {
            let cell = Cell::from_index(first.index, board.side);
            return Ok(Some(format!(
                "clicking {cell} and pressing {} left it showing {:?}",
                read::symbol_key(first.digit),
                board.raw[first.index]
            )));
        }
    }
}

/// How long the first clicked cell has to show its value.
const CLICK_PROOF: Duration = Duration::from_millis(1500);

/// Runs [`guard::PREPARE_JS`] for `targets` (re-reads the board, checks the Tab route,
/// installs the guard).
async fn prepare(
    driver: &WebDriver,
    site: &Site,
    board: &PageBoard,
    targets: &[Target],
) -> Result<(Prepared, std::sync::Arc<thirtyfour::session::handle::SessionHandle>), PlayError> {
    let args = PrepareArgs::new(site, board, targets);
    let prepared = guard::prepare(driver, &args).await.map_err(wd("preparing to type"))?;
    Ok((prepared, driver.handle().clone()))
}

/// Runs [`guard::FINISH_JS`]: the guard's report (`None`: the page lost it) and the board as it
/// is now. A dialog in the way is read and dismissed into `alert`.
async fn finish(
    driver: &WebDriver,
    site: &Site,
    alert: &mut Option<String>,
) -> Result<(Option<GuardReport>, PageBoard), PlayError> {
    let args = ReadArgs::new(site);
    // A page may open a few dialogs in a row; each is dismissed and the first one kept.
    let mut dialogs = 0;
    let finished = loop {
        match guard::finish(driver, &args).await {
            Ok(finished) => break finished,
            Err(e) => match take_alert(driver, &e).await? {
                Some(text) if dialogs < 4 => {
                    dialogs += 1;
                    alert.get_or_insert(text);
                }
                _ => return Err(wd("reading back")(e)),
            },
        }
    };
    tracing::debug!(guard = ?finished.guard, "read back");
    Ok((finished.guard, read::from_script(site, finished.cells)?))
}

/// If `e` says a dialog is open (an alert, a confirm or a prompt: the session leaves them open,
/// `unhandledPromptBehavior = "ignore"`), reads its text and dismisses it, and returns the text.
/// A dialog is never accepted: Cancel keeps what a confirm would throw away, and on an alert
/// dismissing is the same as OK.
pub(super) async fn take_alert(
    driver: &WebDriver,
    e: &WebDriverError,
) -> Result<Option<String>, PlayError> {
    if !matches!(e.as_inner(), WebDriverErrorInner::UnexpectedAlertOpen(..)) {
        return Ok(None);
    }
    take_open_dialog(driver).await
}

/// Reads and dismisses the dialog open now, if there is one.
async fn take_open_dialog(driver: &WebDriver) -> Result<Option<String>, PlayError> {
    let text = match driver.get_alert_text().await {
        Ok(text) => text,
        Err(e) if matches!(e.as_inner(), WebDriverErrorInner::NoSuchAlert(..)) => return Ok(None),
        Err(e) => return Err(wd("reading the dialog")(e)),
    };
    match driver.dismiss_alert().await {
        Ok(()) => {}
        // Closed by the page meanwhile.
        Err(e) if matches!(e.as_inner(), WebDriverErrorInner::NoSuchAlert(..)) => {}
        Err(e) => return Err(wd("dismissing the dialog")(e)),
    }
    tracing::debug!("the page opened a dialog (dismissed): {text:?}");
    Ok(Some(text))
}

/// The dialog of a typing run and the board after it: the dialog the driver reported, else the
/// one the guard saw (Firefox runs scripts while a dialog is open, so its commands may report
/// none). One still open is dismissed now, and the board read again once the page's own script
/// went on past it.
async fn typing_dialog(
    driver: &WebDriver,
    site: &Site,
    reported: Option<String>,
    guard: &Option<GuardReport>,
    now: PageBoard,
) -> Result<(Option<String>, PageBoard), PlayError> {
    if reported.is_some() {
        return Ok((reported, now));
    }
    let Some(seen) = guard.as_ref().and_then(|g| g.dialog.clone()) else {
        return Ok((None, now));
    };
    match take_open_dialog(driver).await? {
        Some(text) => {
            let cells =
                read::cells(driver, &ReadArgs::new(site)).await.map_err(wd("reading back"))?;
            Ok((Some(text), read::from_script(site, cells)?))
        }
        None => Ok((Some(seen), now)),
    }
}

/// Whether the dialog the guard answered while keys were typed asked a question (`confirm` or
/// `prompt`) that is not the site's own completion text: never the page's word on a finished
/// board, whatever the board shows after it.
fn asked(guard: &Option<GuardReport>, site: &Site) -> bool {
    let success = &site.completion.success;
    guard.as_ref().is_some_and(|g| {
        matches!(g.dialog_kind.as_deref(), Some("confirm" | "prompt"))
            && !(success.alert && g.dialog.as_deref().is_some_and(|t| success.confirmed_by(t)))
    })
}

/// A dialog that opened while keys were typed stops the run, unless every cell to type holds
/// its value and it was no question (`asked`): an alert that came with the last key is the
/// page's own word on the finished board, which [`confirm`] judges.
fn dialog_stop(
    dialog: &Option<String>,
    asked: bool,
    now: &PageBoard,
    targets: &[Target],
    when: &'static str,
) -> Result<(), PlayError> {
    let Some(text) = dialog else {
        return Ok(());
    };
    let typed = typed_count(now, targets);
    if typed == targets.len() && !asked {
        return Ok(());
    }
    Err(PlayError::Dialog { when, text: text.clone(), typed, total: targets.len() })
}

/// How many of `targets` the board shows holding their value.
fn typed_count(now: &PageBoard, targets: &[Target]) -> usize {
    targets.iter().filter(|t| now.digit(t.index) == t.digit).count()
}

/// Read-back, one retry for dropped keys, then the page's own confirmation.
async fn verify(
    driver: &WebDriver,
    site: &Site,
    typed: TypingDone,
    board: &PageBoard,
    targets: &[Target],
    outcome: &mut Outcome,
) -> Result<(), PlayError> {
    let TypingDone { cells, before, mut alert, after } = typed;
    outcome.retried =
        read_back(driver, site, &cells, targets, outcome.solution.cells(), after, &mut alert)
            .await?;
    let key_cell = site.completion.key.map(|_| {
        // Pressed in the last editable cell, as a person would after typing the last digit.
        let last = board
            .dom_order
            .iter()
            .rev()
            .find(|&&i| !board.given[i])
            .copied()
            .unwrap_or(board.raw.len() - 1);
        &cells[last]
    });
    outcome.confirmation = confirm(driver, site, key_cell, before, alert).await?;
    outcome.confirmed = !site.completion.success.read_back;
    Ok(())
}

/// The board to play: the site's, found by discovery (no site file), or found by discovery
/// after the site's did not match (self-healing, with the note that says so). Enters the
/// board's frames and waits until it is ready. Returns the site to use when it is not `site`.
async fn find_board(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
    timings: &mut Timings,
) -> Result<(Option<Site>, Option<String>), PlayError> {
    let with_success = |mut found: Site| {
        if let Some(success) = &options.success {
            found.completion.success = success.clone();
        }
        found
    };
    if options.discover == Discover::Only {
        let t = Instant::now();
        let found = discover::discover(driver, &options.url, options.element_timeout).await;
        timed(&mut timings.discover, t);
        let found = found?;
        tracing::debug!("discovery chose {}", found.why);
        for other in &found.others {
            tracing::debug!("discovery passed over {other}");
        }
        let found = with_success(found.site);
        let t = Instant::now();
        enter_board(driver, &found, options).await?;
        timed(&mut timings.navigate, t);
        return Ok((Some(found), None));
    }
    let t = Instant::now();
    let entered = enter_board(driver, site, options).await;
    timed(&mut timings.navigate, t);
    let failed = match entered {
        Ok(()) => return Ok((None, None)),
        Err(e) if options.discover == Discover::Fallback && e.is_board_mismatch() => e,
        Err(e) => return Err(e),
    };
    let t = Instant::now();
    driver.enter_default_frame().await.map_err(wd("leaving the frames"))?;
    // A page still drawing its board gets what is left of the wait.
    let left = options.element_timeout.saturating_sub(timings.navigate.unwrap_or_default());
    let found = discover::discover(driver, &options.url, left).await;
    timed(&mut timings.discover, t);
    let found = match found {
        Ok(found) => found,
        Err(discover) => {
            return Err(PlayError::NotHealed { site_error: Box::new(failed), discover });
        }
    };
    let healed = site.healed_by(&found.site);
    let note = format!(
        "site `{}`: {failed}. Found on the page instead: {}. These site-file lines would fix \
         it:\n{}",
        site.name,
        found.why,
        healed.board_toml()
    );
    tracing::warn!("{note}");
    let t = Instant::now();
    enter_board(driver, &healed, options).await?;
    timed(&mut timings.navigate, t);
    Ok((Some(healed), Some(note)))
}

/// Navigation, overlays and cookies.
async fn navigate(driver: &WebDriver, site: &Site, options: &PlayOptions) -> Result<(), PlayError> {
    let nav = |e: WebDriverError| {
        if matches!(e.as_inner(), WebDriverErrorInner::WebDriverTimeout(..)) {
            return PlayError::Navigate {
                url: options.url.clone(),
                reason: format!(
                    "the page did not finish loading: timed out after {:?} \
                     (`browser.page_load_timeout_ms`)",
                    options.page_load_timeout
                ),
                source: Some(e),
            };
        }
        let full = short(&e);
        // The browser's own code (net::ERR_CONNECTION_REFUSED, ...) says it best.
        let reason = super::browser::error_code(&full)
            .map(|code| format!("the browser says {code}"))
            .unwrap_or(full);
        PlayError::Navigate { url: options.url.clone(), reason, source: Some(e) }
    };
    // No "leave frames" command first: Navigate To works on the top-level context and leaves
    // the session there, and on a fresh browser that command would wait out the first page's
    // load under its own name instead of the navigation's.
    let t = Instant::now();
    driver.goto(&options.url).await.map_err(nav)?;
    tracing::debug!(elapsed = ?t.elapsed(), url = %options.url, "page loaded");
    // Chromium shows its own error page instead of failing the command when the server refuses.
    let refused: Option<String> = driver
        .execute(
            "return document.documentElement && document.documentElement.innerHTML.includes('neterror') \
             ? (document.querySelector('.error-code') || {}).textContent || 'the browser shows an error page' : null",
            vec![],
        )
        .await
        .ok()
        .and_then(|r| r.convert().ok())
        .flatten();
    if let Some(reason) = refused {
        return Err(PlayError::Navigate {
            url: options.url.clone(),
            reason: reason.trim().to_string(),
            source: None,
        });
    }
    if site.consent.clear_cookies {
        driver.delete_all_cookies().await.map_err(wd("clearing cookies"))?;
        driver.refresh().await.map_err(nav)?;
    }
    dismiss(driver, site).await;
    Ok(())
}

/// Clicks each of the site's `consent.dismiss` selectors that is present (best effort: a banner
/// that is not there is fine).
pub(super) async fn dismiss(driver: &WebDriver, site: &Site) {
    for selector in &site.consent.dismiss {
        let _ = driver
            .execute(
                "const e = document.querySelector(arguments[0]); if (e) { e.click(); } return !!e;",
                vec![selector.clone().into()],
            )
            .await;
    }
}

/// Enters the board's frames and waits (bounded) until the board is ready.
async fn enter_board(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
) -> Result<(), PlayError> {
    for frame in &site.frames {
        // A page opened at the frame's own URL already holds the board: enter frames only
        // while the board is not in the current document.
        if board_here(driver, site).await {
            tracing::debug!("the board is in this document; not entering frame `{frame}`");
            break;
        }
        enter_frame(driver, frame, options.element_timeout).await?;
    }
    if site.board.is_pixels() {
        // The board's own wait (its pixels) is `canvas::play`'s; here the element must exist.
        let heal = options.discover == Discover::Fallback;
        return wait_element(driver, site, options.element_timeout, heal).await;
    }
    wait_ready(driver, site, options.element_timeout, options.discover == Discover::Fallback).await
}

/// Waits (bounded) until the board's one element (a canvas) is in the document. With
/// self-healing on, an element still missing after [`MISMATCH_SETTLE`] goes to discovery.
async fn wait_element(
    driver: &WebDriver,
    site: &Site,
    bound: Duration,
    heal: bool,
) -> Result<(), PlayError> {
    let bound = site.board.ready_timeout_ms.map(Duration::from_millis).unwrap_or(bound);
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(25));
    loop {
        tick.tick().await;
        if board_here(driver, site).await {
            return Ok(());
        }
        if start.elapsed() >= bound || (heal && start.elapsed() >= MISMATCH_SETTLE) {
            return Err(PlayError::NotReady {
                cells: site.cell_count(),
                mismatch: true,
                waited: start.elapsed(),
                detail: format!("`{}` matches no element", site.board.cells),
                min_givens: site.min_givens(),
            });
        }
    }
}

/// Whether the current document has at least one board cell.
async fn board_here(driver: &WebDriver, site: &Site) -> bool {
    driver
        .execute(
            "return document.querySelector(arguments[0]) !== null;",
            vec![site.board.cells.clone().into()],
        )
        .await
        .ok()
        .and_then(|r| r.convert::<bool>().ok())
        .unwrap_or(false)
}

async fn enter_frame(driver: &WebDriver, frame: &str, bound: Duration) -> Result<(), PlayError> {
    let fail = |source: WebDriverError| PlayError::Frame {
        frame: frame.to_string(),
        waited: bound,
        source,
    };
    match frame_index(frame) {
        Some(n) => {
            let start = Instant::now();
            let mut tick = tokio::time::interval(Duration::from_millis(50));
            loop {
                tick.tick().await;
                match driver.enter_frame(n).await {
                    Ok(()) => return Ok(()),
                    Err(e) if start.elapsed() > bound => return Err(fail(e)),
                    Err(_) => {}
                }
            }
        }
        None => {
            let el = driver
                .query(By::Css(frame))
                .desc("frame")
                .wait(bound, Duration::from_millis(50))
                .first()
                .await
                .map_err(fail)?;
            el.enter_frame().await.map_err(fail)
        }
    }
}

/// Waits until the cells are there and enough givens hold digits, or until a board with fewer
/// givens has stayed the same for [`SETTLE`] (it is read and refused as having several
/// solutions, not called "not ready"). A driver that stops answering ends the wait at once.
async fn wait_ready(
    driver: &WebDriver,
    site: &Site,
    default_bound: Duration,
    heal: bool,
) -> Result<(), PlayError> {
    let bound = site.board.ready_timeout_ms.map(Duration::from_millis).unwrap_or(default_bound);
    let min_givens = site.min_givens();
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(25));
    let mut stable: Option<(Vec<String>, Instant)> = None;
    // The same wrong cell count since when: with self-healing on, a page that keeps showing
    // it for MISMATCH_SETTLE goes to discovery without waiting out the whole bound.
    let mut mismatch: Option<(String, Instant)> = None;
    loop {
        tick.tick().await;
        let (detail, wrong) = match read::cells(driver, &ReadArgs::new(site)).await {
            Ok(cells) => match read::from_script(site, cells) {
                Ok(board) if board.givens() >= min_givens => return Ok(()),
                Ok(board) => {
                    let givens = board.givens();
                    if givens > 0 {
                        match &stable {
                            Some((raw, since)) if *raw == board.raw => {
                                if since.elapsed() >= SETTLE {
                                    return Ok(());
                                }
                            }
                            _ => stable = Some((board.raw.clone(), Instant::now())),
                        }
                    }
                    (format!("{} cells but only {givens} givens", board.raw.len()), false)
                }
                Err(e @ (ReadError::CellCount { .. } | ReadError::NotAGrid { .. })) => {
                    (e.to_string(), true)
                }
                Err(e) => (e.to_string(), false),
            },
            // A lost session ends the wait at once.
            Err(e) if is_session_lost(&e) => return Err(wd("waiting for the board")(e)),
            Err(e) => (short(&e), false),
        };
        let settled = match (&mismatch, wrong) {
            (Some((last, since)), true) if *last == detail => since.elapsed() >= MISMATCH_SETTLE,
            (_, true) => {
                mismatch = Some((detail.clone(), Instant::now()));
                false
            }
            (_, false) => {
                mismatch = None;
                false
            }
        };
        if start.elapsed() >= bound || (heal && settled) {
            return Err(PlayError::NotReady {
                cells: site.cell_count(),
                mismatch: wrong,
                waited: start.elapsed(),
                detail,
                min_givens,
            });
        }
    }
}

/// How long the wrong number of cells must stay the same before self-healing looks for the
/// board (pages that draw the board late show 0 cells first, then all of them).
const MISMATCH_SETTLE: Duration = Duration::from_millis(2000);

/// How long a board with fewer givens than `min_givens` must stay unchanged to be read.
const SETTLE: Duration = Duration::from_millis(1000);

/// Reads the board in one command.
async fn read_board(
    driver: &WebDriver,
    site: &Site,
    mode: ReadMode,
) -> Result<PageBoard, PlayError> {
    // Positions, computed styles and text drawn over SVG cells are only in the live page.
    let scripted = site.board.order == Order::Position
        || matches!(site.board.given(), Given::Style(_))
        || site.board.value == ValueSource::Overlay;
    Ok(match mode {
        ReadMode::Source if !scripted => {
            let html = driver.source().await.map_err(wd("reading the page source"))?;
            let board = read::parse_source(&html, site)?;
            if board.givens() >= site.min_givens() {
                board
            } else {
                // Values a script set (the `value` property) are not in the markup: the ready
                // wait saw them live, so read them live.
                tracing::debug!(
                    "the page source shows {} givens; reading the live values instead",
                    board.givens()
                );
                read::from_script(
                    site,
                    read::cells(driver, &ReadArgs::new(site))
                        .await
                        .map_err(wd("reading the board"))?,
                )?
            }
        }
        // Boards read from pixels are played by `canvas::play`, never read here.
        ReadMode::Source | ReadMode::Script | ReadMode::Pixels => read::from_script(
            site,
            read::cells(driver, &ReadArgs::new(site)).await.map_err(wd("reading the board"))?,
        )?,
    })
}

/// Reads every cell back (live values), retypes cells that dropped a key once, and returns how
/// many were retyped.
async fn read_back(
    driver: &WebDriver,
    site: &Site,
    cells: &[WebElement],
    targets: &[Target],
    solution: &[u8],
    now: PageBoard,
    alert: &mut Option<String>,
) -> Result<usize, PlayError> {
    let wrong: Vec<Target> = targets
        .iter()
        .filter(|t| now.digit(t.index) != t.digit)
        .map(|t| Target { clear: now.raw[t.index].chars().count(), ..*t })
        .collect();
    if wrong.is_empty() {
        return check_full(&now, solution).map(|()| 0);
    }
    tracing::debug!(cells = wrong.len(), "retyping cells that dropped a key");
    // The retry is guarded as the first run was.
    let (prepared, _) = prepare(driver, site, &now, &wrong).await?;
    if prepared.missing.is_some() {
        return Err(PlayError::BoardChanged("board cells are gone".into()));
    }
    let field = site.fill.strategy != Strategy::Click;
    let typing = fill::type_with_clicks(driver, cells, &wrong, field).await;
    let mut dialog = None;
    if let Err(e) = typing {
        match take_alert(driver, &e).await? {
            Some(text) => dialog = Some(text),
            None => return Err(PlayError::Typing(e)),
        }
    }
    let (guard, again) = finish(driver, site, &mut dialog).await?;
    let (dialog, again) = typing_dialog(driver, site, dialog, &guard, again).await?;
    let question = asked(&guard, site);
    dialog_stop(&dialog, question, &again, &wrong, "cells that dropped a key were retyped")?;
    if let Some(text) = dialog {
        alert.get_or_insert(text);
    }
    let guard = guard.ok_or_else(|| {
        PlayError::BoardChanged("the page reloaded or navigated while keys were typed".into())
    })?;
    if let Some(why) = guard.changed {
        return Err(PlayError::BoardChanged(why));
    }
    if let Some(detail) = guard.left {
        return Err(PlayError::LeftBoard { detail, blocked: guard.blocked });
    }
    if let Some(t) = wrong.iter().find(|t| again.digit(t.index) != t.digit) {
        return Err(PlayError::Dropped {
            cell: Cell::from_index(t.index, again.side),
            expected: t.digit,
            found: again.raw[t.index].clone(),
        });
    }
    check_full(&again, solution).map(|()| wrong.len())
}

fn check_full(now: &PageBoard, solution: &[u8]) -> Result<(), PlayError> {
    match (0..now.raw.len()).find(|&i| now.digit(i) != solution[i]) {
        None => Ok(()),
        Some(i) => Err(PlayError::Dropped {
            cell: Cell::from_index(i, now.side),
            expected: solution[i],
            found: now.raw[i].clone(),
        }),
    }
}

/// Triggers the site's check if it has one and waits for its success marker. `alert` is a
/// dialog that opened with the last key typed (already dismissed): a failure when it says the
/// solution is wrong, the confirmation when the site confirms by an alert with its text, and
/// otherwise only information (the site's own rule still decides, and a failure names it).
/// A dialog that opens while waiting is dismissed and judged the same way.
pub(super) async fn confirm(
    driver: &WebDriver,
    site: &Site,
    key_cell: Option<&WebElement>,
    before: bool,
    alert: Option<String>,
) -> Result<String, PlayError> {
    let completion = &site.completion;
    let success = &completion.success;
    let refuted = |where_: &str, shown: &str| {
        failure_text(shown).map(|word| PlayError::Refuted {
            where_: where_.to_string(),
            shown: shown.trim().to_string(),
            word,
        })
    };
    if let Some(text) = &alert {
        if let Some(e) = refuted("an alert said", text) {
            return Err(e);
        }
        if success.alert && success.confirmed_by(text) {
            return Ok(format!("alert: {text}"));
        }
        tracing::info!("an alert said {text:?} when the last value was typed (dismissed)");
    }
    // What an alert that was not the confirmation said, for the failure message.
    let mut seen_alert = alert;
    let alert_note = |seen: &Option<String>| {
        seen.as_ref().map(|t| format!("; an alert said {t:?} (dismissed)")).unwrap_or_default()
    };
    if before {
        let what =
            success.selector.as_deref().map(|s| format!("`{s}`")).unwrap_or("the title".into());
        return Err(PlayError::NotConfirmed {
            waited: Duration::ZERO,
            detail: format!(
                "{what} already showed {:?} before anything was typed, so it proves nothing",
                success.text
            ),
        });
    }
    if let Some(flag) = &completion.bot_flag {
        // The site asks bots to say so: set its field before submitting.
        let set: bool = driver
            .execute(
                "const e = document.querySelector(arguments[0]); if (!e) return false; \
                 e.value = arguments[1]; return true;",
                vec![flag.selector.clone().into(), flag.value.clone().into()],
            )
            .await
            .and_then(|r| r.convert())
            .map_err(|e| wd_selector("setting the bot flag", &flag.selector, e))?;
        if !set {
            tracing::warn!("the bot flag `{}` is not on the page", flag.selector);
        }
    }
    if let Some(submit) = &completion.submit {
        let button = driver
            .find(By::Css(submit))
            .await
            .map_err(|e| wd_selector("finding the submit button", submit, e))?;
        button.click().await.map_err(wd("clicking the submit button"))?;
    }
    if let (Some(key), Some(cell)) = (completion.key, key_cell) {
        let k = match key {
            KeyName::Enter => Key::Enter,
            KeyName::Tab => Key::Tab,
        };
        let pressed = driver
            .action_chain_with_delay(None, Some(Duration::ZERO))
            .click_element(cell)
            .send_keys(k)
            .perform()
            .await;
        match pressed {
            // The key opened the page's dialog: the wait below takes it.
            Err(e) if matches!(e.as_inner(), WebDriverErrorInner::UnexpectedAlertOpen(..)) => {}
            pressed => pressed.map_err(wd("pressing the completion key"))?,
        }
    }
    if success.read_back {
        // Every cell was read back right; the page's own verdict is not known.
        return Ok(String::new());
    }
    let bound = Duration::from_millis(completion.timeout_ms);
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    // Whether the last command found a dialog open.
    let mut dialog_open = false;
    let is_dialog =
        |e: &WebDriverError| matches!(e.as_inner(), WebDriverErrorInner::UnexpectedAlertOpen(..));
    loop {
        tick.tick().await;
        // A dialog open now: dismissed, and judged by its text.
        let dialog = if success.alert || std::mem::take(&mut dialog_open) {
            take_open_dialog(driver).await?
        } else {
            None
        };
        if let Some(text) = dialog {
            if let Some(e) = refuted("an alert said", &text) {
                return Err(e);
            }
            if success.alert {
                if success.confirmed_by(&text) {
                    return Ok(format!("alert: {text}"));
                }
                return Err(PlayError::NotConfirmed {
                    waited: start.elapsed(),
                    detail: format!(
                        "an alert said {text:?} (dismissed), expected one saying {:?}",
                        success.text
                    ),
                });
            }
            tracing::info!("an alert said {text:?} while waiting for the confirmation (dismissed)");
            seen_alert = Some(text);
        }
        let seen: Option<String> = if success.alert {
            None
        } else if success.title {
            match driver.title().await {
                Err(e) if is_dialog(&e) && start.elapsed() < bound => {
                    dialog_open = true;
                    continue;
                }
                title => Some(title.map_err(wd("reading the title"))?),
            }
        } else {
            let selector = success.selector.clone().unwrap_or_default();
            let read = driver
                .execute(
                    "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                    vec![selector.into()],
                )
                .await;
            match read {
                // A dialog is open: the next turn takes it.
                Err(e) if is_dialog(&e) && start.elapsed() < bound => {
                    dialog_open = true;
                    continue;
                }
                read => read
                    .map_err(wd("reading the success marker"))?
                    .convert()
                    .map_err(wd("reading the success marker"))?,
            }
        };
        if let Some(text) = &seen
            && success.confirmed_by(text)
        {
            return Ok(text.trim().to_string());
        }
        if start.elapsed() >= bound {
            let sel = success.selector.as_deref().unwrap_or("");
            let where_ =
                if success.title { "the title is".to_string() } else { format!("`{sel}` shows") };
            if let Some(e) = seen.as_deref().and_then(|t| refuted(&where_, t)) {
                return Err(e);
            }
            let what = if success.alert {
                format!("no alert saying {:?} appeared", success.text)
            } else if success.title {
                format!("the title is {seen:?}, expected it to contain {:?}", success.text)
            } else {
                match seen {
                    None => format!("`{sel}` is not on the page"),
                    Some(t) => format!("`{sel}` shows {:?}, expected {:?}", t.trim(), success.text),
                }
            };
            return Err(PlayError::NotConfirmed {
                waited: bound,
                detail: format!("{what}{}", alert_note(&seen_alert)),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page board from a one-line puzzle plus the player's values (`.` for none).
    fn page(puzzle: &str, player: &str) -> PageBoard {
        let raw = puzzle
            .bytes()
            .zip(player.bytes())
            .map(|(g, p)| match (g, p) {
                (b'.', b'.') => String::new(),
                (b'.', p) => (p as char).to_string(),
                (g, _) => (g as char).to_string(),
            })
            .collect();
        PageBoard {
            side: 9,
            raw,
            given: puzzle.bytes().map(|g| g != b'.').collect(),
            dom_order: (0..81).collect(),
        }
    }

    // top1465 #1: needs more than singles.
    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn engine_order_types_every_cell_once_in_path_order_and_tells_every_step() {
        let site = crate::web::site::find("demo", None).unwrap().site;
        let (puzzle, solution) = solve_board(&site, &page(HARD, &".".repeat(81))).unwrap();
        let s = solution.cells();
        // One right value (r1c2) and one wrong value (r1c3) typed by the player.
        let mut player = vec![b'.'; 81];
        player[1] = b'0' + s[1];
        player[2] = b'0' + (s[2] % 9 + 1);
        let board = page(HARD, std::str::from_utf8(&player).unwrap());
        let mut targets = fill::plan(&board, s);
        let before = targets.len();
        let notes = engine_order(&board, &solution, Scale::Score, &mut targets).unwrap();
        assert_eq!(targets.len(), before);
        assert_eq!(notes.len(), targets.len());
        assert!(targets.iter().all(|t| t.digit == s[t.index]));
        assert!(!targets.iter().any(|t| t.index == 1), "a right value is not retyped");
        assert!(targets.iter().any(|t| t.index == 2 && t.clear == 1), "a wrong value is retyped");
        // The texts told are the path from the board with the right values, in order; the
        // path needs more than singles, so some texts are eliminations told with a placement.
        let mut right = puzzle.cells().to_vec();
        right[1] = s[1];
        let start = Grid::new(puzzle.geometry_arc().clone(), right).unwrap();
        let path = logic::explain(&start, Scale::Score).unwrap();
        let told: Vec<String> = notes.iter().flatten().cloned().collect();
        let texts: Vec<String> = path.steps.iter().map(|s| s.text()).collect();
        assert!(texts.starts_with(&told), "told steps are a prefix of the path");
        assert!(notes.iter().any(|n| n.len() > 1), "eliminations are told too");
        let placed: Vec<usize> =
            path.steps.iter().flat_map(|s| s.place.iter().map(|&(c, _)| c)).collect();
        let order: Vec<usize> = targets.iter().map(|t| t.index).collect();
        assert_eq!(order, placed.into_iter().filter(|c| order.contains(c)).collect::<Vec<_>>());
    }
}
