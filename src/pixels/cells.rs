//! Reading the cells of a found board: what is drawn inside each cell (nothing, small pencil
//! marks, or one large glyph), the glyph's digit and whether its ink is coloured (an entry)
//! or not (a given).

use super::board::Board;
use super::digits;
use super::{CellKind, CellRead, Rgba, Settled};

#[cfg(test)]
#[path = "cell_tests.rs"]
mod cell_tests;

/// A cell whose darkest (farthest) pixel is this close to its background is empty.
const EMPTY_CONTRAST: u8 = 40;

/// Ink at least this share of the cell's height is a value; at most [`SMALL`], a pencil mark.
const BIG: f32 = 0.38;
const SMALL: f32 = 0.3;

/// A glyph between [`SMALL`] and [`BIG`] whose centre is this close to the cell's (a share of
/// the cell's side) is a value drawn small.
const CENTRED: f32 = 0.1;

/// A piece whose centre is at least this far from the cell's (a share of the cell's side) sits
/// in an outer row or column of a pencil-mark layout.
const OFF_CENTRE: f32 = 0.2;

/// A piece alone whose centre is at least this far from the cell's is a pencil mark in an
/// outer row or column (a value's glyph is centred).
const FAR_OFF_CENTRE: f32 = 0.3;

/// The heights of values and pencil marks, as shares of the cell's height: a glyph at least
/// `big` is a value; past `small` and centred, a value drawn small; at most `small`, a mark.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    big: f32,
    small: f32,
}

/// The sizes of most boards.
const USUAL: Sizes = Sizes { big: BIG, small: SMALL };

/// Ink colour with a channel spread at least this large is an entry's colour.
const ENTRY_CHROMA: u8 = 70;

/// Glyphs of the board's own font: a glyph this similar to another is drawn alike.
const SAME_GLYPH: f32 = 0.95;

/// A glyph at most this similar to every sure glyph of a digit (same kind, so the same font)
/// is not that digit.
const OTHER_GLYPH: f32 = 0.7;

/// A template read at least this confident is a probable example of its digit.
const PROBABLE: f32 = 0.25;

/// Reads every cell, in reading order.
///
/// Then the board's own font helps: the digits the templates read with certainty are
/// examples of how this board draws them. A glyph that looks like none of the sure examples
/// of a digit (of the same kind: givens and entries may use different fonts) is not that
/// digit, which can only widen the margin of an uncertain read; a glyph that looks like a
/// sure example of another digit (as much as like any of its own), or unlike the sure examples
/// of its own, becomes uncertain. Last, a glyph still uncertain that the templates, the
/// network and the board's font all name alike is read (see [`font_agrees`]).
///
/// A glyph still uncertain that the templates find as like a 9 as an 8, that the network
/// reads as the templates do, and that lies clearly nearer the board's sure examples of that
/// digit where the two differ, is read (see [`super::differ`]). Then the puzzle's rules
/// settle the givens the readers narrowed to two or three digits (see [`super::settle`]); those are
/// returned apart as well.
pub fn read_cells(image: Rgba<'_>, board: &Board) -> (Vec<CellRead>, Vec<Settled>) {
    let (mut out, scores, nets) = read_all(image, board, USUAL);
    let net_sure: Vec<bool> = nets.iter().map(|n| n.sure).collect();
    // Sure reads teach the board's font; newly sure cells teach it more, a few rounds.
    for _ in 0..4 {
        let revised = own_font(&out, &scores, &net_sure);
        if revised == out {
            break;
        }
        out = revised;
    }
    let mut out = font_agrees(out, &scores, &nets);
    super::differ::differ(&mut out, &scores, &nets);
    let settled = super::settle::settle(board, &out, &scores, &nets);
    for s in &settled {
        out[s.cell].value = Some(s.digit);
        out[s.cell].confidence = super::CERTAIN;
    }
    (out, settled)
}

