//! Killer cage text (and the Killer drawing it is written with): no panic; an accepted text
//! reads back from the writer; errors point inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::format::cages;
use sudobot_fuzz::{assert_position_inside, assert_same_grid, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let _ = cages::is_cage_line(text);
    let _ = cages::is_setting_line(text);
    for (line, puzzle) in cages::parse_all(text, None) {
        assert!(line >= 1 && line <= sudobot_fuzz::line_count(text), "puzzle at line {line}");
        match puzzle {
            Ok(grid) => {
                let written = cages::write(&grid);
                let back = cages::parse(&written).expect("the writer's cage text reads back");
                assert_same_grid(&back, &grid, "cage text round trip");
            }
            Err(e) => assert_position_inside(text, &e),
        }
    }
});
