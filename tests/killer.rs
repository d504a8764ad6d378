//! Killer sudoku end to end: Solo's generated Killer IDs solved and checked by an independent
//! reading of the ID, solution counts against brute force on 4x4 Killers, the ID, cage-text and
//! drawing writers read back, and `sudobot solve` on Killer input.
//!
//! The fixtures in `tests/fixtures/killer/` are `sgt-solo --generate N '<params>#sudobot-killer'`
//! (Debian 20230122), one file per shape and difficulty (see its README.md).

use std::path::PathBuf;
use std::sync::Arc;

use predicates::prelude::*;
use sudobot::format::pretty::{self, Charset, Options};
use sudobot::format::{cages, line, solo_id};
use sudobot::grid::{Cage, Geometry, Grid};
use sudobot::solve::{Verdict, count_solutions, solve};

use crate::support::{Rng, sudobot};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/killer/");

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(FIXTURES).join(name)
}

/// The IDs of a fixture file (comments and blank lines skipped).
fn ids(name: &str) -> Vec<String> {
    std::fs::read_to_string(fixture(name))
        .expect("fixture")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The rules of a Solo Killer ID, read here with no help from the library: the givens, the
/// houses (rows, columns, blocks by Solo's own formula or the jigsaw walls, diagonals) and the
/// cages with their sums.
struct Rules {
    side: usize,
    givens: Vec<u32>,
    houses: Vec<Vec<usize>>,
    cages: Vec<(u32, Vec<usize>)>,
}

/// Solo's grid code: numbers, `_` between them, `a`-`z` for runs of blanks.
fn numbers(text: &str, area: usize) -> Vec<u32> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for ch in text.chars().chain(std::iter::once('_')) {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        if !digits.is_empty() {
            out.push(digits.parse().expect("number"));
            digits.clear();
        }
        if ch.is_ascii_lowercase() {
            out.extend(std::iter::repeat_n(0, (ch as u8 - b'a' + 1) as usize));
        }
    }
    assert_eq!(out.len(), area, "{text}");
    out
}

/// Solo's wall code into groups of cells (the cells no wall separates).
fn groups(text: &str, side: usize) -> Vec<Vec<usize>> {
    let mut label: Vec<usize> = (0..side * side).collect();
    fn find(label: &mut [usize], mut i: usize) -> usize {
        while label[i] != i {
            i = label[i];
        }
        i
    }
    let mut edge = 0;
    let half = side * (side - 1);
    let open = |edge: usize, label: &mut Vec<usize>| {
        let (a, b) = if edge < half {
            let (y, x) = (edge / (side - 1), edge % (side - 1));
            (y * side + x, y * side + x + 1)
        } else {
            let (x, y) = ((edge - half) / (side - 1), (edge - half) % (side - 1));
            (y * side + x, (y + 1) * side + x)
        };
        let (ra, rb) = (find(label, a), find(label, b));
        label[ra.max(rb)] = ra.min(rb);
    };
    for ch in text.chars() {
        let run = if ch == '_' { 0 } else { (ch as u8 - b'a' + 1) as usize };
        for _ in 0..run {
            open(edge, &mut label);
            edge += 1;
        }
        if ch != 'z' {
            edge += 1;
        }
    }
    assert_eq!(edge, 2 * half + 1, "{text}");
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut index = vec![usize::MAX; side * side];
    for i in 0..side * side {
        let root = find(&mut label, i);
        if index[root] == usize::MAX {
            index[root] = out.len();
            out.push(Vec::new());
        }
        out[index[root]].push(i);
    }
    out
}

