//! `--parallel K` end to end: local drivers, and a real Selenium Grid 4 (standalone with two
//! slots, or a hub with two one-slot nodes, one of which is killed mid-run). "No session left" is
//! the Grid's own word: its `/status`, read here with a plain HTTP request and parsed here.
//!
//! The Grid needs `java` and the Grid jar, which `.ci/run` takes from the npm package
//! `@nightwatch/selenium-server` into `target/grid/selenium-server.jar` (or set
//! `SUDOBOT_GRID_JAR`); without them the Grid tests say so and skip.

use std::io::{Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::faults::{Private, expect_typing, finish, keys_after, kill, now_ms};

/// SIGKILL or SIGTERM to a process group that may be gone already (quietly).
fn signal_group(signal: &str, pgid: u32) {
    kill(signal, &format!("-{pgid}"));
}
use super::server::FixtureServer;
use super::{assert_code, browser_lock, text};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The Grid jar, or why the Grid tests skip.
pub(super) fn grid_jar() -> Result<String, String> {
    let jar = std::env::var("SUDOBOT_GRID_JAR").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/target/grid/selenium-server.jar").to_string()
    });
    let java_ok = Command::new("java")
        .args(["-XX:-UsePerfData", "-version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if java_ok && std::path::Path::new(&jar).exists() {
        Ok(jar)
    } else {
        Err(format!("needs java and {jar} (see .ci/run)"))
    }
}

/// `java` (with the JVM options `jvm`) ready to run the Grid jar with `args`: the drivers are named by path
/// (`webdriver.chrome.driver`, `webdriver.gecko.driver`, the ones sudobot itself would use), so
/// no node asks Selenium Manager for them. On a fresh machine two nodes starting at once each ran
/// Selenium Manager's first (offline) run into the same empty `~/.cache/selenium`, and one of
/// them then found no driver for Chrome. No JVM performance file either
/// (`/tmp/hsperfdata_USER/PID`, left when a node is killed). The spawners give every Grid a
/// private `HOME` (and `TMPDIR`), so each test starts with an empty Selenium cache, as a new
/// user's machine does.
pub(super) fn java(jar: &str, jvm: &[&str], args: &[&str]) -> Command {
    let mut cmd = Command::new("java");
    cmd.args(jvm)
        .args([
            "-XX:-UsePerfData".to_string(),
            format!(
                "-Dwebdriver.chrome.driver={}",
                sudobot::web::Browser::Chromium.default_driver()
            ),
            format!("-Dwebdriver.gecko.driver={}", sudobot::web::Browser::Firefox.default_driver()),
            "-jar".to_string(),
            jar.to_string(),
        ])
        .args(args);
    cmd
}

/// A Grid made of Java processes, each in a process group of its own (with the drivers and
/// browsers it starts); dropping it stops every group.
struct Grid {
    url: String,
    /// (role, process) in start order: the hub or standalone first, then the nodes.
    procs: Vec<(String, Child)>,
    logs: tempfile::TempDir,
}

impl Grid {
    fn spawn(&mut self, jar: &str, role: &str, args: &[String]) {
        let log = std::fs::File::create(self.logs.path().join(format!("{role}.log"))).unwrap();
        // The browsers' temporary files (Chromium's singleton socket directory, chromedriver's
        // profile when the session names none) go here, removed with the Grid, instead of
        // staying in the machine's /tmp when a node stops its browsers the hard way; and the
        // Grid's `HOME` (Selenium's cache) is fresh, as on a new machine.
        let tmp = self.logs.path().join("tmp");
        let home = self.logs.path().join("home");
        std::fs::create_dir_all(&tmp).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // Java takes its temporary directory from `java.io.tmpdir`, not `TMPDIR`: Selenium
        // unpacks its manager there, and a node stopped by SIGKILL leaves it behind.
        let tmpdir = format!("-Djava.io.tmpdir={}", tmp.display());
        let mut cmd = java(jar, &["-Xmx256m", &tmpdir], &args);
        cmd.env("TMPDIR", &tmp)
            .env("HOME", &home)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        self.procs.push((role.to_string(), cmd.spawn().expect("java runs")));
    }

    /// A standalone Grid: one node with `slots` slots.
    fn standalone(jar: &str, slots: usize) -> Grid {
        let port = free_port();
        let mut grid = Grid {
            url: format!("http://127.0.0.1:{port}"),
            procs: Vec::new(),
            logs: tempfile::tempdir().unwrap(),
        };
        // Chromium only: where geckodriver is on PATH too, the Grid would add Firefox slots.
        let args = format!(
            "standalone --port {port} --max-sessions {slots} --selenium-manager false \
             --driver-implementation chrome"
        );
        grid.spawn(jar, "standalone", &args.split(' ').map(String::from).collect::<Vec<_>>());
        grid.wait_ready(1);
        grid
    }

