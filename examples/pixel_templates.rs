//! Rebuilds the templates of the pixel reader (`src/pixels/templates.bin`) from fonts rendered
//! by `ab_glyph`: the digits 1 to 9, and letters and signs shaped like digits ([`NOT_DIGITS`],
//! labelled [`digits::NOT_A_DIGIT`]) so that a board showing them is refused rather than read.
//! The fonts come from Debian packages:
//!
//! ```text
//! apt-get install fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-noto-core \
//!     fonts-lato fonts-open-sans fonts-roboto-unhinted fonts-cantarell
//! cargo run --example pixel_templates            # writes src/pixels/templates.bin
//! cargo run --example pixel_templates -- --check # leave-one-vendor-out margins, writes nothing
//! ```
//!
//! `--check` builds templates from all but one vendor (DejaVu, Liberation, Noto, the rest) and
//! reads the left-out vendor's digits with them: the margins of right and wrong guesses on fonts not
//! in the templates, which is what the confidence thresholds in `digits.rs` are set from.
//!
//! Only the training fonts below are used. The URW base35 and FreeFont families are kept out
//! on purpose: the tests read boards drawn in them, so they measure fonts never seen.

use std::process::ExitCode;

use ab_glyph::{Font, FontVec, PxScale};
use sudobot::pixels::digits;

