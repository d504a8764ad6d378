//! Fish on one value: N base lines (rows, or columns) whose places lie in N cover lines, so the
//! value leaves the rest of the cover lines (X-Wing, Swordfish, Jellyfish, ...). Finned and
//! sashimi fish allow extra places (fins) in the base lines; only cover cells that see every fin
//! lose the value.

use super::Ctx;
use super::board::{Bits, bit};
use super::step::{Detail, Step, Technique};
use super::subsets::{combinations, combinations_within};

/// The base lines of one orientation for value `v`: `(line, places as cover-line bits)` for every
/// line that does not hold `v` yet.
fn lines(cx: &Ctx, v: u8, by_rows: bool) -> Vec<(usize, u64)> {
    let b = cx.board;
    let l = b.layout();
    (0..l.side())
        .map(|i| if by_rows { l.row_house(i) } else { l.col_house(i) })
        .filter(|&h| b.placed_in(h) & bit(v) == 0)
        .map(|h| (h, b.positions(h, v)))
        .collect()
}

/// The cell at line `line` (a row or column index) and cover index `j`.
fn cell_at(side: usize, by_rows: bool, line: usize, j: usize) -> usize {
    if by_rows { line * side + j } else { j * side + line }
}

/// A basic fish of exactly `k` lines, rows as base first, on any value.
pub fn basic(cx: &mut Ctx, k: usize) -> Option<Step> {
    each_base(cx, |cx, v, by_rows| basic_one(cx, v, k, by_rows))
}

/// Solo's row-vs-column set elimination on one value: fish of every size. Sizes up to half the
/// open lines in both orientations cover every fish (a fish on k rows is one on the other
/// columns).
pub fn solo_fish(cx: &mut Ctx) -> Option<Step> {
    each_base(cx, |cx, v, by_rows| {
        let open = lines(cx, v, by_rows).len();
        (2..=open / 2).find_map(|k| basic_one(cx, v, k, by_rows))
    })
}

/// Base lines `(house, places)` and their places alone.
type Bases = (Vec<(usize, u64)>, Vec<u64>);

/// The open base lines of value `v` and their places, when there are more than `k`.
fn bases(cx: &Ctx, v: u8, k: usize, by_rows: bool) -> Option<Bases> {
    let base = lines(cx, v, by_rows);
    let masks: Vec<u64> = base.iter().map(|&(_, m)| m).collect();
    (base.len() > k).then_some((base, masks))
}

/// The first step `f` finds for any value, rows as base lines first.
fn each_base(cx: &mut Ctx, mut f: impl FnMut(&mut Ctx, u8, bool) -> Option<Step>) -> Option<Step> {
    let side = cx.board.side();
    (1..=side as u8).find_map(|v| [true, false].into_iter().find_map(|by_rows| f(cx, v, by_rows)))
}

fn basic_one(cx: &mut Ctx, v: u8, k: usize, by_rows: bool) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let (base, masks) = bases(cx, v, k, by_rows)?;
    let mut work = 0;
    let found = combinations(&masks, k, &mut work, &mut |chosen, cover| {
        if cover.count_ones() as usize != k {
            return None;
        }
        let base_lines: Vec<usize> = chosen.iter().map(|&i| line_index(side, base[i].0)).collect();
        let mut elim = Vec::new();
        for j in Bits(cover) {
            for line in 0..side {
                let c = cell_at(side, by_rows, line, j);
                if !base_lines.contains(&line) && b.has(c, v) {
                    elim.push((c, v));
                }
            }
        }
        if elim.is_empty() {
            return None;
        }
        Some(fish_step(
            Technique::Fish(k as u8),
            side,
            v,
            by_rows,
            &base_lines,
            cover,
            vec![],
            elim,
        ))
    });
    cx.work += work;
    found
}

/// Row or column index of a row or column house.
fn line_index(side: usize, h: usize) -> usize {
    if h < side { h } else { h - side }
}

