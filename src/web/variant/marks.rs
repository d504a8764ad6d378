//! The variant marks script and what it returns, shared by the board read ([`super::dom`]: in
//! the same script as the cells) and by discovery (a board with no values whose cage outlines
//! may make it a Killer). For every cell (the site's selector, document order):
//!
//! - an element cell: the borders, backgrounds and classes of the cell element and of its
//!   ancestors that hold no other cell (the cell's box: a `<td>` around an `<input>`), and the
//!   text in that box outside the cell element (a Killer sum in the corner);
//! - an SVG cell (a `<rect>`): the stroked shapes of its `<svg>` (`<path>`, `<polyline>`,
//!   `<polygon>`, `<rect>`, `<line>`), sampled along their length in screen coordinates:
//!   - a dashed one (`stroke-dasharray`) marks a side dashed where a stretch of it runs along
//!     the middle of it (a cage outline drawn on the cell edge or inset from it; corners, where
//!     inset outlines turn, say nothing);
//!   - a solid one gives a side its width where it runs along the cell edge (a region border),
//!     as the cell's own stroke gives all four;
//!   - a stroke of either kind that runs along most of one of the cell's diagonals crosses it
//!     (an X diagonal drawn as a line);
//!
//!   its fill is its background; the `<text>`s over it other than its value are its small text.

use serde::Deserialize;

use super::{CellMarks, SideMark, VariantError};
use crate::web::read::CELL_JS;

