//! Singles: full house, naked single, hidden single (in regions, in lines), and the clean-up of
//! pencil marks that a placed value already rules out.

use super::Ctx;
use super::board::{full_mask, values};
use super::step::{Step, Technique};

/// The last open cell of a house.
pub fn full_house(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    for h in 0..l.house_count() {
        cx.work += 1;
        let missing = full_mask(side) & !b.placed_in(h);
        if missing.count_ones() != 1 {
            continue;
        }
        let v = missing.trailing_zeros() as u8 + 1;
        let cell = l.house(h).iter().map(|&c| c as usize).find(|&c| b.value(c) == 0)?;
        if !b.has(cell, v) {
            continue;
        }
        let mut step = Step::placing(Technique::FullHouse, side, cell, v);
        step.houses.push(l.kind(h));
        return Some(step);
    }
    None
}

/// A cell with one candidate.
pub fn naked_single(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let side = b.side();
    for cell in 0..side * side {
        cx.work += 1;
        let m = b.cands(cell);
        if m != 0 && m & (m - 1) == 0 {
            return Some(Step::placing(Technique::NakedSingle, side, cell, values(m).next()?));
        }
    }
    None
}

/// A hidden single in any house: regions first, then rows, columns and diagonals.
pub fn hidden_single(cx: &mut Ctx) -> Option<Step> {
    hidden_single_region(cx).or_else(|| hidden_single_line(cx))
}

/// A value with one place left in a region.
pub fn hidden_single_region(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    hidden_single_in(cx, 2 * side..3 * side)
}

/// A value with one place left in a row, a column or a diagonal.
pub fn hidden_single_line(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    hidden_single_in(cx, (0..2 * side).chain(3 * side..l.house_count()))
}

fn hidden_single_in(cx: &mut Ctx, houses: impl Iterator<Item = usize>) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    for h in houses {
        for v in values(full_mask(side) & !b.placed_in(h)) {
            cx.work += 1;
            let p = b.positions(h, v);
            if p.count_ones() == 1 {
                let cell = l.house(h)[p.trailing_zeros() as usize] as usize;
                let mut step = Step::placing(Technique::HiddenSingle, side, cell, v);
                step.houses.push(l.kind(h));
                return Some(step);
            }
        }
    }
    None
}

/// A placed value still pencilled in its peers (boards read with the player's marks): those
/// marks go.
pub fn cleanup(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    for cell in 0..l.cells() {
        let v = b.value(cell);
        if v == 0 {
            continue;
        }
        cx.work += 1;
        let stale: Vec<(usize, u8)> = l
            .peers(cell)
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| b.has(p, v))
            .map(|p| (p, v))
            .collect();
        if !stale.is_empty() {
            let mut step = Step::new(Technique::Cleanup, l.side());
            step.cells.push(cell);
            step.values.push(v);
            step.eliminate = stale;
            return Some(step);
        }
    }
    None
}
