//! Solo's Game > Copy grid text.
//!
//! ```text
//! . 8 . | 3 . . | . . 7        one digit row per grid row: `.` blank, `_` blank on an X
//! . . . | 9 . . | 3 6 5        diagonal, 1-9 then a-z for 10 and up; `|` between boxes
//! ------+-------+------        a dividing row between box rows (`-`, corners `+`)
//! ```
//!
//! Boxed grids put a `| ` slot after every box width of cells and a dividing row after every
//! box height of rows. Jigsaws put a slot after *every* cell (`|` or a space) and a dividing
//! row after every row, with `-` under cells that have a wall below and corner characters
//! (` `, `|`, `-`, `+`) between. Lines end in LF (GTK, also after the last line) or CRLF
//! (Windows); both are read.
//!
//! Reading does not trust the layout: walls are taken from the `|` between cells and the `-`
//! under them, and regions are the connected areas between walls (union-find). Box-style
//! layouts must then form rectangular boxes; jigsaw-style layouts (cells every 4 columns) give
//! a jigsaw. Limits of the format itself: an X puzzle shows only through `_` on its empty
//! diagonal cells, so a completely filled X grid reads as a plain grid (take X from the game ID
//! instead); givens and user entries look the same; pencil marks are not included.

use std::sync::Arc;

use super::union_find::UnionFind;
use super::{ParseError, ParseErrorKind};
use crate::grid::symbol::{self, Style};
use crate::grid::{Geometry, Grid, MAX_SIDE, Regions};

/// One cell character of a digit row.
struct CellMark {
    /// 0-based character column.
    column: usize,
    ch: char,
}

/// A digit row: its cells and the vertical walls after each cell.
struct DigitRow {
    line: usize,
    cells: Vec<CellMark>,
    /// `wall_after[x]`: a `|` between cell x and x+1.
    wall_after: Vec<bool>,
    /// The dividing line under this row, if any (its 1-based number and characters).
    below: Option<(usize, Vec<char>)>,
}

fn is_divider_char(c: char) -> bool {
    matches!(c, '-' | '+' | '|' | ' ' | '\t')
}

/// Reads Solo Copy text (LF or CRLF).
pub fn parse(text: &str) -> Result<Grid, ParseError> {
    let mut rows: Vec<DigitRow> = Vec::new();
    for (n, raw) in text.split('\n').enumerate() {
        let line_no = n + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        if chars.iter().all(|&c| is_divider_char(c)) {
            let Some(last) = rows.last_mut() else {
                return Err(syntax(
                    line_no,
                    1,
                    "a dividing line comes before the first row of cells",
                ));
            };
            if last.below.is_none() {
                last.below = Some((line_no, chars));
            }
            continue;
        }
        rows.push(digit_row(line_no, &chars)?);
    }
    let Some(first) = rows.first() else {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    };
    let side = first.cells.len();
    if side > MAX_SIDE {
        return Err(ParseError::at(first.line, 1, crate::grid::GridError::BadSide { side }.into()));
    }
    for row in &rows {
        if row.cells.len() != side {
            return Err(syntax(
                row.line,
                1,
                format!("this row has {} cells, the first row has {side}", row.cells.len()),
            ));
        }
    }
    if rows.len() != side {
        let line = rows.last().map_or(1, |r| r.line);
        return Err(syntax(
            line,
            1,
            format!("found {} rows of cells, a grid with {side} columns needs {side}", rows.len()),
        ));
    }
    if let Some((line, _)) = rows.last().and_then(|r| r.below.as_ref()) {
        return Err(syntax(*line, 1, "a dividing line comes after the last row of cells"));
    }

    // Values, blanks, and the `_` marks of X diagonals.
    let mut cells = Vec::with_capacity(side * side);
    let mut x_marks = false;
    for (y, row) in rows.iter().enumerate() {
        for (x, mark) in row.cells.iter().enumerate() {
            let v = match mark.ch {
                '.' => 0,
                '_' => {
                    if x != y && x + y != side - 1 {
                        return Err(syntax(
                            row.line,
                            mark.column + 1,
                            "'_' marks an empty cell on an X diagonal, but this cell is on neither diagonal",
                        ));
                    }
                    x_marks = true;
                    0
                }
                c => symbol::from_char(c, side).ok_or_else(|| {
                    ParseError::at(
                        row.line,
                        mark.column + 1,
                        ParseErrorKind::BadSymbol {
                            found: c,
                            side,
                            hint: "; Solo writes 1-9 then a-z, '.' or '_' for blanks".into(),
                        },
                    )
                })?,
            };
            cells.push(v);
        }
    }

    // Walls to regions.
    let mut regions = UnionFind::new(side * side);
    for (y, row) in rows.iter().enumerate() {
        for x in 0..side.saturating_sub(1) {
            if !row.wall_after[x] {
                regions.join(y * side + x, y * side + x + 1);
            }
        }
        if y + 1 < side {
            for (x, mark) in row.cells.iter().enumerate() {
                let wall = row
                    .below
                    .as_ref()
                    .is_some_and(|(_, chars)| chars.get(mark.column) == Some(&'-'));
                if !wall {
                    regions.join(y * side + x, (y + 1) * side + x);
                }
            }
        }
    }
    let labels = regions.labels();
    let jigsaw_layout =
        side > 1 && rows.iter().all(|r| r.cells.iter().enumerate().all(|(x, m)| m.column == 4 * x));
    let region_error = |e: crate::grid::GridError| ParseError::at(first.line, 1, e.into());
    let as_jigsaw = Geometry::jigsaw(side, &labels).map_err(region_error)?;
    let geometry = if jigsaw_layout {
        as_jigsaw
    } else {
        let boxes = (1..=side)
            .filter(|w| side % w == 0)
            .filter_map(|w| Geometry::boxed(w, side / w).ok())
            .find(|g| g.region_map() == as_jigsaw.region_map())
            .ok_or_else(|| {
                syntax(first.line, 1, "the '|' and '-' separators do not draw rectangular boxes")
            })?;
        // Boxes one cell wide (Solo has none) would be written in the jigsaw layout, which
        // reads as a jigsaw: read them as that jigsaw of columns here too.
        match boxes.regions() {
            Regions::Boxes { width: 1, .. } if side > 1 => as_jigsaw,
            _ => boxes,
        }
    };
    let geometry = if x_marks { geometry.with_diagonals() } else { geometry };
    Ok(Grid::new(Arc::new(geometry), cells)?)
}

