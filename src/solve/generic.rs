//! The engine for every geometry: candidate bitmasks per cell (bit `v - 1` for value `v`, so up
//! to 36 values in a `u64`).
//!
//! At each node the state is propagated to a fixpoint:
//! - naked singles: placing a value removes it from the cell's peers at once, and a peer left
//!   with one candidate is placed in turn (a work stack, no rescans);
//! - hidden singles: each house is scanned with the "seen once / seen twice" trick, which finds
//!   the values with exactly one place (placed there) and the values with none (a dead end).
//!
//! Then it branches on the unsolved cell with the fewest candidates, copying the state (a few
//! KiB at most) for each value tried.

use super::Sink;
use crate::grid::Grid;

/// Static tables for one geometry.
struct Tables {
    side: usize,
    full: u64,
    /// Peers of each cell (cells sharing a house), deduplicated.
    peers: Vec<Vec<u16>>,
    /// Every house as cell indices.
    houses: Vec<Vec<u16>>,
}

impl Tables {
    fn new(puzzle: &Grid) -> Tables {
        let g = puzzle.geometry();
        let n = g.cell_count();
        let mut peers = vec![Vec::new(); n];
        let houses: Vec<Vec<u16>> =
            g.houses().iter().map(|h| h.cells.iter().map(|&c| c as u16).collect()).collect();
        let mut mark = vec![usize::MAX; n];
        for (cell, list) in peers.iter_mut().enumerate() {
            mark[cell] = cell;
            for house in houses.iter().filter(|h| h.contains(&(cell as u16))) {
                for &p in house {
                    if mark[p as usize] != cell {
                        mark[p as usize] = cell;
                        list.push(p);
                    }
                }
            }
        }
        let side = g.side();
        let full = if side == 64 { u64::MAX } else { (1u64 << side) - 1 };
        Tables { side, full, peers, houses }
    }
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

/// Depth-first search reporting every solution to `sink` until it has enough. Returns the
/// number of branch points.
pub(super) fn search(puzzle: &Grid, sink: &mut Sink) -> u64 {
    if !sink.wants_more() {
        return 0;
    }
    let t = Tables::new(puzzle);
    let n = t.side * t.side;
    let mut state = State { cand: vec![t.full; n], value: vec![0; n], unsolved: n };
    let mut stack = Vec::new();
    for (i, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 && place(&t, &mut state, i, v, &mut stack).is_err() {
            return 0;
        }
    }
    let mut guesses = 0;
    recurse(&t, state, puzzle, sink, &mut guesses);
    guesses
}

fn recurse(t: &Tables, mut state: State, puzzle: &Grid, sink: &mut Sink, guesses: &mut u64) -> bool {
    if propagate(t, &mut state).is_err() {
        return true;
    }
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
    let mut stack = Vec::new();
    while options != 0 {
        let bit = options & options.wrapping_neg();
        options &= options - 1;
        let mut child = if options == 0 { std::mem::replace(&mut state, empty_state()) } else { state.clone() };
        stack.clear();
        if place(t, &mut child, best, bit.trailing_zeros() as u8 + 1, &mut stack).is_ok()
            && !recurse(t, child, puzzle, sink, guesses)
        {
            return false;
        }
    }
    true
}

fn empty_state() -> State {
    State { cand: Vec::new(), value: Vec::new(), unsolved: 0 }
}

/// Places `v` in `cell` and follows naked singles to a fixpoint.
fn place(t: &Tables, s: &mut State, cell: usize, v: u8, stack: &mut Vec<(usize, u8)>) -> Result<(), Dead> {
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
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in house {
                let m = s.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            if once != t.full {
                return Err(Dead::Contradiction);
            }
            let mut hidden = once & !twice;
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
        if !progress || s.unsolved == 0 {
            return Ok(());
        }
    }
}
