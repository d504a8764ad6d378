//! The finder's tests on boards drawn here the ways games and apps draw them: tiles with
//! gaps between them on a page and a dark theme of tiles in several greys whose box lines
//! vanish across a highlighted column (GNOME Sudoku's look), both refused by the finder of
//! lines against one background colour (checked by running these tests against it); and,
//! as a guard, small boards of 24-pixel cells, 9x9, 6x6 and 4x4, in a window on a full
//! 1280x1024 screen (that finder reads these too).

use ab_glyph::FontVec;

use super::super::tests::{Canvas, Drawn, LIGHT, Puzzle, Style, draw, puzzle};
use super::super::{BoardRead, read};

/// A font the digit templates were not built from (Debian's fonts-freefont-ttf).
fn font() -> FontVec {
    let path = "/usr/share/fonts/truetype/freefont/FreeSans.ttf";
    let bytes = std::fs::read(path)
        .unwrap_or_else(|e| panic!("{path}: {e} (install fonts-freefont-ttf: bash .ci/deps test)"));
    FontVec::try_from_vec(bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The board read has the puzzle's side and box shape, no cell certain and wrong, and at
/// most one cell in `share` uncertain (a held-out font may leave a glyph unsure, more so in
/// small cells: reading them is the cell reader's work, not the finder's).
fn assert_read(read: &BoardRead, p: &Puzzle, what: &str, share: usize) {
    assert_eq!(read.board.side, p.side, "{what}: the side\n{read}");
    assert_eq!((read.board.box_width, read.board.box_height), (p.bw, p.bh), "{what}: boxes");
    let mut unsure = 0;
    for (i, (c, d)) in read.cells.iter().zip(&p.cells).enumerate() {
        let want = match d {
            Drawn::Given(v) | Drawn::Entry(v) => Some(*v),
            _ => None,
        };
        if !c.is_certain() {
            unsure += 1;
        } else {
            assert_eq!(c.value, want, "{what}: cell {i} misread\n{read}");
        }
    }
    assert!(unsure * share <= p.cells.len(), "{what}: {unsure} cells uncertain\n{read}");
}

/// Each cell's centre lies inside the row and column span the finder gives it.
fn assert_cells_at(read: &BoardRead, x: usize, y: usize, pitch: usize, what: &str) {
    for k in 0..read.board.side {
        let centre_x = x + pitch * k + pitch / 2;
        let centre_y = y + pitch * k + pitch / 2;
        let (c0, c1) = read.board.cols[k];
        let (r0, r1) = read.board.rows[k];
        assert!(c0 < centre_x && centre_x < c1, "{what}: column {k} is {c0}..{c1}");
        assert!(r0 < centre_y && centre_y < r1, "{what}: row {k} is {r0}..{r1}");
        assert!(c1 - c0 + 8 >= pitch && r1 - r0 + 8 >= pitch, "{what}: cell {k} cropped");
    }
}

/// Draws the board as square tiles of `tile` pixels with `gap` pixels between them (`box_gap`
/// between boxes) showing the canvas below, each tile filled as `fill(row, col)` says and its
/// value drawn in `ink`; gives the tiles' pitch.
#[allow(clippy::too_many_arguments)]
fn tiles(
    c: &mut Canvas,
    (x, y): (usize, usize),
    p: &Puzzle,
    tile: usize,
    (gap, box_gap): (usize, usize),
    fill: impl Fn(usize, usize) -> [u8; 3],
    ink: [u8; 3],
    font: &FontVec,
) {
    let at = |k: usize, step: usize| k * (tile + gap) + (k / step) * (box_gap - gap);
    for r in 0..p.side {
        for col in 0..p.side {
            let (tx, ty) = (x + at(col, p.bw), y + at(r, p.bh));
            c.rect(tx, ty, tile, tile, fill(r, col));
            if let Drawn::Given(v) = p.cells[r * p.side + col] {
                let (cx, cy) = ((tx + tile / 2) as f32, (ty + tile / 2) as f32);
                c.glyph(font, char::from(b'0' + v), tile as f32 * 0.7, cx, cy, ink);
            }
        }
    }
}

/// A 9x9 board of white tiles 4 pixels apart on a grey page, with no line drawn anywhere and
/// boxes no further apart than cells (as many web and phone boards are drawn).
#[test]
fn tiles_with_gaps_on_a_page_are_found() {
    let font = font();
    let p = puzzle(9, 3, 3, 7, false, false);
    let mut c = Canvas::new(700, 760, [232, 234, 238]);
    tiles(&mut c, (90, 150), &p, 52, (4, 4), |_, _| [255, 255, 255], [30, 30, 40], &font);
    let read = read(c.view()).expect("the tiles are found as a board");
    assert_cells_at(&read, 90, 150, 56, "tiles");
    assert!(!read.board.boxes_seen, "no box is drawn apart");
    assert_read(&read, &p, "tiles with gaps", 10);
}

/// GNOME Sudoku's dark theme: a dark window on a coloured 1280x1024 desktop; tiles of two
/// greys (givens darker) a pixel apart over a lighter line colour, box lines two pixels wide
/// and lighter still; the selected cell blue and its column in the box lines' own colour,
/// so each box line vanishes where it crosses that column.
#[test]
fn a_dark_theme_of_tiles_with_a_highlighted_column_is_found() {
    let font = font();
    let p = puzzle(9, 3, 3, 13, false, false);
    let (grey, given, line, box_line) = ([69, 69, 69], [52, 52, 52], [91, 91, 91], [116, 116, 116]);
    let mut c = Canvas::new(1280, 1024, [24, 70, 110]);
    c.rect(300, 150, 660, 720, [36, 36, 36]);
    c.rect(300, 150, 660, 46, [48, 48, 48]);
    let (x, y, tile) = (330, 220, 66);
    // Tile k starts at `at(k)`: a pixel of line colour after each tile, two of the box
    // lines' colour after each third.
    let at = |k: usize| k * (tile + 1) + k / 3;
    let side = at(8) + tile;
    c.rect(x, y, side, side, line);
    for k in [3, 6] {
        c.rect(x + at(k) - 2, y, 2, side, box_line);
        c.rect(x, y + at(k) - 2, side, 2, box_line);
    }
    let (sel_r, sel_c) = (4, 4);
    let fill = |r: usize, col: usize| {
        if (r, col) == (sel_r, sel_c) {
            [52, 86, 140]
        } else if col == sel_c {
            box_line
        } else if matches!(p.cells[r * 9 + col], Drawn::Given(_)) {
            given
        } else {
            grey
        }
    };
    tiles(&mut c, (x, y), &p, tile, (1, 2), fill, [235, 235, 235], &font);
    let read = read(c.view()).expect("the dark board is found");
    assert_eq!(read.board.side, 9);
    assert!(read.board.left.abs_diff(x) <= 2 && read.board.top.abs_diff(y) <= 2, "{read:?}");
    assert_read(&read, &p, "dark tiles", 10);
}

/// KDE's KSudoku in a dark theme: tiles of 50 pixels 6 apart (more than a tenth of the
/// pitch), empty tiles a shade off the dark page, givens lighter, no line between cells and a
/// thin blue line down the middle of the gaps between boxes, a column tinted blue. The gaps
/// are wide, but their edges sharp: not a blurred picture's lines.
#[test]
fn a_dark_theme_of_tiles_with_wide_gaps_is_found() {
    let font = font();
    let p = puzzle(9, 3, 3, 17, false, false);
    let (page, empty, given, blue) = ([35, 38, 41], [49, 52, 56], [78, 78, 78], [61, 174, 233]);
    let mut c = Canvas::new(780, 880, [49, 54, 59]);
    c.rect(130, 150, 600, 620, page);
    let (x, y, tile, gap) = (166, 204, 50, 6);
    let pitch = tile + gap;
    // The box lines frame the board too, half a gap outside its tiles.
    for k in [0, 3, 6, 9] {
        c.rect(x + k * pitch, y, 1, 9 * pitch + 1, blue);
        c.rect(x, y + k * pitch, 9 * pitch + 1, 1, blue);
    }
    let fill = |r: usize, col: usize| match (col, p.cells[r * 9 + col].clone()) {
        (2, _) => [44, 72, 94],
        (_, Drawn::Given(_)) => given,
        _ => empty,
    };
    tiles(&mut c, (x + gap / 2, y + gap / 2), &p, tile, (gap, gap), fill, [238, 238, 238], &font);
    let read = read(c.view()).expect("the board of tiles is found");
    assert_eq!(read.board.side, 9);
    assert_cells_at(&read, x, y, pitch, "wide gaps");
    assert_read(&read, &p, "tiles with wide gaps", 10);
}

/// Small boards of 24-pixel cells in a light window, alone on a full 1280x1024 screen of
/// another colour with a menu bar and a status line: 9x9, 6x6 (boxes 3 wide, 2 tall, seen
/// by their thicker lines) and 4x4.
#[test]
fn small_boards_on_a_full_screen_are_found() {
    let font = font();
    for (side, bw, bh, seed) in [(9, 3, 3, 17), (6, 3, 2, 19), (4, 2, 2, 23)] {
        let style = Style { cell: 24, thin: 1, thick: 2, line: [0, 0, 0], ..LIGHT };
        let p = puzzle(side, bw, bh, seed, false, false);
        let mut c = Canvas::new(1280, 1024, [68, 84, 108]);
        c.rect(400, 300, 320, 340, [214, 214, 214]);
        c.rect(400, 300, 320, 24, [238, 238, 238]);
        for (i, ch) in "Game  Type  Help".chars().enumerate() {
            c.glyph(&font, ch, 14.0, 410.0 + i as f32 * 9.0, 312.0, [0, 0, 0]);
        }
        let size = draw(&mut c, 430, 340, &p, &style, &font);
        for (i, ch) in "Solved in 0 moves".chars().enumerate() {
            c.glyph(&font, ch, 12.0, 410.0 + i as f32 * 7.0, 350.0 + size as f32, [0, 0, 0]);
        }
        let what = format!("{side}x{side} in 24-pixel cells");
        let read = read(c.view()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!((read.board.left, read.board.top), (430, 340), "{what}");
        assert_read(&read, &p, &what, 4);
    }
}

/// The finders mark a pixel as ink or edge sixteen bytes at a time (`mark_far`): pixel by
/// pixel that agrees with the largest channel difference, on rows of every length (the
/// pixels after the last whole sixteen bytes too) and at the two thresholds used, with
/// differences drawn near them.
#[test]
fn far_pixels_are_marked_as_their_colour_distance_says() {
    use super::{distance3, mark_far};
    let mut rng = fastrand::Rng::with_seed(34);
    for n in [0, 1, 3, 4, 5, 7, 16, 17, 63, 64, 65, 130, 201] {
        for least in [11u8, 40] {
            let a: Vec<u8> =
                (0..n * 4).map(|i| if i % 4 == 3 { 255 } else { rng.u8(..) }).collect();
            let b: Vec<u8> = a
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let step = i32::from(least) + rng.i32(-2..=2) * if rng.bool() { 1 } else { -1 };
                    let moved = if rng.u8(0..4) == 0 { i32::from(v) + step } else { i32::from(v) };
                    if i % 4 == 3 { v } else { moved.clamp(0, 255) as u8 }
                })
                .collect();
            let mut out = vec![9u8; n];
            mark_far(&a, &b, least, &mut out);
            for k in 0..n {
                let (p, q) = (
                    [a[4 * k], a[4 * k + 1], a[4 * k + 2]],
                    [b[4 * k], b[4 * k + 1], b[4 * k + 2]],
                );
                assert_eq!(
                    out[k],
                    u8::from(distance3(p, q) > least),
                    "{n} pixels, {least}: pixel {k}"
                );
            }
        }
    }
}

/// A row as the finders take it (`opaque_row`): the colours `rgb` gives (half-transparent
/// pixels as drawn on white), the fourth byte 255; an opaque row is the image's own.
#[test]
fn an_opaque_row_gives_the_colours_drawn_on_white() {
    let mut rng = fastrand::Rng::with_seed(7);
    let (w, h) = (45, 41);
    let mut data: Vec<u8> = (0..w * h * 4).map(|_| rng.u8(..)).collect();
    for p in data.chunks_exact_mut(4).take(w * 20) {
        p[3] = 255;
    }
    let image = super::super::Rgba::new(w, h, &data).expect("sizes");
    let mut scratch = Vec::new();
    for y in 0..h {
        let row = image.opaque_row(y, &mut scratch).to_vec();
        assert_eq!(row.len(), w * 4);
        for x in 0..w {
            let [r, g, b] = image.rgb(x, y);
            assert_eq!(row[x * 4..x * 4 + 4], [r, g, b, 255], "pixel ({x}, {y})");
        }
    }
    assert!(image.opaque_row(h, &mut scratch).is_empty());
}

/// The end of a run of ink found eight pixels at a time (`next_clear`) is the first zero
/// byte at or after where it starts, whatever the non-zero bytes, on rows of every length.
#[test]
fn the_first_background_pixel_is_found_eight_at_a_time() {
    let mut rng = fastrand::Rng::with_seed(8);
    for len in 0..70 {
        for _ in 0..40 {
            let dense = rng.u8(0..100);
            let row: Vec<u8> =
                (0..len).map(|_| if rng.u8(0..100) < dense { rng.u8(1..) } else { 0 }).collect();
            for from in 0..=len {
                let want = row[from..].iter().position(|&b| b == 0).map_or(len, |k| from + k);
                assert_eq!(super::next_clear(&row, from), want, "{row:?} from {from}");
            }
        }
    }
}

/// The colour counts of [`super::backgrounds`], taken a run of like samples at a time, are
/// those of every sample counted alone: on images above a million pixels (every second or
/// third pixel sampled), with runs of one colour, noise and see-through pixels.
#[test]
fn colours_are_counted_as_one_sample_at_a_time_would() {
    let mut rng = fastrand::Rng::with_seed(34);
    for (w, h) in [(1000, 1000), (1500, 1400), (1999, 1501), (137, 141)] {
        let mut data = Vec::with_capacity(w * h * 4);
        while data.len() < w * h * 4 {
            let pixel = [rng.u8(..), rng.u8(..), rng.u8(..), [255, 255, 0, 128][rng.usize(0..4)]];
            let run = if rng.bool() { rng.usize(1..4) } else { rng.usize(1..3000) };
            for _ in 0..run.min(w * h - data.len() / 4) {
                data.extend_from_slice(&pixel);
            }
        }
        let image = super::super::Rgba::new(w, h, &data).expect("sizes");
        let step = (w * h / 1_000_000).max(1);
        let mut want = vec![0u32; 4096];
        for p in (step - 1..w * h).step_by(step) {
            let [r, g, b] = image.rgb_at(p);
            let bin = (usize::from(r >> 4) << 8) | (usize::from(g >> 4) << 4) | usize::from(b >> 4);
            want[bin] += 1;
        }
        assert_eq!(super::colour_counts(image), want, "{w}x{h}");
    }
}

/// The runs down the columns found a row at a time ([`super::Columns`]) are those found
/// along each column as along a row ([`super::row_runs`]), gaps bridged alike.
#[test]
fn runs_down_columns_are_runs_along_rows() {
    let mut rng = fastrand::Rng::with_seed(22);
    for gap in [super::MAX_GAP, super::EDGE_GAP] {
        let (w, h) = (61, 300);
        // Columns of every density: long lines with holes, and noise.
        let dense: Vec<u8> = (0..w).map(|_| rng.u8(0..=100)).collect();
        let mask: Vec<Vec<u8>> =
            (0..h).map(|_| (0..w).map(|x| u8::from(rng.u8(0..100) < dense[x])).collect()).collect();
        let mut columns = super::Columns::new(w, gap);
        for (y, row) in mask.iter().enumerate() {
            columns.feed(y, row);
        }
        for k in 0..w {
            columns.close(k);
        }
        let mut runs = Vec::new();
        for x in 0..w {
            let column: Vec<u8> = mask.iter().map(|row| row[x]).collect();
            super::row_runs(&column, gap, &mut runs);
            assert_eq!(columns.runs[x], runs, "gap {gap}, column {x}");
        }
    }
}

/// An image opaque but for a row far below its board is searched by its edges in a copy
/// (drawn on white) from that row on, and found there as in the opaque copy itself.
#[test]
fn a_see_through_row_below_the_board_is_searched_in_a_copy() {
    let font = font();
    let p = puzzle(9, 3, 3, 5, false, false);
    let mut c = Canvas::new(700, 600, [24, 70, 110]);
    let fill = |_: usize, _: usize| [69, 69, 69];
    tiles(&mut c, (40, 30), &p, 50, (1, 2), fill, [235, 235, 235], &font);
    let mut data = c.view().data.to_vec();
    let (w, h) = (700, 600);
    for pixel in data[(h - 3) * w * 4..(h - 2) * w * 4].chunks_exact_mut(4) {
        pixel[3] = 100;
    }
    let image = super::super::Rgba::new(w, h, &data).expect("sizes");
    assert!(super::edge_lines(&data, w, true).is_none(), "the see-through row is seen");
    let mut scratch = Vec::new();
    let copy: Vec<u8> = (0..h).flat_map(|y| image.opaque_row(y, &mut scratch).to_vec()).collect();
    let opaque = super::super::Rgba::new(w, h, &copy).expect("sizes");
    let board = super::find_by_edges(image).expect("the board is found");
    assert_eq!(Ok(board), super::find_by_edges(opaque));
}
