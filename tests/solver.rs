//! The solvers against real puzzle sets and independent oracles.
//!
//! - Every benchmark set (copied from the public tdoku sets and the generated NxN sets into
//!   `tests/fixtures/bench/`): a fixed subset here, the full files in the ignored
//!   `every_benchmark_puzzle_solves` (run it with `cargo test --release -- --ignored`).
//! - The two engines against each other: the classic 9x9 grid written as a jigsaw whose regions
//!   are the boxes goes through the generic engine, so both must find the same solutions.
//! - Solution counts against brute-force enumeration of every 4x4 grid.

use std::sync::Arc;

use sudobot::format::line;
use sudobot::grid::{Cell, Geometry, Grid, HouseKind};
use sudobot::solve::{
    Budget, Isa, Verdict, count_classic, count_solutions, count_solutions_with,
    count_solutions_within, solve, solve_within,
};

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bench/");

/// Every puzzle of a benchmark file (comments and blank lines skipped), each with its line.
fn load(name: &str) -> Vec<(usize, Grid)> {
    let text = std::fs::read_to_string(format!("{BENCH}{name}")).expect("benchmark file");
    line::parse_file(&text)
        .into_iter()
        .map(|(n, g)| (n, g.unwrap_or_else(|e| panic!("{name}:{n}: {e}"))))
        .collect()
}

/// Checks one puzzle: `expected` solutions (2 means "at least two"), each solution full,
/// conflict-free and keeping every given.
fn check(name: &str, n: usize, puzzle: &Grid, several: bool) {
    let count = count_solutions(puzzle, 2).unwrap_or_else(|c| panic!("{name}:{n}: {c}"));
    let expected = if several { 2 } else { 1 };
    assert_eq!(count.found, expected, "{name}:{n}: solutions found");
    assert_eq!(count.examples.len(), expected as usize);
    for s in &count.examples {
        assert!(s.is_solution_of(puzzle), "{name}:{n}: {} is not a solution", line::write(s));
    }
    if several {
        assert_ne!(count.examples[0], count.examples[1], "{name}:{n}: the two solutions differ");
    }
}

const SETS: &[(&str, bool)] = &[
    ("puzzles2_17_clue", false),
    ("puzzles3_magictour_top1465", false),
    ("puzzles5_forum_hardest_1905_11+", false),
    ("puzzles6_forum_hardest_1106", false),
    ("puzzles7_serg_benchmark", true),
    ("sudoku6x6_2x3_gen200.txt", false),
    ("sudoku12x12_3x4_gen100.txt", false),
    ("sudoku16x16_gen100.txt", false),
    ("sudoku25x25_gen20.txt", false),
];

#[test]
fn a_fixed_subset_of_every_benchmark_set_solves() {
    for &(name, several) in SETS {
        let puzzles = load(name);
        // About 60 puzzles spread over each file, always the same ones.
        let step = (puzzles.len() / 60).max(1);
        for (n, puzzle) in puzzles.iter().step_by(step) {
            check(name, *n, puzzle, several);
        }
    }
}

#[test]
#[ignore = "solves all 110,000 benchmark puzzles: about 10 s in release"]
fn every_benchmark_puzzle_solves() {
    for &(name, several) in SETS {
        for (n, puzzle) in load(name) {
            check(name, n, &puzzle, several);
        }
    }
}

/// Every instruction-set level the processor runs gives the same count, solutions and number
/// of guesses as the portable code, puzzle by puzzle (every `step`-th puzzle of every set).
fn levels_agree(step_target: usize) {
    let levels: Vec<Isa> = Isa::ALL.into_iter().filter(|i| i.supported()).collect();
    for &(name, _) in SETS {
        let puzzles = load(name);
        let step = (puzzles.len() / step_target).max(1);
        for (n, puzzle) in puzzles.iter().step_by(step) {
            let portable = count_solutions_with(puzzle, 2, Isa::Portable).expect("valid givens");
            for &isa in &levels {
                let other = count_solutions_with(puzzle, 2, isa).expect("valid givens");
                assert_eq!(other, portable, "{name}:{n}: {isa:?} differs from portable");
            }
        }
    }
}

