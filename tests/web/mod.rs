//! `sudobot web` and `sudobot sites` end to end: the real binary drives Debian's headless
//! chromium through chromedriver against replica pages served from `tests/fixtures/web/` by a
//! server inside this test process. The replicas decide "solved" with their own scripts and
//! report it to that server; tests check those reports, not the bot's word. `firefox` runs a
//! representative set of them on Firefox through geckodriver.
//!
//! Browser tests hold one lock so at most one browser runs at a time (CI has 2 cores), and every
//! run of the binary is bounded by a timeout.

mod any;
mod attach;
mod canvas;
mod canvas_letters;
mod dialogs;
mod faults;
mod firefox;
mod givens;
mod grid;
mod limits;
mod server;
mod variants;

use std::process::Output;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use server::FixtureServer;

static BROWSER: Mutex<()> = Mutex::new(());

/// One browser at a time; a failed test must not poison the others.
pub(crate) fn browser_lock() -> MutexGuard<'static, ()> {
    BROWSER.lock().unwrap_or_else(|p| p.into_inner())
}

/// The binary with a clean environment and a bound on its run time.
fn sudobot(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sudobot"));
    cmd.args(args).args(["--headless", "--no-debug-files"]).timeout(Duration::from_secs(90));
    cmd.output().expect("run sudobot")
}

fn sudobot_plain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudobot"))
        .args(args)
        .timeout(Duration::from_secs(30))
        .output()
        .expect("run sudobot")
}

pub(crate) fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

pub(crate) fn assert_code(out: &Output, code: i32) {
    let (stdout, stderr) = text(out);
    assert_eq!(out.status.code(), Some(code), "stdout:\n{stdout}\nstderr:\n{stderr}");
}

/// A WebDriver server the test starts for remote mode (chromedriver, or a Grid), in a process
/// group of its own with a private `TMPDIR` and `HOME`: what it and its browsers leave there
/// (Chromium's singleton socket directory, chromedriver's own profile when a session names none,
/// Selenium's cache) goes with the test instead of staying in the machine's /tmp, and a Grid
/// starts with an empty cache, as on a new machine. Dropping it sends SIGTERM to the group,
/// waits (bounded) for the server to exit, then SIGKILLs what is left.
struct RemoteEnd {
    child: std::process::Child,
    _tmp: tempfile::TempDir,
}

impl RemoteEnd {
    fn spawn(mut cmd: std::process::Command) -> RemoteEnd {
        let tmp = tempfile::tempdir().unwrap();
        cmd.env("TMPDIR", tmp.path()).env("HOME", tmp.path()).stdin(std::process::Stdio::null());
        // A Grid's JVM takes its temporary directory from `java.io.tmpdir`, not `TMPDIR`.
        cmd.env("JAVA_TOOL_OPTIONS", format!("-Djava.io.tmpdir={}", tmp.path().display()));
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        RemoteEnd { child: cmd.spawn().expect("the WebDriver server starts"), _tmp: tmp }
    }

    /// For a Grid spawned with its standard output piped: whether it logged "Started Selenium"
    /// (it takes sessions) within 90 s. A reader thread keeps draining the log afterwards, so
    /// the Grid never writes into a closed pipe.
    fn grid_started(&mut self) -> bool {
        let log = self.child.stdout.take().expect("the Grid's output is piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(log)).map_while(Result::ok)
            {
                if line.contains("Started Selenium") {
                    let _ = tx.send(true);
                }
            }
            let _ = tx.send(false);
        });
        rx.recv_timeout(Duration::from_secs(90)).unwrap_or(false)
    }
}

impl Drop for RemoteEnd {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        crate::support::signal("-TERM", &group);
        crate::support::wait_exit(&mut self.child, Instant::now() + Duration::from_secs(10));
        crate::support::signal("-KILL", &group);
        let _ = self.child.wait();
    }
}

