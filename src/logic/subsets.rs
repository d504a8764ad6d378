//! Naked and hidden subsets: N open cells of a house with N candidates between them (the values
//! leave the house's other cells, and any other house the N cells share), and N values of a
//! house with N places between them (the cells lose their other candidates).

use super::Ctx;
use super::board::{Bits, bit, full_mask, values};
use super::step::{Step, Technique};

/// Calls `found` with every `k`-combination of `items` whose union has at most `k` bits, until
/// it returns something. `work` counts the combinations tried.
pub fn combinations<T>(
    items: &[u64],
    k: usize,
    work: &mut u64,
    found: &mut impl FnMut(&[usize], u64) -> Option<T>,
) -> Option<T> {
    combinations_within(items, k, k, work, found)
}

/// Calls `found` with every `k`-combination of `items` (as indices) whose union has at most
/// `limit` bits, until it returns something. `work` counts the combinations tried.
pub fn combinations_within<T>(
    items: &[u64],
    k: usize,
    limit: usize,
    work: &mut u64,
    found: &mut impl FnMut(&[usize], u64) -> Option<T>,
) -> Option<T> {
    struct Walk<'a, F> {
        items: &'a [u64],
        k: usize,
        limit: usize,
        chosen: Vec<usize>,
        work: &'a mut u64,
        found: &'a mut F,
    }
    impl<F> Walk<'_, F> {
        fn go<T>(&mut self, start: usize, union: u64) -> Option<T>
        where
            F: FnMut(&[usize], u64) -> Option<T>,
        {
            for i in start..self.items.len() {
                if self.items.len() - i < self.k - self.chosen.len() {
                    break;
                }
                *self.work += 1;
                let u = union | self.items[i];
                if u.count_ones() as usize > self.limit {
                    continue;
                }
                self.chosen.push(i);
                let result = if self.chosen.len() == self.k {
                    (self.found)(&self.chosen, u)
                } else {
                    self.go(i + 1, u)
                };
                self.chosen.pop();
                if result.is_some() {
                    return result;
                }
            }
            None
        }
    }
    if k == 0 || items.len() < k {
        return None;
    }
    let mut walk = Walk { items, k, limit, chosen: Vec::with_capacity(k), work, found };
    walk.go(0, 0)
}

/// A naked subset of exactly `k` cells in any house.
pub fn naked(cx: &mut Ctx, k: usize) -> Option<Step> {
    let n = cx.board.layout().house_count();
    (0..n).find_map(|h| naked_in(cx, h, k, false))
}

/// A hidden subset of exactly `k` values in any house.
pub fn hidden(cx: &mut Ctx, k: usize) -> Option<Step> {
    let n = cx.board.layout().house_count();
    (0..n).find_map(|h| hidden_in(cx, h, k))
}

/// A naked pair or triple in the intersection of a line and a region that removes candidates
/// from both.
pub fn locked(cx: &mut Ctx, k: usize) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    (2 * side..3 * side).find_map(|h| naked_in(cx, h, k, true))
}

/// Solo's set elimination: every subset of every size in every house, naked or hidden (regions,
/// then rows, columns and diagonals). Sizes up to half the open cells on each side cover every
/// subset, since a naked subset of k cells is a hidden subset of the other cells' values.
pub fn solo_sets(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    let order = (2 * side..3 * side).chain(0..2 * side).chain(3 * side..l.house_count());
    for h in order {
        let open = side - cx.board.placed_in(h).count_ones() as usize;
        for k in 2..=open / 2 {
            if let Some(step) = naked_in(cx, h, k, false).or_else(|| hidden_in(cx, h, k)) {
                return Some(step);
            }
        }
    }
    None
}

/// A naked subset of `k` cells in house `h`. With `locked`, only subsets whose cells share a
/// second house and remove candidates from both.
fn naked_in(cx: &mut Ctx, h: usize, k: usize, locked: bool) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let mut cells: Vec<usize> = Vec::with_capacity(side);
    let mut masks: Vec<u64> = Vec::with_capacity(side);
    for &c in l.house(h) {
        let m = b.cands(c as usize);
        if m != 0 && m.count_ones() as usize <= k {
            cells.push(c as usize);
            masks.push(m);
        }
    }
    let open = l.house(h).iter().filter(|&&c| b.value(c as usize) == 0).count();
    if open <= k && !locked {
        return None;
    }
    let mut work = 0;
    let found = combinations(&masks, k, &mut work, &mut |chosen, union| {
        if union.count_ones() as usize != k {
            return None;
        }
        let subset: Vec<usize> = chosen.iter().map(|&i| cells[i]).collect();
        let houses = l.common_houses(&subset);
        if locked && houses.len() < 2 {
            return None;
        }
        let mut elim = Vec::new();
        let mut touched = 0;
        for &g in &houses {
            let before = elim.len();
            for &c in l.house(g) {
                let c = c as usize;
                if subset.contains(&c) || elim.iter().any(|&(e, _)| e == c) {
                    continue;
                }
                for v in values(b.cands(c) & union) {
                    elim.push((c, v));
                }
            }
            touched += usize::from(elim.len() > before);
        }
        if elim.is_empty() || (locked && touched < 2) {
            return None;
        }
        let technique =
            if locked { Technique::LockedSubset(k as u8) } else { Technique::NakedSubset(k as u8) };
        let mut step = Step::new(technique, side);
        step.values = values(union).collect();
        step.cells = subset;
        step.houses = houses.iter().map(|&g| l.kind(g)).collect();
        step.eliminate = elim;
        Some(step)
    });
    cx.work += work;
    found
}

