//! The automatic run (`--auto`, F2): read the game ID and board, solve, type every empty or
//! wrong cell with each key proven first, read the board back and confirm. Killer games, which
//! cannot be read before typing, go to [`killer`].

use std::time::Duration;

use super::backend::Desktop;
use super::error::DesktopError;
use super::lock::GameLock;
use super::verify::{check_matches, check_solved, unique_solution};
use super::{Check, Input, Options, Report, fill, game, keys, killer, model, mouse, thinking};
use crate::grid::Grid;

/// The whole run on a focused game: read the ID and board, solve the givens, type every empty
/// or wrong cell, copy the board back and confirm it is the solution. With `expected` (a puzzle
/// the user gave: `--puzzle`, the clipboard), the game is first checked against it: its
/// solution must be the game's and its values must keep the game's givens, else nothing is
/// typed.
///
/// A second bot on the same game refuses before sending anything ([`GameLock`]). The clipboard,
/// which the run uses to read the game, holds the user's text again afterwards (or nothing, if
/// it held no text).
pub fn run_matching<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    expected: Option<&Grid>,
) -> Result<Report, DesktopError> {
    let _lock = desktop.game_window_key().map(|key| GameLock::take(&key)).transpose()?;
    let t0 = desktop.elapsed();
    // Menus and dialogs the player left open go first, as nothing may be sent with one open.
    game::close_popups(desktop, opts)?;
    let before = desktop.clipboard_text().unwrap_or_else(|e| {
        tracing::warn!("cannot read the clipboard to restore it after the run: {e}");
        None
    });
    let result = run_game(desktop, opts, expected, t0);
    let restored = match &before {
        Some(text) => desktop.set_clipboard_text(text),
        None => desktop.clear_clipboard(),
    };
    if let Err(e) = restored {
        tracing::warn!("the run replaced the clipboard's text and cannot restore it: {e}");
    }
    result
}

/// [`run_matching`] inside the lock, from a game with no menu or dialog open (`t0`: the start).
fn run_game<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    expected: Option<&Grid>,
    t0: Duration,
) -> Result<Report, DesktopError> {
    let text = game::read_game_id(desktop, opts)?;
    let id = game::parse_game_id(&text)?;
    tracing::debug!("game {}: {text}", id.params);
    if id.params.killer {
        let t1 = desktop.elapsed();
        return killer::run(desktop, opts, &text, &id, expected, (t0, t1));
    }
    let board = game::read_board(desktop, opts, &id)?;
    let state = game::GameState { id, board };
    let t1 = desktop.elapsed();
    let solution = unique_solution(&state.id.grid)?;
    if let Some(expected) = expected {
        check_matches(expected, &state.id.grid, &solution)?;
    }
    let t2 = desktop.elapsed();
    let givens = &state.id.grid;
    let cells = fill::cells_to_type(&state.board, &solution);
    let corrected = cells.iter().filter(|&&i| state.board.get(i).is_some()).count();
    let opts = &mouse::resolve(desktop, opts, givens, &cells, &solution)?;
    let solved =
        Report::solved(&solution, state.id.params.to_string(), Check::Copy, t1 - t0, t2 - t1);
    let report = |typed, actions, typing, verify, verified| Report {
        typed,
        corrected,
        actions,
        typing,
        verify,
        verified,
        ..solved.clone()
    };
    if opts.show_thinking {
        let (placed, actions) = show_thinking(desktop, opts, &state, &solution)?;
        let t3 = desktop.elapsed();
        if opts.stop_after.is_some() {
            return Ok(report(placed, actions, t3 - t2, Duration::ZERO, false));
        }
        let board = game::read_board(desktop, opts, &state.id)?;
        let t4 = desktop.elapsed();
        check_solved(&board, &solution, "")?;
        return Ok(report(placed, actions, t3 - t2, t4 - t3, board.is_solution_of(givens)));
    }
    // Two passes at most: the second corrects anything the first left (keys the game dropped),
    // so a run never ends with a value it typed wrongly while it can still fix it.
    let mut board = state.board.clone();
    let (mut actions, mut typing, mut verify) = (0, Duration::ZERO, Duration::ZERO);
    for _pass in 0..2 {
        let todo = fill::cells_to_type(&board, &solution);
        if todo.is_empty() {
            break;
        }
        let start = desktop.elapsed();
        let mut tracker = model::Tracker::new(&board, givens, &solution);
        actions += type_cells(desktop, opts, &state.id, &mut tracker, &board, &todo, &solution)?;
        let typed = desktop.elapsed();
        board = game::read_board(desktop, opts, &state.id)?;
        typing += typed - start;
        verify += desktop.elapsed() - typed;
    }
    if let Err(DesktopError::NotSolved { count, first, .. }) = check_solved(&board, &solution, "") {
        // Name a window over the board, the likeliest reason keys or clicks went astray.
        let mut why = String::new();
        if let Some(area) = desktop.game_area()? {
            let (x, y) = (area.x + area.width as i32 / 2, area.y + area.height as i32 / 2);
            if let Some(cover) = desktop.covered_at(x, y)? {
                why = format!("; the board is covered by the window {cover}");
            }
        }
        return Err(DesktopError::NotSolved { count, first, why });
    }
    Ok(report(cells.len(), actions, typing, verify, board.is_solution_of(givens)))
}
/// Types the cells in `todo` by the chosen input, every key proven by the key model first.
/// Keyboard: with the pencil mode unknown, one probe finds it (Backspace on a wrong value, or
/// the first empty cell's value), read back by Copy; then the rest in normal mode.
fn type_cells<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id: &crate::format::solo_id::SoloId,
    tracker: &mut model::Tracker,
    board: &Grid,
    todo: &[usize],
    solution: &Grid,
) -> Result<usize, DesktopError> {
    let side = solution.side();
    let mut keys = keys::Keys::new(side);
    let mut sent = 0;
    if opts.input == Input::Keyboard && tracker.pencil().is_none() {
        sent += probe_pencil_mode(desktop, opts, id, tracker, &mut keys, board, todo, solution)?;
    }
    let rest: Vec<usize> = todo
        .iter()
        .copied()
        .filter(|&i| tracker.cell(i) != model::CellState::Value(solution.cells()[i]))
        .collect();
    let actions = fill::plan(opts, &mut keys, &id.grid, &rest, solution)?;
    Ok(sent + fill::prove_and_send(desktop, opts, tracker, actions, model::Allow::Values)?)
}

