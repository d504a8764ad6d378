//! The variant marks of a board of page elements, read in one script: for every cell (the
//! site's selector, document order) the borders, backgrounds and classes of the cell element
//! and of its ancestors that hold no other cell (the cell's box: a `<td>` around an `<input>`),
//! and the text in that box outside the cell element (a Killer sum in the corner).

use std::sync::Arc;
use std::time::Instant;

use serde::Deserialize;
use thirtyfour::prelude::*;

use super::{CellMarks, Found, SideMark, VariantError, establish};
use crate::grid::Geometry;
use crate::web::error::PlayError;
use crate::web::read::PageBoard;
use crate::web::site::Site;

/// Arguments: the cell selector. Returns, per matched cell in document order,
/// `[[[width, dashed] x 4], [backgrounds], [classes], small text]`.
pub const MARKS_JS: &str = r#"
const sel = arguments[0];
const cells = Array.from(document.querySelectorAll(sel));
const sides = ['top', 'right', 'bottom', 'left'];
const clear = c => !c || c === 'transparent' || /^rgba\(.*,\s*0\)$/.test(c);
return cells.map(e => {
  const chain = [e];
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (p.querySelectorAll(sel).length !== 1) break;
    chain.push(p);
  }
  const box = chain[chain.length - 1];
  const marks = sides.map(() => [0, false]);
  const backgrounds = [], classes = [];
  for (const el of chain) {
    const s = getComputedStyle(el);
    sides.forEach((side, k) => {
      const style = s.getPropertyValue('border-' + side + '-style');
      const width = parseFloat(s.getPropertyValue('border-' + side + '-width')) || 0;
      if (width <= 0 || style === 'none' || style === 'hidden') return;
      if (style === 'dashed' || style === 'dotted') marks[k][1] = true;
      else marks[k][0] = Math.max(marks[k][0], width);
    });
    const bg = s.getPropertyValue('background-color');
    if (!clear(bg) && !backgrounds.includes(bg)) backgrounds.push(bg);
    for (const c of el.classList) if (!classes.includes(c)) classes.push(c);
  }
  let small = '';
  const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (e.contains(t) || !t.parentElement) continue;
    const cs = getComputedStyle(t.parentElement);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    small += t.textContent;
  }
  return [marks, backgrounds, classes, small.trim()];
});
"#;

/// One cell as [`MARKS_JS`] returns it.
#[derive(Debug, Deserialize)]
struct ScriptMarks([(f64, bool); 4], Vec<String>, Vec<String>, String);

/// A Killer sum: one to three digits, nothing else.
fn sum_of(text: &str) -> Option<u32> {
    let t = text.trim();
    if (1..=3).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok().filter(|&s| s > 0)
    } else {
        None
    }
}

/// Puts the script's cells (document order) in reading order by the board's `dom_order`.
fn in_reading_order(
    cells: Vec<ScriptMarks>,
    board: &PageBoard,
) -> Result<Vec<CellMarks>, VariantError> {
    let n = board.side * board.side;
    if cells.len() != n || board.dom_order.len() != n {
        return Err(VariantError::Script(format!("{} cells marked for {n}", cells.len())));
    }
    let mut out = vec![CellMarks::default(); n];
    for (ScriptMarks(sides, backgrounds, classes, small), &i) in
        cells.into_iter().zip(&board.dom_order)
    {
        out[i] = CellMarks {
            sides: sides.map(|(width, dashed)| SideMark { width, dashed }),
            backgrounds,
            classes,
            sum: sum_of(&small),
        };
    }
    Ok(out)
}

/// Reads the marks of `board`'s cells and establishes its variant against the site's.
pub async fn read(driver: &WebDriver, site: &Site, board: &PageBoard) -> Result<Found, PlayError> {
    let Some(dom) = site.board.dom() else {
        return Ok(Found::default());
    };
    let boxes = site.geometry().map_err(PlayError::Logic)?.box_shape();
    let answer = driver
        .execute(MARKS_JS, vec![dom.cells.clone().into()])
        .await
        .map_err(|e| VariantError::Script(crate::web::error::short(&e)))?;
    let cells: Vec<ScriptMarks> =
        answer.convert().map_err(|e| VariantError::Script(crate::web::error::short(&e)))?;
    let marks = in_reading_order(cells, board)?;
    Ok(establish(board.side, &marks, boxes, dom.variant)?)
}

/// The geometry to solve `board` on: the site's, with the variant the page marks. `-v` says
/// which variant was found and why.
pub async fn geometry(
    driver: &WebDriver,
    site: &Site,
    board: &PageBoard,
) -> Result<Arc<Geometry>, PlayError> {
    let t = Instant::now();
    let found = read(driver, site, board).await?;
    let base = Arc::new(site.geometry().map_err(PlayError::Logic)?);
    let geometry = found.geometry(base)?;
    let why =
        if found.notes.is_empty() { "no variant marks".into() } else { found.notes.join("; ") };
    tracing::info!(elapsed = ?t.elapsed(), "variant: {} ({why})", found.name());
    Ok(geometry)
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
}
