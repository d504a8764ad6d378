//! Tests of the pixel reader on boards drawn here, with `ab_glyph`, in fonts the digit
//! templates were not built from (URW base35 and FreeFont; the templates come from DejaVu,
//! Liberation and Noto: see `examples/pixel_templates.rs`). The network of `classifier.rs` is
//! trained on most URW families too; it holds out FreeFont and URW Gothic, and its own tests
//! read those.

use ab_glyph::{Font, FontVec, PxScale};

use super::*;

/// Held-out fonts: (package, path). None of them is in the template set.
const HELD_OUT: &[(&str, &str)] = &[
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Bold.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Regular.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Bold.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/C059-Bold.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/P052-Bold.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/URWBookman-Light.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/URWBookman-Demi.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf"),
    ("fonts-urw-base35", "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf"),
    ("fonts-freefont-ttf", "/usr/share/fonts/truetype/freefont/FreeSans.ttf"),
    ("fonts-freefont-ttf", "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"),
    ("fonts-freefont-ttf", "/usr/share/fonts/truetype/freefont/FreeSerif.ttf"),
    ("fonts-freefont-ttf", "/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf"),
    ("fonts-freefont-ttf", "/usr/share/fonts/truetype/freefont/FreeMono.ttf"),
    ("fonts-freefont-ttf", "/usr/share/fonts/truetype/freefont/FreeMonoBold.ttf"),
];

fn font(i: usize) -> FontVec {
    let (package, path) = HELD_OUT[i % HELD_OUT.len()];
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        panic!("{path}: {e} (install the Debian package {package}: bash .ci/deps test)")
    });
    FontVec::try_from_vec(bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// An RGBA picture to draw on.
pub(super) struct Canvas {
    pub w: usize,
    pub h: usize,
    pub px: Vec<u8>,
}

impl Canvas {
    pub fn new(w: usize, h: usize, bg: [u8; 3]) -> Canvas {
        let mut px = Vec::with_capacity(w * h * 4);
        for _ in 0..w * h {
            px.extend_from_slice(&[bg[0], bg[1], bg[2], 255]);
        }
        Canvas { w, h, px }
    }

    pub fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, c: [u8; 3]) {
        for yy in y..(y + h).min(self.h) {
            for xx in x..(x + w).min(self.w) {
                let i = (yy * self.w + xx) * 4;
                self.px[i..i + 3].copy_from_slice(&c);
            }
        }
    }

    /// A character centred at (cx, cy), `size` pixels per em.
    pub fn glyph(&mut self, font: &FontVec, ch: char, size: f32, cx: f32, cy: f32, c: [u8; 3]) {
        let glyph = font
            .glyph_id(ch)
            .with_scale_and_position(PxScale::from(size), ab_glyph::point(0.0, 0.0));
        let Some(outlined) = font.outline_glyph(glyph) else { return };
        let b = outlined.px_bounds();
        // Placed at (cx, cy) to the sub-pixel: the rasteriser shades the fraction.
        let at = ab_glyph::point(cx - b.width() / 2.0 - b.min.x, cy - b.height() / 2.0 - b.min.y);
        let glyph = font.glyph_id(ch).with_scale_and_position(PxScale::from(size), at);
        let Some(outlined) = font.outline_glyph(glyph) else { return };
        let b = outlined.px_bounds();
        let ox = b.min.x as i64;
        let oy = b.min.y as i64;
        outlined.draw(|x, y, cov| {
            let (px, py) = (ox + i64::from(x), oy + i64::from(y));
            if px < 0 || py < 0 || px >= self.w as i64 || py >= self.h as i64 {
                return;
            }
            let i = (py as usize * self.w + px as usize) * 4;
            for (dst, &want) in self.px[i..i + 3].iter_mut().zip(c.iter()) {
                let old = f32::from(*dst);
                *dst = (old + (f32::from(want) - old) * cov.clamp(0.0, 1.0)).round() as u8;
            }
        });
    }

    pub fn view(&self) -> Rgba<'_> {
        Rgba::new(self.w, self.h, &self.px).expect("canvas sizes are right")
    }
}

/// How a board is drawn.
#[derive(Clone, Copy, Debug)]
pub(super) struct Style {
    pub cell: usize,
    pub thin: usize,
    pub thick: usize,
    pub bg: [u8; 3],
    pub line: [u8; 3],
    pub thick_line: [u8; 3],
    pub given: [u8; 3],
    pub entry: [u8; 3],
    /// Pixels per em of a value, as a share of the cell.
    pub scale: f32,
}

pub(super) const LIGHT: Style = Style {
    cell: 40,
    thin: 1,
    thick: 3,
    bg: [255, 255, 255],
    line: [150, 150, 150],
    thick_line: [20, 20, 20],
    given: [0, 0, 0],
    entry: [30, 90, 200],
    scale: 0.8,
};

/// What a cell holds in a drawn board.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Drawn {
    Empty,
    Given(u8),
    Entry(u8),
    Pencil(Vec<u8>),
    /// A blot the reader cannot place (a smear over the cell).
    Smudge,
    /// A character that is no digit, drawn as a given.
    Glyph(char),
}

/// A board to draw: side, box shape and cells.
pub(super) struct Puzzle {
    pub side: usize,
    pub bw: usize,
    pub bh: usize,
    pub cells: Vec<Drawn>,
}

