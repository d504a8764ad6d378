//! Board discovery: finding the sudoku on a page sudobot was never told about.
//!
//! One script per frame ([`SCAN_JS`]) lists the page's cell-sized visible elements with their
//! rectangles, text, value and the attributes and computed styles that can tell givens apart,
//! plus the frames and canvases. Everything else is decided here, in Rust:
//!
//! - elements of one tag and about one size that lie on an N x N lattice (N = 4, 6, 8, 9, 12 or
//!   16) are a candidate board; reading order comes from screen positions;
//! - a candidate whose cells hold anything but the board's symbols (a calendar, a score table),
//!   that has no empty cell (a finished board beside today's) or too few values is rejected,
//!   with the reason kept for the message;
//! - among the rest the interactive one (inputs, then cells that take focus or clicks) wins, then
//!   the largest;
//! - givens are told from the player's entries only by what proves them: read-only or disabled
//!   state (`aria-readonly` too); a class, font weight or colour on some filled cells is a hint,
//!   never a proof (the entries may outnumber the givens and look like anything), so without a
//!   proof every filled cell is fixed and never typed into or corrected;
//! - the box shape comes from the thicker borders where the page draws them, else from the side.
//!
//! The result is an ordinary [`Site`] (order by position, success by read-back), so the page is
//! played by the same code as a site file, and `sudobot sites learn` writes it out as one.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde::Deserialize;
use thirtyfour::prelude::*;

use super::poll::poll;
use super::read::{lattice, symbol_value};
use super::site::{
    BoardSpec, Completion, Consent, Difficulty, DomSpec, Fill, Given, Order, PixelSpec, ReadMode,
    SIDES, Site, Strategy, Style, Success, Unproven, ValueSource,
};
use super::variant::VariantSpec;
use super::variant::check;
use super::variant::marks::{MARKS_JS, ScriptMarks, in_reading_order};
use crate::grid::BoxShape;

/// How many elements one frame's scan looks at, at most.
pub const MAX_ELEMENTS: usize = 20_000;
/// How many frames are scanned, at most, and how deep.
pub const MAX_FRAMES: usize = 16;
/// Frames inside frames inside ... this deep at most.
pub const MAX_DEPTH: usize = 3;

/// The scan of one document. Arguments: the element cap. Returns the cell-sized visible
/// elements (`cells`), the number of frames, the canvases and whether the cap was reached. The
/// elements are kept on `window.__sudobotScan` so [`SELECTOR_JS`] can name the chosen ones.
pub const SCAN_JS: &str = r#"
const [cap] = arguments;
const all = document.getElementsByTagName('*');
const truncated = all.length > cap;
const sx = window.scrollX, sy = window.scrollY;
const kept = [], cells = [];
const text = t => String(t == null ? '' : t).replace(/\s+/g, ' ').trim();
const skip = new Set(['HTML', 'BODY', 'HEAD', 'SCRIPT', 'STYLE', 'svg', 'g', 'text', 'tspan', 'line', 'path', 'IFRAME', 'FRAME', 'CANVAS', 'IMG', 'BR']);
// SVG boards: the <text> drawn over a <rect> is that cell's value: the one nearest its centre,
// within a third of the cell (a Killer sum in a corner is not).
const svgTexts = Array.from(document.getElementsByTagName('text')).slice(0, cap).map(t => {
  const b = t.getBoundingClientRect();
  return [t, b.left + b.width / 2, b.top + b.height / 2];
});
const over = r => {
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2, reach = Math.min(r.width, r.height) / 3;
  let best = null, near = Infinity;
  for (const [t, x, y] of svgTexts) {
    const d = Math.hypot(x - cx, y - cy);
    if (d <= reach && d < near) { best = t; near = d; }
  }
  return best;
};
const canvases = [];
for (let i = 0; i < Math.min(all.length, cap); i++) {
  const e = all[i];
  const r = e.getBoundingClientRect();
  if (e.tagName === 'CANVAS') {
    if (r.width >= 100 && r.height >= 100) { kept.push(e); canvases.push([r.left + sx, r.top + sy, r.width, r.height, kept.length - 1]); }
    continue;
  }
  if (skip.has(e.tagName)) continue;
  const w = r.width, h = r.height;
  // Cells are about square on most pages; unstyled inputs are about 2.5 times as wide as tall.
  if (w < 8 || h < 8 || w > 240 || h > 240 || Math.max(w, h) > 3 * Math.min(w, h)) continue;
  const cs = getComputedStyle(e);
  if (cs.visibility === 'hidden' || cs.display === 'none' || cs.opacity === '0') continue;
  // A dashed SVG shape is an outline (a Killer cage), not a cell.
  if (e instanceof SVGElement && cs.strokeDasharray && cs.strokeDasharray !== 'none') continue;
  const field = e.tagName === 'INPUT' || e.tagName === 'TEXTAREA';
  if (e.tagName === 'INPUT' && !['text', 'tel', 'number', 'search', ''].includes(e.type)) continue;
  const overlay = e.tagName === 'rect' ? over(r) : null;
  let t = field ? text(e.value) : overlay ? text(overlay.textContent) : text(e.textContent);
  if (t.length > 12) t = t.slice(0, 12) + '...';
  // The element holding the value's text, for its weight and colour.
  let holder = overlay || e;
  for (;;) {
    const next = Array.from(holder.children).find(c => text(c.textContent) === t && t !== '');
    if (!next) break;
    holder = next;
  }
  const hs = holder === e ? cs : getComputedStyle(holder);
  const classes = new Set();
  const addClasses = x => (x.getAttribute('class') || '').split(/\s+/).filter(Boolean).forEach(c => classes.add(c));
  addClasses(e);
  e.querySelectorAll('[class]').forEach(addClasses);
  if (overlay) addClasses(overlay);
  const own = (e.getAttribute('class') || '').split(/\s+/).filter(Boolean);
  kept.push(e);
  cells.push({
    k: kept.length - 1,
    tag: e.tagName.toLowerCase(),
    rect: [r.left + sx, r.top + sy, w, h],
    text: t,
    label: text(e.getAttribute('aria-label')).slice(0, 24),
    field,
    overlay: e.tagName === 'rect',
    readonly: field && (e.readOnly || e.hasAttribute('readonly')),
    disabled: !!e.disabled || e.getAttribute('aria-disabled') === 'true',
    aria_readonly: e.getAttribute('aria-readonly') === 'true',
    focusable: e.tabIndex >= 0 || e.isContentEditable || e.getAttribute('role') === 'gridcell' || e.tagName === 'BUTTON' || cs.cursor === 'pointer',
    classes: Array.from(classes),
    own,
    weight: hs.fontWeight,
    color: hs.color,
    borders: [parseFloat(cs.borderLeftWidth) || 0, parseFloat(cs.borderTopWidth) || 0,
              parseFloat(cs.borderRightWidth) || 0, parseFloat(cs.borderBottomWidth) || 0],
  });
}
window.__sudobotScan = kept;
return {cells, frames: window.frames.length, canvases, truncated, total: all.length};
"#;

