//! The technique engine: every step true against the unique solution, `explain -o json`
//! replayed by an independent checker, every technique exercised on its own, and agreement with
//! Solo's generator and grader (`solo.rs`). The commands end to end are in `cli.rs`.
//!
//! The full benchmark sets run in the ignored `every_benchmark_path_replays` (`cargo test
//! --release -- --ignored logic::`).

mod cli;
mod solo;

use serde_json::Value;
use sudobot::format;
use sudobot::grid::{Cell, Grid, symbol};
use sudobot::logic::{self, Scale, Technique, json};

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bench/");
const LOGIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/logic/");

/// The puzzles of a fixture file (any format sudobot reads, one a line), at most `limit`.
fn load(path: &str, limit: usize) -> Vec<Grid> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    format::read_puzzles(&text, path, &Default::default())
        .expect("puzzles")
        .entries
        .into_iter()
        .take(limit)
        .map(|e| e.puzzle.unwrap_or_else(|err| panic!("{path}:{}: {err}", e.line)))
        .collect()
}

/// The cell named `r3c4` on a grid of `side`.
fn cell_index(name: &str, side: usize) -> Option<usize> {
    let rest = name.strip_prefix('r')?;
    let (r, c) = rest.split_once('c')?;
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    (1..=side).contains(&r).then_some(())?;
    (1..=side).contains(&c).then(|| (r - 1) * side + c - 1)
}

/// Replays an `explain -o json` document from its givens with its own bookkeeping (candidates
/// from the geometry's houses, nothing from the engine): every placement is a live candidate
/// and the solution's value, every elimination a live candidate that is not, every step
/// changes something, and the grid ends solved. The geometry is the puzzle's (the JSON's
/// `givens` must match it).
fn replay(doc: &Value, puzzle: &Grid) -> Result<(), String> {
    let side = puzzle.side();
    let n = side * side;
    let givens = doc["givens"].as_str().ok_or("no givens")?;
    if givens != format::line::write(puzzle) {
        return Err(format!("givens {givens} are not the puzzle"));
    }
    let solution = logic::unique_solution(puzzle).map_err(|e| e.to_string())?;
    let houses: Vec<Vec<usize>> =
        puzzle.geometry().houses().iter().map(|h| h.cells.clone()).collect();
    let peers = |c: usize| -> Vec<usize> {
        let mut p: Vec<usize> = houses
            .iter()
            .filter(|h| h.contains(&c))
            .flatten()
            .copied()
            .filter(|&x| x != c)
            .collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    let full: u64 = (1u64 << side) - 1;
    let mut values = puzzle.cells().to_vec();
    let mut cands: Vec<u64> = vec![full; n];
    for c in 0..n {
        if values[c] != 0 {
            cands[c] = 0;
            for p in peers(c) {
                cands[p] &= !(1 << (values[c] - 1));
            }
        }
    }
    let entries = |step: &Value, key: &str| -> Result<Vec<(usize, u8)>, String> {
        step[key]
            .as_array()
            .ok_or(format!("step without {key}"))?
            .iter()
            .map(|e| {
                let cell = cell_index(e["cell"].as_str().unwrap_or(""), side)
                    .ok_or(format!("bad cell {}", e["cell"]))?;
                let ch = e["value"].as_str().and_then(|s| s.chars().next()).unwrap_or('?');
                let v = symbol::from_char(ch, side).ok_or(format!("bad value {}", e["value"]))?;
                Ok((cell, v))
            })
            .collect()
    };
    for (k, step) in doc["steps"].as_array().ok_or("no steps")?.iter().enumerate() {
        let text = step["text"].as_str().unwrap_or("");
        let place = entries(step, "place")?;
        let elim = entries(step, "eliminate")?;
        if place.is_empty() && elim.is_empty() {
            return Err(format!("step {k} changes nothing: {text}"));
        }
        for (c, v) in place {
            if values[c] != 0 || cands[c] & (1 << (v - 1)) == 0 || solution.cells()[c] != v {
                return Err(format!("step {k} places a dead or wrong value: {text}"));
            }
            values[c] = v;
            cands[c] = 0;
            for p in peers(c) {
                cands[p] &= !(1 << (v - 1));
            }
        }
        for (c, v) in elim {
            if cands[c] & (1 << (v - 1)) == 0 || solution.cells()[c] == v {
                return Err(format!("step {k} removes a dead or true candidate: {text}"));
            }
            cands[c] &= !(1 << (v - 1));
        }
        if !step["technique"].as_str().is_some_and(|t| text.starts_with(t)) {
            return Err(format!("step {k}: the text does not start with the technique: {text}"));
        }
    }
    if values != solution.cells() {
        return Err("the replay does not end solved".into());
    }
    Ok(())
}

/// Explains every puzzle on both scales and replays the JSON.
fn assert_replays(puzzles: &[Grid], what: &str) {
    for (i, p) in puzzles.iter().enumerate() {
        for scale in [Scale::Score, Scale::Solo] {
            let path = logic::explain(p, scale)
                .unwrap_or_else(|e| panic!("{what} #{}: {scale}: {e}", i + 1));
            let doc: Value = serde_json::from_str(&json::to_json(&path)).expect("valid JSON");
            if let Err(e) = replay(&doc, p) {
                panic!("{what} #{} ({scale}): {e}\n{}", i + 1, format::line::write(p));
            }
        }
    }
}

#[test]
fn explain_replays_on_samples_of_every_set() {
    let sets: [(&str, usize); 7] = [
        ("puzzles3_magictour_top1465", 40),
        ("puzzles6_forum_hardest_1106", 5),
        ("puzzles2_17_clue", 20),
        ("sudoku6x6_2x3_gen200.txt", 30),
        ("sudoku12x12_3x4_gen100.txt", 3),
        ("sudoku16x16_gen100.txt", 2),
        ("sudoku25x25_gen20.txt", 1),
    ];
    for (name, n) in sets {
        assert_replays(&load(&format!("{BENCH}{name}"), n), name);
    }
}

/// Killer on every shape Solo makes (2x2, 2x3, 3x2, 2x4, 4x2, 3x3 at every level, X, jigsaw):
/// every step of both scales true and replayed.
#[test]
fn explain_replays_on_killer_of_every_shape() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/killer/");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") && n != "ambiguous.txt")
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    for name in names {
        assert_replays(&load(&format!("{dir}{name}"), 6), &name);
    }
}

