//! The pixel reader on boards rendered by headless Chromium: `tests/fixtures/pixels/boards.html`
//! draws boards with HTML and CSS in system fonts (through fontconfig), Chromium takes one
//! screenshot of a page of them, and each board's region is cut out and read. Most fonts are
//! ones the digit templates were not built from (URW base35 and FreeFont; DejaVu and
//! Liberation are there as the built-from control). Every board must be read exactly (values,
//! given or entry, pencil-marked cells empty) or refused; a certain wrong digit fails.
//!
//! The default test renders a representative set on one page; `chromium_accuracy` (ignored,
//! a report) renders the whole matrix:
//! `cargo test --release --test integration pixels_chromium::chromium_accuracy -- --ignored --nocapture`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudobot::pixels::{self, CellKind, RgbaImage};

const CHROMIUM: &str = "/usr/bin/chromium";

/// Families the digit templates were built from (`examples/pixel_templates.rs`), used here as
/// the control.
const BUILT_FROM: &[&str] = &["DejaVu Sans", "DejaVu Serif", "Liberation Sans", "Liberation Serif"];

/// Families the templates never saw (Debian's fonts-urw-base35 and fonts-freefont-ttf, which
/// `.ci/deps test` installs).
const HELD_OUT: &[&str] = &[
    "Nimbus Sans",
    "Nimbus Roman",
    "Nimbus Mono PS",
    "C059",
    "P052",
    "URW Bookman",
    "URW Gothic",
    "FreeSans",
    "FreeSerif",
    "FreeMono",
    "Z003",
];

/// The widest page Chromium draws, and the tallest before another page is started.
const PAGE_WIDTH: usize = 2000;
const PAGE_HEIGHT: usize = 2400;

/// What a cell of a rendered board holds.
#[derive(Clone, Debug, PartialEq)]
enum Want {
    Empty,
    Given(u8),
    Entry(u8),
    Pencil(String),
}

/// One board to render: how it is drawn, and the image changes made after the screenshot.
#[derive(Clone, Debug)]
struct Spec {
    font: &'static str,
    bold: bool,
    side: usize,
    bw: usize,
    bh: usize,
    cell: usize,
    dark: bool,
    thin: usize,
    thick: usize,
    /// Given and entry colours (hex), the theme's when `None`.
    colours: Option<(&'static str, &'static str)>,
    /// A selected cell, and whether its row, column and box are tinted too.
    sel: Option<usize>,
    peers: bool,
    /// Drawn inside a screen with a score, a level, a timer and a number pad.
    shot: bool,
    /// Pasted on a dark desktop four times its area (after the screenshot, before any JPEG).
    desktop: bool,
    /// Re-encoded as JPEG at this quality before reading.
    jpeg: Option<u8>,
    seed: u64,
}

impl Spec {
    fn new(font: &'static str, side: usize, cell: usize, seed: u64) -> Spec {
        let (bw, bh) = match side {
            4 => (2, 2),
            6 => (3, 2),
            _ => (3, 3),
        };
        Spec {
            font,
            bold: false,
            side,
            bw,
            bh,
            cell,
            dark: false,
            thin: 1,
            thick: 3,
            colours: None,
            sel: Some((seed as usize * 7) % (side * side)),
            peers: false,
            shot: false,
            desktop: false,
            jpeg: None,
            seed,
        }
    }

    fn name(&self) -> String {
        let mut s = format!(
            "{}{} {}x{} boxes {}x{}, {} px cells, lines {}/{}, {}",
            self.font,
            if self.bold { " bold" } else { "" },
            self.side,
            self.side,
            self.bw,
            self.bh,
            self.cell,
            self.thin,
            self.thick,
            if self.dark { "dark" } else { "light" },
        );
        if let Some((g, e)) = self.colours {
            let _ = write!(s, ", given #{g} entry #{e}");
        }
        if self.peers {
            s.push_str(", peers tinted");
        }
        if self.shot {
            s.push_str(", in a screenshot");
        }
        if self.desktop {
            s.push_str(", on a dark desktop");
        }
        if let Some(q) = self.jpeg {
            let _ = write!(s, ", JPEG q{q}");
        }
        s
    }

