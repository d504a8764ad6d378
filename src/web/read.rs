//! Reading the board in one WebDriver command: the page source parsed here with `scraper` (for
//! pages whose givens are in the markup), or one script returning every cell's live `value`
//! property and given flag (for pages that draw the board by script, and for read-back after
//! typing, where the markup still shows the old attribute).

use std::collections::HashMap;

use scraper::{Html, Selector};
use serde::Deserialize;
use thirtyfour::prelude::*;

use super::site::{Given, Order, Site, ValueSource};
use super::spec::{BoardSpec, DomSpec};
use crate::grid::Cell;

/// What the page shows, cell by cell in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageBoard {
    /// The board's side (4 to 16).
    pub side: usize,
    /// The text of each cell (`value` property, text or attribute), trimmed.
    pub raw: Vec<String>,
    /// Whether each cell is a given.
    pub given: Vec<bool>,
    /// Reading-order indices of the cells in document order (the Tab order of most pages).
    pub dom_order: Vec<usize>,
}

/// Problems found while reading.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The cell selector does not match the board.
    #[error("selector `{selector}` matched {found} cells, expected {expected}{missing}")]
    CellCount {
        /// The selector.
        selector: String,
        /// How many it matched.
        found: usize,
        /// How many the board has.
        expected: usize,
        /// Cell ids not found, for id templates.
        missing: String,
    },
    /// The cells are not drawn as rows and columns (with `order = "position"`).
    #[error("the {found} cells of `{selector}` are not drawn as {side} rows of {side}: {why}")]
    NotAGrid {
        /// The selector.
        selector: String,
        /// How many it matched.
        found: usize,
        /// The side expected.
        side: usize,
        /// What is off.
        why: String,
    },
    /// A given that is not a symbol of the board.
    #[error("given cell {cell} holds {text:?}, not a value 1-{side}")]
    BadGiven {
        /// The cell.
        cell: Cell,
        /// Its text.
        text: String,
        /// The board's side.
        side: usize,
    },
    /// The script's answer had an unexpected shape.
    #[error("the board script returned something unexpected: {0}")]
    Script(String),
    /// The board is drawn in one element and read from its pixels, not from page cells.
    #[error("the board at `{0}` is read from its pixels, not from page cells")]
    NotElements(String),
}

/// The board of elements `site` describes (a board read from pixels has no cells to read).
fn elements(site: &Site) -> Result<&DomSpec, ReadError> {
    match &site.board {
        BoardSpec::Dom(dom) => Ok(dom),
        BoardSpec::Pixels(p) => Err(ReadError::NotElements(p.element.clone())),
    }
}

impl PageBoard {
    /// The value a cell holds (0 for empty or anything that is not one symbol of the board).
    pub fn digit(&self, index: usize) -> u8 {
        symbol_value(&self.raw[index], self.side)
    }

    /// The givens as a puzzle (values in reading order, 0 = empty). Fails on a given that is not
    /// a symbol.
    pub fn puzzle_values(&self) -> Result<Vec<u8>, ReadError> {
        (0..self.side * self.side)
            .map(|i| {
                if !self.given[i] {
                    return Ok(0);
                }
                match self.digit(i) {
                    0 => Err(ReadError::BadGiven {
                        cell: Cell::from_index(i, self.side),
                        text: self.raw[i].clone(),
                        side: self.side,
                    }),
                    d => Ok(d),
                }
            })
            .collect()
    }

    /// Number of givens holding a value.
    pub fn givens(&self) -> usize {
        (0..self.raw.len()).filter(|&i| self.given[i] && self.digit(i) != 0).count()
    }
}

/// The value a cell's text shows on a board of `side`: `1`-`9`, then `A`-`G` (either case) or
/// the numbers `10`-`16` for 10-16; 0 for anything else (empty, pencil marks, other text).
pub fn symbol_value(text: &str, side: usize) -> u8 {
    let text = text.trim();
    let value = match text.as_bytes() {
        [d @ b'1'..=b'9'] => d - b'0',
        [l @ (b'a'..=b'g' | b'A'..=b'G')] => l.to_ascii_uppercase() - b'A' + 10,
        [b'1', d @ b'0'..=b'6'] => 10 + d - b'0',
        _ => 0,
    };
    if usize::from(value) <= side { value } else { 0 }
}

