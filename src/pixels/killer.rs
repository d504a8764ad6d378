//! Killer boards drawn in pixels: the cage outlines, dashed or dotted lines drawn inside the
//! cells a little in from the grid lines, and each cage's sum, small digits in the top-left
//! corner of its first cell. Pure: the image and the board found in it in, the cages out, or
//! the reason they cannot be told exactly.
//!
//! Each side of each cell is looked at in a band inside the cell along that side: a line of
//! ink broken by gaps there is an outline, no ink is none, anything else (a line too faint,
//! too short, or solid) cannot be told. A board is taken for a Killer when most of the sides
//! along its edge carry an outline (every cage is closed, so a Killer outlines all of them);
//! then every side must be told, the two cells of an inner edge must agree, and the sums must
//! read with certainty (a glyph the digit naming is unsure of makes the whole read uncertain).
//! The cages are then made and checked by [`crate::grid::killer::outlined_cages`], the rules
//! the web's Killer marks are checked by too. The cells' values are read in a copy of the image
//! with the outlines and sums painted over in each cell's background.

use crate::grid::killer::{OutlineError, outlined_cages};
use crate::grid::{Cage, Cell};

use super::board::Board;
use super::digits;
use super::{BoardRead, CERTAIN, PixelError, Rgba, RgbaImage};

/// A pixel this far (largest channel difference) from its cell's background is ink.
const INK: u8 = 48;

/// The band an outline is looked for in: offsets from the cell's side, as shares of the cell.
const BAND: f32 = 0.16;

/// The stretch of a side that is measured (clear of the corners, where outlines turn, and of
/// the sum in the top-left corner), as shares of the side.
const ALONG: (f32, f32) = (0.38, 0.78);

/// A side whose best line covers at least this share of the stretch, with gaps, is outlined.
const DASHED: f32 = 0.3;

/// A line covering more than this share is solid, not dashed.
const SOLID: f32 = 0.92;

/// A side whose best line covers at most this share has no outline.
const CLEAR: f32 = 0.08;

/// The sides of a cell, in the order of [`Outlines::sides`].
const SIDE_NAMES: [&str; 4] = ["top", "right", "bottom", "left"];

/// Why a board that shows cage outlines cannot be read as a Killer exactly.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum KillerError {
    /// A side of a cell whose outline cannot be told.
    #[error("the cage outline on the {side} side of {cell} cannot be told: {why}")]
    Outline {
        /// The cell.
        cell: Cell,
        /// `top`, `right`, `bottom` or `left`.
        side: &'static str,
        /// What was seen.
        why: String,
    },
    /// A cage sum that cannot be read with certainty.
    #[error("the cage sum in {cell} cannot be read with certainty: {why}")]
    Sum {
        /// The cell it is written in.
        cell: Cell,
        /// What was seen.
        why: String,
    },
    /// The outlines and sums read do not make the cages of a Killer.
    #[error("{0}")]
    Cages(#[from] OutlineError),
}

/// What each side of each cell shows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Look {
    /// No line.
    Clear,
    /// A broken line, `inset` pixels in from the side.
    Dashed { inset: usize },
    /// Something else: the best line's cover and gaps.
    Unclear { cover: f32, runs: usize },
}

/// The outlines of a board: each cell's sides (top, right, bottom, left), in reading order.
#[derive(Clone, Debug, PartialEq)]
struct Outlines {
    sides: Vec<[Look; 4]>,
}

/// A board read from pixels, with its Killer cages when it shows outlines.
#[derive(Clone, Debug, PartialEq)]
pub struct KillerRead {
    /// The cells as read (with the outlines and sums of a Killer left out).
    pub read: BoardRead,
    /// The cages (`Ok(None)`: no outlines, a classic board), or why the outlines seen do not
    /// make cages exactly.
    pub cages: Result<Option<Vec<Cage>>, KillerError>,
    /// What was seen, for `-v`.
    pub notes: Vec<String>,
}

