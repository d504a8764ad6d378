//! Trains the pixel reader's glyph classifier (`src/pixels/classifier.bin`, see
//! `sudobot::pixels::classifier`): a committee of five small networks, from fonts of Debian's
//! font packages:
//!
//! ```text
//! bash .ci/deps train        # or: apt-get install the packages it names
//! cargo run --release --example train_digits             # writes src/pixels/classifier.bin
//! cargo run --release --example train_digits -- --check  # trains, scores, writes nothing
//! ```
//!
//! Every sample is a cell drawn from scratch: a glyph of a training font at a random size and
//! place, slanted, turned, stretched and seen in perspective a little, its strokes made
//! bolder or thinner, sometimes seen at a lower resolution (as a webcam or a far phone sees a
//! newspaper), blurred, in random colours on a random background with uneven light, noise,
//! and sometimes JPEG. The cell goes through the board reader's own cell code
//! (`digits::cell_features`), so the network learns from what it will be shown. Each member
//! draws its own samples from its own seed ([`SEEDS`]): the same fonts give the same weights,
//! bit for bit. One thread a member: about 40 s of CPU each, all five in under three minutes
//! on two cores.
//!
//! The FreeFont families and URW Gothic are held out: the reader's tests read glyphs drawn in
//! them, and this trainer reports its accuracy on them.

use std::process::ExitCode;

use ab_glyph::{Font, FontVec, PxScale};
use sudobot::pixels::Rgba;
use sudobot::pixels::classifier::{CLASSES, Committee, Layer, MAGIC, Net, OTHER};
use sudobot::pixels::digits::{self, FEATURES, Features};

/// Fonts trained on, in the folders of their packages.
const TRAINING: &[&str] = &[
    "truetype/dejavu/DejaVuSans.ttf",
    "truetype/dejavu/DejaVuSans-Bold.ttf",
    "truetype/dejavu/DejaVuSans-ExtraLight.ttf",
    "truetype/dejavu/DejaVuSansCondensed.ttf",
    "truetype/dejavu/DejaVuSansMono.ttf",
    "truetype/dejavu/DejaVuSansMono-Bold.ttf",
    "truetype/dejavu/DejaVuSerif.ttf",
    "truetype/dejavu/DejaVuSerif-Bold.ttf",
    "truetype/dejavu/DejaVuSerifCondensed.ttf",
    "truetype/liberation/LiberationSans-Regular.ttf",
    "truetype/liberation/LiberationSans-Bold.ttf",
    "truetype/liberation/LiberationSansNarrow-Regular.ttf",
    "truetype/liberation/LiberationSerif-Regular.ttf",
    "truetype/liberation/LiberationSerif-Bold.ttf",
    "truetype/liberation/LiberationMono-Regular.ttf",
    "truetype/liberation/LiberationMono-Bold.ttf",
    "truetype/noto/NotoSans-Regular.ttf",
    "truetype/noto/NotoSans-Bold.ttf",
    "truetype/noto/NotoSans-Italic.ttf",
    "truetype/noto/NotoSerif-Regular.ttf",
    "truetype/noto/NotoSerif-Bold.ttf",
    "truetype/noto/NotoSansDisplay-Regular.ttf",
    "truetype/noto/NotoSerifDisplay-Bold.ttf",
    "truetype/lato/Lato-Regular.ttf",
    "truetype/lato/Lato-Bold.ttf",
    "truetype/lato/Lato-Light.ttf",
    "truetype/lato/Lato-Black.ttf",
    "truetype/open-sans/OpenSans-Regular.ttf",
    "truetype/open-sans/OpenSans-Bold.ttf",
    "truetype/open-sans/OpenSans-Light.ttf",
    "truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
    "truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    "truetype/roboto/unhinted/RobotoTTF/Roboto-Light.ttf",
    "truetype/roboto/unhinted/RobotoCondensed-Regular.ttf",
    "opentype/cantarell/Cantarell-Regular.otf",
    "opentype/cantarell/Cantarell-Bold.otf",
    "opentype/urw-base35/NimbusSans-Regular.otf",
    "opentype/urw-base35/NimbusSans-Bold.otf",
    "opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "opentype/urw-base35/NimbusRoman-Regular.otf",
    "opentype/urw-base35/NimbusRoman-Bold.otf",
    "opentype/urw-base35/NimbusMonoPS-Regular.otf",
    "opentype/urw-base35/C059-Roman.otf",
    "opentype/urw-base35/C059-Bold.otf",
    "opentype/urw-base35/P052-Roman.otf",
    "opentype/urw-base35/P052-Bold.otf",
    "opentype/urw-base35/URWBookman-Light.otf",
    "opentype/urw-base35/URWBookman-Demi.otf",
    // Fonts whose 4 is open at the top, as some newspapers print it.
    "truetype/andika/Andika-Regular.ttf",
    "truetype/andika/Andika-Bold.ttf",
    "opentype/comic-neue/ComicNeue-Regular.otf",
    "opentype/comic-neue/ComicNeue-Bold.otf",
    "opentype/b612/B612-Regular.otf",
    "opentype/b612/B612-Bold.otf",
    "truetype/quicksand/Quicksand-Regular.ttf",
    "truetype/quicksand/Quicksand-Bold.ttf",
];

