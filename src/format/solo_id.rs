//! Solo game IDs: `3x3:a8a3d7c9b3_6_5a1...`, `2x3:...`, `9j:...,<walls>`, `3x3x:...`.
//!
//! An ID is `PARAMS ":" DESC`:
//!
//! - `PARAMS`: `CxR` (C columns of blocks, R rows of blocks; a block is R cells wide and C cells
//!   tall, so `2x3` is a 6x6 grid of 3-wide, 2-tall boxes), a bare `N` for `NxN`, or `Nj` for a
//!   jigsaw of side N (`CxRj` means `(C*R)j`). Flags: `x` diagonals, `k` Killer. Symmetry
//!   (`a`, `r2`, `m4`, `md2`, ...) and difficulty (`dt`, `db`, ..., `du`) only steer generation:
//!   they are accepted and ignored.
//! - `DESC`: the cells in reading order: decimal numbers (also above 9), `a`-`z` for runs of
//!   1-26 blanks, `_` between two adjacent numbers (ignored anywhere when reading). Jigsaws add
//!   `,` and the wall list: the vertical edges row by row, then the horizontal edges column by
//!   column, then one virtual closing wall; each character is a count of non-walls followed by a
//!   wall (`_` = 0, `a` = 1, ... `y` = 25), except `z`, which is 26 non-walls and no wall (what
//!   Solo's decoder does; its encoder's comment disagrees, the decoder is what counts).
//!
//! Killer IDs (`k`, side at most 9) add two more parts: `,` and the cage walls (the same wall
//! code; every cage 2 to N cells), then `,` and the sums in the grid code (each cage's sum in
//! one of its cells, which Solo writes in the first in reading order). The order is
//! `GRID[,JIGSAW WALLS][,CAGE WALLS,SUMS]`: `3x3k:`, `3x3xk:`, `9jk:`.
//! Errors carry the 1-based character position in the ID as the column of line 1.

use std::sync::Arc;

use super::union_find::UnionFind;
use super::{ParseError, ParseErrorKind};
use crate::grid::{Cage, Cell, Geometry, Grid, Regions};

/// The largest side Solo supports (symbols 1-9 then a-v).
pub const SOLO_MAX_SIDE: usize = 31;

/// The structural part of a Solo `PARAMS` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoloParams {
    /// Solo's C: columns of blocks, which is also a block's height in cells. For jigsaws, the side.
    pub c: usize,
    /// Solo's R: rows of blocks, a block's width in cells; 1 for jigsaws.
    pub r: usize,
    /// X: both diagonals are houses.
    pub x: bool,
    /// Killer (cages with sums).
    pub killer: bool,
}

impl SoloParams {
    /// The grid side, `C * R`.
    pub fn side(&self) -> usize {
        self.c * self.r
    }

    /// Whether this is a jigsaw (R = 1).
    pub fn is_jigsaw(&self) -> bool {
        self.r == 1
    }
}

impl std::fmt::Display for SoloParams {
    /// The canonical form Solo writes: `3x3`, `2x3x`, `9j`, `3x3k`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_jigsaw() {
            write!(f, "{}j", self.c)?;
        } else {
            write!(f, "{}x{}", self.c, self.r)?;
        }
        if self.x {
            f.write_str("x")?;
        }
        if self.killer {
            f.write_str("k")?;
        }
        Ok(())
    }
}

/// A decoded Solo game ID: its parameters and its grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloId {
    /// The parameters (size, X, jigsaw).
    pub params: SoloParams,
    /// The givens on the geometry the parameters (and the jigsaw walls and Killer cages)
    /// describe.
    pub grid: Grid,
}

fn err(column: usize, kind: ParseErrorKind) -> ParseError {
    ParseError::at(1, column, kind)
}

fn syntax(column: usize, message: impl Into<String>) -> ParseError {
    err(column, ParseErrorKind::Syntax(message.into()))
}

/// Reads a Solo game ID into a grid (see the module docs for the grammar).
pub fn parse(text: &str) -> Result<Grid, ParseError> {
    parse_id(text).map(|id| id.grid)
}

