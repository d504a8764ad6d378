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
//! Two more (issue 34): a GNOME-like dark board of tiles on a 1920x1080 desktop, found by its
//! edges (the slowest path for a screenshot, target under 15 ms), and a 12-megapixel photo:
//! the screenshot's board photographed at an angle on grey paper, with uneven light (found
//! by its quadrilateral and warped onto a square, target under 150 ms).
//! Each benchmark runs twice: timed by the wall clock (groups `read` and `decode+read`), and
//! by the processor time of the benchmark's thread (`read-cpu`, `decode+read-cpu`), which a
//! loaded machine disturbs less: `cargo bench --bench pixels -- read-cpu/`.
//! For the whole `sudobot solve --image` process use hyperfine, e.g.
//! `hyperfine -N -w 3 -r 20 'target/release/sudobot solve --image tests/fixtures/pixels/screenshot-9x9.png'`.

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
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

/// A dark theme on a 1920x1080 desktop: tiles of two greys a pixel apart over a lighter line
/// colour, the screenshot's digits copied onto them in white.
fn dark_tiles(shot: &RgbaImage) -> RgbaImage {
    let (w, h) = (1920, 1080);
    let mut data: Vec<u8> = [24u8, 70, 110, 255].repeat(w * h);
    let mut put = |x: usize, y: usize, c: [u8; 3]| {
        data[(y * w + x) * 4..(y * w + x) * 4 + 3].copy_from_slice(&c);
    };
    let (x0, y0, tile) = (700, 240, 60);
    let at = |k: usize| k * (tile + 1) + k / 3;
    let side = at(8) + tile;
    for y in 0..side {
        for x in 0..side {
            let box_line = [3, 6]
                .iter()
                .any(|&k| (at(k) - 2..at(k)).contains(&x) || (at(k) - 2..at(k)).contains(&y));
            put(x0 + x, y0 + y, if box_line { [116, 116, 116] } else { [91, 91, 91] });
        }
    }
    // The screenshot's board is 9 cells of about 37 pixels from (41, 70): each cell's middle
    // is scaled onto a tile; its dark ink drawn white on grey.
    for r in 0..9 {
        for c in 0..9 {
            let fill = if (r * 9 + c) % 3 == 0 { [52, 52, 52] } else { [69, 69, 69] };
            for y in 0..tile {
                for x in 0..tile {
                    let sx = 41 + c * 37 + 2 + x * 33 / tile;
                    let sy = 70 + r * 37 + 2 + y * 33 / tile;
                    let i = (sy * shot.width + sx) * 4;
                    let ink = shot.data.get(i).is_some_and(|&v| v < 100);
                    put(x0 + at(c) + x, y0 + at(r) + y, if ink { [235, 235, 235] } else { fill });
                }
            }
        }
    }
    RgbaImage { width: w, height: h, data }
}

/// A 4000x3000 photo of the screenshot's board: rotated about 10 degrees, in perspective,
/// on grey paper, light falling off to the right, a little noise.
fn photo(shot: &RgbaImage) -> RgbaImage {
    let (w, h) = (4000usize, 3000usize);
    // Photo pixel to board pixel: a rotation and scale with a perspective term.
    let (a, b) = (10f64.to_radians().cos() / 6.0, 10f64.to_radians().sin() / 6.0);
    let mut data = vec![0u8; w * h * 4];
    let mut rng = fastrand::Rng::with_seed(5);
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (x as f64 - 2000.0, y as f64 - 1500.0);
            let d = 1.0 + 0.00004 * px;
            let (u, v) = ((a * px + b * py) / d + 210.0, (-b * px + a * py) / d + 250.0);
            let paper = [200.0, 196.0, 186.0];
            let mut c = paper;
            if u >= 0.0 && v >= 0.0 && (u as usize) < shot.width && (v as usize) < shot.height {
                let i = (v as usize * shot.width + u as usize) * 4;
                for k in 0..3 {
                    c[k] = paper[k] * f64::from(shot.data[i + k]) / 255.0;
                }
            }
            let light = 1.0 - 0.25 * x as f64 / w as f64;
            for k in 0..3 {
                let noisy = c[k] * light + f64::from(rng.u8(0..8)) - 4.0;
                data[(y * w + x) * 4 + k] = noisy.clamp(0.0, 255.0) as u8;
            }
            data[(y * w + x) * 4 + 3] = 255;
        }
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

