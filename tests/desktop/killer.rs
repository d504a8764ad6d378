//! Killer games in the real sgt-solo under Xvfb (issue 11): generated games of every Killer
//! shape solved by `sudobot desktop --auto`. The bot's word is not taken: each test saves the
//! game itself (xdotool + the GTK file chooser), replays the save file's moves here, and checks
//! the board against Solo's own standalone solver and against the rules (rows, columns, boxes,
//! cages) computed here.

use std::collections::HashSet;
use std::process::Command;
use std::time::{Duration, Instant};

use super::harness::{Game, SOLO, Screen, require_tools, save_moves};
use sudobot::format::solo_id;
use sudobot::grid::Grid;

/// A generated Killer game ID (`sgt-solo --generate`, a fixed seed: the same ID every run of
/// this Solo version).
pub(super) fn generate(params: &str, seed: &str) -> String {
    let out = Command::new(SOLO)
        .args(["--generate", "1", &format!("{params}#{seed}")])
        .output()
        .expect("sgt-solo --generate");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Solo's own solution of an ID, by its standalone solver (built by `.ci/solo-grader`), as
/// values in reading order.
pub(super) fn solo_solution(id: &str) -> Vec<u8> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out =
        Command::new("bash").arg(format!("{root}/.ci/solo-grader")).output().expect("bash runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let solver = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let out = Command::new(solver).arg(id).output().expect("run Solo's solver");
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .filter(|t| t.len() == 1 && t.chars().all(|c| c.is_ascii_digit()))
        .map(|t| t.parse().expect("a digit"))
        .collect()
}

/// Replays R/P moves over the givens (any other move fails the test: the bot only types).
pub(super) fn replay(givens: &[u8], side: usize, moves: &[String]) -> Vec<u8> {
    let mut values = givens.to_vec();
    for m in moves {
        let kind = m.chars().next().unwrap_or(' ');
        let nums: Vec<usize> = m[1..].split(',').filter_map(|n| n.parse().ok()).collect();
        let [x, y, n] = nums[..] else { panic!("unexpected move {m:?}") };
        match kind {
            'P' if n > 0 => {}
            'R' | 'P' => values[y * side + x] = n as u8,
            _ => panic!("unexpected move {m:?}"),
        }
    }
    values
}

/// The rules, checked here: rows, columns and boxes (from Solo's `CxR`: boxes R wide, C tall)
/// hold every value once; each cage's values differ and add up to its sum.
pub(super) fn check_rules(id: &str, values: &[u8]) {
    let params = id.split(':').next().unwrap_or_default();
    let (c, r): (usize, usize) = {
        let digits: Vec<usize> = params
            .trim_end_matches(|ch: char| ch.is_ascii_alphabetic())
            .split('x')
            .map(|n| n.parse().expect("CxR"))
            .collect();
        (digits[0], digits[1])
    };
    let side = c * r;
    assert_eq!(values.len(), side * side);
    let full: HashSet<u8> = (1..=side as u8).collect();
    for k in 0..side {
        let row: HashSet<u8> = (0..side).map(|x| values[k * side + x]).collect();
        let col: HashSet<u8> = (0..side).map(|y| values[y * side + k]).collect();
        let (bx, by) = ((k % c) * r, (k / c) * c);
        let boxed: HashSet<u8> =
            (0..side).map(|j| values[(by + j / r) * side + bx + j % r]).collect();
        assert_eq!(row, full, "row {k}");
        assert_eq!(col, full, "column {k}");
        assert_eq!(boxed, full, "box {k}");
    }
    // The cages as the ID describes them (decoded by the library; sums and repeats checked
    // here).
    let grid = solo_id::parse(id).expect("ID");
    for cage in grid.geometry().cages() {
        let vals: Vec<u8> = cage.cells.iter().map(|&i| values[i]).collect();
        let distinct: HashSet<u8> = vals.iter().copied().collect();
        assert_eq!(distinct.len(), vals.len(), "a repeat in the cage at {:?}", cage.cells);
        let sum: u32 = vals.iter().map(|&v| u32::from(v)).sum();
        assert_eq!(sum, cage.sum, "the cage at {:?}", cage.cells);
    }
}

/// Saves the game (the test's own Save, not the bot's) and checks the board is solved: equal
/// to Solo's own solution, valid by the rules, and reached without the game's Solve.
fn assert_killer_solved(screen: &Screen, game: &Game, id: &str, name: &str) {
    let save = screen.save_game(game, name);
    assert!(!save.contains("\nSOLVE"), "{name}: the game's Solve was used:\n{save}");
    assert!(save.contains(&format!(":{}\n", id.split_once(':').expect("ID").1)), "same game");
    let givens = solo_id::parse(id).expect("ID");
    let values = replay(givens.cells(), givens.side(), &save_moves(&save));
    assert_eq!(values, solo_solution(id), "{name}: the board is not Solo's solution");
    check_rules(id, &values);
}

/// Leftover private save directories of the bots run on `screen` (the bot removes its own).
fn save_dirs(screen: &Screen) -> HashSet<String> {
    std::fs::read_dir(screen.bot_tmp())
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("sudobot-save-"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn solves_generated_killer_games_of_every_shape() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let before = save_dirs(&screen);
    for params in ["3x3k", "2x3k", "3x3kdu", "2x2k", "3x2k", "2x4k", "3x3kdi"] {
        let id = generate(params, "sudobot-killer");
        let game = screen.launch(&id, &[]);
        screen.focus(&game);
        let out = screen.sudobot_logged(&["desktop", "--auto", "--stats"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{params}: {stdout}");
        assert!(stdout.contains("replaying its moves"), "{params}: {stdout}");
        assert_killer_solved(&screen, &game, &id, params);
        screen.close(game);
    }
    let left: Vec<String> = save_dirs(&screen).difference(&before).cloned().collect();
    assert!(left.is_empty(), "save directories left behind: {left:?}");
}

#[test]
fn replaces_what_a_player_left_in_a_killer_game() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let id = generate("3x3k", "sudobot-player");
    let game = screen.launch(&id, &[]);
    screen.focus(&game);
    let solution = solo_solution(&id);
    // A wrong value at (0,0), the right one at (1,0), pencil marks at (2,0), and the game left
    // in pencil mode with the cursor at (3,1).
    let wrong = (solution[0] % 9 + 1).to_string();
    let right = solution[1].to_string();
    screen.xdotool(&[
        "key", "--delay", "20", "Up", "Left", &wrong, "Right", &right, "Right", "Return", "1", "2",
        "Right", "Down",
    ]);
    let save = screen.save_game(&game, "before");
    let moves = save_moves(&save);
    assert_eq!(moves.len(), 4, "the player's moves: {moves:?}");
    let out = screen.sudobot_logged(&["desktop", "--auto"]);
    assert!(out.status.success());
    assert_killer_solved(&screen, &game, &id, "after");
}

#[test]
fn refuses_an_ambiguous_killer_with_exit_4_and_types_nothing() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let text = include_str!("../fixtures/killer/ambiguous.txt");
    let id = text.lines().find(|l| !l.starts_with('#')).expect("an ID");
    let game = screen.launch(id, &[]);
    screen.focus(&game);
    let out = screen.sudobot_logged(&["desktop", "--auto"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("more than one solution"), "{stderr}");
    let save = screen.save_game(&game, "ambiguous");
    assert_eq!(save_moves(&save), Vec::<String>::new(), "no move was made");
}

#[test]
fn ctrl_c_and_sigterm_stop_typing_and_remove_the_save_directory() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let id = generate("3x3k", "sudobot-signal");
    for signal in ["-INT", "-TERM"] {
        let game = screen.launch(&id, &[]);
        screen.focus(&game);
        let before = save_dirs(&screen);
        // 341 keys 40 ms apart: typing lasts about 14 s.
        let mut bot = screen.spawn_sudobot(&["desktop", "--auto", "--key-delay", "40"]);
        bot.wait_sigint_handler();
        let new_dir = || save_dirs(&screen).difference(&before).next().cloned();
        super::harness::wait_until("the private save directory", Duration::from_secs(20), new_dir);
        let status =
            Command::new("kill").args([signal, &bot.pid().to_string()]).status().expect("kill");
        assert!(status.success());
        assert_eq!(bot.wait_exit(Duration::from_secs(20)), Some(130), "{}", bot.output());
        assert!(bot.output().contains("aborted"), "{signal}: {}", bot.output());
        assert_eq!(new_dir(), None, "{signal}: the save directory is left behind");
        screen.close(game);
    }
}

/// Times `desktop --auto` on generated Killer games: 10 per shape by default
/// (`SUDOBOT_KILLER_GAMES`), median and worst of the bot's own total and of the wall clock.
/// Run: `cargo test --release --test integration desktop::killer::killer_desktop_times --
/// --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a test: run by hand"]
fn killer_desktop_times() {
    require_tools!();
    let games: usize =
        std::env::var("SUDOBOT_KILLER_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(10);
    let mut screen = Screen::start(1024, 768);
    for params in ["2x2k", "2x3k", "3x2k", "2x4k", "3x3k", "3x3kdu"] {
        let (mut wall, mut total) = (Vec::new(), Vec::new());
        for n in 0..games {
            let id = generate(params, &format!("times-{n}"));
            let grid: Grid = solo_id::parse(&id).expect("ID");
            if !matches!(sudobot::solve::solve(&grid), sudobot::solve::Verdict::Unique(_)) {
                eprintln!("{params} #{n}: not unique, skipped");
                continue;
            }
            let game = screen.launch(&id, &[]);
            screen.focus(&game);
            let start = Instant::now();
            let out = screen.sudobot(&["desktop", "--auto", "--stats"]);
            wall.push(start.elapsed());
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{params} #{n}: {stdout}");
            let ms = stdout
                .split("total ")
                .nth(1)
                .and_then(|t| t.split_whitespace().next())
                .and_then(|t| t.parse::<f64>().ok())
                .expect("stats");
            total.push(Duration::from_secs_f64(ms / 1000.0));
            screen.close(game);
        }
        let stat = |v: &mut Vec<Duration>| {
            v.sort();
            (v.get(v.len() / 2).copied().unwrap_or_default(), v.last().copied().unwrap_or_default())
        };
        let (wm, ww) = stat(&mut wall);
        let (tm, tw) = stat(&mut total);
        println!(
            "{params}: {} games; bot total median {:.0} ms, worst {:.0} ms; wall (process start \
             to exit) median {:.0} ms, worst {:.0} ms",
            wall.len(),
            tm.as_secs_f64() * 1000.0,
            tw.as_secs_f64() * 1000.0,
            wm.as_secs_f64() * 1000.0,
            ww.as_secs_f64() * 1000.0
        );
    }
}
