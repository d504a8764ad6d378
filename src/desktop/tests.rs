//! The bot's logic against [`super::fake::FakeSolo`], a model of Solo's input handling: no X
//! needed. The same flows run against the real game in `tests/desktop`.

use std::time::Duration;

use super::fake::FakeSolo;
use super::keys::{Key, is_command_key};
use super::{DesktopError, Input, MouseGrid, Options, Platform, run_matching};
use crate::format::solo_id;
use crate::grid::Grid;
use crate::logic::{self, Board, Scale};

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
        let report =
            run_matching(&mut game, &opts(), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.verified, "{name}");
        assert_solved(&game, name);
    }
}

/// Checks a Killer game is solved: no command fired, Copy never opened (its GTK keys land on
/// Solve), every save file removed.
fn assert_killer_solved(game: &FakeSolo, id: &str) {
    let puzzle = solo_id::parse(id).expect("id");
    assert!(game.board().is_solution_of(&puzzle), "not solved");
    assert_eq!(game.fired, Vec::<String>::new(), "commands fired");
    assert!(!game.saves.is_empty(), "checked by saving");
    for path in &game.saves {
        assert!(!path.exists(), "{} left behind", path.display());
        assert!(!path.parent().is_some_and(|d| d.exists()), "the private directory is left");
    }
}

#[test]
fn killer_is_typed_blind_and_checked_by_saving() {
    let mut game = FakeSolo::new(id("3x3k"));
    let report = run_matching(&mut game, &opts(), None).expect("solved");
    assert!(report.verified);
    assert_eq!(report.check, super::Check::Save);
    assert_eq!(report.typed, 81, "every non-given cell");
    assert_killer_solved(&game, id("3x3k"));
    assert_eq!(game.saves.len(), 1);
    // Only Specific... (2 Downs) and Save... (5 Downs) were opened.
    assert_eq!(game.keys.iter().filter(|&&k| k == Key::Down).count(), 7 + 81 / 9 - 1);
}

#[test]
fn killer_replaces_what_the_player_left_in_either_mode() {
    let puzzle = solo_id::parse(id("3x3k")).expect("id");
    let solution = super::unique_solution(&puzzle).expect("unique");
    for pencil in [false, true] {
        for windows in [false, true] {
            let mut game = FakeSolo::new(id("3x3k"));
            game.windows = windows;
            // Wrong values, right values, pencil marks, and the mode and cursor left anywhere.
            game.grid[0] = solution.cells()[0] % 9 + 1;
            game.grid[1] = solution.cells()[1];
            // The player typed them: moves in the game's history, as in Solo.
            game.moves.push(format!("R0,0,{}", game.grid[0]));
            game.moves.push(format!("R1,0,{}", game.grid[1]));
            game.pencil[2] = 0b1_0110_1001;
            game.pencil[40] = 1 << (solution.cells()[40] - 1);
            (game.hx, game.hy, game.hshow, game.hpencil, game.hcursor) = (4, 4, true, pencil, true);
            let o = Options {
                platform: if windows { Platform::Windows } else { Platform::Gtk },
                ..opts()
            };
            run_matching(&mut game, &o, None)
                .unwrap_or_else(|e| panic!("pencil {pencil}, windows {windows}: {e}"));
            assert_killer_solved(&game, id("3x3k"));
            assert!(game.pencil.iter().all(|&m| m == 0), "pencil marks cleared");
        }
    }
}

#[test]
fn killer_survives_a_dropped_save_confirmation() {
    let mut game = FakeSolo::new(id("3x3k"));
    game.save_confirms_lost = 2;
    run_matching(&mut game, &opts(), None).expect("solved");
    assert_killer_solved(&game, id("3x3k"));
}

#[test]
fn killer_never_confirms_a_save_name_another_program_pasted() {
    let mut game = FakeSolo::new(id("3x3k"));
    game.foreign_pastes = 2;
    game.clipboard = Some("the user's text".into());
    run_matching(&mut game, &opts(), None).expect("solved");
    assert_killer_solved(&game, id("3x3k"));
    assert_eq!(game.foreign_pastes, 0, "both foreign pastes happened");
    let names: Vec<_> = game.saves.iter().map(|p| p.display().to_string()).collect();
    assert!(names.iter().all(|n| n.contains("sudobot-save-")), "{names:?}");
    // The user's clipboard is back.
    assert_eq!(game.clipboard.as_deref(), Some("the user's text"));
}

#[test]
fn a_second_bot_on_a_locked_game_refuses_and_sends_nothing() {
    let key = format!("fake-{}-{}", std::process::id(), fastrand::u64(..));
    let held = super::lock::GameLock::take(&key).expect("the first bot's lock");
    let mut game = FakeSolo::new(id("3x3k"));
    game.window_key = Some(key.clone());
    let err = run_matching(&mut game, &opts(), None).expect_err("busy");
    assert!(matches!(err, DesktopError::Busy { .. }), "{err}");
    assert!(game.keys.is_empty() && game.moves.is_empty(), "{:?}", game.keys);
    drop(held);
    run_matching(&mut game, &opts(), None).expect("solved once the first bot is done");
    assert_killer_solved(&game, id("3x3k"));
}

