//! Locked candidates: a value whose places in one house all lie in a second house is out of the
//! rest of the second house. Pointing starts from a region, claiming from a line (row, column or
//! X diagonal).

use super::Ctx;
use super::board::{bit, full_mask, values};
use super::step::{Step, Technique};

/// Pointing: a value's places in a region all in one line (row, column or diagonal).
pub fn pointing(cx: &mut Ctx) -> Option<Step> {
    let side = cx.board.side();
    locked(cx, 2 * side..3 * side, Technique::Pointing, false)
}

/// Claiming: a value's places in a line all in one other house (a region; also a second line
/// where a row and a diagonal share two cells).
pub fn claiming(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    locked(cx, (0..2 * side).chain(3 * side..l.house_count()), Technique::Claiming, false)
}

/// Solo's intersectional analysis: a line (row, column, diagonal) against a region, both ways,
/// and nothing else.
pub fn solo_intersections(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    locked(cx, 2 * side..3 * side, Technique::Pointing, true).or_else(|| {
        locked(cx, (0..2 * side).chain(3 * side..l.house_count()), Technique::Claiming, true)
    })
}

/// From each house `a` of `from` and each value: when its places lie inside another house `b`
/// (a line for regions, a region for lines when `line_vs_region`), the value leaves `b`'s other
/// cells.
fn locked(
    cx: &mut Ctx,
    from: impl Iterator<Item = usize>,
    technique: Technique,
    line_vs_region: bool,
) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let side = l.side();
    let mut cells = Vec::with_capacity(side);
    for a in from {
        let a_region = l.is_region(a);
        for v in values(full_mask(side) & !b.placed_in(a)) {
            cx.work += 1;
            if b.positions(a, v).count_ones() < 2 {
                continue;
            }
            cells.clear();
            cells.extend(b.cells_with(a, v));
            for h in l.common_houses(&cells) {
                if h == a || (line_vs_region && l.is_region(h) == a_region) {
                    continue;
                }
                if a_region && l.is_region(h) {
                    continue;
                }
                cx.work += 1;
                let elim: Vec<(usize, u8)> =
                    b.cells_with(h, v).filter(|c| !cells.contains(c)).map(|c| (c, v)).collect();
                if elim.is_empty() {
                    continue;
                }
                let mut step = Step::new(technique, side);
                step.values.push(v);
                step.cells = cells.clone();
                step.houses = vec![l.kind(a), l.kind(h)];
                step.eliminate = elim;
                return Some(step);
            }
        }
    }
    None
}

/// Solo's intersectional analysis in its own order, one house pair a step: for each row and
/// each region, each value: the row's places inside the region clear the region's other cells,
/// else the region's places inside the row clear the row's other cells; then columns, then the
/// diagonals of an X puzzle. (The engine's Killer list uses it: there the order decides which
/// Killer techniques the path needs.)
pub fn solo_pairs(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let side = l.side();
    let lines = (0..2 * side).chain(3 * side..l.house_count());
    for line in lines {
        for region in 2 * side..3 * side {
            for v in 1..=side as u8 {
                let b = cx.board;
                if b.placed_in(line) & bit(v) != 0 || b.placed_in(region) & bit(v) != 0 {
                    continue;
                }
                cx.work += 1;
                if let Some(step) = confined(cx, line, region, v, Technique::Claiming)
                    .or_else(|| confined(cx, region, line, v, Technique::Pointing))
                {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// When every place of `v` in house `a` lies in house `h`, `v` leaves `h`'s other cells.
fn confined(cx: &mut Ctx, a: usize, h: usize, v: u8, technique: Technique) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    let cells: Vec<usize> = b.cells_with(a, v).collect();
    if cells.is_empty() || !cells.iter().all(|&c| l.index_in(h, c).is_some()) {
        return None;
    }
    let elim: Vec<(usize, u8)> =
        b.cells_with(h, v).filter(|c| !cells.contains(c)).map(|c| (c, v)).collect();
    if elim.is_empty() {
        return None;
    }
    let mut step = Step::new(technique, l.side());
    step.values.push(v);
    step.cells = cells;
    step.houses = vec![l.kind(a), l.kind(h)];
    step.eliminate = elim;
    Some(step)
}
