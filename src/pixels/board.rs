//! Finding the board: long straight runs of ink (grid lines), a square whose sides are such
//! lines, and inside it N - 1 evenly spaced lines each way. The side N is the largest of 16,
//! 12, 9, 8, 6 and 4 whose lines are all there; the boxes come from which lines are thicker.
//! The lines are ink against a background colour ([`find`]) or, failing that, where the
//! colour changes ([`find_by_edges`]: tiles, dark and coloured themes).

use std::sync::Arc;

use super::{PixelError, Rgba};
use crate::grid::Geometry;

#[cfg(test)]
#[path = "finder_tests.rs"]
mod finder_tests;

/// A colour this far (largest channel difference) from the background counts as ink for the
/// grid lines.
const LINE_INK: u8 = 40;

/// Runs of ink at least this long (pixels) may be grid lines.
const MIN_RUN: usize = 40;

/// Gaps in a line of at most this many pixels are bridged (anti-aliasing, JPEG).
const MAX_GAP: usize = 2;

/// The most line pieces considered; above that the image is taken for noise.
const MAX_PIECES: usize = 200_000;

/// The most lines each way kept for matching (the longest).
const MAX_LINES: usize = 400;

/// The board found in an image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Left edge of the outer border, in pixels.
    pub left: usize,
    /// Top edge of the outer border.
    pub top: usize,
    /// Width of the board including its border.
    pub width: usize,
    /// Height of the board including its border.
    pub height: usize,
    /// Cells per row and column.
    pub side: usize,
    /// Cells per box row.
    pub box_width: usize,
    /// Rows per box.
    pub box_height: usize,
    /// Whether thicker lines showed the boxes (otherwise the usual shape for the side).
    pub boxes_seen: bool,
    /// Each row's pixel span between its lines: first and last pixel row inside.
    pub rows: Vec<(usize, usize)>,
    /// Each column's pixel span between its lines.
    pub cols: Vec<(usize, usize)>,
    /// Jigsaw regions, the region of every cell in reading order, where thick lines off the
    /// box lines outline them ([`super::read`] sets them); `None`: the boxes.
    pub regions: Option<Vec<usize>>,
    /// How both diagonals are marked on an X board ([`super::read`] sets it); `None`: they
    /// are not houses.
    pub diagonals: Option<super::Marked>,
}

impl Board {
    /// The board's geometry: its boxes, or its jigsaw regions; with the diagonals of an X.
    pub fn geometry(&self) -> Result<Arc<Geometry>, PixelError> {
        let g = match &self.regions {
            Some(regions) => Geometry::jigsaw(self.side, regions)?,
            None => Geometry::boxed(self.box_width, self.box_height)?,
        };
        Ok(Arc::new(if self.diagonals.is_some() { g.with_diagonals() } else { g }))
    }

    /// Where the board is in the image.
    pub fn area(&self) -> Area {
        Area { left: self.left, top: self.top, width: self.width, height: self.height }
    }

    /// The centre of a cell in image pixels (for clicking), row and column 0-based.
    pub fn cell_centre(&self, row: usize, col: usize) -> Option<(usize, usize)> {
        let (y0, y1) = *self.rows.get(row)?;
        let (x0, x1) = *self.cols.get(col)?;
        Some(((x0 + x1) / 2, (y0 + y1) / 2))
    }

    /// The inside of cell `index` (reading order) between its lines, in image pixels: the one
    /// cell geometry, measured from the board's own lines (for reading, watching and clicking).
    pub fn cell_rect(&self, index: usize) -> Option<Area> {
        let (y0, y1) = *self.rows.get(index.checked_div(self.side)?)?;
        let (x0, x1) = *self.cols.get(index % self.side)?;
        let (width, height) = ((x1 + 1).saturating_sub(x0), (y1 + 1).saturating_sub(y0));
        Some(Area { left: x0, top: y0, width, height })
    }
}

/// A rectangle in an image, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// Left edge.
    pub left: usize,
    /// Top edge.
    pub top: usize,
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
}

impl std::fmt::Display for Area {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{} px at ({}, {})", self.width, self.height, self.left, self.top)
    }
}

/// A straight line: along its length from `start` to `end` (inclusive), across from `near`
/// to `far` (its thickness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    start: usize,
    end: usize,
    near: usize,
    far: usize,
}

impl Line {
    fn len(&self) -> usize {
        self.end - self.start + 1
    }

    fn thickness(&self) -> usize {
        self.far - self.near + 1
    }

    /// Twice the centre across, to stay in integers.
    fn centre2(&self) -> usize {
        self.near + self.far
    }
}