#[test]
fn an_ambiguous_or_unsolvable_killer_is_refused_with_nothing_typed() {
    let text = include_str!("../../tests/fixtures/killer/ambiguous.txt");
    let ambiguous = text.lines().find(|l| !l.starts_with('#')).expect("an ID");
    let mut game = FakeSolo::new(ambiguous);
    let err = run_matching(&mut game, &opts(), None).expect_err("ambiguous");
    assert!(matches!(err, DesktopError::Multiple), "{err}");
    // A cage sum changed by one: no solution.
    let unsolvable = id("3x3k").replacen(",10a", ",11a", 1);
    let mut other = FakeSolo::new(&unsolvable);
    let err = run_matching(&mut other, &opts(), None).expect_err("unsolvable");
    assert!(matches!(err, DesktopError::Unsolvable), "{err}");
    for game in [&game, &other] {
        assert!(game.keys.iter().all(|k| !matches!(k, Key::Char(_))), "{:?}", game.keys);
        assert!(game.moves.is_empty() && game.saves.is_empty() && game.fired.is_empty());
    }
}

#[test]
fn show_thinking_on_killer_plays_the_cage_techniques_read_by_save_files() {
    let puzzle = solo_id::parse(id("3x3k")).expect("id");
    let path = logic::explain(&puzzle, Scale::Score).expect("path");
    let (game, texts) = show(id("3x3k"), Input::Keyboard, Scale::Score, None);
    assert_eq!(game.grid, super::unique_solution(&puzzle).expect("unique").cells());
    assert!(game.fired.is_empty(), "{:?}", game.fired);
    assert_eq!(texts.len(), path.steps.len());
    assert!(texts.iter().any(|t| t.starts_with("Cage")), "{texts:?}");
    check_moves(&game, &puzzle, &texts, Scale::Score);
    assert!(game.saves.len() >= 3, "read, probed and checked by save files");
    // By mouse, with no given to click: each key after two clicks on its own cell.
    let mouse = Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 }));
    let (game, texts) = show(id("3x3k"), mouse, Scale::Score, None);
    assert_eq!(game.grid, super::unique_solution(&puzzle).expect("unique").cells());
    assert!(game.fired.is_empty(), "{:?}", game.fired);
    check_moves(&game, &puzzle, &texts, Scale::Score);
    // Whatever cell the player left selected, in either mode, by mouse or keyboard cursor.
    for (hshow, hpencil, hcursor) in [(true, true, false), (true, false, false), (true, true, true)]
    {
        for (hx, hy) in [(0, 0), (4, 4)] {
            let mut game = FakeSolo::new(id("3x3k"));
            (game.hx, game.hy, game.hshow, game.hpencil, game.hcursor) =
                (hx, hy, hshow, hpencil, hcursor);
            let mouse = Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 }));
            let o = Options { show_thinking: true, input: mouse, ..opts() };
            let report = run_matching(&mut game, &o, None).expect("solved by mouse");
            assert!(report.verified && game.fired.is_empty());
            assert!(game.pencil.iter().all(|&m| m == 0));
        }
    }
    // A player's wrong value and pencil mode left on: the probe finds the mode by a save file.
    let mut game = FakeSolo::new(id("3x3k"));
    let solution = super::unique_solution(&puzzle).expect("unique");
    game.grid[3] = solution.cells()[3] % 9 + 1;
    (game.hshow, game.hpencil, game.hcursor) = (true, true, true);
    let o = Options { show_thinking: true, step_delay: Duration::ZERO, ..opts() };
    let report = run_matching(&mut game, &o, None).expect("solved");
    assert!(report.verified);
    assert_eq!(game.grid, solution.cells());
    assert!(game.fired.is_empty() && game.pencil.iter().all(|&m| m == 0));
}

#[test]
fn killer_without_seeing_dialogs_is_refused() {
    let mut game = FakeSolo::new(id("3x3k"));
    // Like the portable backend: the ID is read with paced keys, but the save dialog could
    // not be seen, so nothing is typed.
    game.sees_windows = false;
    let err = run_matching(&mut game, &opts(), None).expect_err("cannot save");
    assert!(matches!(err, DesktopError::CannotSave { .. }), "{err}");
    assert!(game.moves.is_empty() && game.fired.is_empty());
    let mut game = FakeSolo::new(id("3x3k"));
    game.sees_windows = false;
    let err = run_matching(&mut game, &Options { show_thinking: true, ..opts() }, None)
        .expect_err("refused");
    assert!(matches!(err, DesktopError::CannotSave { .. }), "{err}");
    assert!(game.moves.is_empty());
}

#[test]
fn the_blind_plan_is_proven_in_both_modes_and_a_broken_one_is_not() {
    use super::fill::{Action, blind_plan, check_blind};
    use super::keys::Keys;
    use super::model::{Tracker, Worlds};
    let puzzle = solo_id::parse(id("3x3k")).expect("id");
    let solution = super::unique_solution(&puzzle).expect("unique");
    let cells: Vec<usize> = (0..81).collect();
    let plan = blind_plan(&mut Keys::new(9), &cells, &solution);
    let worlds = Worlds::new(Tracker::blind(&puzzle, &solution));
    check_blind(&mut worlds.clone(), plan.clone(), &cells, &solution).expect("proven");
    // Without the Returns, the pencil-mode world never gets its values.
    let no_return: Vec<Action> =
        plan.iter().copied().filter(|a| *a != Action::Key(Key::Return)).collect();
    let err = check_blind(&mut worlds.clone(), no_return, &cells, &solution).expect_err("no");
    assert!(err.to_string().contains("does not provably leave"), "{err}");
    // A value key before the cursor is placed is refused.
    let early = vec![Action::Key(Key::Char('5'))];
    assert!(check_blind(&mut worlds.clone(), early, &[], &solution).is_err());
}

