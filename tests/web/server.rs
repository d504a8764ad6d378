//! A static HTTP server for the replica pages, started inside the test process on 127.0.0.1:0.
//! Besides files it takes `POST /verdict/<page>`: the replicas' own scripts report what they
//! concluded there, so tests judge the bot by the page, not by the bot's output.
//!
//! The sudoku.name replica renders its board on the server, as the real site does, so each test
//! scenario is a page of its own: `sudoku_name*.html` are rendered from one template and the
//! [`SUDOKU_NAME_PAGES`] table (puzzle, missing cell, keys dropped, key reporting).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The running server (its thread lives until the test process ends).
pub struct FixtureServer {
    port: u16,
    verdicts: Arc<Mutex<Vec<(String, String)>>>,
    requests: Arc<(Mutex<Vec<String>>, Condvar)>,
}

impl FixtureServer {
    /// Serves `tests/fixtures/web/`.
    pub fn start() -> FixtureServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().expect("local addr").port();
        let verdicts = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&verdicts);
        let requests = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        let seen = Arc::clone(&requests);
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/web");
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (root, shared, seen) = (root.clone(), Arc::clone(&shared), Arc::clone(&seen));
                std::thread::spawn(move || {
                    let _ = handle(stream, &root, &shared, &seen);
                });
            }
        });
        FixtureServer { port, verdicts, requests }
    }

    /// The URL of a fixture file.
    pub fn url(&self, file: &str) -> String {
        format!("http://127.0.0.1:{}/{file}", self.port)
    }

    /// Waits (bounded) until a file was requested; returns whether it was.
    pub fn wait_for_request(&self, file: &str, bound: Duration) -> bool {
        let (list, changed) = &*self.requests;
        let guard = list.lock().unwrap();
        let (guard, _) = changed
            .wait_timeout_while(guard, bound, |seen| !seen.iter().any(|p| p == file))
            .unwrap();
        guard.iter().any(|p| p == file)
    }

    /// Forgets the reports so far.
    #[allow(dead_code)] // only the ignored benchmark uses it
    pub fn clear_verdicts(&self) {
        self.verdicts.lock().unwrap().clear();
    }

    /// What a page reported, in order.
    pub fn verdicts(&self, page: &str) -> Vec<String> {
        self.verdicts
            .lock()
            .unwrap()
            .iter()
            .filter(|(p, _)| p == page)
            .map(|(_, v)| v.clone())
            .collect()
    }
}

/// One sudoku.name scenario.
struct SudokuNamePage {
    /// The page name, also its verdict key.
    name: &'static str,
    /// Givens in reading order, `.` for blank.
    puzzle: &'static str,
    /// A cell (1-based) whose input is left out, for the "selector finds 80 cells" test.
    missing: Option<usize>,
    /// Cells whose first keystroke the page drops.
    drop: &'static [&'static str],
    /// Whether the page reports every key it sees (to prove nothing was typed).
    report_keys: bool,
    /// Milliseconds the page's keydown handler keeps busy per key (a slow page).
    slow: u32,
    /// Report each key with the page's clock (`at <ms> <key>`), for "no key after the signal".
    log_keys: bool,
    /// How givens are marked: `readonly`, `disabled` (readonly and disabled: not a Tab stop) or
    /// `notab` (readonly with tabindex=-1).
    given_attr: &'static str,
    /// Hostile behaviour: `trap` (a button inside the board, between two cells in Tab order),
    /// `replace` (a new puzzle on the first click), `steal` (focus jumps
    /// to the select after 10 keys), `marker` (the success text shows before anything is
    /// typed), `alert` (an alert says "solved!" when the board is complete), `confirm` (the
    /// 10th digit asks to start a new game), or empty.
    hostile: &'static str,
    /// Report `cell <id> <digit>` for every digit key a cell receives, in the page's order.
    log_cells: bool,
}

/// The defaults of a scenario page.
const BASE: SudokuNamePage = SudokuNamePage {
    name: "",
    puzzle: PUZZLE,
    missing: None,
    drop: &[],
    report_keys: false,
    slow: 0,
    log_keys: false,
    given_attr: "readonly",
    hostile: "",
    log_cells: false,
};

/// A puzzle with 30 givens and 51 blanks (the latency notes' fixture).
pub const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The first 16 givens of [`PUZZLE`].
const SIXTEEN: &str =
    "53..7....6..195....98....6.8...6...34..8.3.......................................";

