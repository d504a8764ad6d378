//! `sudobot web --attach` and `--profile` against real browsers the test starts the way a user
//! would: Chromium with `--remote-debugging-port`, Firefox with `-marionette`, each with a tab
//! of "the user's" open on another page. After every path (solved, the login wall, SIGTERM
//! mid-fill, the driver killed mid-fill) the user's browser still runs, the user's tab is still
//! there with its URL, sudobot's own tab is gone, and nothing of sudobot's run is left (no
//! process, no file in its `TMPDIR`). The replica pages judge "solved" themselves.
//!
//! The LinkedIn Mini Sudoku replica (`linkedin.html`) shows its game only to a browser holding
//! its session cookie (set by `linkedin_login.html`), and a login wall otherwise.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sudobot::web::attach::{self, Attach};

use super::faults::{Private, expect_typing, finish, keys_after, kill, now_ms};
use super::server::FixtureServer;
use super::{assert_code, browser_lock, descendants, running, text};

/// A browser the test starts as a user would, in a process group of its own, with its profile,
/// `HOME` and `TMPDIR` in a temporary directory. Dropping it stops it (SIGTERM, then SIGKILL).
struct UserBrowser {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl UserBrowser {
    /// Chromium with `--remote-debugging-port=0` (it writes the port it chose into
    /// `DevToolsActivePort`), showing `first_url`; its profile is `profile` or a fresh one.
    fn chromium(first_url: &str, profile: Option<&Path>) -> UserBrowser {
        let dir = tempfile::tempdir().unwrap();
        let profile = profile.map(Path::to_path_buf).unwrap_or_else(|| dir.path().join("profile"));
        let mut cmd = Command::new("chromium");
        cmd.args(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-first-run"])
            .args(["--disable-gpu", "--remote-debugging-port=0"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(first_url);
        let child = spawn(cmd, dir.path());
        let port = wait_port(&profile.join("DevToolsActivePort"));
        UserBrowser { child, port, _dir: dir }
    }

    /// Firefox with `-marionette` on a port of its choice (`marionette.port` = 0; it writes the
    /// port into `MarionetteActivePort`), showing `first_url`.
    fn firefox(first_url: &str) -> UserBrowser {
        let dir = tempfile::tempdir().unwrap();
        let profile = dir.path().join("profile");
        std::fs::create_dir_all(&profile).unwrap();
        std::fs::write(
            profile.join("user.js"),
            "user_pref(\"marionette.port\", 0);\n\
             user_pref(\"browser.shell.checkDefaultBrowser\", false);\n\
             user_pref(\"datareporting.policy.dataSubmissionEnabled\", false);\n\
             user_pref(\"browser.startup.homepage_override.mstone\", \"ignore\");\n",
        )
        .unwrap();
        let mut cmd = Command::new("/usr/bin/firefox-esr");
        cmd.args(["-headless", "-marionette", "-no-remote", "-profile"])
            .arg(&profile)
            .arg(first_url)
            .env("MOZ_CRASHREPORTER_DISABLE", "1");
        let child = spawn(cmd, dir.path());
        let port = wait_port(&profile.join("MarionetteActivePort"));
        UserBrowser { child, port, _dir: dir }
    }

    fn port(&self) -> String {
        self.port.to_string()
    }

    fn alive(&self) -> bool {
        running(self.child.id())
    }

    fn at(&self) -> Attach {
        Attach { host: "127.0.0.1".into(), port: self.port }
    }

    /// The URLs of Chromium's tabs, from its DevTools endpoint.
    fn chromium_tabs(&self) -> Vec<String> {
        let tabs = attach::tabs(&self.at(), Duration::from_secs(5)).expect("/json/list answers");
        tabs.into_iter().map(|t| t.url).collect()
    }

    /// Opens a tab of the user's on `url` in Chromium (as the user would).
    fn open_chromium_tab(&self, url: &str) {
        let (status, body) =
            attach::http(&self.at(), "PUT", &format!("/json/new?{url}"), Duration::from_secs(5))
                .unwrap();
        assert_eq!(status, 200, "{body}");
    }

    /// The URLs of Firefox's tabs: a geckodriver of the test's attaches, reads each tab's URL
    /// and goes (its session is never deleted, so nothing is closed).
    fn firefox_tabs(&self) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let driver_port =
            std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut cmd = Command::new(sudobot::web::Browser::Firefox.default_driver());
        cmd.args(["--host", "127.0.0.1", "--port", &driver_port.to_string()]).args([
            "--connect-existing",
            "--marionette-port",
            &self.port(),
        ]);
        let mut gecko = spawn(cmd, dir.path());
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let urls = runtime.block_on(async {
            use thirtyfour::prelude::*;
            let url = format!("http://127.0.0.1:{driver_port}");
            let start = Instant::now();
            let driver = loop {
                match WebDriver::new(&url, DesiredCapabilities::firefox()).await {
                    Ok(d) => break d,
                    Err(e) if start.elapsed() > Duration::from_secs(20) => panic!("{e}"),
                    Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                }
            };
            let mut urls = Vec::new();
            for handle in driver.windows().await.unwrap() {
                driver.switch_to_window(handle).await.unwrap();
                urls.push(driver.current_url().await.unwrap().to_string());
            }
            let _ = driver.leak();
            urls
        });
        kill("-KILL", &format!("-{}", gecko.id()));
        let _ = gecko.wait();
        urls
    }
}

impl Drop for UserBrowser {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        kill("-TERM", &group);
        crate::support::wait_exit(&mut self.child, Instant::now() + Duration::from_secs(10));
        kill("-KILL", &group);
        let _ = self.child.wait();
    }
}

/// Spawns `cmd` in a process group of its own with `HOME` and `TMPDIR` in `dir`.
fn spawn(mut cmd: Command, dir: &Path) -> Child {
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    cmd.env("HOME", dir).env("TMPDIR", &tmp).env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd.spawn().expect("the user's browser starts")
}

/// The port a browser wrote into `file` (bounded wait).
fn wait_port(file: &Path) -> u16 {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if let Some(port) = text.lines().next().and_then(|l| l.trim().parse().ok()) {
            return port;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{} was not written within 60 s", file.display());
}

/// The driver (`name`) under sudobot's `pid`.
fn driver_of(pid: u32, name: &str) -> Option<u32> {
    descendants(pid).into_iter().find(|&p| {
        std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == name)
    })
}

/// Chromium: the LinkedIn replica is refused with the login message while the user is not
/// logged in (nothing typed), solved in sudobot's own tab once the user logged in in their
/// browser, and a page without a site file is found and solved (discovery) attached too; the
/// user's tabs stay, sudobot's go, the browser runs on, nothing of the runs is left.
#[test]
fn attached_chromium_plays_in_its_own_tab_and_leaves_the_users_alone() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let other = server.url("verdict.js");
    let user = UserBrowser::chromium(&other, None);
    let private = Private::new();
    let port = user.port();
    let game = server.url("linkedin.html");