#[test]
fn wrong_user_values_are_corrected_and_right_ones_kept() {
    let mut game = FakeSolo::new(id("3x3du"));
    let puzzle = solo_id::parse(id("3x3du")).expect("id");
    let solution = super::unique_solution(&puzzle).expect("unique");
    let empty: Vec<usize> = (0..81).filter(|&i| puzzle.get(i).is_none()).collect();
    game.grid[empty[0]] = solution.cells()[empty[0]] % 9 + 1; // wrong
    game.grid[empty[1]] = solution.cells()[empty[1]]; // right
    let report = run_matching(&mut game, &opts(), None).expect("solved");
    assert_eq!(report.corrected, 1);
    assert_eq!(report.typed, empty.len() - 1);
    assert_solved(&game, "3x3du");
}

#[test]
fn a_game_left_in_pencil_mode_is_recovered() {
    let mut game = FakeSolo::new(id("2x3"));
    (game.hshow, game.hpencil, game.hcursor) = (true, true, true);
    run_matching(&mut game, &opts(), None).expect("solved after switching pencil mode off");
    assert_solved(&game, "2x3");
    assert!(game.pencil.iter().all(|&m| m == 0), "values clear the stray pencil marks");
}

#[test]
fn invalid_and_ambiguous_boards_type_nothing() {
    // Two 1s in the first row, and an almost empty grid.
    for (text, expect_invalid) in [("2x2:1_1n", true), ("2x2:1o", false)] {
        let mut game = FakeSolo::new(text);
        let err = run_matching(&mut game, &opts(), None).expect_err("refused");
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
    run_matching(&mut game, &mouse, None).expect("solved by mouse");
    assert_solved(&game, "3x3du");
    // Without a grid the bot derives it from the window.
    let mut game = FakeSolo::new(id("4x4"));
    run_matching(&mut game, &Options { input: Input::Mouse(None), ..opts() }, None)
        .expect("solved by mouse");
    assert_solved(&game, "4x4");
}

#[test]
fn mouse_starting_on_a_selected_cell_never_types_into_nothing() {
    // The user left the first target selected: a left click there would deselect it.
    let mut game = FakeSolo::new(id("5x5"));
    (game.hx, game.hy, game.hshow) = (0, 0, true);
    let mouse =
        Options { input: Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 })), ..opts() };
    run_matching(&mut game, &mouse, None).expect("solved");
    assert_solved(&game, "5x5");
}

/// A puzzle whose path (score scale) has Naked and Hidden Pairs, X-Wings and a Skyscraper.
const XWING: &str = "3x3:a6c5_9b9b7b5d1e6c4a6a7a2g8a8a2a3c1e4d8b1b3b9_5c2a";

/// The pause that ends each show-thinking step in these tests (fake time).
const STEP: Duration = Duration::from_millis(7);

/// Runs show-thinking on a fresh fake game, collecting the told texts.
fn show(id_text: &str, input: Input, scale: Scale, stop: Option<usize>) -> (FakeSolo, Vec<String>) {
    let mut game = FakeSolo::new(id_text);
    let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = std::sync::Arc::clone(&told);
    let o = Options {
        show_thinking: true,
        step_delay: STEP,
        stop_after: stop,
        scale,
        input,
        tell: Some(super::thinking::Tell(std::sync::Arc::new(move |t: &str| {
            sink.lock().expect("lock").push(t.to_string())
        }))),
        ..opts()
    };
    run_matching(&mut game, &o, None).unwrap_or_else(|e| panic!("{id_text}: {e}"));
    let texts = told.lock().expect("lock").clone();
    (game, texts)
}

/// Checks the moves the fake game recorded against the engine's path, step by step (each
/// step's input ends with a pause of [`STEP`]): the setup leaves every open cell's candidates
/// as pencil marks; a step's moves are its placements (`R`) and pencil toggles (`P`) that each
/// turn a mark off, after which values and marks are the engine's board. Returns the steps
/// shown and the P moves of each.
fn check_moves(game: &FakeSolo, puzzle: &Grid, texts: &[String], scale: Scale) -> Vec<usize> {
    let path = logic::explain(puzzle, scale).expect("path");
    let side = puzzle.side();
    let n = side * side;
    let ends: Vec<usize> =
        game.pauses.iter().filter(|&&(_, d)| d == STEP).map(|&(at, _)| at).collect();
    assert!(!ends.is_empty(), "no step was played");
    assert_eq!(ends.len() - 1, texts.len(), "one pause per step and one after the setup");
    let mut board = Board::new(puzzle).expect("board");
    let (mut values, mut marks) = (puzzle.cells().to_vec(), vec![0u64; n]);
    let replay = |m: &str, values: &mut Vec<u8>, marks: &mut Vec<u64>| -> (char, usize, u8) {
        let nums: Vec<usize> = m[1..].split(',').map(|x| x.parse().expect("number")).collect();
        let (i, v) = (nums[1] * side + nums[0], nums[2] as u8);
        match (m.as_bytes()[0], v) {
            (b'P', v) if v > 0 => marks[i] ^= 1 << (v - 1),
            _ => (values[i], marks[i]) = (v, 0),
        }
        (m.as_bytes()[0] as char, i, v)
    };
    let same = |board: &Board, values: &[u8], marks: &[u64], what: &str| {
        for i in 0..n {
            assert_eq!(values[i], board.value(i), "{what}: value of cell {i}");
            assert_eq!(marks[i], board.cands(i), "{what}: pencil marks of cell {i}");
        }
    };
    for m in &game.moves[..ends[0]] {
        replay(m, &mut values, &mut marks);
    }
    same(&board, &values, &marks, "after pencilling");
    let mut unmarks = Vec::new();
    for (k, step) in path.steps.iter().enumerate().take(texts.len()) {
        assert_eq!(texts[k], step.text(), "step {k}");
        logic::apply(&mut board, step);
        let mut p = 0;
        for m in &game.moves[ends[k]..ends[k + 1]] {
            let was = marks.clone();
            let (kind, i, v) = replay(m, &mut values, &mut marks);
            match kind {
                'R' => assert!(step.place.contains(&(i, v)), "{}: {m} is no placement", texts[k]),
                _ => {
                    assert!(was[i] >> (v - 1) & 1 == 1, "{}: {m} adds a mark", texts[k]);
                    p += 1;
                }
            }
        }
        same(&board, &values, &marks, &texts[k]);
        unmarks.push(p);
    }
    unmarks
}