/// Every cell of the board read with the value sizes `sizes`: the reads, the glyphs' scores and
/// whether the network is sure of each.
fn read_all(
    image: Rgba<'_>,
    board: &Board,
    sizes: Sizes,
) -> (Vec<CellRead>, Vec<Option<digits::Scores>>, Vec<Net>) {
    let n = board.side * board.side;
    let (mut out, mut scores, mut net_sure) =
        (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
    for &(y0, y1) in &board.rows {
        for &(x0, x1) in &board.cols {
            let (read, score, net) = read_cell_sized(image, (x0, y0, x1, y1), board.side, sizes);
            out.push(read);
            scores.push(score);
            net_sure.push(net);
        }
    }
    (out, scores, net_sure)
}

/// A glyph at least this similar to its nearest sure example on the board (see
/// [`font_agrees`]).
const FONT_NEAR: f32 = 0.9;

/// The margin by which a glyph's nearest sure example of its digit beats those of every other
/// digit (see [`font_agrees`]): small, as a blurred 8 is nearly as like the board's 6s (0.007
/// on wt-image8); the templates and the network must agree besides, and no wrong read of the
/// development set had all three at any margin.
const FONT_MARGIN: f32 = 0.005;

/// The network's least probability for [`font_agrees`] (the committee's probabilities for a
/// webcam's 7 run from 0.43 to 0.69 where the templates and the board's font agree).
const FONT_NET: f32 = 0.4;

/// Where the templates name another digit than the network (a webcam's open 4, which they
/// take for a 6), the board's font must say more: its nearest sure example of the network's
/// digit at least [`FONT_TWIN`] alike, by [`FONT_APART`] over every other digit's, the
/// templates' digit among them, and the network at least [`FONT_NET_ALONE`] probable (see
/// [`font_agrees`]).
const FONT_TWIN: f32 = 0.95;

/// See [`FONT_TWIN`]: the open 4s of the development set's webcam photos were nearer their
/// board's sure 4s than its sure 6s by 0.019 to 0.078; a glyph that the network and the
/// templates name alike needs only [`FONT_MARGIN`].
const FONT_APART: f32 = 0.04;

/// See [`FONT_TWIN`].
const FONT_NET_ALONE: f32 = 0.6;

/// An uncertain glyph that three readers name alike is read: the templates' best digit, the
/// network's value (at least [`FONT_NET`] probable), and the board's own font, whose sure
/// examples (certain reads of the same kind) nearest the glyph are of that digit, at least
/// [`FONT_NEAR`] alike and by [`FONT_MARGIN`] over every other digit's, the templates'
/// runner-up among them (a blurred photo's 8 that the templates find only a little more like
/// an 8 than a 6 is nearer this board's sure 8s than its sure 6s). Each of the three alone is
/// unsure of such blurred glyphs; a wrong read of the development set's photos never had all
/// three.
///
/// Where the templates name another digit (uncertain of it), the network and the board's font
/// may still read the glyph, with more from each: the network at least [`FONT_NET_ALONE`]
/// probable, the nearest sure example of its digit at least [`FONT_TWIN`] alike and by
/// [`FONT_APART`] over every other digit's, the templates' digit among them. A webcam's open
/// 4, which no template font draws, is so read beside the board's sure 4s; over the
/// development set's pictures, every glyph so read was right, and the one wrong reading of the
/// network left uncertain here was nearer the board's examples of another digit.
///
/// Only the sure reads before this step count as examples. A board with pencil marks
/// is left as it is: a photo read before its perspective is undone may cut a glyph into what
/// passes for marks, and such a read must keep its doubts (the straightened one is tried).
fn font_agrees(
    mut out: Vec<CellRead>,
    scores: &[Option<digits::Scores>],
    nets: &[Net],
) -> Vec<CellRead> {
    if out.iter().any(|c| c.kind == CellKind::Pencil) {
        return out;
    }
    let sure: Vec<(usize, CellKind, u8, &digits::Scores)> = out
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_certain())
        .filter_map(|(i, c)| Some((i, c.kind, c.value?, scores[i].as_ref()?)))
        .collect();
    let mut agreed = Vec::new();
    for (i, cell) in out.iter().enumerate() {
        let (Some(score), Some(value)) = (&scores[i], cell.value) else { continue };
        let net = nets[i].read;
        if cell.is_certain()
            || cell.kind == CellKind::Unclear
            || net.value != value
            || net.probability < FONT_NET
        {
            continue;
        }
        let Some(guess) = score.guess(&[false; 10]) else { continue };
        let templates_agree = guess.digit == value;
        // Letters (16x16 values) have no templates to weigh.
        if value > 9 || !templates_agree && net.probability < FONT_NET_ALONE {
            continue;
        }
        let mut nearest = [-1f32; 10];
        for &(j, kind, v, other) in &sure {
            if j != i && kind == cell.kind {
                let slot = &mut nearest[usize::from(v)];
                *slot = slot.max(score.similarity(other));
            }
        }
        let own = nearest[usize::from(value)];
        let others = (1..=9u8).filter(|&d| d != value).map(|d| nearest[usize::from(d)]);
        let beaten = others.fold(-1f32, f32::max);
        let agreed_here = if templates_agree {
            let runner_up_seen = guess.second == 0 || nearest[usize::from(guess.second)] > -1.0;
            own >= FONT_NEAR && own - beaten >= FONT_MARGIN && runner_up_seen
        } else {
            let templates_seen = nearest[usize::from(guess.digit)] > -1.0;
            own >= FONT_TWIN && own - beaten >= FONT_APART && templates_seen
        };
        if agreed_here {
            agreed.push(i);
        }
    }
    for i in agreed {
        out[i].confidence = out[i].confidence.max(super::CERTAIN);
    }
    out
}

/// One round of the board's own font (see [`read_cells`]).
fn own_font(
    out: &[CellRead],
    scores: &[Option<digits::Scores>],
    net_sure: &[bool],
) -> Vec<CellRead> {
    let sure: Vec<(usize, CellKind, u8)> = out
        .iter()
        .enumerate()
        .filter(|(i, c)| c.is_certain() && scores[*i].is_some())
        .filter_map(|(i, c)| Some((i, c.kind, c.value?)))
        .collect();
    // Probable reads: sure ones, and those the templates lean to clearly enough. A glyph
    // unlike every probable example of a digit is not that digit.
    let probable: Vec<(usize, CellKind, u8)> = out
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let guess = scores[i].as_ref()?.guess(&[false; 10])?;
            let leaning = c.is_certain() || guess.confidence >= PROBABLE;
            (leaning && c.value == Some(guess.digit)).then_some((i, c.kind, guess.digit))
        })
        .collect();
    let mut revised = out.to_vec();
    for (i, cell) in out.iter().enumerate() {
        let (Some(score), Some(value)) = (&scores[i], cell.value) else { continue };
        let mut ruled_out = [false; 10];
        let mut looks_like_other = false;
        let mut unlike_own = false;
        let closest = |set: &[(usize, CellKind, u8)], digit: u8| -> Option<f32> {
            set.iter()
                .filter(|&&(j, kind, v)| j != i && kind == cell.kind && v == digit)
                .filter_map(|&(j, _, _)| scores[j].as_ref().map(|s| score.similarity(s)))
                .reduce(f32::max)
        };
        // A sure example of another digit drawn alike counts against the read only when no
        // sure example of the read digit is closer: in a blurred photo a 6 and an 8 of the
        // same font can be that alike, but each is still nearest its own digit.
        let own = closest(&sure, value);
        for digit in 1..=9u8 {
            if let Some(c) = closest(&sure, digit) {
                if digit == value {
                    unlike_own = c < OTHER_GLYPH;
                } else if c >= SAME_GLYPH && own.is_none_or(|o| c >= o) {
                    looks_like_other = true;
                }
            }
            if digit != value && closest(&probable, digit).is_some_and(|c| c < OTHER_GLYPH) {
                ruled_out[usize::from(digit)] = true;
            }
        }
        // The network's sure reads stand against the board's font (a photo's noise and light
        // make glyphs differ more than the templates allow).
        if (looks_like_other || unlike_own) && !net_sure[i] {
            revised[i].confidence = 0.0;
        } else if !cell.is_certain()
            && cell.kind != CellKind::Unclear
            && let Some(guess) = score.guess(&ruled_out)
            && guess.digit == value
        {
            revised[i].confidence = guess.confidence;
        }
    }
    revised
}