fn play(server: &FixtureServer, site: &str, file: &str, extra: &[&str]) -> Output {
    let url = server.url(file);
    let mut args = vec!["web", "--site", site, "--url", &url];
    args.extend_from_slice(extra);
    sudobot(&args)
}

#[test]
fn sudoku_name_replica_is_solved_with_real_keys() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name.html", &["--stats"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("typed 51 cells"), "{stdout}");
    for phase in ["session start", "navigation", "read", "solve", "fill", "verify"] {
        assert!(stderr.contains(phase), "--stats shows {phase}: {stderr}");
    }
}

/// Chromium runs as Debian's headless shell where that is installed (`headless_shell = "auto"`,
/// the default) and as the full browser with `headless_shell = "never"`: both solve the
/// sudoku.name replica, and `-v` says which ran.
#[test]
fn the_headless_shell_and_the_full_browser_both_play() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    let never =
        config_with(dir.path(), &[("headless_shell = \"auto\"", "headless_shell = \"never\"")]);
    let installed = std::path::Path::new(sudobot::web::browser::HEADLESS_SHELL).exists();
    if !installed {
        eprintln!("skipping the headless shell's half: apt-get install chromium-headless-shell");
    }
    let url = server.url("sudoku_name.html");
    for (config, shell) in [(None, installed), (Some(never), false)] {
        let mut args = vec!["web", "--site", "sudoku.name", "--url", &url, "-v"];
        let config = config.map(|c| c.display().to_string());
        if let Some(c) = &config {
            args.extend(["--config", c]);
        }
        let out = sudobot(&args);
        assert_code(&out, 0);
        let (stdout, stderr) = text(&out);
        assert!(stdout.contains("typed 51 cells"), "{stdout}");
        assert_eq!(stderr.contains("runs as its headless shell"), shell, "{stderr}");
    }
    assert_eq!(server.verdicts("sudoku_name"), ["solved", "solved"]);
}

#[test]
fn sudokupuzzle_replica_in_iframe_with_restored_wrong_value() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudokupuzzle.org", "sudokupuzzle_play.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudokupuzzle"), ["solved"]);
    let (stdout, _) = text(&out);
    assert!(stdout.contains("corrected 1 wrong values"), "{stdout}");
}

#[test]
fn websudoku_replica_frameset_column_first_submit() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "websudoku.com", "websudoku_frameset.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("websudoku"), ["solved"]);
    assert!(text(&out).0.contains("Congratulations"));
}

#[test]
fn a_second_puzzle_in_one_session_starts_from_the_top_frame() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // The first puzzle ends inside the frameset's frame; the second navigation must not.
    let out = play(&server, "websudoku.com", "websudoku_frameset.html", &["--count", "2"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("websudoku"), ["solved", "solved"]);
    let stdout = text(&out).0;
    assert!(stdout.contains("2 of 2 puzzles solved and confirmed"), "{stdout}");
}

#[test]
fn sudokuonline_replica_confirms_with_an_alert() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudokuonline.eu", "sudokuonline.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudokuonline"), ["solved"]);
    assert!(text(&out).0.contains("alert: Felicit"));
}

#[test]
fn a_page_that_drops_the_first_key_gets_those_cells_retyped() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name_drop.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name_drop"), ["solved"]);
    assert!(text(&out).0.contains("retyped 3 that dropped a key"), "{}", text(&out).0);
}

#[test]
fn an_invalid_board_is_refused_and_nothing_is_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name_invalid.html", &[]);
    assert_code(&out, 3);
    let (_, stderr) = text(&out);
    assert!(stderr.contains("invalid (r1c1 and r1c3 both hold 5"), "{stderr}");
    assert!(stderr.contains("nothing was typed"), "{stderr}");
    assert_eq!(server.verdicts("sudoku_name_invalid"), Vec::<String>::new(), "the page saw no key");
}

