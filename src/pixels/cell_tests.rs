//! Cells drawn as other games draw them (see `cells.rs`): a selected cell in a thick frame,
//! pencil marks stacked in a layout's middle column.

use super::super::drawkit::*;
use super::super::{CellKind, read};

/// A board in a held-out font, and the board read from it unchanged.
fn board(p: &Puzzle, s: &Style) -> Canvas {
    let mut c = Canvas::new(40 + 9 * (s.cell + s.thick), 40 + 9 * (s.cell + s.thick), s.bg);
    draw(&mut c, 10, 10, p, s, &font(0));
    c
}

/// GNOME Sudoku frames the selected cell with a thick blue border inside its lines; the value
/// inside is read (it was uncertain: the frame, the cell's rim colour, made the white inside
/// look like ink).
#[test]
fn a_value_in_a_thick_selection_frame_is_read() {
    let p = puzzle(9, 3, 3, 21, false, false);
    let i = p.cells.iter().position(|d| matches!(d, Drawn::Given(v) if *v > 1)).expect("a given");
    let mut c = board(&p, &Style { cell: 48, ..LIGHT });
    let plain = read(c.view()).expect("the board is found");
    let ((y0, y1), (x0, x1)) = (plain.board.rows[i / 9], plain.board.cols[i % 9]);
    let (blue, t) = ([74, 144, 217], 5);
    c.rect(x0, y0, x1 - x0 + 1, t, blue);
    c.rect(x0, y1 + 1 - t, x1 - x0 + 1, t, blue);
    c.rect(x0, y0, t, y1 - y0 + 1, blue);
    c.rect(x1 + 1 - t, y0, t, y1 - y0 + 1, blue);
    let framed = read(c.view()).expect("the board is found");
    assert_eq!(framed.cells[i].value, expected(&p.cells[i]).0, "{framed}");
    assert!(framed.cells[i].is_certain(), "{framed}");
    assert_eq!(score(&framed, &p).1, 0, "{framed}");
}

/// Pencil marks 2 and 8 in a 3x3 layout sit in the middle column with the row of 5 blank
/// between them (OpenSudoku): pencil marks, not a broken glyph (they were uncertain).
#[test]
fn marks_stacked_apart_in_the_middle_column_are_pencil_marks() {
    let mut p = puzzle(9, 3, 3, 22, false, false);
    p.cells[40] = Drawn::Pencil(vec![2, 8]);
    let c = board(&p, &Style { cell: 48, ..LIGHT });
    let read = read(c.view()).expect("the board is found");
    assert_eq!(read.cells[40].kind, CellKind::Pencil, "{read}");
    assert!(read.cells[40].is_certain(), "{read}");
    assert_eq!(score(&read, &p).1, 0, "{read}");
}

/// A given printed pale (red print on beige paper, photographed, is as faint) is less than
/// [`super::EMPTY_CONTRAST`] from its cell: a large glyph in the cell's middle is read or left
/// uncertain, never taken for a certain empty cell (which loses a given).
#[test]
fn a_pale_given_is_never_a_certain_empty_cell() {
    let p = puzzle(9, 3, 3, 23, false, false);
    let i = p.cells.iter().position(|d| matches!(d, Drawn::Given(_))).expect("a given");
    let Drawn::Given(v) = p.cells[i] else { unreachable!() };
    let s = Style { cell: 48, ..LIGHT };
    let mut c = board(&p, &s);
    let plain = read(c.view()).expect("the board is found");
    let ((y0, y1), (x0, x1)) = (plain.board.rows[i / 9], plain.board.cols[i % 9]);
    c.rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1, s.bg);
    let (cx, cy) = ((x0 + x1) as f32 / 2.0, (y0 + y1) as f32 / 2.0);
    let size = s.cell as f32 * s.scale;
    c.glyph(&font(0), char::from(b'0' + v), size, cx, cy, [222, 222, 222]);
    let pale = read(c.view()).expect("the board is found");
    let cell = pale.cells[i];
    assert!(
        !cell.is_certain() || cell.value == Some(v),
        "r{}c{} {cell:?}\n{pale}",
        i / 9 + 1,
        i % 9 + 1
    );
    assert_eq!(score(&pale, &p).1, 0, "{pale}");
}

/// A thick grid line left inside a cell along its side (a photo's board found a few pixels
/// off): the value inside it is read, past the line (it was uncertain before the second look).
#[test]
fn a_value_past_a_line_left_along_its_side_is_read() {
    let p = puzzle(9, 3, 3, 24, false, false);
    let i = p.cells.iter().position(|d| matches!(d, Drawn::Given(_))).expect("a given");
    let mut c = board(&p, &Style { cell: 48, ..LIGHT });
    let plain = read(c.view()).expect("the board is found");
    let ((y0, y1), (x0, _)) = (plain.board.rows[i / 9], plain.board.cols[i % 9]);
    c.rect(x0 + 5, y0, 3, y1 - y0 + 1, [30, 30, 30]);
    let lined = read(c.view()).expect("the board is found");
    assert_eq!(lined.cells[i].value, expected(&p.cells[i]).0, "{lined}");
    assert!(lined.cells[i].is_certain(), "{lined}");
    assert_eq!(score(&lined, &p).1, 0, "{lined}");
}