/// Fonts held out of training, scored after it.
const HELD_OUT: &[&str] = &[
    "truetype/freefont/FreeSans.ttf",
    "truetype/freefont/FreeSansBold.ttf",
    "truetype/freefont/FreeSerif.ttf",
    "truetype/freefont/FreeSerifBold.ttf",
    "truetype/freefont/FreeMono.ttf",
    "truetype/freefont/FreeMonoBold.ttf",
    "opentype/urw-base35/URWGothic-Book.otf",
    "opentype/urw-base35/URWGothic-Demi.otf",
];

/// Glyphs that are no value of any board ([`OTHER`]). Bars (`l`, `I`, `|`) are left out: in
/// serif fonts a 1 is a bar with serifs too.
const OTHERS: &str = "0OoQqZzSs$&!?@#%TtfJjiHKLMNPRUVWXYhkmnprsuvwxy";

/// The share of samples seen at a lower resolution (see [`Gray::shrink`]).
const SHRINKS: f32 = 0.4;

/// The seeds of the committee's members (see `sudobot::pixels::classifier::Committee`), one
/// network each: 34 drew the single network the reader had before.
const SEEDS: [u64; 5] = [34, 1, 2, 3, 4];

/// Training samples drawn, and passes over them.
const SAMPLES: usize = 96_000;
const EPOCHS: usize = 10;

/// Hidden units.
const HIDDEN: [usize; 2] = [128, 64];

/// Samples scored per held-out font.
const PROBES: usize = 1_500;

/// The characters of a class.
fn chars_of(class: usize) -> Vec<char> {
    match class {
        OTHER => OTHERS.chars().collect(),
        1..=9 => vec![char::from(b'0' + class as u8)],
        _ => {
            let k = (class - 10) as u8;
            vec![char::from(b'A' + k), char::from(b'a' + k)]
        }
    }
}

/// A grey image of coverage, 0 to 1.
struct Gray {
    w: usize,
    h: usize,
    v: Vec<f32>,
}

impl Gray {
    fn at(&self, x: f32, y: f32) -> f32 {
        let (fx, fy) = (x - 0.5, y - 0.5);
        let (ix, iy) = (fx.floor(), fy.floor());
        let (tx, ty) = (fx - ix, fy - iy);
        let get = |x: f32, y: f32| -> f32 {
            if x < 0.0 || y < 0.0 || x >= self.w as f32 || y >= self.h as f32 {
                0.0
            } else {
                self.v[y as usize * self.w + x as usize]
            }
        };
        get(ix, iy) * (1.0 - tx) * (1.0 - ty)
            + get(ix + 1.0, iy) * tx * (1.0 - ty)
            + get(ix, iy + 1.0) * (1.0 - tx) * ty
            + get(ix + 1.0, iy + 1.0) * tx * ty
    }

