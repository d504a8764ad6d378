//! The pixel reader's speed targets (issue 22): recognising a 9x9 board in a decoded image
//! (target under 10 ms), and decoding a PNG screenshot plus recognising its board.
//!
//! ```text
//! cargo bench --bench pixels                  # all
//! cargo bench --bench pixels -- read/         # recognition only
//! cargo bench --bench pixels -- --quick       # a short run
//! ```
//!
//! The images: the committed phone-like screenshot (`tests/fixtures/pixels/screenshot-9x9.png`,
//! 420x560, a score, a timer and a number pad around the board), and the same screenshot
//! placed on a dark 1920x1080 desktop (encoded here as PNG and as JPEG at quality 90).
//! For the whole `sudobot solve --image` process use hyperfine, e.g.
//! `hyperfine -N -w 3 -r 20 'target/release/sudobot solve --image tests/fixtures/pixels/screenshot-9x9.png'`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sudobot::pixels::{self, RgbaImage};

fn fixture() -> Vec<u8> {
    let path = format!("{}/tests/fixtures/pixels/screenshot-9x9.png", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The screenshot pasted onto a dark 1920x1080 desktop at (700, 260): the desktop is the most
/// common colour, so the board is found against the second (the slower path).
fn full_screen(shot: &RgbaImage) -> RgbaImage {
    let (w, h) = (1920, 1080);
    let mut data: Vec<u8> = [32u8, 33, 36, 255].repeat(w * h);
    for y in 0..shot.height {
        let from = y * shot.width * 4;
        let to = ((260 + y) * w + 700) * 4;
        data[to..to + shot.width * 4].copy_from_slice(&shot.data[from..from + shot.width * 4]);
    }
    RgbaImage { width: w, height: h, data }
}

fn encode(image: &RgbaImage, jpeg: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    let (w, h) = (image.width as u32, image.height as u32);
    if jpeg {
        let rgb: Vec<u8> = image.data.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90)
            .encode(&rgb, w, h, image::ExtendedColorType::Rgb8)
            .expect("encodes");
    } else {
        image::RgbaImage::from_raw(w, h, image.data.clone())
            .expect("sizes match")
            .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
            .expect("encodes");
    }
    bytes
}

fn reader(c: &mut Criterion) {
    let png = fixture();
    let shot = pixels::decode(&png).expect("the fixture decodes");
    let screen = full_screen(&shot);
    let screen_png = encode(&screen, false);
    let screen_jpeg = encode(&screen, true);
    for (name, image) in [("420x560", &shot), ("1920x1080", &screen)] {
        let grid = pixels::read_grid(image.view().expect("size")).expect("the board reads");
        assert_eq!(grid.side(), 9, "{name}: a 9x9 board");
    }

    let mut group = c.benchmark_group("read");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    group.bench_function("9x9 in 420x560", |b| {
        b.iter(|| pixels::read(black_box(shot.view().unwrap())).unwrap())
    });
    group.bench_function("9x9 in 1920x1080", |b| {
        b.iter(|| pixels::read(black_box(screen.view().unwrap())).unwrap())
    });
    group.finish();

    let mut group = c.benchmark_group("decode+read");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, bytes) in
        [("png 420x560", &png), ("png 1920x1080", &screen_png), ("jpeg 1920x1080", &screen_jpeg)]
    {
        group.bench_function(name, |b| {
            b.iter(|| {
                let image = pixels::decode(black_box(bytes)).unwrap();
                pixels::read(image.view().unwrap()).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, reader);
criterion_main!(benches);