const SUDOKU_NAME_PAGES: &[SudokuNamePage] = &[
    SudokuNamePage { name: "sudoku_name", ..BASE },
    SudokuNamePage { name: "sudoku_name_drop", drop: &["c3", "c38", "c79"], ..BASE },
    SudokuNamePage { name: "sudoku_name_80", missing: Some(81), ..BASE },
    // Two 5s in row 1 (r1c1 and r1c3).
    SudokuNamePage {
        name: "sudoku_name_invalid",
        puzzle: "535.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        report_keys: true,
        ..BASE
    },
    // The top band emptied: several solutions.
    SudokuNamePage {
        name: "sudoku_name_multiple",
        puzzle: "...........................8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        report_keys: true,
        ..BASE
    },
    // 16 givens: always several solutions, never "not ready".
    SudokuNamePage { name: "sudoku_name_16", puzzle: SIXTEEN, report_keys: true, ..BASE },
    // A slow page (a fill lasts several seconds) that logs every key with its own clock, and
    // which cell got which digit.
    SudokuNamePage { name: "sudoku_name_slow", slow: 40, log_keys: true, log_cells: true, ..BASE },
    // Givens that are not Tab stops: Tab would run past the board.
    SudokuNamePage { name: "sudoku_name_disabled", given_attr: "disabled", ..BASE },
    SudokuNamePage { name: "sudoku_name_notab", given_attr: "notab", ..BASE },
    // A button inside the board: Tab would pass it, so every cell is clicked instead.
    SudokuNamePage { name: "sudoku_name_trap", hostile: "trap", ..BASE },
    SudokuNamePage { name: "sudoku_name_replace", hostile: "replace", report_keys: true, ..BASE },
    SudokuNamePage { name: "sudoku_name_steal", hostile: "steal", ..BASE },
    SudokuNamePage { name: "sudoku_name_marker", hostile: "marker", ..BASE },
    SudokuNamePage { name: "sudoku_name_alert", hostile: "alert", ..BASE },
    SudokuNamePage { name: "sudoku_name_confirm", hostile: "confirm", ..BASE },
    SudokuNamePage { name: "sudoku_name_confirm_last", hostile: "confirm-last", ..BASE },
    // Which cell got which digit, in order (show-thinking's order).
    SudokuNamePage { name: "sudoku_name_cells", log_cells: true, ..BASE },
];

/// Renders a sudoku.name scenario page from the template, or `None` for other paths.
fn sudoku_name_page(root: &std::path::Path, path: &str) -> Option<Vec<u8>> {
    let page = SUDOKU_NAME_PAGES.iter().find(|p| path == format!("{}.html", p.name))?;
    let template = std::fs::read_to_string(root.join("sudoku_name.template.html")).ok()?;
    let mut rows = Vec::new();
    for row in page.puzzle.as_bytes().chunks(9).enumerate().map(|(r, cells)| {
        let tds: String = cells
            .iter()
            .enumerate()
            .map(|(c, &v)| {
                let n = r * 9 + c + 1;
                if page.missing == Some(n) {
                    return format!("<td id=\"cell{n}\"></td>");
                }
                let mark = match page.given_attr {
                    "disabled" => " readonly=\"true\" disabled",
                    "notab" => " readonly=\"true\" tabindex=\"-1\"",
                    _ => " readonly=\"true\"",
                };
                let given = if v == b'.' {
                    String::new()
                } else {
                    format!("{mark} value=\"{}\"", v as char)
                };
                format!(
                    "<td id=\"cell{n}\"><input style=\"color: #000;\" class=\"i3\" id=\"c{n}\" \
                     maxlength=\"1\"{given}><textarea id=\"cpad{n}\" class=\"pad\" \
                     style=\"display:none\"></textarea></td>"
                )
            })
            .collect();
        format!("  <tr>{tds}</tr>")
    }) {
        rows.push(row);
    }
    let drop: Vec<String> = page.drop.iter().map(|id| format!("'{id}'")).collect();
    let replica = format!(
        "{{page: '{}', drop: [{}], reportKeys: {}, slow: {}, logKeys: {}, hostile: '{}', \
         logCells: {}}}",
        page.name,
        drop.join(", "),
        page.report_keys,
        page.slow,
        page.log_keys,
        page.hostile,
        page.log_cells
    );
    Some(
        template
            .replace("{{ROWS}}", &rows.join("\n"))
            .replace("{{REPLICA}}", &replica)
            .into_bytes(),
    )
}

