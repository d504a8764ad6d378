//! Digit recognition: a glyph's ink is scaled into a small square of features, and the
//! nearest templates (rendered from many fonts by `examples/pixel_templates.rs`) vote by
//! similarity. A digit is only named when the best digit beats every other digit, and every
//! template of a glyph that is no digit (letters and signs shaped like digits: `Z`, `S`, `B`,
//! `g`, `&`, ...), by a clear margin; otherwise the caller is told it is unsure.

use std::sync::OnceLock;

/// Side of the feature square: a glyph is scaled to this many rows.
pub const GRID: usize = 16;

/// Number of features in one glyph's description.
pub const FEATURES: usize = GRID * GRID;

/// Ink at or above this intensity (0 to 1) counts for a glyph's bounding box.
const BOX_INK: f32 = 0.35;

/// The templates, as written by `examples/pixel_templates.rs`: the magic, then records of a
/// label byte (a digit 1 to 9, or [`NOT_A_DIGIT`]) and [`FEATURES`] bytes of ink (0 to 255).
const TEMPLATE_DATA: &[u8] = include_bytes!("templates.bin");

/// The first bytes of the template file.
pub const TEMPLATE_MAGIC: &[u8; 8] = b"SBDIGIT2";

/// The label of a template that shows no digit (a letter or sign that looks like one).
pub const NOT_A_DIGIT: u8 = 0;

/// Margin by which the best digit must beat the best glyph that is no digit for full
/// confidence. Set from the `accuracy` and `lookalikes` reports of `examples/pixel_reports.rs`: 0.01 takes letters and signs
/// read as certain digits, in fonts never seen, from 125 of 420 reads to 28 of 483 (the rest are
/// `l` and `I` as 1, and `g` as 9, which have no template), and costs 6 more uncertain cells of
/// 7,665 (one more board of 126 refused); 0.02 gains no letter and costs more cells.
const OPEN_MARGIN: f32 = 0.01;

/// Lowest similarity (cosine of centred features) for the best digit to count at all.
const MIN_SIMILARITY: f32 = 0.72;

/// Margin by which the best digit must beat the next digit for full confidence.
const FULL_MARGIN: f32 = 0.12;

/// One glyph, described: ink sampled on a [`GRID`] x [`GRID`] square, the glyph's height
/// filling it and its width centred at the same scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Features(pub [f32; FEATURES]);

