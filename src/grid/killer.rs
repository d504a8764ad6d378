//! Killer sudoku: cages of cells whose values all differ and add up to a given sum, as part of
//! the [`Geometry`], and the arithmetic that the solver and human-style techniques share:
//!
//! - [`sum_range`] and [`combinations`]: which sets of different values make a sum;
//! - [`open_combinations`]: the sets still possible for a cage's open cells;
//! - [`derived_regions`]: the "45 rule": the innies and outies of rows, columns, regions and
//!   unions of them, and what a cage has left once such a region is taken out of it.
//!
//! Value sets are [`Digits`] bitmasks, bit `v - 1` for value `v`.

use std::fmt;
use std::sync::OnceLock;

use super::{Cell, Geometry, GridError, HouseKind};

/// The largest side a Killer grid may have (Solo allows up to 9; cage sums stay below 100).
pub const MAX_KILLER_SIDE: usize = 12;

/// A set of values: bit `v - 1` for value `v`.
pub type Digits = u16;

/// A cage: cells whose values all differ and add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// What the values add up to.
    pub sum: u32,
    /// Cell indices (`row * side + col`); in reading order once part of a geometry.
    pub cells: Vec<usize>,
}

impl Cage {
    /// A cage from its sum and cells (in any order).
    pub fn new(sum: u32, cells: impl IntoIterator<Item = usize>) -> Cage {
        Cage { sum, cells: cells.into_iter().collect() }
    }

    /// The first cell in reading order (where Solo draws the sum); `None` for no cells.
    pub fn first(&self) -> Option<usize> {
        self.cells.iter().copied().min()
    }
}

/// How messages name a cage: its number (1-based: in the order given when it is being
/// validated, in reading order of first cells once in a geometry), its sum and first cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CageRef {
    /// 1-based number.
    pub number: usize,
    /// Its sum.
    pub sum: u32,
    /// Its first cell in reading order.
    pub first: Cell,
}

impl fmt::Display for CageRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cage {} (sum {} at {})", self.number, self.sum, self.first)
    }
}

/// A cage whose values break its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CageConflict {
    /// Two cells of one cage hold the same value.
    Repeat {
        /// The cage.
        cage: CageRef,
        /// The repeated value.
        value: u8,
        /// The earlier cell in reading order.
        first: Cell,
        /// The later one.
        second: Cell,
    },
    /// The values add up to the wrong total: a full cage to anything but its sum, or a
    /// partly filled one to more than its sum leaves room for.
    Sum {
        /// The cage.
        cage: CageRef,
        /// What its filled cells add up to.
        total: u32,
        /// Its cells still empty.
        open: usize,
    },
}

impl fmt::Display for CageConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CageConflict::Repeat { cage, value, first, second } => {
                write!(f, "{first} and {second} both hold {value} in {cage}")
            }
            CageConflict::Sum { cage, total, open: 0 } => {
                write!(f, "the values of {cage} add up to {total}")
            }
            CageConflict::Sum { cage, total, open } => write!(
                f,
                "the values in {cage} add up to {total}, too much with {open} cell{} still empty",
                if *open == 1 { "" } else { "s" }
            ),
        }
    }
}

/// The cages of a geometry with the cage of every cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CageSet {
    pub(super) cages: Vec<Cage>,
    pub(super) cage_of: Vec<u16>,
}

/// Checks cages against a grid of `side` (every cell in exactly one cage, sizes and sums
/// possible) and puts them in canonical order: cells in reading order, cages by first cell.
pub(super) fn validate(side: usize, mut cages: Vec<Cage>) -> Result<CageSet, GridError> {
    if side == 0 || side > MAX_KILLER_SIDE {
        return Err(GridError::KillerSide { side });
    }
    let area = side * side;
    let mut cage_of = vec![u16::MAX; area];
    for (k, cage) in cages.iter_mut().enumerate() {
        let number = k + 1;
        if cage.cells.is_empty() {
            return Err(GridError::EmptyCage { number, sum: cage.sum });
        }
        if let Some(&i) = cage.cells.iter().find(|&&i| i >= area) {
            return Err(GridError::CageCellOutside {
                number,
                sum: cage.sum,
                cell: Cell { row: i / side, col: i % side },
                side,
            });
        }
        cage.cells.sort_unstable();
        let name = CageRef { number, sum: cage.sum, first: Cell::from_index(cage.cells[0], side) };
        if let Some(w) = cage.cells.windows(2).find(|w| w[0] == w[1]) {
            return Err(GridError::CageCellRepeated {
                cage: name,
                cell: Cell::from_index(w[0], side),
            });
        }
        let size = cage.cells.len();
        match sum_range(size, side) {
            None => return Err(GridError::CageTooBig { cage: name, size, side }),
            Some((min, max)) if !(min..=max).contains(&cage.sum) => {
                return Err(GridError::CageSum { cage: name, size, side, min, max });
            }
            Some(_) => {}
        }
        for &i in &cage.cells {
            if cage_of[i] != u16::MAX {
                return Err(GridError::CellInTwoCages {
                    cell: Cell::from_index(i, side),
                    first: cage_of[i] as usize + 1,
                    second: number,
                });
            }
            cage_of[i] = k as u16;
        }
    }
    if let Some(i) = cage_of.iter().position(|&c| c == u16::MAX) {
        let missing = cage_of.iter().filter(|&&c| c == u16::MAX).count();
        return Err(GridError::CellInNoCage { cell: Cell::from_index(i, side), missing });
    }
    cages.sort_unstable_by_key(|c| c.cells[0]);
    for (k, cage) in cages.iter().enumerate() {
        for &i in &cage.cells {
            cage_of[i] = k as u16;
        }
    }
    Ok(CageSet { cages, cage_of })
}

