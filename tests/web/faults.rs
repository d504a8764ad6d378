//! Faults, signals and hostile pages, against real chromium + chromedriver. Every run gets a
//! private `TMPDIR`; each test asserts that no process and no file of the run is left there.
//! Key logs come from the pages themselves (`at <ms> <key>`, the page's clock), so "no key
//! after the signal" is the page's word, not the bot's.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::server::FixtureServer;
use super::{assert_code, browser_lock, config_with, descendants, text};

/// A run directory of its own: the bot's `TMPDIR`.
pub(super) struct Private {
    dir: tempfile::TempDir,
}

impl Private {
    pub(super) fn new() -> Private {
        Private { dir: tempfile::tempdir().expect("a temporary directory") }
    }

    pub(super) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `sudobot ARGS --headless` with this `TMPDIR`, in a process group of its own (so a
    /// group signal reaches it and its children, not the test).
    pub(super) fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sudobot"));
        cmd.args(args);
        if args.first() == Some(&"web") {
            cmd.arg("--headless");
        } else {
            // `sites check --url` runs headless when there is no display.
            cmd.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
        }
        cmd.env("TMPDIR", self.path())
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd
    }

    /// Runs to the end (bounded).
    pub(super) fn run(&self, args: &[&str]) -> Output {
        let child = self.command(args).spawn().expect("run sudobot");
        finish(child, Duration::from_secs(90)).0
    }

    /// Processes that carry this directory in their environment or arguments (not zombies).
    pub(super) fn processes(&self) -> Vec<String> {
        let marker = self.path().to_string_lossy().to_string();
        let mut out = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            if !super::running(pid) {
                continue;
            }
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let args = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&env).contains(&marker)
                || String::from_utf8_lossy(&args).contains(&marker)
            {
                let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
                out.push(format!("{pid} {}", comm.trim()));
            }
        }
        out
    }

    pub(super) fn files(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.path()).unwrap().flatten().map(|e| e.path()).collect()
    }

    /// Nothing of the run is left: no process (after `grace`, for a browser that exits by itself
    /// once its driver is gone) and no file.
    pub(super) fn assert_clean(&self, grace: Duration) {
        let start = Instant::now();
        let mut left = self.processes();
        while !left.is_empty() && start.elapsed() < grace {
            std::thread::sleep(Duration::from_millis(20));
            left = self.processes();
        }
        assert!(left.is_empty(), "processes left: {left:?}");
        assert!(self.files().is_empty(), "files left: {:?}", self.files());
    }
}

/// Waits (bounded) for the child and returns its output and how long the wait took.
pub(super) fn finish(child: Child, bound: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx.recv_timeout(bound).expect("sudobot exits within the bound").expect("output");
    (out, start.elapsed())
}

pub(super) fn now_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis()
}

/// The page's key log: the page-clock times of the keys it saw.
pub(super) fn key_times(server: &FixtureServer, page: &str) -> Vec<u128> {
    server
        .verdicts(page)
        .iter()
        .filter_map(|v| v.strip_prefix("at ")?.split(' ').next()?.parse().ok())
        .collect()
}