/// Defines `variantMarks(sel)` (per matched cell, document order:
/// `[[[width, dashed] x 4], [backgrounds], [classes], small text, crossed]`) and `stateAt(path)` (the
/// JSON copy of a dotted page-state path from `window`, or null). Needs [`CELL_JS`] before it.
pub const MARKS_FN: &str = r#"
const variantMarks = sel => {
  const cells = Array.from(document.querySelectorAll(sel));
  const cellSet = new Set(cells);
  const sides = ['top', 'right', 'bottom', 'left'];
  const clear = c => !c || c === 'none' || c === 'transparent' || /^rgba\(.*,\s*0\)$/.test(c);
  // How many cells each ancestor holds: a cell's box is it and the ancestors holding it alone.
  const held = new Map();
  for (const e of cells) {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) held.set(p, (held.get(p) || 0) + 1);
  }
  const htmlMarks = e => {
    const chain = [e];
    for (let p = e.parentElement; p && p !== document.body && held.get(p) === 1; p = p.parentElement) chain.push(p);
    const box = chain[chain.length - 1];
    const marks = [[0, false], [0, false], [0, false], [0, false]];
    const backgrounds = [], classes = [];
    for (const el of chain) {
      const s = getComputedStyle(el);
      for (let k = 0; k < 4; k++) {
        const style = s.getPropertyValue('border-' + sides[k] + '-style');
        if (style === 'none' || style === 'hidden') continue;
        const width = parseFloat(s.getPropertyValue('border-' + sides[k] + '-width')) || 0;
        if (width <= 0) continue;
        if (style === 'dashed' || style === 'dotted') marks[k][1] = true;
        else marks[k][0] = Math.max(marks[k][0], width);
      }
      const bg = s.backgroundColor;
      if (!clear(bg) && !backgrounds.includes(bg)) backgrounds.push(bg);
      for (const c of el.classList) if (!classes.includes(c)) classes.push(c);
    }
    let small = '';
    if (box !== e || e.childElementCount > 0) {
      const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        if (e.contains(t) || !t.parentElement || !t.textContent.trim()) continue;
        const cs = getComputedStyle(t.parentElement);
        if (cs.display === 'none' || cs.visibility === 'hidden') continue;
        small += t.textContent;
      }
    }
    return [marks, backgrounds, classes, small.trim(), false];
  };
  // A shape's outline as lines of points in its own coordinates: straight pieces read from its
  // attributes (a path of M, L, H, V and Z commands too), else points along its length.
  const outline = g => {
    const num = a => (g[a] && g[a].baseVal) ? g[a].baseVal.value : 0;
    const tag = g.tagName.toLowerCase();
    if (tag === 'line') return [[[num('x1'), num('y1')], [num('x2'), num('y2')]]];
    if (tag === 'rect') {
      const x = num('x'), y = num('y'), w = num('width'), h = num('height');
      return [[[x, y], [x + w, y], [x + w, y + h], [x, y + h], [x, y]]];
    }
    if (tag === 'polyline' || tag === 'polygon') {
      const pts = Array.from(g.points || []).map(p => [p.x, p.y]);
      if (tag === 'polygon' && pts.length) pts.push(pts[0]);
      return [pts];
    }
    const d = g.getAttribute('d') || '';
    if (/^[\sMmLlHhVvZz0-9.,eE+-]*$/.test(d)) {
      const lines = [];
      let line = null, x = 0, y = 0, sx = 0, sy = 0, cmd = '';
      const toks = d.match(/[MmLlHhVvZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) || [];
      for (let i = 0; i < toks.length;) {
        if (/[A-Za-z]/.test(toks[i])) cmd = toks[i++];
        const n = () => parseFloat(toks[i++]);
        if (cmd === 'Z' || cmd === 'z') {
          if (line) line.push([sx, sy]);
          x = sx; y = sy; line = null; cmd = '';
          continue;
        }
        if (i >= toks.length || /[A-Za-z]/.test(toks[i])) { if (!cmd) i++; continue; }
        const rel = cmd === cmd.toLowerCase();
        const C = cmd.toUpperCase();
        if (C === 'M') {
          const nx = n(), ny = n();
          x = rel ? x + nx : nx; y = rel ? y + ny : ny; sx = x; sy = y;
          line = [[x, y]]; lines.push(line);
          cmd = rel ? 'l' : 'L';
        } else if (C === 'L') {
          const nx = n(), ny = n();
          x = rel ? x + nx : nx; y = rel ? y + ny : ny;
          if (line) line.push([x, y]);
        } else if (C === 'H') {
          const nx = n(); x = rel ? x + nx : nx;
          if (line) line.push([x, y]);
        } else if (C === 'V') {
          const ny = n(); y = rel ? y + ny : ny;
          if (line) line.push([x, y]);
        } else i++;
      }
      return lines;
    }
    let len = 0;
    try { len = g.getTotalLength(); } catch (x) { return []; }
    if (!(len > 0)) return [];
    const steps = Math.min(1000, Math.ceil(len / 2)), step = len / steps, lines = [];
    let line = [], prev = null;
    for (let k = 0; k <= steps; k++) {
      const p = g.getPointAtLength(k * step);
      // Two points further apart than a step straddle a move between subpaths.
      if (prev && Math.hypot(p.x - prev.x, p.y - prev.y) > step * 1.5) { lines.push(line); line = []; }
      line.push([p.x, p.y]);
      prev = p;
    }
    lines.push(line);
    return lines;
  };
  // A shape's stroke width in screen pixels (its user units scaled by its transform).
  const strokeWidth = (g, s) => {
    const m = g.getScreenCTM();
    return m ? (parseFloat(s.strokeWidth) || 0) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) : 0;
  };
  // Per <svg>: its stroked shapes as short segments in screen coordinates (with the stroke's
  // width there and whether it is dashed), and its texts.
  const svgSeen = new Map();
  const svgOf = svg => {
    if (svgSeen.has(svg)) return svgSeen.get(svg);
    const segs = [];
    for (const g of svg.querySelectorAll('path, polyline, polygon, rect, line')) {
      if (cellSet.has(g)) continue;
      const s = getComputedStyle(g);
      if (clear(s.stroke) || s.display === 'none' || s.visibility === 'hidden') continue;
      const dashed = !!s.strokeDasharray && s.strokeDasharray !== 'none';
      const m = g.getScreenCTM(), width = strokeWidth(g, s);
      if (!m || !(width > 0)) continue;
      for (const line of outline(g)) {
        for (let k = 1; k < line.length; k++) {
          const a = new DOMPoint(line[k - 1][0], line[k - 1][1]).matrixTransform(m);
          const b = new DOMPoint(line[k][0], line[k][1]).matrixTransform(m);
          const n = Math.min(1000, Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 2)));
          for (let j = 0; j < n; j++) {
            segs.push([a.x + (b.x - a.x) * j / n, a.y + (b.y - a.y) * j / n,
                       a.x + (b.x - a.x) * (j + 1) / n, a.y + (b.y - a.y) * (j + 1) / n,
                       width, dashed]);
          }
        }
      }
    }
    // Segments by their midpoints, in squares of 8 px, so a cell looks at its own only.
    const buckets = new Map();
    for (const seg of segs) {
      const key = Math.floor((seg[0] + seg[2]) / 16) + ',' + Math.floor((seg[1] + seg[3]) / 16);
      const list = buckets.get(key);
      if (list) list.push(seg); else buckets.set(key, [seg]);
    }
    const seen = {buckets, texts: textCentres(svg)};
    svgSeen.set(svg, seen);
    return seen;
  };
  const svgMarks = e => {
    const {buckets, texts} = svgOf(e.ownerSVGElement);
    const r = e.getBoundingClientRect();
    const band = Math.min(r.width, r.height) * 0.3;
    const marks = [[0, false], [0, false], [0, false], [0, false]];
    const segs = [];
    for (let bx = Math.floor((r.left - 1) / 8); bx <= Math.floor((r.right + 1) / 8); bx++) {
      for (let by = Math.floor((r.top - 1) / 8); by <= Math.floor((r.bottom + 1) / 8); by++) {
        const list = buckets.get(bx + ',' + by);
        if (list) for (const seg of list) segs.push(seg);
      }
    }
    const own = getComputedStyle(e);
    const ownWidth = clear(own.stroke) ? 0 : strokeWidth(e, own);
    for (const k of [0, 1, 2, 3]) marks[k][0] = ownWidth;
    const edge = Math.min(r.width, r.height) * 0.15;
    // How far along each of the cell's diagonals (down-right, down-left) strokes run close to it.
    const along = [[Infinity, -Infinity], [Infinity, -Infinity]];
    for (const [x1, y1, x2, y2, width, dashed] of segs) {
      const x = (x1 + x2) / 2, y = (y1 + y2) / 2;
      if (x < r.left - 0.5 || x > r.right + 0.5 || y < r.top - 0.5 || y > r.bottom + 0.5) continue;
      const dx = Math.min(x - r.left, r.right - x), dy = Math.min(y - r.top, r.bottom - y);
      const wide = Math.abs(x2 - x1), tall = Math.abs(y2 - y1);
      const top = y - r.top < r.bottom - y ? 0 : 2, left = x - r.left < r.right - x ? 3 : 1;
      if (dashed) {
        if (wide > 2 * tall && dy < band && dx > band) marks[top][1] = true;
        if (tall > 2 * wide && dx < band && dy > band) marks[left][1] = true;
      } else {
        if (wide > 2 * tall && dy < edge && dx > band) marks[top][0] = Math.max(marks[top][0], width);
        if (tall > 2 * wide && dx < edge && dy > band) marks[left][0] = Math.max(marks[left][0], width);
      }
      if (wide > 0.5 * tall && tall > 0.5 * wide) {
        const u = (x - r.left) / r.width, v = (y - r.top) / r.height;
        const k = (x2 - x1) * (y2 - y1) > 0 ? 0 : 1;
        // Distance from the diagonal, in cell sides, and the position along it (0 to 1).
        const off = k === 0 ? Math.abs(u - v) : Math.abs(u + v - 1), at = k === 0 ? (u + v) / 2 : (u + 1 - v) / 2;
        if (off < 0.1 && at >= 0 && at <= 1) {
          along[k][0] = Math.min(along[k][0], at);
          along[k][1] = Math.max(along[k][1], at);
        }
      }
    }
    const crossed = along.some(([a, b]) => b - a >= 0.6);
    const value = overText(e);
    const small = [];
    for (const [t, x, y] of texts) {
      if (t !== value && inside(r, x, y) && t.textContent.trim()) small.push(t.textContent.trim());
    }
    const fill = getComputedStyle(e).fill;
    return [marks, clear(fill) ? [] : [fill], Array.from(e.classList), small.join(' '), crossed];
  };
  return cells.map(e => e.ownerSVGElement ? svgMarks(e) : htmlMarks(e));
};
const stateAt = path => {
  let o = window;
  for (const k of String(path).split('.')) {
    if (o === null || o === undefined) return null;
    try { o = o[k]; } catch (x) { return null; }
  }
  if (o === null || o === undefined) return null;
  try { return JSON.parse(JSON.stringify(o)); } catch (x) { return 'not readable as data'; }
};
"#;