/// Finds the pencil mode with one key whose every outcome is safe, reads the board back to
/// learn which outcome it was, and leaves the game in normal mode with the cursor shown.
#[allow(clippy::too_many_arguments)]
fn probe_pencil_mode<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id: &crate::format::solo_id::SoloId,
    tracker: &mut model::Tracker,
    keys: &mut keys::Keys,
    board: &Grid,
    todo: &[usize],
    solution: &Grid,
) -> Result<usize, DesktopError> {
    let side = solution.side();
    // Backspace on a wrong value: clears it (normal mode) or does nothing (pencil mode), and
    // adds no pencil move either way. Else the first empty cell's value: placed, or a pencil
    // mark the value typed after Return removes again.
    let wrong = todo.iter().copied().find(|&i| board.get(i).is_some());
    let Some(cell) = wrong.or_else(|| todo.first().copied()) else {
        return Ok(0);
    };
    keys.go_to(cell % side, cell / side);
    if wrong.is_some() {
        keys.clear();
    } else {
        keys.value(solution.cells()[cell]);
    }
    let actions: Vec<fill::Action> = keys.take().into_iter().map(fill::Action::Key).collect();
    let mut sent = fill::prove_and_send(desktop, opts, tracker, actions, model::Allow::Probe)?;
    let now = game::read_board(desktop, opts, id)?.get(cell);
    let pencil = if wrong.is_some() { now.is_some() } else { now != Some(solution.cells()[cell]) };
    tracker.learn(pencil, cell, now);
    keys.assume_pencil(pencil);
    if pencil {
        keys.set_pencil(false);
        let back: Vec<fill::Action> = keys.take().into_iter().map(fill::Action::Key).collect();
        sent += fill::prove_and_send(desktop, opts, tracker, back, model::Allow::Values)?;
    }
    Ok(sent)
}

/// Show thinking: establishes the mode (keyboard), then plays the technique engine's path
/// (pencilled candidates, eliminations, placements), every key proven first. Returns values
/// placed and actions sent.
fn show_thinking<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    state: &game::GameState,
    solution: &Grid,
) -> Result<(usize, usize), DesktopError> {
    let givens = &state.id.grid;
    let mut tracker = model::Tracker::new(&state.board, givens, solution);
    let mut board = state.board.clone();
    let mut keys = keys::Keys::new(solution.side());
    let mut sent = 0;
    if opts.input == Input::Keyboard {
        let todo = fill::cells_to_type(&state.board, solution);
        sent += probe_pencil_mode(
            desktop,
            opts,
            &state.id,
            &mut tracker,
            &mut keys,
            &state.board,
            &todo,
            solution,
        )?;
        // The show starts from the board as found: the value (or pencil mark) a probe of an
        // empty cell left goes again.
        if let Some(&i) =
            todo.first().filter(|_| todo.iter().all(|&i| state.board.get(i).is_none()))
        {
            keys.go_to(i % solution.side(), i / solution.side());
            keys.clear();
            let back: Vec<fill::Action> = keys.take().into_iter().map(fill::Action::Key).collect();
            sent += fill::prove_and_send(desktop, opts, &mut tracker, back, model::Allow::Values)?;
        }
        // A wrong value the probe cleared is placed again by the engine.
        for i in 0..board.cells().len() {
            if let model::CellState::Value(v) = tracker.cell(i) {
                let _ = board.set(i, Some(v));
            } else if tracker.cell(i) == model::CellState::Empty {
                let _ = board.set(i, None);
            }
        }
    }
    let show = thinking::plan(opts, &mut keys, &mut tracker, givens, &board, solution)?;
    thinking::perform(desktop, opts, &show)?;
    Ok((show.placed(), sent + show.actions()))
}
