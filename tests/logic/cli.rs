//! `sudobot grade`, `explain` and `hint` end to end through the binary.

use predicates::prelude::*;
use serde_json::Value;

use crate::support::sudobot;

/// Solo's generator graded this one Extreme (3x3de).
const EXTREME: &str = "3x3:b5d8_2a6c3_9_7e1g4_2a5b2g7b4a6_8g5e7_6_9c1a3_4d6b";
const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// A solved grid with a deadly rectangle emptied: two solutions.
const SEVERAL: &str =
    "647129835831564297952738614.28.57169716982453.95.16782289643571563271948174895326";
/// No solution, no conflicting givens.
const NONE: &str =
    "12345678.........9...............................................................";

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8(cmd.output().expect("runs").stdout).expect("UTF-8")
}

#[test]
fn grade_prints_one_line_per_puzzle_in_order() {
    let input = format!("{EXTREME}\n# a comment\n{PUZZLE}\nxyz\n{SEVERAL}\n");
    let out = sudobot()
        .args(["grade", "--scale", "solo", "-"])
        .write_stdin(input)
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let lines: Vec<String> = String::from_utf8(out).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], "Extreme");
    assert!(
        ["Trivial", "Basic", "Intermediate", "Advanced", "Extreme", "Unreasonable"]
            .contains(&lines[1].as_str())
    );
    assert!(
        lines[2].starts_with("# line 4, ") && lines[2].contains("not a square grid"),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("# line 5: the puzzle has several solutions"), "{}", lines[3]);
}

#[test]
fn grade_on_the_score_scale_gives_level_and_score() {
    let out = stdout(sudobot().args(["grade", EXTREME, PUZZLE]));
    for line in out.lines() {
        let (level, score) = line.split_once(' ').expect("level and score");
        assert!(["Easy", "Medium", "Hard", "Unfair", "Extreme"].contains(&level), "{line}");
        assert!(score.parse::<u64>().is_ok(), "{line}");
    }
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn grade_exit_codes_follow_the_worst_puzzle() {
    sudobot()
        .args(["grade", NONE])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("no solution"));
    sudobot().args(["grade", SEVERAL]).assert().code(4);
    sudobot()
        .args([
            "grade",
            "11...............................................................................",
        ])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("r1c1 and r1c2 both hold 1 in row 1"));
    sudobot()
        .args(["grade", "--scale", "solo", PUZZLE, "--stats"])
        .assert()
        .success()
        .stderr(predicate::str::contains("grades/s"));
}

#[test]
fn explain_prints_steps_in_the_usual_notation_then_the_grade() {
    let out = stdout(sudobot().args(["explain", "--scale", "solo", EXTREME]));
    let lines: Vec<&str> = out.lines().collect();
    let last = lines.last().unwrap();
    assert!(last.starts_with("# Extreme, score "), "{last}");
    assert!(last.contains("(scale solo,"), "{last}");
    let single = regex_like(r"^(Hidden|Naked) Single: r[1-9]c[1-9]=[1-9]$");
    for l in &lines[..lines.len() - 1] {
        assert!(
            single(l) || l.contains(" => ") && l.contains(": "),
            "not in the usual notation: {l}"
        );
    }
    assert!(lines.iter().any(|l| l.starts_with("XY-Chain: (")), "Solo's forcing chain is used");
}

/// A tiny matcher for `^(A|B) Single: rXcY=Z$` without a regex crate.
fn regex_like(_: &str) -> impl Fn(&str) -> bool {
    |l: &str| {
        let Some((name, rest)) = l.split_once(": ") else { return false };
        let cell_value = rest.len() == 6
            && rest.starts_with('r')
            && rest.as_bytes()[2] == b'c'
            && rest.as_bytes()[4] == b'=';
        (name == "Hidden Single" || name == "Naked Single") && cell_value
    }
}

