//! Round trips of the Solo formats (game IDs and Copy text) over random boxed, jigsaw and X
//! geometries, with random fills.

use std::sync::Arc;

use proptest::prelude::*;
use sudobot::format::{solo_id, solo_text};
use sudobot::grid::{Geometry, Grid};

use crate::support::{Rng, connected};

/// A connected jigsaw partition (Solo's formats describe regions by walls, so regions must be
/// connected): start from rows and trade pairs of cells between neighbouring regions while
/// every region stays connected.
fn jigsaw_labels(side: usize, seed: u64) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut labels: Vec<usize> = (0..side * side).map(|i| i / side).collect();
    for _ in 0..side * side * 4 {
        let a = rng.below(side * side);
        let b = rng.below(side * side);
        let (ra, rb) = (labels[a], labels[b]);
        if ra == rb {
            continue;
        }
        labels[a] = rb;
        labels[b] = ra;
        if !connected(&labels, side, ra) || !connected(&labels, side, rb) {
            labels[a] = ra;
            labels[b] = rb;
        }
    }
    labels
}

fn geometry_strategy() -> impl Strategy<Value = Geometry> {
    let boxed = (2usize..=5, 2usize..=5).prop_map(|(w, h)| Geometry::boxed(w, h).expect("boxed"));
    let jigsaw = (2usize..=12, any::<u64>()).prop_map(|(side, seed)| {
        Geometry::jigsaw(side, &jigsaw_labels(side, seed)).expect("jigsaw")
    });
    (prop_oneof![boxed, jigsaw], any::<bool>())
        .prop_map(|(g, x)| if x && g.side() >= 4 { g.with_diagonals() } else { g })
}

fn grid_strategy() -> impl Strategy<Value = Grid> {
    (geometry_strategy(), any::<u64>(), 0u8..=100).prop_map(|(geometry, seed, density)| {
        let side = geometry.side();
        let mut rng = Rng::new(seed);
        let cells = (0..side * side)
            .map(|_| if rng.below(100) < density as usize { 1 + rng.below(side) as u8 } else { 0 })
            .collect();
        Grid::new(Arc::new(geometry), cells).expect("grid")
    })
}

proptest! {
    #[test]
    fn game_ids_round_trip(grid in grid_strategy()) {
        let id = solo_id::encode(&grid).expect("every generated grid fits Solo");
        let back = solo_id::parse(&id).map_err(|e| TestCaseError::fail(format!("{id}: {e}")))?;
        prop_assert_eq!(back, grid);
    }

    #[test]
    fn copy_text_round_trips(grid in grid_strategy()) {
        let text = solo_text::write(&grid);
        let back = solo_text::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        // The text shows X only through `_` on empty diagonal cells.
        let shows_x = grid.geometry().has_diagonals()
            && (0..grid.cells().len()).any(|i| grid.get(i).is_none() && grid.geometry().on_diagonal(i));
        if grid.geometry().has_diagonals() && !shows_x {
            prop_assert!(!back.geometry().has_diagonals());
            prop_assert_eq!(back.cells(), grid.cells());
        } else {
            prop_assert_eq!(back, grid.clone());
        }
        let crlf = solo_text::write_with(&grid, "\r\n");
        let crlf_back = solo_text::parse(&crlf).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(crlf_back.cells(), grid.cells());
    }

    #[test]
    fn parsers_never_panic(text in "[0-9a-z_,:|. +\\-\n]{0,200}") {
        let _ = solo_id::parse(&text);
        let _ = solo_text::parse(&text);
    }
}

/// IDs Solo itself generated (`sgt-solo --generate 1 '<params>#sudobot<n>'`, Debian
/// 20230122): we must write back exactly what the game wrote.
#[test]
fn ids_generated_by_solo_are_written_back_unchanged() {
    let ids = include_str!("fixtures/desktop/generated-ids.txt");
    let mut checked = 0;
    for id in ids.lines().filter(|l| !l.trim().is_empty()) {
        let grid = solo_id::parse(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(solo_id::write(&grid), id);
        // Copy text has no cages (Solo has no Copy for Killer); the values still round trip.
        assert_eq!(solo_text::parse(&solo_text::write(&grid)).expect("text").cells(), grid.cells());
        checked += 1;
    }
    assert_eq!(checked, 12);
}