/// Reads the `PARAMS` part (everything before `:` or `#`). `offset` is the 0-based character
/// position of `params` in the whole input, for error columns.
pub fn parse_params(params: &str, offset: usize) -> Result<SoloParams, ParseError> {
    let chars: Vec<char> = params.chars().collect();
    let mut i = 0;
    let number = |i: &mut usize| -> Option<usize> {
        let start = *i;
        while *i < chars.len() && chars[*i].is_ascii_digit() {
            *i += 1;
        }
        let digits: String = chars[start..*i].iter().collect();
        // Anything too long to be a size is rejected by the limits below.
        (start < *i).then(|| digits.parse().unwrap_or(usize::MAX))
    };
    let c = number(&mut i).ok_or_else(|| {
        syntax(
            offset + 1,
            format!("a Solo game ID starts with its size, such as 3x3 or 9j, not {params:?}"),
        )
    })?;
    let mut r = c;
    let mut seen_r = false;
    if i < chars.len() && chars[i] == 'x' && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
        i += 1;
        r = number(&mut i).unwrap_or(c);
        seen_r = true;
    }
    let (mut jigsaw, mut x, mut killer) = (false, false, false);
    while i < chars.len() {
        let ch = chars[i];
        i += 1;
        match ch {
            'j' => jigsaw = true,
            'x' => x = true,
            'k' => killer = true,
            // Symmetry: a, r<n>, m<n>, md<n>.
            'a' => {}
            'r' | 'm' => {
                if ch == 'm' && chars.get(i) == Some(&'d') {
                    i += 1;
                }
                number(&mut i);
            }
            // Difficulty: d followed by one of t b i a e u.
            'd' => {
                if chars.get(i).is_some_and(|c| "tbiaeu".contains(*c)) {
                    i += 1;
                } else {
                    return Err(syntax(
                        offset + i + 1,
                        "a difficulty 'd' must be followed by one of t, b, i, a, e, u",
                    ));
                }
            }
            other => {
                return Err(syntax(
                    offset + i,
                    format!(
                        "'{other}' is not a Solo parameter (sizes CxR or Nj, flags x and k, symmetry, difficulty d?)"
                    ),
                ));
            }
        }
    }
    // `Nj` is side N; `CxRj` is side C*R.
    let (c, r) = match (jigsaw, seen_r) {
        (true, true) => (c.saturating_mul(r), 1),
        (true, false) => (c, 1),
        (false, _) => (c, r),
    };
    let side = c.saturating_mul(r);
    if c < 2 || r < 1 {
        return Err(syntax(
            offset + 1,
            format!("Solo sizes need at least 2 in each dimension, got {params:?}"),
        ));
    }
    if side > SOLO_MAX_SIDE {
        return Err(syntax(
            offset + 1,
            format!("Solo supports sides up to {SOLO_MAX_SIDE}, {params:?} has side {side}"),
        ));
    }
    if killer && side > 9 {
        return Err(syntax(
            offset + 1,
            format!("Solo's Killer puzzles have a side of at most 9, {params:?} has side {side}"),
        ));
    }
    if x && side < 4 {
        return Err(syntax(
            offset + 1,
            format!("Solo's X puzzles need a side of at least 4, {params:?} has side {side}"),
        ));
    }
    Ok(SoloParams { c, r, x, killer })
}

