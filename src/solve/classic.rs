//! The 9x9 fast path (placeholder: delegates to the generic engine until the band solver lands).

use super::Sink;
use crate::grid::Grid;

pub(super) fn search(puzzle: &Grid, sink: &mut Sink) -> u64 {
    super::generic::search(puzzle, sink)
}