impl KillerRead {
    /// The variant found: `classic`, or the marks read joined (`killer`, `jigsaw`, `x`,
    /// `jigsaw x killer`; `killer?` for outlines that were refused).
    pub fn variant(&self) -> String {
        let b = &self.read.board;
        let cages = match &self.cages {
            Ok(Some(_)) => Some("killer"),
            Ok(None) => None,
            Err(_) => Some("killer?"),
        };
        let parts: Vec<&str> =
            [b.regions.is_some().then_some("jigsaw"), b.diagonals.is_some().then_some("x"), cages]
                .into_iter()
                .flatten()
                .collect();
        if parts.is_empty() { "classic".into() } else { parts.join(" ") }
    }
}

/// Reads the board in `image` with its cages: as [`super::read`], and when the board shows
/// cage outlines, its cages and its cells read without the outlines and sums.
pub fn read(image: Rgba<'_>) -> Result<KillerRead, PixelError> {
    if digits::template_count() == 0 {
        return Err(PixelError::NoTemplates);
    }
    let board = super::find_board(image)?;
    read_found(image, board)
}

/// [`read`] on a board already found.
pub fn read_found(image: Rgba<'_>, board: Board) -> Result<KillerRead, PixelError> {
    let side = board.side;
    let outlines = outlines(image, &board);
    let edge: Vec<[Look; 4]> = border_sides(&outlines, side);
    let dashed_edge = edge.iter().flatten().filter(|l| matches!(l, Look::Dashed { .. })).count();
    let any = outlines.sides.iter().flatten().filter(|l| matches!(l, Look::Dashed { .. })).count();
    let mut notes = Vec::new();
    // Every cage is closed, so a Killer outlines each of the 4 x side sides along the edge.
    if dashed_edge * 2 < 4 * side {
        if any > 0 {
            notes.push(format!(
                "{any} cell sides show a broken line, but only {dashed_edge} of the {} along \
                 the board's edge: not read as Killer cages",
                4 * side
            ));
        }
        let read = super::read_board(image, board)?;
        note_marks(&read, &mut notes);
        return Ok(KillerRead { read, cages: Ok(None), notes });
    }
    let established = establish(image, &board, &outlines);
    let (cleaned, cages) = match established {
        Ok((cleaned, cages)) => (Some(cleaned), Ok(cages)),
        Err(e) => (None, Err(e)),
    };
    let read = match &cleaned {
        Some(c) => super::read_board(c.view()?, board)?,
        None => super::read_board(image, board)?,
    };
    if let Ok(cages) = &cages {
        notes.push(format!(
            "Killer: {dashed_edge} of the {} sides along the board's edge and {any} in all show \
             a dashed outline; they make {} cages whose sums add up to {}",
            4 * side,
            cages.len(),
            cages.iter().map(|c| c.sum).sum::<u32>()
        ));
    }
    note_marks(&read, &mut notes);
    Ok(KillerRead { read, cages: cages.map(Some), notes })
}

/// Notes for `-v` where the read found jigsaw regions or the diagonals of an X, or the rules
/// settled a given.
fn note_marks(read: &BoardRead, notes: &mut Vec<String>) {
    let side = read.board.side;
    if read.board.regions.is_some() {
        notes.push(format!(
            "jigsaw: thick lines between cells off the box lines outline {side} regions of {side} cells"
        ));
    }
    if let Some(marked) = read.board.diagonals {
        notes.push(marked.note(side));
    }
    notes.extend(read.settled_notes());
}

/// The sides of the cells along the board's edge that face it (others `Clear`).
fn border_sides(outlines: &Outlines, side: usize) -> Vec<[Look; 4]> {
    (0..side * side)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            let facing = [r == 0, c + 1 == side, r + 1 == side, c == 0];
            let mut out = [Look::Clear; 4];
            for k in 0..4 {
                if facing[k] {
                    out[k] = outlines.sides[i][k];
                }
            }
            out
        })
        .collect()
}

