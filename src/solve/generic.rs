//! The engine for every geometry: candidate bitmasks per cell (bit `v - 1` for value `v`, so up
//! to 36 values in a `u64`).
//!
//! At each node the state is propagated to a fixpoint:
//! - naked singles: placing a value removes it from the cell's peers at once, and a peer left
//!   with one candidate is placed in turn (a work stack, no rescans);
//! - hidden singles: each house is scanned with the "seen once / seen twice" trick, which finds
//!   the values with exactly one place (placed there) and the values with none (a dead end).
//!
//! - locked candidates: every row and column is cut into segments by the regions; a value whose
//!   places in a region all lie in one segment leaves the rest of that line ("pointing"), and a
//!   value whose places in a line all lie in one segment leaves the rest of that region
//!   ("claiming"). Both are computed for all values at once with the same once/twice masks.
//!   On sparse 16x16 and 25x25 puzzles this cuts the search several times over.
//!
//! Then it branches on the unsolved cell with the fewest candidates, copying the state (a few
//! KiB at most) for each value tried.

use std::rc::Rc;
use std::sync::Arc;

use super::Sink;
use crate::grid::{Geometry, Grid};

/// Static tables for one geometry.
struct Tables {
    side: usize,
    full: u64,
    /// Peers of each cell (cells sharing a house), deduplicated.
    peers: Vec<Vec<u16>>,
    /// Every house as cell indices.
    houses: Vec<Vec<u16>>,
    /// The houses of each cell.
    houses_of: Vec<Vec<u16>>,
    /// Intersections of a line (row or column) with a region.
    segments: Vec<Segment>,
    /// For each region, then each line: the segments it is cut into, in groups (by region for
    /// rows, by region for columns, by row, by column), each as indices into `segments`.
    groups: Vec<Group>,
}

/// The cells a row or column shares with a region, and the cells of each outside the other.
struct Segment {
    cells: Vec<u16>,
    /// The line's cells outside the region.
    line_rest: Vec<u16>,
    /// The region's cells outside the line.
    region_rest: Vec<u16>,
    /// The other segments of the same line: together, exactly `line_rest`.
    line_others: Vec<usize>,
    /// The other segments of the region in the same direction; when `region_covered`, they
    /// hold exactly `region_rest` (not when a line inside the region has no segments).
    region_others: Vec<usize>,
    region_covered: bool,
}

/// Segments that together cover one house; values confined to one of them are locked there.
struct Group {
    segments: Vec<usize>,
    /// Whether the house is the region (eliminate from the segment's line) or the line
    /// (eliminate from the segment's region).
    house_is_region: bool,
}

impl Tables {
    fn new(puzzle: &Grid) -> Tables {
        let g = puzzle.geometry();
        let n = g.cell_count();
        let mut peers = vec![Vec::new(); n];
        let houses: Vec<Vec<u16>> =
            g.houses().iter().map(|h| h.cells.iter().map(|&c| c as u16).collect()).collect();
        let mut houses_of = vec![Vec::new(); n];
        for (h, house) in houses.iter().enumerate() {
            for &c in house {
                houses_of[c as usize].push(h as u16);
            }
        }
        let mut mark = vec![usize::MAX; n];
        for (cell, list) in peers.iter_mut().enumerate() {
            mark[cell] = cell;
            for &h in &houses_of[cell] {
                for &p in &houses[h as usize] {
                    if mark[p as usize] != cell {
                        mark[p as usize] = cell;
                        list.push(p);
                    }
                }
            }
        }
        let side = g.side();
        let full = if side == 64 { u64::MAX } else { (1u64 << side) - 1 };
        let (segments, groups) = locked_candidate_tables(g);
        Tables { side, full, peers, houses, houses_of, segments, groups }
    }
}