/// Names the chosen elements of the last [`SCAN_JS`] with a CSS selector that matches exactly
/// them. Arguments: their indices. Tries, under the nearest ancestor with an id, then alone: the
/// tag, the tag with a class, role or attribute they share; then the ancestor's path.
/// Returns the selector, or null when none matches exactly them.
pub const SELECTOR_JS: &str = r#"
const [ks] = arguments;
const scan = window.__sudobotScan || [];
const els = ks.map(k => scan[k]).filter(Boolean);
if (els.length !== ks.length || els.length === 0) return null;
const want = new Set(els);
const exact = sel => { try { const m = document.querySelectorAll(sel); return m.length === els.length && Array.from(m).every(x => want.has(x)); } catch (e) { return false; } };
const tag = els[0].tagName.toLowerCase();
const esc = s => CSS.escape(s);
const tagSel = els[0].namespaceURI === 'http://www.w3.org/2000/svg' ? tag : tag;
const common = (f) => { let s = null; for (const e of els) { const x = new Set(f(e)); s = s === null ? x : new Set([...s].filter(v => x.has(v))); } return s ? [...s] : []; };
const classes = common(e => (e.getAttribute('class') || '').split(/\s+/).filter(Boolean));
const attrs = common(e => Array.from(e.attributes).map(a => a.name).filter(n => n !== 'class' && n !== 'style' && n !== 'id' && n !== 'value'));
const roles = common(e => [e.getAttribute('role') || '']).filter(Boolean);
let anc = els[0].parentElement;
while (anc && !els.every(e => anc.contains(e))) anc = anc.parentElement;
const scopes = [];
for (let a = anc; a && a !== document.documentElement; a = a.parentElement) {
  if (a.id) { scopes.push('#' + esc(a.id) + ' '); break; }
}
scopes.push('');
const bodies = [];
for (const c of classes) bodies.push(tagSel + '.' + esc(c));
for (const r of roles) bodies.push(tagSel + '[role="' + r + '"]');
for (const a of attrs) bodies.push(tagSel + '[' + esc(a) + ']');
for (const c of classes) for (const a of attrs) bodies.push(tagSel + '.' + esc(c) + '[' + esc(a) + ']');
for (const scope of scopes) {
  if (scope && exact(scope + tagSel)) return scope + tagSel;
  for (const b of bodies) if (exact(scope + b)) return scope + b;
}
if (anc) {
  // A path of tags (and classes) from the nearest ancestor with an id, or from the body.
  const step = x => {
    const cls = (x.getAttribute('class') || '').trim();
    let s = x.tagName.toLowerCase() + (cls ? '.' + cls.split(/\s+/).map(esc).join('.') : '');
    const p = x.parentElement;
    if (p && p.children.length > 1) s += ':nth-child(' + (Array.prototype.indexOf.call(p.children, x) + 1) + ')';
    return s;
  };
  let path = [];
  for (let a = anc; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
    if (a.id) { path.unshift('#' + esc(a.id)); break; }
    path.unshift(step(a));
  }
  const base = path.join(' > ');
  for (const b of classes.map(c => tagSel + '.' + esc(c)).concat([tagSel])) {
    const sel = (base ? base + ' ' : '') + b;
    if (exact(sel)) return sel;
  }
}
return null;
"#;

/// One element as [`SCAN_JS`] returns it.
#[derive(Clone, Debug, Deserialize)]
pub struct Element {
    /// Its index in the scan.
    pub k: usize,
    /// The tag, lower case.
    pub tag: String,
    /// Left, top, width, height in page pixels.
    pub rect: [f64; 4],
    /// The value of a field, else the text (whitespace folded, cut at 12 characters).
    pub text: String,
    /// The `aria-label`.
    pub label: String,
    /// An `<input>` or `<textarea>`.
    pub field: bool,
    /// An SVG `<rect>`: its value is the `<text>` drawn over it.
    #[serde(default)]
    pub overlay: bool,
    /// Read-only (fields).
    pub readonly: bool,
    /// Disabled or `aria-disabled`.
    pub disabled: bool,
    /// `aria-readonly`.
    pub aria_readonly: bool,
    /// Takes focus or clicks (tabindex, contenteditable, gridcell, button, pointer cursor).
    pub focusable: bool,
    /// Its classes and its descendants'.
    pub classes: Vec<String>,
    /// Its own classes.
    pub own: Vec<String>,
    /// The computed font weight of the text.
    pub weight: String,
    /// The computed colour of the text.
    pub color: String,
    /// Border widths: left, top, right, bottom.
    pub borders: [f64; 4],
}

/// What one frame's scan found.
#[derive(Clone, Debug, Deserialize)]
struct Scan {
    cells: Vec<Element>,
    frames: usize,
    /// Left, top, width, height and the index in the scan's kept elements.
    canvases: Vec<[f64; 5]>,
    truncated: bool,
    total: usize,
}

/// A board discovery accepted.
#[derive(Clone, Debug)]
pub struct Found {
    /// The board as a site: frames, cells, order, values, givens, typing.
    pub site: Site,
    /// Why this candidate, in words (for `-v` and `sites learn`).
    pub why: String,
    /// The other candidates and why each lost or was rejected.
    pub others: Vec<String>,
    /// The givens it holds.
    pub givens: usize,
    /// How long discovery took.
    pub took: Duration,
}

/// Why no board was found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiscoverError {
    /// Nothing that looks like a board; the best candidate and why it was rejected.
    #[error(
        "no sudoku board found on the page{}{}; nothing was typed",
        best_note(.best, .capped),
        .frames
    )]
    NoBoard {
        /// The best candidate and why it was rejected.
        best: Option<String>,
        /// The scan stopped at the element cap.
        capped: Option<usize>,
        /// Frames left unscanned by the depth or count cap, in words (empty: none).
        frames: FramesLeft,
    },
    /// Two candidate boards are alike (side, kind of cells, size): choosing one would be a guess.
    #[error(
        "two equal sudoku boards on the page: {first}, and {second}; nothing was typed (a site \
         file's `board.cells` and `frames`, or `--url` to the board's own frame, names one)"
    )]
    TwoBoards {
        /// One board, with its frame and position.
        first: String,
        /// The other.
        second: String,
    },
    /// The chosen cells have no selector that matches exactly them.
    #[error("found {what}, but no CSS selector matches exactly its cells; nothing was typed")]
    NoSelector {
        /// The board found.
        what: String,
    },
    /// A WebDriver command failed.
    #[error("discovering the board: {}", super::wd::short(.0))]
    WebDriver(#[source] WebDriverError),
}

fn best_note(best: &Option<String>, capped: &Option<usize>) -> String {
    let mut s = String::new();
    if let Some(b) = best {
        s.push_str(&format!(" (the best candidate was {b})"));
    }
    if let Some(n) = capped {
        s.push_str(&format!(
            "; the page has {n} elements and only the first {MAX_ELEMENTS} were looked at"
        ));
    }
    s
}

/// Frames the scan did not look at because of [`MAX_DEPTH`] or [`MAX_FRAMES`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FramesLeft {
    /// Frames inside a frame already [`MAX_DEPTH`] deep.
    pub too_deep: usize,
    /// Frames past the first [`MAX_FRAMES`] documents.
    pub past_cap: usize,
}

