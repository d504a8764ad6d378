//! The engine for boxed grids up to 16x16 (boxes 2 to 4 cells wide and 2 to 4 tall: 4x4, 6x6,
//! 8x8, 12x12, 16x16), without diagonals or cages: per-value band bitboards, the design of the
//! 9x9 engine ([`classic`](super::classic)) sized for larger boxes.
//!
//! A box is `W` cells wide and `H` tall, the side `N = W * H`. The grid is `W` horizontal bands
//! of `H` rows; each band is `H` boxes across. For each value `v` and band `b` one 64-bit word
//! says where `v` may still go in that band (bit `row_in_band * N + col`), placed cells
//! included (`H * N <= 64` for every shape taken here). Every rule is a few word operations:
//!
//! - **Row/box structure.** Within a band a value sits once in each of the `H` rows and once in
//!   each of the `H` boxes, so the rows and boxes it uses form an `H x H` permutation. Folding
//!   the word into its "mini-rows" (row x box: does the value still fit there?) gives an
//!   `H * H`-bit pattern; a table built at compile time maps it to the mini-rows that lie on at
//!   least one permutation inside the pattern. Masking with that does pointing and claiming
//!   (locked candidates in the row direction), their generalisations within the band, and
//!   finds dead ends (no permutation fits) in one lookup.
//! - **Column/box structure.** In each stack of `W` boxes (one per band) a value uses each of
//!   the stack's `W` columns once and each band once: a `W x W` permutation of (band, column)
//!   pairs, filtered the same way. This gives locked candidates in the column direction.
//! - **Row singles.** A row of a word with one bit left is a placement: the cell is cleared from
//!   the other values and the column from the value's other bands. Box and column hidden
//!   singles follow from the two filters (a box or column with one place left forces its
//!   mini-row, and then its row).
//! - **Naked singles and dead cells** come from stacking a band's `N` value words with
//!   "seen once / twice / three times" masks.
//!
//! Changed words are queued in a worklist (bit `band * 16 + value`) and only those are
//! revisited; values whose words changed are queued for the column filter. The search then
//! branches on a cell with two candidates (chosen by [`Board::branch_key`]: a value with few
//! places left near the cell), or on the first cell with the fewest, copying the ~560-byte
//! state per branch point.

use super::Report;

/// The largest `K` for which the permutation filter has a table (`K x K` patterns).
const MAX_K: usize = 4;

/// For a `K x K` pattern (bit `r * K + c`: row `r` may take column `c`), the cells that lie on
/// some permutation (one cell in every row and every column) inside the pattern; 0 when none
/// fits. Built by marking, for every permutation, all the patterns that contain it.
const fn permutation_table<const K: usize, const SIZE: usize>() -> [u16; SIZE] {
    let mut table = [0u16; SIZE];
    let full = SIZE - 1;
    // Every K-tuple of columns; those with K different columns are the permutations.
    let mut tuples = 1;
    let mut i = 0;
    while i < K {
        tuples *= K;
        i += 1;
    }
    let mut t = 0;
    while t < tuples {
        let (mut rest, mut used, mut mask) = (t, 0usize, 0usize);
        let mut r = 0;
        while r < K {
            let c = rest % K;
            rest /= K;
            used |= 1 << c;
            mask |= 1 << (r * K + c);
            r += 1;
        }
        if used == (1 << K) - 1 {
            // Every superset of `mask`: set bits outside it in all combinations.
            let mut s = mask;
            loop {
                table[s] |= mask as u16;
                if s == full {
                    break;
                }
                s = (s + 1) | mask;
            }
        }
        t += 1;
    }
    table
}

static PERMUTATIONS_2: [u16; 16] = permutation_table::<2, 16>();
static PERMUTATIONS_3: [u16; 512] = permutation_table::<3, 512>();
// Only read at compile time (by the two statics below), so the array lands in the binary once.
#[allow(clippy::large_const_arrays)]
const TABLE_4: [u16; 65536] = permutation_table::<4, 65536>();
static PERMUTATIONS_4: [u16; 65536] = TABLE_4;

