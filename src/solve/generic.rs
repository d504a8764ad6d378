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
                houses_of[c as usize].push(h);
            }
        }
        let mut mark = vec![usize::MAX; n];
        for (cell, list) in peers.iter_mut().enumerate() {
            mark[cell] = cell;
            for &h in &houses_of[cell] {
                for &p in &houses[h] {
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
        Tables { side, full, peers, houses, segments, groups }
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

enum Dead {
    Contradiction,
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

/// Depth-first search reporting every solution to `sink` until it has enough. Returns the
/// number of branch points.
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
        return sink.accept(puzzle, &state.value);
    }
    // Minimum remaining values; ties go to the first cell in reading order.
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
    *guesses += 1;
    let mut options = state.cand[best];
    // One reusable state per depth: branching copies into it instead of allocating.
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
                return Err(Dead::Contradiction);
            }
            continue;
        }
        if s.cand[cell] & bit == 0 {
            return Err(Dead::Contradiction);
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
                    return Err(Dead::Contradiction);
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
        for house in &t.houses {
            let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
            for &c in house {
                let m = s.cand[c as usize];
                placed |= m & 0u64.wrapping_sub((s.value[c as usize] != 0) as u64);
                twice |= once & m;
                once |= m;
            }
            if once != t.full {
                return Err(Dead::Contradiction);
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
                        return Err(Dead::Contradiction);
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
