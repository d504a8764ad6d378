//! `sudobot solve` end to end through the binary: formats in and out, batches, exit codes and
//! every error message. Solutions are checked with the library's own rule checker
//! (`Grid::is_solution_of`), not against stored answers, except where a known answer is given.

use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use sudobot::format::line;

use crate::support::sudobot;

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
/// A solved grid with a "deadly rectangle" of four cells emptied: exactly two solutions.
const SEVERAL: &str =
    "647129835831564297952738614.28.57169716982453.95.16782289643571563271948174895326";
/// `PUZZLE` without its first given: 21786 solutions.
const MANY: &str =
    "......8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// Row 1 forces 9 into r1c9, but column 9 already has a 9: no solution, no conflicting givens.
const NONE: &str =
    "12345678.........9...............................................................";
/// A 6x6 puzzle with the usual boxes, 3 wide and 2 tall.
const SIX: &str = ".61..2.......4..36...1..23..5.......";

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/solve").join(name)
}

fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8(cmd.output().expect("runs").stdout).expect("UTF-8 output")
}

/// Asserts that `solution` (one line) solves `puzzle` (one line) under the usual box rules.
fn assert_solves(puzzle: &str, solution: &str) {
    let p = line::parse(puzzle).expect("puzzle parses");
    let s = line::parse(solution).unwrap_or_else(|e| panic!("output {solution:?} is no grid: {e}"));
    assert!(s.is_solution_of(&p), "{solution} does not solve {puzzle}");
}

#[test]
fn solves_a_line_puzzle() {
    sudobot().args(["solve", PUZZLE]).assert().success().stdout(format!("{SOLUTION}\n")).stderr("");
}

#[test]
fn pretty_output_draws_the_boxes() {
    let expected = "\
┌───────┬───────┬───────┐
│ 4 1 7 │ 3 6 9 │ 8 2 5 │
│ 6 3 2 │ 1 5 8 │ 9 4 7 │
│ 9 5 8 │ 7 2 4 │ 3 1 6 │
├───────┼───────┼───────┤
│ 8 2 5 │ 4 3 7 │ 1 6 9 │
│ 7 9 1 │ 5 8 6 │ 4 3 2 │
│ 3 4 6 │ 9 1 2 │ 7 5 8 │
├───────┼───────┼───────┤
│ 2 8 9 │ 6 4 3 │ 5 7 1 │
│ 5 7 3 │ 2 9 1 │ 6 8 4 │
│ 1 6 4 │ 8 7 5 │ 2 9 3 │
└───────┴───────┴───────┘
";
    sudobot().args(["solve", "--output", "pretty", PUZZLE]).assert().success().stdout(expected);
}

