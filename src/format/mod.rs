//! Text formats in and out.
//!
//! | format | module | example |
//! |---|---|---|
//! | one line of N*N symbols | [`line`](mod@line) | `4.....8.5.3....` |
//! | Solo's Game > Copy grid text | [`solo_text`] | `. 8 . \| 3 . . \| . . 7` |
//! | Solo game IDs | [`solo_id`] | `3x3:a8a3d7c9b3_6_5a1...` |
//! | Solo save files (Game > Save...) | [`solo_save`] | `MOVE    :6:R0,0,6` |
//! | boxes drawn for a terminal | [`pretty`] | `│ 4 . . │ . . . │ 8 . 5 │` |
//! | Killer cages by hand | [`cages`] | `23: r1c1 r1c2 r2c1` after the grid line |
//!
//! [`parse`] reads one puzzle in any of them, detecting which unless told
//! ([`detect`]); [`read_puzzles`] splits a whole input (a file, say) into numbered puzzles.

pub mod cages;
mod input;
pub mod line;
pub mod pretty;
pub mod solo_id;
pub mod solo_save;
pub mod solo_text;
mod union_find;

use std::fmt;

pub use input::{
    Chunk, Entry, InputError, LineReader, MAX_LINE, MAX_TEXT, Puzzles, ReadOptions, detect,
    is_line_by_line, is_skipped, line_entry, open_file, parse, read_file, read_puzzles, read_stdin,
};

use crate::grid::GridError;

/// A text format sudobot reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One line of N*N symbols, `.` or `0` blank.
    Line,
    /// Solo's Copy grid text (box separators, `_` blanks on X diagonals, jigsaw walls).
    SoloText,
    /// A Solo game ID (`3x3:...`, `9j:...,walls`, `3x3x:...`).
    SoloId,
    /// A drawn grid: [`pretty`] output or a similar ASCII drawing with an outer border.
    Pretty,
    /// Cage text: a grid line and one Killer cage a line (`23: r1c1 r1c2`), see [`cages`].
    Cages,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Line => "one-line",
            Format::SoloText => "Solo grid text",
            Format::SoloId => "Solo game ID",
            Format::Pretty => "a drawn grid",
            Format::Cages => "cage text",
        })
    }
}

/// Where in the input an error is, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Line, 1-based.
    pub line: usize,
    /// Column in characters, 1-based; 0 when the error is about the line as a whole.
    pub column: usize,
}

/// What went wrong reading a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Nothing to read.
    #[error("no puzzle found (the input is empty)")]
    Empty,
    /// A one-line puzzle whose length is no square of a supported side.
    #[error("{found} symbols is not a square grid (81 for 9x9, 256 for 16x16, ... up to 36x36)")]
    BadLength {
        /// Symbols found.
        found: usize,
    },
    /// A one-line puzzle of a different length than the geometry asked for.
    #[error("expected {expected} symbols for a {side}x{side} grid, found {found}")]
    WrongLength {
        /// The side.
        side: usize,
        /// side * side.
        expected: usize,
        /// Symbols found.
        found: usize,
    },
    /// A character that is no value and no blank here.
    #[error("'{found}' is not a value of a {side}x{side} grid{hint}")]
    BadSymbol {
        /// The character.
        found: char,
        /// The side.
        side: usize,
        /// Extra advice, possibly empty (starts with "; " or " (").
        hint: String,
    },
    /// A character that is no value on any grid (the side not being known yet).
    #[error("'{found}' is not a sudoku symbol{hint}")]
    NotASymbol {
        /// The character.
        found: char,
        /// Extra advice, possibly empty (starts with "; ").
        hint: String,
    },
    /// Malformed structure, described in words.
    #[error("{0}")]
    Syntax(String),
    /// A valid input for a variant sudobot does not handle yet.
    #[error("{0} is not supported yet")]
    Unsupported(String),
    /// The parsed grid is not a valid geometry or grid.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// The format could not be recognised.
    #[error(
        "cannot tell the format: not a one-line puzzle, Solo grid text, Solo game ID or cage text (use --format)"
    )]
    Unrecognised,
}

/// A parse failure, with its position when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where, if the error is at a place.
    pub position: Option<Position>,
    /// What.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// An error at a place.
    pub fn at(line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { position: Some(Position { line, column }), kind }
    }

    /// An error about the input as a whole.
    pub fn whole(kind: ParseErrorKind) -> ParseError {
        ParseError { position: None, kind }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(Position { line, column: 0 }) => write!(f, "line {line}: {}", self.kind),
            Some(Position { line, column }) => {
                write!(f, "line {line}, column {column}: {}", self.kind)
            }
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ParseErrorKind::Grid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<GridError> for ParseError {
    fn from(e: GridError) -> ParseError {
        ParseError::whole(ParseErrorKind::Grid(e))
    }
}
