//! Variant boards on the web (`tests/fixtures/web/variants/`):
//! - a Killer drawn as a `<table>` with dashed cage outlines and corner sums (sudoku.name's
//!   board in its Killer mode);
//! - a Killer drawn in SVG (dashed `<rect>`, `<polyline>` and `<path>` cages, `<text>` sums),
//!   found by itself;
//! - a Killer and a jigsaw drawn on a `<canvas>`, read from their pixels;
//! - a jigsaw of `<div>` cells with thick region borders and `Game.areas` in its page state
//!   (puzzle-jigsaw-sudoku.com);
//! - an X with shaded diagonals, found by itself (`--url` alone);
//! - a jigsaw and an X drawn in SVG (region outlines as thick `<path>`s, diagonals as
//!   `<line>`s), found by themselves.
//!
//! Each page checks a finished board by its own variant's rules and reports "solved"; each has
//! an inconsistent version (`?bad=...`: a sum that does not add up, a region of the wrong size,
//! a diagonal cell unshaded or undrawn) that is refused with no key reaching any cell (the
//! pages report every key a cell gets, under `<page>-typed`). Every page is played in Firefox
//! too.

use super::server::FixtureServer;
use super::{assert_code, browser_lock, sudobot, text};

/// `sudobot web` on `variants/<file>` with `site` (or none: the board found on the page).
fn run(
    server: &FixtureServer,
    site: Option<&str>,
    file: &str,
    extra: &[&str],
) -> std::process::Output {
    let url = server.url(&format!("variants/{file}"));
    let mut args = vec!["web", "--url", &url, "-v"];
    if let Some(site) = site {
        args.extend(["--site", site]);
    }
    args.extend_from_slice(extra);
    sudobot(&args)
}

/// The `-v` line that names the variant found.
fn variant_line(stderr: &str) -> &str {
    stderr.lines().find(|l| l.contains("variant: ")).unwrap_or("")
}

/// Refused, named, and no cell of `page` saw a key.
fn assert_refused(server: &FixtureServer, page: &str, out: &std::process::Output, why: &str) {
    assert_code(out, 1);
    let stderr = text(out).1;
    assert!(stderr.contains(why), "{page}: {stderr}");
    assert!(stderr.contains("nothing was typed"), "{page}: {stderr}");
    assert!(server.verdicts(page).is_empty(), "{page}: {:?}", server.verdicts(page));
    let typed = server.verdicts(&format!("{page}-typed"));
    assert!(typed.is_empty(), "{page}: keys reached {typed:?}");
}

const KILLER: [&str; 4] = ["--site", "sudoku.name", "--variant", "killer"];

#[test]
fn a_killer_table_is_read_solved_and_typed_and_its_dry_run_is_cage_text() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("variants/killer.html");
    let mut args = vec!["web", "--url", &url, "--stats", "-v"];
    args.extend(KILLER);
    let out = sudobot(&args);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("killer"), ["solved"], "the page's own check");
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("typed 81 cells"), "{stdout}");
    let line = variant_line(&stderr);
    assert!(line.contains("variant: killer") && line.contains("34 cages"), "{stderr}");
    assert!(line.contains("add up to 405"), "{line}");

    // The dry run prints what was read as cage text, which `sudobot solve` reads back to the
    // answer the page accepted.
    let typed = server.verdicts("killer-typed").len();
    args.retain(|a| *a != "--stats");
    args.push("--dry-run");
    let out = sudobot(&args);
    assert_code(&out, 0);
    let stdout = text(&out).0;
    let cages = stdout
        .split("as `sudobot solve` reads it:\n")
        .nth(1)
        .and_then(|rest| rest.split("answer:").next())
        .unwrap_or_else(|| panic!("cage text: {stdout}"));
    assert!(cages.lines().any(|l| l == "5: r1c1 r1c2"), "{cages}");
    assert_eq!(cages.lines().filter(|l| l.contains(": r")).count(), 34, "{cages}");
    let solved =
        crate::support::sudobot().args(["solve", "-"]).write_stdin(cages).output().unwrap();
    let answer = String::from_utf8_lossy(&solved.stdout).trim().to_string();
    assert_eq!(answer.len(), 81, "{answer}");
    // The dry run's answer: the digits of its value rows (sums sit on the border rows, drawn
    // with line characters).
    let shown: String = stdout
        .split("answer:")
        .nth(1)
        .unwrap_or("")
        .lines()
        .filter(|l| l.starts_with('┃') && !l.contains(['─', '━', '┅']))
        .flat_map(|l| l.chars().filter(char::is_ascii_digit))
        .collect();
    assert_eq!(shown, answer, "{stdout}");
    assert_eq!(server.verdicts("killer-typed").len(), typed, "a dry run types nothing");
}

