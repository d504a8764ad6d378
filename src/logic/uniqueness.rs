//! Uniqueness techniques, sound only for puzzles with one solution (the engine checks that
//! first): unique rectangles types 1 to 4 and BUG+1.
//!
//! A deadly pattern is four open cells on two rows and two columns, in exactly two regions, that
//! could swap two values without breaking any house: every house holds none or two of them. If
//! all four kept only those two values, the puzzle would have no solution or several.

use super::Ctx;
use super::board::{Board, bit, full_mask, values};
use super::step::{Step, Technique};
use super::subsets::combinations;

/// Whether the puzzle has Killer cages: swapping two values in a pattern changes cage sums, so
/// no pattern is deadly and these techniques do not apply.
fn killer(cx: &Ctx) -> bool {
    cx.board.layout().geometry().is_killer()
}

/// A rectangle: cells `[top-left, top-right, bottom-left, bottom-right]` and its two values.
struct Rectangle {
    cells: [usize; 4],
    pair: u64,
}

/// Every possible deadly pattern on the board: four open cells that all hold the two values of
/// a bivalue corner.
fn rectangles(cx: &mut Ctx) -> Vec<Rectangle> {
    let b = cx.board;
    if killer(cx) {
        return Vec::new();
    }
    let l = b.layout();
    let side = l.side();
    let mut out: Vec<Rectangle> = Vec::new();
    for a in 0..l.cells() {
        let pair = b.cands(a);
        if pair.count_ones() != 2 {
            continue;
        }
        let (r1, c1) = (a / side, a % side);
        for c2 in 0..side {
            let tr = r1 * side + c2;
            if c2 == c1 || b.cands(tr) & pair != pair {
                continue;
            }
            for r2 in 0..side {
                cx.work += 1;
                let (bl, br) = (r2 * side + c1, r2 * side + c2);
                if r2 == r1 || b.cands(bl) & pair != pair || b.cands(br) & pair != pair {
                    continue;
                }
                let mut cells = [a, tr, bl, br];
                cells.sort_unstable();
                if !deadly(b, &cells) || out.iter().any(|r| r.cells == cells && r.pair == pair) {
                    continue;
                }
                out.push(Rectangle { cells, pair });
            }
        }
    }
    out
}

/// Whether four cells (sorted: top-left, top-right, bottom-left, bottom-right) may form a deadly
/// pattern: two regions, each holding one side of the rectangle, and every other house holding
/// none or two of the cells.
fn deadly(b: &Board, cells: &[usize; 4]) -> bool {
    let l = b.layout();
    let reg = cells.map(|c| l.region(c));
    let rows_split = reg[0] == reg[1] && reg[2] == reg[3] && reg[0] != reg[2];
    let cols_split = reg[0] == reg[2] && reg[1] == reg[3] && reg[0] != reg[1];
    if !(rows_split || cols_split) {
        return false;
    }
    (0..2).all(|d| {
        let on = cells.iter().filter(|&&c| l.diagonals(c) & (1 << d) != 0).count();
        on == 0 || on == 2
    })
}

fn ur_step(t: u8, side: usize, r: &Rectangle, elim: Vec<(usize, u8)>) -> Step {
    let mut step = Step::new(Technique::UniqueRectangle(t), side);
    step.values = values(r.pair).collect();
    step.cells = r.cells.to_vec();
    step.eliminate = elim;
    step
}

