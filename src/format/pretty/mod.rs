//! Grids drawn for a terminal: one character per cell, walls drawn between regions.
//!
//! The same drawing serves boxes and jigsaws. A wall runs wherever two neighbouring cells lie in
//! different regions, and a separator column (or row) is only drawn between columns (rows) that
//! have a wall somewhere, so a boxed grid gets the familiar look
//!
//! ```text
//! ┌───────┬───────┬───────┐
//! │ 4 1 7 │ 3 6 9 │ 8 2 5 │
//! ├───────┼───────┼───────┤
//! ```
//!
//! and a jigsaw gets its region outlines. A Killer grid gets a larger drawing, a wall column and
//! a border line around every cell, so that cages (light lines) and regions (heavy lines) both
//! show, with each cage's sum at the start of the border above its first cell:
//!
//! ```text
//! ┏14━━━━━━━━━┯12━━━━━━━┳5━━┯8━━━━━━━━━━┳9━━━━━━┯13━━━━━━━┓
//! ┃ .   .   . │ .   .   ┃ . │ .   .   . ┃ .   . │ .   .   ┃
//! ```
//!
//! X diagonals are not drawn. Blanks are `.`; values use
//! the one-line symbols (`1`-`9`, `A`-`Z`, `0` for 36 on 36x36), so every side up to 36 fits.
//!
//! [`parse`] reads such drawings back (Unicode or ASCII, colours and all), and also the common
//! hand-made ASCII grids (`+-------+`, `| 4 . . | . . . |`, or compact `|4..|...|`): cells are
//! the symbols, regions are what the `|` and `-` walls enclose.

use std::sync::Arc;

mod killer;

use super::{ParseError, ParseErrorKind};
use crate::grid::symbol::{self, Style};
use crate::grid::{Geometry, Grid};

/// Which characters draw the walls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// Unicode box drawing (`┌─┬─┐ │ ├─┼─┤`).
    #[default]
    Unicode,
    /// Plain ASCII (`+-|`), for terminals and fonts without box drawing.
    Ascii,
}

/// How to draw a grid.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// Wall characters.
    pub charset: Charset,
    /// When set, cells that are blank in this grid (the puzzle) and filled in the drawn one (its
    /// solution) are coloured green with ANSI escapes, as Solo colours the player's digits. Only
    /// for terminals that want colour.
    pub colour_filled_from: Option<&'a Grid>,
}

/// Draws the grid with Unicode walls, lines separated by `\n`, no trailing newline.
pub fn write(grid: &Grid) -> String {
    write_with(grid, &Options::default())
}

/// A column of the drawing.
#[derive(Clone, Copy)]
enum Column {
    /// The wall line left of cell column `j` (`j == side`: the right border).
    Wall(usize),
    /// Padding next to cell column `c`.
    Pad(usize),
    /// Cell column `c`.
    Cell(usize),
}

