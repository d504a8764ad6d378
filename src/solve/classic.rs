//! The 9x9 engine: per-digit band bitboards.
//!
//! The grid is three horizontal bands of three rows. For each digit `d` and band `b` one 27-bit
//! word says where `d` may still go in that band (bit `row_in_band * 9 + col`), placed cells
//! included. Every rule of the band is then a few word operations:
//!
//! - **Row/box structure.** Within a band, a digit sits once in each row and once in each box,
//!   so the rows and boxes it uses form a 3x3 permutation. Folding the word into its nine
//!   "mini-rows" (row x box: does the digit still fit there?) gives a 9-bit pattern; a table
//!   built at compile time maps it to the mini-rows that belong to at least one permutation that
//!   fits. Masking with that does pointing and claiming (locked candidates in the row
//!   direction), box hidden singles, and finds dead ends (no permutation fits) in one lookup.
//! - **Row singles.** A row of the word with one bit left is a placement: the cell is cleared
//!   from the other eight digits and the column from the digit's other two bands.
//! - **Naked singles and dead cells** come from stacking the nine digit words of a band with
//!   "seen once / twice / three times" masks.
//!
//! Changed words are queued in a 27-bit worklist and processed to a fixpoint. The search then
//! branches on a cell with two candidates (or the fewest), copying the 120-byte state per
//! branch. This is the classic bitboard design of the fast 9x9 solvers (JCZSolve and its
//! descendants), written from the description for this project.

use super::Report;
use super::isa::{self, Isa};

/// Mask of one row of a band word.
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
/// All 27 positions of a band.
const BAND: u32 = (1 << 27) - 1;
/// Bits of column 0 in the three rows of a band; shift left by `col` for other columns.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit row segment, which of its three boxes (bits 0..3) still hold a candidate.
const BOXES_OF_ROW: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 0o7 != 0) as u8)
            | (((x & 0o70 != 0) as u8) << 1)
            | (((x & 0o700 != 0) as u8) << 2);
        x += 1;
    }
    t
};

/// For a 9-bit mini-row pattern (bit `row * 3 + box`), the 27-bit mask of positions in
/// mini-rows that are part of some row-to-box permutation contained in the pattern; 0 when none
/// fits (the digit cannot be placed in this band).
const PERMUTATION_MASK: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] =
        [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut t = [0u32; 512];
    let mut s: usize = 0;
    while s < 512 {
        let mut keep: usize = 0;
        let mut p = 0;
        while p < 6 {
            let m: usize = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if s & m == m {
                keep |= m;
            }
            p += 1;
        }
        let mut mask = 0u32;
        let mut mr = 0;
        while mr < 9 {
            if keep & (1 << mr) != 0 {
                let (row, bx) = (mr / 3, mr % 3);
                mask |= 0b111 << (row * 9 + bx * 3);
            }
            mr += 1;
        }
        t[s] = mask;
        s += 1;
    }
    t
};

/// The same as [`PERMUTATION_MASK`] in 9-bit form: for a 3x3 pattern (bit `row * 3 + col`),
/// the cells that lie on some permutation contained in it.
const PERMUTATION_CELLS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        let m = PERMUTATION_MASK[s];
        let mut out = 0u16;
        let mut cell = 0;
        while cell < 9 {
            if m & (1 << ((cell / 3) * 9 + (cell % 3) * 3)) != 0 {
                out |= 1 << cell;
            }
            cell += 1;
        }
        t[s] = out;
        s += 1;
    }
    t
};

/// The mini-row pattern of a band word.
#[inline(always)]
fn mini_rows(a: u32) -> usize {
    BOXES_OF_ROW[(a & 0x1FF) as usize] as usize
        | (BOXES_OF_ROW[((a >> 9) & 0x1FF) as usize] as usize) << 3
        | (BOXES_OF_ROW[(a >> 18) as usize] as usize) << 6
}

/// A dead end: some digit or cell has no place left.
struct Dead;

#[derive(Clone, Copy)]
pub(super) struct Board {
    /// Candidate positions `f[band][digit]` (digit 0-based).
    f: [[u32; 9]; 3],
    /// Cells of each band not yet placed.
    unsolved: [u32; 3],
    /// Worklist of band words that changed, bit `band * 9 + digit`.
    pending: u32,
    /// Digits whose words changed since their columns were last checked.
    column_pending: u32,
}