/// Builds the line/region segments of a geometry and the groups that cover each house. Lines
/// lying inside one region (a 1-wide box) give no segments worth checking and are skipped.
fn locked_candidate_tables(g: &Geometry) -> (Vec<Segment>, Vec<Group>) {
    let side = g.side();
    let mut segments = Vec::new();
    // by_region[region][orientation] and by_line[orientation][line] list segment indices.
    // Orientations: rows, columns, and on X puzzles the main diagonal and the anti-diagonal
    // (one line each). A diagonal's segments give claiming (a value of the diagonal confined
    // to one box leaves the rest of that box); the box's side of it would need the box's other
    // cells, which no diagonal segments cover, so it is not checked.
    let orientations = if g.has_diagonals() { 4 } else { 2 };
    let mut by_region = vec![vec![Vec::new(); orientations]; side];
    let mut by_line: Vec<Vec<Vec<usize>>> =
        (0..orientations).map(|o| vec![Vec::new(); if o < 2 { side } else { 1 }]).collect();
    for (orientation, lines) in by_line.iter_mut().enumerate() {
        for (line, line_segments) in lines.iter_mut().enumerate() {
            let line_cells: Vec<u16> = (0..side)
                .map(|k| match orientation {
                    0 => line * side + k,
                    1 => k * side + line,
                    2 => k * side + k,
                    _ => k * side + (side - 1 - k),
                } as u16)
                .collect();
            let mut regions: Vec<usize> =
                line_cells.iter().map(|&c| g.region_of(c as usize)).collect();
            regions.sort_unstable();
            regions.dedup();
            if regions.len() < 2 {
                continue;
            }
            for region in regions {
                let cells: Vec<u16> = line_cells
                    .iter()
                    .copied()
                    .filter(|&c| g.region_of(c as usize) == region)
                    .collect();
                let line_rest = line_cells.iter().copied().filter(|c| !cells.contains(c)).collect();
                let region_rest = g.houses()[2 * side + region]
                    .cells
                    .iter()
                    .map(|&c| c as u16)
                    .filter(|c| !cells.contains(c))
                    .collect();
                by_region[region][orientation].push(segments.len());
                line_segments.push(segments.len());
                segments.push(Segment {
                    cells,
                    line_rest,
                    region_rest,
                    line_others: Vec::new(),
                    region_others: Vec::new(),
                    region_covered: false,
                });
            }
        }
    }
    let others = |list: &[usize], me: usize| -> Vec<usize> {
        list.iter().copied().filter(|&o| o != me).collect()
    };
    for lines in &by_line {
        for list in lines {
            for &i in list {
                segments[i].line_others = others(list, i);
            }
        }
    }
    for pair in &by_region {
        for list in pair {
            for &i in list {
                let region_others = others(list, i);
                let covered: usize = region_others.iter().map(|&o| segments[o].cells.len()).sum();
                segments[i].region_covered = covered == segments[i].region_rest.len();
                segments[i].region_others = region_others;
            }
        }
    }
    let mut groups = Vec::new();
    for pair in by_region {
        for list in pair {
            if list.len() >= 2 {
                groups.push(Group { segments: list, house_is_region: true });
            }
        }
    }
    for lines in by_line {
        for list in lines {
            if list.len() >= 2 {
                groups.push(Group { segments: list, house_is_region: false });
            }
        }
    }
    (segments, groups)
}

#[derive(Clone)]
struct State {
    cand: Vec<u64>,
    value: Vec<u8>,
    unsolved: usize,
}

/// A dead end, and where it showed.
enum Dead {
    /// A house with a value that has no place left.
    House(usize),
    /// A cell with no value left (or two values forced into it).
    Cell(usize),
}

/// How often each house took part in a dead end, so far in this search: branching prefers
/// cells in the houses that fail most (the "weighted degree" of constraint solvers), so a
/// search that meets the same contradiction again and again (a board without a solution, or a
/// wrong early guess) turns to the part of the board that causes it instead of enumerating
/// the rest of the board under it.
struct Heat {
    house: Vec<u32>,
}

