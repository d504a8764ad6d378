//! One puzzle's result as data: its phases, outcome and reason. `sudobot web --report FILE`
//! writes one per line (JSON lines); parallel runs can write the same objects.

use std::time::Duration;

use serde::Serialize;

use super::play::{Outcome, PlayError, Timings};
use super::pool::{Attempt, Failure};
use crate::format;

/// How a puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Typed, read back and confirmed by the page.
    Solved,
    /// Read and solved; nothing typed (`--dry-run`).
    DryRun,
    /// The board has no solution, several, or breaks a rule; nothing typed.
    Refused,
    /// Anything else went wrong.
    Failed,
    /// A signal stopped it.
    Interrupted,
}

/// Phase times in milliseconds (`null`: not reached).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PhasesMs {
    /// Navigation, frames, ready wait.
    pub navigate: Option<f64>,
    /// Reading the board.
    pub read: Option<f64>,
    /// Solving.
    pub solve: Option<f64>,
    /// Typing.
    pub fill: Option<f64>,
    /// Read-back and confirmation.
    pub verify: Option<f64>,
}

impl From<&Timings> for PhasesMs {
    fn from(t: &Timings) -> PhasesMs {
        let ms = |d: Option<Duration>| d.map(|d| (d.as_secs_f64() * 1e4).round() / 10.0);
        PhasesMs {
            navigate: ms(t.navigate),
            read: ms(t.read),
            solve: ms(t.solve),
            fill: ms(t.fill),
            verify: ms(t.verify),
        }
    }
}

/// One puzzle's line.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleReport {
    /// 1-based number in the run.
    pub puzzle: usize,
    /// The URL opened.
    pub url: String,
    /// How it ended.
    pub outcome: Kind,
    /// Why it did not succeed.
    pub reason: Option<String>,
    /// Phase times.
    pub phases_ms: PhasesMs,
    /// The givens (one line, `.` for blanks), when read.
    pub givens: Option<String>,
    /// Cells typed.
    pub typed: Option<usize>,
    /// Wrong user values corrected.
    pub corrected: Option<usize>,
    /// Cells retyped after a dropped key.
    pub retried: Option<usize>,
    /// What the page showed to confirm.
    pub confirmation: Option<String>,
    /// Where the evidence of a failure was kept.
    pub evidence: Option<String>,
    /// The session that played it (1-based; `--parallel`; 0: none was left).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<usize>,
    /// Attempts made (`--parallel`: 2 when it was retried on a fresh session).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    /// The failed first attempt of a retried puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_attempt: Option<FirstAttempt>,
}

/// The failed first attempt of a puzzle that was retried.
#[derive(Clone, Debug, Serialize)]
pub struct FirstAttempt {
    /// Its session.
    pub session: usize,
    /// The kind of failure (as in the summary).
    pub kind: String,
    /// The message.
    pub reason: String,
}

impl PuzzleReport {
    /// The report of a finished puzzle.
    pub fn new(
        puzzle: usize,
        url: &str,
        result: &Result<Outcome, PlayError>,
        timings: &Timings,
        dry_run: bool,
    ) -> PuzzleReport {
        let mut r = PuzzleReport {
            puzzle,
            url: url.to_string(),
            outcome: Kind::Failed,
            reason: None,
            phases_ms: timings.into(),
            givens: None,
            typed: None,
            corrected: None,
            retried: None,
            confirmation: None,
            evidence: None,
            session: None,
            attempts: None,
            first_attempt: None,
        };
        match result {
            Ok(o) => {
                r.outcome = if dry_run { Kind::DryRun } else { Kind::Solved };
                r.givens = Some(format::line::write(&o.puzzle));
                r.typed = Some(o.typed);
                r.corrected = Some(o.corrected);
                r.retried = Some(o.retried);
                r.confirmation = (!dry_run).then(|| o.confirmation.clone());
            }
            Err(e) => {
                r.outcome = if e.is_board_problem() { Kind::Refused } else { Kind::Failed };
                r.reason = Some(e.to_string());
            }
        }
        r
    }

    /// The report of a puzzle stopped by a signal or a driver fault.
    pub fn stopped(
        puzzle: usize,
        url: &str,
        timings: &Timings,
        reason: String,
        signal: bool,
    ) -> PuzzleReport {
        PuzzleReport {
            puzzle,
            url: url.to_string(),
            outcome: if signal { Kind::Interrupted } else { Kind::Failed },
            reason: Some(reason),
            phases_ms: timings.into(),
            givens: None,
            typed: None,
            corrected: None,
            retried: None,
            confirmation: None,
            evidence: None,
            session: None,
            attempts: None,
            first_attempt: None,
        }
    }

    /// The report of a `--parallel` puzzle's last attempt.
    pub fn from_attempt(a: &Attempt, url: &str, dry_run: bool) -> PuzzleReport {
        let mut r = match &a.result {
            Ok(o) => PuzzleReport::new(a.puzzle, url, &Ok(o.clone()), &a.timings, dry_run),
            Err(Failure::Play(e)) => {
                let mut r = PuzzleReport::stopped(a.puzzle, url, &a.timings, e.to_string(), false);
                if e.is_board_problem() {
                    r.outcome = Kind::Refused;
                }
                r
            }
            Err(f) => PuzzleReport::stopped(
                a.puzzle,
                url,
                &a.timings,
                f.to_string(),
                matches!(f, Failure::Interrupted(_)),
            ),
        };
        r.evidence = a.evidence.as_ref().map(|p| p.display().to_string());
        r.session = Some(a.session);
        r.attempts = Some(a.attempt);
        r.first_attempt = a.earlier.as_ref().map(|e| FirstAttempt {
            session: e.session,
            kind: e.kind.to_string(),
            reason: e.reason.clone(),
        });
        r
    }

    /// One JSON line (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
