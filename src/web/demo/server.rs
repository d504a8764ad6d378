//! A tiny HTTP/1.1 server for the demo page (one request per connection, then close). Routes:
//! `GET /` and `GET /play?difficulty=N` serve a fresh puzzle; `POST /verdict` records what the
//! page's own script concluded (tests read it through [`DemoServer::verdicts`]).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use super::generate::{Rng, generate};
use crate::grid::Grid;

const PAGE: &str = include_str!("page.html");

/// A running demo server; dropping it stops accepting connections.
pub struct DemoServer {
    addr: SocketAddr,
    verdicts: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl DemoServer {
    /// Binds 127.0.0.1 on a free port and serves in the background (needs a tokio runtime).
    pub async fn start() -> std::io::Result<DemoServer> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let verdicts = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&verdicts);
        let task = tokio::spawn(async move {
            let rng = Arc::new(Mutex::new(Rng::from_entropy()));
            while let Ok((stream, _)) = listener.accept().await {
                let (rng, verdicts) = (Arc::clone(&rng), Arc::clone(&shared));
                tokio::spawn(async move {
                    // A slow or broken client only loses its own connection.
                    let _ =
                        tokio::time::timeout(Duration::from_secs(10), serve(stream, rng, verdicts))
                            .await;
                });
            }
        });
        Ok(DemoServer { addr, verdicts, task })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// What the page's script reported so far (`solved`, or `untrusted` for script-set values).
    pub fn verdicts(&self) -> Vec<String> {
        self.verdicts.lock().map(|v| v.clone()).unwrap_or_default()
    }
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(
    mut stream: TcpStream,
    rng: Arc<Mutex<Rng>>,
    verdicts: Arc<Mutex<Vec<String>>>,
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    let head_end = loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
        if buf.len() > 32 * 1024 {
            return respond(&mut stream, "431 Request Header Fields Too Large", "text/plain", "")
                .await;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut parts = head.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match (method, path) {
        ("GET", "/") | ("GET", "/play") => {
            let level = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("difficulty="))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(2)
                .clamp(1, 5);
            let puzzle = {
                let mut rng = rng.lock().unwrap_or_else(|p| p.into_inner());
                generate(level, &mut rng).0
            };
            respond(&mut stream, "200 OK", "text/html; charset=utf-8", &render_page(&puzzle, level))
                .await
        }
        ("POST", "/verdict") => {
            let length = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0)
                .min(4096);
            let mut body = buf[head_end..].to_vec();
            while body.len() < length {
                let n = stream.read(&mut chunk).await?;
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
            body.truncate(length);
            if let Ok(mut v) = verdicts.lock() {
                v.push(String::from_utf8_lossy(&body).to_string());
            }
            respond(&mut stream, "204 No Content", "text/plain", "").await
        }
        ("GET", "/favicon.ico") => respond(&mut stream, "204 No Content", "text/plain", "").await,
        _ => respond(&mut stream, "404 Not Found", "text/plain", "not found\n").await,
    }
}

async fn respond(
    stream: &mut TcpStream,
    status: &str,
    kind: &str,
    body: &str,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}

/// The page for a puzzle (9x9): ids `cell-{row}-{col}` (1-based), givens `readonly` with a
/// `value` attribute, blanks without one.
pub fn render_page(puzzle: &Grid, level: usize) -> String {
    let mut rows = String::new();
    for r in 0..9 {
        rows.push_str("<tr>");
        for c in 0..9 {
            let id = format!("cell-{}-{}", r + 1, c + 1);
            match puzzle.get(r * 9 + c) {
                Some(v) => rows.push_str(&format!(
                    "<td><input class=\"cell\" id=\"{id}\" maxlength=\"1\" autocomplete=\"off\" readonly value=\"{v}\"></td>"
                )),
                None => rows.push_str(&format!(
                    "<td><input class=\"cell\" id=\"{id}\" maxlength=\"1\" autocomplete=\"off\" inputmode=\"numeric\"></td>"
                )),
            }
        }
        rows.push_str("</tr>\n");
    }
    PAGE.replace("{{ROWS}}", &rows)
        .replace("{{LEVEL}}", &level.to_string())
        .replace("{{BLANKS}}", &(81 - puzzle.filled()).to_string())
}
