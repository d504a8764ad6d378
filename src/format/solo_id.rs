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
//! Killer IDs (`k`) are recognised and refused with [`ParseErrorKind::Unsupported`].
//! Errors carry the 1-based character position in the ID as the column of line 1.

use std::sync::Arc;

use super::union_find::UnionFind;
use super::{ParseError, ParseErrorKind};
use crate::grid::{Geometry, Grid, Regions};

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

/// A decoded (non-Killer) Solo game ID: its parameters and its grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloId {
    /// The parameters (size, X, jigsaw).
    pub params: SoloParams,
    /// The givens on the geometry the parameters (and the jigsaw walls) describe.
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
    if x && side < 4 {
        return Err(syntax(
            offset + 1,
            format!("Solo's X puzzles need a side of at least 4, {params:?} has side {side}"),
        ));
    }
    Ok(SoloParams { c, r, x, killer })
}

/// Reads a Solo game ID, keeping its parameters. Killer IDs are refused as unsupported;
/// random-seed IDs (`3x3#seed`) are refused because only Solo can expand them.
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
    if params.killer {
        return Err(err(1, ParseErrorKind::Unsupported("Killer sudoku (a Solo 'k' game)".into())));
    }
    let desc_offset = text[..colon].chars().count() + 1;
    let desc: Vec<char> = text[colon + 1..].chars().collect();
    let side = params.side();
    let (cells, end) = decode_grid(&desc, side, desc_offset)?;
    let geometry = if params.is_jigsaw() {
        if end >= desc.len() {
            return Err(err(
                desc_offset + end + 1,
                ParseErrorKind::Syntax(format!(
                    "a jigsaw ID needs ',' and the region walls after the {} cells",
                    side * side
                )),
            ));
        }
        let (labels, wall_end) = decode_walls(&desc[end + 1..], side, desc_offset + end + 1)?;
        if end + 1 + wall_end < desc.len() {
            return Err(syntax(
                desc_offset + end + 1 + wall_end + 1,
                "unexpected text after the jigsaw walls",
            ));
        }
        Geometry::jigsaw(side, &labels).map_err(|e| err(desc_offset + end + 2, e.into()))?
    } else {
        if end < desc.len() {
            return Err(syntax(
                desc_offset + end + 1,
                format!("unexpected text after the {} cells", side * side),
            ));
        }
        Geometry::boxed(params.r, params.c).map_err(|e| err(1, e.into()))?
    };
    let geometry = if params.x { geometry.with_diagonals() } else { geometry };
    let grid = Grid::new(Arc::new(geometry), cells).map_err(|e| err(desc_offset + 1, e.into()))?;
    Ok(SoloId { params, grid })
}

/// Decodes the GRID part up to the first `,` or the end. Returns the cells and the index of the
/// `,` (or the length). `offset` is the 0-based position of `desc` in the ID.
fn decode_grid(desc: &[char], side: usize, offset: usize) -> Result<(Vec<u8>, usize), ParseError> {
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
                if value == 0 || value > side {
                    return Err(syntax(
                        column,
                        format!("{digits} is not a value of a {side}x{side} grid (1 to {side})"),
                    ));
                }
                if cells.len() >= area {
                    return Err(syntax(
                        column,
                        format!("too many cells: a {side}x{side} grid has {area}"),
                    ));
                }
                cells.push(value as u8);
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
    let (c, r) = match geometry.regions() {
        Regions::Boxes { width, height } if *width >= 2 && *height >= 2 => (*height, *width),
        _ => (side, 1),
    };
    Ok(SoloParams { c, r, x: geometry.has_diagonals(), killer: false })
}

/// Writes a game ID Solo accepts, or says why Solo cannot represent the grid.
pub fn encode(grid: &Grid) -> Result<String, EncodeError> {
    let params = params_for(grid.geometry())?;
    let mut out = format!("{params}:");
    encode_grid(grid.cells(), &mut out);
    if params.is_jigsaw() {
        out.push(',');
        encode_walls(grid.geometry(), &mut out);
    }
    Ok(out)
}

/// Writes a game ID Solo accepts. For a grid Solo cannot represent (side 1 or above 31, X
/// below side 4) it writes the nearest description anyway; use [`encode`] to be told.
pub fn write(grid: &Grid) -> String {
    encode(grid).unwrap_or_else(|_| {
        let side = grid.side();
        let mut out = format!("{side}j{}:", if grid.geometry().has_diagonals() { "x" } else { "" });
        encode_grid(grid.cells(), &mut out);
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

fn encode_grid(cells: &[u8], out: &mut String) {
    let mut run = 0;
    let mut after_number = false;
    for &v in cells {
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

fn encode_walls(geometry: &Geometry, out: &mut String) {
    let side = geometry.side();
    let edges = 2 * side * (side - 1);
    let mut run = 0usize;
    for e in 0..=edges {
        let wall = match edge_cells(e, side) {
            Some((a, b)) => geometry.region_of(a) != geometry.region_of(b),
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

    #[test]
    fn killer_is_refused_clearly() {
        let e = parse("3x3k:zzzc,_aaaa,9_11").expect_err("killer");
        assert!(matches!(e.kind, ParseErrorKind::Unsupported(_)));
        assert!(e.to_string().contains("Killer"), "{e}");
        assert!(e.to_string().contains("not supported yet"), "{e}");
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
