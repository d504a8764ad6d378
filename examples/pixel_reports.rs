//! Reports on the pixel reader over boards drawn here in fonts the digit templates were not
//! built from (the drawing kit `src/pixels/drawkit.rs`, shared with the reader's unit tests).
//! They print numbers to judge a change by and assert nothing; the unit tests hold the floors.
//!
//! ```text
//! cargo run --release --example pixel_reports -- accuracy      # right, misread, uncertain cells
//! cargo run --release --example pixel_reports -- lookalikes    # letters and signs read as digits
//! cargo run --release --example pixel_reports -- similarities  # how alike glyphs of a board are
//! cargo run --release --example pixel_reports -- timing        # read the committed screenshot
//! cargo run --release --example pixel_reports -- fixtures DIR  # draw the committed fixtures into DIR
//! ```
//!
//! The fonts come from Debian's fonts-urw-base35 and fonts-freefont-ttf (`bash .ci/deps test`).
//! `fixtures` writes only into the directory it is given (`tests/fixtures/pixels` to renew
//! the committed ones).

use std::path::Path;
use std::process::ExitCode;

use sudobot::pixels::{self, read};

#[path = "../src/pixels/drawkit.rs"]
mod drawkit;

use drawkit::*;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["accuracy"] => accuracy(),
        ["lookalikes"] => lookalikes(),
        ["similarities"] => glyph_similarities(),
        ["timing"] => timing(),
        ["fixtures", dir] => write_fixtures(Path::new(dir)),
        _ => {
            eprintln!(
                "usage: pixel_reports accuracy | lookalikes | similarities | timing | fixtures DIR"
            );
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// The accuracy over the generated set.
fn accuracy() {
    let (mut right, mut wrong, mut unsure, mut boards, mut refused, mut cells) = (0, 0, 0, 0, 0, 0);
    for case in cases() {
        boards += 1;
        match read(case.canvas.view()) {
            Ok(board) => {
                let (r, w, u) = score(&board, &case.puzzle);
                right += r;
                wrong += w;
                unsure += u;
                cells += board.cells.len();
                if u > 0 {
                    refused += 1;
                }
                if w > 0 {
                    println!("MISREAD {}: {w} cells\n{board}", case.name);
                }
                for (i, (c, d)) in board.cells.iter().zip(&case.puzzle.cells).enumerate() {
                    if !c.is_certain() {
                        println!(
                            "  unsure {} r{}c{}: drawn {d:?}, read {:?} {:?} {:.2}",
                            case.name,
                            i / case.puzzle.side + 1,
                            i % case.puzzle.side + 1,
                            c.kind,
                            c.value,
                            c.confidence
                        );
                    }
                }
            }
            Err(e) => {
                refused += 1;
                println!("refused {}: {e}", case.name);
            }
        }
    }
    println!(
        "pixels accuracy: {boards} boards, {cells} cells read: {right} right, {wrong} misread, {unsure} uncertain; {refused} boards refused"
    );
}

/// Time to read the committed screenshot (decoded), by hand; `cargo bench --bench pixels --
/// read/` measures the same with criterion.
fn timing() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pixels/screenshot-9x9.png");
    let bytes = std::fs::read(path).expect("fixture");
    let started = std::time::Instant::now();
    let image = pixels::decode(&bytes).expect("decodes");
    let decoding = started.elapsed();
    read(image.view().expect("size")).expect("reads"); // templates loaded
    let rounds = 50;
    let started = std::time::Instant::now();
    for _ in 0..rounds {
        read(image.view().expect("size")).expect("reads");
    }
    let each = started.elapsed() / rounds;
    println!(
        "decode {decoding:?}, read a 9x9 board ({}x{} image) {each:?}",
        image.width, image.height
    );
}

/// Draws the committed fixtures again into `dir` (each checked to read as drawn first).
fn write_fixtures(dir: &Path) {
    std::fs::create_dir_all(dir).expect("fixture directory");
    for fixture in fixtures() {
        let (name, canvas) = (fixture.name, &fixture.canvas);
        let image = image::RgbaImage::from_raw(canvas.w as u32, canvas.h as u32, canvas.px.clone())
            .expect("sizes match");
        let saved = if name.ends_with(".jpg") {
            image::DynamicImage::ImageRgba8(image).to_rgb8().save(dir.join(name))
        } else {
            image.save(dir.join(name))
        };
        saved.expect("write the fixture");
        // Checked as written (a JPEG is not what was drawn).
        let bytes = std::fs::read(dir.join(name)).expect("read the fixture back");
        let written = pixels::decode(&bytes).expect("the fixture decodes");
        let read = fixture.read(written.view().expect("size"));
        match &fixture.puzzle {
            Some((p, unsure)) => {
                let board = read.expect("the fixture reads");
                let want = (p.cells.len() - unsure, 0, *unsure);
                assert_eq!(score(&board, p), want, "{name} must read so\n{board}");
            }
            None => assert!(read.is_err(), "{name} must be refused"),
        }
    }
}

/// How alike glyphs of one board are (the evidence for `SAME_GLYPH` and `OTHER_GLYPH` in
/// `cells.rs`): the same digit against different digits, over the generated set.
fn glyph_similarities() {
    let mut same = Vec::new();
    let mut diff = Vec::new();
    for case in cases() {
        let Ok(board) = pixels::board::find(case.canvas.view()) else { continue };
        if board.side != case.puzzle.side {
            continue;
        }
        let mut glyphs = Vec::new();
        let scores = pixels::glyph_scores(case.canvas.view(), &board);
        for (s, drawn) in scores.into_iter().zip(&case.puzzle.cells) {
            if let (Some(s), (Some(v), e)) = (s, expected(drawn)) {
                glyphs.push((s, v, e));
            }
        }
        for i in 0..glyphs.len() {
            for j in i + 1..glyphs.len() {
                let ((a, va, ea), (b, vb, eb)) = (&glyphs[i], &glyphs[j]);
                if ea != eb {
                    continue;
                }
                let sim = a.similarity(b);
                if va == vb {
                    same.push(sim);
                } else {
                    diff.push((sim, *va.min(vb), *va.max(vb)));
                }
            }
        }
    }
    same.sort_by(|a, b| a.total_cmp(b));
    diff.sort_by(|a, b| b.0.total_cmp(&a.0));
    if same.is_empty() || diff.len() < 10 {
        return;
    }
    let (n, lowest) = (same.len(), same[0]);
    println!("same digit: {n} pairs, lowest {lowest:.3}, 1% below {:.3}", same[n / 100]);
    println!("different digits: {} pairs, highest {:?}", diff.len(), &diff[..10]);
    let above = |t: f32| diff.iter().filter(|d| d.0 >= t).count();
    println!("diff >= 0.8: {}, >= 0.85: {}, >= 0.9: {}", above(0.8), above(0.85), above(0.9));
}

/// Letters and signs shaped like digits, in every held-out font: which are read as certain
/// digits. The templates hold glyphs that are no digit (`NOT_DIGITS` in
/// `examples/pixel_templates.rs`), drawn in the training fonts; this reads those glyphs in
/// fonts never seen, then glyphs that are in no template at all.
fn lookalikes() {
    for (what, glyphs) in
        [("glyphs in the templates", TEMPLATE_LOOKALIKES), ("unseen glyphs", UNSEEN)]
    {
        let found = glyphs_read_as_digits(glyphs);
        for (font, g, d) in &found {
            println!("{font}: '{g}' read as a certain {d}");
        }
        println!(
            "{what}: {} of {} glyph reads taken for certain digits",
            found.len(),
            glyphs.len() * HELD_OUT.len()
        );
    }
}
