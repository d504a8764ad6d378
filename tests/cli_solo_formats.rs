//! `sudobot solve` on Solo's formats, end to end: Copy grid text (captured from the real
//! sgt-solo under Xvfb with Game > Copy) and game IDs (from `sgt-solo --generate`). Each Solo
//! input is checked against the same puzzle written in the one-line format (converted here by a
//! few lines of test code), so the Solo readers are compared with an independent reading.
//!
//! Needs the Solo parsers in `format::solo_text` and `format::solo_id`; registered in
//! `tests/main.rs` once they are merged.

use std::path::PathBuf;

use predicates::prelude::*;
use sudobot::format::line;

use crate::support::sudobot;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/solve").join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).expect("fixture")
}

/// Runs sudobot and returns its standard output, asserting success.
fn solved(args: &[&str]) -> String {
    let output = sudobot().args(args).output().expect("runs");
    assert!(
        output.status.success(),
        "sudobot {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8").trim().to_string()
}

/// The one-line form of Solo Copy text: every cell row's tokens except walls, `_` as blank.
/// Cell rows are those that start with a symbol (wall and rule rows start with ` `, `-`, `+`).
fn copy_text_to_line(text: &str) -> String {
    text.lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_'))
        .flat_map(|l| {
            l.split_whitespace()
                .filter(|t| *t != "|")
                .map(|t| t.replace('_', "."))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The one-line form of a Solo game ID's grid: letters are runs of blanks (`a` = 1 ...
/// `z` = 26), numbers are decimal values, `_` separates numbers.
fn game_id_to_line(id: &str) -> String {
    let (params, rest) = id.split_once(':').expect("an ID");
    let desc = rest.split(',').next().expect("a grid");
    let side = if params.contains('j') {
        params.trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse::<usize>().expect("side")
    } else {
        let (c, r) = params
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .split_once('x')
            .expect("CxR");
        c.parse::<usize>().expect("c") * r.parse::<usize>().expect("r")
    };
    let mut out = String::new();
    let mut chars = desc.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'a'..='z' => out.push_str(&".".repeat((c as u8 - b'a' + 1) as usize)),
            '0'..='9' => {
                let mut n = c.to_digit(10).expect("digit");
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d;
                    chars.next();
                }
                let symbol = if n <= 9 {
                    char::from(b'0' + n as u8)
                } else {
                    char::from(b'A' + n as u8 - 10)
                };
                out.push(symbol);
            }
            _ => {}
        }
    }
    assert_eq!(out.len(), side * side, "decoded {id}");
    out
}

/// Asserts that a one-line solution keeps every given of a one-line puzzle.
fn keeps_givens(puzzle: &str, solution: &str) {
    assert_eq!(puzzle.len(), solution.len());
    for (i, (p, s)) in puzzle.chars().zip(solution.chars()).enumerate() {
        assert!(p == '.' || p.eq_ignore_ascii_case(&s), "cell {i}: given {p} became {s}");
    }
}

#[test]
fn copy_text_solves_like_its_line_form() {
    for (name, extra) in [
        ("solo_text_3x3.txt", None),
        ("solo_text_3x4.txt", None),
        ("solo_text_3x3x.txt", Some("-x")),
    ] {
        let text = read(name);
        let line_form = copy_text_to_line(&text);
        let mut args = vec!["solve", "-o", "line"];
        args.extend(extra);
        args.push(&line_form);
        let expected = solved(&args);
        let from_file =
            solved(&["solve", "-o", "line", "--file", fixture(name).to_str().expect("path")]);
        assert_eq!(from_file, expected, "{name}");
    }
}