#[test]
fn every_instruction_set_level_agrees_with_the_portable_code() {
    // The levels this machine lacks are skipped; say which ran, so a log shows the coverage.
    let levels: Vec<&str> = Isa::ALL.into_iter().filter(|i| i.supported()).map(Isa::name).collect();
    eprintln!("instruction-set levels compared: {}", levels.join(", "));
    levels_agree(300);
}

#[test]
#[ignore = "every puzzle of every set at every level: about 30 s in release"]
fn every_instruction_set_level_agrees_on_every_puzzle() {
    levels_agree(usize::MAX);
}

/// The 9x9 box map as a jigsaw: the same houses, but not "classic", so the generic engine runs.
fn boxes_as_jigsaw() -> Arc<Geometry> {
    let labels: Vec<usize> = (0..81).map(|i| (i / 27) * 3 + (i % 9) / 3).collect();
    Arc::new(Geometry::jigsaw(9, &labels).expect("valid jigsaw"))
}

#[test]
fn both_engines_find_the_same_solutions() {
    let generic = boxes_as_jigsaw();
    for name in ["puzzles6_forum_hardest_1106", "puzzles7_serg_benchmark"] {
        for (n, puzzle) in load(name).into_iter().step_by(25) {
            let same = Grid::new(generic.clone(), puzzle.cells().to_vec()).unwrap();
            let a = count_solutions(&puzzle, 20).unwrap();
            let b = count_solutions(&same, 20).unwrap();
            assert_eq!(a.found, b.found, "{name}:{n}: solution counts (limit 20)");
            let mut sa: Vec<_> = a.examples.iter().map(|g| g.cells().to_vec()).collect();
            let mut sb: Vec<_> = b.examples.iter().map(|g| g.cells().to_vec()).collect();
            if a.found == 1 {
                assert_eq!(sa, sb, "{name}:{n}: the unique solution");
            } else {
                // Different engines may meet the solutions in another order: each example
                // must still be a solution of the puzzle.
                sa.append(&mut sb);
                for cells in sa {
                    assert!(
                        Grid::new(puzzle.geometry_arc().clone(), cells)
                            .unwrap()
                            .is_solution_of(&puzzle)
                    );
                }
            }
        }
    }
}

/// Every valid 4x4 grid on a geometry, by brute force over the 24 permutations of each row.
fn brute_force_4x4(geometry: &Arc<Geometry>) -> usize {
    let mut perms = Vec::new();
    for a in 1..=4u8 {
        for b in 1..=4u8 {
            for c in 1..=4u8 {
                for d in 1..=4u8 {
                    let row = [a, b, c, d];
                    let mut seen = [false; 5];
                    if row.iter().all(|&v| !std::mem::replace(&mut seen[v as usize], true)) {
                        perms.push(row);
                    }
                }
            }
        }
    }
    let mut count = 0;
    for r0 in &perms {
        for r1 in &perms {
            for r2 in &perms {
                for r3 in &perms {
                    let cells = [r0, r1, r2, r3].iter().flat_map(|r| r.iter().copied()).collect();
                    let grid = Grid::new(geometry.clone(), cells).unwrap();
                    count += usize::from(grid.conflict().is_none());
                }
            }
        }
    }
    count
}

#[test]
fn solution_counts_match_brute_force_on_4x4_boxes_x_and_jigsaw() {
    let jigsaw = [0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3];
    let geometries = [
        Arc::new(Geometry::boxed(2, 2).unwrap()),
        Arc::new(Geometry::boxed(2, 2).unwrap().with_diagonals()),
        Arc::new(Geometry::jigsaw(4, &jigsaw).unwrap()),
    ];
    for g in &geometries {
        let expected = brute_force_4x4(g);
        let count = count_solutions(&Grid::empty(g.clone()), 10_000).unwrap();
        assert!(count.exhaustive);
        assert_eq!(count.found as usize, expected, "{g:?}");
    }
    // The classic figure for plain 4x4 sudoku.
    assert_eq!(brute_force_4x4(&geometries[0]), 288);
}