    /// The cells, pseudo-random from the seed: about 30% givens, 10% entries, 12% pencil
    /// marks (the rest empty).
    fn cells(&self) -> Vec<Want> {
        let mut rng = fastrand::Rng::with_seed(self.seed);
        let side = self.side as u8;
        (0..self.side * self.side)
            .map(|_| {
                let v = rng.u8(1..=side);
                match rng.u8(0..100) {
                    0..30 => Want::Given(v),
                    30..40 => Want::Entry(v),
                    40..52 => {
                        let mut marks: String = (1..=side)
                            .filter(|_| rng.bool())
                            .map(|d| char::from(b'0' + d))
                            .collect();
                        if marks.is_empty() {
                            marks.push(char::from(b'0' + v));
                        }
                        Want::Pencil(marks)
                    }
                    _ => Want::Empty,
                }
            })
            .collect()
    }

    /// The board's side in pixels (as `boards.html` lays it out).
    fn board_px(&self, step: usize) -> usize {
        let thick = self.side / step + 1;
        self.side * self.cell + thick * self.thick + (self.side + 1 - thick) * self.thin
    }

    /// The region the board is drawn in: width and height.
    fn region(&self) -> (usize, usize) {
        let (w, h) = (self.board_px(self.bw), self.board_px(self.bh));
        if self.shot {
            // a score line of 56 px above, a number pad (44 px a key) below
            ((w + 20).max(20 + self.side * 44).max(400), 56 + h + 20 + 40 + 16)
        } else {
            (w + 20, h + 20)
        }
    }

    /// The board's parameters for `boards.html`, placed at (x, y).
    fn query(&self, x: usize, y: usize) -> String {
        let cells = self.cells();
        let p: String = cells
            .iter()
            .map(|c| match c {
                Want::Given(v) => char::from(b'0' + v),
                Want::Entry(v) => char::from(b'a' + v - 1),
                _ => '.',
            })
            .collect();
        let marks: Vec<String> = cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                Want::Pencil(m) => Some(format!("{i}:{m}")),
                _ => None,
            })
            .collect();
        let (w, h) = self.region();
        let mut q = url::form_urlencoded::Serializer::new(String::new());
        q.append_pair("p", &p)
            .append_pair("m", &marks.join(","))
            .append_pair("box", &format!("{}x{}", self.bw, self.bh))
            .append_pair("font", self.font)
            .append_pair("weight", if self.bold { "bold" } else { "normal" })
            .append_pair("cell", &self.cell.to_string())
            .append_pair("theme", if self.dark { "dark" } else { "light" })
            .append_pair("thin", &self.thin.to_string())
            .append_pair("thick", &self.thick.to_string())
            .append_pair("x", &x.to_string())
            .append_pair("y", &y.to_string())
            .append_pair("w", &w.to_string())
            .append_pair("h", &h.to_string());
        if let Some((g, e)) = self.colours {
            q.append_pair("given", g).append_pair("entry", e);
        }
        if let Some(s) = self.sel {
            q.append_pair("sel", &s.to_string());
        }
        if self.peers {
            q.append_pair("peers", "1");
        }
        if self.shot {
            q.append_pair("shot", "1");
        }
        q.finish()
    }
}

/// How a board read went.
#[derive(Debug)]
enum Outcome {
    /// Every cell read right.
    Exact,
    /// The reader refused the board, or left cells uncertain (which refuses it): why.
    Refused(String),
    /// A certain wrong read: the board would be solved wrong.
    Wrong(String),
}

/// Cells right, misread and uncertain of one read, with the outcome.
struct Scored {
    right: usize,
    wrong: usize,
    unsure: usize,
    outcome: Outcome,
}