#[test]
fn show_thinking_plays_the_engine_path_with_pencil_marks() {
    let mouse = Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 }));
    for input in [Input::Keyboard, mouse] {
        let puzzle = solo_id::parse(XWING).expect("id");
        let (game, texts) = show(XWING, input.clone(), Scale::Score, None);
        assert!(game.board().is_solution_of(&puzzle), "{input:?}: solved");
        assert!(game.fired.is_empty(), "{:?}", game.fired);
        let path = logic::explain(&puzzle, Scale::Score).expect("path");
        assert_eq!(texts.len(), path.steps.len(), "every step told");
        let unmarks = check_moves(&game, &puzzle, &texts, Scale::Score);
        // The X-Wings and pairs are played as exactly their eliminations.
        for (k, step) in path.steps.iter().enumerate() {
            if step.text().starts_with("X-Wing") || step.text().starts_with("Naked Pair") {
                assert_eq!(unmarks[k], step.eliminate.len(), "{}", step.text());
            }
        }
        assert!(texts.iter().filter(|t| t.starts_with("X-Wing")).count() >= 2);
        assert!(!game.hpencil, "left in normal mode");
    }
}

#[test]
fn show_thinking_solves_every_fixture_without_firing_a_command() {
    // 5x5 marks include the command letters n, q, r, u, m: pencil moves on empty cells, never
    // rejected.
    for name in ["3x3du", "2x3", "3x4", "4x4", "3x3x", "9j", "5x5", "2x2", "2x5", "7j", "4x4x"] {
        let puzzle = solo_id::parse(id(name)).expect("id");
        let (game, texts) = show(id(name), Input::Keyboard, Scale::Score, None);
        assert_solved(&game, name);
        assert!(game.pencil.iter().all(|&m| m == 0), "{name}: no marks left");
        let path = logic::explain(&puzzle, Scale::Score).expect("path");
        assert_eq!(texts.len(), path.steps.len(), "{name}");
        check_moves(&game, &puzzle, &texts, Scale::Score);
    }
}

#[test]
fn an_abort_stops_the_show_inside_the_current_step() {
    let (full, texts) = show(XWING, Input::Keyboard, Scale::Score, None);
    let ends: Vec<usize> =
        full.pauses.iter().filter(|&&(_, d)| d == STEP).map(|&(at, _)| at).collect();
    // Abort in the middle of the X-Wing's eliminations, and in the middle of the setup.
    let k = texts.iter().position(|t| t.starts_with("X-Wing")).expect("an X-Wing");
    assert!(ends[k + 1] - ends[k] >= 2, "the X-Wing removes two marks");
    for (at, told) in [(ends[k] + 1, k + 1), (ends[0] / 2, 0)] {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut game = FakeSolo::new(XWING);
        game.abort_at = Some((at, std::sync::Arc::clone(&flag)));
        let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&heard);
        let o = Options {
            show_thinking: true,
            step_delay: STEP,
            abort: Some(flag),
            tell: Some(super::thinking::Tell(std::sync::Arc::new(move |t: &str| {
                sink.lock().expect("lock").push(t.to_string())
            }))),
            ..opts()
        };
        let err = run_matching(&mut game, &o, None).expect_err("aborted");
        assert!(matches!(err, DesktopError::Aborted), "{err}");
        // Nothing after the key that made the move: the same moves as the full show up to it.
        assert_eq!(game.moves, full.moves[..at], "stopped at move {at}");
        assert_eq!(heard.lock().expect("lock").len(), told, "steps told");
        assert!(game.fired.is_empty());
    }
}

#[test]
fn show_thinking_stops_after_n_values_and_finishes_later() {
    let mouse = Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 }));
    for input in [Input::Keyboard, mouse] {
        let puzzle = solo_id::parse(id("3x3du")).expect("id");
        let (mut game, texts) = show(id("3x3du"), input.clone(), Scale::Score, Some(4));
        assert_eq!(game.board().filled(), puzzle.filled() + 4);
        check_moves(&game, &puzzle, &texts, Scale::Score);
        assert!(game.fired.is_empty());
        // Finishing from there solves it (marks left by the first run are cleared first).
        let rest = Options { show_thinking: true, step_delay: Duration::ZERO, input, ..opts() };
        run_matching(&mut game, &rest, None).expect("solved");
        assert_solved(&game, "3x3du");
    }
}