    /// A hub and `nodes` nodes of one slot each. The hub checks its nodes every 2 s, so a node
    /// that dies is marked down quickly.
    fn hub_and_nodes(jar: &str, nodes: usize) -> Grid {
        let (port, publish, subscribe) = (free_port(), free_port(), free_port());
        let mut grid = Grid {
            url: format!("http://127.0.0.1:{port}"),
            procs: Vec::new(),
            logs: tempfile::tempdir().unwrap(),
        };
        let hub = format!(
            "hub --port {port} --publish-events tcp://127.0.0.1:{publish} \
             --subscribe-events tcp://127.0.0.1:{subscribe} --healthcheck-interval 2"
        );
        grid.spawn(jar, "hub", &hub.split(' ').map(String::from).collect::<Vec<_>>());
        for n in 1..=nodes {
            let node = format!(
                "node --port {} --publish-events tcp://127.0.0.1:{publish} \
                 --subscribe-events tcp://127.0.0.1:{subscribe} --max-sessions 1 \
                 --selenium-manager false --driver-implementation chrome",
                free_port()
            );
            grid.spawn(
                jar,
                &format!("node{n}"),
                &node.split(' ').map(String::from).collect::<Vec<_>>(),
            );
        }
        grid.wait_ready(nodes);
        grid
    }