/// A hidden subset of `k` values in house `h`.
fn hidden_in(cx: &mut Ctx, h: usize, k: usize) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let missing = full_mask(side) & !b.placed_in(h);
    if (missing.count_ones() as usize) <= k {
        return None;
    }
    let mut vals: Vec<u8> = Vec::with_capacity(side);
    let mut places: Vec<u64> = Vec::with_capacity(side);
    for v in values(missing) {
        let p = b.positions(h, v);
        if p != 0 && p.count_ones() as usize <= k {
            vals.push(v);
            places.push(p);
        }
    }
    let mut work = 0;
    let found = combinations(&places, k, &mut work, &mut |chosen, union| {
        if union.count_ones() as usize != k {
            return None;
        }
        let keep: u64 = chosen.iter().fold(0, |m, &i| m | super::board::bit(vals[i]));
        let cells: Vec<usize> = Bits(union).map(|i| l.house(h)[i] as usize).collect();
        let elim: Vec<(usize, u8)> =
            cells.iter().flat_map(|&c| values(b.cands(c) & !keep).map(move |v| (c, v))).collect();
        if elim.is_empty() {
            return None;
        }
        let mut step = Step::new(Technique::HiddenSubset(k as u8), side);
        step.values = values(keep).collect();
        step.cells = cells;
        step.houses = vec![l.kind(h)];
        step.eliminate = elim;
        Some(step)
    });
    cx.work += work;
    found
}

/// Solo's set elimination exactly as solo.c makes it, one house a step, houses in its order
/// (regions, rows, columns, diagonals): cells with one candidate leave the matrix with their
/// value; then over the subsets S of the other values in Solo's counting order (the highest
/// value as the lowest bit), sizes 2 to n-2, when the cells holding a value of S are no more
/// than |S|, those cells lose every value outside S (a hidden subset, the naked one seen from
/// its complement). The engine's Killer list uses it, where the exact path decides which
/// Killer techniques are needed.
pub fn solo_sets_exact(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    let order = (2 * side..3 * side).chain(0..2 * side).chain(3 * side..l.house_count());
    for h in order {
        if let Some(step) = solo_set_in(cx, h) {
            return Some(step);
        }
    }
    None
}

fn solo_set_in(cx: &mut Ctx, h: usize) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let cells: Vec<usize> = l.house(h).iter().map(|&c| c as usize).collect();
    // A solved cell holds its value as its one candidate, as in Solo's cube.
    let cands = |c: usize| if b.value(c) != 0 { bit(b.value(c)) } else { b.cands(c) };
    let mut row_live = vec![true; side];
    let mut col_live = vec![true; side];
    for (i, &c) in cells.iter().enumerate() {
        let m = cands(c);
        if m == 0 {
            return None;
        }
        if m.count_ones() == 1 {
            row_live[i] = false;
            col_live[m.trailing_zeros() as usize] = false;
        }
    }
    let rows: Vec<usize> = (0..side).filter(|&i| row_live[i]).collect();
    let cols: Vec<u8> = (0..side).filter(|&j| col_live[j]).map(|j| j as u8 + 1).collect();
    let n = rows.len();
    if n != cols.len() || n < 4 {
        return None;
    }
    // The subsets in Solo's order: a binary counter whose lowest bit is the last column.
    for counter in 1u64..(1u64 << n) {
        let count = counter.count_ones() as usize;
        if count < 2 || count > n - 2 {
            continue;
        }
        cx.work += 1;
        let set: u64 =
            (0..n).filter(|&j| counter & (1 << (n - 1 - j)) != 0).fold(0, |m, j| m | bit(cols[j]));
        let holders: Vec<usize> =
            rows.iter().map(|&i| cells[i]).filter(|&c| cands(c) & set != 0).collect();
        if holders.len() > count {
            continue;
        }
        let live: u64 = cols.iter().fold(0, |m, &v| m | bit(v));
        let mut elim = Vec::new();
        for &c in &holders {
            for v in values(cands(c) & live & !set) {
                elim.push((c, v));
            }
        }
        if elim.is_empty() {
            continue;
        }
        let mut step = Step::new(Technique::HiddenSubset(count as u8), side);
        step.values = values(set).collect();
        step.cells = holders;
        step.houses = vec![l.kind(h)];
        step.eliminate = elim;
        return Some(step);
    }
    None
}