#[test]
fn explain_json_has_exactly_the_documented_shape() {
    let out = stdout(sudobot().args(["explain", "-o", "json", PUZZLE]));
    assert!(out.starts_with(r#"{"givens":"4.....8.5.3.."#), "{out}");
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    let steps = doc["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    for s in steps {
        let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 4);
        for k in ["technique", "text", "place", "eliminate"] {
            assert!(keys.contains(&k));
        }
    }
    assert_eq!(doc["grade"]["scale"], "score");
    assert!(doc["grade"]["score"].as_u64().unwrap() > 0);
    assert!(doc["grade"]["level"].is_string());
}

#[test]
fn explain_errors_name_the_problem() {
    sudobot()
        .args(["explain", SEVERAL])
        .assert()
        .code(4)
        .stderr(predicate::str::contains("several solutions (two of them differ in"));
    sudobot().args(["explain", NONE]).assert().code(3);
    // Several puzzles: bad input (tests/bad_input.rs).
}

#[test]
fn hint_reveals_as_much_as_asked_and_agrees_with_explain() {
    let first = stdout(sudobot().args(["explain", PUZZLE])).lines().next().unwrap().to_string();
    let technique = first.split_once(": ").unwrap().0.to_string();
    let t = stdout(sudobot().args(["hint", PUZZLE]));
    assert_eq!(t.trim(), format!("Next technique: {technique}."));
    let c = stdout(sudobot().args(["hint", "--reveal", "cells", PUZZLE]));
    assert!(c.starts_with(&format!("{technique}: look at r")), "{c}");
    assert!(!c.contains("=>"));
    let s = stdout(sudobot().args(["hint", "--reveal", "step", PUZZLE]));
    assert_eq!(s.trim(), first);
    let j: Value = serde_json::from_str(&stdout(sudobot().args(["hint", "-o", "json", PUZZLE])))
        .expect("JSON");
    assert_eq!(j["text"], first.as_str());
}

/// The board as a pencil-mark grid: every open cell with all nine marks.
fn full_marks(puzzle: &str) -> String {
    let cells: Vec<String> = puzzle
        .chars()
        .map(|c| if c == '.' { "123456789".to_string() } else { c.to_string() })
        .collect();
    cells.chunks(9).map(|row| row.join(" ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn hint_uses_the_players_pencil_marks() {
    // Marks nobody cleaned up: the first hint is the clean-up.
    let marks = full_marks(PUZZLE);
    sudobot()
        .args(["hint", "--reveal", "step", &marks])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("Cleanup: r1c1=4 => "));
    // The same marks given with --marks next to the puzzle.
    sudobot()
        .args(["hint", "--marks", &marks, PUZZLE])
        .assert()
        .success()
        .stdout(predicate::str::contains("pencil marks are out of date"));
    // A mark removed that the solution needs: r1c2 is 1 in the solution.
    let wrong = marks.replacen("123456789", "23456789", 1);
    sudobot()
        .args(["hint", "--reveal", "step", &wrong])
        .assert()
        .code(3)
        .stdout("Mistake: the pencil marks of r1c2 leave out its solution value 1.\n");
    sudobot()
        .args(["hint", "--marks", "1 2 3", PUZZLE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a candidate grid needs N*N cells (81 for 9x9), found 3"));
}

#[test]
fn hint_on_a_solved_board_says_so() {
    let solved =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    sudobot().args(["hint", solved]).assert().success().stdout("The board is solved.\n");
}

#[test]
fn help_has_examples() {
    for cmd in ["grade", "explain", "hint"] {
        sudobot()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:").and(predicate::str::contains("sudobot")));
    }
}

#[test]
fn killer_puzzles_are_graded_explained_and_hinted() {
    // Solo's generator made this one Basic (its Killer level is always Advanced).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/killer/3x3kdb.txt");
    let id = std::fs::read_to_string(path).unwrap().lines().next().unwrap().to_string();
    sudobot()
        .args(["grade", "--scale", "solo", &id])
        .assert()
        .success()
        .stdout("Basic, Killer Advanced\n");
    let out = sudobot().args(["explain", "--scale", "solo", &id]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Innies/Outies: "), "{text}");
    assert!(text.lines().last().unwrap().starts_with("# Basic, Killer Advanced, "), "{text}");
    let out = sudobot().args(["hint", "--reveal", "step", &id]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Cage") || text.contains("Innies/Outies"), "{text}");
}