/// Unique rectangle type `t` (1 to 4).
pub fn unique_rectangle(cx: &mut Ctx, t: u8) -> Option<Step> {
    let rects = rectangles(cx);
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    for r in &rects {
        let extra: Vec<usize> =
            r.cells.iter().copied().filter(|&c| b.cands(c) & !r.pair != 0).collect();
        match (t, extra.as_slice()) {
            // Three corners are exactly the pair: the fourth loses both values.
            (1, &[c]) => {
                let elim = values(r.pair).map(|v| (c, v)).collect();
                return Some(ur_step(1, side, r, elim));
            }
            // Two corners with the same one extra value z: one of them is z, so z leaves the
            // cells seeing both.
            (2, &[c, d]) => {
                let z = b.cands(c) & !r.pair;
                if z.count_ones() != 1 || b.cands(d) & !r.pair != z {
                    continue;
                }
                let zv = values(z).next()?;
                let elim: Vec<(usize, u8)> = (0..l.cells())
                    .filter(|&e| b.has(e, zv) && l.sees(e, c) && l.sees(e, d))
                    .map(|e| (e, zv))
                    .collect();
                cx.work += l.cells() as u64;
                if !elim.is_empty() {
                    return Some(ur_step(2, side, r, elim));
                }
            }
            // The extras of two corners act as one cell in a naked subset of a shared house.
            (3, &[c, d]) if l.sees(c, d) => {
                let extras = (b.cands(c) | b.cands(d)) & !r.pair;
                for h in l.common_houses(&[c, d]) {
                    if let Some(step) = ur_type3(cx, r, h, extras) {
                        return Some(step);
                    }
                }
            }
            // One value of the pair confined to the two roof corners in a shared house: the
            // other value leaves both.
            (4, &[c, d]) if l.sees(c, d) => {
                for h in l.common_houses(&[c, d]) {
                    for v in values(r.pair) {
                        if b.positions(h, v).count_ones() == 2 {
                            let w = values(r.pair & !bit(v)).next()?;
                            let elim = vec![(c, w), (d, w)];
                            return Some(ur_step(4, side, r, elim));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Type 3 in house `h`: the roof's extra values plus k other cells of `h` holding k + 1 values
/// between them (with the extras) form a naked subset.
fn ur_type3(cx: &mut Ctx, r: &Rectangle, h: usize, extras: u64) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let others: Vec<usize> = l
        .house(h)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| b.value(c) == 0 && !r.cells.contains(&c))
        .collect();
    let masks: Vec<u64> = others.iter().map(|&c| b.cands(c)).collect();
    let mut work = 0;
    for k in 1..=3.min(others.len().saturating_sub(1)) {
        let found = combinations(&masks, k, &mut work, &mut |chosen, union| {
            let all = union | extras;
            if all.count_ones() as usize != k + 1 {
                return None;
            }
            let subset: Vec<usize> = chosen.iter().map(|&i| others[i]).collect();
            let elim: Vec<(usize, u8)> = others
                .iter()
                .filter(|c| !subset.contains(c))
                .flat_map(|&c| values(b.cands(c) & all).map(move |v| (c, v)))
                .collect();
            if elim.is_empty() {
                return None;
            }
            let mut step = ur_step(3, l.side(), r, elim);
            step.cells.extend(&subset);
            Some(step)
        });
        if found.is_some() {
            cx.work += work;
            return found;
        }
    }
    cx.work += work;
    None
}

/// BUG+1: every open cell has two candidates except one with three, and every value missing
/// from a house has exactly two places there except one value in the houses of that cell. The
/// cell takes that value, or the board would have no solution or several.
pub fn bug_plus_one(cx: &mut Ctx) -> Option<Step> {
    if killer(cx) {
        return None;
    }
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let mut triple = None;
    for c in 0..l.cells() {
        cx.work += 1;
        match b.cands(c).count_ones() {
            0 | 2 => {}
            3 if triple.is_none() => triple = Some(c),
            _ => return None,
        }
    }
    let t = triple?;
    // The value with three places in the cell's row.
    let row = l.row_house(l.row(t));
    let v = values(b.cands(t)).find(|&v| b.positions(row, v).count_ones() == 3)?;
    for h in 0..l.house_count() {
        let t_here = l.index_in(h, t).is_some();
        for w in values(full_mask(side) & !b.placed_in(h)) {
            cx.work += 1;
            let n = b.positions(h, w).count_ones() - u32::from(t_here && w == v);
            if n != 2 {
                return None;
            }
        }
    }
    let mut step = Step::placing(Technique::BugPlusOne, side, t, v);
    step.values = values(b.cands(t)).collect();
    Some(step)
}
