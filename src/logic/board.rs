//! The candidate grid every technique works on: the value of each solved cell, the candidates of
//! each open cell, and for every house and value the places left for that value, all kept in step
//! by [`Board::place`] and [`Board::eliminate`].
//!
//! Masks hold values as bits: value `v` is bit `v - 1` (sides go up to 36, so a `u64` holds a
//! cell's candidates and a house's positions). Houses are numbered as the geometry lists them:
//! rows `0..N`, columns `N..2N`, regions `2N..3N`, then the main diagonal and the anti-diagonal of
//! an X puzzle.

use std::sync::{Arc, Mutex};

use crate::grid::{Cell, Conflict, Geometry, Grid, HouseKind};

/// The bit of value `v` (1-based) in a mask.
#[inline]
pub fn bit(v: u8) -> u64 {
    1u64 << (v - 1)
}

/// The values of a mask, ascending.
pub fn values(mask: u64) -> impl Iterator<Item = u8> + Clone {
    Bits(mask).map(|b| b as u8 + 1)
}

/// The set bits of a mask, ascending (0-based).
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// The houses a cell lies in, with its position inside each.
#[derive(Clone, Copy, Debug, Default)]
struct CellHouses {
    count: u8,
    house: [u16; 5],
    at: [u8; 5],
}

/// Everything about a geometry that the techniques look up: houses as index lists, the houses
/// of each cell, peers. Built once per geometry and shared.
#[derive(Debug)]
pub struct Layout {
    geometry: Arc<Geometry>,
    side: usize,
    houses: Vec<Vec<u16>>,
    kinds: Vec<HouseKind>,
    of_cell: Vec<CellHouses>,
    peers: Vec<Vec<u16>>,
    /// Row, column, region of each cell, and its diagonal bits (1 main, 2 anti; 0 without X).
    rcb: Vec<[u8; 4]>,
}

