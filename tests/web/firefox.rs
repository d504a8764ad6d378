//! The web bot on Firefox (Debian's firefox-esr through geckodriver): a representative set of the
//! Chromium tests, run with `--browser firefox`. The full web suite runs on Chromium; these cover
//! the demo, replicas in a frame, a frameset and with an alert, click-then-key cells, a canvas
//! board read from its pixels, pages whose givens nothing proves (a wrong entry refused, a right
//! board completed by its empty cells), `--parallel 2` locally and on a Grid whose only driver
//! is geckodriver, evidence of a failure, the faults (SIGTERM, SIGINT and SIGHUP mid-fill, SIGINT
//! during the start, geckodriver killed or stopped, sudobot SIGKILLed: no key after, nothing
//! running, nothing on disk) and the missing-piece messages.
//!
//! CI installs Firefox and geckodriver (`bash .ci/deps test`); where they are missing these tests
//! fail and say what to install, unless `SUDOBOT_SKIP_FIREFOX=1` asks to skip them.

use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;

use super::faults::{Private, expect_typing, finish, keys_after, kill, now_ms};
use super::server::FixtureServer;
use super::{assert_code, browser_lock, config_with, text};

/// Whether Firefox and geckodriver are here. Missing: a panic naming what to install, or with
/// `SUDOBOT_SKIP_FIREFOX=1` a printed skip (`false`).
pub(super) fn firefox_here(test: &str) -> bool {
    let browser = std::path::Path::new("/usr/bin/firefox-esr").exists();
    let driver = sudobot::web::Browser::Firefox.default_driver();
    let driver_ok = std::path::Path::new(&driver).exists();
    if browser && driver_ok {
        return true;
    }
    let missing = match (browser, driver_ok) {
        (false, false) => "firefox-esr and geckodriver are",
        (false, true) => "/usr/bin/firefox-esr is",
        _ => "geckodriver is",
    };
    let message = format!(
        "{test}: {missing} not installed: run `bash .ci/deps firefox` (apt-get install \
         firefox-esr; cargo install geckodriver --locked --version {})",
        sudobot::web::browser::GECKODRIVER_VERSION
    );
    if std::env::var_os("SUDOBOT_SKIP_FIREFOX").is_some_and(|v| v == "1") {
        eprintln!("SKIPPED {message}");
        return false;
    }
    panic!("{message} (or set SUDOBOT_SKIP_FIREFOX=1 to skip the Firefox tests)");
}

/// `sudobot ARGS --browser firefox --headless --no-debug-files`, bounded.
fn firefox(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sudobot"));
    cmd.args(args)
        .args(["--browser", "firefox", "--headless", "--no-debug-files"])
        .timeout(Duration::from_secs(90));
    cmd.output().expect("run sudobot")
}

fn play(server: &FixtureServer, site: &str, file: &str, extra: &[&str]) -> Output {
    let url = server.url(file);
    let mut args = vec!["web", "--site", site, "--url", &url];
    args.extend_from_slice(extra);
    firefox(&args)
}

#[test]
fn firefox_plays_the_demo_twice_in_one_session() {
    if !firefox_here("firefox_plays_the_demo_twice_in_one_session") {
        return;
    }
    let _lock = browser_lock();
    let out = firefox(&["web", "--site", "demo", "--count", "2", "--stats"]);
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("2 of 2 puzzles solved and confirmed"), "{stdout}");
    assert!(stderr.contains("median"), "{stderr}");
}

#[test]
fn firefox_types_real_keys_into_the_sudoku_name_replica() {
    if !firefox_here("firefox_types_real_keys_into_the_sudoku_name_replica") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);
    assert!(text(&out).0.contains("typed 51 cells"), "{}", text(&out).0);
}

#[test]
fn firefox_enters_an_iframe_and_a_frameset() {
    if !firefox_here("firefox_enters_an_iframe_and_a_frameset") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudokupuzzle.org", "sudokupuzzle_play.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudokupuzzle"), ["solved"]);
    assert!(text(&out).0.contains("corrected 1 wrong values"), "{}", text(&out).0);
    // Two puzzles: the second navigation starts from the top frame again.
    let out = play(&server, "websudoku.com", "websudoku_frameset.html", &["--count", "2"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("websudoku"), ["solved", "solved"]);
}

#[test]
fn firefox_reads_the_confirmation_from_an_alert() {
    if !firefox_here("firefox_reads_the_confirmation_from_an_alert") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudokuonline.eu", "sudokuonline.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudokuonline"), ["solved"]);
    assert!(text(&out).0.contains("alert: Felicit"), "{}", text(&out).0);
}

#[test]
fn firefox_clicks_then_types_into_cells_that_are_not_inputs() {
    if !firefox_here("firefox_clicks_then_types_into_cells_that_are_not_inputs") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("any/divs.html");
    let out = firefox(&["web", "--url", &url, "-v"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("divs"), ["solved"], "{}", text(&out).1);
    assert!(text(&out).0.contains("typed and read back, every cell right"), "{}", text(&out).0);
}

#[test]
fn firefox_reads_a_canvas_board_from_its_pixels() {
    if !firefox_here("firefox_reads_a_canvas_board_from_its_pixels") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.com", "sudoku_com.html", &["--no-discover"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_com"), ["solved"], "no mistake: {}", text(&out).1);
}