/// One bit per 4x4 pattern: set when the filter keeps the whole (non-empty) pattern, which is
/// the usual case. This 8 KiB bitmap stays in the L1 cache where the 128 KiB table does not.
static UNCHANGED_4: [u64; 1024] = {
    let mut bits = [0u64; 1024];
    let mut p = 1;
    while p < 65536 {
        if TABLE_4[p] as usize == p {
            bits[p / 64] |= 1 << (p % 64);
        }
        p += 1;
    }
    bits
};

/// The permutation filter for a `K x K` pattern (see [`permutation_table`]).
#[inline(always)]
fn permutations<const K: usize>(pattern: usize) -> u16 {
    match K {
        2 => PERMUTATIONS_2[pattern & 0xF],
        3 => PERMUTATIONS_3[pattern & 0x1FF],
        _ => PERMUTATIONS_4[pattern & 0xFFFF],
    }
}

/// A dead end: some value or cell has no place left.
struct Dead;

/// The search state for boxes `W` wide and `H` tall. Only the first `W` bands and the first
/// `W * H` values of `f` are used.
#[derive(Clone, Copy)]
struct Board<const W: usize, const H: usize> {
    /// Candidate positions `f[band][value]` (value 0-based).
    f: [[u64; 16]; MAX_K],
    /// Cells of each band not yet placed.
    unsolved: [u64; MAX_K],
    /// Worklist of band words that changed, bit `band * 16 + value`.
    pending: u64,
    /// Values whose words changed since their columns were last checked.
    column_pending: u32,
}

impl<const W: usize, const H: usize> Board<W, H> {
    /// The side.
    const N: usize = W * H;
    /// Bands (and boxes per stack).
    const BANDS: usize = W;
    /// One row of a band, at row 0.
    const ROW: u64 = (1 << (W * H)) - 1;
    /// Every cell of a band.
    const BAND: u64 = if H * W * H == 64 { u64::MAX } else { (1 << (H * W * H)) - 1 };
    /// Column 0 in every row of a band; multiply by a column set to spread it over the band.
    const COLUMN: u64 = {
        let mut m = 0u64;
        let mut r = 0;
        while r < H {
            m |= 1 << (r * W * H);
            r += 1;
        }
        m
    };
    /// One mini-row (the row of a box) at the start of a row.
    const MINI: u64 = (1 << W) - 1;

    fn new() -> Self {
        let mut f = [[0; 16]; MAX_K];
        for band in f.iter_mut().take(Self::BANDS) {
            for word in band.iter_mut().take(Self::N) {
                *word = Self::BAND;
            }
        }
        let mut unsolved = [0; MAX_K];
        for u in unsolved.iter_mut().take(Self::BANDS) {
            *u = Self::BAND;
        }
        Board { f, unsolved, pending: 0, column_pending: 0 }
    }

    /// Fixes `value` at a band position: the rest of its row is cleared for that value and the
    /// word queued; the placement itself happens in `update`.
    #[inline(always)]
    fn assign(&mut self, band: usize, value: usize, bit: u64) {
        let row = Self::ROW << (bit.trailing_zeros() as usize / Self::N * Self::N);
        self.f[band][value] &= !row | bit;
        self.pending |= 1 << (band * 16 + value);
    }

    /// The mini-row pattern of a band word: bit `row * H + box` when the value still fits in
    /// that row of that box.
    #[inline(always)]
    fn mini_rows(a: u64) -> usize {
        if W == 4 && H == 4 {
            // Bit 4k says whether nibble k (row k / 4, box k % 4) is non-empty.
            let x = a | a >> 1;
            let x = (x | x >> 2) & 0x1111_1111_1111_1111;
            // Per 16-bit row, gather bits 0, 4, 8, 12 into bits 9..12: the multiplier's
            // products land on distinct bits (no carries), and row r's only ones in 9..12.
            let m = x.wrapping_mul(0x249);
            let y = (m >> 9) & 0x000F_000F_000F_000F;
            let y = (y | y >> 12) & 0x0000_00FF_0000_00FF;
            return ((y | y >> 24) & 0xFFFF) as usize;
        }
        Self::mini_rows_by_loop(a)
    }