impl Layout {
    /// The layout of a geometry, built once per geometry and shared (a small cache keeps the
    /// last few).
    pub fn of(geometry: &Arc<Geometry>) -> Arc<Layout> {
        static CACHE: Mutex<Vec<Arc<Layout>>> = Mutex::new(Vec::new());
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) =
            cache.iter().find(|l| Arc::ptr_eq(&l.geometry, geometry) || *l.geometry == **geometry)
        {
            return found.clone();
        }
        let layout = Arc::new(Layout::build(geometry.clone()));
        if cache.len() >= 8 {
            cache.remove(0);
        }
        cache.push(layout.clone());
        layout
    }

    fn build(geometry: Arc<Geometry>) -> Layout {
        let side = geometry.side();
        let n = side * side;
        let houses: Vec<Vec<u16>> =
            geometry.houses().iter().map(|h| h.cells.iter().map(|&i| i as u16).collect()).collect();
        let kinds = geometry.houses().iter().map(|h| h.kind).collect();
        let mut of_cell = vec![CellHouses::default(); n];
        for (h, cells) in houses.iter().enumerate() {
            for (at, &c) in cells.iter().enumerate() {
                let slot = &mut of_cell[c as usize];
                slot.house[slot.count as usize] = h as u16;
                slot.at[slot.count as usize] = at as u8;
                slot.count += 1;
            }
        }
        let mut peers = Vec::with_capacity(n);
        for (c, ch) in of_cell.iter().enumerate() {
            let mut list: Vec<u16> = Vec::new();
            for k in 0..ch.count as usize {
                list.extend(houses[ch.house[k] as usize].iter().filter(|&&p| p as usize != c));
            }
            list.sort_unstable();
            list.dedup();
            peers.push(list);
        }
        let rcb = (0..n)
            .map(|c| {
                let (r, col) = (c / side, c % side);
                let mut d = 0u8;
                if geometry.has_diagonals() {
                    if r == col {
                        d |= 1;
                    }
                    if r + col == side - 1 {
                        d |= 2;
                    }
                }
                [r as u8, col as u8, geometry.region_of(c) as u8, d]
            })
            .collect();
        Layout { geometry, side, houses, kinds, of_cell, peers, rcb }
    }

    /// The geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// Cells per house (N).
    pub fn side(&self) -> usize {
        self.side
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.side * self.side
    }

    /// Number of houses.
    pub fn house_count(&self) -> usize {
        self.houses.len()
    }

    /// The cells of a house, in reading order.
    pub fn house(&self, h: usize) -> &[u16] {
        &self.houses[h]
    }

    /// What a house is.
    pub fn kind(&self, h: usize) -> HouseKind {
        self.kinds[h]
    }

    /// House index of row `r`.
    pub fn row_house(&self, r: usize) -> usize {
        r
    }

    /// House index of column `c`.
    pub fn col_house(&self, c: usize) -> usize {
        self.side + c
    }

    /// House index of region `b`.
    pub fn region_house(&self, b: usize) -> usize {
        2 * self.side + b
    }

    /// Whether house `h` is a region (box or jigsaw piece).
    pub fn is_region(&self, h: usize) -> bool {
        (2 * self.side..3 * self.side).contains(&h)
    }

    /// The houses of a cell with the cell's position in each: `(house, index in house)`.
    pub fn houses_of(&self, cell: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let ch = &self.of_cell[cell];
        (0..ch.count as usize).map(move |k| (ch.house[k] as usize, ch.at[k] as usize))
    }

    /// The cells sharing a house with `cell`, ascending.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell]
    }

    /// Row of a cell, 0-based.
    #[inline]
    pub fn row(&self, cell: usize) -> usize {
        self.rcb[cell][0] as usize
    }

    /// Column of a cell, 0-based.
    #[inline]
    pub fn col(&self, cell: usize) -> usize {
        self.rcb[cell][1] as usize
    }

    /// Region of a cell, 0-based.
    #[inline]
    pub fn region(&self, cell: usize) -> usize {
        self.rcb[cell][2] as usize
    }

    /// Diagonal bits of a cell: 1 on the main diagonal, 2 on the anti-diagonal (X puzzles only).
    #[inline]
    pub fn diagonals(&self, cell: usize) -> u8 {
        self.rcb[cell][3]
    }

    /// Whether two different cells share a house.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.rcb[a], self.rcb[b]);
        a != b && (x[0] == y[0] || x[1] == y[1] || x[2] == y[2] || x[3] & y[3] != 0)
    }

    /// Whether `cell` sees every cell of `others` (and is none of them).
    pub fn sees_all(&self, cell: usize, others: &[usize]) -> bool {
        others.iter().all(|&o| self.sees(cell, o))
    }

    /// The houses containing every one of `cells` (at least one cell).
    pub fn common_houses(&self, cells: &[usize]) -> Vec<usize> {
        let Some(&first) = cells.first() else {
            return Vec::new();
        };
        self.houses_of(first)
            .map(|(h, _)| h)
            .filter(|&h| cells[1..].iter().all(|&c| self.houses_of(c).any(|(g, _)| g == h)))
            .collect()
    }

    /// The index of `cell` in house `h`, if it lies there.
    pub fn index_in(&self, h: usize, cell: usize) -> Option<usize> {
        self.houses_of(cell).find(|&(g, _)| g == h).map(|(_, at)| at)
    }
}

/// Why a board cannot be completed: what a technique or a replay ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// An open cell with no candidate left.
    EmptyCell(usize),
    /// A value with no place left in a house that does not hold it.
    NoPlace {
        /// The house index.
        house: usize,
        /// The value.
        value: u8,
    },
}

/// Values and candidates of every cell, and the positions of every value in every house.
#[derive(Clone, Debug)]
pub struct Board {
    layout: Arc<Layout>,
    cand: Vec<u64>,
    value: Vec<u8>,
    /// `pos[h * side + v - 1]`: bit `i` set when cell `i` of house `h` has candidate `v`.
    pos: Vec<u64>,
    /// Values placed in each house.
    placed: Vec<u64>,
    open: usize,
    /// Killer, Solo's scale: the cages as Solo's solver has split them so far (every cell,
    /// filled or not, with the total sum); `None` for the puzzle's own cages.
    solo_cages: Option<Arc<SoloCages>>,
}

/// Cages as cell lists with their sums (see [`Board::solo_cages`]).
pub(crate) type SoloCages = Vec<(Vec<usize>, u32)>;

