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

/// A screen with a generated 3x3 Killer game (`seed`) on it, focused.
fn killer_game(seed: &str) -> (Screen, String, Game) {
    let mut screen = Screen::start(1024, 768);
    let id = generate("3x3k", seed);
    let game = screen.launch(&id, &[]);
    screen.focus(&game);
    (screen, id, game)
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
    let (screen, id, game) = killer_game("sudobot-player");
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
fn ctrl_c_sigterm_and_sighup_stop_typing_and_remove_the_save_directory() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let id = generate("3x3k", "sudobot-signal");
    for (signal, code, name) in
        [("-INT", 130, "SIGINT"), ("-TERM", 143, "SIGTERM"), ("-HUP", 129, "SIGHUP")]
    {
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
        assert_eq!(bot.wait_exit(Duration::from_secs(20)), Some(code), "{}", bot.output());
        let said = format!("aborted by {name}; keys released");
        assert!(bot.output().contains(&said), "{signal}: {}", bot.output());
        assert_eq!(new_dir(), None, "{signal}: the save directory is left behind");
        screen.close(game);
    }
}

/// Starts a bot on a Killer game, slowed so that it is still typing when the caller acts, and
/// waits until it holds the game's lock and has made its private save directory.
fn slow_bot(screen: &Screen) -> super::harness::Running {
    let before = save_dirs(screen);
    // 341 keys 20 ms apart: typing lasts about 7 s.
    let bot = screen.spawn_sudobot(&["desktop", "--auto", "--key-delay", "20"]);
    super::harness::wait_until(
        "the game's lock and the save directory",
        Duration::from_secs(20),
        || {
            let locked =
                Screen::files_in(&screen.bot_runtime()).iter().any(|f| f.ends_with(".lock"));
            (locked && save_dirs(screen).difference(&before).next().is_some()).then_some(())
        },
    );
    bot
}

#[test]
fn a_second_bot_on_the_same_killer_game_refuses_and_types_nothing() {
    require_tools!();
    let (screen, id, game) = killer_game("sudobot-two-bots");
    let mut first = slow_bot(&screen);
    let second = screen.sudobot_logged(&["desktop", "--auto"]);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("already playing this game"), "{stderr}");
    assert!(stderr.contains("nothing was typed"), "{stderr}");
    assert_eq!(first.wait_exit(Duration::from_secs(40)), Some(0), "{}", first.output());
    assert!(first.output().contains("replaying its moves"), "{}", first.output());
    // Every move in the game is the first bot's: the board is the solution, nothing was saved
    // or printed where the game runs, and no lock or save directory is left.
    assert_killer_solved(&screen, &game, &id, "two-bots");
    assert_eq!(Screen::files_in(&screen.solo_cwd()), Vec::<String>::new());
    assert_eq!(Screen::files_in(&screen.bot_runtime()), Vec::<String>::new());
    assert!(save_dirs(&screen).is_empty(), "{:?}", save_dirs(&screen));
}

#[test]
fn another_program_setting_the_clipboard_during_the_save_is_never_saved_under() {
    require_tools!();
    let (screen, id, game) = killer_game("sudobot-clipboard");
    // The other program puts paths in a directory of its own on the clipboard, over and over,
    // from the time the bot types until it exits (a bound: 10000 times).
    let foreign = screen.bot_runtime().join("foreign");
    std::fs::create_dir_all(&foreign).expect("the other program's directory");
    let mut bot = slow_bot(&screen);
    let mut set = 0;
    let code = loop {
        if let Some(code) = bot.try_wait_exit(Duration::ZERO) {
            break code;
        }
        assert!(set < 10_000, "the bot is still running after {set} clipboard changes");
        let text = foreign.join(format!("notes-{set}.txt"));
        let mut xclip = screen
            .command("xclip")
            .args(["-i", "-selection", "clipboard"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("xclip");
        if let Some(mut stdin) = xclip.stdin.take() {
            use std::io::Write;
            let _ = stdin.write_all(text.to_string_lossy().as_bytes());
        }
        let _ = xclip.wait();
        set += 1;
    };
    let output = bot.output();
    eprintln!("after {set} clipboard changes the bot exited {code:?}:\n{output}");
    // Solved and confirmed, or stopped with a message; never saved under another name, and no
    // dialog left open over the game.
    match code {
        Some(0) => assert_killer_solved(&screen, &game, &id, "clipboard"),
        Some(1) => assert!(output.contains("timed out"), "{output}"),
        other => panic!("exit {other:?}: {output}"),
    }
    assert_eq!(Screen::files_in(&foreign), Vec::<String>::new(), "saved under the other's name");
    assert_eq!(Screen::files_in(&screen.solo_cwd()), Vec::<String>::new());
    let dialogs = screen.xdotool(&["search", "--all", "--onlyvisible", "--name", "file to save"]);
    assert_eq!(dialogs.trim(), "", "the save dialog is left open");
    assert!(save_dirs(&screen).is_empty(), "{:?}", save_dirs(&screen));
}

#[test]
fn save_directories_of_killed_runs_are_swept_at_start() {
    require_tools!();
    let screen = Screen::start(640, 480);
    let tmp = screen.bot_tmp();
    // A run that is gone (a process that has exited), and one alive (this test's process).
    let mut gone = Command::new("true").spawn().expect("run true");
    let _ = gone.wait();
    let stale = tmp.join(format!("sudobot-save-{}-4242-AbC123", gone.id()));
    let me = std::process::id();
    let stat = std::fs::read_to_string(format!("/proc/{me}/stat")).expect("own stat");
    let start = stat.rsplit_once(')').and_then(|(_, s)| s.split_whitespace().nth(19));
    let live = tmp.join(format!("sudobot-save-{me}-{}-XyZ789", start.expect("start time")));
    for dir in [&stale, &live] {
        std::fs::create_dir_all(dir).expect("a save directory");
        std::fs::write(dir.join("game-1.sav"), "x").expect("a save file");
    }
    // No game on the screen: the bot sweeps, then fails to find the window.
    let out = screen.sudobot_logged(&["desktop", "--auto", "--timeout", "300"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stale.exists(), "the directory of a run that is gone is left");
    assert!(live.exists(), "the directory of a live run was removed");
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