    /// [`Board::mini_rows`] one mini-row at a time (every shape).
    #[inline(always)]
    fn mini_rows_by_loop(a: u64) -> usize {
        let mut pattern = 0usize;
        for row in 0..H {
            for bx in 0..H {
                let cells = Self::MINI << (row * Self::N + bx * W);
                pattern |= ((a & cells != 0) as usize) << (row * H + bx);
            }
        }
        pattern
    }

    /// The cells of the mini-rows in a pattern (the inverse of [`Board::mini_rows`]).
    #[inline(always)]
    fn mini_row_cells(pattern: u16) -> u64 {
        if W == 4 && H == 4 {
            // Spread the four 4-bit rows to the bottom of the four 16-bit rows, then each bit
            // to the bottom of its nibble, then fill the nibbles.
            let p = pattern as u64;
            let t = (p | p << 24) & 0x0000_00FF_0000_00FF;
            let t = (t | t << 12) & 0x000F_000F_000F_000F;
            let t = (t | t << 6) & 0x0303_0303_0303_0303;
            let t = (t | t << 3) & 0x1111_1111_1111_1111;
            return t * 0xF;
        }
        Self::mini_row_cells_by_loop(pattern)
    }

    /// [`Board::mini_row_cells`] one mini-row at a time (every shape).
    #[inline(always)]
    fn mini_row_cells_by_loop(pattern: u16) -> u64 {
        let mut cells = 0u64;
        for row in 0..H {
            for bx in 0..H {
                let on = ((pattern >> (row * H + bx)) & 1) as u64;
                cells |= (Self::MINI << (row * Self::N + bx * W)) & on.wrapping_neg();
            }
        }
        cells
    }

    /// The columns of a band word that still hold a candidate (`N` bits).
    #[inline(always)]
    fn fold(a: u64) -> u64 {
        let mut cols = 0;
        for row in 0..H {
            cols |= a >> (row * Self::N);
        }
        cols & Self::ROW
    }

    /// Brings one band word to its local fixpoint and spreads new placements.
    #[inline(always)]
    fn update(&mut self, band: usize, value: usize) -> Result<(), Dead> {
        let word = self.f[band][value];
        // One pass is a fixpoint: the permutations inside the reduced pattern are exactly
        // those inside the original one.
        let pattern = Self::mini_rows(word);
        let a = if H == 4 && UNCHANGED_4[(pattern >> 6) & 1023] >> (pattern & 63) & 1 != 0 {
            word
        } else {
            word & Self::mini_row_cells(permutations::<H>(pattern))
        };
        if a == 0 {
            return Err(Dead);
        }
        let mut placed = 0;
        for row in 0..H {
            let seg = a & (Self::ROW << (row * Self::N));
            // Branch-free "keep seg when it has exactly one bit" (seg is never 0 here).
            placed |= seg & ((seg & seg.wrapping_sub(1) == 0) as u64).wrapping_neg();
        }
        self.f[band][value] = a;
        self.column_pending |= 1 << value;
        let new = placed & self.unsolved[band];
        if new == 0 {
            return Ok(());
        }
        self.unsolved[band] &= !new;
        // The cells are taken: no other value may use them.
        let mut changed = 0u64;
        let words = &mut self.f[band];
        for (v, word) in words.iter_mut().enumerate().take(Self::N) {
            let old = *word;
            *word = old & !new;
            changed |= ((old & new != 0) as u64) << v;
        }
        words[value] = a;
        changed &= !(1 << value);
        // The columns are taken for this value in the other bands.
        let column_mask = Self::fold(new) * Self::COLUMN;
        let mut changed_bands = 0u64;
        for other in 0..Self::BANDS {
            let clear = if other == band { 0 } else { column_mask };
            let old = self.f[other][value];
            self.f[other][value] = old & !clear;
            changed_bands |= ((old & clear != 0) as u64) << (other * 16);
        }
        self.pending |= changed << (band * 16) | changed_bands << value;
        Ok(())
    }