fn score(spec: &Spec, image: &RgbaImage) -> Scored {
    let cells = spec.cells();
    let n = cells.len();
    let board = match image.view().and_then(pixels::read) {
        Ok(b) => b,
        Err(e) => {
            return Scored {
                right: 0,
                wrong: 0,
                unsure: n,
                outcome: Outcome::Refused(e.to_string()),
            };
        }
    };
    let b = &board.board;
    if (b.side, b.box_width, b.box_height) != (spec.side, spec.bw, spec.bh) {
        let why =
            format!("read as {}x{} with boxes {}x{}", b.side, b.side, b.box_width, b.box_height);
        return Scored { right: 0, wrong: n, unsure: 0, outcome: Outcome::Wrong(why) };
    }
    let (mut right, mut wrong, mut unsure) = (0, 0, 0);
    let mut notes = Vec::new();
    for (i, (c, want)) in board.cells.iter().zip(&cells).enumerate() {
        let (value, entry) = match want {
            Want::Given(v) => (Some(*v), false),
            Want::Entry(v) => (Some(*v), true),
            _ => (None, false),
        };
        let at = format!("r{}c{}", i / spec.side + 1, i % spec.side + 1);
        if !c.is_certain() {
            unsure += 1;
            notes.push(format!(
                "{at} drawn {want:?} read {:?} {:?} at {:.2}",
                c.kind, c.value, c.confidence
            ));
        } else if c.value == value && (value.is_none() || (c.kind == CellKind::Entry) == entry) {
            right += 1;
        } else {
            wrong += 1;
            notes.push(format!(
                "MISREAD {at} drawn {want:?} read {:?} {:?} at {:.2}",
                c.kind, c.value, c.confidence
            ));
        }
    }
    let outcome = if wrong > 0 {
        Outcome::Wrong(format!("{}\n{board}", notes.join("; ")))
    } else if unsure > 0 {
        assert!(board.grid().is_err(), "uncertain cells refuse the board");
        Outcome::Refused(format!("{unsure} uncertain: {}", notes.join("; ")))
    } else {
        assert!(board.grid().is_ok(), "a board read exactly gives its grid");
        Outcome::Exact
    };
    Scored { right, wrong, unsure, outcome }
}

/// Whether Chromium is here; missing, the test says so and skips.
fn chromium_here(test: &str) -> bool {
    if Path::new(CHROMIUM).exists() {
        return true;
    }
    eprintln!("SKIPPED {test}: {CHROMIUM} is not installed (apt-get install chromium)");
    false
}

/// Running (not zombie) processes in process group `pgid`, or whose command line names
/// `marker` (Chromium's crash handler leaves the group; its database is inside our directory).
fn processes_of(pgid: u32, marker: &str) -> Vec<i32> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else { return out };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let mut fields = rest.split_whitespace();
        if matches!(fields.next(), Some("Z" | "X" | "x") | None) {
            continue;
        }
        let group = fields.nth(1).and_then(|g| g.parse::<u32>().ok());
        let named = || {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        };
        if group == Some(pgid) || named() {
            out.push(pid);
        }
    }
    out
}

