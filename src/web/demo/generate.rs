//! Fresh puzzles for the demo page: a random full grid (three shuffled diagonal boxes completed by
//! the solver), then clues removed in random order while the puzzle keeps exactly one solution.
//! The difficulty is how many clues are removed.

use std::sync::Arc;

use crate::grid::{Geometry, Grid};
use crate::solve::count_solutions;

/// Clues to remove for difficulty levels 1 to 5 (the last levels may stop earlier when no clue
/// can go without losing uniqueness).
pub const REMOVED: [usize; 5] = [36, 45, 51, 55, 58];

/// A small xorshift generator; demo puzzles need variety, not cryptographic randomness.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeded from the OS-randomised hasher keys and the clock.
    pub fn from_entropy() -> Rng {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        );
        Rng::seeded(h.finish())
    }

    /// A fixed seed (tests).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A puzzle with a unique solution for difficulty `level` (1 to 5, clamped), and its solution.
pub fn generate(level: usize, rng: &mut Rng) -> (Grid, Grid) {
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
        let mut rng = Rng::seeded(7);
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
