//! X boards drawn here (drawkit's grid and fonts): diagonals shaded or crossed by lines are
//! read as an X exactly; marks that are not exactly both diagonals are refused; boards with
//! other tints are not taken for an X.

use super::super::drawkit::{Canvas, LIGHT, Puzzle, Style, X_PUZZLE, diagonal_lines, draw, font};
use super::*;
use crate::solve::count_solutions;

const XPUZZLE: &str = X_PUZZLE;

fn style() -> Style {
    Style { cell: 48, ..LIGHT }
}

/// The X puzzle drawn on a white page, and the board found in it.
fn plain() -> (Canvas, Board) {
    let p = Puzzle::givens(XPUZZLE);
    let mut c = Canvas::new(480, 480, [255, 255, 255]);
    draw(&mut c, 12, 12, &p, &style(), &font(0));
    let board = super::super::board::find(c.view()).expect("the drawn grid is found");
    (c, board)
}

/// Whether cell `i` of a 9x9 lies on a diagonal.
fn on_diagonal(i: usize) -> bool {
    let (r, c) = (i / 9, i % 9);
    r == c || r + c == 8
}

/// The cells `which` of `c` shaded `colour`: their white pixels recoloured.
fn shade(c: &mut Canvas, board: &Board, which: impl Fn(usize) -> bool, colour: [u8; 3]) {
    for i in (0..81).filter(|&i| which(i)) {
        let ((y0, y1), (x0, x1)) = (board.rows[i / 9], board.cols[i % 9]);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let p = (y * c.w + x) * 4;
                if c.px[p..p + 3] == [255, 255, 255] {
                    c.px[p..p + 3].copy_from_slice(&colour);
                }
            }
        }
    }
}

/// Both diagonals crossed by grey lines (`over` the digits or under them), but for the cells
/// `skip`.
fn crossed(skip: &[usize], over: bool) -> Canvas {
    let (mut c, _) = plain();
    diagonal_lines(&mut c, skip, over);
    c
}

/// The read of `c`, checked to be the X puzzle with its diagonals and one solution.
fn assert_read_as_x(c: &Canvas, how: Marked) {
    let read = super::super::read(c.view()).expect("read");
    assert_eq!(read.board.diagonals, Some(how));
    let grid = read.grid().expect("every cell certain");
    let want: Vec<u8> = XPUZZLE.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
    assert_eq!(grid.cells(), &want[..], "the digits under the marks read as drawn");
    assert!(read.geometry().unwrap().has_diagonals());
    assert_eq!(count_solutions(&grid, 2).unwrap().found, 1, "one solution as an X");
}

#[test]
fn shaded_diagonals_are_an_x_and_a_selected_cell_may_hide_one_of_them() {
    let (mut c, board) = plain();
    shade(&mut c, &board, on_diagonal, [225, 232, 245]);
    assert_read_as_x(&c, Marked::Shaded);
    // The player's selected cell, on a diagonal, drawn in its own colour.
    shade(&mut c, &board, |i| i == 20, [200, 200, 255]);
    let read = super::super::read(c.view()).expect("read");
    assert_eq!(read.board.diagonals, Some(Marked::Shaded));
}

#[test]
fn diagonals_crossed_by_lines_are_an_x_and_the_digits_under_them_read() {
    // The lines run under r2c2's 7, r4c6's 1 and other givens: they are painted over before
    // the cells are read.
    assert_read_as_x(&crossed(&[], false), Marked::Lines);
    // Drawn over the digits, they cut their strokes: a cut digit may be uncertain, never
    // read as another.
    let read = super::super::read(crossed(&[], true).view()).expect("read");
    assert_eq!(read.board.diagonals, Some(Marked::Lines));
    for (i, cell) in read.cells.iter().enumerate().filter(|(_, c)| c.is_certain()) {
        let want = XPUZZLE.as_bytes()[i];
        assert_eq!(cell.value, (want != b'.').then(|| want - b'0'), "cell {i}");
    }
}

#[test]
fn marks_that_are_not_exactly_both_diagonals_are_refused() {
    // One diagonal shaded.
    let (mut c, board) = plain();
    shade(&mut c, &board, |i| i / 9 == i % 9, [225, 232, 245]);
    let e = super::super::read(c.view()).unwrap_err().to_string();
    assert!(e.contains("the board's diagonals look marked (shaded): 9 of their 17"), "{e}");
    assert!(e.contains("r1c9 is not"), "{e}");
    // Both, but for the centre.
    let (mut c, board) = plain();
    shade(&mut c, &board, |i| on_diagonal(i) && i != 40, [225, 232, 245]);
    let e = super::super::read(c.view()).unwrap_err().to_string();
    assert!(e.contains("16 of their 17 cells are, r5c5 is not"), "{e}");
    // Both, and two cells more.
    let (mut c, board) = plain();
    shade(&mut c, &board, |i| on_diagonal(i) || i == 1 || i == 31, [225, 232, 245]);
    let e = super::super::read(c.view()).unwrap_err().to_string();
    assert!(e.contains("and 2 other cells are too"), "{e}");
    // Lines across one diagonal only.
    let anti: Vec<usize> = (0..9).map(|r| r * 9 + 8 - r).filter(|&i| i != 40).collect();
    let e = super::super::read(crossed(&anti, false).view()).unwrap_err().to_string();
    assert!(e.contains("(crossed by a line from corner to corner): 9 of their 17"), "{e}");
}

#[test]
fn tints_that_do_not_follow_the_diagonals_are_no_x() {
    // A selected cell's row, column and box tinted (as sudoku.com does), at r1c1: five
    // diagonal cells among them.
    let (mut c, board) = plain();
    shade(
        &mut c,
        &board,
        |i| i / 9 == 0 || i % 9 == 0 || (i / 9 < 3 && i % 9 < 3),
        [226, 235, 243],
    );
    let read = super::super::read(c.view()).expect("read");
    assert_eq!(read.board.diagonals, None);
    // Half the board darker (uneven light): diagonal cells among many others.
    let (mut c, board) = plain();
    shade(&mut c, &board, |i| i % 9 < 5, [232, 232, 232]);
    assert_eq!(super::super::read(c.view()).expect("read").board.diagonals, None);
    // A classic board.
    let (c, _) = plain();
    assert_eq!(super::super::read(c.view()).expect("read").board.diagonals, None);
}
