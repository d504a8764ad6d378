//! The browser session: spawning the driver (chromedriver or geckodriver, see [`super::browser`])
//! on a free port (or connecting to a remote WebDriver URL), building the browser's capabilities
//! from `webdriver.toml`, watching the driver while work runs
//! ([`Session::guard`]: signals, a driver that dies or hangs), and tearing everything down on
//! every path through [`super::owner`].
//!
//! Errors are turned into one clear message with the driver and browser versions where they can
//! be found, and what to install.

use std::convert::Infallible;
use std::process::Stdio;
use std::time::{Duration, Instant};

use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;
use tokio::net::TcpStream;
use tokio::process::Command;

use super::attach::{self, Attach, Found, TabChoice};
use super::browser::Browser;
use super::config::{DriverMode, WebDriverConfig};
use super::error::PlayError;
use super::owner::{DriverTree, ProcState, RunDir};
use super::poll::{WATCH, Waited, poll};
use super::profile::{self, ProfileError};
use super::signals::{Cancel, Signal};

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The driver binary does not exist or cannot run.
    #[error(
        "cannot start the WebDriver driver {binary}: {reason}; install it (Debian/Ubuntu: \
         {install}) or set `driver.driver_binary` in webdriver.toml (`--driver`)"
    )]
    DriverMissing {
        /// The binary.
        binary: String,
        /// The OS error.
        reason: String,
        /// What to install ([`Browser::install`]).
        install: String,
    },
    /// The driver started but never answered `/status`.
    #[error("{binary} did not become ready on port {port} within {waited:?}{exit}")]
    DriverNotReady {
        /// The binary.
        binary: String,
        /// Its port.
        port: u16,
        /// How long we waited.
        waited: Duration,
        /// Its exit status, if it died.
        exit: String,
    },
    /// Nothing listens at the WebDriver URL.
    #[error("cannot reach the WebDriver server at {url}: {reason}; start it or fix `driver.url`")]
    Unreachable {
        /// The URL.
        url: String,
        /// What the client said.
        reason: String,
    },
    /// The driver refused to start the browser (version mismatch, missing browser, crash).
    #[error(
        "the browser did not start: {reason}\n  driver: {driver_version}\n  browser: {browser_version}\n  {advice}"
    )]
    BrowserFailed {
        /// The driver's message.
        reason: String,
        /// `chromedriver --version` or `geckodriver --version`, when known.
        driver_version: String,
        /// `chromium --version` or `firefox-esr --version`, when known.
        browser_version: String,
        /// What to do.
        advice: String,
    },
    /// A WebDriver command failed while setting up.
    #[error("setting up the browser session: {0}")]
    Setup(String),
    /// The driver died or stopped answering while the session started.
    #[error("{0}")]
    DriverDied(String),
    /// A signal came while the session started.
    #[error("interrupted by {} while starting the browser", .0.name())]
    Cancelled(Signal),
    /// `--attach`: no browser sudobot can attach to listens there.
    #[error("no browser to attach to at {address}: {reason}; start one with {command}{other}")]
    NoBrowser {
        /// `host:port`.
        address: String,
        /// What was found instead.
        reason: String,
        /// The command line that starts the configured browser so that sudobot can attach.
        command: String,
        /// The other browser's command line, in words.
        other: String,
    },
    /// `--profile`: the profile cannot be used (a running browser holds it).
    #[error(transparent)]
    Profile(#[from] ProfileError),
}

/// Why a running session stopped before its work was done.
#[derive(Debug, thiserror::Error)]
pub enum Stop {
    /// A signal asked sudobot to stop.
    #[error("interrupted by {}", .0.name())]
    Signal(Signal),
    /// The driver died, was stopped or stopped answering.
    #[error("{0}")]
    Driver(String),
}

/// A running session: the WebDriver handle, and for a local driver the process tree and the
/// run's directory ([`super::owner`]). Every way out ([`Session::close`], drop on an error or a
/// panic) stops the tree before deleting the directory; a remote session is deleted on the
/// server within a bound.
pub struct Session {
    driver: Option<WebDriver>,
    tree: Option<DriverTree>,
    dir: Option<RunDir>,
    port: u16,
    /// Whether the server's `/status` is asked while work runs (a local geckodriver answers
    /// nothing while a command runs: see [`Browser::status_while_busy`]).
    ping: bool,
    cancel: Cancel,
    /// `--attach`: the user's browser and the tab sudobot plays in.
    attached: Option<AttachedTab>,
    /// `--profile`: the browser is asked to quit (it writes its cookies) before its tree is
    /// stopped.
    persistent: bool,
    /// `--profile`: the profile's files the run changes, put back once the browser is gone.
    kept: Option<profile::Kept>,
    /// The WebDriver server URL (local or remote).
    pub server_url: String,
}

