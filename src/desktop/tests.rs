//! The bot's logic against [`super::fake::FakeSolo`], a model of Solo's input handling: no X
//! needed. The same flows run against the real game in `tests/desktop`.

use std::time::Duration;

use super::fake::FakeSolo;
use super::keys::{Key, is_command_key};
use super::{DesktopError, Input, MouseGrid, Options, Platform, run_auto};
use crate::format::solo_id;

const GAMES: &str = include_str!("../../tests/fixtures/desktop/games.txt");

fn id(name: &str) -> &'static str {
    GAMES
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
        .expect("fixture")
}

fn opts() -> Options {
    Options { platform: Platform::Gtk, ..Options::default() }
}

fn assert_solved(game: &FakeSolo, name: &str) {
    let puzzle = solo_id::parse(id(name)).expect("id");
    assert!(game.board().is_solution_of(&puzzle), "{name} not solved");
    assert_eq!(game.fired, Vec::<String>::new(), "{name}: commands fired");
}

#[test]
fn auto_solves_every_fixture_without_firing_a_command() {
    for name in ["3x3du", "2x3", "3x4", "4x4", "3x3x", "9j", "5x5", "2x2", "2x5", "7j", "4x4x"] {
        let mut game = FakeSolo::new(id(name));
        let report = run_auto(&mut game, &opts()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.verified, "{name}");
        assert_solved(&game, name);
    }
}

#[test]
fn killer_is_refused_before_any_copy_or_value_key() {
    let mut game = FakeSolo::new(id("3x3k"));
    let err = run_auto(&mut game, &opts()).expect_err("killer");
    assert!(matches!(err, DesktopError::Killer { .. }), "{err}");
    assert_eq!(game.fired, Vec::<String>::new(), "the Copy keys would have hit Solve");
    assert!(game.keys.iter().all(|k| !matches!(k, Key::Char(_))), "{:?}", game.keys);
    assert_eq!(
        game.keys.iter().filter(|&&k| k == Key::Down).count(),
        2,
        "only Specific... was opened"
    );
}

#[test]
fn wrong_user_values_are_corrected_and_right_ones_kept() {
    let mut game = FakeSolo::new(id("3x3du"));
    let puzzle = solo_id::parse(id("3x3du")).expect("id");
    let solution = super::unique_solution(&puzzle).expect("unique");
    let empty: Vec<usize> = (0..81).filter(|&i| puzzle.get(i).is_none()).collect();
    game.grid[empty[0]] = solution.cells()[empty[0]] % 9 + 1; // wrong
    game.grid[empty[1]] = solution.cells()[empty[1]]; // right
    let report = run_auto(&mut game, &opts()).expect("solved");
    assert_eq!(report.corrected, 1);
    assert_eq!(report.typed, empty.len() - 1);
    assert_solved(&game, "3x3du");
}

#[test]
fn a_game_left_in_pencil_mode_is_recovered() {
    let mut game = FakeSolo::new(id("2x3"));
    (game.hshow, game.hpencil, game.hcursor) = (true, true, true);
    run_auto(&mut game, &opts()).expect("solved after switching pencil mode off");
    assert_solved(&game, "2x3");
    assert!(game.pencil.iter().all(|&m| m == 0), "values clear the stray pencil marks");
}

#[test]
fn invalid_and_ambiguous_boards_type_nothing() {
    // Two 1s in the first row, and an almost empty grid.
    for (text, expect_invalid) in [("2x2:1_1n", true), ("2x2:1o", false)] {
        let mut game = FakeSolo::new(text);
        let err = run_auto(&mut game, &opts()).expect_err("refused");
        match err {
            DesktopError::Invalid(_) => assert!(expect_invalid),
            DesktopError::Multiple => assert!(!expect_invalid),
            other => panic!("{other}"),
        }
        assert!(game.keys.iter().all(|k| !matches!(k, Key::Char(_))), "{:?}", game.keys);
    }
}

#[test]
fn mouse_input_clicks_cell_centres() {
    let mut game = FakeSolo::new(id("3x3du"));
    let mouse =
        Options { input: Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 })), ..opts() };
    run_auto(&mut game, &mouse).expect("solved by mouse");
    assert_solved(&game, "3x3du");
    // Without a grid the bot derives it from the window.
    let mut game = FakeSolo::new(id("4x4"));
    run_auto(&mut game, &Options { input: Input::Mouse(None), ..opts() }).expect("solved by mouse");
    assert_solved(&game, "4x4");
}