#[test]
fn firefox_parallel_two_sessions() {
    if !firefox_here("firefox_parallel_two_sessions") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name.html");
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &url,
        "--browser",
        "firefox",
        "--count",
        "2",
        "--parallel",
        "2",
    ]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved", "solved"]);
    let (stdout, stderr) = text(&out);
    assert!(stderr.contains("over 2 local session(s)"), "{stderr}");
    assert!(stdout.contains("2 of 2 puzzles solved and confirmed over 2 session(s)"), "{stdout}");
    private.assert_clean(Duration::from_secs(3));
}

/// A signal mid-fill on Firefox (`group`: to the whole process group, as a terminal's Ctrl-C):
/// the exit code, no key after it, no geckodriver, firefox or content process of the run, and
/// no run directory.
fn firefox_signal_mid_fill(signal: &str, group: bool, code: i32) {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_slow.html");
    let args = ["web", "--site", "sudoku.name", "--url", &url, "--browser", "firefox"];
    let child = private.command(&args).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let running = private.processes();
    assert!(running.iter().any(|p| p.ends_with("geckodriver")), "{running:?}");
    let sent = now_ms();
    kill(signal, &if group { format!("-{pid}") } else { pid.to_string() });
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!("firefox {signal}: exit {:?} {took:?} after the signal", out.status.code());
    assert_code(&out, code);
    assert!(text(&out).1.contains("interrupted by SIG"), "{}", text(&out).1);
    private.assert_clean(Duration::from_secs(3));
    assert_eq!(keys_after(&server, "sudoku_name_slow", sent, 250), 0, "keys after {signal}");
    assert!(server.verdicts("sudoku_name_slow").iter().all(|v| v != "solved"), "not solved");
}

#[test]
fn firefox_sigterm_mid_fill_stops_typing_and_leaves_nothing() {
    if firefox_here("firefox_sigterm_mid_fill_stops_typing_and_leaves_nothing") {
        firefox_signal_mid_fill("-TERM", false, 143);
    }
}

#[test]
fn firefox_group_sigint_and_sighup_mid_fill_leave_nothing() {
    if firefox_here("firefox_group_sigint_and_sighup_mid_fill_leave_nothing") {
        firefox_signal_mid_fill("-INT", true, 130);
        firefox_signal_mid_fill("-HUP", false, 129);
    }
}

#[test]
fn a_sigkilled_sudobot_takes_geckodriver_and_firefox_with_it() {
    if !firefox_here("a_sigkilled_sudobot_takes_geckodriver_and_firefox_with_it") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_slow.html");
    let args = ["web", "--site", "sudoku.name", "--url", &url, "--browser", "firefox"];
    let child = private.command(&args).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let sent = now_ms();
    kill("-KILL", &pid.to_string());
    let _ = finish(child, Duration::from_secs(10));
    // geckodriver dies with sudobot (parent-death signal), and Firefox with geckodriver (the
    // wrapper's parent-death signal); its content processes follow their parent.
    let start = std::time::Instant::now();
    while !private.processes().is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("firefox SIGKILL: processes gone after {:?}", start.elapsed());
    assert_eq!(private.processes(), Vec::<String>::new(), "processes left after SIGKILL");
    assert_eq!(keys_after(&server, "sudoku_name_slow", sent, 250), 0, "keys after SIGKILL");
    // The killed run's directory is deleted by the next run.
    assert_eq!(private.files().len(), 1, "{:?}", private.files());
    let url = server.url("sudoku_name.html");
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &url,
        "--browser",
        "firefox",
        "--dry-run",
    ]);
    assert_code(&out, 0);
    private.assert_clean(Duration::from_secs(3));
}

