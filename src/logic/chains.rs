//! Chains: X-Chains (one value, conjugate pairs), XY-Chains (bivalue cells) and AICs (any
//! candidates; nice loops included), found by a breadth-first search of implications from "this
//! candidate is false": a strong link makes the next candidate true, a weak link makes the next
//! one false. When a candidate `t` becomes true, either the start or `t` is true, so any
//! candidate that sees both goes; when the start itself becomes true, it is placed.
//!
//! Also Solo's forcing chain, which is an XY-Chain found in Solo's own search order.

use super::Ctx;
use super::board::{Bits, Board, bit, values};
use super::step::{Detail, Node, Step, Technique};

/// Which links a chain may use.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// One value: conjugate pairs as strong links, shared houses as weak links.
    X,
    /// Bivalue cells as strong links, shared houses on one value as weak links.
    Xy,
    /// Everything.
    Aic,
}

impl Kind {
    fn technique(self) -> Technique {
        match self {
            Kind::X => Technique::XChain,
            Kind::Xy => Technique::XyChain,
            Kind::Aic => Technique::Aic,
        }
    }
}

/// An X-Chain.
pub fn x_chain(cx: &mut Ctx) -> Option<Step> {
    chain(cx, Kind::X, 24)
}

/// An XY-Chain.
pub fn xy_chain(cx: &mut Ctx) -> Option<Step> {
    chain(cx, Kind::Xy, 24)
}

/// An AIC or nice loop.
pub fn aic(cx: &mut Ctx) -> Option<Step> {
    chain(cx, Kind::Aic, 24)
}

struct Search<'a> {
    b: &'a Board,
    kind: Kind,
    side: usize,
    /// Per state (node * 2 + truth): the generation it was reached in.
    seen: Vec<u32>,
    /// Per state: the state it was reached from.
    parent: Vec<u32>,
    /// Per state: chain length in nodes.
    depth: Vec<u16>,
    generation: u32,
    queue: Vec<u32>,
    work: u64,
}