/// The smallest and largest sums of `size` different values of `1..=side`; `None` when no
/// such set exists (size 0 or above the side).
pub fn sum_range(size: usize, side: usize) -> Option<(u32, u32)> {
    if size == 0 || size > side {
        return None;
    }
    let (k, n) = (size as u32, side as u32);
    Some((k * (k + 1) / 2, k * (2 * n - k + 1) / 2))
}

/// Why the outlines and sums drawn on a board do not make its Killer cages.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OutlineError {
    /// One outlined cage that cannot be one.
    #[error("the cage at {first} is not a cage: {why}")]
    Cage {
        /// Its first cell in reading order.
        first: Cell,
        /// What is off.
        why: String,
    },
    /// Every cage is possible, but the sums do not add up to the board's total.
    #[error("the {cages} cages' sums add up to {total}, not {want}")]
    Sums {
        /// Their total.
        total: u32,
        /// What a board's values add up to (`side` times `1 + ... + side`).
        want: u32,
        /// How many cages.
        cages: usize,
    },
}

/// Why the thick borders drawn between a board's cells do not make its jigsaw regions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegionError {
    /// A thick border with the same region on both sides.
    #[error("the thick border between {a} and {b} lies inside one region")]
    Inside {
        /// The cell left of or above it.
        a: Cell,
        /// The cell right of or below it.
        b: Cell,
    },
    /// Not `side` regions.
    #[error("they make {count} regions, not {side}")]
    Count {
        /// How many they make.
        count: usize,
        /// The board's side.
        side: usize,
    },
    /// A region of the wrong size.
    #[error("the region at {first} has {size} cells, not {side}")]
    Size {
        /// Its first cell in reading order.
        first: Cell,
        /// Its cells.
        size: usize,
        /// The board's side.
        side: usize,
    },
}

/// The jigsaw regions that the inner edges `edges` draw on a board of `side`: each edge is
/// the reading-order indices of its two cells and whether a thick border is drawn there. The
/// region of every cell (numbered in reading order) once the thin edges join `side` regions
/// of `side` cells and no thick border lies inside one.
pub fn bordered_regions(
    side: usize,
    edges: &[(usize, usize, bool)],
) -> Result<Vec<usize>, RegionError> {
    let n = side * side;
    let label = joined_groups(n, edges.iter().filter(|e| !e.2).map(|e| (e.0, e.1)));
    if let Some(&(a, b, _)) =
        edges.iter().find(|e| e.2 && e.0 < n && e.1 < n && label[e.0] == label[e.1])
    {
        return Err(RegionError::Inside {
            a: Cell::from_index(a, side),
            b: Cell::from_index(b, side),
        });
    }
    let count = label.iter().max().map_or(0, |m| m + 1);
    if count != side {
        return Err(RegionError::Count { count, side });
    }
    for region in 0..side {
        let size = label.iter().filter(|&&l| l == region).count();
        if size != side {
            let first = label.iter().position(|&l| l == region).unwrap_or(0);
            return Err(RegionError::Size { first: Cell::from_index(first, side), size, side });
        }
    }
    Ok(label)
}

