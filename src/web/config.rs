//! `webdriver.toml`: how to get a browser session. Either spawn a local driver (`chromedriver` or
//! `geckodriver` on a free port, stopped on exit) or connect to a remote WebDriver URL (a Selenium
//! Grid or any W3C remote end). The file is documented by the shipped `webdriver.toml` itself.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

/// The default file, embedded so the binary works from any directory.
pub const DEFAULT_TOML: &str = include_str!("../../webdriver.toml");

/// The whole file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebDriverConfig {
    /// Where the WebDriver server comes from.
    pub driver: DriverConfig,
    /// The browser to start.
    pub browser: BrowserConfig,
}

/// `[driver]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriverConfig {
    /// `local` (spawn `driver_binary`) or `remote` (connect to `url`).
    pub mode: DriverMode,
    /// The driver to spawn in local mode (default: the browser's own, see
    /// [`Browser::default_driver`]).
    #[serde(default)]
    pub driver_binary: Option<String>,
    /// The WebDriver URL in remote mode (Selenium 4: no `/wd/hub`).
    #[serde(default)]
    pub url: Option<String>,
    /// How long the driver may take to answer `/status` (local) or to create a session.
    #[serde(default = "default_start_timeout")]
    pub start_timeout_ms: u64,
}

fn default_start_timeout() -> u64 {
    20_000
}

/// Driver modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DriverMode {
    /// Spawn the driver on a free 127.0.0.1 port and stop it on exit.
    Local,
    /// Connect to a running WebDriver server.
    Remote,
}

/// The browser, and with it the driver (the data; what each one needs is `browser.rs`'s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Browser {
    /// Chromium (or Chrome) through chromedriver.
    #[default]
    #[serde(alias = "chrome")]
    Chromium,
    /// Firefox (Debian's firefox-esr) through geckodriver.
    Firefox,
}

/// `[browser]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrowserConfig {
    /// `chromium` (also `chrome`: Chrome or Chromium through chromedriver) or `firefox`
    /// (through geckodriver). `name` is the key's older spelling.
    #[serde(default, alias = "name")]
    pub kind: Browser,
    /// The browser binary (optional: chromedriver finds Chromium itself; Firefox's default is
    /// `/usr/bin/firefox-esr`).
    #[serde(default)]
    pub binary: Option<String>,
    /// `auto` (headless when there is no display), `true` or `false`.
    #[serde(default)]
    pub headless: Headless,
    /// Window size in pixels, `[width, height]`.
    #[serde(default = "default_window")]
    pub window_size: [u32; 2],
    /// Whether a headless Chromium that sudobot starts itself runs as Debian's
    /// `chromium-headless-shell` when it is installed (`auto`) or always as the full browser
    /// (`never`).
    #[serde(default)]
    pub headless_shell: HeadlessShell,
    /// Extra Chromium arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra Firefox arguments.
    #[serde(default)]
    pub firefox_args: Vec<String>,
    /// Attach to a browser the user runs instead of starting one: a port or `host:port`
    /// (Chromium's `--remote-debugging-port`, Firefox's Marionette port). `--attach` sets it.
    #[serde(default)]
    pub attach: Option<String>,
    /// With `attach`: play in a tab of sudobot's own (`new`, closed at the end) or in the
    /// current one (`current`, left open).
    #[serde(default)]
    pub tab: TabChoice,
    /// A persistent profile for the browser sudobot starts (Chromium's `--user-data-dir`,
    /// Firefox's `-profile`) instead of a fresh one per run. `--profile` sets it.
    #[serde(default)]
    pub profile: Option<std::path::PathBuf>,
    /// Page-load timeout.
    #[serde(default = "default_page_load")]
    pub page_load_timeout_ms: u64,
    /// How long to wait for the board and other elements.
    #[serde(default = "default_element")]
    pub element_timeout_ms: u64,
}

fn default_window() -> [u32; 2] {
    [1280, 1024]
}
fn default_page_load() -> u64 {
    30_000
}
fn default_element() -> u64 {
    10_000
}

/// Headless setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Headless {
    /// `true` / `false`.
    Fixed(bool),
    /// `"auto"`.
    #[default]
    #[serde(deserialize_with = "auto")]
    Auto,
}

fn auto<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(), D::Error> {
    let s = String::deserialize(d)?;
    if s == "auto" {
        Ok(())
    } else {
        Err(serde::de::Error::custom("expected true, false or \"auto\""))
    }
}

impl Headless {
    /// Whether to run headless: `auto` means headless when no display is set.
    pub fn resolve(self) -> bool {
        match self {
            Headless::Fixed(b) => b,
            Headless::Auto => {
                std::env::var_os("DISPLAY").is_none_or(|v| v.is_empty())
                    && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// The `headless_shell` setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HeadlessShell {
    /// The headless shell when it is installed, the run is headless, sudobot starts the driver
    /// and no `binary` is named.
    #[default]
    Auto,
    /// Always the full browser.
    Never,
}

/// Errors reading `webdriver.toml`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read {file}: {error}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        error: std::io::Error,
    },
    /// The TOML does not parse or fit the schema.
    #[error("{file}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// toml's message (names the key and line).
        message: String,
    },
    /// A value is wrong.
    #[error("{file}: `{key}`: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// The dotted key.
        key: String,
        /// What is wrong.
        message: String,
    },
}