    /// Bolder (`grow`) or thinner: a 3x3 maximum or minimum, blended by `amount`.
    fn morph(&mut self, grow: bool, amount: f32) {
        let old = self.v.clone();
        for y in 0..self.h {
            for x in 0..self.w {
                let mut m = old[y * self.w + x];
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                        let n = if nx < 0 || ny < 0 || nx >= self.w as i32 || ny >= self.h as i32 {
                            0.0
                        } else {
                            old[ny as usize * self.w + nx as usize]
                        };
                        m = if grow { m.max(n) } else { m.min(n) };
                    }
                }
                let i = y * self.w + x;
                self.v[i] = old[i] + (m - old[i]) * amount;
            }
        }
    }

    /// Seen at a lower resolution: averaged down by `factor` and drawn back up bilinearly, as
    /// a webcam or a far phone sees a small glyph.
    fn shrink(&mut self, factor: f32) {
        let (sw, sh) = (
            ((self.w as f32 / factor).round() as usize).max(2),
            ((self.h as f32 / factor).round() as usize).max(2),
        );
        let (fx, fy) = (self.w as f32 / sw as f32, self.h as f32 / sh as f32);
        let mut small = vec![0f32; sw * sh];
        for (i, slot) in small.iter_mut().enumerate() {
            let (x0, y0) = ((i % sw) as f32 * fx, (i / sw) as f32 * fy);
            let (mut sum, mut n) = (0.0, 0.0);
            let mut y = y0.floor() as usize;
            while (y as f32) < y0 + fy && y < self.h {
                let mut x = x0.floor() as usize;
                while (x as f32) < x0 + fx && x < self.w {
                    sum += self.v[y * self.w + x];
                    n += 1.0;
                    x += 1;
                }
                y += 1;
            }
            *slot = if n > 0.0 { sum / n } else { 0.0 };
        }
        let small = Gray { w: sw, h: sh, v: small };
        for y in 0..self.h {
            for x in 0..self.w {
                let (sx, sy) = ((x as f32 + 0.5) / fx, (y as f32 + 0.5) / fy);
                self.v[y * self.w + x] = small.at(sx, sy);
            }
        }
    }

    /// A box blur of radius 1, blended by `amount`.
    fn blur(&mut self, amount: f32) {
        let old = self.v.clone();
        for y in 0..self.h {
            for x in 0..self.w {
                let mut sum = 0.0;
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                        if nx >= 0 && ny >= 0 && nx < self.w as i32 && ny < self.h as i32 {
                            sum += old[ny as usize * self.w + nx as usize];
                        }
                    }
                }
                let i = y * self.w + x;
                self.v[i] = old[i] + (sum / 9.0 - old[i]) * amount;
            }
        }
    }
}

/// A glyph's coverage at `size` pixels per em, on a margin of 2 pixels.
fn render(font: &FontVec, ch: char, size: f32) -> Option<Gray> {
    let id = font.glyph_id(ch);
    if id.0 == 0 {
        return None;
    }
    let glyph = id.with_scale_and_position(PxScale::from(size), ab_glyph::point(0.0, 0.0));
    let outlined = font.outline_glyph(glyph)?;
    let b = outlined.px_bounds();
    let (w, h) = (b.width() as usize + 4, b.height() as usize + 4);
    let mut v = vec![0f32; w * h];
    outlined.draw(|x, y, c| {
        let i = (y as usize + 2) * w + x as usize + 2;
        if i < v.len() {
            v[i] = c.clamp(0.0, 1.0);
        }
    });
    Some(Gray { w, h, v })
}

/// The height in pixels of a font's 8 at 100 pixels per em.
fn digit_height(font: &FontVec) -> Option<f32> {
    let g =
        font.glyph_id('8').with_scale_and_position(PxScale::from(100.0), ab_glyph::point(0.0, 0.0));
    Some(font.outline_glyph(g)?.px_bounds().height())
}

/// A random number in `lo..hi`.
fn uniform(rng: &mut fastrand::Rng, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * rng.f32()
}

