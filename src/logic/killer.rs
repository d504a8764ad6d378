//! Killer cage techniques: cage exclusion (a placed value leaves its cage), cage singles, sum
//! bounds, cage combinations (values in no combination go; values in every combination leave
//! the cells that see all their places) and the 45 rule (innies and outies of rows, columns,
//! regions and unions of them).
//!
//! Two families of finders share the arithmetic of [`crate::grid::killer`]:
//!
//! - the score scale's, one cage or derived region a step, with the exact combination sets and
//!   the 45 rule over unions of houses ([`derived_regions`]);
//! - Solo's (`solo_*`), which follow solo.c's Killer solver pass by pass so that `--scale solo`
//!   reproduces its Killer grade: single-square cages (Trivial), min/max analysis (Simple), sum
//!   possibilities for cages of 2 to 4 cells with Solo's 1-9 tables (Intermediate), and cages
//!   deduced from each row, column and region with the 45 rule, which Solo splits off a cage
//!   when they lie inside one and credits (Advanced) when one is a single cell. Solo keeps the
//!   cages it split as it goes, and so does the engine: the board carries them
//!   ([`Board::solo_cages`]), recorded after each step found after the 45-rule pass. A split
//!   cage's sum is what its cells add up to, so every step stays true; what the split changes
//!   is which cells a placed value leaves (Solo's clean-up only clears the split part).

use std::sync::{Arc, Mutex};

use super::Ctx;
use super::board::{Board, SoloCages, bit, full_mask, values};
use super::step::{Detail, Step, Technique};
use crate::grid::killer::{Origin, SumRegion, combinations, derived_regions};
use crate::grid::{Geometry, HouseKind};

/// A sum region as the techniques see it: open cells and what they still add up to.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Part {
    cells: Vec<usize>,
    sum: u32,
}

/// The open cells of a cage (or any cell set) and what they add up to once the placed values
/// are taken off; `None` when the placed values already exceed the sum (never on a board that
/// agrees with the solution).
fn open_part(b: &Board, cells: &[usize], sum: u32) -> Option<Part> {
    let placed: u32 = cells.iter().map(|&c| u32::from(b.value(c))).sum();
    let open = cells.iter().copied().filter(|&c| b.value(c) == 0).collect();
    Some(Part { cells: open, sum: sum.checked_sub(placed)? })
}

