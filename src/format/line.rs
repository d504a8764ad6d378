//! The one-line format: N*N symbols in reading order, `.` or `0` for blank (on 36x36 grids `0`
//! is the value 36, so only `.` is blank), `1`-`9` then `A`-`Z` for 10 and up, any case.
//! Whitespace inside the line is not allowed; a trailing `\r` or `\n` is.
//!
//! Errors name the column (in characters, 1-based) of the first symbol that does not fit, or
//! for a wrong length the column where a symbol is missing or the first one too many.

use std::sync::Arc;

use super::{ParseError, ParseErrorKind};
use crate::grid::symbol::{self, Style};
use crate::grid::{Geometry, Grid, MAX_SIDE};

/// Reads one puzzle line, working out the side from its length and using the usual box shape
/// for it ([`Geometry::for_side`], shared through [`Geometry::standard`]).
pub fn parse(text: &str) -> Result<Grid, ParseError> {
    let text = text.trim_end_matches(['\r', '\n']);
    let count = text.chars().count();
    if count == 0 {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    }
    // A single cell is no sudoku: the smallest grid is 4x4.
    let Some(side) = (2..=MAX_SIDE).find(|s| s * s == count) else {
        // A stray character (a space, a '?') is the likelier mistake when the length fits no
        // grid, so name it before complaining about the length. Letters are left alone: with
        // the side unknown, 'G' may well be a value.
        let side = nearest_side(count);
        if let Some(error) = first_bad_symbol(text, side, false) {
            return Err(error);
        }
        let expected = side * side;
        let column = if count < expected { count + 1 } else { expected + 1 };
        return Err(ParseError::at(1, column, ParseErrorKind::BadLength { found: count }));
    };
    // Column 0: the length (the side it gives) is at fault, not one character.
    let geometry = Geometry::standard(side).map_err(|e| ParseError::at(1, 0, e.into()))?;
    parse_with(text, &geometry)
}

/// The supported side whose cell count is nearest to `count` (ties go to the smaller).
fn nearest_side(count: usize) -> usize {
    (2..=MAX_SIDE).min_by_key(|s| (s * s).abs_diff(count)).unwrap_or(9)
}

/// The first character that is neither a blank nor a value on a grid of `side`, as an error;
/// with `letters` false, only characters that are no value on any grid.
fn first_bad_symbol(text: &str, side: usize, letters: bool) -> Option<ParseError> {
    text.chars().enumerate().find_map(|(i, c)| {
        if !letters {
            let symbol = c.is_ascii_alphanumeric() || c == '.';
            let hint = if c.is_whitespace() {
                "; spaces are not allowed inside a line"
            } else {
                "; use 1-9 and A-Z for values, '.' or '0' for blanks"
            };
            let kind = ParseErrorKind::NotASymbol { found: c, hint: hint.into() };
            return (!symbol).then(|| ParseError::at(1, i + 1, kind));
        }
        value_of(c, side).err().map(|kind| ParseError::at(1, i + 1, kind))
    })
}

/// The value of one character (0 for blank) on a grid of `side`.
fn value_of(c: char, side: usize) -> Result<u8, ParseErrorKind> {
    match c {
        '.' => Ok(0),
        '0' if side != 36 => Ok(0),
        _ => symbol::from_char(c, side).ok_or_else(|| {
            let hint = if c.is_whitespace() {
                "; spaces are not allowed inside a line".to_string()
            } else if c.is_ascii_alphanumeric() {
                let top = symbol::to_char(side as u8, side, Style::Line).unwrap_or('?');
                format!(" (values go from 1 to {top})")
            } else {
                "; use '.' or '0' for a blank".to_string()
            };
            ParseErrorKind::BadSymbol { found: c, side, hint }
        }),
    }
}

/// Reads one puzzle line on a given geometry.
pub fn parse_with(text: &str, geometry: &Arc<Geometry>) -> Result<Grid, ParseError> {
    let text = text.trim_end_matches(['\r', '\n']);
    let side = geometry.side();
    let found = text.chars().count();
    let expected = side * side;
    if found != expected {
        if let Some(error) = first_bad_symbol(text, side, true) {
            return Err(error);
        }
        let column = if found < expected { found + 1 } else { expected + 1 };
        return Err(ParseError::at(
            1,
            column,
            ParseErrorKind::WrongLength { side, expected, found },
        ));
    }
    let cells = text
        .chars()
        .enumerate()
        .map(|(i, c)| value_of(c, side).map_err(|kind| ParseError::at(1, i + 1, kind)))
        .collect::<Result<Vec<u8>, ParseError>>()?;
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
/// or CRLF, surrounding whitespace ignored. Errors carry the file's line number. (For any
/// format, with detection, see [`super::read_puzzles`].)
pub fn parse_file(text: &str) -> Vec<FileEntry> {
    let options = super::ReadOptions { format: Some(super::Format::Line), ..Default::default() };
    match super::read_puzzles(text, "the input", &options) {
        Ok(puzzles) => puzzles.entries.into_iter().map(|e| (e.line, e.puzzle)).collect(),
        Err(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn bad_symbol_names_its_column() {
        let mut text = PUZZLE.to_string();
        text.replace_range(12..13, "?");
        let e = parse(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 13: '?' is not a value of a 9x9 grid; use '.' or '0' for a blank"
        );
    }

    #[test]
    fn short_line_points_past_the_end() {
        let e = parse(&PUZZLE[..80]).unwrap_err();
        assert_eq!(e.position.map(|p| p.column), Some(81));
        assert!(matches!(e.kind, ParseErrorKind::BadLength { found: 80 }));
    }

    #[test]
    fn long_line_points_at_the_first_extra_symbol() {
        let e = parse(&format!("{PUZZLE}12")).unwrap_err();
        assert_eq!(e.position.map(|p| p.column), Some(82));
    }

    #[test]
    fn a_stray_space_is_named_before_the_length() {
        let text = format!("{} {}", &PUZZLE[..40], &PUZZLE[40..]);
        let e = parse(&text).unwrap_err();
        assert_eq!(e.position.map(|p| p.column), Some(41));
        assert!(e.to_string().contains("spaces are not allowed"), "{e}");
    }

    #[test]
    fn letters_above_the_side_say_the_range() {
        let text = PUZZLE.replace('4', "A");
        let e = parse(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: 'A' is not a value of a 9x9 grid (values go from 1 to 9)"
        );
    }

    #[test]
    fn zero_is_blank_except_on_36() {
        let g = parse(&PUZZLE.replace('.', "0")).unwrap();
        assert_eq!(write(&g), PUZZLE);
    }

    #[test]
    fn file_skips_comments_blanks_and_crlf() {
        let text = format!("# a comment\r\n\r\n{PUZZLE}\r\n  {PUZZLE}  \n");
        let entries = parse_file(&text);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].0, 3);
        assert_eq!(entries[1].0, 4);
        assert!(entries.iter().all(|(_, r)| r.is_ok()));
    }
}