/// Draws one cell showing `ch` in `font` and gives the reader's features of it (`None` when
/// the reader sees no single glyph there, as for a small sign).
fn sample(rng: &mut fastrand::Rng, font: &FontVec, eight: f32, ch: char) -> Option<Features> {
    let cell = rng.usize(18..76);
    // The glyph's size: an 8 fills this share of the cell.
    let share = uniform(rng, 0.42, 0.8);
    let ss = 2.0; // drawn at twice the size, sampled down
    let size = share * cell as f32 * 100.0 / eight * ss;
    let mut g = render(font, ch, size)?;
    if rng.f32() < 0.4 {
        let grow = rng.bool();
        let times = rng.usize(1..=2);
        for _ in 0..times {
            g.morph(grow, uniform(rng, 0.4, 1.0));
        }
    }
    // Geometry: the cell's pixel (u, v) shows the glyph at (a u + b v + c) / (g u + h v + 1).
    let angle = uniform(rng, -0.1, 0.1);
    let shear = uniform(rng, -0.22, 0.22);
    let stretch = uniform(rng, 0.82, 1.2);
    let (persp_x, persp_y) = (uniform(rng, -0.004, 0.004), uniform(rng, -0.004, 0.004));
    let (cos, sin) = (angle.cos(), angle.sin());
    let c = cell as f32;
    let (ox, oy) = (uniform(rng, -0.1, 0.1) * c, uniform(rng, -0.1, 0.1) * c);
    let margin = 3usize;
    let side = cell + 2 * margin;
    let mut ink = vec![0f32; side * side];
    for (i, slot) in ink.iter_mut().enumerate() {
        let (px, py) = ((i % side) as f32 + 0.5, (i / side) as f32 + 0.5);
        let (u, v) = (px - side as f32 / 2.0 - ox, py - side as f32 / 2.0 - oy);
        let d = 1.0 + persp_x * u + persp_y * v;
        let (u, v) = (u / d, v / d);
        let (u, v) = (cos * u - sin * v, sin * u + cos * v);
        let (u, v) = (u / stretch + shear * v, v);
        let (gx, gy) = (u * ss + g.w as f32 / 2.0, v * ss + g.h as f32 / 2.0);
        // 2x2 samples for the half-size pixel
        let mut s = 0.0;
        for (dx, dy) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)] {
            s += g.at(gx + dx, gy + dy);
        }
        *slot = s / 4.0;
    }
    let mut gray = Gray { w: side, h: side, v: ink };
    if rng.f32() < SHRINKS {
        gray.shrink(uniform(rng, 1.5, 3.2));
    }
    let blurs = rng.usize(0..=2);
    for _ in 0..blurs {
        gray.blur(uniform(rng, 0.3, 1.0));
    }
    let rgba = paint(rng, &gray);
    let image = Rgba::new(side.max(40), side.max(40), &rgba).ok()?;
    let last = margin + cell - 1;
    digits::cell_features(image, (margin, margin, last, last))
}

/// The coverage painted in colours: ink on paper or a screen, light uneven, noise, and
/// sometimes JPEG. The image is at least 40 pixels a side (the reader's smallest), the cell in
/// its top left corner.
fn paint(rng: &mut fastrand::Rng, gray: &Gray) -> Vec<u8> {
    let dark = rng.f32() < 0.2;
    let tone = |rng: &mut fastrand::Rng, lo: f32, hi: f32| -> [f32; 3] {
        let base = uniform(rng, lo, hi);
        let tint = uniform(rng, 0.0, 30.0);
        [base + uniform(rng, -1.0, 1.0) * tint, base, base + uniform(rng, -1.0, 1.0) * tint]
    };
    let paper = if dark { tone(rng, 10.0, 70.0) } else { tone(rng, 150.0, 255.0) };
    let ink = match (dark, rng.usize(0..4)) {
        (false, 0) => {
            [uniform(rng, 0.0, 90.0), uniform(rng, 40.0, 140.0), uniform(rng, 140.0, 255.0)]
        }
        (false, _) => tone(rng, 0.0, 90.0),
        (true, 0) => {
            [uniform(rng, 60.0, 160.0), uniform(rng, 140.0, 220.0), uniform(rng, 200.0, 255.0)]
        }
        (true, _) => tone(rng, 170.0, 255.0),
    };
    let strength = uniform(rng, 0.55, 1.0);
    let (lx, ly) = (uniform(rng, -40.0, 40.0), uniform(rng, -40.0, 40.0));
    let noise = if rng.f32() < 0.5 { uniform(rng, 0.0, 14.0) } else { 0.0 };
    let side = gray.w.max(40);
    let mut out = vec![255u8; side * side * 4];
    for y in 0..side {
        for x in 0..side {
            let cov = if x < gray.w && y < gray.h { gray.v[y * gray.w + x] } else { 0.0 };
            let light = (lx * x as f32 + ly * y as f32) / side as f32;
            let n = noise * (rng.f32() + rng.f32() + rng.f32() - 1.5);
            let i = (y * side + x) * 4;
            for k in 0..3 {
                let v = paper[k] + (ink[k] - paper[k]) * cov * strength + light + n;
                out[i + k] = v.clamp(0.0, 255.0) as u8;
            }
        }
    }
    if rng.f32() < 0.35 {
        let quality = rng.u8(25..90);
        if let Some(jpeg) = jpeg_round_trip(&out, side, quality) {
            return jpeg;
        }
    }
    out
}

/// The image encoded as JPEG and decoded again.
fn jpeg_round_trip(rgba: &[u8], side: usize, quality: u8) -> Option<Vec<u8>> {
    let rgb: Vec<u8> = rgba.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut bytes = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality);
    image::ImageEncoder::write_image(
        encoder,
        &rgb,
        side as u32,
        side as u32,
        image::ExtendedColorType::Rgb8,
    )
    .ok()?;
    let decoded = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).ok()?;
    Some(decoded.to_rgba8().into_raw())
}