/// One page of boards: Chromium's screenshot of it, cut into the boards' regions.
fn render_page(specs: &[(Spec, usize, usize)], width: usize, height: usize) -> Vec<RgbaImage> {
    let page = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pixels/boards.html");
    let mut url = url::Url::from_file_path(&page).expect("an absolute path");
    {
        let mut q = url.query_pairs_mut();
        for (spec, x, y) in specs {
            q.append_pair("board", &spec.query(*x, *y));
        }
    }
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path();
    let shot = dir.join("shot.png");
    let dom = std::fs::File::create(dir.join("dom.html")).expect("dom file");
    let log = std::fs::File::create(dir.join("chromium.log")).expect("log file");
    let mut cmd = Command::new(CHROMIUM);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--dump-dom",
    ])
    .arg(format!("--user-data-dir={}", dir.join("profile").display()))
    .arg(format!("--window-size={width},{height}"))
    .arg(format!("--screenshot={}", shot.display()))
    .arg(url.as_str())
    // its temporary files, its configuration and crash database, inside our directory
    .env("TMPDIR", dir)
    .env("XDG_CONFIG_HOME", dir.join("config"))
    .env("XDG_CACHE_HOME", dir.join("cache"))
    .stdin(Stdio::null())
    .stdout(dom)
    .stderr(log);
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let started = Instant::now();
    let mut child = cmd.spawn().expect("chromium starts");
    let pgid = child.id();
    let exited = crate::support::wait_exit(&mut child, Instant::now() + Duration::from_secs(90));
    // Whatever is left of the tree (helpers, the crash handler) goes now.
    let marker = dir.to_string_lossy().to_string();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = processes_of(pgid, &marker);
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "chromium processes left: {left:?}");
        for pid in left {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.wait();
    let log = std::fs::read_to_string(dir.join("chromium.log")).unwrap_or_default();
    assert!(exited, "chromium did not finish within 90 s:\n{log}");
    let dom = std::fs::read_to_string(dir.join("dom.html")).expect("the page's DOM");
    let title = between(&dom, "<title>", "</title>").unwrap_or("(no title)");
    assert_eq!(title, "ready", "boards.html reports a problem (fonts from `bash .ci/deps test`)");
    let report = between(&dom, "<pre id=\"report\">", "</pre>").expect("the page's report");
    let rects: Vec<serde_json::Value> =
        report.lines().map(|l| serde_json::from_str(l).expect("a report line")).collect();
    assert_eq!(rects.len(), specs.len(), "one report a board");
    let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("{}: {e}\n{log}", shot.display()));
    let image = pixels::decode(&png).expect("chromium's screenshot decodes");
    assert_eq!((image.width, image.height), (width, height), "the screenshot is the window");
    eprintln!(
        "chromium drew {} boards on a {width}x{height} page in {:.1} s",
        specs.len(),
        started.elapsed().as_secs_f64()
    );
    specs
        .iter()
        .zip(&rects)
        .map(|((spec, x, y), rect)| {
            let (w, h) = spec.region();
            assert_eq!(rect["fits"], true, "{}: the board fits its region: {rect}", spec.name());
            assert_eq!(
                (rect["x"].as_f64(), rect["y"].as_f64()),
                (Some(*x as f64), Some(*y as f64))
            );
            let mut cut = crop(&image, *x, *y, w, h);
            if spec.desktop {
                cut = on_desktop(&cut);
            }
            match spec.jpeg {
                Some(quality) => jpeg(&cut, quality),
                None => cut,
            }
        })
        .collect()
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let to = text[from..].find(end)? + from;
    Some(&text[from..to])
}

fn crop(image: &RgbaImage, x: usize, y: usize, w: usize, h: usize) -> RgbaImage {
    let mut data = Vec::with_capacity(w * h * 4);
    for row in y..y + h {
        let at = (row * image.width + x) * 4;
        data.extend_from_slice(&image.data[at..at + w * 4]);
    }
    RgbaImage { width: w, height: h, data }
}

/// The image on a dark desktop twice as wide and high, a third of the way in.
fn on_desktop(image: &RgbaImage) -> RgbaImage {
    let (w, h) = (image.width * 2, image.height * 2);
    let mut data = [32u8, 33, 36, 255].repeat(w * h);
    let (left, top) = (image.width * 2 / 3, image.height / 3);
    for y in 0..image.height {
        let (from, to) = (y * image.width * 4, ((top + y) * w + left) * 4);
        data[to..to + image.width * 4].copy_from_slice(&image.data[from..from + image.width * 4]);
    }
    RgbaImage { width: w, height: h, data }
}

/// The image through a JPEG encoder at `quality` and back through the reader's decoder.
fn jpeg(image: &RgbaImage, quality: u8) -> RgbaImage {
    let rgb: Vec<u8> = image.data.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode(&rgb, image.width as u32, image.height as u32, image::ExtendedColorType::Rgb8)
        .expect("encodes");
    pixels::decode(&bytes).expect("decodes")
}

/// Renders every board, as few pages as fit, and gives the images in order.
fn render(specs: &[Spec]) -> Vec<RgbaImage> {
    let mut out = Vec::new();
    let mut page: Vec<(Spec, usize, usize)> = Vec::new();
    let (mut x, mut y, mut row_h, mut page_w) = (0, 0, 0, 0);
    for spec in specs {
        let (w, h) = spec.region();
        if x + w > PAGE_WIDTH {
            (x, y, row_h) = (0, y + row_h + 8, 0);
        }
        if y + h > PAGE_HEIGHT && !page.is_empty() {
            out.extend(render_page(&page, page_w, y + row_h));
            page.clear();
            (x, y, row_h, page_w) = (0, 0, 0, 0);
        }
        page.push((spec.clone(), x, y));
        page_w = page_w.max(x + w);
        row_h = row_h.max(h);
        x += w + 8;
    }
    if !page.is_empty() {
        out.extend(render_page(&page, page_w, y + row_h));
    }
    out
}

