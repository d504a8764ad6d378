//! Why a puzzle failed: [`PlayError`], its [`FailureKind`] (what summaries count and what the
//! pool decides a retry and evidence by), and how a WebDriver error is read (the session lost,
//! the transport, one short line).

use std::time::Duration;

use thirtyfour::prelude::*;

use super::wd::is_transport;
pub use super::wd::{is_session_lost, short};

use super::discover::DiscoverError;
use super::read::ReadError;
use crate::grid::{Cell, Conflict};

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
    /// The board's variant marks (Killer cages, jigsaw regions, X diagonals) do not add up,
    /// or are not the site's; nothing was typed.
    #[error(transparent)]
    Variant(#[from] super::variant::VariantError),
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
        self.kind().is_board_problem()
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

    /// The kind of failure (summaries count failures by it; the pool decides by it whether to
    /// retry and whether to keep evidence). A lost session comes first, whatever the step.
    pub fn kind(&self) -> FailureKind {
        use FailureKind as K;
        if self.is_session_lost() {
            return K::SessionLost;
        }
        match self {
            PlayError::Navigate { .. } => K::PageDidNotLoad,
            PlayError::Frame { .. } => K::FrameNotFound,
            PlayError::NotReady { .. } => K::BoardNotReady,
            PlayError::Read(_) | PlayError::Pixels { .. } => K::BoardUnreadable,
            PlayError::NotShown { .. } => K::NotReadBack,
            PlayError::Discover(_) | PlayError::NotHealed { .. } => K::NoBoardFound,
            PlayError::Invalid(_) => K::InvalidBoard,
            PlayError::Variant(e) if e.is_unread() => K::BoardUnreadable,
            PlayError::Variant(_) => K::InvalidBoard,
            PlayError::Unsolvable => K::NoSolution,
            PlayError::Mistakes { .. } => K::PlayersMistakes,
            PlayError::Multiple { .. } => K::SeveralSolutions,
            PlayError::BoardChanged(_) => K::BoardChanged,
            PlayError::LeftBoard { .. } => K::KeysLeftBoard,
            PlayError::Typing(_) => K::TypingFailed,
            PlayError::ClickDoesNotSelect(_) => K::ClickDoesNotSelect,
            PlayError::InputMode(_) => K::InputMode,
            PlayError::Dropped { .. } => K::DroppedKeys,
            PlayError::NotConfirmed { .. } => K::NotConfirmed,
            PlayError::Dialog { .. } => K::Dialog,
            PlayError::Refuted { .. } => K::PageSaysWrong,
            PlayError::Logic(_) => K::TechniqueEngine,
            PlayError::Login(_) => K::LoginRequired,
            PlayError::WebDriver { .. } => K::WebDriver,
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

    /// Whether a page and a screenshot of it are worth keeping: the page had loaded, the
    /// session is still there to ask, and the board was not the problem.
    pub fn keeps_evidence(&self) -> bool {
        self.after_load() && self.kind().keeps_evidence()
    }
}

/// The kind of a failed attempt: what `--stats` counts and the pool decides by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FailureKind {
    /// The driver, the browser or a Grid node went away or stopped answering.
    SessionLost,
    /// The page did not load.
    PageDidNotLoad,
    /// A frame was not found.
    FrameNotFound,
    /// The board never became ready.
    BoardNotReady,
    /// The board could not be read (cells or pixels).
    BoardUnreadable,
    /// A canvas did not read back the solution.
    NotReadBack,
    /// Discovery found no board.
    NoBoardFound,
    /// The givens break a rule.
    InvalidBoard,
    /// The givens have no solution.
    NoSolution,
    /// Nothing proves the givens and the filled cells are wrong.
    PlayersMistakes,
    /// The givens have several solutions.
    SeveralSolutions,
    /// The page replaced the puzzle.
    BoardChanged,
    /// A key or focus left the board.
    KeysLeftBoard,
    /// A WebDriver command that types failed.
    TypingFailed,
    /// A click on a cell did not select it.
    ClickDoesNotSelect,
    /// The page could not be put in normal input mode.
    InputMode,
    /// A cell lost its key twice.
    DroppedKeys,
    /// The page did not confirm.
    NotConfirmed,
    /// The page opened a dialog while keys were typed.
    Dialog,
    /// The page said the solution is wrong.
    PageSaysWrong,
    /// The technique engine failed.
    TechniqueEngine,
    /// The page shows its login wall.
    LoginRequired,
    /// Another WebDriver failure.
    WebDriver,
    /// The driver process died, was stopped or stopped answering (the pool's word).
    DriverDied,
    /// No session was left to play the puzzle.
    NoSession,
    /// A signal stopped the run.
    Interrupted,
}

impl FailureKind {
    /// The name summaries count it by.
    pub fn name(self) -> &'static str {
        use FailureKind as K;
        match self {
            K::SessionLost => "session lost",
            K::PageDidNotLoad => "page did not load",
            K::FrameNotFound => "frame not found",
            K::BoardNotReady => "board not ready",
            K::BoardUnreadable => "board unreadable",
            K::NotReadBack => "not read back",
            K::NoBoardFound => "no board found",
            K::InvalidBoard => "invalid board",
            K::NoSolution => "no solution",
            K::PlayersMistakes => "player's mistakes",
            K::SeveralSolutions => "several solutions",
            K::BoardChanged => "board changed",
            K::KeysLeftBoard => "keys left the board",
            K::TypingFailed => "typing failed",
            K::ClickDoesNotSelect => "click does not select",
            K::InputMode => "input mode",
            K::DroppedKeys => "dropped keys",
            K::NotConfirmed => "not confirmed",
            K::Dialog => "dialog",
            K::PageSaysWrong => "page says wrong",
            K::TechniqueEngine => "technique engine",
            K::LoginRequired => "login required",
            K::WebDriver => "webdriver error",
            K::DriverDied => "driver died",
            K::NoSession => "no session",
            K::Interrupted => "interrupted",
        }
    }

    /// Whether the board itself was at fault: nothing was typed, and another session would
    /// read the same board the same way.
    pub fn is_board_problem(self) -> bool {
        use FailureKind as K;
        matches!(self, K::InvalidBoard | K::NoSolution | K::PlayersMistakes | K::SeveralSolutions)
    }

    /// Whether the puzzle is tried once more on a fresh session (with `--parallel`): every
    /// failure but the board's own, a login wall (a fresh session has no login either) and a
    /// signal's.
    pub fn is_retried(self) -> bool {
        !self.is_board_problem()
            && !matches!(self, FailureKind::Interrupted | FailureKind::LoginRequired)
    }

    /// Whether the session that failed is closed and replaced before its next puzzle: every
    /// failure but the board's own.
    pub fn replaces_session(self) -> bool {
        !self.is_board_problem()
    }

    /// Whether evidence (a screenshot, the page source) is worth asking the session for: not
    /// for the board's own fault, a lost session or one the pool already gave up.
    pub fn keeps_evidence(self) -> bool {
        use FailureKind as K;
        !self.is_board_problem()
            && !matches!(
                self,
                K::SessionLost | K::DriverDied | K::NoSession | K::Interrupted | K::LoginRequired
            )
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed lookup named with its selector.
pub(crate) fn wd_selector(step: &'static str, selector: &str, e: WebDriverError) -> PlayError {
    PlayError::WebDriver { step, selector: Some(selector.to_string()), source: e }
}

pub(crate) fn wd(step: &'static str) -> impl Fn(WebDriverError) -> PlayError {
    move |source| PlayError::WebDriver { step, selector: None, source }
}

#[cfg(test)]
mod tests {
    use thirtyfour::error::{WebDriverErrorInfo, WebDriverErrorInner as Inner};

    use super::*;

    fn unknown(message: &str) -> WebDriverError {
        WebDriverError::from_inner(Inner::UnknownError(WebDriverErrorInfo::new(message.into())))
    }

    fn invalid_session() -> WebDriverError {
        WebDriverError::from_inner(Inner::InvalidSessionId(WebDriverErrorInfo::new("gone".into())))
    }

    /// One error of each kind the page can give, with the kind it must be counted as.
    fn each_kind() -> Vec<(PlayError, FailureKind)> {
        use FailureKind as K;
        let cell = Cell { row: 0, col: 0 };
        let stale = || unknown("stale element reference");
        let conflict = Conflict {
            value: 1,
            first: cell,
            second: Cell { row: 0, col: 1 },
            house: crate::grid::HouseKind::Row(0),
        };
        vec![
            (
                PlayError::Navigate { url: "u".into(), reason: "r".into(), source: None },
                K::PageDidNotLoad,
            ),
            (
                PlayError::Frame { frame: "f".into(), waited: Duration::ZERO, source: stale() },
                K::FrameNotFound,
            ),
            (
                PlayError::NotReady {
                    cells: 81,
                    mismatch: true,
                    waited: Duration::ZERO,
                    detail: String::new(),
                    min_givens: 17,
                },
                K::BoardNotReady,
            ),
            (PlayError::NotShown { waited: Duration::ZERO, detail: String::new() }, K::NotReadBack),
            (PlayError::Invalid(conflict), K::InvalidBoard),
            (PlayError::Unsolvable, K::NoSolution),
            (
                PlayError::Mistakes {
                    cells: vec![cell],
                    detail: String::new(),
                    rule: String::new(),
                },
                K::PlayersMistakes,
            ),
            (PlayError::Multiple { givens: 16 }, K::SeveralSolutions),
            (PlayError::BoardChanged("x".into()), K::BoardChanged),
            (PlayError::LeftBoard { detail: String::new(), blocked: 1 }, K::KeysLeftBoard),
            (PlayError::InputMode("x".into()), K::InputMode),
            (PlayError::ClickDoesNotSelect("x".into()), K::ClickDoesNotSelect),
            (PlayError::Typing(stale()), K::TypingFailed),
            (PlayError::Dropped { cell, expected: 1, found: String::new() }, K::DroppedKeys),
            (PlayError::Dialog { when: "w", text: String::new(), typed: 0, total: 1 }, K::Dialog),
            (
                PlayError::Refuted { where_: String::new(), shown: String::new(), word: "wrong" },
                K::PageSaysWrong,
            ),
            (
                PlayError::NotConfirmed { waited: Duration::ZERO, detail: String::new() },
                K::NotConfirmed,
            ),
            (PlayError::Logic("x".into()), K::TechniqueEngine),
            (
                PlayError::Login(crate::web::login::LoginError::Wall {
                    selector: ".wall".into(),
                    session: Default::default(),
                }),
                K::LoginRequired,
            ),
            (PlayError::WebDriver { step: "s", selector: None, source: stale() }, K::WebDriver),
        ]
    }

    #[test]
    fn every_failure_has_its_kind_and_a_board_problem_is_never_retried() {
        for (error, kind) in each_kind() {
            assert_eq!(error.kind(), kind, "{error}");
            let board = matches!(
                kind,
                FailureKind::InvalidBoard
                    | FailureKind::NoSolution
                    | FailureKind::PlayersMistakes
                    | FailureKind::SeveralSolutions
            );
            assert_eq!(error.is_board_problem(), board, "{kind}");
            // The board's own fault, or a login wall: a fresh session gives the same answer.
            let wall = kind == FailureKind::LoginRequired;
            assert_eq!(kind.is_retried(), !board && !wall, "{kind}");
            assert_eq!(kind.replaces_session(), !board, "{kind}");
            // Evidence is kept for a page that loaded and misbehaved, not for the board's own
            // fault and not for a page that never loaded.
            let loaded = !matches!(error, PlayError::Navigate { .. });
            assert_eq!(error.keeps_evidence(), !board && loaded && !wall, "{kind}");
            assert!(!error.is_session_lost(), "{kind}");
        }
    }

    /// Every kind with its decisions, written out (not derived from the rules under test):
    /// (kind, retried on a fresh session, session replaced, evidence kept, the board's fault).
    /// The match makes a new kind a compile error here until its decisions are written down.
    fn decisions(kind: FailureKind) -> (bool, bool, bool, bool) {
        use FailureKind as K;
        match kind {
            // The page or the session misbehaved: another try, a fresh session, evidence.
            K::PageDidNotLoad
            | K::FrameNotFound
            | K::BoardNotReady
            | K::BoardUnreadable
            | K::NotReadBack
            | K::NoBoardFound
            | K::BoardChanged
            | K::KeysLeftBoard
            | K::TypingFailed
            | K::ClickDoesNotSelect
            | K::InputMode
            | K::DroppedKeys
            | K::NotConfirmed
            | K::Dialog
            | K::PageSaysWrong
            | K::TechniqueEngine
            | K::WebDriver => (true, true, true, false),
            // Nothing is left to ask for evidence.
            K::SessionLost | K::DriverDied | K::NoSession => (true, true, false, false),
            // The board's own fault: another session reads it the same way.
            K::InvalidBoard | K::NoSolution | K::PlayersMistakes | K::SeveralSolutions => {
                (false, false, false, true)
            }
            // A fresh session has no login either; a signal ends the run.
            K::LoginRequired | K::Interrupted => (false, true, false, false),
        }
    }

    #[test]
    fn each_kind_decides_retry_session_and_evidence_as_written_down() {
        use FailureKind as K;
        let all = [
            K::SessionLost,
            K::PageDidNotLoad,
            K::FrameNotFound,
            K::BoardNotReady,
            K::BoardUnreadable,
            K::NotReadBack,
            K::NoBoardFound,
            K::InvalidBoard,
            K::NoSolution,
            K::PlayersMistakes,
            K::SeveralSolutions,
            K::BoardChanged,
            K::KeysLeftBoard,
            K::TypingFailed,
            K::ClickDoesNotSelect,
            K::InputMode,
            K::DroppedKeys,
            K::NotConfirmed,
            K::Dialog,
            K::PageSaysWrong,
            K::TechniqueEngine,
            K::LoginRequired,
            K::WebDriver,
            K::DriverDied,
            K::NoSession,
            K::Interrupted,
        ];
        let names: std::collections::HashSet<&str> = all.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), all.len(), "every kind once, each with its own name");
        for kind in all {
            let (retried, replaces, evidence, board) = decisions(kind);
            assert_eq!(kind.is_retried(), retried, "{kind}: retried");
            assert_eq!(kind.replaces_session(), replaces, "{kind}: session replaced");
            assert_eq!(kind.keeps_evidence(), evidence, "{kind}: evidence");
            assert_eq!(kind.is_board_problem(), board, "{kind}: the board's fault");
        }
        // Every error the page can give is of the kind listed for it, and decides the same.
        for (error, kind) in each_kind() {
            assert_eq!(error.kind(), kind, "{error}");
            assert_eq!(error.is_board_problem(), decisions(kind).3, "{error}");
        }
        // Those that are not in `each_kind`: a board unreadable, none found.
        let unreadable = PlayError::Pixels {
            selector: "#c".into(),
            source: crate::pixels::PixelError::Uncertain { cells: vec![Cell { row: 0, col: 0 }] },
            note: String::new(),
        };
        assert_eq!(unreadable.kind(), K::BoardUnreadable);
        assert!(unreadable.kind().is_retried() && unreadable.keeps_evidence());
    }

    #[test]
    fn a_lost_session_is_its_own_kind_whatever_step_it_broke() {
        let lost = [
            PlayError::Typing(invalid_session()),
            PlayError::WebDriver {
                step: "reading back",
                selector: None,
                source: invalid_session(),
            },
            // chromedriver says it only in words.
            PlayError::Frame {
                frame: "iframe".into(),
                waited: Duration::ZERO,
                source: unknown("unknown error: session deleted because of page crash"),
            },
            PlayError::Navigate {
                url: "u".into(),
                reason: "r".into(),
                source: Some(unknown("chrome not reachable")),
            },
        ];
        for error in lost {
            assert_eq!(error.kind(), FailureKind::SessionLost, "{error}");
            assert!(error.kind().is_retried(), "a fresh session may do it");
            assert!(!error.keeps_evidence(), "nothing is left to ask for evidence");
        }
        // Another "unknown error" is the page's, not a lost session.
        let page = PlayError::Typing(unknown("element not interactable"));
        assert_eq!(page.kind(), FailureKind::TypingFailed);
        assert!(page.keeps_evidence());
    }

    #[test]
    fn the_pools_own_kinds_are_retried_except_a_signal_and_keep_no_evidence() {
        use FailureKind as K;
        for kind in [K::DriverDied, K::NoSession] {
            assert!(kind.is_retried() && kind.replaces_session() && !kind.keeps_evidence());
        }
        assert!(!K::Interrupted.is_retried() && !K::Interrupted.keeps_evidence());
        assert_eq!(K::DriverDied.to_string(), "driver died");
        assert_eq!(K::PlayersMistakes.to_string(), "player's mistakes");
    }
}