#[test]
fn eighty_cells_is_a_clear_error() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    // A short ready bound keeps the test quick; the message must still say what matched.
    let path =
        config_with(dir.path(), &[("element_timeout_ms = 10000", "element_timeout_ms = 1500")]);
    let out =
        play(&server, "sudoku.name", "sudoku_name_80.html", &["--config", path.to_str().unwrap()]);
    assert_code(&out, 1);
    let (_, stderr) = text(&out);
    assert!(
        stderr.contains("selector `table#sudoku_main_board input.i3` matched 80 cells, expected 81 (no cell with id c81)"),
        "{stderr}"
    );
}

#[test]
fn a_refused_url_is_a_clear_error() {
    let _lock = browser_lock();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/");
    let out = sudobot(&["web", "--site", "sudoku.name", "--url", &url]);
    assert_code(&out, 1);
    let (_, stderr) = text(&out);
    assert!(
        stderr.contains(&format!("cannot open {url}")) && stderr.contains("REFUSED"),
        "{stderr}"
    );
}

#[test]
fn a_missing_driver_says_what_to_install() {
    let out = sudobot(&["web", "--site", "demo", "--driver", "/nonexistent/chromedriver"]);
    assert_code(&out, 1);
    let (_, stderr) = text(&out);
    assert!(
        stderr.contains("cannot start the WebDriver driver /nonexistent/chromedriver"),
        "{stderr}"
    );
    assert!(stderr.contains("apt-get install chromium chromium-driver"), "{stderr}");
}

#[test]
fn dry_run_prints_the_answer_and_types_nothing() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name.html", &["--dry-run"]);
    assert_code(&out, 0);
    let (stdout, _) = text(&out);
    // Whatever layout the board printer uses, the digits after "answer:" are the solution.
    let answer = stdout.split("answer:").nth(1).unwrap_or("");
    let answer = answer.split("dry run").next().unwrap_or("");
    let digits: String = answer.chars().filter(|c| c.is_ascii_digit()).collect();
    assert_eq!(
        digits, "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        "{stdout}"
    );
    assert!(stdout.contains("51 cells would be typed"), "{stdout}");
    assert!(server.verdicts("sudoku_name").is_empty());
}

#[test]
fn demo_site_served_by_the_bot_plays_several_puzzles() {
    let _lock = browser_lock();
    let out =
        sudobot(&["web", "--site", "demo", "--difficulty", "easy", "--count", "2", "--stats"]);
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("2 of 2 puzzles solved and confirmed"), "{stdout}");
    assert!(stderr.contains("median"), "{stderr}");
}