fn handle(
    mut stream: TcpStream,
    root: &std::path::Path,
    verdicts: &Mutex<Vec<(String, String)>>,
    seen: &(Mutex<Vec<String>>, Condvar),
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut words = head.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    let path = target.split('?').next().unwrap_or("/").trim_start_matches('/');
    seen.0.lock().unwrap().push(path.to_string());
    seen.1.notify_all();
    if method == "POST" {
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            })
            .and_then(|(_, v)| v.trim().parse().ok())
            .unwrap_or(0);
        let mut body = buf[head_end..].to_vec();
        while body.len() < length {
            let n = stream.read(&mut chunk)?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
        // The demo page reports to `/verdict`; served here, it is the page `demo`.
        let page = if path == "verdict" { Some("demo") } else { path.strip_prefix("verdict/") };
        if let Some(page) = page {
            verdicts
                .lock()
                .unwrap()
                .push((page.to_string(), String::from_utf8_lossy(&body).to_string()));
        }
        return reply(&mut stream, "204 No Content", "text/plain", b"");
    }
    if path == "hang" {
        // A page load that never finishes: hold the connection until the client goes away.
        let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
        let _ = stream.read(&mut chunk);
        return Ok(());
    }
    if let Some(page) = path.strip_prefix("renamed/").and_then(|rest| renamed_page(root, rest)) {
        let kind =
            if path.ends_with(".js") { "text/javascript" } else { "text/html; charset=utf-8" };
        return reply(&mut stream, "200 OK", kind, &page);
    }
    if let Some(page) = sudoku_name_page(root, path) {
        return reply(&mut stream, "200 OK", "text/html; charset=utf-8", &page);
    }
    let file = root.join(path);
    match (path.contains(".."), std::fs::read(&file)) {
        (false, Ok(bytes)) => {
            let kind =
                if path.ends_with(".js") { "text/javascript" } else { "text/html; charset=utf-8" };
            reply(&mut stream, "200 OK", kind, &bytes)
        }
        _ => reply(&mut stream, "404 Not Found", "text/plain", b"not found"),
    }
}

/// What each built-in site's replica renames when served under `renamed/<site>/`: the classes
/// and ids its site file's selectors use, renamed throughout the page (markup, style and script
/// alike), as when a site changes its front end. The page still works and still judges itself.
pub const RENAMES: &[(&str, &[(&str, &str)])] = &[
    (
        "demo",
        &[
            ("cell-", "sq-"),
            ("board\"", "playfield\""),
            ("'board'", "'playfield'"),
            ("#board", "#playfield"),
        ],
    ),
    ("sudoku.name", &[("sudoku_main_board", "grid_of_the_day")]),
    ("sudokupuzzle.org", &[("class=\"sd\"", "class=\"grid9\""), ("table.sd", "table.grid9")]),
    ("websudoku.com", &[("puzzle_grid", "grid_today")]),
    ("sudokuonline.eu", &[("id=\"p", "id=\"q"), ("'p' +", "'q' +")]),
    ("nytimes", &[("su-cell", "sb-square")]),
    ("puzzle-sudoku.com", &[("game", "playfield")]),
    ("sudoku.com", &[("id=\"game\"", "id=\"playfield\""), ("#game ", "#playfield ")]),
];

/// A replica under `renamed/<site>/<file>`, with the site's renames applied.
fn renamed_page(root: &std::path::Path, rest: &str) -> Option<Vec<u8>> {
    let (site, file) = rest.split_once('/')?;
    let (_, renames) = RENAMES.iter().find(|(s, _)| *s == site)?;
    let text = if site == "demo" && file == "play" {
        demo_page()
    } else if let Some(page) = sudoku_name_page(root, file) {
        String::from_utf8(page).ok()?
    } else if file.contains("..") {
        return None;
    } else {
        std::fs::read_to_string(root.join(file)).ok()?
    };
    Some(renames.iter().fold(text, |t, (from, to)| t.replace(from, to)).into_bytes())
}

/// The demo site's page for one fixed puzzle, as sudobot's own server renders it.
fn demo_page() -> String {
    let puzzle =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";
    let grid = sudobot::format::line::parse(puzzle).expect("a 9x9 puzzle");
    sudobot::web::demo::render_page(&grid, 2)
}

fn reply(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)
}

#[test]
fn sudoku_name_pages_render_from_the_template() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/web");
    for page in SUDOKU_NAME_PAGES {
        let html = sudoku_name_page(&root, &format!("{}.html", page.name)).expect("a page");
        let html = String::from_utf8(html).expect("UTF-8");
        let cells = if page.missing.is_some() { 80 } else { 81 };
        assert_eq!(html.matches("class=\"i3\"").count(), cells, "{}", page.name);
        let givens = page
            .puzzle
            .bytes()
            .enumerate()
            .filter(|&(i, b)| b != b'.' && page.missing != Some(i + 1))
            .count();
        assert_eq!(html.matches("readonly=\"true\"").count(), givens, "{}", page.name);
        let marked = match page.given_attr {
            "disabled" => " disabled",
            "notab" => "tabindex=\"-1\"",
            _ => "readonly",
        };
        assert_eq!(html.matches(marked).count(), givens, "{}", page.name);
        assert!(html.contains(&format!("{{page: '{}',", page.name)), "{}", page.name);
        assert_eq!(page.puzzle.len(), 81, "{}", page.name);
    }
}
