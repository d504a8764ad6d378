//! `--parallel K`: K browser sessions work through N puzzles from one queue. Locally each
//! session has its own driver tree on a free port ([`super::owner`]); remotely each is a session
//! on the WebDriver server or Selenium Grid.
//!
//! - A puzzle that fails for any reason but the board itself (the driver or browser died, a Grid
//!   node went away, a timeout, a page that misbehaved) goes back to the front of the queue once;
//!   the session it failed on is closed and replaced, so the retry runs on a fresh session,
//!   whichever worker takes it. The other sessions never stop for it.
//! - On a Grid a failed session is replaced only while the Grid has a free slot: a new session
//!   request would otherwise wait in the Grid's queue for a slot that frees only when the run
//!   ends. The worker stops instead and the others take its puzzles.
//! - A signal stops every worker: each closes its own session at once (a local tree is killed,
//!   a remote session deleted), all at the same time. At the end, any Grid session still tagged
//!   with this run (one whose creation was in flight) is deleted ([`super::grid::sweep`]).
//! - Everything that happens is told to one callback ([`Event`]), in order, on the runtime's
//!   thread: the binary draws its progress bar and writes its report from it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::config::WebDriverConfig;
use super::error::{FailureKind, PlayError};
use super::locate::Locate;
use super::options::{Outcome, PlayOptions, Timings};
use super::play::play;
use super::session::{Session, SessionError, Stop};
use super::signals::{Cancel, Signal};
use super::{evidence, grid};
use tracing::Instrument;

/// How the pool runs.
#[derive(Clone, Debug)]
pub struct PoolOptions {
    /// Sessions (workers), at least 1.
    pub sessions: usize,
    /// Puzzles.
    pub count: usize,
    /// Retry a failed puzzle once on a fresh session.
    pub retry: bool,
    /// Where to keep the screenshot and page source of a failed attempt (`None`: keep none).
    pub evidence_dir: Option<PathBuf>,
    /// The Grid's URL (remote mode): checked for a free slot before a failed session is
    /// replaced, and swept for this run's sessions at the end.
    pub grid_url: Option<String>,
}

/// Why an attempt failed.
#[derive(Debug)]
pub enum Failure {
    /// The puzzle failed on the page.
    Play(PlayError),
    /// The driver died, was stopped or stopped answering.
    Driver(String),
    /// No session was left to play it.
    NoSession(String),
    /// A signal stopped it.
    Interrupted(Signal),
}

impl Failure {
    /// The kind of failure.
    pub fn kind(&self) -> FailureKind {
        match self {
            Failure::Play(e) => e.kind(),
            Failure::Driver(_) => FailureKind::DriverDied,
            Failure::NoSession(_) => FailureKind::NoSession,
            Failure::Interrupted(_) => FailureKind::Interrupted,
        }
    }

    /// Whether the board itself was at fault (nothing typed; not retried).
    pub fn is_board_problem(&self) -> bool {
        self.kind().is_board_problem()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Play(e) => e.fmt(f),
            Failure::Driver(m) | Failure::NoSession(m) => f.write_str(m),
            Failure::Interrupted(s) => write!(f, "interrupted by {}", s.name()),
        }
    }
}

/// The first, failed attempt of a puzzle that was retried.
#[derive(Clone, Debug)]
pub struct Earlier {
    /// The session it ran on (1-based).
    pub session: usize,
    /// [`Failure::kind`].
    pub kind: FailureKind,
    /// The message.
    pub reason: String,
}

/// One attempt at one puzzle.
#[derive(Debug)]
pub struct Attempt {
    /// The puzzle's number in the run (1-based).
    pub puzzle: usize,
    /// The session it ran on (1-based; 0: none).
    pub session: usize,
    /// 1, or 2 for the retry.
    pub attempt: u32,
    /// How it ended.
    pub result: Result<Outcome, Failure>,
    /// Phase times.
    pub timings: Timings,
    /// Where the evidence of a failure was kept.
    pub evidence: Option<PathBuf>,
    /// Whether the puzzle goes back to the queue for a retry (then this is not its last word).
    pub will_retry: bool,
    /// The failed first attempt, when this is the retry.
    pub earlier: Option<Earlier>,
}