impl std::fmt::Display for FramesLeft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.too_deep > 0 {
            write!(
                f,
                "; {} frame(s) nested more than {MAX_DEPTH} deep were not looked at (discovery's \
                 depth cap)",
                self.too_deep
            )?;
        }
        if self.past_cap > 0 {
            write!(
                f,
                "; {} frame(s) were not looked at: discovery scans at most {MAX_FRAMES} \
                 documents, the page and its frames (discovery's frame cap)",
                self.past_cap
            )?;
        }
        Ok(())
    }
}

impl DiscoverError {
    /// Whether the driver's session looks gone (the caller's error mapping decides).
    pub fn driver_error(&self) -> Option<&WebDriverError> {
        match self {
            DiscoverError::WebDriver(e) => Some(e),
            _ => None,
        }
    }
}

/// A candidate board in one frame.
#[derive(Clone, Debug)]
struct Candidate {
    frame: Vec<usize>,
    side: usize,
    cells: Vec<Element>,
    /// Reading-order index of each cell (parallel to `cells`).
    index: Vec<usize>,
    interactive: u8,
    area: f64,
}

/// Whether two candidates are the same kind of board: side, cell tag and interactivity equal,
/// areas within 10% of each other.
fn alike(a: &Candidate, b: &Candidate) -> bool {
    a.side == b.side
        && a.interactive == b.interactive
        && a.cells[0].tag == b.cells[0].tag
        && (a.area - b.area).abs() <= 0.1 * a.area.max(b.area)
}

impl Candidate {
    /// [`Candidate::describe`] with where its top-left cell is on its document (CSS pixels).
    fn placed(&self) -> String {
        let (x, y) = self
            .cells
            .iter()
            .map(|c| (c.rect[0], c.rect[1]))
            .fold((f64::INFINITY, f64::INFINITY), |(x, y), (cx, cy)| (x.min(cx), y.min(cy)));
        let frame = if self.frame.is_empty() { " of the page" } else { "" };
        format!("{} at x={x:.0}, y={y:.0}{frame}", self.describe())
    }

    fn describe(&self) -> String {
        let filled = self.cells.iter().filter(|c| !self.value_text(c).is_empty()).count();
        format!(
            "a {s}x{s} grid of {tag}s{frame} with {filled} filled cells",
            s = self.side,
            tag = self.cells[0].tag,
            frame = if self.frame.is_empty() {
                String::new()
            } else {
                format!(" in frame {}", frame_path(&self.frame).join(" > "))
            },
        )
    }

    /// Where values are read: fields' values, else the text, else the aria-label when that is
    /// where the symbols are.
    fn value_source(&self) -> ValueSource {
        if self.cells[0].field {
            return ValueSource::Value;
        }
        if self.cells[0].overlay {
            return ValueSource::Overlay;
        }
        let count = |f: &dyn Fn(&Element) -> &str| {
            self.cells.iter().filter(|c| symbol_value(f(c), self.side) != 0).count()
        };
        if count(&|c| &c.text) == 0 && count(&|c| &c.label) > 0 {
            ValueSource::Attribute("aria-label".into())
        } else {
            ValueSource::Text
        }
    }

    fn value_text<'a>(&self, c: &'a Element) -> &'a str {
        match self.value_source() {
            ValueSource::Attribute(_) => {
                if symbol_value(&c.label, self.side) != 0 {
                    &c.label
                } else {
                    ""
                }
            }
            _ => &c.text,
        }
    }
}

fn frame_path(frame: &[usize]) -> Vec<String> {
    frame.iter().map(|i| format!("#{i}")).collect()
}