/// The tab sudobot plays in, in a browser the user runs ([`super::attach`]).
#[derive(Clone, Debug)]
struct AttachedTab {
    browser: Browser,
    at: Attach,
    /// Its window handle (Chromium: the DevTools target id); empty until known.
    handle: String,
    /// sudobot opened it: it is closed at the end (`--tab current` leaves the tab open).
    opened: bool,
    /// The driver binary, to attach again to close the tab (Firefox, after the driver died).
    driver_binary: String,
    /// Firefox: where the tab is among the browser's tabs, and how many there were, once it
    /// was opened. Marionette's window handles are new in every session, so a fresh driver
    /// finds the tab by its place, and only while the count is unchanged (else it is left
    /// open rather than risk another tab).
    place: Option<(usize, usize)>,
}

/// How long closing sudobot's tab in an attached browser may take.
const TAB_CLOSE_BOUND: Duration = Duration::from_millis(1500);

/// How long a browser with a persistent profile gets to quit (and write its profile).
const PROFILE_QUIT_BOUND: Duration = Duration::from_secs(10);

/// How long deleting a remote session may take on the way out (signals must exit within 2 s).
const REMOTE_QUIT_BOUND: Duration = Duration::from_millis(1500);

/// How long a signal waits for a remote session that is being created, to delete it.
const REMOTE_START_GRACE: Duration = Duration::from_millis(1000);

impl Session {
    /// Starts a session as the config says. A signal on `cancel` during the start stops it and
    /// cleans up; so does a driver that dies while starting.
    pub async fn start(config: &WebDriverConfig, cancel: Cancel) -> Result<Session, SessionError> {
        let mut session = Session {
            driver: None,
            tree: None,
            dir: None,
            port: 0,
            ping: true,
            cancel: cancel.clone(),
            attached: None,
            persistent: false,
            kept: None,
            server_url: String::new(),
        };
        let mut signal = cancel;
        let remote = config.driver.mode == DriverMode::Remote;
        let mut starting = Box::pin(session.start_inner(config));
        let result = tokio::select! {
            biased;
            s = signal.wait() => {
                // A remote session being created would live on after the run: wait for it
                // (bounded) so `close` below can delete it. A local one dies with its tree.
                if remote
                    && tokio::time::timeout(REMOTE_START_GRACE, &mut starting).await.is_err()
                {
                    tracing::warn!("the remote session was still being created when stopped");
                }
                Err(SessionError::Cancelled(s))
            }
            r = &mut starting => r,
        };
        drop(starting);
        match result {
            Ok(()) => Ok(session),
            Err(e) => {
                session.close().await;
                Err(e)
            }
        }
    }

    async fn start_inner(&mut self, config: &WebDriverConfig) -> Result<(), SessionError> {
        let start_timeout = Duration::from_millis(config.driver.start_timeout_ms);
        let local = config.driver.mode == DriverMode::Local;
        let mut browser = config.browser();
        let mut binary = config.driver_binary();
        if let Some(at) = config.attach() {
            browser = self.attach_to(config, &at)?;
            binary = self.attached.as_ref().map_or(binary, |a| a.driver_binary.clone());
        } else if let Some(dir) = &config.browser.profile {
            profile::check(browser, dir)?;
            self.persistent = true;
            self.kept = Some(profile::Kept::save(browser, dir));
        }
        let mut local_run = None;
        self.server_url = if local {
            if self.attached.is_none()
                && let Some(missing) = browser.missing_binary(&config.browser)
            {
                return Err(self.browser_failed(config, format!("no browser at {missing}")).await);
            }
            let dir = RunDir::create().map_err(|e| {
                SessionError::Setup(format!(
                    "cannot create the run directory in {}: {e}",
                    std::env::temp_dir().display()
                ))
            })?;
            let dir = self.dir.insert(dir);
            local_run = Some(browser.prepare_local(&config.browser, dir).map_err(|e| {
                SessionError::Setup(format!("cannot prepare {}: {e}", dir.path().display()))
            })?);
            let attach = self.attached.as_ref().map(|a| a.at.clone());
            let (tree, port) =
                spawn_driver(&binary, browser, dir, start_timeout, attach.as_ref()).await?;
            self.tree = Some(tree);
            self.port = port;
            self.ping = browser.status_while_busy();
            format!("http://127.0.0.1:{port}")
        } else {
            let url = config.driver.url.clone().unwrap_or_default();
            url.trim_end_matches('/').to_string()
        };
        let setup = |e: WebDriverError| SessionError::Setup(e.to_string());
        let mut caps = match &self.attached {
            Some(tab) => browser.attach_capabilities(&tab.at),
            None => browser.capabilities(&config.browser, local_run.as_ref()),
        }
        .map_err(setup)?;
        // A remote session names its run, so the run (or a later one) can find and delete it.
        if !local {
            caps.set(super::grid::TAG_CAP, super::grid::run_tag()).map_err(setup)?;
        }

        let connect = WebDriver::builder(&self.server_url, caps)
            .request_timeout(start_timeout)
            .client(LoggedClient::new(start_timeout));
        let started = Instant::now();
        let driver = tokio::select! {
            biased;
            fault = self.driver_fault() => return Err(SessionError::DriverDied(fault)),
            () = self.browser_gone() => {
                let reason = format!(
                    "the browser exited while starting ({} was still waiting for it)",
                    browser.driver_name()
                );
                return Err(self.browser_failed(config, reason).await);
            }
            r = tokio::time::timeout(start_timeout, connect) => match r {
                Err(_) => {
                    return Err(SessionError::Unreachable {
                        url: self.server_url.clone(),
                        reason: format!("no session after {start_timeout:?}"),
                    });
                }
                Ok(Ok(d)) => d,
                Ok(Err(e)) => return Err(self.explain(e, config).await),
            },
        };
        tracing::debug!(elapsed = ?started.elapsed(), url = %self.server_url, "session created");
        let timeouts = TimeoutConfiguration::new(
            Some(Duration::from_secs(30)),
            Some(Duration::from_millis(config.browser.page_load_timeout_ms)),
            Some(Duration::ZERO),
        );
        let result = driver.update_timeouts(timeouts).await;
        self.driver = Some(driver);
        result.map_err(setup)?;
        self.enter_tab().await
    }

