//! Property tests for the text formats and the solver on random grids: the one-line format
//! round-trips, pretty output carries every value, batch reading keeps line numbers, no input
//! makes the readers panic, and random puzzles cut from full grids solve back to valid grids that
//! keep every given.

use std::sync::Arc;

use proptest::prelude::*;
use proptest::sample::select;
use sudobot::format::{self, Format, ReadOptions, line, pretty};
use sudobot::grid::{Geometry, Grid};
use sudobot::solve::{self, Verdict};

use crate::support::connected;

/// Box shapes (width, height) covering sides 4 to 36, including both orientations of the
/// non-square ones.
const SHAPES: &[(usize, usize)] = &[
    (2, 2),
    (3, 2),
    (2, 3),
    (4, 2),
    (3, 3),
    (5, 2),
    (4, 3),
    (3, 4),
    (4, 4),
    (5, 4),
    (5, 5),
    (6, 6),
];

fn geometry() -> impl Strategy<Value = Arc<Geometry>> {
    select(SHAPES).prop_map(|(w, h)| Arc::new(Geometry::boxed(w, h).expect("valid shape")))
}

/// Any values (not necessarily a valid sudoku) on a random geometry.
fn any_grid() -> impl Strategy<Value = Grid> {
    geometry().prop_flat_map(|g| {
        let side = g.side() as u8;
        proptest::collection::vec(0..=side, g.cell_count())
            .prop_map(move |cells| Grid::new(Arc::clone(&g), cells).expect("values in range"))
    })
}

/// A jigsaw made from a box layout by random swaps of neighbouring cells of different regions,
/// each kept only when both regions stay connected.
fn jigsaw_geometry() -> impl Strategy<Value = Arc<Geometry>> {
    (select(SHAPES), proptest::collection::vec((any::<u16>(), 0usize..4), 0..60)).prop_map(
        |((w, h), swaps)| {
            let boxed = Geometry::boxed(w, h).expect("valid shape");
            let side = boxed.side();
            let mut labels: Vec<usize> = boxed.region_map().iter().map(|&r| r as usize).collect();
            for (cell, direction) in swaps {
                let i = cell as usize % (side * side);
                let (r, c) = (i / side, i % side);
                let j = match direction {
                    0 if r > 0 => i - side,
                    1 if r + 1 < side => i + side,
                    2 if c > 0 => i - 1,
                    3 if c + 1 < side => i + 1,
                    _ => continue,
                };
                if labels[i] == labels[j] {
                    continue;
                }
                labels.swap(i, j);
                if !connected(&labels, side, labels[i]) || !connected(&labels, side, labels[j]) {
                    labels.swap(i, j);
                }
            }
            Arc::new(Geometry::jigsaw(side, &labels).expect("sizes kept"))
        },
    )
}

/// Any values on a random jigsaw.
fn any_jigsaw_grid() -> impl Strategy<Value = Grid> {
    jigsaw_geometry().prop_flat_map(|g| {
        let side = g.side() as u8;
        proptest::collection::vec(0..=side, g.cell_count())
            .prop_map(move |cells| Grid::new(Arc::clone(&g), cells).expect("values in range"))
    })
}

/// A full valid grid: the shifted pattern for the box shape, then digits relabelled and rows
/// shuffled within their bands (both keep every house complete).
fn full_grid(geometry: &Arc<Geometry>, digits: &[u8], row_keys: &[u32]) -> Grid {
    let (w, h) = geometry.box_shape().expect("boxed");
    let n = w * h;
    let pattern = |r: usize, c: usize| ((r % h) * w + r / h + c) % n;
    // Row order inside each band, from the random keys.
    let mut rows: Vec<usize> = (0..n).collect();
    for band in rows.chunks_mut(h) {
        band.sort_by_key(|&r| row_keys[r]);
    }
    let cells = (0..n * n).map(|i| digits[pattern(rows[i / n], i % n)]).collect();
    Grid::new(Arc::clone(geometry), cells).expect("in range")
}