/// The groups of the `n` cells that the pairs `joined` (reading-order indices; a pair out of
/// range is ignored) connect: each cell's group, the groups numbered in reading order of their
/// first cells. Killer cages and jigsaw regions are both such groups of a board's cells.
pub fn joined_groups(n: usize, joined: impl IntoIterator<Item = (usize, usize)>) -> Vec<usize> {
    fn root(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let mut parent: Vec<usize> = (0..n).collect();
    for (a, b) in joined {
        if a >= n || b >= n {
            continue;
        }
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut label = vec![usize::MAX; n];
    let mut next = 0;
    (0..n)
        .map(|i| {
            let r = root(&mut parent, i);
            if label[r] == usize::MAX {
                label[r] = next;
                next += 1;
            }
            label[r]
        })
        .collect()
}

/// The cages a Killer board of `side` draws, from what is seen on it, pure: `joined` are the
/// pairs of neighbouring cells (reading-order indices) with no outline between them, and
/// `sums[i]` the number written in cell `i`, if any. Every group of joined cells is one cage,
/// whose sum must be written in its first cell in reading order (where Killer boards draw it)
/// and in no other; a cage has at most `side` cells and a sum that many different values
/// make; and the sums add up to the board's total. Cages come in reading order of first cells.
pub fn outlined_cages(
    side: usize,
    joined: impl IntoIterator<Item = (usize, usize)>,
    sums: &[Option<u32>],
) -> Result<Vec<Cage>, OutlineError> {
    let n = side * side;
    let label = joined_groups(n, joined);
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); label.iter().max().map_or(0, |m| m + 1)];
    for (i, &g) in label.iter().enumerate() {
        groups[g].push(i);
    }
    let sum_at = |i: usize| sums.get(i).copied().flatten();
    let mut out = Vec::with_capacity(groups.len());
    for cells in groups {
        let first = cells[0];
        let bad = |why: String| OutlineError::Cage { first: Cell::from_index(first, side), why };
        if let Some(&i) = cells[1..].iter().find(|&&i| sum_at(i).is_some()) {
            return Err(bad(format!(
                "{} holds a sum too: a cage outline is missing",
                Cell::from_index(i, side)
            )));
        }
        let Some(sum) = sum_at(first) else {
            return Err(bad("its first cell shows no sum".into()));
        };
        match sum_range(cells.len(), side) {
            None => return Err(bad(format!("it has {} cells, more than {side}", cells.len()))),
            Some((lo, hi)) if !(lo..=hi).contains(&sum) => {
                return Err(bad(format!(
                    "{} different values make {lo} to {hi}, not {sum}",
                    cells.len()
                )));
            }
            Some(_) => {}
        }
        out.push(Cage::new(sum, cells));
    }
    let total: u32 = out.iter().map(|c| c.sum).sum();
    let want = (side * side * (side + 1) / 2) as u32;
    if total != want {
        return Err(OutlineError::Sums { total, want, cages: out.len() });
    }
    Ok(out)
}

/// Every set of values of one grid side, grouped by size and sum.
struct Table {
    /// Highest sum + 1: the stride of `start`.
    sums: usize,
    /// `start[size * sums + sum]..start[... + 1]` indexes `sets`.
    start: Vec<u32>,
    sets: Vec<Digits>,
}

fn table(side: usize) -> Option<&'static Table> {
    static TABLES: [OnceLock<Table>; MAX_KILLER_SIDE + 1] =
        [const { OnceLock::new() }; MAX_KILLER_SIDE + 1];
    if side == 0 {
        return None;
    }
    let slot = TABLES.get(side)?;
    Some(slot.get_or_init(|| {
        let sums = side * (side + 1) / 2 + 1;
        let key = |set: u32| {
            let sum: usize = (0..side).filter(|b| set & (1 << b) != 0).map(|b| b + 1).sum();
            set.count_ones() as usize * sums + sum
        };
        let mut count = vec![0u32; (side + 1) * sums + 1];
        for set in 0..1u32 << side {
            count[key(set) + 1] += 1;
        }
        for k in 1..count.len() {
            count[k] += count[k - 1];
        }
        let start = count.clone();
        let mut sets = vec![0; 1 << side];
        for set in 0..1u32 << side {
            let slot = &mut count[key(set)];
            sets[*slot as usize] = set as Digits;
            *slot += 1;
        }
        Table { sums, start, sets }
    }))
}

/// Every set of `size` different values of `1..=side` that adds up to `sum`, as bitmasks in
/// increasing order; empty when there is none (or the side is above [`MAX_KILLER_SIDE`]).
///
/// ```
/// use sudobot::grid::killer::combinations;
/// // Two cells adding up to 4 on a 9x9 grid: only 1 + 3.
/// assert_eq!(combinations(2, 4, 9), &[0b101]);
/// assert_eq!(combinations(3, 24, 9), &[0b1_1100_0000]); // 7 + 8 + 9
/// ```
pub fn combinations(size: usize, sum: u32, side: usize) -> &'static [Digits] {
    let Some(t) = table(side) else { return &[] };
    let sum = sum as usize;
    if size > side || sum >= t.sums {
        return &[];
    }
    let k = size * t.sums + sum;
    &t.sets[t.start[k] as usize..t.start[k + 1] as usize]
}

/// The value sets a cage's open cells can still take: sets of `open.len()` different values
/// adding up to `sum_left` (the sum minus the values already placed in the cage), avoiding
/// `placed`, and fitting the candidates (every value of the set is a candidate of some open
/// cell, and every open cell has a candidate in the set). These are necessary conditions; the
/// union of the sets bounds each cell's candidates, and their intersection is the values the
/// cage must hold.
pub fn open_combinations(
    open: &[Digits],
    sum_left: u32,
    placed: Digits,
    side: usize,
) -> impl Iterator<Item = Digits> + '_ {
    let union = open.iter().fold(0, |a, &c| a | c);
    combinations(open.len(), sum_left, side)
        .iter()
        .copied()
        .filter(move |&m| m & placed == 0 && m & !union == 0 && open.iter().all(|&c| c & m != 0))
}

/// Where a derived sum region comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The cells of these houses that lie in cages reaching out of them: the houses add up to
    /// `side * (side + 1) / 2` each, minus the cages wholly inside.
    Innies(Vec<HouseKind>),
    /// The cells outside these houses of cages that reach into them: those cages' sums minus
    /// the houses' total.
    Outies(Vec<HouseKind>),
    /// A cage (0-based, in the geometry's order) without another derived region that lies
    /// inside it.
    CageRest {
        /// The cage.
        cage: usize,
    },
}