    /// `--attach`: checks what listens at `at` (Chromium's DevTools or Firefox's Marionette)
    /// and, in Chromium, opens sudobot's own tab (before the driver starts, so every later
    /// path closes it). Returns the browser found.
    fn attach_to(
        &mut self,
        config: &WebDriverConfig,
        at: &Attach,
    ) -> Result<Browser, SessionError> {
        let found = attach::probe(at, Duration::from_secs(3)).map_err(|e| {
            let asked = config.browser();
            let other = Browser::ALL.into_iter().find(|&b| b != asked).unwrap_or(asked);
            SessionError::NoBrowser {
                address: at.address(),
                reason: e.reason,
                command: attach::start_command(asked, at.port),
                other: format!(
                    " (or {}: {})",
                    other,
                    attach::start_command(
                        other,
                        if other == Browser::Firefox { 2828 } else { at.port }
                    )
                ),
            }
        })?;
        let browser = match found {
            Found::Chromium(name) => {
                tracing::debug!("attaching to {name} at {}", at.address());
                Browser::Chromium
            }
            Found::Firefox => Browser::Firefox,
        };
        let opened = config.browser.tab == TabChoice::New;
        let handle = if opened && browser == Browser::Chromium {
            attach::open_tab(at, Duration::from_secs(3)).map_err(|e| {
                SessionError::Setup(format!(
                    "cannot open a tab in the browser at {}: {e}",
                    at.address()
                ))
            })?
        } else {
            String::new()
        };
        let binary = match &config.driver.driver_binary {
            Some(b) if browser == config.browser() => b.clone(),
            _ => browser.default_driver(),
        };
        self.attached = Some(AttachedTab {
            browser,
            at: at.clone(),
            handle,
            opened,
            driver_binary: binary,
            place: None,
        });
        Ok(browser)
    }

    /// `--attach`: switches the new session to sudobot's tab: the one it opened (Chromium), a
    /// new one (Firefox), or the current one (`--tab current`).
    async fn enter_tab(&mut self) -> Result<(), SessionError> {
        let (Some(tab), Some(driver)) = (self.attached.as_mut(), self.driver.as_ref()) else {
            return Ok(());
        };
        let setup = |what: &str, e: WebDriverError| SessionError::Setup(format!("{what}: {e}"));
        if !tab.opened {
            let current = driver.window().await.map_err(|e| setup("the current tab", e))?;
            tab.handle = current.to_string();
            return Ok(());
        }
        let handle = match tab.browser {
            Browser::Chromium => {
                let handles = driver.windows().await.map_err(|e| setup("listing the tabs", e))?;
                handles
                    .into_iter()
                    .find(|h| h.to_string() == tab.handle || h.to_string().ends_with(&tab.handle))
                    .ok_or_else(|| {
                        SessionError::Setup(format!(
                            "chromedriver does not list sudobot's tab {}",
                            tab.handle
                        ))
                    })?
            }
            Browser::Firefox => {
                let handle = driver.new_tab().await.map_err(|e| setup("opening a tab", e))?;
                tab.handle = handle.to_string();
                let all = driver.windows().await.map_err(|e| setup("listing the tabs", e))?;
                tab.place = all.iter().position(|h| *h == handle).map(|i| (i, all.len()));
                handle
            }
        };
        tracing::debug!(handle = %handle, "playing in sudobot's own tab");
        driver.switch_to_window(handle).await.map_err(|e| setup("switching to sudobot's tab", e))
    }

