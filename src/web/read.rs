//! Reading the board in one WebDriver command: the page source parsed here with `scraper` (for
//! pages whose givens are in the markup), or one script returning every cell's live `value`
//! property and given flag (for pages that draw the board by script, and for read-back after
//! typing, where the markup still shows the old attribute).

use std::collections::HashMap;

use scraper::{Html, Selector};
use serde::Deserialize;
use thirtyfour::prelude::*;

use super::site::{Given, Order, SIDE, Site};
use crate::grid::Cell;

/// What the page shows, cell by cell in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageBoard {
    /// The text of each cell (`value` property or attribute), trimmed.
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
    #[error("selector `{selector}` matched {found} cells, expected 81{missing}")]
    CellCount {
        /// The selector.
        selector: String,
        /// How many it matched.
        found: usize,
        /// Cell ids not found, for id templates.
        missing: String,
    },
    /// A given that is not a digit 1-9.
    #[error("given cell {cell} holds {text:?}, not a digit 1-9")]
    BadGiven {
        /// The cell.
        cell: Cell,
        /// Its text.
        text: String,
    },
    /// The script's answer had an unexpected shape.
    #[error("the board script returned something unexpected: {0}")]
    Script(String),
}

impl PageBoard {
    /// The digit a cell holds (0 for empty or anything that is not one digit 1-9).
    pub fn digit(&self, index: usize) -> u8 {
        digit_of(&self.raw[index])
    }

    /// The givens as a puzzle (values in reading order, 0 = empty). Fails on a given that is not
    /// a digit.
    pub fn puzzle_values(&self) -> Result<Vec<u8>, ReadError> {
        (0..SIDE * SIDE)
            .map(|i| {
                if !self.given[i] {
                    return Ok(0);
                }
                match self.digit(i) {
                    0 => Err(ReadError::BadGiven {
                        cell: Cell::from_index(i, SIDE),
                        text: self.raw[i].clone(),
                    }),
                    d => Ok(d),
                }
            })
            .collect()
    }

    /// Number of givens holding a digit.
    pub fn givens(&self) -> usize {
        (0..self.raw.len()).filter(|&i| self.given[i] && self.digit(i) != 0).count()
    }
}

/// `"7"` -> 7; anything else -> 0.
pub fn digit_of(text: &str) -> u8 {
    match text.trim().as_bytes() {
        [d @ b'1'..=b'9'] => d - b'0',
        _ => 0,
    }
}

/// Parses a page source (of the board's frame).
pub fn parse_source(html: &str, site: &Site) -> Result<PageBoard, ReadError> {
    let selector = &site.board.cells;
    // Validation parsed every selector already; an error here is still reported, not unwrapped.
    let sel = Selector::parse(selector)
        .map_err(|e| ReadError::Script(format!("selector `{selector}`: {e}")))?;
    let doc = Html::parse_document(html);
    let cells = doc
        .select(&sel)
        .map(|el| {
            let e = el.value();
            let value = e.attr("value").unwrap_or("").trim().to_string();
            let given = match &site.board.given {
                Given::Attribute(a) => e.attr(a).is_some(),
                Given::Class(c) => e.classes().any(|x| x == c),
                Given::Filled(_) => !value.is_empty(),
            };
            RawCell { id: e.id().map(str::to_string), value, given }
        })
        .collect();
    assemble(site, cells)
}

/// One matched element, before it is placed on the board.
struct RawCell {
    id: Option<String>,
    value: String,
    given: bool,
}

/// Places matched elements (document order) on the board by the site's order.
fn assemble(site: &Site, cells: Vec<RawCell>) -> Result<PageBoard, ReadError> {
    let selector = site.board.cells.clone();
    let n = SIDE * SIDE;
    match site.board.order {
        Order::Document => {
            if cells.len() != n {
                return Err(ReadError::CellCount {
                    selector,
                    found: cells.len(),
                    missing: String::new(),
                });
            }
            Ok(PageBoard {
                raw: cells.iter().map(|c| c.value.clone()).collect(),
                given: cells.iter().map(|c| c.given).collect(),
                dom_order: (0..n).collect(),
            })
        }
        Order::Id => {
            let ids = site.cell_ids().unwrap_or_default();
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
                return Err(ReadError::CellCount {
                    selector,
                    found: cells.len(),
                    missing: missing_note(&missing),
                });
            }
            let (raw, given) = raw.into_iter().flatten().unzip();
            Ok(PageBoard { raw, given, dom_order })
        }
    }
}

fn missing_note(missing: &[&str]) -> String {
    match missing.len() {
        0 => String::new(),
        1..=5 => format!(" (no cell with id {})", missing.join(", ")),
        k => format!(" ({k} cell ids not found, first {})", missing[..3].join(", ")),
    }
}

/// The script that reads every cell. Arguments: the cell selector, the ids in reading order (or
/// null for document order), the given kind (`attribute`, `class`, `filled`) and its name.
/// Returns `{count, cells: [[value, given, id] | null ...], order: [...]}`: `cells` in document
/// order of the selector's matches, with ids so the caller places them.
pub const READ_JS: &str = r#"
const [sel, kind, name] = arguments;
const all = Array.from(document.querySelectorAll(sel));
return all.map(e => {
  const v = (e.value !== undefined ? String(e.value) : (e.textContent || '')).trim();
  const g = kind === 'attribute' ? e.hasAttribute(name)
          : kind === 'class' ? e.classList.contains(name)
          : v !== '' && e.defaultValue !== undefined && e.defaultValue.trim() !== '';
  return [v, g, e.id || null];
});
"#;

/// One cell as [`READ_JS`] returns it.
#[derive(Debug, Deserialize)]
pub struct ScriptCell(pub String, pub bool, pub Option<String>);

/// The arguments of [`READ_JS`], in its order.
#[derive(Clone, Debug)]
pub struct ReadArgs {
    /// The cell selector.
    pub selector: String,
    /// How a given is marked: `attribute`, `class` or `filled`.
    pub kind: &'static str,
    /// The attribute or class name (empty for `filled`).
    pub name: String,
}

impl ReadArgs {
    /// The arguments for `site`.
    pub fn new(site: &Site) -> ReadArgs {
        let (kind, name) = match &site.board.given {
            Given::Attribute(a) => ("attribute", a.as_str()),
            Given::Class(c) => ("class", c.as_str()),
            Given::Filled(_) => ("filled", ""),
        };
        ReadArgs { selector: site.board.cells.clone(), kind, name: name.to_string() }
    }

    /// As the script's `arguments`.
    pub fn values(&self) -> Vec<serde_json::Value> {
        vec![self.selector.clone().into(), self.kind.into(), self.name.clone().into()]
    }
}

/// Runs [`READ_JS`]: every cell, in document order.
pub async fn cells(driver: &WebDriver, args: &ReadArgs) -> WebDriverResult<Vec<ScriptCell>> {
    driver.execute(READ_JS, args.values()).await?.convert()
}

/// Places the cells [`READ_JS`] returned on the board.
pub fn from_script(site: &Site, cells: Vec<ScriptCell>) -> Result<PageBoard, ReadError> {
    assemble(
        site,
        cells
            .into_iter()
            .map(|ScriptCell(value, given, id)| RawCell { id, value, given })
            .collect(),
    )
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