impl Heat {
    fn record(&mut self, t: &Tables, dead: Dead) {
        match dead {
            Dead::House(h) => self.house[h] = self.house[h].saturating_add(1),
            Dead::Cell(c) => {
                for &h in &t.houses_of[c] {
                    self.house[h as usize] = self.house[h as usize].saturating_add(1);
                }
            }
        }
    }

    fn of_cell(&self, t: &Tables, cell: usize) -> u64 {
        t.houses_of[cell].iter().map(|&h| self.house[h as usize] as u64).sum()
    }
}

thread_local! {
    /// The tables of the last geometry this thread solved: batches are usually one shape, and
    /// building the tables costs more than solving a small puzzle.
    static LAST_TABLES: std::cell::RefCell<Option<(Arc<Geometry>, Rc<Tables>)>> =
        const { std::cell::RefCell::new(None) };
}

fn tables_for(puzzle: &Grid) -> Rc<Tables> {
    LAST_TABLES.with(|cell| {
        let mut cached = cell.borrow_mut();
        if let Some((geometry, tables)) = cached.as_ref()
            && (Arc::ptr_eq(geometry, puzzle.geometry_arc()) || **geometry == *puzzle.geometry())
        {
            return Rc::clone(tables);
        }
        let tables = Rc::new(Tables::new(puzzle));
        *cached = Some((Arc::clone(puzzle.geometry_arc()), Rc::clone(&tables)));
        tables
    })
}

/// Branch points of the first run before a restart; each further run may take half as many
/// again as the one before.
const FIRST_RUN: u64 = 200;

/// Depth-first search reporting every solution to `sink` until it has enough. Returns the
/// number of branch points.
///
/// Until a first solution turns up, the search restarts from the givens after a growing number
/// of branch points, keeping the heat of the houses (see [`Heat`]): on a thin board a wrong
/// early guess can hide a subtree without solutions that takes minutes to exhaust, and a fresh
/// start that branches first where the dead ends showed avoids it. A run that finds a solution
/// goes on to the end, so solutions are reported once each, in that run's order; a run that
/// ends without reaching its cutoff was exhaustive, so "no solution" is proven.
pub(super) fn search(puzzle: &Grid, sink: &mut Sink) -> u64 {
    if !sink.wants_more() {
        return 0;
    }
    let t = tables_for(puzzle);
    let t = &*t;
    let n = t.side * t.side;
    let mut state = State { cand: vec![t.full; n], value: vec![0; n], unsolved: n };
    let mut stack = Vec::new();
    for (i, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 && place(t, &mut state, i, v, &mut stack).is_err() {
            return 0;
        }
    }
    let mut search = Search {
        t,
        puzzle,
        sink,
        guesses: 0,
        heat: Heat { house: vec![1; t.houses.len()] },
        cutoff: FIRST_RUN,
        restart: false,
    };
    let mut run = FIRST_RUN;
    let mut pool = vec![state];
    loop {
        pool.truncate(1);
        search.restart = false;
        search.recurse(&mut pool, 0);
        if !search.restart {
            return search.guesses;
        }
        run += run / 2;
        search.cutoff = search.guesses.saturating_add(run);
    }
}

/// One search: the tables, where solutions go, and what the runs so far learned.
struct Search<'a> {
    t: &'a Tables,
    puzzle: &'a Grid,
    sink: &'a mut Sink,
    guesses: u64,
    heat: Heat,
    /// The branch-point count at which a run without a solution yet starts over.
    cutoff: u64,
    /// Whether the run stopped to start over.
    restart: bool,
}