/// The geckodriver under `pid`.
fn geckodriver_of(pid: u32) -> Option<u32> {
    super::descendants(pid).into_iter().find(|&p| {
        std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == "geckodriver")
    })
}

/// Kills or stops geckodriver mid-fill: the bot names it, exits 1, and nothing is left (its
/// Firefox included, which a stopped geckodriver cannot stop itself).
fn geckodriver_fault_mid_fill(signal: &str) -> String {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_slow.html");
    let args = ["web", "--site", "sudoku.name", "--url", &url, "--browser", "firefox"];
    let child = private.command(&args).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let driver = geckodriver_of(pid).expect("geckodriver runs under sudobot");
    let sent = now_ms();
    kill(signal, &driver.to_string());
    let (out, took) = finish(child, Duration::from_secs(10));
    let stderr = text(&out).1;
    eprintln!(
        "geckodriver {signal}: exit {:?} {took:?} after the fault: {stderr}",
        out.status.code()
    );
    assert_code(&out, 1);
    private.assert_clean(Duration::from_secs(3));
    assert_eq!(keys_after(&server, "sudoku_name_slow", sent, 250), 0, "keys after the fault");
    stderr
}

#[test]
fn firefox_a_killed_geckodriver_is_named_and_nothing_is_left() {
    if !firefox_here("firefox_a_killed_geckodriver_is_named_and_nothing_is_left") {
        return;
    }
    let stderr = geckodriver_fault_mid_fill("-KILL");
    assert!(stderr.contains("geckodriver (pid") && stderr.contains("exited"), "{stderr}");
}

#[test]
fn firefox_a_stopped_geckodriver_is_named_and_nothing_is_left() {
    if !firefox_here("firefox_a_stopped_geckodriver_is_named_and_nothing_is_left") {
        return;
    }
    let stderr = geckodriver_fault_mid_fill("-STOP");
    assert!(stderr.contains("geckodriver (pid") && stderr.contains("is stopped"), "{stderr}");
}