/// The key that types `value`: `1`-`9`, then `A`-`G` for 10-16.
pub fn symbol_key(value: u8) -> char {
    match value {
        1..=9 => char::from(b'0' + value),
        _ => char::from(b'A' + value.saturating_sub(10)),
    }
}

/// Parses a page source (of the board's frame). Only for sites whose cells are in document
/// or id order and whose givens show in the markup.
pub fn parse_source(html: &str, site: &Site) -> Result<PageBoard, ReadError> {
    let dom = elements(site)?;
    let selector = &dom.cells;
    // Validation parsed every selector already; an error here is still reported, not unwrapped.
    let sel = Selector::parse(selector)
        .map_err(|e| ReadError::Script(format!("selector `{selector}`: {e}")))?;
    let doc = Html::parse_document(html);
    let cells = doc
        .select(&sel)
        .map(|el| {
            let e = el.value();
            let text = || el.text().collect::<String>().trim().to_string();
            let value = match &dom.value {
                ValueSource::Value if matches!(e.name(), "input" | "textarea") => {
                    e.attr("value").unwrap_or("").trim().to_string()
                }
                ValueSource::Value | ValueSource::Text => text(),
                ValueSource::Attribute(a) => e.attr(a).unwrap_or("").trim().to_string(),
                // Never read from source (the caller reads such boards by script).
                ValueSource::Overlay => String::new(),
            };
            let given = match &dom.given {
                Given::Attribute(a) => e.attr(a).is_some(),
                Given::Class(c) => {
                    e.classes().any(|x| x == c)
                        || el.descendants().any(|d| {
                            d.value().as_element().is_some_and(|x| x.classes().any(|k| k == c))
                        })
                }
                Given::Filled | Given::Style(_) => !value.is_empty(),
            };
            RawCell { id: e.id().map(str::to_string), value, given, at: None }
        })
        .collect();
    assemble(site, cells)
}

/// One matched element, before it is placed on the board.
struct RawCell {
    id: Option<String>,
    value: String,
    given: bool,
    /// Its centre on screen (script reads only).
    at: Option<(f64, f64)>,
}

/// Places matched elements (document order) on the board by the site's order.
fn assemble(site: &Site, mut cells: Vec<RawCell>) -> Result<PageBoard, ReadError> {
    let dom = elements(site)?;
    let selector = dom.cells.clone();
    let side = dom.side;
    // Text that is not one symbol (pencil marks, "empty") is an empty cell where values are
    // read from text or an attribute; only a text field's stray text is a value to clear.
    if dom.value != ValueSource::Value {
        for c in &mut cells {
            if symbol_value(&c.value, side) == 0 {
                c.value.clear();
            }
        }
    }
    // Where nothing proves the givens, every cell holding a value is fixed: the marker's own
    // reading (an input's markup value, for `filled`) would leave a value a script restored
    // open to being typed over.
    if dom.unproven.is_some() {
        for c in &mut cells {
            c.given = !c.value.is_empty();
        }
    }
    let n = side * side;
    let count = |found: usize, missing: String| ReadError::CellCount {
        selector: selector.clone(),
        found,
        expected: n,
        missing,
    };
    match dom.order {
        Order::Document => {
            if cells.len() != n {
                return Err(count(cells.len(), String::new()));
            }
            Ok(PageBoard {
                side,
                raw: cells.iter().map(|c| c.value.clone()).collect(),
                given: cells.iter().map(|c| c.given).collect(),
                dom_order: (0..n).collect(),
            })
        }
        Order::Position => {
            if cells.len() != n {
                return Err(count(cells.len(), String::new()));
            }
            let points: Vec<(f64, f64)> =
                cells.iter().map(|c| c.at.unwrap_or((0.0, 0.0))).collect();
            let dom_order = lattice(&points, side).map_err(|why| ReadError::NotAGrid {
                selector: selector.clone(),
                found: cells.len(),
                side,
                why,
            })?;
            let mut raw = vec![String::new(); n];
            let mut given = vec![false; n];
            for (cell, &i) in cells.into_iter().zip(&dom_order) {
                raw[i] = cell.value;
                given[i] = cell.given;
            }
            Ok(PageBoard { side, raw, given, dom_order })
        }
        Order::Id => {
            let ids = dom.cell_ids().unwrap_or_default();
            let index_of: HashMap<&str, usize> =
                ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
            let mut raw = vec![None; n];
            let mut dom_order = Vec::with_capacity(n);
            for cell in &cells {
                if let Some(&i) = cell.id.as_deref().and_then(|id| index_of.get(id)) {
                    raw[i] = Some((cell.value.clone(), cell.given));
                    dom_order.push(i);
                }
            }
            let missing: Vec<&str> = ids
                .iter()
                .enumerate()
                .filter(|(i, _)| raw[*i].is_none())
                .map(|(_, id)| id.as_str())
                .collect();
            if cells.len() != n || !missing.is_empty() {
                return Err(count(cells.len(), missing_note(&missing)));
            }
            let (raw, given) = raw.into_iter().flatten().unzip();
            Ok(PageBoard { side, raw, given, dom_order })
        }
    }
}

