//! What `sudobot web` prints about a puzzle: its outcome and, with `--stats`, phase times.

use std::io::Write;
use std::time::Duration;

use sudobot::format;
use sudobot::web::pool;
use sudobot::web::{Hint, Outcome, Timings};

use super::Mode;
use crate::cli::hint::Reveal;

/// A variant board as text `sudobot solve` reads (`None` for a board of boxes alone): a Killer
/// as cage text, a jigsaw or X board as a Solo game ID.
fn variant_text(puzzle: &sudobot::grid::Grid) -> Option<String> {
    let g = puzzle.geometry();
    if g.is_killer() {
        Some(format::cages::write(puzzle))
    } else if g.has_diagonals() || g.box_shape().is_none() {
        Some(format::solo_id::write(puzzle))
    } else {
        None
    }
}

/// A puzzle's outcome: the hint, the dry run's board and answer, or what was typed.
pub(super) fn outcome(mode: Mode, o: &Outcome) {
    if let (Some(hint), Mode::Hint(reveal)) = (&o.hint, mode) {
        match hint {
            Hint::Solved => out!("The board is solved."),
            Hint::Step(step) => out!("{}", super::super::hint::describe(step, reveal)),
            Hint::Mistakes(wrong) => match reveal {
                Reveal::Technique => out!("Mistake: a value typed on the board is wrong."),
                Reveal::Cells => {
                    let cells: Vec<String> = wrong.iter().map(|(c, _)| c.to_string()).collect();
                    out!("Mistake: check {}.", cells.join(", "))
                }
                Reveal::Step => {
                    for (cell, found) in wrong {
                        out!("Mistake: {cell} holds {found}, which is not its solution value.");
                    }
                }
            },
        }
        return;
    }
    if mode == Mode::DryRun {
        out!("board:\n{}", format::pretty::write(&o.puzzle));
        if let Some(text) = variant_text(&o.puzzle) {
            out!("as `sudobot solve` reads it:\n{text}");
        }
        out!("answer:\n{}", format::pretty::write(&o.solution));
        out!(
            "dry run: {} cells would be typed ({} wrong values would be corrected)",
            o.typed,
            o.corrected
        );
        return;
    }
    let mut line = format!("solved: typed {} cells", o.typed);
    if o.corrected > 0 {
        line.push_str(&format!(", corrected {} wrong values", o.corrected));
    }
    if o.retried > 0 {
        line.push_str(&format!(", retyped {} that dropped a key", o.retried));
    }
    if o.clicked {
        line.push_str(", clicking each cell (Tab would leave the board)");
    }
    if o.resolved > 0 {
        line.push_str(", after the page loaded a different puzzle");
    }
    if o.confirmed {
        out!("{line}; the page confirmed: {:?}", o.confirmation);
    } else {
        out!(
            "{line}; typed and read back, every cell right; no confirmation from the page is \
             known (name one with --success-text or --success-selector)"
        );
    }
}

/// A phase name and how to get its time.
type Phase = (&'static str, fn(&Timings) -> Option<Duration>);

/// Phase times; a phase a puzzle did not reach shows `-` (one puzzle) or is left out of the
/// medians (n says how many reached it).
pub(super) fn stats(session_starts: &[Duration], all: &[Timings]) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let session_start = pool::median_p90_max(session_starts.to_vec())
        .map(|(median, _, _)| median)
        .unwrap_or_default();
    let phases: [Phase; 7] = [
        ("navigation", |t| t.navigate),
        ("discovery", |t| t.discover),
        ("read", |t| t.read),
        ("solve", |t| t.solve),
        ("fill", |t| t.fill),
        ("verify", |t| t.verify),
        ("fill + verify", |t| Some(t.fill? + t.verify?)),
    ];
    if all.len() <= 1 {
        eprintln!("{:<14}{:>10.1} ms", "session start", ms(session_start));
        for (name, get) in phases {
            match all.first().and_then(get) {
                Some(v) => eprintln!("{name:<14}{:>10.1} ms", ms(v)),
                None => eprintln!("{name:<14}{:>10}    (not reached)", "-"),
            }
        }
        return;
    }
    eprintln!("{:<14}{:>10} {:>10} {:>10} {:>5}   (ms)", "phase", "median", "min", "max", "n");
    eprintln!("{:<14}{:>10.1}", "session start", ms(session_start));
    for (name, get) in phases {
        let mut v: Vec<f64> = all.iter().filter_map(get).map(ms).collect();
        if v.is_empty() {
            eprintln!("{name:<14}{:>10}", "-");
            continue;
        }
        v.sort_by(f64::total_cmp);
        let median = if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        eprintln!(
            "{name:<14}{median:>10.1} {:>10.1} {:>10.1} {:>5}",
            v[0],
            v[v.len() - 1],
            v.len()
        );
    }
}