#[test]
fn ascii_pretty_output_for_six_by_six() {
    let out = stdout_of(sudobot().args(["solve", "-o", "pretty", "--ascii", SIX]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    assert_eq!(lines[0], "+-------+-------+");
    assert_eq!(lines[3], "+-------+-------+");
    let values: String = out.chars().filter(|c| c.is_ascii_digit()).collect();
    assert_solves(SIX, &values);
}

#[test]
fn colour_always_marks_filled_cells_only() {
    let out = stdout_of(sudobot().args(["solve", "-o", "pretty", "--color", "always", PUZZLE]));
    // r1c1 is the given 4 (plain), r1c2 the filled 1 (green).
    assert!(out.lines().nth(1).expect("row 1").starts_with("│ 4 \x1b[32m1\x1b[0m"), "{out}");
}

#[test]
fn reads_standard_input_with_a_dash_and_without_an_argument() {
    sudobot()
        .args(["solve", "-"])
        .write_stdin(format!("{PUZZLE}\r\n"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
    sudobot()
        .arg("solve")
        .write_stdin(format!("# a comment\n\n{PUZZLE}\n"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn batch_keeps_input_order_on_all_cores() {
    let path = fixture("mixed.txt");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let puzzles: Vec<&str> =
        text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
    assert!(puzzles.len() >= 50);
    let out = stdout_of(sudobot().args(["solve", "--jobs", "4", "--file"]).arg(&path));
    let solutions: Vec<&str> = out.lines().collect();
    assert_eq!(solutions.len(), puzzles.len());
    for (p, s) in puzzles.iter().zip(&solutions) {
        assert_solves(p, s);
    }
    // One thread gives the same output as several.
    let serial = stdout_of(sudobot().args(["solve", "--jobs", "1", "--file"]).arg(&path));
    assert_eq!(serial, out);
}

#[test]
fn batch_reports_each_bad_line_and_goes_on() {
    let path = fixture("bad.txt");
    let expected = format!(
        "{SOLUTION}\n\
         # line 3, column 13: '?' is not a value of a 9x9 grid; use '.' or '0' for a blank\n\
         # line 4, column 81: 80 symbols is not a square grid (81 for 9x9, 256 for 16x16, ... up to 36x36)\n\
         # line 5: invalid givens: r1c1 and r1c2 both hold 4 in row 1\n\
         # line 6: no solution\n"
    );
    let output = sudobot().args(["solve", "--file"]).arg(&path).output().expect("runs");
    assert_eq!(output.status.code(), Some(2), "bad input is the worst outcome");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(stdout.starts_with(&expected), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7);
    assert!(lines[5].starts_with("# line 7: several solutions, two of them: "), "{}", lines[5]);
    for s in lines[5].rsplit(' ').take(2) {
        assert_solves(MANY, s);
    }
    assert_solves(SIX, lines[6]);
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(
        stderr.contains(
            "bad.txt: 5 of 7 puzzles not solved: bad input on lines 3, 4, 5; no solution on line 6; \
             several solutions on line 7"
        ),
        "{stderr}"
    );
}

#[test]
fn batch_check_and_count_print_one_verdict_per_puzzle() {
    let path = fixture("bad.txt");
    let out = stdout_of(sudobot().args(["solve", "--check", "--file"]).arg(&path));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "unique");
    assert!(lines[1].starts_with("# line 3, column 13:"));
    assert_eq!(&lines[4..], ["no solution", "several solutions", "unique"]);

    let out = stdout_of(sudobot().args(["solve", "--count=10", "--file"]).arg(&path));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "1");
    assert_eq!(&lines[4..], ["0", "at least 10", "1"]);
}

#[test]
fn batch_exit_code_is_the_worst_outcome() {
    // Only several-solution puzzles (CRLF file): 4.
    let output = sudobot()
        .args(["solve", "--file"])
        .arg(fixture("crlf_several.txt"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(4));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("# line 2: several solutions"));
    assert!(lines[2].starts_with("# line 4: several solutions"));
    // No solution beats several solutions: 3.
    sudobot()
        .args(["solve", "-"])
        .write_stdin(format!("{SEVERAL}\n{NONE}\n{PUZZLE}\n"))
        .assert()
        .code(3);
    // All solved: 0, no summary, no progress bar when standard error is no terminal.
    sudobot()
        .args(["solve", "-"])
        .write_stdin(format!("{PUZZLE}\n{SIX}\n"))
        .assert()
        .success()
        .stderr("");
}

#[test]
fn several_solutions_prints_both_and_names_the_differing_cells() {
    let output = sudobot().args(["solve", SEVERAL]).output().expect("runs");
    assert_eq!(output.status.code(), Some(4));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_ne!(lines[0], lines[1]);
    assert_solves(SEVERAL, lines[0]);
    assert_solves(SEVERAL, lines[1]);
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(
        stderr,
        "sudobot: several solutions; the two shown differ in r4c1, r4c4, r6c1, r6c4\n"
    );
}

#[test]
fn no_solution_exits_3() {
    sudobot().args(["solve", NONE]).assert().code(3).stdout("").stderr("sudobot: no solution\n");
}

#[test]
fn conflicting_givens_name_both_cells_and_the_house() {
    let puzzle = format!("44{}", &PUZZLE[2..]);
    sudobot()
        .args(["solve", &puzzle])
        .assert()
        .code(2)
        .stdout("")
        .stderr("sudobot: invalid givens: r1c1 and r1c2 both hold 4 in row 1\n");
    // Same value twice in a box, different rows and columns.
    let mut cells: Vec<char> = PUZZLE.chars().collect();
    cells[10] = '4'; // r2c2, in r1c1's box
    let puzzle: String = cells.into_iter().collect();
    sudobot()
        .args(["solve", &puzzle])
        .assert()
        .code(2)
        .stderr("sudobot: invalid givens: r1c1 and r2c2 both hold 4 in region 1\n");
}

#[test]
fn bad_characters_name_line_column_and_character() {
    let puzzle = format!("{}?{}", &PUZZLE[..12], &PUZZLE[13..]);
    sudobot().args(["solve", &puzzle]).assert().code(2).stderr(
        "sudobot: line 1, column 13: '?' is not a value of a 9x9 grid; use '.' or '0' for a blank\n",
    );
    let puzzle = format!("{}A{}", &PUZZLE[..4], &PUZZLE[5..]);
    sudobot().args(["solve", &puzzle]).assert().code(2).stderr(predicate::str::contains(
        "column 5: 'A' is not a value of a 9x9 grid (values go from 1 to 9)",
    ));
    let puzzle = format!("{} {}", &PUZZLE[..40], &PUZZLE[40..]);
    sudobot().args(["solve", &puzzle]).assert().code(2).stderr(predicate::str::contains(
        "column 41: ' ' is not a sudoku symbol; spaces are not allowed inside a line",
    ));
}

#[test]
fn wrong_lengths_say_where() {
    sudobot().args(["solve", &PUZZLE[..80]]).assert().code(2).stderr(
        "sudobot: line 1, column 81: 80 symbols is not a square grid (81 for 9x9, 256 for 16x16, ... up to 36x36)\n",
    );
    // 25 symbols make a 5x5 grid, which has no box shape.
    sudobot()
        .args(["solve", &".".repeat(25)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a 5x5 grid has no rectangular box shape"));
    // In a file the line number is the file's.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("p.txt");
    std::fs::write(&path, format!("# comment\n\n{}\n", &PUZZLE[..79])).expect("write");
    sudobot().args(["solve", "--file"]).arg(&path).assert().code(2).stderr(
        predicate::str::contains("p.txt: line 3, column 80: 79 symbols is not a square grid"),
    );
}

#[test]
fn empty_and_missing_inputs() {
    sudobot()
        .args(["solve", "-"])
        .write_stdin("# only a comment\n\n")
        .assert()
        .code(2)
        .stderr("sudobot: standard input: no puzzle found (the input is empty or only comments)\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").expect("write");
    sudobot()
        .args(["solve", "--file"])
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty.txt: no puzzle found"));
    let missing = dir.path().join("missing.txt");
    sudobot()
        .args(["solve", "--file"])
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("cannot read {}", missing.display())));
}

#[test]
fn count_reports_exact_numbers_and_the_limit() {
    sudobot().args(["solve", "--count", PUZZLE]).assert().success().stdout("1 solution\n");
    sudobot().args(["solve", "--count", SEVERAL]).assert().code(4).stdout("2 solutions\n");
    sudobot().args(["solve", "--count", NONE]).assert().code(3).stdout("0 solutions\n");
    let sparse = format!("1{}", ".".repeat(80));
    sudobot()
        .args(["solve", "--count=50", &sparse])
        .assert()
        .code(4)
        .stdout("at least 50 solutions (the limit; raise it with --count LIMIT)\n");
    // A limit below 2 could not tell one solution from several.
    sudobot().args(["solve", "--count=1", PUZZLE]).assert().code(2);
}

#[test]
fn check_prints_only_a_verdict() {
    sudobot().args(["solve", "--check", PUZZLE]).assert().success().stdout("unique\n").stderr("");
    sudobot().args(["solve", "--check", SEVERAL]).assert().code(4).stdout("several solutions\n");
    sudobot().args(["solve", "--check", NONE]).assert().code(3).stdout("no solution\n");
}

#[test]
fn format_line_forced_reads_solo_text_as_one_line() {
    let text = ". 8 . | 3 . . | . . 7\n";
    sudobot()
        .args(["solve", "--format", "line", text])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 1, column 2: ' ' is not a sudoku symbol"));
    sudobot()
        .args(["solve", "--format", "line", "3x3:a8a3d7c9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("column 4: ':' is not a sudoku symbol"));
}

#[test]
fn box_overrides_the_shape_of_line_puzzles() {
    // Transposing a grid with 3-wide, 2-tall boxes gives one with 2-wide, 3-tall boxes.
    let transpose = |s: &str| -> String {
        let c: Vec<char> = s.chars().collect();
        (0..36).map(|i| c[(i % 6) * 6 + i / 6]).collect()
    };
    let solution = stdout_of(sudobot().args(["solve", SIX]));
    let out = stdout_of(sudobot().args(["solve", "--box", "2x3", &transpose(SIX)]));
    assert_eq!(out.trim(), transpose(solution.trim()));
    // Boxes 2 wide show as separators every 2 columns.
    let pretty = stdout_of(sudobot().args([
        "solve",
        "--box",
        "2x3",
        "-o",
        "pretty",
        "--ascii",
        &transpose(SIX),
    ]));
    assert_eq!(pretty.lines().next(), Some("+-----+-----+-----+"));

    sudobot()
        .args(["solve", "--box", "4x4", PUZZLE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected 256 symbols for a 16x16 grid, found 81"));
    sudobot()
        .args(["solve", "--box", "0x3", PUZZLE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("box shape 0x3"));
    sudobot()
        .args(["solve", "--box", "three", PUZZLE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("WIDTHxHEIGHT"));
}

#[test]
fn diagonals_make_an_x_sudoku() {
    let path = fixture("x.txt");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let puzzle = text.lines().find(|l| !l.starts_with('#')).expect("a puzzle");
    let out = stdout_of(sudobot().args(["solve", "-x", "--file"]).arg(&path));
    let s = out.trim();
    assert_solves(puzzle, s);
    let cell = |r: usize, c: usize| s.as_bytes()[r * 9 + c];
    let mut diagonal: Vec<u8> = (0..9).map(|i| cell(i, i)).collect();
    let mut anti: Vec<u8> = (0..9).map(|i| cell(i, 8 - i)).collect();
    diagonal.sort_unstable();
    anti.sort_unstable();
    assert_eq!(diagonal, b"123456789");
    assert_eq!(anti, b"123456789");
    sudobot().args(["solve", "--check", "-x", puzzle]).assert().success();
    sudobot().args(["solve", "--check", puzzle]).assert().code(4);
}

#[test]
fn larger_grids_solve() {
    let path = fixture("mixed.txt");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let big = text.lines().find(|l| l.len() == 256).expect("a 16x16 puzzle in mixed.txt");
    let out = stdout_of(sudobot().args(["solve", big]));
    assert_solves(big, out.trim());
    let pretty = stdout_of(sudobot().args(["solve", "-o", "pretty", big]));
    assert_eq!(pretty.lines().count(), 16 + 5);
}

#[test]
fn stats_go_to_standard_error() {
    sudobot()
        .args(["solve", "--stats", "--file"])
        .arg(fixture("mixed.txt"))
        .assert()
        .success()
        .stderr(predicate::str::is_match(r"^stats: 52 puzzles in [0-9.]+ s, [0-9]+ puzzles/s on [0-9]+ threads?; slowest: line [0-9]+ \([0-9.]+ ms\)(; reading [0-9.]+% and writing [0-9.]+% of [0-9.]+ CPU s \(at most [0-9.]+x on 16 cores\))?\n$").expect("regex"));
    // With worker threads, the main thread's share of the CPU time (the serial part).
    sudobot()
        .args(["solve", "--stats", "--jobs", "2", "--file"])
        .arg(fixture("mixed.txt"))
        .assert()
        .success()
        .stderr(predicate::str::is_match(r"on 2 threads; .*; reading [0-9.]+% and writing [0-9.]+% of [0-9.]+ CPU s \(at most [0-9.]+x on 16 cores\)\n$").expect("regex"));
}

#[test]
fn help_documents_exit_codes_and_examples() {
    sudobot()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes:"))
        .stdout(predicate::str::contains("4  several solutions"))
        .stdout(predicate::str::contains("sudobot solve --file puzzles.txt"));
}

#[test]
fn binary_input_names_the_first_bad_byte() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("binary.txt");
    std::fs::write(&path, b"# ok\n12\xff4\n").expect("write");
    sudobot()
        .args(["solve", "--file"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("binary.txt: line 2, column 3: not UTF-8 text"));
    sudobot()
        .args(["solve", "-"])
        .write_stdin(b"\xfe".to_vec())
        .assert()
        .code(2)
        .stderr("sudobot: standard input: line 1, column 1: not UTF-8 text\n");
}

#[test]
fn pretty_output_reads_back_as_input() {
    let pretty = stdout_of(sudobot().args(["solve", "-o", "pretty", "--color", "always", PUZZLE]));
    sudobot()
        .args(["solve", "-o", "line", "-"])
        .write_stdin(pretty)
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
    // A batch in pretty form (comment headers, blank lines between grids) reads back in order.
    let batch = stdout_of(
        sudobot()
            .args(["solve", "-o", "pretty", "--ascii", "-"])
            .write_stdin(format!("{PUZZLE}\n{SIX}\n")),
    );
    let lines = stdout_of(
        sudobot().args(["solve", "--format", "pretty", "-o", "line", "-"]).write_stdin(batch),
    );
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines[0], SOLUTION);
    assert_solves(SIX, lines[1]);
}

#[test]
fn hand_drawn_ascii_grids_are_read() {
    let compact = "\
+---+---+---+
|4..|...|8.5|
|.3.|...|...|
|...|7..|...|
+---+---+---+
|.2.|...|.6.|
|...|.8.|4..|
|...|.1.|...|
+---+---+---+
|...|6.3|.7.|
|5..|2..|...|
|1.4|...|...|
+---+---+---+
";
    sudobot()
        .args(["solve", "-o", "line", compact])
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
    let shifted = compact.replacen("|.3.|", "|.3..|", 1);
    sudobot()
        .args(["solve", &shifted])
        .assert()
        .code(2)
        .stderr("sudobot: line 3, column 5: '.' is not where the first row has a cell\n");
}

#[test]
fn a_file_name_as_the_puzzle_suggests_file() {
    let path = fixture("x.txt");
    let name = path.to_str().expect("UTF-8 path");
    sudobot().args(["solve", name]).assert().code(2).stderr(predicate::str::contains(format!(
        "note: {name} is a file; to read puzzles from it, use --file {name}"
    )));
}

/// The first `n` puzzles of the 17-clue benchmark set, one a line.
fn seventeen_clue(n: usize) -> Vec<String> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bench/puzzles2_17_clue");
    let text = std::fs::read_to_string(path).expect("benchmark set");
    text.lines().filter(|l| !l.starts_with('#')).take(n).map(str::to_string).collect()
}

#[test]
fn large_batches_stream_in_chunks_in_input_order() {
    // More lines than several chunks, with comments, CRLF endings and a bad line far in.
    let puzzles = seventeen_clue(1500);
    let mut text = String::new();
    let mut expected = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        if i % 400 == 7 {
            text.push_str("# a comment between puzzles\n");
        }
        if i == 1200 {
            let line = text.lines().count() + 1;
            text.push_str("12?\n");
            expected.push(Err(line));
        }
        text.push_str(p);
        text.push_str(if i % 3 == 0 { "\r\n" } else { "\n" });
        expected.push(Ok(p.as_str()));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("big.txt");
    std::fs::write(&path, &text).expect("write");
    let output =
        sudobot().args(["solve", "--jobs", "2", "--file"]).arg(&path).output().expect("runs");
    assert_eq!(output.status.code(), Some(2), "one bad line");
    let out = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), expected.len());
    for (got, want) in lines.iter().zip(&expected) {
        match want {
            Ok(puzzle) => assert_solves(puzzle, got),
            Err(line) => assert!(got.starts_with(&format!("# line {line}, column 3: ")), "{got}"),
        }
    }
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let bad = expected.iter().find_map(|e| e.err()).expect("a bad line");
    assert!(
        stderr.contains(&format!("1 of 1501 puzzles not solved: bad input on line {bad}")),
        "{stderr}"
    );
    // One thread (no worker threads at all) prints the same.
    let serial = stdout_of(sudobot().args(["solve", "--jobs", "1", "--file"]).arg(&path));
    assert_eq!(serial, out);
}

#[test]
fn batch_output_streams_before_the_input_ends() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let puzzles = seventeen_clue(600);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sudobot"))
        .args(["solve", "-", "-o", "line"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    // Read solutions on another thread; the first ones must come while standard input is
    // still open (bounded wait, so a regression fails instead of hanging).
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("UTF-8 output")).is_err() {
                break;
            }
        }
    });
    for p in &puzzles[..400] {
        writeln!(stdin, "{p}").expect("write");
    }
    stdin.flush().expect("flush");
    let first = rx.recv_timeout(std::time::Duration::from_secs(60));
    let early = first.is_ok();
    // Finish the input either way, so the child ends on every path.
    for p in &puzzles[400..] {
        writeln!(stdin, "{p}").expect("write");
    }
    drop(stdin);
    let status = child.wait().expect("exits");
    reader.join().expect("reader thread");
    assert!(early, "no output while the input was still open");
    let mut lines = vec![first.expect("checked")];
    lines.extend(rx.try_iter());
    assert!(status.success());
    assert_eq!(lines.len(), puzzles.len());
    for (p, s) in puzzles.iter().zip(&lines) {
        assert_solves(p, s);
    }
}

#[test]
fn a_bad_byte_far_into_a_batch_names_its_line() {
    let puzzles = seventeen_clue(1000);
    let mut bytes = Vec::new();
    for p in &puzzles {
        bytes.extend_from_slice(p.as_bytes());
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"..\xff\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("late.txt");
    std::fs::write(&path, bytes).expect("write");
    sudobot()
        .args(["solve", "--file"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("late.txt: line 1001, column 3: not UTF-8 text"));
}

#[test]
fn plain_nine_by_nine_lines_print_what_the_general_path_prints() {
    // Plain 9x9 lines take a fast path in batches; `--box 3x3` names the same grid but sends
    // every line through the general reader and solver. Both must print the same bytes and
    // exit alike, whatever each line turns out to be.
    let mut text = String::new();
    for p in seventeen_clue(40) {
        text.push_str(&format!("  {p}\t\r\n"));
    }
    for p in [SEVERAL, NONE, MANY, PUZZLE] {
        text.push_str(&format!("{p}\n# a comment\n\n"));
    }
    text.push_str(&format!("{}1\n", &PUZZLE[..80]));
    text.push_str(&format!("{}x\n", &PUZZLE[..80]));
    text.push_str(&format!("11{}\n", &PUZZLE[2..]));
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("plain.txt");
    std::fs::write(&path, &text).expect("write the batch");
    for extra in [&[][..], &["--check"][..], &["--jobs", "2"][..]] {
        let fast = sudobot().args(["solve", "--file"]).arg(&path).args(extra).output().unwrap();
        let general = sudobot()
            .args(["solve", "--box", "3x3", "--file"])
            .arg(&path)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&fast.stdout), String::from_utf8_lossy(&general.stdout));
        assert_eq!(String::from_utf8_lossy(&fast.stderr), String::from_utf8_lossy(&general.stderr));
        assert_eq!(fast.status.code(), general.status.code(), "{extra:?}");
    }
}

/// The empty 36x36 grid: counting a billion of its solutions cannot end in a fifth of a second
/// on any machine, so `--max-time` must end it.
fn empty_36() -> String {
    ".".repeat(36 * 36)
}

#[test]
fn max_time_ends_a_search_with_its_own_exit_code() {
    sudobot()
        .args(["solve", "--count=1000000000", "--max-time", "0.2", &empty_36()])
        .assert()
        .code(5)
        .stdout("")
        .stderr(
            predicate::str::starts_with("sudobot: gave up after ")
                .and(predicate::str::contains("the search went past its budget")),
        );
    sudobot()
        .args(["solve", "--max-time", "0", PUZZLE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'0' is not a number of seconds above 0"));
}

#[test]
fn a_batch_line_past_max_time_is_reported_and_the_batch_goes_on() {
    let input = format!("{SIX}\n{}\n{PUZZLE}\n", empty_36());
    let out = sudobot()
        .args(["solve", "--count=1000000000", "--max-time", "0.2", "-"])
        .write_stdin(input)
        .assert()
        .code(5)
        .stderr(predicate::str::contains("gave up on line 2"))
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("# line 2: gave up after "), "{out}");
    assert_eq!(lines[2], "1");
}

/// A 36x36 board of the hostile set (benches/hostile.txt line 224, 55% blank) that takes the
/// solver tens of thousands of branch points: `grade` with a hundredth of a second gives up.
#[test]
fn grade_gives_up_past_max_time() {
    let set = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/hostile.txt"),
    )
    .expect("the hostile set");
    let board = set.lines().nth(223).expect("line 224");
    sudobot()
        .args(["grade", "--max-time", "0.01", board])
        .assert()
        .code(5)
        .stdout(predicate::str::starts_with("# line 1: gave up after "));
}

/// Line `n` (1-based) of the hostile solver set, `benches/hostile.txt`.
fn hostile_line(n: usize) -> String {
    let set = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/hostile.txt"),
    )
    .expect("the hostile set");
    set.lines().nth(n - 1).expect("a line of the hostile set").to_string()
}

/// Every command that solves has a default `--max-time` (issue 32): the help says so, and
/// `off` lifts it.
#[test]
fn max_time_has_a_default_that_off_lifts() {
    for command in ["solve", "grade", "explain", "hint"] {
        sudobot().args([command, "--help"]).assert().success().stdout(
            predicate::str::contains("[default: 30]").and(predicate::str::contains("`off`")),
        );
    }
    sudobot().args(["solve", "--max-time", "off", PUZZLE]).assert().success();
    sudobot().args(["grade", "--max-time", "off", PUZZLE]).assert().success();
}

/// A search past its time limit ends with exit 5 and a message that names the limit and how to
/// change it, in `solve`, `grade`, `explain` and `hint` (a 36x36 board of the hostile set, 55%
/// blank, that the solver cannot answer in a fraction of a second; a small limit keeps the
/// test fast).
#[test]
fn a_search_past_max_time_names_the_limit_and_how_to_change_it() {
    let board = hostile_line(224);
    let note = "sudobot: note: the time limit was --max-time 0.2; give it longer with --max-time \
                SECONDS, or no limit with --max-time off\n";
    for command in [&["solve", "--check"][..], &["solve"], &["explain"], &["hint"], &["grade"]] {
        let mut cmd = sudobot();
        cmd.args(command).args(["--max-time", "0.2", &board]).timeout(Duration::from_secs(120));
        let assert = cmd.assert().code(5).stderr(predicate::str::ends_with(note));
        if command[0] != "grade" {
            assert.stderr(predicate::str::starts_with("sudobot: gave up after "));
        }
    }
    // In a batch, once after the summary.
    let input = format!("{board}\n{PUZZLE}\n");
    sudobot()
        .args(["solve", "--max-time", "0.2", "-"])
        .write_stdin(input)
        .timeout(Duration::from_secs(120))
        .assert()
        .code(5)
        .stderr(predicate::str::contains("gave up on line 1").and(predicate::str::ends_with(note)));
}

/// 36x36 boards of the hostile set made from one valid grid, 60% and 65% blank: "several
/// solutions" (exit 4) within the default time limit.
#[test]
fn thin_36x36_boards_have_several_solutions() {
    for line in [225, 226] {
        sudobot()
            .args(["solve", "--check", &hostile_line(line)])
            .timeout(Duration::from_secs(120))
            .assert()
            .code(4)
            .stdout("several solutions\n");
    }
}

/// The same grid 55% blank (hostile line 224) should say "several solutions" too, but the
/// solver cannot find even one solution of it in minutes (issue 32, point 7, still open): with
/// the default limit it gives up after 30 s with exit 5. Ignored until the solver answers it.
#[test]
#[ignore = "open: the generic engine finds no solution of this board in minutes (issue 32)"]
fn a_36x36_board_55_percent_blank_has_several_solutions() {
    sudobot()
        .args(["solve", "--check", &hostile_line(224)])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(4)
        .stdout("several solutions\n");
}
