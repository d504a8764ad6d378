//! The solver engines against each other. Each is checked against the generic engine on the
//! same cells written as a jigsaw whose regions are the boxes (the same houses, but neither
//! "classic" nor "boxes"); both must agree on the solution count (limit 2), on a conflict, and
//! on the solution when it is unique.
//!
//! - The classic 9x9 engine: the input is read as 81 cells, `1`-`9` a given and any other byte a
//!   blank (missing cells blank), so every input is a puzzle.
//! - The boxed engine (boxes 2 to 4 wide and tall): the first byte picks the box shape and a
//!   relabelling of the values of a valid grid (for 12x12 and 16x16 the solution of a generated
//!   benchmark puzzle; smaller sides a cyclic pattern); each next byte is two cells, a nibble
//!   each (so 128 bytes fill a 16x16): 0-7 blank, 8-14 the grid's value (so the givens have a
//!   solution unless other cells spoil it), 15 another value (often a conflict or a dead end).
//!   Cells past the input's end hold the grid's value. Random values alone would nearly always
//!   conflict. Up to 8x8 the generic engine checks every board. On 12x12 and 16x16 both engines
//!   have heavy tails on some boards (a 16x16 with a sparse part on the cyclic grid took the
//!   generic engine minutes and the boxed one seconds; the generated grid avoids most of
//!   those), and the generic engine's are far worse, so there the boxed engine's answer is
//!   checked alone: its examples solve the board, a board with no foreign value (part of the
//!   valid grid) has a solution, and when that solution is unique it is the valid grid.
//!   tests/box_engine.rs compares the two engines on the 12x12 and 16x16 benchmark sets and
//!   boards derived from them.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use sudobot::format::line;
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

/// The first generated 12x12 (boxes 4 wide, 3 tall) and 16x16 benchmark puzzles.
const TWELVE: &str = "..3....5...B.......C3..8....A.1.9.6.2........7..94C..7A.B.2.5...3..8419..7...A......4.....5B.9.....C.824....7.8........6..B..5C1..A.6.5.B....3..";
const SIXTEEN: &str = "6........5.97...2..154.7..3.F......58G...7...963..8..B.A.26..D..9C...E.....412....2....3CD.A.7B.7D..FA...1E...4..84...D.B........3....C..42E9...5.7...A....D..F1.....6.E.....3A....F1.......E.G...C..D123.........3......6AG.4.7A..6.........E.B..DG....1..B253C";

/// A valid grid (values in reading order) for boxes `w` wide and `h` tall.
fn valid_grid(w: usize, h: usize) -> Vec<u8> {
    static SOLVED: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    let solve = |text: &str| {
        let puzzle = line::parse(text).expect("a benchmark puzzle");
        count_solutions(&puzzle, 1).expect("valid givens").examples[0].cells().to_vec()
    };
    let [twelve, sixteen] = SOLVED.get_or_init(|| [solve(TWELVE), solve(SIXTEEN)]);
    let n = w * h;
    match (w, h) {
        (4, 4) => sixteen.clone(),
        (4, 3) => twelve.clone(),
        // The transpose turns boxes 4 wide and 3 tall into boxes 3 wide and 4 tall.
        (3, 4) => (0..n * n).map(|i| twelve[(i % n) * n + i / n]).collect(),
        // Rows shifted by the box width within a band, by one across bands.
        _ => (0..n * n).map(|i| ((w * (i / n % h) + i / n / h + i % n) % n) as u8 + 1).collect(),
    }
}

fn boxed(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let (w, h) = SHAPES[first as usize % SHAPES.len()];
    let n = w * h;
    let shift = first as usize / SHAPES.len();
    let valid: Vec<u8> =
        valid_grid(w, h).iter().map(|&v| ((v as usize - 1 + shift) % n) as u8 + 1).collect();
    let cells: Vec<u8> = (0..n * n)
        .map(|i| {
            let valid = valid[i];
            let nibble = rest.get(i / 2).map_or(8, |&b| (b >> (4 * (i % 2))) & 0xF);
            match nibble {
                0..=7 => 0,
                8..=14 => valid,
                _ => ((valid as usize + i % (n - 1)) % n) as u8 + 1,
            }
        })
        .collect();
    let mut cells = cells;
    if n >= 12 {
        // Heavy tails: a sparse region next to a full one can take a backtracking search
        // minutes to refute a wrong early guess (a 16x16 with its top rows nearly blank and the
        // rest given: over 100 s). Rows less than half given take their blanks from the grid.
        for r in 0..n {
            let row = &mut cells[r * n..(r + 1) * n];
            if 2 * row.iter().filter(|&&v| v != 0).count() < n {
                for (c, cell) in row.iter_mut().enumerate() {
                    if *cell == 0 {
                        *cell = valid[r * n + c];
                    }
                }
            }
        }
    }
    let geometry = Geometry::standard(n).ok().filter(|g| g.box_shape() == Some((w, h)));
    let geometry = match geometry {
        Some(g) => g,
        None => Arc::new(Geometry::boxed(w, h).expect("a boxed shape")),
    };
    let labels: Vec<usize> = geometry.region_map().iter().map(|&r| r as usize).collect();
    let jigsaw = Geometry::jigsaw(n, &labels).expect("the boxes as a jigsaw");
    let foreign =
        (0..n * n).any(|i| rest.get(i / 2).is_some_and(|&b| (b >> (4 * (i % 2))) & 0xF == 0xF));
    let puzzle = Grid::new(geometry, cells.clone()).expect("values up to the side");
    if n <= 8 {
        let twin = Grid::new(jigsaw, cells).expect("values up to the side");
        compare(&puzzle, &twin);
    } else if let Ok(count) = count_solutions(&puzzle, 2) {
        for example in &count.examples {
            assert!(example.is_solution_of(&puzzle), "an example is no solution");
        }
        if !foreign {
            assert!(count.found > 0, "part of a valid grid has a solution");
            if count.found == 1 {
                assert_eq!(count.examples[0].cells(), &valid[..], "the only solution is the grid");
            }
        }
    }
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