/// The marks of every cell alone (discovery). Arguments: the cell selector.
pub static MARKS_JS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "const [sel] = arguments;\nconst kind = 'filled', name = '', vkind = 'overlay', \
         vname = '';\n{CELL_JS}\n{MARKS_FN}\nreturn variantMarks(sel);"
    )
});

/// One cell as `variantMarks` returns it.
#[derive(Debug, Deserialize)]
pub struct ScriptMarks([(f64, bool); 4], Vec<String>, Vec<String>, String, bool);

/// A Killer sum: one to three digits, nothing else.
fn sum_of(text: &str) -> Option<u32> {
    let t = text.trim();
    if (1..=3).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok().filter(|&s| s > 0)
    } else {
        None
    }
}

/// Puts the script's cells (document order) in reading order: `dom_order[k]` is the reading
/// index of the k-th cell in document order.
pub fn in_reading_order(
    cells: Vec<ScriptMarks>,
    dom_order: &[usize],
    side: usize,
) -> Result<Vec<CellMarks>, VariantError> {
    let n = side * side;
    if cells.len() != n || dom_order.len() != n || dom_order.iter().any(|&i| i >= n) {
        return Err(VariantError::Script(format!("{} cells marked for {n}", cells.len())));
    }
    let mut out = vec![CellMarks::default(); n];
    for (ScriptMarks(sides, backgrounds, classes, small, crossed), &i) in
        cells.into_iter().zip(dom_order)
    {
        out[i] = CellMarks {
            sides: sides.map(|(width, dashed)| SideMark { width, dashed }),
            backgrounds,
            classes,
            sum: sum_of(&small),
            crossed,
        };
    }
    Ok(out)
}

