//! The two solver engines against each other: a 9x9 puzzle is solved by the classic engine and,
//! written as a jigsaw whose regions are its boxes (the same houses, but not "classic"), by
//! the generic engine; both must agree on the solution count (limit 2), on a conflict, and on
//! the solution when it is unique. The input is read as 81 cells, `1`-`9` a given and any
//! other byte a blank (missing cells blank), so every input is a puzzle.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use sudobot::grid::{Geometry, Grid};
use sudobot::solve::count_solutions;

fn boxes_as_jigsaw() -> &'static Arc<Geometry> {
    static JIGSAW: OnceLock<Arc<Geometry>> = OnceLock::new();
    JIGSAW.get_or_init(|| {
        let labels: Vec<usize> = (0..81).map(|i| (i / 27) * 3 + (i % 9) / 3).collect();
        Arc::new(Geometry::jigsaw(9, &labels).expect("the boxes as a jigsaw"))
    })
}

fuzz_target!(|data: &[u8]| {
    let cells: Vec<u8> = (0..81)
        .map(|i| match data.get(i) {
            Some(&b @ b'1'..=b'9') => b - b'0',
            _ => 0,
        })
        .collect();
    let classic = Grid::new(Geometry::standard(9).expect("9x9"), cells.clone()).expect("9x9 grid");
    let generic = Grid::new(Arc::clone(boxes_as_jigsaw()), cells).expect("jigsaw grid");
    assert!(classic.geometry().is_classic() && !generic.geometry().is_classic());
    let a = count_solutions(&classic, 2);
    let b = count_solutions(&generic, 2);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.found, b.found, "solution counts (limit 2) differ");
            for example in a.examples.iter().chain(&b.examples) {
                let on_classic =
                    Grid::new(classic.geometry_arc().clone(), example.cells().to_vec())
                        .expect("a full grid");
                assert!(on_classic.is_solution_of(&classic), "an example is no solution");
            }
            if a.found == 1 {
                assert_eq!(a.examples[0].cells(), b.examples[0].cells(), "unique solutions differ");
            }
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!("one engine found a conflict, the other not: {a:?} / {b:?}"),
    }
});
