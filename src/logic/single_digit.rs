//! Single-digit patterns built from conjugate pairs (a value with exactly two places in a house):
//! Skyscraper, 2-String Kite and Empty Rectangle.

use super::Ctx;
use super::board::Bits;
use super::step::{Detail, Step, Technique};

/// The two places of `v` in house `h`, when it has exactly two.
fn pair(cx: &Ctx, h: usize, v: u8) -> Option<(usize, usize)> {
    let p = cx.board.positions(h, v);
    if p.count_ones() != 2 {
        return None;
    }
    let house = cx.board.layout().house(h);
    let mut bits = Bits(p);
    Some((house[bits.next()?] as usize, house[bits.next()?] as usize))
}

/// Cells other than `not` with candidate `v` that see both `a` and `b`.
fn seeing_both(cx: &mut Ctx, v: u8, a: usize, b: usize, not: &[usize]) -> Vec<(usize, u8)> {
    let board = cx.board;
    let l = board.layout();
    cx.work += l.peers(a).len() as u64;
    l.peers(a)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| board.has(c, v) && l.sees(c, b) && !not.contains(&c))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|c| (c, v))
        .collect()
}

fn linked_step(
    technique: Technique,
    side: usize,
    v: u8,
    ends: [usize; 2],
    link: [usize; 2],
    elim: Vec<(usize, u8)>,
) -> Step {
    let mut step = Step::new(technique, side);
    step.values.push(v);
    step.cells = ends.to_vec();
    step.detail = Detail::Connected(link.to_vec());
    step.eliminate = elim;
    step
}

/// Two conjugate pairs joined at `link` (at most one of them holds `v`): one of the `ends`
/// does, so `v` leaves the cells seeing both.
fn ends_step(
    cx: &mut Ctx,
    technique: Technique,
    v: u8,
    ends: [usize; 2],
    link: [usize; 2],
) -> Option<Step> {
    let elim = seeing_both(cx, v, ends[0], ends[1], &link);
    let side = cx.board.side();
    (!elim.is_empty()).then(|| linked_step(technique, side, v, ends, link, elim))
}

/// Two rows (or columns) with `v` twice each, sharing one column (row): one of the two other
/// ends holds `v`.
pub fn skyscraper(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    for v in 1..=side as u8 {
        for by_rows in [true, false] {
            let line = |i: usize| if by_rows { l.row_house(i) } else { l.col_house(i) };
            let across = |c: usize| if by_rows { l.col(c) } else { l.row(c) };
            let pairs: Vec<(usize, usize)> =
                (0..side).filter_map(|i| pair(cx, line(i), v)).collect();
            for (x, &(a1, b1)) in pairs.iter().enumerate() {
                for &(a2, b2) in &pairs[x + 1..] {
                    cx.work += 1;
                    // Find the shared cross line; the other two ends must not share one.
                    for (s1, e1, s2, e2) in
                        [(a1, b1, a2, b2), (a1, b1, b2, a2), (b1, a1, a2, b2), (b1, a1, b2, a2)]
                    {
                        if across(s1) != across(s2) || across(e1) == across(e2) {
                            continue;
                        }
                        let t = Technique::Skyscraper;
                        if let Some(step) = ends_step(cx, t, v, [e1, e2], [s1, s2]) {
                            return Some(step);
                        }
                    }
                }
            }
        }
    }
    None
}

/// A row pair and a column pair of `v` with one end of each in the same region: one of the
/// other two ends holds `v`.
pub fn two_string_kite(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    for v in 1..=side as u8 {
        let rows: Vec<(usize, usize)> =
            (0..side).filter_map(|i| pair(cx, l.row_house(i), v)).collect();
        let cols: Vec<(usize, usize)> =
            (0..side).filter_map(|i| pair(cx, l.col_house(i), v)).collect();
        for &(r1, r2) in &rows {
            for &(c1, c2) in &cols {
                cx.work += 1;
                for (rs, re) in [(r1, r2), (r2, r1)] {
                    for (cs, ce) in [(c1, c2), (c2, c1)] {
                        let distinct = rs != cs && rs != ce && re != cs && re != ce;
                        if !distinct || l.region(rs) != l.region(cs) || re == ce {
                            continue;
                        }
                        let t = Technique::TwoStringKite;
                        if let Some(step) = ends_step(cx, t, v, [re, ce], [rs, cs]) {
                            return Some(step);
                        }
                    }
                }
            }
        }
    }
    None
}

/// A region whose places for `v` lie on one row and one column of it, and a conjugate pair of
/// `v` on a line crossing one of them outside the region.
pub fn empty_rectangle(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let b = cx.board;
    let side = l.side();
    for v in 1..=side as u8 {
        for reg in 0..side {
            let h = l.region_house(reg);
            let cells: Vec<usize> = b.cells_with(h, v).collect();
            if cells.len() < 2 {
                continue;
            }
            let mut rows: Vec<usize> = cells.iter().map(|&c| l.row(c)).collect();
            let mut cols: Vec<usize> = cells.iter().map(|&c| l.col(c)).collect();
            rows.dedup();
            cols.sort_unstable();
            cols.dedup();
            for &r in &rows {
                for &c in &cols {
                    cx.work += 1;
                    let on_cross = cells.iter().all(|&x| l.row(x) == r || l.col(x) == c);
                    let only_row = cells.iter().all(|&x| l.row(x) == r);
                    let only_col = cells.iter().all(|&x| l.col(x) == c);
                    if !on_cross || only_row || only_col {
                        continue;
                    }
                    // A pair in a column X (not c): one end on row r outside the region, the
                    // other end's row meets column c at the target. Or the same with a pair in
                    // a row Y (not r) crossing column c.
                    for in_column in [true, false] {
                        for x in (0..side).filter(|&x| x != if in_column { c } else { r }) {
                            let house = if in_column { l.col_house(x) } else { l.row_house(x) };
                            let Some((p, q)) = pair(cx, house, v) else { continue };
                            for (near, far) in [(p, q), (q, p)] {
                                let crosses =
                                    if in_column { l.row(near) == r } else { l.col(near) == c };
                                if !crosses || l.region(near) == reg {
                                    continue;
                                }
                                let target = if in_column {
                                    l.row(far) * side + c
                                } else {
                                    r * side + l.col(far)
                                };
                                if l.region(target) != reg && b.has(target, v) {
                                    let t = Technique::EmptyRectangle;
                                    let ends = [near, far];
                                    let mut step =
                                        linked_step(t, side, v, ends, ends, vec![(target, v)]);
                                    step.houses = vec![l.kind(h)];
                                    step.cells = cells.clone();
                                    return Some(step);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    None
}
