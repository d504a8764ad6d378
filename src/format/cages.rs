//! Cage text: Killer sudoku written by hand. The grid line of the one-line format, then one cage
//! a line, its sum, a colon and its cells:
//!
//! ```text
//! # a 4x4 Killer (comments and blank lines are skipped anywhere)
//! ................
//! 3: r1c1 r1c2
//! 9: r1c3 r1c4 r2c4
//! 10: r2c1 r2c2 r2c3
//! 6: r3c1 r4c1 r4c2
//! 12: r3c2 r3c3 r3c4 r4c3
//! 4: r4c4
//! ```
//!
//! - Cells are `r{row}c{col}`, 1-based, in any case, separated by spaces or commas. Every cell is
//!   in exactly one cage; a cage has no more cells than the side and a sum its cells can make.
//! - The grid line holds the givens (`.` for blanks) and sets the side; the usual box shape for
//!   the side applies unless a setting line before it says otherwise:
//!   `box: 2x3` (cells per box row x box rows, as `--box`), `regions: 1112...` (a jigsaw: one
//!   region label per cell, `1`-`9` then `A`-`Z`), `diagonals: yes` (X sudoku).
//! - For one puzzle with no givens the grid line may be left out: the side is then worked out
//!   from the number of cells the cages cover.
//! - Several puzzles follow one another: each starts at its grid line (or its first setting
//!   line).
//!
//! [`write`] writes this format, settings only where needed, cages in reading order of their
//! first cells; [`parse`] reads it back to the same grid.

use std::sync::Arc;

use super::{ParseError, ParseErrorKind, line};
use crate::grid::symbol::{self, Style};
use crate::grid::{Cage, Cell, Geometry, Grid, GridError, MAX_SIDE, Regions};

/// A cage as written: its line, sum and cells as (row, column, text column), 0-based cells.
struct RawCage {
    line: usize,
    sum: u32,
    cells: Vec<(usize, usize, usize)>,
}

/// What one line of cage text is.
enum Kind<'a> {
    /// `box: ...`, `regions: ...`, `diagonals: ...`: the key (lower case) and the value.
    Setting(String, &'a str),
    /// `SUM: CELLS`.
    Cage,
    /// Anything else: a grid line.
    Grid,
}

fn kind(text: &str) -> Kind<'_> {
    if let Some((key, value)) = text.split_once(':') {
        let key = key.trim();
        if !key.is_empty() && key.chars().all(|c| c.is_ascii_digit()) {
            return Kind::Cage;
        }
        if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphabetic()) {
            return Kind::Setting(key.to_ascii_lowercase(), value);
        }
    }
    Kind::Grid
}

/// Whether a line is a cage of this format (`23: r1c1 r1c2`), for telling formats apart.
pub fn is_cage_line(text: &str) -> bool {
    let Some((sum, cells)) = text.split_once(':') else { return false };
    let sum = sum.trim();
    !sum.is_empty()
        && sum.chars().all(|c| c.is_ascii_digit())
        && cells.split([' ', '\t', ',']).find(|t| !t.is_empty()).is_some_and(|t| cell(t).is_some())
}

/// Whether a line is a setting of this format (`box: 2x3`, `regions: ...`, `diagonals: yes`).
pub fn is_setting_line(text: &str) -> bool {
    matches!(kind(text.trim()), Kind::Setting(key, _) if SETTINGS.contains(&key.as_str()))
}

const SETTINGS: [&str; 3] = ["box", "regions", "diagonals"];

