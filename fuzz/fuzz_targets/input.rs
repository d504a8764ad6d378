//! Format detection and batch reading (`format::detect`, `format::parse`,
//! `format::read_puzzles`): no panic; entries come in line order, each on a line of the input,
//! errors inside the input; a puzzle read with detection reads back from its format's writer.
//! The first byte picks the options (forced format, box shape, diagonals), the rest is the text.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use sudobot::format::{self, Format, ReadOptions, cages, line, pretty, solo_id, solo_text};
use sudobot::grid::Geometry;
use sudobot_fuzz::{assert_position_inside, line_count, text};

const FORMATS: [Option<Format>; 6] = [
    None,
    Some(Format::Line),
    Some(Format::SoloText),
    Some(Format::SoloId),
    Some(Format::Pretty),
    Some(Format::Cages),
];

fuzz_target!(|data: &[u8]| {
    let Some((&options, rest)) = data.split_first() else { return };
    let Some(text) = text(rest) else { return };
    let format = FORMATS[usize::from(options % 6)];
    let geometry = match (options / 6) % 4 {
        1 => Some(Arc::new(Geometry::boxed(3, 2).expect("2x3 boxes"))),
        2 => Some(Arc::new(Geometry::boxed(2, 3).expect("3x2 boxes"))),
        3 => Some(Geometry::standard(4).expect("4x4")),
        _ => None,
    };
    let diagonals = options & 0x80 != 0;

    let detected = format::detect(text);
    match format::parse(text, format) {
        Ok(grid) if format.is_none() => {
            // What detection read, its own writer writes in a form detection reads back.
            let written = match detected {
                Format::Line => line::write(&grid),
                Format::SoloText => solo_text::write(&grid),
                Format::SoloId => solo_id::write(&grid),
                Format::Pretty => pretty::write(&grid),
                Format::Cages => cages::write(&grid),
            };
            if detected != Format::SoloId || solo_id::encode(&grid).is_ok() {
                let back = format::parse(&written, Some(detected))
                    .unwrap_or_else(|e| panic!("{detected} writer's output {written:?}: {e}"));
                assert_eq!(back.cells(), grid.cells(), "{detected} round trip");
            }
        }
        Ok(_) => {}
        Err(e) => assert_position_inside(text, &e),
    }

    let options = ReadOptions { format, geometry, diagonals };
    if let Ok(puzzles) = format::read_puzzles(text, "fuzz", &options) {
        let lines = line_count(text);
        let mut last = 0;
        for entry in &puzzles.entries {
            assert!(entry.line > last || puzzles.entries.len() == 1, "entries out of order");
            assert!(entry.line >= 1 && entry.line <= lines, "entry on line {}", entry.line);
            last = entry.line;
            if let Err(e) = &entry.puzzle {
                assert_position_inside(text, e);
            }
        }
    }
});
