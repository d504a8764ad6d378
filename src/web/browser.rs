//! Which browser the web bot drives: Chromium through chromedriver, or Firefox through
//! geckodriver. Every difference between the two lives here: the driver binary and how it is
//! spawned, the browser binary, the capabilities (headless, profile, window size, arguments),
//! the environment a local browser runs in, what to install when something is missing, and the
//! few places where the drivers behave differently while typing. Site files never name a
//! browser.
//!
//! Firefox as root in a container: a local Firefox gets a `HOME` it may write (and XDG cache,
//! config and data directories) inside the run's directory, with the profile (`-profile DIR`)
//! and `TMPDIR` beside them, so it never writes to the user's home and deleting the run's
//! directory deletes every file it wrote. The crash reporter is off
//! (`MOZ_CRASHREPORTER_DISABLE`): a crash leaves no minidump and starts no helper. Nothing else
//! is needed: measured here as root in a container, with `HOME=/nonexistent` and with a 1 MB
//! read-only `/dev/shm` (Firefox's shared memory is `memfd` on Linux), with no sandbox flag.
//!
//! Typing: geckodriver types an Element Send Keys of the whole Tab walk into whatever has focus,
//! as chromedriver does, and it is the fastest strategy on Firefox too (45 cells: about 250 ms,
//! an Actions chain about 600 ms, per cell about 3 s), so both browsers share the strategies.

use std::path::{Path, PathBuf};

use serde_json::json;
use thirtyfour::prelude::*;
use thirtyfour::{BrowserCapabilitiesHelper, Capabilities};

use super::attach::Attach;
pub use super::config::Browser;
use super::config::{BrowserConfig, HeadlessShell};
use super::owner::RunDir;

/// Where geckodriver is looked for when `driver.driver_binary` is not set (`cargo install`
/// as root puts it in `~/.cargo/bin`; the README's command copies it to `/usr/local/bin`).
const GECKODRIVER_PLACES: [&str; 2] = ["/usr/local/bin/geckodriver", "/usr/bin/geckodriver"];

/// Debian's headless shell of Chromium (package `chromium-headless-shell`, built from the same
/// source as `chromium`, so chromedriver matches it): Chromium's rendering without the parts of
/// the full browser a headless run never shows. Measured on the demo site (`benches/
/// session-cpu.sh`, 1 and 20 puzzles; the README's table): 0.37 CPU seconds a puzzle after the
/// first against 1.87 for `chromium --headless=new`, and 0.85 s against 2.42 s for a one-puzzle
/// run, browser start included. chromedriver starts it as the browser `chrome-headless-shell` (as the browser
/// `chrome` it opens no page, and the session never starts).
pub const HEADLESS_SHELL: &str = "/usr/lib/chromium/chromium-headless-shell";

/// The geckodriver version `.ci/deps` installs and the tests run with.
pub const GECKODRIVER_VERSION: &str = "0.37.1";

impl Browser {
    /// Every browser, for messages and tests.
    pub const ALL: [Browser; 2] = [Browser::Chromium, Browser::Firefox];