fn rules(id: &str) -> Rules {
    let (params, desc) = id.split_once(':').expect("params");
    let size: String = params.chars().take_while(char::is_ascii_digit).collect();
    let c: usize = size.parse().expect("size");
    let rest = &params[size.len()..];
    let (r, flags) =
        match rest.strip_prefix('x').filter(|t| t.starts_with(|d: char| d.is_ascii_digit())) {
            Some(t) => {
                let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
                (digits.parse::<usize>().expect("r"), &t[digits.len()..])
            }
            None => (c, rest),
        };
    let jigsaw = flags.contains('j');
    let side = if jigsaw { c } else { c * r };
    let mut parts = desc.split(',');
    let givens = numbers(parts.next().expect("grid"), side * side);
    let mut houses: Vec<Vec<usize>> = Vec::new();
    for k in 0..side {
        houses.push((0..side).map(|x| k * side + x).collect());
        houses.push((0..side).map(|y| y * side + k).collect());
    }
    if jigsaw {
        houses.extend(groups(parts.next().expect("jigsaw walls"), side));
    } else {
        // Solo: cell (x, y) is in block (y / c) * c + x / r.
        let mut blocks = vec![Vec::new(); side];
        for i in 0..side * side {
            let (x, y) = (i % side, i / side);
            blocks[(y / c) * c + x / r].push(i);
        }
        houses.extend(blocks);
    }
    if flags.contains('x') {
        houses.push((0..side).map(|k| k * side + k).collect());
        houses.push((0..side).map(|k| k * side + side - 1 - k).collect());
    }
    let cage_cells = groups(parts.next().expect("cage walls"), side);
    let sums = numbers(parts.next().expect("sums"), side * side);
    let cages =
        cage_cells.into_iter().map(|cells| (cells.iter().map(|&i| sums[i]).sum(), cells)).collect();
    Rules { side, givens, houses, cages }
}

/// Why `values` breaks the rules, if it does.
fn broken(rules: &Rules, values: &[u8]) -> Option<String> {
    let all: u64 = (1..=rules.side as u64).map(|v| 1 << v).sum();
    for house in &rules.houses {
        let seen: u64 = house.iter().map(|&i| 1u64 << values[i]).fold(0, |a, b| a | b);
        if seen != all {
            return Some(format!("house {house:?} does not hold 1 to {}", rules.side));
        }
    }
    for (sum, cells) in &rules.cages {
        let total: u32 = cells.iter().map(|&i| u32::from(values[i])).sum();
        let mut distinct: Vec<u8> = cells.iter().map(|&i| values[i]).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if total != *sum || distinct.len() != cells.len() {
            return Some(format!("cage {cells:?} holds {distinct:?}, total {total}, sum {sum}"));
        }
    }
    rules
        .givens
        .iter()
        .zip(values)
        .position(|(&g, &v)| g != 0 && g != u32::from(v))
        .map(|i| format!("the given at {i} changed"))
}

const GENERATED: &[&str] = &[
    "2x2k.txt",
    "2x2kdu.txt",
    "2x3k.txt",
    "2x3kdu.txt",
    "3x2k.txt",
    "3x2kdu.txt",
    "2x4k.txt",
    "2x4kdu.txt",
    "4x2k.txt",
    "4x2kdu.txt",
    "3x3kdt.txt",
    "3x3kdb.txt",
    "3x3kdi.txt",
    "3x3kda.txt",
    "3x3kde.txt",
    "3x3kdu.txt",
    "3x3xk.txt",
    "3x3xkdu.txt",
    "9jk.txt",
    "9jxk.txt",
];

#[test]
fn every_generated_killer_id_solves_and_passes_an_independent_check() {
    let mut solved = 0;
    for name in GENERATED {
        for (n, id) in ids(name).iter().enumerate() {
            let at = format!("{name}:{}", n + 1);
            let puzzle = solo_id::parse(id).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(solo_id::write(&puzzle), *id, "{at}: the ID written back");
            let count = count_solutions(&puzzle, 2).unwrap_or_else(|c| panic!("{at}: {c}"));
            // Solo made them unique; ambiguous.txt covers the other case.
            assert_eq!((count.found, count.examples.len()), (1, 1), "{at}");
            let rules = rules(id);
            if let Some(why) = broken(&rules, count.examples[0].cells()) {
                panic!("{at}: {why}");
            }
            assert!(count.examples[0].is_solution_of(&puzzle), "{at}");
            solved += 1;
        }
    }
    assert_eq!(solved, 2950);
}