/// The training fonts: (package, path).
const TRAINING: &[(&str, &str)] = &[
    ("fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    ("fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"),
    ("fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"),
    ("fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
    ("fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"),
    ("fonts-dejavu-extra", "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf"),
    ("fonts-dejavu-extra", "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed.ttf"),
    ("fonts-dejavu-extra", "/usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf"),
    ("fonts-liberation", "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
    ("fonts-liberation", "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"),
    ("fonts-liberation", "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf"),
    ("fonts-liberation", "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"),
    ("fonts-liberation", "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf"),
    ("fonts-liberation", "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf"),
    ("fonts-liberation", "/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf"),
    ("fonts-noto-core", "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"),
    ("fonts-noto-core", "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"),
    ("fonts-noto-core", "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"),
    ("fonts-noto-core", "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf"),
    ("fonts-noto-core", "/usr/share/fonts/truetype/noto/NotoSansDisplay-Regular.ttf"),
    ("fonts-noto-core", "/usr/share/fonts/truetype/noto/NotoSerifDisplay-Regular.ttf"),
    ("fonts-lato", "/usr/share/fonts/truetype/lato/Lato-Regular.ttf"),
    ("fonts-lato", "/usr/share/fonts/truetype/lato/Lato-Bold.ttf"),
    ("fonts-open-sans", "/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf"),
    ("fonts-open-sans", "/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf"),
    (
        "fonts-roboto-unhinted",
        "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
    ),
    (
        "fonts-roboto-unhinted",
        "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    ),
    (
        "fonts-roboto-unhinted",
        "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Regular.ttf",
    ),
    ("fonts-cantarell", "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf"),
    ("fonts-cantarell", "/usr/share/fonts/opentype/cantarell/Cantarell-Bold.otf"),
];

/// Glyph heights rendered (pixels per em): small ones carry the blur of small cells.
const SIZES: &[f32] = &[22.0, 44.0];

/// Glyphs that are no digit but look like one in some font (`Z` like 2, `S` and `$` like 5, `b`
/// and `G` like 6, `T` like 7, `B` and `&` like 8, `g` and `q` like 9, `t` and `f` like 1, ...),
/// drawn once per font at [`NOT_DIGIT_SIZE`]. Plain bars (`l`, `I`, `|`) are left out: in serif
/// fonts a 1 is a bar with serifs too, and with them the 1s of Times-like fonts were refused
/// (boards rendered by Chromium read exactly: 60 of 120 with them, 67 without). The pixel tests
/// also read glyphs left out of this list, to measure what it does for glyphs it never saw.
const NOT_DIGITS: &[char] = &[
    '!', 'i', 'j', 'J', 'Z', 'z', 'S', 's', '$', 'B', '&', 'O', 'o', '0', 'Q', 'g', 'q', 'b', 'G',
    'A', 'T', '?', '@', 't', 'f', 'a', '%', '#',
];

/// The size the glyphs of [`NOT_DIGITS`] are drawn at (one size keeps the file under 1 MB).
const NOT_DIGIT_SIZE: f32 = 44.0;

/// A described glyph: vendor, digit, size, features, and whether it is the glyph as drawn
/// (not a variant).
type Glyph = (&'static str, u8, f32, digits::Features, bool);

/// Coverage: width, height, ink from 0 to 1.
type Ink = (usize, usize, Vec<f32>);

/// Variants of a glyph's ink: 15% narrower, 18% wider, a pixel bolder, a pixel lighter.
fn variants(ink: &Ink) -> Vec<Ink> {
    let (w, h, v) = ink;
    let stretch = |k: f32| -> Ink {
        let nw = ((*w as f32) * k).round().max(1.0) as usize;
        let mut out = vec![0f32; nw * h];
        for y in 0..*h {
            for x in 0..nw {
                let sx = (x as f32 + 0.5) / k - 0.5;
                let x0 = sx.floor().max(0.0) as usize;
                let x1 = (x0 + 1).min(w - 1);
                let t = (sx - x0 as f32).clamp(0.0, 1.0);
                out[y * nw + x] = v[y * w + x0.min(w - 1)] * (1.0 - t) + v[y * w + x1] * t;
            }
        }
        (nw, *h, out)
    };
    let morph = |bold: bool| -> Ink {
        let mut out = v.clone();
        for y in 0..*h {
            for x in 0..*w {
                let mut m = v[y * w + x];
                for (dx, dy) in [(1usize, 0usize), (0, 1), (1, 1)] {
                    let n = if x >= dx && y >= dy { v[(y - dy) * w + x - dx] } else { 0.0 };
                    m = if bold { m.max(n) } else { m.min(n) };
                }
                out[y * w + x] = m;
            }
        }
        (*w, *h, out)
    };
    vec![stretch(0.85), stretch(1.18), morph(true), morph(false)]
}

fn main() -> ExitCode {
    let check = std::env::args().any(|a| a == "--check");
    let out = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_else(|| "src/pixels/templates.bin".into());
    let mut data = digits::TEMPLATE_MAGIC.to_vec();
    let mut count = 0;
    let mut glyphs: Vec<Glyph> = Vec::new();
    for (package, path) in TRAINING {
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("pixel_templates: {path} is missing: apt-get install {package}");
            return ExitCode::FAILURE;
        };
        let Ok(font) = FontVec::try_from_vec(bytes) else {
            eprintln!("pixel_templates: {path} is not a font ab_glyph reads");
            return ExitCode::FAILURE;
        };
        for &size in SIZES {
            for digit in 1..=9u8 {
                let Some(ink) = render(&font, char::from(b'0' + digit), size) else {
                    eprintln!("pixel_templates: {path} has no outline for {digit}");
                    return ExitCode::FAILURE;
                };
                let original = digits::features(ink.0, ink.1, &ink.2);
                let Some(original) = original else {
                    eprintln!("pixel_templates: {path}: digit {digit} drew no ink at {size}px");
                    return ExitCode::FAILURE;
                };
                // The glyph as drawn (the probe of --check), then variants that widen the
                // templates' reach: narrower, wider, bolder and lighter strokes.
                glyphs.push((vendor(path), digit, size, original.clone(), true));
                for variant in variants(&ink) {
                    if let Some(f) = digits::features(variant.0, variant.1, &variant.2) {
                        glyphs.push((vendor(path), digit, size, f, false));
                    }
                }
            }
        }
        for &ch in NOT_DIGITS {
            // A font without the glyph would draw its missing-glyph box.
            if font.glyph_id(ch).0 == 0 {
                continue;
            }
            let Some(ink) = render(&font, ch, NOT_DIGIT_SIZE) else { continue };
            if let Some(f) = digits::features(ink.0, ink.1, &ink.2) {
                glyphs.push((vendor(path), digits::NOT_A_DIGIT, NOT_DIGIT_SIZE, f, false));
            }
        }
    }
    if check {
        cross_check(&glyphs);
        return ExitCode::SUCCESS;
    }
    for g in &glyphs {
        data.push(g.1);
        data.extend_from_slice(&g.3.to_bytes());
        count += 1;
    }
    if let Err(e) = std::fs::write(&out, &data) {
        eprintln!("pixel_templates: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("pixel_templates: {count} templates, {} bytes, written to {out}", data.len());
    ExitCode::SUCCESS
}

/// One glyph's coverage: width, height and ink from 0 to 1.
fn render(font: &FontVec, ch: char, size: f32) -> Option<Ink> {
    let glyph =
        font.glyph_id(ch).with_scale_and_position(PxScale::from(size), ab_glyph::point(2.0, size));
    let outlined = font.outline_glyph(glyph)?;
    let bounds = outlined.px_bounds();
    let w = bounds.width().ceil() as usize + 2;
    let h = bounds.height().ceil() as usize + 2;
    let mut ink = vec![0f32; w * h];
    outlined.draw(|x, y, c| {
        let (x, y) = (x as usize + 1, y as usize + 1);
        if x < w && y < h {
            ink[y * w + x] = c.clamp(0.0, 1.0);
        }
    });
    Some((w, h, ink))
}

/// The vendor of a font, from its file name.
fn vendor(path: &str) -> &'static str {
    ["DejaVu", "Liberation", "Noto"].into_iter().find(|v| path.contains(v)).unwrap_or("other")
}

/// Reads each vendor's digits with templates from the other vendors and prints the margins.
fn cross_check(glyphs: &[Glyph]) {
    for held in ["DejaVu", "Liberation", "Noto", "other"] {
        let templates = digits::Templates::new(
            glyphs.iter().filter(|g| g.0 != held).map(|g| (g.1, g.3.clone())),
        );
        let mut right = Vec::new();
        let mut wrong = Vec::new();
        for (_, digit, size, f, _) in glyphs.iter().filter(|g| g.0 == held && g.4) {
            let Some(guess) = templates.classify(f) else { continue };
            let margin = guess.similarity - guess.runner_up;
            if guess.digit == *digit {
                right.push((margin, guess.similarity, guess.confidence));
            } else {
                wrong.push((margin, guess.similarity, guess.confidence));
                if std::env::var_os("SHOW").is_some() {
                    for y in 0..digits::GRID {
                        let row: String = (0..digits::GRID)
                            .map(|x| {
                                if f.0[y * digits::GRID + x] > 0.5 {
                                    '#'
                                } else if f.0[y * digits::GRID + x] > 0.2 {
                                    '+'
                                } else {
                                    '.'
                                }
                            })
                            .collect();
                        println!("  {row}");
                    }
                }
                println!(
                    "{held}: {digit} at {size}px read as {} (margin {margin:.3}, similarity {:.3}, confidence {:.2})",
                    guess.digit, guess.similarity, guess.confidence
                );
            }
        }
        right.sort_by(|a, b| a.0.total_cmp(&b.0));
        let p = |q: f32| {
            right
                .get(((right.len() as f32 * q) as usize).min(right.len().saturating_sub(1)))
                .map_or(0.0, |r| r.0)
        };
        let certain_right = right.iter().filter(|r| r.2 >= sudobot::pixels::CERTAIN).count();
        let certain_wrong = wrong.iter().filter(|r| r.2 >= sudobot::pixels::CERTAIN).count();
        println!(
            "held out {held}: {} right ({certain_right} certain), {} wrong ({certain_wrong} certain); right margins: min {:.3} p5 {:.3} p50 {:.3}",
            right.len(),
            wrong.len(),
            p(0.0),
            p(0.05),
            p(0.5)
        );
    }
}
