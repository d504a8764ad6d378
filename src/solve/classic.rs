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
//!   "seen once / twice" masks.
//! - **Column direction.** In each stack a digit's (band, column) pairs form a permutation too
//!   (see [`Board::update_columns`]).
//! - **Triads.** A mini-row (one row of one box) or mini-column has three cells, so exactly three
//!   digits go there: counted bit-sliced over the whole grid at once (see [`Board::triads`]).
//!
//! The givens' direct eliminations are written at once ([`Board::from_givens`]); then changed
//! words are queued in a 27-bit worklist and processed to a fixpoint. The search then
//! branches on where a digit goes in a band or stack (which of the permutations row -> box, or
//! band -> column, that still fit), copying the 120-byte state per branch. The band words are
//! the classic bitboard design of the fast 9x9 solvers (JCZSolve and its descendants); the
//! triads and the band/digit branch follow the description of tdoku's technique. All written
//! from the descriptions for this project.
//!
//! Puzzles with many givens ([`MANY_GIVENS`]) are searched with cheaper nodes: no column
//! direction, no triads, and a branch on the first cell with two candidates (see [`run`]).
//! Both searches find the same solutions; the tests check it.

use std::cell::Cell;

use super::Report;
use super::isa::Gather;

/// Mask of one row of a band word.
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
/// All 27 positions of a band.
const BAND: u32 = (1 << 27) - 1;
/// Bits of column 0 in the three rows of a band; shift left by `col` for other columns.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;
/// Bit 3k: the first cell of mini-row k of a band word.
pub(super) const SPREAD: u32 = 0o111_111_111;

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

/// The six permutations of three: `PERMS[p][row]` is the column (box) of that row. Number
/// `3 * parity + x` maps row 0 to x, and rows 1 and 2 to the next two columns after x, in
/// order for parity 0 and swapped for parity 1 (see [`Lines::perms`]).
const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [1, 0, 2], [2, 1, 0]];

/// For each permutation, the 27-bit band mask of its three mini-rows.
const PERM_MINI_ROWS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let mut row = 0;
        while row < 3 {
            t[p] |= 0b111 << (row * 9 + PERMS[p][row] * 3);
            row += 1;
        }
        p += 1;
    }
    t
};

/// For each byte, a word whose byte j is bit j of it (0 or 1).
static SPREAD_BYTES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b] |= ((b as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        b += 1;
    }
    t
};

/// The mini-row pattern of a band word, by table: the portable [`Gather`].
pub(super) struct Tables;

impl Gather for Tables {
    #[inline(always)]
    fn mini_rows(a: u32) -> usize {
        mini_rows(a)
    }
}

/// The mini-row pattern of a band word (bit `row * 3 + box`): which of its nine mini-rows still
/// hold a candidate.
#[inline(always)]
fn mini_rows(a: u32) -> usize {
    BOXES_OF_ROW[(a & 0x1FF) as usize] as usize
        | (BOXES_OF_ROW[((a >> 9) & 0x1FF) as usize] as usize) << 3
        | (BOXES_OF_ROW[(a >> 18) as usize] as usize) << 6
}

/// The columns (bits 0-8) where a band word has a cell.
#[inline(always)]
fn fold(w: u32) -> u32 {
    (w | w >> 9 | w >> 18) & 0x1FF
}

/// A dead end: some digit or cell has no place left.
struct Dead;

#[derive(Clone, Copy)]
struct Board {
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