/// Finds the board on the page the driver shows (all frames), waiting up to `bound` for one to
/// appear. Leaves the driver in the top document.
pub async fn discover(
    driver: &WebDriver,
    url: &str,
    bound: Duration,
) -> Result<Found, DiscoverError> {
    let start = Instant::now();
    // The last look's "no board", said when the bound passes.
    let mut last = None;
    let found = poll(bound, Duration::from_millis(200), "a board on the page", async |_| {
        let result = discover_once(driver, url).await;
        driver.enter_default_frame().await.map_err(DiscoverError::WebDriver)?;
        match result {
            Ok(found) => Ok(Some(found)),
            // A board drawn after load: look again until the bound.
            Err(e @ DiscoverError::NoBoard { .. }) if start.elapsed() < bound => {
                last = Some(e);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    })
    .await;
    let mut found = found.map_err(|w| {
        w.or_out(|_| {
            last.take().unwrap_or(DiscoverError::NoBoard {
                best: None,
                capped: None,
                frames: FramesLeft::default(),
            })
        })
    })?;
    found.took = start.elapsed();
    Ok(found)
}

async fn discover_once(driver: &WebDriver, url: &str) -> Result<Found, DiscoverError> {
    driver.enter_default_frame().await.map_err(DiscoverError::WebDriver)?;
    let mut scans: Vec<(Vec<usize>, Scan)> = Vec::new();
    let mut left = FramesLeft::default();
    scan_frames(driver, Vec::new(), &mut scans, &mut left).await?;
    let mut candidates = Vec::new();
    let mut rejected: Vec<(String, u8, f64)> = Vec::new();
    let mut few = Vec::new();
    for (frame, scan) in &scans {
        for cand in grids(frame, &scan.cells) {
            match reject(&cand) {
                None => candidates.push(cand),
                Some(Rejected { why, few: too_few }) => {
                    let score = cand.interactive;
                    rejected.push((format!("{}: {why}", cand.describe()), score, cand.area));
                    if too_few {
                        few.push(cand);
                    }
                }
            }
        }
    }
    let capped = scans.iter().find(|(_, s)| s.truncated).map(|(_, s)| s.total);
    // Prefer the interactive one, then the largest.
    let order = |a: &Candidate, b: &Candidate| {
        b.interactive.cmp(&a.interactive).then(b.area.total_cmp(&a.area))
    };
    candidates.sort_by(order);
    if candidates.is_empty() {
        // A board with (almost) no values is a Killer where its cage marks say so exactly.
        few.sort_by(order);
        for cand in &few {
            match killer_without_values(driver, url, cand).await? {
                Ok(mut found) => {
                    let own = cand.describe();
                    found.others = rejected
                        .iter()
                        .filter(|r| !r.0.starts_with(&own))
                        .map(|r| r.0.clone())
                        .collect();
                    return Ok(found);
                }
                Err(why) => {
                    if let Some(r) = rejected.iter_mut().find(|r| r.0.starts_with(&cand.describe()))
                    {
                        r.0.push_str(&format!(", and it is no Killer: {why}"));
                    }
                }
            }
        }
    }
    let Some(best) = candidates.first().cloned() else {
        // No DOM board: the largest square canvas, read from its pixels.
        let canvas = scans
            .iter()
            .flat_map(|(f, s)| s.canvases.iter().map(move |c| (f, *c)))
            .filter(|(_, c)| (c[2] - c[3]).abs() <= 0.2 * c[2].max(c[3]))
            .max_by(|a, b| (a.1[2] * a.1[3]).total_cmp(&(b.1[2] * b.1[3])));
        if let Some((frame, canvas)) = canvas {
            super::read::warm_up_pixels();
            return canvas_found(driver, url, frame, canvas, rejected).await;
        }
        rejected.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
        return Err(DiscoverError::NoBoard {
            best: rejected.into_iter().next().map(|r| r.0),
            capped,
            frames: left,
        });
    };
    // Two boards alike (side, kind and size): which one the player means is not on the page.
    if let Some(second) = candidates.get(1)
        && alike(&best, second)
    {
        return Err(DiscoverError::TwoBoards { first: best.placed(), second: second.placed() });
    }
    let mut others: Vec<String> = candidates[1..]
        .iter()
        .map(|c| format!("{} (less interactive or smaller)", c.describe()))
        .collect();
    others.extend(rejected.into_iter().map(|r| r.0));
    // Name the cells with a selector, in the board's frame.
    let Some(selector) = cell_selector(driver, &best).await? else {
        return Err(DiscoverError::NoSelector { what: best.describe() });
    };
    Ok(dom_found(url, &best, selector, others))
}

/// A CSS selector, in `cand`'s frame, that matches exactly its cells (`None`: none does).
async fn cell_selector(
    driver: &WebDriver,
    cand: &Candidate,
) -> Result<Option<String>, DiscoverError> {
    enter(driver, &cand.frame).await?;
    let ks: Vec<usize> = cand.cells.iter().map(|c| c.k).collect();
    driver
        .execute(SELECTOR_JS, vec![ks.into()])
        .await
        .and_then(|r| r.convert())
        .map_err(DiscoverError::WebDriver)
}

/// The site for a board of elements found at `selector`: how its givens are told, its boxes,
/// where its values are and how it is typed, and why, in words.
fn dom_found(url: &str, best: &Candidate, selector: String, others: Vec<String>) -> Found {
    let GivenRule { given, why: given_why, unproven } = givens(best);
    let boxes = box_shape(best);
    let value = best.value_source();
    let filled: Vec<bool> = best.cells.iter().map(|c| !best.value_text(c).is_empty()).collect();
    let given_count =
        best.cells.iter().zip(&filled).filter(|(c, f)| **f && is_given(&given, c)).count();
    let strategy = if best.cells[0].field { Strategy::Keys } else { Strategy::Click };
    let why = format!(
        "{} at `{selector}`{}: {}; values from {}; {given_why}; typed by {}",
        best.describe(),
        boxes.as_ref().map(|b| format!(", boxes {b} from the thicker borders")).unwrap_or_default(),
        if best.interactive >= 2 {
            "its cells are inputs"
        } else if best.interactive == 1 {
            "its cells take clicks or focus"
        } else {
            "the largest board"
        },
        match &value {
            ValueSource::Value => "the inputs' values".to_string(),
            ValueSource::Text => "the cells' text".to_string(),
            ValueSource::Attribute(a) => format!("the `{a}` attribute"),
            ValueSource::Overlay => "the SVG text over each cell".to_string(),
        },
        if strategy == Strategy::Click { "clicking each cell, then its key" } else { "keys" },
    );
    let board = BoardSpec::Dom(DomSpec {
        side: best.side,
        boxes,
        cells: selector,
        order: Order::Position,
        value,
        id_template: None,
        read: ReadMode::Script,
        given,
        min_givens: Some(given_count.min(17)),
        ready_timeout_ms: None,
        unproven,
        variant: Default::default(),
        regions_state: None,
    });
    let mut site = page_site(url, board);
    site.frames = frame_path(&best.frame);
    site.fill.strategy = strategy;
    Found { site, why, others, givens: given_count, took: Duration::ZERO }
}

/// The site for `cand`, a board holding too few values, where its cage marks establish a Killer
/// exactly (every cell in one cage, each sum in its first cell and reachable, the total right):
/// ready with no givens, its variant written down. `Err(why)` where they do not.
async fn killer_without_values(
    driver: &WebDriver,
    url: &str,
    cand: &Candidate,
) -> Result<Result<Found, String>, DiscoverError> {
    let Some(selector) = cell_selector(driver, cand).await? else {
        return Ok(Err("no CSS selector matches exactly its cells".into()));
    };
    let marks: Vec<ScriptMarks> = driver
        .execute(MARKS_JS.as_str(), vec![selector.clone().into()])
        .await
        .and_then(|r| r.convert())
        .map_err(DiscoverError::WebDriver)?;
    // The scan keeps elements in document order, as the selector matches them.
    let mut order: Vec<(usize, usize)> =
        cand.cells.iter().map(|c| c.k).zip(cand.index.iter().copied()).collect();
    order.sort_unstable();
    let dom_order: Vec<usize> = order.into_iter().map(|(_, i)| i).collect();
    let mut found = dom_found(url, cand, selector, Vec::new());
    let boxes = match found.site.geometry() {
        Ok(g) => g.box_shape(),
        Err(e) => return Ok(Err(e)),
    };
    let established = in_reading_order(marks, &dom_order, cand.side)
        .and_then(|m| check::establish(cand.side, &m, boxes));
    match established {
        Ok(f) if f.cages.is_some() => {
            if let BoardSpec::Dom(dom) = &mut found.site.board {
                dom.variant = VariantSpec::Killer;
                dom.min_givens = Some(0);
            }
            found.why.push_str(&format!(
                "; a Killer with no givens to wait for: {}",
                f.notes.join("; ")
            ));
            Ok(Ok(found))
        }
        Ok(f) => Ok(Err(format!("its marks show {}", f.name()))),
        Err(e) => Ok(Err(e.to_string())),
    }
}

/// The site for a square canvas found with no DOM board: its pixels are read
/// (`read = "pixels"`), its cells clicked, success by read-back.
async fn canvas_found(
    driver: &WebDriver,
    url: &str,
    frame: &[usize],
    canvas: [f64; 5],
    rejected: Vec<(String, u8, f64)>,
) -> Result<Found, DiscoverError> {
    let what = format!(
        "a square canvas ({:.0}x{:.0} px){}",
        canvas[2],
        canvas[3],
        if frame.is_empty() {
            String::new()
        } else {
            format!(" in frame {}", frame_path(frame).join(" > "))
        }
    );
    enter(driver, frame).await?;
    let k = canvas[4] as usize;
    let selector: Option<String> = driver
        .execute(SELECTOR_JS, vec![vec![k].into()])
        .await
        .and_then(|r| r.convert())
        .map_err(DiscoverError::WebDriver)?;
    let Some(selector) = selector else {
        return Err(DiscoverError::NoSelector { what });
    };
    let board = BoardSpec::Pixels(PixelSpec {
        element: selector.clone(),
        min_givens: None,
        ready_timeout_ms: None,
        variant: VariantSpec::Auto,
    });
    let mut site = page_site(url, board);
    site.frames = frame_path(frame);
    site.fill.strategy = Strategy::Click;
    let why = format!(
        "{what} at `{selector}` and no board made of elements: read from its pixels; typed by \
         clicking each cell's centre, then its key"
    );
    let others = rejected.into_iter().map(|r| r.0).collect();
    Ok(Found { site, why, others, givens: 0, took: Duration::ZERO })
}

/// For a site file (`sites learn`; play decides from each read of the board instead): the
/// variant one screenshot of the canvas `found` reads from pixels shows, written into its
/// board and its reason. Killer where its cage outlines read exactly, jigsaw where its lines
/// outline regions, else left `Auto`. Needs the driver in the canvas's frame, as
/// [`discover`] leaves it.
pub async fn learn_variant(driver: &WebDriver, found: &mut Found) {
    let BoardSpec::Pixels(pixels) = &mut found.site.board else { return };
    if pixels.variant != VariantSpec::Auto {
        return;
    }
    pixels.variant = canvas_variant(driver, &pixels.element).await;
    match pixels.variant {
        VariantSpec::Killer => found.why.push_str("; a Killer by its cage outlines"),
        VariantSpec::Jigsaw => found.why.push_str("; a jigsaw by the regions its lines outline"),
        VariantSpec::X => found.why.push_str("; an X by the marks on both its diagonals"),
        _ => {}
    }
}

/// The variant one screenshot of the canvas at `selector` shows: Killer, jigsaw, X or `Auto`.
async fn canvas_variant(driver: &WebDriver, selector: &str) -> VariantSpec {
    let Ok(element) = driver.find(By::Css(selector)).await else { return VariantSpec::Auto };
    let Ok(png) = element.screenshot_as_png().await else { return VariantSpec::Auto };
    let read = crate::pixels::decode(&png).and_then(|image| {
        crate::pixels::killer::read(image.view()?).map(|k| {
            let b = &k.read.board;
            (matches!(k.cages, Ok(Some(_))), b.regions.is_some(), b.diagonals.is_some())
        })
    });
    match read {
        Ok((true, _, _)) => VariantSpec::Killer,
        Ok((false, true, _)) => VariantSpec::Jigsaw,
        Ok((false, false, true)) => VariantSpec::X,
        _ => VariantSpec::Auto,
    }
}

/// A site for the page at `url` with the `board` discovery found there: no levels, success by
/// read-back.
pub fn page_site(url: &str, board: BoardSpec) -> Site {
    Site {
        name: "discovered".into(),
        description: format!("the board found on {url}"),
        url: url.to_string(),
        params: BTreeMap::new(),
        serve: None,
        difficulty: Difficulty { default: String::new(), levels: BTreeMap::new() },
        frames: Vec::new(),
        board,
        fill: Fill::default(),
        completion: Completion {
            submit: None,
            key: None,
            bot_flag: None,
            success: Success { read_back: true, ..Success::default() },
            timeout_ms: 5000,
        },
        consent: Consent::default(),
        input_mode: None,
        login: None,
    }
}

/// Scans this document, then each frame in it (depth and count bounded; what the caps left out
/// is counted in `left`).
async fn scan_frames(
    driver: &WebDriver,
    path: Vec<usize>,
    out: &mut Vec<(Vec<usize>, Scan)>,
    left: &mut FramesLeft,
) -> Result<(), DiscoverError> {
    let scan: Scan = driver
        .execute(SCAN_JS, vec![MAX_ELEMENTS.into()])
        .await
        .and_then(|r| r.convert())
        .map_err(DiscoverError::WebDriver)?;
    let frames = scan.frames;
    out.push((path.clone(), scan));
    if path.len() >= MAX_DEPTH {
        left.too_deep += frames;
        return Ok(());
    }
    for i in 0..frames {
        if out.len() >= MAX_FRAMES {
            left.past_cap += frames - i;
            break;
        }
        let Ok(n) = u16::try_from(i) else { break };
        if driver.enter_frame(n).await.is_err() {
            continue;
        }
        let mut inner = path.clone();
        inner.push(i);
        let result = Box::pin(scan_frames(driver, inner, out, left)).await;
        driver.enter_parent_frame().await.map_err(DiscoverError::WebDriver)?;
        // A frame that cannot be scanned (cross-origin, gone) is skipped, not fatal.
        if let Err(e) = result {
            tracing::debug!("frame {i} of {path:?}: {e}");
        }
    }
    Ok(())
}

async fn enter(driver: &WebDriver, frame: &[usize]) -> Result<(), DiscoverError> {
    driver.enter_default_frame().await.map_err(DiscoverError::WebDriver)?;
    for &i in frame {
        let n = u16::try_from(i).unwrap_or(u16::MAX);
        driver.enter_frame(n).await.map_err(DiscoverError::WebDriver)?;
    }
    Ok(())
}

/// Candidate boards among one frame's elements: one tag, about one size, N x N on a lattice.
fn grids(frame: &[usize], elements: &[Element]) -> Vec<Candidate> {
    let mut by_tag: BTreeMap<&str, Vec<&Element>> = BTreeMap::new();
    for e in elements {
        by_tag.entry(e.tag.as_str()).or_default().push(e);
    }
    let mut out: Vec<Candidate> = Vec::new();
    for (_, mut group) in by_tag {
        group.sort_by(|a, b| a.rect[2].total_cmp(&b.rect[2]));
        // Runs of about one width.
        let mut runs: Vec<Vec<&Element>> = Vec::new();
        for e in group {
            match runs.last_mut() {
                Some(run) if e.rect[2] <= run[0].rect[2] * 1.15 + 2.0 => run.push(e),
                _ => runs.push(vec![e]),
            }
        }
        for run in runs {
            let mut parts = Vec::new();
            for component in neighbours(&run) {
                split_at_gaps(component, 6, &mut parts);
            }
            for component in parts {
                let n = component.len();
                let Some(&side) = SIDES.iter().find(|&&s| s * s == n) else { continue };
                let points: Vec<(f64, f64)> = component
                    .iter()
                    .map(|e| (e.rect[0] + e.rect[2] / 2.0, e.rect[1] + e.rect[3] / 2.0))
                    .collect();
                let Ok(index) = lattice(&points, side) else { continue };
                let cells: Vec<Element> = component.iter().map(|e| (*e).clone()).collect();
                let interactive = if cells.iter().all(|c| c.field) {
                    2
                } else {
                    u8::from(cells.iter().filter(|c| c.focusable).count() * 2 >= n)
                };
                let (x0, y0, x1, y1) = bounds(&cells);
                out.push(Candidate {
                    frame: frame.to_vec(),
                    side,
                    cells,
                    index,
                    interactive,
                    area: (x1 - x0) * (y1 - y0),
                });
            }
        }
    }
    // The same board found twice (a cell and the element inside it): keep the interactive one,
    // else the outer one.
    out.sort_by(|a, b| b.interactive.cmp(&a.interactive).then(b.area.total_cmp(&a.area)));
    let mut kept: Vec<Candidate> = Vec::new();
    for c in out {
        if !kept.iter().any(|k| k.side == c.side && overlap(k, &c) > 0.8) {
            kept.push(c);
        }
    }
    kept
}

fn bounds(cells: &[Element]) -> (f64, f64, f64, f64) {
    cells.iter().fold((f64::MAX, f64::MAX, f64::MIN, f64::MIN), |(a, b, c, d), e| {
        (
            a.min(e.rect[0]),
            b.min(e.rect[1]),
            c.max(e.rect[0] + e.rect[2]),
            d.max(e.rect[1] + e.rect[3]),
        )
    })
}

/// The part of the smaller board's area that the two boards share.
fn overlap(a: &Candidate, b: &Candidate) -> f64 {
    if a.frame != b.frame {
        return 0.0;
    }
    let (a0, a1, a2, a3) = bounds(&a.cells);
    let (b0, b1, b2, b3) = bounds(&b.cells);
    let w = (a2.min(b2) - a0.max(b0)).max(0.0);
    let h = (a3.min(b3) - a1.max(b1)).max(0.0);
    w * h / a.area.min(b.area).max(1.0)
}

/// Splits elements into groups that touch: neighbours are closer than 1.6 cell sizes.
fn neighbours<'a>(run: &[&'a Element]) -> Vec<Vec<&'a Element>> {
    let n = run.len();
    let mut group: Vec<usize> = (0..n).collect();
    fn root(g: &mut [usize], mut i: usize) -> usize {
        while g[i] != i {
            g[i] = g[g[i]];
            i = g[i];
        }
        i
    }
    let centre = |e: &Element| (e.rect[0] + e.rect[2] / 2.0, e.rect[1] + e.rect[3] / 2.0);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| centre(run[a]).0.total_cmp(&centre(run[b]).0));
    for (p, &i) in order.iter().enumerate() {
        let (xi, yi) = centre(run[i]);
        let reach = run[i].rect[2].max(run[i].rect[3]) * 1.6;
        for &j in &order[p + 1..] {
            let (xj, yj) = centre(run[j]);
            if xj - xi > reach {
                break;
            }
            if (yj - yi).abs() <= reach {
                let (ri, rj) = (root(&mut group, i), root(&mut group, j));
                group[ri] = rj;
            }
        }
    }
    let mut out: BTreeMap<usize, Vec<&Element>> = BTreeMap::new();
    for (i, &e) in run.iter().enumerate() {
        let r = root(&mut group, i);
        out.entry(r).or_default().push(e);
    }
    out.into_values().collect()
}