/// Samples: a class and the network's input.
type Data = Vec<(usize, Vec<f32>)>;

/// Loaded fonts with the height of their 8.
fn load(paths: &[&str]) -> Result<Vec<(String, FontVec, f32)>, String> {
    let mut out = Vec::new();
    for p in paths {
        let path = format!("/usr/share/fonts/{p}");
        let bytes = std::fs::read(&path)
            .map_err(|e| format!("{path}: {e} (bash .ci/deps train installs the fonts)"))?;
        let font = FontVec::try_from_vec(bytes).map_err(|e| format!("{path}: {e}"))?;
        let eight = digit_height(&font).ok_or_else(|| format!("{path}: no 8"))?;
        out.push((p.to_string(), font, eight));
    }
    Ok(out)
}

/// Samples: (class, input), the classes in turn so that every class is as common (the
/// glyphs that are no value twice as common).
fn draw(rng: &mut fastrand::Rng, fonts: &[(String, FontVec, f32)], n: usize) -> Data {
    let mut out = Vec::with_capacity(n);
    let order: Vec<usize> = std::iter::once(OTHER).chain(0..CLASSES).collect();
    let mut k = 0;
    while out.len() < n {
        let class = order[k % order.len()];
        k += 1;
        let chars = chars_of(class);
        let ch = chars[rng.usize(0..chars.len())];
        let (_, font, eight) = &fonts[rng.usize(0..fonts.len())];
        if let Some(f) = sample(rng, font, *eight, ch) {
            out.push((class, Net::input(&f)));
        }
    }
    out
}

/// A network of random weights (He initialisation).
fn initial(rng: &mut fastrand::Rng) -> Net {
    let sizes = [FEATURES, HIDDEN[0], HIDDEN[1], CLASSES];
    let layers = sizes
        .windows(2)
        .map(|s| {
            let mut l = Layer::zeros(s[0], s[1]);
            let bound = (6.0 / s[0] as f32).sqrt();
            l.weights.iter_mut().for_each(|w| *w = uniform(rng, -bound, bound));
            l
        })
        .collect();
    Net { layers }
}

/// One pass of stochastic gradient descent with momentum over `data` in a shuffled order.
fn epoch(
    net: &mut Net,
    velocity: &mut [Layer],
    data: &[(usize, Vec<f32>)],
    order: &[usize],
    rate: f32,
) -> f32 {
    const BATCH: usize = 32;
    const MOMENTUM: f32 = 0.9;
    const DECAY: f32 = 1e-5;
    let mut grads: Vec<Layer> =
        net.layers.iter().map(|l| Layer::zeros(l.inputs, l.outputs)).collect();
    let mut loss = 0.0;
    for batch in order.chunks(BATCH) {
        grads.iter_mut().for_each(|g| {
            g.weights.iter_mut().for_each(|w| *w = 0.0);
            g.biases.iter_mut().for_each(|b| *b = 0.0);
        });
        for &i in batch {
            let (class, x) = &data[i];
            loss += backward(net, &mut grads, x, *class);
        }
        let scale = rate / batch.len() as f32;
        for ((layer, g), v) in net.layers.iter_mut().zip(&grads).zip(velocity.iter_mut()) {
            for ((w, gw), vw) in layer.weights.iter_mut().zip(&g.weights).zip(v.weights.iter_mut())
            {
                *vw = MOMENTUM * *vw - scale * gw - rate * DECAY * *w;
                *w += *vw;
            }
            for ((b, gb), vb) in layer.biases.iter_mut().zip(&g.biases).zip(v.biases.iter_mut()) {
                *vb = MOMENTUM * *vb - scale * gb;
                *b += *vb;
            }
        }
    }
    loss / data.len() as f32
}