/// The region of every cell (reading order, labels `0..` in order of first appearance) that a
/// page-state value holds: `side` rows of `side` labels (`Game.areas[row][col]`), or
/// `side * side` labels in one list; labels are numbers or strings. `None` where the state is
/// absent (null).
pub fn state_regions(value: &serde_json::Value, side: usize) -> Result<Option<Vec<usize>>, String> {
    use serde_json::Value;
    let label = |v: &Value| match v {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) => Ok(s.clone()),
        other => Err(format!("holds {other} where a region label belongs")),
    };
    let labels: Vec<String> = match value {
        Value::Null => return Ok(None),
        Value::Array(rows) if rows.len() == side && rows.iter().all(Value::is_array) => {
            let mut out = Vec::with_capacity(side * side);
            for (r, row) in rows.iter().enumerate() {
                let row = row.as_array().map(Vec::as_slice).unwrap_or_default();
                if row.len() != side {
                    return Err(format!("row {} has {} cells, not {side}", r + 1, row.len()));
                }
                for v in row {
                    out.push(label(v)?);
                }
            }
            out
        }
        Value::Array(flat) if flat.len() == side * side => {
            flat.iter().map(label).collect::<Result<_, _>>()?
        }
        Value::String(s) => return Err(s.clone()),
        other => {
            let shape = match other {
                Value::Array(a) => format!("a list of {}", a.len()),
                _ => "no list".into(),
            };
            return Err(format!(
                "is {shape}, not {side} rows of {side} region labels or {} labels",
                side * side
            ));
        }
    };
    let mut names: Vec<&String> = Vec::new();
    let mut out = Vec::with_capacity(labels.len());
    for l in &labels {
        let k = names.iter().position(|n| *n == l).unwrap_or_else(|| {
            names.push(l);
            names.len() - 1
        });
        out.push(k);
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_short_numbers_only() {
        assert_eq!(sum_of(" 17 "), Some(17));
        assert_eq!(sum_of("1 2"), None, "pencil marks are no sum");
        assert_eq!(sum_of(""), None);
        assert_eq!(sum_of("0"), None);
        assert_eq!(sum_of("x"), None);
    }

    #[test]
    fn page_state_regions_are_rows_of_labels_or_one_list() {
        let rows = serde_json::json!([[5, 5, 7, 7], [5, 5, 7, 7], [1, 1, 2, 2], [1, 1, 2, 2]]);
        let want = vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
        assert_eq!(state_regions(&rows, 4), Ok(Some(want.clone())));
        let flat = serde_json::json!([
            "a", "a", "b", "b", "a", "a", "b", "b", "c", "c", "d", "d", "c", "c", "d", "d"
        ]);
        assert_eq!(state_regions(&flat, 4), Ok(Some(want)));
        assert_eq!(state_regions(&serde_json::Value::Null, 4), Ok(None));
        let short = serde_json::json!([[1, 1, 2, 2], [1, 1, 2], [3, 3, 4, 4], [3, 3, 4, 4]]);
        assert_eq!(state_regions(&short, 4), Err("row 2 has 3 cells, not 4".into()));
        let e = state_regions(&serde_json::json!({"a": 1}), 4).unwrap_err();
        assert!(e.contains("not 4 rows of 4 region labels"), "{e}");
        let e = state_regions(
            &serde_json::json!([[1, [2], 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]),
            4,
        );
        assert!(e.unwrap_err().contains("where a region label belongs"));
    }
}