/// The reading-order index of each point (cell centres, in document order), when they lie on
/// `side` rows and `side` columns with one point at each crossing; else why not.
pub fn lattice(points: &[(f64, f64)], side: usize) -> Result<Vec<usize>, String> {
    if points.len() != side * side || side == 0 {
        return Err(format!("{} cells for {side} rows of {side}", points.len()));
    }
    let rows = bands(points.iter().map(|p| p.1), side).ok_or("the cells are not in even rows")?;
    let cols =
        bands(points.iter().map(|p| p.0), side).ok_or("the cells are not in even columns")?;
    let mut seen = vec![false; side * side];
    let mut out = Vec::with_capacity(points.len());
    for &(x, y) in points {
        let (r, c) = (band_of(&rows, y), band_of(&cols, x));
        let i = r * side + c;
        if seen[i] {
            return Err(format!("two cells are drawn at row {}, column {}", r + 1, c + 1));
        }
        seen[i] = true;
        out.push(i);
    }
    Ok(out)
}

/// Splits coordinates into `count` groups of equal size (sorted, then cut into equal runs) and
/// returns the boundaries between groups; `None` when the groups are not clearly apart (a
/// spread inside a group of at least half the smallest gap between groups).
fn bands(values: impl Iterator<Item = f64>, count: usize) -> Option<Vec<f64>> {
    let mut v: Vec<f64> = values.collect();
    if count == 0
        || v.is_empty()
        || !v.len().is_multiple_of(count)
        || v.iter().any(|x| !x.is_finite())
    {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let groups: Vec<&[f64]> = v.chunks(v.len() / count).collect();
    let spread = groups.iter().map(|g| g[g.len() - 1] - g[0]).fold(0.0, f64::max);
    let gap =
        groups.windows(2).map(|w| w[1][0] - w[0][w[0].len() - 1]).fold(f64::INFINITY, f64::min);
    if count > 1 && (gap <= 0.0 || spread * 2.0 >= gap) {
        return None;
    }
    Some(groups.windows(2).map(|w| (w[0][w[0].len() - 1] + w[1][0]) / 2.0).collect())
}

/// Which group a coordinate falls in, given the boundaries between groups.
fn band_of(bounds: &[f64], x: f64) -> usize {
    bounds.iter().filter(|&&b| x > b).count()
}

fn missing_note(missing: &[&str]) -> String {
    match missing.len() {
        0 => String::new(),
        1..=5 => format!(" (no cell with id {})", missing.join(", ")),
        k => format!(" ({k} cell ids not found, first {})", missing[..3].join(", ")),
    }
}

/// What the board scripts share: `valueOf(e)` (a cell's value by the site's `board.value`),
/// `givenOf(e, v)` (by `board.given`), `centre(e)` and `inside(rect, x, y)`. They expect
/// `sel`, `vkind`, `vname`, `kind` and `name` to be bound.
pub const CELL_JS: &str = r#"
const symbolText = t => String(t == null ? '' : t).trim();
const isField = e => e.tagName === 'INPUT' || e.tagName === 'TEXTAREA';
// An SVG cell's value is the <text> drawn over it: the one whose centre lies nearest the cell's
// centre, within a third of the cell (a Killer sum or a pencil mark in a corner is not its value).
// Found once per script run and cell (the guard reads every cell at each key), again if the
// page replaced it.
const inside = (r, x, y) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
const overSeen = new Map();
// The centres of an <svg>'s texts, measured once per script run (again if one was replaced).
const textsSeen = new Map();
const textCentres = svg => {
  const seen = textsSeen.get(svg);
  if (seen && seen.every(([t]) => t.isConnected)) return seen;
  const all = Array.from(svg.querySelectorAll('text')).map(t => {
    const b = t.getBoundingClientRect();
    return [t, b.left + b.width / 2, b.top + b.height / 2];
  });
  textsSeen.set(svg, all);
  return all;
};
const overText = e => {
  const seen = overSeen.get(e);
  if (seen && seen.isConnected) return seen;
  const svg = e.ownerSVGElement;
  if (!svg) return null;
  const r = e.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2, reach = Math.min(r.width, r.height) / 3;
  let best = null, near = Infinity;
  for (const [t, x, y] of textCentres(svg)) {
    const d = Math.hypot(x - cx, y - cy);
    if (d <= reach && d < near) { best = t; near = d; }
  }
  if (best) overSeen.set(e, best);
  return best;
};
const valueOf = e => vkind === 'attribute' ? symbolText(e.getAttribute(vname))
  : vkind === 'overlay' ? symbolText((overText(e) || {}).textContent)
  : vkind === 'value' && isField(e) ? symbolText(e.value) : symbolText(e.textContent);
const holder = (e, v) => {
  if (vkind === 'overlay') return overText(e) || e;
  let h = e;
  for (;;) {
    const next = Array.from(h.children).find(c => symbolText(c.textContent) === v);
    if (!next) return h;
    h = next;
  }
};
const givenOf = (e, v) => {
  if (kind === 'attribute') return e.hasAttribute(name);
  if (kind === 'class') return e.classList.contains(name) || !!e.querySelector('.' + CSS.escape(name))
    || (vkind === 'overlay' && !!overText(e) && overText(e).classList.contains(name));
  if (kind === 'style') {
    if (v === '') return false;
    const at = name.indexOf(':');
    const prop = name.slice(0, at).trim(), want = name.slice(at + 1).trim();
    return getComputedStyle(holder(e, v)).getPropertyValue(prop).trim() === want;
  }
  if (v === '') return false;
  return isField(e) ? (e.defaultValue !== undefined && e.defaultValue.trim() !== '') || markupless() : true;
};
// Whether no field of the board has a value in its markup: the page sets every value by script
// (the `value` property), so a `filled` given is a field holding a value (else none would be).
let markuplessSeen = null;
const markupless = () => {
  if (markuplessSeen === null) {
    const all = Array.from(document.querySelectorAll(sel));
    markuplessSeen = all.some(isField) && all.every(x => !isField(x) || String(x.defaultValue || '').trim() === '');
  }
  return markuplessSeen;
};
const centre = e => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
"#;

/// The script that reads every cell. Arguments: the cell selector, the given kind (`attribute`,
/// `class`, `filled`, `style`) and its name, the value kind (`value`, `text`, `attribute`) and
/// its name. Returns `[[value, given, id, x, y] ...]` in document order of the selector's
/// matches, with ids and centres so the caller places them.
pub static READ_JS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("const [sel, kind, name, vkind, vname] = arguments;\n{CELL_JS}\nreturn {READ_CELLS};")
});

