//! `sudobot web --attach` and `--profile` against real browsers the test starts the way a user
//! would: Chromium with `--remote-debugging-port`, Firefox with `-marionette`, each with a tab
//! of "the user's" open on another page. After every path (solved, the login wall, SIGTERM
//! mid-fill, the driver killed mid-fill) the user's browser still runs, the user's tab is still
//! there with its URL, sudobot's own tab is gone, and nothing of sudobot's run is left (no
//! process, no file in its `TMPDIR`). The replica pages judge "solved" themselves.
//!
//! The LinkedIn Mini Sudoku replica (`linkedin.html`) shows its game only to a browser holding
//! its session cookie (set by `linkedin_login.html`), and a login wall otherwise.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use sudobot::web::attach::{self, Attach};

use super::faults::{Private, finish, key_times, keys_after, kill, now_ms, wait_keys};
use super::server::{FixtureServer, PUZZLE};
use super::{assert_code, browser_lock, descendants, running, text};

/// A browser the test starts as a user would, in a process group of its own, with its profile,
/// `HOME` and `TMPDIR` in a temporary directory. Dropping it stops it (SIGTERM, then SIGKILL).
struct UserBrowser {
    child: Child,
    port: u16,
    firefox: bool,
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
        UserBrowser { child, port, firefox: false, _dir: dir }
    }

    /// Firefox with `-marionette` on a port of its choice (`marionette.port` = 0; it writes the
    /// port into `MarionetteActivePort`), showing `first_url`. `-remote-allow-system-access`
    /// lets the test read the browser's preferences ([`Marionette::prefs`]).
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
        cmd.args(["-headless", "-marionette", "-remote-allow-system-access", "-no-remote"])
            .arg("-profile")
            .arg(&profile)
            .arg(first_url)
            .env("MOZ_CRASHREPORTER_DISABLE", "1");
        let child = spawn(cmd, dir.path());
        let port = wait_port(&profile.join("MarionetteActivePort"));
        UserBrowser { child, port, firefox: true, _dir: dir }
    }

    /// Firefox on `profile` (no Marionette), once it holds the profile's `lock`.
    fn firefox_holding(profile: &Path, first_url: &str) -> UserBrowser {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("/usr/bin/firefox-esr");
        cmd.args(["-headless", "-no-remote", "-profile"])
            .arg(profile)
            .arg(first_url)
            .env("MOZ_CRASHREPORTER_DISABLE", "1");
        let child = spawn(cmd, dir.path());
        // The link names this Firefox (a link an earlier Firefox left would name another).
        let mine = format!(":+{}", child.id());
        let start = Instant::now();
        while !std::fs::read_link(profile.join("lock"))
            .is_ok_and(|t| t.to_string_lossy().ends_with(&mine))
        {
            assert!(start.elapsed() < Duration::from_secs(60), "Firefox never locked the profile");
            std::thread::sleep(Duration::from_millis(50));
        }
        UserBrowser { child, port: 0, firefox: true, _dir: dir }
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

    /// The URLs of the browser's tabs: Chromium's from its DevTools endpoint, Firefox's through
    /// a Marionette connection of the test's own (which closes nothing).
    fn tabs(&self) -> Vec<String> {
        if self.firefox {
            return self.marionette().tabs();
        }
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

    fn marionette(&self) -> Marionette {
        Marionette::connect(self.port)
    }

    /// The driver sudobot starts for this browser.
    fn driver_name(&self) -> &'static str {
        if self.firefox { "geckodriver" } else { "chromedriver" }
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

/// The test's own Marionette client (the protocol geckodriver speaks to Firefox: `LENGTH:JSON`
/// packets, commands `[0, id, name, params]`, answers `[1, id, error, result]`), with a
/// session of its own. Dropping it closes the connection; Marionette then ends the session
/// and closes no window.
struct Marionette {
    stream: TcpStream,
    buf: Vec<u8>,
    id: u64,
}

impl Marionette {
    /// Connects and starts a session. Marionette serves one connection at a time and hangs up
    /// on another: while the last one (the test's or a driver's) is still being closed, it
    /// tries again (bounded).
    fn connect(port: u16) -> Marionette {
        let start = Instant::now();
        loop {
            let stream = TcpStream::connect(("127.0.0.1", port)).expect("Marionette listens");
            stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            let mut m = Marionette { stream, buf: Vec::new(), id: 0 };
            match m.packet() {
                Some(hello) => {
                    assert_eq!(hello["applicationType"], "gecko", "{hello}");
                    m.cmd("WebDriver:NewSession", serde_json::json!({ "capabilities": {} }));
                    return m;
                }
                None => {
                    assert!(start.elapsed() < Duration::from_secs(20), "Marionette hangs up");
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
    }

    /// The next packet; `None` when Marionette closed the connection.
    fn packet(&mut self) -> Option<serde_json::Value> {
        loop {
            if let Some(colon) = self.buf.iter().position(|&b| b == b':') {
                let len: usize = std::str::from_utf8(&self.buf[..colon]).unwrap().parse().unwrap();
                if self.buf.len() > colon + len {
                    let body: Vec<u8> = self.buf.drain(..=colon + len).skip(colon + 1).collect();
                    return Some(serde_json::from_slice(&body).unwrap());
                }
            }
            let mut chunk = [0u8; 65536];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// Sends a command and returns its result (panics on an error answer).
    fn cmd(&mut self, name: &str, params: serde_json::Value) -> serde_json::Value {
        self.id += 1;
        let data = serde_json::json!([0, self.id, name, params]).to_string();
        self.stream.write_all(format!("{}:{data}", data.len()).as_bytes()).unwrap();
        let answer = self.packet().expect("Marionette answers");
        assert!(answer[2].is_null(), "{name}: {}", answer[2]);
        answer[3].clone()
    }

    /// The URL of every tab, in the browser's order; the selected tab stays selected.
    fn tabs(&mut self) -> Vec<String> {
        let handles = self.cmd("WebDriver:GetWindowHandles", serde_json::json!({}));
        let mut urls = Vec::new();
        for handle in handles.as_array().unwrap() {
            let to = serde_json::json!({ "handle": handle, "focus": false });
            self.cmd("WebDriver:SwitchToWindow", to);
            let url = self.cmd("WebDriver:GetCurrentURL", serde_json::json!({}));
            urls.push(url["value"].as_str().unwrap().to_string());
        }
        urls
    }

    /// Opens a tab of the user's on `url` behind the selected one (which stays selected).
    fn open_tab(&mut self, url: &str) {
        let new = serde_json::json!({ "type": "tab", "focus": false });
        let handle = self.cmd("WebDriver:NewWindow", new)["handle"].clone();
        self.cmd(
            "WebDriver:SwitchToWindow",
            serde_json::json!({ "handle": handle, "focus": false }),
        );
        self.cmd("WebDriver:Navigate", serde_json::json!({ "url": url }));
    }

    /// Every preference that has a user value, with that value (read in the browser's chrome
    /// context, as about:config shows them).
    fn prefs(&mut self) -> BTreeMap<String, serde_json::Value> {
        self.cmd("Marionette:SetContext", serde_json::json!({ "value": "chrome" }));
        let script = "const out = {};
            for (const name of Services.prefs.getChildList('')) {
              if (!Services.prefs.prefHasUserValue(name)) continue;
              const type = Services.prefs.getPrefType(name);
              out[name] = type == Services.prefs.PREF_STRING ? Services.prefs.getStringPref(name)
                : type == Services.prefs.PREF_INT ? Services.prefs.getIntPref(name)
                : Services.prefs.getBoolPref(name);
            }
            return out;";
        let value = self
            .cmd("WebDriver:ExecuteScript", serde_json::json!({ "script": script, "args": [] }));
        self.cmd("Marionette:SetContext", serde_json::json!({ "value": "content" }));
        serde_json::from_value(value["value"].clone()).unwrap()
    }
}

/// The preferences that differ between `before` and `after`, leaving out those Firefox's own
/// timers and one-time migrations write while it runs (seen on an idle Firefox 153 ESR within
/// its first minute: update-timer stamps, the media plugin check, the startup stamp, the
/// tracking-protection allow-list migration).
fn changed_prefs(
    before: &BTreeMap<String, serde_json::Value>,
    after: &BTreeMap<String, serde_json::Value>,
) -> Vec<String> {
    const FIREFOX_OWN: &[&str] = &[
        "app.update.lastUpdateTime.",
        "media.gmp-manager.",
        "toolkit.startup.last_success",
        "privacy.trackingprotection.allow_list.",
        "privacy.bounceTrackingProtection.hasMigrated",
    ];
    let names: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    names
        .into_iter()
        .filter(|n| !FIREFOX_OWN.iter().any(|own| n.starts_with(own)))
        .filter(|n| before.get(*n) != after.get(*n))
        .map(|n| format!("{n}: {:?} -> {:?}", before.get(n), after.get(n)))
        .collect()
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

/// Every digit the slow page got (`cell cN D`, in its verdicts) is the solution's digit for a
/// blank cell of [`PUZZLE`] (solved here by the library's solver); returns how many there were.
fn assert_typed_right(verdicts: &[String]) -> usize {
    let puzzle = sudobot::format::line::parse(PUZZLE).unwrap();
    let sudobot::solve::Verdict::Unique(solution) = sudobot::solve::solve(&puzzle) else {
        panic!("the fixture has one solution");
    };
    let answer = sudobot::format::line::write(&solution).into_bytes();
    let mut typed = 0;
    for v in verdicts {
        let Some((cell, digit)) = v.strip_prefix("cell c").and_then(|r| r.split_once(' ')) else {
            continue;
        };
        let i = cell.parse::<usize>().unwrap() - 1;
        assert_eq!(PUZZLE.as_bytes()[i], b'.', "a key went into the given c{cell}");
        assert_eq!(digit.as_bytes(), &answer[i..=i], "a wrong digit went into c{cell}");
        typed += 1;
    }
    typed
}

/// A fault while sudobot, attached to `user`, types into the slow page in a tab of its own:
/// `how` is `sigterm` (to sudobot), `kill-driver` (its chromedriver or geckodriver, SIGKILL) or
/// `close-tab` (the user closes sudobot's tab; Chromium). Afterwards no key reached the page
/// after the fault, every digit it got was right, it is not solved, nothing of the run is
/// left, the user's browser runs and its tabs are `tabs` again. Returns sudobot's output.
fn fault_mid_fill(
    user: &UserBrowser,
    server: &FixtureServer,
    how: &str,
    tabs: &[String],
) -> Output {
    let private = Private::new();
    let page = server.url("sudoku_name_slow.html");
    let args = ["web", "--attach", &user.port(), "--site", "sudoku.name", "--url", &page];
    // Keys of earlier runs on the page are there already: wait for 5 of this one's.
    let earlier = key_times(server, "sudoku_name_slow").len();
    let mut child = private.command(&args).spawn().unwrap();
    let pid = child.id();
    if !wait_keys(server, "sudoku_name_slow", earlier + 5) {
        kill("-KILL", &format!("-{pid}"));
        let _ = child.kill();
        panic!(
            "no key of this run reached the page: {}",
            text(&child.wait_with_output().unwrap()).1
        );
    }
    let sent = now_ms();
    match how {
        "sigterm" => kill("-TERM", &pid.to_string()),
        "kill-driver" => {
            let name = user.driver_name();
            let driver = driver_of(pid, name).unwrap_or_else(|| panic!("no {name} under sudobot"));
            kill("-KILL", &driver.to_string());
        }
        _ => {
            let targets = attach::tabs(&user.at(), Duration::from_secs(5)).unwrap();
            let ours = targets.iter().find(|t| t.url == page).expect("sudobot's tab is listed");
            let path = format!("/json/close/{}", ours.id);
            attach::http(&user.at(), "GET", &path, Duration::from_secs(5)).unwrap();
        }
    }
    let (out, took) = finish(child, Duration::from_secs(20));
    eprintln!(
        "attached {}, {how} mid-fill: exit {:?} {took:?} after it; {}",
        user.driver_name(),
        out.status.code(),
        text(&out).1.trim()
    );
    private.assert_clean(Duration::from_secs(3));
    let late = keys_after(server, "sudoku_name_slow", sent, 250);
    assert_eq!(late, 0, "keys reached the page after {how}");
    let verdicts = server.verdicts("sudoku_name_slow");
    assert!(verdicts.iter().all(|v| v != "solved"), "{verdicts:?}");
    assert!(assert_typed_right(&verdicts) > 0, "the page got digits before the fault");
    assert!(user.alive(), "the user's browser still runs");
    assert_eq!(user.tabs(), tabs, "the user's tabs stay, sudobot's is gone");
    out
}

/// Chromium: the LinkedIn replica is refused with the login message while the user is not
/// logged in (nothing typed), solved in sudobot's own tab once the user logged in in their
/// browser, and a page without a site file is found and solved (discovery) attached too; the
/// user's tabs stay, sudobot's go, the browser runs on, nothing of the runs is left. Then
/// `--tab current` plays in the tab the user looks at and leaves it open; the others stay.
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
        stderr.contains(
            "this site needs you to be logged in: the browser sudobot attached to is not logged \
             in there: log in in that browser, then run again"
        ),
        "{stderr}"
    );
    assert_eq!(server.verdicts("linkedin"), ["login wall"], "nothing typed");

    // The user logs in, in a tab of their own.
    let login = server.url("linkedin_login.html?next=verdict.js");
    user.open_chromium_tab(&login);
    let start = Instant::now();
    while user.tabs().iter().filter(|u| **u == other).count() < 2 {
        assert!(start.elapsed() < Duration::from_secs(30), "the user's login never finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    let before = user.tabs();
    let out = private.run(&["web", "--attach", &port, "--site", "linkedin", "--url", &game]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("linkedin"), ["login wall", "solved"]);

    let page = server.url("sudoku_name.html");
    let out = private.run(&["web", "--attach", &format!("127.0.0.1:{port}"), "--url", &page]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);

    assert!(user.alive(), "the user's browser still runs");
    let after = user.tabs();
    assert_eq!(after, before, "the user's tabs are as they were, sudobot's are gone");
    assert!(after.contains(&other), "{after:?}");
    assert!(!after.iter().any(|u| u.contains("linkedin.html") || u.contains("sudoku_name")));
    private.assert_clean(Duration::from_secs(3));

    // The user opens a tab (the one Chromium now shows, first in /json/list) and has sudobot
    // play there.
    let blank = server.url("verdict.js?current");
    user.open_chromium_tab(&blank);
    let before = user.tabs();
    assert_eq!(before[0], blank, "{before:?}");
    let out = private.run(&["web", "--attach", &port, "--tab", "current", "--url", &page]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved", "solved"]);
    let after = user.tabs();
    assert_eq!(after[0], page, "the current tab played and is still open: {after:?}");
    assert_eq!(after[1..], before[1..], "the other tabs are untouched");
    assert!(user.alive(), "the user's browser still runs");
    private.assert_clean(Duration::from_secs(3));
}

#[test]
fn attached_chromium_sigterm_mid_fill_closes_only_its_own_tab() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let other = server.url("verdict.js");
    let user = UserBrowser::chromium(&other, None);
    let out = fault_mid_fill(&user, &server, "sigterm", &[other]);
    assert_code(&out, 143);
    assert!(text(&out).1.contains("interrupted by SIGTERM"), "{}", text(&out).1);
}

#[test]
fn attached_chromium_killed_chromedriver_closes_only_its_own_tab() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let other = server.url("verdict.js");
    let user = UserBrowser::chromium(&other, None);
    let out = fault_mid_fill(&user, &server, "kill-driver", &[other]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("chromedriver (pid") && stderr.contains("exited"), "{stderr}");
}

/// The user closes sudobot's tab while it types: sudobot stops with an error, types nowhere
/// else, and the user's tab and browser stay.
#[test]
fn attached_chromium_tab_closed_by_the_user_stops_the_run() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let other = server.url("verdict.js");
    let user = UserBrowser::chromium(&other, None);
    let out = fault_mid_fill(&user, &server, "close-tab", &[other]);
    assert_code(&out, 1);
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

/// `--profile` (Chromium): a first run logs in on the replica (its login page sets the session
/// cookie) and plays; a second run with the same profile plays without the login wall (the
/// browser was asked to quit, so it wrote its cookies); a run without a profile meets the wall
/// and says to bring one, a run with another profile says that profile is not logged in. The
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
    let stderr = text(&out).1;
    assert!(stderr.contains("logged in: use --attach or --profile"), "{stderr}");
    let fresh = profiles.path().join("new");
    let fresh = fresh.to_str().unwrap();
    let args = ["web", "--profile", fresh, "--site", "linkedin", "--url", &game];
    let out = private.run(&[&args[..], &["--no-debug-files"]].concat());
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains(&format!("the profile {fresh} is not logged in there")), "{stderr}");
    assert!(stderr.contains(&format!("`chromium --user-data-dir={fresh}`")), "{stderr}");
    private.assert_clean(Duration::from_secs(3));

    let user = UserBrowser::chromium(&server.url("verdict.js"), Some(&profile));
    let out = private.run(&["web", "--profile", dir, "--site", "linkedin", "--url", &game]);
    assert_code(&out, 2);
    let stderr = text(&out).1;
    assert!(stderr.contains("is in use by a running browser (SingletonLock"), "{stderr}");
    assert!(user.alive(), "the browser holding the profile runs on");
    let walls = ["solved", "solved", "login wall", "login wall"];
    assert_eq!(server.verdicts("linkedin"), walls);
    private.assert_clean(Duration::from_secs(3));
}

/// `--profile` (Firefox): the login made in a first run is there in a second; a Firefox that
/// holds the profile is refused by its `lock` link, and still by its record lock on
/// `.parentlock` once the link is gone; once that Firefox is gone (killed: its `.parentlock`
/// file stays, unlocked) the profile plays again, still logged in. The profile's own `user.js`
/// is as it was after every run, and no automation preference of geckodriver's or
/// Marionette's is left in it or in `prefs.js`.
#[test]
fn a_firefox_profile_keeps_the_login_and_one_in_use_is_refused() {
    if !super::firefox::firefox_here("a_firefox_profile") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let profiles = tempfile::tempdir().unwrap();
    let profile = profiles.path().join("mine");
    let dir = profile.to_str().unwrap();
    let private = Private::new();
    let login = server.url("linkedin_login.html?next=linkedin.html");
    let game = server.url("linkedin.html");
    let firefox = |url: &str| -> Output {
        let args = ["web", "--browser", "firefox", "--profile", dir, "--site", "linkedin"];
        private.run(&[&args[..], &["--url", url]].concat())
    };
    std::fs::create_dir_all(&profile).unwrap();
    let mine = "user_pref(\"browser.startup.homepage\", \"about:robots\");\n";
    std::fs::write(profile.join("user.js"), mine).unwrap();
    let as_it_was = || {
        assert_eq!(std::fs::read_to_string(profile.join("user.js")).unwrap(), mine);
        let prefs = std::fs::read_to_string(profile.join("prefs.js")).unwrap_or_default();
        for automation in ["marionette", "remote.prefs.recommended", "disabledForTesting"] {
            assert!(!prefs.contains(automation), "{automation} left in prefs.js:\n{prefs}");
        }
    };

    assert_code(&firefox(&login), 0);
    as_it_was();
    assert_code(&firefox(&game), 0);
    assert_eq!(server.verdicts("linkedin"), ["solved", "solved"], "no login wall the second time");
    as_it_was();
    private.assert_clean(Duration::from_secs(3));

    let user = UserBrowser::firefox_holding(&profile, &server.url("verdict.js"));
    let out = firefox(&game);
    assert_code(&out, 2);
    let stderr = text(&out).1;
    let pid = user.child.id();
    // The link names this host's address and the pid.
    let link = "is in use by a running browser (lock -> ";
    assert!(stderr.contains(link) && stderr.contains(&format!(":+{pid})")), "{stderr}");
    std::fs::remove_file(profile.join("lock")).unwrap();
    let out = firefox(&game);
    assert_code(&out, 2);
    let stderr = text(&out).1;
    assert!(stderr.contains(&format!("(.parentlock -> locked by pid {pid})")), "{stderr}");
    assert!(user.alive(), "the browser holding the profile runs on");
    drop(user);
    assert!(profile.join(".parentlock").exists(), "Firefox leaves the file");
    assert_code(&firefox(&game), 0);
    assert_eq!(server.verdicts("linkedin"), ["solved", "solved", "solved"]);
    as_it_was();
    private.assert_clean(Duration::from_secs(3));
}

/// Firefox through geckodriver's `--connect-existing`: the LinkedIn replica is solved in a tab
/// of sudobot's own after the user logged in; SIGTERM mid-fill, then geckodriver killed
/// mid-fill, each stop typing, and sudobot's tab is closed (by a fresh geckodriver); `--tab
/// current` plays in the tab the user looks at and leaves it open. The user's tabs and browser
/// stay throughout, and no preference of the browser is changed by the runs.
#[test]
fn attached_firefox_plays_and_faults_close_only_its_own_tab() {
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
    while !user.tabs().iter().any(|u| u.ends_with("verdict.js")) {
        assert!(start.elapsed() < Duration::from_secs(30), "the user's login never finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    let prefs = user.marionette().prefs();
    assert!(prefs.contains_key("marionette.port"), "the preferences were read: {prefs:?}");
    let before = user.tabs();

    let out = private.run(&["web", "--attach", &port, "--site", "linkedin", "--url", &game]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("linkedin"), ["solved"]);
    assert_eq!(user.tabs(), before, "sudobot's tab is gone, the user's stay");
    private.assert_clean(Duration::from_secs(3));

    let out = fault_mid_fill(&user, &server, "sigterm", &before);
    assert_code(&out, 143);
    let out = fault_mid_fill(&user, &server, "kill-driver", &before);
    assert_code(&out, 1);
    assert!(text(&out).1.contains("geckodriver (pid"), "{}", text(&out).1);

    // A second tab of the user's, behind the one Firefox shows; sudobot plays in the shown one.
    let second = server.url("verdict.js?second");
    user.marionette().open_tab(&second);
    let page = server.url("sudoku_name.html");
    let out = private.run(&["web", "--attach", &port, "--tab", "current", "--url", &page]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudoku_name"), ["solved"]);
    assert_eq!(user.tabs(), [page, second], "the current tab played and stays; the other too");
    private.assert_clean(Duration::from_secs(3));

    let changed = changed_prefs(&prefs, &user.marionette().prefs());
    assert!(changed.is_empty(), "the runs changed the user's preferences: {changed:?}");
    assert!(user.alive(), "the user's Firefox still runs");
}
