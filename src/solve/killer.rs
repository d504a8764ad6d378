//! The Killer engine: the houses of any geometry up to [`MAX_KILLER_SIDE`] plus cages, with the
//! cage arithmetic inside the search.
//!
//! Candidates are bitmasks per cell (bit `v - 1` for value `v`). A cell's peers are the cells
//! of its houses and of its cage, so a placed value leaves its cage at once. Besides the cages,
//! the engine keeps the sum regions the 45 rule derives before the search
//! ([`killer::derived_regions`]: innies and outies of rows, columns, regions and unions of
//! them). At each node, to a fixpoint:
//!
//! - naked singles (a work stack) and hidden singles in every house;
//! - every cage and every derived region whose cells all differ: the combinations of its open
//!   cells ([`killer::open_combinations`], with the values already placed taken out of the
//!   sum; two open cells are matched exactly) bound each cell's candidates; a value every
//!   combination needs with one place left is placed, and with all its places in one house
//!   it leaves the rest of that house;
//! - every derived region whose values may repeat: min/max bounds (a value is out when the
//!   other cells' smallest or largest candidates cannot make up the rest of the sum).
//!
//! Then it branches on the open cell with the fewest candidates.

use std::rc::Rc;
use std::sync::Arc;

use super::Sink;
use crate::grid::killer::{self, CellSet, Digits, Houses};
use crate::grid::{Geometry, Grid};

/// Derived regions with more cells than this are left out: on Solo's Killer sets larger ones
/// cost more time at every node than they save (instruction counts over the fixtures: limit 3
/// or 4 about 20% below limit 9, with no more guesses); 4 keeps a little more for harder
/// puzzles.
const MAX_DERIVED_CELLS: usize = 4;

/// A cage or derived region: cells adding up to `sum`.
struct Region {
    /// `cells[start..start + len]` of [`Tables::region_cells`].
    start: u32,
    len: u32,
    sum: u32,
    /// All values differ (a cage, or cells that see each other).
    distinct: bool,
}

/// What depends only on the houses: shared by every puzzle of one shape.
struct Base {
    side: usize,
    full: Digits,
    houses: Vec<Vec<u16>>,
    /// House sets and unions for the 45 rule, and each cell's house peers.
    units: Houses,
}

impl Base {
    fn new(g: &Geometry) -> Base {
        let side = g.side();
        let houses: Vec<Vec<u16>> =
            g.houses().iter().map(|h| h.cells.iter().map(|&c| c as u16).collect()).collect();
        let full = ((1u32 << side) - 1) as Digits;
        Base { side, full, houses, units: Houses::new(g) }
    }

    /// Whether this base was built for a geometry with the same houses as `g`.
    fn fits(&self, key: &Geometry, g: &Geometry) -> bool {
        key.side() == g.side()
            && key.regions() == g.regions()
            && key.has_diagonals() == g.has_diagonals()
            && key.region_map() == g.region_map()
    }
}

/// Static tables for one puzzle's geometry.
struct Tables {
    base: Rc<Base>,
    side: usize,
    full: Digits,
    /// Cells sharing a house or a cage with each cell: `peers[peer_start[i]..peer_start[i + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u16>,
    /// Cages first, then the derived regions.
    regions: Vec<Region>,
    region_cells: Vec<u16>,
    /// The cells of each region as a set.
    region_sets: Vec<CellSet>,
}

impl Tables {
    fn new(g: &Geometry, base: Rc<Base>) -> Tables {
        let n = g.cell_count();
        let mut seen = base.units.seen.clone();
        for cage in g.cages() {
            let set = CellSet::of(cage.cells.iter().copied());
            for &i in &cage.cells {
                seen[i] = seen[i].or(set);
            }
        }
        let mut peer_start = Vec::with_capacity(n + 1);
        let mut peers = Vec::with_capacity(n * 3 * base.side);
        for (i, set) in seen.iter().enumerate() {
            peer_start.push(peers.len() as u32);
            peers.extend(set.iter().filter(|&p| p != i).map(|p| p as u16));
        }
        peer_start.push(peers.len() as u32);
        let mut regions = Vec::new();
        let mut region_cells = Vec::new();
        let mut region_sets = Vec::new();
        let mut add = |cells: &mut dyn Iterator<Item = usize>, sum: u32, distinct: bool| {
            let start = region_cells.len() as u32;
            region_cells.extend(cells.map(|i| i as u16));
            let len = region_cells.len() as u32 - start;
            regions.push(Region { start, len, sum, distinct });
            region_sets
                .push(CellSet::of(region_cells[start as usize..].iter().map(|&i| i as usize)));
        };
        for cage in g.cages() {
            add(&mut cage.cells.iter().copied(), cage.sum, true);
        }
        for r in killer::derive(g, &base.units, MAX_DERIVED_CELLS) {
            add(&mut r.cells.iter(), r.sum, r.distinct);
        }
        Tables {
            side: base.side,
            full: base.full,
            base,
            peer_start,
            peers,
            regions,
            region_cells,
            region_sets,
        }
    }

    fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    fn cells(&self, region: &Region) -> &[u16] {
        &self.region_cells[region.start as usize..(region.start + region.len) as usize]
    }
}

#[derive(Clone)]
struct State {
    cand: Vec<Digits>,
    value: Vec<u8>,
    unsolved: usize,
    /// Cells whose candidates changed since the sums were last looked at.
    changed: CellSet,
}

impl State {
    fn copy_from(&mut self, other: &State) {
        self.cand.copy_from_slice(&other.cand);
        self.value.copy_from_slice(&other.value);
        self.unsolved = other.unsolved;
        self.changed = other.changed;
    }
}

/// A contradiction: this branch has no solution.
struct Dead;

thread_local! {
    /// The house tables of the last shape this thread solved (batches are usually one shape;
    /// the cages differ from puzzle to puzzle, so those tables are built each time).
    static LAST_BASE: std::cell::RefCell<Option<(Arc<Geometry>, Rc<Base>)>> =
        const { std::cell::RefCell::new(None) };
}

fn tables_for(puzzle: &Grid) -> Tables {
    let g = puzzle.geometry();
    let base = LAST_BASE.with(|cell| {
        let mut cached = cell.borrow_mut();
        if let Some((key, base)) = cached.as_ref()
            && base.fits(key, g)
        {
            return Rc::clone(base);
        }
        let base = Rc::new(Base::new(g));
        *cached = Some((Arc::clone(puzzle.geometry_arc()), Rc::clone(&base)));
        base
    });
    Tables::new(g, base)
}

/// Depth-first search reporting every solution to `sink` until it has enough. Returns the
/// number of branch points.
pub(super) fn search(puzzle: &Grid, sink: &mut Sink) -> u64 {
    if !sink.wants_more() || puzzle.side() > killer::MAX_KILLER_SIDE {
        return 0;
    }
    let t = &tables_for(puzzle);
    let n = t.side * t.side;
    let everything = CellSet::of(0..n);
    let mut state =
        State { cand: vec![t.full; n], value: vec![0; n], unsolved: n, changed: everything };
    let mut stack = Vec::new();
    for (i, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 && place(t, &mut state, i, v, &mut stack).is_err() {
            return 0;
        }
    }
    let mut guesses = 0;
    recurse(t, &mut vec![state], 0, puzzle, sink, &mut guesses);
    guesses
}

fn recurse(
    t: &Tables,
    pool: &mut Vec<State>,
    depth: usize,
    puzzle: &Grid,
    sink: &mut Sink,
    guesses: &mut u64,
) -> bool {
    if propagate(t, &mut pool[depth]).is_err() {
        return true;
    }
    let state = &pool[depth];
    if state.unsolved == 0 {
        // The last placements may have come from singles after the sums were last looked at.
        if !t.regions.iter().all(|r| adds_up(t.cells(r), r.sum, &state.value)) {
            return true;
        }
        return sink.accept(puzzle, &state.value);
    }
    let mut best = usize::MAX;
    let mut best_count = u32::MAX;
    for (i, &c) in state.cand.iter().enumerate() {
        if state.value[i] == 0 {
            let k = c.count_ones();
            if k < best_count {
                best_count = k;
                best = i;
                if k == 2 {
                    break;
                }
            }
        }
    }
    if !sink.branch() {
        return false;
    }
    *guesses += 1;
    let mut options = state.cand[best];
    if pool.len() == depth + 1 {
        let copy = pool[depth].clone();
        pool.push(copy);
    }
    let mut stack = Vec::new();
    while options != 0 {
        let bit = options & options.wrapping_neg();
        options &= options - 1;
        let (parents, children) = pool.split_at_mut(depth + 1);
        let child = &mut children[0];
        child.copy_from(&parents[depth]);
        stack.clear();
        if place(t, child, best, bit.trailing_zeros() as u8 + 1, &mut stack).is_ok()
            && !recurse(t, pool, depth + 1, puzzle, sink, guesses)
        {
            return false;
        }
    }
    true
}

