//! Playing in a browser the user already runs (`sudobot web --attach URL-or-PORT`).
//!
//! - Chromium (or Chrome) started with `--remote-debugging-port=N`: its DevTools HTTP endpoint
//!   answers `/json/version`. sudobot opens its own tab there (`/json/new`), starts chromedriver
//!   with `goog:chromeOptions.debuggerAddress`, plays in that tab, and closes it again through
//!   the same endpoint (`/json/close/ID`), which needs no driver: the tab goes on every path,
//!   also after the driver was killed or a signal killed it.
//! - Firefox started with `-marionette`: Marionette greets every connection with a line naming
//!   `gecko`. geckodriver attaches with `--connect-existing --marionette-port N`, sudobot opens
//!   a tab through WebDriver (New Window) and closes it through WebDriver; when the driver is
//!   gone by then (killed, or stopped by a signal) a fresh geckodriver attaches just to close
//!   it (Marionette's window handles stay the same across sessions).
//!
//! Nothing else of the user's browser is touched: no session is deleted (chromedriver and
//! geckodriver would close or quit what they think they own), no window is resized, no
//! argument, preference or profile is given, and the driver is killed at the end, never the
//! browser (it is not in the driver's process group).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::config::Browser;
use super::poll::poll_blocking;

pub use super::config::{Attach, TabChoice};

/// How to start a browser sudobot can attach to on `port`: the command line in backquotes, and
/// for Firefox on another port than Marionette's own, the preference that moves it.
pub fn start_command(browser: Browser, port: u16) -> String {
    match browser {
        Browser::Chromium => format!(
            "`chromium --remote-debugging-port={port} --user-data-dir=$HOME/.config/chromium-sudobot`"
        ),
        Browser::Firefox if port == 2828 => "`firefox -marionette`".to_string(),
        Browser::Firefox => {
            format!("`firefox -marionette` with `marionette.port` set to {port} in about:config")
        }
    }
}

/// What answers at the attach address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// Chromium's DevTools endpoint, with the browser's name and version.
    Chromium(String),
    /// Firefox's Marionette.
    Firefox,
}

/// Why attaching failed before any driver started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    /// What was asked.
    pub reason: String,
}

/// Looks at what listens at `at`: Chromium's DevTools (`/json/version`), or Marionette (its
/// greeting), each look bounded by `bound`.
pub fn probe(at: &Attach, bound: Duration) -> Result<Found, NotFound> {
    match http(at, "GET", "/json/version", bound) {
        Ok((200, body)) => {
            let v: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            let name = v["Browser"].as_str().unwrap_or("Chromium").to_string();
            if name.starts_with("Firefox") {
                return Err(NotFound {
                    reason: format!(
                        "{name} answers there with its remote agent (WebDriver BiDi), which \
                         geckodriver cannot attach to; start Firefox with -marionette instead"
                    ),
                });
            }
            return Ok(Found::Chromium(name));
        }
        Ok((status, _)) => {
            return Err(NotFound {
                reason: format!("an HTTP server answers /json/version with {status}, not DevTools"),
            });
        }
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            return Err(NotFound { reason: "nothing listens there (connection refused)".into() });
        }
        Err(_) => {}
    }
    // Marionette speaks first: `50:{"applicationType":"gecko","marionetteProtocol":3}`.
    match greeting(at, bound) {
        Ok(text) if text.contains("gecko") || text.contains("marionette") => Ok(Found::Firefox),
        Ok(text) if text.is_empty() => Err(NotFound {
            reason: "something listens there but is neither Chromium's DevTools nor Firefox's \
                     Marionette (no answer)"
                .into(),
        }),
        Ok(text) => Err(NotFound {
            reason: format!(
                "something listens there but is neither Chromium's DevTools nor Firefox's \
                 Marionette (it said {:?})",
                text.chars().take(60).collect::<String>()
            ),
        }),
        Err(e) => Err(NotFound { reason: e.to_string() }),
    }
}

