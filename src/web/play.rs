//! One puzzle on one page, the one story for every kind of board: navigate, find the board
//! (the site's, or discovered), wait until it is ready, read it, solve it (once, in
//! [`super::answer`]), plan the keys, and by the run's [`Mode`] give a hint, stop (a dry run) or
//! type, read back and wait for the page's confirmation. What differs between a board of
//! elements and a board drawn on a canvas is the source's ([`super::board`]).

use std::time::{Duration, Instant};

use thirtyfour::prelude::WebDriver;

use super::answer::{engine_order, hint_for, solve_board};
use super::board::{canvas, dom};
use super::error::PlayError;
use super::fill::{self, Target};
use super::locate::{Locate, find_board};
use super::options::{Mode, Outcome, PlayOptions, Timings, timed};
use super::page::{navigate, normal_mode};
use super::read::PageBoard;
use super::site::{BoardSpec, DomSpec, ReadMode, Site};
use crate::grid::Grid;

/// Plays one puzzle. `timings` is filled phase by phase, so a failure still shows the phases
/// it reached.
pub async fn play(
    driver: &WebDriver,
    locate: &Locate,
    options: &PlayOptions,
    timings: &mut Timings,
) -> Result<Outcome, PlayError> {
    let known = match locate {
        Locate::Site(site) => Some(&**site),
        Locate::Discover => None,
    };
    if known.is_some_and(|site| site.board.is_pixels()) {
        super::read::warm_up_pixels();
    }
    let t = Instant::now();
    navigate(driver, known, options).await?;
    if let Some(site) = known {
        super::login::check(driver, site, options.element_timeout).await?;
    }
    timed(&mut timings.navigate, t);
    let (site, healed) = find_board(driver, locate, options, timings).await?;
    let site = site.as_ref();
    match &site.board {
        BoardSpec::Pixels(_) => play_pixels(driver, site, options, timings, healed).await,
        BoardSpec::Dom(dom) => play_elements(driver, site, dom, options, timings, healed).await,
    }
}

/// What the plan says to do after solving.
enum Planned {
    /// Nothing to type: a hint or a dry run, finished.
    Done(Outcome),
    /// Type `targets` (with show-thinking, `notes[i]` told before `targets[i]`).
    Type {
        /// The cells to type, in order.
        targets: Vec<Target>,
        /// The steps told before each.
        notes: Vec<Vec<String>>,
        /// The outcome so far.
        outcome: Outcome,
    },
}

/// The keys for a solved board, whatever its source: every cell that does not show its
/// solution value, except `unsure` (cells the read could not tell, never typed into); in the
/// engine's order with show-thinking; and the run's [`Mode`] decided here, once.
fn plan(
    options: &PlayOptions,
    board: &PageBoard,
    (puzzle, solution): (Grid, Grid),
    unsure: &[usize],
    resolved: usize,
    healed: Option<String>,
    timings: Timings,
) -> Result<Planned, PlayError> {
    let mut targets: Vec<Target> = fill::plan(board, solution.cells())
        .into_iter()
        .filter(|t| !unsure.contains(&t.index))
        .collect();
    // With show-thinking, the engine's order and the step texts told before each cell.
    let notes = match options.mode.thinking() {
        Some(thinking) => engine_order(board, &solution, thinking.scale, &mut targets)?,
        None => Vec::new(),
    };
    let mut outcome = Outcome::planned(&targets, (puzzle, solution), resolved, healed, timings);
    match options.mode {
        Mode::Hint(scale) => {
            outcome.hint = Some(hint_for(board, &outcome.solution, scale)?);
            Ok(Planned::Done(outcome))
        }
        Mode::DryRun => Ok(Planned::Done(outcome)),
        Mode::Solve | Mode::Thinking(_) => Ok(Planned::Type { targets, notes, outcome }),
    }
}

/// A board of page elements: read, solve, type behind the guard, read back; a board that
/// changed under the keys is read and solved again, once.
async fn play_elements(
    driver: &WebDriver,
    site: &Site,
    dom: &DomSpec,
    options: &PlayOptions,
    timings: &mut Timings,
    healed: Option<String>,
) -> Result<Outcome, PlayError> {
    let mut resolved = 0;
    let mut mode = dom.read;
    loop {
        let t = Instant::now();
        let board = dom::read_board(driver, site, mode).await?;
        timed(&mut timings.read, t);

        let t = Instant::now();
        let geometry = super::variant::dom::geometry(driver, site, &board).await?;
        let solved = match solve_board(geometry, &board) {
            Err(PlayError::Invalid(_) | PlayError::Unsolvable) if dom.unproven.is_some() => {
                return Err(dom::unproven_mistakes(driver, site, &board).await);
            }
            solved => solved?,
        };
        timed(&mut timings.solve, t);
        let planned = plan(options, &board, solved, &[], resolved, healed.clone(), *timings)?;
        let (targets, notes, mut outcome) = match planned {
            Planned::Done(outcome) => return Ok(outcome),
            Planned::Type { targets, notes, outcome } => (targets, notes, outcome),
        };

        let t = Instant::now();
        if let Some(mode) = &site.input_mode {
            normal_mode(driver, mode).await?;
        }
        let typed =
            dom::type_guarded(driver, site, options, &board, &targets, &notes, &mut outcome).await;
        timed(&mut timings.fill, t);
        let t = Instant::now();
        let result = match typed {
            Ok(dom::Typed::Done(typed)) => {
                dom::verify(driver, site, typed, &board, &targets, &mut outcome).await
            }
            Ok(dom::Typed::Changed(why)) if resolved == 0 => {
                // Read, solve and type again, once: never an old answer into a new puzzle.
                tracing::info!("{why}: reading the board again");
                resolved += 1;
                mode = ReadMode::Script;
                timed(&mut timings.verify, t);
                continue;
            }
            Ok(dom::Typed::Changed(why)) => Err(PlayError::BoardChanged(why)),
            Err(e) => Err(e),
        };
        timed(&mut timings.verify, t);
        outcome.timings = *timings;
        return result.map(|()| outcome);
    }
}

