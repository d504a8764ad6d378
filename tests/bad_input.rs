//! Hostile input for every command that reads text: endless or huge reads, paths that are no
//! files, arguments that look like something else, marks that contradict the board. Each gets
//! a clear message and exit 2, quickly and in bounded memory.

use predicates::prelude::*;
use sudobot::format::{MAX_LINE, MAX_TEXT};

use crate::support::sudobot;

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// The message for a line over the bound, on line `line`.
fn too_long(line: usize) -> String {
    format!("line {line} is longer than {MAX_LINE} bytes")
}

#[test]
fn an_endless_line_is_refused_by_every_reader() {
    // `/dev/zero` never ends and has no line break: each reader stops at the line bound.
    for args in [
        &["solve", "--file", "/dev/zero"][..],
        &["grade", "--file", "/dev/zero"],
        &["explain", "/dev/zero"],
        &["hint", "/dev/zero"],
        &["hint", "--marks", "/dev/zero", PUZZLE],
    ] {
        sudobot().args(args).timeout(std::time::Duration::from_secs(60)).assert().code(2).stderr(
            predicate::str::contains(too_long(1)).and(predicate::str::contains("/dev/zero")),
        );
    }
}

#[test]
fn a_long_line_on_standard_input_names_its_line() {
    let input = format!("{PUZZLE}\n{}\n", "1".repeat(MAX_LINE + 1));
    for cmd in ["solve", "grade", "explain", "hint"] {
        sudobot().args([cmd, "-"]).write_stdin(input.clone()).assert().code(2).stderr(
            predicate::str::contains(too_long(2)).and(predicate::str::contains("standard input")),
        );
    }
    // A line of exactly the bound is read, with either line ending (and then refused as a
    // puzzle, for its length, on its own line number).
    for end in ["\n", "\r\n"] {
        sudobot()
            .args(["solve", "-"])
            .write_stdin(format!("{PUZZLE}{end}{}{end}{PUZZLE}{end}", "1".repeat(MAX_LINE)))
            .assert()
            .code(2)
            .stdout(predicate::str::contains("# line 2, column").count(1))
            .stdout(predicate::str::contains("not a square grid"));
    }
}

#[test]
fn an_input_read_whole_is_bounded_in_size() {
    // Short lines, too many of them: `grade` reads its input whole.
    let line = format!("{PUZZLE}\n");
    let input = line.repeat(MAX_TEXT / line.len() + 2);
    sudobot()
        .args(["grade", "-"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("larger than {} MiB", MAX_TEXT >> 20)));
}

/// A config file over 1 MiB is refused by its size; a device such as /dev/zero is never read.
#[test]
fn config_and_site_files_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.toml");
    std::fs::File::create(&big).unwrap().set_len(2 << 20).unwrap();
    sudobot()
        .args(["web", "--site", "demo", "--config"])
        .arg(&big)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("larger than 1024 KiB"));
    sudobot()
        .args(["web", "--site", "demo", "--config", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read /dev/zero: not a regular file"));
}

#[test]
fn an_unreadable_path_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let out = sudobot()
        .args(["sites", "list", "--sites-dir"])
        .arg(&missing)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(err.contains("cannot read sites directory"), "{err}");
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    // A directory given where a board is expected is read as a path, not as marks text.
    sudobot()
        .args(["hint", "--marks"])
        .arg(dir.path())
        .arg(PUZZLE)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Is a directory"));
}

#[test]
fn one_puzzle_commands_refuse_several_as_bad_input() {
    for cmd in ["explain", "hint"] {
        sudobot()
            .args([cmd, "-"])
            .write_stdin(format!("{PUZZLE}\n{PUZZLE}\n"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{cmd} takes one puzzle, the input holds 2")));
    }
}

#[test]
fn marks_that_contradict_a_given_are_refused() {
    // Every open cell with all nine marks, and r1c1 (given 4) shown as 5.
    let mut cells: Vec<String> = PUZZLE
        .chars()
        .map(|c| if c == '.' { "123456789".to_string() } else { c.to_string() })
        .collect();
    let grid =
        |cells: &[String]| cells.chunks(9).map(|r| r.join(" ")).collect::<Vec<_>>().join("\n");
    sudobot().args(["hint", "--marks", &grid(&cells), PUZZLE]).assert().success();
    for (r1c1, why) in [("5", "the marks place 5 there"), ("1235", "its marks 1235 leave 4 out")] {
        cells[0] = r1c1.into();
        sudobot()
            .args(["hint", "--marks", &grid(&cells), PUZZLE])
            .assert()
            .code(2)
            .stderr(format!("sudobot: --marks: r1c1 is given as 4, but {why}\n"));
    }
}

#[test]
fn arguments_that_are_no_puzzle() {
    // `--count 2`: the limit needs '=', so '2' would be the puzzle.
    sudobot()
        .args(["solve", "--count", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--count takes its limit with '=' (--count=2"));
    // One cell is no sudoku.
    sudobot()
        .args(["solve", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1 symbols is not a square grid"));
}

/// `--variant` that cannot be honoured is refused before a browser starts, naming the flag: a
/// page found by `--url` alone (its marks decide).
#[test]
fn a_variant_that_cannot_be_honoured_is_refused_before_a_browser_starts() {
    let cases: [(&[&str], &str); 1] =
        [(&["--url", "http://127.0.0.1:9/", "--variant", "killer"], "`killer` needs --site")];
    for (args, why) in cases {
        sudobot()
            .arg("web")
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("`--variant`").and(predicate::str::contains(why)));
    }
}