impl Board {
    fn new() -> Board {
        Board { f: [[BAND; 9]; 3], unsolved: [BAND; 3], pending: 0, column_pending: 0 }
    }

    /// Fixes `digit` at a band position: the rest of its row is cleared for that digit and the
    /// word queued; the placement itself happens in `update`.
    #[inline(always)]
    fn assign(&mut self, band: usize, digit: usize, bit: u32) {
        let row = ROW[(bit.trailing_zeros() / 9) as usize];
        self.f[band][digit] &= !row | bit;
        self.pending |= 1 << (band * 9 + digit);
    }

    /// Brings one band word to its local fixpoint and spreads new placements.
    #[inline(always)]
    fn update(&mut self, band: usize, digit: usize) -> Result<(), Dead> {
        // One pass is a fixpoint: the permutations that fit the reduced pattern are exactly
        // those that fit the original one.
        let a = self.f[band][digit] & PERMUTATION_MASK[mini_rows(self.f[band][digit])];
        if a == 0 {
            return Err(Dead);
        }
        let mut placed = 0;
        for row in ROW {
            let seg = a & row;
            // Branch-free "keep seg when it has exactly one bit" (seg is never 0 here).
            placed |= seg & ((seg & (seg - 1) == 0) as u32).wrapping_neg();
        }
        self.f[band][digit] = a;
        self.column_pending |= 1 << digit;
        let new = placed & self.unsolved[band];
        if new == 0 {
            return Ok(());
        }
        self.unsolved[band] &= !new;
        // The cells are taken: no other digit may use them. Branch-free over the band's nine
        // consecutive words: these branches would be data-dependent and mispredict often.
        let mut changed = 0u32;
        let words = &mut self.f[band];
        for (d, word) in words.iter_mut().enumerate() {
            let old = *word;
            *word = old & !new;
            changed |= ((old & new != 0) as u32) << d;
        }
        words[digit] = a;
        changed &= !(1 << digit);
        // The columns are taken for this digit in the other two bands.
        let cols = (new | new >> 9 | new >> 18) & 0x1FF;
        let column_mask = cols * COLUMN;
        let mut changed_bands = 0u32;
        for other in 0..3 {
            let clear = if other == band { 0 } else { column_mask };
            let old = self.f[other][digit];
            self.f[other][digit] = old & !clear;
            changed_bands |= ((old & clear != 0) as u32) << (other * 9);
        }
        self.pending |= changed << (band * 9) | changed_bands << digit;
        Ok(())
    }

    /// The column direction for one digit: in each stack of three boxes the digit uses each
    /// column once and each band once, so (column, band) pairs form a permutation too. Pairs on
    /// no fitting permutation are removed: column hidden singles and locked candidates between
    /// boxes stacked vertically.
    #[inline(always)]
    fn update_columns(&mut self, digit: usize) -> Result<(), Dead> {
        let fold = |w: u32| (w | w >> 9 | w >> 18) & 0x1FF;
        let cols = [fold(self.f[0][digit]), fold(self.f[1][digit]), fold(self.f[2][digit])];
        let mut keep = [0u32; 3];
        for stack in 0..3 {
            let shift = stack * 3;
            let pattern = ((cols[0] >> shift) & 7)
                | ((cols[1] >> shift) & 7) << 3
                | ((cols[2] >> shift) & 7) << 6;
            let valid = PERMUTATION_CELLS[pattern as usize] as u32;
            if valid == 0 {
                return Err(Dead);
            }
            keep[0] |= (valid & 7) << shift;
            keep[1] |= ((valid >> 3) & 7) << shift;
            keep[2] |= ((valid >> 6) & 7) << shift;
        }
        for band in 0..3 {
            if keep[band] != cols[band] {
                self.f[band][digit] &= keep[band] * COLUMN;
                self.pending |= 1 << (band * 9 + digit);
            }
        }
        Ok(())
    }