impl Board {
    /// The board of a puzzle: givens placed, every open cell with the values no peer holds.
    /// Fails when two givens of a house are equal.
    pub fn new(puzzle: &Grid) -> Result<Board, Conflict> {
        if let Some(conflict) = puzzle.conflict() {
            return Err(conflict);
        }
        let layout = Layout::of(puzzle.geometry_arc());
        let mut board = Board::blank(layout);
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                board.place(i, v);
            }
        }
        Ok(board)
    }

    /// A board with the player's pencil marks: values from `grid`, and for each open cell the
    /// candidates in `marks` (bit `v - 1` for value `v`). Marks of solved cells are ignored;
    /// an open cell whose marks are 0 gets every value (no marks written yet). Candidates that
    /// a placed value in a peer rules out are kept, as the player has them.
    pub fn with_marks(grid: &Grid, marks: &[u64]) -> Result<Board, Conflict> {
        if let Some(conflict) = grid.conflict() {
            return Err(conflict);
        }
        let layout = Layout::of(grid.geometry_arc());
        let side = layout.side();
        let all = full_mask(side);
        let mut board = Board::blank(layout);
        for (i, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                board.set_value_only(i, v);
            }
        }
        for i in 0..grid.cells().len() {
            if board.value[i] == 0 {
                let m = marks.get(i).copied().unwrap_or(0) & all;
                let m = if m == 0 { all } else { m };
                for v in values(all & !m) {
                    board.eliminate(i, v);
                }
            }
        }
        Ok(board)
    }

    fn blank(layout: Arc<Layout>) -> Board {
        let side = layout.side();
        let n = layout.cells();
        let all = full_mask(side);
        let mut pos = vec![0u64; layout.house_count() * side];
        for h in 0..layout.house_count() {
            let full = full_mask(layout.house(h).len());
            for v in 0..side {
                pos[h * side + v] = full;
            }
        }
        Board {
            cand: vec![all; n],
            value: vec![0; n],
            pos,
            placed: vec![0; layout.house_count()],
            open: n,
            solo_cages: None,
            layout,
        }
    }

    /// Sets a value without touching the peers' candidates (for boards with pencil marks).
    fn set_value_only(&mut self, cell: usize, v: u8) {
        let side = self.layout.side;
        let old = self.cand[cell];
        let ch = self.layout.of_cell[cell];
        for k in 0..ch.count as usize {
            let (h, at) = (ch.house[k] as usize, ch.at[k]);
            for b in Bits(old) {
                self.pos[h * side + b] &= !(1u64 << at);
            }
            self.placed[h] |= bit(v);
        }
        self.cand[cell] = 0;
        self.value[cell] = v;
        self.open -= 1;
    }

    /// The shared layout.
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// Cells per house.
    #[inline]
    pub fn side(&self) -> usize {
        self.layout.side
    }

    /// The value of a cell, 0 when open.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.value[cell]
    }

    /// All values, 0 for open cells.
    pub fn values(&self) -> &[u8] {
        &self.value
    }

    /// The candidates of a cell (0 for a solved cell).
    #[inline]
    pub fn cands(&self, cell: usize) -> u64 {
        self.cand[cell]
    }

    /// Whether a cell has candidate `v`.
    #[inline]
    pub fn has(&self, cell: usize, v: u8) -> bool {
        self.cand[cell] & bit(v) != 0
    }

    /// The positions of value `v` in house `h` (bit `i` = the house's cell `i`).
    #[inline]
    pub fn positions(&self, h: usize, v: u8) -> u64 {
        self.pos[h * self.layout.side + v as usize - 1]
    }

    /// The cells of house `h` that have candidate `v`.
    pub fn cells_with(&self, h: usize, v: u8) -> impl Iterator<Item = usize> + '_ {
        let house = self.layout.house(h);
        Bits(self.positions(h, v)).map(move |i| house[i] as usize)
    }

    /// Values already placed in house `h`.
    #[inline]
    pub fn placed_in(&self, h: usize) -> u64 {
        self.placed[h]
    }

    /// Killer on Solo's scale: the cages as Solo's solver has split them on the way to this
    /// board (`None`: the puzzle's own).
    pub(crate) fn solo_cages(&self) -> Option<&Arc<SoloCages>> {
        self.solo_cages.as_ref()
    }

    /// Records the cages Solo's solver has split on the way to this board.
    pub(crate) fn set_solo_cages(&mut self, cages: Arc<SoloCages>) {
        self.solo_cages = Some(cages);
    }

    /// Number of open cells.
    pub fn open(&self) -> usize {
        self.open
    }

    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.open == 0
    }

    /// The values as a grid on the puzzle's geometry.
    pub fn to_grid(&self) -> Grid {
        Grid::new(self.layout.geometry.clone(), self.value.clone())
            .expect("board values are in range")
    }

    /// Places `v` in `cell` (a candidate there) and removes `v` from the cell's peers.
    pub fn place(&mut self, cell: usize, v: u8) {
        debug_assert!(self.value[cell] == 0);
        self.set_value_only(cell, v);
        let Board { layout, cand, pos, .. } = self;
        for &p in layout.peers(cell) {
            if cand[p as usize] & bit(v) != 0 {
                remove(layout, cand, pos, p as usize, v);
            }
        }
    }

    /// Removes candidate `v` from `cell`; returns whether it was there.
    #[inline]
    pub fn eliminate(&mut self, cell: usize, v: u8) -> bool {
        if self.cand[cell] & bit(v) == 0 {
            return false;
        }
        remove(&self.layout, &mut self.cand, &mut self.pos, cell, v);
        true
    }

    /// The first contradiction on the board, if any: an open cell without candidates, or a
    /// house missing a value that has no place left for it.
    pub fn contradiction(&self) -> Option<Contradiction> {
        if let Some(c) = (0..self.cand.len()).find(|&c| self.value[c] == 0 && self.cand[c] == 0) {
            return Some(Contradiction::EmptyCell(c));
        }
        let side = self.layout.side;
        for h in 0..self.layout.house_count() {
            let missing = full_mask(side) & !self.placed[h];
            for v in values(missing) {
                if self.positions(h, v) == 0 {
                    return Some(Contradiction::NoPlace { house: h, value: v });
                }
            }
        }
        None
    }

    /// Open cells with a placed peer still holding that peer's value as a candidate (only on
    /// boards made from pencil marks): `(cell, value, the peer holding it)`.
    pub fn stale_marks(&self) -> Vec<(usize, u8, usize)> {
        let mut out = Vec::new();
        for c in 0..self.cand.len() {
            if self.value[c] != 0 {
                continue;
            }
            for &p in self.layout.peers(c) {
                let v = self.value[p as usize];
                if v != 0 && self.has(c, v) && !out.iter().any(|&(oc, ov, _)| oc == c && ov == v) {
                    out.push((c, v, p as usize));
                }
            }
        }
        out
    }

    /// The 1-based name of a cell, `r3c5`.
    pub fn cell_name(&self, cell: usize) -> String {
        Cell::from_index(cell, self.side()).to_string()
    }
}

