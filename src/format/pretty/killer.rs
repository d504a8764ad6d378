//! Killer grids drawn for a terminal (the [`pretty`](super) format of a grid with
//! cages). Every cell gets a wall column on its left and a border line above; a cage's sum is
//! written at the start of the border above its first cell, where Solo draws it:
//!
//! ```text
//! ┏3━━━━━━┯9━━━━━━┓
//! ┃ .   . │ .   . ┃
//! ┠───────┴───┐   ┃
//! ```
//!
//! Each edge between two cells is one of four kinds: nothing (same cage, same region), a cage
//! wall (light: `─ │`, ASCII `- :`), a region wall inside one cage (heavy dashed: `┅ ┇`,
//! ASCII `~ !`), or both (heavy: `━ ┃`, ASCII `= |`). Junctions join the weights of their arms
//! (ASCII `+`). [`parse`] reads such a drawing back, cages, sums, regions and all.

use std::sync::Arc;

use super::{Charset, Options};
use crate::format::union_find::UnionFind;
use crate::format::{ParseError, ParseErrorKind};
use crate::grid::symbol;
use crate::grid::{Cage, Geometry, Grid, MAX_KILLER_SIDE};

/// What lies between two neighbouring cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    None,
    Cage,
    Region,
    Both,
}

impl Edge {
    fn between(geometry: &Geometry, a: usize, b: usize) -> Edge {
        match (
            geometry.region_of(a) != geometry.region_of(b),
            geometry.cage_of(a) != geometry.cage_of(b),
        ) {
            (false, false) => Edge::None,
            (false, true) => Edge::Cage,
            (true, false) => Edge::Region,
            (true, true) => Edge::Both,
        }
    }

    /// Line weight at junctions: 0 none, 1 light, 2 heavy.
    fn weight(self) -> usize {
        match self {
            Edge::None => 0,
            Edge::Cage => 1,
            Edge::Region | Edge::Both => 2,
        }
    }

    fn horizontal(self, charset: Charset) -> char {
        match (self, charset) {
            (Edge::None, _) => ' ',
            (Edge::Cage, Charset::Unicode) => '─',
            (Edge::Region, Charset::Unicode) => '┅',
            (Edge::Both, Charset::Unicode) => '━',
            (Edge::Cage, Charset::Ascii) => '-',
            (Edge::Region, Charset::Ascii) => '~',
            (Edge::Both, Charset::Ascii) => '=',
        }
    }

    fn vertical(self, charset: Charset) -> char {
        match (self, charset) {
            (Edge::None, _) => ' ',
            (Edge::Cage, Charset::Unicode) => '│',
            (Edge::Region, Charset::Unicode) => '┇',
            (Edge::Both, Charset::Unicode) => '┃',
            (Edge::Cage, Charset::Ascii) => ':',
            (Edge::Region, Charset::Ascii) => '!',
            (Edge::Both, Charset::Ascii) => '|',
        }
    }

    fn of_horizontal(c: char) -> Option<Edge> {
        match c {
            '─' | '-' => Some(Edge::Cage),
            '┅' | '╍' | '~' => Some(Edge::Region),
            '━' | '=' => Some(Edge::Both),
            _ => None,
        }
    }

    fn of_vertical(c: char) -> Option<Edge> {
        match c {
            ' ' => Some(Edge::None),
            '│' | ':' => Some(Edge::Cage),
            '┇' | '╏' | '!' => Some(Edge::Region),
            '┃' | '|' => Some(Edge::Both),
            _ => None,
        }
    }
}

