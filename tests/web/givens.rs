//! Givens only when proven (`sudobot web --url`, no site file): on pages where nothing marks the
//! givens read-only and the player's entries outnumber them, told apart only by a colour or a
//! class, every filled cell is fixed. A wrong entry is refused, named, with nothing typed; a
//! right board is completed by typing only its empty cells. The replicas (`any/entries_*.html`)
//! report every cell changed to the test server (`<page>-typed`), and any change to a cell that
//! held a value at load under the page's own key, beside their own "solved".

use super::server::FixtureServer;
use super::{assert_code, browser_lock, sudobot, sudobot_plain, text};

/// The pages with a wrong entry (r7c4: 8 where the solution has 5; the given r7c8 holds 8).
pub(crate) const WRONG: [&str; 3] =
    ["entries_colour_inputs", "entries_colour_divs", "entries_class_divs"];

/// The empty cells of `entries_colour_right`, the only ones it may type into.
pub(crate) const EMPTY: [&str; 4] = ["r2c8", "r2c9", "r5c5", "r7c9"];

/// `sudobot web --url` on `any/<page>.html` with `-v` and extra flags, in `browser`.
pub(crate) fn run(
    server: &FixtureServer,
    page: &str,
    extra: &[&str],
    browser: &str,
) -> std::process::Output {
    let url = server.url(&format!("any/{page}.html"));
    let mut args = vec!["web", "--url", &url, "-v", "--browser", browser];
    args.extend_from_slice(extra);
    sudobot(&args)
}

/// A wrong entry is refused: exit 3, the message names r7c4 and the rule, and no cell of the
/// page changed.
pub(crate) fn assert_refused(server: &FixtureServer, page: &str, out: &std::process::Output) {
    assert_code(out, 3);
    let stderr = text(out).1;
    assert!(stderr.contains("the filled cells on the page are wrong"), "{page}: {stderr}");
    let check = stderr.split("; check ").nth(1).unwrap_or("");
    assert!(check.contains("r7c4"), "{page}: names the wrong entry r7c4: {stderr}");
    assert!(stderr.contains("every filled cell is fixed"), "{page}: says the rule: {stderr}");
    assert!(stderr.contains("nothing was typed"), "{page}: {stderr}");
    assert!(server.verdicts(page).is_empty(), "{page}: {:?}", server.verdicts(page));
    let typed = server.verdicts(&format!("{page}-typed"));
    assert!(typed.is_empty(), "{page}: cells changed: {typed:?}");
}

/// The right board is completed: the page's own check says solved, and only the empty cells
/// were typed into.
pub(crate) fn assert_completed(server: &FixtureServer, out: &std::process::Output) {
    let page = "entries_colour_right";
    assert_code(out, 0);
    assert_eq!(server.verdicts(page), ["solved"], "{}", text(out).1);
    let mut typed = server.verdicts(&format!("{page}-typed"));
    typed.sort();
    assert_eq!(typed, EMPTY, "only the empty cells are typed into, once each");
    assert!(text(out).1.contains("every filled cell is fixed"), "{}", text(out).1);
}

#[test]
fn a_wrong_entry_told_by_colour_or_class_is_named_and_nothing_is_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    for page in WRONG {
        let out = run(&server, page, &[], "chromium");
        assert_refused(&server, page, &out);
    }
    // --hint and --dry-run follow the same rule.
    for flag in ["--hint", "--dry-run"] {
        let out = run(&server, "entries_colour_inputs", &[flag], "chromium");
        assert_refused(&server, "entries_colour_inputs", &out);
    }
}

#[test]
fn a_right_board_with_entries_by_colour_gets_only_its_empty_cells_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = run(&server, "entries_colour_right", &[], "chromium");
    assert_completed(&server, &out);
}

#[test]
fn sites_learn_writes_no_given_marker_it_cannot_prove() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    // The entries were typed live (only the givens' values are in the markup): a file that
    // said only `filled` would take them for entries to correct.
    let url = server.url("any/entries_colour_live.html");
    let out = sudobot_plain(&[
        "sites",
        "learn",
        "--url",
        &url,
        "--name",
        "blue",
        "--sites-dir",
        dir_arg,
        "--headless",
    ]);
    assert_code(&out, 0);
    let file = std::fs::read_to_string(dir.path().join("blue.toml")).unwrap();
    assert!(file.contains("unproven = true"), "{file}");
    assert!(!file.contains("style ="), "no colour written as the givens' marker: {file}");
    assert!(text(&out).1.contains("no given marker written"), "{}", text(&out).1);
    // The file plays by the same rule: the wrong entry is refused, nothing typed.
    let out = sudobot(&["web", "--site", "blue", "--sites-dir", dir_arg, "--no-discover"]);
    assert_code(&out, 3);
    assert!(server.verdicts("entries_colour_live-typed").is_empty());
    assert!(server.verdicts("entries_colour_live").is_empty());
}