/// Waits until the page logged `n` keys (bounded).
pub(super) fn wait_keys(server: &FixtureServer, page: &str, n: usize) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if key_times(server, page).len() >= n {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// Waits (bounded) until the page has seen keys from the run; if it never does, the run's
/// process group is killed and the test fails with what sudobot printed.
pub(super) fn expect_typing(server: &FixtureServer, page: &str, child: Child) -> Child {
    if wait_keys(server, page, 5) {
        return child;
    }
    kill("-KILL", &format!("-{}", child.id()));
    let (out, _) = finish(child, Duration::from_secs(10));
    panic!(
        "no key reached {page} within 60 s; sudobot printed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The chromedriver under `pid`.
fn chromedriver_of(pid: u32) -> Option<u32> {
    descendants(pid).into_iter().find(|&p| {
        std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == "chromedriver")
    })
}

pub(super) fn kill(signal: &str, target: &str) {
    crate::support::signal(signal, target);
}

/// Keys the page saw later than `tolerance` after the signal. The tolerance covers the key
/// whose handler had already started when the signal was sent (the page is slow: 40 ms a key).
pub(super) fn keys_after(server: &FixtureServer, page: &str, sent: u128, tolerance: u128) -> usize {
    key_times(server, page).into_iter().filter(|&t| t > sent + tolerance).count()
}

/// How a signal sent mid-fill ends: the exit code, the time from the signal to exit, keys the
/// page saw after it, and what was left. `group` sends it to the whole process group (a
/// terminal's Ctrl-C); `twice` sends it again right away.
fn signal_mid_fill(signal: &str, group: bool, twice: bool) -> (Output, Duration, usize) {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_slow.html");
    let child = private.command(&["web", "--site", "sudoku.name", "--url", &url]).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let target = if group { format!("-{pid}") } else { pid.to_string() };
    let sent = now_ms();
    kill(signal, &target);
    if twice {
        kill(signal, &target);
    }
    let (out, took) = finish(child, Duration::from_secs(10));
    private.assert_clean(Duration::from_secs(3));
    let late = keys_after(&server, "sudoku_name_slow", sent, 250);
    let total = key_times(&server, "sudoku_name_slow").len();
    eprintln!(
        "{signal}{}{}: exit {:?} {took:?} after the signal; {total} keys before, {late} after",
        if group { " to the group" } else { "" },
        if twice { " twice" } else { "" },
        out.status.code()
    );
    assert!(server.verdicts("sudoku_name_slow").iter().all(|v| v != "solved"), "not solved");
    (out, took, late)
}

#[test]
fn sigterm_mid_fill_stops_typing_and_leaves_nothing() {
    let (out, _, late) = signal_mid_fill("-TERM", false, false);
    assert_code(&out, 143);
    assert_eq!(late, 0, "keys reached the page after SIGTERM");
    assert!(text(&out).1.contains("interrupted by SIGTERM"), "{}", text(&out).1);
}

#[test]
fn group_sigint_mid_fill_stops_typing_and_leaves_nothing() {
    let (out, _, late) = signal_mid_fill("-INT", true, false);
    assert_code(&out, 130);
    assert_eq!(late, 0, "keys reached the page after Ctrl-C");
}

#[test]
fn sighup_mid_fill_stops_typing_and_leaves_nothing() {
    let (out, _, late) = signal_mid_fill("-HUP", false, false);
    assert_code(&out, 129);
    assert_eq!(late, 0, "keys reached the page after SIGHUP");
}

#[test]
fn a_second_ctrl_c_exits_at_once_and_leaves_nothing() {
    let (out, _, late) = signal_mid_fill("-INT", true, true);
    assert_code(&out, 130);
    assert_eq!(late, 0, "keys reached the page after Ctrl-C");
}

#[test]
fn sigint_during_session_start_leaves_nothing() {
    let _lock = browser_lock();
    let private = Private::new();
    let child = private.command(&["web", "--site", "demo"]).spawn().unwrap();
    let pid = child.id();
    // Wait until chromium runs (the session is being created), then interrupt.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30)
        && !descendants(pid).iter().any(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/comm"))
                .is_ok_and(|c| c.trim().starts_with("chromium"))
        })
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    kill("-INT", &format!("-{pid}"));
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!("SIGINT during start: exit {:?} after {took:?}", out.status.code());
    assert_code(&out, 130);
    private.assert_clean(Duration::from_secs(3));
}

/// Kills or stops chromedriver mid-fill; the bot must notice, name the driver, and clean up.
fn driver_fault_mid_fill(signal: &str) -> Output {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_slow.html");
    let child = private.command(&["web", "--site", "sudoku.name", "--url", &url]).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let driver = chromedriver_of(pid).expect("chromedriver runs under sudobot");
    let sent = now_ms();
    kill(signal, &driver.to_string());
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!(
        "chromedriver {signal}: exit {:?} {took:?} after the fault: {}",
        out.status.code(),
        text(&out).1
    );
    assert_code(&out, 1);
    private.assert_clean(Duration::from_secs(3));
    assert_eq!(keys_after(&server, "sudoku_name_slow", sent, 250), 0, "keys after the fault");
    out
}

#[test]
fn a_killed_chromedriver_is_named_and_nothing_is_left() {
    let out = driver_fault_mid_fill("-KILL");
    let stderr = text(&out).1;
    assert!(stderr.contains("chromedriver (pid") && stderr.contains("exited"), "{stderr}");
    assert!(stderr.contains("SIGKILL"), "{stderr}");
}

#[test]
fn a_stopped_chromedriver_is_named_and_nothing_is_left() {
    let out = driver_fault_mid_fill("-STOP");
    let stderr = text(&out).1;
    assert!(stderr.contains("chromedriver (pid") && stderr.contains("is stopped"), "{stderr}");
}

/// `sudobot web` on a sudoku.name fixture page with the settings file `config`.
fn spawn_with_config(
    private: &Private,
    server: &FixtureServer,
    page: &str,
    config: &Path,
) -> Child {
    let (url, config) = (server.url(page), config.to_str().unwrap());
    let args = ["web", "--site", "sudoku.name", "--url", &url, "--config", config];
    private.command(&args).spawn().unwrap()
}

/// The browser's renderer processes under `pid` (their command line says `--type=renderer`).
fn renderers_of(pid: u32) -> Vec<u32> {
    descendants(pid)
        .into_iter()
        .filter(|p| {
            std::fs::read(format!("/proc/{p}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains("--type=renderer"))
        })
        .collect()
}

#[test]
fn a_stopped_renderer_is_named_as_a_command_that_timed_out() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    // A shorter bound on each WebDriver command keeps the test short; the message names it.
    let config =
        config_with(private.path(), &[("start_timeout_ms = 20000", "start_timeout_ms = 8000")]);
    let child = spawn_with_config(&private, &server, "sudoku_name_slow.html", &config);
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let renderers = renderers_of(pid);
    assert!(!renderers.is_empty(), "chromium runs renderer processes under sudobot");
    for r in &renderers {
        kill("-STOP", &r.to_string());
    }
    let (out, took) = finish(child, Duration::from_secs(40));
    let stderr = text(&out).1;
    eprintln!("renderer stopped: exit {:?} after {took:?}: {stderr}", out.status.code());
    assert_code(&out, 1);
    assert!(stderr.contains("timed out"), "{stderr}");
    assert!(stderr.contains("did not answer POST"), "the command is named: {stderr}");
    assert!(stderr.contains("within 8s") && stderr.contains("driver.start_timeout_ms"), "{stderr}");
    assert!(!stderr.contains("error sending request"), "{stderr}");
    std::fs::remove_file(config).unwrap();
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_driver_that_dies_while_waiting_for_the_board_is_noticed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let config = config_with(
        private.path(),
        &[("element_timeout_ms = 10000", "element_timeout_ms = 30000")],
    );
    let child = spawn_with_config(&private, &server, "sudoku_name_80.html", &config);
    let pid = child.id();
    assert!(server.wait_for_request("sudoku_name_80.html", Duration::from_secs(60)));
    let driver = chromedriver_of(pid).expect("chromedriver runs under sudobot");
    kill("-KILL", &driver.to_string());
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!("chromedriver killed while waiting for the board: exit after {took:?}");
    assert_code(&out, 1);
    assert!(text(&out).1.contains("chromedriver (pid"), "{}", text(&out).1);
    std::fs::remove_file(config).unwrap();
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_sigkilled_sudobot_leaves_no_browser_typing() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_slow.html");
    let child = private.command(&["web", "--site", "sudoku.name", "--url", &url]).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let sent = now_ms();
    kill("-KILL", &pid.to_string());
    let _ = finish(child, Duration::from_secs(10));
    // chromedriver dies with sudobot (parent-death signal); the browser exits by itself when
    // the driver's end of its DevTools pipe closes.
    let start = Instant::now();
    while !private.processes().is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("SIGKILL: processes gone after {:?}", start.elapsed());
    assert_eq!(private.processes(), Vec::<String>::new(), "processes left after SIGKILL");
    assert_eq!(keys_after(&server, "sudoku_name_slow", sent, 250), 0, "keys after SIGKILL");
    // The run directory could not be deleted by a killed process; the next run deletes it.
    assert_eq!(private.files().len(), 1, "{:?}", private.files());
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &server.url("sudoku_name.html"),
        "--dry-run",
    ]);
    assert_code(&out, 0);
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_driver_wrapper_script_and_its_children_are_stopped() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let bin = tempfile::tempdir().unwrap();
    let wrapper = bin.path().join("driver.sh");
    // Not `exec`: chromedriver is the wrapper's child, chromium its grandchild.
    std::fs::write(&wrapper, "#!/bin/sh\n/usr/bin/chromedriver \"$@\"\n").unwrap();
    std::fs::set_permissions(&wrapper, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();
    let url = server.url("sudoku_name.html");
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &url,
        "--driver",
        wrapper.to_str().unwrap(),
    ]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn tab_walks_follow_the_pages_own_focus_order_or_cells_are_clicked() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // Givens that are not Tab stops: the Tab counts come from the page's focus order. A button
    // between two cells: every cell is clicked. Either way only board cells get keys.
    for (page, clicked) in
        [("sudoku_name_disabled", false), ("sudoku_name_notab", false), ("sudoku_name_trap", true)]
    {
        let private = Private::new();
        let url = server.url(&format!("{page}.html"));
        let out = private.run(&["web", "--site", "sudoku.name", "--url", &url]);
        assert_code(&out, 0);
        assert_eq!(text(&out).0.contains("clicking each cell"), clicked, "{}", text(&out).0);
        // The page's own log: solved, and neither the select nor a button was touched.
        assert_eq!(server.verdicts(page), ["solved"], "{page}");
        private.assert_clean(Duration::from_secs(3));
    }
}

