//! Checks shared by the fuzz targets (see `fuzz_targets/`): positions inside the input, and
//! round trips through the writers.

use sudobot::format::{ParseError, Position};
use sudobot::grid::Grid;

/// The number of lines `text` has for an error position: `str::lines`, at least 1 (an error in
/// an empty input is on line 1).
pub fn line_count(text: &str) -> usize {
    text.lines().count().max(1)
}

/// Asserts that an error's position (when it has one) is inside `text`: a line that exists
/// (or the one just after the last, for "missing at the end"), and a column at most one past
/// that line's last character (a missing character is reported after the last one).
pub fn assert_position_inside(text: &str, error: &ParseError) {
    let Some(Position { line, column }) = error.position else {
        return;
    };
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        line >= 1 && line <= lines.len().max(1),
        "error {error} at line {line}, but the input has {} lines: {text:?}",
        lines.len()
    );
    let width = lines.get(line - 1).map_or(0, |l| l.chars().count());
    assert!(
        column <= width + 1,
        "error {error} at line {line}, column {column}, but that line has {width} characters: {text:?}"
    );
}

/// Asserts a `line L, column C` (or `line L`) that a TOML error message names is inside the
/// text: toml reports `TOML parse error at line L, column C`.
pub fn assert_toml_position_inside(text: &str, message: &str) {
    let Some(at) = message.find("at line ") else {
        return;
    };
    let rest = &message[at + "at line ".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let Ok(line) = digits.parse::<usize>() else {
        return;
    };
    // toml counts a final line that is empty (after the last newline) as a line.
    let lines = text.split('\n').count();
    assert!(
        line >= 1 && line <= lines,
        "toml error at line {line}, but the input has {lines} lines: {message}"
    );
}

/// The input as text: libFuzzer gives bytes, the readers take `&str`.
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Asserts two grids have the same cells, regions, diagonals and cages (the geometry may be
/// another `Arc`).
pub fn assert_same_grid(back: &Grid, grid: &Grid, what: &str) {
    assert_eq!(back.cells(), grid.cells(), "{what}: cells differ");
    assert_eq!(back.geometry(), grid.geometry(), "{what}: geometry differs");
}