/// A pseudo-random board: about 40% values (a quarter of them entries when `entries`), some
/// pencil marks when `pencil`.
pub(super) fn puzzle(
    side: usize,
    bw: usize,
    bh: usize,
    seed: u64,
    entries: bool,
    pencil: bool,
) -> Puzzle {
    let mut rng = fastrand::Rng::with_seed(seed);
    let cells = (0..side * side)
        .map(|_| {
            let v = rng.u8(1..=side as u8);
            match rng.u8(0..100) {
                0..30 => Drawn::Given(v),
                30..40 if entries => Drawn::Entry(v),
                30..40 => Drawn::Given(v),
                40..52 if pencil => {
                    let mut marks: Vec<u8> = (1..=side as u8).filter(|_| rng.bool()).collect();
                    if marks.is_empty() {
                        marks.push(v);
                    }
                    Drawn::Pencil(marks)
                }
                _ => Drawn::Empty,
            }
        })
        .collect();
    Puzzle { side, bw, bh, cells }
}

/// Draws a board with its top-left corner at (x, y); gives its width and height.
pub(super) fn draw(
    canvas: &mut Canvas,
    x: usize,
    y: usize,
    p: &Puzzle,
    s: &Style,
    font: &FontVec,
) -> usize {
    // Line i sits at pos(i); cell i starts after it.
    let widths = |step: usize| -> Vec<usize> {
        (0..=p.side).map(|i| if i % step == 0 { s.thick } else { s.thin }).collect()
    };
    let (vw, hw) = (widths(p.bw), widths(p.bh));
    let starts = |ws: &[usize], origin: usize| -> Vec<usize> {
        let mut at = origin;
        ws.iter()
            .map(|w| {
                let here = at;
                at += w + s.cell;
                here
            })
            .collect()
    };
    let (xs, ys) = (starts(&vw, x), starts(&hw, y));
    let size = xs[p.side] + vw[p.side] - x;
    canvas.rect(x, y, size, size, s.bg);
    for i in 0..=p.side {
        let c = |w: usize| if w == s.thick && s.thick != s.thin { s.thick_line } else { s.line };
        canvas.rect(xs[i], y, vw[i], size, c(vw[i]));
        canvas.rect(x, ys[i], size, hw[i], c(hw[i]));
    }
    // Thick lines over thin ones where they cross.
    for i in (0..=p.side).filter(|i| i % p.bw == 0) {
        canvas.rect(xs[i], y, vw[i], size, s.thick_line);
    }
    for i in (0..=p.side).filter(|i| i % p.bh == 0) {
        canvas.rect(x, ys[i], size, hw[i], s.thick_line);
    }
    let cell = s.cell as f32;
    for (i, d) in p.cells.iter().enumerate() {
        let (r, c) = (i / p.side, i % p.side);
        // Sub-pixel placement varies from cell to cell, as in a browser's layout.
        let cx = (xs[c] + vw[c]) as f32 + cell / 2.0 + ((i * 37) % 10) as f32 / 10.0 - 0.5;
        let cy = (ys[r] + hw[r]) as f32 + cell / 2.0 + ((i * 53) % 10) as f32 / 10.0 - 0.5;
        let digit = |v: u8| {
            crate::grid::symbol::to_char(v, p.side, crate::grid::symbol::Style::Line).unwrap_or('?')
        };
        match d {
            Drawn::Empty => {}
            Drawn::Given(v) => canvas.glyph(font, digit(*v), cell * s.scale, cx, cy, s.given),
            Drawn::Entry(v) => canvas.glyph(font, digit(*v), cell * s.scale, cx, cy, s.entry),
            Drawn::Glyph(ch) => canvas.glyph(font, *ch, cell * s.scale, cx, cy, s.given),
            Drawn::Smudge => {
                let (w, h) = (s.cell / 2, s.cell * 35 / 100);
                let (x, y) = (cx as usize - w / 2, cy as usize - h / 2);
                canvas.rect(x, y, w, h, [120, 120, 120]);
            }
            Drawn::Pencil(marks) => {
                let per_row = match p.side {
                    0..=4 => 2,
                    5..=9 => 3,
                    _ => 4,
                };
                for &m in marks {
                    let k = usize::from(m - 1);
                    let (mr, mc) = ((k / per_row) as f32, (k % per_row) as f32);
                    let sub = cell / per_row as f32;
                    let mx = cx - cell / 2.0 + sub * (mc + 0.5);
                    let my = cy - cell / 2.0 + sub * (mr + 0.5);
                    canvas.glyph(font, digit(m), cell * 0.28, mx, my, [100, 100, 100]);
                }
            }
        }
    }
    size
}

/// What the reader should see in a cell.
fn expected(d: &Drawn) -> (Option<u8>, bool) {
    match d {
        Drawn::Given(v) => (Some(*v), false),
        Drawn::Entry(v) => (Some(*v), true),
        _ => (None, false),
    }
}

/// Compares a read with the drawn board: (cells right, cells misread, uncertain cells).
fn score(read: &BoardRead, p: &Puzzle) -> (usize, usize, usize) {
    let (mut right, mut wrong, mut unsure) = (0, 0, 0);
    for (c, d) in read.cells.iter().zip(&p.cells) {
        let (value, entry) = expected(d);
        if !c.is_certain() {
            unsure += 1;
        } else if c.value == value && (value.is_none() || (c.kind == CellKind::Entry) == entry) {
            right += 1;
        } else {
            wrong += 1;
        }
    }
    (right, wrong, unsure)
}

/// One test image: a board drawn alone or in a screenshot.
struct Case {
    name: String,
    canvas: Canvas,
    puzzle: Puzzle,
}