#[test]
fn a_killer_hint_and_show_thinking_use_the_cage_techniques() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out =
        run(&server, None, "killer.html", &[&KILLER[..], &["--hint", "--reveal", "step"]].concat());
    assert_code(&out, 0);
    let stdout = text(&out).0;
    assert!(stdout.contains("Cage"), "a Killer technique: {stdout}");
    assert!(server.verdicts("killer-typed").is_empty(), "a hint types nothing");
    let out = run(
        &server,
        None,
        "killer.html",
        &[&KILLER[..], &["--show-thinking", "--step-delay", "0"]].concat(),
    );
    assert_code(&out, 0);
    assert_eq!(server.verdicts("killer"), ["solved"]);
    let stdout = text(&out).0;
    assert!(stdout.lines().next().is_some_and(|l| l.starts_with("Cage")), "{stdout}");
}

#[test]
fn jigsaw_and_x_boards_are_found_by_their_borders_and_shading_and_solved() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = run(&server, Some("puzzle-jigsaw-sudoku.com"), "jigsaw.html", &["--stats"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("jigsaw"), ["solved"], "solved, with the robot flag set");
    let stderr = text(&out).1;
    assert!(variant_line(&stderr).contains("9 connected regions of 9 cells"), "{stderr}");
    assert!(variant_line(&stderr).contains("`Game.areas` holds the regions drawn"), "{stderr}");
    // The X puzzle has two solutions without its diagonals: solved proves they were read.
    let out = run(&server, None, "x.html", &["--stats"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("x"), ["solved"]);
    let stderr = text(&out).1;
    assert!(variant_line(&stderr).contains("X: the 17 cells of both diagonals"), "{stderr}");
}

/// A jigsaw whose regions are outlined by thick SVG `<path>`s and an X whose diagonals are
/// SVG `<line>`s, both found with `--url` alone; one drawn region of 8 cells, or one diagonal
/// alone, is refused with nothing typed.
#[test]
fn jigsaw_and_x_drawn_as_svg_strokes_are_read_from_them() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = run(&server, None, "lines_svg.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("jigsaw_svg"), ["solved"], "the page's own check");
    let stderr = text(&out).1;
    let line = variant_line(&stderr);
    assert!(line.contains("variant: jigsaw") && line.contains("9 connected regions"), "{stderr}");
    let out = run(&server, None, "lines_svg.html?variant=x", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("x_svg"), ["solved"], "two solutions without the diagonals");
    let line = variant_line(&text(&out).1).to_string();
    assert!(line.contains("a line drawn across from corner to corner"), "{line}");
    let out = run(&server, None, "lines_svg.html?bad=region", &[]);
    assert_refused(&server, "jigsaw_svg_bad", &out, "the region at r1c1 has 8 cells, not 9");
    let out = run(&server, None, "lines_svg.html?variant=x&bad=diagonal", &[]);
    assert_refused(&server, "x_svg_bad", &out, "9 of the 17 diagonal cells have a line drawn");
}

#[test]
fn inconsistent_variant_pages_are_refused_with_nothing_typed() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = run(&server, None, "killer.html?bad=sum", &KILLER);
    assert_refused(&server, "killer_bad", &out, "sums add up to 406, not 405");
    let out = run(&server, Some("puzzle-jigsaw-sudoku.com"), "jigsaw.html?bad=region", &[]);
    assert_refused(&server, "jigsaw_bad", &out, "the region at r1c1 has 8 cells, not 9");
    // The page state's regions and the drawn borders disagree (r1c3 and r1c4 swapped).
    let out = run(&server, Some("puzzle-jigsaw-sudoku.com"), "jigsaw.html?bad=state", &[]);
    assert_refused(
        &server,
        "jigsaw_bad_state",
        &out,
        "the page state `Game.areas` puts r1c3 in another region than the borders drawn",
    );
    let out = run(&server, None, "killer_svg.html?bad=sum", &[]);
    assert_refused(&server, "killer_svg_bad", &out, "sums add up to 406, not 405");
    let out = run(&server, None, "x.html?bad=diagonal", &[]);
    assert_refused(&server, "x_bad", &out, "r5c5 on a diagonal does not");
    let out = run(&server, None, "killer_canvas.html?bad=sum", &[]);
    let why = "the board shows Killer cage outlines, but the 34 cages' sums add up to 406";
    assert_refused(&server, "killer_canvas_bad", &out, why);
    // A site that expects a variant refuses a board without it.
    let out = run(&server, Some("puzzle-jigsaw-sudoku.com"), "x.html", &[]);
    assert_refused(&server, "x", &out, "expects a jigsaw board but the page shows x");
    // A Killer asked of a site read from pixels whose canvas shows a classic board.
    let url = server.url("sudoku_com.html");
    let out = sudobot(&["web", "--site", "sudoku.com", "--url", &url, "--variant", "killer"]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("expects a killer board but the page shows classic"), "{stderr}");
    assert!(server.verdicts("sudoku_com_keys").is_empty(), "no key reached the canvas");
}