#[test]
fn show_thinking_guesses_the_solution_value_where_the_scale_runs_out() {
    // On Solo's scale the Unreasonable fixture needs guesses.
    let puzzle = solo_id::parse(id("3x3du")).expect("id");
    let (game, texts) = show(id("3x3du"), Input::Keyboard, Scale::Solo, None);
    assert!(game.board().is_solution_of(&puzzle));
    assert!(texts.iter().any(|t| t.starts_with("Guess: ")), "{texts:?}");
    check_moves(&game, &puzzle, &texts, Scale::Solo);
}

#[test]
fn show_thinking_clears_wrong_values_and_stray_marks() {
    let puzzle = solo_id::parse(id("3x3du")).expect("id");
    let solution = super::unique_solution(&puzzle).expect("unique");
    let empty: Vec<usize> = (0..81).filter(|&i| puzzle.get(i).is_none()).collect();
    for input in [Input::Keyboard, Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 }))] {
        let mut game = FakeSolo::new(id("3x3du"));
        game.grid[empty[0]] = solution.cells()[empty[0]] % 9 + 1; // wrong
        game.grid[empty[1]] = solution.cells()[empty[1]]; // right
        game.pencil[empty[2]] = 0b1_0110_1001; // stray marks
        game.pencil[empty[3]] = 0b1_1111_1111;
        let o = Options {
            show_thinking: true,
            stop_after: Some(1),
            step_delay: Duration::ZERO,
            input,
            ..opts()
        };
        run_matching(&mut game, &o, None).expect("ran");
        let board = game.board();
        assert_eq!(board.get(empty[0]), None, "the wrong value was cleared");
        let marks = super::thinking::candidates(&board).expect("valid");
        // One value placed; every open cell but the placed value's peers shows its candidates.
        let engine = {
            let mut start = puzzle.clone();
            start.set(empty[1], Some(solution.cells()[empty[1]])).expect("right value");
            let path = logic::explain(&start, Scale::Score).expect("path");
            let mut b = Board::new(&start).expect("board");
            for step in &path.steps {
                logic::apply(&mut b, step);
                if step.place.iter().any(|&(c, _)| board.get(c).is_some()) {
                    break;
                }
            }
            b
        };
        for (i, (&m, &c)) in game.pencil.iter().zip(&marks).enumerate() {
            assert_eq!(m, engine.cands(i), "cell {i}");
            assert_eq!(m & !c, 0, "cell {i}: marks are candidates");
        }
        assert!(game.fired.is_empty());
    }
}

#[test]
fn no_command_key_is_ever_sent_on_25x25() {
    let mut game = FakeSolo::new(id("5x5"));
    run_matching(&mut game, &opts(), None).expect("solved");
    // Letters n, q, r, u, m are values on 25x25: allowed, but only as values on a selected cell,
    // which the model checks (a rejected one would be in `fired`).
    assert!(game.fired.is_empty());
    assert!(game.keys.iter().any(|&k| is_command_key(k)), "25x25 does use those letters as values");
}

#[test]
fn windows_menu_keys_tap_alt_then_use_mnemonics() {
    let gtk = Platform::Gtk;
    let win = Platform::Windows;
    assert_eq!(gtk.open_game_menu(), vec![Key::Alt('g')]);
    assert_eq!(win.open_game_menu(), vec![Key::AltTap, Key::Char('g')]);
    assert_eq!(win.pick(super::menu::MenuItem::Copy), vec![Key::Char('c')]);
    assert_eq!(win.copy_dialog_text()[0], Key::Tab);
    assert_eq!(win.line_ending(), "\r\n");
}

#[test]
fn windows_front_end_seen_by_the_backend_solves_every_shape() {
    // The Win32 front end under Wine on X11: menus and dialogs are visible windows.
    for name in ["3x3du", "2x3", "3x4", "3x3x", "9j", "4x4"] {
        let mut game = FakeSolo::new(id(name));
        game.windows = true;
        let o = Options { platform: Platform::Windows, ..opts() };
        let report = run_matching(&mut game, &o, None).expect("solved");
        assert!(report.verified, "{name}");
        assert_solved(&game, name);
        assert!(game.fired.is_empty(), "{name}: {:?}", game.fired);
        assert!(!game.keys.contains(&Key::Alt('g')), "{name}: Alt+G together is useless there");
    }
}

#[test]
fn windows_menu_letters_wait_for_the_menu() {
    // The Alt tap does not reach the menu bar: the menu never opens, so no item letter may
    // follow (a letter such as `n` or `r` would be a game command).
    let mut game = FakeSolo::new(id("2x3"));
    game.windows = true;
    game.alt_tap_lost = true;
    let o = Options { platform: Platform::Windows, timeout: Duration::from_millis(50), ..opts() };
    let err = run_matching(&mut game, &o, None).expect_err("the menu never opens");
    assert!(matches!(err, DesktopError::Timeout { .. }), "{err}");
    assert!(!game.keys.contains(&Key::Char('f')) && !game.keys.contains(&Key::Char('c')));
    assert!(game.fired.is_empty());
    assert_eq!(game.board(), FakeSolo::new(id("2x3")).board(), "nothing typed");
}

