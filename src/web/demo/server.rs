//! The demo page's HTTP server, on hyper (HTTP/1.1) over the tokio runtime the bot already runs.
//! Routes: `GET /` and `GET /play?difficulty=N` serve a fresh puzzle; `POST /verdict` records
//! what the page's own script concluded (tests read it through [`DemoServer::verdicts`]).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use super::generate::generate;
use crate::grid::Grid;

const PAGE: &str = include_str!("page.html");

/// A running demo server; dropping it stops accepting connections.
pub struct DemoServer {
    addr: SocketAddr,
    verdicts: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

/// What every connection shares.
struct State {
    rng: Mutex<fastrand::Rng>,
    verdicts: Arc<Mutex<Vec<String>>>,
}

impl DemoServer {
    /// Binds 127.0.0.1 on a free port and serves in the background (needs a tokio runtime).
    pub async fn start() -> std::io::Result<DemoServer> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let verdicts = Arc::new(Mutex::new(Vec::new()));
        let state = Arc::new(State {
            rng: Mutex::new(fastrand::Rng::new()),
            verdicts: Arc::clone(&verdicts),
        });
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let state = Arc::clone(&state);
                tokio::spawn(async move {
                    let service = service_fn(move |req| {
                        let state = Arc::clone(&state);
                        async move { Ok::<_, Infallible>(route(req, &state).await) }
                    });
                    let conn = http1::Builder::new()
                        .header_read_timeout(Duration::from_secs(10))
                        .timer(hyper_util::rt::TokioTimer::new())
                        .serve_connection(TokioIo::new(stream), service);
                    // A slow or broken client only loses its own connection.
                    if let Err(e) = conn.await {
                        tracing::debug!("demo server connection: {e}");
                    }
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

async fn route(req: Request<Incoming>, state: &State) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_string();
    match (req.method(), path.as_str()) {
        (&Method::GET, "/" | "/play") => {
            let level = req
                .uri()
                .query()
                .unwrap_or("")
                .split('&')
                .find_map(|kv| kv.strip_prefix("difficulty="))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(2)
                .clamp(1, 5);
            let puzzle = {
                let mut rng = state.rng.lock().unwrap_or_else(|p| p.into_inner());
                generate(level, &mut rng).0
            };
            respond(StatusCode::OK, "text/html; charset=utf-8", render_page(&puzzle, level))
        }
        (&Method::POST, "/verdict") => match Limited::new(req.into_body(), 4096).collect().await {
            Ok(body) => {
                let text = String::from_utf8_lossy(&body.to_bytes()).to_string();
                if let Ok(mut v) = state.verdicts.lock() {
                    v.push(text);
                }
                respond(StatusCode::NO_CONTENT, "text/plain", String::new())
            }
            Err(_) => respond(StatusCode::PAYLOAD_TOO_LARGE, "text/plain", String::new()),
        },
        (&Method::GET, "/favicon.ico") => {
            respond(StatusCode::NO_CONTENT, "text/plain", String::new())
        }
        _ => respond(StatusCode::NOT_FOUND, "text/plain", "not found\n".to_string()),
    }
}

fn respond(status: StatusCode, kind: &str, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Ok(v) = kind.parse() {
        headers.insert(hyper::header::CONTENT_TYPE, v);
    }
    headers
        .insert(hyper::header::CACHE_CONTROL, hyper::header::HeaderValue::from_static("no-store"));
    response
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
