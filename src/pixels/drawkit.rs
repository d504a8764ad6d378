//! Boards drawn with `ab_glyph` in fonts the digit templates were not built from (URW base35
//! and FreeFont), shared by the pixel reader's unit tests (`tests.rs`, `finder_tests.rs`, the
//! classifier's) and the reports of `examples/pixel_reports.rs`, which includes this file:
//! so it names the library as `sudobot` (the crate is its own `sudobot` in its tests) and uses
//! nothing private to it.
// Each includer uses a part of the kit: the tests the boards, the example the reports' sets.
#![allow(dead_code)]

use ab_glyph::{Font, FontVec, PxScale};
use sudobot::grid::symbol;
use sudobot::pixels::{BoardRead, CellKind, Rgba, read};

/// Held-out fonts: (package, path). None of them is in the template set.
pub const HELD_OUT: &[(&str, &str)] = &[
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

pub fn font(i: usize) -> FontVec {
    let (package, path) = HELD_OUT[i % HELD_OUT.len()];
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        panic!("{path}: {e} (install the Debian package {package}: bash .ci/deps test)")
    });
    FontVec::try_from_vec(bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// An RGBA picture to draw on.
pub struct Canvas {
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
pub struct Style {
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

pub const LIGHT: Style = Style {
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
pub enum Drawn {
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
#[derive(Clone)]
pub struct Puzzle {
    pub side: usize,
    pub bw: usize,
    pub bh: usize,
    pub cells: Vec<Drawn>,
}

impl Puzzle {
    /// A 9x9 board of givens from one line of text (a digit a given, anything else empty).
    pub fn givens(text: &str) -> Puzzle {
        let cells = text
            .bytes()
            .map(|b| {
                if b.is_ascii_digit() && b != b'0' { Drawn::Given(b - b'0') } else { Drawn::Empty }
            })
            .collect();
        Puzzle { side: 9, bw: 3, bh: 3, cells }
    }
}

/// A pseudo-random board: about 40% values (a quarter of them entries when `entries`), some
/// pencil marks when `pencil`.
pub fn puzzle(side: usize, bw: usize, bh: usize, seed: u64, entries: bool, pencil: bool) -> Puzzle {
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
pub fn draw(
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
        let digit = |v: u8| symbol::to_char(v, p.side, symbol::Style::Line).unwrap_or('?');
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
pub fn expected(d: &Drawn) -> (Option<u8>, bool) {
    match d {
        Drawn::Given(v) => (Some(*v), false),
        Drawn::Entry(v) => (Some(*v), true),
        _ => (None, false),
    }
}

/// Compares a read with the drawn board: (cells right, cells misread, uncertain cells).
pub fn score(read: &BoardRead, p: &Puzzle) -> (usize, usize, usize) {
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
pub struct Case {
    pub name: String,
    pub canvas: Canvas,
    pub puzzle: Puzzle,
}

/// The generated image set: every held-out font in several styles and sizes.
pub fn cases() -> Vec<Case> {
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
pub fn screenshot(p: &Puzzle, s: &Style, font: &FontVec) -> Canvas {
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

/// A box blur of radius `r`.
pub fn blur(c: &Canvas, r: usize) -> Canvas {
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

/// A simulated camera photo of the board drawn in the top-left `size` x `size` pixels of
/// `board`: a picture of `(w, h)` pixels where `to_board` maps each pixel's centre to the unit
/// square of the board (outside it: the paper around the print), on grey paper, with light
/// falling off across the picture, noise (seeded by `seed`) and a slight blur.
pub fn photograph(
    board: &Canvas,
    size: usize,
    (w, h): (usize, usize),
    seed: u64,
    to_board: impl Fn(f64, f64) -> (f64, f64),
) -> Canvas {
    let paper = [205u8, 200, 188];
    let mut photo = Canvas::new(w, h, [0, 0, 0]);
    let mut rng = fastrand::Rng::with_seed(seed);
    for y in 0..h {
        for x in 0..w {
            let (u, v) = to_board(x as f64 + 0.5, y as f64 + 0.5);
            let c = if (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v) {
                let (bx, by) = ((u * size as f64) as usize, (v * size as f64) as usize);
                let i = (by * board.w + bx) * 4;
                // White paper under the board: the print's ink takes from it.
                let k = |j: usize| (u32::from(board.px[i + j]) * u32::from(paper[j]) / 255) as u8;
                [k(0), k(1), k(2)]
            } else {
                paper
            };
            let light = 1.0 - 0.3 * x as f32 / w as f32;
            let i = (y * w + x) * 4;
            for (j, &v) in c.iter().enumerate() {
                let noisy = f32::from(v) * light + f32::from(rng.u8(0..12)) - 6.0;
                photo.px[i + j] = noisy.clamp(0.0, 255.0) as u8;
            }
        }
    }
    blur(&photo, 1)
}

/// The committed photo fixture: the screenshot fixture's puzzle printed on paper and
/// photographed turned about 10 degrees, from below its bottom edge (a perspective that
/// narrows the board's top), read only once the picture is straightened.
pub fn photo_fixture(puzzle: &Puzzle, font: &FontVec) -> Canvas {
    let style = Style { cell: 36, thin: 1, thick: 3, line: [40, 40, 40], ..LIGHT };
    let mut board = Canvas::new(360, 360, [255, 255, 255]);
    let size = draw(&mut board, 0, 0, puzzle, &style, font);
    let (sin, cos) = 0.17f64.sin_cos();
    photograph(&board, size, (640, 560), 7, move |x, y| {
        // About the picture's centre: turned, then seen in perspective (rows further up
        // are smaller).
        let (dx, dy) = (x - 320.0, y - 290.0);
        let (rx, ry) = (cos * dx + sin * dy, -sin * dx + cos * dy);
        let depth = 1.0 - ry / 1400.0;
        (rx * depth / 400.0 + 0.5, ry * depth / 400.0 + 0.5)
    })
}

/// The puzzle of the committed fixture (a 9x9 with one solution).
pub const FIXTURE_PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// The style of a jigsaw before its regions are drawn: every line thin (no box lines).
pub const JIGSAW_STYLE: Style = Style { thick: 1, thick_line: LIGHT.line, ..LIGHT };

/// Solo's 9j regions, a region label a cell (as the web replicas' `data.js`).
pub const JIGSAW_REGIONS: &str =
    "112333333112223334112244444112254446172555666775555686779599886779999886779988886";

/// Draws a jigsaw's region borders over the board drawn in `c` (with [`JIGSAW_STYLE`]): every
/// inner edge between two cells of different `labels` (one a cell, reading order) as a black
/// line 5 px wide.
pub fn region_lines(c: &mut Canvas, labels: &[u8]) {
    let board = sudobot::pixels::board::find(c.view()).expect("the drawn grid is found");
    let n = board.side;
    for a in 0..n * n {
        let (ra, ca) = (board.rows[a / n], board.cols[a % n]);
        if a % n + 1 < n && labels[a] != labels[a + 1] {
            let x = (ca.1 + board.cols[a % n + 1].0) / 2;
            c.rect(x - 2, ra.0 - 1, 5, ra.1 - ra.0 + 3, [0, 0, 0]);
        }
        if a + n < n * n && labels[a] != labels[a + n] {
            let y = (ra.1 + board.rows[a / n + 1].0) / 2;
            c.rect(ca.0 - 1, y - 2, ca.1 - ca.0 + 3, 5, [0, 0, 0]);
        }
    }
}

/// Solo 3x3x: one solution with the diagonals, two without (as the web replicas' `data.js`).
pub const X_PUZZLE: &str =
    ".8...5....79...83....73........1...64..9.6..27...4........71....65...24....6...5.";

/// Draws the diagonals of the board drawn in `c` as grey lines 2 px wide across each of their
/// cells from corner to corner, but for the cells `skip`: under the values (on the board's
/// white background only), as most pages draw them, or `over` them.
pub fn diagonal_lines(c: &mut Canvas, skip: &[usize], over: bool) {
    let board = sudobot::pixels::board::find(c.view()).expect("the drawn grid is found");
    let n = board.side;
    for i in (0..n * n).filter(|i| !skip.contains(i)) {
        let ((y0, y1), (x0, x1)) = (board.rows[i / n], board.cols[i % n]);
        let (r, col) = (i / n, i % n);
        for d in [0, 1].into_iter().filter(|&d| if d == 0 { r == col } else { r + col + 1 == n }) {
            for y in y0..=y1 {
                let dx = (y - y0) * (x1 - x0) / (y1 - y0);
                let x = if d == 0 { x0 + dx } else { x1 - dx };
                for x in x.saturating_sub(1).max(x0)..=x.min(x1) {
                    let p = (y * c.w + x) * 4;
                    if over || c.px[p..p + 3] == [255, 255, 255] {
                        c.px[p..p + 3].copy_from_slice(&[110, 110, 110]);
                    }
                }
            }
        }
    }
}

/// A committed fixture.
pub struct Fixture {
    /// Its file name.
    pub name: &'static str,
    pub canvas: Canvas,
    /// The board drawn, with how many of its cells must read as uncertain (no board: `None`).
    pub puzzle: Option<(Puzzle, usize)>,
    /// A photo: its board is found only once the picture is straightened
    /// ([`sudobot::pixels::read_picture`]).
    pub photo: bool,
}

impl Fixture {
    fn shot(name: &'static str, canvas: Canvas, puzzle: Option<(Puzzle, usize)>) -> Fixture {
        Fixture { name, canvas, puzzle, photo: false }
    }

    /// The fixture read as `solve --image` reads it.
    pub fn read(&self, image: Rgba<'_>) -> Result<BoardRead, sudobot::pixels::PixelError> {
        if self.photo { sudobot::pixels::read_picture(image) } else { read(image) }
    }
}

/// The committed fixtures under `tests/fixtures/pixels/`, drawn in held-out fonts; rebuilt
/// with `cargo run --release --example pixel_reports -- fixtures tests/fixtures/pixels`.
/// Each with the board drawn and how many of its cells must read as uncertain (no board:
/// `None`).
pub fn fixtures() -> Vec<Fixture> {
    let mut cells = Puzzle::givens(FIXTURE_PUZZLE).cells;
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
    let letters = letters_puzzle();
    let mut letters_shot = Canvas::new(560, 560, [255, 255, 255]);
    draw(&mut letters_shot, 12, 9, &letters, &Style { cell: 30, ..LIGHT }, &font);
    let photo = photo_fixture(&puzzle, &font);
    // A jigsaw (Solo 9j: one solution with its regions) drawn with its region borders.
    let jigsaw = Puzzle::givens(
        "6..2.38...21..4.7.........24.2..7....8..7..9....6..2.19.........5.8..12...71.8..5",
    );
    let mut jigsaw_shot = Canvas::new(300, 300, [255, 255, 255]);
    draw(&mut jigsaw_shot, 8, 8, &jigsaw, &Style { cell: 30, ..JIGSAW_STYLE }, &font);
    region_lines(&mut jigsaw_shot, JIGSAW_REGIONS.as_bytes());
    // An X (Solo 3x3x: two solutions as a classic board) with lines across its diagonals.
    let x = Puzzle::givens(X_PUZZLE);
    let mut x_shot = Canvas::new(300, 300, [255, 255, 255]);
    draw(&mut x_shot, 8, 8, &x, &style, &font);
    diagonal_lines(&mut x_shot, &[], false);
    vec![
        Fixture::shot("jigsaw-9x9.png", jigsaw_shot, Some((jigsaw, 0))),
        Fixture::shot("x-9x9.png", x_shot, Some((x, 0))),
        Fixture::shot("letters-16x16.png", letters_shot, Some((letters, 0))),
        Fixture::shot("screenshot-9x9.png", shot, Some((puzzle.clone(), 0))),
        Fixture::shot("number-pad.png", pad, None),
        Fixture::shot("smudge-spare.png", spare_shot, Some((spare, 1))),
        Fixture::shot("smudge-needed.png", needed_shot, Some((needed, 1))),
        Fixture { name: "photo-9x9.jpg", canvas: photo, puzzle: Some((puzzle, 0)), photo: true },
    ]
}

/// Reads a 9x9 board whose first cells hold `glyphs` (no digits) in every held-out font, and
/// gives the ones read as a certain digit: (font, glyph, digit).
pub fn glyphs_read_as_digits(glyphs: &[char]) -> Vec<(String, char, u8)> {
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

/// Glyphs shaped like digits: the templates hold all but `l` and `I` as no digit.
pub const TEMPLATE_LOOKALIKES: &[char] = &[
    'Z', 'S', 'B', 'O', 'l', 'I', 'g', 'q', 'b', 'A', 'G', 's', 'z', 'T', '$', '&', '@', '?', 't',
    'f', 'a', '%', '#',
];

/// Glyphs in no template: letters and signs, some of them shaped a little like digits.
pub const UNSEEN: &[char] =
    &['Y', 'D', 'E', 'L', 'P', 'R', 'e', 'y', 'h', 'n', 'C', 'U', 'H', 'k', 'r', 'x', 'd', 'p'];

/// A solved 16x16 board (boxes 4x4) with about a third of its cells left empty: values
/// 1 to 9, then A to G.
pub fn letters_puzzle() -> Puzzle {
    let cells = (0..256)
        .map(|i| {
            let (r, c) = (i / 16, i % 16);
            let v = ((r % 4) * 4 + r / 4 + c) % 16 + 1;
            if (i * 7 + r) % 3 == 0 { Drawn::Empty } else { Drawn::Given(v as u8) }
        })
        .collect();
    Puzzle { side: 16, bw: 4, bh: 4, cells }
}