#[allow(clippy::too_many_arguments)]
fn fish_step(
    technique: Technique,
    side: usize,
    v: u8,
    by_rows: bool,
    base: &[usize],
    cover: u64,
    fins: Vec<usize>,
    elim: Vec<(usize, u8)>,
) -> Step {
    use crate::grid::HouseKind;
    type Kind = fn(usize) -> HouseKind;
    let (b_kind, c_kind): (Kind, Kind) = if by_rows {
        (HouseKind::Row, HouseKind::Column)
    } else {
        (HouseKind::Column, HouseKind::Row)
    };
    let mut step = Step::new(technique, side);
    step.values.push(v);
    step.houses = base.iter().map(|&i| b_kind(i)).chain(Bits(cover).map(c_kind)).collect();
    step.cells = base
        .iter()
        .flat_map(|&line| Bits(cover).map(move |j| cell_at(side, by_rows, line, j)))
        .collect();
    step.detail = Detail::Fish { base: base.len(), fins };
    step.eliminate = elim;
    step
}

/// A finned or sashimi fish of exactly `k` base lines, its fins in at most three lines beyond
/// the cover.
pub fn finned(cx: &mut Ctx, k: usize) -> Option<Step> {
    let side = cx.board.side();
    let max_extra = 3.min(side.saturating_sub(k));
    each_base(cx, |cx, v, by_rows| finned_one(cx, v, k, by_rows, max_extra))
}

fn finned_one(cx: &mut Ctx, v: u8, k: usize, by_rows: bool, max_extra: usize) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let (base, masks) = bases(cx, v, k, by_rows)?;
    let (mut work, mut inner) = (0, 0u64);
    // Base combinations whose places span at most k + max_extra cover lines; the fins are the
    // places in one region beyond k cover lines.
    let found = combinations_within(&masks, k, k + max_extra, &mut work, &mut |chosen, union| {
        if union.count_ones() as usize <= k || chosen.iter().any(|&i| masks[i] == 0) {
            return None;
        }
        let base_lines: Vec<usize> = chosen.iter().map(|&i| line_index(side, base[i].0)).collect();
        let cells: Vec<(usize, usize)> = chosen
            .iter()
            .flat_map(|&i| {
                let line = line_index(side, base[i].0);
                Bits(masks[i]).map(move |j| (cell_at(side, by_rows, line, j), j))
            })
            .collect();
        let mut regions: Vec<usize> = cells.iter().map(|&(c, _)| l.region(c)).collect();
        regions.sort_unstable();
        regions.dedup();
        for reg in regions {
            inner += 1;
            let outside: u64 =
                cells.iter().filter(|&&(c, _)| l.region(c) != reg).fold(0, |m, &(_, j)| m | 1 << j);
            let inside: u64 =
                cells.iter().filter(|&&(c, _)| l.region(c) == reg).fold(0, |m, &(_, j)| m | 1 << j);
            let Some(need) = k.checked_sub(outside.count_ones() as usize) else { continue };
            let try_cover = |cover: u64| -> Option<Step> {
                let fins: Vec<usize> = cells
                    .iter()
                    .filter(|&&(_, j)| cover & (1 << j) == 0)
                    .map(|&(c, _)| c)
                    .collect();
                if fins.is_empty() {
                    return None;
                }
                let mut elim = Vec::new();
                for j in Bits(cover) {
                    for line in (0..side).filter(|line| !base_lines.contains(line)) {
                        let c = cell_at(side, by_rows, line, j);
                        if b.has(c, v) && l.sees_all(c, &fins) {
                            elim.push((c, v));
                        }
                    }
                }
                if elim.is_empty() {
                    return None;
                }
                let sashimi = chosen.iter().any(|&i| (masks[i] & cover).count_ones() < 2);
                let technique = if sashimi {
                    Technique::SashimiFish(k as u8)
                } else {
                    Technique::FinnedFish(k as u8)
                };
                Some(fish_step(technique, side, v, by_rows, &base_lines, cover, fins, elim))
            };
            // Cover lines: every line outside the region, and `need` of the region's lines.
            let step = if need == 0 {
                try_cover(outside)
            } else {
                let extra: Vec<u64> = Bits(inside & !outside).map(|j| 1u64 << j).collect();
                combinations(&extra, need, &mut inner, &mut |_, add| try_cover(outside | add))
            };
            if step.is_some() {
                return step;
            }
        }
        None
    });
    cx.work += work + inner;
    found
}