#[test]
fn windows_dialog_copy_reaches_the_edit_box_from_any_focus() {
    // Tab cycles edit box, OK, Cancel: repeated attempts reach the edit box even when one
    // control already had the focus.
    for focus_first in 0..=3 {
        let mut game = FakeSolo::new(id("3x3du"));
        game.windows = true;
        game.dialog_focus_at_open = focus_first;
        let o = Options { platform: Platform::Windows, ..opts() };
        let text = super::game::read_game_id(&mut game, &o).expect("read");
        assert_eq!(text, id("3x3du"));
    }
}

#[test]
fn windows_front_end_without_window_access_is_paced_and_solves() {
    // MobaXterm: Win32 menus with mnemonics, CRLF on the clipboard, and a backend that cannot
    // see menus or dialogs (the portable one).
    let mut game = FakeSolo::new(id("3x4"));
    game.windows = true;
    game.sees_windows = false;
    let o = Options { platform: Platform::Windows, ..Options::default() };
    let report = run_matching(&mut game, &o, None).expect("solved");
    assert!(report.verified);
    assert_solved(&game, "3x4");
    // The GTK keys would have picked the wrong items there.
    let mut game = FakeSolo::new(id("2x3"));
    game.windows = true;
    assert!(run_matching(&mut game, &opts(), None).is_err());
}

#[test]
fn a_mouse_grid_that_misses_cells_is_refused_before_typing() {
    let mut game = FakeSolo::new(id("5x5"));
    let off =
        Options { input: Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 46.0 })), ..opts() };
    let err = run_matching(&mut game, &off, None).expect_err("refused");
    assert!(matches!(err, DesktopError::MouseGridOff { .. }), "{err}");
    assert!(game.keys.iter().all(|k| !matches!(k, Key::Char(_))), "nothing typed");
    // Without a window to check against, 25x25 by mouse is refused outright.
    let mut game = FakeSolo::new(id("5x5"));
    game.sees_windows = false;
    let o =
        Options { input: Input::Mouse(Some(MouseGrid { origin: (48, 73), step: 48.0 })), ..opts() };
    assert!(matches!(
        run_matching(&mut game, &o, None),
        Err(DesktopError::UncheckedMouse { side: 25 })
    ));
}

#[test]
fn show_thinking_finds_out_a_pencil_mode_left_on() {
    let mut game = FakeSolo::new(id("2x3"));
    (game.hshow, game.hpencil, game.hcursor) = (true, true, true);
    let o =
        Options { show_thinking: true, stop_after: Some(2), step_delay: Duration::ZERO, ..opts() };
    run_matching(&mut game, &o, None).expect("ran");
    let board = game.board();
    let marks = super::thinking::candidates(&board).expect("valid");
    for (i, (&m, &c)) in game.pencil.iter().zip(&marks).enumerate() {
        assert_eq!(m & !c, 0, "cell {i}: only candidates are marked");
    }
    assert!(!game.hpencil, "left in normal mode: {:?}", &game.keys[game.keys.len() - 30..]);
    assert!(game.fired.is_empty());
}

#[test]
fn own_escape_notes_are_consumed_once_and_settled() {
    let own = std::sync::Arc::new(super::OwnEscapes::default());
    assert!(!own.take(), "nothing noted");
    own.note();
    assert!(own.take());
    assert!(!own.take(), "consumed");
    assert!(own.settle(), "nothing left");
    // A note the listener never takes (the key merged with the user's) is dropped by settle,
    // so the user's next Esc is not taken for the bot's.
    own.note();
    assert!(!own.settle());
    assert!(!own.take());
    // settle returns once the listener takes the note.
    own.note();
    let listener = std::sync::Arc::clone(&own);
    let taker = std::thread::spawn(move || while !listener.take() {});
    assert!(own.settle());
    taker.join().unwrap();
}

/// The randomized tests' generator: `fastrand`, seeded, so a run repeats its cases.
struct Rng(fastrand::Rng);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.u64(..)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.usize(..n)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.0.u64(..100) < percent
    }
}

/// Every grid shape Solo allows up to side 31: boxes of w x h (both at least 2), and jigsaws
/// (rows as regions) for the sides no box fits.
fn every_shape() -> Vec<std::sync::Arc<crate::grid::Geometry>> {
    use crate::grid::Geometry;
    let mut shapes = Vec::new();
    for side in 4..=31usize {
        let mut boxed = false;
        for h in 2..=side / 2 {
            if side % h == 0 && side / h >= 2 {
                shapes.push(std::sync::Arc::new(Geometry::boxed(side / h, h).expect("box")));
                boxed = true;
            }
        }
        if !boxed {
            let rows: Vec<usize> = (0..side * side).map(|i| i / side).collect();
            shapes.push(std::sync::Arc::new(Geometry::jigsaw(side, &rows).expect("jigsaw")));
        }
    }
    shapes
}

/// A random valid solution on a shape: a pattern, then values relabelled at random.
fn random_solution(g: &std::sync::Arc<crate::grid::Geometry>, rng: &mut Rng) -> crate::grid::Grid {
    let side = g.side();
    let (w, h) = g.box_shape().unwrap_or((side, 1));
    let mut relabel: Vec<u8> = (1..=side as u8).collect();
    for i in (1..side).rev() {
        relabel.swap(i, rng.below(i + 1));
    }
    let cells = (0..side * side)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            relabel[(w * (r % h) + r / h + c) % side]
        })
        .collect();
    let grid = crate::grid::Grid::new(g.clone(), cells).expect("grid");
    assert!(grid.conflict().is_none(), "pattern solution on {side}");
    grid
}