fn sums_detail(parts: &[Part]) -> Detail {
    Detail::Sums(
        parts
            .iter()
            .map(|p| {
                let mut cells = p.cells.clone();
                cells.sort_unstable();
                (cells, p.sum)
            })
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// The score scale's finders.

/// A placed value still a candidate elsewhere in its cage: it goes (one cage a step).
pub fn cage_exclusion(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let g = b.layout().geometry().clone();
    for cage in g.cages() {
        cx.work += 1;
        let mut elim = Vec::new();
        for &c in &cage.cells {
            let v = b.value(c);
            if v == 0 {
                continue;
            }
            for &o in &cage.cells {
                if b.value(o) == 0 && b.has(o, v) {
                    elim.push((o, v));
                }
            }
        }
        if !elim.is_empty() {
            let mut step = Step::new(Technique::CageExclusion, b.side());
            step.cells = cage.cells.clone();
            step.values = elim.iter().map(|&(_, v)| v).collect();
            step.values.sort_unstable();
            step.values.dedup();
            step.detail = sums_detail(&[Part { cells: cage.cells.clone(), sum: cage.sum }]);
            step.eliminate = elim;
            return Some(step);
        }
    }
    None
}

/// A cage with one open cell: it takes what the cage still adds up to.
pub fn cage_single(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let g = b.layout().geometry().clone();
    for cage in g.cages() {
        cx.work += 1;
        let part = open_part(b, &cage.cells, cage.sum)?;
        if let [cell] = part.cells[..]
            && let Ok(v) = u8::try_from(part.sum)
            && v >= 1
            && b.has(cell, v)
        {
            let mut step = Step::placing(Technique::CageSingle, b.side(), cell, v);
            step.detail = sums_detail(&[Part { cells: cage.cells.clone(), sum: cage.sum }]);
            return Some(step);
        }
    }
    None
}

/// Whether the values of `combo` can be given to `cells` one each (a matching in the
/// candidate graph).
fn fits(b: &Board, cells: &[usize], combo: u64) -> bool {
    fn place(b: &Board, cells: &[usize], k: usize, free: u64) -> bool {
        if k == cells.len() {
            return true;
        }
        values(b.cands(cells[k]) & free).any(|v| place(b, cells, k + 1, free & !bit(v)))
    }
    place(b, cells, 0, combo)
}

/// The combinations of different values that make `part`'s sum and fit its cells.
fn live_combinations(b: &Board, part: &Part, side: usize) -> Vec<u64> {
    combinations(part.cells.len(), part.sum, side)
        .iter()
        .map(|&m| u64::from(m))
        .filter(|&m| fits(b, &part.cells, m))
        .collect()
}

/// What the combinations of a region of different values rule out: candidates in no
/// combination, and a value in every combination from cells outside that see all its places in
/// the region.
fn combination_eliminations(b: &Board, part: &Part, side: usize) -> Vec<(usize, u8)> {
    let combos = live_combinations(b, part, side);
    if combos.is_empty() {
        return Vec::new();
    }
    let union = combos.iter().fold(0, |a, &m| a | m);
    let common = combos.iter().fold(u64::MAX, |a, &m| a & m);
    let mut elim = Vec::new();
    for &c in &part.cells {
        for v in values(b.cands(c) & !union) {
            elim.push((c, v));
        }
    }
    let l = b.layout();
    for v in values(common) {
        let places: Vec<usize> = part.cells.iter().copied().filter(|&c| b.has(c, v)).collect();
        if places.is_empty() {
            continue;
        }
        for &p in l.peers(places[0]) {
            let p = p as usize;
            if b.has(p, v) && !part.cells.contains(&p) && l.sees_all(p, &places) {
                elim.push((p, v));
            }
        }
    }
    elim
}

/// Cage combinations, one cage a step.
pub fn cage_combination(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let side = b.side();
    let g = b.layout().geometry().clone();
    for cage in g.cages() {
        cx.work += 1;
        let part = open_part(b, &cage.cells, cage.sum)?;
        if part.cells.len() < 2 {
            continue;
        }
        let elim = combination_eliminations(b, &part, side);
        if !elim.is_empty() {
            return Some(sum_step(Technique::CageCombination, b, &part, Vec::new(), elim));
        }
    }
    None
}

fn sum_step(
    technique: Technique,
    b: &Board,
    part: &Part,
    houses: Vec<HouseKind>,
    elim: Vec<(usize, u8)>,
) -> Step {
    let mut step = Step::new(technique, b.side());
    step.cells = part.cells.clone();
    step.cells.sort_unstable();
    step.values = elim.iter().map(|&(_, v)| v).collect();
    step.values.sort_unstable();
    step.values.dedup();
    step.houses = houses;
    step.detail = sums_detail(std::slice::from_ref(part));
    step.eliminate = elim;
    step
}

/// The 45-rule regions of a geometry, derived once per geometry and shared.
fn regions_of(geometry: &Arc<Geometry>) -> Arc<Vec<SumRegion>> {
    type Cache = Vec<(Arc<Geometry>, Arc<Vec<SumRegion>>)>;
    static CACHE: Mutex<Cache> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, r)) = cache.iter().find(|(g, _)| Arc::ptr_eq(g, geometry) || **g == **geometry)
    {
        return r.clone();
    }
    let regions = Arc::new(derived_regions(geometry, geometry.side()));
    if cache.len() >= 8 {
        cache.remove(0);
    }
    cache.push((geometry.clone(), regions.clone()));
    regions
}

