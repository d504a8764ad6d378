//! The one-line format: N*N symbols in reading order, `.` or `0` for blank (on 36x36 grids `0`
//! is the value 36, so only `.` is blank), `1`-`9` then `A`-`Z` for 10 and up, any case.
//! Whitespace inside the line is not allowed; a trailing `\r` is.

use std::sync::Arc;

use super::{ParseError, ParseErrorKind};
use crate::grid::symbol::{self, Style};
use crate::grid::{Geometry, Grid, MAX_SIDE};

/// Reads one puzzle line, working out the side from its length and using the usual box shape
/// for it ([`Geometry::for_side`]).
pub fn parse(text: &str) -> Result<Grid, ParseError> {
    let text = text.trim_end_matches(['\r', '\n']);
    let count = text.chars().count();
    if count == 0 {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    }
    let side = (1..=MAX_SIDE)
        .find(|s| s * s == count)
        .ok_or_else(|| ParseError::at(1, 1, ParseErrorKind::BadLength { found: count }))?;
    let geometry = Geometry::for_side(side).map_err(|e| ParseError::at(1, 1, e.into()))?;
    parse_with(text, &Arc::new(geometry))
}

/// Reads one puzzle line on a given geometry.
pub fn parse_with(text: &str, geometry: &Arc<Geometry>) -> Result<Grid, ParseError> {
    let text = text.trim_end_matches(['\r', '\n']);
    let side = geometry.side();
    let found = text.chars().count();
    if found != side * side {
        return Err(ParseError::at(1, 1, ParseErrorKind::WrongLength { side, expected: side * side, found }));
    }
    let mut cells = Vec::with_capacity(found);
    for (i, c) in text.chars().enumerate() {
        let v = match c {
            '.' => 0,
            '0' if side != 36 => 0,
            _ => symbol::from_char(c, side).ok_or_else(|| {
                let hint = if c.is_whitespace() { "; spaces are not allowed inside a line".to_string() } else { String::new() };
                ParseError::at(1, i + 1, ParseErrorKind::BadSymbol { found: c, side, hint })
            })?,
        };
        cells.push(v);
    }
    Ok(Grid::new(Arc::clone(geometry), cells)?)
}

/// Writes a grid as one line (`.` for blanks), without a newline.
pub fn write(grid: &Grid) -> String {
    let side = grid.side();
    grid.cells()
        .iter()
        .map(|&v| if v == 0 { '.' } else { symbol::to_char(v, side, Style::Line).unwrap_or('?') })
        .collect()
}

/// One entry of a puzzle file: its 1-based line number and the puzzle or the error.
pub type FileEntry = (usize, Result<Grid, ParseError>);

/// Reads a file of one-line puzzles: one a line, `#` comment lines and blank lines skipped, LF
/// or CRLF. Errors carry the file's line number.
pub fn parse_file(text: &str) -> Vec<FileEntry> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#')
        })
        .map(|(n, l)| {
            let result = parse(l.trim_end_matches('\r')).map_err(|mut e| {
                if let Some(p) = e.position.as_mut() {
                    p.line = n + 1;
                }
                e
            });
            (n + 1, result)
        })
        .collect()
}