/// Box-drawing junctions by arm weights (0 none, 1 light, 2 heavy), indexed
/// `up * 27 + down * 9 + left * 3 + right`.
const JUNCTIONS: [char; 81] = [
    ' ', '╶', '╺', '╴', '─', '╼', '╸', '╾', '━', '╷', '┌', '┍', '┐', '┬', '┮', '┑', '┭', '┯', '╻',
    '┎', '┏', '┒', '┰', '┲', '┓', '┱', '┳', '╵', '└', '┕', '┘', '┴', '┶', '┙', '┵', '┷', '│', '├',
    '┝', '┤', '┼', '┾', '┥', '┽', '┿', '╽', '┟', '┢', '┧', '╁', '╆', '┪', '╅', '╈', '╹', '┖', '┗',
    '┚', '┸', '┺', '┛', '┹', '┻', '╿', '┞', '┡', '┦', '╀', '╄', '┩', '╃', '╇', '┃', '┠', '┣', '┨',
    '╂', '╊', '┫', '╉', '╋',
];

/// Draws a Killer grid (see the module docs).
pub(super) fn write(grid: &Grid, options: &Options) -> String {
    let geometry = grid.geometry();
    let side = grid.side();
    let charset = options.charset;
    // The edge left of (r, j) (j == side: the right border) and above (i, c).
    let vertical = |r: usize, j: usize| {
        if j == 0 || j == side {
            Edge::Both
        } else {
            Edge::between(geometry, r * side + j - 1, r * side + j)
        }
    };
    let horizontal = |i: usize, c: usize| {
        if i == 0 || i == side {
            Edge::Both
        } else {
            Edge::between(geometry, (i - 1) * side + c, i * side + c)
        }
    };
    let mut sum_at = vec![None; side * side];
    for cage in geometry.cages() {
        sum_at[cage.cells[0]] = Some(cage.sum);
    }
    let mut lines = Vec::with_capacity(2 * side + 1);
    for i in 0..=side {
        let mut border = String::new();
        for j in 0..=side {
            let up = if i > 0 { vertical(i - 1, j).weight() } else { 0 };
            let down = if i < side { vertical(i, j).weight() } else { 0 };
            let left = if j > 0 { horizontal(i, j - 1).weight() } else { 0 };
            let right = if j < side { horizontal(i, j).weight() } else { 0 };
            border.push(match charset {
                Charset::Unicode => JUNCTIONS[up * 27 + down * 9 + left * 3 + right],
                Charset::Ascii if up + down + left + right > 0 => '+',
                Charset::Ascii => ' ',
            });
            if j == side {
                break;
            }
            let fill = horizontal(i, j).horizontal(charset);
            let sum = if i < side { sum_at[i * side + j].map(|s| s.to_string()) } else { None };
            let sum = sum.unwrap_or_default();
            border.push_str(&sum);
            for _ in sum.chars().count()..3 {
                border.push(fill);
            }
        }
        lines.push(border);
        if i == side {
            break;
        }
        let mut row = String::new();
        for c in 0..side {
            row.push(vertical(i, c).vertical(charset));
            row.push(' ');
            super::push_cell(&mut row, grid, i * side + c, options);
            row.push(' ');
        }
        row.push(vertical(i, side).vertical(charset));
        lines.push(row);
    }
    lines.join("\n")
}

/// Whether drawn lines are a Killer drawing: some line has both a horizontal wall and a digit
/// (a cage sum on a border).
pub(super) fn is_killer_drawing(lines: &[(usize, Vec<char>)]) -> bool {
    lines.iter().any(|(_, l)| {
        l.iter().any(|&c| Edge::of_horizontal(c).is_some()) && l.iter().any(char::is_ascii_digit)
    })
}

fn syntax(line: usize, column: usize, message: impl Into<String>) -> ParseError {
    ParseError::at(line, column, ParseErrorKind::Syntax(message.into()))
}

