//! Boxes drawn for a terminal.

use crate::grid::Grid;

/// Draws the grid with box separators.
pub fn write(grid: &Grid) -> String {
    // Placeholder until the formats work lands: the one-line form.
    super::line::write(grid)
}