    /// Resolves when a local driver has had time to launch the browser and no process of the
    /// browser runs (a browser that exits at once leaves chromedriver waiting on its DevTools
    /// pipe; geckodriver says so itself).
    async fn browser_gone(&self) {
        // An attached browser is no child of the driver.
        let (Some(tree), None) = (&self.tree, &self.attached) else {
            return std::future::pending().await;
        };
        // The driver's time to launch the browser, then a look every 200 ms.
        let grace = Duration::from_secs(3);
        let _ = poll(WATCH, Duration::from_millis(200), "the browser to exit", async |elapsed| {
            Ok::<_, Infallible>((elapsed >= grace && tree.children().is_empty()).then_some(()))
        })
        .await;
    }

    async fn browser_failed(&self, config: &WebDriverConfig, reason: String) -> SessionError {
        let local = config.driver.mode == DriverMode::Local;
        let browser = config.browser();
        let driver_version = if local {
            version_of(&config.driver_binary()).await
        } else {
            format!("remote at {}", self.server_url)
        };
        let shell = browser.headless_shell(&config.browser, local);
        let browser_bin = match shell {
            Some(shell) => shell.to_string(),
            None => {
                config.browser.binary.clone().unwrap_or_else(|| browser.default_binary().into())
            }
        };
        let browser_version = if local { version_of(&browser_bin).await } else { "remote".into() };
        let mut advice = browser.advice(&reason);
        if let Some(shell) = shell {
            advice.push_str(&format!(
                "; this run used Chromium's headless shell {shell}: `headless_shell = \"never\"` \
                 under [browser] in webdriver.toml starts the full browser instead"
            ));
        }
        SessionError::BrowserFailed { reason, driver_version, browser_version, advice }
    }

    async fn explain(&self, e: WebDriverError, config: &WebDriverConfig) -> SessionError {
        match e.as_inner() {
            WebDriverErrorInner::SessionNotCreated(info) => {
                let reason = info.value.message.lines().next().unwrap_or("").to_string();
                self.browser_failed(config, reason).await
            }
            WebDriverErrorInner::RequestFailed(m) | WebDriverErrorInner::HttpError(m) => {
                // The HTTP client's message hides the cause; a plain connect shows it
                // ("Connection refused").
                let reason = match connect_error(&self.server_url).await {
                    Some(cause) => format!("{cause} ({m})"),
                    None => m.clone(),
                };
                SessionError::Unreachable { url: self.server_url.clone(), reason }
            }
            _ => SessionError::Setup(e.to_string()),
        }
    }

    /// The WebDriver handle.
    pub fn driver(&self) -> &WebDriver {
        // `start` only returns a session whose driver is set; `close` consumes it.
        self.driver.as_ref().expect("session has a driver until closed")
    }

    /// The local driver's pid, if sudobot spawned it.
    pub fn driver_pid(&self) -> Option<i32> {
        self.tree.as_ref().map(DriverTree::pid)
    }

    /// Runs `work` while watching for a signal and for the driver dying or hanging; whichever
    /// comes first wins. Dropping `work` abandons the command in flight: close the session next
    /// (that kills a local driver tree, so nothing more is typed).
    pub async fn guard<T>(&self, work: impl std::future::Future<Output = T>) -> Result<T, Stop> {
        let mut signal = self.cancel.clone();
        let r = tokio::select! {
            biased;
            s = signal.wait() => Err(Stop::Signal(s)),
            fault = self.driver_fault() => Err(Stop::Driver(fault)),
            r = work => Ok(r),
        };
        // A signal kills the drivers at once: a driver found dead after it is the signal's doing.
        match (r, self.signalled()) {
            (Err(Stop::Driver(_)), Some(s)) => Err(Stop::Signal(s)),
            (r, _) => r,
        }
    }

    /// The signal received, if any.
    pub fn signalled(&self) -> Option<Signal> {
        self.cancel.fired()
    }