/// The 45 rule: a derived region (innies, outies, or what a cage has left outside them) with
/// one open cell places it; one whose cells all differ rules out values by its combinations;
/// any other by its sum bounds.
pub fn innie_outie(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let side = b.side();
    let g = b.layout().geometry().clone();
    let regions = regions_of(&g);
    for r in regions.iter() {
        cx.work += 1;
        let Some(part) = open_part(b, &r.cells, r.sum) else { continue };
        let houses = match &r.origin {
            Origin::Innies(h) | Origin::Outies(h) => h.clone(),
            Origin::CageRest { .. } => Vec::new(),
        };
        if part.cells.is_empty() {
            continue;
        }
        if let [cell] = part.cells[..] {
            if let Ok(v) = u8::try_from(part.sum)
                && v >= 1
                && b.has(cell, v)
            {
                let mut step = Step::placing(Technique::InnieOutie, side, cell, v);
                step.houses = houses;
                step.detail = sums_detail(&[Part { cells: r.cells.clone(), sum: r.sum }]);
                return Some(step);
            }
            continue;
        }
        let elim = if r.distinct {
            combination_eliminations(b, &part, side)
        } else {
            bounds_eliminations(b, &part)
        };
        if !elim.is_empty() {
            return Some(sum_step(Technique::InnieOutie, b, &part, houses, elim));
        }
    }
    None
}

/// Min/max analysis on a region whose values may repeat: `v` is out of a cell when `v` plus the
/// largest (smallest) candidates of the other cells falls short of (exceeds) the sum.
fn bounds_eliminations(b: &Board, part: &Part) -> Vec<(usize, u8)> {
    let lo = |c: usize| values(b.cands(c)).next().map_or(0, u32::from);
    let hi = |c: usize| values(b.cands(c)).last().map_or(0, u32::from);
    let (min, max): (u32, u32) =
        part.cells.iter().fold((0, 0), |(a, z), &c| (a + lo(c), z + hi(c)));
    let mut elim = Vec::new();
    for &c in &part.cells {
        let (omin, omax) = (min - lo(c), max - hi(c));
        for v in values(b.cands(c)) {
            let v32 = u32::from(v);
            if v32 + omax < part.sum || v32 + omin > part.sum {
                elim.push((c, v));
            }
        }
    }
    elim
}

// ---------------------------------------------------------------------------------------------
// Solo's finders.

/// Solo's view of the cages on a board after one pass of its 45 rule: its cages (as split so
/// far, and by this pass), open cells only; the cages deduced from houses; the values the pass
/// places (leftovers of one cell); and the cages with every cell, to record.
struct SoloView {
    parts: Vec<Part>,
    extra: Vec<(Part, HouseKind)>,
    placed: Vec<(usize, u8, Part, HouseKind)>,
    full: SoloCages,
}

/// Solo's houses for the 45 rule, in its order: rows, columns, regions (no diagonals).
fn solo_houses(b: &Board) -> Vec<usize> {
    let l = b.layout();
    let n = l.side();
    (0..n)
        .map(|r| l.row_house(r))
        .chain((0..n).map(|c| l.col_house(c)))
        .chain((0..n).map(|r| l.region_house(r)))
        .collect()
}

/// Solo's cages as split on the way to the board, every cell with the total sum.
fn solo_base(b: &Board) -> SoloCages {
    match b.solo_cages() {
        Some(c) => (**c).clone(),
        None => b.layout().geometry().cages().iter().map(|c| (c.cells.clone(), c.sum)).collect(),
    }
}

/// The open cells of Solo's cages and what they add up to.
fn open_parts(b: &Board, full: &SoloCages) -> Vec<Part> {
    full.iter().filter_map(|(cells, sum)| open_part(b, cells, *sum)).collect()
}

