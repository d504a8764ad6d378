//! Boards drawn on a canvas, read from their pixels: the sudoku.com replica through its site
//! file, the same board on a page no site file describes (found by discovery, on a browser that
//! draws two device pixels a CSS pixel), and a board whose givens break a rule, refused with
//! nothing typed, and one whose unreadable given is left out (the rest has one solution). The
//! replica decides "solved" itself and reports every key it receives.

use super::server::FixtureServer;
use super::{assert_code, browser_lock, config_with, sudobot, text};

/// The read time the `-v` line gives (`read a 9x9 board from ... in N ms`).
fn read_ms(stderr: &str) -> Option<f64> {
    let line = stderr.lines().find(|l| l.contains("read a 9x9 board from"))?;
    let after = line.split(" in ").nth(1)?;
    after.split(" ms").next()?.trim().parse().ok()
}

#[test]
fn the_sudoku_com_replica_is_solved_from_its_pixels() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("sudoku_com.html");
    let out = sudobot(&["web", "--site", "sudoku.com", "--url", &url, "--no-discover", "-v"]);
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    // No mistake: the page's own verdict is the only report.
    assert_eq!(server.verdicts("sudoku_com"), ["solved"], "{stderr}");
    assert_eq!(server.verdicts("sudoku_com_keys").len(), 45, "one key per empty cell");
    assert!(stdout.contains("typed 45 cells"), "{stdout}");
    assert!(stderr.contains("read a 9x9 board from `#game > canvas`"), "{stderr}");
    eprintln!("canvas read (screenshot + recognition): {:?} ms", read_ms(&stderr));
}

#[test]
fn a_canvas_on_an_unknown_page_is_found_and_solved_at_two_device_pixels() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    let config = config_with(
        dir.path(),
        &[("  \"--no-first-run\",", "  \"--no-first-run\",\n  \"--force-device-scale-factor=2\",")],
    );
    let url = server.url("sudoku_com.html?plain=1");
    let config = config.to_str().unwrap();
    let args = ["web", "--url", &url, "--config", config, "-v"];
    let out = sudobot(
        &[&args[..], &["--success-selector", "#verdict", "--success-text", "Solved"]].concat(),
    );
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    assert_eq!(server.verdicts("sudoku_com"), ["solved"], "{stderr}");
    assert!(stderr.contains("read from its pixels"), "-v names the canvas found:\n{stderr}");
    assert!(stderr.contains("2.00 image pixels a CSS pixel"), "{stderr}");
    assert!(stdout.contains("the page confirmed: \"Solved\""), "{stdout}");
}

#[test]
fn an_invalid_canvas_board_is_refused_with_nothing_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("sudoku_com.html?board=invalid");
    let out = sudobot(&["web", "--site", "sudoku.com", "--url", &url, "--no-discover"]);
    assert_code(&out, 3);
    let stderr = text(&out).1;
    assert!(stderr.contains("r1c1 and r1c4 both hold 2 in row 1"), "{stderr}");
    assert!(stderr.contains("nothing was typed"), "{stderr}");
    assert!(server.verdicts("sudoku_com_invalid_keys").is_empty(), "the page saw no key");
    assert!(server.verdicts("sudoku_com_invalid").is_empty());
}

#[test]
fn an_unreadable_given_is_never_typed_into_and_the_run_says_it_is_not_confirmed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // r1c5's given 6 is drawn as an X: without it the givens still have one solution.
    let url = server.url("sudoku_com.html?smudge=X");
    let out = sudobot(&["web", "--site", "sudoku.com", "--url", &url, "--no-discover"]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("r1c5 could not be read (and was never typed)"), "{stderr}");
    // Every other cell was typed right: the page itself says solved, with no mistake.
    assert_eq!(server.verdicts("sudoku_com"), ["solved"], "{stderr}");
    assert_eq!(server.verdicts("sudoku_com_keys").len(), 45);
}