/// A random puzzle with a unique solution (holes removed until the solver agrees).
fn random_puzzle(solution: &crate::grid::Grid, rng: &mut Rng) -> crate::grid::Grid {
    let side = solution.side();
    let mut holes = 2 + rng.below(side * 2);
    loop {
        let mut puzzle = solution.clone();
        for _ in 0..holes {
            let _ = puzzle.set(rng.below(side * side), None);
        }
        if super::unique_solution(&puzzle).is_ok() {
            return puzzle;
        }
        holes /= 2;
    }
}

/// Puts `game` in a random state around `puzzle`: wrong, right and pencilled cells, the cursor
/// and modes anywhere, a menu or dialog left open, and (for mouse input, returned) a window of
/// random shape and place, maybe covered.
fn scramble(game: &mut FakeSolo, puzzle: &Grid, solution: &Grid, rng: &mut Rng) -> bool {
    let side = puzzle.side();
    let empty: Vec<usize> = (0..side * side).filter(|&i| puzzle.get(i).is_none()).collect();
    for &i in &empty {
        match rng.below(6) {
            0 => game.grid[i] = (solution.cells()[i] + rng.below(side - 1) as u8) % side as u8 + 1,
            1 => game.grid[i] = solution.cells()[i],
            2 => game.pencil[i] = rng.next() & ((1 << side) - 1),
            _ => {}
        }
    }
    // A wrong value that is a command letter on big grids, where the issue found it.
    if side >= 23 && !empty.is_empty() && rng.chance(50) {
        let i = empty[rng.below(empty.len())];
        let n = 23u8; // 'n'
        if solution.cells()[i] != n {
            game.grid[i] = n;
        }
    }
    (game.hx, game.hy) = (rng.below(side), rng.below(side));
    (game.hshow, game.hpencil, game.hcursor) = (rng.chance(60), rng.chance(50), rng.chance(50));
    if rng.chance(15) {
        game.open_menu();
    } else if rng.chance(10) {
        game.open_dialog();
    }
    let mouse = rng.chance(35);
    if mouse {
        let natural = (side * 48 + 49) as i32;
        let (w, h) =
            (natural + rng.below(300) as i32 - 100, natural + 25 + rng.below(300) as i32 - 100);
        game.area = crate::desktop::Rect {
            x: rng.below(200) as i32 - 50,
            y: rng.below(200) as i32 - 50,
            width: w.max(100) as u32,
            height: h.max(125) as u32,
        };
        game.screen = (800 + rng.below(1200) as u32, 600 + rng.below(1200) as u32);
        if rng.chance(20) {
            game.covers.push(crate::desktop::Rect {
                x: rng.below(800) as i32,
                y: rng.below(800) as i32,
                width: 200,
                height: 150,
            });
        }
    }
    mouse
}

/// The key-safety property: for random game states on every shape up to 31x31 (cursor shown
/// or hidden anywhere, pencil mode on or off, wrong values (letters Solo also reads as
/// commands among them), pencil marks, a menu or dialog left open, keyboard or mouse input on
/// windows of random shape and position), no key reaches Solo in a state where it reads it as
/// a command, and the game ends solved or untouched-but-for-right-values.
#[test]
fn no_command_fires_in_any_state_on_any_shape() {
    let shapes = every_shape();
    let mut rng = Rng(fastrand::Rng::with_seed(0x5eed_d35c));
    let mut outcomes = std::collections::BTreeMap::<String, usize>::new();
    for case in 0..shapes.len() * 12 {
        let g = &shapes[case % shapes.len()];
        let side = g.side();
        let solution = random_solution(g, &mut rng);
        let puzzle = random_puzzle(&solution, &mut rng);
        let id_text = solo_id::write(&puzzle);
        let mut game = FakeSolo::new(&id_text);
        let mouse = scramble(&mut game, &puzzle, &solution, &mut rng);
        let before = game.grid.clone();
        let thinking = rng.chance(25);
        let o = Options {
            input: if mouse { Input::Mouse(None) } else { Input::Keyboard },
            show_thinking: thinking,
            step_delay: Duration::ZERO,
            ..opts()
        };
        let result = run_matching(&mut game, &o, None);
        let label = format!("{side}x{side} {:?}", game.keys.len().min(1));
        assert_eq!(game.fired, Vec::<String>::new(), "case {case} {label}: {result:?}");
        let key = match &result {
            Ok(_) => "solved".to_string(),
            Err(e) => format!("{e}").chars().take(40).collect(),
        };
        *outcomes.entry(key).or_default() += 1;
        match result {
            Ok(ref report) => {
                assert!(report.verified, "case {case}");
                assert!(game.board().is_solution_of(&puzzle), "case {case}");
            }
            Err(DesktopError::MouseUnsafe { .. } | DesktopError::NoMouseGrid) => {
                assert!(mouse, "case {case}");
                assert_eq!(game.grid, before, "case {case}: refused, nothing typed");
            }
            Err(e) => panic!("case {case} ({side}x{side}, mouse {mouse}): {e}"),
        }
        for (i, &v) in game.grid.iter().enumerate() {
            assert!(v == before[i] || v == solution.cells()[i], "case {case}: wrong value at {i}");
        }
        // No pencil moves beyond the one probe, and none when a wrong value could be the probe.
        let pencil_moves = game.moves.iter().filter(|m| m.starts_with('P')).count();
        let had_wrong =
            (0..side * side).any(|i| before[i] != 0 && before[i] != solution.cells()[i]);
        if !thinking {
            assert!(pencil_moves <= usize::from(!had_wrong), "case {case}: {:?}", game.moves);
        } else if result.is_ok() {
            assert!(game.pencil.iter().all(|&m| m == 0), "case {case}: marks left");
        }
    }
    eprintln!("{} cases over {} shapes: {outcomes:?}", shapes.len() * 12, shapes.len());
    assert!(outcomes.get("solved").copied().unwrap_or(0) > shapes.len() * 6);
}

