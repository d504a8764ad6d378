//! The browser session: spawning chromedriver on a free port (or connecting to a remote WebDriver
//! URL), building Chrome capabilities from `webdriver.toml`, and tearing everything down on every
//! path (quit the session, ask the driver to shut down, kill it if it does not).
//!
//! Errors are turned into one clear message with the driver and browser versions where they can
//! be found, and what to install.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

use super::config::{DriverMode, WebDriverConfig};

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// The driver binary does not exist or cannot run.
    #[error(
        "cannot start the WebDriver driver {binary}: {reason}; install it (Debian/Ubuntu: \
         `apt-get install chromium chromium-driver`) or set `driver.driver_binary` in webdriver.toml"
    )]
    DriverMissing {
        /// The binary.
        binary: String,
        /// The OS error.
        reason: String,
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
        /// `chromedriver --version`, when known.
        driver_version: String,
        /// `chromium --version`, when known.
        browser_version: String,
        /// What to do.
        advice: String,
    },
    /// A WebDriver command failed while setting up.
    #[error("setting up the browser session: {0}")]
    Setup(String),
}

/// A running session and the driver process we spawned, if any.
pub struct Session {
    driver: Option<WebDriver>,
    child: Option<LocalDriver>,
    profile: Option<PathBuf>,
    /// The WebDriver server URL (local or remote).
    pub server_url: String,
}

struct LocalDriver {
    child: Child,
    port: u16,
}

impl Session {
    /// Starts a session as the config says.
    pub async fn start(config: &WebDriverConfig) -> Result<Session, SessionError> {
        let mut session =
            Session { driver: None, child: None, profile: None, server_url: String::new() };
        match session.start_inner(config).await {
            Ok(()) => Ok(session),
            Err(e) => {
                session.close().await;
                Err(e)
            }
        }
    }

    async fn start_inner(&mut self, config: &WebDriverConfig) -> Result<(), SessionError> {
        let start_timeout = Duration::from_millis(config.driver.start_timeout_ms);
        self.server_url = match config.driver.mode {
            DriverMode::Local => {
                let binary = &config.driver.driver_binary;
                let local = spawn_driver(binary, start_timeout).await?;
                let url = format!("http://127.0.0.1:{}", local.port);
                self.child = Some(local);
                url
            }
            DriverMode::Remote => {
                let url = config.driver.url.clone().unwrap_or_default();
                url.trim_end_matches('/').to_string()
            }
        };
        let mut caps = DesiredCapabilities::chrome();
        let setup = |e: WebDriverError| SessionError::Setup(e.to_string());
        if config.browser.headless.resolve() {
            caps.add_arg("--headless=new").map_err(setup)?;
        }
        for arg in &config.browser.args {
            caps.add_arg(arg).map_err(setup)?;
        }
        let [w, h] = config.browser.window_size;
        caps.add_arg(&format!("--window-size={w},{h}")).map_err(setup)?;
        // A fresh profile per run: no cookies or saved progress from earlier runs. Only for a
        // local driver; a remote browser runs on another machine with its own temp profile.
        if config.driver.mode == DriverMode::Local {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let dir = std::env::temp_dir()
                .join(format!("sudobot-profile-{}-{nanos}", std::process::id()));
            caps.add_arg(&format!("--user-data-dir={}", dir.display())).map_err(setup)?;
            self.profile = Some(dir);
        }
        if let Some(binary) = &config.browser.binary {
            caps.set_binary(binary).map_err(setup)?;
        }
        // Alerts stay open until we handle them (sites that confirm with an alert).
        caps.set("unhandledPromptBehavior", "ignore").map_err(setup)?;

        let connect = WebDriver::builder(&self.server_url, caps).request_timeout(start_timeout);
        let driver = match tokio::time::timeout(start_timeout, connect).await {
            Err(_) => {
                return Err(SessionError::Unreachable {
                    url: self.server_url.clone(),
                    reason: format!("no session after {start_timeout:?}"),
                });
            }
            Ok(Ok(d)) => d,
            Ok(Err(e)) => return Err(self.explain(e, config).await),
        };
        let timeouts = TimeoutConfiguration::new(
            Some(Duration::from_secs(30)),
            Some(Duration::from_millis(config.browser.page_load_timeout_ms)),
            Some(Duration::ZERO),
        );
        let result = driver.update_timeouts(timeouts).await;
        self.driver = Some(driver);
        result.map_err(setup)
    }