/// The largest config or site file read, in bytes: real ones are a few KB, and a larger one
/// (`/dev/zero`, a wrong path) is refused before it fills the memory.
pub const MAX_CONFIG_FILE: u64 = 1 << 20;

/// Reads a config or site file as UTF-8 text, refusing one over [`MAX_CONFIG_FILE`] bytes and
/// anything that is not a regular file: a FIFO (opening one waits for a writer for ever), a
/// device or a directory is refused before it is opened.
pub(crate) fn read_small_file(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let not_regular = |kind: std::fs::FileType| {
        let what = if kind.is_dir() { "a directory" } else { "not a regular file" };
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{what} (a FIFO, a device or a socket is never read)"),
        )
    };
    // Follows links, as opening does.
    let kind = std::fs::metadata(path)?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    let file = std::fs::File::open(path)?;
    // Replaced between the two looks: still only a regular file is read.
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    let mut text = String::new();
    file.take(MAX_CONFIG_FILE + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_CONFIG_FILE {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("larger than {} KiB, more than any config file needs", MAX_CONFIG_FILE >> 10),
        ));
    }
    Ok(text)
}

impl WebDriverConfig {
    /// Reads a config file, or the embedded default when `path` is `None`.
    pub fn load(path: Option<&Path>) -> Result<WebDriverConfig, ConfigError> {
        match path {
            None => WebDriverConfig::parse("embedded:webdriver.toml", DEFAULT_TOML),
            Some(p) => {
                let file = p.display().to_string();
                let text = read_small_file(p)
                    .map_err(|error| ConfigError::Read { file: file.clone(), error })?;
                WebDriverConfig::parse(&file, &text)
            }
        }
    }

    /// Parses and validates a config; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<WebDriverConfig, ConfigError> {
        let config: WebDriverConfig = toml::from_str(text).map_err(|e| ConfigError::Parse {
            file: file.to_string(),
            message: e.to_string().split_whitespace().collect::<Vec<_>>().join(" "),
        })?;
        config.validate(file)?;
        Ok(config)
    }

    /// Checks the values (also after command-line overrides).
    pub fn validate(&self, file: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, message: &str| ConfigError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message: message.to_string(),
        };
        match self.driver.mode {
            DriverMode::Remote => {
                let url = self.driver.url.as_deref().unwrap_or("");
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(bad("driver.url", "remote mode needs an http:// or https:// URL"));
                }
            }
            DriverMode::Local => {
                if self.driver.driver_binary.as_deref().is_some_and(|b| b.trim().is_empty()) {
                    return Err(bad("driver.driver_binary", "is empty"));
                }
            }
        }
        let [w, h] = self.browser.window_size;
        if !(200..=10_000).contains(&w) || !(200..=10_000).contains(&h) {
            return Err(bad("browser.window_size", "width and height must be 200 to 10000"));
        }
        for (key, ms) in [
            ("driver.start_timeout_ms", self.driver.start_timeout_ms),
            ("browser.page_load_timeout_ms", self.browser.page_load_timeout_ms),
            ("browser.element_timeout_ms", self.browser.element_timeout_ms),
        ] {
            if !(1..=600_000).contains(&ms) {
                return Err(bad(key, "must be 1 to 600000 (milliseconds)"));
            }
        }
        if let Some(attach) = &self.browser.attach {
            if let Err(message) = Attach::parse(attach) {
                return Err(bad("browser.attach", &message));
            }
            if self.driver.mode == DriverMode::Remote {
                return Err(bad(
                    "browser.attach",
                    "attaches through a driver sudobot starts: not with a remote WebDriver URL",
                ));
            }
            if self.browser.profile.is_some() {
                return Err(bad(
                    "browser.profile",
                    "is for a browser sudobot starts; an attached browser has its own",
                ));
            }
        } else if self.browser.tab == TabChoice::Current {
            return Err(bad(
                "browser.tab",
                "`current` needs `attach` (sudobot's own browser has one tab)",
            ));
        }
        if self.browser.profile.is_some() && self.driver.mode == DriverMode::Remote {
            return Err(bad(
                "browser.profile",
                "is a local directory: not with a remote WebDriver URL",
            ));
        }
        if let Some(a) = self.browser.args.iter().find(|a| !a.starts_with("--")) {
            return Err(bad("browser.args", &format!("`{a}` does not start with `--`")));
        }
        if let Some(a) = self.browser.firefox_args.first().filter(|a| !a.starts_with('-')) {
            return Err(bad("browser.firefox_args", &format!("`{a}` does not start with `-`")));
        }
        Ok(())
    }

    /// The browser.
    pub fn browser(&self) -> Browser {
        self.browser.kind
    }

    /// The local driver to spawn: `driver.driver_binary`, else the browser's own.
    pub fn driver_binary(&self) -> String {
        match &self.driver.driver_binary {
            Some(b) => b.clone(),
            None => self.browser.kind.default_driver(),
        }
    }

    /// The browser to attach to (`browser.attach`), parsed.
    pub fn attach(&self) -> Option<Attach> {
        self.browser.attach.as_deref().and_then(|a| Attach::parse(a).ok())
    }

    /// The element timeout.
    pub fn element_timeout(&self) -> Duration {
        Duration::from_millis(self.browser.element_timeout_ms)
    }
}