/// The representative set for CI: nine held-out families and a built-from control, both
/// themes, 4x4 and 6x6 (both box shapes), 20 and 80 px cells, thin, thick and uniform lines,
/// other colours, a selected cell (its peers tinted too), boards inside a screenshot with
/// digits around them (one on a dark desktop), JPEG re-encodes.
fn representative() -> Vec<Spec> {
    let v = Spec::new;
    vec![
        v("Nimbus Sans", 9, 40, 1),
        Spec { dark: true, ..v("Nimbus Roman", 9, 36, 2) },
        Spec { shot: true, ..v("Nimbus Mono PS", 9, 34, 3) },
        Spec { shot: true, desktop: true, ..v("URW Gothic", 9, 36, 14) },
        Spec { thin: 1, thick: 2, ..v("C059", 9, 20, 4) },
        Spec { thin: 2, thick: 5, ..v("P052", 9, 80, 5) },
        v("URW Bookman", 4, 48, 6),
        Spec { dark: true, ..v("URW Gothic", 6, 44, 7) },
        Spec { bw: 2, bh: 3, ..v("FreeSans", 6, 40, 8) },
        Spec { peers: true, colours: Some(("344861", "325aaf")), ..v("FreeSerif", 9, 44, 9) },
        Spec { thin: 1, thick: 1, ..v("FreeSerif", 9, 42, 10) },
        Spec { jpeg: Some(60), ..v("FreeMono", 9, 38, 11) },
        Spec { bold: true, dark: true, shot: true, jpeg: Some(80), ..v("Nimbus Sans", 9, 32, 12) },
        v("DejaVu Sans", 9, 40, 13),
    ]
}

/// Boards on which the reader once misread a cell (each a value taken for pencil marks, so an
/// empty cell): FreeMono's hairlines in 20 px cells and after JPEG, and Z003 after JPEG. Now
/// refused; they must never be misread again.
fn regressions() -> Vec<Spec> {
    vec![
        Spec { thin: 1, thick: 2, ..Spec::new("FreeMono", 9, 20, 191) },
        Spec { shot: true, jpeg: Some(70), ..Spec::new("FreeMono", 9, 32, 196) },
        Spec { jpeg: Some(60), ..Spec::new("Z003", 9, 38, 11) },
    ]
}

/// The whole matrix: every family (held out and built from) in eight variants.
fn matrix() -> Vec<Spec> {
    let mut out = Vec::new();
    for (i, &font) in HELD_OUT.iter().chain(BUILT_FROM).enumerate() {
        let seed = 100 + 10 * i as u64;
        out.extend([
            Spec::new(font, 9, 40, seed),
            Spec { thin: 1, thick: 2, ..Spec::new(font, 9, 20, seed + 1) },
            Spec { thin: 2, thick: 5, ..Spec::new(font, 9, 80, seed + 2) },
            Spec { dark: true, peers: true, ..Spec::new(font, 9, 36, seed + 3) },
            Spec { dark: i % 2 == 0, ..Spec::new(font, 4, 30 + i, seed + 4) },
            Spec {
                bw: if i % 2 == 0 { 3 } else { 2 },
                bh: if i % 2 == 0 { 2 } else { 3 },
                dark: i % 2 == 1,
                ..Spec::new(font, 6, 28 + 2 * i, seed + 5)
            },
            Spec {
                shot: true,
                desktop: i % 2 == 1,
                jpeg: Some(70),
                ..Spec::new(font, 9, 32, seed + 6)
            },
            Spec {
                bold: true,
                thin: 1,
                thick: 1,
                colours: Some(("344861", "325aaf")),
                ..Spec::new(font, 9, 26 + 2 * i, seed + 7)
            },
        ]);
    }
    out
}