/// Whether a filled region adds up to its sum.
fn adds_up(cells: &[u16], sum: u32, value: &[u8]) -> bool {
    cells.iter().map(|&c| u32::from(value[c as usize])).sum::<u32>() == sum
}

/// Places `v` in `cell` and follows naked singles to a fixpoint.
fn place(
    t: &Tables,
    s: &mut State,
    cell: usize,
    v: u8,
    stack: &mut Vec<(usize, u8)>,
) -> Result<(), Dead> {
    stack.push((cell, v));
    while let Some((cell, v)) = stack.pop() {
        let bit = 1 << (v - 1);
        if s.value[cell] != 0 {
            if s.value[cell] != v {
                return Err(Dead);
            }
            continue;
        }
        if s.cand[cell] & bit == 0 {
            return Err(Dead);
        }
        s.value[cell] = v;
        s.cand[cell] = bit;
        s.unsolved -= 1;
        s.changed.insert(cell);
        for &p in t.peers(cell) {
            let p = p as usize;
            let c = s.cand[p];
            if c & bit != 0 {
                let c = c & !bit;
                s.cand[p] = c;
                s.changed.insert(p);
                if c == 0 {
                    return Err(Dead);
                }
                if c & (c - 1) == 0 && s.value[p] == 0 {
                    stack.push((p, c.trailing_zeros() as u8 + 1));
                }
            }
        }
    }
    Ok(())
}

/// Narrows a cell to `keep`; places it when one value is left.
fn restrict(
    t: &Tables,
    s: &mut State,
    cell: usize,
    keep: Digits,
    stack: &mut Vec<(usize, u8)>,
) -> Result<bool, Dead> {
    let c = s.cand[cell];
    let left = c & keep;
    if left == c {
        return Ok(false);
    }
    if left == 0 {
        return Err(Dead);
    }
    s.cand[cell] = left;
    s.changed.insert(cell);
    if left & (left - 1) == 0 {
        place(t, s, cell, left.trailing_zeros() as u8 + 1, stack)?;
    }
    Ok(true)
}

/// Singles, then the sums, until nothing changes.
fn propagate(t: &Tables, s: &mut State) -> Result<(), Dead> {
    let mut stack = Vec::new();
    loop {
        let mut progress = hidden_singles(t, s, &mut stack)?;
        if s.unsolved == 0 {
            return Ok(());
        }
        if !progress {
            // Only the regions with a cell changed since their last look.
            let changed = std::mem::take(&mut s.changed);
            for (region, set) in t.regions.iter().zip(&t.region_sets) {
                if !set.and(changed).is_empty() {
                    progress |= sums(t, s, region, &mut stack)?;
                }
            }
        }
        if !progress || s.unsolved == 0 {
            return Ok(());
        }
    }
}

/// Hidden singles in every house; returns whether anything was placed.
fn hidden_singles(t: &Tables, s: &mut State, stack: &mut Vec<(usize, u8)>) -> Result<bool, Dead> {
    let mut progress = false;
    for house in &t.base.houses {
        let (mut once, mut twice, mut placed) = (0 as Digits, 0 as Digits, 0 as Digits);
        for &c in house {
            let m = s.cand[c as usize];
            placed |= m & (0 as Digits).wrapping_sub(Digits::from(s.value[c as usize] != 0));
            twice |= once & m;
            once |= m;
        }
        if once != t.full {
            return Err(Dead);
        }
        let mut hidden = once & !twice & !placed;
        while hidden != 0 {
            let bit = hidden & hidden.wrapping_neg();
            hidden &= hidden - 1;
            let Some(&cell) = house.iter().find(|&&c| s.cand[c as usize] & bit != 0) else {
                continue;
            };
            let cell = cell as usize;
            if s.value[cell] == 0 {
                place(t, s, cell, bit.trailing_zeros() as u8 + 1, stack)?;
                progress = true;
            }
        }
    }
    Ok(progress)
}

/// The largest cage or region is a whole house: at most the side, 12.
const MAX_OPEN: usize = killer::MAX_KILLER_SIDE;