/// A cell as read: the read, the glyph's scores against the templates, and whether the
/// network is sure of the value read.
type Read = (CellRead, Option<digits::Scores>, Net);

/// The network's view of a cell's glyph: whether it is sure of the value read (see
/// [`digits::NET_OVERRULE`]), and its own reading.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Net {
    sure: bool,
    read: super::classifier::Reading,
}

impl Net {
    /// The network's own reading of the glyph.
    pub(super) fn reading(&self) -> super::classifier::Reading {
        self.read
    }
}

fn unclear() -> Read {
    (CellRead { kind: CellKind::Unclear, value: None, confidence: 0.0 }, None, Net::default())
}

fn plain(kind: CellKind) -> Read {
    (CellRead { kind, value: None, confidence: 1.0 }, None, Net::default())
}

/// A connected piece of ink: its box and size.
#[derive(Clone, Copy, Debug)]
struct Blob {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
    pixels: usize,
}

impl Blob {
    fn height(&self) -> usize {
        self.y1 - self.y0 + 1
    }
}

/// A rectangle of pixels: first and last column, first and last row.
type Rect = (usize, usize, usize, usize);

/// A cell's distances from its background, its width and height, and its top left corner.
type Distances = (Vec<u8>, usize, usize, (usize, usize));

/// What a cell holds, before its glyph is named.
#[derive(Clone, Debug)]
pub(crate) enum Content {
    /// Nothing drawn.
    Empty,
    /// Only small marks.
    Pencil,
    /// A player's candidate notes, a row of small digits (see [`notes_in_a_row`]).
    Notes,
    /// Something that is neither.
    Unclear,
    /// One large glyph: its features, and whether its ink is coloured (an entry).
    Glyph(Box<digits::Features>, bool),
}

/// One cell of a board of `side` values: what it holds (see [`Read`]).
pub(super) fn read_cell(
    image: Rgba<'_>,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    side: usize,
) -> Read {
    read_cell_sized(image, (x0, y0, x1, y1), side, USUAL)
}

/// [`read_cell`] with the value sizes `sizes`.
fn read_cell_sized(image: Rgba<'_>, rect: Rect, side: usize, sizes: Sizes) -> Read {
    match content_in(image, rect, sizes, false) {
        Content::Empty => plain(CellKind::Empty),
        Content::Pencil | Content::Notes => plain(CellKind::Pencil),
        Content::Unclear => unclear(),
        Content::Glyph(features, coloured) => {
            let kind = if coloured { CellKind::Entry } else { CellKind::Given };
            let score = digits::builtin().score(&features);
            let Some((value, confidence, sure, read)) = digits::named(&features, &score, side)
            else {
                return unclear();
            };
            (CellRead { kind, value: Some(value), confidence }, Some(score), Net { sure, read })
        }
    }
}

/// A cell's pixels as distances from its background colour (the median of its rim), inside
/// its lines and, with `inset`, clear of their anti-aliased edges: the distances, width and
/// height, and the inner box's corner. `None` when the cell is too small.
fn distances(image: Rgba<'_>, (x0, y0, x1, y1): Rect, inset: bool) -> Option<Distances> {
    let inset = if inset { 1 + (x1 - x0 + 1) / 20 } else { 0 };
    let (x0, y0, x1, y1) =
        (x0 + inset, y0 + inset, x1.saturating_sub(inset), y1.saturating_sub(inset));
    if x1 < x0 + 6 || y1 < y0 + 6 {
        return None;
    }
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut rim: [Vec<u8>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for y in y0..=y1 {
        for x in x0..=x1 {
            if y == y0 || y == y1 || x == x0 || x == x1 {
                let c = image.rgb(x, y);
                for k in 0..3 {
                    rim[k].push(c[k]);
                }
            }
        }
    }
    let mut bg = [0u8; 3];
    for k in 0..3 {
        rim[k].sort_unstable();
        bg[k] = rim[k][rim[k].len() / 2];
    }
    let mut dist = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            let c = image.rgb(x0 + x, y0 + y);
            dist[y * w + x] =
                c.iter().zip(bg.iter()).map(|(a, b)| a.abs_diff(*b)).max().unwrap_or(0);
        }
    }
    Some((dist, w, h, (x0, y0)))
}

/// What the cell between the lines at `x0..=x1`, `y0..=y1` holds.
pub(crate) fn cell_content(image: Rgba<'_>, x0: usize, y0: usize, x1: usize, y1: usize) -> Content {
    content_in(image, (x0, y0, x1, y1), USUAL, false)
}

/// What the cell `rect` holds, with the value sizes `sizes`; a frame or grid lines inside
/// the cell are looked past (see [`inner_box`]) unless `rect` is already inside them.
fn content_in(image: Rgba<'_>, rect: Rect, sizes: Sizes, inner: bool) -> Content {
    let Some((dist, w, h, origin)) = distances(image, rect, !inner) else {
        return Content::Unclear;
    };
    let contrast = dist.iter().copied().max().unwrap_or(0);
    let seen = Seen { image, dist: &dist, w, h, origin, contrast };
    if contrast < EMPTY_CONTRAST {
        return faint_glyph(&seen, sizes, inner);
    }
    let cut = (contrast / 2).max(EMPTY_CONTRAST / 2 + 12);
    let mask: Vec<bool> = dist.iter().map(|&d| d >= cut).collect();
    match content_of(&seen, &mask, sizes, inner) {
        Content::Unclear => second_look(&seen, &mask, cut, sizes, inner),
        content => content,
    }
}

