//! Pages sudobot was never told about (`sudobot web --url URL`, no site file), the two sites
//! added from the web survey (nytimes, puzzle-sudoku.com), `sites learn`, and self-healing when
//! a built-in site's page renames what its site file points at. Every replica decides "solved"
//! with its own script and reports it (and any key that arrives where it must not) to the test
//! server; the tests read those reports.

use super::server::{FixtureServer, RENAMES};
use super::{assert_code, browser_lock, sudobot, sudobot_plain, text};

/// `sudobot web --url` on a replica under `any/`, with extra flags.
fn any(server: &FixtureServer, page: &str, extra: &[&str]) -> std::process::Output {
    let url = server.url(&format!("any/{page}.html"));
    let mut args = vec!["web", "--url", &url, "-v"];
    args.extend_from_slice(extra);
    sudobot(&args)
}

#[test]
fn pages_of_every_kind_are_found_and_solved_without_a_site_file() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // (page, verdict key, what discovery must say it found)
    let kinds = [
        ("inputs_shuffled", "inputs_shuffled", "9x9 grid of inputs"),
        ("divs", "divs", "the heavier font (700) on"),
        ("spans_6x6", "spans_6x6", "6x6 grid of spans"),
        ("table_16x16", "table_16x16", "16x16 grid of tds"),
        ("li_4x4", "li_4x4", "4x4 grid of lis"),
        ("decoys", "decoys", "no empty cell: a finished board"),
        ("nested_outer", "nested", "in frame #0 > #1"),
        ("svg", "svg", "9x9 grid of rects"),
        ("buttons_colour", "buttons_colour", "the text colour"),
    ];
    for (page, key, said) in kinds {
        let out = any(&server, page, &["--stats"]);
        assert_code(&out, 0);
        let (stdout, stderr) = text(&out);
        assert_eq!(server.verdicts(key), ["solved"], "{page}: the page's own verdicts\n{stderr}");
        assert!(stderr.contains(said), "{page}: -v says {said:?}:\n{stderr}");
        assert!(stdout.contains("typed and read back, every cell right"), "{page}: {stdout}");
        assert!(stderr.contains("discovery"), "{page}: --stats shows discovery: {stderr}");
    }
    // Givens by a class alone are not proven: the player's restored wrong entry is named, not
    // corrected (a dry run says so too).
    let restored = any(&server, "restored", &["--dry-run"]);
    assert_code(&restored, 3);
    let stderr = text(&restored).1;
    assert!(stderr.contains("the class `given` on"), "{stderr}");
    assert!(stderr.contains("; check r1c"), "{stderr}");
}

#[test]
fn every_side_works_with_each_mode() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dry = any(&server, "table_16x16", &["--dry-run"]);
    assert_code(&dry, 0);
    assert!(text(&dry).0.contains("150 cells would be typed"), "{}", text(&dry).0);
    let hint = any(&server, "spans_6x6", &["--hint", "--reveal", "step"]);
    assert_code(&hint, 0);
    assert!(!text(&hint).0.trim().is_empty());
    assert!(server.verdicts("spans_6x6").is_empty(), "a dry run and a hint type nothing");
    assert!(server.verdicts("table_16x16").is_empty(), "a dry run types nothing");
    let thinking = any(&server, "li_4x4", &["--show-thinking"]);
    assert_code(&thinking, 0);
    assert_eq!(server.verdicts("li_4x4"), ["solved"]);
    let parallel = any(&server, "li_4x4", &["--count", "2", "--parallel", "2"]);
    assert_code(&parallel, 0);
    assert_eq!(server.verdicts("li_4x4"), ["solved", "solved", "solved"]);
}