/// Draws the grid as [`Options`] say. A Killer grid is drawn larger, with its cages outlined
/// and their sums on their top-left borders (see the module docs).
pub fn write_with(grid: &Grid, options: &Options) -> String {
    if grid.geometry().is_killer() {
        return killer::write(grid, options);
    }
    let side = grid.side();
    let geometry = grid.geometry();
    let region = |r: usize, c: usize| geometry.region_of(r * side + c);
    // Walls inside the grid: between (r, c) and (r, c + 1), and between (r, c) and (r + 1, c).
    let v_inner = |r: usize, c: usize| region(r, c) != region(r, c + 1);
    let h_inner = |r: usize, c: usize| region(r, c) != region(r + 1, c);
    // Walls with the border: `vertical(j, r)` on the line left of column j in row r,
    // `horizontal(i, c)` on the line above row i in column c.
    let vertical = |j: usize, r: usize| j == 0 || j == side || v_inner(r, j - 1);
    let horizontal = |i: usize, c: usize| i == 0 || i == side || h_inner(i - 1, c);
    let wall_column = |j: usize| j == 0 || j == side || (0..side).any(|r| v_inner(r, j - 1));
    let wall_row = |i: usize| i == 0 || i == side || (0..side).any(|c| h_inner(i - 1, c));

    let mut columns = vec![Column::Wall(0), Column::Pad(0)];
    for c in 0..side {
        columns.push(Column::Cell(c));
        if c + 1 < side {
            if wall_column(c + 1) {
                columns.extend([Column::Pad(c), Column::Wall(c + 1), Column::Pad(c + 1)]);
            } else {
                columns.push(Column::Pad(c));
            }
        }
    }
    columns.extend([Column::Pad(side - 1), Column::Wall(side)]);

    let chars = Chars::of(options.charset);
    let mut lines = Vec::new();
    for i in 0..=side {
        if wall_row(i) {
            let line: String = columns
                .iter()
                .map(|&col| match col {
                    Column::Wall(j) => chars.junction(
                        i > 0 && vertical(j, i - 1),
                        i < side && vertical(j, i),
                        j > 0 && horizontal(i, j - 1),
                        j < side && horizontal(i, j),
                    ),
                    Column::Pad(c) | Column::Cell(c) => {
                        if horizontal(i, c) {
                            chars.horizontal
                        } else {
                            ' '
                        }
                    }
                })
                .collect();
            lines.push(line);
        }
        if i == side {
            break;
        }
        let mut line = String::new();
        for &col in &columns {
            match col {
                Column::Wall(j) => line.push(if vertical(j, i) { chars.vertical } else { ' ' }),
                Column::Pad(_) => line.push(' '),
                Column::Cell(c) => push_cell(&mut line, grid, i * side + c, options),
            }
        }
        lines.push(line);
    }
    lines.join("\n")
}

/// Writes the symbol of one cell (`.` for blank), in green when [`Options`] say it was filled
/// in.
fn push_cell(line: &mut String, grid: &Grid, index: usize, options: &Options) {
    let value = grid.cells()[index];
    let symbol = match value {
        0 => '.',
        v => symbol::to_char(v, grid.side(), Style::Line).unwrap_or('?'),
    };
    let filled =
        options.colour_filled_from.is_some_and(|p| value != 0 && p.cells().get(index) == Some(&0));
    if filled {
        line.push_str("\x1b[32m");
        line.push(symbol);
        line.push_str("\x1b[0m");
    } else {
        line.push(symbol);
    }
}

/// The wall characters of a charset.
struct Chars {
    ascii: bool,
    horizontal: char,
    vertical: char,
}

impl Chars {
    fn of(charset: Charset) -> Chars {
        match charset {
            Charset::Unicode => Chars { ascii: false, horizontal: '─', vertical: '│' },
            Charset::Ascii => Chars { ascii: true, horizontal: '-', vertical: '|' },
        }
    }

    /// The character where walls meet, from which of its four arms are walls.
    fn junction(&self, up: bool, down: bool, left: bool, right: bool) -> char {
        let (v, h) = (up || down, left || right);
        if self.ascii {
            return match (v, h) {
                (true, true) => '+',
                (true, false) => '|',
                (false, true) => '-',
                (false, false) => ' ',
            };
        }
        match (up, down, left, right) {
            (false, false, false, false) => ' ',
            (_, _, _, _) if !v => '─',
            (_, _, _, _) if !h => '│',
            (false, true, false, true) => '┌',
            (false, true, true, false) => '┐',
            (true, false, false, true) => '└',
            (true, false, true, false) => '┘',
            (true, true, false, true) => '├',
            (true, true, true, false) => '┤',
            (false, true, true, true) => '┬',
            (true, false, true, true) => '┴',
            // Every arm, or a lone vertical arm with both horizontal ones (drawn as a cross).
            _ => '┼',
        }
    }
}

/// Whether a character draws a vertical wall.
fn is_vertical(c: char) -> bool {
    matches!(c, '|' | '│' | '┃' | '║')
}

/// Whether a character draws a horizontal wall.
fn is_horizontal(c: char) -> bool {
    matches!(c, '-' | '─' | '━' | '═' | '=')
}

