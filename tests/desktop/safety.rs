//! Issue 9 against the real game: states players leave Solo in (pencil mode with a wrong
//! letter to correct, menus and dialogs open, windows off-screen, covered, taller than wide),
//! `--puzzle` of another game, interactive F2 on the focused window, and the small items
//! (exit codes, counts, no pencil moves in the undo history). Each case must solve, or refuse
//! with nothing typed; Solo must still run the same game and no wrong value may be left.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::harness::{self, Game, Screen, require_tools, save_moves};
use super::{assert_solved, game_id, run_ok};
use sudobot::format::{solo_id, solo_text};
use sudobot::grid::{Geometry, Grid};

/// Centre of cell (x, y) of a game at (0,0) with no window manager and the default tile.
fn centre(x: usize, y: usize) -> (String, String) {
    ((48 + 48 * x).to_string(), (73 + 48 * y).to_string())
}

/// A 30x30 puzzle (6x5 boxes) with a unique solution, built here: a pattern solution with
/// one cell emptied per row and column (every hole is a naked single).
pub fn puzzle_30() -> Grid {
    let g = Arc::new(Geometry::boxed(6, 5).expect("6x5"));
    let side = 30;
    let cells: Vec<u8> = (0..side * side)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            let v = ((6 * (r % 5) + r / 5 + c) % side + 1) as u8;
            if c == (r * 7) % side { 0 } else { v }
        })
        .collect();
    let puzzle = Grid::new(g, cells).expect("grid");
    sudobot::desktop::unique_solution(&puzzle).expect("unique");
    puzzle
}

/// The board as copied, on the ID's geometry.
fn board(screen: &Screen, game: &Game) -> Vec<u8> {
    solo_text::parse(&screen.copy_board(game)).expect("copy").cells().to_vec()
}

/// Asserts the game still runs the same game, and every value is the solution's or was there
/// before the bot ran.
fn assert_safe(screen: &mut Screen, game: &Game, id: &str, before: &[u8]) {
    assert!(screen.alive(game), "Solo quit");
    assert_eq!(screen.game_id(game), id, "the game changed");
    let puzzle = solo_id::parse(id).expect("id");
    let solution = sudobot::desktop::unique_solution(&puzzle).expect("unique");
    for (i, v) in board(screen, game).into_iter().enumerate() {
        assert!(
            v == 0 || v == solution.cells()[i] || v == before[i],
            "cell {i} holds {v}, neither the solution's {} nor the player's {}",
            solution.cells()[i],
            before[i]
        );
    }
}

#[test]
fn pencil_mode_with_a_wrong_letter_on_25x25_and_30x30() {
    require_tools!();
    let mut screen = Screen::start(1600, 1600);
    let big = solo_id::write(&puzzle_30());
    for (id, letter) in [(game_id("5x5"), 23u8), (big.as_str(), 26u8)] {
        let puzzle = solo_id::parse(id).expect("id");
        let side = puzzle.side();
        let solution = sudobot::desktop::unique_solution(&puzzle).expect("unique");
        let game = screen.launch(id, &[]);
        screen.focus(&game);
        // A wrong value in a cell whose answer is the letter n (25x25) or q (30x30).
        let target = (0..side * side)
            .find(|&i| puzzle.get(i).is_none() && solution.cells()[i] == letter)
            .or_else(|| (0..side * side).find(|&i| puzzle.get(i).is_none()))
            .expect("an empty cell");
        let wrong = if solution.cells()[target] == 1 { "2" } else { "1" };
        let (x, y) = centre(target % side, target / side);
        screen.xdotool(&["mousemove", &x, &y, "click", "1", "key", wrong]);
        // Then pencil mode: a right click on another empty cell, as the issue found it.
        let other = (0..side * side)
            .find(|&i| puzzle.get(i).is_none() && i != target)
            .expect("another empty cell");
        let (x, y) = centre(other % side, other / side);
        screen.xdotool(&["mousemove", &x, &y, "click", "3"]);
        let before = board(&screen, &game);
        assert_ne!(before[target], 0, "the wrong value is in the game");
        screen.focus(&game);
        let stdout = run_ok(&screen, &["desktop", "--auto", "--timeout", "10000"]);
        assert!(stdout.contains("1 corrected"), "{stdout}");
        assert_safe(&mut screen, &game, id, &before);
        let after = board(&screen, &game);
        assert_eq!(after, solution.cells(), "{side}x{side} solved");
        screen.close(game);
    }
}