/// An X puzzle with ten givens and no solution (found by the `logic` fuzz target): the search
/// used to take ~25 s and millions of branch points to prove it. A value of a diagonal confined
/// to one box now leaves the rest of that box, which ends it after a handful.
#[test]
fn a_sparse_x_puzzle_without_solution_is_refuted_quickly() {
    let text = "..................8..3...4...9........6.....4..3......4..........................";
    let g = Arc::new(Geometry::for_side(9).unwrap().with_diagonals());
    let puzzle = line::parse_with(text, &g).unwrap();
    let count = count_solutions(&puzzle, 2).unwrap();
    assert_eq!((count.found, count.exhaustive), (0, true));
    assert!(count.guesses < 1_000, "{} branch points", count.guesses);
}

#[test]
fn counting_stops_at_the_limit() {
    let empty = Grid::empty(Geometry::for_side(9).unwrap());
    let count = count_solutions(&empty, 5).unwrap();
    assert_eq!((count.found, count.exhaustive, count.examples.len()), (5, false, 2));
    assert_eq!(count_solutions(&empty, 0).unwrap().found, 0);
}

#[test]
fn verdicts_name_what_is_wrong() {
    // Two 5s in row 1.
    let bad = line::parse(&format!("5...5{}", ".".repeat(76))).unwrap();
    let Verdict::Invalid(c) = solve(&bad) else { panic!("expected invalid") };
    assert_eq!(
        (c.first, c.second, c.house, c.value),
        (Cell { row: 0, col: 0 }, Cell { row: 0, col: 4 }, HouseKind::Row(0), 5)
    );
    assert_eq!(c.to_string(), "r1c1 and r1c5 both hold 5 in row 1");

    // No conflict among the givens, yet r1c9 can hold nothing: 1-8 in its row, 9 in its column.
    let dead = line::parse(&format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63))).unwrap();
    assert_eq!(solve(&dead), Verdict::Unsolvable);

    let empty = Grid::empty(Geometry::for_side(9).unwrap());
    let Verdict::Multiple(a, b) = solve(&empty) else { panic!("expected several") };
    assert!(a.is_solution_of(&empty) && b.is_solution_of(&empty) && a != b);
}

#[test]
fn x_and_jigsaw_constraints_are_kept() {
    // A 9x9 X puzzle: any solution must also have 1-9 on both diagonals.
    let g = Arc::new(Geometry::for_side(9).unwrap().with_diagonals());
    let Verdict::Multiple(a, _) = solve(&Grid::empty(g.clone())) else { panic!("several") };
    for diagonal in [HouseKind::Diagonal, HouseKind::AntiDiagonal] {
        let house = g.houses().iter().find(|h| h.kind == diagonal).unwrap();
        let mut values: Vec<u8> = house.cells.iter().map(|&i| a.cells()[i]).collect();
        values.sort_unstable();
        assert_eq!(values, (1..=9).collect::<Vec<u8>>());
    }
}

#[test]
fn the_raw_nine_by_nine_entry_agrees_with_count_solutions() {
    for name in ["puzzles2_17_clue", "puzzles6_forum_hardest_1106", "puzzles7_serg_benchmark"] {
        for (n, puzzle) in load(name).into_iter().step_by(50) {
            let cells: &[u8; 81] = puzzle.cells().try_into().unwrap();
            for limit in [0, 1, 2, 5] {
                let count = count_solutions(&puzzle, limit).unwrap();
                let mut found = [[0u8; 81]; 2];
                assert_eq!(
                    count_classic(cells, limit, &mut found),
                    Some(count.found),
                    "{name}:{n}"
                );
                for (k, example) in count.examples.iter().enumerate() {
                    assert_eq!(&found[k][..], example.cells(), "{name}:{n}: solution {k}");
                }
            }
        }
    }
    // Conflicting givens have no solution here; a value above 9 is refused.
    let mut cells = [0u8; 81];
    (cells[0], cells[1]) = (5, 5);
    assert_eq!(count_classic(&cells, 2, &mut [[0; 81]; 2]), Some(0));
    cells[1] = 10;
    assert_eq!(count_classic(&cells, 2, &mut [[0; 81]; 2]), None);
}