/// Reads a Solo game ID, keeping its parameters (Killer IDs give a geometry with cages).
/// Random-seed IDs (`3x3#seed`) are refused because only Solo can expand them.
pub fn parse_id(text: &str) -> Result<SoloId, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::whole(ParseErrorKind::Empty));
    }
    if let Some(hash) = text.find('#').filter(|&hash| !text[..hash].contains(':')) {
        return Err(syntax(
            text[..hash].chars().count() + 1,
            "this is a random-seed ID; only Solo can expand it (use Game > Specific... for the descriptive ID)",
        ));
    }
    let colon = text.find(':').ok_or_else(|| {
        syntax(1, "a Solo game ID needs ':' between the size and the grid (like 3x3:a8a3...)")
    })?;
    let params = parse_params(&text[..colon], 0)?;
    let desc_offset = text[..colon].chars().count() + 1;
    let desc: Vec<char> = text[colon + 1..].chars().collect();
    let side = params.side();
    let (cells, mut end) = decode_grid(&desc, side, side, desc_offset)?;
    // `end` is the index of the ',' that ends each part (or the length); each part after the
    // grid must begin there.
    let part = |what: &str, end: usize| -> Result<usize, ParseError> {
        if end >= desc.len() {
            return Err(syntax(
                desc_offset + end + 1,
                format!("{what} after the {} cells (is the ID cut short?)", side * side),
            ));
        }
        Ok(end + 1)
    };
    let geometry = if params.is_jigsaw() {
        let start = part("a jigsaw ID needs ',' and the region walls", end)?;
        let (labels, used) = decode_walls(&desc[start..], side, desc_offset + start)?;
        end = start + used;
        Geometry::jigsaw(side, &labels).map_err(|e| err(desc_offset + start + 1, e.into()))?
    } else {
        Geometry::boxed(params.r, params.c).map_err(|e| err(1, e.into()))?
    };
    let geometry = if params.x { geometry.with_diagonals() } else { geometry };
    let geometry = if params.killer {
        let start = part("a Killer ID needs ',' and the cage walls", end)?;
        let (labels, used) = decode_walls(&desc[start..], side, desc_offset + start)?;
        let sums_start = part("a Killer ID needs ',' and the cage sums", start + used)?;
        let (sums, used) =
            decode_grid(&desc[sums_start..], side, side * side * side, desc_offset + sums_start)?;
        end = sums_start + used;
        let cages = cages_from(
            &labels,
            &sums,
            side,
            desc_offset + start + 1,
            desc_offset + sums_start + 1,
        )?;
        geometry.with_cages(cages).map_err(|e| err(desc_offset + sums_start + 1, e.into()))?
    } else {
        geometry
    };
    if end < desc.len() {
        let after = match (params.killer, params.is_jigsaw()) {
            (true, _) => "the cage sums".to_string(),
            (false, true) => "the jigsaw walls".to_string(),
            (false, false) => format!("the {} cells", side * side),
        };
        return Err(syntax(desc_offset + end + 1, format!("unexpected text after {after}")));
    }
    let cells = cells.into_iter().map(|v| v as u8).collect();
    let grid = Grid::new(Arc::new(geometry), cells).map_err(|e| err(desc_offset + 1, e.into()))?;
    Ok(SoloId { params, grid })
}