/// Boards side by side (a finished board beside today's, a number pad) touch at the reach of
/// [`neighbours`]: a group that is not one board is cut where its rows or columns are much
/// further apart than usual, and each part looked at again.
fn split_at_gaps<'a>(group: Vec<&'a Element>, depth: usize, out: &mut Vec<Vec<&'a Element>>) {
    if depth == 0 || SIDES.iter().any(|s| s * s == group.len()) || group.len() < 16 {
        out.push(group);
        return;
    }
    for axis in [0, 1] {
        let centre = |e: &Element| e.rect[axis] + e.rect[axis + 2] / 2.0;
        let mut lines: Vec<f64> = group.iter().map(|e| centre(e)).collect();
        lines.sort_by(f64::total_cmp);
        lines.dedup_by(|a, b| (*a - *b).abs() < 2.0);
        if lines.len() < 3 {
            continue;
        }
        let mut steps: Vec<(f64, usize)> =
            lines.windows(2).enumerate().map(|(i, w)| (w[1] - w[0], i)).collect();
        let mut sorted: Vec<f64> = steps.iter().map(|s| s.0).collect();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        steps.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (widest, at) = steps[0];
        if widest > median * 1.3 {
            let cut = (lines[at] + lines[at + 1]) / 2.0;
            let (a, b): (Vec<&Element>, Vec<&Element>) =
                group.into_iter().partition(|e| centre(e) < cut);
            split_at_gaps(a, depth - 1, out);
            split_at_gaps(b, depth - 1, out);
            return;
        }
    }
    // A stray element of the same size beside the board (a button styled as a cell) joins its
    // group without a gap to cut at: drop the rows and columns that hold under half as many
    // elements as the fullest one, and look again.
    for axis in [0, 1] {
        let centre = |e: &Element| e.rect[axis] + e.rect[axis + 2] / 2.0;
        let mut lines: Vec<(f64, usize)> = Vec::new();
        let mut centres: Vec<f64> = group.iter().map(|e| centre(e)).collect();
        centres.sort_by(f64::total_cmp);
        for c in centres {
            match lines.last_mut() {
                Some((at, n)) if (c - *at).abs() < 2.0 => *n += 1,
                _ => lines.push((c, 1)),
            }
        }
        let fullest = lines.iter().map(|l| l.1).max().unwrap_or(0);
        let sparse = |e: &Element| {
            lines.iter().any(|&(at, n)| (centre(e) - at).abs() < 2.0 && n * 2 < fullest)
        };
        if group.iter().any(|e| sparse(e)) {
            let kept: Vec<&Element> = group.iter().copied().filter(|e| !sparse(e)).collect();
            split_at_gaps(kept, depth - 1, out);
            return;
        }
    }
    out.push(group);
}