#[test]
fn mouse_starting_on_a_selected_cell_never_types_into_nothing() {
    // The user left the first target selected: a left click there would deselect it.
    let mut game = FakeSolo::new(id("5x5"));
    (game.hx, game.hy, game.hshow) = (0, 0, true);
    let mouse =
        Options { input: Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 })), ..opts() };
    run_auto(&mut game, &mouse).expect("solved");
    assert_solved(&game, "5x5");
}

#[test]
fn show_thinking_leaves_candidates_as_pencil_marks() {
    for input in [Input::Keyboard, Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 }))] {
        let mut game = FakeSolo::new(id("3x3du"));
        let o = Options {
            show_thinking: true,
            stop_after: Some(4),
            step_delay: Duration::ZERO,
            input,
            ..opts()
        };
        run_auto(&mut game, &o).expect("ran");
        let board = game.board();
        let puzzle = solo_id::parse(id("3x3du")).expect("id");
        assert_eq!(board.filled(), puzzle.filled() + 4);
        assert_eq!(game.pencil, super::thinking::candidates(&board));
        assert!(game.fired.is_empty());
        // Finishing from there solves it.
        let mut rest = Options { show_thinking: true, step_delay: Duration::ZERO, ..opts() };
        rest.input = o.input.clone();
        run_auto(&mut game, &rest).expect("solved");
        assert_solved(&game, "3x3du");
    }
}

#[test]
fn no_command_key_is_ever_sent_on_25x25() {
    let mut game = FakeSolo::new(id("5x5"));
    run_auto(&mut game, &opts()).expect("solved");
    // Letters n, q, r, u, m are values on 25x25: allowed, but only as values on a selected cell,
    // which the model checks (a rejected one would be in `fired`).
    assert!(game.fired.is_empty());
    assert!(game.keys.iter().any(|&k| is_command_key(k)), "25x25 does use those letters as values");
}

#[test]
fn windows_menu_keys_differ_only_in_the_item_keys() {
    let gtk = Platform::Gtk;
    let win = Platform::Windows;
    assert_eq!(gtk.open_game_menu(), win.open_game_menu());
    assert_eq!(win.pick(super::menu::MenuItem::Copy), vec![Key::Char('c')]);
    assert_eq!(win.line_ending(), "\r\n");
}

#[test]
fn windows_front_end_without_window_access_is_paced_and_solves() {
    // MobaXterm: Win32 menus with mnemonics, CRLF on the clipboard, and a backend that cannot
    // see menus or dialogs (the portable one).
    let mut game = FakeSolo::new(id("3x4"));
    game.windows = true;
    game.sees_windows = false;
    let o = Options { platform: Platform::Windows, ..Options::default() };
    let report = run_auto(&mut game, &o).expect("solved");
    assert!(report.verified);
    assert_solved(&game, "3x4");
    // The GTK keys would have picked the wrong items there.
    let mut game = FakeSolo::new(id("2x3"));
    game.windows = true;
    assert!(run_auto(&mut game, &opts()).is_err());
}

#[test]
fn a_mouse_grid_that_misses_cells_is_refused_before_typing() {
    let mut game = FakeSolo::new(id("5x5"));
    let off =
        Options { input: Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 46.0 })), ..opts() };
    let err = run_auto(&mut game, &off).expect_err("refused");
    assert!(matches!(err, DesktopError::MouseGridOff { .. }), "{err}");
    assert!(game.keys.iter().all(|k| !matches!(k, Key::Char(_))), "nothing typed");
    // Without a window to check against, 25x25 by mouse is refused outright.
    let mut game = FakeSolo::new(id("5x5"));
    game.sees_windows = false;
    let o =
        Options { input: Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 })), ..opts() };
    assert!(matches!(run_auto(&mut game, &o), Err(DesktopError::UncheckedMouse { side: 25 })));
}

#[test]
fn show_thinking_finds_out_a_pencil_mode_left_on() {
    let mut game = FakeSolo::new(id("2x3"));
    (game.hshow, game.hpencil, game.hcursor) = (true, true, true);
    let o =
        Options { show_thinking: true, stop_after: Some(2), step_delay: Duration::ZERO, ..opts() };
    run_auto(&mut game, &o).expect("ran");
    let board = game.board();
    assert_eq!(game.pencil, super::thinking::candidates(&board), "marks are the candidates");
    assert!(!game.hpencil, "left in normal mode");
    assert!(game.fired.is_empty());
}

#[test]
fn own_escape_notes_are_consumed_once_and_expire() {
    let own = super::OwnEscapes::default();
    assert!(!own.take(), "nothing noted");
    own.note();
    assert!(own.take());
    assert!(!own.take(), "consumed");
}