/// A cell's pixels as [`distances`] gives them, with the image and the largest distance.
struct Seen<'a> {
    image: Rgba<'a>,
    dist: &'a [u8],
    w: usize,
    h: usize,
    origin: (usize, usize),
    contrast: u8,
}

/// A camera photo's cell that was unclear, looked at again: past grid lines left along its
/// sides (broken, thick, or a little inside the cell: a photo's board found a little off), and
/// with the faint ink joined to the strong (a blurred glyph's thin strokes fall under the cut
/// and break it into pieces). Only a glyph found so counts; anything else stays unclear (a
/// stroke taken for a line must not leave a certain empty cell).
fn second_look(seen: &Seen, mask: &[bool], cut: u8, sizes: Sizes, inner: bool) -> Content {
    if let Some((x0, y0, x1, y1)) = side_lines(mask, seen.w, seen.h) {
        let (ox, oy) = seen.origin;
        let trimmed = content_in(seen.image, (ox + x0, oy + y0, ox + x1, oy + y1), sizes, true);
        if matches!(trimmed, Content::Glyph(..) | Content::Notes) {
            return trimmed;
        }
    }
    let faint = (seen.contrast / 4).max(FAINT_INK);
    if faint >= cut {
        return Content::Unclear;
    }
    let joined = hysteresis(seen.dist, seen.w, cut, faint);
    match content_of(seen, &joined, sizes, inner) {
        glyph @ Content::Glyph(..) => glyph,
        _ => Content::Unclear,
    }
}

/// A cell fainter than [`EMPTY_CONTRAST`] is empty, unless it holds a large piece of ink in
/// its middle: a blurred photo of pale print (red digits on beige paper) can be as faint as a
/// camera's noise on an empty cell, but noise and shading make no such piece. The ink is cut at
/// two thirds of the cell's contrast; a piece that is one glyph is read, any other is unclear.
fn faint_glyph(seen: &Seen, sizes: Sizes, inner: bool) -> Content {
    if seen.contrast < FAINT_CELL {
        return Content::Empty;
    }
    let cut = seen.contrast - seen.contrast / 3;
    let mask: Vec<bool> = seen.dist.iter().map(|&d| d >= cut).collect();
    let (w, h) = (seen.w, seen.h);
    let middle = |b: &Blob| {
        let glyph_sized = (b.y1 - b.y0) as f32 <= 0.95 * h as f32 && (b.x1 - b.x0) * 10 <= w * 9;
        let (cx, cy) = ((b.x0 + b.x1 + 1) as f32 / 2.0, (b.y0 + b.y1 + 1) as f32 / 2.0);
        let centred = (cx - w as f32 / 2.0).abs() <= OFF_CENTRE * w as f32
            && (cy - h as f32 / 2.0).abs() <= OFF_CENTRE * h as f32;
        glyph_sized && centred && b.height() as f32 >= sizes.big * h as f32
    };
    if !blobs(&mask, w).iter().any(middle) {
        return Content::Empty;
    }
    match content_of(seen, &mask, sizes, inner) {
        glyph @ Content::Glyph(..) => glyph,
        _ => Content::Unclear,
    }
}

/// The faintest cell [`faint_glyph`] looks for a glyph in.
const FAINT_CELL: u8 = 24;

/// The faintest ink [`second_look`] joins to a glyph's strong ink.
const FAINT_INK: u8 = 20;

/// The pixels at least `faint` that are connected to a pixel at least `strong`.
fn hysteresis(dist: &[u8], w: usize, strong: u8, faint: u8) -> Vec<bool> {
    let weak: Vec<bool> = dist.iter().map(|&d| d >= faint).collect();
    let mut out = vec![false; dist.len()];
    components(&weak, w, |piece| {
        if piece.iter().any(|&i| dist[i] >= strong) {
            piece.iter().for_each(|&i| out[i] = true);
        }
    });
    out
}

/// The part of a `w` x `h` cell inside grid lines that run along its sides, within the outer
/// fifth: a column (or row) with ink over most of the cell's height, from end to end (a glyph
/// is never as tall). `None` when there is no such line.
fn side_lines(mask: &[bool], w: usize, h: usize) -> Option<Rect> {
    let column = |x: usize| line_through((0..h).map(|y| mask[y * w + x]), h);
    let row = |y: usize| line_through((0..w).map(|x| mask[y * w + x]), w);
    let (x0, x1) = inside(w, column)?;
    let (y0, y1) = inside(h, row)?;
    let trimmed = (x0, y0, x1, y1) != (0, 0, w - 1, h - 1);
    (trimmed && x1 > x0 + 8 && y1 > y0 + 8).then_some((x0, y0, x1, y1))
}

/// Whether a column (or row) of `n` pixels is a line: inked over three fifths of its length
/// and from the first twentieth to the last.
fn line_through(inked: impl Iterator<Item = bool>, n: usize) -> bool {
    let (mut count, mut first, mut last) = (0, None, 0);
    for (k, ink) in inked.enumerate() {
        if ink {
            count += 1;
            first = first.or(Some(k));
            last = k;
        }
    }
    let end = n / 20;
    count * 5 >= n * 3 && first.is_some_and(|f| f <= end) && last + end + 1 >= n
}

