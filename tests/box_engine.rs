//! The boxed-grid engine (boxes 2 to 4 cells wide and tall: 4x4 to 16x16) against the generic
//! engine. A boxed puzzle goes through the boxed engine; the same cells on a jigsaw whose
//! regions are the boxes (the same houses, but not "boxes") go through the generic engine, so
//! both must agree: solution counts, the solution itself when unique, no solution for an
//! unsolvable board, the same conflict for contradictory givens.

use std::sync::Arc;

use sudobot::format;
use sudobot::grid::{Geometry, Grid};
use sudobot::solve::{Count, count_solutions};

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bench/");

/// The boxed NxN sets (any format `sudobot solve` reads).
const SETS: &[&str] = &[
    "sudoku6x6_2x3_gen200.txt",
    "sudoku12x12_3x4_gen100.txt",
    "sudoku16x16_gen100.txt",
    "solo_4x4du_16.txt",
];

fn load(name: &str) -> Vec<Grid> {
    let text = std::fs::read_to_string(format!("{BENCH}{name}")).expect("benchmark file");
    format::read_puzzles(&text, name, &Default::default())
        .expect("a puzzle file")
        .entries
        .into_iter()
        .map(|e| e.puzzle.expect("a puzzle"))
        .collect()
}

/// The same geometry as a jigsaw: the generic engine's view of the same houses.
fn as_jigsaw(g: &Geometry) -> Arc<Geometry> {
    let labels: Vec<usize> = g.region_map().iter().map(|&r| r as usize).collect();
    Arc::new(Geometry::jigsaw(g.side(), &labels).expect("the boxes as a jigsaw"))
}

/// Counts with both engines and checks that they agree; returns the boxed engine's count.
fn agree(what: &str, puzzle: &Grid, limit: u64) -> Option<Count> {
    assert!(puzzle.geometry().box_shape().is_some());
    let twin = Grid::new(as_jigsaw(puzzle.geometry()), puzzle.cells().to_vec()).unwrap();
    let (a, b) = (count_solutions(puzzle, limit), count_solutions(&twin, limit));
    match (&a, &b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.found, b.found, "{what}: solution counts (limit {limit})");
            assert_eq!(a.exhaustive, b.exhaustive, "{what}");
            assert_eq!(a.examples.len(), b.examples.len(), "{what}");
            for s in &a.examples {
                assert!(s.is_solution_of(puzzle), "{what}: an example is no solution");
            }
            if a.examples.len() == 2 {
                assert_ne!(a.examples[0], a.examples[1], "{what}: the two examples differ");
            }
            if a.found == 1 {
                assert_eq!(a.examples[0].cells(), b.examples[0].cells(), "{what}: the solution");
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{what}: the conflict"),
        _ => panic!("{what}: one engine found a conflict, the other not: {a:?} / {b:?}"),
    }
    a.ok()
}

#[test]
fn every_boxed_benchmark_puzzle_agrees_with_the_generic_engine() {
    for &name in SETS {
        for (i, puzzle) in load(name).iter().enumerate() {
            let count = agree(&format!("{name} #{}", i + 1), puzzle, 2).expect("valid givens");
            assert_eq!(count.found, 1, "{name} #{}: the set's puzzles are unique", i + 1);
        }
    }
}

/// The puzzle with its first `k` givens (reading order) removed.
fn without_givens(puzzle: &Grid, k: usize) -> Grid {
    let mut cells = puzzle.cells().to_vec();
    for i in (0..cells.len()).filter(|&i| puzzle.cells()[i] != 0).take(k) {
        cells[i] = 0;
    }
    Grid::new(puzzle.geometry_arc().clone(), cells).unwrap()
}

#[test]
fn multi_solution_boards_agree() {
    for &name in SETS {
        for (i, puzzle) in load(name).iter().enumerate().step_by(7) {
            for k in [3, 8, 20] {
                let what = format!("{name} #{} without {k} givens", i + 1);
                let board = without_givens(puzzle, k);
                agree(&what, &board, 2);
                agree(&what, &board, 50);
            }
        }
    }
    // Empty grids of every shape the boxed engine takes, and 4x4 to the end (288 grids).
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (4, 3), (4, 4)] {
        let empty = Grid::empty(Geometry::boxed(w, h).unwrap());
        let count = agree(&format!("empty {w}x{h}"), &empty, 100).unwrap();
        assert_eq!(count.found, 100);
    }
    let four = Grid::empty(Geometry::boxed(2, 2).unwrap());
    assert_eq!(agree("empty 4x4, every grid", &four, 1000).unwrap().found, 288);
}

#[test]
fn unsolvable_and_contradictory_boards_agree() {
    for &name in SETS {
        for (i, puzzle) in load(name).iter().enumerate().step_by(5) {
            let side = puzzle.side();
            let solution = count_solutions(puzzle, 1).unwrap().examples.remove(0);
            let g = puzzle.geometry();
            let blank = puzzle.cells().iter().position(|&v| v == 0).unwrap();
            // A value the solution does not have there and no given of the cell's houses
            // holds: no conflict among the givens, yet no solution.
            let peers: Vec<usize> = g
                .houses()
                .iter()
                .filter(|h| h.cells.contains(&blank))
                .flat_map(|h| h.cells.iter().copied())
                .collect();
            let wrong = (1..=side as u8).find(|&v| {
                v != solution.cells()[blank] && peers.iter().all(|&p| puzzle.cells()[p] != v)
            });
            if let Some(v) = wrong {
                let mut cells = puzzle.cells().to_vec();
                cells[blank] = v;
                let board = Grid::new(puzzle.geometry_arc().clone(), cells).unwrap();
                let what = format!("{name} #{}: {v} at cell {blank}", i + 1);
                assert_eq!(agree(&what, &board, 2).expect("no conflict").found, 0, "{what}");
            }
            // A given copied into a blank cell of its own row: a conflict.
            let row = blank / side;
            if let Some(v) = (0..side).map(|c| puzzle.cells()[row * side + c]).find(|&v| v != 0) {
                let mut cells = puzzle.cells().to_vec();
                cells[blank] = v;
                let board = Grid::new(puzzle.geometry_arc().clone(), cells).unwrap();
                assert!(agree(&format!("{name} #{}: conflict", i + 1), &board, 2).is_none());
            }
        }
    }
}

/// A 16x16 whose top rows are nearly blank and the rest given (from the engines fuzz target):
/// an earlier branch order of the boxed engine ran for minutes here (a wrong guess low in the
/// grid refuted only by exhausting the blank rows); the generic engine needs 65 guesses.
#[test]
fn a_nearly_blank_top_over_a_given_bottom_agrees() {
    let board = format::line::parse(concat!(
        "..F.................................................................................................E.741.D.B.3.G.3...C...8.....",
        "..................6.3.9.5.F.A.EGBA8165FD7EG4329C359EG42C8A6BD7F1A4B3FCG12D76598E7128DB4AE59FC3G69GE528634BC1FD7AD6CF97E5G83A142B",
    ))
    .unwrap();
    assert_eq!(board.side(), 16);
    assert_eq!(agree("nearly blank top", &board, 2).unwrap().found, 2);
}
