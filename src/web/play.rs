//! One puzzle on one page, the one story for every kind of board: navigate, find the board
//! (the site's, or discovered), wait until it is ready and read it, solve it (once, in
//! [`super::answer`]), plan the keys, and by the run's [`Mode`] give a hint, stop (a dry run) or
//! type, read back (cells that dropped a key typed once more) and wait for the page's
//! confirmation. What differs between a board of elements and a board drawn on a canvas is the
//! source's ([`super::board::BoardSource`]); the story is [`play_on`].

use std::time::Instant;

use thirtyfour::prelude::WebDriver;

use super::answer::{engine_order, hint_for, solve_board};
use super::board::canvas::CanvasBoard;
use super::board::dom::DomBoard;
use super::board::{Back, BoardSource, Seen, Typed};
use super::error::PlayError;
use super::fill::{self, Target};
use super::locate::{Locate, find_board};
use super::options::{Mode, Outcome, PlayOptions, Timings, timed};
use super::page::{navigate, settled_by};
use super::read::PageBoard;
use crate::grid::{Cell, Grid};

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
        super::login::check(driver, site, &options.login, options.element_timeout).await?;
    }
    timed(&mut timings.navigate, t);
    let (site, healed) = find_board(driver, locate, options, timings).await?;
    let site = site.as_ref();
    if site.board.is_pixels() {
        play_on(&mut CanvasBoard::new(driver, site, options), options, timings, healed).await
    } else {
        play_on(&mut DomBoard::new(driver, site, options), options, timings, healed).await
    }
}

/// The story over any board source, once the board is found: read, solve, plan, and with a
/// mode that types, type, read back and confirm. A board that changed under the keys is read,
/// solved and typed again, once (never an old answer into a new puzzle); cells that dropped
/// their key are typed once more.
pub(crate) async fn play_on<S: BoardSource>(
    source: &mut S,
    options: &PlayOptions,
    timings: &mut Timings,
    healed: Option<String>,
) -> Result<Outcome, PlayError> {
    let mut resolved = 0;
    loop {
        let t = Instant::now();
        let seen = source.read(resolved > 0).await?;
        match seen.read_took {
            None => timed(&mut timings.read, t),
            // The wait for the board was navigation; the read, its last look.
            Some(took) => {
                timed(&mut timings.navigate, t);
                timings.read = Some(took);
            }
        }
        let t = Instant::now();
        let solved = solve(source, &seen).await?;
        timed(&mut timings.solve, t);
        let planned =
            plan(options, &seen.board, solved, &seen.unsure, resolved, healed.clone(), *timings)?;
        let (targets, notes, mut outcome) = match planned {
            Planned::Done(outcome) => return Ok(outcome),
            Planned::Type { targets, notes, outcome } => (targets, notes, outcome),
        };

        let t = Instant::now();
        let typed = source.type_cells(&seen, &targets, &notes, &mut outcome).await;
        timed(&mut timings.fill, t);
        let t = Instant::now();
        match typed? {
            Typed::Done => {}
            Typed::Changed(why) if resolved == 0 => {
                tracing::info!("{why}: reading the board again");
                resolved += 1;
                timed(&mut timings.verify, t);
                continue;
            }
            Typed::Changed(why) => return Err(PlayError::BoardChanged(why)),
        }
        let result = finish(source, &seen, &targets, &mut outcome).await;
        timed(&mut timings.verify, t);
        outcome.timings = *timings;
        return result.map(|()| outcome);
    }
}

/// Solves the board read, once; givens that break a rule or leave no solution are named as
/// the player's mistakes where the source says nothing proves the givens.
async fn solve<S: BoardSource>(source: &mut S, seen: &Seen) -> Result<(Grid, Grid), PlayError> {
    match solve_board(seen.geometry.clone(), &seen.board) {
        Err(e @ (PlayError::Invalid(_) | PlayError::Unsolvable)) => {
            Err(source.mistakes(seen).await.unwrap_or(e))
        }
        solved => solved,
    }
}

/// After typing: read back, type once more the cells that dropped their key (a cell that drops
/// it again fails the run), and take the page's confirmation: an alert that came with the keys
/// settles it either way, a marker that showed success before typing proves nothing, else the
/// page is asked.
async fn finish<S: BoardSource>(
    source: &mut S,
    seen: &Seen,
    targets: &[Target],
    outcome: &mut Outcome,
) -> Result<(), PlayError> {
    if let Back::Dropped(missed) = source.read_back(seen, targets, &outcome.solution).await? {
        // Each cleared of what it shows, then typed again.
        let again: Vec<Target> =
            missed.iter().map(|m| Target { clear: m.found.chars().count(), ..m.target }).collect();
        source.retype(seen, &again).await?;
        outcome.retried = again.len();
        let back = source.read_back(seen, &again, &outcome.solution).await?;
        if let Back::Dropped(missed) = back
            && let Some(m) = missed.first()
        {
            return Err(PlayError::Dropped {
                cell: Cell::from_index(m.target.index, seen.board.side),
                expected: m.target.digit,
                found: m.found.clone(),
            });
        }
    }
    let finished = source.finished();
    outcome.confirmation =
        match settled_by(source.success(), finished.alert.as_deref(), finished.before)? {
            Some(shown) => shown,
            None => source.confirm(seen).await?,
        };
    outcome.confirmed = !source.success().read_back;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
