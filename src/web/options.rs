//! What to do on the page ([`PlayOptions`], its [`Mode`] built once by the binary) and what a
//! finished puzzle gives back ([`Outcome`], [`Timings`]).

use std::time::{Duration, Instant};

use super::fill::Target;
use super::site::Success;
use crate::grid::{Cell, Grid};
use crate::logic::{Scale, Step};

/// What to do on the page.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The URL to open.
    pub url: String,
    /// What to do with the board once it is read and solved.
    pub mode: Mode,
    /// How long to wait for the board and frames.
    pub element_timeout: Duration,
    /// The browser's page-load timeout (named when a load times out).
    pub page_load_timeout: Duration,
    /// Targets per Send Keys command (0: the whole board in one). A remote driver gets small
    /// chunks, so a cancelled run stops after the command in flight.
    pub chunk: usize,
    /// When to find the board by itself instead of (or after) the site file's selectors.
    pub discover: Discover,
    /// The page's confirmation, named by the user (`--success-text`, `--success-selector`);
    /// replaces the site's, and is used on discovered boards.
    pub success: Option<Success>,
    /// Whose session the browser brings (what a login wall's message advises).
    pub login: super::login::Session,
}

/// What the run does with each board it reads and solves: one of four, never two at once.
#[derive(Clone, Debug, Default)]
pub enum Mode {
    /// Type the answer and wait for the page to confirm it.
    #[default]
    Solve,
    /// Read and solve only; type nothing.
    DryRun,
    /// Read, then give the technique engine's next step on this scale ([`Outcome::hint`]);
    /// type nothing.
    Hint(Scale),
    /// Type in the technique engine's order, telling each step as it goes.
    Thinking(Thinking),
}

impl Mode {
    /// Whether keys are typed (not a dry run, not a hint).
    pub fn types(&self) -> bool {
        matches!(self, Mode::Solve | Mode::Thinking(_))
    }

    /// The show-thinking settings, in that mode.
    pub fn thinking(&self) -> Option<&Thinking> {
        match self {
            Mode::Thinking(t) => Some(t),
            _ => None,
        }
    }
}

/// When board discovery runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Discover {
    /// Never: the site file's board or nothing (`--no-discover`).
    Off,
    /// When the site file's board does not match the page (its selectors match no cells or the
    /// wrong number, a frame is missing): self-healing. A page no site file describes is always
    /// discovered ([`super::locate::Locate::Discover`]).
    #[default]
    Fallback,
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
    /// The next step, with [`Mode::Hint`].
    pub hint: Option<Hint>,
    /// Phase times.
    pub timings: Timings,
}

impl Outcome {
    /// A solved board's outcome before typing: the cells planned, nothing retried or confirmed
    /// yet.
    pub(crate) fn planned(
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

/// Adds the time since `start` to a phase's time.
pub(crate) fn timed(slot: &mut Option<Duration>, start: Instant) {
    *slot = Some(slot.unwrap_or_default() + start.elapsed());
}

#[cfg(test)]
impl PlayOptions {
    /// Options for unit tests: no page, one-second bounds, no discovery.
    pub(crate) fn for_test(mode: Mode) -> PlayOptions {
        PlayOptions {
            url: "http://127.0.0.1:1/".into(),
            mode,
            element_timeout: Duration::from_secs(1),
            page_load_timeout: Duration::from_secs(1),
            chunk: 0,
            discover: super::Discover::Off,
            success: None,
            login: Default::default(),
        }
    }
}