/// Processor time of the thread that runs the benchmark (user plus system, from
/// `getrusage(RUSAGE_THREAD)`), as criterion's measurement: on a shared, loaded machine the
/// wall clock also counts the time other processes held the cores.
struct CpuTime;

/// The thread's processor time so far, in nanoseconds (the kernel counts it to the
/// microsecond here).
fn thread_cpu_ns() -> u64 {
    use nix::sys::resource::{UsageWho, getrusage};
    use nix::sys::time::TimeValLike;
    let usage = getrusage(UsageWho::RUSAGE_THREAD).expect("getrusage of this thread");
    let micros = usage.user_time().num_microseconds() + usage.system_time().num_microseconds();
    u64::try_from(micros).unwrap_or(0) * 1000
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }

    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, shown as the wall clock's are.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

/// The benchmark's images, made once for both clocks.
struct Images {
    png: Vec<u8>,
    shot: RgbaImage,
    screen: RgbaImage,
    screen_png: Vec<u8>,
    screen_jpeg: Vec<u8>,
    dark: RgbaImage,
    photo: RgbaImage,
}

fn images() -> &'static Images {
    static IMAGES: OnceLock<Images> = OnceLock::new();
    IMAGES.get_or_init(|| {
        let png = fixture();
        let shot = pixels::decode(&png).expect("the fixture decodes");
        let screen = full_screen(&shot);
        let (screen_png, screen_jpeg) = (encode(&screen, false), encode(&screen, true));
        let (dark, photo) = (dark_tiles(&shot), photo(&shot));
        for (name, image) in [("420x560", &shot), ("1920x1080", &screen), ("dark tiles", &dark)] {
            let read = pixels::read(image.view().expect("size")).expect("the board is found");
            assert_eq!(read.board.side, 9, "{name}: a 9x9 board");
        }
        let read = pixels::read_picture(photo.view().expect("size")).expect("the photo's board");
        assert_eq!(read.board.side, 9, "12 MP photo: a 9x9 board");
        Images { png, shot, screen, screen_png, screen_jpeg, dark, photo }
    })
}

/// The benchmarks, their group names ending in `clock` ("" for the wall clock, "-cpu").
fn reader<M: Measurement>(c: &mut Criterion<M>, clock: &str) {
    let Images { png, shot, screen, screen_png, screen_jpeg, dark, photo } = images();
    let mut group = c.benchmark_group(format!("read{clock}"));
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, image) in
        [("9x9 in 420x560", shot), ("9x9 in 1920x1080", screen), ("dark tiles in 1920x1080", dark)]
    {
        group.bench_function(name, |b| {
            b.iter(|| pixels::read(black_box(image.view().unwrap())).unwrap())
        });
    }
    group.bench_function("photo 4000x3000", |b| {
        b.iter(|| pixels::read_picture(black_box(photo.view().unwrap())).unwrap())
    });
    group.finish();

    let mut group = c.benchmark_group(format!("decode+read{clock}"));
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, bytes) in
        [("png 420x560", png), ("png 1920x1080", screen_png), ("jpeg 1920x1080", screen_jpeg)]
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

fn wall(c: &mut Criterion) {
    reader(c, "");
}

fn cpu(c: &mut Criterion<CpuTime>) {
    reader(c, "-cpu");
}

criterion_group!(benches, wall);
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = cpu
}
criterion_main!(benches, cpu_benches);