#[test]
fn cage_text_and_drawings_read_back_to_the_same_puzzle() {
    for name in GENERATED {
        for id in ids(name).iter().step_by(10) {
            let puzzle = solo_id::parse(id).expect("valid");
            let text = cages::write(&puzzle);
            assert_eq!(cages::parse(&text).as_ref(), Ok(&puzzle), "{id}\n{text}");
            let solution = solve(&puzzle).unique().cloned().expect("unique");
            for charset in [Charset::Unicode, Charset::Ascii] {
                let options = Options { charset, colour_filled_from: Some(&puzzle) };
                let drawn = pretty::write_with(&solution, &options);
                let back = pretty::parse(&drawn).expect("reads back");
                // Drawings do not show X diagonals.
                if puzzle.geometry().has_diagonals() {
                    assert_eq!(back.cells(), solution.cells(), "{id}");
                } else {
                    assert_eq!(back, solution, "{id}\n{drawn}");
                }
            }
        }
    }
}

#[test]
fn an_ambiguous_killer_gives_two_checked_solutions() {
    let id = &ids("ambiguous.txt")[0];
    let puzzle = solo_id::parse(id).expect("valid");
    let Verdict::Multiple(a, b) = solve(&puzzle) else { panic!("two solutions expected") };
    assert_ne!(a, b);
    let rules = rules(id);
    for s in [&a, &b] {
        assert_eq!(broken(&rules, s.cells()), None, "{}", line::write(s));
    }
    let count = count_solutions(&puzzle, 100).expect("valid givens");
    assert_eq!((count.found, count.exhaustive), (2, true));
}

/// Every 4x4 sudoku grid of a geometry's houses (rows, columns, regions, diagonals), by plain
/// backtracking over the cells.
fn all_grids(houses: &[Vec<usize>]) -> Vec<Vec<u8>> {
    fn fill(i: usize, cells: &mut Vec<u8>, houses: &[Vec<usize>], out: &mut Vec<Vec<u8>>) {
        if i == 16 {
            out.push(cells.clone());
            return;
        }
        for v in 1..=4 {
            let clash = houses.iter().any(|h| h.contains(&i) && h.iter().any(|&j| cells[j] == v));
            if !clash {
                cells[i] = v;
                fill(i + 1, cells, houses, out);
                cells[i] = 0;
            }
        }
    }
    let mut out = Vec::new();
    fill(0, &mut vec![0; 16], houses, &mut out);
    out
}

/// Random cages over 16 cells: grown from a seed cell to a random size of 1 to 4.
fn random_cages(random: &mut Rng) -> Vec<Vec<usize>> {
    let mut owner = [usize::MAX; 16];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for start in 0..16 {
        if owner[start] != usize::MAX {
            continue;
        }
        let size = 1 + random.below(4);
        let mut cells = vec![start];
        owner[start] = cages.len();
        while cells.len() < size {
            let free: Vec<usize> = cells
                .iter()
                .flat_map(|&i| {
                    let (r, c) = (i / 4, i % 4);
                    [
                        (r > 0).then(|| i - 4),
                        (r < 3).then(|| i + 4),
                        (c > 0).then(|| i - 1),
                        (c < 3).then(|| i + 1),
                    ]
                })
                .flatten()
                .filter(|&j| owner[j] == usize::MAX)
                .collect();
            if free.is_empty() {
                break;
            }
            let next = free[random.below(free.len())];
            owner[next] = cages.len();
            cells.push(next);
        }
        cages.push(cells);
    }
    cages
}

