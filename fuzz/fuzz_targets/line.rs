//! The one-line reader: no panic; an accepted line reads back from its writer; errors point
//! inside the line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::format::line;
use sudobot_fuzz::{assert_position_inside, assert_same_grid, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    // One line: the batch reader hands the reader one line at a time.
    let text = text.split('\n').next().unwrap_or("");
    match line::parse(text) {
        Ok(grid) => {
            let written = line::write(&grid);
            let back = line::parse(&written).expect("the writer's line reads back");
            assert_same_grid(&back, &grid, "line round trip");
            let again =
                line::parse_with(&written, grid.geometry_arc()).expect("reads on its geometry");
            assert_same_grid(&again, &grid, "line round trip on the geometry");
        }
        Err(e) => assert_position_inside(text, &e),
    }
});