    /// Waits (bounded) until the Grid is ready with `nodes` nodes up.
    fn wait_ready(&self, nodes: usize) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(150) {
            if let Some(status) = self.status()
                && status["value"]["ready"] == true
                && self.nodes(&status).iter().filter(|n| n.0).count() == nodes
            {
                return;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        panic!("the Grid did not get ready with {nodes} node(s): {}", self.log_tail());
    }

    fn log_tail(&self) -> String {
        let mut all = String::new();
        for (role, _) in &self.procs {
            let log = std::fs::read_to_string(self.logs.path().join(format!("{role}.log")))
                .unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(15).collect();
            all.push_str(&format!("\n--- {role}:\n"));
            for l in tail.into_iter().rev() {
                all.push_str(l);
                all.push('\n');
            }
        }
        all
    }

    /// `GET /status`, parsed.
    fn status(&self) -> Option<serde_json::Value> {
        let authority = self.url.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(authority).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        write!(stream, "GET /status HTTP/1.0\r\nHost: {authority}\r\n\r\n").ok()?;
        let mut reply = String::new();
        stream.read_to_string(&mut reply).ok()?;
        let body = reply.split_once("\r\n\r\n")?.1;
        serde_json::from_str(body).ok()
    }

    /// (up, session ids) per node.
    fn nodes(&self, status: &serde_json::Value) -> Vec<(bool, Vec<String>)> {
        let empty = Vec::new();
        let nodes = status["value"]["nodes"].as_array().unwrap_or(&empty);
        nodes
            .iter()
            .map(|n| {
                let sessions = n["slots"]
                    .as_array()
                    .unwrap_or(&empty)
                    .iter()
                    .filter_map(|s| s["session"]["sessionId"].as_str().map(String::from))
                    .collect();
                (n["availability"] == "UP", sessions)
            })
            .collect()
    }

    /// Sessions on nodes that are up (a node that was killed took its sessions with it; the
    /// hub lists them until it marks the node down).
    fn live_sessions(&self) -> Vec<String> {
        let status = self.status().expect("the Grid answers /status");
        self.nodes(&status).into_iter().filter(|n| n.0).flat_map(|n| n.1).collect()
    }

    /// Waits (bounded) until no node that is up holds a session; returns what is left.
    fn sessions_left_after(&self, bound: Duration) -> Vec<String> {
        let start = Instant::now();
        loop {
            let left = self.live_sessions();
            if left.is_empty() || start.elapsed() > bound {
                return left;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The session count of each node, in the hub's order.
    fn busy(&self) -> Vec<usize> {
        let status = self.status().expect("the Grid answers /status");
        self.nodes(&status).into_iter().map(|n| n.1.len()).collect()
    }

    /// SIGKILL to a process's whole group: the node, its drivers and browsers, as if its
    /// machine went away.
    fn kill_hard(&mut self, role: &str) {
        let (_, child) = self.procs.iter_mut().find(|(r, _)| r == role).expect("that role runs");
        signal_group("-KILL", child.id());
        let _ = child.wait();
    }
}

impl Drop for Grid {
    fn drop(&mut self) {
        // Nodes first (SIGTERM lets them stop their browsers), then the hub; then SIGKILL to
        // every group, for whatever did not stop.
        for (_, child) in self.procs.iter_mut().rev() {
            signal_group("-TERM", child.id());
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        for (_, child) in self.procs.iter_mut().rev() {
            crate::support::wait_exit(child, deadline);
            signal_group("-KILL", child.id());
            let _ = child.wait();
        }
    }
}

/// The report's lines.
fn report_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn sessions_used(lines: &[serde_json::Value]) -> Vec<u64> {
    let mut s: Vec<u64> = lines.iter().filter_map(|l| l["session"].as_u64()).collect();
    s.sort();
    s.dedup();
    s
}

#[test]
fn local_parallel_two_solves_every_puzzle_and_leaves_nothing() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let work = tempfile::tempdir().unwrap();
    let report = work.path().join("report.jsonl");
    let url = server.url("sudoku_name.html");
    let out = private.run(&[
        "web",
        "--site",
        "sudoku.name",
        "--url",
        &url,
        "--count",
        "4",
        "--parallel",
        "2",
        "--report",
        report.to_str().unwrap(),
        "-v",
    ]);
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"; 4]);
    assert!(stderr.contains("4 puzzle(s) over 2 local session(s)"), "{stderr}");
    assert!(stdout.contains("4 of 4 puzzles solved and confirmed over 2 session(s)"), "{stdout}");
    assert!(stdout.contains("puzzles/min"), "{stdout}");
    assert!(stdout.contains("fill time: median"), "{stdout}");
    assert!(stdout.contains("failures: none"), "{stdout}");
    // -v: a status line per session.
    for s in [1, 2] {
        assert!(stderr.contains(&format!("sudobot: session {s}: browser started")), "{stderr}");
    }
    // -v logs go to a pipe here: plain text, no colour escape codes.
    assert!(stderr.contains("DEBUG") && !stderr.contains('\u{1b}'), "{stderr}");
    let lines = report_lines(&report);
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|l| l["outcome"] == "solved" && l["attempts"] == 1), "{lines:?}");
    let mut puzzles: Vec<u64> = lines.iter().map(|l| l["puzzle"].as_u64().unwrap()).collect();
    puzzles.sort();
    assert_eq!(puzzles, [1, 2, 3, 4]);
    assert_eq!(sessions_used(&lines), [1, 2], "both sessions played");
    private.assert_clean(Duration::from_secs(3));
}

/// SIGTERM while two local sessions type: both browsers and drivers stop at once, no key after
/// the signal, nothing left.
#[test]
fn local_parallel_sigterm_stops_every_session() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let private = Private::new();
    let url = server.url("sudoku_name_slow.html");
    let child = private
        .command(&[
            "web",
            "--site",
            "sudoku.name",
            "--url",
            &url,
            "--count",
            "4",
            "--parallel",
            "2",
        ])
        .spawn()
        .unwrap();
    let pid = child.id();
    // Both sessions type: wait for keys, then for the second browser's keys too (the page logs
    // keys from both; 60 keys cannot come from one session within its first puzzle's start).
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let chromedrivers = || {
        super::descendants(pid)
            .into_iter()
            .filter(|&p| {
                std::fs::read_to_string(format!("/proc/{p}/comm"))
                    .is_ok_and(|c| c.trim() == "chromedriver")
            })
            .count()
    };
    assert_eq!(chromedrivers(), 2, "two local drivers run");
    let sent = now_ms();
    kill("-TERM", &pid.to_string());
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!("SIGTERM with 2 sessions: exit {:?} after {took:?}", out.status.code());
    assert_code(&out, 143);
    assert!(text(&out).1.contains("interrupted by SIGTERM"), "{}", text(&out).1);
    private.assert_clean(Duration::from_secs(3));
    assert_eq!(keys_after(&server, "sudoku_name_slow", sent, 250), 0, "keys after SIGTERM");
}

/// Runs sudobot against the Grid with a private TMPDIR.
fn run_remote(private: &Private, grid: &Grid, url: &str, extra: &[&str]) -> Output {
    let mut args = vec!["web", "--site", "sudoku.name", "--url", url, "--remote", &grid.url];
    args.extend_from_slice(extra);
    private.run(&args)
}

#[test]
fn grid_with_two_slots_runs_two_sessions_and_leaves_none() {
    let jar = match grid_jar() {
        Ok(j) => j,
        Err(why) => {
            eprintln!("SKIPPED grid_with_two_slots_runs_two_sessions_and_leaves_none: {why}");
            return;
        }
    };
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let grid = Grid::standalone(&jar, 2);
    let private = Private::new();
    let work = tempfile::tempdir().unwrap();
    let report = work.path().join("report.jsonl");
    let url = server.url("sudoku_name.html");

    // All solved with --parallel 2; the Grid's slots are reported.
    let out = run_remote(
        &private,
        &grid,
        &url,
        &["--count", "4", "--parallel", "2", "--report", report.to_str().unwrap()],
    );
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    assert!(
        stderr.contains(&format!("Selenium Grid at {}: 1 node(s) up, 2 slot(s), 2 free", grid.url)),
        "{stderr}"
    );
    assert!(stdout.contains("4 of 4 puzzles solved and confirmed over 2 session(s)"), "{stdout}");
    assert_eq!(server.verdicts("sudoku_name"), ["solved"; 4]);
    let lines = report_lines(&report);
    assert_eq!(lines.len(), 4);
    assert_eq!(sessions_used(&lines), [1, 2], "both sessions played");
    assert_eq!(grid.live_sessions(), Vec::<String>::new(), "sessions left on the Grid");
    server.clear_verdicts();

    // Not more sessions than free slots unless asked.
    let out = run_remote(&private, &grid, &url, &["--count", "2", "--parallel", "3"]);
    assert_code(&out, 0);
    assert!(text(&out).1.contains("using 2 session(s), not 3"), "{}", text(&out).1);
    assert_eq!(grid.live_sessions(), Vec::<String>::new(), "sessions left on the Grid");

    // Ctrl-C while both sessions type: every session is deleted on the Grid.
    let slow = server.url("sudoku_name_slow.html");
    let child = private
        .command(&["web", "--site", "sudoku.name", "--url", &slow, "--remote", &grid.url])
        .args(["--count", "4", "--parallel", "2"])
        .spawn()
        .unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    assert_eq!(grid.busy(), [2], "both slots hold a session of the run");
    let sent = now_ms();
    kill("-INT", &pid.to_string());
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!("SIGINT with 2 Grid sessions: exit {:?} after {took:?}", out.status.code());
    assert_code(&out, 130);
    // The run's DELETEs reached the Grid; one may still be finishing (chromedriver ends the
    // command in flight first). The Grid completes a DELETE whose client has gone.
    let left = grid.sessions_left_after(Duration::from_secs(10));
    assert_eq!(left, Vec::<String>::new(), "sessions left on the Grid");
    // A remote browser cannot be killed; typing goes in chunks of 9 cells, so at most the
    // chunk in flight lands (9 cells with Tabs: under 2 s on this slow page).
    let late = keys_after(&server, "sudoku_name_slow", sent, 2500);
    assert_eq!(late, 0, "keys long after Ctrl-C");
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn a_grid_node_killed_mid_run_has_its_puzzle_retried_on_another() {
    let jar = match grid_jar() {
        Ok(j) => j,
        Err(why) => {
            eprintln!(
                "SKIPPED a_grid_node_killed_mid_run_has_its_puzzle_retried_on_another: {why}"
            );
            return;
        }
    };
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let mut grid = Grid::hub_and_nodes(&jar, 2);
    let private = Private::new();
    let work = tempfile::tempdir().unwrap();
    let report = work.path().join("report.jsonl");
    let slow = server.url("sudoku_name_slow.html");
    let child = private
        .command(&["web", "--site", "sudoku.name", "--url", &slow, "--remote", &grid.url])
        .args(["--count", "3", "--parallel", "2", "--report", report.to_str().unwrap()])
        .spawn()
        .unwrap();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    // Both one-slot nodes hold a session of the run; node 2 goes away with its browser.
    let start = Instant::now();
    while grid.busy().iter().sum::<usize>() < 2 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(grid.busy(), [1, 1], "one session on each node");
    grid.kill_hard("node2");
    let (out, took) = finish(child, Duration::from_secs(120));
    let (stdout, stderr) = text(&out);
    eprintln!("node killed: exit {:?} after {took:?}\n{stdout}{stderr}", out.status.code());
    assert_code(&out, 0);
    assert!(stdout.contains("3 of 3 puzzles solved and confirmed"), "{stdout}");
    assert!(stdout.contains("retried on a fresh session: 1"), "{stdout}");
    assert!(stderr.contains("retrying it once on a fresh session"), "{stderr}");
    let solved = server.verdicts("sudoku_name_slow").iter().filter(|v| *v == "solved").count();
    assert_eq!(solved, 3, "the pages confirmed 3 solutions");
    let lines = report_lines(&report);
    assert_eq!(lines.len(), 3, "one line per puzzle");
    let retried: Vec<&serde_json::Value> = lines.iter().filter(|l| l["attempts"] == 2).collect();
    assert_eq!(retried.len(), 1, "{lines:?}");
    let retry = retried[0];
    assert_eq!(retry["outcome"], "solved");
    assert_ne!(retry["first_attempt"]["session"], retry["session"], "retried elsewhere: {retry}");
    // The hub marks the dead node down; the live node holds no session of the run.
    let left = grid.sessions_left_after(Duration::from_secs(30));
    assert_eq!(left, Vec::<String>::new(), "sessions left on the Grid");
    private.assert_clean(Duration::from_secs(3));
}