/// Where the user's browser listens: `9222`, `127.0.0.1:9222` or `http://127.0.0.1:9222`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attach {
    /// The host (default `127.0.0.1`).
    pub host: String,
    /// The port.
    pub port: u16,
}

/// Which tab sudobot plays in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TabChoice {
    /// A tab of its own, closed at the end (the default).
    #[default]
    New,
    /// The tab the driver attaches to (the one most recently used); left open at the end.
    Current,
}

impl Attach {
    /// Parses a port, `host:port` or an `http://host:port` URL.
    pub fn parse(text: &str) -> Result<Attach, String> {
        let text = text.trim();
        let rest = text
            .strip_prefix("http://")
            .or_else(|| text.strip_prefix("ws://"))
            .unwrap_or(text)
            .trim_end_matches('/');
        if rest.contains('/') {
            return Err(format!("`{text}`: give a port or host:port, no path"));
        }
        let (host, port) = match rest.rsplit_once(':') {
            Some((host, port)) => (host.trim_matches(['[', ']']).to_string(), port),
            None => ("127.0.0.1".to_string(), rest),
        };
        let port: u16 = match port.parse() {
            Ok(p) if p > 0 => p,
            _ => return Err(format!("`{text}` is not a port (1-65535) or host:port")),
        };
        if host.is_empty() {
            return Err(format!("`{text}`: the host is empty"));
        }
        Ok(Attach { host, port })
    }

    /// `host:port`.
    pub fn address(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_file_is_valid() {
        let c = WebDriverConfig::load(None).unwrap();
        assert_eq!(c.driver.mode, DriverMode::Local);
        assert!(c.browser.args.iter().any(|a| a == "--no-sandbox"));
        assert_eq!(c.browser(), Browser::Chromium);
        assert_eq!(c.driver_binary(), "/usr/bin/chromedriver");
    }

    #[test]
    fn the_browser_kind_picks_the_driver() {
        let text = DEFAULT_TOML.replace("kind = \"chromium\"", "kind = \"firefox\"");
        let c = WebDriverConfig::parse("w.toml", &text).unwrap();
        assert_eq!(c.browser(), Browser::Firefox);
        assert!(c.driver_binary().ends_with("geckodriver"), "{}", c.driver_binary());
        // The older key and value still mean Chromium.
        let text = DEFAULT_TOML.replace("kind = \"chromium\"", "name = \"chrome\"");
        let c = WebDriverConfig::parse("w.toml", &text).unwrap();
        assert_eq!(c.browser(), Browser::Chromium);
        let text = DEFAULT_TOML.replace("kind = \"chromium\"", "kind = \"safari\"");
        let err = WebDriverConfig::parse("w.toml", &text).unwrap_err().to_string();
        assert!(err.contains("safari") && err.contains("firefox"), "{err}");
    }

    #[test]
    fn errors_name_file_and_key() {
        let text = DEFAULT_TOML.replace("mode = \"local\"", "mode = \"remote\"");
        let err = WebDriverConfig::parse("w.toml", &text).unwrap_err().to_string();
        assert_eq!(err, "w.toml: `driver.url`: remote mode needs an http:// or https:// URL");
        let text = DEFAULT_TOML.replace("[browser]", "[browser]\nheadles = true");
        let err = WebDriverConfig::parse("w.toml", &text).unwrap_err().to_string();
        assert!(err.starts_with("w.toml: ") && err.contains("headles"), "{err}");
    }

    #[test]
    fn attach_tab_and_profile_are_checked() {
        let with = |lines: &str| DEFAULT_TOML.replace("[browser]", &format!("[browser]\n{lines}"));
        let c = WebDriverConfig::parse("w.toml", &with("attach = \"9222\"\ntab = \"current\""))
            .unwrap();
        assert_eq!(c.attach().unwrap().port, 9222);
        assert_eq!(c.browser.tab, TabChoice::Current);
        let c = WebDriverConfig::parse("w.toml", &with("profile = \"/tmp/p\"")).unwrap();
        assert_eq!(c.browser.profile.as_deref(), Some(std::path::Path::new("/tmp/p")));
        for (lines, key) in [
            ("attach = \"nope\"", "browser.attach"),
            ("attach = \"9222\"\nprofile = \"/tmp/p\"", "browser.profile"),
            ("tab = \"current\"", "browser.tab"),
        ] {
            let err = WebDriverConfig::parse("w.toml", &with(lines)).unwrap_err().to_string();
            assert!(err.contains(key), "{lines}: {err}");
        }
    }
}