#[test]
fn focus_moved_away_by_the_page_stops_every_later_key() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_steal.html");
    let out = private.run(&["web", "--site", "sudoku.name", "--url", &url, "--no-debug-files"]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("keys left the board: focus moved to select#level"), "{stderr}");
    assert!(stderr.contains("were stopped before reaching the page"), "{stderr}");
    // The select never changed and nothing was solved.
    assert_eq!(server.verdicts("sudoku_name_steal"), Vec::<String>::new());
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_board_replaced_on_the_first_click_is_solved_again_not_typed_into() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_replace.html");
    let out = private.run(&["web", "--site", "sudoku.name", "--url", &url]);
    assert_code(&out, 0);
    assert!(text(&out).0.contains("after the page loaded a different puzzle"), "{}", text(&out).0);
    let log = server.verdicts("sudoku_name_replace");
    // No key of the old answer: between the replacement and the second attempt the page saw
    // nothing; the only keys it saw solve the new puzzle, which it confirms.
    assert_eq!(log.first().map(String::as_str), Some("replaced"), "{log:?}");
    assert_eq!(log.last().map(String::as_str), Some("solved"), "{log:?}");
    let keys = log.iter().filter(|v| v.starts_with("key ")).count();
    let blanks =
        "400000805030000000000700000020000060000080400000010000000603070500200000104000000"
            .bytes()
            .filter(|&b| b == b'0')
            .count();
    let tabs = log.iter().filter(|v| *v == "key Tab").count();
    assert_eq!(keys - tabs, blanks, "one digit per blank of the new puzzle: {log:?}");
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn an_alert_that_confirms_completion_is_success() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let sites = tempfile::tempdir().unwrap();
    let site = include_str!("../../sites/sudoku.name.toml").replace(
        "success = { selector = \"#result_message\", text = \"恭喜\" }",
        "success = { alert = true, text = \"solved!\" }",
    );
    assert!(site.contains("alert = true"));
    std::fs::write(sites.path().join("alerting.toml"), site).unwrap();
    let url = server.url("sudoku_name_alert.html");
    let out = private.run(&[
        "web",
        "--site",
        "alerting",
        "--url",
        &url,
        "--sites-dir",
        sites.path().to_str().unwrap(),
    ]);
    assert_code(&out, 0);
    assert!(text(&out).0.contains("alert: solved!"), "{}", text(&out).0);
    assert_eq!(server.verdicts("sudoku_name_alert"), ["solved"]);
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_marker_shown_before_typing_does_not_confirm() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_marker.html");
    let out = private.run(&["web", "--site", "sudoku.name", "--url", &url, "--no-debug-files"]);
    assert_code(&out, 1);
    assert!(
        text(&out).1.contains("already showed \"恭喜\" before anything was typed"),
        "{}",
        text(&out).1
    );
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn sixteen_givens_are_several_solutions_not_not_ready() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_16.html");
    let out = private.run(&["web", "--site", "sudoku.name", "--url", &url]);
    assert_code(&out, 4);
    assert!(
        text(&out).1.contains("several solutions (16 givens); nothing was typed"),
        "{}",
        text(&out).1
    );
    assert_eq!(server.verdicts("sudoku_name_16"), Vec::<String>::new(), "the page saw no key");
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn the_seeds_frame_document_and_its_outer_page_both_solve() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    for file in ["online2.html?nd=4", "sudokupuzzle_play.html"] {
        let private = Private::new();
        let out = private.run(&["web", "--site", "sudokupuzzle.org", "--url", &server.url(file)]);
        assert_code(&out, 0);
        private.assert_clean(Duration::from_secs(3));
    }
    assert_eq!(server.verdicts("sudokupuzzle"), ["solved", "solved"]);
}