/// The generated image set: every held-out font in several styles and sizes.
fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let styles: [(&str, Style); 5] = [
        ("light", LIGHT),
        ("small", Style { cell: 22, scale: 0.85, ..LIGHT }),
        ("large", Style { cell: 72, thin: 2, thick: 5, scale: 0.7, ..LIGHT }),
        (
            "dark",
            Style {
                cell: 36,
                bg: [30, 30, 34],
                line: [90, 90, 100],
                thick_line: [200, 200, 200],
                given: [235, 235, 235],
                entry: [250, 170, 40],
                ..LIGHT
            },
        ),
        (
            "flat",
            Style {
                cell: 48,
                thin: 2,
                thick: 2,
                line: [60, 60, 60],
                thick_line: [60, 60, 60],
                ..LIGHT
            },
        ),
    ];
    for (f, (_, font_path)) in HELD_OUT.iter().enumerate() {
        let font = font(f);
        for (k, (style_name, style)) in styles.iter().enumerate() {
            let seed = (f * 10 + k) as u64;
            let (side, bw, bh) = match (f + k) % 7 {
                0 => (4, 2, 2),
                1 => (6, 3, 2),
                2 => (6, 2, 3),
                _ => (9, 3, 3),
            };
            let puzzle = puzzle(side, bw, bh, seed, true, true);
            let board_px = side * (style.cell + style.thin) + 2 * style.thick + 4;
            let mut canvas = Canvas::new(board_px + 30 + f * 3, board_px + 20 + k * 5, style.bg);
            draw(&mut canvas, 13 + f * 3 / 2, 7 + k * 3, &puzzle, style, &font);
            out.push(Case {
                name: format!("{} {style_name} {side}x{side}", font_path),
                canvas,
                puzzle,
            });
        }
        // A screenshot: a timer above, a number pad below, digits around.
        let style = Style { cell: 30, ..LIGHT };
        let puzzle = puzzle(9, 3, 3, 1000 + f as u64, true, true);
        out.push(Case {
            name: format!("{} screenshot", font_path),
            canvas: screenshot(&puzzle, &style, &font),
            puzzle,
        });
    }
    out
}

/// A phone-like screenshot: a score and timer line, the board off centre, a number pad of
/// boxed digits below it.
fn screenshot(p: &Puzzle, s: &Style, font: &FontVec) -> Canvas {
    let mut c = Canvas::new(420, 560, [246, 247, 251]);
    for (i, ch) in "Score 1250   03:41".chars().enumerate() {
        c.glyph(font, ch, 18.0, 30.0 + i as f32 * 11.0, 30.0, [90, 90, 90]);
    }
    let size = draw(&mut c, 41, 70, p, s, font);
    let pad_y = 70 + size + 30;
    let cell = 38;
    for d in 1..=9u8 {
        let x = 20 + usize::from(d - 1) * (cell + 4);
        c.rect(x, pad_y, cell + 2, cell + 2, [40, 40, 40]);
        c.rect(x + 1, pad_y + 1, cell, cell, [255, 255, 255]);
        c.glyph(
            font,
            char::from(b'0' + d),
            30.0,
            (x + 1) as f32 + cell as f32 / 2.0,
            (pad_y + 1) as f32 + cell as f32 / 2.0,
            [20, 20, 20],
        );
    }
    // A strip of lines around the number pad, as some apps draw it.
    c.rect(20, pad_y - 6, 9 * (cell + 4), 2, [40, 40, 40]);
    c
}

/// Every generated board is found with its side and boxes, and no cell of any of them is
/// misread: each cell is read right or marked uncertain (which refuses the board). Most
/// boards are read exactly; the floor catches a regression (see the `accuracy` report).
#[test]
fn never_misreads_a_generated_board() {
    let mut failures = Vec::new();
    let mut exact = 0;
    let all = cases();
    for case in &all {
        match read(case.canvas.view()) {
            Ok(board) => {
                let (_, wrong, unsure) = score(&board, &case.puzzle);
                let b = &board.board;
                if b.side != case.puzzle.side
                    || (b.box_width, b.box_height) != (case.puzzle.bw, case.puzzle.bh)
                {
                    failures.push(format!(
                        "{}: read as {}x{} boxes {}x{}",
                        case.name, b.side, b.side, b.box_width, b.box_height
                    ));
                } else if wrong > 0 {
                    failures.push(format!("{}: {wrong} misread\n{board}", case.name));
                } else if unsure == 0 {
                    exact += 1;
                    assert!(board.grid().is_ok(), "{}", case.name);
                } else {
                    // Refused, naming exactly the uncertain cells, in reading order.
                    let refused = board.grid().expect_err("uncertain cells refuse the board");
                    let cells = board.uncertain();
                    assert_eq!(cells.len(), unsure, "{}", case.name);
                    assert_eq!(refused, PixelError::Uncertain { cells }, "{}", case.name);
                }
            }
            Err(PixelError::BoxesUnseen) if case.name.contains("flat 6x6") => {}
            Err(e) => failures.push(format!("{}: {e}", case.name)),
        }
    }
    assert!(failures.is_empty(), "{} boards wrong:\n{}", failures.len(), failures.join("\n"));
    assert!(exact >= all.len() / 3, "only {exact} of {} boards read exactly", all.len());
}

/// The accuracy over the generated set: `cargo test --lib pixels::tests::accuracy -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a report, run by hand"]
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