/// Cells whose values add up to a known sum, derived from the cages and houses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumRegion {
    /// Cell indices, reading order.
    pub cells: Vec<usize>,
    /// What they add up to.
    pub sum: u32,
    /// Whether every two of the cells share a house or a cage, so their values all differ.
    pub distinct: bool,
    /// How it was derived.
    pub origin: Origin,
}

/// The sum regions the 45 rule gives on a Killer geometry (none without cages), each with at
/// most `max_cells` cells, in a fixed order, without repeats and without regions that are just
/// a cage again. Houses taken: runs of consecutive rows and of consecutive columns (single
/// ones included), each region, two regions side by side, each diagonal.
///
/// ```
/// use sudobot::format::solo_id;
/// use sudobot::grid::killer::{Origin, derived_regions};
/// // A 4x4 Killer: cages {r1c1 r1c2} 3, {r1c3 r1c4 r2c4} 9, ...
/// let grid = solo_id::parse("2x2k:p,b______aaa_a_aaa,8b3_6_5_5d9_4c")?;
/// let regions = derived_regions(grid.geometry(), 4);
/// assert!(regions.iter().all(|r| !r.cells.is_empty() && r.cells.len() <= 4));
/// assert!(regions.iter().any(|r| matches!(r.origin, Origin::Outies(_))));
/// # Ok::<(), sudobot::format::ParseError>(())
/// ```
pub fn derived_regions(geometry: &Geometry, max_cells: usize) -> Vec<SumRegion> {
    derive(geometry, &Houses::new(geometry), max_cells)
        .into_iter()
        .map(|r| SumRegion {
            cells: r.cells.iter().collect(),
            sum: r.sum,
            distinct: r.distinct,
            origin: match r.source {
                Source::Innies(u) => Origin::Innies(u.kinds()),
                Source::Outies(u) => Origin::Outies(u.kinds()),
                Source::Rest(cage) => Origin::CageRest { cage },
            },
        })
        .collect()
}

/// A set of cells of a grid up to 12x12, as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct CellSet([u64; 3]);

impl CellSet {
    pub(crate) fn of(cells: impl IntoIterator<Item = usize>) -> CellSet {
        let mut set = CellSet::default();
        for i in cells {
            set.insert(i);
        }
        set
    }