/// Why a candidate is not today's board, if it is not.
fn reject(c: &Candidate) -> Option<Rejected> {
    reason(c).map(|why| {
        let few = why.starts_with(FEW);
        Rejected { why, few }
    })
}

/// Why a candidate was rejected, and whether only for holding too few values (a Killer may
/// hold none: its cage marks are looked at then).
#[derive(Debug)]
struct Rejected {
    why: String,
    few: bool,
}

/// The start of the reason a board with too few values is rejected.
const FEW: &str = "only ";

fn reason(c: &Candidate) -> Option<String> {
    let texts: Vec<&str> = c.cells.iter().map(|e| c.value_text(e)).collect();
    let foreign: Vec<&str> =
        texts.iter().copied().filter(|t| !t.is_empty() && symbol_value(t, c.side) == 0).collect();
    // Pencil marks read as several digits; a board is mostly values and blanks.
    if foreign.len() * 4 > c.cells.len() {
        return Some(format!(
            "{} cells hold text that is not a value 1-{} (e.g. {:?})",
            foreign.len(),
            c.side,
            foreign[0]
        ));
    }
    let filled = texts.iter().filter(|t| symbol_value(t, c.side) != 0).count();
    if filled == c.cells.len() {
        return Some("no empty cell: a finished board, not today's puzzle".into());
    }
    if filled < c.side.min(4) {
        return Some(format!("{FEW}{filled} cells hold a value"));
    }
    None
}

/// How discovery tells the givens from the player's entries.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GivenRule {
    /// The marker: a proven one, or `filled` (every filled cell fixed).
    given: Given,
    /// In words, for `-v`, `sites learn` and messages.
    why: String,
    /// Set when nothing proves the givens.
    unproven: Option<Unproven>,
}