/// The expression [`READ_JS`] returns (with [`CELL_JS`] and its bindings before it).
pub const READ_CELLS: &str = r#"Array.from(document.querySelectorAll(sel)).map(e => {
  const v = valueOf(e);
  const [x, y] = centre(e);
  return [v, givenOf(e, v), e.id || null, x, y];
})"#;

/// One cell as [`READ_JS`] returns it: value, given, id, centre x and y.
#[derive(Debug, Deserialize)]
pub struct ScriptCell(pub String, pub bool, pub Option<String>, pub f64, pub f64);

/// The arguments of [`READ_JS`], in its order.
#[derive(Clone, Debug)]
pub struct ReadArgs {
    /// The cell selector.
    pub selector: String,
    /// How a given is marked: `attribute`, `class`, `filled` or `style`.
    pub kind: &'static str,
    /// The attribute, class or style (empty for `filled`).
    pub name: String,
    /// Where values are: `value`, `text`, `attribute` or `overlay`.
    pub value_kind: &'static str,
    /// The attribute, with `attribute`.
    pub value_name: String,
}

impl ReadArgs {
    /// The arguments for `site`.
    pub fn new(site: &Site) -> ReadArgs {
        let Some(dom) = site.board.dom() else {
            // A board drawn in one element (read from its pixels, never by this script): that
            // element, read as a board whose filled cells are givens.
            return ReadArgs {
                selector: site.board.cells().to_string(),
                kind: "filled",
                name: String::new(),
                value_kind: "value",
                value_name: String::new(),
            };
        };
        let (kind, name) = dom.given.script_args();
        let (value_kind, value_name) = dom.value.script_args();
        ReadArgs {
            selector: dom.cells.clone(),
            kind,
            name,
            value_kind,
            value_name: value_name.to_string(),
        }
    }