#[test]
fn refuses_images_that_are_not_boards() {
    assert!(matches!(Rgba::new(0, 0, &[]), Err(PixelError::TooSmall { .. })));
    assert!(matches!(Rgba::new(1, 1, &[0, 0, 0, 255]), Err(PixelError::TooSmall { .. })));
    assert!(matches!(Rgba::new(100, 100, &[0; 12]), Err(PixelError::BadLength { .. })));
    assert!(matches!(Rgba::new(usize::MAX, 2, &[]), Err(PixelError::TooLarge { .. })));
    assert!(matches!(Rgba::new(100_000, 100_000, &[]), Err(PixelError::TooLarge { .. })));
    // blank, noise, stripes
    let blank = Canvas::new(200, 200, [255, 255, 255]);
    assert!(matches!(read(blank.view()), Err(PixelError::NoBoard(_))));
    let mut rng = fastrand::Rng::with_seed(7);
    let mut noise = Canvas::new(300, 200, [0, 0, 0]);
    noise.px.iter_mut().for_each(|b| *b = rng.u8(..));
    assert!(read(noise.view()).is_err());
    let mut stripes = Canvas::new(300, 300, [255, 255, 255]);
    for i in (0..300).step_by(7) {
        stripes.rect(0, i, 300, 1, [0, 0, 0]);
    }
    assert!(read(stripes.view()).is_err());
    assert!(matches!(decode(b"not an image"), Err(PixelError::Decode(_))));
    assert!(matches!(decode(&[]), Err(PixelError::Decode(_))));
}

/// A value whose thin strokes broke into small pieces is uncertain, never pencil marks (found
/// on boards Chromium drew in FreeMono: an 8 of 20 px cells, and an entry 8 after JPEG, read as
/// certain pencil marks, that is, as empty cells). Here an 8 is cut by blank rows into pieces
/// each smaller than a pencil mark.
#[test]
fn a_value_broken_into_small_pieces_is_not_pencil_marks() {
    let font = font(HELD_OUT.iter().position(|f| f.1.ends_with("/FreeMono.ttf")).unwrap());
    let mut p = puzzle(9, 3, 3, 5, false, false);
    p.cells[0] = Drawn::Empty;
    let s = Style { cell: 40, ..LIGHT };
    let mut c = Canvas::new(420, 420, [255, 255, 255]);
    draw(&mut c, 10, 10, &p, &s, &font);
    // r1c1 spans 13..53 each way; the 8 is about 17 px tall, cut every 4 px.
    c.glyph(&font, '8', 28.0, 33.0, 33.0, [0, 0, 0]);
    for y in [28, 32, 36, 40] {
        c.rect(13, y, 40, 1, [255, 255, 255]);
    }
    let board = read(c.view()).expect("the board is found");
    let cell = board.cells[0];
    assert!(!cell.is_certain(), "a broken 8 read as {cell:?}");
    let (right, wrong, _) = score(&board, &p);
    assert_eq!(wrong, 0, "{board}");
    assert!(right >= 70, "the rest reads:\n{board}");
}

/// The faint variant: an 8 whose hairlines are fainter than half the contrast, so its strong
/// pixels alone are the height of a pencil mark (Chromium's FreeMono in 20 px cells). Drawn
/// here as strong bars over and under a faint body.
#[test]
fn a_value_mostly_fainter_than_its_strong_pixels_is_not_pencil_marks() {
    let font = font(0);
    let mut p = puzzle(9, 3, 3, 6, false, false);
    p.cells[0] = Drawn::Empty;
    let s = Style { cell: 20, thin: 1, thick: 2, ..LIGHT };
    let mut c = Canvas::new(240, 240, [255, 255, 255]);
    draw(&mut c, 10, 10, &p, &s, &font);
    // r1c1 spans 12..32 each way: a faint body 8 px tall, a strong bar at its top only.
    c.rect(19, 18, 5, 8, [180, 180, 180]);
    c.rect(19, 18, 5, 2, [40, 40, 40]);
    let board = read(c.view()).expect("the board is found");
    let cell = board.cells[0];
    assert!(!cell.is_certain(), "read as {cell:?}");
    assert_eq!(score(&board, &p).1, 0, "{board}");
}

/// A phone-like screenshot on a dark desktop twice its size: the image's most common colour is
/// the desktop, against which the grid lines do not show; the board is found against the
/// next common colour (a 1920x1080 screen in the bench found no board before).
#[test]
fn a_light_window_on_a_dark_desktop_is_read() {
    let font = font(0);
    let p = puzzle(9, 3, 3, 1000, true, true);
    let shot = screenshot(&p, &Style { cell: 30, ..LIGHT }, &font);
    let mut screen = Canvas::new(900, 700, [32, 33, 36]);
    for y in 0..shot.h {
        let (from, to) = (y * shot.w * 4, ((70 + y) * screen.w + 300) * 4);
        screen.px[to..to + shot.w * 4].copy_from_slice(&shot.px[from..from + shot.w * 4]);
    }
    let board = read(screen.view()).expect("the board is found");
    assert_eq!((board.board.side, board.board.left > 300), (9, true));
    assert_eq!(score(&board, &p).1, 0, "{board}");
    assert_eq!(score(&board, &p), score(&read(shot.view()).expect("alone"), &p));
}

/// A box blur of radius `r`.
fn blur(c: &Canvas, r: usize) -> Canvas {
    let mut out = Canvas::new(c.w, c.h, [0, 0, 0]);
    for y in 0..c.h {
        for x in 0..c.w {
            for k in 0..3 {
                let (mut sum, mut n) = (0u32, 0u32);
                for yy in y.saturating_sub(r)..=(y + r).min(c.h - 1) {
                    for xx in x.saturating_sub(r)..=(x + r).min(c.w - 1) {
                        sum += u32::from(c.px[(yy * c.w + xx) * 4 + k]);
                        n += 1;
                    }
                }
                out.px[(y * c.w + x) * 4 + k] = (sum / n) as u8;
            }
        }
    }
    out
}

