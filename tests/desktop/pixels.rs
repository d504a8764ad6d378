//! Solo read by its pixels (`desktop --show-read`: X11 GetImage and the pixel reader),
//! checked against the game ID and the game's own Copy text: a second real program, with its
//! own font, for the reader; and a window that cannot be seen whole.

use super::harness::{Screen, require_tools};
use super::{game_id, run_ok};
use sudobot::format::{line, solo_id, solo_text};

/// Screen point of a cell's centre in a Solo window at (0, 0) with the default 48-pixel tiles.
fn centre(row: usize, col: usize) -> (String, String) {
    ((48 + 48 * col).to_string(), (73 + 48 * row).to_string())
}

#[test]
fn solo_read_by_pixels_matches_the_game_id_and_the_copy_text() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    for name in ["3x3du", "2x3"] {
        let id = game_id(name);
        let game = screen.launch(id, &[]);
        screen.focus(&game);
        let before = screen.copy_board(&game);
        let out = run_ok(&screen, &["desktop", "--show-read"]);
        let givens = line::write(&solo_id::parse(id).expect("id"));
        assert_eq!(out.trim(), givens, "{name}: the board read from the pixels");
        assert_eq!(screen.copy_board(&game), before, "{name}: nothing typed");
        screen.close(game);
    }

    // A player's entry is read as a value and marked as an entry (Solo draws entries in
    // another colour); the Copy text says the same.
    let id = game_id("3x3du");
    let puzzle = solo_id::parse(id).expect("id");
    let game = screen.launch(id, &[]);
    screen.focus(&game);
    let empty = (0..81).find(|&i| puzzle.get(i).is_none()).expect("an empty cell");
    let (x, y) = centre(empty / 9, empty % 9);
    screen.xdotool(&["mousemove", &x, &y, "click", "1", "key", "7"]);
    let copied = solo_text::parse(&screen.copy_board(&game)).expect("copy");
    assert_eq!(copied.cells()[empty], 7, "the entry is in the game");
    let out = screen.sudobot(&["desktop", "--show-read"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let read = String::from_utf8_lossy(&out.stdout);
    assert_eq!(read.trim(), line::write(&copied), "the board with the entry");
    assert!(stderr.contains("7'"), "the entry is marked as one: {stderr}");
    screen.close(game);
}

#[test]
fn a_window_partly_off_screen_is_refused_and_a_covered_one_raised() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let game = screen.launch(game_id("3x3du"), &[]);
    // Partly off the right edge of the screen.
    screen.xdotool(&["windowmove", &game.window, "800", "0"]);
    screen.focus(&game);
    let out = screen.sudobot(&["desktop", "--show-read"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("partly off-screen"), "{stderr}");
    assert!(out.stdout.is_empty(), "no board printed");
    // Another window over the board: the bot raises the game above it (nothing can stay on
    // top without a window manager) and reads the board whole.
    screen.xdotool(&["windowmove", &game.window, "0", "0"]);
    let cover = screen.cover("200x100+150+200");
    screen.xdotool(&["windowraise", &cover]);
    let out = run_ok(&screen, &["desktop", "--show-read"]);
    let givens = line::write(&solo_id::parse(game_id("3x3du")).expect("id"));
    assert_eq!(out.trim(), givens, "the board read once raised");
    screen.close(game);
}

#[test]
fn solo_played_by_pixels_is_solved_as_its_copy_text_shows() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    for name in ["3x3du", "2x3"] {
        let game = screen.launch(game_id(name), &[]);
        screen.focus(&game);
        // A wrong value left by the player (Solo draws entries in another colour): retyped.
        let puzzle = solo_id::parse(game_id(name)).expect("id");
        let solution = sudobot::desktop::unique_solution(&puzzle).expect("unique");
        let side = puzzle.side();
        let empty = (0..side * side).find(|&i| puzzle.get(i).is_none()).expect("an empty cell");
        let wrong = if solution.cells()[empty] == 1 { "2" } else { "1" };
        let (x, y) = centre(empty / side, empty % side);
        screen.xdotool(&["mousemove", &x, &y, "click", "1", "key", wrong]);
        let out = run_ok(&screen, &["desktop", "--auto", "--game", "pixels", "--window", "Solo"]);
        assert!(out.contains(", 1 corrected;"), "{name}: {out}");
        assert!(out.contains("confirmed by reading the window's pixels back"), "{name}: {out}");
        // Solo's own Copy text, not the pixels, decides.
        super::assert_solved(name, &screen.copy_board(&game));
        screen.close(game);
    }
}

/// A window with no board, played by pixels with `--debug-dir`: refused with nothing typed,
/// and the window's picture kept there, framed in red (no board found in it).
#[test]
fn a_refused_read_by_pixels_keeps_the_annotated_window() {
    require_tools!();
    let mut screen = Screen::start(640, 480);
    screen.window_titled("no-board", "300x200+10+10");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().to_str().expect("a UTF-8 path");
    let args =
        ["desktop", "--auto", "--game", "pixels", "--window", "no-board", "--debug-dir", path];
    let out = screen.sudobot(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("no sudoku board found"), "{stderr}");
    assert!(stderr.contains("nothing was typed"), "{stderr}");
    let kept: Vec<_> = std::fs::read_dir(dir.path()).expect("the directory").flatten().collect();
    assert_eq!(kept.len(), 1, "one picture: {kept:?}");
    let bytes = std::fs::read(kept[0].path()).expect("the picture");
    let image = sudobot::pixels::decode(&bytes).expect("a PNG");
    assert!(image.width >= 100 && image.height >= 100, "{}x{}", image.width, image.height);
    assert_eq!(image.data[..3], [230, 0, 0], "framed in red");
}
