//! One puzzle's result as data: its phases, outcome and reason. `sudobot web --report FILE`
//! writes one per line (JSON lines), built from the pool's last attempt of each puzzle.

use std::time::Duration;

use serde::Serialize;

use super::options::{Mode, PlayOptions, Timings};
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
    /// Read and given the next step; nothing typed (`--hint`).
    Hint,
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
    /// The report of a puzzle's last attempt, the only constructor. A dry run or a hint types
    /// nothing, and says so: its outcome is `dry-run` or `hint`, with `typed` 0.
    pub fn from_attempt(a: &Attempt, options: &PlayOptions) -> PuzzleReport {
        let mut r = PuzzleReport {
            puzzle: a.puzzle,
            url: options.url.clone(),
            outcome: Kind::Failed,
            reason: None,
            phases_ms: (&a.timings).into(),
            givens: None,
            typed: None,
            corrected: None,
            retried: None,
            confirmation: None,
            evidence: a.evidence.as_ref().map(|p| p.display().to_string()),
            session: Some(a.session),
            attempts: Some(a.attempt),
            first_attempt: a.earlier.as_ref().map(|e| FirstAttempt {
                session: e.session,
                kind: e.kind.to_string(),
                reason: e.reason.clone(),
            }),
        };
        match &a.result {
            Ok(o) => {
                let typing = options.mode.types();
                r.outcome = match options.mode {
                    Mode::Hint(_) => Kind::Hint,
                    Mode::DryRun => Kind::DryRun,
                    Mode::Solve | Mode::Thinking(_) => Kind::Solved,
                };
                r.givens = Some(format::line::write(&o.puzzle));
                r.typed = Some(if typing { o.typed } else { 0 });
                r.corrected = Some(if typing { o.corrected } else { 0 });
                r.retried = Some(o.retried);
                r.confirmation = typing.then(|| o.confirmation.clone());
            }
            Err(f) => {
                r.outcome = match f {
                    Failure::Interrupted(_) => Kind::Interrupted,
                    f if f.is_board_problem() => Kind::Refused,
                    _ => Kind::Failed,
                };
                r.reason = Some(f.to_string());
            }
        }
        r
    }

    /// One JSON line (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::{Hint, Outcome, PlayError};

    fn options(mode: Mode) -> PlayOptions {
        PlayOptions::for_test(mode)
    }

    fn attempt(result: Result<Outcome, Failure>) -> Attempt {
        Attempt {
            puzzle: 1,
            session: 1,
            attempt: 1,
            result,
            timings: Timings::default(),
            evidence: None,
            will_retry: false,
            earlier: None,
        }
    }

    fn solved() -> Outcome {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let puzzle = format::line::parse(line).unwrap();
        Outcome {
            solution: puzzle.clone(),
            puzzle,
            typed: 51,
            corrected: 2,
            retried: 0,
            resolved: 0,
            clicked: false,
            confirmation: "Solved!".into(),
            confirmed: true,
            healed: None,
            hint: Some(Hint::Solved),
            timings: Timings::default(),
        }
    }

    #[test]
    fn only_a_run_that_types_reports_typed_cells() {
        let a = attempt(Ok(solved()));
        let typed = PuzzleReport::from_attempt(&a, &options(Mode::Solve));
        assert_eq!(
            (typed.outcome, typed.typed, typed.corrected),
            (Kind::Solved, Some(51), Some(2))
        );
        assert_eq!(typed.confirmation.as_deref(), Some("Solved!"));
        let hint = Mode::Hint(crate::logic::Scale::Score);
        for (mode, kind) in [(Mode::DryRun, Kind::DryRun), (hint, Kind::Hint)] {
            let r = PuzzleReport::from_attempt(&a, &options(mode));
            assert_eq!((r.outcome, r.typed, r.corrected), (kind, Some(0), Some(0)));
            assert_eq!(r.confirmation, None);
            assert!(r.to_json_line().contains("\"typed\":0"), "{}", r.to_json_line());
        }
    }

    #[test]
    fn failures_are_refused_failed_or_interrupted() {
        let o = options(Mode::Solve);
        let cases = [
            (Failure::Play(PlayError::Unsolvable), Kind::Refused),
            (Failure::Driver("chromedriver (pid 1) exited".into()), Kind::Failed),
            (Failure::Interrupted(crate::web::Signal::Terminate), Kind::Interrupted),
        ];
        for (failure, kind) in cases {
            let reason = failure.to_string();
            let r = PuzzleReport::from_attempt(&attempt(Err(failure)), &o);
            assert_eq!((r.outcome, r.reason.as_deref(), r.typed), (kind, Some(&*reason), None));
        }
    }
}
