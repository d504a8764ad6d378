//! Solo's Game > Copy grid text.

use super::{ParseError, ParseErrorKind};
use crate::grid::Grid;

/// Reads Solo Copy text (LF or CRLF).
pub fn parse(_text: &str) -> Result<Grid, ParseError> {
    Err(ParseError::whole(ParseErrorKind::Unsupported("Solo grid text".into())))
}

/// Writes the grid as Solo's Copy would (LF line ends).
pub fn write(grid: &Grid) -> String {
    super::line::write(grid)
}