/// A random full grid and a random puzzle cut from it (fewer blanks on larger sides, to keep
/// the suite fast).
fn puzzle_and_full() -> impl Strategy<Value = (Grid, Grid)> {
    geometry().prop_flat_map(|g| {
        let side = g.side();
        let cells = g.cell_count();
        let keep_percent = if side <= 9 {
            25u32..=90
        } else if side <= 16 {
            55..=95
        } else {
            75..=98
        };
        (
            Just(g),
            Just((1..=side as u8).collect::<Vec<u8>>()).prop_shuffle(),
            proptest::collection::vec(any::<u32>(), side),
            keep_percent,
            proptest::collection::vec(0u32..100, cells),
        )
            .prop_map(|(g, digits, keys, keep, rolls)| {
                let full = full_grid(&g, &digits, &keys);
                let cells = full
                    .cells()
                    .iter()
                    .zip(&rolls)
                    .map(|(&v, &roll)| if roll < keep { v } else { 0 })
                    .collect();
                (Grid::new(Arc::clone(&g), cells).expect("in range"), full)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn line_round_trips(grid in any_grid()) {
        let text = line::write(&grid);
        prop_assert_eq!(text.chars().count(), grid.cells().len());
        // The usual shape for the side reads it back exactly; other shapes need the geometry.
        let back = line::parse_with(&text, grid.geometry_arc()).expect("own output parses");
        prop_assert_eq!(&back, &grid);
        if Geometry::for_side(grid.side()).as_ref() == Ok(grid.geometry()) {
            prop_assert_eq!(line::parse(&text).expect("parses"), grid.clone());
            prop_assert_eq!(format::detect(&text), Format::Line);
            prop_assert_eq!(format::parse(&text, None).expect("parses"), grid);
        }
    }

    #[test]
    fn lowercase_and_zero_blanks_read_the_same(grid in any_grid()) {
        prop_assume!(grid.side() < 36);
        let text = line::write(&grid).to_lowercase().replace('.', "0");
        prop_assert_eq!(line::parse_with(&text, grid.geometry_arc()).expect("parses"), grid);
    }

    #[test]
    fn pretty_shows_every_value_in_order_on_a_rectangle(grid in any_grid(), ascii in any::<bool>()) {
        let charset = if ascii { pretty::Charset::Ascii } else { pretty::Charset::Unicode };
        let text = pretty::write_with(&grid, &pretty::Options { charset, ..Default::default() });
        let (w, h) = grid.geometry().box_shape().expect("boxed");
        let side = grid.side();
        let lines: Vec<&str> = text.lines().collect();
        // A row per grid row, plus a wall row above every band and one at the bottom.
        prop_assert_eq!(lines.len(), side + side / h + 1);
        let width = 2 * side + 1 + 2 * (side / w);
        prop_assert!(lines.iter().all(|l| l.chars().count() == width), "ragged:\n{}", text);
        let walls = if ascii { "+-|" } else { "┌┐└┘├┤┬┴┼─│" };
        let symbols: String = text.chars().filter(|&c| c != ' ' && c != '\n' && !walls.contains(c)).collect();
        prop_assert_eq!(symbols, line::write(&grid));
    }

    #[test]
    fn pretty_round_trips_boxes(grid in any_grid(), ascii in any::<bool>(), colour in any::<bool>()) {
        let charset = if ascii { pretty::Charset::Ascii } else { pretty::Charset::Unicode };
        let empty = Grid::empty(Arc::clone(grid.geometry_arc()));
        let options = pretty::Options { charset, colour_filled_from: colour.then_some(&empty) };
        let text = pretty::write_with(&grid, &options);
        prop_assert_eq!(format::detect(&text), Format::Pretty);
        prop_assert_eq!(pretty::parse(&text).expect("own drawing parses"), grid);
    }

    #[test]
    fn pretty_round_trips_jigsaws(grid in any_jigsaw_grid(), ascii in any::<bool>()) {
        let charset = if ascii { pretty::Charset::Ascii } else { pretty::Charset::Unicode };
        let text = pretty::write_with(&grid, &pretty::Options { charset, ..Default::default() });
        let back = format::parse(&text, None).expect("own drawing parses");
        // Same regions (read as boxes when the swaps happened to leave a box layout).
        prop_assert_eq!(back.geometry().region_map(), grid.geometry().region_map());
        prop_assert_eq!(back.cells(), grid.cells());
    }

    #[test]
    fn damaged_drawings_never_panic(
        grid in any_jigsaw_grid(),
        edits in proptest::collection::vec((any::<u16>(), select(&['.', '1', 'Z', ' ', '|', '-', '+', '\n', '│', '─', '┼'][..])), 1..8),
    ) {
        let mut chars: Vec<char> = pretty::write(&grid).chars().collect();
        for (at, c) in edits {
            let i = at as usize % chars.len();
            chars[i] = c;
        }
        let text: String = chars.into_iter().collect();
        if let Ok(back) = format::parse(&text, None) {
            prop_assert!(back.side() <= 36);
        }
    }

    #[test]
    fn batch_reading_keeps_line_numbers(grids in proptest::collection::vec(any_grid(), 1..6), crlf in any::<bool>()) {
        let grids: Vec<Grid> = grids.into_iter().filter(|g| Geometry::for_side(g.side()).as_ref() == Ok(g.geometry())).collect();
        prop_assume!(!grids.is_empty());
        let newline = if crlf { "\r\n" } else { "\n" };
        let mut text = String::new();
        let mut expected_lines = Vec::new();
        let mut line_no = 0;
        for (i, g) in grids.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&format!("# puzzle {i}{newline}{newline}"));
                line_no += 2;
            }
            text.push_str(&line::write(g));
            text.push_str(newline);
            line_no += 1;
            expected_lines.push(line_no);
        }
        let puzzles = format::read_puzzles(&text, "test", &ReadOptions::default()).expect("not empty");
        prop_assert_eq!(puzzles.format, Format::Line);
        let lines: Vec<usize> = puzzles.entries.iter().map(|e| e.line).collect();
        prop_assert_eq!(lines, expected_lines);
        for (entry, g) in puzzles.entries.iter().zip(&grids) {
            prop_assert_eq!(entry.puzzle.as_ref().expect("parses"), g);
        }
    }

    #[test]
    fn readers_never_panic(text in "[.0-9A-Za-z|+_:,# \r\n│─┌┐└┘├┤┬┴┼\x1b\\[-]{0,300}") {
        let _ = format::parse(&text, None);
        for f in [Format::Line, Format::SoloText, Format::SoloId, Format::Pretty] {
            let _ = format::parse(&text, Some(f));
        }
        if let Ok(puzzles) = format::read_puzzles(&text, "test", &ReadOptions::default()) {
            prop_assert!(!puzzles.entries.is_empty());
        }
    }

    #[test]
    fn puzzles_cut_from_full_grids_solve_back((puzzle, full) in puzzle_and_full()) {
        prop_assert!(full.is_full() && full.conflict().is_none(), "generator made a bad grid");
        match solve::solve(&puzzle) {
            Verdict::Unique(s) => {
                prop_assert!(s.is_solution_of(&puzzle));
                prop_assert_eq!(s, full);
            }
            Verdict::Multiple(a, b) => {
                prop_assert!(a.is_solution_of(&puzzle));
                prop_assert!(b.is_solution_of(&puzzle));
                prop_assert_ne!(a, b);
            }
            other => prop_assert!(false, "a puzzle cut from a full grid came out {:?}", other),
        }
    }
}

/// Solving never changes a given, on the real puzzles of the batch fixture too.
#[test]
fn solutions_keep_every_given_of_the_fixture_puzzles() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/solve/mixed.txt"
    ))
    .expect("fixture");
    let puzzles =
        format::read_puzzles(&text, "mixed.txt", &ReadOptions::default()).expect("puzzles");
    for entry in &puzzles.entries {
        let puzzle = entry.puzzle.as_ref().expect("fixture puzzles parse");
        let Verdict::Unique(solution) = solve::solve(puzzle) else {
            panic!("line {}: fixture puzzles have one solution", entry.line)
        };
        for (i, (&p, &s)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
            assert!(p == 0 || p == s, "line {}: cell {i} changed from {p} to {s}", entry.line);
        }
        assert!(solution.is_solution_of(puzzle));
    }
}

