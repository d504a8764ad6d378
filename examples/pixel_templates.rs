//! Rebuilds the digit templates of the pixel reader (`src/pixels/templates.bin`) from fonts
//! rendered by `ab_glyph`. The fonts come from Debian packages:
//!
//! ```text
//! apt-get install fonts-dejavu-core fonts-liberation fonts-noto-core
//! cargo run --example pixel_templates            # writes src/pixels/templates.bin
//! ```
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
];

/// Glyph heights rendered (pixels per em): small ones carry the blur of small cells.
const SIZES: &[f32] = &[16.0, 26.0, 48.0];

fn main() -> ExitCode {
    let out = std::env::args().nth(1).unwrap_or_else(|| "src/pixels/templates.bin".into());
    let mut data = digits::TEMPLATE_MAGIC.to_vec();
    let mut count = 0;
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
                let Some(f) = digits::features(ink.0, ink.1, &ink.2) else {
                    eprintln!("pixel_templates: {path}: digit {digit} drew no ink at {size}px");
                    return ExitCode::FAILURE;
                };
                data.push(digit);
                data.extend_from_slice(&f.to_bytes());
                count += 1;
            }
        }
    }
    if let Err(e) = std::fs::write(&out, &data) {
        eprintln!("pixel_templates: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("pixel_templates: {count} templates, {} bytes, written to {out}", data.len());
    ExitCode::SUCCESS
}

/// One glyph's coverage: width, height and ink from 0 to 1.
fn render(font: &FontVec, ch: char, size: f32) -> Option<(usize, usize, Vec<f32>)> {
    let glyph = font.glyph_id(ch).with_scale_and_position(PxScale::from(size), ab_glyph::point(2.0, size));
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