/// The span `0..n` without the lines (`is_line`) in its outer fifths and two pixels past them.
fn inside(n: usize, is_line: impl Fn(usize) -> bool) -> Option<(usize, usize)> {
    let band = n / 5;
    let lo = (0..band).rev().find(|&k| is_line(k)).map_or(0, |k| k + 2);
    let hi = (n - band..n).find(|&k| is_line(k)).map_or(n - 1, |k| k.saturating_sub(2));
    (hi > lo).then_some((lo, hi))
}

/// What a cell holds, its ink `mask` cut from [`Seen::dist`].
fn content_of(seen: &Seen, mask: &[bool], sizes: Sizes, inner: bool) -> Content {
    let Seen { image, dist, w, h, origin, contrast } = *seen;
    let speck = (w * h / 2000).max(1);
    let blobs: Vec<Blob> = blobs(mask, w).into_iter().filter(|b| b.pixels > speck).collect();
    if blobs.is_empty() {
        return Content::Empty;
    }
    if !inner && let Some((ix0, iy0, ix1, iy1)) = inner_box(&blobs, w, h) {
        let (ox, oy) = origin;
        return content_in(image, (ox + ix0, oy + iy0, ox + ix1, oy + iy1), sizes, true);
    }
    if !inner && let Some((ix0, iy0, ix1, iy1)) = bent_line(&blobs, w, h) {
        let (ox, oy) = origin;
        let past = content_in(image, (ox + ix0, oy + iy0, ox + ix1, oy + iy1), sizes, true);
        if matches!(past, Content::Glyph(..)) {
            return past;
        }
    }
    if notes_in_a_row(&blobs, w, h) {
        return Content::Notes;
    }
    let hf = h as f32;
    // A value is at least BIG, or past SMALL and in the middle of the cell (apps that draw
    // small values, a third of the cell); a piece between the two elsewhere is neither.
    let centred = |b: &Blob| {
        let (cx, cy) = ((b.x0 + b.x1 + 1) as f32 / 2.0, (b.y0 + b.y1 + 1) as f32 / 2.0);
        (cx - w as f32 / 2.0).abs() <= CENTRED * w as f32 && (cy - hf / 2.0).abs() <= CENTRED * hf
    };
    let value = |b: &Blob| {
        let r = b.height() as f32 / hf;
        r >= sizes.big || (r > sizes.small && centred(b))
    };
    let big: Vec<&Blob> = blobs.iter().filter(|b| value(b)).collect();
    let medium = blobs.iter().any(|b| {
        let r = b.height() as f32 / hf;
        r > sizes.small && !value(b)
    });
    // Pencil marks laid out in rows and columns (OpenSudoku) are nearly a third of the cell
    // high: none as tall as a value, the tall ones off the centre or beside other pieces; a
    // mark alone sits in an outer row or column, far from the centre.
    let off = |b: &Blob, share: f32| {
        let (cx, cy) = ((b.x0 + b.x1 + 1) as f32 / 2.0, (b.y0 + b.y1 + 1) as f32 / 2.0);
        (cx - w as f32 / 2.0).abs() >= share * w as f32 || (cy - hf / 2.0).abs() >= share * hf
    };
    let off_centre = |b: &Blob| off(b, OFF_CENTRE);
    let marks_layout = (blobs.len() >= 2 || blobs.iter().all(|b| off(b, FAR_OFF_CENTRE)))
        && blobs.iter().all(|b| (b.height() as f32) < sizes.big * hf)
        && blobs.iter().all(|b| b.height() as f32 <= sizes.small * hf || off_centre(b) || value(b));
    if medium {
        if marks_layout {
            return small_marks(&blobs, dist, (w, h), contrast, sizes);
        }
        return Content::Unclear;
    }
    if big.is_empty() {
        return small_marks(&blobs, dist, (w, h), contrast, sizes);
    }
    let Some((gx0, gy0, gx1, gy1)) = glyph_box(&blobs, &big, w, h) else {
        // A small centred glyph beside other marks is the middle mark of a layout.
        if marks_layout {
            return small_marks(&blobs, dist, (w, h), contrast, sizes);
        }
        return Content::Unclear;
    };
    let (gx0, gy0, gx1, gy1) = halo(dist, mask, w, h, (gx0, gy0, gx1, gy1));
    glyph(image, dist, mask, w, h, origin, (gx0, gy0, gx1, gy1))
}

/// Candidate notes a player wrote as a row of small digits above the cell's middle ("47" in a
/// newspaper puzzle's cell): two to four pieces of digit size side by side, apart from one
/// another, level with one another and of like heights, the row's middle above the cell's,
/// nothing else but specks. A value is one glyph in the middle; one that a photo broke into
/// pieces breaks into pieces that overlap or stack, not a level row above the middle.
fn notes_in_a_row(blobs: &[Blob], w: usize, h: usize) -> bool {
    let (wf, hf) = (w as f32, h as f32);
    // Specks, and scraps much smaller than every piece of digit size (a grid line's rim).
    let speck =
        |b: &Blob| (b.x1 - b.x0 + 1) as f32 <= SPECK * wf && b.height() as f32 <= SPECK * hf;
    let least = blobs
        .iter()
        .filter(|b| b.height() as f32 >= NOTE_LEAST * hf)
        .map(|b| b.pixels)
        .min()
        .unwrap_or(0);
    let scrap = |b: &Blob| (b.height() as f32) < NOTE_LEAST * hf && b.pixels * 5 <= least;
    let mut row: Vec<&Blob> = blobs.iter().filter(|b| !speck(b) && !scrap(b)).collect();
    if !(2..=4).contains(&row.len()) {
        return false;
    }
    row.sort_by_key(|b| b.x0);
    let sized = |b: &&Blob| {
        let r = b.height() as f32 / hf;
        (NOTE_LEAST..=NOTE_MOST).contains(&r) && b.x1 - b.x0 < b.height()
    };
    let wide = row.iter().filter(|b| (b.x1 - b.x0 + 1) as f32 >= NOTE_WIDE * wf).count();
    let tallest = row.iter().map(|b| b.height()).max().unwrap_or(0);
    let shortest = row.iter().map(|b| b.height()).min().unwrap_or(0);
    let apart_and_level = row.windows(2).all(|p| {
        let (a, b) = (p[0], p[1]);
        let overlap = (a.y1.min(b.y1) + 1).saturating_sub(a.y0.max(b.y0));
        let across = (a.x1.min(b.x1) + 1).saturating_sub(a.x0.max(b.x0));
        let narrower = (a.x1 - a.x0 + 1).min(b.x1 - b.x0 + 1);
        b.x0 > a.x0
            && b.x1 > a.x1
            && 3 * across <= narrower
            && 2 * overlap >= a.height().min(b.height())
    });
    let (y0, y1) = (row.iter().map(|b| b.y0).min(), row.iter().map(|b| b.y1).max());
    let high = match (y0, y1) {
        (Some(y0), Some(y1)) => ((y0 + y1 + 1) as f32 / 2.0) <= (0.5 - NOTE_HIGH) * hf,
        _ => false,
    };
    let narrow = row.len() - wide;
    row.iter().all(sized)
        && narrow + 2 <= row.len()
        && 5 * shortest >= 2 * tallest
        && apart_and_level
        && high
}