#[test]
fn demo_page_judges_by_itself_and_remote_mode_works() {
    let _lock = browser_lock();
    // The demo server runs in this process, so the page's verdict reaches the test directly;
    // chromedriver runs as a plain W3C server and the bot connects to it in remote mode.
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let demo = runtime.block_on(sudobot::web::demo::DemoServer::start()).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cmd = std::process::Command::new("/usr/bin/chromedriver");
    cmd.arg(format!("--port={port}"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    // (.ci/run installs chromium-driver.)
    let mut driver = RemoteEnd::spawn(cmd);
    // chromedriver prints "... started successfully ..." once it listens; reading its output
    // waits for exactly that (and ends if it exits).
    let stdout = driver.child.stdout.take().unwrap();
    let ready = std::io::BufRead::lines(std::io::BufReader::new(stdout))
        .map_while(Result::ok)
        .any(|line| line.contains("started successfully"));
    let remote = format!("http://127.0.0.1:{port}");
    let url = format!("{}/play?difficulty=3", demo.origin());
    let out =
        ready.then(|| sudobot(&["web", "--site", "demo", "--url", &url, "--remote", &remote]));
    drop(driver);
    let out = out.expect("chromedriver listened within the bound");
    assert_code(&out, 0);
    assert_eq!(demo.verdicts(), ["solved"]);
}

#[test]
fn sites_list_and_check() {
    let out = sudobot_plain(&["sites", "list"]);
    assert_code(&out, 0);
    let (stdout, _) = text(&out);
    for name in ["demo", "sudoku.name", "sudokupuzzle.org", "websudoku.com", "sudokuonline.eu"] {
        assert!(stdout.contains(name), "{stdout}");
    }
    let out = sudobot_plain(&["sites", "check"]);
    assert_code(&out, 0);

    let dir = tempfile::tempdir().unwrap();
    let bad = include_str!("../../sites/sudoku.name.toml").replace("c{index1}", "c{cell}");
    std::fs::write(dir.path().join("mine.toml"), bad).unwrap();
    let out = sudobot_plain(&["sites", "check", "--sites-dir", dir.path().to_str().unwrap()]);
    assert_code(&out, 2);
    let (stdout, _) = text(&out);
    assert!(
        stdout.contains("mine.toml: `board.id_template`: unknown placeholder `{cell}`"),
        "{stdout}"
    );
}

#[test]
fn a_bad_config_names_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("webdriver.toml");
    std::fs::write(&path, "[driver]\nmode = \"remote\"\n[browser]\n").unwrap();
    let out = sudobot_plain(&["web", "--config", path.to_str().unwrap()]);
    assert_code(&out, 2);
    let (_, stderr) = text(&out);
    assert!(stderr.contains("webdriver.toml: `driver.url`: remote mode needs"), "{stderr}");
}

#[test]
fn a_new_site_is_a_file_with_consent_and_title_confirmation() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/web/newsite.toml"),
        dir.path().join("newsite.toml"),
    )
    .unwrap();
    let sites_dir = dir.path().to_str().unwrap();
    let out = sudobot_plain(&["sites", "list", "--sites-dir", sites_dir]);
    assert!(text(&out).0.contains("puzzle-of-the-day"), "{}", text(&out).0);
    let out = play(&server, "puzzle-of-the-day", "newsite.html", &["--sites-dir", sites_dir]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("newsite"), ["solved"]);
    assert!(text(&out).0.contains("Well done"));
}

#[test]
fn a_browser_that_will_not_start_names_both_versions() {
    let _lock = browser_lock();
    let out = sudobot(&["web", "--site", "demo", "--browser-binary", "/bin/false"]);
    assert_code(&out, 1);
    let (_, stderr) = text(&out);
    assert!(stderr.contains("the browser did not start"), "{stderr}");
    assert!(stderr.contains("driver: ChromeDriver"), "{stderr}");
    assert!(stderr.contains("browser: "), "{stderr}");
}

/// Processes whose parent is `pid`, and their descendants (from /proc).
pub(crate) fn descendants(pid: u32) -> Vec<u32> {
    let mut all = Vec::new();
    let mut frontier = vec![pid];
    while let Some(parent) = frontier.pop() {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
            // Fields after the ")" that closes the command name: state, ppid, ...
            let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
            let ppid = after.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok());
            if ppid == Some(parent) {
                all.push(child);
                frontier.push(child);
            }
        }
    }
    all
}

/// Whether a process still runs (a zombie waiting for a reaper does not count).
pub(crate) fn running(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next());
    matches!(state, Some(s) if s != "Z" && s != "X")
}

