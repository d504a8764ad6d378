//! X boards drawn in pixels: both diagonals marked, either by a shade that only their cells
//! have, or by a line drawn across each of their cells from corner to corner. A board with
//! marks along its diagonals that are not exactly both diagonals (one diagonal, a cell left
//! out, other cells with the same mark) is refused: it is never played as a classic board,
//! and never as an X it may not be. Lines are painted over before the cells are read, so the
//! digits under them read as they would without them.
//! Pure: the image, the board found in it and its cells' backgrounds in; what they show out.

use crate::grid::Cell;

use super::board::Board;
use super::killer::{Rect, cell_rect as rect, distance, median};
use super::{PixelError, Rgba, RgbaImage};

/// How an X board marks its diagonals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marked {
    /// Their cells share a background colour no other cell has.
    Shaded,
    /// A line runs across each of their cells from corner to corner.
    Lines,
}

impl Marked {
    /// For messages: "shaded", "crossed by a line".
    fn how(self) -> &'static str {
        match self {
            Marked::Shaded => "shaded",
            Marked::Lines => "crossed by a line from corner to corner",
        }
    }

    /// A note for `-v` on a board whose diagonals are marked this way.
    pub fn note(self, side: usize) -> String {
        format!("x: all {} cells of both diagonals, and no other, are {}", cells(side), self.how())
    }
}

/// Marks along the diagonals that do not make an X board.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "the board's diagonals look marked ({}): {marked} of their {total} cells are{}{}; an X board marks exactly both diagonals",
    .how.how(),
    .unmarked.map(|c| format!(", {c} is not")).unwrap_or_default(),
    match .stray { 0 => String::new(), 1 => ", and 1 other cell is too".into(), n => format!(", and {n} other cells are too") }
)]
pub struct DiagonalError {
    /// How the marked cells are marked.
    pub how: Marked,
    /// How many cells of the diagonals are marked.
    pub marked: usize,
    /// How many cells the two diagonals have.
    pub total: usize,
    /// A cell of the diagonals that is not marked, if any.
    pub unmarked: Option<Cell>,
    /// How many cells off the diagonals are marked the same way.
    pub stray: usize,
}

/// Two colours this far apart (largest channel difference) are different shades.
const SHADE: u8 = 12;

/// A pixel this far from its cell's background is ink (of a line drawn across it).
const INK: u8 = 40;

/// Where along a cell's diagonal the line is looked for, as shares of its length: near the
/// corners, clear of the digit in the middle.
const ALONG: [f32; 12] = [0.06, 0.1, 0.14, 0.18, 0.22, 0.26, 0.74, 0.78, 0.82, 0.86, 0.9, 0.94];

/// Of the places along a diagonal, this many show ink where a line runs across the cell.
const CROSSED: usize = 10;

/// How many cells the two diagonals of a board of `side` have (the centre cell once).
fn cells(side: usize) -> usize {
    2 * side - side % 2
}

/// What the cells of the diagonals need: the main diagonal (`\`, top-left to bottom-right),
/// the anti-diagonal (`/`), or both (the centre of an odd side).
fn wanted(side: usize, i: usize) -> [bool; 2] {
    let (r, c) = (i / side, i % side);
    [r == c, r + c + 1 == side]
}

/// The marks along the diagonals of `board` in `image`, whose cells have the backgrounds
/// `bg` (reading order): `None` where there are none, the way both diagonals and no other
/// cell are marked, or why the marks seen make no X board.
pub fn marks(
    image: Rgba<'_>,
    board: &Board,
    bg: &[[u8; 3]],
) -> Result<Option<Marked>, DiagonalError> {
    let side = board.side;
    if side < 4 || bg.len() != side * side {
        return Ok(None);
    }
    let (shades, hidden) = shaded(side, bg);
    if let Some(marked) = judge(side, Marked::Shaded, &shades, &hidden) {
        return marked;
    }
    let lines: Vec<[bool; 2]> =
        (0..side * side).map(|i| [0, 1].map(|d| crossed(image, board, i, bg[i], d))).collect();
    judge(side, Marked::Lines, &lines, &[]).unwrap_or(Ok(None))
}

/// Which cells have a shade of their own: the shade most diagonal cells share where it sets
/// them apart from the plain colour of the cells off the diagonals (both directions set
/// alike, since a shade has no direction); and which have neither that shade nor the plain
/// colour (hidden under another fill).
fn shaded(side: usize, bg: &[[u8; 3]]) -> (Vec<[bool; 2]>, Vec<bool>) {
    let on = |i: usize| wanted(side, i).contains(&true);
    let plain = median((0..side * side).filter(|&i| !on(i)).map(|i| bg[i]));
    let tinted: Vec<[u8; 3]> = (0..side * side)
        .filter(|&i| on(i) && distance(bg[i], plain) >= SHADE)
        .map(|i| bg[i])
        .collect();
    if tinted.len() + 1 < side {
        return (vec![[false; 2]; side * side], vec![false; side * side]);
    }
    let shade = median(tinted.into_iter());
    bg.iter()
        .map(|&b| {
            let is_plain = distance(b, plain) < SHADE;
            let marked = distance(b, shade) < SHADE / 2 && !is_plain;
            ([marked; 2], !marked && !is_plain)
        })
        .unzip()
}

/// Whether cell `i` shows a line along its main (`d` 0) or anti (`d` 1) diagonal: ink at
/// most of the places near its corners where the line would run.
fn crossed(image: Rgba<'_>, board: &Board, i: usize, bg: [u8; 3], d: usize) -> bool {
    let Some((x0, y0, x1, y1)) = rect(board, i) else { return false };
    let ink = |x: usize, y: usize| {
        (x.saturating_sub(1)..=(x + 1).min(x1)).any(|x| distance(image.rgb(x, y), bg) >= INK)
    };
    ALONG
        .iter()
        .filter(|&&t| {
            let (x, y) = at(x0, y0, x1, y1, d, t);
            ink(x, y)
        })
        .count()
        >= CROSSED
}