/// How givens are told from entries, and why. Only a state the player's entries cannot have
/// proves a given: `readonly` or `disabled` on a field, or `aria-readonly`, on filled cells and
/// no empty one. A class, weight or colour on some filled cells is a hint, never a proof: the
/// entries may outnumber the givens and carry any style. Without a proof every filled cell is
/// fixed (never typed into or corrected), and the hint is kept to name the player's mistakes.
fn givens(c: &Candidate) -> GivenRule {
    let filled: Vec<&Element> =
        c.cells.iter().filter(|e| symbol_value(c.value_text(e), c.side) != 0).collect();
    let empty: Vec<&Element> =
        c.cells.iter().filter(|e| symbol_value(c.value_text(e), c.side) == 0).collect();
    // A marker is usable when no empty cell has it and some filled cell has it.
    let usable = |has: &dyn Fn(&Element) -> bool| {
        filled.iter().any(|e| has(e)) && !empty.iter().any(|e| has(e))
    };
    let proven = |given: Given, why: &str| GivenRule {
        given,
        why: format!("givens by {why}"),
        unproven: None,
    };
    if usable(&|e| e.readonly) {
        return proven(Given::Attribute("readonly".into()), "the `readonly` attribute");
    }
    if c.cells[0].field && usable(&|e| e.disabled) {
        return proven(Given::Attribute("disabled".into()), "the `disabled` attribute");
    }
    if usable(&|e| e.aria_readonly) {
        return proven(Given::Attribute("aria-readonly".into()), "`aria-readonly`");
    }
    let hint = hint(&filled, &empty);
    let why = format!(
        "givens not proven (no `readonly`, `disabled` or `aria-readonly` on the filled cells \
         alone): every filled cell is fixed, never typed into or corrected{}",
        hint.as_ref().map(|(_, note)| format!("; {note} is only a hint")).unwrap_or_default()
    );
    let (hint, hint_note) = match hint {
        Some((given, note)) => (Some(given), note),
        None => (None, String::new()),
    };
    GivenRule { given: Given::Filled, why, unproven: Some(Unproven { hint, hint_note }) }
}

/// A class, weight or colour that some filled cells have and others not, in words: the
/// givens' mark or the entries', nobody can tell which.
fn hint(filled: &[&Element], empty: &[&Element]) -> Option<(Given, String)> {
    let of = |n: usize| format!("on {n} of the {} filled cells", filled.len());
    // Classes on filled cells only.
    let mut classes: BTreeSet<&str> = BTreeSet::new();
    for e in filled {
        classes.extend(e.classes.iter().map(String::as_str));
    }
    let only_filled: Vec<&str> = classes
        .into_iter()
        .filter(|k| !empty.iter().any(|e| e.classes.iter().any(|x| x == k)))
        .collect();
    let having = |k: &str| filled.iter().filter(|e| e.classes.iter().any(|x| x == k)).count();
    // Names pages give the givens' or the entries' class, before any other.
    const NAMED: &[&str] = &[
        "given", "prefill", "fixed", "task", "clue", "static", "orig", "lock", "readonly",
        "initial", "start", "puzzle", "guess", "user", "entry", "input", "player", "answer",
    ];
    let named = |k: &str| NAMED.iter().any(|h| k.to_ascii_lowercase().contains(h));
    let split: Vec<&str> = only_filled.into_iter().filter(|k| having(k) < filled.len()).collect();
    if let Some(k) =
        split.iter().find(|k| named(k)).or_else(|| split.iter().max_by_key(|k| having(k)))
    {
        return Some((
            Given::Class((*k).to_string()),
            format!("the class `{k}` {}", of(having(k))),
        ));
    }
    let weights: BTreeSet<u32> = filled.iter().map(|e| weight(&e.weight)).collect();
    if weights.len() == 2 {
        let heavy = *weights.iter().max().unwrap_or(&700);
        let n = filled.iter().filter(|e| weight(&e.weight) == heavy).count();
        if let Some(e) = filled.iter().find(|e| weight(&e.weight) == heavy) {
            let w = &e.weight;
            return Some((
                Given::Style(Style { property: "font-weight".into(), value: w.clone() }),
                format!("the heavier font ({w}) {}", of(n)),
            ));
        }
    }
    let mut colours: BTreeMap<&str, usize> = BTreeMap::new();
    for e in filled {
        *colours.entry(e.color.as_str()).or_default() += 1;
    }
    if colours.len() == 2
        && let Some((colour, n)) = colours.iter().min_by_key(|(_, n)| **n)
    {
        return Some((
            Given::Style(Style { property: "color".into(), value: (*colour).to_string() }),
            format!("the text colour {colour} {}", of(*n)),
        ));
    }
    None
}

fn weight(w: &str) -> u32 {
    match w {
        "bold" | "bolder" => 700,
        "normal" | "lighter" => 400,
        _ => w.parse().unwrap_or(400),
    }
}

fn is_given(given: &Given, e: &Element) -> bool {
    match given {
        Given::Attribute(a) if a == "readonly" => e.readonly,
        Given::Attribute(a) if a == "disabled" => e.disabled,
        Given::Attribute(_) => e.aria_readonly,
        Given::Class(k) => e.classes.iter().any(|x| x == k),
        Given::Style(s) => match s.property.as_str() {
            "font-weight" => e.weight == s.value,
            _ => e.color == s.value,
        },
        Given::Filled => true,
    }
}

/// The box shape from thicker lines between some columns and rows, when the page draws them;
/// `None` (the usual shape for the side) otherwise.
fn box_shape(c: &Candidate) -> Option<BoxShape> {
    let side = c.side;
    let mut at = vec![None; side * side];
    for (e, &i) in c.cells.iter().zip(&c.index) {
        at[i] = Some(e);
    }
    let at: Vec<&Element> = at.into_iter().collect::<Option<Vec<_>>>()?;
    // Separation between column j and j + 1 (and row i and i + 1): the gap plus both borders,
    // at its largest along the line.
    let col_sep = |j: usize| {
        (0..side)
            .map(|r| {
                let (a, b) = (at[r * side + j], at[r * side + j + 1]);
                b.rect[0] - (a.rect[0] + a.rect[2]) + a.borders[2] + b.borders[0]
            })
            .fold(f64::MIN, f64::max)
    };
    let row_sep = |i: usize| {
        (0..side)
            .map(|col| {
                let (a, b) = (at[i * side + col], at[(i + 1) * side + col]);
                b.rect[1] - (a.rect[1] + a.rect[3]) + a.borders[3] + b.borders[1]
            })
            .fold(f64::MIN, f64::max)
    };
    let width = thick_period(&(0..side - 1).map(col_sep).collect::<Vec<_>>(), side)?;
    let height = thick_period(&(0..side - 1).map(row_sep).collect::<Vec<_>>(), side)?;
    (width * height == side).then_some(BoxShape { width, height })
}

