//! Solo game IDs: `3x3:...`, `2x3:...`, `9j:...,walls`, `3x3x:...`.

use super::{ParseError, ParseErrorKind};
use crate::grid::Grid;

/// Reads a Solo game ID.
pub fn parse(_text: &str) -> Result<Grid, ParseError> {
    Err(ParseError::whole(ParseErrorKind::Unsupported("Solo game IDs".into())))
}

/// Writes a game ID Solo accepts.
pub fn write(grid: &Grid) -> String {
    super::line::write(grid)
}