/// Whether a character is a cell: a value symbol or a blank.
fn is_cell(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '.' || c == '_'
}

/// Whether a text starts like a drawn grid: its first line (after blank and `#` lines) starts
/// with a border character (`+`, `|`, `┌`, `│`, ...). Solo's grid text never does: it has no
/// outer border.
pub fn looks_like_drawing(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| l.chars().next())
        .is_some_and(|c| c == '+' || is_vertical(c) || ('\u{2500}'..='\u{257f}').contains(&c))
}

/// Removes ANSI escape sequences (colours) from a line.
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ parameters, then a final byte in '@'..='~'.
            if chars.next() == Some('[') {
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Reads a drawn grid: [`write()`]'s output or a similar hand-made one. The side is the number
/// of cell rows; regions come from the walls (a box shape when they form one, else a jigsaw).
/// Errors name the line and column.
pub fn parse(text: &str) -> Result<Grid, ParseError> {
    let lines: Vec<(usize, Vec<char>)> = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, strip_ansi(l).trim_end().chars().collect::<Vec<char>>()))
        .filter(|(_, l)| !l.is_empty() && l.first() != Some(&'#'))
        .collect();
    // Cell rows hold symbols; wall rows only walls and spaces.
    let cell_rows: Vec<usize> =
        (0..lines.len()).filter(|&i| lines[i].1.iter().any(|&c| is_cell(c))).collect();
    if killer::is_killer_drawing(&lines) {
        return killer::parse(&lines);
    }
    let Some(&first) = cell_rows.first() else {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    };
    let side = cell_rows.len();
    let (first_line, first_chars) = &lines[first];
    let columns: Vec<usize> = (0..first_chars.len()).filter(|&i| is_cell(first_chars[i])).collect();
    if columns.len() != side {
        return Err(ParseError::at(
            *first_line,
            0,
            ParseErrorKind::Syntax(format!(
                "a drawn grid with {side} rows needs {side} cells a row, this row has {}",
                columns.len()
            )),
        ));
    }
    if side > crate::grid::MAX_SIDE {
        return Err(ParseError::whole(crate::grid::GridError::BadSide { side }.into()));
    }
    let mut cells = Vec::with_capacity(side * side);
    for &i in &cell_rows {
        let (number, chars) = &lines[i];
        for (k, &c) in chars.iter().enumerate() {
            if is_cell(c) && !columns.contains(&k) {
                let message = format!("'{c}' is not where the first row has a cell");
                return Err(ParseError::at(*number, k + 1, ParseErrorKind::Syntax(message)));
            }
        }
        for &k in &columns {
            let c = chars.get(k).copied().unwrap_or(' ');
            let value = match c {
                '.' | '_' => 0,
                '0' if side != 36 => 0,
                _ => symbol::from_char(c, side).ok_or_else(|| {
                    let kind = if c == ' ' {
                        ParseErrorKind::Syntax("a cell is missing here".into())
                    } else {
                        ParseErrorKind::BadSymbol { found: c, side, hint: String::new() }
                    };
                    // A row cut short: the cell is missing just after its end.
                    ParseError::at(*number, (k + 1).min(chars.len() + 1), kind)
                })?,
            };
            cells.push(value);
        }
    }
    let geometry = regions_from_walls(&lines, &cell_rows, &columns)?;
    Ok(Grid::new(Arc::new(geometry), cells)?)
}

/// The geometry the walls of a drawing enclose.
fn regions_from_walls(
    lines: &[(usize, Vec<char>)],
    cell_rows: &[usize],
    columns: &[usize],
) -> Result<Geometry, ParseError> {
    let side = cell_rows.len();
    let at = |line: usize, k: usize| lines[line].1.get(k).copied().unwrap_or(' ');
    // Union-find over cells, joining neighbours with no wall between them.
    let mut parent: Vec<usize> = (0..side * side).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut join = |a: usize, b: usize| {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra.max(rb)] = ra.min(rb);
    };
    for (r, &line) in cell_rows.iter().enumerate() {
        for c in 0..side - 1 {
            if !(columns[c] + 1..columns[c + 1]).any(|k| is_vertical(at(line, k))) {
                join(r * side + c, r * side + c + 1);
            }
        }
        if r + 1 < side {
            for (c, &k) in columns.iter().enumerate() {
                if !(line + 1..cell_rows[r + 1]).any(|l| is_horizontal(at(l, k))) {
                    join(r * side + c, (r + 1) * side + c);
                }
            }
        }
    }
    let labels: Vec<usize> = (0..side * side).map(|i| root(&mut parent, i)).collect();
    geometry_from_labels(side, &labels)
}