/// What the pool tells its caller.
#[derive(Debug)]
pub enum Event<'a> {
    /// A session is starting (its browser and, locally, its driver).
    Starting {
        /// The session (1-based).
        session: usize,
    },
    /// A session started.
    Started {
        /// The session.
        session: usize,
        /// How long it took.
        took: Duration,
    },
    /// A session could not start; its worker stops.
    StartFailed {
        /// The session.
        session: usize,
        /// Why.
        error: String,
    },
    /// A session took a puzzle.
    Playing {
        /// The session.
        session: usize,
        /// The puzzle.
        puzzle: usize,
        /// 1, or 2 for the retry.
        attempt: u32,
    },
    /// An attempt ended.
    Done(&'a Attempt),
    /// A session was closed (after a failure, or at the end).
    Closed {
        /// The session.
        session: usize,
        /// Why, when not at the end.
        reason: Option<String>,
    },
}

/// What a pool run came to.
#[derive(Debug, Default)]
pub struct PoolRun {
    /// The last attempt of each puzzle that was played, in finishing order.
    pub finished: Vec<Attempt>,
    /// Puzzles retried.
    pub retried: usize,
    /// The signal that stopped the run.
    pub signal: Option<Signal>,
    /// How long each session start took.
    pub session_starts: Vec<Duration>,
    /// Sessions that could not start.
    pub start_errors: Vec<SessionError>,
    /// From the start of the pool to the last session closed.
    pub elapsed: Duration,
    /// Grid sessions of this run deleted at the end (their creation was in flight).
    pub swept: usize,
    /// Session starts given up (a signal, an error) while the session may have been created.
    pub abandoned_starts: usize,
}

struct Job {
    puzzle: usize,
    attempt: u32,
    earlier: Option<Earlier>,
}

struct Shared {
    config: WebDriverConfig,
    locate: Locate,
    options: PlayOptions,
    pool: PoolOptions,
    cancel: Cancel,
    queue: Mutex<VecDeque<Job>>,
    run: Mutex<PoolRun>,
    on_event: Box<dyn Fn(&Event<'_>)>,
}

impl Shared {
    fn take(&self) -> Option<Job> {
        self.queue.lock().ok()?.pop_front()
    }

    fn put_back(&self, job: Job) {
        if let Ok(mut q) = self.queue.lock() {
            q.push_front(job);
        }
    }

    fn signal(&self, s: Signal) {
        if let Ok(mut r) = self.run.lock() {
            r.signal.get_or_insert(s);
        }
    }

    fn emit(&self, event: Event<'_>) {
        (self.on_event)(&event);
    }
}

/// Plays `pool.count` puzzles over `pool.sessions` sessions; see the module documentation.
/// Never fails: start errors, failures and a signal are in the result.
pub async fn run(
    config: WebDriverConfig,
    locate: Locate,
    options: PlayOptions,
    pool: PoolOptions,
    cancel: Cancel,
    on_event: Box<dyn Fn(&Event<'_>)>,
) -> PoolRun {
    let started = Instant::now();
    let sessions = pool.sessions.clamp(1, pool.count.max(1));
    let queue = (1..=pool.count).map(|puzzle| Job { puzzle, attempt: 1, earlier: None }).collect();
    let shared = Rc::new(Shared {
        config,
        locate,
        options,
        pool,
        cancel,
        queue: Mutex::new(queue),
        run: Mutex::new(PoolRun::default()),
        on_event,
    });
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let mut workers = tokio::task::JoinSet::new();
            for id in 1..=sessions {
                let span = tracing::info_span!("session", n = id);
                workers.spawn_local(worker(id, Rc::clone(&shared)).instrument(span));
            }
            while let Some(joined) = workers.join_next().await {
                if let Err(e) = joined {
                    tracing::error!("a session's worker failed: {e}");
                }
            }
        })
        .await;
    let signal = shared.run.lock().ok().and_then(|r| r.signal);
    // Puzzles no session was left to play (not after a signal: those were never started).
    if signal.is_none() {
        while let Some(job) = shared.take() {
            let why = "no browser session was left to play it";
            let attempt = Attempt {
                puzzle: job.puzzle,
                session: 0,
                attempt: job.attempt,
                result: Err(Failure::NoSession(why.into())),
                timings: Timings::default(),
                evidence: None,
                will_retry: false,
                earlier: job.earlier,
            };
            shared.emit(Event::Done(&attempt));
            if let Ok(mut r) = shared.run.lock() {
                r.finished.push(attempt);
            }
        }
    }
    // A session whose creation was abandoned may exist on the Grid; after a signal only then
    // is the Grid asked (the signal path must end within 2 s).
    let abandoned = shared.run.lock().map(|r| r.abandoned_starts > 0).unwrap_or(true);
    let mut swept = 0;
    if let Some(url) = &shared.pool.grid_url
        && (signal.is_none() || abandoned)
    {
        let me = grid::run_tag();
        swept = grid::sweep(url, Duration::from_millis(1000), |tag| tag == me).await.len();
    }
    let mut run = shared.run.lock().map(|mut r| std::mem::take(&mut *r)).unwrap_or_default();
    run.swept = swept;
    run.elapsed = started.elapsed();
    run
}