fn connect(at: &Attach, bound: Duration) -> std::io::Result<TcpStream> {
    let addr = (at.host.as_str(), at.port)
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::other(format!("{} has no address", at.host)))?;
    let stream = TcpStream::connect_timeout(&addr, bound)?;
    stream.set_read_timeout(Some(bound))?;
    stream.set_write_timeout(Some(bound))?;
    Ok(stream)
}

/// What the server says first, within `bound` (empty when it says nothing).
fn greeting(at: &Attach, bound: Duration) -> std::io::Result<String> {
    let mut stream = connect(at, bound)?;
    let mut buf = [0u8; 256];
    match stream.read(&mut buf) {
        Ok(n) => Ok(String::from_utf8_lossy(&buf[..n]).to_string()),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Ok(String::new())
        }
        Err(e) => Err(e),
    }
}

/// One HTTP/1.1 request to the DevTools endpoint (plain, bounded; blocking for at most about
/// `bound` twice). Returns the status and the body.
pub fn http(
    at: &Attach,
    method: &str,
    path: &str,
    bound: Duration,
) -> std::io::Result<(u16, String)> {
    let started = Instant::now();
    let mut stream = connect(at, bound)?;
    // DevTools answers HTTP/1.1 only (1.0 gets the connection closed) and accepts only an IP
    // address or `localhost` as the Host.
    let length = if method == "GET" { "" } else { "Content-Length: 0\r\n" };
    let request = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n{length}\r\n", at.address());
    stream.write_all(request.as_bytes())?;
    let mut raw = Vec::new();
    let mut chunk = [0u8; 8192];
    // DevTools keeps the connection open: the answer ends at its Content-Length.
    let complete = |raw: &[u8]| -> Option<(u16, String)> {
        let end = raw.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
        let head = String::from_utf8_lossy(&raw[..end]).to_string();
        let status: u16 = head.split_whitespace().nth(1)?.parse().ok()?;
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            })
            .and_then(|(_, v)| v.trim().parse().ok())?;
        (raw.len() >= end + length)
            .then(|| (status, String::from_utf8_lossy(&raw[end..end + length]).to_string()))
    };
    loop {
        if let Some(answer) = complete(&raw) {
            return Ok(answer);
        }
        if started.elapsed() > bound * 2 || raw.len() > 4 << 20 {
            break;
        }
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            Err(e) => return Err(e),
        }
    }
    // Closed without a length: the body is what came.
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("not an HTTP answer"))?;
    Ok((status, body.to_string()))
}

/// A page target of Chromium's `/json/list`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The target id (chromedriver's window handle).
    pub id: String,
    /// Its URL.
    pub url: String,
}

/// The page targets (tabs) of a Chromium, most recently used first.
pub fn tabs(at: &Attach, bound: Duration) -> std::io::Result<Vec<Target>> {
    let (status, body) = http(at, "GET", "/json/list", bound)?;
    if status != 200 {
        return Err(std::io::Error::other(format!("/json/list answered {status}")));
    }
    let list: Vec<serde_json::Value> =
        serde_json::from_str(&body).map_err(std::io::Error::other)?;
    Ok(list
        .iter()
        .filter(|t| t["type"] == "page")
        .filter_map(|t| {
            Some(Target { id: t["id"].as_str()?.to_string(), url: t["url"].as_str()?.to_string() })
        })
        .collect())
}

/// Opens a new blank tab in a Chromium and returns its target id.
pub fn open_tab(at: &Attach, bound: Duration) -> std::io::Result<String> {
    let (status, body) = http(at, "PUT", "/json/new?about:blank", bound)?;
    if status != 200 {
        return Err(std::io::Error::other(format!("/json/new answered {status}: {}", body.trim())));
    }
    let v: serde_json::Value = serde_json::from_str(&body).map_err(std::io::Error::other)?;
    let id = v["id"].as_str().ok_or_else(|| std::io::Error::other("/json/new gave no id"))?;
    let id = id.to_string();
    if let Ok(mut open) = OPEN.lock() {
        open.push((at.clone(), id.clone()));
    }
    Ok(id)
}