    /// After a puzzle failed: the signal or the driver's death when either is the cause, so it
    /// is named as such rather than as the failed command. The connection closes a moment
    /// before a dead driver shows as exited, so a transport failure of a local driver is looked
    /// at again briefly.
    pub async fn cause_of(&self, e: &PlayError) -> Option<Stop> {
        let bound = if e.is_transport() && self.tree.is_some() {
            Duration::from_millis(300)
        } else {
            Duration::ZERO
        };
        poll(bound, Duration::from_millis(10), "the cause of a failure", async |_| {
            let signal = self.signalled().map(Stop::Signal);
            Ok::<_, Infallible>(signal.or_else(|| self.driver_problem().map(Stop::Driver)))
        })
        .await
        .ok()
    }

    /// Whether a local driver has exited or is stopped now (checked when a command failed, so a
    /// dead driver is named as such, not as an HTTP error).
    pub fn driver_problem(&self) -> Option<String> {
        let tree = self.tree.as_ref()?;
        match tree.state() {
            ProcState::Alive => None,
            ProcState::Gone => {
                let how = tree
                    .exit_status()
                    .map(|s| format!(" ({})", describe_exit(s)))
                    .unwrap_or_default();
                Some(format!("{} (pid {}) exited{how}", tree.binary(), tree.pid()))
            }
            ProcState::Stopped => Some(format!(
                "{} (pid {}) is stopped (SIGSTOP or a debugger) and cannot answer",
                tree.binary(),
                tree.pid()
            )),
        }
    }

    /// Resolves (with a message naming the driver) when the driver exits, is stopped, or stops
    /// answering `/status` (where it answers while busy; a command that hangs is bounded by the
    /// client either way). A local driver's process state is checked every 50 ms; `/status` is
    /// asked every second and must fail twice (2 s each) to count, so a busy machine is not
    /// mistaken for a hung driver.
    async fn driver_fault(&self) -> String {
        let process = async {
            if self.tree.is_none() {
                return std::future::pending::<String>().await;
            }
            let every = Duration::from_millis(50);
            let fault = poll(WATCH, every, "the driver to fail", async |_| {
                Ok::<_, Infallible>(self.driver_problem())
            });
            fault.await.unwrap_or_else(|_| unreachable_watch())
        };
        let answering = async {
            if !self.ping || !pingable(&self.server_url) {
                return std::future::pending::<String>().await;
            }
            let bound = Duration::from_secs(2);
            let client = http_client(bound);
            let mut failures = 0;
            let mut first = true;
            let every = Duration::from_secs(1);
            let fault = poll(WATCH, every, "the driver to stop answering", async |_| {
                // The first ask comes a second after the session started.
                if std::mem::take(&mut first) {
                    return Ok(None);
                }
                match ask_status(&client, &self.server_url).await {
                    Ok(answer) if answer.ok => failures = 0,
                    Ok(_) => {
                        failures += 1;
                        tracing::debug!("/status did not answer 200");
                    }
                    Err(e) if self.tree.is_none() && !e.is_timeout() => {
                        return Ok(Some(format!(
                            "the WebDriver server at {} stopped answering ({e})",
                            self.server_url
                        )));
                    }
                    Err(_) => failures += 1,
                }
                if failures < 2 {
                    return Ok::<_, Infallible>(None);
                }
                let who = match &self.tree {
                    Some(t) => format!("{} (pid {})", t.binary(), t.pid()),
                    None => format!("the WebDriver server at {}", self.server_url),
                };
                Ok(Some(format!(
                    "{who} stopped answering (/status: no answer within {bound:?}, twice)"
                )))
            });
            fault.await.unwrap_or_else(|_| unreachable_watch())
        };
        tokio::select! {
            m = process => m,
            m = answering => m,
        }
    }

    /// Quits: a remote session is deleted on the server (bounded); a local driver tree is
    /// killed at once and the run's directory deleted after every process of it is gone. Never
    /// fails.
    pub async fn close(mut self) {
        if let Some(tab) = self.attached.take() {
            self.close_attached(tab).await;
            self.stop_local();
            return;
        }
        if self.persistent {
            self.quit_persistent().await;
        }
        if let Some(driver) = self.driver.take() {
            if self.tree.is_some() {
                // The tree is killed below; the session dies with it.
                let _ = driver.leak();
            } else {
                let quit = tokio::time::timeout(REMOTE_QUIT_BOUND, driver.clone().quit()).await;
                if !matches!(quit, Ok(Ok(()))) {
                    tracing::warn!(
                        "the remote session was not deleted within {REMOTE_QUIT_BOUND:?}"
                    );
                }
                let _ = driver.leak();
            }
        }
        self.stop_local();
    }