#[test]
fn damaged_boards_are_refused_or_read_exactly_never_misread() {
    let font = font(0);
    let p = puzzle(9, 3, 3, 42, true, false);
    let mut c = Canvas::new(420, 420, [255, 255, 255]);
    draw(&mut c, 10, 10, &p, &LIGHT, &font);
    let mut rng = fastrand::Rng::with_seed(3);
    let mut damaged =
        vec![("blur 1", blur(&c, 1)), ("blur 2", blur(&c, 2)), ("blur 4", blur(&c, 4))];
    for amount in [20u8, 60, 120] {
        let mut n = Canvas { w: c.w, h: c.h, px: c.px.clone() };
        for (i, b) in n.px.iter_mut().enumerate() {
            if i % 4 != 3 {
                *b = b.saturating_add(rng.u8(..amount)).saturating_sub(rng.u8(..amount));
            }
        }
        damaged.push(("noise", n));
    }
    // JPEG artefacts, through the decoder
    for quality in [95u8, 75, 40] {
        let mut bytes = Vec::new();
        let rgb: Vec<u8> = c.px.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
            .encode(&rgb, c.w as u32, c.h as u32, image::ExtendedColorType::Rgb8)
            .expect("encodes");
        let decoded = decode(&bytes).expect("decodes");
        damaged.push(("jpeg", Canvas { w: decoded.width, h: decoded.height, px: decoded.data }));
    }
    for (name, image) in damaged {
        if let Ok(board) = read(image.view()) {
            println!("{name}: read, {} uncertain", board.uncertain().len());
            let (_, wrong, _) = score(&board, &p);
            assert_eq!(wrong, 0, "{name}: a misread\n{board}");
        } else {
            println!("{name}: refused");
        }
    }
}

/// Time to read the committed screenshot (decoded): `cargo test --release --lib
/// pixels::tests::timing -- --ignored --nocapture`.
#[test]
#[ignore = "a report, run by hand in release"]
fn timing() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pixels/screenshot-9x9.png");
    let bytes = std::fs::read(path).expect("fixture");
    let started = std::time::Instant::now();
    let image = decode(&bytes).expect("decodes");
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

/// The puzzle of the committed fixture (a 9x9 with one solution).
const FIXTURE_PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A committed fixture: its file name, the image, and the board drawn with how many of its
/// cells must read as uncertain (no board: `None`).
type Fixture = (&'static str, Canvas, Option<(Puzzle, usize)>);

/// The committed fixtures under `tests/fixtures/pixels/`, drawn in held-out fonts; rebuilt
/// with `cargo test --lib pixels::tests::write_fixtures -- --ignored`.
/// Each with the board drawn and how many of its cells must read as uncertain (no board:
/// `None`).
fn fixtures() -> Vec<Fixture> {
    let mut cells: Vec<Drawn> = FIXTURE_PUZZLE
        .bytes()
        .map(|b| if b == b'.' { Drawn::Empty } else { Drawn::Given(b - b'0') })
        .collect();
    // pencil marks in two cells, an entry of the right value in one (r1c2 is 1 in the solution)
    cells[2] = Drawn::Pencil(vec![2, 6, 9]);
    cells[80] = Drawn::Pencil(vec![3, 5]);
    let puzzle = Puzzle { side: 9, bw: 3, bh: 3, cells };
    // The first held-out font this board reads exactly in (the accuracy report covers all).
    let style = Style { cell: 30, ..LIGHT };
    let (font, shot) = (0..HELD_OUT.len())
        .map(|i| {
            let f = font(i);
            let shot = screenshot(&puzzle, &style, &f);
            (f, shot)
        })
        .find(|(_, shot)| read(shot.view()).is_ok_and(|b| score(&b, &puzzle) == (81, 0, 0)))
        .expect("a held-out font reads exactly");
    // the number pad alone, no board
    let mut pad = Canvas::new(400, 60, [255, 255, 255]);
    for d in 1..=9u8 {
        let x = 10 + usize::from(d - 1) * 42;
        pad.rect(x, 10, 40, 40, [40, 40, 40]);
        pad.rect(x + 1, 11, 38, 38, [255, 255, 255]);
        pad.glyph(&font, char::from(b'0' + d), 30.0, x as f32 + 20.0, 30.0, [20, 20, 20]);
    }
    // A smudge over an empty cell of a puzzle with 47 givens: the rest still has one
    // solution. A smudge over the given r1c1 of the 17-given puzzle: it has many.
    let solution =
        b"417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    let mut cells: Vec<Drawn> = solution
        .iter()
        .enumerate()
        .map(|(i, b)| if (i * 5) % 7 < 4 { Drawn::Given(b - b'0') } else { Drawn::Empty })
        .collect();
    cells[1] = Drawn::Smudge;
    let spare = Puzzle { side: 9, bw: 3, bh: 3, cells };
    let mut spare_shot = Canvas::new(300, 300, [255, 255, 255]);
    draw(&mut spare_shot, 8, 8, &spare, &style, &font);
    let mut cells = puzzle.cells.clone();
    cells[0] = Drawn::Smudge;
    let needed = Puzzle { side: 9, bw: 3, bh: 3, cells };
    let mut needed_shot = Canvas::new(300, 300, [255, 255, 255]);
    draw(&mut needed_shot, 8, 8, &needed, &style, &font);
    // A 16x16 board with letters (values 10 to 16 drawn as A to G).
    let letters = super::classifier::tests::letters_puzzle();
    let mut letters_shot = Canvas::new(560, 560, [255, 255, 255]);
    draw(&mut letters_shot, 12, 9, &letters, &Style { cell: 30, ..LIGHT }, &font);
    vec![
        ("letters-16x16.png", letters_shot, Some((letters, 0))),
        ("screenshot-9x9.png", shot, Some((puzzle, 0))),
        ("number-pad.png", pad, None),
        ("smudge-spare.png", spare_shot, Some((spare, 1))),
        ("smudge-needed.png", needed_shot, Some((needed, 1))),
    ]
}

#[test]
#[ignore = "writes tests/fixtures/pixels/"]
fn write_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pixels");
    std::fs::create_dir_all(&dir).expect("fixture directory");
    for (name, canvas, puzzle) in fixtures() {
        match &puzzle {
            Some((p, unsure)) => {
                let board = read(canvas.view()).expect("the fixture reads");
                let want = (p.cells.len() - unsure, 0, *unsure);
                assert_eq!(score(&board, p), want, "{name} must read so\n{board}");
            }
            None => assert!(read(canvas.view()).is_err(), "{name} must be refused"),
        }
        let image = image::RgbaImage::from_raw(canvas.w as u32, canvas.h as u32, canvas.px.clone())
            .expect("sizes match");
        image.save(dir.join(name)).expect("write the fixture");
    }
}