/// The `engines` fuzz input of issue 26 (committed to `fuzz/corpus/engines/`): a 9x9 board,
/// nearly blank, with no solution. The 9x9 engine refutes it at once; the generic engine (the
/// same board with the boxes written as a jigsaw) searched for minutes before it branched on
/// the houses where its dead ends showed.
#[test]
fn the_fuzzed_sparse_jigsaw_board_without_solution_is_refuted() {
    let input = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fuzz/corpus/engines/4259d0bad6c0da2758241a257d70f09ca7e7188d"
    ))
    .expect("the committed fuzz input");
    // As the fuzz target reads it: '1'-'9' a given, any other byte a blank.
    let cells: Vec<u8> = (0..81)
        .map(|i| match input.get(i) {
            Some(&b @ b'1'..=b'9') => b - b'0',
            _ => 0,
        })
        .collect();
    let classic = Grid::new(Geometry::standard(9).unwrap(), cells.clone()).unwrap();
    let generic = Grid::new(boxes_as_jigsaw(), cells).unwrap();
    let a = count_solutions(&classic, 2).unwrap();
    let b = count_solutions(&generic, 2).unwrap();
    assert_eq!((a.found, a.exhaustive), (0, true));
    assert_eq!((b.found, b.exhaustive, b.gave_up), (0, true, false));
    assert!(b.guesses < 100_000, "{} branch points", b.guesses);
}

/// Line 11 of the 25x25 benchmark set with r25c3 changed from K to 4 (a value in neither its
/// row nor its column, issue 26): no solution, which took the generic engine 51 s to prove.
#[test]
fn a_spoiled_25x25_puzzle_is_refuted() {
    let (_, puzzle) =
        load("sudoku25x25_gen20.txt").into_iter().find(|(n, _)| *n == 11).expect("line 11");
    let mut cells = puzzle.cells().to_vec();
    let cell = 24 * 25 + 2;
    assert_eq!(cells[cell], 20, "r25c3 holds K");
    cells[cell] = 4;
    let spoiled = Grid::new(puzzle.geometry_arc().clone(), cells).unwrap();
    let count = count_solutions(&spoiled, 2).unwrap();
    assert_eq!((count.found, count.exhaustive), (0, true));
    assert!(count.guesses < 100_000, "{} branch points", count.guesses);
}

/// A budget ends a search that would run on: the empty 36x36 grid counted up to a billion
/// solutions stops at its branch-point budget, says so, and claims nothing exhaustive.
#[test]
fn a_search_stops_at_its_budget() {
    let empty = Grid::empty(Geometry::for_side(36).unwrap());
    let budget = Budget { guesses: Some(5_000), ..Budget::NONE };
    let count = count_solutions_within(&empty, 1_000_000_000, &budget).unwrap();
    assert!(count.gave_up);
    assert!(!count.exhaustive);
    assert!(count.found > 0 && count.guesses <= 5_000, "{count:?}");
    let gave_up = solve_within(&empty, &Budget { guesses: Some(0), ..Budget::NONE });
    let message = gave_up.expect_err("no branch point allowed").to_string();
    assert!(message.starts_with("gave up after "), "{message}");
    // Without a budget the same call answers.
    assert!(matches!(solve_within(&empty, &Budget::NONE), Ok(Verdict::Multiple(..))));
}