fn syntax(line: usize, column: usize, message: impl Into<String>) -> ParseError {
    ParseError::at(line, column, ParseErrorKind::Syntax(message.into()))
}

fn digit_row(line: usize, chars: &[char]) -> Result<DigitRow, ParseError> {
    let mut cells: Vec<CellMark> = Vec::new();
    let mut wall_after: Vec<bool> = Vec::new();
    let mut pending_wall: Option<usize> = None;
    for (column, &ch) in chars.iter().enumerate() {
        match ch {
            ' ' | '\t' => {}
            '|' => {
                if cells.is_empty() || pending_wall.is_some() {
                    return Err(syntax(line, column + 1, "'|' must stand between two cells"));
                }
                pending_wall = Some(column);
            }
            '.' | '_' | '0'..='9' | 'a'..='z' | 'A'..='Z' => {
                if let Some(prev) = cells.last() {
                    if column < prev.column + 2 {
                        return Err(syntax(line, column + 1, "cells must be separated by spaces"));
                    }
                    wall_after.push(pending_wall.take().is_some());
                }
                cells.push(CellMark { column, ch });
            }
            other => {
                return Err(ParseError::at(
                    line,
                    column + 1,
                    ParseErrorKind::BadSymbol {
                        found: other,
                        side: MAX_SIDE,
                        hint: "; Solo grid text holds cells, '|', '-', '+' and spaces".into(),
                    },
                ));
            }
        }
    }
    if let Some(column) = pending_wall {
        return Err(syntax(line, column + 1, "'|' must stand between two cells"));
    }
    wall_after.push(false);
    Ok(DigitRow { line, cells, wall_after, below: None })
}

/// Writes the grid as Solo's Copy would, with LF line ends (also after the last line).
pub fn write(grid: &Grid) -> String {
    write_with(grid, "\n")
}