/// Candidate notes' pieces (see [`notes_in_a_row`]): their heights, as shares of the cell's
/// height, between these.
const NOTE_LEAST: f32 = 0.2;
const NOTE_MOST: f32 = 0.7;

/// The notes' pieces are this share of the cell's width wide, all but one in a row of three or
/// more (a 1 is not; nor is the stem of a 4 whose bar broke off it).
const NOTE_WIDE: f32 = 0.15;

/// The row of notes has its middle at least this share of the cell's height above the cell's.
const NOTE_HIGH: f32 = 0.1;

/// A cell with only small marks: pencil marks, unless they stack up like a broken glyph:
/// pieces in the middle of the cell, together taller than a pencil mark, however many (the
/// hairlines of FreeMono after JPEG break an 8 into five). Marks stacked in the middle column
/// of a layout stand apart, with a blank row of marks between them, and stay pencil marks;
/// marks stacked close together there look the same as a broken glyph, and are refused.
fn small_marks(
    blobs: &[Blob],
    dist: &[u8],
    (w, h): (usize, usize),
    contrast: u8,
    sizes: Sizes,
) -> Content {
    let ux0 = blobs.iter().map(|b| b.x0).min().unwrap_or(0);
    let ux1 = blobs.iter().map(|b| b.x1).max().unwrap_or(0);
    let central = ux0 as f32 >= 0.2 * w as f32 && (ux1 + 1) as f32 <= 0.8 * w as f32;
    if !central {
        return Content::Pencil;
    }
    // Faint ink over and under the pieces counts too: hairlines fainter than the cut (an 8 of
    // FreeMono in a 20 px cell) leave strong pieces as short as a pencil mark. Gaps up to a
    // fifth of the cell are bridged (a broken hairline, a faint stroke of a photo's digit).
    let faint = (contrast / 4).max(EMPTY_CONTRAST);
    let inked = |y: usize| {
        blobs.iter().any(|b| (b.y0..=b.y1).contains(&y))
            || (ux0..=ux1).any(|x| dist[y * w + x] >= faint)
    };
    let bridge = (0.2 * h as f32).ceil() as usize;
    let (mut tallest, mut start, mut last) = (0, 0, None::<usize>);
    for y in (0..h).filter(|&y| inked(y)) {
        if last.is_none_or(|l| y - l > bridge + 1) {
            start = y;
        }
        last = Some(y);
        tallest = tallest.max(y - start + 1);
    }
    if tallest as f32 > sizes.small * h as f32 { Content::Unclear } else { Content::Pencil }
}