    /// Runs the worklists and naked singles to a fixpoint, with mini-row triads too when
    /// `triads` is set. Returns, per band, the cells with exactly two candidates (for choosing
    /// a branch), or a dead end.
    #[inline(always)]
    fn propagate(&mut self, triads: bool) -> Result<[u32; 3], Dead> {
        loop {
            while self.pending != 0 {
                let i = self.pending.trailing_zeros() as usize;
                self.pending &= self.pending - 1;
                self.update(i / 9, i % 9)?;
                if self.pending == 0 {
                    while self.column_pending != 0 {
                        let d = self.column_pending.trailing_zeros() as usize;
                        self.column_pending &= self.column_pending - 1;
                        self.update_columns(d)?;
                    }
                }
            }
            let mut pairs = [0u32; 3];
            let mut found = false;
            for (band, pair) in pairs.iter_mut().enumerate() {
                let unsolved = self.unsolved[band];
                if unsolved == 0 {
                    continue;
                }
                let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
                for &m in &self.f[band] {
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
                        if let Some(d) = self.f[band].iter().position(|&w| w & bit != 0) {
                            self.assign(band, d, bit);
                        }
                    }
                }
                *pair = unsolved & twice & !thrice;
            }
            if !found {
                if triads && self.triads()? {
                    continue;
                }
                return Ok(pairs);
            }
        }
    }

    /// Mini-row triads: the three cells of a mini-row (one row of one box) hold three different
    /// digits. So at least three digits must fit there; a digit whose row (after the band's
    /// permutation pruning) fits only this box must go there, and at most three can. When
    /// exactly three digits fit, each of them goes there and leaves the rest of the row and the
    /// box; when three digits must go there, no other digit may. Returns whether any word
    /// changed (queued for `update`).
    ///
    /// Mini-columns follow in [`Board::column_triads`]. This finds what the band words alone
    /// miss and cuts guesses (top1465 11.8 to 8.4 a puzzle when run at every node, fewer than
    /// tdoku's 8.9), but it costs more than it saves deep in the tree, so the search runs it
    /// only near the root (see [`TRIAD_DEPTH`]).
    #[inline(always)]
    fn triads(&mut self) -> Result<bool, Dead> {
        let mut changed = false;
        for band in 0..3 {
            if self.unsolved[band] == 0 {
                continue;
            }
            // Per mini-row (bit `row * 3 + box`), how many digits fit (`fit1..fit4`: at least
            // 1..4) and how many must go there (`must1..must4`), counted bit-sliced.
            let (mut fit, mut must) = (AtLeast::default(), AtLeast::default());
            let mut fits = [0u32; 9];
            let mut musts = [0u32; 9];
            for (d, &word) in self.f[band].iter().enumerate() {
                let m = mini_rows(word) as u32;
                let mut q = 0;
                for row in 0..3 {
                    let seg = (m >> (3 * row)) & 7;
                    q |= (seg & ((seg & seg.wrapping_sub(1) == 0) as u32).wrapping_neg())
                        << (3 * row);
                }
                fits[d] = m;
                musts[d] = q;
                fit.add(m);
                must.add(q);
            }
            let (fit_three, must_three) = AtLeast::threes(&fit, &must)?;
            if fit_three | must_three == 0 {
                continue;
            }
            for d in 0..9 {
                let old = self.f[band][d];
                let mut word = old;
                let mut going = fit_three & fits[d] & !musts[d];
                while going != 0 {
                    let k = going.trailing_zeros();
                    going &= going - 1;
                    let (row, bx) = (k / 3, k % 3);
                    let mini = 0b111 << (row * 9 + bx * 3);
                    let box_cells = (0b111 * COLUMN) << (bx * 3);
                    word &= !((ROW[row as usize] | box_cells) & !mini);
                }
                let mut barred = must_three & fits[d] & !musts[d];
                while barred != 0 {
                    let k = barred.trailing_zeros();
                    barred &= barred - 1;
                    word &= !(0b111 << (k / 3 * 9 + k % 3 * 3));
                }
                if word != old {
                    self.f[band][d] = word;
                    self.pending |= 1 << (band * 9 + d);
                    changed = true;
                }
            }
        }
        Ok(self.column_triads()? | changed)
    }

    /// The same for mini-columns (one column of one box): a digit fits a mini-column when its
    /// band word has the column, and must go there when no other band has the column for it.
    /// Exactly three that fit leave the rest of the column and of the box; exactly three that
    /// must bar every other digit.
    #[inline(always)]
    fn column_triads(&mut self) -> Result<bool, Dead> {
        let fold = |w: u32| (w | w >> 9 | w >> 18) & 0x1FF;
        let mut cols = [[0u32; 9]; 3];
        for (band_cols, words) in cols.iter_mut().zip(&self.f) {
            for (c, &w) in band_cols.iter_mut().zip(words) {
                *c = fold(w);
            }
        }
        let mut changed = false;
        for band in 0..3 {
            let (next, last) = ((band + 1) % 3, (band + 2) % 3);
            let (mut fit, mut must) = (AtLeast::default(), AtLeast::default());
            let mut musts = [0u32; 9];
            for d in 0..9 {
                let m = cols[band][d];
                let q = m & !(cols[next][d] | cols[last][d]);
                musts[d] = q;
                fit.add(m);
                must.add(q);
            }
            let (fit_three, must_three) = AtLeast::threes(&fit, &must)?;
            if fit_three | must_three == 0 {
                continue;
            }
            for d in 0..9 {
                let mut going = fit_three & cols[band][d] & !musts[d];
                while going != 0 {
                    let c = going.trailing_zeros();
                    going &= going - 1;
                    let column = COLUMN << c;
                    for other in [next, last] {
                        if self.f[other][d] & column != 0 {
                            self.f[other][d] &= !column;
                            self.pending |= 1 << (other * 9 + d);
                            changed = true;
                        }
                    }
                    let rest_of_box = ((0b111 * COLUMN) << (c / 3 * 3)) & !column;
                    if self.f[band][d] & rest_of_box != 0 {
                        self.f[band][d] &= !rest_of_box;
                        self.pending |= 1 << (band * 9 + d);
                        changed = true;
                    }
                }
                let barred = (must_three & cols[band][d] & !musts[d]) * COLUMN;
                if self.f[band][d] & barred != 0 {
                    self.f[band][d] &= !barred;
                    self.pending |= 1 << (band * 9 + d);
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    fn values(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (band, words) in self.f.iter().enumerate() {
            for (d, &word) in words.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    let p = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out[band * 27 + p] = d as u8 + 1;
                }
            }
        }
        out
    }

    /// The cell to branch on. Among the two-candidate cells, the one whose placement removes
    /// the most candidates from its row, column and box (counting both values): branches that
    /// propagate far end sooner. Measured on the hardest sets this needs about 45% fewer
    /// guesses than taking the first two-candidate cell. Without such a cell, the cell with
    /// the fewest candidates.
    #[inline(always)]
    fn branch_cell(&self, pairs: [u32; 3]) -> (usize, u32) {
        let mut best = (0usize, 0u32, 0u32);
        for (band, &p) in pairs.iter().enumerate() {
            let mut p = p;
            while p != 0 {
                let bit = p & p.wrapping_neg();
                p &= p - 1;
                let score = self.reach(band, bit);
                if score > best.2 {
                    best = (band, bit, score);
                }
            }
        }
        if best.1 != 0 {
            return (best.0, best.1);
        }
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut u = self.unsolved[band];
            while u != 0 {
                let bit = u & u.wrapping_neg();
                u &= u - 1;
                let n = self.f[band].iter().filter(|&&w| w & bit != 0).count() as u32;
                if n < best.2 {
                    best = (band, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// How many candidates placing each of a cell's values would touch in its houses, summed
    /// over its values.
    #[inline(always)]
    fn reach(&self, band: usize, bit: u32) -> u32 {
        let pos = bit.trailing_zeros();
        let (row, col) = ((pos / 9) as usize, pos % 9);
        let column = COLUMN << col;
        let bx = (0b111 * COLUMN) << (col / 3 * 3);
        let same_band = ROW[row] | bx | column;
        let words = &self.f[band];
        let (next, last) = (&self.f[(band + 1) % 3], &self.f[(band + 2) % 3]);
        // Branch-free over all nine digits (masked by whether the cell holds the digit): the
        // compiler keeps it in registers, and vectorises it where the level allows.
        let mut total = 0;
        for d in 0..9 {
            let has = 0u32.wrapping_sub((words[d] & bit != 0) as u32);
            let n = (words[d] & same_band).count_ones()
                + (next[d] & column).count_ones()
                + (last[d] & column).count_ones();
            total += n & has;
        }
        total
    }
}

/// A branch point waiting on the DFS stack: the board before the guess, the cell, and the
/// digits still to try there.
#[derive(Clone, Copy)]
struct Frame {
    board: Board,
    band: usize,
    bit: u32,
    digits: u32,
    /// Branch points above this one.
    depth: u32,
}

/// Nodes this close to the root (the root and its children) also run
/// [`Board::triads`]: a deduction there prunes the whole tree below, while deeper the pass
/// costs more than the guesses it saves. Measured in guesses a puzzle (every node / here /
/// never): top1465 8.4 / 9.6 / 11.8, 17-clue 0.58 / 0.66 / 0.82, hardest 1106 119 / 134 /
/// 135, hardest 1905 11+ 77 / 83 / 83.
const TRIAD_DEPTH: u32 = 2;

/// Depth-first search from `board` with an explicit stack (one frame per open branch point,
/// at most one per cell). Tries a cell's digits in increasing order, so solutions come in the
/// same order as a recursive search would find them. Returns the number of branch points.
#[inline(always)]
pub(super) fn explore<R: Report>(sink: &mut R, mut board: Board) -> u64 {
    let mut stack: Vec<Frame> = Vec::new();
    let mut guesses = 0u64;
    let mut depth = 0u32;
    loop {
        let mut backtrack = true;
        if let Ok(pairs) = board.propagate(depth < TRIAD_DEPTH) {
            if board.is_solved() {
                if !sink.accept(&board.values()) {
                    return guesses;
                }
            } else {
                guesses += 1;
                let (band, bit) = board.branch_cell(pairs);
                let mut digits = 0u32;
                for (d, &w) in board.f[band].iter().enumerate() {
                    digits |= ((w & bit != 0) as u32) << d;
                }
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if digits != 0 {
                    stack.push(Frame { board, band, bit, digits, depth });
                }
                depth += 1;
                board.assign(band, d, bit);
                backtrack = false;
            }
        }
        if backtrack {
            let Some(frame) = stack.last_mut() else {
                return guesses;
            };
            let d = frame.digits.trailing_zeros() as usize;
            frame.digits &= frame.digits - 1;
            board = frame.board;
            let (band, bit) = (frame.band, frame.bit);
            depth = frame.depth + 1;
            if frame.digits == 0 {
                stack.pop();
            }
            board.assign(band, d, bit);
        }
    }
}

/// Reports solutions of a classic 9x9 puzzle (81 values in reading order, 0 for blank, every
/// value at most 9) to `sink`, searching with the instructions of `isa` (see [`isa`]); returns
/// the number of branch points.
pub(super) fn search<R: Report>(cells: &[u8; 81], sink: &mut R, isa: Isa) -> u64 {
    let mut board = Board::new();
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let band = i / 27;
            let bit = 1 << (i % 27);
            let d = v as usize - 1;
            // Take the cell away from the other digits now; the digit's own row is cleared by
            // `assign` and the rest follows in `update`.
            for other in (0..9).filter(|&o| o != d) {
                board.f[band][other] &= !bit;
                board.pending |= 1 << (band * 9 + other);
            }
            board.assign(band, d, bit);
        }
    }
    isa::classic(isa, sink, board)
}

/// Bit-sliced counters over nine bits (one per mini-row or mini-column): after adding words,
/// `one`..`four` hold the bits set in at least one..four of them.
#[derive(Clone, Copy, Default)]
struct AtLeast {
    one: u32,
    two: u32,
    three: u32,
    four: u32,
}

impl AtLeast {
    #[inline(always)]
    fn add(&mut self, word: u32) {
        self.four |= self.three & word;
        self.three |= self.two & word;
        self.two |= self.one & word;
        self.one |= word;
    }

    /// For the nine mini-lines of a band, counted over the digits that fit each (`fit`) and
    /// that must go there (`must`): dead when a mini-line has fewer than three digits that fit or
    /// more than three that must; else the mini-lines with exactly three of each.
    #[inline(always)]
    fn threes(fit: &AtLeast, must: &AtLeast) -> Result<(u32, u32), Dead> {
        if fit.three != 0x1FF || must.four != 0 {
            return Err(Dead);
        }
        Ok((fit.three & !fit.four, must.three & !must.four))
    }
}
