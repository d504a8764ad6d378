//! The pool's events drawn for the user ([`Progress`]: the bar, a status line per session with
//! `-v`, each failure as it happens) and written to `--report` ([`Report`]).

use std::cell::{Cell, RefCell};
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use sudobot::web::ConfigError;
use sudobot::web::PlayOptions;
use sudobot::web::pool::{Attempt, Event, Failure};
use sudobot::web::report::PuzzleReport;

/// `--report FILE`: one JSON line per puzzle, appended as each finishes. The first failed
/// write is said at once; no later line is tried, and the run exits 1 (a report with lines
/// missing must not pass for a complete one).
pub(super) struct Report {
    path: PathBuf,
    file: Option<File>,
    failed: bool,
}

impl Report {
    pub(super) fn open(path: PathBuf) -> Result<Report, ConfigError> {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&path);
        match file {
            Ok(file) => Ok(Report { path, file: Some(file), failed: false }),
            Err(e) => Err(ConfigError::Invalid {
                file: "command line".into(),
                key: "--report".into(),
                message: format!("cannot open {}: {e}", path.display()),
            }),
        }
    }

    /// Writes one line (unbuffered: a killed run keeps every line written); the message of
    /// the first failure.
    fn write(&mut self, line: &PuzzleReport) -> Option<String> {
        let file = self.file.as_mut()?;
        let mut text = line.to_json_line();
        text.push('\n');
        let error = file.write_all(text.as_bytes()).and_then(|()| file.flush()).err()?;
        self.file = None;
        self.failed = true;
        Some(format!(
            "sudobot: cannot write the report {}: {error}; no further lines are written, and \
             the run will exit 1",
            self.path.display()
        ))
    }
}

/// Draws the pool's events: one progress bar (for several puzzles or `--parallel`), with `-v`
/// a status line per session, each failure as it happens; and writes the report.
pub(super) struct Progress {
    bar: ProgressBar,
    lines: Vec<ProgressBar>,
    /// `--parallel`: failures name their session, the bar counts retries.
    parallel: bool,
    count: usize,
    report: RefCell<Option<Report>>,
    options: PlayOptions,
    failed: Cell<usize>,
    retried: Cell<usize>,
    /// Whether a session has started (a start error before any is the run's error, said once
    /// at the end).
    started: Cell<bool>,
}

impl Progress {
    pub(super) fn new(run: &mut super::WebRun, sessions: usize, options: &PlayOptions) -> Progress {
        let parallel = run.parallel.is_some();
        let multi = MultiProgress::new();
        let bar = if parallel || run.count > 1 {
            multi.add(crate::app::progress::puzzles(run.count))
        } else {
            ProgressBar::hidden()
        };
        let lines = if run.verbose && parallel {
            (1..=sessions).map(|i| session_line(&multi, i)).collect()
        } else {
            Vec::new()
        };
        Progress {
            bar,
            lines,
            parallel,
            count: run.count,
            report: RefCell::new(run.report.take()),
            options: options.clone(),
            failed: Cell::new(0),
            retried: Cell::new(0),
            started: Cell::new(false),
        }
    }

    pub(super) fn on_event(&self, event: &Event<'_>) {
        match event {
            Event::Starting { session } => self.status(*session, "starting the browser".into()),
            Event::Started { session, took } => {
                self.started.set(true);
                self.status(*session, format!("browser started in {:.1} s", took.as_secs_f64()));
            }
            Event::StartFailed { session, error } => {
                if self.started.get() || self.parallel {
                    self.say(format!("sudobot: {}{error}", self.at(0, *session)));
                }
                self.status(*session, "could not start".into());
            }
            Event::Playing { session, puzzle, attempt } => {
                let retry = if *attempt > 1 { " (retry)" } else { "" };
                self.status(*session, format!("puzzle {puzzle}{retry}"));
            }
            Event::Done(a) => self.done(a),
            Event::Closed { session, reason } => {
                self.status(*session, reason.clone().unwrap_or_else(|| "closed".into()))
            }
        }
    }

    /// An attempt ended: its failure said, its report line written (unless it is retried).
    fn done(&self, a: &Attempt) {
        match &a.result {
            Ok(_) => self.status(a.session, format!("puzzle {} solved", a.puzzle)),
            Err(Failure::Interrupted(_)) => {}
            Err(f) => {
                let mut msg = format!("sudobot: {}{f}", self.at(a.puzzle, a.session));
                if let Some(dir) = &a.evidence {
                    msg.push_str(&format!(
                        "\n  evidence (screenshot, page source): {}",
                        dir.display()
                    ));
                }
                if a.will_retry {
                    msg.push_str("\n  retrying it once on a fresh session");
                }
                self.say(msg);
                self.status(a.session, format!("puzzle {} failed ({})", a.puzzle, f.kind()));
            }
        }
        if a.will_retry {
            self.retried.set(self.retried.get() + 1);
        } else {
            self.failed.set(self.failed.get() + usize::from(a.result.is_err()));
            let line = PuzzleReport::from_attempt(a, &self.options);
            let failure = self.report.borrow_mut().as_mut().and_then(|r| r.write(&line));
            if let Some(message) = failure {
                self.say(message);
            }
            self.bar.inc(1);
        }
        let message = match self.parallel {
            true => format!("{} failed, {} retried", self.failed.get(), self.retried.get()),
            false => format!("{} failed", self.failed.get()),
        };
        self.bar.set_message(message);
    }

    /// The prefix that names a puzzle (when there are several) and its session (`--parallel`).
    fn at(&self, puzzle: usize, session: usize) -> String {
        match (puzzle, session) {
            (0, s) if self.parallel => format!("session {s}: "),
            (p, s) if self.parallel && s > 0 => format!("puzzle {p} (session {s}): "),
            (p, _) if self.parallel || self.count > 1 => format!("puzzle {p}: "),
            _ => String::new(),
        }
    }

    /// A line above the bar (or on stderr when the bar is hidden).
    fn say(&self, line: String) {
        if self.bar.is_hidden() { eprintln!("{line}") } else { self.bar.println(line) }
    }

    /// A session's status line (`-v` with `--parallel`).
    fn status(&self, session: usize, what: String) {
        if self.lines.is_empty() {
            return;
        }
        let line = format!("session {session}: {what}");
        match self.lines.get(session.wrapping_sub(1)) {
            Some(l) if !self.bar.is_hidden() => l.set_message(line),
            _ => self.say(format!("sudobot: {line}")),
        }
    }

    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
        for l in &self.lines {
            l.finish_and_clear();
        }
    }

    pub(super) fn report_failed(&self) -> bool {
        self.report.borrow().as_ref().is_some_and(|r| r.failed)
    }
}

/// A status line under the bar for session `i`.
fn session_line(multi: &MultiProgress, i: usize) -> ProgressBar {
    let line = multi.add(ProgressBar::new_spinner());
    if let Ok(style) = ProgressStyle::with_template("  {msg}") {
        line.set_style(style);
    }
    line.set_message(format!("session {i}: waiting"));
    line
}