    /// The column direction for one value: in each stack of `W` boxes the value uses each
    /// column once and each band once, so (band, column) pairs form a permutation too. Pairs
    /// on no fitting permutation are removed.
    #[inline(always)]
    fn update_columns(&mut self, value: usize) -> Result<(), Dead> {
        let mut cols = [0u64; MAX_K];
        for (band, c) in cols.iter_mut().enumerate().take(Self::BANDS) {
            *c = Self::fold(self.f[band][value]);
        }
        let mut keep = [0u64; MAX_K];
        for stack in 0..H {
            let shift = stack * W;
            let mut pattern = 0usize;
            for (band, &c) in cols.iter().enumerate().take(Self::BANDS) {
                pattern |= (((c >> shift) & Self::MINI) as usize) << (band * W);
            }
            let valid = permutations::<W>(pattern) as u64;
            if valid == 0 {
                return Err(Dead);
            }
            for (band, k) in keep.iter_mut().enumerate().take(Self::BANDS) {
                *k |= ((valid >> (band * W)) & Self::MINI) << shift;
            }
        }
        for band in 0..Self::BANDS {
            if keep[band] != cols[band] {
                self.f[band][value] &= keep[band] * Self::COLUMN;
                self.pending |= 1 << (band * 16 + value);
            }
        }
        Ok(())
    }