#[test]
fn explain_replays_on_jigsaw_x_and_rectangular_boxes() {
    for name in [
        "solo_9jde.txt",
        "solo_9jdu.txt",
        "solo_3x3xde.txt",
        "solo_3x3xdu.txt",
        "solo_2x3du.txt",
        "solo_4x3du.txt",
        "solo_4x4de.txt",
    ] {
        assert_replays(&load(&format!("{LOGIC}{name}"), 5), name);
    }
}

#[test]
#[ignore = "every benchmark puzzle: minutes; run with --ignored"]
fn every_benchmark_path_replays() {
    for name in [
        "puzzles3_magictour_top1465",
        "puzzles6_forum_hardest_1106",
        "sudoku16x16_gen100.txt",
        "sudoku25x25_gen20.txt",
    ] {
        let puzzles = load(&format!("{BENCH}{name}"), usize::MAX);
        for (i, p) in puzzles.iter().enumerate() {
            let path = logic::explain(p, Scale::Score)
                .unwrap_or_else(|e| panic!("{name} #{}: {e}", i + 1));
            let doc: Value = serde_json::from_str(&json::to_json(&path)).expect("valid JSON");
            replay(&doc, p).unwrap_or_else(|e| panic!("{name} #{}: {e}", i + 1));
        }
    }
}

