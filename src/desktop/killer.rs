//! Solving a Killer game in the window. Killer games have no Game > Copy, so the bot cannot
//! read the board before typing:
//!
//! 1. The game ID (cages and sums included) comes from Game > Specific..., as for every game.
//!    A Killer with no solution or several is refused before anything is typed.
//! 2. Every non-given cell is typed, whatever the player left there: by keyboard with
//!    [`fill::blind_plan`] (value, Return, value: right in either pencil mode), by mouse with
//!    a click and the value; the key model proves the plan in both pencil modes first
//!    ([`fill::check_blind`]). Typing a value also clears the cell's pencil marks.
//! 3. The game is saved (Game > Save..., [`save`]) to a private temporary file, and the save
//!    file's moves are replayed over the ID's givens. Cells still wrong (keys the game
//!    dropped) are typed once more and the game saved again.
//! 4. Success only when the replayed board is the solution, a full grid keeping every given
//!    with every row, column, box and cage valid. The game's Solve is never used.

use std::time::Duration;

use super::backend::Desktop;
use super::error::DesktopError;
use super::keys::Keys;
use super::model::{Tracker, Worlds};
use super::save::{self, PrivateDir};
use super::verify::{check_matches, check_solved, unique_solution};
use super::{Check, Input, Options, Report, fill, mouse, thinking};
use crate::format::solo_id::SoloId;
use crate::grid::Grid;

/// How a Killer board was read, for [`DesktopError::NotSolved`].
const BY_SAVE: &str = " (by the game's save file)";

/// Solves the Killer game whose ID was read as `id_text` (decoded as `id`), `t0` being when
/// the run started and `t1` when the ID was read.
pub(super) fn run<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id_text: &str,
    id: &SoloId,
    expected: Option<&Grid>,
    (t0, t1): (Duration, Duration),
) -> Result<Report, DesktopError> {
    let givens = &id.grid;
    let solution = unique_solution(givens)?;
    if let Some(expected) = expected {
        check_matches(expected, givens, &solution)?;
    }
    let t2 = desktop.elapsed();
    if opts.show_thinking {
        return thinking(desktop, opts, id_text, id, &solution, (t0, t1, t2));
    }
    // The game must be saved to be checked: refuse before typing where that cannot be done.
    save::check_backend(desktop)?;
    let mut dir = PrivateDir::new()?;
    let desc = id_text.split_once(':').map_or("", |(_, d)| d);
    let cells: Vec<usize> =
        (0..givens.cells().len()).filter(|&i| givens.get(i).is_none()).collect();
    let opts = &mouse::resolve(desktop, opts, givens, &cells, &solution)?;
    let (mut actions, mut typing, mut verify) = (0, Duration::ZERO, Duration::ZERO);
    // First pass: every non-given cell, contents unknown. Second pass: the cells the save
    // showed still wrong, contents known from it.
    let mut tracker = Tracker::blind(givens, &solution);
    let mut todo = cells.clone();
    let mut board = None;
    for _pass in 0..2 {
        let start = desktop.elapsed();
        actions += type_blind(desktop, opts, tracker, givens, &todo, &solution)?;
        let typed = desktop.elapsed();
        let (now, _file) = save::read_board(desktop, opts, &mut dir, givens, desc)?;
        typing += typed - start;
        verify += desktop.elapsed() - typed;
        let grid = Grid::new(givens.geometry_arc().clone(), now.values.clone())
            .map_err(|e| DesktopError::SaveFile(format!("the replayed board: {e}")))?;
        todo = fill::cells_to_type(&grid, &solution);
        tracker = Tracker::new(&grid, givens, &solution);
        board = Some(grid);
        if todo.is_empty() {
            break;
        }
    }
    drop(dir);
    let board = board.ok_or(DesktopError::SaveFile("no save was read".into()))?;
    check_solved(&board, &solution, BY_SAVE)?;
    // The replayed board is the solution; check the rules on it as well.
    let verified = board.is_solution_of(givens);
    if !verified {
        return Err(DesktopError::SaveFile(
            "the replayed board equals the solution but breaks a rule".into(),
        ));
    }
    Ok(Report {
        typed: cells.len(),
        actions,
        typing,
        verify,
        verified,
        ..Report::solved(&solution, id.params.to_string(), Check::Save, t1 - t0, t2 - t1)
    })
}

/// Types `todo` without knowing the pencil mode, every key proven in both modes first.
fn type_blind<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    tracker: Tracker,
    givens: &Grid,
    todo: &[usize],
    solution: &Grid,
) -> Result<usize, DesktopError> {
    let mut keys = Keys::new(solution.side());
    let plan = match &opts.input {
        Input::Keyboard => fill::blind_plan(&mut keys, todo, solution),
        Input::Mouse(Some(grid)) => fill::mouse_plan(grid, givens, todo, solution)?,
        Input::Mouse(None) => return Err(DesktopError::NoMouseGrid),
    };
    let proven = fill::check_blind(&mut Worlds::new(tracker), plan, todo, solution)?;
    fill::perform(desktop, opts, &proven)?;
    Ok(proven.len())
}

/// `--show-thinking` on a Killer game ([`thinking::run_killer`]): the engine's path with
/// its cage techniques, the board read and checked by the game's save file.
fn thinking<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id_text: &str,
    id: &SoloId,
    solution: &Grid,
    (t0, t1, t2): (Duration, Duration, Duration),
) -> Result<Report, DesktopError> {
    let givens = &id.grid;
    let desc = id_text.split_once(':').map_or("", |(_, d)| d);
    let cells: Vec<usize> =
        (0..givens.cells().len()).filter(|&i| givens.get(i).is_none()).collect();
    let opts = &mouse::resolve(desktop, opts, givens, &cells, solution)?;
    let show = thinking::run_killer(desktop, opts, givens, desc, solution)?;
    let t3 = desktop.elapsed();
    let verified = match &show.board {
        Some(board) => {
            check_solved(board, solution, BY_SAVE)?;
            board.is_solution_of(givens)
        }
        None => false,
    };
    Ok(Report {
        typed: show.placed,
        actions: show.actions,
        typing: t3 - t2,
        verified,
        ..Report::solved(solution, id.params.to_string(), Check::Save, t1 - t0, t2 - t1)
    })
}