/// The sum rules of one cage or derived region; returns whether a candidate went.
fn sums(
    t: &Tables,
    s: &mut State,
    region: &Region,
    stack: &mut Vec<(usize, u8)>,
) -> Result<bool, Dead> {
    let mut open = [0 as Digits; MAX_OPEN];
    let mut cells = [0usize; MAX_OPEN];
    let (mut k, mut placed, mut total) = (0usize, 0 as Digits, 0u32);
    let region_cells = t.cells(region);
    for &c in region_cells {
        let c = c as usize;
        match s.value[c] {
            0 if k < MAX_OPEN => {
                open[k] = s.cand[c];
                cells[k] = c;
                k += 1;
            }
            0 => return Ok(false),
            v => {
                placed |= 1 << (v - 1);
                total += u32::from(v);
            }
        }
    }
    let Some(left) = region.sum.checked_sub(total) else { return Err(Dead) };
    if k == 0 {
        return if left == 0 { Ok(false) } else { Err(Dead) };
    }
    if !region.distinct {
        return bounds(t, s, &open[..k], &cells[..k], left, stack);
    }
    if k == 1 {
        if left == 0 || left as usize > t.side {
            return Err(Dead);
        }
        restrict(t, s, cells[0], 1 << (left - 1), stack)?;
        return Ok(true);
    }
    if k == 2 {
        let (a, b) = (open[0], open[1]);
        let keep_a = partners(b, left, t.side);
        let keep_b = partners(a, left, t.side);
        let changed = restrict(t, s, cells[0], keep_a, stack)?;
        return Ok(restrict(t, s, cells[1], keep_b, stack)? || changed);
    }
    let (mut allowed, mut required) = (0 as Digits, t.full);
    for m in killer::open_combinations(&open[..k], left, placed, t.side) {
        allowed |= m;
        required &= m;
    }
    if allowed == 0 {
        return Err(Dead);
    }
    let mut changed = false;
    for &c in &cells[..k] {
        changed |= restrict(t, s, c, allowed, stack)?;
    }
    // A value every combination needs: one place left places it; places all in one house
    // take it out of the rest of that house.
    let mut needed = required & !placed;
    while needed != 0 {
        let bit = needed & needed.wrapping_neg();
        needed &= needed - 1;
        let mut places = cells[..k].iter().copied().filter(|&c| s.cand[c] & bit != 0);
        let Some(first) = places.next() else { return Err(Dead) };
        if s.value[first] != 0 {
            continue;
        }
        // The houses all places share: the first place's, minus those another place lacks.
        let mut common = CellSet::default();
        let mut seen_by_all = t.base.units.seen[first];
        let mut count = 1;
        for c in places {
            count += 1;
            seen_by_all = seen_by_all.and(t.base.units.seen[c]);
        }
        if count == 1 {
            place(t, s, first, bit.trailing_zeros() as u8 + 1, stack)?;
            changed = true;
            continue;
        }
        // Every cell outside the region that sees all the places loses the value.
        for &c in region_cells {
            common.insert(c as usize);
        }
        for p in seen_by_all.minus(common).iter() {
            if s.value[p] == 0 && s.cand[p] & bit != 0 {
                changed |= restrict(t, s, p, !bit, stack)?;
            }
        }
    }
    Ok(changed)
}

/// The values `v` for which `sum - v` is a different value in `mask`.
fn partners(mask: Digits, sum: u32, side: usize) -> Digits {
    let mut out = 0;
    let mut m = mask;
    while m != 0 {
        let e = m.trailing_zeros() + 1;
        m &= m - 1;
        if let Some(v) = sum.checked_sub(e)
            && v >= 1
            && v as usize <= side
            && v != e
        {
            out |= 1 << (v - 1);
        }
    }
    out
}

/// Min/max bounds of a region whose values may repeat.
fn bounds(
    t: &Tables,
    s: &mut State,
    open: &[Digits],
    cells: &[usize],
    left: u32,
    stack: &mut Vec<(usize, u8)>,
) -> Result<bool, Dead> {
    let low = |m: Digits| m.trailing_zeros() + 1;
    let high = |m: Digits| Digits::BITS - m.leading_zeros();
    let min: u32 = open.iter().map(|&m| low(m)).sum();
    let max: u32 = open.iter().map(|&m| high(m)).sum();
    if left < min || left > max {
        return Err(Dead);
    }
    let mut changed = false;
    for (&m, &c) in open.iter().zip(cells) {
        // This cell's value v: the others make left - v, between min - low and max - high.
        let top = left - (min - low(m));
        let bottom = left.saturating_sub(max - high(m)).max(1);
        if bottom > 1 || top < t.side as u32 {
            let below_top = if top >= 16 { Digits::MAX } else { (1 << top) - 1 };
            let keep = below_top & !((1 << (bottom - 1)) - 1);
            changed |= restrict(t, s, c, keep, stack)?;
        }
    }
    Ok(changed)
}