/// The cages of a Killer ID from the cage map (a label per cell) and the sums grid: each cage
/// carries its sum in one cell. `walls` and `sums` are the 1-based columns of the two parts.
fn cages_from(
    labels: &[usize],
    sums: &[u32],
    side: usize,
    walls: usize,
    sums_column: usize,
) -> Result<Vec<Cage>, ParseError> {
    let mut by_label: Vec<Vec<usize>> = vec![Vec::new(); labels.len()];
    for (i, &label) in labels.iter().enumerate() {
        by_label[label].push(i);
    }
    let cell = |i: usize| Cell::from_index(i, side);
    let mut cages = Vec::new();
    for cells in by_label.into_iter().filter(|c| !c.is_empty()) {
        let first = cell(cells[0]);
        if cells.len() < 2 || cells.len() > side {
            return Err(syntax(
                walls,
                format!(
                    "the cage at {first} has {} cell{}; Solo's Killer cages have 2 to {side} cells",
                    cells.len(),
                    if cells.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let mut given = cells.iter().filter(|&&i| sums[i] != 0);
        let sum = match (given.next(), given.next()) {
            (None, _) => {
                return Err(syntax(sums_column, format!("the cage at {first} has no sum")));
            }
            (Some(&a), Some(&b)) => {
                return Err(syntax(
                    sums_column,
                    format!(
                        "the cage at {first} has two sums, {} at {} and {} at {}",
                        sums[a],
                        cell(a),
                        sums[b],
                        cell(b)
                    ),
                ));
            }
            (Some(&a), None) => sums[a],
        };
        cages.push(Cage::new(sum, cells));
    }
    Ok(cages)
}

/// Decodes the GRID part up to the first `,` or the end. Returns the cells and the index of the
/// `,` (or the length). `offset` is the 0-based position of `desc` in the ID.
/// `max` is the largest number allowed: the side for values, more for Killer sums.
fn decode_grid(
    desc: &[char],
    side: usize,
    max: usize,
    offset: usize,
) -> Result<(Vec<u32>, usize), ParseError> {
    let area = side * side;
    let mut cells = Vec::with_capacity(area);
    let mut i = 0;
    while i < desc.len() && desc[i] != ',' {
        let ch = desc[i];
        let column = offset + i + 1;
        match ch {
            'a'..='z' => {
                let run = (ch as u8 - b'a' + 1) as usize;
                if cells.len() + run > area {
                    return Err(syntax(
                        column,
                        format!("too many cells: a {side}x{side} grid has {area}"),
                    ));
                }
                cells.extend(std::iter::repeat_n(0, run));
                i += 1;
            }
            '_' => i += 1,
            '0'..='9' => {
                let start = i;
                while i < desc.len() && desc[i].is_ascii_digit() {
                    i += 1;
                }
                let digits: String = desc[start..i].iter().collect();
                let value: usize = digits.parse().unwrap_or(usize::MAX);
                if value == 0 || value > max {
                    let message = if max == side {
                        format!("{digits} is not a value of a {side}x{side} grid (1 to {side})")
                    } else {
                        format!("{digits} is not a cage sum Solo allows (1 to {max})")
                    };
                    return Err(syntax(column, message));
                }
                if cells.len() >= area {
                    return Err(syntax(
                        column,
                        format!("too many cells: a {side}x{side} grid has {area}"),
                    ));
                }
                cells.push(value as u32);
            }
            other => {
                return Err(err(
                    column,
                    ParseErrorKind::BadSymbol {
                        found: other,
                        side,
                        hint: "; Solo IDs use decimal numbers, a-z for runs of blanks and _ between numbers".into(),
                    },
                ));
            }
        }
    }
    if cells.len() != area {
        return Err(syntax(
            offset + i + 1,
            format!("the grid has {} cells, a {side}x{side} grid needs {area}", cells.len()),
        ));
    }
    Ok((cells, i))
}

/// Decodes a wall list into a region label per cell (union-find roots). Returns the labels and
/// how many characters were used (up to a `,` or the end).
fn decode_walls(
    walls: &[char],
    side: usize,
    offset: usize,
) -> Result<(Vec<usize>, usize), ParseError> {
    let edges = 2 * side * (side - 1);
    let total = edges + 1;
    let mut regions = UnionFind::new(side * side);
    let mut pos = 0;
    let mut i = 0;
    while i < walls.len() && walls[i] != ',' {
        let ch = walls[i];
        let column = offset + i + 1;
        let run = match ch {
            '_' => 0,
            'a'..='z' => (ch as u8 - b'a' + 1) as usize,
            other => {
                return Err(syntax(column, format!("'{other}' is not a wall code (_ or a-z)")));
            }
        };
        let wall = run != 26;
        if pos + run + usize::from(wall) > total {
            return Err(syntax(
                column,
                format!("too many walls: a {side}x{side} jigsaw has {total} wall positions"),
            ));
        }
        for e in pos..pos + run {
            if let Some((a, b)) = edge_cells(e, side) {
                regions.join(a, b);
            }
        }
        pos += run + usize::from(wall);
        i += 1;
    }
    if pos != total {
        return Err(syntax(
            offset + i + 1,
            format!(
                "the wall list ends early: it covers {pos} of {total} wall positions (is the ID cut short?)"
            ),
        ));
    }
    let labels = regions.labels();
    Ok((labels, i))
}

/// The two cells on either side of internal edge `e`, in Solo's order (vertical edges row by
/// row, then horizontal edges column by column); `None` for the closing virtual edge.
fn edge_cells(e: usize, side: usize) -> Option<(usize, usize)> {
    let half = side * (side - 1);
    if e < half {
        let (y, x) = (e / (side - 1), e % (side - 1));
        Some((y * side + x, y * side + x + 1))
    } else if e < 2 * half {
        let e = e - half;
        let (x, y) = (e / (side - 1), e % (side - 1));
        Some((y * side + x, (y + 1) * side + x))
    } else {
        None
    }
}

/// Why a grid has no Solo game ID.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// Solo has no grid of this side.
    #[error("Solo has no {side}x{side} grid (sides 2 to {SOLO_MAX_SIDE})")]
    Side {
        /// The side.
        side: usize,
    },
    /// Solo's X puzzles need a side of at least 4.
    #[error("Solo has no X puzzle of side {side} (4 or more)")]
    SmallX {
        /// The side.
        side: usize,
    },
    /// Solo's Killer puzzles have a side of at most 9.
    #[error("Solo has no Killer puzzle of side {side} (9 at most)")]
    KillerSide {
        /// The side.
        side: usize,
    },
    /// A cage Solo cannot show: one cell, or cells that do not touch.
    #[error("{cage} {why}, which a Solo game ID cannot describe")]
    Cage {
        /// The cage.
        cage: crate::grid::CageRef,
        /// "has 1 cell" or "is not connected".
        why: &'static str,
    },
}

/// The Solo parameters for a geometry: boxes of at least 2x2 cells become `CxR`, any other
/// partition (jigsaws, boxes one cell wide or tall) becomes `Nj`.
pub fn params_for(geometry: &Geometry) -> Result<SoloParams, EncodeError> {
    let side = geometry.side();
    if !(2..=SOLO_MAX_SIDE).contains(&side) {
        return Err(EncodeError::Side { side });
    }
    if geometry.has_diagonals() && side < 4 {
        return Err(EncodeError::SmallX { side });
    }
    if geometry.is_killer() && side > 9 {
        return Err(EncodeError::KillerSide { side });
    }
    Ok(nearest_params(geometry))
}

/// The parameters for a geometry without Solo's limits on sizes.
fn nearest_params(geometry: &Geometry) -> SoloParams {
    let (c, r) = match geometry.regions() {
        Regions::Boxes { width, height } if *width >= 2 && *height >= 2 => (*height, *width),
        _ => (geometry.side(), 1),
    };
    SoloParams { c, r, x: geometry.has_diagonals(), killer: geometry.is_killer() }
}

/// Why a cage cannot be written in Solo's wall code: a single cell (Solo wants 2 or more), or
/// cells that do not all touch (walls would split it).
fn cage_problem(geometry: &Geometry) -> Option<EncodeError> {
    let side = geometry.side();
    for (k, cage) in geometry.cages().iter().enumerate() {
        let name = crate::grid::CageRef {
            number: k + 1,
            sum: cage.sum,
            first: Cell::from_index(cage.cells[0], side),
        };
        if cage.cells.len() < 2 {
            return Some(EncodeError::Cage { cage: name, why: "has 1 cell" });
        }
        let mut parts = UnionFind::new(side * side);
        for e in 0..2 * side * (side - 1) {
            if let Some((a, b)) = edge_cells(e, side)
                && geometry.cage_of(a) == Some(k)
                && geometry.cage_of(b) == Some(k)
            {
                parts.join(a, b);
            }
        }
        let labels = parts.labels();
        if cage.cells.iter().any(|&i| labels[i] != labels[cage.cells[0]]) {
            return Some(EncodeError::Cage { cage: name, why: "is not connected" });
        }
    }
    None
}

/// Writes a game ID Solo accepts, or says why Solo cannot represent the grid.
pub fn encode(grid: &Grid) -> Result<String, EncodeError> {
    let params = params_for(grid.geometry())?;
    if let Some(problem) = cage_problem(grid.geometry()) {
        return Err(problem);
    }
    let mut out = format!("{params}:");
    write_parts(grid, params.is_jigsaw(), &mut out);
    Ok(out)
}

/// The grid, the jigsaw walls when asked for, and the cage walls and sums of a Killer grid.
fn write_parts(grid: &Grid, jigsaw: bool, out: &mut String) {
    let geometry = grid.geometry();
    encode_grid(grid.cells().iter().map(|&v| u32::from(v)), out);
    if jigsaw {
        out.push(',');
        encode_walls(geometry.side(), |a, b| geometry.region_of(a) == geometry.region_of(b), out);
    }
    if geometry.is_killer() {
        out.push(',');
        encode_walls(geometry.side(), |a, b| geometry.cage_of(a) == geometry.cage_of(b), out);
        out.push(',');
        let mut sums = vec![0; geometry.cell_count()];
        for cage in geometry.cages() {
            sums[cage.cells[0]] = cage.sum;
        }
        encode_grid(sums, out);
    }
}

/// Writes a game ID Solo accepts. For a grid Solo cannot represent (side 1 or above 31, X
/// below side 4, Killer above side 9 or with a cage of one cell) it writes the nearest
/// description anyway; use [`encode`] to be told. (A cage whose cells do not touch comes out
/// as several cages, only one with the sum: such an ID does not read back.)
pub fn write(grid: &Grid) -> String {
    encode(grid).unwrap_or_else(|_| {
        let geometry = grid.geometry();
        if geometry.is_killer() {
            let params = nearest_params(geometry);
            let mut out = format!("{params}:");
            write_parts(grid, params.is_jigsaw(), &mut out);
            return out;
        }
        let side = grid.side();
        let mut out = format!("{side}j{}:", if geometry.has_diagonals() { "x" } else { "" });
        encode_grid(grid.cells().iter().map(|&v| u32::from(v)), &mut out);
        out
    })
}

/// Pushes blank-run letters for `run` blanks (`z` per 26).
fn push_run(mut run: usize, out: &mut String) {
    while run > 0 {
        let n = run.min(26);
        out.push((b'a' + n as u8 - 1) as char);
        run -= n;
    }
}

fn encode_grid(cells: impl IntoIterator<Item = u32>, out: &mut String) {
    let mut run = 0;
    let mut after_number = false;
    for v in cells {
        if v == 0 {
            run += 1;
            continue;
        }
        if run > 0 {
            push_run(run, out);
            run = 0;
        } else if after_number {
            out.push('_');
        }
        out.push_str(&v.to_string());
        after_number = true;
    }
    push_run(run, out);
}

/// Writes the wall code for the partition `same` describes (whether two cells share a part).
fn encode_walls(side: usize, same: impl Fn(usize, usize) -> bool, out: &mut String) {
    let edges = 2 * side * (side - 1);
    let mut run = 0usize;
    for e in 0..=edges {
        let wall = match edge_cells(e, side) {
            Some((a, b)) => !same(a, b),
            None => true,
        };
        if !wall {
            run += 1;
            continue;
        }
        // `z` stands for 26 non-walls and no wall, so longer runs spend z's first.
        while run >= 26 {
            out.push('z');
            run -= 26;
        }
        out.push(if run == 0 { '_' } else { (b'a' + run as u8 - 1) as char });
        run = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::line;

    const CLASSIC: &str = "3x3:a8a3d7c9b3_6_5a1c7g1b5a8a5a2a1a4a7b6g6c7a1_9_2b8c7d4a9a";

    #[test]
    fn reads_the_classic_example() {
        let id = parse_id(CLASSIC).expect("valid");
        assert_eq!(id.params, SoloParams { c: 3, r: 3, x: false, killer: false });
        assert!(id.grid.geometry().is_classic());
        assert_eq!(
            line::write(&id.grid),
            concat!(
                ".8.3....7",
                "...9..365",
                ".1...7...",
                "....1..5.",
                "8.5.2.1.4",
                ".7..6....",
                "...6...7.",
                "192..8...",
                "7....4.9."
            )
        );
        assert_eq!(write(&id.grid), CLASSIC);
    }

    #[test]
    fn two_by_three_is_three_wide_two_tall() {
        let id = parse_id("2x3:a6_4c2_5f2a6_5_6_4a2f1_6c3_2a").expect("valid");
        assert_eq!(id.grid.geometry().box_shape(), Some((3, 2)));
        assert_eq!(write(&id.grid), "2x3:a6_4c2_5f2a6_5_6_4a2f1_6c3_2a");
    }

    #[test]
    fn numbers_above_nine_are_decimal() {
        // 3x4: a 12x12 grid; 10 and 11 are values, the letters around them blank runs.
        let mut cells = vec![0u8; 144];
        cells[0] = 7;
        cells[5] = 10;
        cells[6] = 11;
        let grid =
            Grid::new(Arc::new(Geometry::boxed(4, 3).expect("geometry")), cells).expect("grid");
        let id = write(&grid);
        assert!(id.starts_with("3x4:7d10_11"), "{id}");
        assert_eq!(parse(&id).expect("round trip"), grid);
    }

    #[test]
    fn difficulty_and_symmetry_are_ignored() {
        let plain = parse(CLASSIC).expect("valid");
        for params in ["3x3de", "3x3dur4", "3x3amd2", "3dt", "3x3m8db"] {
            let id = CLASSIC.replacen("3x3", params, 1);
            assert_eq!(parse(&id).expect(params), plain, "{params}");
        }
    }

    #[test]
    fn x_flag_adds_diagonals() {
        let id = CLASSIC.replacen("3x3", "3x3x", 1);
        let grid = parse(&id).expect("valid");
        assert!(grid.geometry().has_diagonals());
        assert_eq!(write(&grid), id);
    }

    #[test]
    fn jigsaw_with_row_regions_uses_z_as_26_without_a_wall() {
        // Regions are the rows: no vertical walls (72 non-walls), then all 72 horizontal edges
        // are walls, then the closing wall. 72 = 26 + 26 + 20 non-walls then a wall ('t').
        let walls = format!("zzt{}", "_".repeat(72));
        let id = format!("9j:zzzc,{walls}");
        let grid = parse(&id).expect("valid");
        for i in 0..81 {
            assert_eq!(grid.geometry().region_of(i), i / 9);
        }
        assert_eq!(write(&grid), id);
    }

    /// A 4x4 Killer Solo generated (`sgt-solo --generate 1 2x2k`).
    const KILLER_4X4: &str = "2x2k:p,b______aaa_a_aaa,8b3_6_5_5d9_4c";

    #[test]
    fn killer_ids_give_cages_with_their_sums() {
        let grid = parse(KILLER_4X4).expect("valid");
        let g = grid.geometry();
        assert!(g.is_killer());
        assert_eq!(g.box_shape(), Some((2, 2)));
        let cages: Vec<(u32, Vec<usize>)> =
            g.cages().iter().map(|c| (c.sum, c.cells.clone())).collect();
        assert_eq!(
            cages,
            vec![
                (8, vec![0, 1, 2]),
                (3, vec![3, 7]),
                (6, vec![4, 8]),
                (5, vec![5, 9]),
                (5, vec![6, 10]),
                (9, vec![11, 14, 15]),
                (4, vec![12, 13]),
            ]
        );
        assert_eq!(write(&grid), KILLER_4X4);
        assert_eq!(parse_id(KILLER_4X4).expect("valid").params.to_string(), "2x2k");
    }

    #[test]
    fn killer_x_and_jigsaw_keep_every_part() {
        // The same cages with diagonals, and on a jigsaw whose regions are the boxes.
        let x = KILLER_4X4.replacen("2x2k", "2x2xk", 1);
        let grid = parse(&x).expect("valid");
        assert!(grid.geometry().has_diagonals() && grid.geometry().is_killer());
        assert_eq!(write(&grid), x);
        let boxes_as_jigsaw = "4jk:p,abbbbbbba,b______aaa_a_aaa,8b3_6_5_5d9_4c";
        let grid = parse(boxes_as_jigsaw).expect("valid");
        assert_eq!(grid.geometry().regions(), &Regions::Jigsaw);
        assert_eq!(grid.geometry().cages().len(), 7);
        assert_eq!(write(&grid), boxes_as_jigsaw);
    }

    #[test]
    fn bad_killer_ids_name_the_cage() {
        // The 3 of the cage at r1c4 moved into the cage at r1c1.
        let e = parse("2x2k:p,b______aaa_a_aaa,8_3b6_5_5d9_4c").expect_err("two sums");
        assert!(
            e.to_string().contains("the cage at r1c1 has two sums, 8 at r1c1 and 3 at r1c2"),
            "{e}"
        );
        let e = parse("2x2k:p,b______aaa_a_aaa,8c6_5_5d9_4c").expect_err("no sum");
        assert!(e.to_string().contains("the cage at r1c4 has no sum"), "{e}");
        // A sum its cells cannot make: 2 cells of 1-4 give 3 to 7.
        let e = parse("2x2k:p,b______aaa_a_aaa,8b3_6_5_5d9_8c").expect_err("sum");
        assert!(e.to_string().contains("sum 8 at r4c1"), "{e}");
        assert!(e.to_string().contains("add up to 3 to 7"), "{e}");
        // A one-cell cage: a wall added between r4c3 and r4c4.
        let e = parse("2x2k:p,b______a__a_a_aaa,8b3_6_5_5d9_4c").expect_err("size");
        assert!(e.to_string().contains("the cage at r4c3 has 1 cell"), "{e}");
        let e = parse("2x2k:p,b______aaa_a_aaa").expect_err("cut short");
        assert!(e.to_string().contains("cage sums"), "{e}");
        let e = parse("4x4k:zzzzf,_,_").expect_err("too big");
        assert!(e.to_string().contains("at most 9"), "{e}");
        let e = parse(&format!("{KILLER_4X4},1")).expect_err("extra");
        assert!(e.to_string().contains("after the cage sums"), "{e}");
    }

    #[test]
    fn truncated_walls_are_an_error() {
        let e = parse("9j:zzzc,zzt___").expect_err("short");
        assert!(e.to_string().contains("ends early"), "{e}");
        assert_eq!(e.position.map(|p| p.column), Some(15));
    }

    #[test]
    fn errors_name_the_place() {
        let e =
            parse("3x3:a8a3d7c9b3_6_5a1c7g1b5a8a5a2a1a4a7b6g6c7a1_9_2b8c7d4a9").expect_err("short");
        assert!(e.to_string().contains("80 cells"), "{e}");
        let e = parse("2x2:a1d2b5d3a").expect_err("value");
        assert_eq!(e.position.map(|p| p.column), Some(10));
        assert!(e.to_string().contains("5 is not a value"), "{e}");
        let e = parse("2x2:a1d2b!d3a").expect_err("char");
        assert_eq!(e.position.map(|p| p.column), Some(10));
        let e = parse("3y3:zzzc").expect_err("param");
        assert_eq!(e.position.map(|p| p.column), Some(2));
        let e = parse("3x3#12345").expect_err("seed");
        assert!(e.to_string().contains("random-seed"), "{e}");
        let e = parse("9:zzzc").expect_err("9 means 9x9 blocks: side 81");
        assert!(e.to_string().contains("up to 31"), "{e}");
        assert!(parse("3x3:zzzc,abc").is_err());
    }

    #[test]
    fn small_example_from_the_notes() {
        let grid = parse("2x2:a1d2b3d3a").expect("valid");
        assert_eq!(line::write(&grid), ".1....2..3....3.");
        assert_eq!(write(&grid), "2x2:a1d2b3d3a");
    }
}
