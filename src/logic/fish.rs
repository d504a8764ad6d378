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
    let side = cx.board.side();
    for v in 1..=side as u8 {
        for by_rows in [true, false] {
            if let Some(step) = basic_one(cx, v, k, by_rows) {
                return Some(step);
            }
        }
    }
    None
}

/// Solo's row-vs-column set elimination on one value: fish of every size. Sizes up to half the
/// open lines in both orientations cover every fish (a fish on k rows is one on the other
/// columns).
pub fn solo_fish(cx: &mut Ctx) -> Option<Step> {
    let side = cx.board.side();
    for v in 1..=side as u8 {
        for by_rows in [true, false] {
            let open = lines(cx, v, by_rows).len();
            for k in 2..=open / 2 {
                if let Some(step) = basic_one(cx, v, k, by_rows) {
                    return Some(step);
                }
            }
        }
    }
    None
}

fn basic_one(cx: &mut Ctx, v: u8, k: usize, by_rows: bool) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let base = lines(cx, v, by_rows);
    if base.len() <= k {
        return None;
    }
    let masks: Vec<u64> = base.iter().map(|&(_, m)| m).collect();
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
    let (b_kind, c_kind): (fn(usize) -> HouseKind, fn(usize) -> HouseKind) = if by_rows {
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
    for v in 1..=side as u8 {
        for by_rows in [true, false] {
            if let Some(step) = finned_one(cx, v, k, by_rows, max_extra) {
                return Some(step);
            }
        }
    }
    None
}

fn finned_one(cx: &mut Ctx, v: u8, k: usize, by_rows: bool, max_extra: usize) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let base = lines(cx, v, by_rows);
    if base.len() <= k {
        return None;
    }
    let masks: Vec<u64> = base.iter().map(|&(_, m)| m).collect();
    let mut work = 0;
    // Base combinations with a union of at most k + max_extra cover positions.
    let mut result = None;
    let mut chosen_sets: Vec<Vec<usize>> = Vec::new();
    collect_bases(&masks, k, k + max_extra, &mut chosen_sets, &mut work);
    'bases: for chosen in chosen_sets {
        let union = chosen.iter().fold(0u64, |m, &i| m | masks[i]);
        if union.count_ones() as usize <= k {
            continue;
        }
        let base_lines: Vec<usize> = chosen.iter().map(|&i| line_index(side, base[i].0)).collect();
        let positions: Vec<usize> = Bits(union).collect();
        let mut cover_work = 0;
        let cover_sets = {
            let mut out = Vec::new();
            let singles: Vec<u64> = positions.iter().map(|&j| 1u64 << j).collect();
            combinations(&singles, k, &mut cover_work, &mut |_, cover| {
                out.push(cover);
                None::<()>
            });
            out
        };
        work += cover_work;
        for cover in cover_sets {
            let fins: Vec<usize> = base_lines
                .iter()
                .flat_map(|&line| {
                    Bits(union & !cover).map(move |j| cell_at(side, by_rows, line, j))
                })
                .filter(|&c| b.has(c, v))
                .collect();
            if fins.is_empty() {
                continue;
            }
            work += 1;
            let mut elim = Vec::new();
            for j in Bits(cover) {
                for line in 0..side {
                    let c = cell_at(side, by_rows, line, j);
                    if !base_lines.contains(&line) && b.has(c, v) && l.sees_all(c, &fins) {
                        elim.push((c, v));
                    }
                }
            }
            if elim.is_empty() {
                continue;
            }
            let row_mask = |line: usize| {
                let h = if by_rows { l.row_house(line) } else { l.col_house(line) };
                b.positions(h, v) & cover
            };
            let sashimi = base_lines.iter().any(|&line| row_mask(line).count_ones() < 2);
            let technique = if sashimi {
                Technique::SashimiFish(k as u8)
            } else {
                Technique::FinnedFish(k as u8)
            };
            result = Some(fish_step(technique, side, v, by_rows, &base_lines, cover, fins, elim));
            break 'bases;
        }
    }
    cx.work += work;
    result
}

/// Every `k`-combination of `masks` (no empty one) whose union has at most `limit` bits.
fn collect_bases(masks: &[u64], k: usize, limit: usize, out: &mut Vec<Vec<usize>>, work: &mut u64) {
    combinations_within(masks, k, limit, work, &mut |chosen, _| {
        if chosen.iter().all(|&i| masks[i] != 0) {
            out.push(chosen.to_vec());
        }
        None::<()>
    });
}