#[test]
fn ctrl_c_quits_the_browser_and_stops_the_driver() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    // The 80-cell page never becomes ready, so the bot is still waiting when Ctrl-C comes.
    let path =
        config_with(dir.path(), &[("element_timeout_ms = 10000", "element_timeout_ms = 60000")]);
    let url = server.url("sudoku_name_80.html");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_sudobot"))
        .args(["web", "--site", "sudoku.name", "--headless", "--url", &url])
        .args(["--config", path.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let loaded = server.wait_for_request("sudoku_name_80.html", Duration::from_secs(60));
    let spawned = descendants(pid);
    let _ = std::process::Command::new("kill").args(["-INT", &pid.to_string()]).status();
    let out =
        rx.recv_timeout(Duration::from_secs(30)).expect("sudobot exits after Ctrl-C").unwrap();
    waiter.join().unwrap();
    assert!(loaded, "the browser loaded the page: {:?}", text(&out));
    assert!(!spawned.is_empty(), "chromedriver and chromium ran under sudobot");
    assert_code(&out, 130);
    assert!(text(&out).1.contains("interrupted"), "{}", text(&out).1);
    let left: Vec<u32> = spawned.into_iter().filter(|&p| running(p)).collect();
    assert!(left.is_empty(), "processes left running after Ctrl-C: {left:?}");
}

/// The speed benchmark of the issue: the sudoku.name replica (51 blanks), 10 puzzles in one
/// session, per-phase medians from `--stats`. Timing is reported, never asserted. Run with
/// `cargo test --release --test integration web::bench -- --ignored --nocapture`.
#[test]
#[ignore = "benchmark: prints timings"]
fn bench_sudoku_name_replica() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    for strategy in ["keys", "actions"] {
        let out = play(
            &server,
            "sudoku.name",
            "sudoku_name.html",
            &["--count", "10", "--stats", "--strategy", strategy],
        );
        assert_code(&out, 0);
        assert_eq!(server.verdicts("sudoku_name").len(), 10);
        server.clear_verdicts();
        let (stdout, stderr) = text(&out);
        eprintln!("--strategy {strategy}: {stdout}{stderr}");
    }
}

/// `sudobot web --site sudoku.name` against a seed-style Python Selenium bot
/// (`benches/seed-style.py`: one WebDriver call per cell read, one Send Keys per cell typed) on
/// the same replica, in one run: whole processes, wall time, 5 runs each, alternating. Needs a
/// Python with Selenium 4 (`SEED_PYTHON`, default `python3`): `cargo test --release --test
/// integration web::versus_a_seed_style_selenium_bot -- --ignored --nocapture`.
#[test]
#[ignore = "a timing report, run by hand"]
fn versus_a_seed_style_selenium_bot() {
    let _lock = browser_lock();
    let python = std::env::var("SEED_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_selenium = std::process::Command::new(&python)
        .args(["-c", "import selenium"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_selenium {
        eprintln!(
            "skipping: {python} has no Selenium (pip install selenium; SEED_PYTHON names it)"
        );
        return;
    }
    let server = FixtureServer::start();
    let url = server.url("sudoku_name.html");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/seed-style.py");
    let (mut ours, mut seed) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let started = Instant::now();
        let out = play(&server, "sudoku.name", "sudoku_name.html", &[]);
        ours.push(started.elapsed().as_secs_f64());
        assert_code(&out, 0);
        let started = Instant::now();
        let out = std::process::Command::new(&python).args([script, &url]).output().unwrap();
        seed.push(started.elapsed().as_secs_f64());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(server.verdicts("sudoku_name").len(), 10, "every run solved the page");
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (a, b) = (median(&mut ours), median(&mut seed));
    eprintln!(
        "sudoku.name replica, whole process, median of 5: sudobot {a:.2} s, seed-style \
         Selenium bot {b:.2} s: {:.1}x",
        b / a
    );
}

/// Selenium Grid 4 (standalone) as the remote end. Needs `java` and the Grid jar, which
/// `.ci/run` takes from the npm package `@nightwatch/selenium-server` into
/// `target/grid/selenium-server.jar` (or set `SUDOBOT_GRID_JAR`); without them the test says so
/// and skips.
#[test]
fn selenium_grid_remote_mode() {
    let jar = match grid::grid_jar() {
        Ok(jar) => jar,
        Err(why) => {
            eprintln!("SKIPPED selenium_grid_remote_mode: {why}");
            return;
        }
    };
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let port = port.to_string();
    let mut cmd =
        grid::java(&jar, &[], &["standalone", "--port", &port, "--selenium-manager", "false"]);
    cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null());
    let mut grid = RemoteEnd::spawn(cmd);
    let started = grid.grid_started();
    let remote = format!("http://127.0.0.1:{port}");
    let out =
        started.then(|| play(&server, "sudoku.name", "sudoku_name.html", &["--remote", &remote]));
    // SIGTERM lets the Grid stop its drivers; then make sure they are all gone.
    drop(grid);
    let out = out.expect("the Grid started within 90 s");
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);
}

#[test]
fn the_demo_page_refuses_values_set_by_script() {
    let _lock = browser_lock();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let demo = runtime.block_on(sudobot::web::demo::DemoServer::start()).unwrap();
    let url = format!("{}/play?difficulty=1", demo.origin());
    let out = sudobot(&["web", "--site", "demo", "--url", &url, "--strategy", "script"]);
    assert_code(&out, 1);
    let (_, stderr) = text(&out);
    assert!(stderr.contains("filled by script, not by keys"), "{stderr}");
    assert_eq!(demo.verdicts(), ["untrusted"]);
}

#[test]
fn a_refused_webdriver_port_is_a_clear_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let remote = format!("http://127.0.0.1:{port}");
    let out = sudobot(&["web", "--site", "demo", "--remote", &remote]);
    assert_code(&out, 1);
    let (_, stderr) = text(&out);
    assert!(stderr.contains(&format!("cannot reach the WebDriver server at {remote}")), "{stderr}");
    assert!(stderr.contains("Connection refused"), "{stderr}");
}