    /// `chromium` or `firefox` (as `--browser` and `browser.kind` spell it).
    pub fn name(self) -> &'static str {
        match self {
            Browser::Chromium => "chromium",
            Browser::Firefox => "firefox",
        }
    }

    /// The browser from its name (`chrome` is Chromium too).
    pub fn from_name(name: &str) -> Option<Browser> {
        match name {
            "chromium" | "chrome" => Some(Browser::Chromium),
            "firefox" => Some(Browser::Firefox),
            _ => None,
        }
    }

    /// The driver's name.
    pub fn driver_name(self) -> &'static str {
        match self {
            Browser::Chromium => "chromedriver",
            Browser::Firefox => "geckodriver",
        }
    }

    /// The driver to spawn when `driver.driver_binary` is not set: Debian's chromedriver; the
    /// first geckodriver found in /usr/local/bin, /usr/bin, on `PATH` or in `~/.cargo/bin`
    /// (else /usr/local/bin/geckodriver, which the missing-driver message then names).
    pub fn default_driver(self) -> String {
        match self {
            Browser::Chromium => "/usr/bin/chromedriver".to_string(),
            Browser::Firefox => {
                let on_path: Vec<PathBuf> = std::env::var_os("PATH")
                    .map(|p| std::env::split_paths(&p).map(|d| d.join("geckodriver")).collect())
                    .unwrap_or_default();
                let cargo = std::env::var_os("CARGO_HOME")
                    .map(PathBuf::from)
                    .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
                    .map(|c| c.join("bin/geckodriver"));
                GECKODRIVER_PLACES
                    .iter()
                    .map(PathBuf::from)
                    .chain(on_path)
                    .chain(cargo)
                    .find(|p| p.is_file())
                    .unwrap_or_else(|| PathBuf::from(GECKODRIVER_PLACES[0]))
                    .display()
                    .to_string()
            }
        }
    }

    /// The browser binary named in messages (and passed to geckodriver) when `browser.binary`
    /// is not set.
    pub fn default_binary(self) -> &'static str {
        match self {
            Browser::Chromium => "chromium",
            Browser::Firefox => "/usr/bin/firefox-esr",
        }
    }

    /// The headless shell ([`HEADLESS_SHELL`]) a session runs instead of the full browser:
    /// for Chromium run headless, with a driver sudobot starts (`local`), no `browser.binary`,
    /// `browser.headless_shell = "auto"`, and the shell installed.
    pub fn headless_shell(self, config: &BrowserConfig, local: bool) -> Option<&'static str> {
        #[cfg(unix)]
        let runnable = |m: &std::fs::Metadata| {
            std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0
        };
        #[cfg(not(unix))]
        let runnable = |_: &std::fs::Metadata| false;
        let installed =
            std::fs::metadata(HEADLESS_SHELL).is_ok_and(|m| m.is_file() && runnable(&m));
        (self == Browser::Chromium
            && local
            && config.binary.is_none()
            && config.headless_shell == HeadlessShell::Auto
            && config.headless.resolve()
            && installed)
            .then_some(HEADLESS_SHELL)
    }

    /// What to install for this browser (Debian/Ubuntu).
    pub fn install(self) -> String {
        match self {
            Browser::Chromium => "`apt-get install chromium chromium-driver`".to_string(),
            Browser::Firefox => format!(
                "`apt-get install firefox-esr` and `cargo install geckodriver --locked --version \
                 {GECKODRIVER_VERSION}`, or `bash .ci/deps firefox`"
            ),
        }
    }

    /// The arguments the driver is spawned with, listening on `port` of 127.0.0.1; attached to
    /// the user's Firefox at `attach` (chromedriver attaches through the capabilities instead).
    pub fn driver_args(self, port: u16, attach: Option<&Attach>) -> Vec<String> {
        match (self, attach) {
            (Browser::Chromium, _) => vec![format!("--port={port}")],
            (Browser::Firefox, Some(at)) => vec![
                "--host".into(),
                "127.0.0.1".into(),
                "--port".into(),
                port.to_string(),
                "--connect-existing".into(),
                "--marionette-host".into(),
                at.host.clone(),
                "--marionette-port".into(),
                at.port.to_string(),
            ],
            // geckodriver picks Marionette's port itself (0: the system's choice, read back
            // from the profile), so parallel sessions never collide.
            (Browser::Firefox, None) => {
                vec!["--host".into(), "127.0.0.1".into(), "--port".into(), port.to_string()]
            }
        }
    }

    /// The environment a local driver and its browser run in, besides `TMPDIR` and
    /// `XDG_CONFIG_HOME` (set for both): everything a browser writes goes into the run's
    /// directory `dir`.
    pub fn driver_env(self, dir: &Path) -> Vec<(&'static str, PathBuf)> {
        match self {
            Browser::Chromium => Vec::new(),
            Browser::Firefox => {
                let home = firefox_home(dir);
                vec![
                    ("XDG_CACHE_HOME", home.join(".cache")),
                    ("XDG_DATA_HOME", home.join(".local/share")),
                    ("HOME", home),
                    ("MOZ_CRASHREPORTER_DISABLE", PathBuf::from("1")),
                ]
            }
        }
    }

    /// The capabilities of a session attached to the user's browser at `at`: nothing that
    /// would change it (no arguments, preferences, profile or window size).
    pub fn attach_capabilities(self, at: &Attach) -> WebDriverResult<Capabilities> {
        let mut caps: Capabilities = match self {
            Browser::Chromium => {
                let mut caps = DesiredCapabilities::chrome();
                caps.set_debugger_address(&at.address())?;
                caps.into()
            }
            Browser::Firefox => DesiredCapabilities::firefox().into(),
        };
        caps.set("unhandledPromptBehavior", "ignore")?;
        Ok(caps)
    }

    /// The capabilities of a new session. `local` is the run's directory when sudobot spawned
    /// the driver: the profile goes inside it, and the browser is tied to its driver's life.
    pub fn capabilities(
        self,
        config: &BrowserConfig,
        local: Option<&LocalRun>,
    ) -> WebDriverResult<Capabilities> {
        let headless = config.headless.resolve();
        let shell = self.headless_shell(config, local.is_some());
        let [w, h] = config.window_size;
        let mut caps: Capabilities = match self {
            Browser::Chromium => {
                let mut caps = DesiredCapabilities::chrome();
                // The headless shell is headless whatever it is told.
                if headless && shell.is_none() {
                    caps.add_arg("--headless=new")?;
                }
                for arg in &config.args {
                    caps.add_arg(arg)?;
                }
                caps.add_arg(&format!("--window-size={w},{h}"))?;
                // A fresh profile per run inside the run's directory (no cookies or saved
                // progress from earlier runs), and the DevTools connection over a pipe: the
                // browser exits by itself when its driver dies. Only for a local driver; a
                // remote browser runs on another machine with its own temporary profile.
                if let Some(local) = local {
                    let profile = config.profile.as_deref().unwrap_or(&local.profile);
                    caps.add_arg(&format!("--user-data-dir={}", profile.display()))?;
                    caps.add_arg("--remote-debugging-pipe")?;
                }
                if let Some(shell) = shell {
                    caps.set_binary(shell)?;
                } else if let Some(binary) = &config.binary {
                    caps.set_binary(binary)?;
                }
                caps.into()
            }
            Browser::Firefox => {
                let mut caps = DesiredCapabilities::firefox();
                // The arguments go in as one list (`add_arg` drops a repeated string, such as
                // a height equal to the width).
                let mut args: Vec<String> = Vec::new();
                if headless {
                    args.push("-headless".into());
                }
                args.extend(config.firefox_args.iter().cloned());
                args.extend(["-width".into(), w.to_string(), "-height".into(), h.to_string()]);
                // A local Firefox starts through a wrapper that ties it to geckodriver's life
                // (see [`Browser::prepare_local`]), in a fresh profile inside the run's
                // directory.
                if let Some(local) = local {
                    let profile = config.profile.as_deref().unwrap_or(&local.profile);
                    args.extend(["-profile".into(), profile.display().to_string()]);
                }
                if let Some(wrapper) = local.and_then(|l| l.firefox_wrapper.as_ref()) {
                    caps.set_firefox_binary(&wrapper.display().to_string())?;
                } else if let Some(binary) = &config.binary {
                    caps.set_firefox_binary(binary)?;
                }
                caps.set_browser_option("args", args)?;
                let mut prefs =
                    thirtyfour::common::capabilities::firefox::FirefoxPreferences::new();
                // No first-run pages, no "restore session" after a killed run, no update checks.
                prefs.set("browser.shell.checkDefaultBrowser", false)?;
                prefs.set("browser.sessionstore.resume_from_crash", false)?;
                prefs.set("app.update.disabledForTesting", true)?;
                prefs.set("datareporting.policy.dataSubmissionEnabled", false)?;
                caps.set_preferences(prefs)?;
                // No crash reporter (a remote Firefox too): no minidump, no helper process.
                caps.set_browser_option("env", json!({ "MOZ_CRASHREPORTER_DISABLE": "1" }))?;
                caps.into()
            }
        };
        if let Some(shell) = shell {
            tracing::debug!(shell, "Chromium runs as its headless shell (browser.headless_shell)");
            caps.set("browserName", "chrome-headless-shell")?;
        }
        // Dialogs stay open until sudobot reads them: drivers default to "dismiss and notify",
        // which would close one unread, and "accept" would say OK to a page's "Start a new
        // game?". sudobot reads each one's text and dismisses it (play.rs, `take_open_dialog`).
        caps.set("unhandledPromptBehavior", "ignore")?;
        Ok(caps)
    }

    /// Prepares what a local browser needs in the run's directory `dir` before the session
    /// starts: its profile (which [`RunDir::create`] made) and, for Firefox, its home directory
    /// and the wrapper that starts it.
    pub fn prepare_local(self, config: &BrowserConfig, dir: &RunDir) -> std::io::Result<LocalRun> {
        let profile = dir.profile();
        if self == Browser::Chromium {
            return Ok(LocalRun { profile, firefox_wrapper: None });
        }
        std::fs::create_dir_all(firefox_home(dir.path()))?;
        let firefox_wrapper = dir.path().join("firefox");
        let binary = config.binary.as_deref().unwrap_or(self.default_binary());
        // geckodriver starts Firefox from a thread that lives as long as it does; the
        // parent-death signal set here (and kept across exec) kills Firefox as soon as
        // geckodriver dies, as Chromium's DevTools pipe does for chromedriver. Without it a
        // Firefox whose geckodriver was killed (sudobot SIGKILLed) would run on.
        let script = format!(
            "#!/bin/sh\n# sudobot: Firefox dies with its geckodriver.\nexec setpriv \
             --pdeathsig KILL -- {} \"$@\"\n",
            shell_quote(binary)
        );
        std::fs::write(&firefox_wrapper, script)?;
        #[cfg(unix)]
        std::fs::set_permissions(
            &firefox_wrapper,
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )?;
        Ok(LocalRun { profile, firefox_wrapper: Some(firefox_wrapper) })
    }

    /// The browser binary a local run would start, when it is a path that does not exist
    /// (checked before the driver starts, so the message says what to install; chromedriver
    /// finds Chromium itself and says so).
    pub fn missing_binary(self, config: &BrowserConfig) -> Option<String> {
        let binary = match (self, &config.binary) {
            (_, Some(b)) => b.as_str(),
            (Browser::Firefox, None) => self.default_binary(),
            (Browser::Chromium, None) => return None,
        };
        (binary.contains('/') && !Path::new(binary).exists()).then(|| binary.to_string())
    }

    /// What to do when the browser did not start, from the driver's `reason`.
    pub fn advice(self, reason: &str) -> String {
        let install = self.install();
        match self {
            Browser::Chromium => {
                if reason.contains("only supports") || reason.contains("version") {
                    format!("install a matching pair (Debian/Ubuntu: {install})")
                } else if reason.contains("cannot find")
                    || reason.contains("binary")
                    || reason.contains("no browser at")
                {
                    "install Chromium (`apt-get install chromium`) or set `browser.binary`".into()
                } else {
                    "check `browser.binary` and `browser.args` (root in a container needs \
                     --no-sandbox --disable-dev-shm-usage) and that the browser runs on its own"
                        .into()
                }
            }
            Browser::Firefox => {
                if reason.contains("version") {
                    format!(
                        "geckodriver and Firefox do not match; install a matching pair \
                         (Debian/Ubuntu: {install})"
                    )
                } else if reason.contains("binary")
                    || reason.contains("no browser at")
                    || reason.contains("No such file")
                    || reason.contains("not found")
                {
                    "install Firefox (`apt-get install firefox-esr`) or set `browser.binary` \
                     (`--browser-binary`)"
                        .into()
                } else {
                    "check `browser.binary` and `browser.firefox_args` and that Firefox runs on \
                     its own (`firefox-esr -headless --screenshot`); `setpriv` (util-linux) \
                     must be on PATH"
                        .into()
                }
            }
        }
    }

    /// Whether the local driver answers `/status` while a command runs, so that a `/status`
    /// that goes unanswered means a hung driver. chromedriver does; geckodriver serves one
    /// request at a time (a session being created, a page loading or a board being typed keeps
    /// `/status` waiting), so for it only the process state and each command's own bound count.
    pub fn status_while_busy(self) -> bool {
        match self {
            Browser::Chromium => true,
            Browser::Firefox => false,
        }
    }
}