/// The part of a cell inside what was drawn within it: a thick frame around a selected cell
/// (GNOME Sudoku), or the tile of a board drawn as tiles with gaps, either seen as one piece
/// filling most of the cell (its inside, when the frame is the rim's colour); or a grid line
/// the board's lines left along a side (a soft, thick line measured thinner than it is), when
/// nothing else touches the cell's sides (a glyph cut by them: the cell is misplaced). `None`
/// when there is neither.
fn inner_box(blobs: &[Blob], w: usize, h: usize) -> Option<Rect> {
    for b in blobs {
        let (bw, bh) = (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
        if bw * 4 >= w * 3 && bh * 4 >= h * 3 && b.pixels * 5 >= bw * bh * 3 {
            // Clear of the frame's anti-aliased inner edge, as a cell is of its lines.
            let m = 2 + bw / 20;
            return Some((b.x0 + m, b.y0 + m, b.x1.saturating_sub(m), b.y1.saturating_sub(m)));
        }
    }
    let line = |b: &Blob| {
        let (bw, bh) = (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
        (bh * 5 >= h * 4 && bw * 8 <= w) || (bw * 5 >= w * 4 && bh * 8 <= h)
    };
    let touches = |b: &Blob| b.x0 == 0 || b.y0 == 0 || b.x1 == w - 1 || b.y1 == h - 1;
    if blobs.iter().any(|b| !line(b) && touches(b)) {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (0, 0, w - 1, h - 1);
    for b in blobs {
        let (bw, bh) = (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
        if bh * 5 >= h * 4 && bw * 8 <= w {
            if b.x0 == 0 {
                x0 = x0.max(b.x1 + 2);
            } else if b.x1 == w - 1 {
                x1 = x1.min(b.x0.saturating_sub(2));
            }
        }
        if bw * 5 >= w * 4 && bh * 8 <= h {
            if b.y0 == 0 {
                y0 = y0.max(b.y1 + 2);
            } else if b.y1 == h - 1 {
                y1 = y1.min(b.y0.saturating_sub(2));
            }
        }
    }
    let trimmed = (x0, y0, x1, y1) != (0, 0, w - 1, h - 1);
    (trimmed && x1 > x0 + 8 && y1 > y0 + 8).then_some((x0, y0, x1, y1))
}

/// The part of a `w` x `h` cell past a piece of the board's border that a bent page brings
/// into it: a thin piece (at most an eighth of the cell wide) along its left or right side,
/// touching that side, over three fifths of its height (the line curves in and out of the
/// straight cell, so only part of it may lie inside: [`inner_box`] wants four fifths), apart
/// from every other piece, with a piece at least half the cell high beside it. A
/// glyph's stroke never touches the side of a cell that holds it whole, and the caller takes
/// what lies past the piece only when it is a glyph, so a stroke taken for such a line cannot
/// leave an empty cell. `None` when there is no such piece.
///
/// On the development set's camera photos the curled border of wt-image1008 lies in column 0
/// of r4c1 for 31 of the cell's 44 rows: taken with the 3 beside it into one glyph box, it
/// made the 3 read as a 4 (uncertain). Past it the 3 is read; so are alex-03_04's r1c7 (a 5
/// read 9?) and wt-image1036's r2c7 (2? now a certain 2). No other read of the 270 pictures
/// changes, and no wrong read comes nearer the bar.
fn bent_line(blobs: &[Blob], w: usize, h: usize) -> Option<Rect> {
    let thin = |b: &Blob| (b.x1 - b.x0 + 1) * 8 <= w && b.height() * 5 >= h * 3;
    let line = blobs.iter().find(|b| thin(b) && (b.x0 == 0 || b.x1 == w - 1))?;
    let others: Vec<&Blob> = blobs.iter().filter(|b| !std::ptr::eq(*b, line)).collect();
    let left = line.x0 == 0;
    let clear = others.iter().all(|b| if left { b.x0 > line.x1 + 2 } else { b.x1 + 2 < line.x0 });
    let large = others.iter().any(|b| b.height() * 2 >= h);
    if !clear || !large {
        return None;
    }
    let (x0, x1) = if left { (line.x1 + 2, w - 1) } else { (0, line.x0.checked_sub(2)?) };
    (x1 > x0 + 8).then_some((x0, 0, x1, h - 1))
}

/// A piece of ink at most this share of the cell's side each way, beside a glyph, is a speck
/// (see [`glyph_box`]).
const SPECK: f32 = 0.15;

/// The box of the glyph made of the `big` pieces and the strokes broken off them; `None` when
/// a piece lies beside it or it is shaped like no glyph.
fn glyph_box(
    blobs: &[Blob],
    big: &[&Blob],
    w: usize,
    h: usize,
) -> Option<(usize, usize, usize, usize)> {
    let hf = h as f32;
    let mut gx0 = big.iter().map(|b| b.x0).min().unwrap_or(0);
    let mut gx1 = big.iter().map(|b| b.x1).max().unwrap_or(0);
    let mut gy0 = big.iter().map(|b| b.y0).min().unwrap_or(0);
    let mut gy1 = big.iter().map(|b| b.y1).max().unwrap_or(0);
    // A small piece just above or below the glyph, over it, is a stroke of it that broke off
    // (the flag of a thin 5).
    let near = (0.12 * hf).ceil() as usize;
    loop {
        let piece = blobs.iter().find(|b| {
            let outside = b.y1 < gy0 || b.y0 > gy1;
            let gap = if b.y1 < gy0 { gy0 - b.y1 } else { b.y0.saturating_sub(gy1) };
            let overlap = (b.x1.min(gx1) + 1).saturating_sub(b.x0.max(gx0));
            outside && gap <= near && 2 * overlap > b.x1 - b.x0
        });
        let Some(b) = piece else { break };
        // A broken-off stroke of a digit is a bar (the flag of a 5, the foot of a 2); a dot
        // (the point of a '?' or '!', the dot of an 'i') belongs to no digit.
        if b.x1 - b.x0 + 1 < 2 * (b.y1 - b.y0 + 1) {
            return None;
        }
        gx0 = gx0.min(b.x0);
        gx1 = gx1.max(b.x1);
        gy0 = gy0.min(b.y0);
        gy1 = gy1.max(b.y1);
    }
    // Every other piece must lie inside the glyph's box (a broken stroke), not beside it; but
    // a speck beside it (a dot of dirt or ink on the paper, a pen's touch), small each way and
    // beside the glyph's ink, is no part of it.
    let ink: usize = big.iter().map(|b| b.pixels).sum();
    let speck = |b: &Blob| {
        let small = |n: usize, of: usize| n as f32 <= SPECK * of as f32;
        small(b.x1 - b.x0 + 1, w) && small(b.height(), h) && b.pixels * 10 <= ink
    };
    let stray = blobs.iter().any(|b| {
        (b.x0 + 1 < gx0 || b.x1 > gx1 + 1 || b.y0 + 1 < gy0 || b.y1 > gy1 + 1) && !speck(b)
    });
    let (gw, gh) = (gx1 - gx0 + 1, gy1 - gy0 + 1);
    if stray || gh as f32 > 0.95 * hf || gw as f32 > 0.9 * w as f32 || gw * 8 < gh {
        return None;
    }
    Some((gx0, gy0, gx1, gy1))
}

/// The glyph in its box: its ink, scaled by its own strong pixels so faint and bold strokes
/// compare, described; and whether its strong ink is coloured.
fn glyph(
    image: Rgba<'_>,
    dist: &[u8],
    mask: &[bool],
    w: usize,
    h: usize,
    (x0, y0): (usize, usize),
    (gx0, gy0, gx1, gy1): (usize, usize, usize, usize),
) -> Content {
    let full = f32::from(full_ink(dist, mask, w, (gx0, gy0, gx1, gy1)));
    let (cx0, cy0) = (gx0.saturating_sub(1), gy0.saturating_sub(1));
    let (cx1, cy1) = ((gx1 + 1).min(w - 1), (gy1 + 1).min(h - 1));
    let (cw, ch) = (cx1 - cx0 + 1, cy1 - cy0 + 1);
    let mut ink = vec![0f32; cw * ch];
    let mut colour = [0u64; 3];
    let mut coloured = 0u64;
    for y in 0..ch {
        for x in 0..cw {
            let d = f32::from(dist[(cy0 + y) * w + cx0 + x]);
            ink[y * cw + x] = (d / full).min(1.0);
            if d >= 0.8 * full {
                let c = image.rgb(x0 + cx0 + x, y0 + cy0 + y);
                for k in 0..3 {
                    colour[k] += u64::from(c[k]);
                }
                coloured += 1;
            }
        }
    }
    let Some(features) = digits::features(cw, ch, &ink) else { return Content::Unclear };
    let mean: Vec<u8> = colour.iter().map(|&s| (s / coloured.max(1)) as u8).collect();
    let chroma = mean.iter().max().unwrap_or(&0) - mean.iter().min().unwrap_or(&0);
    Content::Glyph(Box::new(features), chroma >= ENTRY_CHROMA)
}

/// The strong ink of the glyph box `(gx0, gy0, gx1, gy1)` (its 90th percentile of the
/// distances under `mask`, at least 1): what counts as full ink when the glyph is scaled.
fn full_ink(dist: &[u8], mask: &[bool], w: usize, (gx0, gy0, gx1, gy1): Rect) -> u8 {
    let mut strong: Vec<u8> = Vec::new();
    for y in gy0..=gy1 {
        for x in gx0..=gx1 {
            if mask[y * w + x] {
                strong.push(dist[y * w + x]);
            }
        }
    }
    strong.sort_unstable();
    strong.get(strong.len() * 9 / 10).copied().unwrap_or(1).max(1)
}

/// The glyph box `b` (of the ink cut at half the cell's contrast) widened to the faint ink
/// joined to it, when a box narrower than a third of the cell's height is at least
/// [`HALO_WIDER`] times narrower than that faint ink: a blurred photo's thin strokes fade
/// under the cut, and a 3 whose arcs faded left only the dark stroke down its right side, a 1
/// to the templates (at confidence 1.00). The faint ink is what reaches 3/10 of the box's
/// strong ink (see [`full_ink`]), as [`glyph`] scales it, and at least [`FAINT_INK`]; a box
/// so widened that it touches the cell's side (a grid line's blur) is not taken. The glyph is
/// read from the wider box as from any other, so only a whole glyph's reading changes.
///
/// On the development set the faint ink of wt-image13's r5c1 3 is 17 pixels wide around a
/// strong stroke of 6 (2.8 times), and a real 1 on the same board is about 1.5 times its stroke:
/// the rule made wt-image13's and wt-image111's r5c1 certain 3s (read 1 before, held back only
/// by the network and a clash) and their r7c1 certain 1s; no other read of the 270 pictures
/// changed, and no wrong read came nearer the bar.
fn halo(dist: &[u8], mask: &[bool], w: usize, h: usize, b: Rect) -> Rect {
    let (gx0, gy0, gx1, gy1) = b;
    let gw = gx1 - gx0 + 1;
    if gw * 3 >= h {
        return b;
    }
    let full = full_ink(dist, mask, w, b);
    let faint = (full as u32 * 3 / 10) as u8;
    let weak: Vec<bool> = dist.iter().map(|&d| d >= faint.max(FAINT_INK)).collect();
    let (mut x0, mut y0, mut x1, mut y1) = (gx0, gy0, gx1, gy1);
    components(&weak, w, |piece| {
        let ours = piece.iter().any(|&i| {
            let (x, y) = (i % w, i / w);
            mask[i] && (gx0..=gx1).contains(&x) && (gy0..=gy1).contains(&y)
        });
        if ours {
            for &i in piece {
                let (x, y) = (i % w, i / w);
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    });
    let touches = x0 == 0 || y0 == 0 || x1 == w - 1 || y1 == h - 1;
    if touches || ((x1 - x0 + 1) as f32) < HALO_WIDER * gw as f32 {
        return b;
    }
    (x0, y0, x1, y1)
}

/// How many times wider than a narrow glyph box its faint ink must be for [`halo`].
const HALO_WIDER: f32 = 1.8;

/// The 8-connected pieces of a mask.
fn blobs(mask: &[bool], w: usize) -> Vec<Blob> {
    let mut out = Vec::new();
    components(mask, w, |piece| {
        let mut b = Blob { x0: usize::MAX, y0: usize::MAX, x1: 0, y1: 0, pixels: piece.len() };
        for &i in piece {
            let (x, y) = (i % w, i / w);
            b.x0 = b.x0.min(x);
            b.x1 = b.x1.max(x);
            b.y0 = b.y0.min(y);
            b.y1 = b.y1.max(y);
        }
        out.push(b);
    });
    out
}

/// Calls `each` with the pixel indices (`y * w + x`) of every 8-connected piece of `mask`, a
/// `w`-wide image, in the order of each piece's first pixel.
pub(super) fn components(mask: &[bool], w: usize, mut each: impl FnMut(&[usize])) {
    let h = mask.len() / w.max(1);
    let mut seen = vec![false; mask.len()];
    let (mut stack, mut piece) = (Vec::new(), Vec::new());
    for start in 0..w * h {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        piece.clear();
        while let Some(i) = stack.pop() {
            piece.push(i);
            let (x, y) = (i % w, i / w);
            for ny in y.saturating_sub(1)..(y + 2).min(h) {
                for nx in x.saturating_sub(1)..(x + 2).min(w) {
                    let j = ny * w + nx;
                    if mask[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        each(&piece);
    }
}
