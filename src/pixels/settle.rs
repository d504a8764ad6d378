//! The puzzle's rules settle a glyph the readers narrowed to two or three digits: a blurred
//! photo's 6 may read nearly as well as an 8, but when the board's certain givens already hold
//! an 8 in its row, column or box, or an 8 there leaves the givens no solution, it is a 6. A
//! person reads a doubtful print that way too.
//!
//! Sound as long as three things hold: the certain reads are right, the glyph is one of the
//! candidate digits, and the printed givens have a solution. The second is why candidates are
//! taken only where the templates find the glyph alike two digits and the network reads a digit
//! (one of those two, or a third that joins them). On the development set's photos, every
//! uncertain glyph read so was one of its candidates (103 settled cells over the 270 pictures
//! and every read tried on them, all right), while a glyph the network found no digit in (a
//! webcam's 4 the templates took for a 6 or an 8) or that the templates found alike no pair (a
//! mark read as a 1) was often none of them. Only givens count, and only givens are settled: a
//! player's entries may break the rules.

use std::sync::Arc;

use super::board::Board;
use super::cells::Net;
use super::digits::{Guess, Scores};
use super::{CellKind, CellRead, Settled};
use crate::grid::{Geometry, Grid};
use crate::solve::{self, Budget};

/// The search that asks whether the givens with one more digit still have a solution stops
/// after this many branch points and counts the digit as possible (a sparse 16x16 board must
/// not stall the read).
const BRANCH_BUDGET: u64 = 20_000;

/// The branch points of all the searches for one board together: past them nothing more is
/// settled (a bound on the time a doubtful 16x16 read may take).
const TOTAL_BUDGET: u64 = 200_000;

/// A board with more uncertain cells than this is too poor a read to reason from (the more
/// doubts, the likelier one is none of its candidates), and the searches stay few.
const MOST_DOUBTS: usize = 16;

/// The cells the rules settle (see the module). Empty for a board with pencil marks (a photo
/// read before its perspective is undone may cut a given into what passes for marks, and such
/// a read keeps its doubts), with more than [`MOST_DOUBTS`] uncertain cells, or whose geometry
/// cannot be made.
pub(super) fn settle(
    board: &Board,
    cells: &[CellRead],
    scores: &[Option<Scores>],
    nets: &[Net],
) -> Vec<Settled> {
    let uncertain = cells.iter().filter(|c| !c.is_certain()).count();
    if uncertain > MOST_DOUBTS || cells.iter().any(|c| c.kind == CellKind::Pencil) {
        return Vec::new();
    }
    let Ok(geometry) = board.geometry() else { return Vec::new() };
    let givens: Vec<u8> = cells
        .iter()
        .map(|c| match (c.kind, c.value) {
            (CellKind::Given, Some(v)) if c.is_certain() => v,
            _ => 0,
        })
        .collect();
    let doubts: Vec<(usize, Vec<u8>)> = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == CellKind::Given && !c.is_certain())
        .filter_map(|(cell, _)| {
            let guess = scores.get(cell)?.as_ref()?.guess(&[false; 10])?;
            let net = nets.get(cell)?.reading().value;
            Some((cell, candidates(&guess, net, board.side)?))
        })
        .collect();
    settle_doubts(&geometry, givens, doubts)
}

/// The digits a glyph's readers narrowed it to: the templates' two best, when the glyph is
/// torn between them (see [`Guess::torn`]) and the network reads a digit; with the network's
/// digit besides where it is neither (a webcam's open 4 that the templates take for a 6 or an
/// 8). All are values of the board.
fn candidates(guess: &Guess, net: u8, side: usize) -> Option<Vec<u8>> {
    let mut digits = vec![guess.digit, guess.second];
    if !digits.contains(&net) {
        digits.push(net);
    }
    let values = digits.iter().all(|&d| (1..=side).contains(&usize::from(d)));
    (guess.torn() && values && net != 0).then_some(digits)
}