/// One pass of Solo's 45 rule over every row, column and region, on its cages as split so far:
/// subtract placed values and the cages wholly inside; a leftover of one cell is placed, a
/// leftover inside one cage splits it, any other leftover is a deduced cage.
fn solo_view(b: &Board) -> SoloView {
    let l = b.layout().clone();
    let side = l.side();
    let total = (side * (side + 1) / 2) as i64;
    let mut full = solo_base(b);
    // Cells placed during the pass count as placed in houses but stay in their cages, as in
    // Solo (it takes them out of cages at its next clean-up).
    let mut value: Vec<u8> = b.values().to_vec();
    let mut part_of = vec![usize::MAX; l.cells()];
    for (k, (cells, _)) in full.iter().enumerate() {
        for &c in cells {
            if b.value(c) == 0 {
                part_of[c] = k;
            }
        }
    }
    let open_sum = |full: &SoloCages, k: usize| -> i64 {
        let (cells, sum) = &full[k];
        i64::from(*sum) - cells.iter().map(|&c| i64::from(b.value(c))).sum::<i64>()
    };
    let mut placed = Vec::new();
    let mut extra = Vec::new();
    for h in solo_houses(b) {
        let mut sum = total;
        let mut left: Vec<usize> = Vec::new();
        for &c in l.house(h) {
            let c = c as usize;
            if value[c] != 0 {
                sum -= i64::from(value[c]);
            } else {
                left.push(c);
            }
        }
        let mut touched: Vec<usize> = left.iter().map(|&c| part_of[c]).collect();
        touched.sort_unstable();
        touched.dedup();
        for k in touched {
            if k == usize::MAX {
                continue;
            }
            let inside = full[k].0.iter().all(|&c| b.value(c) != 0 || left.contains(&c));
            if inside {
                left.retain(|&c| part_of[c] != k);
                sum -= open_sum(&full, k);
            }
        }
        if left.is_empty() || left.len() == side || sum <= 0 {
            continue;
        }
        let kind = l.kind(h);
        if let [cell] = left[..]
            && sum as usize <= side
        {
            value[cell] = sum as u8;
            placed.push((cell, sum as u8, Part { cells: left.clone(), sum: sum as u32 }, kind));
        }
        let k = part_of[left[0]];
        if k != usize::MAX && left.iter().all(|&c| part_of[c] == k) {
            full[k].0.retain(|c| !left.contains(c));
            full[k].1 = full[k].1.saturating_sub(sum as u32);
            let new = full.len();
            for &c in &left {
                part_of[c] = new;
            }
            full.push((left, sum as u32));
        } else {
            extra.push((Part { cells: left, sum: sum as u32 }, kind));
        }
    }
    SoloView { parts: open_parts(b, &full), extra, placed, full }
}

/// The cages Solo's solver holds after its 45-rule pass on this board, to record on the board a
/// step found after that pass leads to.
pub(crate) fn solo_pass_cages(b: &Board) -> Option<Arc<SoloCages>> {
    b.layout().geometry().is_killer().then(|| Arc::new(solo_view(b).full))
}

/// Where Solo's 45-rule pass comes in [`super::SOLO_KILLER`]: a step found from there on comes
/// after it.
pub(crate) const SOLO_PASS_AT: usize = 3;

/// Solo's clean-up: a placed value leaves the other cells of its cage (graded as nothing; the
/// engine goes on with the next Killer technique rather than starting again).
pub fn solo_cage_exclusion(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let mut elim = Vec::new();
    let mut cages = Vec::new();
    for (cells, sum) in solo_base(b) {
        cx.work += 1;
        let before = elim.len();
        for &c in &cells {
            let v = b.value(c);
            if v == 0 {
                continue;
            }
            for &o in &cells {
                if b.value(o) == 0 && b.has(o, v) && !elim.contains(&(o, v)) {
                    elim.push((o, v));
                }
            }
        }
        if elim.len() > before {
            cages.push(Part { cells, sum });
        }
    }
    if elim.is_empty() {
        return None;
    }
    let mut step = Step::new(Technique::CageExclusion, b.side());
    step.cells = cages.iter().flat_map(|p| p.cells.iter().copied()).collect();
    step.values = elim.iter().map(|&(_, v)| v).collect();
    step.values.sort_unstable();
    step.values.dedup();
    step.detail = sums_detail(&cages);
    step.eliminate = elim;
    Some(step)
}

/// Solo's single-square cages: every cage (split ones too) with one open cell is placed.
pub fn solo_cage_singles(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let parts = open_parts(b, &solo_base(b));
    let mut step = Step::new(Technique::CageSingle, b.side());
    let mut used = Vec::new();
    for p in &parts {
        cx.work += 1;
        if let [cell] = p.cells[..]
            && let Ok(v) = u8::try_from(p.sum)
            && v >= 1
            && b.has(cell, v)
        {
            step.place.push((cell, v));
            step.cells.push(cell);
            step.values.push(v);
            used.push(p.clone());
        }
    }
    if step.place.is_empty() {
        return None;
    }
    step.detail = sums_detail(&used);
    Some(step)
}