    /// `--attach`: stops the driver (no key after it), then closes sudobot's own tab: in
    /// Chromium through DevTools, in Firefox through the live session when its driver still
    /// runs, else through a fresh driver attached for that alone. No WebDriver session is
    /// deleted (a driver would close what it takes for its own), nothing else is closed.
    async fn close_attached(&mut self, tab: AttachedTab) {
        let driver = self.driver.take();
        let mut closed = false;
        let live = self.signalled().is_none() && self.driver_problem().is_none();
        if tab.opened
            && tab.browser == Browser::Firefox
            && live
            && !tab.handle.is_empty()
            && let Some(d) = &driver
        {
            closed = close_window(d, &tab.handle).await;
        }
        if let Some(d) = driver {
            let _ = d.leak();
        }
        if let Some(mut tree) = self.tree.take() {
            tree.stop();
        }
        if !tab.opened || closed || tab.handle.is_empty() {
            return;
        }
        match tab.browser {
            Browser::Chromium => {
                attach::close_tab(&tab.at, &tab.handle, TAB_CLOSE_BOUND);
            }
            Browser::Firefox => {
                if let Some(dir) = &self.dir
                    && !reattach_and_close(&tab, dir).await
                {
                    tracing::warn!(
                        "sudobot's tab {} in the Firefox at {} could not be closed",
                        tab.handle,
                        tab.at.address()
                    );
                }
            }
        }
    }

    /// `--profile`: asks the browser to quit through the driver (it writes its profile: the
    /// cookies of a login) and waits (bounded) for it to exit. Not after a signal or a driver
    /// fault: the tree is killed at once then.
    async fn quit_persistent(&mut self) {
        if self.signalled().is_some() || self.driver_problem().is_some() {
            return;
        }
        let Some(driver) = self.driver.take() else {
            return;
        };
        let quit = tokio::time::timeout(PROFILE_QUIT_BOUND, driver.clone().quit()).await;
        if !matches!(quit, Ok(Ok(()))) {
            tracing::warn!("the browser did not quit within {PROFILE_QUIT_BOUND:?}");
        }
        let _ = driver.leak();
        let Some(tree) = &self.tree else {
            return;
        };
        let start = Instant::now();
        let every = Duration::from_millis(50);
        let _ =
            poll(PROFILE_QUIT_BOUND, every, "the browser with the profile to quit", async |_| {
                Ok::<_, ()>(tree.children().is_empty().then_some(()))
            })
            .await;
        tracing::debug!(elapsed = ?start.elapsed(), "the browser with the profile quit");
    }

    fn stop_local(&mut self) {
        if let Some(mut tree) = self.tree.take() {
            let left = tree.stop();
            if !left.is_empty() {
                // Every one of them has had SIGKILL (the group, then each pid again while
                // waiting), so none runs code that could write the directory again: only the
                // kernel's tear-down of a large process is still going on (seconds on a loaded
                // machine). The directory can go now.
                tracing::debug!("processes {left:?} are still exiting after SIGKILL");
            }
        }
        if let Some(mut kept) = self.kept.take() {
            kept.restore();
        }
        if let Some(mut dir) = self.dir.take() {
            dir.remove();
        }
    }
}

impl Drop for Session {
    /// The error and panic path: the same steps as [`Session::close`], synchronously.
    fn drop(&mut self) {
        if let Some(tab) = self.attached.take() {
            // Closing the tab is async: a runtime of its own on a scoped thread (none may be
            // running here).
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    if let Ok(rt) =
                        tokio::runtime::Builder::new_current_thread().enable_all().build()
                    {
                        rt.block_on(self.close_attached(tab));
                    }
                });
            });
        }
        if let Some(driver) = self.driver.take() {
            if self.tree.is_some() {
                let _ = driver.leak();
            } else {
                // Delete the remote session from a thread of its own (no runtime may be
                // running here), bounded.
                let worker = std::thread::spawn(move || {
                    if let Ok(rt) =
                        tokio::runtime::Builder::new_current_thread().enable_all().build()
                    {
                        let _ = rt.block_on(tokio::time::timeout(
                            REMOTE_QUIT_BOUND,
                            driver.clone().quit(),
                        ));
                    }
                    let _ = driver.leak();
                });
                let _ = worker.join();
            }
        }
        self.stop_local();
    }
}

/// The WebDriver HTTP client (reqwest, as thirtyfour's default) logging every command with
/// its duration at debug level (`-v`, target `sudobot::web::session`).
struct LoggedClient {
    inner: reqwest::Client,
    timeout: Duration,
}

impl LoggedClient {
    fn new(timeout: Duration) -> LoggedClient {
        // The bound is applied around each command (see `send`), so a command that hangs is
        // named with its bound rather than as reqwest's "error sending request".
        LoggedClient { inner: reqwest::Client::new(), timeout }
    }
}

