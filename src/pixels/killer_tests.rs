//! Killer boards drawn here (drawkit's grid and fonts, dashed outlines inside the cells, sums
//! in the first cells' corners): read exactly, or refused with the reason.

use super::super::drawkit::{Canvas, Drawn, LIGHT, Puzzle, Style, draw, font};
use super::*;
use crate::format::cages;
use crate::grid::killer::sample::{KILLER, killer_cages};

/// How the outlines and sums are drawn.
#[derive(Clone, Copy)]
struct Ink {
    /// Pixels in from the cell's side.
    inset: usize,
    /// Dash and gap lengths.
    dash: (usize, usize),
    /// The sums' size, a share of the cell.
    sum_scale: f32,
    colour: [u8; 3],
}

const INK_STYLE: Ink = Ink { inset: 4, dash: (4, 3), sum_scale: 0.23, colour: [70, 70, 70] };

fn style() -> Style {
    Style { cell: 56, scale: 0.55, ..LIGHT }
}

/// How a cage's sum is written: its number and sum in, the text out.
type SumText = dyn Fn(usize, u32) -> String;

/// A Killer drawn: `cells` the values (0 blank), the `cages` outlined and their sums written
/// as `sum_text` gives (the sum itself by default).
fn drawn(
    cells: &[u8],
    cages: &[Cage],
    ink: Ink,
    font_index: usize,
    sum_text: &SumText,
) -> (Canvas, Board) {
    let f = font(font_index);
    let puzzle = Puzzle {
        side: 9,
        bw: 3,
        bh: 3,
        cells: cells.iter().map(|&v| if v == 0 { Drawn::Empty } else { Drawn::Given(v) }).collect(),
    };
    let mut c = Canvas::new(560, 560, [250, 250, 250]);
    draw(&mut c, 10, 10, &puzzle, &style(), &f);
    let board = super::super::board::find(c.view()).expect("the drawn grid is found");
    let cage_of = |i: usize| cages.iter().position(|k| k.cells.contains(&i));
    let dot = |c: &mut Canvas, x: usize, y: usize, along: usize| {
        if along % (ink.dash.0 + ink.dash.1) < ink.dash.0 {
            c.rect(x, y, 1, 1, ink.colour);
        }
    };
    for i in (0..81).filter(|_| !cages.is_empty()) {
        let (r, col) = (i / 9, i % 9);
        let (x0, y0, x1, y1) = cell_rect(&board, i).unwrap();
        let d = ink.inset;
        let same = |dr: isize, dc: isize| {
            let (nr, nc) = (r as isize + dr, col as isize + dc);
            (0..9).contains(&nr)
                && (0..9).contains(&nc)
                && cage_of(nr as usize * 9 + nc as usize) == cage_of(i)
        };
        // Top and bottom: across, extended to the side where the cage goes on.
        for (dr, y) in [(-1, y0 + d), (1, y1 - d)] {
            if same(dr, 0) {
                continue;
            }
            let from = if same(0, -1) && !same(dr, -1) { x0 } else { x0 + d };
            let to = if same(0, 1) && !same(dr, 1) { x1 } else { x1 - d };
            for x in from..=to {
                dot(&mut c, x, y, x);
            }
        }
        for (dc, x) in [(-1, x0 + d), (1, x1 - d)] {
            if same(0, dc) {
                continue;
            }
            let from = if same(-1, 0) && !same(-1, dc) { y0 } else { y0 + d };
            let to = if same(1, 0) && !same(1, dc) { y1 } else { y1 - d };
            for y in from..=to {
                dot(&mut c, x, y, y);
            }
        }
    }
    let size = style().cell as f32 * ink.sum_scale;
    for (k, cage) in cages.iter().enumerate() {
        let first = cage.first().unwrap();
        let (x0, y0, _, _) = cell_rect(&board, first).unwrap();
        let text = sum_text(k, cage.sum);
        for (n, ch) in text.chars().enumerate() {
            let cx = (x0 + ink.inset + 4) as f32 + size * (0.3 + 0.6 * n as f32);
            let cy = (y0 + ink.inset + 3) as f32 + size * 0.36;
            c.glyph(&f, ch, size, cx, cy, [40, 40, 40]);
        }
    }
    (c, board)
}