    /// Brings one band word (worklist index `band * 9 + digit`) to its local fixpoint and
    /// spreads new placements.
    #[inline(always)]
    fn update<G: Gather>(&mut self, i: usize) -> Result<(), Dead> {
        // The word is read at its worklist index (`band * 9 + digit` is its place in `f`), so
        // the load does not wait for the division that splits the index.
        let (band, digit) = (i / 9, i % 9);
        let w = self.f.as_flattened()[i];
        // One pass is a fixpoint: the permutations that fit the reduced pattern are exactly
        // those that fit the original one.
        let a = w & PERMUTATION_MASK[G::mini_rows(w) & 0x1FF];
        if a == 0 {
            return Err(Dead);
        }
        let mut placed = 0;
        for row in ROW {
            let seg = a & row;
            // Branch-free "keep seg when it has exactly one bit" (seg is never 0 here).
            placed |= seg & ((seg & (seg - 1) == 0) as u32).wrapping_neg();
        }
        self.column_pending |= 1 << digit;
        let new = placed & self.unsolved[band];
        if new == 0 {
            self.f[band][digit] = a;
            return Ok(());
        }
        self.unsolved[band] &= !new;
        // The cells are taken: no other digit may use them. Branch-free over the band's nine
        // consecutive words: these branches would be data-dependent and mispredict often.
        // `a` is stored after this loop, not before: a word stored alone just before the loop's
        // wide loads of the same words would stall them (no store forwarding into a wider load).
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

    /// Runs the worklists, naked singles and triads to a fixpoint, or finds a dead end. At the
    /// fixpoint `lines` holds the board's mini-lines (from the last, fruitless, triad pass).
    /// `FULL` false leaves out the column direction and the triads (see [`run`]): the words
    /// then reach a weaker fixpoint, and `lines` is left as it was.
    #[inline(always)]
    fn propagate<G: Gather, const FULL: bool>(&mut self, lines: &mut Lines) -> Result<(), Dead> {
        loop {
            while self.pending != 0 {
                let i = self.pending.trailing_zeros() as usize;
                self.pending &= self.pending - 1;
                self.update::<G>(i)?;
                if FULL && self.pending == 0 {
                    while self.column_pending != 0 {
                        let d = self.column_pending.trailing_zeros() as usize;
                        self.column_pending &= self.column_pending - 1;
                        self.update_columns(d)?;
                    }
                }
            }
            let mut found = false;
            for band in 0..3 {
                let unsolved = self.unsolved[band];
                if unsolved == 0 {
                    continue;
                }
                let (mut once, mut twice) = (0u32, 0u32);
                for &m in &self.f[band] {
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
            }
            if !found && (!FULL || !self.triads(lines)?) {
                return Ok(());
            }
        }
    }

    /// Triads: the three cells of a mini-row (one row of one box) or mini-column hold three
    /// different digits. A digit fits a mini-row when its band word has a cell there, and must
    /// go there when its row (at the band's fixpoint) fits no other box; it fits a mini-column
    /// when the band word has the column, and must go there when no other band has the column
    /// for it. So every mini-line needs at least three digits that fit and at most three that
    /// must: else a dead end. Exactly three that fit (not all yet bound) must all go there,
    /// each leaving the rest of its row (column) and box; exactly three that must bar every
    /// other digit. Returns whether any word changed (queued for `update`).
    ///
    /// Every mini-line of the grid is counted at once, bit-sliced over the nine digits: per
    /// digit one word holds its 27 mini-rows (bit `3 * (row * 3 + box) + band`) and one its 27
    /// mini-columns (bit `9 * band + column`), both in one u64. No branches per band or digit,
    /// so it vectorises where the level allows. This finds what the band words alone miss and
    /// cuts guesses (hardest 1106 134 to 110 a puzzle with the band/digit branch).
    #[inline(always)]
    fn triads(&mut self, lines: &mut Lines) -> Result<bool, Dead> {
        // Per 9-bit row of the packed mini-row word: the positions of boxes 1-2, box 0, box 2
        // and boxes 0-1, for rotating the three boxes of a row.
        const HI3: u32 = 0x1F8 * COLUMN;
        const LO3: u32 = 0x7 * COLUMN;
        const HI6: u32 = 0x1C0 * COLUMN;
        const LO6: u32 = 0x3F * COLUMN;
        lines.fill(self);
        let Lines { rows, cols } = lines;
        let mut row_musts = [0u32; 9];
        let mut col_musts = [0u32; 9];
        for d in 0..9 {
            let (r, c) = (rows[d], cols[d]);
            // The same mini-row in the other two boxes of its row; the same column in the other
            // two bands.
            let other_boxes =
                ((r << 3) & HI3) | ((r >> 6) & LO3) | ((r << 6) & HI6) | ((r >> 3) & LO6);
            let other_bands = ((c << 9) | (c >> 18) | (c << 18) | (c >> 9)) & BAND;
            row_musts[d] = r & !other_boxes;
            col_musts[d] = c & !other_bands;
        }
        let (mut fit, mut must) = (AtLeast::default(), AtLeast::default());
        for d in 0..9 {
            fit.add(rows[d] as u64 | (cols[d] as u64) << 32);
            must.add(row_musts[d] as u64 | (col_musts[d] as u64) << 32);
        }
        const ALL: u64 = BAND as u64 | (BAND as u64) << 32;
        if fit.three != ALL || must.four != 0 {
            return Err(Dead);
        }
        let going = fit.three & !fit.four & !must.three;
        let barring = must.three & fit.four;
        if going | barring == 0 {
            return Ok(false);
        }
        let mut changed = 0u32;
        for d in 0..9 {
            // The mini-lines this digit newly goes to, or is barred from.
            let go_r = going as u32 & rows[d] & !row_musts[d];
            let bar_r = barring as u32 & rows[d] & !row_musts[d];
            let go_c = (going >> 32) as u32 & cols[d] & !col_musts[d];
            let bar_c = (barring >> 32) as u32 & cols[d] & !col_musts[d];
            let any_band_cols = (go_c | go_c >> 9 | go_c >> 18) & 0x1FF;
            for band in 0..3 {
                // Mini-rows: the rest of the row and of the box go.
                let g = (go_r >> band) & SPREAD;
                let minis = g * 7;
                let row_mask = ((g | g >> 3 | g >> 6) & COLUMN) * 0x1FF;
                let box_mask = (((g | g >> 9 | g >> 18) & 0o111) * 7) * COLUMN;
                let barred_minis = ((bar_r >> band) & SPREAD) * 7;
                // Mini-columns: the column in the other bands and the rest of the box go.
                let gc = (go_c >> (9 * band)) & 0x1FF;
                let stack_cols = ((gc | gc >> 1 | gc >> 2) & 0o111) * 7;
                let barred_cols = (bar_c >> (9 * band)) & 0x1FF;
                let clear = ((row_mask | box_mask) & !minis)
                    | barred_minis
                    | (((any_band_cols | stack_cols | barred_cols) & !gc) * COLUMN);
                let old = self.f[band][d];
                let word = old & !clear;
                self.f[band][d] = word;
                changed |= ((word != old) as u32) << (band * 9 + d);
            }
        }
        self.pending |= changed;
        Ok(changed != 0)
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The first open cell (band by band, in bit order) with two candidates: which of its two
    /// digits goes there.
    #[inline(always)]
    fn two_candidates(&self) -> Option<Branch> {
        for (band, words) in self.f.iter().enumerate() {
            let mut seen = AtLeast::default();
            for &m in words {
                seen.add(m.into());
            }
            let two = self.unsolved[band] & (seen.two & !seen.three) as u32;
            if two != 0 {
                let bit = two & two.wrapping_neg();
                let mut alts = 0;
                for (d, &m) in words.iter().enumerate() {
                    alts |= ((m & bit != 0) as u32) << d;
                }
                return Some(Branch { kind: Kind::Cell(bit), at: band, digit: 0, alts });
            }
        }
        None
    }

    /// Cells not yet placed.
    fn open_cells(&self) -> u32 {
        self.unsolved.iter().map(|u| u.count_ones()).sum()
    }

    #[inline(always)]
    fn values(&self) -> [u8; 81] {
        // Bit k of every cell's value as an 81-bit plane, then eight cells at a time spread
        // into bytes by a table: no loop over each digit's cells (every solution is written
        // out, two a puzzle on sets with several solutions).
        let mut planes = [0u128; 4];
        for (band, words) in self.f.iter().enumerate() {
            for (d, &word) in words.iter().enumerate() {
                let v = d + 1;
                for (k, plane) in planes.iter_mut().enumerate() {
                    if v >> k & 1 == 1 {
                        *plane |= (word as u128) << (27 * band);
                    }
                }
            }
        }
        let mut out = [0u8; 88];
        for (c, chunk) in out.chunks_exact_mut(8).enumerate() {
            let mut x = 0u64;
            for (k, &plane) in planes.iter().enumerate() {
                x |= SPREAD_BYTES[(plane >> (8 * c)) as u8 as usize] << k;
            }
            chunk.copy_from_slice(&x.to_le_bytes());
        }
        let mut values = [0u8; 81];
        values.copy_from_slice(&out[..81]);
        values
    }
}

/// A branch, with the alternatives still to try in `alts` (lowest bit first).
#[derive(Clone, Copy)]
struct Branch {
    kind: Kind,
    /// The band or stack.
    at: usize,
    /// The digit whose permutation is chosen (unused for a cell).
    digit: usize,
    /// Bit `p` for [`PERMS`]`[p]`, or for a cell bit `d` for digit `d` (0-based).
    alts: u32,
}

/// What a [`Branch`] chooses.
#[derive(Clone, Copy)]
enum Kind {
    /// Where the digit goes in band `at`: a permutation row -> box of its mini-rows.
    Band,
    /// Where the digit goes in stack `at`: a permutation band -> column.
    Stack,
    /// Which digit goes in a cell of band `at` (the cell's bit in the band word).
    Cell(u32),
}

impl Branch {
    /// Restricts the digit to permutation `p` in the band or stack, or puts digit `p` in the
    /// cell.
    #[inline(always)]
    fn apply(&self, board: &mut Board, p: usize) {
        let d = self.digit;
        match self.kind {
            Kind::Stack => {
                for (band, &col) in PERMS[p].iter().enumerate() {
                    let others = 7 ^ (1u32 << col);
                    board.f[band][d] &= !((others << (3 * self.at)) * COLUMN);
                    board.pending |= 1 << (band * 9 + d);
                }
            }
            Kind::Band => {
                board.f[self.at][d] &= PERM_MINI_ROWS[p];
                board.pending |= 1 << (self.at * 9 + d);
            }
            Kind::Cell(bit) => board.assign(self.at, p, bit),
        }
    }
}

/// A branch point waiting on the DFS stack: the board before the guess, and what is left to
/// try.
#[derive(Clone, Copy)]
struct Frame {
    board: Board,
    branch: Branch,
}

/// Which bits of a digit's permutation word ([`Lines::perms`], rows low and columns high) belong
/// to each band (bit `9 * parity + 3 * x + band`) and each stack (bit `32 + 9 * parity + 3 *
/// stack + x`).
const BRANCH_MASKS: [u64; 6] =
    [0o111_111, 0o111_111 << 1, 0o111_111 << 2, 0o7_007 << 32, 0o7_007 << 35, 0o7_007 << 38];

/// Where each digit may still go, folded: per digit its 27 mini-rows (bit
/// `3 * (row * 3 + box) + band`) and its 27 mini-columns (bit `9 * band + column`).
#[derive(Clone, Copy, Default)]
struct Lines {
    rows: [u32; 9],
    cols: [u32; 9],
}

impl Lines {
    /// The mini-lines of every digit on `board`.
    #[inline(always)]
    fn fill(&mut self, board: &Board) {
        for d in 0..9 {
            let (w0, w1, w2) = (board.f[0][d], board.f[1][d], board.f[2][d]);
            self.rows[d] = ((w0 | w0 >> 1 | w0 >> 2) & SPREAD)
                | ((w1 | w1 >> 1 | w1 >> 2) & SPREAD) << 1
                | ((w2 | w2 >> 1 | w2 >> 2) & SPREAD) << 2;
            self.cols[d] = fold(w0) | fold(w1) << 9 | fold(w2) << 18;
        }
    }

    /// For one digit, which permutations still fit each band (row -> box) and each stack
    /// (band -> column): bit `9 * parity + 3 * x + band` and bit `9 * parity + 3 * stack + x`
    /// for permutation `3 * parity + x` of [`PERMS`]. Row (band) 0 goes to x when its
    /// mini-line there fits, and so on: three ANDs of rotated words per parity.
    #[inline(always)]
    fn perms(&self, d: usize) -> (u32, u32) {
        // Mini-rows: row r of every band in bits 9r.. (bit 3 * box + band); rotating the boxes
        // moves whole groups of three bits.
        let r = self.rows[d];
        let (a, b, c) = (r & 0x1FF, (r >> 9) & 0x1FF, r >> 18);
        let next = |x: u32| ((x >> 3) | (x << 6)) & 0x1FF;
        let after = |x: u32| ((x >> 6) | (x << 3)) & 0x1FF;
        let rows = (a & next(b) & after(c)) | (a & after(b) & next(c)) << 9;
        // Mini-columns: band i in bits 9i.. (bit 3 * stack + j); rotating j inside each stack.
        let k = self.cols[d];
        let (a, b, c) = (k & 0x1FF, (k >> 9) & 0x1FF, k >> 18);
        let next = |x: u32| ((x >> 1) & 0o333) | ((x << 2) & 0o444);
        let after = |x: u32| ((x >> 2) & 0o111) | ((x << 1) & 0o666);
        let cols = (a & next(b) & after(c)) | (a & after(b) & next(c)) << 9;
        (rows, cols)
    }

    /// The branch: of the three bands and three stacks not yet fixed (more than one
    /// permutation left for some digit), the one with the fewest permutations left over its
    /// nine digits; in it the first digit with two permutations, else three, else the fewest.
    /// Measured in guesses a puzzle against the two-candidate cell with the most reach (both
    /// with triads at every node): hardest 1106 110 / 120, 1905 11+ 61 / 77, top1465 8.8 / 8.4.
    #[inline(always)]
    fn branch(&self) -> Option<Branch> {
        // Per digit its permutations, bands in the low word and stacks in the high one; a band's
        // or stack's count is then one masked popcount (no per-digit sets are built: on the
        // serg set, which branches seven times a puzzle, building them cost 15% of the time).
        let mut words = [0u64; 9];
        for (d, word) in words.iter_mut().enumerate() {
            let (rows, cols) = self.perms(d);
            *word = rows as u64 | (cols as u64) << 32;
        }
        let mut totals = [0u32; 6];
        for (total, &mask) in totals.iter_mut().zip(&BRANCH_MASKS) {
            *total = words.iter().map(|w| (w & mask).count_ones()).sum();
        }
        // An unsolved board at its fixpoint has some band with a digit of two permutations or
        // more: its total is above 9 (with one each, every digit's cells would be fixed). None
        // is a dead end, should that ever not hold.
        let mut best = 0;
        let mut best_total = u32::MAX;
        for (i, &t) in totals.iter().enumerate() {
            if t > 9 && t < best_total {
                best = i;
                best_total = t;
            }
        }
        if best_total == u32::MAX {
            return None;
        }
        let mask = BRANCH_MASKS[best];
        let mut pick = 0;
        let mut pick_n = u32::MAX;
        for (d, &w) in words.iter().enumerate() {
            let n = (w & mask).count_ones();
            if n >= 2 && n < pick_n {
                pick = d;
                pick_n = n;
                if n == 2 {
                    break;
                }
            }
        }
        // The picked digit's permutations there as a 6-bit set, bit `3 * parity + x`.
        let w = words[pick];
        let alts = if best < 3 {
            let x = (w as u32) >> best;
            (x & 1) | (x >> 2 & 2) | (x >> 4 & 4) | (x >> 6 & 8) | (x >> 8 & 16) | (x >> 10 & 32)
        } else {
            let y = (w >> 32) as u32 >> (3 * (best - 3));
            (y & 7) | (y >> 6 & 0o70)
        };
        let kind = if best < 3 { Kind::Band } else { Kind::Stack };
        Some(Branch { kind, at: best % 3, digit: pick, alts })
    }
}

/// Depth-first search from `board` with an explicit stack (one frame per open branch point).
/// Tries a branch's permutations in a fixed order, so solutions come in the same order every
/// time. Returns the number of branch points.
#[inline(always)]
fn explore<R: Report, G: Gather, const FULL: bool>(sink: &mut R, board: Board) -> u64 {
    // The stack's memory is kept per thread between puzzles: an allocation and its growth per
    // puzzle cost about 3% of the serg set (puzzles with several solutions, seven guesses each).
    thread_local! {
        static STACK: Cell<Vec<Frame>> = const { Cell::new(Vec::new()) };
    }
    let mut stack = STACK.take();
    stack.clear();
    let guesses = search::<R, G, FULL>(sink, board, &mut stack);
    STACK.set(stack);
    guesses
}

/// Where to branch on a board at its fixpoint: with the full rules the band or stack and digit
/// of [`Lines::branch`] (`lines` is then already filled); with the cheap ones the first cell
/// with two candidates (as the JCZSolve family of solvers does), else that band or stack.
/// The cell is cheaper to find, and with the weaker propagation it also needed fewer guesses:
/// on the serg set 6.8 a puzzle against 7.5.
#[inline(always)]
fn next_branch<const FULL: bool>(board: &Board, lines: &mut Lines) -> Option<Branch> {
    if FULL {
        return lines.branch();
    }
    board.two_candidates().or_else(|| {
        lines.fill(board);
        lines.branch()
    })
}

/// [`explore`] on a given (empty) stack.
#[inline(always)]
fn search<R: Report, G: Gather, const FULL: bool>(
    sink: &mut R,
    mut board: Board,
    stack: &mut Vec<Frame>,
) -> u64 {
    let mut guesses = 0u64;
    let mut lines = Lines::default();
    loop {
        let mut backtrack = true;
        if board.propagate::<G, FULL>(&mut lines).is_ok() {
            if board.is_solved() {
                if !sink.accept(&board.values()) {
                    return guesses;
                }
            } else if let Some(mut branch) = next_branch::<FULL>(&board, &mut lines) {
                guesses += 1;
                let p = branch.alts.trailing_zeros() as usize;
                branch.alts &= branch.alts - 1;
                if branch.alts != 0 {
                    stack.push(Frame { board, branch });
                }
                branch.apply(&mut board, p);
                backtrack = false;
            }
        }
        if backtrack {
            let Some(frame) = stack.last_mut() else {
                return guesses;
            };
            let p = frame.branch.alts.trailing_zeros() as usize;
            frame.branch.alts &= frame.branch.alts - 1;
            board = frame.board;
            let branch = frame.branch;
            if frame.branch.alts == 0 {
                stack.pop();
            }
            branch.apply(&mut board, p);
        }
    }
}

/// Puzzles with this many givens or more are searched without the column direction and the
/// triads, branching on a two-candidate cell ([`next_branch`]): there the band words alone leave
/// little to find, and a cheaper node beats the guesses those rules save. Measured (in-process,
/// both ways, 2026-11-27) on puzzles made from 4,000 17-clue puzzles with solution cells added at
/// random (unique) and ones kept as random cells of the solution (mostly several solutions):
/// from 26 givens up the cheap search was 5-10% faster on the unique ones and 20-47% on the
/// others; at 22 the unique ones were 11% slower. On the hard benchmark sets it is 3-7 times
/// slower; they have at most 28 givens (one puzzle of 48,766 has 37: 6% slower the cheap way).
const MANY_GIVENS: u32 = 30;

/// The board of the givens, then the search (compiled once per level in [`isa`], the givens'
/// board included): the full rules below [`MANY_GIVENS`], the cheaper ones from there.
#[inline(always)]
pub(super) fn run<R: Report, G: Gather>(sink: &mut R, cells: &[u8; 81]) -> u64 {
    match Board::from_givens(cells) {
        Some(board) if board.open_cells() > 81 - MANY_GIVENS => explore::<R, G, true>(sink, board),
        Some(board) => explore::<R, G, false>(sink, board),
        None => 0,
    }
}

impl Board {
    /// The board of the givens with their direct eliminations done at once (each given's cell
    /// taken from the other digits, its row, box and column from its digit), every word queued
    /// for `update`. Placing the givens one by one through `update` reaches the same fixpoint
    /// but re-queues the words of a band at every given. `None` when two givens of a digit
    /// share a house (no solution). Values are 0 (empty) to 9: both callers check.
    #[inline(always)]
    fn from_givens(cells: &[u8; 81]) -> Option<Board> {
        // Per digit, per band, without a branch per cell (whether a cell is given is data: a
        // branch on it mispredicted about half the time). Bit k of every cell's value, as four
        // 81-bit planes gathered eight cells at a time; a digit's cells are where the planes
        // spell it.
        let mut bytes = [0u8; 88];
        bytes[..81].copy_from_slice(cells);
        let mut planes = [0u128; 4];
        for (c, chunk) in bytes.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(chunk.try_into().expect("chunks of 8"));
            for (k, plane) in planes.iter_mut().enumerate() {
                // The low bit of each byte, gathered into the top byte (no two partial
                // products meet, so nothing carries into it).
                let low = (x >> k) & 0x0101_0101_0101_0101;
                *plane |= ((low.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u128) << (8 * c);
            }
        }
        let band_of = |m: u128, band: usize| (m >> (27 * band)) as u32 & BAND;
        let mut given = [[0u32; 3]; 9];
        for (d, bands) in given.iter_mut().enumerate() {
            let v = d + 1;
            let mut m = u128::MAX;
            for (k, &plane) in planes.iter().enumerate() {
                m &= if v >> k & 1 == 1 { plane } else { !plane };
            }
            *bands = [0, 1, 2].map(|band| band_of(m, band));
        }
        let several = |x: u32| x & x.wrapping_sub(1) != 0;
        let mut taken = [0u32; 3];
        for bands in &given {
            for (t, &g) in taken.iter_mut().zip(bands) {
                *t |= g;
            }
        }
        let mut board = Board::new();
        for (d, bands) in given.iter().enumerate() {
            let cols = bands.map(fold);
            if cols[0] & cols[1] | cols[0] & cols[2] | cols[1] & cols[2] != 0 {
                return None;
            }
            let column_mask = (cols[0] | cols[1] | cols[2]) * COLUMN;
            for (band, &g) in bands.iter().enumerate() {
                let mut peers = column_mask;
                for row in ROW {
                    if several(g & row) {
                        return None;
                    }
                    if g & row != 0 {
                        peers |= row;
                    }
                }
                for stack in 0..3 {
                    let box_cells = (0b111 * COLUMN) << (3 * stack);
                    if several(g & box_cells) {
                        return None;
                    }
                    if g & box_cells != 0 {
                        peers |= box_cells;
                    }
                }
                board.f[band][d] = (BAND & !taken[band] & !peers) | g;
            }
        }
        for (u, t) in board.unsolved.iter_mut().zip(taken) {
            *u = BAND & !t;
        }
        board.pending = (1 << 27) - 1;
        Some(board)
    }
}

/// Bit-sliced counters over 64 bits (the mini-rows and mini-columns of the grid, or the cells
/// of a band): after adding words, `one`..`four` hold the bits set in at least one..four of
/// them.
#[derive(Clone, Copy, Default)]
struct AtLeast {
    one: u64,
    two: u64,
    three: u64,
    four: u64,
}

impl AtLeast {
    #[inline(always)]
    fn add(&mut self, word: u64) {
        self.four |= self.three & word;
        self.three |= self.two & word;
        self.two |= self.one & word;
        self.one |= word;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every solution, up to a limit.
    struct Collect {
        limit: usize,
        solutions: Vec<[u8; 81]>,
    }

    impl Report for Collect {
        fn accept(&mut self, values: &[u8]) -> bool {
            self.solutions.push(values.try_into().expect("81 values"));
            self.solutions.len() < self.limit
        }
    }

    fn search_with<const FULL: bool>(cells: &[u8; 81], limit: usize) -> Vec<[u8; 81]> {
        let mut sink = Collect { limit, solutions: Vec::new() };
        if let Some(board) = Board::from_givens(cells) {
            explore::<_, Tables, FULL>(&mut sink, board);
        }
        sink.solutions
    }

    fn is_solution(values: &[u8; 81], givens: &[u8; 81]) -> bool {
        let house_ok = |cells: &mut dyn Iterator<Item = usize>| {
            let mut seen = 0u32;
            for i in cells {
                seen |= 1 << values[i];
            }
            seen == 0b11_1111_1110
        };
        (0..81).all(|i| givens[i] == 0 || givens[i] == values[i])
            && (0..9).all(|k| {
                house_ok(&mut (0..9).map(|j| k * 9 + j))
                    && house_ok(&mut (0..9).map(|j| j * 9 + k))
                    && house_ok(&mut (0..9).map(|j| (k / 3 * 3 + j / 3) * 9 + k % 3 * 3 + j % 3))
            })
    }

    /// The cheap rules (from [`MANY_GIVENS`] up) and the full ones find the same solutions, on
    /// puzzles of 18 to 45 givens cut from one grid (unique ones, and ones with 50 solutions or more).
    #[test]
    fn the_cheap_and_the_full_search_find_the_same_solutions() {
        let grid: Vec<u8> =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .bytes()
                .map(|b| b - b'0')
                .collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut several, mut unique) = (0, 0);
        for givens in 18..=45 {
            for _ in 0..8 {
                let mut order: Vec<usize> = (0..81).collect();
                for i in (1..81).rev() {
                    order.swap(i, (next() % (i as u64 + 1)) as usize);
                }
                let mut cells = [0u8; 81];
                for &i in &order[..givens] {
                    cells[i] = grid[i];
                }
                let mut full = search_with::<true>(&cells, 50);
                let mut cheap = search_with::<false>(&cells, 50);
                assert!(!full.is_empty(), "the grid itself solves every puzzle cut from it");
                assert_eq!(full.len(), cheap.len(), "{givens} givens: solutions found");
                for s in full.iter().chain(&cheap) {
                    assert!(is_solution(s, &cells), "{givens} givens: {s:?} is not a solution");
                }
                if full.len() < 50 {
                    // Every solution was found: the same set, whatever the order.
                    full.sort_unstable();
                    cheap.sort_unstable();
                    assert_eq!(full, cheap, "{givens} givens: the solutions");
                }
                if full.len() > 1 { several += 1 } else { unique += 1 }
            }
        }
        assert!(several > 100 && unique > 30, "{several} with several solutions, {unique} unique");
    }
}
