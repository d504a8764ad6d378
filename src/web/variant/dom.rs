//! A board of page elements and its variant marks, read in one script ([`READ_MARKS_JS`]): the
//! cells (or the page source, for sites read from it) with every cell's marks
//! ([`super::marks`]) and the page state that holds jigsaw regions, where the site names one.
//! A classic board pays for its marks in the same round trip as its read.

use std::sync::Arc;
use std::time::Instant;

use serde::Deserialize;
use thirtyfour::prelude::*;

use super::marks::{self, MARKS_FN, ScriptMarks};
use super::{VariantError, check};
use crate::grid::Geometry;
use crate::web::error::{PlayError, wd};
use crate::web::read::{self, CELL_JS, PageBoard, READ_CELLS, ReadArgs, ScriptCell};
use crate::web::site::{ReadMode, Site};

/// Arguments: those of [`read::READ_JS`], then whether to return the page source instead of
/// the cells, and the page-state path of the regions (or null). Returns
/// `[source or null, cells or null, marks, state or null]`.
pub static READ_MARKS_JS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "const [sel, kind, name, vkind, vname, withSource, statePath] = arguments;\n{CELL_JS}\n\
         {MARKS_FN}\nreturn [withSource ? document.documentElement.outerHTML : null, \
         withSource ? null : {READ_CELLS}, variantMarks(sel), statePath ? stateAt(statePath) : \
         null];"
    )
});

/// What [`READ_MARKS_JS`] returns.
#[derive(Debug, Deserialize)]
struct Answer(Option<String>, Option<Vec<ScriptCell>>, Vec<ScriptMarks>, serde_json::Value);

/// Reads the board `site` describes (from the page source where `mode` says so and nothing
/// must be read live, `scripted`; else the live cells) with its variant marks in the same script, and the geometry to solve it on: the
/// site's, with the variant the page marks. `-v` says which variant was found and why.
pub async fn read_marked(
    driver: &WebDriver,
    site: &Site,
    mode: ReadMode,
    scripted: bool,
) -> Result<(PageBoard, Arc<Geometry>), PlayError> {
    let t = Instant::now();
    let base = Arc::new(site.geometry().map_err(PlayError::Logic)?);
    let Some(dom) = site.board.dom() else {
        return Err(PlayError::Logic("variant marks asked of a board read from pixels".into()));
    };
    let with_source = mode == ReadMode::Source && !scripted;
    let mut args = ReadArgs::new(site).values();
    args.push(with_source.into());
    args.push(dom.regions_state.clone().map_or(serde_json::Value::Null, Into::into));
    let answer: Answer = driver
        .execute(READ_MARKS_JS.as_str(), args)
        .await
        .and_then(|r| r.convert())
        .map_err(wd("reading the board"))?;
    let Answer(source, cells, marks, state) = answer;
    let board = match (source, cells) {
        (Some(html), _) => {
            let board = read::parse_source(&html, site)?;
            if board.givens() >= site.min_givens() {
                board
            } else {
                // Values a script set (the `value` property) are not in the markup: the ready
                // wait saw them live, so read them live.
                tracing::debug!(
                    "the page source shows {} givens; reading the live values instead",
                    board.givens()
                );
                let cells = read::cells(driver, &ReadArgs::new(site))
                    .await
                    .map_err(wd("reading the board"))?;
                read::from_script(site, cells)?
            }
        }
        (None, Some(cells)) => read::from_script(site, cells)?,
        (None, None) => return Err(VariantError::Script("no board in the answer".into()).into()),
    };
    let marks = marks::in_reading_order(marks, &board.dom_order, board.side)?;
    let boxes = base.box_shape();
    let mut found = check::establish(board.side, &marks, boxes)?;
    if let Some(path) = &dom.regions_state {
        let state = marks::state_regions(&state, board.side)
            .map_err(|why| VariantError::State { path: path.clone(), why })?;
        match state {
            Some(state) => {
                found = check::with_state(found, board.side, &marks, boxes, path, &state)?;
            }
            None => found.notes.push(format!("no page state `{path}`: regions from the borders")),
        }
    }
    let found = found.require(dom.variant)?;
    let geometry = found.geometry(base)?;
    let why = found.why("no variant marks");
    tracing::info!(elapsed = ?t.elapsed(), "variant: {} ({why})", found.name());
    Ok((board, geometry))
}