#[test]
fn a_board_with_several_solutions_is_refused_and_nothing_is_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name_multiple.html", &[]);
    assert_code(&out, 4);
    assert!(
        text(&out).1.contains("several solutions (20 givens); nothing was typed"),
        "{}",
        text(&out).1
    );
    assert_eq!(
        server.verdicts("sudoku_name_multiple"),
        Vec::<String>::new(),
        "the page saw no key"
    );
}

/// A copy of the built-in webdriver.toml with each `(from, to)` replaced, written to
/// `DIR/webdriver.toml`; each `from` must be there.
pub fn config_with(dir: &std::path::Path, edits: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/webdriver.toml")).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "webdriver.toml has no `{from}`");
        text = text.replace(from, to);
    }
    let path = dir.join("webdriver.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// The fixture puzzle of the sudoku.name pages, as the logic commands read it.
const REPLICA_PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// `(cell id, digit)` of every `rXcY=V` placement in step lines, in order (`c{n}` ids).
fn placements(lines: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for token in lines.split(|ch: char| ch.is_whitespace() || ch == ',') {
        let b = token.as_bytes();
        if let [b'r', r @ b'1'..=b'9', b'c', c @ b'1'..=b'9', b'=', v @ b'1'..=b'9'] = b {
            let n = (r - b'1') as usize * 9 + (c - b'1') as usize + 1;
            out.push((format!("c{n}"), (*v as char).to_string()));
        }
    }
    out
}

#[test]
fn web_hint_gives_the_next_step_and_types_nothing() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // The oracle: the logic command on the same puzzle.
    let expected = sudobot_plain(&["hint", "--reveal", "step", REPLICA_PUZZLE]);
    assert_code(&expected, 0);
    let out =
        play(&server, "sudoku.name", "sudoku_name_cells.html", &["--hint", "--reveal", "step"]);
    assert_code(&out, 0);
    assert_eq!(text(&out).0, text(&expected).0);
    assert_eq!(server.verdicts("sudoku_name_cells"), Vec::<String>::new(), "the page saw no key");
}