#[test]
fn bad_pages_are_refused_with_nothing_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // A canvas with two digits: read from its pixels, and refused (several solutions).
    let out = any(&server, "canvas", &[]);
    assert_code(&out, 4);
    assert!(text(&out).1.contains("read from its pixels"), "{}", text(&out).1);
    assert!(text(&out).1.contains("several solutions"), "{}", text(&out).1);
    assert!(server.verdicts("canvas").is_empty(), "no key and no click reached the canvas");
    let out = any(&server, "no_board", &[]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("no sudoku board found on the page"), "{stderr}");
    assert!(stderr.contains("4x4 grid of tds") && stderr.contains("not a value 1-4"), "{stderr}");
    assert!(server.verdicts("no_board").is_empty());
    // A page whose cells ignore clicks: one key is sent to prove the click, then nothing.
    let out = any(&server, "dead_clicks", &[]);
    assert_code(&out, 1);
    assert!(text(&out).1.contains("a click does not select a cell"), "{}", text(&out).1);
    assert!(server.verdicts("dead_clicks").len() <= 1, "{:?}", server.verdicts("dead_clicks"));
}

#[test]
fn nytimes_and_puzzle_sudoku_replicas_are_solved() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("nytimes.html");
    let out = sudobot(&["web", "--site", "nytimes", "--url", &url, "--no-discover"]);
    assert_code(&out, 0);
    // The keypad started in Candidate mode: typed there, the keys would be pencil marks.
    assert_eq!(server.verdicts("nytimes"), ["solved"]);
    assert!(text(&out).0.contains("Congratulations"), "{}", text(&out).0);
    let url = server.url("puzzle_sudoku.html");
    let out = sudobot(&["web", "--site", "puzzle-sudoku.com", "--url", &url, "--no-discover"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("puzzle_sudoku"), ["solved"], "solved, with the robot flag set");
}

#[test]
fn a_learned_site_file_plays_the_page() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    let url = server.url("any/spans_6x6.html");
    let learn = ["sites", "learn", "--url", &url, "--name", "six", "--sites-dir", dir_arg];
    let out = sudobot_plain(&[&learn[..], &["--headless"]].concat());
    assert_code(&out, 0);
    let file = std::fs::read_to_string(dir.path().join("six.toml")).unwrap();
    assert!(file.contains("side = 6") && file.contains("order = \"position\""), "{file}");
    assert!(file.contains("strategy = \"click\""), "{file}");
    let check = sudobot_plain(&["sites", "check", "--sites-dir", dir_arg]);
    assert_code(&check, 0);
    let out = sudobot(&["web", "--site", "six", "--sites-dir", dir_arg, "--no-discover"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("spans_6x6"), ["solved"]);
    // Learning again without --force does not overwrite.
    let again = sudobot_plain(&[&learn[..], &["--headless"]].concat());
    assert_code(&again, 2);
}

#[test]
fn built_in_sites_heal_when_their_page_renames_the_board() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    // (site, replica file, verdict key)
    let pages = [
        ("demo", "play", "demo"),
        ("sudoku.name", "sudoku_name.html", "sudoku_name"),
        ("sudokupuzzle.org", "sudokupuzzle_play.html", "sudokupuzzle"),
        ("websudoku.com", "websudoku_frameset.html", "websudoku"),
        ("sudokuonline.eu", "sudokuonline.html", "sudokuonline"),
        ("nytimes", "nytimes.html", "nytimes"),
        ("puzzle-sudoku.com", "puzzle_sudoku.html", "puzzle_sudoku"),
        ("sudoku.com", "sudoku_com.html", "sudoku_com"),
    ];
    assert_eq!(pages.len(), RENAMES.len(), "every renamed replica is played");
    for (site, file, key) in pages {
        let url = server.url(&format!("renamed/{site}/{file}"));
        let out = sudobot(&["web", "--site", site, "--url", &url]);
        let (stdout, stderr) = text(&out);
        assert_code(&out, 0);
        assert!(server.verdicts(key).iter().any(|v| v == "solved"), "{site}: {stderr}");
        assert!(
            stderr.contains(&format!("site `{site}`")) && stderr.contains("[board]"),
            "{site}: the note names the site and the lines that fix it:\n{stderr}"
        );
        assert!(stderr.contains("cells = "), "{site}: {stderr}");
        assert!(!stdout.is_empty());
    }
    // --no-discover: the old behaviour, a failure that names the selector.
    let url = server.url("renamed/nytimes/nytimes.html");
    let out = sudobot(&["web", "--site", "nytimes", "--url", &url, "--no-discover"]);
    assert_code(&out, 1);
    assert!(text(&out).1.contains("div.su-cell[data-cell]"), "{}", text(&out).1);
}