/// Writes the grid as Solo's Copy would, ending lines with `eol` (`"\r\n"` is what the Windows
/// build, and so MobaXterm, puts on the clipboard).
pub fn write_with(grid: &Grid, eol: &str) -> String {
    let geometry = grid.geometry();
    let side = grid.side();
    // A slot for a vertical divider follows every `vmod` cells; a dividing row follows every
    // `hmod` rows. Jigsaws get a slot everywhere since walls can be anywhere.
    let (vmod, hmod) = match geometry.regions() {
        Regions::Boxes { width, height } => (*width, *height),
        Regions::Jigsaw => (1, 1),
    };
    let region = |i: usize| geometry.region_of(i);
    let mut out = String::with_capacity(side * side * 5);
    for y in 0..side {
        for x in 0..side {
            let i = y * side + x;
            let ch = match grid.get(i) {
                None if geometry.has_diagonals() && geometry.on_diagonal(i) => '_',
                None => '.',
                Some(v) => symbol::to_char(v, side, Style::Solo).unwrap_or('?'),
            };
            out.push(ch);
            if x == side - 1 {
                out.push_str(eol);
                break;
            }
            out.push(' ');
            if (x + 1) % vmod == 0 {
                out.push(if region(i) != region(i + 1) { '|' } else { ' ' });
                out.push(' ');
            }
        }
        if y == side - 1 || (y + 1) % hmod != 0 {
            continue;
        }
        for x in 0..side {
            let i = y * side + x;
            // The digit, its space, and the space after a divider slot if one precedes it.
            let mut width = if x == side - 1 { 1 } else { 2 };
            if x > 0 && x % vmod == 0 {
                width += 1;
            }
            let ch = if region(i) != region(i + side) { '-' } else { ' ' };
            out.extend(std::iter::repeat_n(ch, width));
            if x == side - 1 {
                out.push_str(eol);
                break;
            }
            if (x + 1) % vmod != 0 {
                continue;
            }
            let (tl, tr, bl, br) =
                (region(i), region(i + 1), region(i + side), region(i + side + 1));
            out.push(if tl == tr && tr == bl && bl == br {
                ' '
            } else if tl == bl && tr == br {
                '|'
            } else if tl == tr && bl == br {
                '-'
            } else {
                '+'
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{line, solo_id};

    const CLASSIC_COPY: &str = "\
. 8 . | 3 . . | . . 7
. . . | 9 . . | 3 6 5
. 1 . | . . 7 | . . .
------+-------+------
. . . | . 1 . | . 5 .
8 . 5 | . 2 . | 1 . 4
. 7 . | . 6 . | . . .
------+-------+------
. . . | 6 . . | . 7 .
1 9 2 | . . 8 | . . .
7 . . | . . 4 | . 9 .
";

    #[test]
    fn writes_and_reads_the_classic_example() {
        let grid = solo_id::parse("3x3:a8a3d7c9b3_6_5a1c7g1b5a8a5a2a1a4a7b6g6c7a1_9_2b8c7d4a9a")
            .expect("id");
        assert_eq!(write(&grid), CLASSIC_COPY);
        assert_eq!(write(&grid).len(), 242);
        assert_eq!(parse(CLASSIC_COPY).expect("text"), grid);
        assert_eq!(parse(&CLASSIC_COPY.replace('\n', "\r\n")).expect("crlf"), grid);
        assert_eq!(write_with(&grid, "\r\n"), CLASSIC_COPY.replace('\n', "\r\n"));
    }

    #[test]
    fn two_by_three_from_the_notes() {
        let text = "\
. . . | . 1 .
4 . . | . 2 5
------+------
. . . | 3 . .
. . 2 | . . .
------+------
1 2 . | . . 4
. 6 . | . . .
";
        let grid = parse(text).expect("valid");
        assert_eq!(grid.geometry().box_shape(), Some((3, 2)));
        assert_eq!(line::write(&grid), "....1.4...25...3....2...12...4.6....");
        assert_eq!(write(&grid), text);
    }

    #[test]
    fn underscores_mean_x() {
        let grid = solo_id::parse("3x3x:a8a3d7c9b3_6_5a1c7g1b5a8a5a2a1a4a7b6g6c7a1_9_2b8c7d4a9a")
            .expect("id");
        let text = write(&grid);
        assert!(
            text.starts_with(
                "_ 8 . | 3 . . | . . 7\n. _ . | 9 . . | 3 6 5\n. 1 _ | . . 7 | _ . .\n"
            ),
            "{text}"
        );
        assert_eq!(parse(&text).expect("text"), grid);
    }

    #[test]
    fn jigsaw_regions_come_from_the_walls() {
        let grid = solo_id::parse(&format!("9j:zzzc,zzt{}", "_".repeat(72))).expect("id");
        let text = write(&grid);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0], ".   .   .   .   .   .   .   .   .");
        assert_eq!(lines[1], "---------------------------------");
        assert_eq!(parse(&text).expect("text"), grid);
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad = CLASSIC_COPY.replacen("9 . .", "9 . %", 1);
        let e = parse(&bad).expect_err("bad char");
        assert_eq!(e.position.map(|p| (p.line, p.column)), Some((2, 13)));
        let e = parse(&CLASSIC_COPY.replacen("3 6 5", "3 6", 1)).expect_err("short row");
        assert_eq!(e.position.map(|p| p.line), Some(2));
        let e = parse(&CLASSIC_COPY.replacen("3 6 5", "3 6 g", 1)).expect_err("above side");
        assert!(matches!(e.kind, ParseErrorKind::BadSymbol { found: 'g', side: 9, .. }), "{e}");
        let e = parse(&CLASSIC_COPY.replacen(". 8 .", ". 8 _", 1)).expect_err("x off diagonal");
        assert!(e.to_string().contains("diagonal"), "{e}");
        let cut: String = CLASSIC_COPY.lines().take(10).map(|l| format!("{l}\n")).collect();
        assert!(parse(&cut).is_err());
        assert!(matches!(parse("\n\n").expect_err("empty").kind, ParseErrorKind::Empty));
        // Without one '|' two boxes join: 18 cells in one region.
        assert!(parse(&CLASSIC_COPY.replacen(". 8 . | 3", ". 8 .   3", 1)).is_err());
    }

    /// Found by fuzzing (`fuzz/`, target `solo_text`): `|` after every cell of a box layout
    /// read as boxes one cell wide, which are written in the jigsaw layout and came back as a
    /// jigsaw; they now read as that jigsaw of columns from both layouts.
    #[test]
    fn columns_as_regions_read_the_same_from_both_layouts() {
        let grid = parse("2|1\n1|2\n").expect("columns as regions");
        assert_eq!(grid.geometry().regions(), &Regions::Jigsaw);
        assert_eq!(grid.geometry().region_map(), &[0, 1, 0, 1]);
        let text = write(&grid);
        assert_eq!(text, "2 | 1\n  |  \n1 | 2\n");
        assert_eq!(parse(&text).expect("reads back"), grid);
    }
}