#[async_trait::async_trait]
impl thirtyfour::session::http::HttpClient for LoggedClient {
    async fn send(
        &self,
        request: http::Request<thirtyfour::session::http::Body<'_>>,
    ) -> WebDriverResult<http::Response<bytes::Bytes>> {
        let method = request.method().clone();
        let path = request.uri().path().to_string();
        // `/session/ID/execute/sync` -> `execute/sync`; name the script by its first line.
        let command = path.splitn(4, '/').nth(3).unwrap_or(&path).to_string();
        let script = match request.body() {
            thirtyfour::session::http::Body::Json(v) => v
                .get("script")
                .and_then(|s| s.as_str())
                .and_then(|s| s.lines().map(str::trim).find(|l| !l.is_empty()))
                .map(|l| format!(" ({})", l.chars().take(60).collect::<String>()))
                .unwrap_or_default(),
            _ => String::new(),
        };
        let started = Instant::now();
        let result = match tokio::time::timeout(self.timeout, self.inner.send(request)).await {
            Ok(result) => result,
            Err(_) => Err(WebDriverError::Timeout(format!(
                "the driver did not answer {method} {command}{script} within {:?} (the bound on \
                 each WebDriver command, `driver.start_timeout_ms`); the browser may be hung",
                self.timeout
            ))),
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        match &result {
            Ok(r) => tracing::debug!("{method} {command}{script}: {} in {ms:.1} ms", r.status()),
            Err(e) => tracing::debug!("{method} {command}{script}: failed after {ms:.1} ms: {e}"),
        }
        result
    }

    async fn new(&self) -> std::sync::Arc<dyn thirtyfour::session::http::HttpClient> {
        std::sync::Arc::new(LoggedClient::new(self.timeout))
    }
}

/// Closes the window `handle` through `driver` (bounded); true when the driver says it did.
async fn close_window(driver: &WebDriver, handle: &str) -> bool {
    let close = async {
        driver.switch_to_window(WindowHandle::from(handle)).await?;
        driver.close_window().await
    };
    match tokio::time::timeout(TAB_CLOSE_BOUND, close).await {
        Ok(Ok(())) => true,
        Ok(Err(e)) => {
            tracing::debug!("closing tab {handle}: {e}");
            false
        }
        Err(_) => false,
    }
}

/// Firefox, after its driver died: a fresh geckodriver attaches to close sudobot's tab
/// (Marionette's window handles outlive sessions), then stops. Bounded.
async fn reattach_and_close(tab: &AttachedTab, dir: &RunDir) -> bool {
    let bound = TAB_CLOSE_BOUND * 2;
    let work = async {
        let spawned =
            spawn_driver(&tab.driver_binary, tab.browser, dir, bound, Some(&tab.at)).await;
        let Ok((mut tree, port)) = spawned else {
            return false;
        };
        let Ok(caps) = tab.browser.attach_capabilities(&tab.at) else {
            return false;
        };
        let driver = WebDriver::builder(format!("http://127.0.0.1:{port}"), caps)
            .request_timeout(bound)
            .client(LoggedClient::new(bound))
            .await;
        let closed = match driver {
            Ok(d) => {
                let handles = d.windows().await.unwrap_or_default();
                let closed = match tab.place {
                    Some((index, count)) if handles.len() == count => {
                        close_window(&d, &handles[index].to_string()).await
                    }
                    _ => {
                        tracing::warn!(
                            "the browser's tabs changed since sudobot opened its own ({:?}, now \
                             {}): it is left open rather than risk another",
                            tab.place,
                            handles.len()
                        );
                        false
                    }
                };
                let _ = d.leak();
                closed
            }
            Err(e) => {
                tracing::debug!("attaching again to close the tab: {e}");
                false
            }
        };
        tree.stop();
        closed
    };
    tokio::time::timeout(bound * 2, work).await.unwrap_or(false)
}

/// "signal 9 (SIGKILL)" or "exit code 1".
fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    let signal: Option<i32> = None;
    match (status.code(), signal) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(s)) => {
            #[cfg(unix)]
            let name = nix::sys::signal::Signal::try_from(s).map(|s| s.as_str()).unwrap_or("?");
            #[cfg(not(unix))]
            let name = "?";
            format!("killed by signal {s} ({name})")
        }
        _ => status.to_string(),
    }
}

/// Whether the server's `/status` is asked while work runs (plain http; https is not pinged).
fn pingable(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.scheme() == "http")
}

/// An HTTP client whose every request is bounded.
fn http_client(bound: Duration) -> reqwest::Client {
    reqwest::Client::builder().timeout(bound).build().unwrap_or_else(|_| reqwest::Client::new())
}