    let out = private.run(&[
        "web",
        "--attach",
        &port,
        "--site",
        "linkedin",
        "--url",
        &game,
        "--no-debug-files",
    ]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(
        stderr.contains("this site needs you to be logged in: use --attach or --profile"),
        "{stderr}"
    );
    assert_eq!(server.verdicts("linkedin"), ["login wall"], "nothing typed");

    // The user logs in, in a tab of their own.
    let login = server.url("linkedin_login.html?next=verdict.js");
    user.open_chromium_tab(&login);
    let start = Instant::now();
    while user.chromium_tabs().iter().filter(|u| **u == other).count() < 2 {
        assert!(start.elapsed() < Duration::from_secs(30), "the user's login never finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    let before = user.chromium_tabs();
    let out = private.run(&["web", "--attach", &port, "--site", "linkedin", "--url", &game]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("linkedin"), ["login wall", "solved"]);

    let page = server.url("sudoku_name.html");
    let out = private.run(&["web", "--attach", &format!("127.0.0.1:{port}"), "--url", &page]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);

    assert!(user.alive(), "the user's browser still runs");
    let after = user.chromium_tabs();
    assert_eq!(after, before, "the user's tabs are as they were, sudobot's are gone");
    assert!(after.contains(&other), "{after:?}");
    assert!(!after.iter().any(|u| u.contains("linkedin.html") || u.contains("sudoku_name")));
    private.assert_clean(Duration::from_secs(3));
}

/// Chromium, a fault mid-fill (`how`: SIGTERM to sudobot, or chromedriver killed): typing
/// stops, sudobot's tab is closed through DevTools, the user's browser and tab stay.
fn attached_chromium_fault_mid_fill(how: &str) -> (std::process::Output, usize) {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let other = server.url("verdict.js");
    let user = UserBrowser::chromium(&other, None);
    let private = Private::new();
    let page = server.url("sudoku_name_slow.html");
    let args = ["web", "--attach", &user.port(), "--site", "sudoku.name", "--url", &page];
    let child = private.command(&args).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let sent = now_ms();
    match how {
        "sigterm" => kill("-TERM", &pid.to_string()),
        _ => {
            let driver = driver_of(pid, "chromedriver").expect("chromedriver runs under sudobot");
            kill("-KILL", &driver.to_string());
        }
    }
    let (out, took) = finish(child, Duration::from_secs(10));
    eprintln!("attached, {how} mid-fill: exit {:?} after {took:?}", out.status.code());
    private.assert_clean(Duration::from_secs(3));
    let late = keys_after(&server, "sudoku_name_slow", sent, 250);
    assert!(server.verdicts("sudoku_name_slow").iter().all(|v| v != "solved"));
    assert!(user.alive(), "the user's browser still runs");
    let tabs = user.chromium_tabs();
    assert_eq!(tabs, [other], "the user's tab stays, sudobot's is gone");
    (out, late)
}

#[test]
fn attached_chromium_sigterm_mid_fill_closes_only_its_own_tab() {
    let (out, late) = attached_chromium_fault_mid_fill("sigterm");
    assert_code(&out, 143);
    assert_eq!(late, 0, "keys reached the page after SIGTERM");
}

#[test]
fn attached_chromium_killed_chromedriver_closes_only_its_own_tab() {
    let (out, late) = attached_chromium_fault_mid_fill("kill-driver");
    assert_code(&out, 1);
    assert_eq!(late, 0, "keys reached the page after chromedriver died");
    let stderr = text(&out).1;
    assert!(stderr.contains("chromedriver (pid") && stderr.contains("exited"), "{stderr}");
}

/// Nothing listening: exit 2 and the command line that starts a browser to attach to; nothing
/// is started.
#[test]
fn attach_with_no_browser_says_how_to_start_one() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let private = Private::new();
    let out = private.run(&["web", "--attach", &port.to_string(), "--site", "demo"]);
    assert_code(&out, 2);
    let stderr = text(&out).1;
    assert!(stderr.contains(&format!("no browser to attach to at 127.0.0.1:{port}")), "{stderr}");
    assert!(stderr.contains(&format!("chromium --remote-debugging-port={port}")), "{stderr}");
    assert!(stderr.contains("firefox -marionette"), "{stderr}");
    private.assert_clean(Duration::from_secs(1));
}

/// `--profile`: a first run logs in on the replica (its login page sets the session cookie) and
/// plays; a second run with the same profile plays without the login wall (the browser was
/// asked to quit, so it wrote its cookies); a run without the profile meets the wall. The
/// profile held by a running browser is refused (exit 2) and that browser runs on.
#[test]
fn a_profile_keeps_the_login_and_one_in_use_is_refused() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let profiles = tempfile::tempdir().unwrap();
    let profile = profiles.path().join("mine");
    let dir = profile.to_str().unwrap();
    let private = Private::new();
    let login = server.url("linkedin_login.html?next=linkedin.html");
    let game = server.url("linkedin.html");

    let out = private.run(&["web", "--profile", dir, "--site", "linkedin", "--url", &login]);
    assert_code(&out, 0);
    let out = private.run(&["web", "--profile", dir, "--site", "linkedin", "--url", &game]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("linkedin"), ["solved", "solved"], "no login wall the second time");
    let out = private.run(&["web", "--site", "linkedin", "--url", &game, "--no-debug-files"]);
    assert_code(&out, 1);
    assert!(text(&out).1.contains("this site needs you to be logged in"), "{}", text(&out).1);
    private.assert_clean(Duration::from_secs(3));

    let user = UserBrowser::chromium(&server.url("verdict.js"), Some(&profile));
    let out = private.run(&["web", "--profile", dir, "--site", "linkedin", "--url", &game]);
    assert_code(&out, 2);
    let stderr = text(&out).1;
    assert!(stderr.contains("is in use by a running browser (SingletonLock"), "{stderr}");
    assert!(user.alive(), "the browser holding the profile runs on");
    assert_eq!(server.verdicts("linkedin"), ["solved", "solved", "login wall"]);
    private.assert_clean(Duration::from_secs(3));
}

/// Firefox through geckodriver's `--connect-existing`: the LinkedIn replica is solved in a tab
/// of sudobot's own after the user logged in; then geckodriver is killed mid-fill on a slow
/// page: typing stops, a fresh geckodriver closes sudobot's tab, the user's tabs and browser
/// stay.
#[test]
fn attached_firefox_plays_and_a_killed_geckodriver_closes_only_its_own_tab() {
    if !super::firefox::firefox_here("attached_firefox") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let login = server.url("linkedin_login.html?next=verdict.js");
    let user = UserBrowser::firefox(&login);
    let private = Private::new();
    let port = user.port();
    let game = server.url("linkedin.html");
    // The user's tab has reached the page the login goes on to.
    let start = Instant::now();
    while !user.firefox_tabs().iter().any(|u| u.ends_with("verdict.js")) {
        assert!(start.elapsed() < Duration::from_secs(30), "the user's login never finished");
    }
    let before = user.firefox_tabs();

    let out = private.run(&["web", "--attach", &port, "--site", "linkedin", "--url", &game]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("linkedin"), ["solved"]);
    assert_eq!(user.firefox_tabs(), before, "sudobot's tab is gone, the user's stay");

    let page = server.url("sudoku_name_slow.html");
    let args = ["web", "--attach", &port, "--site", "sudoku.name", "--url", &page];
    let child = private.command(&args).spawn().unwrap();
    let pid = child.id();
    let child = expect_typing(&server, "sudoku_name_slow", child);
    let driver = driver_of(pid, "geckodriver").expect("geckodriver runs under sudobot");
    let sent = now_ms();
    kill("-KILL", &driver.to_string());
    let (out, _) = finish(child, Duration::from_secs(15));
    assert_code(&out, 1);
    assert!(text(&out).1.contains("geckodriver (pid"), "{}", text(&out).1);
    assert_eq!(keys_after(&server, "sudoku_name_slow", sent, 250), 0, "keys after the fault");
    private.assert_clean(Duration::from_secs(3));
    assert!(user.alive(), "the user's Firefox still runs");
    assert_eq!(user.firefox_tabs(), before, "sudobot's tab is gone, the user's stay");
}