#[test]
fn firefox_sigint_during_session_start_leaves_nothing() {
    if !firefox_here("firefox_sigint_during_session_start_leaves_nothing") {
        return;
    }
    let _lock = browser_lock();
    let private = Private::new();
    let child =
        private.command(&["web", "--site", "demo", "--browser", "firefox"]).spawn().unwrap();
    let pid = child.id();
    // Wait until Firefox runs (the session is being created), then interrupt.
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(30)
        && !super::descendants(pid).iter().any(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/comm"))
                .is_ok_and(|c| c.trim() == "firefox-esr")
        })
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    kill("-INT", &format!("-{pid}"));
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!("firefox SIGINT during start: exit {:?} after {took:?}", out.status.code());
    assert_code(&out, 130);
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn firefox_keeps_evidence_of_a_failed_puzzle() {
    if !firefox_here("firefox_keeps_evidence_of_a_failed_puzzle") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let work = tempfile::tempdir().unwrap();
    let config =
        config_with(work.path(), &[("element_timeout_ms = 10000", "element_timeout_ms = 1000")]);
    let debug = work.path().join("debug");
    let url = server.url("sudoku_name_80.html");
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &url,
        "--browser",
        "firefox",
        "--config",
        config.to_str().unwrap(),
        "--debug-dir",
        debug.to_str().unwrap(),
    ]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("matched 80 cells"), "{stderr}");
    let evidence = std::fs::read_dir(&debug).unwrap().flatten().next().expect("evidence").path();
    for file in ["screenshot.png", "page.html", "error.txt", "url.txt"] {
        let path = evidence.join(file);
        assert!(path.metadata().is_ok_and(|m| m.len() > 0), "{file} in {}", evidence.display());
    }
    let png = std::fs::read(evidence.join("screenshot.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_missing_geckodriver_or_firefox_says_what_to_install() {
    // No browser starts: no lock, and it runs where Firefox is not installed too.
    let out = firefox(&["web", "--site", "demo", "--driver", "/nonexistent/geckodriver"]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(
        stderr.contains("cannot start the WebDriver driver /nonexistent/geckodriver"),
        "{stderr}"
    );
    assert!(stderr.contains("apt-get install firefox-esr"), "{stderr}");
    assert!(stderr.contains("cargo install geckodriver --locked"), "{stderr}");
    if !firefox_here("a_missing_geckodriver_or_firefox_says_what_to_install") {
        return;
    }
    let private = Private::new();
    let out = private.run(&[
        "web",
        "--site",
        "demo",
        "--browser",
        "firefox",
        "--browser-binary",
        "/nonexistent/firefox-esr",
    ]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("no browser at /nonexistent/firefox-esr"), "{stderr}");
    assert!(stderr.contains("driver: geckodriver"), "{stderr}");
    assert!(stderr.contains("apt-get install firefox-esr"), "{stderr}");
    private.assert_clean(Duration::from_secs(3));
}

/// A Selenium Grid 4 standalone whose only driver is geckodriver (`--driver-implementation
/// firefox`, two slots): `--parallel 2` without `--browser` reads from `/status` that the Grid
/// offers Firefox, and both puzzles are solved there. Needs `java` and the Grid jar (see
/// `selenium_grid_remote_mode`); without them it says so and skips.
#[test]
fn firefox_grid_node_parallel_two_picks_firefox_from_status() {
    if !firefox_here("firefox_grid_node_parallel_two_picks_firefox_from_status") {
        return;
    }
    let jar = match super::grid::grid_jar() {
        Ok(jar) => jar,
        Err(why) => {
            eprintln!("SKIPPED firefox_grid_node: {why}");
            return;
        }
    };
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    // The Grid finds geckodriver on PATH: put the one sudobot would use first.
    let driver = sudobot::web::Browser::Firefox.default_driver();
    let driver_dir = std::path::Path::new(&driver).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(driver_dir)
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let port_arg = port.to_string();
    let mut cmd = super::grid::java(&jar, &[], &["standalone", "--port", &port_arg]);
    cmd.args(["--selenium-manager", "false", "--driver-implementation", "firefox"])
        .args(["--max-sessions", "2", "--override-max-sessions", "true"])
        .env("PATH", path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut grid = super::RemoteEnd::spawn(cmd);
    let started = grid.grid_started();
    let remote = format!("http://127.0.0.1:{port}");
    let url = server.url("sudoku_name.html");
    let out = started.then(|| {
        Command::new(env!("CARGO_BIN_EXE_sudobot"))
            .args(["web", "--site", "sudoku.name", "--url", &url, "--remote", &remote])
            .args(["--count", "2", "--parallel", "2", "--headless", "--no-debug-files"])
            .timeout(Duration::from_secs(120))
            .output()
            .expect("run sudobot")
    });
    drop(grid);
    let out = out.expect("the Grid started within 90 s");
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    assert!(stderr.contains("the Grid's nodes offer firefox only"), "{stderr}");
    assert!(stdout.contains("2 of 2 puzzles solved and confirmed over 2 session(s)"), "{stdout}");
    assert_eq!(server.verdicts("sudoku_name"), ["solved", "solved"]);
}

#[test]
fn firefox_never_types_into_a_filled_cell_when_the_givens_are_not_proven() {
    if !firefox_here("firefox_never_types_into_a_filled_cell_when_the_givens_are_not_proven") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // Inputs by colour and divs by class: a wrong entry is named, nothing typed.
    for page in ["entries_colour_inputs", "entries_class_divs"] {
        let out = super::givens::run(&server, page, &[], "firefox");
        super::givens::assert_refused(&server, page, &out);
    }
    let out = super::givens::run(&server, "entries_colour_right", &[], "firefox");
    super::givens::assert_completed(&server, &out);
}

/// Issue 32 on Firefox: the failure alert of a page that calls the board wrong is no success
/// (even with a site whose success text it holds), and a `confirm()` mid-fill is dismissed,
/// stops the run and keeps the player's game.
#[test]
fn firefox_dismisses_dialogs_and_takes_no_failure_for_success() {
    if !firefox_here("firefox_dismisses_dialogs_and_takes_no_failure_for_success") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let sites = super::dialogs::sudokuonline_with_text("corect");
    let dir = sites.path().to_str().unwrap();
    let out = play(&server, "sudokuonline.eu", "sudokuonline.html?strict", &["--sites-dir", dir]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("\"Solutia nu este corecta.\""), "{stderr}");
    assert_eq!(server.verdicts("sudokuonline"), ["not correct"]);
    let out = play(&server, "sudoku.name", "sudoku_name_confirm.html", &[]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("\"Start a new game? Your progress will be lost.\""), "{stderr}");
    let verdicts = server.verdicts("sudoku_name_confirm");
    assert_eq!(verdicts.len(), 1, "one dialog, no new game, not solved: {verdicts:?}");
    let kept = verdicts[0].strip_prefix("kept ").expect("the page kept the game");
    // No key reached the page after the dialog: the page's values are the bot's count.
    assert!(stderr.contains(&format!("{kept} of 51 cells to type hold their value")), "{stderr}");
}