#[test]
fn detection_tells_the_three_formats_apart() {
    let solo_text = "\
. 8 . | 3 . . | . . 7
. . . | 9 . . | 3 6 5
. 1 . | . . 7 | . . .
------+-------+------
";
    assert_eq!(format::detect(solo_text), Format::SoloText);
    assert_eq!(format::detect("\r\n------+------\r\n"), Format::SoloText);
    assert_eq!(format::detect("1 . . 4\n. . 2 .\n"), Format::SoloText);
    assert_eq!(
        format::detect("3x3:a8a3d7c9b3_6_5a1c7g1b5a8a5a2a1a4a7b6g6c7a1_9_2b8c7d4a9a"),
        Format::SoloId
    );
    assert_eq!(format::detect("# comment\n9j:a1b2,cdef\n"), Format::SoloId);
    assert_eq!(format::detect("3x3k:zzzc,abc,9_11"), Format::SoloId);
    assert_eq!(
        format::detect(
            "  4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......  "
        ),
        Format::Line
    );
    // A puzzle with a stray space stays one-line, so its error names the space's column.
    assert_eq!(
        format::detect(
            "4.....8.5.3.... ......7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        ),
        Format::Line
    );
}

#[test]
fn a_box_shape_only_fits_line_input() {
    let options = ReadOptions {
        geometry: Some(Arc::new(Geometry::boxed(3, 3).expect("3x3"))),
        ..Default::default()
    };
    let err = format::read_puzzles("3x3:abc", "arg", &options).expect_err("id with a box");
    assert_eq!(
        err.to_string(),
        "a box shape applies to one-line puzzles and cage text only, but the input is Solo game ID"
    );
}

#[test]
fn detected_batches_tell_each_line_apart() {
    let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n3x3:zz\n";
    let puzzles = format::read_puzzles(text, "mixed", &ReadOptions::default()).expect("puzzles");
    assert_eq!(puzzles.entries.len(), 2);
    assert!(puzzles.entries[0].puzzle.is_ok());
    let err = puzzles.entries[1].puzzle.as_ref().expect_err("a truncated game ID");
    // Read as a game ID, not as a one-line puzzle with a bad ':' or a bad length.
    assert!(
        !matches!(
            err.kind,
            format::ParseErrorKind::BadSymbol { .. } | format::ParseErrorKind::BadLength { .. }
        ),
        "{err}"
    );
    assert_eq!(err.position.map(|p| p.line), Some(2));
}

/// The `cages` fuzz input of issue 26 (committed to `fuzz/corpus/cages/`): a box shape whose
/// side overflows. It is refused with a message at the setting, never multiplied out.
#[test]
fn the_fuzzed_huge_box_setting_is_refused() {
    let input = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fuzz/corpus/cages/2e6f9cfab55918cfb3dfef7429af50817d69089d"
    ))
    .expect("the committed fuzz input");
    let text = String::from_utf8(input).expect("text");
    let entries = format::cages::parse_all(&text, None);
    let (line, result) = entries.first().expect("one entry");
    let err = result.as_ref().expect_err("a huge box is refused");
    assert_eq!((*line, err.position.map(|p| p.line)), (1, Some(1)), "{err}");
    assert!(err.to_string().contains("5x13244231341221433331"), "{err}");
}