/// What a worker does when it could not start a session (the job went back to the queue).
enum Next {
    /// Stop: a signal.
    Break,
    /// Look at the queue again: a start abandoned because the run is being cancelled.
    Continue,
    /// This worker is done: no Grid slot, or the start failed.
    Return,
}

/// Starts a session for `job` (after a failure, only where the Grid has a free slot), or puts
/// the job back and says what the worker does next.
async fn start_session(
    id: usize,
    sh: &Shared,
    replacing: bool,
    job: Job,
) -> Result<(Session, Job), Next> {
    if replacing
        && let Some(url) = &sh.pool.grid_url
        && let Ok(Some(status)) = grid::status(url, Duration::from_secs(2)).await
        && status.free() == 0
    {
        sh.put_back(job);
        let why = "no free Grid slot for a new session; the other sessions go on";
        sh.emit(Event::Closed { session: id, reason: Some(why.into()) });
        return Err(Next::Return);
    }
    sh.emit(Event::Starting { session: id });
    let t = Instant::now();
    match Session::start(&sh.config, sh.cancel.clone()).await {
        Ok(s) => {
            if let Ok(mut r) = sh.run.lock() {
                r.session_starts.push(t.elapsed());
            }
            sh.emit(Event::Started { session: id, took: t.elapsed() });
            Ok((s, job))
        }
        Err(SessionError::Cancelled(s)) => {
            sh.put_back(job);
            sh.signal(s);
            if let Ok(mut r) = sh.run.lock() {
                r.abandoned_starts += 1;
            }
            Err(Next::Break)
        }
        Err(_) if sh.cancel.fired().is_some() => {
            sh.put_back(job);
            if let Ok(mut r) = sh.run.lock() {
                r.abandoned_starts += 1;
            }
            Err(Next::Continue)
        }
        Err(e) => {
            sh.put_back(job);
            sh.emit(Event::StartFailed { session: id, error: e.to_string() });
            if let Ok(mut r) = sh.run.lock() {
                r.start_errors.push(e);
                r.abandoned_starts += 1;
            }
            Err(Next::Return)
        }
    }
}

async fn worker(id: usize, sh: Rc<Shared>) {
    let mut session: Option<Session> = None;
    let mut replacing = false;
    loop {
        if let Some(s) = sh.cancel.fired() {
            sh.signal(s);
            break;
        }
        let Some(mut job) = sh.take() else {
            break;
        };
        if session.is_none() {
            match start_session(id, &sh, replacing, job).await {
                Ok((s, j)) => {
                    session = Some(s);
                    job = j;
                }
                Err(Next::Break) => break,
                Err(Next::Continue) => continue,
                Err(Next::Return) => return,
            }
        }
        let Some(s) = session.as_ref() else {
            break;
        };
        sh.emit(Event::Playing { session: id, puzzle: job.puzzle, attempt: job.attempt });
        let (result, timings, evidence) = play_one(s, &sh, id, job.puzzle, job.attempt).await;
        let kind = result.as_ref().err().map(Failure::kind);
        let retry = sh.pool.retry && job.attempt == 1 && kind.is_some_and(FailureKind::is_retried);
        let interrupted = match &result {
            Err(Failure::Interrupted(s)) => Some(*s),
            _ => None,
        };
        // A session that failed for anything but the board is replaced before its next puzzle.
        let replace = kind.is_some_and(FailureKind::replaces_session);
        let reason = result.as_ref().err().map(|f| (f.kind(), f.to_string()));
        let attempt = Attempt {
            puzzle: job.puzzle,
            session: id,
            attempt: job.attempt,
            result,
            timings,
            evidence,
            will_retry: retry,
            earlier: job.earlier,
        };
        sh.emit(Event::Done(&attempt));
        if retry {
            sh.put_back(Job {
                puzzle: job.puzzle,
                attempt: job.attempt + 1,
                earlier: reason.clone().map(|(kind, reason)| Earlier { session: id, kind, reason }),
            });
            if let Ok(mut r) = sh.run.lock() {
                r.retried += 1;
            }
        } else if let Ok(mut r) = sh.run.lock() {
            r.finished.push(attempt);
        }
        if let Some(s) = interrupted {
            sh.signal(s);
            break;
        }
        if replace && let Some(s) = session.take() {
            s.close().await;
            let why = reason.map(|(kind, _)| format!("closed after a failure ({kind})"));
            sh.emit(Event::Closed { session: id, reason: why });
            replacing = true;
        }
    }
    if let Some(s) = session.take() {
        s.close().await;
        sh.emit(Event::Closed { session: id, reason: None });
    }
}