/// Reads a Killer drawing: `lines` are its non-empty lines (colours stripped) with their
/// 1-based numbers.
pub(super) fn parse(lines: &[(usize, Vec<char>)]) -> Result<Grid, ParseError> {
    let side = lines.len() / 2;
    if lines.len().is_multiple_of(2) || side == 0 {
        return Err(ParseError::at(
            lines.last().map_or(1, |l| l.0),
            0,
            ParseErrorKind::Syntax(format!(
                "a drawn Killer grid has a border line above and below each row of cells: {} lines cannot be",
                lines.len()
            )),
        ));
    }
    if side > MAX_KILLER_SIDE {
        return Err(ParseError::whole(crate::grid::GridError::KillerSide { side }.into()));
    }
    let at = |l: usize, k: usize| lines[l].1.get(k).copied().unwrap_or(' ');
    let mut cells = Vec::with_capacity(side * side);
    let mut sums: Vec<Option<u32>> = vec![None; side * side];
    // Edges: right of (r, c) and below (r, c).
    let mut right = vec![Edge::None; side * side];
    let mut below = vec![Edge::None; side * side];
    for r in 0..side {
        let (number, _) = lines[2 * r + 1];
        let (border_number, _) = lines[2 * r];
        for c in 0..side {
            let k = 4 * c + 2;
            let width = lines[2 * r + 1].1.len();
            if k >= width {
                // A short row: name where it ends, not a column past it.
                return Err(syntax(
                    number,
                    width + 1,
                    format!("the row ends before its cell {} of {side}", c + 1),
                ));
            }
            let ch = at(2 * r + 1, k);
            let value = match ch {
                '.' | '_' => 0,
                '0' if side != 36 => 0,
                _ => symbol::from_char(ch, side).ok_or_else(|| {
                    ParseError::at(
                        number,
                        k + 1,
                        ParseErrorKind::BadSymbol { found: ch, side, hint: String::new() },
                    )
                })?,
            };
            cells.push(value);
            if c + 1 < side {
                let w = at(2 * r + 1, 4 * c + 4);
                right[r * side + c] = Edge::of_vertical(w).ok_or_else(|| {
                    syntax(number, 4 * c + 5, format!("'{w}' is not a wall between two cells"))
                })?;
            }
            // The border above: a sum first, then wall characters.
            let segment: String = (4 * c + 1..4 * c + 4).map(|k| at(2 * r, k)).collect();
            let digits: String = segment.chars().take_while(char::is_ascii_digit).collect();
            if !digits.is_empty() {
                sums[r * side + c] = Some(
                    digits
                        .parse()
                        .map_err(|_| syntax(border_number, 4 * c + 2, "a cage sum too large"))?,
                );
            }
            let edge = segment[digits.len()..].chars().find_map(Edge::of_horizontal);
            if !digits.is_empty() && !matches!(edge, Some(Edge::Cage | Edge::Both)) {
                return Err(syntax(
                    border_number,
                    4 * c + 2,
                    "a cage sum must sit on the cage's top wall",
                ));
            }
            if r > 0 {
                below[(r - 1) * side + c] = edge.unwrap_or(Edge::None);
            }
        }
    }
    let mut regions = UnionFind::new(side * side);
    let mut cages = UnionFind::new(side * side);
    for i in 0..side * side {
        let mut neighbours = [None, None];
        if i % side + 1 < side {
            neighbours[0] = Some((right[i], i + 1));
        }
        if i / side + 1 < side {
            neighbours[1] = Some((below[i], i + side));
        }
        for (edge, j) in neighbours.into_iter().flatten() {
            if matches!(edge, Edge::None | Edge::Cage) {
                regions.join(i, j);
            }
            if matches!(edge, Edge::None | Edge::Region) {
                cages.join(i, j);
            }
        }
    }
    let geometry = super::geometry_from_labels(side, &regions.labels())?;
    let labels = cages.labels();
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); side * side];
    for (i, &l) in labels.iter().enumerate() {
        groups[l].push(i);
    }
    let mut list = Vec::new();
    for group in groups.into_iter().filter(|g| !g.is_empty()) {
        let first = group[0];
        let (line, border) = &lines[2 * (first / side)];
        let sum = sums[first].ok_or_else(|| {
            syntax(
                *line,
                // At the sum's place, or just after a border line that stops before it.
                (4 * (first % side) + 2).min(border.len() + 1),
                format!("the cage at {} has no sum", crate::grid::Cell::from_index(first, side)),
            )
        })?;
        if let Some(&other) = group[1..].iter().find(|&&i| sums[i].is_some()) {
            let cell = crate::grid::Cell::from_index(other, side);
            return Err(syntax(
                lines[2 * (other / side)].0,
                4 * (other % side) + 2,
                format!("a second sum in one cage, at {cell}"),
            ));
        }
        list.push(Cage::new(sum, group));
    }
    let geometry = geometry.with_cages(list).map_err(|e| ParseError::whole(e.into()))?;
    Ok(Grid::new(Arc::new(geometry), cells)?)
}