fn plain(_: usize, sum: u32) -> String {
    sum.to_string()
}

/// The solution of [`KILLER`], as solved by the engine.
fn solution() -> Vec<u8> {
    let grid = cages::parse(KILLER).unwrap();
    match crate::solve::solve(&grid) {
        crate::solve::Verdict::Unique(g) => g.cells().to_vec(),
        other => panic!("the Killer has one solution: {other:?}"),
    }
}

#[test]
fn a_drawn_killer_reads_exactly_with_its_cages_and_values() {
    let want = killer_cages();
    let sol = solution();
    // A third of the cells filled in, the rest blank.
    let cells: Vec<u8> = (0..81).map(|i| if i % 3 == 1 { sol[i] } else { 0 }).collect();
    let mut exact = 0;
    let mut refused = Vec::new();
    for f in 0..6 {
        let (c, _) = drawn(&cells, &want, INK_STYLE, f, &plain);
        let got = read(c.view()).unwrap();
        match &got.cages {
            Ok(Some(cages)) => {
                assert_eq!(cages, &want, "font {f}");
                assert_eq!(got.variant(), "killer");
                assert!(
                    got.notes[0].contains("34 cages whose sums add up to 405"),
                    "{:?}",
                    got.notes
                );
                // Every value read certainly is the one drawn; uncertain ones refuse the board.
                for (i, cell) in got.read.cells.iter().enumerate() {
                    if cell.is_certain() {
                        assert_eq!(
                            cell.value.unwrap_or(0),
                            cells[i],
                            "font {f}, cell {i}: {cell:?}"
                        );
                    }
                }
                match got.read.grid() {
                    Ok(_) => exact += 1,
                    Err(e) => refused.push(format!("font {f}: {e}")),
                }
            }
            // A font whose small digits the naming is unsure of refuses; it never misreads.
            Err(e @ KillerError::Sum { .. }) => refused.push(format!("font {f}: {e}")),
            other => panic!("font {f}: {other:?}"),
        }
    }
    assert!(exact >= 4, "only {exact} of 6 fonts read exactly: {refused:?}");
}

#[test]
fn a_classic_board_has_no_cages_and_reads_as_before() {
    let sol = solution();
    let cells: Vec<u8> = (0..81).map(|i| if i % 2 == 0 { sol[i] } else { 0 }).collect();
    let (c, _) = drawn(&cells, &[], INK_STYLE, 0, &plain);
    let got = read(c.view()).unwrap();
    assert_eq!(got.cages, Ok(None));
    assert_eq!(got.read, super::super::read(c.view()).unwrap());
    assert_eq!(got.variant(), "classic");
}

#[test]
fn sums_that_do_not_add_up_to_405_are_refused() {
    let (c, _) = drawn(&[0; 81], &killer_cages(), INK_STYLE, 0, &|k, sum| {
        if k == 0 { (sum + 1).to_string() } else { sum.to_string() }
    });
    let got = read(c.view()).unwrap();
    assert_eq!(
        got.cages,
        Err(KillerError::Cages(OutlineError::Sums { total: 406, want: 405, cages: 34 }))
    );
}

#[test]
fn an_unreadable_sum_is_refused_naming_its_cell() {
    // The sum of the cage at r2c3 (16) written as `1#`.
    let (c, _) = drawn(&[0; 81], &killer_cages(), INK_STYLE, 0, &|k, sum| {
        if k == 7 { "1#".into() } else { sum.to_string() }
    });
    let got = read(c.view()).unwrap();
    let Err(KillerError::Sum { cell, why }) = &got.cages else {
        panic!("{:?}", got.cages);
    };
    assert_eq!(cell.to_string(), "r2c3", "{why}");
}