/// Adds the gradient of the cross-entropy of one sample to `grads`; gives the loss.
fn backward(net: &Net, grads: &mut [Layer], x: &[f32], class: usize) -> f32 {
    let acts = net.activations(x);
    let probs = &acts[acts.len() - 1];
    let loss = -probs[class].max(1e-9).ln();
    let mut delta: Vec<f32> = probs.clone();
    delta[class] -= 1.0;
    for k in (0..net.layers.len()).rev() {
        let input = if k == 0 { x } else { acts[k - 1].as_slice() };
        let layer = &net.layers[k];
        let g = &mut grads[k];
        for (o, &d) in delta.iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            g.biases[o] += d;
            let row = &mut g.weights[o * layer.inputs..(o + 1) * layer.inputs];
            for (w, &xi) in row.iter_mut().zip(input) {
                *w += d * xi;
            }
        }
        if k > 0 {
            let mut back = vec![0f32; layer.inputs];
            for (o, &d) in delta.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                let row = &layer.weights[o * layer.inputs..(o + 1) * layer.inputs];
                for (b, &w) in back.iter_mut().zip(row) {
                    *b += d * w;
                }
            }
            for (b, &a) in back.iter_mut().zip(&acts[k - 1]) {
                if a <= 0.0 {
                    *b = 0.0;
                }
            }
            delta = back;
        }
    }
    loss
}

/// Scores held-out samples: right, wrong at or above `bar`, and the highest probability of a
/// wrong reading.
fn score(nets: &Committee, data: &[(usize, Vec<f32>)], bar: f32) -> (usize, usize, f32) {
    let (mut right, mut sure_wrong, mut worst) = (0, 0, 0f32);
    for (class, x) in data {
        let p = nets.probabilities_of(x);
        let best = (0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap_or(0);
        if best == *class {
            right += 1;
        } else if best != OTHER {
            worst = worst.max(p[best]);
            if p[best] >= bar {
                sure_wrong += 1;
            }
        }
    }
    (right, sure_wrong, worst)
}

/// One member of the committee: samples drawn and a network trained from `seed`.
fn train(seed: u64, fonts: &[(String, FontVec, f32)]) -> Net {
    let started = std::time::Instant::now();
    let mut rng = fastrand::Rng::with_seed(seed);
    let data = draw(&mut rng, fonts, SAMPLES);
    let mut net = initial(&mut rng);
    let mut velocity: Vec<Layer> =
        net.layers.iter().map(|l| Layer::zeros(l.inputs, l.outputs)).collect();
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut loss = 0.0;
    for e in 0..EPOCHS {
        rng.shuffle(&mut order);
        let rate =
            0.05 * (1.0 + (std::f32::consts::PI * e as f32 / EPOCHS as f32).cos()) / 2.0 + 0.002;
        loss = epoch(&mut net, &mut velocity, &data, &order, rate);
    }
    eprintln!(
        "train_digits: seed {seed}: {} samples, {EPOCHS} passes, loss {loss:.4} ({:.0?})",
        data.len(),
        started.elapsed()
    );
    net
}

fn main() -> ExitCode {
    let check = std::env::args().any(|a| a == "--check");
    let started = std::time::Instant::now();
    let (train_fonts, held_fonts) = match (load(TRAINING), load(HELD_OUT)) {
        (Ok(t), Ok(h)) => (t, h),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("train_digits: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The members are independent: one thread each.
    let members: Vec<Net> = std::thread::scope(|scope| {
        let fonts = &train_fonts;
        let handles: Vec<_> =
            SEEDS.iter().map(|&seed| scope.spawn(move || train(seed, fonts))).collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    if members.len() != SEEDS.len() {
        eprintln!("train_digits: a member's training failed");
        return ExitCode::FAILURE;
    }
    let nets = Committee { members };
    let mut total = (0, 0, 0usize, 0f32);
    for (k, (name, _, _)) in held_fonts.iter().enumerate() {
        let mut probe_rng = fastrand::Rng::with_seed(7);
        let probes = draw(&mut probe_rng, &held_fonts[k..=k], PROBES);
        let (right, wrong, worst) = score(&nets, &probes, digits::NET_BAR);
        eprintln!(
            "train_digits: held out {name}: {right} of {} right, {wrong} wrong at p >= {}, worst wrong p {worst:.3}",
            probes.len(),
            digits::NET_BAR
        );
        total = (total.0 + right, total.1 + probes.len(), total.2 + wrong, total.3.max(worst));
    }
    eprintln!(
        "train_digits: held out: {} of {} right, {} wrong at p >= {}, worst wrong p {:.3}; {:.0?} in all",
        total.0,
        total.1,
        total.2,
        digits::NET_BAR,
        total.3,
        started.elapsed()
    );
    if check {
        return ExitCode::SUCCESS;
    }
    let bytes = nets.to_bytes();
    debug_assert!(bytes.starts_with(MAGIC));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/pixels/classifier.bin");
    if let Err(e) = std::fs::write(path, &bytes) {
        eprintln!("train_digits: {path}: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("train_digits: wrote {path} ({} bytes)", bytes.len());
    ExitCode::SUCCESS
}