#[cfg(test)]
mod tests {
    use crate::format::pretty::{self, Charset, Options};
    use crate::format::solo_id;

    const ID: &str = "2x2k:p,b______aaa_a_aaa,8b3_6_5_5d9_4c";

    #[test]
    fn cages_sums_and_regions_are_drawn() {
        let grid = solo_id::parse(ID).expect("valid");
        let expected = "\
┏8━━━━━━┳━━━┯3━━┓
┃ .   . ┇ . │ . ┃
┠6──┬5──╂5──┤   ┃
┃ . │ . ┃ . │ . ┃
┣┅┅┅┿┅┅┅╋┅┅┅┿9━━┫
┃ . │ . ┃ . │ . ┃
┠4──┴───╂───┘   ┃
┃ .   . ┃ .   . ┃
┗━━━━━━━┻━━━━━━━┛";
        assert_eq!(pretty::write(&grid), expected);
        let ascii =
            pretty::write_with(&grid, &Options { charset: Charset::Ascii, ..Default::default() });
        assert_eq!(ascii.lines().nth(1), Some("| .   . ! . : . |"));
        assert_eq!(ascii.lines().nth(4), Some("+~~~+~~~+~~~+9==+"));
    }

    #[test]
    fn drawings_read_back_to_the_same_grid() {
        let puzzle = solo_id::parse(ID).expect("valid");
        let solution = crate::solve::solve(&puzzle).unique().cloned().expect("unique");
        for charset in [Charset::Unicode, Charset::Ascii] {
            let options = Options { charset, colour_filled_from: Some(&puzzle) };
            let text = pretty::write_with(&solution, &options);
            assert_eq!(pretty::parse(&text).expect("reads back"), solution, "{text}");
            let plain = pretty::write_with(&puzzle, &Options { charset, ..Default::default() });
            assert_eq!(pretty::parse(&plain).expect("reads back"), puzzle, "{plain}");
        }
    }

    #[test]
    fn a_broken_drawing_names_the_place() {
        let grid = solo_id::parse(ID).expect("valid");
        let text = pretty::write(&grid);
        let no_sum = text.replacen("┠4──", "┠───", 1);
        let e = pretty::parse(&no_sum).expect_err("no sum");
        assert_eq!(e.to_string(), "line 7, column 2: the cage at r4c1 has no sum");
        let short: Vec<&str> = text.lines().take(8).collect();
        assert!(pretty::parse(&short.join("\n")).is_err());
    }

    /// Found by fuzzing (`fuzz/`, target `pretty`): a line cut short was read as blanks, and
    /// the error named a column past the line's end.
    #[test]
    fn a_short_line_is_named_inside_the_input() {
        let grid = solo_id::parse(ID).expect("valid");
        let text =
            pretty::write_with(&grid, &Options { charset: Charset::Ascii, ..Default::default() });
        let lines: Vec<&str> = text.lines().collect();
        let e =
            pretty::parse(&text.replace("| .   . ! . : . |", "| .   . ! .")).expect_err("short");
        assert_eq!(e.to_string(), "line 2, column 12: the row ends before its cell 4 of 4");
        for (n, line) in lines.iter().enumerate() {
            for cut in 1..line.len() {
                let mut damaged = lines.clone();
                damaged[n] = &line[..cut];
                let Err(e) = pretty::parse(&damaged.join("\n")) else { continue };
                let Some(p) = e.position else { continue };
                let width = damaged.get(p.line - 1).map_or(0, |l| l.chars().count());
                assert!(p.column <= width + 1, "{e} (line {} cut to {cut})", n + 1);
            }
        }
    }
}
