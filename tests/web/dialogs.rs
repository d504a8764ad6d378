//! Dialogs and the page's word (issue 32): a confirmation is evidence only when it says what the
//! site's success says and no failure word; a `confirm()` mid-fill is dismissed and stops the
//! run with the player's game kept; an alert on a finished board is information, and the site's
//! own rule decides. Each replica judges itself and reports to the test server; the tests read
//! those reports. The Firefox halves are in `firefox.rs`.

use super::server::FixtureServer;
use super::{assert_code, browser_lock, play, sudobot, text};

/// A site file in a temporary directory: sudokuonline.eu's, with its success text replaced.
pub(crate) fn sudokuonline_with_text(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let site = include_str!("../../sites/sudokuonline.eu.toml")
        .replace("text = \"Felicit\"", &format!("text = {text:?}"));
    assert!(site.contains(&format!("text = {text:?}")));
    std::fs::write(dir.path().join("sudokuonline.eu.toml"), site).unwrap();
    dir
}

/// The page's check calls the board wrong and its alert says "Solutia nu este corecta.": no
/// exit 0, with the built-in site file and with one whose success text ("corect") the failure
/// alert holds.
#[test]
fn an_alert_saying_the_solution_is_wrong_is_a_failure() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let strict = "sudokuonline.html?strict";
    let out = play(&server, "sudokuonline.eu", strict, &[]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("\"Solutia nu este corecta.\""), "{stderr}");
    assert!(stderr.contains("the page says the solution is not right"), "{stderr}");
    assert_eq!(server.verdicts("sudokuonline"), ["not correct"]);
    let sites = sudokuonline_with_text("corect");
    let dir = sites.path().to_str().unwrap();
    let out = play(&server, "sudokuonline.eu", strict, &["--sites-dir", dir]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("\"nu este corect\" reads as a failure"), "{stderr}");
    assert_eq!(server.verdicts("sudokuonline"), ["not correct", "not correct"]);
}

/// A site file whose alert success has no text is refused: any alert would have counted.
#[test]
fn an_alert_success_without_its_text_is_refused() {
    let sites = sudokuonline_with_text("");
    let out =
        super::sudobot_plain(&["sites", "check", "--sites-dir", sites.path().to_str().unwrap()]);
    assert_code(&out, 2);
    let stdout = text(&out).0;
    assert!(
        stdout.contains("`completion.success.text`: is empty: an alert confirms only by its text"),
        "{stdout}"
    );
}

/// `confirm("Start a new game? ...")` on the 10th digit: dismissed, exit 1 naming its text, and
/// the page kept the player's game (it says so itself) and saw no new game.
#[test]
fn a_confirm_mid_fill_is_dismissed_and_stops_the_run() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name_confirm.html", &[]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(
        stderr.contains("\"Start a new game? Your progress will be lost.\"")
            && stderr.contains("dismissed (Cancel"),
        "{stderr}"
    );
    let verdicts = server.verdicts("sudoku_name_confirm");
    assert_eq!(verdicts.len(), 1, "one dialog, no new game, not solved: {verdicts:?}");
    let kept = verdicts[0].strip_prefix("kept ").expect("the page kept the game");
    // No key reached the page after the dialog: the page's values are the bot's count.
    assert!(stderr.contains(&format!("{kept} of 51 cells to type hold their value")), "{stderr}");
}

/// The same question once the last key solved the board (the page shows its success text and
/// asks whether to start again): a question is never the page's word on a finished board, so
/// the run stops with exit 1 naming it, and the page kept the player's game.
#[test]
fn a_confirm_with_the_last_key_is_no_success() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudoku.name", "sudoku_name_confirm_last.html", &[]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("\"Start a new game? Your progress will be lost.\""), "{stderr}");
    assert!(stderr.contains("51 of 51 cells to type hold their value"), "{stderr}");
    assert_eq!(server.verdicts("sudoku_name_confirm_last"), ["solved", "kept"]);
}

/// An alert that comes with the last key on a board the page then confirms by its own rule
/// (sudoku.name's `#result_message`) is information, not a failure "within 0ns".
#[test]
fn an_informational_alert_on_a_solved_board_is_not_a_failure() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("sudoku_name_alert.html");
    let out = sudobot(&["web", "--site", "sudoku.name", "--url", &url, "-v"]);
    assert_code(&out, 0);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("the page confirmed: \"恭喜你，成功完成！\""), "{stdout}");
    assert!(stderr.contains("an alert said \"solved!\""), "{stderr}");
    assert_eq!(server.verdicts("sudoku_name_alert"), ["solved"]);
}

/// Givens a script set (the `value` property, no `value` attribute in the markup) on a site
/// whose givens are the filled cells: read, solved and confirmed, not "0 givens" for 10 s.
#[test]
fn givens_set_by_script_are_read_from_the_value_property() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = play(&server, "sudokuonline.eu", "sudokuonline.html?scripted", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("sudokuonline"), ["solved"]);
    let stdout = text(&out).0;
    assert!(stdout.contains("typed 51 cells") && stdout.contains("alert: Felicit"), "{stdout}");
}