/// A board drawn on a canvas: read from its pixels (cells it cannot tell are left out where
/// the rest has one solution), typed at cell centres with the first key proven, read back
/// until every cell shows the solution.
async fn play_pixels(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
    timings: &mut Timings,
    healed: Option<String>,
) -> Result<Outcome, PlayError> {
    let bound =
        site.board.ready_timeout_ms().map(Duration::from_millis).unwrap_or(options.element_timeout);
    let t = Instant::now();
    let seen = canvas::read(driver, site, bound).await?;
    timed(&mut timings.navigate, t);
    // The read itself: the last screenshot and recognition.
    timings.read = Some(seen.shot.screenshot + seen.shot.recognition);

    let t = Instant::now();
    let (board, puzzle, solution, unsure) = canvas::solve_read(&seen.shot, site.board.cells())?;
    timed(&mut timings.solve, t);
    let planned = plan(options, &board, (puzzle, solution), &unsure, 0, healed, *timings)?;
    let (targets, notes, mut outcome) = match planned {
        Planned::Done(outcome) => return Ok(outcome),
        Planned::Type { targets, notes, outcome } => (targets, notes, outcome),
    };

    let t = Instant::now();
    let typed = canvas::type_all(driver, &seen, &targets, &notes, options).await;
    timed(&mut timings.fill, t);
    typed?;

    let t = Instant::now();
    let result = canvas::verify(driver, site, &seen, &outcome.solution, &unsure).await;
    timed(&mut timings.verify, t);
    outcome.timings = *timings;
    outcome.confirmation = result?;
    outcome.confirmed = !site.completion.success.read_back;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Geometry;
    use crate::logic::Scale;

    // A classic puzzle with one solution; the player typed nothing.
    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn board() -> PageBoard {
        let raw: Vec<String> =
            EASY.chars().map(|c| if c == '.' { String::new() } else { c.to_string() }).collect();
        PageBoard {
            side: 9,
            given: raw.iter().map(|r| !r.is_empty()).collect(),
            raw,
            dom_order: (0..81).collect(),
        }
    }

    fn options(mode: Mode) -> PlayOptions {
        PlayOptions::for_test(mode)
    }

    fn planned(mode: Mode, unsure: &[usize]) -> Planned {
        let b = board();
        let solved = solve_board(Geometry::standard(9).unwrap(), &b).unwrap();
        plan(&options(mode), &b, solved, unsure, 0, None, Timings::default()).unwrap()
    }

    #[test]
    fn a_solve_types_every_blank_with_its_solution_value_except_the_unsure_cells() {
        let Planned::Type { targets, notes, outcome } = planned(Mode::Solve, &[2, 3]) else {
            panic!("a solve types")
        };
        let blanks = EASY.bytes().filter(|&c| c == b'.').count();
        assert_eq!(targets.len(), blanks - 2, "r1c3 and r1c4 are left out");
        assert!(targets.iter().all(|t| t.index != 2 && t.index != 3));
        let b = board();
        assert!(targets.iter().all(|t| !b.given[t.index]), "a given is never typed into");
        assert!(targets.iter().all(|t| t.digit == outcome.solution.cells()[t.index]));
        assert!(notes.is_empty(), "nothing is told without show-thinking");
        assert_eq!(outcome.typed, targets.len());
    }

    #[test]
    fn a_dry_run_and_a_hint_type_nothing_and_only_the_hint_gives_a_step() {
        let Planned::Done(dry) = planned(Mode::DryRun, &[]) else { panic!("a dry run types") };
        assert!(dry.hint.is_none());
        let Planned::Done(hint) = planned(Mode::Hint(Scale::Score), &[]) else {
            panic!("a hint types")
        };
        assert!(matches!(hint.hint, Some(crate::web::Hint::Step(_))), "{:?}", hint.hint);
    }

    #[test]
    fn show_thinking_tells_a_step_list_before_every_cell() {
        let thinking = crate::web::Thinking {
            scale: Scale::Score,
            step_delay: Duration::ZERO,
            tell: std::sync::Arc::new(|_: &str| {}),
        };
        let Planned::Type { targets, notes, .. } = planned(Mode::Thinking(thinking), &[]) else {
            panic!("show-thinking types")
        };
        assert_eq!(notes.len(), targets.len());
        assert!(!notes[0].is_empty(), "the first cell comes with the step that places it");
    }
}