/// The geometry of regions given as a label per cell: a box shape when they form one, else a
/// jigsaw.
fn geometry_from_labels(side: usize, labels: &[usize]) -> Result<Geometry, ParseError> {
    let jigsaw = Geometry::jigsaw(side, labels).map_err(|e| ParseError::whole(e.into()))?;
    // Prefer the box shape the regions match, so a boxed drawing reads as boxes.
    let boxed = (1..=side)
        .filter(|w| side.is_multiple_of(*w))
        .filter_map(|w| Geometry::boxed(w, side / w).ok())
        .find(|g| g.region_map() == jigsaw.region_map());
    Ok(boxed.unwrap_or(jigsaw))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::format::line;
    use crate::grid::Geometry;

    #[test]
    fn classic_grid_has_box_separators_only() {
        let g = line::parse(
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
        )
        .expect("valid");
        let text = write(&g);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 13);
        assert_eq!(lines[0], "┌───────┬───────┬───────┐");
        assert_eq!(lines[1], "│ 4 1 7 │ 3 6 9 │ 8 2 5 │");
        assert_eq!(lines[4], "├───────┼───────┼───────┤");
        assert_eq!(lines[12], "└───────┴───────┴───────┘");
    }

    #[test]
    fn ascii_six_by_six_uses_three_by_two_boxes() {
        let g = line::parse("1..........................2.......6").expect("valid");
        let text = write_with(&g, &Options { charset: Charset::Ascii, ..Default::default() });
        let expected = "\
+-------+-------+
| 1 . . | . . . |
| . . . | . . . |
+-------+-------+
| . . . | . . . |
| . . . | . . . |
+-------+-------+
| . . . | 2 . . |
| . . . | . . 6 |
+-------+-------+";
        assert_eq!(text, expected);
    }

    #[test]
    fn jigsaw_walls_follow_the_regions() {
        let labels = [0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3];
        let geometry = Arc::new(Geometry::jigsaw(4, &labels).expect("valid jigsaw"));
        let g = Grid::empty(geometry);
        let expected = "\
┌───────────┬───┐
│ .   .   . │ . │
│   ┌───┬───┘   │
│ . │ . │ .   . │
├───┘   ├───┐   │
│ .   . │ . │ . │
│   ┌───┘   └───┤
│ . │ .   .   . │
└───┴───────────┘";
        assert_eq!(write(&g), expected);
    }

    #[test]
    fn thirty_six_fits_one_char_per_cell() {
        let g = Grid::empty(Arc::new(Geometry::for_side(36).expect("36")));
        let text = write(&g);
        let widths: Vec<usize> = text.lines().map(|l| l.chars().count()).collect();
        assert!(widths.iter().all(|&w| w == widths[0]));
        assert_eq!(text.lines().count(), 36 + 7);
    }

    /// Found by fuzzing (`fuzz/`, target `pretty`): a row cut short named the missing cell at a
    /// column past the line's end.
    #[test]
    fn a_row_cut_short_is_named_at_its_end() {
        let g = Grid::empty(Geometry::standard(4).expect("4x4"));
        let text = write_with(&g, &Options { charset: Charset::Ascii, ..Default::default() });
        let mut lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[2], "| . . | . . |");
        lines[2] = "| . . | .";
        let e = parse(&lines.join("\n")).expect_err("a cell short");
        assert_eq!(e.to_string(), "line 3, column 10: a cell is missing here");
    }
}