/// Settles each of `doubts` (a cell and its candidate digits) for which all digits but one
/// leave `givens` (0 for blank) with no solution, once the cells settled before it are among the
/// givens; rounds until none is settled.
fn settle_doubts(
    geometry: &Arc<Geometry>,
    mut givens: Vec<u8>,
    mut doubts: Vec<(usize, Vec<u8>)>,
) -> Vec<Settled> {
    let mut spent = 0u64;
    // Whether `digit` in `cell` leaves `givens` a solution; `None` once the searches together
    // went past [`TOTAL_BUDGET`] (then nothing more is settled).
    let mut possible = |givens: &[u8], cell: usize, digit: u8| -> Option<bool> {
        let left = TOTAL_BUDGET.checked_sub(spent)?;
        let budget = Budget { time: None, guesses: Some(left.min(BRANCH_BUDGET)) };
        let mut with = givens.to_vec();
        with[cell] = digit;
        let Ok(grid) = Grid::new(geometry.clone(), with) else { return Some(false) };
        Some(match solve::count_solutions_within(&grid, 1, &budget) {
            Err(_) => false,
            Ok(count) => {
                spent += count.guesses.max(1);
                count.found > 0 || count.gave_up
            }
        })
    };
    let mut settled = Vec::new();
    loop {
        let before = settled.len();
        let mut i = 0;
        while i < doubts.len() {
            let (cell, digits) = &doubts[i];
            let (mut left, mut out) = (Vec::new(), Vec::new());
            for &d in digits {
                match possible(&givens, *cell, d) {
                    None => return settled,
                    Some(true) => left.push(d),
                    Some(false) => out.push(d),
                }
            }
            let cell = *cell;
            let [digit] = left[..] else {
                i += 1;
                continue;
            };
            givens[cell] = digit;
            settled.push(Settled { cell, digit, ruled_out: out });
            doubts.remove(i);
        }
        if settled.len() == before {
            return settled;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9x9 puzzle with one solution, givens in reading order.
    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn givens(text: &str) -> Vec<u8> {
        text.bytes().map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 }).collect()
    }

    fn classic() -> Arc<Geometry> {
        Arc::new(Geometry::boxed(3, 3).expect("3x3 boxes"))
    }

    fn guess(digit: u8, second: u8, similarity: f32, runner_up: f32, not_a_digit: f32) -> Guess {
        Guess { digit, similarity, second, runner_up, not_a_digit, confidence: 0.1 }
    }

    #[test]
    fn the_candidates_are_two_alike_digits_and_the_networks() {
        let blurred = guess(8, 6, 0.92, 0.89, 0.81);
        assert_eq!(candidates(&blurred, 6, 9), Some(vec![8, 6]));
        assert_eq!(candidates(&blurred, 8, 9), Some(vec![8, 6]));
        // The network reads a third digit (an open 4 the templates take for a 6 or an 8).
        assert_eq!(candidates(&blurred, 4, 9), Some(vec![8, 6, 4]));
        // The network reads no digit: the glyph may be neither.
        assert_eq!(candidates(&blurred, 0, 9), None);
        // The second digit is not close, or a mark looks more like no digit than like it.
        assert_eq!(candidates(&guess(1, 4, 0.78, 0.70, 0.60), 1, 9), None);
        assert_eq!(candidates(&guess(8, 6, 0.92, 0.89, 0.90), 8, 9), None);
        // No value of a 4x4 board.
        assert_eq!(candidates(&guess(3, 8, 0.92, 0.90, 0.5), 3, 4), None);
    }

    #[test]
    fn the_settled_note_names_every_digit() {
        let board = crate::pixels::test_board(9, (3, 3), (0, 0), 48, 2);
        let empty = CellRead { kind: CellKind::Empty, value: None, confidence: 1.0 };
        let mut read = super::super::BoardRead { board, cells: vec![empty; 81], settled: vec![] };
        read.settled = vec![
            Settled { cell: 2, digit: 4, ruled_out: vec![5] },
            Settled { cell: 10, digit: 7, ruled_out: vec![1, 4] },
        ];
        assert_eq!(
            read.settled_notes(),
            [
                "r1c3: the glyph reads 4 or 5; it is 4, since 5 there leaves the certain givens \
                 no solution",
                "r2c2: the glyph reads 7, 1 or 4; it is 7, since 1 or 4 there leave the certain \
                 givens no solution",
            ]
        );
    }

    #[test]
    fn the_digit_that_leaves_no_solution_is_ruled_out() {
        // r1c3 holds a 4 in the solution; a 5 there repeats r1c1's 5.
        let g = givens(PUZZLE);
        let settled = settle_doubts(&classic(), g.clone(), vec![(2, vec![5, 4])]);
        assert_eq!(settled, vec![Settled { cell: 2, digit: 4, ruled_out: vec![5] }]);
        // Both digits leave solutions: nothing is settled.
        assert!(settle_doubts(&classic(), vec![0; 81], vec![(2, vec![1, 4])]).is_empty());
        // Neither does (the givens are misread, or the glyph is neither): nothing.
        assert!(settle_doubts(&classic(), g, vec![(2, vec![5, 3])]).is_empty());
    }

    #[test]
    fn a_settled_cell_helps_settle_the_next() {
        // Row 1 holds 1 to 7. r1c9 may be 8 or 9 until r1c8, an 8 or a 1 (which repeats),
        // is settled as the 8.
        let mut g = vec![0; 81];
        for (cell, digit) in g.iter_mut().zip(1..=7) {
            *cell = digit;
        }
        let settled = settle_doubts(&classic(), g, vec![(8, vec![8, 9]), (7, vec![8, 1])]);
        assert_eq!(
            settled,
            vec![
                Settled { cell: 7, digit: 8, ruled_out: vec![1] },
                Settled { cell: 8, digit: 9, ruled_out: vec![8] }
            ]
        );
    }

    #[test]
    fn a_blurred_given_is_settled_where_its_other_digit_repeats() {
        use super::super::drawkit::{Canvas, LIGHT, Puzzle, Style, blur, draw, font};
        let p = Puzzle::givens(PUZZLE);
        let mut c = Canvas::new(420, 420, [255, 255, 255]);
        draw(&mut c, 10, 10, &p, &Style { cell: 40, ..LIGHT }, &font(3));
        // r3c3's 8 blurred: the templates find it nearly as like a 5 (0.825 and 0.794), and the
        // network is not sure of it (p 0.965).
        let board = super::super::board::find(c.view()).expect("the drawn grid is found");
        let ((y0, y1), (x0, x1)) = (board.rows[2], board.cols[2]);
        let blurred = blur(&c, 3);
        for y in y0..=y1 {
            let row = (y * c.w + x0) * 4..(y * c.w + x1 + 1) * 4;
            c.px[row.clone()].copy_from_slice(&blurred.px[row]);
        }
        let read = super::super::read(c.view()).expect("the board is found");
        // Box 1 holds a 5 (r1c1), so it is an 8.
        assert!(
            read.settled.contains(&Settled { cell: 20, digit: 8, ruled_out: vec![5] }),
            "{read}"
        );
        assert!(read.cells[20].is_certain(), "{read}");
        for (i, (cell, want)) in read.cells.iter().zip(givens(PUZZLE)).enumerate() {
            if cell.is_certain() {
                assert_eq!(cell.value.unwrap_or(0), want, "cell {i}: {read}");
            }
        }
    }
}
