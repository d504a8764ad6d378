//! Solo game IDs (boxed, jigsaw, X, Killer): no panic; an accepted ID that Solo can represent
//! encodes and reads back to the same grid; errors point inside the ID. The desktop's reader
//! of the ID it copies from the game runs on it too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::desktop::game;
use sudobot::format::solo_id;
use sudobot_fuzz::{assert_position_inside, assert_same_grid, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let text = text.split('\n').next().unwrap_or("");
    match solo_id::parse_id(text) {
        Ok(id) => {
            let grid = &id.grid;
            if let Ok(encoded) = solo_id::encode(grid) {
                let back = solo_id::parse(&encoded).expect("an encoded ID reads back");
                assert_same_grid(&back, grid, "Solo ID round trip");
                assert_eq!(solo_id::encode(&back).as_deref(), Ok(encoded.as_str()), "stable");
            }
            let _ = solo_id::write(grid);
        }
        Err(e) => assert_position_inside(text, &e),
    }
    let _ = game::parse_game_id(text);
});