    async fn explain(&self, e: WebDriverError, config: &WebDriverConfig) -> SessionError {
        match e.as_inner() {
            WebDriverErrorInner::SessionNotCreated(info) => {
                let reason = info.value.message.lines().next().unwrap_or("").to_string();
                let local = config.driver.mode == DriverMode::Local;
                let driver_version = if local {
                    version_of(&config.driver.driver_binary).await
                } else {
                    format!("remote at {}", self.server_url)
                };
                let browser_bin =
                    config.browser.binary.clone().unwrap_or_else(|| "chromium".into());
                let browser_version =
                    if local { version_of(&browser_bin).await } else { "remote".into() };
                let advice = if reason.contains("only supports") || reason.contains("version") {
                    "install a matching pair (Debian/Ubuntu: `apt-get install chromium chromium-driver`)"
                } else if reason.contains("cannot find") || reason.contains("binary") {
                    "install Chromium (`apt-get install chromium`) or set `browser.binary`"
                } else {
                    "check `browser.args` (root in a container needs --no-sandbox \
                     --disable-dev-shm-usage) and that the browser runs on its own"
                };
                SessionError::BrowserFailed {
                    reason,
                    driver_version,
                    browser_version,
                    advice: advice.to_string(),
                }
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

    /// Quits the browser, stops a spawned driver and removes the temporary profile. Never
    /// fails; every step is bounded.
    pub async fn close(mut self) {
        let bound = Duration::from_secs(5);
        if let Some(driver) = self.driver.take() {
            let _ = tokio::time::timeout(bound, driver.quit()).await;
        }
        if let Some(mut local) = self.child.take() {
            // chromedriver's /shutdown closes any browser it still owns, then exits.
            let _ = tokio::time::timeout(bound, http_get(local.port, "/shutdown")).await;
            if tokio::time::timeout(bound, local.child.wait()).await.is_err() {
                let _ = local.child.kill().await;
            }
        }
        if let Some(dir) = self.profile.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Spawns the driver on a free port and waits (bounded) until `/status` says ready.
async fn spawn_driver(binary: &str, bound: Duration) -> Result<LocalDriver, SessionError> {
    // A bare name is looked up on PATH when spawning; a path can be checked up front.
    if binary.contains('/') && !std::path::Path::new(binary).exists() {
        return Err(SessionError::DriverMissing {
            binary: binary.to_string(),
            reason: "no such file".into(),
        });
    }
    let port =
        free_port().map_err(|e| SessionError::Setup(format!("no free port on 127.0.0.1: {e}")))?;
    let child = Command::new(binary)
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| SessionError::DriverMissing {
            binary: binary.to_string(),
            reason: e.to_string(),
        })?;
    let mut local = LocalDriver { child, port };
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    loop {
        tick.tick().await;
        if let Ok(Ok(body)) =
            tokio::time::timeout(Duration::from_secs(1), http_get(port, "/status")).await
            && body.contains("\"ready\":true")
        {
            return Ok(local);
        }
        let exited = local.child.try_wait().ok().flatten();
        if exited.is_some() || start.elapsed() > bound {
            let _ = local.child.kill().await;
            return Err(SessionError::DriverNotReady {
                binary: binary.to_string(),
                port,
                waited: start.elapsed(),
                exit: exited.map(|s| format!(" (it exited: {s})")).unwrap_or_default(),
            });
        }
    }
}

fn free_port() -> std::io::Result<u16> {
    // The OS picks a free port; we release it for the driver. The window for a race is tiny and
    // a lost race shows up as "did not become ready".
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

/// A minimal HTTP GET to 127.0.0.1 (the driver's status and shutdown endpoints).
async fn http_get(port: u16, path: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await?;
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    // chromedriver keeps the connection open despite `Connection: close`, so read exactly
    // Content-Length bytes of body instead of reading to the end.
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if buf.len() >= end + 4 + length {
                break;
            }
        }
    }
    Ok(String::from_utf8_lossy(&buf).to_string())
}

/// Why a TCP connection to the URL's host and port fails, if it does.
async fn connect_error(url: &str) -> Option<String> {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let authority = rest.split('/').next().unwrap_or(rest);
    let default_port = if url.starts_with("https://") { 443 } else { 80 };
    let address = if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:{default_port}")
    };
    match tokio::time::timeout(Duration::from_secs(3), TcpStream::connect(address)).await {
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