/// Describes a glyph from its ink: `ink[y * width + x]` from 0 (background) to 1 (full ink).
/// Gives `None` when there is no ink or the sizes do not match.
pub fn features(width: usize, height: usize, ink: &[f32]) -> Option<Features> {
    if width == 0 || height == 0 || width.checked_mul(height)? != ink.len() {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..height {
        for x in 0..width {
            if ink[y * width + x] >= BOX_INK {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
    }
    if x0 == usize::MAX {
        return None;
    }
    // The box in continuous coordinates, one pixel wider each way for the anti-aliased rim.
    let bx0 = x0 as f32 - 0.5;
    let by0 = y0 as f32 - 0.5;
    let bw = (x1 - x0 + 1) as f32 + 1.0;
    let bh = (y1 - y0 + 1) as f32 + 1.0;
    let scale = bh.max(bw) / GRID as f32; // source pixels per feature cell
    let left = bx0 + bw / 2.0 - scale * GRID as f32 / 2.0;
    let top = by0 + bh / 2.0 - scale * GRID as f32 / 2.0;
    let sample = |fx: f32, fy: f32| -> f32 {
        // bilinear over the ink, zero outside
        let gx = fx - 0.5;
        let gy = fy - 0.5;
        let ix = gx.floor();
        let iy = gy.floor();
        let tx = gx - ix;
        let ty = gy - iy;
        let at = |x: f32, y: f32| -> f32 {
            if x < 0.0 || y < 0.0 || x >= width as f32 || y >= height as f32 {
                0.0
            } else {
                ink[y as usize * width + x as usize]
            }
        };
        at(ix, iy) * (1.0 - tx) * (1.0 - ty)
            + at(ix + 1.0, iy) * tx * (1.0 - ty)
            + at(ix, iy + 1.0) * (1.0 - tx) * ty
            + at(ix + 1.0, iy + 1.0) * tx * ty
    };
    const SUB: usize = 4;
    let mut out = [0f32; FEATURES];
    for gy in 0..GRID {
        for gx in 0..GRID {
            let mut sum = 0.0;
            for sy in 0..SUB {
                for sx in 0..SUB {
                    let fx = left + (gx as f32 + (sx as f32 + 0.5) / SUB as f32) * scale;
                    let fy = top + (gy as f32 + (sy as f32 + 0.5) / SUB as f32) * scale;
                    sum += sample(fx, fy);
                }
            }
            out[gy * GRID + gx] = (sum / (SUB * SUB) as f32).clamp(0.0, 1.0);
        }
    }
    Some(Features(out))
}

impl Features {
    /// The features as bytes, for the template file.
    pub fn to_bytes(&self) -> [u8; FEATURES] {
        let mut b = [0u8; FEATURES];
        for (o, v) in b.iter_mut().zip(self.0.iter()) {
            *o = (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        }
        b
    }

    /// The vector compared: where the strokes run (signed gradient directions pooled over
    /// 4x4 blocks), then the ink itself at half resolution, centred; scaled to unit length
    /// for cosine similarity.
    fn normalised(&self) -> Vector {
        let at = |x: i32, y: i32| -> f32 {
            if x < 0 || y < 0 || x >= GRID as i32 || y >= GRID as i32 {
                0.0
            } else {
                self.0[y as usize * GRID + x as usize]
            }
        };
        let mut v = [0f32; VECTOR];
        // Every pixel's gradient, its length and its place between two directions, in one
        // pass without branches over a copy with a blank rim (the templates are all made
        // ready at each start: this was most of a `solve --image` run's time); then added
        // into the blocks in reading order, as before.
        let mut padded = [0f32; (GRID + 2) * (GRID + 2)];
        for (row, ink) in padded.chunks_exact_mut(GRID + 2).skip(1).zip(self.0.chunks_exact(GRID)) {
            row[1..=GRID].copy_from_slice(ink);
        }
        let (mut magnitude, mut bin) = ([0f32; FEATURES], [0f32; FEATURES]);
        for i in 0..FEATURES {
            let p = (i / GRID + 1) * (GRID + 2) + i % GRID + 1;
            let gx = padded[p + 1] - padded[p - 1];
            let gy = padded[p + GRID + 2] - padded[p - GRID - 2];
            magnitude[i] = (gx * gx + gy * gy).sqrt();
            bin[i] = direction(gy, gx) / std::f32::consts::TAU * DIRECTIONS as f32;
        }
        for i in 0..FEATURES {
            let (magnitude, bin) = (magnitude[i], bin[i]);
            if magnitude < 1e-4 {
                continue;
            }
            let lo = (bin.floor() as usize) % DIRECTIONS;
            let hi = (lo + 1) % DIRECTIONS;
            let t = bin - bin.floor();
            let block = (i / GRID / 4) * 4 + i % GRID / 4;
            v[block * DIRECTIONS + lo] += magnitude * (1.0 - t);
            v[block * DIRECTIONS + hi] += magnitude * t;
        }
        let mut ink = [0f32; 64];
        for y in 0..8 {
            for x in 0..8 {
                let (x2, y2) = (2 * x as i32, 2 * y as i32);
                ink[y * 8 + x] =
                    (at(x2, y2) + at(x2 + 1, y2) + at(x2, y2 + 1) + at(x2 + 1, y2 + 1)) / 4.0;
            }
        }
        let mean = ink.iter().sum::<f32>() / 64.0;
        for (i, value) in ink.iter().enumerate() {
            v[GRADIENTS + i] = (value - mean) * INK_WEIGHT;
        }
        // Contour profiles: how far in from the glyph's left and right sides each row's ink
        // starts (open sides tell 3 from 8, 5 from 6).
        let inked = |x: usize, y: usize| self.0[y * GRID + x] >= 0.4;
        let cols: Vec<usize> = (0..GRID).filter(|&x| (0..GRID).any(|y| inked(x, y))).collect();
        if let (Some(&left), Some(&right)) = (cols.first(), cols.last()) {
            let span = (right - left + 1) as f32;
            for y in 0..GRID {
                let first = (left..=right).find(|&x| inked(x, y));
                let last = (left..=right).rev().find(|&x| inked(x, y));
                let (l, r) = match (first, last) {
                    (Some(f), Some(l)) => ((f - left) as f32 / span, (right - l) as f32 / span),
                    _ => (1.0, 1.0),
                };
                v[GRADIENTS + 64 + y] = l * PROFILE_WEIGHT;
                v[GRADIENTS + 64 + GRID + y] = r * PROFILE_WEIGHT;
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 1e-6 {
            for x in v.iter_mut() {
                *x /= norm;
            }
        }
        v
    }
}

/// Gradient directions told apart.
const DIRECTIONS: usize = 8;

/// Gradient features: 16 blocks of [`DIRECTIONS`].
const GRADIENTS: usize = 16 * DIRECTIONS;

/// Length of the compared vector: gradients, 8x8 ink, then the left and right profiles.
const VECTOR: usize = GRADIENTS + 64 + 2 * GRID;

/// How much the profiles count.
const PROFILE_WEIGHT: f32 = 4.5;

/// How much the ink counts beside the gradients.
const INK_WEIGHT: f32 = 2.0;

/// A normalised glyph vector.
type Vector = [f32; VECTOR];

/// What the classifier made of a glyph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guess {
    /// The most likely digit, 1 to 9.
    pub digit: u8,
    /// Similarity of the best template of that digit (cosine, up to 1).
    pub similarity: f32,
    /// The next best digit (0 when there is none).
    pub second: u8,
    /// Its similarity.
    pub runner_up: f32,
    /// Similarity of the best template that is no digit (-1 when there is none).
    pub not_a_digit: f32,
    /// Confidence from 0 to 1: 1 when the best digit is similar enough and beats the next
    /// one, and everything that is no digit, by a clear margin.
    pub confidence: f32,
}

/// A glyph is torn between its two best digits when the second is this close to the first
/// (cosine similarity; see [`Guess::torn`]): on the development set's photos, blurred 6s, 8s
/// and 9s came within 0.01 to 0.05 of each other, while a mark in an empty cell that the
/// readers took for a 1 (a 4 next) was 0.086 apart.
pub const ALIKE: f32 = 0.05;

impl Guess {
    /// Whether the glyph looks nearly as much like its second digit as like its first (within
    /// [`ALIKE`]) and more like either than like anything that is no digit: one of the two,
    /// which the templates alone cannot tell (for the steps that then decide between them).
    pub fn torn(&self) -> bool {
        self.second != 0
            && self.similarity - self.runner_up <= ALIKE
            && self.not_a_digit < self.runner_up
    }
}

/// A set of templates: each a label (a digit, or [`NOT_A_DIGIT`]) and its features,
/// normalised.
pub struct Templates {
    items: Vec<(u8, Vector)>,
}

impl Templates {
    /// Templates from described glyphs (digits 1 to 9, and [`NOT_A_DIGIT`]; other labels are
    /// left out).
    pub fn new(items: impl IntoIterator<Item = (u8, Features)>) -> Templates {
        let items = items
            .into_iter()
            .filter(|(d, _)| (0..=9).contains(d))
            .map(|(d, f)| (d, f.normalised()))
            .collect();
        Templates { items }
    }

    /// How many templates there are (of digits and of glyphs that are none).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Names the digit a glyph shows, with a confidence. `None` when there are no templates.
    pub fn classify(&self, glyph: &Features) -> Option<Guess> {
        self.score(glyph).guess(&[false; 10])
    }

    /// The glyph's vector and its similarity to the best template of each digit (and, at
    /// index [`NOT_A_DIGIT`], of the glyphs that are none).
    pub fn score(&self, glyph: &Features) -> Scores {
        let vector = glyph.normalised();
        let mut best = [f32::NEG_INFINITY; 10];
        for (digit, t) in &self.items {
            let s = dot(&vector, t);
            let slot = &mut best[usize::from(*digit)];
            if s > *slot {
                *slot = s;
            }
        }
        Scores { glyph: glyph.clone(), vector, best }
    }
}

/// The direction of the vector `(x, y)` in `0..TAU`, as `y.atan2(x)` within 1e-5 radians but
/// without a library call (every pixel of every template and glyph needs one: the templates
/// are made ready at each start).
fn direction(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI, TAU};
    // Written as choices between values, without an early return, so that loops over it
    // vectorise.
    let (ax, ay) = (x.abs(), y.abs());
    let (lo, hi) = if ax < ay { (ax, ay) } else { (ay, ax) };
    let a = lo / if hi == 0.0 { 1.0 } else { hi };
    let s = a * a;
    // A minimax polynomial for atan on 0..=1.
    let r = ((((0.0208351 * s - 0.085133) * s + 0.180141) * s - 0.3302995) * s + 0.999866) * a;
    let r = if ay > ax { FRAC_PI_2 - r } else { r };
    let r = if x < 0.0 { PI - r } else { r };
    let r = if y < 0.0 { -r } else { r };
    let r = if r < 0.0 { r + TAU } else { r.min(TAU - f32::EPSILON) };
    if hi == 0.0 { 0.0 } else { r }
}

/// The dot product, in eight lanes so that it vectorises.
fn dot(a: &Vector, b: &Vector) -> f32 {
    let mut lanes = [0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for ((lane, p), q) in lanes.iter_mut().zip(x).zip(y) {
            *lane += p * q;
        }
    }
    lanes.iter().sum()
}

/// A glyph against the templates: its features, its vector and the best similarity of each
/// digit (index [`NOT_A_DIGIT`]: of the glyphs that are no digit).
#[derive(Clone, Debug)]
pub struct Scores {
    glyph: Features,
    vector: Vector,
    best: [f32; 10],
}

impl Scores {
    /// The features of the glyph scored, as the cell reader made them.
    pub fn glyph(&self) -> &Features {
        &self.glyph
    }

    /// Cosine similarity of two glyphs (for comparing glyphs drawn in the same font).
    pub fn similarity(&self, other: &Scores) -> f32 {
        dot(&self.vector, &other.vector)
    }

    /// The best digit and its confidence, leaving the digits in `ruled_out` out of the
    /// contest for runner-up (they may still win: a ruled-out winner is returned with no
    /// confidence). A glyph that is no digit and comes within [`OPEN_MARGIN`] of the best
    /// digit takes the confidence away whatever is ruled out. `None` when there are no digit
    /// templates.
    pub fn guess(&self, ruled_out: &[bool; 10]) -> Option<Guess> {
        let best = &self.best;
        let mut order: Vec<u8> = (1..=9).filter(|&d| best[usize::from(d)].is_finite()).collect();
        order.sort_by(|&a, &b| best[usize::from(b)].total_cmp(&best[usize::from(a)]));
        let digit = *order.first()?;
        let similarity = best[usize::from(digit)];
        let second = order.iter().skip(1).find(|&&d| !ruled_out[usize::from(d)]).copied();
        let runner_up = second.map_or(-1.0, |d| best[usize::from(d)]);
        let margin = ((similarity - runner_up) / FULL_MARGIN).clamp(0.0, 1.0);
        let absolute = ((similarity - MIN_SIMILARITY) / 0.08).clamp(0.0, 1.0);
        let not_a_digit = best[usize::from(NOT_A_DIGIT)].max(-1.0);
        let open = ((similarity - not_a_digit) / OPEN_MARGIN).clamp(0.0, 1.0);
        let confidence =
            if ruled_out[usize::from(digit)] { 0.0 } else { margin.min(absolute).min(open) };
        Some(Guess {
            digit,
            similarity,
            second: second.unwrap_or(0),
            runner_up,
            not_a_digit,
            confidence,
        })
    }
}

/// Reads a template file's bytes (see [`TEMPLATE_MAGIC`]).
pub fn parse_templates(data: &[u8]) -> Templates {
    let body = data.strip_prefix(TEMPLATE_MAGIC.as_slice()).unwrap_or(&[]);
    Templates::new(body.chunks_exact(FEATURES + 1).map(|record| {
        let mut f = [0f32; FEATURES];
        for (o, b) in f.iter_mut().zip(&record[1..]) {
            *o = f32::from(*b) / 255.0;
        }
        (record[0], Features(f))
    }))
}

/// The built-in templates.
pub fn builtin() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| parse_templates(TEMPLATE_DATA))
}

/// The built-in templates' mean ink of each label (index [`NOT_A_DIGIT`]: of the glyphs that
/// are no digit), zero for a label without templates: where two digits' ink differs on
/// average (see [`super::differ`]).
pub(super) fn mean_ink() -> &'static [Features; 10] {
    static MEANS: OnceLock<[Features; 10]> = OnceLock::new();
    MEANS.get_or_init(|| {
        let body = TEMPLATE_DATA.strip_prefix(TEMPLATE_MAGIC.as_slice()).unwrap_or(&[]);
        let mut sums = [[0f32; FEATURES]; 10];
        let mut counts = [0u32; 10];
        for record in body.chunks_exact(FEATURES + 1) {
            let label = usize::from(record[0]);
            let (Some(sum), Some(count)) = (sums.get_mut(label), counts.get_mut(label)) else {
                continue;
            };
            *count += 1;
            for (o, b) in sum.iter_mut().zip(&record[1..]) {
                *o += f32::from(*b) / 255.0;
            }
        }
        std::array::from_fn(|label| {
            let n = counts[label].max(1) as f32;
            Features(sums[label].map(|v| v / n))
        })
    })
}

/// How many templates are built in (0 means the template file is missing or damaged).
pub fn template_count() -> usize {
    builtin().len()
}

/// Names the digit a glyph shows with the built-in templates.
pub fn classify(glyph: &Features) -> Option<Guess> {
    builtin().classify(glyph)
}

/// The network's probability at which its reading counts as certain on its own (when the
/// templates' best digit is another, the read is uncertain whatever the probability).
/// Calibrated on the development set of real pictures with the committee of
/// `examples/train_digits.rs`: at bars of 0.97, 0.93, 0.9, 0.85 and 0.8 it read 152, 156, 157,
/// 156 and 156 of the 206 photos exactly, none wrong, and its closest call stayed at or under
/// 0.51 (the bar of a certain read is 0.75).
pub const NET_BAR: f32 = 0.9;

/// The network's probability at which its reading stands against the board's own font (a
/// glyph unlike the board's other examples of its digit, or like those of another digit: the
/// same digit differs more than that in a photo).
pub const NET_OVERRULE: f32 = 0.995;

/// The value a glyph shows on a board of `side` values, and the confidence of the read: the
/// network ([`super::classifier`]) and the templates together. Where they name the same
/// digit, the more confident of the two counts; where they differ, the read is uncertain
/// unless the network is past [`NET_BAR`] and the templates are not sure of theirs. A letter
/// (A to G, values 10 to 16) is only read by the network. Also whether the network's
/// probability is past [`NET_OVERRULE`]. `None` when neither names a value.
pub fn name(features: &Features, score: &Scores, side: usize) -> Option<(u8, f32, bool)> {
    named(features, score, side).map(|(v, c, sure, _)| (v, c, sure))
}

/// [`name`], with the network's own reading (all zero when there is no network).
pub fn named(
    features: &Features,
    score: &Scores,
    side: usize,
) -> Option<(u8, f32, bool, super::classifier::Reading)> {
    let template = score.guess(&[false; 10]);
    let Some(net) = super::classifier::builtin() else {
        return template.map(|g| (g.digit, g.confidence, false, Default::default()));
    };
    let reading = super::classifier::read(net, features, side);
    let net_confidence = certainty(reading.probability);
    let sure = reading.probability >= NET_OVERRULE;
    match (reading.value, template) {
        (0, Some(g)) => Some((g.digit, 0.0, false, reading)),
        (0, None) => None,
        (v, Some(g)) if g.digit == v => Some((v, net_confidence.max(g.confidence), sure, reading)),
        (v, Some(g)) if g.confidence >= super::CERTAIN => Some((v, 0.0, false, reading)),
        (v, _) => Some((v, net_confidence, sure, reading)),
    }
}

/// A probability of the network as a confidence: [`super::CERTAIN`] exactly at [`NET_BAR`].
fn certainty(probability: f32) -> f32 {
    let c = super::CERTAIN;
    let bar = NET_BAR;
    if probability >= bar {
        c + (1.0 - c) * (probability - bar) / (1.0 - bar).max(1e-6)
    } else {
        c * probability / bar
    }
    .clamp(0.0, 1.0)
}

/// The features of the glyph in the cell between the lines at `x0..=x1`, `y0..=y1`, made as
/// the board reader makes them; `None` when the cell holds no single large glyph. For the
/// trainer of [`super::classifier`], which passes its rendered cells through it.
pub fn cell_features(
    image: super::Rgba<'_>,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
) -> Option<Features> {
    if x0 >= x1 || y0 >= y1 || x1 >= image.width() || y1 >= image.height() {
        return None;
    }
    match super::cells::cell_content(image, x0, y0, x1, y1) {
        super::cells::Content::Glyph(features, _) => Some(*features),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::TAU;

    #[test]
    fn direction_is_atan2_within_a_hair() {
        let mut worst = 0f32;
        for i in 0..4000 {
            let t = i as f32 / 4000.0 * TAU;
            let r = 1.0 + (i % 7) as f32;
            let (x, y) = (t.cos() * r, t.sin() * r);
            let want = y.atan2(x).rem_euclid(TAU);
            let got = super::direction(y, x);
            assert!((0.0..TAU).contains(&got), "{got} for ({x}, {y})");
            let d = (want - got).abs();
            worst = worst.max(d.min(TAU - d));
        }
        assert!(worst < 2e-5, "off by {worst} radians");
    }
}