/// One attempt on a running session: the result, its phase times and the evidence kept.
async fn play_one(
    session: &Session,
    sh: &Shared,
    id: usize,
    puzzle: usize,
    attempt: u32,
) -> (Result<Outcome, Failure>, Timings, Option<PathBuf>) {
    let mut timings = Timings::default();
    let mut guarded =
        session.guard(play(session.driver(), &sh.locate, &sh.options, &mut timings)).await;
    // A command that failed because of a signal or a dead driver is said as such.
    if let Ok(Err(e)) = &guarded
        && let Some(stop) = session.cause_of(e).await
    {
        guarded = Err(stop);
    }
    let result = match guarded {
        Ok(Ok(outcome)) => Ok(outcome),
        Ok(Err(e)) => Err(Failure::Play(e)),
        Err(Stop::Driver(m)) => Err(Failure::Driver(m)),
        Err(Stop::Signal(s)) => Err(Failure::Interrupted(s)),
    };
    let mut kept = None;
    if let (Err(Failure::Play(e)), Some(base)) = (&result, &sh.pool.evidence_dir)
        && e.keeps_evidence()
    {
        let name = format!("sudobot-debug-{}-{}-{puzzle}-{attempt}", stamp(), std::process::id());
        let dir = base.join(name);
        let message = e.to_string();
        let pixels = matches!(e, PlayError::Pixels { .. });
        let collect = evidence::collect(session.driver(), &dir, &message, pixels);
        kept = match session.guard(tokio::time::timeout(Duration::from_secs(10), collect)).await {
            Ok(Ok(Ok(_))) => Some(dir),
            Ok(Ok(Err(err))) => {
                tracing::warn!("session {id}: cannot keep evidence in {}: {err}", dir.display());
                None
            }
            _ => dir.exists().then_some(dir),
        };
    }
    (result, timings, kept)
}

fn stamp() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The default number of local sessions: half the cores, at most one per [`SESSION_MEMORY`] of
/// available memory, at least 1.
pub fn default_local_sessions() -> usize {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    sessions_for(cores, available_memory())
}

/// Half of `cores`, at most one per [`SESSION_MEMORY`] of `memory` (bytes; `None`: unknown, no
/// limit), at least 1.
fn sessions_for(cores: usize, memory: Option<u64>) -> usize {
    let by_memory = memory.map(|m| (m / SESSION_MEMORY) as usize).unwrap_or(usize::MAX);
    (cores / 2).min(by_memory).max(1)
}

/// What one headless Chromium session costs in memory, about (measured: see the README).
pub const SESSION_MEMORY: u64 = 400 * 1024 * 1024;

/// `MemAvailable` from `/proc/meminfo`, in bytes.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Fill-time and throughput figures of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Puzzles solved (confirmed by the page).
    pub solved: usize,
    /// Solved puzzles per minute of wall time.
    pub per_minute: f64,
    /// Fill time of the solved puzzles: median, 90th percentile (nearest rank) and max.
    pub fill: Option<(Duration, Duration, Duration)>,
}

/// Sums up the final attempts of a run that took `elapsed`.
pub fn summarize(finished: &[Attempt], elapsed: Duration) -> Summary {
    let fills: Vec<Duration> =
        finished.iter().filter(|a| a.result.is_ok()).filter_map(|a| a.timings.fill).collect();
    let solved = finished.iter().filter(|a| a.result.is_ok()).count();
    let fill = median_p90_max(fills);
    let minutes = elapsed.as_secs_f64() / 60.0;
    let per_minute = if minutes > 0.0 { solved as f64 / minutes } else { 0.0 };
    Summary { solved, per_minute, fill }
}

/// Median, 90th percentile (nearest rank) and max.
pub fn median_p90_max(mut v: Vec<Duration>) -> Option<(Duration, Duration, Duration)> {
    if v.is_empty() {
        return None;
    }
    v.sort();
    let n = v.len();
    let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2 };
    let rank = (n * 9).div_ceil(10).max(1);
    Some((median, v[rank - 1], v[n - 1]))
}