    /// Runs the worklists and naked singles to a fixpoint. Returns, per band, the cells with
    /// exactly two candidates (for choosing a branch), or a dead end.
    #[inline(always)]
    fn propagate(&mut self) -> Result<[u64; MAX_K], Dead> {
        loop {
            while self.pending != 0 {
                let i = self.pending.trailing_zeros() as usize;
                self.pending &= self.pending - 1;
                self.update(i / 16, i % 16)?;
                if self.pending == 0 {
                    while self.column_pending != 0 {
                        let v = self.column_pending.trailing_zeros() as usize;
                        self.column_pending &= self.column_pending - 1;
                        self.update_columns(v)?;
                    }
                }
            }
            let mut pairs = [0u64; MAX_K];
            let mut found = false;
            for (band, pair) in pairs.iter_mut().enumerate().take(Self::BANDS) {
                let unsolved = self.unsolved[band];
                if unsolved == 0 {
                    continue;
                }
                let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
                for &m in self.f[band].iter().take(Self::N) {
                    thrice |= twice & m;
                    twice |= once & m;
                    once |= m;
                }
                if unsolved & !once != 0 {
                    return Err(Dead);
                }
                let mut singles = unsolved & !twice;
                if singles != 0 {
                    found = true;
                    while singles != 0 {
                        let bit = singles & singles.wrapping_neg();
                        singles &= singles - 1;
                        if let Some(v) =
                            self.f[band].iter().take(Self::N).position(|&w| w & bit != 0)
                        {
                            self.assign(band, v, bit);
                        }
                    }
                }
                *pair = unsolved & twice & !thrice;
            }
            if !found {
                return Ok(pairs);
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.unsolved.iter().all(|&u| u == 0)
    }

    /// The values in reading order, once solved.
    fn values(&self, out: &mut [u8]) {
        for (band, words) in self.f.iter().enumerate().take(Self::BANDS) {
            for (v, &word) in words.iter().enumerate().take(Self::N) {
                let mut m = word;
                while m != 0 {
                    let p = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if let Some(cell) = out.get_mut(band * H * Self::N + p) {
                        *cell = v as u8 + 1;
                    }
                }
            }
        }
    }

    /// The cell to branch on: among the two-candidate cells the one with the smallest
    /// [`Board::branch_key`]; without such a cell, the first cell with the fewest candidates.
    #[inline(always)]
    fn branch_cell(&self, pairs: [u64; MAX_K]) -> (usize, u64) {
        let mut best = (0usize, 0u64, u32::MAX);
        for (band, &p) in pairs.iter().enumerate().take(Self::BANDS) {
            let mut p = p;
            while p != 0 {
                let bit = p & p.wrapping_neg();
                p &= p - 1;
                let key = self.branch_key(band, bit);
                if key < best.2 {
                    best = (band, bit, key);
                }
            }
        }
        if best.1 != 0 {
            return (best.0, best.1);
        }
        let mut best = (0, 0, u32::MAX);
        for band in 0..Self::BANDS {
            let mut u = self.unsolved[band];
            while u != 0 {
                let bit = u & u.wrapping_neg();
                u &= u - 1;
                let n = self.f[band].iter().take(Self::N).filter(|&&w| w & bit != 0).count() as u32;
                if n < best.2 {
                    best = (band, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// How good a two-candidate cell is to branch on, smaller is better. For each of its two
    /// values, count the places the value has left in the cell's row, column and box. Cells
    /// are ordered by the fewest places either value has in any one of those houses (a value
    /// with few places near the cell makes the branch that rules it out end in hidden singles
    /// soon), then by the largest reach: both values' places in the three houses together
    /// (the cell once), as the 9x9 engine scores its branches. On the generated 16x16 set this
    /// takes 450 guesses a puzzle where the largest reach alone takes 875. Dropped orders
    /// (measured in the helper notes): the smallest reach first after the fewest places took
    /// 709 guesses there but over 100 s on a 16x16 with its top rows nearly blank, which this
    /// order solves in 63 guesses.
    #[inline(always)]
    fn branch_key(&self, band: usize, bit: u64) -> u32 {
        let pos = bit.trailing_zeros() as usize;
        let (row, col) = (pos / Self::N, pos % Self::N);
        let row = Self::ROW << (row * Self::N);
        let column = Self::COLUMN << col;
        let bx = (Self::MINI * Self::COLUMN) << (col / W * W);
        let mut values = 0u32;
        for (v, &w) in self.f[band].iter().enumerate().take(Self::N) {
            values |= ((w & bit != 0) as u32) << v;
        }
        let (mut fewest, mut total) = (u32::MAX, 0);
        while values != 0 {
            let v = values.trailing_zeros() as usize;
            values &= values - 1;
            let word = self.f[band][v];
            let in_row = (word & row).count_ones();
            let in_box = (word & bx).count_ones();
            let mut in_column = 0;
            for other in 0..Self::BANDS {
                in_column += (self.f[other][v] & column).count_ones();
            }
            let reach = (word & (row | bx | column)).count_ones() + in_column
                - (word & column).count_ones();
            fewest = fewest.min(in_row.min(in_box).min(in_column));
            total += reach;
        }
        // The reach is below 1024 (at most 3 * 16 places a value, two values).
        (fewest << 10) | (1023 - total)
    }
}

/// A branch point waiting on the DFS stack: the board before the guess, the cell, and the
/// values still to try there.
#[derive(Clone, Copy)]
struct Frame<const W: usize, const H: usize> {
    board: Board<W, H>,
    band: usize,
    bit: u64,
    values: u32,
}

/// Depth-first search with an explicit stack; tries a cell's values in increasing order.
/// Returns the number of branch points.
fn explore<const W: usize, const H: usize, R: Report>(
    sink: &mut R,
    mut board: Board<W, H>,
    out: &mut [u8],
) -> u64 {
    let mut stack: Vec<Frame<W, H>> = Vec::new();
    let mut guesses = 0u64;
    loop {
        let mut backtrack = true;
        if let Ok(pairs) = board.propagate() {
            if board.is_solved() {
                board.values(out);
                if !sink.accept(out) {
                    return guesses;
                }
            } else {
                if !sink.branch() {
                    return guesses;
                }
                guesses += 1;
                let (band, bit) = board.branch_cell(pairs);
                let mut values = 0u32;
                for (v, &w) in board.f[band].iter().enumerate().take(Board::<W, H>::N) {
                    values |= ((w & bit != 0) as u32) << v;
                }
                // An unsolved cell always has a candidate after `propagate`; an empty set
                // would only mean a dead end.
                if values != 0 {
                    let v = values.trailing_zeros() as usize;
                    values &= values - 1;
                    if values != 0 {
                        stack.push(Frame { board, band, bit, values });
                    }
                    board.assign(band, v, bit);
                    backtrack = false;
                }
            }
        }
        if backtrack {
            let Some(frame) = stack.last_mut() else {
                return guesses;
            };
            let v = frame.values.trailing_zeros() as usize;
            frame.values &= frame.values - 1;
            board = frame.board;
            let (band, bit) = (frame.band, frame.bit);
            if frame.values == 0 {
                stack.pop();
            }
            board.assign(band, v, bit);
        }
    }
}

/// Whether this engine takes a geometry: boxes `width x height` with both in 2..=4, and no
/// diagonals or cages (the caller keeps the classic 9x9 grid for its own engine).
pub(super) fn fits(width: usize, height: usize) -> bool {
    (2..=MAX_K).contains(&width) && (2..=MAX_K).contains(&height)
}

fn search_shape<const W: usize, const H: usize, R: Report>(cells: &[u8], sink: &mut R) -> u64 {
    let n = W * H;
    if cells.len() != n * n || cells.iter().any(|&v| v as usize > n) {
        return 0;
    }
    let mut board = Board::<W, H>::new();
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let (row, col) = (i / n, i % n);
            let band = row / H;
            let bit = 1u64 << ((row % H) * n + col);
            let v = v as usize - 1;
            // Take the cell away from the other values now; the value's own row is cleared
            // by `assign` and the rest follows in `update`.
            for other in (0..n).filter(|&o| o != v) {
                board.f[band][other] &= !bit;
                board.pending |= 1 << (band * 16 + other);
            }
            board.assign(band, v, bit);
        }
    }
    let mut out = vec![0u8; n * n];
    explore(sink, board, &mut out)
}

/// Reports the solutions of a puzzle with `width x height` boxes (see [`fits`]; `cells` in
/// reading order, 0 for blank) to `sink`; returns the number of branch points. A shape this
/// engine does not take, or cells that do not fit it, give no solution.
pub(super) fn search<R: Report>(width: usize, height: usize, cells: &[u8], sink: &mut R) -> u64 {
    match (width, height) {
        (2, 2) => search_shape::<2, 2, R>(cells, sink),
        (2, 3) => search_shape::<2, 3, R>(cells, sink),
        (3, 2) => search_shape::<3, 2, R>(cells, sink),
        (2, 4) => search_shape::<2, 4, R>(cells, sink),
        (4, 2) => search_shape::<4, 2, R>(cells, sink),
        (3, 3) => search_shape::<3, 3, R>(cells, sink),
        (3, 4) => search_shape::<3, 4, R>(cells, sink),
        (4, 3) => search_shape::<4, 3, R>(cells, sink),
        (4, 4) => search_shape::<4, 4, R>(cells, sink),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixteen_by_sixteen_bit_tricks_match_the_loops() {
        type B = Board<4, 4>;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..100_000u32 {
            // xorshift, thinned out so that empty nibbles are common
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = x & (x >> (i % 5)) & (x >> (i % 3));
            assert_eq!(B::mini_rows(a), B::mini_rows_by_loop(a), "{a:#x}");
            let p = a as u16;
            assert_eq!(B::mini_row_cells(p), B::mini_row_cells_by_loop(p), "{p:#x}");
        }
        for a in [0, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001] {
            assert_eq!(B::mini_rows(a), B::mini_rows_by_loop(a), "{a:#x}");
        }
    }

    #[test]
    fn the_permutation_tables_keep_exactly_the_cells_on_permutations() {
        // 4x4 by brute force over the 24 permutations, on every pattern.
        let mut perms = Vec::new();
        for t in 0..256usize {
            let cols = [t & 3, t >> 2 & 3, t >> 4 & 3, t >> 6 & 3];
            if (0..4).all(|c| cols.contains(&c)) {
                perms.push(cols.iter().enumerate().fold(0usize, |m, (r, &c)| m | 1 << (r * 4 + c)));
            }
        }
        assert_eq!(perms.len(), 24);
        for pattern in 0..65536usize {
            let keep = perms.iter().filter(|&&m| pattern & m == m).fold(0, |k, &m| k | m);
            assert_eq!(permutations::<4>(pattern) as usize, keep, "{pattern:#x}");
        }
        for pattern in 0..65536usize {
            let unchanged = UNCHANGED_4[pattern / 64] >> (pattern % 64) & 1 != 0;
            assert_eq!(unchanged, pattern != 0 && PERMUTATIONS_4[pattern] as usize == pattern);
        }
        assert_eq!(permutations::<3>(0x1FF), 0x1FF);
        assert_eq!(permutations::<3>(0b111_000_111), 0);
        assert_eq!(permutations::<2>(0b1001), 0b1001);
        assert_eq!(permutations::<2>(0b0011), 0);
    }
}