#[test]
fn copy_text_from_standard_input_with_crlf() {
    let text = read("solo_text_3x3.txt").replace('\n', "\r\n");
    let expected = solved(&["solve", "-o", "line", &copy_text_to_line(&text)]);
    sudobot()
        .args(["solve", "-o", "line", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(format!("{expected}\n"));
}

#[test]
fn x_copy_text_needs_no_flag() {
    // The `_` blanks on the diagonals mark an X puzzle: the solution is unique without -x
    // (the same cells read as a plain sudoku have several solutions).
    let text = read("solo_text_3x3x.txt");
    let solution = solved(&[
        "solve",
        "-o",
        "line",
        "--file",
        fixture("solo_text_3x3x.txt").to_str().expect("path"),
    ]);
    let diagonal: std::collections::BTreeSet<u8> =
        (0..9).map(|i| solution.as_bytes()[i * 10]).collect();
    let anti: std::collections::BTreeSet<u8> =
        (0..9).map(|i| solution.as_bytes()[i * 8 + 8]).collect();
    assert_eq!((diagonal.len(), anti.len()), (9, 9), "{solution}");
    sudobot().args(["solve", "--check", &copy_text_to_line(&text)]).assert().code(4);
    keeps_givens(&copy_text_to_line(&text), &solution);
}

#[test]
fn jigsaw_copy_text_and_its_game_id_agree() {
    let ids = read("solo_ids.txt");
    let id = ids.lines().find(|l| l.starts_with("9j:")).expect("a 9j ID");
    let from_id = solved(&["solve", "-o", "line", id]);
    let from_text = solved(&[
        "solve",
        "-o",
        "line",
        "--file",
        fixture("solo_text_9j.txt").to_str().expect("path"),
    ]);
    assert_eq!(from_id, from_text);
    keeps_givens(&copy_text_to_line(&read("solo_text_9j.txt")), &from_text);
    // Pretty output draws the regions: a jigsaw has a wall between almost every two rows.
    let pretty = solved(&["solve", "-o", "pretty", id]);
    assert_eq!(pretty.lines().count(), 19, "{pretty}");
}

#[test]
fn game_ids_solve_like_their_line_form() {
    for id in read("solo_ids.txt").lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let line_form = game_id_to_line(id);
        let from_id = solved(&["solve", "-o", "line", id]);
        keeps_givens(&line_form, &from_id);
        let params = id.split(':').next().unwrap_or("");
        if params.ends_with('x') {
            assert_eq!(from_id, solved(&["solve", "-x", "-o", "line", &line_form]), "{id}");
        } else if !params.ends_with('j') {
            assert_eq!(from_id, solved(&["solve", "-o", "line", &line_form]), "{id}");
        }
    }
}

#[test]
fn a_file_of_game_ids_is_a_batch_in_order() {
    let path = fixture("solo_ids.txt");
    let out = solved(&["solve", "--file", path.to_str().expect("path")]);
    let text = read("solo_ids.txt");
    let ids: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), ids.len());
    for (id, solution) in ids.iter().zip(&lines) {
        keeps_givens(&game_id_to_line(id), solution);
        line::parse(solution).expect("a one-line solution");
    }
}

#[test]
fn id_output_round_trips() {
    let id = "3x3:c2a1_6b3a1a5_8a2a9f3a2b7g5c8g6b7a7f9a9a4_6a2a5b4_8a2c";
    let solution = solved(&["solve", "-o", "line", id]);
    let solved_id = solved(&["solve", "-o", "id", id]);
    assert!(solved_id.starts_with("3x3:"), "{solved_id}");
    assert_eq!(game_id_to_line(&solved_id), solution);
    // A full grid's ID solves to itself.
    assert_eq!(solved(&["solve", "-o", "line", &solved_id]), solution);
}

#[test]
fn killer_ids_solve() {
    let killer = "3x3k:zzzc,aa__a_a____a______a_a__a_aa_a__aa_a_aa_aa_a_baabbaa__a_a___a_____a____ba____ab____a__aa____a_a_aa__,12a9a10_11_8a16_16_15a10b13c10_10a10_16a8g5a17_9_9a7b5c7_13a11a13_23a13a9a7e6a23_14a23_4a4c9d";
    let solution = solved(&["solve", "-o", "line", killer]);
    assert_eq!(solution.len(), 81);
    assert!(!solution.contains('.'), "{solution}");
}

#[test]
fn forcing_the_format() {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    sudobot().args(["solve", "--format", "solo-id", puzzle]).assert().code(2);
    sudobot().args(["solve", "--format", "solo-text", puzzle]).assert().code(2);
    let text = read("solo_text_3x3.txt");
    sudobot().args(["solve", "--format", "solo-text", &text]).assert().success();
    sudobot().args(["solve", "--box", "3x3", &text]).assert().code(2).stderr(
        predicate::str::contains("a box shape applies to one-line puzzles and cage text only"),
    );
}

#[test]
fn a_bad_game_id_in_a_batch_names_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("ids.txt");
    std::fs::write(
        &path,
        "2x3:6c5a5d6_4a3_1d6_3a5_3d1a1c4\n2x3:6c5a5\n2x3:6c5a5d6_4a3_1d6_3a5_3d1a1c4\n",
    )
    .expect("write");
    let output = sudobot().args(["solve", "--file"]).arg(&path).output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], lines[2]);
    assert!(lines[1].starts_with("# line 2"), "{}", lines[1]);
}
