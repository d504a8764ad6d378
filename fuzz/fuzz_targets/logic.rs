//! The technique engine's "every step is true": for a puzzle with one solution, `explain` finds
//! a full path whose every step places solution values or removes non-solution candidates
//! (`logic::check_step`, run by the engine on each step; a false step comes back as
//! `LogicError::FalseStep`, which fails here). The first byte picks the grid (4x4, 6x6, 9x9,
//! 9x9 X) and the scale; the rest are the cells (`1`-`N` a given, anything else blank). A
//! puzzle with several solutions is completed from its first solution, cell by cell, until it
//! has one, so every input explains.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use sudobot::grid::{Geometry, Grid};
use sudobot::logic::{self, LogicError, Scale};
use sudobot::solve::count_solutions;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let geometry = match pick % 4 {
        0 => Geometry::standard(4).expect("4x4"),
        1 => Geometry::standard(6).expect("6x6"),
        2 => Geometry::standard(9).expect("9x9"),
        _ => Arc::new(Geometry::for_side(9).expect("9x9").with_diagonals()),
    };
    let scale = if pick & 0x80 == 0 { Scale::Solo } else { Scale::Score };
    let side = geometry.side() as u8;
    let cells: Vec<u8> = (0..geometry.cell_count())
        .map(|i| match rest.get(i) {
            Some(&b) if (b'1'..b'1' + side).contains(&b) => b - b'0',
            _ => 0,
        })
        .collect();
    let Ok(mut puzzle) = Grid::new(geometry, cells) else { return };
    // Make the solution unique: copy the first solution's value into the first cell where two
    // solutions differ.
    loop {
        let Ok(count) = count_solutions(&puzzle, 2) else { return };
        match count.found {
            0 => return,
            1 => break,
            _ => {
                let (a, b) = (&count.examples[0], &count.examples[1]);
                let i =
                    (0..a.cells().len()).find(|&i| a.cells()[i] != b.cells()[i]).expect("differ");
                puzzle.set(i, Some(a.cells()[i])).expect("a value in range");
            }
        }
    }
    match logic::explain(&puzzle, scale) {
        Ok(explanation) => {
            assert!(explanation.solution.is_solution_of(&puzzle));
            assert!(!explanation.steps.is_empty() || puzzle.is_full());
        }
        Err(LogicError::FalseStep(step)) => panic!("a false step: {step}"),
        Err(e) => panic!("a puzzle with one solution does not explain: {e}"),
    }
});