/// The image's background candidates, most common first: the most common colours (4 bits a
/// channel), each far from those before it and covering at least a tenth of the image. A board
/// in a light window on a dark desktop has its own background second.
fn backgrounds(image: Rgba<'_>) -> Vec<[u8; 3]> {
    let counts = colour_counts(image);
    let sampled: u32 = counts.iter().sum();
    let centre = |v: usize| (v * 16 + 8) as u8;
    let colour = |bin: usize| [centre(bin >> 8), centre((bin >> 4) & 15), centre(bin & 15)];
    let mut bins: Vec<usize> = (0..4096).collect();
    bins.sort_by_key(|&k| std::cmp::Reverse(counts[k]));
    let mut out: Vec<[u8; 3]> = vec![colour(bins[0])];
    for &bin in &bins[1..] {
        if counts[bin] * 10 < sampled || out.len() == 3 {
            break;
        }
        let c = colour(bin);
        if out.iter().all(|&o| distance(o, c) > LINE_INK) {
            out.push(c);
        }
    }
    out
}

/// How many of the sampled pixels fall in each colour bin (4 bits a channel, red highest):
/// every `step`-th pixel in reading order from the `step`-th, `step` keeping the samples
/// near a million. A run of samples with the same bytes is binned once and counted as a
/// whole (a page of one colour then costs a comparison a sample, not an increment of one
/// count after another: four times faster on a desktop).
fn colour_counts(image: Rgba<'_>) -> Vec<u32> {
    let mut counts = vec![0u32; 4096];
    let n = image.width * image.height;
    let step = (n / 1_000_000).max(1);
    let bin_of = |p: usize| {
        let [r, g, b] = image.rgb_at(p);
        (usize::from(r >> 4) << 8) | (usize::from(g >> 4) << 4) | usize::from(b >> 4)
    };
    let data = image.data.get(..n * 4).unwrap_or(&[]);
    // The run going on: its pixel's bytes, its bin and its length.
    let mut run: Option<(u32, usize, u32)> = None;
    // Sample k is the last pixel of the k-th whole chunk of `step` pixels.
    for (k, chunk) in data.chunks_exact(step * 4).enumerate() {
        let Some(&[r, g, b, a]) = chunk.last_chunk::<4>() else { continue };
        let pixel = u32::from_le_bytes([r, g, b, a]);
        match &mut run {
            Some((bytes, _, length)) if *bytes == pixel => *length += 1,
            _ => {
                if let Some((_, bin, length)) = run {
                    counts[bin] += length;
                }
                run = Some((pixel, bin_of(k * step + step - 1), 1));
            }
        }
    }
    if let Some((_, bin, length)) = run {
        counts[bin] += length;
    }
    counts
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u8 {
    a.iter().zip(b.iter()).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0)
}

/// The largest channel difference, written out so that loops over pixels vectorise.
#[inline]
fn distance3(a: [u8; 3], b: [u8; 3]) -> u8 {
    a[0].abs_diff(b[0]).max(a[1].abs_diff(b[1])).max(a[2].abs_diff(b[2]))
}

/// Marks the pixels of `a` that differ from the same pixel of `b` by more than `least` (the
/// largest channel difference, as [`distance3`]): `out[k]` is 1 or 0 for pixel `k`, over as
/// many pixels as all three hold. Both rows hold 4 bytes a pixel, the fourth byte the same in
/// both (it then adds no difference). In blocks of 64 pixels, as two loops over fixed-size
/// arrays that the compiler vectorises (over `[u8; 3]` pixels it does not, and over one
/// 16-byte chunk at a time it gathers byte by byte): 4 times faster per mask row.
#[inline]
fn mark_far(a: &[u8], b: &[u8], least: u8, out: &mut [u8]) {
    const BLOCK: usize = 64;
    let n = out.len().min(a.len() / 4).min(b.len() / 4);
    let (a, b, out) = (&a[..n * 4], &b[..n * 4], &mut out[..n]);
    let (mut a_blocks, mut b_blocks) = (a.chunks_exact(BLOCK * 4), b.chunks_exact(BLOCK * 4));
    let mut out_blocks = out.chunks_exact_mut(BLOCK);
    for ((a, b), o) in (&mut a_blocks).zip(&mut b_blocks).zip(&mut out_blocks) {
        let (Ok(a), Ok(b), Ok(o)) = (
            <&[u8; BLOCK * 4]>::try_from(a),
            <&[u8; BLOCK * 4]>::try_from(b),
            <&mut [u8; BLOCK]>::try_from(o),
        ) else {
            continue;
        };
        let mut d = [0u8; BLOCK * 4];
        for i in 0..BLOCK * 4 {
            d[i] = a[i].abs_diff(b[i]).saturating_sub(least);
        }
        for k in 0..BLOCK {
            let word = u32::from_le_bytes([d[4 * k], d[4 * k + 1], d[4 * k + 2], d[4 * k + 3]]);
            o[k] = u8::from(word != 0);
        }
    }
    let rest = a_blocks.remainder().chunks_exact(4).zip(b_blocks.remainder().chunks_exact(4));
    for (o, (a, b)) in out_blocks.into_remainder().iter_mut().zip(rest) {
        *o = u8::from(distance3([a[0], a[1], a[2]], [b[0], b[1], b[2]]) > least);
    }
}