impl std::fmt::Display for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The browser's own code for a page it could not load, from the driver's message: Chromium's
/// `net::ERR_CONNECTION_REFUSED`, Firefox's error page `about:neterror?e=connectionFailure`.
pub fn error_code(message: &str) -> Option<String> {
    message.split_whitespace().find_map(|w| {
        if w.starts_with("net::ERR_") {
            return Some(w.to_string());
        }
        let code = w.split("about:neterror?e=").nth(1)?;
        let code: String = code.chars().take_while(char::is_ascii_alphanumeric).collect();
        (!code.is_empty()).then(|| format!("{code} (about:neterror)"))
    })
}

/// What a local browser gets in the run's directory.
#[derive(Clone, Debug)]
pub struct LocalRun {
    /// The profile directory.
    pub profile: PathBuf,
    /// Firefox's start script (none for Chromium).
    pub firefox_wrapper: Option<PathBuf>,
}

/// A local Firefox's `HOME` inside the run's directory `dir`.
fn firefox_home(dir: &Path) -> PathBuf {
    dir.join("home")
}

/// `'text'` for sh, with `'` inside escaped.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::WebDriverConfig;

    #[test]
    fn names_round_trip_and_chrome_is_chromium() {
        for b in Browser::ALL {
            assert_eq!(Browser::from_name(b.name()), Some(b));
        }
        assert_eq!(Browser::from_name("chrome"), Some(Browser::Chromium));
        assert_eq!(Browser::from_name("safari"), None);
    }

    #[test]
    fn firefox_capabilities_are_firefox_options() {
        let config = WebDriverConfig::load(None).unwrap();
        let dir = RunDir::create().unwrap();
        let mut browser = config.browser.clone();
        browser.headless = super::super::config::Headless::Fixed(true);
        let local = Browser::Firefox.prepare_local(&browser, &dir).unwrap();
        let caps = Browser::Firefox.capabilities(&browser, Some(&local)).unwrap();
        let json = serde_json::to_value(&caps).unwrap();
        assert_eq!(json["browserName"], "firefox");
        let args = json["moz:firefoxOptions"]["args"].as_array().unwrap();
        assert!(args.iter().any(|a| a == "-headless"), "{args:?}");
        assert!(args.iter().any(|a| a == "-profile"), "{args:?}");
        assert!(!args.iter().any(|a| a == "--no-sandbox"), "no Chromium flag: {args:?}");
        let wrapper = std::fs::read_to_string(local.firefox_wrapper.as_ref().unwrap()).unwrap();
        assert!(
            wrapper.contains("setpriv --pdeathsig KILL -- '/usr/bin/firefox-esr'"),
            "{wrapper}"
        );
        assert_eq!(json["unhandledPromptBehavior"], "ignore");
    }

    #[test]
    fn the_advice_names_what_to_install() {
        assert!(Browser::Firefox.install().contains("apt-get install firefox-esr"));
        assert!(Browser::Firefox.install().contains("cargo install geckodriver --locked"));
        assert!(
            Browser::Firefox.advice("Failed to start browser /x: binary").contains("firefox-esr")
        );
        assert!(Browser::Chromium.install().contains("chromium-driver"));
    }

    #[test]
    fn error_codes_of_both_browsers() {
        let chromium = "unknown error: net::ERR_CONNECTION_REFUSED (Session info: chrome=120)";
        assert_eq!(error_code(chromium).as_deref(), Some("net::ERR_CONNECTION_REFUSED"));
        let firefox = "Reached error page: about:neterror?e=connectionFailure&u=http%3A//x/";
        assert_eq!(error_code(firefox).as_deref(), Some("connectionFailure (about:neterror)"));
        assert_eq!(error_code("timeout"), None);
    }

    #[test]
    fn shell_quote_escapes_quotes() {
        assert_eq!(shell_quote("/opt/it's/firefox"), r"'/opt/it'\''s/firefox'");
    }
}