#[test]
fn killer_solution_counts_match_brute_force_on_4x4() {
    let jigsaw = [0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3];
    let shapes = [
        Geometry::boxed(2, 2).expect("boxes"),
        Geometry::boxed(2, 2).expect("boxes").with_diagonals(),
        Geometry::jigsaw(4, &jigsaw).expect("jigsaw"),
    ];
    let mut random = Rng::new(0x5eed_cafe);
    let (mut several, mut none) = (0, 0);
    for shape in &shapes {
        let houses: Vec<Vec<usize>> = shape.houses().iter().map(|h| h.cells.clone()).collect();
        let grids = all_grids(&houses);
        for round in 0..150 {
            let layout = random_cages(&mut random);
            // A grid whose values differ in every cage gives the sums (a cage may span houses).
            let fitting: Vec<&Vec<u8>> = grids
                .iter()
                .filter(|g| {
                    layout.iter().all(|c| {
                        let mut v: Vec<u8> = c.iter().map(|&i| g[i]).collect();
                        v.sort_unstable();
                        v.dedup();
                        v.len() == c.len()
                    })
                })
                .collect();
            if fitting.is_empty() {
                continue;
            }
            let target = fitting[random.below(fitting.len())];
            let mut sums: Vec<u32> =
                layout.iter().map(|c| c.iter().map(|&i| u32::from(target[i])).sum()).collect();
            // Every third puzzle gets one sum moved by one (staying possible for its size).
            if round % 3 == 0 {
                let k = random.below(sums.len());
                let size = layout[k].len() as u32;
                let (min, max) = (size * (size + 1) / 2, size * (9 - size) / 2);
                sums[k] = if sums[k] < max { sums[k] + 1 } else { sums[k].max(min + 1) - 1 };
            }
            let expected = grids
                .iter()
                .filter(|g| {
                    layout.iter().zip(&sums).all(|(cells, &sum)| {
                        let mut values: Vec<u8> = cells.iter().map(|&i| g[i]).collect();
                        values.sort_unstable();
                        values.dedup();
                        let total: u32 = cells.iter().map(|&i| u32::from(g[i])).sum();
                        values.len() == cells.len() && total == sum
                    })
                })
                .count() as u64;
            let cage_list =
                layout.iter().zip(&sums).map(|(c, &s)| Cage::new(s, c.clone())).collect();
            let geometry = Arc::new(shape.clone().with_cages(cage_list).expect("valid cages"));
            let count = count_solutions(&Grid::empty(geometry), 1000).expect("no givens");
            assert!(count.exhaustive);
            assert_eq!(count.found, expected, "{shape:?} {layout:?} {sums:?}");
            several += usize::from(expected > 1);
            none += usize::from(expected == 0);
        }
    }
    // The random puzzles cover all three outcomes.
    assert!(several > 20 && none > 20, "{several} with several, {none} with none");
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = sudobot().args(args).output().expect("runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

#[test]
fn solve_reads_and_writes_killer_in_every_format() {
    let id = &ids("3x3kdu.txt")[0];
    let puzzle = solo_id::parse(id).expect("valid");
    let solution = solve(&puzzle).unique().cloned().expect("unique");
    let (code, out, _) = run(&["solve", "-o", "line", id]);
    assert_eq!((code, out.trim()), (Some(0), line::write(&solution).as_str()));
    // The ID output is the same puzzle with every value filled.
    let (_, out, _) = run(&["solve", "-o", "id", id]);
    let back = solo_id::parse(out.trim()).expect("an ID");
    assert_eq!(back.geometry(), puzzle.geometry());
    assert_eq!(back.cells(), solution.cells());
    // Cage text out, then in again (detected), on standard input.
    let (_, text, _) = run(&["solve", "-o", "cages", id]);
    assert!(text.lines().nth(1).is_some_and(|l| l.contains(": r1c1")), "{text}");
    let puzzle_text = cages::write(&puzzle);
    sudobot()
        .args(["solve", "-o", "line", "-"])
        .write_stdin(puzzle_text)
        .assert()
        .success()
        .stdout(format!("{}\n", line::write(&solution)));
    // Pretty output draws the first cage's sum at the top-left corner.
    let (_, drawn, _) = run(&["solve", "-o", "pretty", id]);
    let first = &puzzle.geometry().cages()[0];
    assert!(drawn.starts_with(&format!("┏{}", first.sum)), "{drawn}");
    assert_eq!(pretty::parse(&drawn).expect("reads back"), solution);
}

#[test]
fn an_ambiguous_killer_exits_4_with_both_solutions() {
    let id = &ids("ambiguous.txt")[0];
    let (code, out, err) = run(&["solve", "-o", "line", id]);
    assert_eq!(code, Some(4), "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.contains("several solutions; the two shown differ in"), "{err}");
    sudobot().args(["solve", "--count", id]).assert().code(4).stdout("2 solutions\n");
}

#[test]
fn a_killer_without_solution_exits_3() {
    // The pairs in the top-left box both need 1 + 2.
    let text = "\
................
3: r1c1 r1c2
3: r2c1 r2c2
7: r1c3 r1c4
7: r2c3 r2c4
10: r3c1 r3c2 r3c3 r3c4
10: r4c1 r4c2 r4c3 r4c4
";
    sudobot()
        .args(["solve", text])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("no solution"));
}

#[test]
fn bad_cage_input_names_the_cage_and_exits_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("killer.txt");
    std::fs::write(&path, "................\n8: r1c1 r1c2 r1c3\n3: r1c4 r2c4\n6: r2c1 r3c1\n5: r2c2 r3c2\n5: r2c3 r3c3\n9: r3c4 r4c3 r4c4\n4: r4c1 r4c1\n").expect("write");
    let (code, out, err) = run(&["solve", "--file", path.to_str().expect("path")]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("line 8: cage 7 (sum 4 at r4c1) lists r4c1 twice"), "{err}");
    // A given that breaks its cage is bad input too: 3 in r1c4 leaves nothing for r2c4.
    let id = "2x2k:c3l,b______aaa_a_aaa,8b3_6_5_5d9_4c";
    let (code, _, err) = run(&["solve", id]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("invalid givens: the values in cage 2 (sum 3 at r1c4) add up to 3"),
        "{err}"
    );
}

#[test]
fn a_batch_of_killer_ids_lines_up_with_its_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("ids.txt");
    let mut list = ids("2x3k.txt")[..3].to_vec();
    list.insert(1, "2x3k:zj,___".into());
    std::fs::write(&path, list.join("\n")).expect("write");
    let (code, out, _) = run(&["solve", "-o", "line", "--file", path.to_str().expect("path")]);
    assert_eq!(code, Some(2));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("# line 2"), "{}", lines[1]);
    for (k, l) in [(0, lines[0]), (2, lines[2]), (3, lines[3])] {
        let puzzle = solo_id::parse(&list[k]).expect("valid");
        let values = line::parse_with(l, puzzle.geometry_arc()).expect("a solution line");
        assert!(values.is_solution_of(&puzzle), "{l}");
    }
}