/// Solo's deduced single-square cages: a row, column or region whose leftover (once placed
/// values and the cages inside are taken out) is one cell.
pub fn solo_innies(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    cx.work += 1;
    let view = solo_view(b);
    let mut step = Step::new(Technique::InnieOutie, b.side());
    let mut used = Vec::new();
    for (cell, v, part, house) in view.placed {
        if b.value(cell) != 0 || !b.has(cell, v) || step.place.iter().any(|&(c, _)| c == cell) {
            continue;
        }
        step.place.push((cell, v));
        step.cells.push(cell);
        step.values.push(v);
        step.houses.push(house);
        used.push(part);
    }
    if step.place.is_empty() {
        return None;
    }
    step.detail = sums_detail(&used);
    Some(step)
}

/// Solo's min/max analysis over its cages and then the deduced ones, each elimination seen by
/// the cells after it.
pub fn solo_bounds(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let view = solo_view(b);
    let mut cand: Vec<u64> = (0..b.layout().cells()).map(|c| b.cands(c)).collect();
    let mut elim = Vec::new();
    let mut used = Vec::new();
    let parts = view.parts.iter().chain(view.extra.iter().map(|(p, _)| p));
    for p in parts {
        cx.work += 1;
        if p.sum == 0 {
            continue;
        }
        let before = elim.len();
        for (i, &x) in p.cells.iter().enumerate() {
            for n in values(cand[x]) {
                let (mut lo, mut hi) = (0u32, 0u32);
                for (j, &y) in p.cells.iter().enumerate() {
                    if i != j {
                        lo += values(cand[y]).next().map_or(0, u32::from);
                        hi += values(cand[y]).last().map_or(0, u32::from);
                    }
                }
                let n32 = u32::from(n);
                if hi + n32 < p.sum || lo + n32 > p.sum {
                    cand[x] &= !bit(n);
                    elim.push((x, n));
                }
            }
        }
        if elim.len() > before {
            used.push(p.clone());
        }
    }
    solo_elimination_step(b, Technique::CageBounds, elim, &used)
}

/// Solo's sum possibilities: for its cages, and deduced cages inside one house, of 2 to 4
/// cells, the values of Solo's sum tables (sets of 1-9) of which every cell has one; the
/// others go.
pub fn solo_sums(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let side = b.side();
    let view = solo_view(b);
    let mut cand: Vec<u64> = (0..b.layout().cells()).map(|c| b.cands(c)).collect();
    let mut elim = Vec::new();
    let mut used = Vec::new();
    let parts = view.parts.iter().chain(view.extra.iter().map(|(p, _)| p));
    for p in parts {
        cx.work += 1;
        let n = p.cells.len();
        if p.sum == 0 || !(2..=4).contains(&n) {
            continue;
        }
        let mut possible = 0u64;
        // Solo's tables hold sets of 1-9 on every grid, and it only clears a cell's bits for
        // values up to the side: values above it count as present in every cell.
        let above = !full_mask(side);
        for &bits in combinations(n, p.sum, side.max(9)) {
            let bits = u64::from(bits);
            if p.cells.iter().all(|&c| (cand[c] | above) & bits != 0) {
                possible |= bits;
            }
        }
        if possible == 0 {
            continue;
        }
        let before = elim.len();
        for &c in &p.cells {
            for v in values(cand[c] & !possible) {
                cand[c] &= !bit(v);
                elim.push((c, v));
            }
        }
        if elim.len() > before {
            used.push(p.clone());
        }
    }
    solo_elimination_step(b, Technique::CageCombination, elim, &used)
}

fn solo_elimination_step(
    b: &Board,
    technique: Technique,
    elim: Vec<(usize, u8)>,
    used: &[Part],
) -> Option<Step> {
    if elim.is_empty() {
        return None;
    }
    let mut step = Step::new(technique, b.side());
    step.cells = used.iter().flat_map(|p| p.cells.iter().copied()).collect();
    step.values = elim.iter().map(|&(_, v)| v).collect();
    step.values.sort_unstable();
    step.values.dedup();
    step.detail = sums_detail(used);
    step.eliminate = elim;
    Some(step)
}