/// A cell token `r3c12` as 0-based (row, column); `None` if it is no such token.
fn cell(token: &str) -> Option<(usize, usize)> {
    let rest = token.strip_prefix(['r', 'R'])?;
    let split = rest.find(['c', 'C'])?;
    let (row, col) = (&rest[..split], &rest[split + 1..]);
    let number = |s: &str| -> Option<usize> {
        (!s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
            .then(|| s.parse().unwrap_or(usize::MAX).min(99_999))
            .filter(|&n| n >= 1)
    };
    Some((number(row)? - 1, number(col)? - 1))
}

fn syntax(line: usize, column: usize, message: impl Into<String>) -> ParseError {
    ParseError::at(line, column, ParseErrorKind::Syntax(message.into()))
}

/// Reads one puzzle of cage text (the first, if there are several).
pub fn parse(text: &str) -> Result<Grid, ParseError> {
    match parse_all(text, None).into_iter().next() {
        Some((_, puzzle)) => puzzle,
        None => Err(ParseError::whole(ParseErrorKind::Empty)),
    }
}

/// Reads every puzzle of a cage text, each with the 1-based line it starts on. `geometry` is
/// the shape for puzzles without a `box:` or `regions:` setting (else the usual one for the
/// side). Error positions are lines and columns of `text`.
pub fn parse_all(
    text: &str,
    geometry: Option<&Arc<Geometry>>,
) -> Vec<(usize, Result<Grid, ParseError>)> {
    // Split into puzzles: a setting or grid line after a cage line starts the next one.
    let mut puzzles: Vec<Vec<(usize, &str)>> = Vec::new();
    let mut after_cage = true;
    for (n, l) in text.lines().enumerate() {
        let trimmed = l.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let is_cage = matches!(kind(trimmed), Kind::Cage);
        if puzzles.is_empty() || (after_cage && !is_cage) {
            puzzles.push(Vec::new());
        }
        after_cage = is_cage;
        if let Some(p) = puzzles.last_mut() {
            p.push((n + 1, l));
        }
    }
    puzzles.into_iter().map(|lines| (lines[0].0, read_puzzle(&lines, geometry))).collect()
}

/// How many characters come before the first `c` of `text` (all of them if there is none).
fn chars_before(text: &str, c: char) -> usize {
    text.find(c).map_or(text.chars().count(), |i| text[..i].chars().count())
}

/// Where in a line its trimmed text starts, for 1-based columns.
fn indent(l: &str) -> usize {
    l.chars().count() - l.trim_start().chars().count()
}

fn read_puzzle(
    lines: &[(usize, &str)],
    geometry: Option<&Arc<Geometry>>,
) -> Result<Grid, ParseError> {
    let mut shape: Option<(usize, Geometry)> = None;
    let mut diagonals = false;
    let mut grid: Option<(usize, Grid)> = None;
    let mut cages: Vec<RawCage> = Vec::new();
    for &(n, l) in lines {
        let text = l.trim();
        let at = indent(l);
        match kind(text) {
            Kind::Setting(key, value) => {
                if grid.is_some() || !cages.is_empty() {
                    return Err(syntax(
                        n,
                        at + 1,
                        format!("the '{key}' setting must come before the grid line and the cages"),
                    ));
                }
                let column = at + chars_before(text, ':') + 2;
                match key.as_str() {
                    "box" => shape = Some((n, box_setting(value, n, column)?)),
                    "regions" => shape = Some((n, regions_setting(value, n, column)?)),
                    "diagonals" => {
                        diagonals = match value.trim().to_ascii_lowercase().as_str() {
                            "yes" | "true" | "1" => true,
                            "no" | "false" | "0" => false,
                            other => {
                                return Err(syntax(
                                    n,
                                    column,
                                    format!("diagonals: '{other}' is neither yes nor no"),
                                ));
                            }
                        }
                    }
                    other => {
                        return Err(syntax(
                            n,
                            at + 1,
                            format!(
                                "'{other}' is not a setting of cage text (box, regions, diagonals), nor a cage (SUM: r1c1 r1c2 ...)"
                            ),
                        ));
                    }
                }
            }
            Kind::Grid => {
                if let Some((first, _)) = &grid {
                    return Err(syntax(
                        n,
                        at + 1,
                        format!(
                            "a second grid line (the first is line {first}); cages are written SUM: r1c1 r1c2 ..."
                        ),
                    ));
                }
                let base = match (&shape, geometry) {
                    (Some((_, g)), _) => Some(Arc::new(g.clone())),
                    (None, g) => g.cloned(),
                };
                let parsed = match &base {
                    Some(g) => line::parse_with(text, g),
                    None => line::parse(text),
                };
                let parsed = parsed.map_err(|mut e| {
                    if let Some(p) = e.position.as_mut() {
                        p.line = n;
                        if p.column > 0 {
                            p.column += at;
                        }
                    }
                    e
                })?;
                grid = Some((n, parsed));
            }
            Kind::Cage => cages.push(cage_line(l, n)?),
        }
    }
    let start = lines[0].0;
    if cages.is_empty() {
        return Err(syntax(
            start,
            0,
            "no cages: write one a line after the grid line, like 23: r1c1 r1c2 r2c1",
        ));
    }
    // Without a grid line, the cages give the side.
    let grid = match grid {
        Some((_, g)) => g,
        None => {
            let covered: usize = cages.iter().map(|c| c.cells.len()).sum();
            let side = match (&shape, geometry) {
                (Some((_, g)), _) => g.side(),
                (None, Some(g)) => g.side(),
                // A single cell is no sudoku (nor does the one-line format read one back).
                (None, None) => (2..=MAX_SIDE).find(|s| s * s == covered).ok_or_else(|| {
                    syntax(
                        start,
                        0,
                        format!(
                            "no grid line, and the cages cover {covered} cells, which is no square grid of side 2 or more: give the grid line (dots for blanks)"
                        ),
                    )
                })?,
            };
            let g = match (shape.as_ref().map(|(_, g)| g), geometry) {
                (Some(g), _) => g.clone(),
                (None, Some(g)) => (**g).clone(),
                _ => Geometry::for_side(side).map_err(|e| ParseError::at(start, 0, e.into()))?,
            };
            Grid::empty(g)
        }
    };
    let side = grid.side();
    if side < 2 {
        // `box: 1x1` or `regions: 1`: the one-line format has no 1x1 grid to write it back as.
        return Err(syntax(start, 0, "a 1x1 grid is no sudoku: the smallest side is 2"));
    }
    let mut lines_of = Vec::with_capacity(cages.len());
    let mut list = Vec::with_capacity(cages.len());
    for cage in cages {
        let mut cells = Vec::with_capacity(cage.cells.len());
        for (row, col, column) in cage.cells {
            if row >= side || col >= side {
                let cell = Cell { row, col };
                return Err(syntax(
                    cage.line,
                    column,
                    format!("{cell} is outside the {side}x{side} grid"),
                ));
            }
            cells.push(row * side + col);
        }
        lines_of.push(cage.line);
        list.push(Cage::new(cage.sum, cells));
    }
    let geometry = grid.geometry().clone();
    let geometry = if diagonals { geometry.with_diagonals() } else { geometry };
    let geometry = geometry.with_cages(list).map_err(|e| cage_error(e, &lines_of, start))?;
    Ok(Grid::new(Arc::new(geometry), grid.cells().to_vec())?)
}

/// A geometry error about cages, placed on the line of the cage it names.
fn cage_error(e: GridError, lines: &[usize], start: usize) -> ParseError {
    let number = match &e {
        GridError::EmptyCage { number, .. } | GridError::CageCellOutside { number, .. } => {
            Some(*number)
        }
        GridError::CageCellRepeated { cage, .. }
        | GridError::CageTooBig { cage, .. }
        | GridError::CageSum { cage, .. } => Some(cage.number),
        GridError::CellInTwoCages { second, .. } => Some(*second),
        _ => None,
    };
    let line = number.and_then(|k| lines.get(k - 1)).copied().unwrap_or(start);
    ParseError::at(line, 0, e.into())
}

/// Reads `SUM: CELLS`.
fn cage_line(l: &str, n: usize) -> Result<RawCage, ParseError> {
    let at = indent(l);
    let text = l.trim();
    let colon = text.find(':').unwrap_or(0);
    // Columns count characters; `colon` is a byte index.
    let colon_column = at + text[..colon].chars().count() + 1;
    let sum: u32 = text[..colon].trim().parse().map_err(|_| {
        syntax(n, at + 1, format!("'{}' is too large for a cage sum", text[..colon].trim()))
    })?;
    let mut cells = Vec::new();
    let mut column = colon_column + 1;
    for piece in text[colon + 1..].split_inclusive([' ', '\t', ',']) {
        let token = piece.trim_end_matches([' ', '\t', ',']);
        if !token.is_empty() {
            let (row, col) = cell(token).ok_or_else(|| {
                syntax(
                    n,
                    column,
                    format!("'{token}' is not a cell; write cells as r1c1 (row 1, column 1)"),
                )
            })?;
            cells.push((row, col, column));
        }
        column += piece.chars().count();
    }
    if cells.is_empty() {
        return Err(syntax(n, colon_column + 1, format!("the cage with sum {sum} lists no cells")));
    }
    Ok(RawCage { line: n, sum, cells })
}

/// `box: WxH`.
fn box_setting(value: &str, n: usize, column: usize) -> Result<Geometry, ParseError> {
    let bad = || {
        syntax(
            n,
            column,
            format!("'{}' is not a box shape; write WIDTHxHEIGHT, e.g. box: 3x2", value.trim()),
        )
    };
    let (w, h) = value.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    Geometry::boxed(w, h).map_err(|e| ParseError::at(n, column, e.into()))
}

/// `regions: 111222...`: one label per cell.
fn regions_setting(value: &str, n: usize, column: usize) -> Result<Geometry, ParseError> {
    let labels: Vec<char> = value.trim().chars().collect();
    let side = (1..=MAX_SIDE).find(|s| s * s == labels.len()).ok_or_else(|| {
        syntax(
            n,
            column,
            format!("regions: {} labels is not a square grid (one label per cell)", labels.len()),
        )
    })?;
    let mut map = Vec::with_capacity(labels.len());
    for (k, &c) in labels.iter().enumerate() {
        let label = symbol::from_char(c, MAX_SIDE).ok_or_else(|| {
            syntax(n, column + k, format!("'{c}' is not a region label (1-9, then A-Z)"))
        })?;
        map.push(label as usize);
    }
    Geometry::jigsaw(side, &map).map_err(|e| ParseError::at(n, column, e.into()))
}

/// Writes a grid as cage text: settings where the shape is not the usual one, the grid line,
/// then the cages (none for a grid without cages), lines separated by `\n`, no final newline.
pub fn write(grid: &Grid) -> String {
    let geometry = grid.geometry();
    let side = grid.side();
    let mut lines = Vec::new();
    match geometry.regions() {
        Regions::Boxes { width, height } => {
            let usual = Geometry::for_side(side).ok().and_then(|g| g.box_shape());
            if usual != Some((*width, *height)) {
                lines.push(format!("box: {width}x{height}"));
            }
        }
        Regions::Jigsaw => {
            let labels: String = (0..geometry.cell_count())
                .map(|i| {
                    symbol::to_char(geometry.region_of(i) as u8 + 1, MAX_SIDE, Style::Line)
                        .unwrap_or('?')
                })
                .collect();
            lines.push(format!("regions: {labels}"));
        }
    }
    if geometry.has_diagonals() {
        lines.push("diagonals: yes".into());
    }
    lines.push(line::write(grid));
    for cage in geometry.cages() {
        let cells: Vec<String> =
            cage.cells.iter().map(|&i| Cell::from_index(i, side).to_string()).collect();
        lines.push(format!("{}: {}", cage.sum, cells.join(" ")));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::solo_id;

    const FOUR: &str = "\
# a 4x4 Killer
................
8: r1c1 r1c2 r1c3
3: r1c4 r2c4
6: r2c1 r3c1
5: r2c2 r3c2
5: r2c3 r3c3
9: r3c4 r4c3 r4c4
4: r4c1, r4c2
";

    #[test]
    fn a_single_cell_is_refused_whatever_gives_the_side() {
        // Found by the fuzz smoke: these read as 1x1 grids the writer could not write back.
        for text in ["\n1: r1c1", "box: 1x1\n.\n1: r1c1", "regions: 1\n1: r1c1"] {
            let e = parse(text).expect_err(text);
            assert!(e.to_string().contains("side"), "{text}: {e}");
        }
    }

    #[test]
    fn reads_the_same_cages_as_the_solo_id() {
        let grid = parse(FOUR).expect("valid");
        assert_eq!(grid, solo_id::parse("2x2k:p,b______aaa_a_aaa,8b3_6_5_5d9_4c").expect("id"));
        assert_eq!(parse(&write(&grid)).expect("round trip"), grid);
        assert_eq!(
            write(&grid),
            FOUR.trim_end().replacen("# a 4x4 Killer\n", "", 1).replace(',', "")
        );
    }

    #[test]
    fn the_grid_line_may_be_left_out_and_settings_round_trip() {
        let without: String =
            FOUR.lines().filter(|l| !l.starts_with('.')).collect::<Vec<_>>().join("\n");
        assert_eq!(parse(&without).expect("valid"), parse(FOUR).expect("valid"));
        let jigsaw = format!("regions: 1122112233443344\ndiagonals: yes\n{}", FOUR);
        let grid = parse(&jigsaw).expect("valid");
        assert!(grid.geometry().has_diagonals());
        assert_eq!(grid.geometry().regions(), &Regions::Jigsaw);
        assert_eq!(parse(&write(&grid)).expect("round trip"), grid);
        let rows: Vec<String> =
            (1..=6).map(|r| format!("21: r{r}c1 r{r}c2 r{r}c3 r{r}c4 r{r}c5 r{r}c6")).collect();
        let tall = format!("box: 2x3\n{}\n{}", ".".repeat(36), rows.join("\n"));
        let grid = parse(&tall).expect("valid");
        assert_eq!(grid.geometry().box_shape(), Some((2, 3)));
        assert!(write(&grid).starts_with("box: 2x3\n"));
    }

    #[test]
    fn several_puzzles_start_at_their_grid_lines() {
        let two = format!("{FOUR}\n{FOUR}");
        let all = parse_all(&two, None);
        assert_eq!(all.iter().map(|(line, _)| *line).collect::<Vec<_>>(), vec![2, 12]);
        assert!(all.iter().all(|(_, p)| p.is_ok()));
    }

    fn error(text: &str) -> String {
        parse(text).expect_err("bad input").to_string()
    }

    #[test]
    fn bad_cages_are_named_with_their_line() {
        let twice = FOUR.replace("4: r4c1, r4c2", "4: r4c1 r4c1");
        assert_eq!(error(&twice), "line 9: cage 7 (sum 4 at r4c1) lists r4c1 twice");
        let missing = FOUR.replace("4: r4c1, r4c2", "3: r4c1");
        assert_eq!(
            error(&missing),
            "line 2: r4c2 is in no cage (1 cell in none); every cell belongs to exactly one cage"
        );
        let both = FOUR.replace("4: r4c1, r4c2", "4: r4c1 r3c1");
        assert_eq!(
            error(&both),
            "line 9: r3c1 is in cage 3 and in cage 7; every cell belongs to exactly one cage"
        );
        let outside = FOUR.replace("r4c2", "r4c5");
        assert_eq!(error(&outside), "line 9, column 10: r4c5 is outside the 4x4 grid");
        let typo = FOUR.replace("r4c2", "r4x2");
        assert_eq!(
            error(&typo),
            "line 9, column 10: 'r4x2' is not a cell; write cells as r1c1 (row 1, column 1)"
        );
        let big = FOUR.replace("9: r3c4", "19: r3c4");
        assert_eq!(
            error(&big),
            "line 8: cage 6 (sum 19 at r3c4) cannot be made: 3 different values of 1 to 4 add up to 6 to 9"
        );
        assert!(error("box: 5\n................\n10: r1c1").contains("not a box shape"));
        assert!(error("colour: red\n................").contains("'colour' is not a setting"));
        assert!(error("................").contains("no cages"));
        assert!(error("3: r1c1 r1c2\n7: r1c3").contains("no square grid"));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // U+0085 (two bytes in UTF-8) is whitespace to `trim`: the sum reads, the column after
        // the colon is the 8th character, not the 9th byte. Found by the fuzz smoke.
        assert_eq!(
            error("68513\u{85}:"),
            "line 1, column 8: the cage with sum 68513 lists no cells"
        );
        assert_eq!(
            error("5\u{85}: r1c1 ✗"),
            "line 1, column 10: '✗' is not a cell; write cells as r1c1 (row 1, column 1)"
        );
        assert!(error("box\u{85}: 5\n................").contains("line 1, column 6:"));
    }
}