/// Pieces of cage text, Killer IDs and drawings, put together at random.
fn killer_noise() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        "\n",
        " ",
        ",",
        ":",
        "#",
        "r",
        "c",
        "1",
        "4",
        "9",
        "12",
        "99999999999",
        "0",
        ".",
        "....",
        "................",
        "box: 2x3",
        "regions: ",
        "diagonals: yes",
        "3: r1c1 r1c2",
        "r4c4",
        "2x2k:",
        "3x3k:",
        "_",
        "a",
        "z",
        "┏",
        "━",
        "┃",
        "│",
        "─",
        "┅",
        "┇",
        "╋",
        "+",
        "=",
        "|",
        "-",
        "~",
        "!",
        "8━━",
        "┃ . │",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|v| v.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 400, ..Default::default() })]

    #[test]
    fn no_killer_input_makes_a_reader_panic(text in killer_noise()) {
        let _ = sudobot::format::parse(&text, None);
        let _ = sudobot::format::read_puzzles(&text, "noise", &Default::default());
        let _ = cages::parse(&text);
        let _ = pretty::parse(&text);
        let _ = solo_id::parse(&text);
    }
}

#[test]
fn killer_drawings_of_noise_cells_do_not_panic() {
    // A drawing-shaped text with a sum on every border and odd wall characters.
    let puzzle = solo_id::parse(&ids("2x2k.txt")[0]).expect("valid");
    let drawn = pretty::write(&puzzle);
    for (k, _) in drawn.char_indices() {
        for replacement in ["9", "━", " ", "┇", "x"] {
            let mut text = drawn.clone();
            let end = k + text[k..].chars().next().map_or(0, char::len_utf8);
            text.replace_range(k..end, replacement);
            // Either a grid or an error naming the place, never a panic.
            if let Err(e) = pretty::parse(&text) {
                assert!(!e.to_string().is_empty());
            }
        }
    }
}