#[test]
fn count_names_every_failure_and_reports_json_lines_with_evidence() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let work = tempfile::tempdir().unwrap();
    let config =
        config_with(work.path(), &[("element_timeout_ms = 10000", "element_timeout_ms = 1000")]);
    let report = work.path().join("report.jsonl");
    let debug = work.path().join("debug");
    let url = server.url("sudoku_name_80.html");
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &url,
        "--count",
        "2",
        "--stats",
        "--config",
        config.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--debug-dir",
        debug.to_str().unwrap(),
    ]);
    assert_code(&out, 1);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("0 of 2 puzzles solved"), "{stdout}");
    for n in [1, 2] {
        assert!(
            stderr.contains(&format!("sudobot: puzzle {n}: the board was not ready")),
            "{stderr}"
        );
    }
    assert!(stderr.contains("evidence (screenshot, page source): "), "{stderr}");
    // Phases not reached are not shown as 0.0 ms.
    assert!(!stderr.contains("fill                 0.0"), "{stderr}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&report)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["puzzle"], i + 1);
        assert_eq!(line["outcome"], "failed");
        assert!(line["reason"].as_str().unwrap().contains("matched 80 cells"), "{line}");
        assert!(line["phases_ms"]["fill"].is_null(), "{line}");
        let evidence = PathBuf::from(line["evidence"].as_str().unwrap());
        for file in ["screenshot.png", "page.html", "frame.html", "error.txt", "url.txt"] {
            assert!(evidence.join(file).exists(), "{file} in {}", evidence.display());
        }
    }
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_hung_page_load_says_it_timed_out() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let work = tempfile::tempdir().unwrap();
    let config = config_with(
        work.path(),
        &[("page_load_timeout_ms = 30000", "page_load_timeout_ms = 1500")],
    );
    let url = server.url("hang");
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &url,
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_code(&out, 1);
    assert!(text(&out).1.contains("timed out after 1.5s"), "{}", text(&out).1);
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn bad_arguments_exit_2_before_any_browser_starts() {
    let private = Private::new();
    let out = private.run(&["web", "--site", "demo", "--url", "not a url"]);
    assert_code(&out, 2);
    assert!(text(&out).1.contains("`--url`: `not a url` is not a URL"), "{}", text(&out).1);
    // --headed and --headless conflict; build the headed run without the helper's flag.
    let mut headed = Command::new(env!("CARGO_BIN_EXE_sudobot"));
    headed.args(["web", "--site", "demo", "--headed"]).env("TMPDIR", private.path());
    headed.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    let out = headed.output().unwrap();
    assert_code(&out, 2);
    assert!(text(&out).1.contains("DISPLAY and WAYLAND_DISPLAY are not set"), "{}", text(&out).1);
    let sites = tempfile::tempdir().unwrap();
    let site = include_str!("../../sites/sudoku.name.toml")
        .replace("table#sudoku_main_board input.i3", "input:bogus");
    std::fs::write(sites.path().join("broken.toml"), site).unwrap();
    let out =
        private.run(&["web", "--site", "broken", "--sites-dir", sites.path().to_str().unwrap()]);
    assert_code(&out, 2);
    let stderr = text(&out).1;
    assert!(
        stderr.contains("`board.cells`: `input:bogus` is not a valid CSS selector"),
        "{stderr}"
    );
    assert!(!stderr.contains("report this to the developer"), "{stderr}");
    private.assert_clean(Duration::ZERO);
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name.html");
    let mut child = private
        .command(&["web", "--site", "sudoku.name", "--url", &url, "--dry-run"])
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let (out, _) = finish(child, Duration::from_secs(90));
    assert_code(&out, 0);
    assert!(!text(&out).1.contains("panicked"), "{}", text(&out).1);
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn sites_check_url_shows_what_each_selector_matches() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let out = private.run(&[
        "sites",
        "check",
        "--site",
        "sudokupuzzle.org",
        "--url",
        &server.url("sudokupuzzle_play.html"),
    ]);
    assert_code(&out, 0);
    let stdout = text(&out).0;
    assert!(stdout.contains("frames[0]") && stdout.contains("found and entered"), "{stdout}");
    assert!(stdout.contains("`table.sd input`: 81 matches"), "{stdout}");
    assert!(stdout.contains("81 of 81 ids found"), "{stdout}");
    let out = private.run(&[
        "sites",
        "check",
        "--site",
        "sudoku.name",
        "--url",
        &server.url("sudoku_name_80.html"),
    ]);
    assert_code(&out, 1);
    assert!(text(&out).0.contains("error  board.cells"), "{}", text(&out).0);
    private.assert_clean(Duration::from_secs(3));
}