/// The first ink (non-zero) at or after `from` in a mask row, eight pixels at a time over
/// the background.
#[inline]
fn next_ink(row: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(bytes) = row.get(i..i + 8) {
        let word = u64::from_le_bytes(bytes.try_into().ok()?);
        if word != 0 {
            return Some(i + word.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    row.get(i..)?.iter().position(|&b| b != 0).map(|k| i + k)
}

/// The first background (zero) at or after `from` in a mask row, eight pixels at a time
/// along ink (the lowest zero byte of a word is exact in the usual test for one); the row's
/// length when there is none.
#[inline]
fn next_clear(row: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(bytes) = row.get(i..i + 8) {
        let Ok(bytes) = <[u8; 8]>::try_from(bytes) else { break };
        let v = u64::from_le_bytes(bytes);
        let clear = v.wrapping_sub(0x0101_0101_0101_0101) & !v & 0x8080_8080_8080_8080;
        if clear != 0 {
            return i + clear.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    let rest = row.get(i..).and_then(|r| r.iter().position(|&b| b == 0));
    rest.map_or(row.len().max(i), |k| i + k)
}

/// The runs of ink along one mask row (`row[i] != 0`) at least [`MIN_RUN`] long, gaps of at
/// most `gap` pixels bridged: first and last pixel of each, in order.
fn row_runs(row: &[u8], gap: usize, runs: &mut Vec<(usize, usize)>) {
    runs.clear();
    let mut i = 0;
    while let Some(start) = next_ink(row, i) {
        let mut end = start;
        loop {
            end = next_clear(row, end + 1) - 1;
            // The furthest ink within the gap carries the run on.
            let reach = (end + gap + 2).min(row.len());
            match row.get(end + 1..reach).and_then(|r| r.iter().rposition(|&b| b != 0)) {
                Some(k) => end += 1 + k,
                None => break,
            }
        }
        if end - start + 1 >= MIN_RUN {
            runs.push((start, end));
        }
        i = end + 1;
    }
}

/// Lines along one direction, from the runs of ink (see [`row_runs`]) of each row (or
/// column) in turn: a run continues a line of the row before that it lines up with.
struct Joiner {
    gap: usize,
    done: Vec<Line>,
    open: Vec<Line>,
    pieces: usize,
}

impl Joiner {
    fn new(gap: usize) -> Joiner {
        Joiner { gap, done: Vec::new(), open: Vec::new(), pieces: 0 }
    }

    /// The runs of row `j` (every row in order, those without runs too).
    fn push(&mut self, j: usize, runs: &[(usize, usize)]) -> Result<(), PixelError> {
        let gap = self.gap;
        self.pieces += runs.len();
        if self.pieces > MAX_PIECES {
            return Err(PixelError::NoBoard(
                "too many line pieces: the image looks like noise".into(),
            ));
        }
        let mut next_open = Vec::with_capacity(runs.len());
        for &(start, end) in runs {
            let joined = self.open.iter().position(|l| {
                l.far + 1 == j && l.start.abs_diff(start) <= gap && l.end.abs_diff(end) <= gap
            });
            match joined {
                Some(k) => {
                    let mut l = self.open.swap_remove(k);
                    l.far = j;
                    l.start = l.start.min(start);
                    l.end = l.end.max(end);
                    next_open.push(l);
                }
                None => next_open.push(Line { start, end, near: j, far: j }),
            }
        }
        self.done.append(&mut self.open);
        self.open = next_open;
        Ok(())
    }

    /// The lines, longest first, [`MAX_LINES`] at most.
    fn finish(mut self) -> Vec<Line> {
        let mut done = std::mem::take(&mut self.done);
        done.append(&mut self.open);
        // A line is thin for its length; thicker bands are filled areas.
        done.retain(|l| l.thickness() <= (l.len() / 25).max(3));
        done.sort_by_key(|l| std::cmp::Reverse(l.len()));
        done.truncate(MAX_LINES);
        done
    }
}

/// The runs of ink down every column of a mask fed one row at a time (as [`row_runs`] finds
/// along a row): the vertical lines are found in the same pass over the image as the
/// horizontal ones, with no copy of the mask turned on its side.
struct Columns {
    gap: usize,
    /// Per column, the first and last row of the run going on (`u32::MAX`: none; an image
    /// has at most [`super::MAX_PIXELS`] / [`super::MIN_SIDE_PX`] rows).
    start: Vec<u32>,
    end: Vec<u32>,
    /// Per column, whether the row being fed starts a new run there.
    starts: Vec<u8>,
    runs: Vec<Vec<(usize, usize)>>,
}

impl Columns {
    fn new(width: usize, gap: usize) -> Columns {
        Columns {
            gap,
            start: vec![u32::MAX; width],
            end: vec![u32::MAX; width],
            starts: vec![0; width],
            runs: vec![Vec::new(); width],
        }
    }

    /// Mask row `y` (rows in order): every column's run goes on where the row has ink near
    /// enough its last (in a loop without branches), and the columns where a run starts are
    /// then taken one by one.
    fn feed(&mut self, y: usize, row: &[u8]) {
        let (y32, reach) = (y as u32, self.gap as u32 + 1);
        // Every end is written, changed or not: a store only where it changes is compiled
        // as a branch per column (a third slower).
        for ((e, s), &m) in self.end.iter_mut().zip(self.starts.iter_mut()).zip(row) {
            let last = *e;
            let goes_on = last != u32::MAX && y32.wrapping_sub(last) <= reach;
            let ink = m != 0;
            let now = u32::from(ink && goes_on).wrapping_neg();
            *e = last ^ ((last ^ y32) & now);
            *s = u8::from(ink & !goes_on);
        }
        let mut x = 0;
        while let Some(k) = next_ink(&self.starts, x) {
            self.close(k);
            (self.start[k], self.end[k]) = (y32, y32);
            x = k + 1;
        }
    }

    fn close(&mut self, k: usize) {
        let (start, end) = (self.start[k] as usize, self.end[k] as usize);
        if self.end[k] != u32::MAX && end - start + 1 >= MIN_RUN {
            self.runs[k].push((start, end));
        }
    }

    /// The vertical lines.
    fn lines(mut self) -> Result<Vec<Line>, PixelError> {
        for k in 0..self.end.len() {
            self.close(k);
        }
        let mut joiner = Joiner::new(self.gap);
        for (x, runs) in self.runs.iter().enumerate() {
            joiner.push(x, runs)?;
        }
        Ok(joiner.finish())
    }
}

/// Finds the board: the largest square of grid lines, against the image's most common colour,
/// or failing that against the next candidate background (see [`backgrounds`]).
pub fn find(image: Rgba<'_>) -> Result<Board, PixelError> {
    let backgrounds = backgrounds(image);
    // A large image's rows are read from memory once for all the backgrounds (the lines
    // against each found in the same pass), a small one's, which the cache holds, once a
    // background, the next only when the one before finds no board.
    let together = if image.width * image.height > TOGETHER { backgrounds.len() } else { 1 };
    let mut first = None;
    for group in backgrounds.chunks(together.max(1)) {
        for lines in lines_on(image, group) {
            match lines.and_then(|(horizontal, vertical)| square_of_lines(&horizontal, &vertical)) {
                Ok(board) => return Ok(board),
                Err(e @ PixelError::TwoBoards { .. }) => return Err(e),
                Err(e) => {
                    first.get_or_insert(e);
                }
            }
        }
    }
    Err(first.unwrap_or_else(|| PixelError::NoBoard("the image has no background".into())))
}

/// Images above this many pixels are searched against all their backgrounds in one pass.
const TOGETHER: usize = 1 << 20;

/// The lines drawn on each background of `backgrounds` (horizontal, vertical), in one pass
/// over the rows: each row's ink against each, its runs, and the runs down the columns.
#[allow(clippy::type_complexity)]
fn lines_on(
    image: Rgba<'_>,
    backgrounds: &[[u8; 3]],
) -> Vec<Result<(Vec<Line>, Vec<Line>), PixelError>> {
    let (w, h) = (image.width, image.height);
    struct Pass {
        background: Vec<u8>,
        horizontal: Joiner,
        columns: Columns,
        failed: Option<PixelError>,
    }
    let mut passes: Vec<Pass> = backgrounds
        .iter()
        .map(|bg| Pass {
            background: [bg[0], bg[1], bg[2], 255].repeat(w),
            horizontal: Joiner::new(MAX_GAP),
            columns: Columns::new(w, MAX_GAP),
            failed: None,
        })
        .collect();
    let mut scratch = Vec::new();
    let mut ink = vec![0u8; w];
    let mut runs = Vec::new();
    for y in 0..h {
        let row = image.opaque_row(y, &mut scratch);
        for pass in passes.iter_mut().filter(|p| p.failed.is_none()) {
            mark_far(row, &pass.background, LINE_INK, &mut ink);
            row_runs(&ink, MAX_GAP, &mut runs);
            if let Err(e) = pass.horizontal.push(y, &runs) {
                pass.failed = Some(e);
                continue;
            }
            pass.columns.feed(y, &ink);
        }
    }
    passes
        .into_iter()
        .map(|pass| match pass.failed {
            Some(e) => Err(e),
            None => {
                let horizontal = pass.horizontal.finish();
                Ok((horizontal, pass.columns.lines()?))
            }
        })
        .collect()
}

/// The largest square board among the lines found each way.
fn square_of_lines(horizontal: &[Line], vertical: &[Line]) -> Result<Board, PixelError> {
    // Every board at least as wide as the widest so far, less the tolerance of "the same
    // size": two boards of one size apart from each other are refused (which is meant?).
    let same = |a: usize, b: usize| a.abs_diff(b) <= a.max(b) / 50 + 3;
    let mut found: Vec<Board> = Vec::new();
    let widest = |found: &[Board]| found.iter().map(|b| b.width).max().unwrap_or(0);
    for (ai, a) in horizontal.iter().enumerate() {
        for b in horizontal.iter().skip(ai + 1) {
            let (top, bottom) = if a.near < b.near { (a, b) } else { (b, a) };
            let tol = 3 + top.len() / 100;
            if top.start.abs_diff(bottom.start) > tol || top.end.abs_diff(bottom.end) > tol {
                continue;
            }
            let width = top.len();
            let height = bottom.far + 1 - top.near;
            if width.abs_diff(height) > width / 25 + 3 {
                continue;
            }
            let most = widest(&found);
            if most > width && !same(most, width) {
                continue;
            }
            if let Some(board) = fit(top, bottom, horizontal, vertical, tol) {
                found.push(board);
            }
        }
    }
    let most = widest(&found);
    found.retain(|b| same(most, b.width));
    // The widest first; among equals, the first found.
    found.sort_by_key(|b| std::cmp::Reverse(b.width));
    let mut boards = found.into_iter();
    let Some(best) = boards.next() else {
        return Err(PixelError::NoBoard(format!(
            "no square grid of 4, 6, 9 or 16 cells a side among {} long horizontal and {} long vertical lines",
            horizontal.len(),
            vertical.len()
        )));
    };
    if let Some(other) = boards.find(|b| !overlap(b, &best)) {
        let (first, second) = if (other.top, other.left) < (best.top, best.left) {
            (&other, &best)
        } else {
            (&best, &other)
        };
        return Err(PixelError::TwoBoards { first: first.area(), second: second.area() });
    }
    Ok(best)
}

/// A colour change (largest channel difference) of at least this much is an edge for
/// [`find_by_edges`]: faint lines on white and tiles a shade apart pass it, JPEG noise on a
/// flat area does not.
const EDGE_STEP: u8 = 12;

/// The thickest band (pixels) that [`find_by_edges`] takes for a line when it differs from
/// both sides: a grid line, or the gap between two tiles.
const RIDGE: usize = 8;

/// Gaps bridged along an edge line: where a line crosses a thick one, or a row of tiles is
/// broken by the gaps between them.
const EDGE_GAP: usize = 12;

/// The largest image searched by its edges (as [`super::rectify`]'s binarized copies).
const MAX_EDGES: usize = 9_000_000;

/// Finds the board by where the colour changes, as a person sees a grid drawn in any theme:
/// a line is a long straight run of pixels that differ from the pixel before them (the edge
/// of a tile, a tinted row, the board against the page) or from both sides at [`RIDGE`]
/// pixels (a thin line, a gap between tiles), whatever the colours. So grids drawn as
/// separate tiles, in dark or coloured themes, on a page of any colour, are found by the
/// same rule as lines on white.
pub fn find_by_edges(image: Rgba<'_>) -> Result<Board, PixelError> {
    let (w, h) = (image.width, image.height);
    if w * h > MAX_EDGES {
        return Err(PixelError::NoBoard("the image is too large to search by its edges".into()));
    }
    // The colours, 4 bytes a pixel (the fourth 255): the image's own bytes while its rows
    // are opaque (each checked as the search first reaches it, not in a pass of its own),
    // else, from the first row that is not, searched again in a copy.
    let copy: Vec<u8>;
    let own = image.data.get(..w * h * 4).unwrap_or(&[]);
    let (px, lines) = match edge_lines(own, w, true) {
        Some(lines) => (own, lines),
        None => {
            let mut scratch = Vec::new();
            copy = (0..h).flat_map(|y| image.opaque_row(y, &mut scratch).to_vec()).collect();
            let lines = edge_lines(&copy, w, false).unwrap_or_else(|| {
                Err(PixelError::NoBoard("the image's colours could not be read".into()))
            });
            (&copy[..], lines)
        }
    };
    let (horizontal, vertical) = lines?;
    let board = square_of_lines(&horizontal, &vertical)?;
    if !sharp(px, w, &board) {
        return Err(PixelError::NoBoard("the board's edges are blurred".into()));
    }
    // The bands between cells: a blurred picture's edges spread wide, and its cells are no
    // safer read than the finder of lines, which refuses it, can see.
    let gaps = |spans: &[(usize, usize)]| spans.windows(2).map(|p| p[1].0 - p[0].1 - 1).min();
    let thinnest = gaps(&board.rows).into_iter().chain(gaps(&board.cols)).min().unwrap_or(0);
    if !crisp(thinnest, board.width / board.side.max(1)) {
        return Err(PixelError::NoBoard(format!(
            "the grid's lines are {thinnest} pixels wide or more: the picture is too blurred"
        )));
    }
    Ok(board)
}

/// The lines of [`find_by_edges`] in `px` (4 bytes a pixel, `w` a row, the fourth byte 255),
/// horizontal and vertical. A pixel is marked across (for the horizontal lines) when it
/// differs by [`EDGE_STEP`] or more from the pixel above it, or from both at [`RIDGE`] pixels
/// above and below; down (for the vertical lines) the same to its left and right. One pass
/// over the rows, as in `lines_on`; the difference of two pixels [`RIDGE`] apart is taken
/// once, serving the one as the pixel below and the other as the pixel above. With
/// `check_opaque`, each row is checked to be opaque as the pass first reaches it: `None` at
/// the first that is not.
#[allow(clippy::type_complexity)]
fn edge_lines(
    px: &[u8],
    w: usize,
    check_opaque: bool,
) -> Option<Result<(Vec<Line>, Vec<Line>), PixelError>> {
    let h = px.len() / 4 / w.max(1);
    let least = EDGE_STEP - 1;
    let (mut across, mut down) = (vec![0u8; w], vec![0u8; w]);
    // `apart[j % (RIDGE + 1)]`: row j's pixels marked against row j - RIDGE's, for the rows
    // from y - RIDGE (the one above row y) to y + RIDGE (the one below).
    let mut apart = vec![vec![0u8; w]; RIDGE + 1];
    // Along a row: pixel j + RIDGE's marked against pixel j's.
    let mut beside = vec![0u8; w];
    let mut runs = Vec::new();
    let mut horizontal = Joiner::new(EDGE_GAP);
    let mut columns = Columns::new(w, EDGE_GAP);
    let row_at = |y: usize| &px[y * w * 4..(y + 1) * w * 4];
    let mut checked = 0;
    for y in 0..h {
        // Rows to y + RIDGE are read now.
        while check_opaque && checked <= (y + RIDGE).min(h - 1) {
            if !super::all_opaque(row_at(checked)) {
                return None;
            }
            checked += 1;
        }
        let row = row_at(y);
        across.fill(0);
        if y >= 1 {
            mark_far(row, row_at(y - 1), least, &mut across);
        }
        if y + RIDGE < h {
            mark_far(row_at(y + RIDGE), row, least, &mut apart[(y + RIDGE) % (RIDGE + 1)]);
        }
        if y >= RIDGE && y + RIDGE < h {
            let (above, below) = (&apart[y % (RIDGE + 1)], &apart[(y + RIDGE) % (RIDGE + 1)]);
            for ((m, &a), &b) in across.iter_mut().zip(above).zip(below) {
                *m |= a & b;
            }
        }
        down.fill(0);
        mark_far(&row[4..], row, least, &mut down[1..]);
        if w > 2 * RIDGE {
            mark_far(&row[RIDGE * 4..], row, least, &mut beside[..w - RIDGE]);
            let (left, right) = (&beside[..w - 2 * RIDGE], &beside[RIDGE..w - RIDGE]);
            for ((m, &a), &b) in down[RIDGE..w - RIDGE].iter_mut().zip(left).zip(right) {
                *m |= a & b;
            }
        }
        row_runs(&across, EDGE_GAP, &mut runs);
        if let Err(e) = horizontal.push(y, &runs) {
            return Some(Err(e));
        }
        columns.feed(y, &down);
    }
    let horizontal = horizontal.finish();
    Some(columns.lines().map(|vertical| (horizontal, vertical)))
}

/// Whether two boards' rectangles share a pixel.
fn overlap(a: &Board, b: &Board) -> bool {
    a.left < b.left + b.width
        && b.left < a.left + a.width
        && a.top < b.top + b.height
        && b.top < a.top + a.height
}

/// The board framed by two horizontal lines, if the vertical border and the inner lines of
/// some side are all there.
fn fit(
    top: &Line,
    bottom: &Line,
    horizontal: &[Line],
    vertical: &[Line],
    tol: usize,
) -> Option<Board> {
    let spans_rows =
        |v: &&Line| v.start.abs_diff(top.near) <= tol && v.end.abs_diff(bottom.far) <= tol;
    let left = vertical.iter().filter(spans_rows).find(|v| v.near.abs_diff(top.start) <= tol)?;
    let right = vertical.iter().filter(spans_rows).find(|v| v.far.abs_diff(top.end) <= tol)?;
    for side in [16, 12, 9, 8, 6, 4] {
        let rows = evenly(top, bottom, side, horizontal, (top.start, top.end), tol);
        let cols = evenly(left, right, side, vertical, (top.near, bottom.far), tol);
        let (Some(rows), Some(cols)) = (rows, cols) else { continue };
        let (box_width, box_height, boxes_seen) = boxes(side, &rows, &cols)?;
        let span = |ls: &[Line]| -> Option<Vec<(usize, usize)>> {
            ls.windows(2)
                .map(|p| {
                    let (a, b) = (p[0].far + 1, p[1].near.checked_sub(1)?);
                    (b >= a + 4).then_some((a, b))
                })
                .collect()
        };
        return Some(Board {
            left: top.start,
            top: top.near,
            width: top.len(),
            height: bottom.far + 1 - top.near,
            side,
            box_width,
            box_height,
            boxes_seen,
            rows: span(&rows)?,
            cols: span(&cols)?,
            regions: None,
            diagonals: None,
        });
    }
    None
}

/// The `side + 1` lines from `first` to `last` at even spacing, if all are there. An inner
/// line runs from `span.0` to `span.1` (within `tol`), or is pieced together from shorter
/// lines at its place that cover most of that span: a line drawn in the colour of a tinted
/// row it crosses vanishes there, yet a person still sees it.
fn evenly(
    first: &Line,
    last: &Line,
    side: usize,
    lines: &[Line],
    span: (usize, usize),
    tol: usize,
) -> Option<Vec<Line>> {
    let (c0, c1) = (first.centre2() as f64, last.centre2() as f64);
    let pitch = (c1 - c0) / side as f64;
    let near = (pitch * 0.1).max(3.0);
    let whole = |l: &Line| l.start.abs_diff(span.0) <= tol && l.end.abs_diff(span.1) <= tol;
    let inside = |l: &Line| l.start + tol >= span.0 && l.end <= span.1 + tol;
    let mut found = vec![*first];
    for i in 1..side {
        let want = c0 + pitch * i as f64;
        let off = |l: &Line| (l.centre2() as f64 - want).abs();
        let at: Vec<&Line> = lines.iter().filter(|l| off(l) <= near && inside(l)).collect();
        if let Some(line) = at.iter().filter(|l| whole(l)).min_by(|a, b| off(a).total_cmp(&off(b)))
        {
            found.push(**line);
            continue;
        }
        found.push(pieced(&at, span)?);
    }
    found.push(*last);
    Some(found)
}

/// A line across `span` made of `pieces` (lines at one place), when together they cover at
/// least three quarters of it; as thick as the longest piece.
fn pieced(pieces: &[&Line], span: (usize, usize)) -> Option<Line> {
    let longest = pieces.iter().max_by_key(|l| l.len())?;
    let mut parts: Vec<(usize, usize)> = pieces.iter().map(|l| (l.start, l.end)).collect();
    parts.sort_unstable();
    let (mut covered, mut reach) = (0usize, 0usize);
    for (start, end) in parts {
        let from = start.max(reach);
        if end + 1 > from {
            covered += end + 1 - from;
            reach = end + 1;
        }
    }
    let length = span.1.saturating_sub(span.0) + 1;
    (covered * 4 >= length * 3).then_some(Line {
        start: span.0,
        end: span.1,
        near: longest.near,
        far: longest.far,
    })
}

/// The box shape from the inner lines' thicknesses: (width, height, whether seen). Each way
/// the thick lines are those nearer the thickest than the thinnest (none when all are
/// alike); a shape is seen when the thick lines of one way or both fall exactly on its box
/// edges. `None` when thick lines are there but mark out no boxes, except for 9 and 16
/// cells a side, whose boxes can only be the usual ones (a line a pixel thicker from
/// anti-aliasing does not lose the board).
fn boxes(side: usize, rows: &[Line], cols: &[Line]) -> Option<(usize, usize, bool)> {
    let usual = match side {
        4 => (2, 2),
        6 => (3, 2),
        8 => (4, 2),
        9 => (3, 3),
        12 => (4, 3),
        _ => (4, 4),
    };
    // The inner lines drawn thicker, or None when all are alike.
    let thick = |ls: &[Line]| -> Option<Vec<usize>> {
        let t: Vec<usize> = ls[1..ls.len() - 1].iter().map(Line::thickness).collect();
        let (thin, thickest) = (*t.iter().min()?, *t.iter().max()?);
        let cut = (thin + thickest) as f64 / 2.0;
        (thickest > thin).then(|| {
            t.iter().enumerate().filter(|(_, v)| **v as f64 > cut).map(|(i, _)| i + 1).collect()
        })
    };
    let (thick_rows, thick_cols) = (thick(rows), thick(cols));
    if thick_rows.is_none() && thick_cols.is_none() {
        return Some((usual.0, usual.1, false));
    }
    let multiples = |step: usize| -> Vec<usize> { (1..side).filter(|i| i % step == 0).collect() };
    let fits = |seen: &Option<Vec<usize>>, step: usize| {
        seen.as_ref().is_none_or(|t| *t == multiples(step))
    };
    for (bw, bh) in [(usual.0, usual.1), (usual.1, usual.0)] {
        if fits(&thick_cols, bw) && fits(&thick_rows, bh) {
            return Some((bw, bh, true));
        }
    }
    // Crisp lines only: a blurred picture smears thickness, and its cells are no safer read.
    let all = rows.iter().chain(cols.iter());
    let thinnest = all.map(Line::thickness).min()?;
    let pitch = (rows[side].centre2() - rows[0].centre2()) / (2 * side);
    (matches!(side, 9 | 16) && crisp(thinnest, pitch)).then_some((usual.0, usual.1, false))
}

/// Whether the board's outer border is sharp: across it, at seven places on its left side
/// and seven on its top, wherever the colour changes at all within [`RIDGE`] pixels each
/// way, over a third of the change happens between two neighbouring pixels in two places of
/// three. A blurred picture spreads it
/// over many (and its edges then lie off the lines they came from).
fn sharp(px: &[u8], w: usize, board: &Board) -> bool {
    let h = px.len() / 4 / w.max(1);
    let at = |i: usize| [px[i * 4], px[i * 4 + 1], px[i * 4 + 2]];
    let (mut counted, mut votes) = (0, 0);
    for k in 1..8 {
        let (y, x) = (board.top + board.height * k / 8, board.left + board.width * k / 8);
        let across: Vec<[u8; 3]> = (board.left.saturating_sub(RIDGE)..(board.left + RIDGE).min(w))
            .map(|x| at(y.min(h - 1) * w + x))
            .collect();
        let down: Vec<[u8; 3]> = (board.top.saturating_sub(RIDGE)..(board.top + RIDGE).min(h))
            .map(|y| at(y * w + x.min(w - 1)))
            .collect();
        for profile in [across, down] {
            let step = profile.windows(2).map(|p| distance(p[0], p[1])).max().unwrap_or(0);
            let range = profile
                .iter()
                .flat_map(|a| profile.iter().map(move |b| distance(*a, *b)))
                .max()
                .unwrap_or(0);
            if range >= EDGE_STEP {
                counted += 1;
                votes += usize::from(u32::from(step) * 20 >= u32::from(range) * 7);
            }
        }
    }
    counted >= 4 && votes * 3 >= counted * 2
}

/// Whether the thinnest line of a grid of `pitch` pixels a cell is thin enough to be drawn
/// sharp: a blurred picture spreads every line over several pixels. An eighth of the pitch:
/// KSudoku draws its tiles 6 pixels apart at a pitch of 56.
fn crisp(thinnest: usize, pitch: usize) -> bool {
    thinnest <= (pitch / 8).max(5)
}