#[test]
fn firefox_plays_the_killer_table_svg_and_canvas() {
    if !super::firefox::firefox_here("firefox_plays_the_killer_table_svg_and_canvas") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let firefox = ["--browser", "firefox"];
    for (file, site) in
        [("killer.html", &KILLER[..]), ("killer_svg.html", &[]), ("killer_canvas.html", &[])]
    {
        let out = run(&server, None, file, &[site, &firefox[..]].concat());
        assert_code(&out, 0);
        let page = file.trim_end_matches(".html");
        assert_eq!(server.verdicts(page), ["solved"], "{file}: the page's own check");
        let stderr = text(&out).1;
        assert!(variant_line(&stderr).contains("variant: killer"), "{file}: {stderr}");
    }
}

/// A Killer drawn on a canvas, found with `--url` alone: its cages are read from its pixels
/// (dashed outlines inside the cells, sums in the corners) and it is played as a Killer;
/// `sites learn` writes its variant down.
#[test]
fn a_killer_canvas_is_read_from_its_pixels_and_solved() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = run(&server, None, "killer_canvas.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("killer_canvas"), ["solved"], "the page's own check");
    let (stdout, stderr) = text(&out);
    assert!(stderr.contains("read from its pixels"), "{stderr}");
    let line = variant_line(&stderr);
    assert!(line.contains("variant: killer"), "{stderr}");
    assert!(line.contains("34 cages whose sums add up to 405"), "{line}");
    assert!(stdout.contains("typed 81 cells"), "no givens: {stdout}");
    // `sites learn` writes the Killer down.
    let url = server.url("variants/killer_canvas.html");
    let out = super::sudobot_plain(&["sites", "learn", "--url", &url, "--headless"]);
    assert_code(&out, 0);
    let toml = text(&out).0;
    assert!(toml.contains("read = \"pixels\"\n"), "{toml}");
    assert!(toml.contains("variant = \"killer\"\n"), "{toml}");
}

/// A jigsaw drawn on a canvas, found with `--url` alone: its regions are read from the thick
/// lines between cells and it is played as a jigsaw, and `sites learn` writes it down; drawn
/// regions of 8 and 10 cells are refused with nothing typed.
#[test]
fn a_jigsaw_canvas_is_read_from_its_pixels_and_solved() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = run(&server, None, "jigsaw_canvas.html", &[]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("jigsaw_canvas"), ["solved"], "the page's own check");
    let (stdout, stderr) = text(&out);
    let line = variant_line(&stderr);
    assert!(line.contains("variant: jigsaw") && line.contains("9 regions of 9 cells"), "{stderr}");
    assert!(stdout.contains("typed 54 cells"), "27 givens left alone: {stdout}");
    let url = server.url("variants/jigsaw_canvas.html");
    let out = super::sudobot_plain(&["sites", "learn", "--url", &url, "--headless"]);
    assert_code(&out, 0);
    let toml = text(&out).0;
    assert!(toml.contains("a jigsaw by the regions its lines outline"), "{toml}");
    assert!(toml.contains("variant = \"jigsaw\"\n"), "{toml}");
    let out = run(&server, None, "jigsaw_canvas.html?bad=region", &[]);
    assert_refused(&server, "jigsaw_canvas_bad", &out, "the region at r1c1 has 8 cells, not 9");
}

/// An X drawn on a canvas, its diagonals shaded or crossed by lines: read from its pixels and
/// played as an X (it has two solutions as a classic board), where the selected cell's fill
/// may hide one shaded cell, and `sites learn` writes it down; a diagonal cell left unmarked is
/// refused with nothing typed.
#[test]
fn an_x_canvas_is_read_from_its_pixels_and_solved() {
    let _lock = browser_lock();
    for (query, how) in [("", "are shaded"), ("&look=lines", "are crossed by a line")] {
        let server = FixtureServer::start();
        let file = format!("jigsaw_canvas.html?variant=x{query}");
        let out = run(&server, None, &file, &[]);
        assert_code(&out, 0);
        assert_eq!(server.verdicts("x_canvas"), ["solved"], "{file}: the page's own check");
        let (stdout, stderr) = text(&out);
        let line = variant_line(&stderr);
        assert!(line.contains("variant: x") && line.contains(how), "{file}: {stderr}");
        assert!(stdout.contains("typed 57 cells"), "{file}: 24 givens left alone: {stdout}");
        let url = server.url(&format!("variants/{file}"));
        let out = super::sudobot_plain(&["sites", "learn", "--url", &url, "--headless"]);
        assert_code(&out, 0);
        let toml = text(&out).0;
        assert!(toml.contains("an X by the marks on both its diagonals"), "{file}: {toml}");
        assert!(toml.contains("variant = \"x\"\n"), "{file}: {toml}");
        let file = format!("jigsaw_canvas.html?variant=x{query}&bad=diagonal");
        let out = run(&server, None, &file, &[]);
        assert_refused(&server, "x_canvas_bad", &out, "16 of their 17 cells are, r5c5 is not");
    }
}