#[test]
fn committed_fixtures_read_as_drawn() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pixels");
    for (name, _, puzzle) in fixtures() {
        let bytes = std::fs::read(dir.join(name)).expect("the fixture is committed");
        let image = decode(&bytes).expect("decodes");
        match puzzle {
            Some((p, unsure)) => {
                let board = read(image.view().expect("size")).expect("reads");
                let want = (p.cells.len() - unsure, 0, unsure);
                assert_eq!(score(&board, &p), want, "{name}\n{board}");
            }
            None => assert!(read(image.view().expect("size")).is_err(), "{name}"),
        }
    }
}

/// How alike glyphs of one board are (the evidence for `SAME_GLYPH` and `OTHER_GLYPH` in
/// `cells.rs`): the same digit against different digits, over the generated set:
/// `cargo test --lib pixels::tests::glyph_similarities -- --ignored --nocapture`.
#[test]
#[ignore = "a report, run by hand"]
fn glyph_similarities() {
    let mut same = Vec::new();
    let mut diff = Vec::new();
    for case in cases() {
        let Ok(board) = board::find(case.canvas.view()) else { continue };
        if board.side != case.puzzle.side {
            continue;
        }
        let mut glyphs = Vec::new();
        for (r, &(y0, y1)) in board.rows.iter().enumerate() {
            for (c, &(x0, x1)) in board.cols.iter().enumerate() {
                let (_, s, _) = cells::read_cell(case.canvas.view(), (x0, y0, x1, y1), board.side);
                if let (Some(s), (Some(v), e)) =
                    (s, expected(&case.puzzle.cells[r * board.side + c]))
                {
                    glyphs.push((s, v, e));
                }
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

/// Reads a 9x9 board whose first cells hold `glyphs` (no digits) in every held-out font, and
/// gives the ones read as a certain digit: (font, glyph, digit).
fn glyphs_read_as_digits(glyphs: &[char]) -> Vec<(String, char, u8)> {
    let mut found = Vec::new();
    for (i, (_, path)) in HELD_OUT.iter().enumerate() {
        let font = font(i);
        let mut p = puzzle(9, 3, 3, 7 + i as u64, false, false);
        for (k, &g) in glyphs.iter().enumerate() {
            p.cells[k * 2] = Drawn::Glyph(g);
        }
        let s = Style { cell: 44, ..LIGHT };
        let mut canvas = Canvas::new(460, 460, [255, 255, 255]);
        draw(&mut canvas, 10, 10, &p, &s, &font);
        let Ok(board) = read(canvas.view()) else { continue };
        for (k, &g) in glyphs.iter().enumerate() {
            let cell = board.cells[k * 2];
            if let (true, Some(d)) = (cell.is_certain(), cell.value) {
                found.push((path.rsplit('/').next().unwrap_or("").to_string(), g, d));
            }
        }
    }
    found
}

/// A glyph with a dot (a '?', '!', ':', an 'i') is no digit in any font: the dot is not taken
/// for a broken-off stroke. (A '?' read as a certain 2 was found on the web canvas replica.)
#[test]
fn dotted_glyphs_are_never_read_as_digits() {
    let found = glyphs_read_as_digits(&['?', '!', 'i', 'j', ';', ':']);
    assert!(found.is_empty(), "read as certain digits: {found:?}");
}

/// Letters and signs shaped like digits, in every held-out font: which are read as certain
/// digits. The templates hold glyphs that are no digit (`NOT_DIGITS` in
/// `examples/pixel_templates.rs`), drawn in the training fonts; this reads those glyphs in
/// fonts never seen, then glyphs that are in no template at all: `cargo test --release --lib
/// pixels::tests::lookalikes -- --ignored --nocapture`.
#[test]
#[ignore = "a report, run by hand"]
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

/// Glyphs shaped like digits: the templates hold all but `l` and `I` as no digit.
const TEMPLATE_LOOKALIKES: &[char] = &[
    'Z', 'S', 'B', 'O', 'l', 'I', 'g', 'q', 'b', 'A', 'G', 's', 'z', 'T', '$', '&', '@', '?', 't',
    'f', 'a', '%', '#',
];

/// Glyphs in no template: letters and signs, some of them shaped a little like digits.
const UNSEEN: &[char] =
    &['Y', 'D', 'E', 'L', 'P', 'R', 'e', 'y', 'h', 'n', 'C', 'U', 'H', 'k', 'r', 'x', 'd', 'p'];

/// Letters and signs often taken for digits before the templates held glyphs that are none
/// (`q` for 9, `Z` for 2, `&` for 8, `T` for 1, `t` for 1): in fonts the templates were not
/// built from, none is read as a certain digit. (Plain bars, `l` and `I`, still are read as 1 in
/// some fonts, and `g` as 9: the `lookalikes` report lists them.)
#[test]
fn letters_shaped_like_digits_are_never_read_as_digits() {
    let found = glyphs_read_as_digits(&['q', 'Z', '&', 'T', 'B', 'S', 'b', 't', '$', 'A']);
    assert!(found.is_empty(), "read as certain digits: {found:?}");
}

/// An EXIF block (big-endian TIFF) holding only an orientation.
fn exif_orientation(value: u8) -> Vec<u8> {
    let mut v = b"MM\0\x2a\0\0\0\x08".to_vec();
    v.extend_from_slice(&[0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0, 0, 0, 0, 0]);
    v
}

/// An 80x50 white picture with a black 20x20 square in its top-left corner, encoded with an
/// EXIF orientation.
fn oriented(jpeg: bool, orientation: u8) -> Vec<u8> {
    use image::ImageEncoder;
    let mut c = Canvas::new(80, 50, [255, 255, 255]);
    c.rect(0, 0, 20, 20, [0, 0, 0]);
    let mut out = Vec::new();
    let exif = exif_orientation(orientation);
    if jpeg {
        // JPEG has no alpha.
        let rgb: Vec<u8> = c.px.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        let mut e = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 95);
        e.set_exif_metadata(exif).expect("JPEG takes EXIF");
        e.write_image(&rgb, 80, 50, image::ExtendedColorType::Rgb8).expect("encodes");
    } else {
        let mut e = image::codecs::png::PngEncoder::new(&mut out);
        e.set_exif_metadata(exif).expect("PNG takes EXIF");
        e.write_image(&c.px, 80, 50, image::ExtendedColorType::Rgba8).expect("encodes");
    }
    out
}

/// Whether the decoded picture is dark at a pixel.
fn dark(image: &RgbaImage, x: usize, y: usize) -> bool {
    image.data[(y * image.width + x) * 4] < 100
}

/// A photo stored sideways or upside down with an EXIF orientation is turned upright: its
/// corner square lands where the orientation says (an upside-down photo read as stored reads
/// 6s as 9s).
#[test]
fn exif_orientation_is_honoured() {
    // 6: turn a quarter clockwise: 50x80, the square top right.
    let png = decode(&oriented(false, 6)).expect("decodes");
    assert_eq!((png.width, png.height), (50, 80));
    assert!(dark(&png, 40, 10) && !dark(&png, 10, 10) && !dark(&png, 10, 70));
    // 3: half a turn: the square bottom right.
    let jpeg = decode(&oriented(true, 3)).expect("decodes");
    assert_eq!((jpeg.width, jpeg.height), (80, 50));
    assert!(dark(&jpeg, 70, 40) && !dark(&jpeg, 10, 10));
    // 1: as stored.
    let plain = decode(&oriented(false, 1)).expect("decodes");
    assert!(dark(&plain, 10, 10) && !dark(&plain, 70, 40));
}

/// A 16-bit PNG is read as 8 bits a channel (cut while decoding, not after).
#[test]
fn a_16_bit_png_decodes_to_8_bits() {
    let (w, h) = (60u32, 40u32);
    let mut raw = Vec::new();
    for i in 0..w * h {
        let v: u16 = if i % 2 == 0 { 0x1234 } else { 0xfedc };
        raw.extend_from_slice(&v.to_be_bytes());
    }
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(png::ColorType::Grayscale);
        e.set_depth(png::BitDepth::Sixteen);
        let mut writer = e.write_header().expect("header");
        writer.write_image_data(&raw).expect("data");
    }
    let image = decode(&out).expect("decodes");
    assert_eq!((image.width, image.height), (60, 40));
    assert_eq!(&image.data[..8], &[0x12, 0x12, 0x12, 255, 0xfe, 0xfe, 0xfe, 255]);
}

/// Two boards of the same size side by side: which is meant cannot be told, so the image is
/// refused with both named; beside a smaller second board, the larger one is read.
#[test]
fn two_equal_boards_are_refused_with_both_named() {
    let font = font(0);
    let style = Style { cell: 24, ..LIGHT };
    let a = puzzle(9, 3, 3, 7, false, false);
    let b = puzzle(9, 3, 3, 8, false, false);
    let mut c = Canvas::new(560, 280, style.bg);
    let size = draw(&mut c, 10, 20, &a, &style, &font);
    draw(&mut c, 30 + size, 20, &b, &style, &font);
    match read(c.view()) {
        Err(PixelError::TwoBoards { first, second }) => {
            assert_eq!((first.left, first.top, first.width), (10, 20, size));
            assert_eq!((second.left, second.top, second.width), (30 + size, 20, size));
            let text = PixelError::TwoBoards { first, second }.to_string();
            assert!(text.contains("at (10, 20)"), "{text}");
        }
        other => panic!("two equal boards read as {other:?}"),
    }
    let mut c = Canvas::new(560, 280, style.bg);
    let size = draw(&mut c, 10, 20, &a, &style, &font);
    draw(&mut c, 30 + size, 20, &b, &Style { cell: 14, scale: 0.85, ..style }, &font);
    let board = read(c.view()).expect("the larger board is read");
    assert_eq!((board.board.left, board.board.width), (10, size));
}

/// Asserts a board was found with its side and read without a wrong cell, nearly all of
/// it certain (the finder's tests: a few glyphs of a held-out font may stay uncertain).
fn assert_found(read: &BoardRead, p: &Puzzle, what: &str) {
    assert_eq!(read.board.side, p.side, "{what}: the side");
    let (right, wrong, unsure) = score(read, p);
    assert_eq!(wrong, 0, "{what}: misread\n{read}");
    assert!(unsure * 10 <= p.cells.len(), "{what}: {unsure} uncertain, {right} right\n{read}");
}

/// Finder, binarized: a dark theme whose lines are barely lighter than its background (less
/// than the background-distance rule's 40 levels), a small board on a 1280x1024 screen of
/// the same colour.
#[test]
fn a_dark_theme_with_faint_lines_on_a_large_screen_is_read() {
    let style = Style {
        cell: 30,
        bg: [36, 36, 40],
        line: [54, 54, 60],
        thick_line: [72, 72, 80],
        given: [225, 225, 225],
        entry: [120, 180, 250],
        ..LIGHT
    };
    let p = puzzle(9, 3, 3, 5, true, false);
    let mut c = Canvas::new(1280, 1024, style.bg);
    draw(&mut c, 610, 380, &p, &style, &font(0));
    let read = read(c.view()).expect("the board is found");
    assert_eq!((read.board.left, read.board.top), (610, 380));
    assert_found(&read, &p, "dark, faint lines");
}

/// Finder, binarized: the selected cell's row, column and box tinted as a canvas site does
/// after a click (the tint differs from the background by more than a faint line does, so
/// the tinted cells look like ink against the background).
#[test]
fn a_tinted_selection_is_read() {
    let style = Style { cell: 40, line: [190, 190, 190], thick_line: [60, 60, 60], ..LIGHT };
    let p = puzzle(9, 3, 3, 11, true, false);
    let mut c = Canvas::new(460, 460, [255, 255, 255]);
    draw(&mut c, 20, 20, &p, &style, &font(0));
    let plain = read(c.view()).expect("untinted, the board is found");
    let (sr, sc) = (4, 6);
    for r in 0..9 {
        for col in 0..9 {
            let same_box = r / 3 == sr / 3 && col / 3 == sc / 3;
            if !(r == sr || col == sc || same_box) {
                continue;
            }
            let tint = if (r, col) == (sr, sc) { [187, 222, 251] } else { [214, 226, 240] };
            let ((y0, y1), (x0, x1)) = (plain.board.rows[r], plain.board.cols[col]);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let i = (y * c.w + x) * 4;
                    if c.px[i..i + 3] == [255, 255, 255] {
                        c.px[i..i + 3].copy_from_slice(&tint);
                    }
                }
            }
        }
    }
    let tinted = read(c.view()).expect("tinted, the board is found");
    assert_eq!(tinted.board.rows, plain.board.rows);
    assert_found(&tinted, &p, "tinted");
}