/// The cages, exactly, and the image with their outlines and sums painted over.
fn establish(
    image: Rgba<'_>,
    board: &Board,
    outlines: &Outlines,
) -> Result<(RgbaImage, Vec<Cage>), KillerError> {
    let side = board.side;
    let name = |i: usize| Cell::from_index(i, side);
    for (i, sides) in outlines.sides.iter().enumerate() {
        for (k, look) in sides.iter().enumerate() {
            if let Look::Unclear { cover, runs } = look {
                return Err(KillerError::Outline {
                    cell: name(i),
                    side: SIDE_NAMES[k],
                    why: format!(
                        "the best line there covers {:.0}% of the side in {runs} pieces",
                        cover * 100.0
                    ),
                });
            }
        }
    }
    let dashed = |i: usize, k: usize| matches!(outlines.sides[i][k], Look::Dashed { .. });
    let mut joined = Vec::new();
    for i in 0..side * side {
        let (r, c) = (i / side, i % side);
        let facing = [r == 0, c + 1 == side, r + 1 == side, c == 0];
        for (k, edge) in facing.iter().enumerate() {
            if *edge && !dashed(i, k) {
                return Err(KillerError::Outline {
                    cell: name(i),
                    side: SIDE_NAMES[k],
                    why: "no outline along the board's edge, where every cage is closed".into(),
                });
            }
        }
        // Right (1) against the next cell's left (3); bottom (2) against the top (0) below.
        for (k, next) in [(1, (c + 1 < side).then(|| i + 1)), (2, (r + 1 < side).then(|| i + side))]
        {
            let Some(j) = next else { continue };
            match (dashed(i, k), dashed(j, (k + 2) % 4)) {
                (false, false) => joined.push((i, j)),
                (true, true) => {}
                (mine, _) => {
                    let (cell, s) = if mine { (j, (k + 2) % 4) } else { (i, k) };
                    return Err(KillerError::Outline {
                        cell: name(cell),
                        side: SIDE_NAMES[s],
                        why: format!(
                            "the cell beside it ({}) has an outline there and it has none",
                            name(if mine { i } else { j })
                        ),
                    });
                }
            }
        }
    }
    let inset = outlines
        .sides
        .iter()
        .flatten()
        .filter_map(|l| match l {
            Look::Dashed { inset } => Some(*inset),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut cleaned =
        RgbaImage { width: image.width(), height: image.height(), data: image.data.to_vec() };
    let mut sums = vec![None; side * side];
    for (i, sum) in sums.iter_mut().enumerate() {
        let Some(rect) = cell_rect(board, i) else { continue };
        let found = corner_sum(image, rect, inset)
            .map_err(|why| KillerError::Sum { cell: name(i), why })?;
        *sum = found.map(|(value, _)| value);
        paint_over(&mut cleaned, rect, inset, found.map(|(_, ink)| ink));
    }
    let cages = outlined_cages(side, joined, &sums)?;
    Ok((cleaned, cages))
}

/// A cell's inside: `(x0, y0, x1, y1)`, inclusive.
pub(super) type Rect = (usize, usize, usize, usize);

/// A cell's inside, when it is large enough to look at.
pub(super) fn cell_rect(board: &Board, i: usize) -> Option<Rect> {
    let (y0, y1) = *board.rows.get(i / board.side.max(1))?;
    let (x0, x1) = *board.cols.get(i % board.side.max(1))?;
    (x1 > x0 + 8 && y1 > y0 + 8).then_some((x0, y0, x1, y1))
}

/// The background of a cell: the median colour of its pixels.
pub(super) fn background(image: Rgba<'_>, (x0, y0, x1, y1): Rect) -> [u8; 3] {
    median((y0..=y1).step_by(2).flat_map(|y| (x0..=x1).step_by(2).map(move |x| image.rgb(x, y))))
}

/// The per-channel median of `colours` (white where there are none).
pub(super) fn median(colours: impl Iterator<Item = [u8; 3]>) -> [u8; 3] {
    let mut ch: [Vec<u8>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for c in colours {
        for k in 0..3 {
            ch[k].push(c[k]);
        }
    }
    ch.map(|mut v| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(255)
    })
}

pub(super) fn distance(a: [u8; 3], b: [u8; 3]) -> u8 {
    a.iter().zip(b.iter()).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0)
}

/// The background of every cell of `board` (reading order), as [`background`] gives it.
pub(super) fn backgrounds(image: Rgba<'_>, board: &Board) -> Vec<[u8; 3]> {
    let side = board.side;
    (0..side * side)
        .filter_map(|i| {
            let ((y0, y1), (x0, x1)) = (*board.rows.get(i / side)?, *board.cols.get(i % side)?);
            Some(background(image, (x0, y0, x1, y1)))
        })
        .collect()
}

/// Each side of every cell of the board (see [`Look`]).
fn outlines(image: Rgba<'_>, board: &Board) -> Outlines {
    let n = board.side * board.side;
    let sides = (0..n)
        .map(|i| match cell_rect(board, i) {
            Some(rect) => {
                let bg = background(image, rect);
                [0, 1, 2, 3].map(|k| look_at(image, rect, bg, k))
            }
            None => [Look::Unclear { cover: 0.0, runs: 0 }; 4],
        })
        .collect();
    Outlines { sides }
}

/// What side `k` (top, right, bottom, left) of the cell shows: the line in its band that
/// covers most of the measured stretch.
fn look_at(image: Rgba<'_>, (x0, y0, x1, y1): Rect, bg: [u8; 3], k: usize) -> Look {
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    // Along the side and across it, in the cell's own coordinates.
    let (len, depth) = if k.is_multiple_of(2) { (w, h) } else { (h, w) };
    let at = |along: usize, off: usize| -> (usize, usize) {
        match k {
            0 => (x0 + along, y0 + off),
            1 => (x1 - off, y0 + along),
            2 => (x0 + along, y1 - off),
            _ => (x0 + off, y0 + along),
        }
    };
    let from = (ALONG.0 * len as f32) as usize;
    let to = ((ALONG.1 * len as f32) as usize).max(from + 1);
    let deepest = ((BAND * depth as f32) as usize).max(3);
    // The broken line that covers most, else the line that covers most.
    let mut dashed: Option<(f32, usize)> = None;
    let mut best = (0.0f32, 0usize);
    // From 2 in: the grid line's own anti-aliased edge is not an outline.
    for off in 2..deepest {
        let mut inked = 0;
        let mut runs = 0;
        let mut was = false;
        for along in from..to {
            let ink = (off..=off + 1).any(|o| {
                let (x, y) = at(along, o);
                distance(image.rgb(x, y), bg) >= INK
            });
            if ink {
                inked += 1;
                if !was {
                    runs += 1;
                }
            }
            was = ink;
        }
        let cover = inked as f32 / (to - from) as f32;
        if (DASHED..=SOLID).contains(&cover) && runs >= 2 && dashed.is_none_or(|d| cover > d.0) {
            dashed = Some((cover, off));
        }
        if cover > best.0 {
            best = (cover, runs);
        }
    }
    match (dashed, best) {
        (Some((_, off)), _) => Look::Dashed { inset: off + 1 },
        (None, (cover, _)) if cover <= CLEAR => Look::Clear,
        (None, (cover, runs)) => Look::Unclear { cover, runs },
    }
}

/// A piece of ink in the corner, in the cell's coordinates: its box.
#[derive(Clone, Copy, Debug)]
struct Piece {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

/// The number written in the top-left corner of a cell, inside its outlines (`inset` pixels in
/// from the sides), and the box of its ink in image pixels; `None` when nothing is written
/// there; an error naming what could not be read.
fn corner_sum(image: Rgba<'_>, rect: Rect, inset: usize) -> Result<Option<(u32, Rect)>, String> {
    let (x0, y0, x1, y1) = rect;
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let bg = background(image, rect);
    let skip = inset + 2;
    if w < 2 * skip + 8 || h < 2 * skip + 8 {
        return Err("the cell is too small inside its outlines".into());
    }
    // The cell inside its outlines, where a sum and a value are written.
    let (cw, ch) = (w - 2 * skip, h - 2 * skip);
    let (ox, oy) = (x0 + skip, y0 + skip);
    let dist: Vec<u8> =
        (0..cw * ch).map(|p| distance(image.rgb(ox + p % cw, oy + p / cw), bg)).collect();
    let contrast = dist.iter().copied().max().unwrap_or(0);
    if contrast < INK {
        return Ok(None);
    }
    // A lower cut than a value's: the thin strokes of small glyphs hold together.
    let cut = (contrast / 3).max(INK / 2 + 12);
    let mask: Vec<bool> = dist.iter().map(|&d| d >= cut).collect();
    let mut pieces: Vec<Piece> = Vec::new();
    super::cells::components(&mask, cw, |piece| {
        let mut p = Piece { x0: usize::MAX, y0: usize::MAX, x1: 0, y1: 0 };
        for &i in piece {
            p.x0 = p.x0.min(i % cw);
            p.x1 = p.x1.max(i % cw);
            p.y0 = p.y0.min(i / cw);
            p.y1 = p.y1.max(i / cw);
        }
        pieces.push(p);
    });
    // The corner: the left half of the cell, its top two fifths. A piece that starts there
    // and is as tall as a value, or runs out of the corner, is the cell's value (or part of
    // it); the others are the sum's.
    let (corner_w, corner_h) = ((w / 2).saturating_sub(skip), (h * 2 / 5).saturating_sub(skip));
    let value = |p: &Piece| {
        (p.y1 - p.y0 + 1) as f32 >= 0.3 * h as f32 || p.x1 >= corner_w || p.y1 >= corner_h
    };
    pieces.retain(|p| p.x0 < corner_w && p.y0 < corner_h);
    let values: Vec<Piece> = pieces.iter().copied().filter(|p| value(p)).collect();
    pieces.retain(|p| !value(p));
    // Pieces that overlap across are one glyph (a stroke broken off); specks are dropped.
    let tall = |p: &Piece| p.y1 - p.y0 + 1 >= (h / 10).max(4);
    pieces.sort_by_key(|p| p.x0);
    let mut glyphs: Vec<Piece> = Vec::new();
    for p in pieces {
        match glyphs.last_mut() {
            Some(g) if p.x0 <= g.x1 => {
                g.x1 = g.x1.max(p.x1);
                g.y0 = g.y0.min(p.y0);
                g.y1 = g.y1.max(p.y1);
            }
            _ => glyphs.push(p),
        }
    }
    glyphs.retain(tall);
    // A value that reaches up beside the sum may have swallowed a glyph of it.
    let sum_top = glyphs.iter().map(|g| g.y0).max().unwrap_or(0);
    if !glyphs.is_empty()
        && let Some(v) = values.iter().find(|v| v.y0 <= sum_top + 1)
    {
        return Err(format!("the value's ink at ({}, {}) touches the sum", ox + v.x0, oy + v.y0));
    }
    if glyphs.is_empty() {
        return Ok(None);
    }
    if glyphs.len() > 2 {
        return Err(format!("{} glyphs where a sum has 1 or 2", glyphs.len()));
    }
    let mut value = 0u32;
    for (n, g) in glyphs.iter().enumerate() {
        let digit = name_glyph(&dist, &mask, cw, g)?;
        if n == 0 && digit == 0 {
            return Err("it starts with a 0".into());
        }
        value = value * 10 + u32::from(digit);
    }
    let ink = (
        ox + glyphs.iter().map(|g| g.x0).min().unwrap_or(0),
        oy + glyphs.iter().map(|g| g.y0).min().unwrap_or(0),
        ox + glyphs.iter().map(|g| g.x1).max().unwrap_or(0),
        oy + glyphs.iter().map(|g| g.y1).max().unwrap_or(0),
    );
    Ok(Some((value, ink)))
}

/// The digit (0 to 9) a small glyph shows, named as the cells' values are ([`digits::name`]);
/// a 0, which the naming takes for no digit, by its shape: one hole, in its middle.
fn name_glyph(dist: &[u8], mask: &[bool], w: usize, g: &Piece) -> Result<u8, String> {
    let (cx0, cy0) = (g.x0.saturating_sub(1), g.y0.saturating_sub(1));
    let (cx1, cy1) = (g.x1 + 1, g.y1 + 1);
    let (gw, gh) = (cx1 - cx0 + 1, cy1 - cy0 + 1);
    let mut strong: Vec<u8> = Vec::new();
    for y in g.y0..=g.y1 {
        for x in g.x0..=g.x1 {
            if mask[y * w + x] {
                strong.push(dist[y * w + x]);
            }
        }
    }
    strong.sort_unstable();
    let full = f32::from(strong.get(strong.len() * 9 / 10).copied().unwrap_or(1).max(1));
    let ink: Vec<f32> = (0..gw * gh)
        .map(|p| (f32::from(dist[(cy0 + p / gw) * w + cx0 + p % gw]) / full).min(1.0))
        .collect();
    let Some(features) = digits::features(gw, gh, &ink) else {
        return Err("a glyph with no ink".into());
    };
    let score = digits::builtin().score(&features);
    let named = digits::name(&features, &score, 9);
    if let Some((v, confidence, _)) = named
        && confidence >= CERTAIN
    {
        return Ok(v);
    }
    let glyph: Vec<bool> = (0..gw * gh).map(|p| ink[p] >= 0.3).collect();
    if is_zero(&glyph, gw, gh) {
        return Ok(0);
    }
    Err(match named {
        Some((v, c, _)) => format!("a glyph read as {v} at confidence {c:.2}, below {CERTAIN}"),
        None => "a glyph that is no digit".into(),
    })
}

/// Whether a glyph's ink is a 0: narrower than tall, one piece round one hole, the hole in the
/// middle and most of the glyph's height.
fn is_zero(ink: &[bool], w: usize, h: usize) -> bool {
    let aspect = w as f32 / h as f32;
    if !(0.35..=1.0).contains(&aspect) {
        return false;
    }
    let mut pieces = 0;
    super::cells::components(ink, w, |_| pieces += 1);
    if pieces != 1 {
        return false;
    }
    // Holes: 4-connected background not reaching the box's edge (8-connected ink encloses
    // 4-connected background).
    let mut seen = vec![false; w * h];
    let mut holes = Vec::new();
    for start in 0..w * h {
        if ink[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
            let next = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            for j in next.into_iter().flatten() {
                if !ink[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        if x0 > 0 && y0 > 0 && x1 + 1 < w && y1 + 1 < h {
            holes.push((x0, y0, x1, y1));
        }
    }
    let [(x0, y0, x1, y1)] = holes[..] else { return false };
    let (hx, hy) = ((x0 + x1) as f32 / 2.0, (y0 + y1) as f32 / 2.0);
    let centred = (hx - (w - 1) as f32 / 2.0).abs() <= 0.15 * w as f32
        && (hy - (h - 1) as f32 / 2.0).abs() <= 0.12 * h as f32;
    centred && (y1 - y0 + 1) as f32 >= 0.45 * h as f32
}

/// Paints a cell's margin (where outlines run, `inset` pixels and a little more from each
/// side) and its sum's ink in the cell's background colour.
fn paint_over(image: &mut RgbaImage, rect: Rect, inset: usize, sum: Option<Rect>) {
    let (x0, y0, x1, y1) = rect;
    let Ok(view) = image.view() else { return };
    let bg = background(view, rect);
    let margin = inset + 2;
    let width = image.width;
    let mut paint = |x: usize, y: usize| {
        let i = (y * width + x) * 4;
        image.data[i..i + 3].copy_from_slice(&bg);
        image.data[i + 3] = 255;
    };
    for y in y0..=y1 {
        for x in x0..=x1 {
            let edge = (x - x0).min(x1 - x).min(y - y0).min(y1 - y);
            let in_sum = sum.is_some_and(|(sx0, sy0, sx1, sy1)| {
                (sx0.saturating_sub(1)..=sx1 + 1).contains(&x)
                    && (sy0.saturating_sub(1)..=sy1 + 1).contains(&y)
            });
            if edge <= margin || in_sum {
                paint(x, y);
            }
        }
    }
}

#[cfg(test)]
#[path = "killer_tests.rs"]
mod tests;