    /// As the script's `arguments`.
    pub fn values(&self) -> Vec<serde_json::Value> {
        vec![
            self.selector.clone().into(),
            self.kind.into(),
            self.name.clone().into(),
            self.value_kind.into(),
            self.value_name.clone().into(),
        ]
    }
}

/// Runs [`READ_JS`]: every cell, in document order.
pub async fn cells(driver: &WebDriver, args: &ReadArgs) -> WebDriverResult<Vec<ScriptCell>> {
    driver.execute(READ_JS.as_str(), args.values()).await?.convert()
}

/// Places the cells [`READ_JS`] returned on the board.
pub fn from_script(site: &Site, cells: Vec<ScriptCell>) -> Result<PageBoard, ReadError> {
    assemble(
        site,
        cells
            .into_iter()
            .map(|ScriptCell(value, given, id, x, y)| RawCell {
                id,
                value,
                given,
                at: Some((x, y)),
            })
            .collect(),
    )
}

/// Parses the pixel reader's digit templates on a thread of their own, so the first read of a
/// canvas does not wait for them (called when a board is known to be read from pixels, before
/// the page is ready).
pub fn warm_up_pixels() {
    std::thread::spawn(crate::pixels::digits::template_count);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::site;

    fn page(cells: &str) -> String {
        format!("<html><body><table id=\"sudoku_main_board\">{cells}</table></body></html>")
    }

    #[test]
    fn reads_givens_and_blanks_by_id() {
        let site = site::find("sudoku.name", None).unwrap().site;
        // Document order reversed: ids, not positions, place the cells.
        let cells: String = (1..=81)
            .rev()
            .map(|i| {
                if i == 1 {
                    "<tr><td><input class=\"i3\" id=\"c1\" readonly=\"true\" value=\"7\"></td></tr>"
                        .to_string()
                } else {
                    format!("<tr><td><input class=\"i3\" id=\"c{i}\"></td></tr>")
                }
            })
            .collect();
        let board = parse_source(&page(&cells), &site).unwrap();
        assert_eq!(board.digit(0), 7);
        assert!(board.given[0] && !board.given[1]);
        assert_eq!(board.dom_order[0], 80);
        assert_eq!(board.givens(), 1);
    }

    #[test]
    fn counts_cells_on_mismatch() {
        let site = site::find("sudoku.name", None).unwrap().site;
        let cells: String = (1..=80)
            .map(|i| format!("<tr><td><input class=\"i3\" id=\"c{i}\"></td></tr>"))
            .collect();
        let err = parse_source(&page(&cells), &site).unwrap_err().to_string();
        assert_eq!(
            err,
            "selector `table#sudoku_main_board input.i3` matched 80 cells, expected 81 (no cell with id c81)"
        );
    }
}