#[test]
fn web_hint_names_a_wrong_value_before_any_step() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(
        &server,
        "sudokupuzzle.org",
        "sudokupuzzle_play.html",
        &["--hint", "--reveal", "step"],
    );
    assert_code(&out, 3);
    let (stdout, _) = text(&out);
    assert!(
        stdout.starts_with("Mistake: r1c2 holds 9, which is not its solution value."),
        "{stdout}"
    );
    let cells = play(
        &server,
        "sudokupuzzle.org",
        "sudokupuzzle_play.html",
        &["--hint", "--reveal", "cells"],
    );
    assert_eq!(text(&cells).0, "Mistake: check r1c2.\n");
    assert_eq!(
        server.verdicts("sudokupuzzle"),
        Vec::<String>::new(),
        "nothing was typed or solved"
    );
}

#[test]
fn show_thinking_types_in_the_engines_order_and_tells_each_step() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let explain = sudobot_plain(&["explain", REPLICA_PUZZLE]);
    assert_code(&explain, 0);
    // The step lines (the last line is the grade).
    let path: String = text(&explain)
        .0
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let out = play(&server, "sudoku.name", "sudoku_name_cells.html", &["--show-thinking"]);
    assert_code(&out, 0);
    let (stdout, _) = text(&out);
    // Every step of the engine's path is told, in order, before the result line.
    assert_eq!(
        stdout.lines().filter(|l| !l.starts_with("solved:")).collect::<Vec<_>>(),
        path.lines().collect::<Vec<_>>()
    );
    // The page received the digits cell by cell in the path's order, and judged the board solved.
    let verdicts = server.verdicts("sudoku_name_cells");
    let typed: Vec<(String, String)> = verdicts
        .iter()
        .filter_map(|v| {
            let mut parts = v.strip_prefix("cell ")?.split(' ');
            Some((parts.next()?.to_string(), parts.next()?.to_string()))
        })
        .collect();
    assert_eq!(typed.len(), 51);
    assert_eq!(typed, placements(&path));
    assert_eq!(verdicts.last().map(String::as_str), Some("solved"));
}

#[test]
fn dry_run_and_hint_over_several_puzzles_say_that_nothing_was_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let work = tempfile::tempdir().unwrap();
    let cases = [
        ("--dry-run", "dry-run", "2 of 2 puzzles solved (dry run: nothing typed)"),
        ("--hint", "hint", "2 of 2 puzzles read and given a hint (nothing typed)"),
    ];
    for (flag, outcome, summary) in cases {
        let report = work.path().join(format!("{outcome}.jsonl"));
        let report_arg = report.to_str().unwrap();
        let out = play(
            &server,
            "sudoku.name",
            "sudoku_name.html",
            &[flag, "--count", "2", "--report", report_arg],
        );
        assert_code(&out, 0);
        let stdout = text(&out).0;
        assert!(stdout.contains(summary), "{flag}: {stdout}");
        assert!(!stdout.contains("confirmed"), "{flag}: {stdout}");
        // Each puzzle's own answer or hint is shown.
        assert!(stdout.contains("puzzle 1:") && stdout.contains("puzzle 2:"), "{flag}: {stdout}");
        let lines: Vec<serde_json::Value> = std::fs::read_to_string(&report)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{flag}");
        for line in &lines {
            assert_eq!(line["outcome"], outcome, "{line}");
            assert_eq!(line["typed"], 0, "{line}");
            assert!(line["confirmation"].is_null(), "{line}");
        }
    }
    assert!(server.verdicts("sudoku_name").is_empty(), "nothing was typed");
}

#[test]
fn a_report_that_cannot_be_written_fails_the_run() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name.html", &["--report", "/dev/full"]);
    assert_code(&out, 1);
    let (stdout, stderr) = text(&out);
    assert!(stderr.contains("cannot write the report /dev/full"), "{stderr}");
    assert!(stderr.contains("the run will exit 1"), "{stderr}");
    // The puzzle itself was played; only the report is incomplete.
    assert!(stdout.contains("typed 51 cells"), "{stdout}");
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);
}
