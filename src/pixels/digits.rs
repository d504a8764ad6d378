//! Digit recognition: a glyph's ink is scaled into a small square of features, and the
//! nearest templates (rendered from many fonts by `examples/pixel_templates.rs`) vote by
//! similarity. A digit is only named when the best digit beats every other digit by a clear
//! margin; otherwise the caller is told it is unsure.

use std::sync::OnceLock;

/// Side of the feature square: a glyph is scaled to this many rows.
pub const GRID: usize = 16;

/// Number of features in one glyph's description.
pub const FEATURES: usize = GRID * GRID;

/// Ink at or above this intensity (0 to 1) counts for a glyph's bounding box.
const BOX_INK: f32 = 0.35;

/// The templates, as written by `examples/pixel_templates.rs`: the magic, then records of a
/// digit byte and [`FEATURES`] bytes of ink (0 to 255).
const TEMPLATE_DATA: &[u8] = include_bytes!("templates.bin");

/// The first bytes of the template file.
pub const TEMPLATE_MAGIC: &[u8; 8] = b"SBDIGIT1";

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

    /// Blurred, centred and scaled to unit length, ready for cosine similarity.
    fn normalised(&self) -> [f32; FEATURES] {
        let mut blurred = [0f32; FEATURES];
        for y in 0..GRID {
            for x in 0..GRID {
                let mut sum = 0.0;
                let mut weight = 0.0;
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                        if nx < 0 || ny < 0 || nx >= GRID as i32 || ny >= GRID as i32 {
                            continue;
                        }
                        let w = if dx == 0 && dy == 0 { 4.0 } else if dx == 0 || dy == 0 { 2.0 } else { 1.0 };
                        sum += w * self.0[ny as usize * GRID + nx as usize];
                        weight += w;
                    }
                }
                blurred[y * GRID + x] = sum / weight;
            }
        }
        let mean = blurred.iter().sum::<f32>() / FEATURES as f32;
        let mut norm = 0.0;
        for v in blurred.iter_mut() {
            *v -= mean;
            norm += *v * *v;
        }
        let norm = norm.sqrt();
        if norm > 1e-6 {
            for v in blurred.iter_mut() {
                *v /= norm;
            }
        }
        blurred
    }
}

/// What the classifier made of a glyph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guess {
    /// The most likely digit, 1 to 9.
    pub digit: u8,
    /// Similarity of the best template of that digit (cosine, up to 1).
    pub similarity: f32,
    /// The best similarity of any other digit.
    pub runner_up: f32,
    /// Confidence from 0 to 1: 1 when the best digit is similar enough and beats the next
    /// one by a clear margin.
    pub confidence: f32,
}

/// The loaded templates: digit and normalised features.
struct Templates {
    items: Vec<(u8, [f32; FEATURES])>,
}

fn templates() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let mut items = Vec::new();
        let body = TEMPLATE_DATA.strip_prefix(TEMPLATE_MAGIC.as_slice()).unwrap_or(&[]);
        for record in body.chunks_exact(FEATURES + 1) {
            let digit = record[0];
            if !(1..=9).contains(&digit) {
                continue;
            }
            let mut f = [0f32; FEATURES];
            for (o, b) in f.iter_mut().zip(&record[1..]) {
                *o = f32::from(*b) / 255.0;
            }
            items.push((digit, Features(f).normalised()));
        }
        Templates { items }
    })
}

/// How many templates are built in (0 means the template file is missing or damaged).
pub fn template_count() -> usize {
    templates().items.len()
}

/// Names the digit a glyph shows, with a confidence. `None` when there are no templates.
pub fn classify(glyph: &Features) -> Option<Guess> {
    let probe = glyph.normalised();
    let mut best = [f32::NEG_INFINITY; 10];
    for (digit, t) in &templates().items {
        let s: f32 = probe.iter().zip(t.iter()).map(|(a, b)| a * b).sum();
        let slot = &mut best[usize::from(*digit)];
        if s > *slot {
            *slot = s;
        }
    }
    let mut order: Vec<u8> = (1..=9).filter(|&d| best[usize::from(d)].is_finite()).collect();
    order.sort_by(|&a, &b| best[usize::from(b)].total_cmp(&best[usize::from(a)]));
    let digit = *order.first()?;
    let similarity = best[usize::from(digit)];
    let runner_up = order.get(1).map_or(-1.0, |&d| best[usize::from(d)]);
    let margin = ((similarity - runner_up) / FULL_MARGIN).clamp(0.0, 1.0);
    let absolute = ((similarity - MIN_SIMILARITY) / 0.08).clamp(0.0, 1.0);
    Some(Guess { digit, similarity, runner_up, confidence: margin.min(absolute) })
}