/// What a WebDriver server's `/status` said.
struct StatusAnswer {
    /// It answered 200.
    ok: bool,
    /// Its JSON's `value.ready`.
    ready: bool,
}

/// Asks `base/status` (bounded by the client).
async fn ask_status(client: &reqwest::Client, base: &str) -> Result<StatusAnswer, reqwest::Error> {
    let response = client.get(format!("{base}/status")).send().await?;
    let ok = response.status().is_success();
    let body = response.text().await?;
    let ready = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.pointer("/value/ready").and_then(serde_json::Value::as_bool))
        .unwrap_or(false);
    Ok(StatusAnswer { ok, ready })
}

/// Spawns the driver on a free port in its own process group and waits (bounded) until
/// `/status` says ready. A driver that exits while starting is reported at once.
async fn spawn_driver(
    binary: &str,
    browser: Browser,
    dir: &RunDir,
    bound: Duration,
    attach: Option<&Attach>,
) -> Result<(DriverTree, u16), SessionError> {
    let missing = |reason: String| SessionError::DriverMissing {
        binary: binary.to_string(),
        reason,
        install: browser.install(),
    };
    // A bare name is looked up on PATH when spawning; a path can be checked up front.
    if binary.contains('/') && !std::path::Path::new(binary).exists() {
        return Err(missing("no such file".into()));
    }
    let port =
        free_port().map_err(|e| SessionError::Setup(format!("no free port on 127.0.0.1: {e}")))?;
    let args = browser.driver_args(port, attach);
    let env = browser.driver_env(dir.path());
    let tree = DriverTree::spawn(binary, &args, &env, dir).map_err(|e| missing(e.to_string()))?;
    let start = Instant::now();
    let client = http_client(Duration::from_secs(1));
    let base = format!("http://127.0.0.1:{port}");
    let ready = poll(bound, Duration::from_millis(20), "the driver to be ready", async |_| {
        if let Ok(answer) = ask_status(&client, &base).await
            && answer.ready
        {
            return Ok(Some(()));
        }
        match tree.state() {
            ProcState::Alive => Ok(None),
            state => Err(state),
        }
    })
    .await;
    let state = match ready {
        Ok(()) => {
            tracing::debug!(elapsed = ?start.elapsed(), "driver ready");
            return Ok((tree, port));
        }
        Err(Waited::Stopped(state)) => state,
        Err(Waited::Out(_)) => tree.state(),
    };
    let exit = match (state, tree.exit_status()) {
        (ProcState::Gone, Some(s)) => format!(" (it exited: {})", describe_exit(s)),
        (ProcState::Gone, None) => " (it exited)".to_string(),
        (ProcState::Stopped, _) => " (it is stopped)".to_string(),
        (ProcState::Alive, _) => String::new(),
    };
    Err(SessionError::DriverNotReady {
        binary: binary.to_string(),
        port,
        waited: start.elapsed(),
        exit,
    })
}

/// A watch ([`WATCH`]) has no bound to pass: it ends only with its condition.
fn unreachable_watch() -> String {
    "a watch without a bound ended without its condition".to_string()
}

fn free_port() -> std::io::Result<u16> {
    // The OS picks a free port; we release it for the driver. The window for a race is tiny and
    // a lost race shows up as "did not become ready".
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

/// Why a TCP connection to the URL's host and port fails, if it does.
async fn connect_error(url: &str) -> Option<String> {
    let parsed = match url::Url::parse(url) {
        Ok(u) => u,
        Err(e) => return Some(format!("`{url}` is not a URL: {e}")),
    };
    let host = parsed.host_str()?.to_string();
    let port = parsed.port_or_known_default()?;
    match tokio::time::timeout(Duration::from_secs(3), TcpStream::connect((host, port))).await {
        Ok(Ok(_)) => None,
        Ok(Err(e)) => Some(e.to_string()),
        Err(_) => Some("connection timed out".to_string()),
    }
}

/// `binary --version`, first line, or why it is unknown.
async fn version_of(binary: &str) -> String {
    let run = Command::new(binary).arg("--version").stdin(Stdio::null()).output();
    match tokio::time::timeout(Duration::from_secs(10), run).await {
        Ok(Ok(out)) => {
            let text = String::from_utf8_lossy(&out.stdout);
            let line = text.lines().next().unwrap_or("").trim();
            if line.is_empty() { format!("{binary}: unknown version") } else { line.to_string() }
        }
        Ok(Err(e)) => format!("{binary}: {e}"),
        Err(_) => format!("{binary}: `--version` timed out"),
    }
}