/// The inverse of the perspective [`rectify`] computes from the unit square to a
/// quadrilateral: for a point of the quadrilateral, where it is in the square.
fn to_square(h: &[f64; 8], x: f64, y: f64) -> (f64, f64) {
    let m = [[h[0], h[1], h[2]], [h[3], h[4], h[5]], [h[6], h[7], 1.0]];
    let cof = |r: usize, c: usize| {
        let (r0, r1) = ((r + 1) % 3, (r + 2) % 3);
        let (c0, c1) = ((c + 1) % 3, (c + 2) % 3);
        m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
    };
    // The adjugate is the transposed cofactor matrix.
    let inv = |r: usize, c: usize| cof(c, r);
    let w = inv(2, 0) * x + inv(2, 1) * y + inv(2, 2);
    (
        (inv(0, 0) * x + inv(0, 1) * y + inv(0, 2)) / w,
        (inv(1, 0) * x + inv(1, 1) * y + inv(1, 2)) / w,
    )
}

/// Finder and warp: a render photographed at an angle: rotated about 12 degrees, in
/// perspective, on grey paper, blurred, with light falling off across the picture and noise.
/// Found by its quadrilateral, warped onto a square and read without a wrong digit.
#[test]
fn a_perspective_photo_of_a_render_is_read() {
    let style = Style { cell: 36, thin: 1, thick: 3, line: [40, 40, 40], ..LIGHT };
    let p = puzzle(9, 3, 3, 21, false, false);
    let mut board = Canvas::new(360, 360, [255, 255, 255]);
    let size = draw(&mut board, 0, 0, &p, &style, &font(0));
    let corners = [(230.0, 120.0), (600.0, 190.0), (560.0, 560.0), (170.0, 500.0)];
    let h = super::rectify::homography_for_tests(corners).expect("a perspective");
    let mut photo = Canvas::new(760, 680, [0, 0, 0]);
    let mut rng = fastrand::Rng::with_seed(3);
    for y in 0..photo.h {
        for x in 0..photo.w {
            let (u, v) = to_square(&h, x as f64 + 0.5, y as f64 + 0.5);
            let paper = [205u8, 200, 188];
            let c = if (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v) {
                let (bx, by) = ((u * size as f64) as usize, (v * size as f64) as usize);
                let i = (by * board.w + bx) * 4;
                // White paper under the board: the print's ink takes from it.
                let k = |j: usize| (u32::from(board.px[i + j]) * u32::from(paper[j]) / 255) as u8;
                [k(0), k(1), k(2)]
            } else {
                paper
            };
            let light = 1.0 - 0.3 * x as f32 / photo.w as f32;
            let i = (y * photo.w + x) * 4;
            for (j, &v) in c.iter().enumerate() {
                let noisy = f32::from(v) * light + f32::from(rng.u8(0..12)) - 6.0;
                photo.px[i + j] = noisy.clamp(0.0, 255.0) as u8;
            }
        }
    }
    let photo = blur(&photo, 1);
    assert!(read(photo.view()).is_err(), "no straight grid to find without the warp");
    let read = read_picture(photo.view()).expect("the warped board is found");
    assert_found(&read, &p, "perspective photo");
}