#[test]
fn the_issue_cases_in_the_model() {
    // 25x25 in pencil mode with a wrong 'n' to correct; a menu left open; a dialog left open.
    let puzzle = solo_id::parse(id("5x5")).expect("id");
    let solution = super::unique_solution(&puzzle).expect("unique");
    for setup in 0..3 {
        let mut game = FakeSolo::new(id("5x5"));
        let i =
            (0..625).find(|&i| puzzle.get(i).is_none() && solution.cells()[i] != 23).expect("cell");
        game.grid[i] = 23;
        (game.hshow, game.hpencil, game.hcursor) = (true, true, false);
        match setup {
            1 => game.open_menu(),
            2 => game.open_dialog(),
            _ => {}
        }
        run_matching(&mut game, &opts(), None).expect("solved");
        assert_solved(&game, "5x5");
        assert!(
            game.moves.iter().all(|m| m.starts_with('R')),
            "no pencil move: {:?}",
            &game.moves[..3]
        );
    }
    // A --puzzle of another game is refused before anything is typed.
    let mut game = FakeSolo::new(id("3x3du"));
    let other = solo_id::parse(id("5x5")).expect("id");
    let err = super::run_matching(&mut game, &opts(), Some(&other)).expect_err("mismatch");
    assert!(matches!(err, DesktopError::PuzzleMismatch { .. }), "{err}");
    assert!(game.keys.iter().all(|k| !matches!(k, Key::Char(_))));
    let same = solo_id::parse(id("3x3du")).expect("id");
    super::run_matching(&mut game, &opts(), Some(&same)).expect("the same game is solved");
}

#[test]
fn mouse_refuses_off_screen_and_covered_cells_and_finds_a_centred_board() {
    // 5x5 in a window taller than the screen.
    let mut game = FakeSolo::new(id("5x5"));
    game.screen = (1280, 1024);
    let o = Options { input: Input::Mouse(None), ..opts() };
    let err = run_matching(&mut game, &o, None).expect_err("off screen");
    assert!(format!("{err}").contains("off the 1280x1024 screen"), "{err}");
    assert!(game.moves.is_empty() && game.fired.is_empty());
    // Covered by a window.
    let mut game = FakeSolo::new(id("3x3du"));
    game.covers.push(crate::desktop::Rect { x: 100, y: 100, width: 200, height: 200 });
    let err = run_matching(&mut game, &o, None).expect_err("covered");
    assert!(format!("{err}").contains("covered by the window"), "{err}");
    assert!(game.moves.is_empty());
    // A window taller than wide: the board is centred below the menu bar.
    let mut game = FakeSolo::new(id("3x3du"));
    game.area.height += 300;
    run_matching(&mut game, &o, None).expect("solved");
    assert_solved(&game, "3x3du");
}

#[test]
fn interactive_f2_solves_a_killer_game() {
    use super::interactive::{Hotkey, Outcome, Session, Source};
    let mut game = FakeSolo::new(id("3x3k"));
    let mut session = Session::new(opts(), Source::Game);
    let outcome = session.handle(Hotkey::Solve, &mut game).expect("f2");
    let Outcome::Solved(report) = outcome else { panic!("solved: {outcome:?}") };
    assert_eq!(report.check, super::Check::Save);
    assert_killer_solved(&game, id("3x3k"));
}

#[test]
fn killer_by_mouse_without_a_given_is_refused_before_typing() {
    let mut game = FakeSolo::new(id("3x3k"));
    let err = run_matching(&mut game, &Options { input: Input::Mouse(None), ..opts() }, None)
        .expect_err("no given to click");
    assert!(matches!(err, DesktopError::NoGivenToClick), "{err}");
    assert!(err.to_string().contains("--input keyboard"));
    assert!(game.moves.is_empty() && game.saves.is_empty() && game.fired.is_empty());
}

#[test]
fn an_abort_ends_a_read_at_once_and_closes_what_it_opened() {
    // Esc pressed while the bot waits on a menu, a dialog or the clipboard: the read stops at
    // its next check instead of sitting out its timeout (three times over, with retries).
    for windows in [false, true] {
        let mut game = FakeSolo::new(id("3x3du"));
        game.windows = windows;
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let platform = if windows { Platform::Windows } else { Platform::Gtk };
        let o = Options { platform, abort: Some(flag), ..opts() };
        let err = super::game::read_game_id(&mut game, &o).expect_err("aborted");
        assert!(matches!(err, DesktopError::Aborted), "{err}");
        use super::backend::Desktop as _;
        assert!(game.elapsed() < o.timeout, "waited {:?}", game.elapsed());
        let open = game.open_popups().expect("popups").expect("seen");
        assert!(open.is_empty(), "left open: {open:?}");
        assert!(game.fired.is_empty());
    }
}