/// Clears candidate `v` of `cell` and its bit in the positions of the cell's houses.
#[inline]
fn remove(layout: &Layout, cand: &mut [u64], pos: &mut [u64], cell: usize, v: u8) {
    cand[cell] &= !bit(v);
    let side = layout.side;
    let ch = &layout.of_cell[cell];
    for k in 0..ch.count as usize {
        pos[ch.house[k] as usize * side + v as usize - 1] &= !(1u64 << ch.at[k]);
    }
}

/// The mask of values `1..=n`.
#[inline]
pub fn full_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::line;

    #[test]
    fn placing_keeps_positions_in_step() {
        let p = line::parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let b = Board::new(&p).unwrap();
        let l = b.layout().clone();
        for h in 0..l.house_count() {
            for v in 1..=9u8 {
                let from_cells: u64 = l
                    .house(h)
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| b.has(c as usize, v))
                    .fold(0, |m, (i, _)| m | 1 << i);
                assert_eq!(from_cells, b.positions(h, v), "house {h} value {v}");
            }
        }
        assert_eq!(b.open(), 81 - 17);
        assert!(b.contradiction().is_none());
        // r1c1 is 4: its peers lost 4.
        assert!(!b.has(1, 4) && !b.has(9, 4) && !b.has(10, 4));
    }

    #[test]
    fn sees_follows_houses_and_diagonals() {
        let g = Arc::new(Geometry::for_side(9).unwrap().with_diagonals());
        let l = Layout::of(&g);
        assert!(l.sees(0, 80)); // both on the main diagonal
        assert!(l.sees(8, 72)); // anti-diagonal
        assert!(!l.sees(1, 81 - 9 + 3));
        assert!(!l.sees(0, 0));
        assert_eq!(l.peers(40).len(), 20 + 12); // centre: both diagonals
    }
}
