//! Solo's Copy text (what the desktop mode reads from the clipboard after Game > Copy): no
//! panic; an accepted text reads back from the writer; errors point inside the text. The
//! desktop's own readers of that text (the interactive mode's puzzle text, and the check of a
//! copy against the game ID) run on it too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::desktop::{game, interactive};
use sudobot::format::{solo_id, solo_text};
use sudobot_fuzz::{assert_position_inside, assert_same_grid, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    match solo_text::parse(text) {
        Ok(grid) => {
            for eol in ["\n", "\r\n"] {
                let written = solo_text::write_with(&grid, eol);
                let back = solo_text::parse(&written).expect("the writer's text reads back");
                assert_same_grid(&back, &grid, "Solo text round trip");
            }
            // The desktop puts a copy on the game ID's geometry: the grid's own ID must accept
            // its own copy.
            if let Ok(id) = solo_id::encode(&grid) {
                let id = solo_id::parse_id(&id).expect("an encoded ID reads back");
                let board = game::board_from_copy(&solo_text::write(&grid), &id)
                    .expect("a copy of the ID's own grid fits the ID");
                assert_eq!(board.cells(), grid.cells());
            }
        }
        Err(e) => assert_position_inside(text, &e),
    }
    match interactive::parse_puzzle(text) {
        Ok(_) => {}
        Err(e) => {
            // The interactive mode reads a trimmed single line: positions are inside the text
            // either way (an error on a line, never past the input).
            if e.position.is_some_and(|p| p.line > sudobot_fuzz::line_count(text)) {
                panic!("error {e} past the end of {text:?}");
            }
        }
    }
});