/// Reads every board; gives the totals and prints each refusal and misread.
fn read_all(label: &str, specs: &[Spec], images: &[RgbaImage]) -> Totals {
    let mut t = Totals::default();
    // SUDOBOT_PIXELS_KEEP=DIR keeps each board's image there, to look at.
    let keep = std::env::var_os("SUDOBOT_PIXELS_KEEP").map(PathBuf::from);
    for (i, (spec, image)) in specs.iter().zip(images).enumerate() {
        if let Some(dir) = &keep {
            let name = format!("{i:03} {}.png", spec.name()).replace(['/', ',', '#'], "");
            image::RgbaImage::from_raw(image.width as u32, image.height as u32, image.data.clone())
                .expect("sizes match")
                .save(dir.join(name))
                .expect("keep the image");
        }
        let s = score(spec, image);
        t.right += s.right;
        t.wrong += s.wrong;
        t.unsure += s.unsure;
        let per = t.per_font.entry(spec.font).or_default();
        per.0 += 1;
        match &s.outcome {
            Outcome::Exact => {
                t.exact += 1;
                per.1 += 1;
            }
            Outcome::Refused(why) => {
                t.refused.push(format!("{}: {why}", spec.name()));
            }
            Outcome::Wrong(why) => {
                per.2 += 1;
                t.misread.push(format!("{}: {why}", spec.name()));
            }
        }
    }
    for r in &t.refused {
        eprintln!("refused {r}");
    }
    for m in &t.misread {
        eprintln!("MISREAD {m}");
    }
    eprintln!(
        "{label}: {} boards, {} read exactly, {} refused, {} misread; cells: {} right, {} misread, {} uncertain",
        specs.len(),
        t.exact,
        t.refused.len(),
        t.misread.len(),
        t.right,
        t.wrong,
        t.unsure
    );
    t
}

#[derive(Default)]
struct Totals {
    exact: usize,
    right: usize,
    wrong: usize,
    unsure: usize,
    refused: Vec<String>,
    misread: Vec<String>,
    /// font: (boards, exact, misread)
    per_font: std::collections::BTreeMap<&'static str, (usize, usize, usize)>,
}

/// Chromium's boards are read exactly or refused, never misread; at least half of the
/// representative set is read exactly (7 of 14 when this was written: 20 px cells, the thin
/// strokes of C059 and FreeSans's 1, and pencil marks stacked in a cell's middle column, which
/// the reader refuses as it would a broken glyph, leave cells uncertain).
#[test]
fn chromium_boards_are_read_exactly_or_refused() {
    if !chromium_here("chromium_boards_are_read_exactly_or_refused") {
        return;
    }
    let _lock = crate::web::browser_lock();
    let started = Instant::now();
    let (specs, again) = (representative(), regressions());
    let images = render(&[&specs[..], &again[..]].concat());
    let t = read_all("representative", &specs, &images[..specs.len()]);
    let r = read_all("once misread", &again, &images[specs.len()..]);
    eprintln!("rendered and read in {:.1} s", started.elapsed().as_secs_f64());
    let misread = [&t.misread[..], &r.misread[..]].concat();
    assert!(misread.is_empty(), "misread boards:\n{}", misread.join("\n"));
    assert!(
        t.exact * 2 >= specs.len(),
        "only {} of {} boards read exactly; refused:\n{}",
        t.exact,
        specs.len(),
        t.refused.join("\n")
    );
}

/// The whole matrix, a report: per family, boards read exactly and misread; every refusal.
#[test]
#[ignore = "a report, run by hand"]
fn chromium_accuracy() {
    if !chromium_here("chromium_accuracy") {
        return;
    }
    let _lock = crate::web::browser_lock();
    let specs = matrix();
    let images = render(&specs);
    let t = read_all("all", &specs, &images);
    for (font, (boards, exact, wrong)) in &t.per_font {
        let kind = if BUILT_FROM.contains(font) { "built from" } else { "held out" };
        eprintln!("  {font:<20} ({kind}): {exact}/{boards} exact, {wrong} misread");
    }
}