impl<'a> Search<'a> {
    fn new(b: &'a Board, kind: Kind) -> Search<'a> {
        let states = b.layout().cells() * b.side() * 2;
        Search {
            b,
            kind,
            side: b.side(),
            seen: vec![0; states],
            parent: vec![u32::MAX; states],
            depth: vec![0; states],
            generation: 0,
            queue: Vec::new(),
            work: 0,
        }
    }

    fn node(&self, cell: usize, v: u8) -> usize {
        cell * self.side + v as usize - 1
    }

    fn split(&self, node: usize) -> (usize, u8) {
        (node / self.side, (node % self.side) as u8 + 1)
    }

    /// Nodes strongly linked to `node` (if it is false, they are true).
    fn strong(&self, node: usize, out: &mut Vec<usize>) {
        out.clear();
        let (c, v) = self.split(node);
        let b = self.b;
        if self.kind != Kind::X {
            let m = b.cands(c);
            if m.count_ones() == 2 {
                out.push(self.node(c, values(m & !bit(v)).next().unwrap_or(v)));
            }
        }
        if self.kind != Kind::Xy {
            let l = b.layout();
            for (h, at) in l.houses_of(c) {
                let p = b.positions(h, v);
                if p.count_ones() == 2 {
                    let other = l.house(h)[Bits(p & !(1u64 << at)).next().unwrap_or(at)] as usize;
                    let n = self.node(other, v);
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
            }
        }
    }

    /// Nodes weakly linked to `node` (if it is true, they are false).
    fn weak(&self, node: usize, out: &mut Vec<usize>) {
        out.clear();
        let (c, v) = self.split(node);
        let b = self.b;
        if self.kind == Kind::Aic {
            for w in values(b.cands(c) & !bit(v)) {
                out.push(self.node(c, w));
            }
        }
        for &p in b.layout().peers(c) {
            if b.has(p as usize, v) {
                out.push(self.node(p as usize, v));
            }
        }
    }

    /// The chain ending in `state`, start first.
    fn path(&self, mut state: usize) -> Vec<Node> {
        let mut nodes = Vec::new();
        loop {
            let (cell, value) = self.split(state / 2);
            // A true node was reached by a strong link.
            nodes.push(Node { cell, value, strong: state % 2 == 1 });
            let p = self.parent[state];
            if p == u32::MAX {
                break;
            }
            state = p as usize;
        }
        nodes.reverse();
        nodes
    }

    /// Breadth-first from "start is false", at most `max_len` nodes. Returns the shortest chain
    /// that proves something, as a step.
    fn from(&mut self, start: usize, max_len: usize) -> Option<Step> {
        self.generation += 1;
        let g = self.generation;
        self.queue.clear();
        let s0 = start * 2;
        self.seen[s0] = g;
        self.parent[s0] = u32::MAX;
        self.depth[s0] = 1;
        self.queue.push(s0 as u32);
        let mut head = 0;
        let mut links = Vec::new();
        while head < self.queue.len() {
            let state = self.queue[head] as usize;
            head += 1;
            let d = self.depth[state] as usize;
            if d >= max_len {
                continue;
            }
            let truth = state % 2 == 1;
            if truth {
                self.weak(state / 2, &mut links);
            } else {
                self.strong(state / 2, &mut links);
            }
            for &n in &links {
                self.work += 1;
                let next = n * 2 + usize::from(!truth);
                if self.seen[next] == g {
                    continue;
                }
                self.seen[next] = g;
                self.parent[next] = state as u32;
                self.depth[next] = (d + 1) as u16;
                self.queue.push(next as u32);
                if !truth && let Some(step) = self.conclude(start, n, next) {
                    return Some(step);
                }
            }
        }
        None
    }

    /// `start` false implies `end` true: what follows.
    fn conclude(&mut self, start: usize, end: usize, state: usize) -> Option<Step> {
        let b = self.b;
        let l = b.layout();
        let (c1, v1) = self.split(start);
        let (c2, v2) = self.split(end);
        let mut step = Step::new(self.kind.technique(), self.side);
        if end == start {
            step.place.push((c1, v1));
        } else if v1 == v2 {
            self.work += l.peers(c1).len() as u64;
            step.eliminate = l
                .peers(c1)
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| c != c2 && b.has(c, v1) && l.sees(c, c2))
                .map(|c| (c, v1))
                .collect();
        } else if c1 == c2 {
            step.eliminate = values(b.cands(c1) & !bit(v1) & !bit(v2)).map(|w| (c1, w)).collect();
        } else if l.sees(c1, c2) {
            if b.has(c2, v1) {
                step.eliminate.push((c2, v1));
            }
            if b.has(c1, v2) {
                step.eliminate.push((c1, v2));
            }
        }
        if step.is_empty() {
            return None;
        }
        let nodes = self.path(state);
        step.values = {
            let mut vs: Vec<u8> = nodes.iter().map(|n| n.value).collect();
            vs.sort_unstable();
            vs.dedup();
            vs
        };
        step.cells = nodes.iter().map(|n| n.cell).collect();
        step.detail = Detail::Chain(nodes);
        Some(step)
    }
}

/// The shortest chain of `kind` (up to `max_len` nodes) that proves something, trying every
/// start.
fn chain(cx: &mut Ctx, kind: Kind, max_len: usize) -> Option<Step> {
    let b = cx.board;
    let mut search = Search::new(b, kind);
    let mut best: Option<(usize, Step)> = None;
    let side = b.side();
    for cell in 0..b.layout().cells() {
        let m = b.cands(cell);
        if kind == Kind::Xy && m.count_ones() != 2 {
            continue;
        }
        for v in values(m) {
            let limit = best.as_ref().map_or(max_len, |(len, _)| len - 1);
            if limit < 2 {
                break;
            }
            if let Some(step) = search.from(cell * side + v as usize - 1, limit) {
                let len = step.cells.len();
                best = Some((len, step));
            }
        }
    }
    cx.work += search.work;
    best.map(|(_, s)| s)
}

/// Solo's forcing chain, in Solo's order: from each bivalue cell (reading order) and each of its
/// values `n` (ascending), assume the cell is the other value and follow bivalue cells
/// breadth-first (neighbours in column, row, region, diagonal order); the first open cell that
/// sees both the start and a chain cell forced to `n` loses `n`.
pub fn solo_forcing(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let n_cells = l.cells();
    let mut number = vec![0u8; n_cells];
    let mut prev = vec![usize::MAX; n_cells];
    let mut queue: Vec<usize> = Vec::with_capacity(n_cells);
    let mut neighbours: Vec<usize> = Vec::with_capacity(5 * side);
    let diagonal = l.geometry().has_diagonals();
    for start in 0..n_cells {
        let m = b.cands(start);
        if m.count_ones() != 2 {
            continue;
        }
        for orig in values(m) {
            number.iter_mut().for_each(|x| *x = 0);
            queue.clear();
            queue.push(start);
            prev[start] = usize::MAX;
            number[start] = values(m & !bit(orig)).next().unwrap_or(orig);
            let mut head = 0;
            while head < queue.len() {
                let cur = queue[head];
                head += 1;
                let currn = number[cur];
                let (row, col) = (cur / side, cur % side);
                neighbours.clear();
                neighbours.extend((0..side).map(|r| r * side + col));
                neighbours.extend((0..side).map(|c| row * side + c));
                neighbours
                    .extend(l.house(l.region_house(l.region(cur))).iter().map(|&c| c as usize));
                if diagonal {
                    if row == col {
                        neighbours.extend((0..side).map(|i| i * side + i));
                    }
                    if row + col == side - 1 {
                        neighbours.extend((0..side).map(|i| (i + 1) * (side - 1)));
                    }
                }
                for &nb in &neighbours {
                    cx.work += 1;
                    if number[nb] != 0 || !b.has(nb, currn) || nb == cur {
                        continue;
                    }
                    let nm = b.cands(nb);
                    if nm.count_ones() == 2 {
                        queue.push(nb);
                        prev[nb] = cur;
                        number[nb] = values(nm & !bit(currn)).next().unwrap_or(currn);
                    }
                    if currn == orig && l.sees(nb, start) {
                        return Some(solo_step(b, start, cur, &prev, &number, orig, nb));
                    }
                }
            }
        }
    }
    None
}

/// The XY-Chain Solo's forcing search found: from `start` (not `orig`) to `end` (forced to
/// `orig`); `target` loses `orig`.
fn solo_step(
    b: &Board,
    start: usize,
    end: usize,
    prev: &[usize],
    number: &[u8],
    orig: u8,
    target: usize,
) -> Step {
    let mut cells = vec![end];
    let mut c = end;
    while c != start {
        c = prev[c];
        cells.push(c);
    }
    cells.reverse();
    // In chain notation: (orig)start = (other)start - (other)next = ... = (orig)end.
    let mut nodes = Vec::new();
    for &cell in &cells {
        let forced = number[cell];
        let other = values(b.cands(cell) & !bit(forced)).next().unwrap_or(forced);
        nodes.push(Node { cell, value: other, strong: false });
        nodes.push(Node { cell, value: forced, strong: true });
    }
    let mut step = Step::new(Technique::XyChain, b.side());
    step.values = {
        let mut vs: Vec<u8> = nodes.iter().map(|n| n.value).collect();
        vs.sort_unstable();
        vs.dedup();
        vs
    };
    step.cells = cells;
    step.detail = Detail::Chain(nodes);
    step.eliminate.push((target, orig));
    step
}
