//! Second chances for the board finder, when the board's lines do not stand out from one
//! background colour (a dark theme with faint lines, tinted cells, a photo's uneven light)
//! or are not straight across the picture (a photo taken at an angle):
//!
//! - [`binarized`]: ink is what is darker (or lighter) than its neighbourhood, an adaptive
//!   threshold over an integral image; the board's lines are then found in the black-on-white
//!   picture that gives, and the cells read in the original.
//! - [`warped`]: the board as the largest four-cornered piece of dark ink that encloses
//!   evenly spread lines, mapped onto a square by the perspective that carries its corners
//!   there (a homography), and resampled.

use super::{Board, Rgba};

/// The largest image binarized at full size (a 4K screen; its integrals of 8-bit sums stay in
/// `u32`).
const MAX_BINARIZED: usize = 9_000_000;

/// A pixel this much darker (or lighter) than the mean around it is ink.
const OFFSET: u32 = 10;

/// A photo's ink when [`OFFSET`] finds no board in it: a blurred webcam picture's thin lines
/// are a few grey levels darker than the paper, and break into dashes at [`OFFSET`].
const FAINT_OFFSET: u32 = 6;

/// An owned RGBA picture made here.
pub(crate) struct Picture {
    pub width: usize,
    pub height: usize,
    pub data: Vec<u8>,
}

impl Picture {
    pub fn view(&self) -> Option<Rgba<'_>> {
        Rgba::new(self.width, self.height, &self.data).ok()
    }
}

/// The grey level of every pixel.
fn grey(image: Rgba<'_>) -> Vec<u8> {
    let w = image.width();
    let mut out = vec![0u8; w * image.height()];
    let mut colours = vec![[0u8; 3]; w];
    for (y, row) in out.chunks_exact_mut(w).enumerate() {
        image.rgb_row(y, &mut colours);
        for (o, &c) in row.iter_mut().zip(&colours) {
            *o = grey_of(c) as u8;
        }
    }
    out
}

/// A colour's grey level.
#[inline]
fn grey_of([r, g, b]: [u8; 3]) -> u32 {
    (u32::from(r) * 77 + u32::from(g) * 150 + u32::from(b) * 29) >> 8
}

/// Which pixels are dark ink: darker than the mean of the square of side `2 * radius + 1`
/// around them by more than `offset`.
fn threshold(g: &[u8], w: usize, h: usize, radius: usize, offset: u32) -> Vec<bool> {
    threshold_by(g, w, h, radius, true, None, offset)
}

/// Ink darker (`dark`) or lighter than the background around it by more than [`OFFSET`]: the
/// mean of the square of side `2 * radius + 1` around the pixel, over the pixels `skip` does
/// not mark (all when none). A second pass that skips the first pass's ink keeps bright
/// digits beside a faint line from drowning it; it also spreads tinted areas from their
/// edges, hence both are tried.
fn threshold_once(
    g: &[u8],
    w: usize,
    h: usize,
    radius: usize,
    dark: bool,
    skip: Option<&[bool]>,
) -> Vec<bool> {
    threshold_by(g, w, h, radius, dark, skip, OFFSET)
}

/// [`threshold_once`] with ink `offset` grey levels off the background.
fn threshold_by(
    g: &[u8],
    w: usize,
    h: usize,
    radius: usize,
    dark: bool,
    skip: Option<&[bool]>,
    offset: u32,
) -> Vec<bool> {
    // Integrals of the values and of the counts, with a zero row and column in front.
    let iw = w + 1;
    let mut sum = vec![0u32; iw * (h + 1)];
    let mut count = vec![0u32; iw * (h + 1)];
    for y in 0..h {
        let (mut row, mut n) = (0u32, 0u32);
        for x in 0..w {
            if !skip.is_some_and(|s| s[y * w + x]) {
                row += u32::from(g[y * w + x]);
                n += 1;
            }
            sum[(y + 1) * iw + x + 1] = sum[y * iw + x + 1] + row;
            count[(y + 1) * iw + x + 1] = count[y * iw + x + 1] + n;
        }
    }
    let mut out = vec![false; w * h];
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(radius), (y + radius + 1).min(h));
        for x in 0..w {
            let (x0, x1) = (x.saturating_sub(radius), (x + radius + 1).min(w));
            // Rows y0..y1 up to x1, less the same rows up to x0: no step goes below zero or
            // above the whole image's sum (two corners added first could pass u32::MAX).
            let area = |t: &[u32]| {
                (t[y1 * iw + x1] - t[y0 * iw + x1]) - (t[y1 * iw + x0] - t[y0 * iw + x0])
            };
            let (total, n) = (area(&sum), area(&count));
            if n == 0 {
                out[y * w + x] = skip.is_some_and(|s| s[y * w + x]);
                continue;
            }
            let v = u32::from(g[y * w + x]) * n;
            out[y * w + x] = if dark { v + offset * n < total } else { v > total + offset * n };
        }
    }
    out
}

/// Ink as black on white.
fn as_picture(ink: &[bool], w: usize, h: usize) -> Picture {
    let mut data = Vec::with_capacity(w * h * 4);
    for &i in ink {
        let v = if i { 0 } else { 255 };
        data.extend_from_slice(&[v, v, v, 255]);
    }
    Picture { width: w, height: h, data }
}