/// Each technique alone (after singles, with a guess to finish): it must find steps on the
/// sample, and every step it finds is checked against the solution by the engine.
#[test]
fn every_technique_finds_true_steps_on_its_own() {
    let puzzles = load(&format!("{BENCH}puzzles3_magictour_top1465"), 150);
    let base = [Technique::FullHouse, Technique::NakedSingle, Technique::HiddenSingle];
    for &t in logic::SCORE_ORDER {
        if base.contains(&t) || t == Technique::Guess {
            continue;
        }
        let finders: Vec<logic::Finder> = base
            .iter()
            .chain(&[t, Technique::Guess])
            .map(|&x| logic::finder(x).expect("a finder for every scale technique"))
            .collect();
        let mut fired = 0;
        for p in &puzzles {
            let (path, _) = logic::explain_with(p, &finders, Scale::Score)
                .unwrap_or_else(|e| panic!("{}: {e}", t.name()));
            fired += path.steps.iter().filter(|s| !base.contains(&s.technique)).count();
            // Every step names its technique's family.
            for s in path.steps.iter().filter(|s| s.technique != Technique::Guess) {
                assert!(!s.text().is_empty());
            }
        }
        assert!(fired > 0, "{} never applied on 150 puzzles", t.name());
    }
}

#[test]
fn every_step_is_true_on_boards_with_a_bad_order_of_finders() {
    // The hardest techniques first: they see boards full of candidates, where a wrong
    // assumption in a finder would show at once.
    let puzzles = load(&format!("{BENCH}puzzles3_magictour_top1465"), 25);
    let finders: Vec<logic::Finder> = logic::SCORE_ORDER
        .iter()
        .rev()
        .skip(1)
        .chain(&[Technique::Guess])
        .filter_map(|&t| logic::finder(t))
        .collect();
    for p in &puzzles {
        let (path, _) = logic::explain_with(p, &finders, Scale::Score).expect("explains");
        assert!(path.steps.len() > 1);
    }
}

#[test]
fn hints_fit_the_pencil_marks() {
    let p = load(&format!("{BENCH}puzzles3_magictour_top1465"), 1).remove(0);
    let solution = logic::unique_solution(&p).unwrap();
    let side = p.side();
    // Marks: every value not in the same row as an equal given; the column and region rules
    // are left for the player, so the first hint is a clean-up.
    let mut marks = vec![0u64; side * side];
    for (c, mark) in marks.iter_mut().enumerate() {
        if p.cells()[c] == 0 {
            let row = c / side;
            let used = (0..side)
                .map(|x| p.cells()[row * side + x])
                .fold(0u64, |m, v| if v == 0 { m } else { m | 1 << (v - 1) });
            *mark = ((1u64 << side) - 1) & !used;
        }
    }
    let board = logic::Board::with_marks(&p, &marks).unwrap();
    let step = logic::hint(&board, Scale::Score).unwrap().expect("a hint");
    assert_eq!(step.technique, Technique::Cleanup);
    // A mark that leaves out the solution value is reported as a mistake, naming the cell.
    let open = (0..side * side).find(|&c| p.cells()[c] == 0).unwrap();
    marks[open] &= !(1 << (solution.cells()[open] - 1));
    let board = logic::Board::with_marks(&p, &marks).unwrap();
    match logic::hint(&board, Scale::Score) {
        Err(logic::LogicError::MarksMissSolution { cell, .. }) => {
            assert_eq!(cell, Cell::from_index(open, side))
        }
        other => panic!("expected a marks mistake, got {other:?}"),
    }
}

#[test]
fn x_geometry_keeps_its_diagonals_in_json() {
    let p = load(&format!("{LOGIC}solo_3x3xde.txt"), 1).remove(0);
    let path = logic::explain(&p, Scale::Solo).unwrap();
    let doc: Value = serde_json::from_str(&json::to_json(&path)).unwrap();
    let id = doc["id"].as_str().expect("an X puzzle carries its Solo ID");
    let again = format::parse(id, None).unwrap();
    assert_eq!(again.geometry(), p.geometry());
    assert_eq!(again.cells(), p.cells());
    // A classic grid carries no ID, and the keys come in the documented order.
    let classic = load(&format!("{BENCH}puzzles2_17_clue"), 1).remove(0);
    let text = json::to_json(&logic::explain(&classic, Scale::Score).unwrap());
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert!(doc.get("id").is_none());
    assert!(text.starts_with(r#"{"givens":""#), "{text}");
    assert!(text.find(r#""steps":"#) < text.find(r#""grade":{"scale":"score","level":"#));
}