/// Failures by kind, most frequent first: final failures of `finished`.
pub fn failures_by_kind(finished: &[Attempt]) -> Vec<(FailureKind, usize)> {
    count_by_kind(finished.iter().filter_map(|a| a.result.as_ref().err()).map(Failure::kind))
}

/// First attempts that failed and were retried, by kind, most frequent first.
pub fn retries_by_kind(finished: &[Attempt]) -> Vec<(FailureKind, usize)> {
    count_by_kind(finished.iter().filter_map(|a| a.earlier.as_ref()).map(|e| e.kind))
}

fn count_by_kind(kinds: impl Iterator<Item = FailureKind>) -> Vec<(FailureKind, usize)> {
    let mut counts: Vec<(FailureKind, usize)> = Vec::new();
    for kind in kinds {
        match counts.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((kind, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.name().cmp(b.0.name())));
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(fill_ms: Option<u64>, failure: Option<Failure>) -> Attempt {
        let timings = Timings { fill: fill_ms.map(Duration::from_millis), ..Timings::default() };
        Attempt {
            puzzle: 1,
            session: 1,
            attempt: 1,
            result: match failure {
                Some(f) => Err(f),
                None => Err(Failure::NoSession("placeholder".into())),
            },
            timings,
            evidence: None,
            will_retry: false,
            earlier: None,
        }
    }

    #[test]
    fn failures_are_counted_by_kind() {
        let finished = vec![
            attempt(None, Some(Failure::Driver("x".into()))),
            attempt(None, Some(Failure::Play(PlayError::Unsolvable))),
            attempt(None, Some(Failure::Driver("y".into()))),
        ];
        assert_eq!(
            failures_by_kind(&finished),
            [(FailureKind::DriverDied, 2), (FailureKind::NoSolution, 1)]
        );
        let s = summarize(&finished, Duration::from_secs(60));
        assert_eq!((s.solved, s.per_minute, s.fill), (0, 0.0, None));
    }

    #[test]
    fn median_p90_and_max_by_nearest_rank() {
        let ms = |v: &[u64]| v.iter().map(|&m| Duration::from_millis(m)).collect::<Vec<_>>();
        let d = Duration::from_millis;
        assert_eq!(median_p90_max(vec![]), None);
        assert_eq!(median_p90_max(ms(&[7])), Some((d(7), d(7), d(7))));
        // 10 values: the 9th is the p90.
        let ten = ms(&[10, 1, 9, 2, 8, 3, 7, 4, 6, 5]);
        assert_eq!(median_p90_max(ten), Some((Duration::from_micros(5500), d(9), d(10))));
        assert_eq!(median_p90_max(ms(&[3, 1, 2])), Some((d(2), d(3), d(3))));
    }

    #[test]
    fn sessions_are_half_the_cores_within_memory_and_never_none() {
        let gib = 1024 * 1024 * 1024;
        // Half the cores where memory allows.
        assert_eq!(sessions_for(8, Some(64 * gib)), 4);
        assert_eq!(sessions_for(8, None), 4);
        assert_eq!(sessions_for(7, None), 3);
        // Memory for two sessions caps eight cores at two.
        assert_eq!(sessions_for(8, Some(2 * SESSION_MEMORY + SESSION_MEMORY / 2)), 2);
        // One core, or memory for less than one session: one session all the same.
        assert_eq!(sessions_for(1, Some(64 * gib)), 1);
        assert_eq!(sessions_for(16, Some(SESSION_MEMORY / 2)), 1);
        assert_eq!(sessions_for(0, Some(0)), 1);
    }

    #[test]
    fn a_retry_and_a_new_session_follow_the_kind_not_the_message() {
        let board = Failure::Play(PlayError::Multiple { givens: 17 });
        assert!(board.is_board_problem());
        assert!(!board.kind().is_retried() && !board.kind().replaces_session());
        let driver = Failure::Driver("chromedriver (pid 1) exited".into());
        assert!(driver.kind().is_retried() && driver.kind().replaces_session());
        assert!(!driver.kind().keeps_evidence(), "no session is left to ask");
        let signal = Failure::Interrupted(Signal::Interrupt);
        assert!(!signal.kind().is_retried(), "a signal stops the run, no retry");
        assert!(signal.kind().replaces_session());
        assert_eq!(Failure::NoSession("none left".into()).kind(), FailureKind::NoSession);
    }
}
