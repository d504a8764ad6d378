//! Issue 34: a 16x16 board with letters (A-G for 10-16) drawn on a canvas, on a page no site
//! file describes: found by discovery, read from its pixels, solved and typed with the letter
//! keys; the page's own script decides "solved". After the first click the page tints the
//! selected cell's row, column and box (as sudoku.com does), and the read-back after typing
//! must still succeed.

use super::server::FixtureServer;
use super::{assert_code, browser_lock, sudobot, text};

#[test]
fn a_16x16_canvas_board_with_letters_is_read_and_solved() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("canvas_16x16.html");
    let out = sudobot(&[
        "web",
        "--url",
        &url,
        "-v",
        "--success-selector",
        "#verdict",
        "--success-text",
        "Solved",
    ]);
    let (stdout, stderr) = text(&out);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("canvas_16x16"), ["solved"], "{stderr}");
    // One key per empty cell (163 of 256), letters among them.
    let keys = server.verdicts("canvas_16x16_keys");
    assert_eq!(keys.len(), 163, "{stderr}");
    assert!(keys.iter().any(|k| k.eq_ignore_ascii_case("g")), "a letter typed: {keys:?}");
    assert!(stderr.contains("read a 16x16 board"), "{stderr}");
    assert!(stdout.contains("the page confirmed: \"Solved\""), "{stdout}");
}