/// The point a share `t` along a cell's main (`d` 0) or anti diagonal.
fn at(x0: usize, y0: usize, x1: usize, y1: usize, d: usize, t: f32) -> (usize, usize) {
    let dx = ((x1 - x0) as f32 * t).round() as usize;
    let y = y0 + ((y1 - y0) as f32 * t).round() as usize;
    if d == 0 { (x0 + dx, y) } else { (x1 - dx, y) }
}

/// Judges what each cell shows (`seen[i][d]`: marked along diagonal `d`; `hidden[i]`: its
/// look is covered by something else, such as a selected cell's fill) against an X board:
/// `None` when the marks are not along the diagonals (too few of their cells, or as many
/// elsewhere: a tint, a selection, uneven light), else the X or why it is not one. One
/// diagonal cell may be hidden (the cell the player selected).
fn judge(
    side: usize,
    how: Marked,
    seen: &[[bool; 2]],
    hidden: &[bool],
) -> Option<Result<Option<Marked>, DiagonalError>> {
    let total = cells(side);
    let (mut marked, mut covered, mut stray) = (0, 0, 0);
    let mut unmarked = None;
    for (i, s) in seen.iter().enumerate() {
        let want = wanted(side, i);
        let on = want.contains(&true);
        if on && (0..2).all(|d| !want[d] || s[d]) {
            marked += 1;
        } else if on && hidden.get(i) == Some(&true) && covered == 0 {
            covered += 1;
        } else if on && unmarked.is_none() {
            unmarked = Some(Cell::from_index(i, side));
        }
        // A shade marks a cell, a line one of its diagonals.
        let elsewhere = match how {
            Marked::Shaded => !on && s[0],
            Marked::Lines => (0..2).any(|d| s[d] && !want[d]),
        };
        stray += usize::from(elsewhere);
    }
    if marked + 1 < side || stray > side / 2 {
        return None;
    }
    if marked + covered == total && stray == 0 {
        return Some(Ok(Some(how)));
    }
    Some(Err(DiagonalError { how, marked, total, unmarked, stray }))
}

/// `image` with the lines across the diagonals' cells painted over in each cell's background,
/// so that the digits under them read as if there were none. Only pixels along the line that
/// mix its colour and the background's (its anti-aliased edges included) are painted: a digit
/// of another colour keeps its strokes where the line crosses them.
pub fn without_lines(
    image: Rgba<'_>,
    board: &Board,
    bg: &[[u8; 3]],
) -> Result<RgbaImage, PixelError> {
    let side = board.side;
    let mut out =
        RgbaImage { width: image.width(), height: image.height(), data: image.data.to_vec() };
    for (i, &bg) in bg.iter().enumerate().take(side * side) {
        let Some((x0, y0, x1, y1)) = rect(board, i) else { continue };
        let want = wanted(side, i);
        for d in (0..2).filter(|&d| want[d]) {
            let Some((line, half)) = line_look(image, (x0, y0, x1, y1), bg, d) else {
                continue;
            };
            for y in y0..=y1 {
                let t = (y - y0) as f32 / (y1 - y0) as f32;
                let (x, _) = at(x0, y0, x1, y1, d, t);
                for x in x.saturating_sub(half).max(x0)..=(x + half).min(x1) {
                    if mixes(image.rgb(x, y), line, bg) {
                        let p = (y * out.width + x) * 4;
                        out.data[p..p + 3].copy_from_slice(&bg);
                        out.data[p + 3] = 255;
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Whether `p` is a mix of `line` and `bg`: each channel between theirs (give or take a few
/// levels of noise).
fn mixes(p: [u8; 3], line: [u8; 3], bg: [u8; 3]) -> bool {
    (0..3).all(|k| {
        let (lo, hi) = (line[k].min(bg[k]), line[k].max(bg[k]));
        p[k] >= lo.saturating_sub(8) && p[k] <= hi.saturating_add(8)
    })
}

/// A line's colour (the median of its cores near the corners) and how far either side of its
/// path to paint (half its widest horizontal run there, and a pixel more for its edges).
fn line_look(
    image: Rgba<'_>,
    (x0, y0, x1, y1): Rect,
    bg: [u8; 3],
    d: usize,
) -> Option<([u8; 3], usize)> {
    let ink = |x: usize, y: usize| distance(image.rgb(x, y), bg) >= INK;
    let limit = (x1 - x0) / 6;
    let mut colours = Vec::new();
    let mut widest = 0;
    for &t in &ALONG {
        let (x, y) = at(x0, y0, x1, y1, d, t);
        let Some(start) = (x.saturating_sub(1)..=(x + 1).min(x1)).find(|&x| ink(x, y)) else {
            continue;
        };
        let (mut from, mut to) = (start, start);
        while from > x0 && start - from < limit && ink(from - 1, y) {
            from -= 1;
        }
        while to < x1 && to - start < limit && ink(to + 1, y) {
            to += 1;
        }
        widest = widest.max(to - from + 1);
        // The line's own colour is at its core, where it is farthest from the background
        // (its edges are mixed with it).
        let core = (from..=to).map(|x| image.rgb(x, y)).max_by_key(|&c| distance(c, bg));
        colours.extend(core);
    }
    (colours.len() >= CROSSED).then(|| (median(colours.into_iter()), widest / 2 + 2))
}

#[cfg(test)]
#[path = "diagonal_tests.rs"]
mod tests;