/// Closes a tab sudobot opened in a Chromium (never another) and waits (bounded) until
/// `/json/list` no longer lists it (Chromium answers before the tab is gone); true when it is
/// gone.
pub fn close_tab(at: &Attach, id: &str, bound: Duration) -> bool {
    if let Ok(mut open) = OPEN.lock() {
        open.retain(|(a, i)| !(a == at && i == id));
    }
    let start = Instant::now();
    match http(at, "GET", &format!("/json/close/{id}"), bound) {
        Ok((200, _)) => {}
        Ok((status, body)) => tracing::debug!("/json/close/{id}: {status} {}", body.trim()),
        Err(e) => {
            tracing::warn!("cannot close sudobot's tab {id} at {}: {e}", at.address());
            return false;
        }
    }
    // The bound counts from the close asked.
    let left = bound.saturating_sub(start.elapsed());
    let gone = poll_blocking(left, Duration::from_millis(20), "sudobot's tab to close", |_| {
        match tabs(at, bound).map(|t| t.iter().any(|t| t.id == id)) {
            Ok(false) => Ok(Some(())),
            Ok(true) => Ok(None),
            Err(e) => Err(e),
        }
    });
    match gone {
        Ok(()) => {
            tracing::debug!(id, elapsed = ?start.elapsed(), "closed sudobot's tab");
            true
        }
        Err(_) => {
            tracing::warn!("sudobot's tab {id} at {} did not close", at.address());
            false
        }
    }
}

/// The Chromium tabs sudobot opened and has not closed yet (for the second-signal path).
static OPEN: Mutex<Vec<(Attach, String)>> = Mutex::new(Vec::new());

/// The second-signal path: closes every tab sudobot opened in a Chromium, each bounded by
/// 300 ms. Never blocks on a lock held elsewhere.
pub fn close_all_now() {
    let open: Vec<(Attach, String)> = match OPEN.try_lock() {
        Ok(o) => o.clone(),
        Err(_) => return,
    };
    for (at, id) in open {
        close_tab(&at, &id, Duration::from_millis(300));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_hosts_and_urls_parse() {
        let local = |port| Attach { host: "127.0.0.1".into(), port };
        assert_eq!(Attach::parse("9222"), Ok(local(9222)));
        assert_eq!(Attach::parse("127.0.0.1:9333"), Ok(local(9333)));
        assert_eq!(Attach::parse("http://127.0.0.1:9222/"), Ok(local(9222)));
        assert_eq!(Attach::parse("localhost:2828").unwrap().host, "localhost");
        assert_eq!(Attach::parse("[::1]:9222").unwrap().address(), "[::1]:9222");
        for bad in ["", "0", "99999", "x", "http://h:1/json", ":9222", "host:"] {
            assert!(Attach::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_start_command_names_the_flag() {
        assert!(start_command(Browser::Chromium, 9222).contains("--remote-debugging-port=9222"));
        assert_eq!(start_command(Browser::Firefox, 2828), "`firefox -marionette`");
        assert!(start_command(Browser::Firefox, 2900).contains("marionette.port"));
    }

    #[test]
    fn nothing_listening_is_said_so() {
        // A port that was free a moment ago.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let at = Attach { host: "127.0.0.1".into(), port };
        let err = probe(&at, Duration::from_secs(1)).unwrap_err();
        assert!(err.reason.contains("nothing listens"), "{}", err.reason);
    }

    #[test]
    fn a_silent_server_is_neither_browser() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let at = Attach { host: "127.0.0.1".into(), port };
        // Accepts and says nothing: the HTTP look times out, the greeting is empty.
        let keep = std::thread::spawn(move || {
            let a = listener.accept();
            let b = listener.accept();
            std::thread::sleep(Duration::from_millis(800));
            drop((a, b));
        });
        let err = probe(&at, Duration::from_millis(300)).unwrap_err();
        assert!(err.reason.contains("neither"), "{}", err.reason);
        keep.join().unwrap();
    }
}
