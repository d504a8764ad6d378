//! Issue 34: the pixel reader on a whole X screen, as a person sees it: the real Solo window
//! (tiles of 24 to 72 pixels, 9x9, 6x6 and 4x4 read exactly; 16x16 with letters never misread) anywhere on a 1280x1024 Xvfb screen
//! with its stippled root window around it, captured whole through X11 `GetImage` and read by
//! `sudobot::pixels::read`; and GNOME Sudoku in its light and dark themes, played to the
//! game's own completion dialog. The truth is the game ID (the game's own state), never the
//! reader.

use std::time::Duration;

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};

use super::game_id;
use super::harness::{GNOME_SUDOKU, Game, Screen, require_tools, wait_until};
use sudobot::format::{line, solo_id};
use sudobot::pixels::{self, BoardRead, RgbaImage};

/// The whole screen's pixels (root window, 32 bits a pixel as Xvfb's depth 24 gives them).
fn capture(screen: &Screen) -> RgbaImage {
    let (conn, n) = x11rb::connect(Some(&screen.display)).expect("connect to Xvfb");
    let root = &conn.setup().roots[n];
    let (w, h) = (root.width_in_pixels, root.height_in_pixels);
    let visual = root
        .allowed_depths
        .iter()
        .flat_map(|d| &d.visuals)
        .find(|v| v.visual_id == root.root_visual)
        .expect("the root visual");
    let masks = [visual.red_mask, visual.green_mask, visual.blue_mask];
    let reply = conn
        .get_image(ImageFormat::Z_PIXMAP, root.root, 0, 0, w, h, !0)
        .expect("GetImage")
        .reply()
        .expect("the screen's pixels");
    assert_eq!(reply.data.len(), usize::from(w) * usize::from(h) * 4, "32 bits a pixel");
    let mut data = Vec::with_capacity(reply.data.len());
    for px in reply.data.chunks_exact(4) {
        let p = u32::from_le_bytes([px[0], px[1], px[2], px[3]]);
        for m in masks {
            data.push(((p & m) >> m.trailing_zeros()) as u8);
        }
        data.push(255);
    }
    RgbaImage { width: usize::from(w), height: usize::from(h), data }
}

/// The screen read by the pixel reader: the puzzle in one-line form, or why not.
fn read_screen(screen: &Screen) -> Result<String, String> {
    let read = read_board(screen)?;
    let grid = read.grid().map_err(|e| format!("{e}\n{read}"))?;
    Ok(line::write(&grid))
}

/// The board on the screen as the pixel reader reads it.
fn read_board(screen: &Screen) -> Result<BoardRead, String> {
    let image = capture(screen);
    let view = image.view().map_err(|e| e.to_string())?;
    pixels::read(view).map_err(|e| e.to_string())
}

/// Solo games (fixture name, tile sizes) read exactly from a full 1280x1024 screen, the
/// window moved off the corner.
const SOLO_BOARDS: [(&str, &[u32]); 3] =
    [("3x3du", &[24, 30, 36, 48, 60, 72]), ("2x3", &[24, 48, 72]), ("2x2", &[24, 48, 72])];

#[test]
fn solo_on_a_full_screen_is_read_at_every_tile_size() {
    require_tools!();
    let mut screen = Screen::start(1280, 1024);
    let mut failures = Vec::new();
    for (name, tiles) in SOLO_BOARDS {
        let id = game_id(name);
        let want = line::write(&solo_id::parse(id).expect("fixture ID"));
        for &tile in tiles {
            let game = launch_at(&mut screen, id, tile);
            // The game draws its board after mapping the window: the first successful read,
            // within a bound, is compared (a read that never succeeds is reported).
            let mut last = String::new();
            match wait_for(|| read_screen(&screen), &mut last) {
                Some(read) if read == want => {}
                Some(read) => failures.push(format!("{name} at {tile} px: read {read}")),
                None => failures.push(format!("{name} at {tile} px: {last}")),
            }
            screen.close(game);
        }
    }
    assert!(failures.is_empty(), "misread or refused:\n{}", failures.join("\n"));
}

/// Solo's 16x16 board (values 1-9 then letters A-G) on a full screen is found as 16x16, and
/// no cell is read with certainty as a value it does not hold. Exactness is not asserted:
/// some of Solo's letters (F, E, C, A) are read but not with certainty, and the board without
/// them has several solutions (issue 34, open).
#[test]
fn solo_16x16_with_letters_on_a_full_screen_is_never_misread() {
    require_tools!();
    let mut screen = Screen::start(1280, 1024);
    let id = game_id("4x4");
    let want = solo_id::parse(id).expect("fixture ID");
    for tile in [32, 48] {
        let game = launch_at(&mut screen, id, tile);
        let mut last = String::new();
        let read = wait_for(|| read_board(&screen), &mut last)
            .unwrap_or_else(|| panic!("16x16 at {tile} px: {last}"));
        assert_eq!(read.board.side, 16, "16x16 at {tile} px: {read}");
        let certain = read.cells.iter().filter(|c| c.is_certain() && c.value.is_some()).count();
        assert!(certain > 0, "16x16 at {tile} px: no value read\n{read}");
        for (i, cell) in read.cells.iter().enumerate() {
            if cell.is_certain() {
                assert_eq!(cell.value, want.get(i), "16x16 at {tile} px: cell {i}\n{read}");
            }
        }
        eprintln!("16x16 at {tile} px: {} cells uncertain", read.uncertain().len());
        screen.close(game);
    }
}

/// Solo with `tile`-pixel tiles, moved off the screen's corner.
fn launch_at(screen: &mut Screen, id: &str, tile: u32) -> Game {
    let game = screen.launch(id, &[("SOLO_TILESIZE", &tile.to_string())]);
    screen.xdotool(&["windowmove", &game.window, "211", "97"]);
    game
}

/// The first success of `read` within 15 s; `last` keeps the last failure.
fn wait_for<T>(mut read: impl FnMut() -> Result<T, String>, last: &mut String) -> Option<T> {
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        match read() {
            Ok(found) => return Some(found),
            Err(e) => *last = e,
        }
        if std::time::Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// GNOME Sudoku in its dark theme (GTK's Adwaita dark) is read and played by its pixels to
/// the game's completion dialog, as the light theme is (`gnome.rs`); and read from the whole
/// screen, where the window's own title bar, buttons and the stippled root are around it.
#[test]
fn gnome_sudoku_in_light_and_dark_themes_is_read_and_solved() {
    require_tools!();
    for theme in ["Adwaita", "Adwaita:dark"] {
        let mut screen = Screen::start(1280, 1024);
        let Some(game) = screen.launch_gnome_sudoku_env("Easy", &[("GTK_THEME", theme)]) else {
            eprintln!("skipping: {GNOME_SUDOKU} is not installed (apt-get install gnome-sudoku)");
            return;
        };
        let by_window = wait_until("GNOME Sudoku's board", Duration::from_secs(20), || {
            let out = screen.sudobot(&["desktop", "--show-read", "--game", "gnome-sudoku"]);
            out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        });
        let mut last = String::new();
        let whole = wait_for(|| read_screen(&screen), &mut last);
        assert_eq!(whole.as_deref(), Some(by_window.as_str()), "{theme}: the whole screen: {last}");
        let out =
            super::run_ok(&screen, &["desktop", "--auto", "--game", "gnome-sudoku", "--stats"]);
        assert!(out.contains("completion dialog"), "{theme}: {out}");
        assert_eq!(screen.windows_of(&game).len(), 2, "{theme}: the game's completion dialog");
        screen.close(game);
    }
}
