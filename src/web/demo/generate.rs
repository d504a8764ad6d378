//! Fresh puzzles for the demo page: a random full grid (three shuffled diagonal boxes completed by
//! the solver), then clues removed in random order while the puzzle keeps exactly one solution.
//! The difficulty is how many clues are removed. Randomness comes from `fastrand` (variety, not
//! secrecy, is what demo puzzles need).

use std::sync::Arc;

use crate::grid::{Geometry, Grid};
use crate::solve::count_solutions;

/// Clues to remove for difficulty levels 1 to 5 (the last levels may stop earlier when no clue
/// can go without losing uniqueness).
pub const REMOVED: [usize; 5] = [36, 45, 51, 55, 58];

/// A puzzle with a unique solution for difficulty `level` (1 to 5, clamped), and its solution.
pub fn generate(level: usize, rng: &mut fastrand::Rng) -> (Grid, Grid) {
    let geometry = Arc::new(Geometry::for_side(9).expect("9 is a supported side"));
    let mut cells = vec![0u8; 81];
    for b in 0..3 {
        let mut digits: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut digits);
        for (k, d) in digits.into_iter().enumerate() {
            cells[(b * 3 + k / 3) * 9 + b * 3 + k % 3] = d;
        }
    }
    let seed = Grid::new(Arc::clone(&geometry), cells).expect("digits 1-9 fit a 9x9 grid");
    // Three diagonal boxes never conflict and always complete to a full grid.
    let solution = count_solutions(&seed, 1)
        .ok()
        .and_then(|c| c.examples.into_iter().next())
        .expect("diagonal boxes always complete");
    let target = REMOVED[level.clamp(1, 5) - 1];
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut puzzle = solution.clone();
    let mut removed = 0;
    for i in order {
        if removed == target {
            break;
        }
        let keep = puzzle.get(i);
        let _ = puzzle.set(i, None);
        if count_solutions(&puzzle, 2).map(|c| c.found == 1).unwrap_or(false) {
            removed += 1;
        } else {
            let _ = puzzle.set(i, keep);
        }
    }
    (puzzle, solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{Verdict, solve};

    #[test]
    fn puzzles_are_unique_and_as_hard_as_asked() {
        let mut rng = fastrand::Rng::with_seed(7);
        for level in 1..=5 {
            let (puzzle, solution) = generate(level, &mut rng);
            assert_eq!(solve(&puzzle), Verdict::Unique(solution.clone()));
            assert!(81 - puzzle.filled() <= REMOVED[level - 1]);
            assert!(81 - puzzle.filled() >= REMOVED[0].min(REMOVED[level - 1]));
        }
        let (a, _) = generate(2, &mut rng);
        let (b, _) = generate(2, &mut rng);
        assert_ne!(a, b, "fresh puzzles");
    }
}