#[test]
fn an_outline_that_cannot_be_told_is_refused_naming_its_side() {
    let (mut c, board) = drawn(&[0; 81], &killer_cages(), INK_STYLE, 0, &plain);
    // r5c5's right side (the edge between cages at r4c5 and r5c6): its dashes rubbed out but
    // for one, which neither outlines nor leaves the side clear.
    let (x0, y0, x1, y1) = cell_rect(&board, 40).unwrap();
    let x = x1 - INK_STYLE.inset;
    c.rect(x, y0 + 8, 1, y1 - y0 - 16, [255, 255, 255]);
    c.rect(x, (y0 + y1) / 2, 1, 6, INK_STYLE.colour);
    let _ = x0;
    let got = read(c.view()).unwrap();
    let Err(KillerError::Outline { cell, side, why }) = &got.cages else {
        panic!("{:?}", got.cages);
    };
    assert_eq!((cell.to_string().as_str(), *side), ("r5c5", "right"), "{why}");
}

#[test]
fn an_outline_on_one_side_of_an_edge_only_is_refused() {
    let (mut c, board) = drawn(&[0; 81], &killer_cages(), INK_STYLE, 0, &plain);
    // r5c6's left side rubbed out whole: r5c5's right side still shows its outline.
    let (x0, y0, _, y1) = cell_rect(&board, 41).unwrap();
    c.rect(x0 + INK_STYLE.inset, y0 + 8, 1, y1 - y0 - 16, [255, 255, 255]);
    let got = read(c.view()).unwrap();
    let Err(e @ KillerError::Outline { .. }) = &got.cages else {
        panic!("{:?}", got.cages);
    };
    assert!(e.to_string().contains("left side of r5c6"), "{e}");
    assert!(e.to_string().contains("r5c5"), "{e}");
}

#[test]
fn zero_is_told_by_its_hole_and_no_other_glyph_is() {
    let ring = |w: usize, h: usize| -> Vec<bool> {
        (0..w * h)
            .map(|p| {
                let (x, y) = (p % w, p / w);
                x < 2 || y < 2 || x + 2 >= w || y + 2 >= h
            })
            .collect()
    };
    assert!(is_zero(&ring(7, 11), 7, 11));
    // Too wide, and a ring with a bar across (an 8's two holes).
    assert!(!is_zero(&ring(14, 11), 14, 11));
    let mut eight = ring(7, 11);
    for x in 0..7 {
        eight[5 * 7 + x] = true;
    }
    assert!(!is_zero(&eight, 7, 11));
}

/// Writes the Killer pictures `tests/pixels.rs` runs through `solve --image`: `killer-9x9.png`
/// (three givens) and `killer-9x9-bad.png` (the first cage's sum one too high). Rebuilt with
/// `cargo test --release --lib pixels::killer::tests::write_killer_fixtures -- --ignored`.
#[test]
#[ignore = "writes the committed fixtures"]
fn write_killer_fixtures() {
    let sol = solution();
    let cells: Vec<u8> =
        (0..81).map(|i| if [0, 40, 80].contains(&i) { sol[i] } else { 0 }).collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pixels");
    let bad = |k: usize, sum: u32| if k == 0 { (sum + 1).to_string() } else { sum.to_string() };
    let pictures: [(&str, &SumText); 2] =
        [("killer-9x9.png", &plain), ("killer-9x9-bad.png", &bad)];
    for (name, sums) in pictures {
        let (c, _) = drawn(&cells, &killer_cages(), INK_STYLE, 0, sums);
        let image = RgbaImage { width: c.w, height: c.h, data: c.px.clone() };
        std::fs::write(dir.join(name), super::super::encode_png(&image).unwrap()).unwrap();
    }
}