#[test]
fn menus_and_dialogs_left_open_are_closed_first() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    for (name, keys) in [
        ("2x3", vec!["alt+g"]),
        ("3x3du", vec!["alt+g", "Down", "Down", "Return"]),
        ("3x4", vec!["alt+g", "Right"]),
    ] {
        let game = screen.launch(game_id(name), &[]);
        screen.focus(&game);
        let mut args = vec!["key", "--delay", "80"];
        args.extend(keys.iter().copied());
        screen.xdotool(&args);
        let started = Instant::now();
        run_ok(&screen, &["desktop", "--auto"]);
        eprintln!("{name} with {keys:?} open: {:?}", started.elapsed());
        assert!(screen.alive(&game));
        assert_solved(name, &screen.copy_board(&game));
        screen.close(game);
    }
}

#[test]
fn mouse_refuses_cells_off_screen_or_covered_and_solves_a_tall_window() {
    require_tools!();
    let mut screen = Screen::start(1280, 1024);
    // 5x5 is 1274 pixels tall: rows 22-25 are below the screen.
    let game = screen.launch(game_id("5x5"), &[]);
    screen.focus(&game);
    let before = board(&screen, &game);
    let out = screen.sudobot(&["desktop", "--auto", "--input", "mouse"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("off the 1280x1024 screen"), "{stderr}");
    assert_eq!(board(&screen, &game), before, "nothing typed");
    assert_safe(&mut screen, &game, game_id("5x5"), &before);
    screen.close(game);
    // A 9x9 window partly off the right edge.
    let game = screen.launch(game_id("3x3du"), &[]);
    screen.xdotool(&["windowmove", &game.window, "1000", "0"]);
    screen.focus(&game);
    let before = board(&screen, &game);
    let out = screen.sudobot(&["desktop", "--auto", "--input", "mouse"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("off the"), "{stderr}");
    assert_eq!(board(&screen, &game), before, "nothing typed");
    // Taller than wide: the board is centred; the clicks must find it.
    screen.xdotool(&["windowmove", &game.window, "0", "0"]);
    screen.xdotool(&["windowsize", &game.window, "481", "900"]);
    screen.focus(&game);
    run_ok(&screen, &["desktop", "--auto", "--input", "mouse"]);
    assert_solved("3x3du", &screen.copy_board(&game));
    screen.close(game);
    // Another window over the board: the bot raises the game above it (nothing can stay on
    // top without a window manager), so the clicks reach the cells. A window that stays above
    // (always on top) is refused, naming it (unit test with the model).
    let game = screen.launch(game_id("2x3"), &[]);
    let cover = screen.cover("200x150+100+100");
    screen.xdotool(&["windowraise", &cover]);
    run_ok(&screen, &["desktop", "--auto", "--input", "mouse"]);
    assert_solved("2x3", &screen.copy_board(&game));
}

#[test]
fn the_same_cases_under_a_window_manager() {
    require_tools!();
    let mut screen = Screen::start(1280, 1024);
    screen.start_window_manager();
    let game = screen.launch(game_id("3x3du"), &[]);
    screen.focus(&game);
    screen.xdotool(&["key", "--delay", "40", "Up", "Return", "alt+g"]);
    run_ok(&screen, &["desktop", "--auto"]);
    assert_solved("3x3du", &screen.copy_board(&game));
    screen.close(game);
    let game = screen.launch(game_id("2x3"), &[]);
    screen.focus(&game);
    screen.xdotool(&["key", "--delay", "40", "Down", "Return"]);
    run_ok(&screen, &["desktop", "--auto", "--input", "mouse"]);
    assert_solved("2x3", &screen.copy_board(&game));
    screen.close(game);
    // A minimized game is named as such, not "is Solo running?".
    let game = screen.launch(game_id("3x3du"), &[]);
    screen.xdotool(&["windowminimize", "--sync", &game.window]);
    let out = screen.sudobot(&["desktop", "--auto", "--timeout", "500"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("is minimized"), "{stderr}");
    assert!(screen.alive(&game));
}

#[test]
fn interactive_puzzle_must_match_and_f2_acts_on_the_focused_window() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let game = screen.launch(game_id("3x3du"), &[]);
    screen.focus(&game);
    let before = board(&screen, &game);
    let mut bot = screen.spawn_sudobot(&["desktop", "--puzzle", game_id("2x3")]);
    harness::wait_until("the listener", Duration::from_secs(10), || {
        bot.output().contains("listening").then_some(())
    });
    let mut pressed = Instant::now() - Duration::from_secs(5);
    harness::wait_until("F2 to answer", Duration::from_secs(30), || {
        if bot.output().contains("does not match") {
            return Some(());
        }
        if pressed.elapsed() >= Duration::from_secs(3) {
            screen.xdotool(&["key", "F2"]);
            pressed = Instant::now();
        }
        None
    });
    assert_eq!(board(&screen, &game), before, "nothing typed: {}", bot.output());
    screen.xdotool(&["key", "Escape"]);
    assert_eq!(bot.wait_exit(Duration::from_secs(10)), Some(0), "{}", bot.output());
    assert_safe(&mut screen, &game, game_id("3x3du"), &before);

    // F2 solves the Solo window focused when it is pressed, not the one found at start-up.
    let mut bot = screen.spawn_sudobot(&["desktop"]);
    harness::wait_until("the listener", Duration::from_secs(10), || {
        bot.output().contains("listening").then_some(())
    });
    let second = screen.launch(game_id("2x3"), &[]);
    screen.focus(&second);
    let mut pressed = Instant::now() - Duration::from_secs(5);
    harness::wait_until("F2 to solve", Duration::from_secs(30), || {
        if bot.output().contains("confirmed") {
            return Some(());
        }
        if pressed.elapsed() >= Duration::from_secs(3) {
            screen.xdotool(&["key", "F2"]);
            pressed = Instant::now();
        }
        None
    });
    assert_solved("2x3", &screen.copy_board(&second));
    assert_eq!(board(&screen, &game), before, "the other game untouched");
    // With another window focused, F2 reads it by its pixels: no board there, so it names the
    // window and sends nothing.
    let cover = screen.cover("200x100+600+500");
    let mut pressed = Instant::now() - Duration::from_secs(5);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !bot.output().contains("(focused, not Solo): no sudoku board") {
        assert!(Instant::now() < deadline, "F2 did not refuse; output:\n{}", bot.output());
        if pressed.elapsed() >= Duration::from_secs(3) {
            screen.xdotool(&["mousemove", "700", "550"]);
            screen.xdotool(&["windowfocus", "--sync", &cover]);
            screen.xdotool(&["key", "F2"]);
            pressed = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    screen.focus(&second);
    screen.xdotool(&["key", "Escape"]);
    assert_eq!(bot.wait_exit(Duration::from_secs(10)), Some(0), "{}", bot.output());
    assert_eq!(board(&screen, &game), before);
}

#[test]
fn small_items_exit_codes_counts_and_undo_history() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    for bad in [
        vec!["desktop", "--auto", "--input", "mouse", "--origin", "48,73"],
        vec!["desktop", "--auto", "--input", "mouse", "--origin", "48,73", "--step", "-4"],
    ] {
        let out = screen.sudobot(&bad);
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    }
    // --stop-after N reports N values typed.
    let game = screen.launch(game_id("3x3du"), &[]);
    screen.focus(&game);
    let stdout = run_ok(
        &screen,
        &["desktop", "--auto", "--show-thinking", "--step-delay", "0", "--stop-after", "4"],
    );
    assert!(stdout.contains(": 4 value(s) typed"), "{stdout}");
    screen.close(game);
    // Pencil mode with a wrong value to correct: no pencil move goes into the undo history.
    let game = screen.launch(game_id("2x3"), &[]);
    screen.focus(&game);
    let puzzle = solo_id::parse(game_id("2x3")).expect("id");
    let solution = sudobot::desktop::unique_solution(&puzzle).expect("unique");
    let target = (0..36).find(|&i| puzzle.get(i).is_none()).expect("empty");
    let wrong = (solution.cells()[target] % 6 + 1).to_string();
    let (x, y) = centre(target % 6, target / 6);
    screen.xdotool(&["mousemove", &x, &y, "click", "1", "key", &wrong]);
    let other = (0..36).find(|&i| puzzle.get(i).is_none() && i != target).expect("empty");
    let (x, y) = centre(other % 6, other / 6);
    screen.xdotool(&["mousemove", &x, &y, "click", "3"]);
    screen.focus(&game);
    run_ok(&screen, &["desktop", "--auto"]);
    assert_solved("2x3", &screen.copy_board(&game));
    let moves = save_moves(&screen.save_game(&game, "undo-history"));
    assert!(moves.iter().all(|m| m.starts_with('R')), "{moves:?}");
}

#[test]
fn a_decoy_window_titled_solo_is_not_taken_for_the_game() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let game = screen.launch(game_id("2x3"), &[]);
    // Another program's window titled "Solo", above the game.
    let decoy = screen.window_titled("Solo", "300x200+0+0");
    screen.xdotool(&["windowraise", &decoy]);
    run_ok(&screen, &["desktop", "--auto"]);
    assert_solved("2x3", &screen.copy_board(&game));
    assert_safe(&mut screen, &game, game_id("2x3"), &[0; 36]);
}