impl Search<'_> {
    /// Searches below `pool[depth]`; returns whether to go on (false once the sink has enough,
    /// the budget is spent or the run starts over).
    fn recurse(&mut self, pool: &mut Vec<State>, depth: usize) -> bool {
        let t = self.t;
        if let Err(dead) = propagate(t, &mut pool[depth]) {
            self.heat.record(t, dead);
            return true;
        }
        let state = &pool[depth];
        if state.unsolved == 0 {
            return self.sink.accept(self.puzzle, &state.value);
        }
        if self.sink.found == 0 && self.guesses >= self.cutoff {
            self.restart = true;
            return false;
        }
        let branch = choose(t, state, &self.heat);
        if !self.sink.branch() {
            return false;
        }
        self.guesses += 1;
        // One reusable state per depth: branching copies into it instead of allocating.
        if pool.len() == depth + 1 {
            let copy = pool[depth].clone();
            pool.push(copy);
        }
        let mut stack = Vec::new();
        for (cell, v) in branch {
            let (parents, children) = pool.split_at_mut(depth + 1);
            let child = &mut children[0];
            child.copy_from(&parents[depth]);
            stack.clear();
            match place(t, child, cell, v, &mut stack) {
                Err(dead) => self.heat.record(t, dead),
                Ok(()) => {
                    if !self.recurse(pool, depth + 1) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// The branch of a node: the open cell with the fewest candidates per unit of heat (ties to the
/// first in reading order); when that cell has more than two candidates, a value with exactly
/// two places in a house splits the search in two instead (the hottest such house, then the
/// lowest value).
fn choose(t: &Tables, s: &State, heat: &Heat) -> Vec<(usize, u8)> {
    let (mut best, mut best_count, mut best_heat) = (usize::MAX, u64::MAX, 1u64);
    for (i, &c) in s.cand.iter().enumerate() {
        if s.value[i] == 0 {
            let k = c.count_ones() as u64;
            let h = heat.of_cell(t, i);
            // k / h < best_count / best_heat, without division.
            if best == usize::MAX || k * best_heat < best_count * h {
                (best, best_count, best_heat) = (i, k, h);
            }
        }
    }
    if best_count <= 2 {
        return cell_options(t, s, best);
    }
    let mut pair: Option<(u32, usize, u64)> = None;
    for (h, house) in t.houses.iter().enumerate() {
        let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
        for &c in house {
            let c = c as usize;
            let m = s.cand[c] & 0u64.wrapping_sub((s.value[c] == 0) as u64);
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        let two = twice & !thrice;
        if two != 0 && pair.is_none_or(|(w, _, _)| heat.house[h] > w) {
            pair = Some((heat.house[h], h, two & two.wrapping_neg()));
        }
    }
    let Some((_, h, bit)) = pair else { return cell_options(t, s, best) };
    let v = bit.trailing_zeros() as u8 + 1;
    t.houses[h]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| s.value[c] == 0 && s.cand[c] & bit != 0)
        .map(|c| (c, v))
        .collect()
}

/// The values of `cell`, those left open in the fewest of its peers first (the value that
/// takes the least from the rest of the board, and the one its houses have the fewest other
/// places for): on boards with many solutions the first guess is then usually right.
fn cell_options(t: &Tables, s: &State, cell: usize) -> Vec<(usize, u8)> {
    let mut options: Vec<(u32, u8)> = Vec::new();
    let mut left = s.cand[cell];
    while left != 0 {
        let bit = left & left.wrapping_neg();
        left &= left - 1;
        let peers = t.peers[cell].iter().filter(|&&p| s.cand[p as usize] & bit != 0).count();
        options.push((peers as u32, bit.trailing_zeros() as u8 + 1));
    }
    options.sort_unstable();
    options.into_iter().map(|(_, v)| (cell, v)).collect()
}

impl State {
    fn copy_from(&mut self, other: &State) {
        self.cand.copy_from_slice(&other.cand);
        self.value.copy_from_slice(&other.value);
        self.unsolved = other.unsolved;
    }
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
        let bit = 1u64 << (v - 1);
        if s.value[cell] != 0 {
            if s.value[cell] != v {
                return Err(Dead::Cell(cell));
            }
            continue;
        }
        if s.cand[cell] & bit == 0 {
            return Err(Dead::Cell(cell));
        }
        s.value[cell] = v;
        s.cand[cell] = bit;
        s.unsolved -= 1;
        for &p in &t.peers[cell] {
            let p = p as usize;
            let c = s.cand[p];
            if c & bit != 0 {
                let c = c & !bit;
                s.cand[p] = c;
                if c == 0 {
                    return Err(Dead::Cell(p));
                }
                if c & (c - 1) == 0 && s.value[p] == 0 {
                    stack.push((p, c.trailing_zeros() as u8 + 1));
                }
            }
        }
    }
    Ok(())
}

/// Hidden singles in every house until nothing changes.
fn propagate(t: &Tables, s: &mut State) -> Result<(), Dead> {
    let mut stack = Vec::new();
    loop {
        let mut progress = false;
        for (h, house) in t.houses.iter().enumerate() {
            let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
            for &c in house {
                let m = s.cand[c as usize];
                placed |= m & 0u64.wrapping_sub((s.value[c as usize] != 0) as u64);
                twice |= once & m;
                once |= m;
            }
            if once != t.full {
                return Err(Dead::House(h));
            }
            // Values already placed in the house occur once too; they are not news.
            let mut hidden = once & !twice & !placed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                let Some(&cell) = house.iter().find(|&&c| s.cand[c as usize] & bit != 0) else {
                    continue;
                };
                let cell = cell as usize;
                if s.value[cell] == 0 {
                    place(t, s, cell, bit.trailing_zeros() as u8 + 1, &mut stack)?;
                    progress = true;
                }
            }
        }
        if !progress && s.unsolved != 0 {
            progress = locked_candidates(t, s, &mut stack)?;
        }
        if !progress || s.unsolved == 0 {
            return Ok(());
        }
    }
}

/// One pass of pointing and claiming over every group; returns whether anything changed.
///
/// The open candidates of every segment are gathered once, before any elimination of the
/// pass. Eliminations only shrink them, so a value found confined to one segment is still
/// confined to it (or placed in it), and every elimination stays sound; what the stale masks
/// miss, the next pass finds (a pass that changed anything is followed by another).
fn locked_candidates(
    t: &Tables,
    s: &mut State,
    stack: &mut Vec<(usize, u8)>,
) -> Result<bool, Dead> {
    let mut changed = false;
    let mut masks = vec![0u64; t.segments.len()];
    for (mask, segment) in masks.iter_mut().zip(&t.segments) {
        // Only open cells: a placed value is already gone from the rest of its houses.
        for &c in &segment.cells {
            *mask |= s.cand[c as usize] & 0u64.wrapping_sub((s.value[c as usize] == 0) as u64);
        }
    }
    for group in &t.groups {
        let (mut once, mut twice) = (0u64, 0u64);
        for &seg in &group.segments {
            let m = masks[seg];
            twice |= once & m;
            once |= m;
        }
        let exclusive = once & !twice;
        if exclusive == 0 {
            continue;
        }
        for &seg in &group.segments {
            let locked = masks[seg] & exclusive;
            if locked == 0 {
                continue;
            }
            let segment = &t.segments[seg];
            let (rest, others, covered) = if group.house_is_region {
                (&segment.line_rest, &segment.line_others, true)
            } else {
                (&segment.region_rest, &segment.region_others, segment.region_covered)
            };
            // Nothing to take away when the rest has none of the values open (placed cells
            // never hold a locked value).
            if covered && others.iter().fold(0, |a, &o| a | masks[o]) & locked == 0 {
                continue;
            }
            for &c in rest {
                let c = c as usize;
                let cand = s.cand[c];
                if cand & locked != 0 {
                    let left = cand & !locked;
                    if left == 0 {
                        return Err(Dead::Cell(c));
                    }
                    s.cand[c] = left;
                    changed = true;
                    if left & (left - 1) == 0 {
                        place(t, s, c, left.trailing_zeros() as u8 + 1, stack)?;
                    }
                }
            }
        }
    }
    Ok(changed)
}