/// The image binarized, as black on white pictures of the same size, made one at a time as
/// they are asked for: ink darker than its surroundings, then lighter (the lines of a dark
/// theme), each with the background taken once, then twice (see [`threshold_once`]).
/// Nothing for images above [`MAX_BINARIZED`].
pub(crate) fn binarized(image: Rgba<'_>) -> impl Iterator<Item = Picture> {
    let (w, h) = (image.width(), image.height());
    let g = if w * h > MAX_BINARIZED { Vec::new() } else { grey(image) };
    let radius = (w.min(h) / 60).clamp(6, 24);
    let passes = if g.is_empty() { 0 } else { 4 };
    (0..passes).map(move |k| {
        let dark = k % 2 == 0;
        let first = threshold_once(&g, w, h, radius, dark, None);
        let ink = if k < 2 { first } else { threshold_once(&g, w, h, radius, dark, Some(&first)) };
        as_picture(&ink, w, h)
    })
}

/// A point in an image, in pixels.
type Point = (f64, f64);

/// The perspective that carries the square `(0, 0)`, `(1, 0)`, `(1, 1)`, `(0, 1)` onto the
/// four corners (clockwise from the top left): `[a, b, c, d, e, f, g, h]` with
/// `x = (a u + b v + c) / (g u + h v + 1)` and `y = (d u + e v + f) / (g u + h v + 1)`.
fn homography(corners: [Point; 4]) -> Option<[f64; 8]> {
    let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let mut m = [[0f64; 9]; 8];
    for (k, (&(u, v), &(x, y))) in square.iter().zip(corners.iter()).enumerate() {
        m[2 * k] = [u, v, 1.0, 0.0, 0.0, 0.0, -u * x, -v * x, x];
        m[2 * k + 1] = [0.0, 0.0, 0.0, u, v, 1.0, -u * y, -v * y, y];
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..8 {
        let pivot = (col..8).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col];
        for (row, r) in m.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (x, p) in r.iter_mut().zip(pivot_row.iter()).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut out = [0f64; 8];
    for (i, o) in out.iter_mut().enumerate() {
        *o = m[i][8] / m[i][i];
    }
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// The largest four-cornered piece of dark ink (`offset` grey levels darker than around it)
/// in a reduced copy of the image, as its corners in the image's pixels (clockwise from the
/// top left): its extreme points, then (when they differ) the corners of straight lines
/// fitted to its sides (see [`sides_fit`]).
fn quadrilateral(image: Rgba<'_>, offset: u32) -> Vec<[Point; 4]> {
    // A reduced grey copy, about 800 pixels on the long side, each pixel the mean of a block.
    let step = image.width().max(image.height()).div_ceil(800).max(1);
    let (w, h) = (image.width() / step, image.height() / step);
    if w < 40 || h < 40 {
        return Vec::new();
    }
    let mut g = vec![0u8; w * h];
    let mut colours = vec![[0u8; 3]; image.width()];
    let mut sums = vec![0u32; w];
    for y in 0..h {
        sums.fill(0);
        for dy in 0..step {
            image.rgb_row(y * step + dy, &mut colours);
            for (s, block) in sums.iter_mut().zip(colours.chunks_exact(step)) {
                *s += block.iter().map(|&c| grey_of(c)).sum::<u32>();
            }
        }
        for (o, s) in g[y * w..(y + 1) * w].iter_mut().zip(&sums) {
            *o = (s / (step * step) as u32) as u8;
        }
    }
    let ink = threshold(&g, w, h, (w.min(h) / 50).max(5), offset);
    // The 8-connected pieces, with their extreme points along both diagonals.
    let mut best: Option<(usize, [Point; 4], Vec<usize>)> = None;
    let short = w.min(h);
    super::cells::components(&ink, w, |piece| {
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        // Top left: least x + y; bottom right: most x + y; top right: most x - y; bottom
        // left: least x - y.
        let (mut tl, mut br, mut tr, mut bl) = ((0, 0), (0, 0), (0, 0), (0, 0));
        let (mut tl_v, mut br_v, mut tr_v, mut bl_v) = (i64::MAX, i64::MIN, i64::MIN, i64::MAX);
        for &i in piece {
            let (x, y) = (i % w, i / w);
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
            let (s, d) = ((x + y) as i64, x as i64 - y as i64);
            if s < tl_v {
                (tl_v, tl) = (s, (x, y));
            }
            if s > br_v {
                (br_v, br) = (s, (x, y));
            }
            if d > tr_v {
                (tr_v, tr) = (d, (x, y));
            }
            if d < bl_v {
                (bl_v, bl) = (d, (x, y));
            }
        }
        let n = piece.len();
        let (bw, bh) = (x1 + 1 - x0, y1 + 1 - y0);
        let area = bw * bh;
        // Large enough to hold a board, about as wide as tall, mostly hollow (lines, not a
        // filled area), and larger than the best so far.
        if bw * 4 < short || bh * 4 < short || bw > 2 * bh || bh > 2 * bw || n * 2 > area {
            return;
        }
        if best.as_ref().is_some_and(|(a, _, _)| *a >= area) {
            return;
        }
        let p = |(x, y): (usize, usize)| ((x * step) as f64 + 0.5, (y * step) as f64 + 0.5);
        let quad = [p(tl), p(tr), p(br), p(bl)];
        if !plausible(&quad, (bw * bh * step * step) as f64) {
            return;
        }
        best = Some((area, quad, piece.to_vec()));
    });
    let Some((_, quad, piece)) = best else { return Vec::new() };
    let refined = sides_fit(&piece, w, h, &quad, step as f64).filter(|q| {
        let (x0, x1) = q.iter().fold((f64::MAX, 0f64), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (y0, y1) = q.iter().fold((f64::MAX, 0f64), |(a, b), p| (a.min(p.1), b.max(p.1)));
        let moved = q.iter().zip(&quad).any(|(a, b)| (a.0 - b.0).abs() + (a.1 - b.1).abs() > 2.0);
        moved && plausible(q, (x1 - x0) * (y1 - y0))
    });
    std::iter::once(quad).chain(refined).collect()
}

/// A line `across = slope * along + offset` fitted to points `(along, across)`, keeping the
/// points nearest it (print touching the board's border pulls a few points off it): least
/// squares, then again over the closer half, twice.
fn robust_line(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let fit = |pts: &[(f64, f64)]| -> Option<(f64, f64)> {
        let n = pts.len() as f64;
        let (sa, sc) = pts.iter().fold((0.0, 0.0), |(a, c), p| (a + p.0, c + p.1));
        let (ma, mc) = (sa / n, sc / n);
        let (mut num, mut den) = (0.0, 0.0);
        for p in pts {
            num += (p.0 - ma) * (p.1 - mc);
            den += (p.0 - ma) * (p.0 - ma);
        }
        (pts.len() >= 8 && den > 0.0).then(|| (num / den, mc - num / den * ma))
    };
    let mut line = fit(points)?;
    let mut kept = points.to_vec();
    for _ in 0..2 {
        let off = |p: &(f64, f64)| (p.1 - line.0 * p.0 - line.1).abs();
        kept.sort_by(|a, b| off(a).total_cmp(&off(b)));
        kept.truncate(kept.len().div_ceil(2).max(8));
        line = fit(&kept)?;
    }
    Some(line)
}

/// The quadrilateral `quad` (in image pixels, from a piece of ink found in a copy reduced by
/// `step`) made again from straight lines fitted to the piece's outermost pixels along each
/// side, between its corners: the corners from extreme points are pulled off by print or
/// a shadow that touches the border; the sides' lines are not.
fn sides_fit(
    piece: &[usize],
    w: usize,
    h: usize,
    quad: &[Point; 4],
    step: f64,
) -> Option<[Point; 4]> {
    // Per row the leftmost and rightmost pixel, per column the topmost and bottommost.
    let (mut left, mut right) = (vec![usize::MAX; h], vec![0usize; h]);
    let (mut top, mut bottom) = (vec![usize::MAX; w], vec![0usize; w]);
    for &i in piece {
        let (x, y) = (i % w, i / w);
        left[y] = left[y].min(x);
        right[y] = right[y].max(x);
        top[x] = top[x].min(y);
        bottom[x] = bottom[x].max(y);
    }
    let q: Vec<Point> = quad.iter().map(|p| (p.0 / step, p.1 / step)).collect();
    // The middle 80% between two corners along a side (the corners' own areas are round).
    let within = |a: f64, b: f64| {
        let (lo, hi) = (a.min(b), a.max(b));
        let cut = (hi - lo) * 0.1;
        ((lo + cut).ceil().max(0.0) as usize, (hi - cut).floor().max(0.0) as usize)
    };
    let side = |extreme: &[usize], (lo, hi): (usize, usize), none: usize| {
        let pts: Vec<(f64, f64)> = (lo..=hi.min(extreme.len().saturating_sub(1)))
            .filter(|&k| extreme[k] != none)
            .map(|k| (k as f64, extreme[k] as f64))
            .collect();
        robust_line(&pts)
    };
    let l = side(&left, within(q[0].1, q[3].1), usize::MAX)?;
    let r = side(&right, within(q[1].1, q[2].1), 0)?;
    let t = side(&top, within(q[0].0, q[1].0), usize::MAX)?;
    let b = side(&bottom, within(q[3].0, q[2].0), 0)?;
    // x = v.0 * y + v.1 (a vertical side) meets y = u.0 * x + u.1 (a horizontal one).
    let meet = |v: (f64, f64), u: (f64, f64)| -> Option<Point> {
        let d = 1.0 - v.0 * u.0;
        if d.abs() < 1e-6 {
            return None;
        }
        let x = (v.0 * u.1 + v.1) / d;
        let y = u.0 * x + u.1;
        (x.is_finite() && y.is_finite()).then_some(((x + 0.5) * step, (y + 0.5) * step))
    };
    Some([meet(l, t)?, meet(r, t)?, meet(r, b)?, meet(l, b)?])
}

/// Whether four corners make a convex quadrilateral with sides of like lengths that fills
/// a fair share of the piece's box.
fn plausible(q: &[Point; 4], box_area: f64) -> bool {
    let side = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let sides: Vec<f64> = (0..4).map(|i| side(q[i], q[(i + 1) % 4])).collect();
    let (lo, hi) = sides.iter().fold((f64::MAX, 0f64), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    let cross = |i: usize| {
        let (a, b, c) = (q[i], q[(i + 1) % 4], q[(i + 2) % 4]);
        (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0)
    };
    let convex = (0..4).all(|i| cross(i) > 0.0);
    let area = 0.5
        * (0..4).map(|i| q[i].0 * q[(i + 1) % 4].1 - q[(i + 1) % 4].0 * q[i].1).sum::<f64>().abs();
    convex && lo > 0.6 * hi && area > 0.45 * box_area
}

/// The side of the square blocks [`warp`] fills one after another.
const WARP_TILE: usize = 32;

/// The board's quadrilateral warped onto a square of `side` pixels with a margin of
/// `margin` pixels of the surroundings all round.
///
/// A board in a large photo lies far apart in memory: each pixel of the square needs the
/// photo's pixels from two rows that are not in the cache, and waiting for them one pixel
/// at a time is most of the work. So the square is filled in blocks of [`WARP_TILE`]
/// pixels (whose sources lie close together), a block's row at a time: first where each of
/// its pixels falls in the photo, then the photo's pixels around each (loads that wait on
/// no arithmetic, so many are on their way at once), then the blends. Every pixel is
/// computed as it would be alone.
fn warp(image: Rgba<'_>, corners: [Point; 4], side: usize, margin: usize) -> Option<Picture> {
    let hm = homography(corners)?;
    let size = side + 2 * margin;
    let mut data = vec![255u8; size * size * 4];
    let place = |k: usize| (k as f64 + 0.5 - margin as f64) / side as f64;
    let mut spots = [None; WARP_TILE];
    let mut around = [[[0u8; 3]; 4]; WARP_TILE];
    for y0 in (0..size).step_by(WARP_TILE) {
        for x0 in (0..size).step_by(WARP_TILE) {
            let xs = x0..(x0 + WARP_TILE).min(size);
            for y in y0..(y0 + WARP_TILE).min(size) {
                for (spot, x) in spots.iter_mut().zip(xs.clone()) {
                    *spot = source(image, &hm, place(x), place(y));
                }
                for (four, spot) in around.iter_mut().zip(&spots).take(xs.len()) {
                    if let Some(s) = spot {
                        *four = s.pixels(image);
                    }
                }
                for ((x, spot), four) in xs.clone().zip(&spots).zip(&around) {
                    if let Some(s) = spot {
                        let at = (y * size + x) * 4;
                        data[at..at + 3].copy_from_slice(&s.blend(four));
                    }
                }
            }
        }
    }
    Some(Picture { width: size, height: size, data })
}

/// Where a point of the warped square falls in the photo: the pixel up and left of it and
/// how far past that pixel it is each way.
#[derive(Clone, Copy)]
struct Spot {
    x: usize,
    y: usize,
    fx: f64,
    fy: f64,
}

impl Spot {
    /// The four pixels around the spot: up left, up right, down left, down right.
    fn pixels(&self, image: Rgba<'_>) -> [[u8; 3]; 4] {
        let (x, y) = (self.x, self.y);
        [image.rgb(x, y), image.rgb(x + 1, y), image.rgb(x, y + 1), image.rgb(x + 1, y + 1)]
    }

    /// The colour at the spot, bilinear between its four pixels.
    fn blend(&self, [a, b, c, d]: &[[u8; 3]; 4]) -> [u8; 3] {
        let (fx, fy) = (self.fx, self.fy);
        let mut out = [0u8; 3];
        for (k, o) in out.iter_mut().enumerate() {
            let top = f64::from(a[k]) * (1.0 - fx) + f64::from(b[k]) * fx;
            let bottom = f64::from(c[k]) * (1.0 - fx) + f64::from(d[k]) * fx;
            *o = (top * (1.0 - fy) + bottom * fy).round() as u8;
        }
        out
    }
}

/// The point `(u, v)` of the unit square carried into `image` by the perspective `hm` (see
/// [`homography`]); `None` outside the image (or where the bilinear blend would need a pixel
/// past its edge).
fn source(image: Rgba<'_>, hm: &[f64; 8], u: f64, v: f64) -> Option<Spot> {
    let (iw, ih) = (image.width() as f64, image.height() as f64);
    let den = hm[6] * u + hm[7] * v + 1.0;
    let sx = (hm[0] * u + hm[1] * v + hm[2]) / den - 0.5;
    let sy = (hm[3] * u + hm[4] * v + hm[5]) / den - 0.5;
    if !(sx >= 0.0 && sy >= 0.0 && sx < iw - 1.0 && sy < ih - 1.0) {
        return None;
    }
    let (x, y) = (sx as usize, sy as usize);
    Some(Spot { x, y, fx: sx - x as f64, fy: sy - y as f64 })
}

/// The board of a photo (or a tilted screenshot) warped onto a square, for each way of
/// taking the corners of a four-cornered piece of ink fit to be one (see [`quadrilateral`]):
/// the picture, the square's side and its margin. Each is warped only when asked for (the
/// caller stops at the first that reads well).
pub(crate) fn warped(image: Rgba<'_>) -> impl Iterator<Item = (Picture, usize, usize)> + '_ {
    // The pieces of ink at the usual offset, then (only when asked for: none of those read
    // well) those of fainter ink, less the quadrilaterals already tried.
    let first = quadrilateral(image, OFFSET);
    let tried = first.clone();
    let faint = std::iter::once_with(move || {
        let same = |a: &[Point; 4], b: &[Point; 4]| {
            a.iter().zip(b).all(|(p, q)| (p.0 - q.0).abs() + (p.1 - q.1).abs() <= 2.0)
        };
        let mut more = quadrilateral(image, FAINT_OFFSET);
        more.retain(|q| !tried.iter().any(|t| same(q, t)));
        more
    })
    .flatten();
    first.into_iter().chain(faint).filter_map(straighten(image))
}

/// The board warped onto a square for each way of taking the corners of the largest piece
/// of strong ink (see [`STRONG_OFFSET`]), as [`warped`]: a last resort, for a picture in which
/// [`warped`] found no board at all (the board joined by fainter ink to print beside it, so
/// that the piece [`warped`] takes is not the board's shape).
pub(crate) fn warped_strong(image: Rgba<'_>) -> impl Iterator<Item = (Picture, usize, usize)> + '_ {
    quadrilateral(image, STRONG_OFFSET).into_iter().filter_map(straighten(image))
}

/// Strong ink only, for the board's quadrilateral (see [`warped_strong`]): a printed board's
/// lines are this much darker than the paper around them; print that shows through the page
/// or a shadow, which may join the board to what is beside it, is not.
const STRONG_OFFSET: u32 = 30;

/// The picture, side and margin of the square a quadrilateral's board is warped onto (see
/// [`warped`]).
fn straighten(image: Rgba<'_>) -> impl Fn([Point; 4]) -> Option<(Picture, usize, usize)> + '_ {
    move |corners: [Point; 4]| {
        let side = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        let longest = (0..4).map(|i| side(corners[i], corners[(i + 1) % 4])).fold(0f64, f64::max);
        // Cells of 30 to 60 pixels for a 9x9 board.
        let side = (longest.round() as usize).clamp(270, 540);
        let margin = side / 25;
        Some((warp(image, corners, side, margin)?, side, margin))
    }
}

/// One grid line found across a straightened board: its first and last pixel across.
#[derive(Clone, Copy, Debug)]
struct Band {
    near: usize,
    far: usize,
}

/// The grid in a straightened board (see [`warped`]): its border is near the square from
/// `margin` to `margin + side` each way (the quadrilateral may have taken in print beside
/// the board). Grid lines are bands of pixel rows (or columns) where most of the square's
/// width has dark ink; the board is the widest run of 9, 6 or 4 cells between such bands at
/// even spacing, with no band across the middle of any cell, the same side both ways. Found
/// twice: with lines taken as straight, then as a few pixels off straight (a curled page, a
/// lens), which finds more grids but crops the cells closer; both are given when found.
///
/// Failing both, the lines are looked for by how much darker than the pixels a little above
/// and below (or left and right) they are along most of the square (see [`grid_by_dips`]):
/// a blurred photo's thin lines a few grey levels dark, or a halftone tint that an adaptive
/// threshold turns into ink all over the cells.
pub(crate) fn grid_in_square(picture: &Picture, side: usize, margin: usize) -> Vec<Board> {
    let found = grid_in_square_by(picture, side, margin, &[OFFSET, FAINT_OFFSET]);
    if !found.is_empty() {
        return found;
    }
    grid_by_dips(picture, side, margin).into_iter().collect()
}

/// The least dip (grey levels, see [`dips`]) a grid line may have.
const MIN_DIP: i16 = 4;

/// How much darker each row (columns when `across`) of the grey picture `g` is than the
/// lighter of the rows `reach` above and below it, pixel by pixel: the median over the
/// square's width, from `margin` to `margin + side` (digits cover less than half a row of
/// cells, so the median is the lines' and the paper's). Rows within `reach` of an edge get 0.
fn dips(
    g: &[u8],
    w: usize,
    h: usize,
    side: usize,
    margin: usize,
    reach: usize,
    across: bool,
) -> Vec<i16> {
    let (limit, other) = if across { (w, h) } else { (h, w) };
    let at = |pos: usize, t: usize| i16::from(if across { g[t * w + pos] } else { g[pos * w + t] });
    let mut out = vec![0i16; limit];
    if margin + side > other || side == 0 {
        return out;
    }
    let mut values = vec![0i16; side];
    let inner = limit.saturating_sub(reach);
    for (pos, o) in out.iter_mut().enumerate().take(inner).skip(reach) {
        for (v, t) in values.iter_mut().zip(margin..margin + side) {
            *v = at(pos - reach, t).max(at(pos + reach, t)) - at(pos, t);
        }
        *o = *values.select_nth_unstable(side / 2).1;
    }
    out
}

/// The ten lines of a 9x9 grid among the peaks of a straightened board's [`dips`]: evenly
/// spaced over 0.6 to 1.15 of the square's side, with no line of like strength a pitch
/// beyond the border and the middle of every cell quiet (no dip there half the weakest
/// line's); the widest such. Each line's band is where its dip is at least half its peak.
fn lines_by_dips(dip: &[i16], side: usize) -> Option<Vec<Band>> {
    let n = dip.len();
    let peaks: Vec<usize> = (1..n.saturating_sub(1))
        .filter(|&p| dip[p] >= MIN_DIP && dip[p] >= dip[p - 1] && dip[p] > dip[p + 1])
        .collect();
    let mut best: Option<(usize, Vec<usize>)> = None;
    for (i, &first) in peaks.iter().enumerate() {
        for &last in &peaks[i + 1..] {
            let span = last - first;
            if (span as f64) < 0.6 * side as f64 || span as f64 > 1.15 * side as f64 {
                continue;
            }
            if best.as_ref().is_some_and(|b| b.0 >= span) {
                continue;
            }
            let pitch = span as f64 / 9.0;
            let tol = (pitch * 0.12).max(2.0);
            let near = |want: f64| {
                peaks
                    .iter()
                    .copied()
                    .filter(|&q| (q as f64 - want).abs() <= tol)
                    .max_by_key(|&q| dip[q])
            };
            let mut picked = vec![first];
            picked.extend((1..9).map_while(|k| near(first as f64 + pitch * k as f64)));
            if picked.len() < 9 {
                continue;
            }
            picked.push(last);
            let weakest = picked.iter().map(|&q| dip[q]).min().unwrap_or(0);
            let strong_at = |want: f64| near(want).is_some_and(|q| dip[q] * 2 >= weakest);
            if strong_at(first as f64 - pitch) || strong_at(last as f64 + pitch) {
                continue;
            }
            let quiet = (pitch * 0.15).ceil() as usize;
            let busy = (0..9).any(|k| {
                let c = (first as f64 + pitch * (k as f64 + 0.5)).round() as usize;
                let (lo, hi) = (c.saturating_sub(quiet), (c + quiet).min(n - 1));
                lo > hi || dip[lo..=hi].iter().any(|&v| v * 2 >= weakest)
            });
            if !busy {
                best = Some((span, picked));
            }
        }
    }
    let (_, picked) = best?;
    let bands: Vec<Band> = picked
        .iter()
        .map(|&q| {
            let half = |v: i16| v * 2 >= dip[q];
            let near = (0..q).rev().take_while(|&p| half(dip[p])).last().unwrap_or(q);
            let far = (q + 1..n).take_while(|&p| half(dip[p])).last().unwrap_or(q);
            Band { near, far }
        })
        .collect();
    bands.windows(2).all(|p| p[0].far < p[1].near).then_some(bands)
}

/// The 9x9 grid of a straightened board by its lines' [`dips`] (see [`grid_in_square`]), the
/// same span (within 15%) both ways.
fn grid_by_dips(picture: &Picture, side: usize, margin: usize) -> Option<Board> {
    let view = picture.view()?;
    let (w, h) = (picture.width, picture.height);
    if margin + side > w.min(h) {
        return None;
    }
    let g = grey(view);
    let reach = (side / 45).max(3);
    let rows = lines_by_dips(&dips(&g, w, h, side, margin, reach, false), side)?;
    let cols = lines_by_dips(&dips(&g, w, h, side, margin, reach, true), side)?;
    let span = |b: &[Band]| centre(&b[9]) - centre(&b[0]);
    let ratio = span(&rows) / span(&cols);
    if !(0.85..=1.0 / 0.85).contains(&ratio) {
        return None;
    }
    board_of(9, &rows, &cols)
}

/// [`grid_in_square`] with ink at each of `offsets` in turn, until one finds a grid.
fn grid_in_square_by(picture: &Picture, side: usize, margin: usize, offsets: &[u32]) -> Vec<Board> {
    let Some(view) = picture.view() else { return Vec::new() };
    let (w, h) = (picture.width, picture.height);
    if margin + side > w.min(h) {
        return Vec::new();
    }
    let g = grey(view);
    let straight = (side / 150).max(1);
    // Ink at the usual offset; failing that, the fainter ink of a blurred photo.
    for &offset in offsets {
        let ink = threshold(&g, w, h, (side / 60).max(4), offset);
        let found: Vec<Board> = [straight, (side / 100).max(1)]
            .into_iter()
            .filter_map(|reach| grid_at(&ink, w, h, side, margin, reach, reach - straight))
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// The grid of [`grid_in_square`] in its ink, taking a line's ink within `reach` rows (or
/// columns) of a position as on it, and taking `shrink` off each side of a band found so
/// (what a wider reach adds to a straight line's band).
fn grid_at(
    ink: &[bool],
    w: usize,
    h: usize,
    side: usize,
    margin: usize,
    reach: usize,
    shrink: usize,
) -> Option<Board> {
    // The share of the square's width with ink within `reach` rows of each row (columns
    // when `across`).
    let profile = |across: bool| -> Vec<f32> {
        let limit = if across { w } else { h };
        (0..limit)
            .map(|pos| {
                let (lo, hi) = (pos.saturating_sub(reach), (pos + reach).min(limit - 1));
                let hits = (margin..margin + side)
                    .filter(|&t| {
                        (lo..=hi).any(|p| if across { ink[t * w + p] } else { ink[p * w + t] })
                    })
                    .count();
                hits as f32 / side as f32
            })
            .collect()
    };
    let (row_shares, col_shares) = (profile(false), profile(true));
    let (row_bands, col_bands) =
        (bands(&row_shares, LINE_SHARE, shrink), bands(&col_shares, LINE_SHARE, shrink));
    let mut best: Option<(f64, usize, Vec<Band>, Vec<Band>)> = None;
    for n in [9, 6, 4] {
        let (rs, cs) =
            (grids(&row_shares, &row_bands, n, side), grids(&col_shares, &col_bands, n, side));
        // The widest pair of about equal spans.
        for (rspan, rows) in &rs {
            let Some((cspan, cols)) =
                cs.iter().find(|(c, _)| c / rspan > 0.85 && c / rspan < 1.0 / 0.85)
            else {
                continue;
            };
            let span = rspan.min(*cspan);
            if best.as_ref().is_none_or(|b| span > b.0 * 1.02) {
                best = Some((span, n, rows.clone(), cols.clone()));
            }
            break;
        }
    }
    if best.is_none() {
        // Thin lines too faint or broken to cover the line share (a blurred photo): the box
        // lines found strongly, and every thin line found faintly where they put it.
        let (row_weak, col_weak) =
            (bands(&row_shares, WEAK_SHARE, shrink), bands(&col_shares, WEAK_SHARE, shrink));
        let rs = grids_by_boxes(&row_shares, &row_bands, &row_weak, side);
        let cs = grids_by_boxes(&col_shares, &col_bands, &col_weak, side);
        for (rspan, rows) in &rs {
            let Some((cspan, cols)) =
                cs.iter().find(|(c, _)| c / rspan > 0.85 && c / rspan < 1.0 / 0.85)
            else {
                continue;
            };
            best = Some((rspan.min(*cspan), 9, rows.clone(), cols.clone()));
            break;
        }
    }
    let (_, n, rows, cols) = best?;
    board_of(n, &rows, &cols)
}

/// The board of `n` cells a side between the `n + 1` bands of `rows` and of `cols`.
fn board_of(n: usize, rows: &[Band], cols: &[Band]) -> Option<Board> {
    let spans = |bands: &[Band]| -> Option<Vec<(usize, usize)>> {
        bands
            .windows(2)
            .map(|p| {
                let (a, b) = (p[0].far + 1, p[1].near.checked_sub(1)?);
                (b >= a + 4).then_some((a, b))
            })
            .collect()
    };
    if rows.len() != n + 1 || cols.len() != n + 1 {
        return None;
    }
    let (box_width, box_height) = match n {
        9 => (3, 3),
        6 => (3, 2),
        _ => (2, 2),
    };
    Some(Board {
        left: cols[0].near,
        top: rows[0].near,
        width: cols[n].far + 1 - cols[0].near,
        height: rows[n].far + 1 - rows[0].near,
        side: n,
        box_width,
        box_height,
        boxes_seen: false,
        rows: spans(rows)?,
        cols: spans(cols)?,
        regions: None,
        diagonals: None,
    })
}

/// Every run of positions whose share reaches `least`, as a band, with `shrink` taken off
/// each side (see [`grid_at`]).
fn bands(shares: &[f32], least: f32, shrink: usize) -> Vec<Band> {
    let mut out: Vec<Band> = Vec::new();
    for (p, &v) in shares.iter().enumerate() {
        if v < least {
            continue;
        }
        match out.last_mut() {
            Some(b) if b.far + 1 == p => b.far = p,
            _ => out.push(Band { near: p, far: p }),
        }
    }
    for b in &mut out {
        let keep = (b.far - b.near) / 2;
        let cut = shrink.min(keep);
        (b.near, b.far) = (b.near + cut, b.far - cut);
    }
    out
}

/// The band of `found` nearest `want`, if within `tol`.
fn near(found: &[Band], want: f64, tol: f64) -> Option<Band> {
    found
        .iter()
        .filter(|b| (centre(b) - want).abs() <= tol)
        .min_by(|a, b| (centre(a) - want).abs().total_cmp(&(centre(b) - want).abs()))
        .copied()
}

/// Whether ink covers [`CELL_SHARE`] of the width anywhere near the middle of a cell between
/// two lines.
fn busy_between(shares: &[f32], a: &Band, b: &Band) -> bool {
    let (ca, cb) = (centre(a), centre(b));
    let quiet = ((cb - ca) * 0.15).ceil() as usize;
    let c = ((ca + cb) / 2.0).round() as usize;
    let (lo, hi) = (c.saturating_sub(quiet), (c + quiet).min(shares.len() - 1));
    lo > hi || shares[lo..=hi].iter().any(|&v| v >= CELL_SHARE)
}

/// The 9x9 grids of a straightened board whose inner box lines are among the strong bands
/// `found` and whose border and thin lines are each among the `weak` ones (or the strong),
/// where the box lines put them: (span, bands), widest first. For photos whose thin lines are too
/// faint or broken for [`grids`].
fn grids_by_boxes(
    shares: &[f32],
    found: &[Band],
    weak: &[Band],
    side: usize,
) -> Vec<(f64, Vec<Band>)> {
    // The border strong; failing that, faint too (a blurred photo's outer line as thin as
    // the others).
    let strong = boxed_grids(shares, found, found, weak, side);
    if !strong.is_empty() {
        return strong;
    }
    boxed_grids(shares, weak, found, weak, side)
}

/// [`grids_by_boxes`] with the border among `ends`.
fn boxed_grids(
    shares: &[f32],
    ends: &[Band],
    found: &[Band],
    weak: &[Band],
    side: usize,
) -> Vec<(f64, Vec<Band>)> {
    let mut out = Vec::new();
    for (i, first) in ends.iter().enumerate() {
        for last in &ends[i + 1..] {
            let span = centre(last) - centre(first);
            if span < 0.6 * side as f64 || span > 1.15 * side as f64 {
                continue;
            }
            let tol = (span / 9.0 * 0.15).max(2.0);
            let boxed = |k: f64| near(found, centre(first) + span * k / 3.0, tol);
            let (Some(b1), Some(b2)) = (boxed(1.0), boxed(2.0)) else { continue };
            let beyond = |want: f64| near(found, want, tol).is_some();
            if beyond(centre(first) - span / 9.0) || beyond(centre(last) + span / 9.0) {
                continue;
            }
            let mut picked = vec![*first];
            for (a, b) in [(*first, b1), (b1, b2), (b2, *last)] {
                let pitch = (centre(&b) - centre(&a)) / 3.0;
                for j in [1.0, 2.0] {
                    let want = centre(&a) + pitch * j;
                    let thin = near(found, want, tol).or_else(|| near(weak, want, tol));
                    picked.extend(thin);
                }
                picked.push(b);
            }
            let ordered = picked.windows(2).all(|p| p[0].far < p[1].near);
            if picked.len() == 10
                && ordered
                && !picked.windows(2).any(|p| busy_between(shares, &p[0], &p[1]))
            {
                out.push((span, picked));
            }
        }
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// The centre of a band.
fn centre(b: &Band) -> f64 {
    (b.near + b.far) as f64 / 2.0
}

/// The grids of `n` cells among the bands `found` of a straightened board of `side` pixels,
/// from the line shares `shares` (see [`grid_at`]): (span, bands), widest first.
fn grids(shares: &[f32], found: &[Band], n: usize, side: usize) -> Vec<(f64, Vec<Band>)> {
    let mut out = Vec::new();
    for (i, first) in found.iter().enumerate() {
        for last in &found[i + 1..] {
            let span = centre(last) - centre(first);
            if span < 0.6 * side as f64 || span > 1.15 * side as f64 {
                continue;
            }
            let pitch = span / n as f64;
            let tol = (pitch * 0.12).max(2.0);
            let mut picked = vec![*first];
            for k in 1..n {
                let want = centre(first) + pitch * k as f64;
                let Some(b) = found.iter().find(|b| (centre(b) - want).abs() <= tol) else {
                    break;
                };
                picked.push(*b);
            }
            if picked.len() < n {
                continue;
            }
            picked.push(*last);
            // The border is outermost: no line a pitch beyond it.
            let beyond = |want: f64| found.iter().any(|b| (centre(b) - want).abs() <= tol);
            if beyond(centre(first) - pitch) || beyond(centre(last) + pitch) {
                continue;
            }
            // No line across the middle of a cell: a grid of another side fits lines
            // near these (those of a 9x9 board lie near a quarter and three quarters).
            let quiet = (pitch * 0.15).ceil() as usize;
            let busy = (0..n).any(|k| {
                let c = (centre(first) + pitch * (k as f64 + 0.5)).round() as usize;
                let (lo, hi) = (c.saturating_sub(quiet), (c + quiet).min(shares.len() - 1));
                shares[lo..=hi].iter().any(|&v| v >= CELL_SHARE)
            });
            if !busy {
                out.push((span, picked));
            }
        }
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// The least share of a straightened board's width a grid line's ink must cover.
const LINE_SHARE: f32 = 0.75;

/// The least share of a straightened board's width a thin line's ink must cover where the
/// box lines put it (see [`grids_by_boxes`]).
const WEAK_SHARE: f32 = 0.4;

/// The most share of the width ink may cover across the middle of a row of cells (digits
/// cover about half of it when every cell is filled).
const CELL_SHARE: f32 = 0.65;

/// How many of the squares [`warped`] makes of `image` hold a grid found at [`OFFSET`] alone
/// (for the tests).
#[cfg(test)]
pub(super) fn grids_at_usual_offset_for_tests(image: Rgba<'_>) -> usize {
    warped(image)
        .filter(|(picture, side, margin)| {
            !grid_in_square_by(picture, *side, *margin, &[OFFSET]).is_empty()
        })
        .count()
}

/// How many of the squares [`warped`] makes of `image` hold a grid found by an ink
/// threshold (at [`OFFSET`] or [`FAINT_OFFSET`]), not by [`grid_by_dips`] (for the tests).
#[cfg(test)]
pub(super) fn grids_by_threshold_for_tests(image: Rgba<'_>) -> usize {
    warped(image)
        .filter(|(picture, side, margin)| {
            !grid_in_square_by(picture, *side, *margin, &[OFFSET, FAINT_OFFSET]).is_empty()
        })
        .count()
}

/// How many of the squares [`warped`] makes of `image` (not [`warped_strong`]) hold a grid
/// (for the tests).
#[cfg(test)]
pub(super) fn grids_warped_for_tests(image: Rgba<'_>) -> usize {
    warped(image)
        .filter(|(picture, side, margin)| !grid_in_square(picture, *side, *margin).is_empty())
        .count()
}

/// [`homography`], for the tests' simulated photos.
#[cfg(test)]
pub(super) fn homography_for_tests(corners: [Point; 4]) -> Option<[f64; 8]> {
    homography(corners)
}

#[cfg(test)]
mod dip_tests {
    use super::{MIN_DIP, lines_by_dips};

    /// A profile of `len` positions with a dip of `depth` at each of `at` (a peak two
    /// positions wide at half its depth on either side).
    fn profile(len: usize, at: &[(usize, i16)]) -> Vec<i16> {
        let mut p = vec![1i16; len];
        for &(q, depth) in at {
            p[q] = p[q].max(depth);
            p[q - 1] = p[q - 1].max(depth / 2);
            p[q + 1] = p[q + 1].max(depth / 2);
        }
        p
    }

    /// Ten lines 50 apart from 20, box lines strong and thin lines faint.
    fn lattice() -> Vec<(usize, i16)> {
        (0..10).map(|k| (20 + 50 * k, if k % 3 == 0 { 60 } else { 10 })).collect()
    }

    #[test]
    fn ten_evenly_spaced_dips_are_a_grid() {
        let bands = lines_by_dips(&profile(500, &lattice()), 450).expect("a grid");
        let centres: Vec<usize> = bands.iter().map(|b| (b.near + b.far) / 2).collect();
        assert_eq!(centres, (0..10).map(|k| 20 + 50 * k).collect::<Vec<_>>());
        assert!(bands.iter().all(|b| b.far - b.near <= 2), "{bands:?}");
    }

    #[test]
    fn a_dip_across_the_middle_of_a_cell_is_no_grid() {
        let mut at = lattice();
        at.push((245, 8));
        assert!(lines_by_dips(&profile(500, &at), 450).is_none());
    }

    #[test]
    fn a_strong_line_a_pitch_beyond_the_border_is_no_grid() {
        // The border is not the outermost line: the grid is not all there (and the ten lines
        // from the second on have the first a pitch beyond them).
        let mut at = lattice();
        at.push((520, 60));
        assert!(lines_by_dips(&profile(560, &at), 450).is_none());
    }

    #[test]
    fn dips_fainter_than_the_least_are_no_lines() {
        let at: Vec<(usize, i16)> = lattice().into_iter().map(|(q, _)| (q, MIN_DIP - 1)).collect();
        assert!(lines_by_dips(&profile(500, &at), 450).is_none());
    }
}