/// The box size the thick lines show: the lines after every `p` cells are thicker than the
/// others, for one `p` dividing the side.
fn thick_period(seps: &[f64], side: usize) -> Option<usize> {
    let (lo, hi) = seps.iter().fold((f64::MAX, f64::MIN), |(l, h), &s| (l.min(s), h.max(s)));
    if hi - lo < 0.9 {
        return None;
    }
    let mid = (lo + hi) / 2.0;
    let thick: Vec<usize> =
        seps.iter().enumerate().filter(|(_, s)| **s > mid).map(|(j, _)| j + 1).collect();
    (2..side)
        .filter(|p| side.is_multiple_of(*p))
        .find(|&p| thick == (1..side / p).map(|k| k * p).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(k: usize, x: f64, y: f64, text: &str) -> Element {
        Element {
            k,
            tag: "div".into(),
            rect: [x, y, 30.0, 30.0],
            text: text.into(),
            label: String::new(),
            field: false,
            overlay: false,
            readonly: false,
            disabled: false,
            aria_readonly: false,
            focusable: true,
            classes: vec!["c".into()],
            own: vec!["c".into()],
            weight: "400".into(),
            color: "rgb(0, 0, 0)".into(),
            borders: [1.0; 4],
        }
    }

    fn board(side: usize, at: (f64, f64), text: impl Fn(usize) -> String) -> Vec<Element> {
        (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                // A wider gap after each box of the usual shape.
                let g = crate::grid::Geometry::for_side(side).unwrap();
                let (w, h) = g.box_shape().unwrap();
                let x = at.0 + c as f64 * 32.0 + (c / w) as f64 * 3.0;
                let y = at.1 + r as f64 * 32.0 + (r / h) as f64 * 3.0;
                cell(i, x, y, &text(i))
            })
            .collect()
    }

    #[test]
    fn two_boards_alike_are_told_apart_from_a_smaller_one() {
        let text = |i: usize| if i.is_multiple_of(3) { "5".to_string() } else { String::new() };
        let mut all = board(9, (0.0, 0.0), text);
        all.extend(board(9, (400.0, 0.0), text));
        let found = grids(&[], &all);
        assert_eq!(found.len(), 2);
        assert!(alike(&found[0], &found[1]));
        let places: Vec<String> = found.iter().map(Candidate::placed).collect();
        assert!(places.iter().any(|p| p.ends_with("at x=0, y=0 of the page")), "{places:?}");
        assert!(places.iter().any(|p| p.ends_with("at x=400, y=0 of the page")), "{places:?}");
        // Cells half the size: a smaller board, not an equal one.
        let mut small = board(9, (0.0, 400.0), text);
        for c in &mut small {
            c.rect[2] = 15.0;
            c.rect[3] = 15.0;
            c.rect[0] /= 2.0;
            c.rect[1] = 400.0 + (c.rect[1] - 400.0) / 2.0;
        }
        let smaller = grids(&[], &small);
        assert_eq!(smaller.len(), 1);
        assert!(!alike(&found[0], &smaller[0]));
    }

    #[test]
    fn the_frame_caps_are_named() {
        let left = FramesLeft { too_deep: 1, past_cap: 2 }.to_string();
        assert!(left.contains("1 frame(s) nested more than 3 deep"), "{left}");
        assert!(
            left.contains("2 frame(s) were not looked at: discovery scans at most 16"),
            "{left}"
        );
        assert_eq!(FramesLeft::default().to_string(), "");
    }

    #[test]
    fn finds_a_board_beside_a_finished_one_and_a_number_pad() {
        let mut all = board(9, (0.0, 0.0), |i| if i % 3 == 0 { "5".into() } else { String::new() });
        all.extend(board(9, (400.0, 0.0), |_| "5".into()));
        // A 3x3 number pad of the same cells.
        all.extend((0..9).map(|i| {
            cell(
                200 + i,
                800.0 + (i % 3) as f64 * 32.0,
                (i / 3) as f64 * 32.0,
                &format!("{}", i + 1),
            )
        }));
        let found = grids(&[], &all);
        assert_eq!(found.len(), 2, "two 9x9 grids");
        let ok: Vec<&Candidate> = found.iter().filter(|c| reject(c).is_none()).collect();
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].cells[0].rect[0], 0.0);
        let finished = found.iter().find(|c| reject(c).is_some()).unwrap();
        assert!(reason(finished).unwrap().contains("finished board"));
    }

    #[test]
    fn a_stray_cell_below_the_board_is_left_out() {
        let mut all = board(9, (0.0, 0.0), |i| if i % 4 == 0 { "3".into() } else { String::new() });
        // A button styled as a cell, just under the first column, closer than a gap to cut at.
        all.push(cell(100, 0.0, 9.0 * 32.0 + 6.0 + 10.0, "?"));
        let found = grids(&[], &all);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].cells.len(), 81);
        assert!(found[0].cells.iter().all(|c| c.k != 100));
    }

    #[test]
    fn reading_order_comes_from_positions() {
        let mut all = board(6, (10.0, 10.0), |i| if i == 0 { "1".into() } else { String::new() });
        all.reverse();
        let found = grids(&[], &all);
        assert_eq!(found.len(), 1);
        let c = &found[0];
        assert_eq!(c.side, 6);
        // The first element in document order is the last cell.
        assert_eq!(c.index[0], 35);
        assert_eq!(box_shape(c), Some(BoxShape { width: 3, height: 2 }));
    }

    #[test]
    fn a_calendar_is_not_a_board() {
        let cal = board(4, (0.0, 0.0), |i| format!("{}", i + 10));
        let found = grids(&[], &cal);
        assert!(reason(&found[0]).unwrap().contains("not a value 1-4"), "{:?}", reason(&found[0]));
    }

    #[test]
    fn only_a_state_entries_cannot_have_proves_the_givens() {
        // Three givens, five entries (more than the givens), each kind of hint in turn.
        let filled = [0, 5, 10, 3, 6, 9, 12, 15];
        let mut cells = board(4, (0.0, 0.0), |i| match i {
            0 | 5 | 10 => "1".into(),
            3 | 6 | 9 | 12 | 15 => "2".into(),
            _ => String::new(),
        });
        let entries = &filled[3..];
        for &i in entries {
            cells[i].color = "rgb(34, 85, 204)".into();
        }
        let rule = givens(&grids(&[], &cells).remove(0));
        assert_eq!(rule.given, Given::Filled, "a colour proves nothing: {rule:?}");
        let unproven = rule.unproven.expect("unproven");
        let black = Style { property: "color".into(), value: "rgb(0, 0, 0)".into() };
        assert_eq!(unproven.hint, Some(Given::Style(black)));
        assert!(rule.why.contains("every filled cell is fixed"), "{}", rule.why);
        assert!(rule.why.contains("on 3 of the 8 filled cells is only a hint"), "{}", rule.why);
        for &i in entries {
            cells[i].weight = "700".into();
        }
        let rule = givens(&grids(&[], &cells).remove(0));
        assert_eq!(rule.given, Given::Filled, "a weight proves nothing: {rule:?}");
        for &i in entries {
            cells[i].classes.push("guess".into());
        }
        let rule = givens(&grids(&[], &cells).remove(0));
        assert_eq!(rule.given, Given::Filled, "a class proves nothing: {rule:?}");
        assert_eq!(rule.unproven.unwrap().hint, Some(Given::Class("guess".into())));
        // A read-only state on the givens alone proves them; on an empty cell too, it does not.
        for c in &mut cells {
            c.field = true;
            c.tag = "input".into();
        }
        for &i in &filled[..3] {
            cells[i].readonly = true;
        }
        let rule = givens(&grids(&[], &cells).remove(0));
        assert_eq!(rule.given, Given::Attribute("readonly".into()));
        assert!(rule.unproven.is_none());
        cells[1].readonly = true;
        let rule = givens(&grids(&[], &cells).remove(0));
        assert_eq!(rule.given, Given::Filled, "{rule:?}");
        for c in &mut cells {
            c.readonly = false;
        }
        cells[0].aria_readonly = true;
        let rule = givens(&grids(&[], &cells).remove(0));
        assert_eq!(rule.given, Given::Attribute("aria-readonly".into()));
    }
}
