//! The solver engines against each other. Each is checked against the generic engine on the
//! same cells written as a jigsaw whose regions are the boxes (the same houses, but neither
//! "classic" nor "boxes"); both must agree on the solution count (limit 2), on a conflict, and
//! on the solution when it is unique.
//!
//! - The classic 9x9 engine: the input is read as 81 cells, `1`-`9` a given and any other byte a
//!   blank (missing cells blank), so every input is a puzzle.
//! - The boxed engine (boxes 2 to 4 wide and tall): the first byte picks the box shape and a
//!   relabelling of the values of a fixed valid grid; each next byte is two cells, a nibble
//!   each (so 128 bytes fill a 16x16): 0-7 blank, 8-14 the grid's value (so the givens have a
//!   solution unless other cells spoil it), 15 another value (often a conflict or a dead end).
//!   Random values alone would nearly always conflict, and a sparse unsolvable 16x16 can take
//!   long to refute.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use sudobot::grid::{Geometry, Grid};
use sudobot::solve::count_solutions;

fn boxes_as_jigsaw() -> &'static Arc<Geometry> {
    static JIGSAW: OnceLock<Arc<Geometry>> = OnceLock::new();
    JIGSAW.get_or_init(|| {
        let labels: Vec<usize> = (0..81).map(|i| (i / 27) * 3 + (i % 9) / 3).collect();
        Arc::new(Geometry::jigsaw(9, &labels).expect("the boxes as a jigsaw"))
    })
}

/// The boxed shapes (width, height) the boxed engine takes.
const SHAPES: [(usize, usize); 8] =
    [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (4, 3), (4, 4)];

fn boxed(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let (w, h) = SHAPES[first as usize % SHAPES.len()];
    let n = w * h;
    let shift = first as usize / SHAPES.len();
    let cells: Vec<u8> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            // A valid grid: rows shifted by the box width within a band, by one across bands.
            let valid = ((w * (r % h) + r / h + c + shift) % n) as u8 + 1;
            let nibble = rest.get(i / 2).map_or(0, |&b| (b >> (4 * (i % 2))) & 0xF);
            match nibble {
                0..=7 => 0,
                8..=14 => valid,
                _ => ((valid as usize + i % (n - 1)) % n) as u8 + 1,
            }
        })
        .collect();
    let geometry = Geometry::standard(n).ok().filter(|g| g.box_shape() == Some((w, h)));
    let geometry = match geometry {
        Some(g) => g,
        None => Arc::new(Geometry::boxed(w, h).expect("a boxed shape")),
    };
    let labels: Vec<usize> = geometry.region_map().iter().map(|&r| r as usize).collect();
    let jigsaw = Geometry::jigsaw(n, &labels).expect("the boxes as a jigsaw");
    let puzzle = Grid::new(geometry, cells.clone()).expect("values up to the side");
    let twin = Grid::new(jigsaw, cells).expect("values up to the side");
    compare(&puzzle, &twin);
}

/// The puzzle (its own engine) against its jigsaw twin (the generic engine).
fn compare(puzzle: &Grid, twin: &Grid) {
    let a = count_solutions(puzzle, 2);
    let b = count_solutions(twin, 2);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.found, b.found, "solution counts (limit 2) differ");
            for example in a.examples.iter().chain(&b.examples) {
                let on_puzzle = Grid::new(puzzle.geometry_arc().clone(), example.cells().to_vec())
                    .expect("a full grid");
                assert!(on_puzzle.is_solution_of(puzzle), "an example is no solution");
            }
            if a.found == 1 {
                assert_eq!(a.examples[0].cells(), b.examples[0].cells(), "unique solutions differ");
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "different conflicts"),
        (a, b) => panic!("one engine found a conflict, the other not: {a:?} / {b:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    boxed(data);
    let cells: Vec<u8> = (0..81)
        .map(|i| match data.get(i) {
            Some(&b @ b'1'..=b'9') => b - b'0',
            _ => 0,
        })
        .collect();
    let classic = Grid::new(Geometry::standard(9).expect("9x9"), cells.clone()).expect("9x9 grid");
    let generic = Grid::new(Arc::clone(boxes_as_jigsaw()), cells).expect("jigsaw grid");
    assert!(classic.geometry().is_classic() && !generic.geometry().is_classic());
    compare(&classic, &generic);
});