    pub(crate) fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn and(self, o: CellSet) -> CellSet {
        CellSet([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }

    pub(crate) fn or(self, o: CellSet) -> CellSet {
        CellSet([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }

    pub(crate) fn minus(self, o: CellSet) -> CellSet {
        CellSet([self.0[0] & !o.0[0], self.0[1] & !o.0[1], self.0[2] & !o.0[2]])
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 == [0; 3]
    }

    pub(crate) fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub(crate) fn iter(self) -> CellIter {
        CellIter { words: self.0, word: 0 }
    }

    pub(crate) fn first(self) -> Option<usize> {
        self.iter().next()
    }

    /// A cheap hash for the dedupe table.
    fn hash(self, sum: u32) -> u64 {
        let mix = |h: u64, w: u64| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        mix(mix(mix(u64::from(sum), self.0[0]), self.0[1]), self.0[2])
    }
}

/// The cells of a [`CellSet`] in increasing order.
pub(crate) struct CellIter {
    words: [u64; 3],
    word: usize,
}

impl Iterator for CellIter {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.word < 3 {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                return Some(self.word * 64 + bits.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// How a derived region came about.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source {
    Innies(Union),
    Outies(Union),
    Rest(usize),
}

/// Houses taken together: rows, columns or regions as a bitmask of their numbers, or one
/// diagonal (0 main, 1 anti).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Union {
    Rows(u16),
    Columns(u16),
    Regions(u16),
    Diagonal(usize),
}

impl Union {
    fn kinds(self) -> Vec<HouseKind> {
        let bits = |mask: u16| (0..16).filter(move |b| mask & (1 << b) != 0);
        match self {
            Union::Rows(m) => bits(m).map(HouseKind::Row).collect(),
            Union::Columns(m) => bits(m).map(HouseKind::Column).collect(),
            Union::Regions(m) => bits(m).map(HouseKind::Region).collect(),
            Union::Diagonal(0) => vec![HouseKind::Diagonal],
            Union::Diagonal(_) => vec![HouseKind::AntiDiagonal],
        }
    }
}

/// A derived region as a cell set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Derived {
    pub(crate) cells: CellSet,
    pub(crate) sum: u32,
    pub(crate) distinct: bool,
    pub(crate) source: Source,
}

/// What the derivation needs of a shape's houses, without its cages: the same for every
/// puzzle of one shape, so the solver keeps it from one puzzle to the next.
pub(crate) struct Houses {
    side: usize,
    /// The unions of houses looked at.
    unions: Vec<Union>,
    /// Every house as a cell set, in [`Geometry::houses`] order.
    sets: Vec<CellSet>,
    /// The cells each cell shares a house with, itself included.
    pub(crate) seen: Vec<CellSet>,
}

impl Houses {
    pub(crate) fn new(geometry: &Geometry) -> Houses {
        let side = geometry.side();
        let mut unions: Vec<Union> = Vec::new();
        for first in 0..side {
            for last in first..side {
                if last - first + 1 < side {
                    let mask = (((1u32 << (last + 1)) - 1) & !((1u32 << first) - 1)) as u16;
                    unions.extend([Union::Rows(mask), Union::Columns(mask)]);
                }
            }
        }
        for a in 0..side {
            unions.push(Union::Regions(1 << a));
        }
        if geometry.has_diagonals() {
            unions.extend([Union::Diagonal(0), Union::Diagonal(1)]);
        }
        let mut touching = vec![0u16; side];
        for i in 0..side * side {
            let (r, c, a) = (i / side, i % side, geometry.region_of(i));
            let right = (c + 1 < side).then(|| i + 1);
            for j in [right, (r + 1 < side).then(|| i + side)].into_iter().flatten() {
                let b = geometry.region_of(j);
                touching[a] |= 1 << b;
                touching[b] |= 1 << a;
            }
        }
        for (a, &neighbours) in touching.iter().enumerate() {
            for b in a + 1..side {
                if neighbours & (1 << b) != 0 {
                    unions.push(Union::Regions(1 << a | 1 << b));
                }
            }
        }
        let sets: Vec<CellSet> =
            geometry.houses().iter().map(|h| CellSet::of(h.cells.iter().copied())).collect();
        let mut seen = vec![CellSet::default(); geometry.cell_count()];
        for (house, &set) in geometry.houses().iter().zip(&sets) {
            for &i in &house.cells {
                seen[i] = seen[i].or(set);
            }
        }
        Houses { side, unions, sets, seen }
    }
}

/// Where a cage lies: the rows, columns and regions it touches (bitmasks) and its cells on
/// each diagonal.
struct Footprint {
    set: CellSet,
    rows: u16,
    columns: u16,
    regions: u16,
    diagonal: [usize; 2],
}

/// Where cages lie along one direction (rows or columns), for runs of lines.
struct Spans {
    /// The first line of each cage.
    low: Vec<usize>,
    /// `crossing[y]`: the cages with cells both before and from line `y` (empty for 0 and
    /// the side).
    crossing: Vec<Vec<u16>>,
    /// `whole[a * side + b]`: the sum of the cages lying within lines `a..=b`.
    whole: Vec<u32>,
}

impl Spans {
    fn new(
        feet: &[Footprint],
        cages: &[Cage],
        side: usize,
        lines: impl Fn(&Footprint) -> u16,
    ) -> Spans {
        let mut low = Vec::with_capacity(feet.len());
        let mut crossing = vec![Vec::new(); side + 1];
        // by_span[lo * side + hi]: the sums of the cages spanning exactly lines lo..=hi.
        let mut by_span = vec![0u32; side * side];
        for (k, f) in feet.iter().enumerate() {
            let m = lines(f);
            let (lo, hi) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
            low.push(lo);
            for list in &mut crossing[lo + 1..=hi] {
                list.push(k as u16);
            }
            by_span[lo * side + hi] += cages[k].sum;
        }
        let mut whole = vec![0u32; side * side];
        for a in (0..side).rev() {
            let mut starting_here = 0;
            for b in a..side {
                starting_here += by_span[a * side + b];
                let below = if a < b { whole[(a + 1) * side + b] } else { 0 };
                whole[a * side + b] = starting_here + below;
            }
        }
        Spans { low, crossing, whole }
    }
}

/// The derived regions of a Killer geometry (see [`derived_regions`]); `houses` is
/// [`Houses::new`] of a geometry with the same houses.
pub(crate) fn derive(geometry: &Geometry, houses: &Houses, max_cells: usize) -> Vec<Derived> {
    let cages = geometry.cages();
    let side = geometry.side();
    if cages.is_empty() || side > MAX_KILLER_SIDE || houses.side != side {
        return Vec::new();
    }
    let house_total = (side * (side + 1) / 2) as u32;
    let house_sets = &houses.sets;
    let feet: Vec<Footprint> = cages
        .iter()
        .map(|cage| {
            let mut f = Footprint {
                set: CellSet::of(cage.cells.iter().copied()),
                rows: 0,
                columns: 0,
                regions: 0,
                diagonal: [0; 2],
            };
            for &i in &cage.cells {
                let (r, c) = (i / side, i % side);
                f.rows |= 1 << r;
                f.columns |= 1 << c;
                f.regions |= 1 << geometry.region_of(i);
                f.diagonal[0] += usize::from(r == c);
                f.diagonal[1] += usize::from(r + c == side - 1);
            }
            f
        })
        .collect();
    let mut seen = houses.seen.clone();
    for f in &feet {
        for i in f.set.iter() {
            seen[i] = seen[i].or(f.set);
        }
    }
    let mut found = Vec::with_capacity(3 * houses.unions.len());
    let push = |cells: CellSet, sum: u32, source: Source, found: &mut Vec<Derived>| {
        let size = cells.len();
        if size == 0 || size > max_cells {
            return;
        }
        // `distinct` is worked out for the regions kept, below.
        found.push(Derived { cells, sum, distinct: false, source });
    };
    let sets_of = |mask: u16, offset: usize| {
        (0..side)
            .filter(|b| mask & (1 << b) != 0)
            .fold(CellSet::default(), |a, b| a.or(house_sets[offset + b]))
    };
    let spans =
        [Spans::new(&feet, cages, side, |f| f.rows), Spans::new(&feet, cages, side, |f| f.columns)];
    for &union in &houses.unions {
        let (inside, count) = match union {
            Union::Rows(m) => (sets_of(m, 0), m.count_ones()),
            Union::Columns(m) => (sets_of(m, side), m.count_ones()),
            Union::Regions(m) => (sets_of(m, 2 * side), m.count_ones()),
            Union::Diagonal(d) => (house_sets[3 * side + d], 1),
        };
        let total = house_total * count;
        let (mut whole_sum, mut partial_sum) = (0u32, 0u32);
        let (mut innies, mut outies) = (CellSet::default(), CellSet::default());
        let mut partial = |k: usize| {
            partial_sum += cages[k].sum;
            innies = innies.or(feet[k].set.and(inside));
            outies = outies.or(feet[k].set.minus(inside));
        };
        match union {
            Union::Rows(m) | Union::Columns(m) => {
                // A run of lines: the cages crossing its two edges are the partial ones.
                let spans = &spans[usize::from(matches!(union, Union::Columns(_)))];
                let (a, b) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                whole_sum = spans.whole[a * side + b];
                for &k in &spans.crossing[a] {
                    partial(k as usize);
                }
                for &k in &spans.crossing[b + 1] {
                    // Those reaching above the run were counted at its upper edge.
                    if a == 0 || spans.low[k as usize] >= a {
                        partial(k as usize);
                    }
                }
            }
            _ => {
                for (k, (cage, f)) in cages.iter().zip(&feet).enumerate() {
                    let (touches, whole) = match union {
                        Union::Regions(m) => (f.regions & m != 0, f.regions & !m == 0),
                        Union::Diagonal(d) => {
                            (f.diagonal[d] > 0, f.diagonal[d] == cage.cells.len())
                        }
                        Union::Rows(_) | Union::Columns(_) => (false, false),
                    };
                    if whole {
                        whole_sum += cage.sum;
                    } else if touches {
                        partial(k);
                    }
                }
            }
        }
        if let Some(sum) = total.checked_sub(whole_sum) {
            push(innies, sum, Source::Innies(union), &mut found);
        }
        if let Some(sum) = (whole_sum + partial_sum).checked_sub(total) {
            push(outies, sum, Source::Outies(union), &mut found);
        }
    }
    // What a cage keeps once a derived region inside it is taken out.
    for k in 0..found.len() {
        let Derived { cells, sum, .. } = found[k];
        let Some(c) = cells.first().and_then(|i| geometry.cage_of(i)) else { continue };
        let cage = feet[c].set;
        if cells != cage
            && cells.minus(cage).is_empty()
            && let Some(left) = cages[c].sum.checked_sub(sum)
        {
            push(cage.minus(cells), left, Source::Rest(c), &mut found);
        }
    }
    // Without repeats, and without cages found again; the first of equal ones is kept. An
    // open-addressing table of indices into `found` (0 = empty) finds the repeats.
    let size = (found.len() * 2).next_power_of_two().max(16);
    let mut table = vec![0u32; size];
    let mut kept = Vec::with_capacity(found.len());
    for (k, r) in found.iter().enumerate() {
        let c = r.cells.first().and_then(|i| geometry.cage_of(i));
        if c.is_some_and(|c| feet[c].set == r.cells && cages[c].sum == r.sum) {
            continue;
        }
        let mut slot = r.cells.hash(r.sum) as usize & (size - 1);
        loop {
            match table[slot] {
                0 => {
                    table[slot] = k as u32 + 1;
                    let distinct = r.cells.iter().all(|i| r.cells.minus(seen[i]).is_empty());
                    kept.push(Derived { distinct, ..*r });
                    break;
                }
                j => {
                    let other = &found[j as usize - 1];
                    if other.cells == r.cells && other.sum == r.sum {
                        break;
                    }
                    slot = (slot + 1) & (size - 1);
                }
            }
        }
    }
    kept
}

/// Whether every two of the cells share a house or a cage.
pub fn all_see_each_other(geometry: &Geometry, cells: &[usize]) -> bool {
    let side = geometry.side();
    let sees = |a: usize, b: usize| {
        let (ra, ca, rb, cb) = (a / side, a % side, b / side, b % side);
        let diagonal = |r: usize, c: usize| (r == c, r + c == side - 1);
        let (da, db) = (diagonal(ra, ca), diagonal(rb, cb));
        ra == rb
            || ca == cb
            || geometry.region_of(a) == geometry.region_of(b)
            || (geometry.cage_of(a).is_some() && geometry.cage_of(a) == geometry.cage_of(b))
            || (geometry.has_diagonals() && ((da.0 && db.0) || (da.1 && db.1)))
    };
    cells.iter().enumerate().all(|(k, &a)| cells[k + 1..].iter().all(|&b| sees(a, b)))
}

/// A Killer the unit tests of every layer share.
#[cfg(test)]
pub(crate) mod sample {
    use super::Cage;

    /// Solo 3x3kdu as cage text: no givens, one solution.
    pub(crate) const KILLER: &str = "5: r1c1 r1c2\n15: r1c3 r1c4\n15: r1c5 r1c6\n9: r1c7 r2c7\n\
        6: r1c8 r2c8\n14: r1c9 r2c9 r3c9\n14: r2c1 r2c2\n16: r2c3 r3c2 r3c3\n9: r2c4 r2c5 r3c5\n\
        13: r2c6 r3c6 r4c6\n5: r3c1 r4c1\n8: r3c4 r4c4\n16: r3c7 r3c8\n9: r4c2 r5c2\n\
        10: r4c3 r5c3 r5c4\n17: r4c5 r5c5\n13: r4c7 r4c8\n10: r4c9 r5c9\n24: r5c1 r6c1 r7c1\n\
        12: r5c6 r6c6 r7c6\n8: r5c7 r5c8\n10: r6c2 r7c2\n14: r6c3 r6c4 r7c4\n6: r6c5 r7c5\n\
        14: r6c7 r6c8 r6c9\n13: r7c3 r8c3\n10: r7c7 r7c8\n20: r7c9 r8c9 r9c9\n7: r8c1 r9c1\n\
        10: r8c2 r9c2\n18: r8c4 r9c3 r9c4\n20: r8c5 r8c6 r9c5 r9c6\n8: r8c7 r8c8\n7: r9c7 r9c8\n";

    /// The cages of [`KILLER`], in reading order of first cells.
    pub(crate) fn killer_cages() -> Vec<Cage> {
        crate::format::cages::parse(KILLER).unwrap().geometry().cages().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::grid::{Cell, Grid, Regions};

    /// The 4x4 Killer of Solo's `2x2k:p,b______aaa_a_aaa,8b3_6_5_5d9_4c`.
    fn four() -> Vec<Cage> {
        vec![
            Cage::new(8, [0, 1, 2]),
            Cage::new(3, [7, 3]),
            Cage::new(6, [4, 8]),
            Cage::new(5, [5, 9]),
            Cage::new(5, [6, 10]),
            Cage::new(9, [11, 14, 15]),
            Cage::new(4, [12, 13]),
        ]
    }

    fn boxed() -> Geometry {
        Geometry::boxed(2, 2).expect("2x2 boxes")
    }

    fn error(cages: Vec<Cage>) -> String {
        boxed().with_cages(cages).expect_err("invalid").to_string()
    }

    #[test]
    fn cages_are_validated_and_named() {
        let mut c = four();
        c[1].cells.push(7);
        assert_eq!(error(c), "cage 2 (sum 3 at r1c4) lists r2c4 twice");
        let mut c = four();
        c[6].cells.push(16);
        assert_eq!(error(c), "cage 7 (sum 4) names r5c1, outside the 4x4 grid");
        let mut c = four();
        c[6].sum = 8;
        assert_eq!(
            error(c),
            "cage 7 (sum 8 at r4c1) cannot be made: 2 different values of 1 to 4 add up to 3 to 7"
        );
        let mut c = four();
        c[6] = Cage::new(7, [12, 13, 14]);
        assert_eq!(
            error(c),
            "r4c3 is in cage 6 and in cage 7; every cell belongs to exactly one cage"
        );
        let mut c = four();
        c.pop();
        assert_eq!(
            error(c),
            "r4c1 is in no cage (2 cells in none); every cell belongs to exactly one cage"
        );
        let mut c = four();
        c[0].cells.clear();
        assert_eq!(error(c), "cage 1 (sum 8) has no cells");
        let mut c = four();
        c.truncate(1);
        c[0] = Cage::new(10, [0, 1, 2, 3, 4]);
        assert_eq!(
            error(c),
            "cage 1 (sum 10 at r1c1) has 5 cells, but a 4x4 grid has only 4 different values"
        );
        let big = Geometry::for_side(16).expect("16").with_cages(vec![]);
        assert_eq!(big, Err(GridError::KillerSide { side: 16 }));
    }

    #[test]
    fn cages_come_in_reading_order_and_stay_with_the_diagonals() {
        let mut given = four();
        given.reverse();
        let g = boxed().with_cages(given).expect("valid").with_diagonals();
        assert!(g.is_killer() && g.has_diagonals() && !g.is_classic());
        let firsts: Vec<usize> = g.cages().iter().map(|c| c.cells[0]).collect();
        assert_eq!(firsts, vec![0, 3, 4, 5, 6, 11, 12]);
        assert_eq!(g.cages()[1].cells, vec![3, 7]);
        assert_eq!(g.cage_of(15), Some(5));
        assert_eq!(g.clone().without_cages().cage_of(15), None);
        assert!(Geometry::for_side(9).unwrap().with_cages(vec![Cage::new(405, 0..81)]).is_err());
    }

    #[test]
    fn cage_conflicts_and_solutions() {
        let g = Arc::new(boxed().with_cages(four()).expect("valid"));
        let solution =
            Grid::new(g.clone(), vec![1, 4, 3, 2, 2, 3, 4, 1, 4, 2, 1, 3, 3, 1, 2, 4]).unwrap();
        let puzzle = Grid::empty(g.clone());
        assert!(solution.is_solution_of(&puzzle));
        assert_eq!(solution.cage_conflict(), None);
        // Rows, columns and boxes fine, cage sums not: the same grid with two rows swapped.
        let swapped =
            Grid::new(g.clone(), vec![2, 3, 4, 1, 1, 4, 3, 2, 4, 2, 1, 3, 3, 1, 2, 4]).unwrap();
        assert!(swapped.conflict().is_none());
        assert!(!swapped.is_solution_of(&puzzle));
        assert_eq!(
            swapped.cage_conflict().map(|c| c.to_string()),
            Some("the values of cage 1 (sum 8 at r1c1) add up to 9".into())
        );
        let mut repeat = Grid::empty(g.clone());
        repeat.set(0, Some(2)).unwrap();
        repeat.set(2, Some(2)).unwrap();
        assert_eq!(
            repeat.cage_conflict().map(|c| c.to_string()),
            Some("r1c1 and r1c3 both hold 2 in cage 1 (sum 8 at r1c1)".into())
        );
        let mut over = Grid::empty(g);
        over.set(3, Some(3)).unwrap();
        assert_eq!(
            over.cage_conflict().map(|c| c.to_string()),
            Some("the values in cage 2 (sum 3 at r1c4) add up to 3, too much with 1 cell still empty".into())
        );
        let plain = Grid::empty(Arc::new(boxed()));
        assert_eq!(plain.cage_conflict(), None);
        assert_eq!(boxed().regions(), &Regions::Boxes { width: 2, height: 2 });
    }

    #[test]
    fn the_45_rule_on_the_first_row() {
        let g = boxed().with_cages(four()).expect("valid");
        let regions = derived_regions(&g, 4);
        let find = |cells: &[usize]| regions.iter().find(|r| r.cells == cells);
        // Row 1: the cage at r1c1 (8) lies inside, the one at r1c4 sticks out by r2c4.
        let innie = find(&[3]).expect("r1c4 alone");
        assert_eq!((innie.sum, &innie.origin), (2, &Origin::Innies(vec![HouseKind::Row(0)])));
        let outie = find(&[7]).expect("r2c4 alone");
        assert_eq!((outie.sum, &outie.origin), (1, &Origin::Outies(vec![HouseKind::Row(0)])));
        assert!(regions.iter().all(|r| !r.cells.is_empty() && r.cells.len() <= 4));
        assert!(all_see_each_other(&g, &[0, 1, 2]) && !all_see_each_other(&g, &[0, 15]));
        // A cell that Cell names as r1c4.
        assert_eq!(Cell::from_index(3, 4).to_string(), "r1c4");
        assert!(derived_regions(&boxed(), 4).is_empty());
    }

    #[test]
    fn sum_ranges() {
        assert_eq!(sum_range(1, 9), Some((1, 9)));
        assert_eq!(sum_range(2, 9), Some((3, 17)));
        assert_eq!(sum_range(9, 9), Some((45, 45)));
        assert_eq!(sum_range(3, 4), Some((6, 9)));
        assert_eq!(sum_range(0, 9), None);
        assert_eq!(sum_range(10, 9), None);
    }

    #[test]
    fn combination_tables_agree_with_a_plain_count() {
        for side in 1..=MAX_KILLER_SIDE {
            let mut total = 0;
            for size in 0..=side {
                for sum in 0..=(side * (side + 1) / 2) as u32 + 1 {
                    let sets = combinations(size, sum, side);
                    for &m in sets {
                        assert_eq!(m.count_ones() as usize, size);
                        let s: u32 =
                            (0..side as u32).filter(|b| m & (1 << b) != 0).map(|b| b + 1).sum();
                        assert_eq!(s, sum);
                        assert!((m as u32) < 1 << side);
                    }
                    assert!(sets.windows(2).all(|w| w[0] < w[1]));
                    total += sets.len();
                }
            }
            assert_eq!(total, 1 << side, "every subset of 1..={side} once");
        }
        // The classic tables: 17 in two cells is 8 + 9 only; 45 in nine cells is everything.
        assert_eq!(combinations(2, 17, 9), &[0b1_1000_0000]);
        assert_eq!(combinations(9, 45, 9), &[0b1_1111_1111]);
        assert_eq!(combinations(3, 15, 9).len(), 8);
        assert!(combinations(2, 18, 9).is_empty());
        assert!(combinations(2, 5, MAX_KILLER_SIDE + 1).is_empty());
    }

    #[test]
    fn open_combinations_respect_candidates_and_placed_values() {
        // Two open cells, 10 left: 1+9, 2+8, 3+7, 4+6. With 3 placed and one cell 1..4 only:
        let open = [0b1111, 0b1_1111_1111];
        let sets: Vec<Digits> = open_combinations(&open, 10, 0b100, 9).collect();
        assert_eq!(sets, vec![0b10_1000, 0b1000_0010, 0b1_0000_0001]);
    }
}