#[test]
fn an_svg_killer_is_found_by_its_dashed_outlines_and_solved() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let out = run(&server, None, "killer_svg.html", &["--stats"]);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("killer_svg"), ["solved"], "the page's own check");
    let (stdout, stderr) = text(&out);
    assert!(stderr.contains("9x9 grid of rects"), "{stderr}");
    let line = variant_line(&stderr);
    assert!(line.contains("variant: killer") && line.contains("34 cages"), "{stderr}");
    assert!(stdout.contains("typed 75 cells"), "six givens left alone: {stdout}");
    let typed = server.verdicts("killer_svg-typed");
    for given in ["r1c1", "r2c5", "r5c5", "r5c9", "r8c5", "r9c9"] {
        assert!(!typed.iter().any(|c| c == given), "a key reached given {given}");
    }
}

/// A Killer with no givens at all, found with `--url` alone: its cage marks make the board.
#[test]
fn killers_without_givens_are_found_by_their_cages_alone() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    for (file, page, cells) in
        [("killer.html", "killer", "inputs"), ("killer_svg.html?givens=0", "killer_svg", "rects")]
    {
        let out = run(&server, None, file, &["--stats"]);
        assert_code(&out, 0);
        assert_eq!(server.verdicts(page), ["solved"], "{file}: the page's own check");
        let (stdout, stderr) = text(&out);
        assert!(stdout.contains("typed 81 cells"), "{file}: {stdout}");
        assert!(stderr.contains(&format!("9x9 grid of {cells}")), "{file}: {stderr}");
        assert!(stderr.contains("a Killer with no givens to wait for"), "{file}: {stderr}");
    }
    // No values and cages that do not add up: no board, and nothing typed.
    let out = run(&server, None, "killer_svg.html?givens=0&bad=sum", &[]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("no sudoku board found on the page"), "{stderr}");
    assert!(
        stderr.contains("it is no Killer: the 34 Killer cages' sums add up to 406"),
        "{stderr}"
    );
    assert!(server.verdicts("killer_svg_bad").is_empty());
    assert!(server.verdicts("killer_svg_bad-typed").is_empty());
    // `sites learn` writes such a Killer down: its variant, and no givens to wait for.
    let url = server.url("variants/killer.html");
    let out = super::sudobot_plain(&["sites", "learn", "--url", &url, "--headless"]);
    assert_code(&out, 0);
    let toml = text(&out).0;
    assert!(toml.contains("variant = \"killer\"\n"), "{toml}");
    assert!(toml.contains("min_givens = 0\n"), "{toml}");
}

#[test]
fn firefox_plays_the_jigsaw_and_the_x() {
    if !super::firefox::firefox_here("firefox_plays_the_jigsaw_and_the_x") {
        return;
    }
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let firefox = ["--browser", "firefox", "--stats"];
    let out = run(&server, Some("puzzle-jigsaw-sudoku.com"), "jigsaw.html", &firefox);
    assert_code(&out, 0);
    assert_eq!(server.verdicts("jigsaw"), ["solved"]);
    let stderr = text(&out).1;
    assert!(variant_line(&stderr).contains("`Game.areas` holds the regions drawn"), "{stderr}");
    for (file, page, variant) in [
        ("x.html", "x", "variant: x"),
        ("jigsaw_canvas.html", "jigsaw_canvas", "variant: jigsaw"),
        ("lines_svg.html", "jigsaw_svg", "variant: jigsaw"),
        ("lines_svg.html?variant=x", "x_svg", "variant: x"),
        ("jigsaw_canvas.html?variant=x&look=lines", "x_canvas", "variant: x"),
    ] {
        let out = run(&server, None, file, &firefox);
        assert_code(&out, 0);
        assert_eq!(server.verdicts(page), ["solved"], "{file}");
        assert!(variant_line(&text(&out).1).contains(variant), "{file}: {}", text(&out).1);
    }
}
