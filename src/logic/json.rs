//! The JSON form of an explanation, which other tools read:
//!
//! ```json
//! {"givens": "<the puzzle in one-line form, '.' for blanks>",
//!  "steps": [{"technique": "Naked Pair", "text": "Naked Pair: 1,2 in r1c23 => r1c4<>1",
//!             "place": [],
//!             "eliminate": [{"cell": "r1c4", "value": "1"}]}],
//!  "grade": {"scale": "score", "level": "Hard", "score": 1234}}
//! ```
//!
//! Replaying `steps` from `givens` (each placement removing its value from the cell's peers)
//! only places solution values that are still candidates, only removes live candidates that are
//! not the solution's, changes something at every step, and ends with the grid solved. A grid
//! the one-line form does not describe (jigsaw, X, a box shape other than the usual one for its
//! side) also gets `"id"`: its Solo game ID, which carries the regions and diagonals.

use serde::Serialize;

use super::{Explanation, Step};
use crate::format::{line, solo_id};
use crate::grid::{Cell, Geometry};

#[derive(Serialize)]
struct Document {
    givens: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    steps: Vec<JsonStep>,
    grade: JsonGrade,
}

#[derive(Serialize)]
struct JsonStep {
    technique: String,
    text: String,
    place: Vec<JsonCandidate>,
    eliminate: Vec<JsonCandidate>,
}

#[derive(Serialize)]
struct JsonCandidate {
    cell: String,
    value: String,
}

#[derive(Serialize)]
struct JsonGrade {
    scale: &'static str,
    level: &'static str,
    score: u64,
    /// Solo's Killer level (`--scale solo` on a Killer puzzle).
    #[serde(skip_serializing_if = "Option::is_none")]
    killer: Option<&'static str>,
}

fn candidates(list: &[(usize, u8)], step: &Step) -> Vec<JsonCandidate> {
    list.iter()
        .map(|&(c, v)| JsonCandidate {
            cell: Cell::from_index(c, step.side as usize).to_string(),
            value: step.symbol(v).to_string(),
        })
        .collect()
}

/// The JSON object of one step (as in `steps` of [`to_json`]).
pub fn step_json(step: &Step) -> serde_json::Value {
    serde_json::to_value(json_step(step)).unwrap_or(serde_json::Value::Null)
}

fn json_step(step: &Step) -> JsonStep {
    JsonStep {
        technique: step.technique.name(),
        text: step.text(),
        place: candidates(&step.place, step),
        eliminate: candidates(&step.eliminate, step),
    }
}

/// Whether the one-line form describes this geometry (the usual boxes for its side, no X).
fn line_describes(geometry: &Geometry) -> bool {
    !geometry.has_diagonals()
        && !geometry.is_killer()
        && Geometry::standard(geometry.side()).is_ok_and(|g| g.regions() == geometry.regions())
}

/// The explanation as one line of JSON.
pub fn to_json(e: &Explanation) -> String {
    let doc = Document {
        givens: line::write(&e.puzzle),
        id: (!line_describes(e.puzzle.geometry())).then(|| solo_id::write(&e.puzzle)),
        steps: e.steps.iter().map(json_step).collect(),
        grade: JsonGrade {
            scale: e.grade.scale.name(),
            level: e.grade.level.name(),
            score: e.grade.score,
            killer: e.grade.killer.map(|k| k.name()),
        },
    };
    serde_json::to_string(&doc).unwrap_or_default()
}
