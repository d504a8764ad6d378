//! Drawn grids (pretty output and hand-drawn ASCII): no panic; an accepted drawing reads back
//! from the writer (same cells and regions; ASCII and Unicode); errors point inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::format::pretty;
use sudobot_fuzz::{assert_position_inside, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let _ = pretty::looks_like_drawing(text);
    match pretty::parse(text) {
        Ok(grid) => {
            for charset in [pretty::Charset::Unicode, pretty::Charset::Ascii] {
                let options = pretty::Options { charset, ..Default::default() };
                let written = pretty::write_with(&grid, &options);
                let back = pretty::parse(&written).expect("the writer's drawing reads back");
                // A jigsaw whose regions happen to be boxes reads back as boxes: the same
                // houses.
                assert_eq!(back.cells(), grid.cells(), "pretty round trip: cells");
                assert_eq!(
                    back.geometry().region_map(),
                    grid.geometry().region_map(),
                    "pretty round trip: regions"
                );
                assert_eq!(back.geometry().has_diagonals(), grid.geometry().has_diagonals());
                assert_eq!(back.geometry().cages(), grid.geometry().cages(), "cages");
            }
        }
        Err(e) => assert_position_inside(text, &e),
    }
});
