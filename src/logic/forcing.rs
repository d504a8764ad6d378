//! Forcing chains, the last techniques before a guess: assume a candidate and follow the singles
//! it forces (naked and hidden singles, repeated). A candidate whose consequences break a rule is
//! false (a contradiction chain, as seed 003's chunk solver uses); a conclusion reached from
//! every candidate of a cell, or from every place of a value in a house, is true.
//!
//! Also the guess step, which ends every path: the cell with the fewest candidates takes the
//! solution's value.

use super::Ctx;
use super::board::{Board, Contradiction, bit, full_mask, values};
use super::step::{Detail, Step, Technique, house_name};

/// Fills in naked and hidden singles until none is left. Fails at the first broken rule.
pub fn propagate(b: &mut Board, work: &mut u64) -> Result<(), Contradiction> {
    let side = b.side();
    let cells = b.layout().cells();
    let houses = b.layout().house_count();
    loop {
        let mut changed = false;
        for c in 0..cells {
            *work += 1;
            if b.value(c) != 0 {
                continue;
            }
            let m = b.cands(c);
            if m == 0 {
                return Err(Contradiction::EmptyCell(c));
            }
            if m & (m - 1) == 0 {
                b.place(c, m.trailing_zeros() as u8 + 1);
                changed = true;
            }
        }
        for h in 0..houses {
            for v in values(full_mask(side) & !b.placed_in(h)) {
                *work += 1;
                let p = b.positions(h, v);
                if p == 0 {
                    return Err(Contradiction::NoPlace { house: h, value: v });
                }
                if p & (p - 1) == 0 {
                    let c = b.layout().house(h)[p.trailing_zeros() as usize] as usize;
                    if b.value(c) == 0 {
                        b.place(c, v);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// What a branch led to.
enum Branch {
    Broken(Contradiction),
    Board(Board),
}

fn branch(b: &Board, cell: usize, v: u8, work: &mut u64) -> Branch {
    let mut trial = b.clone();
    trial.place(cell, v);
    match propagate(&mut trial, work) {
        Ok(()) => Branch::Board(trial),
        Err(c) => Branch::Broken(c),
    }
}

fn describe(b: &Board, c: Contradiction) -> String {
    match c {
        Contradiction::EmptyCell(cell) => format!("{} has no candidate", b.cell_name(cell)),
        Contradiction::NoPlace { house, value } => format!(
            "no place for {} in {}",
            crate::grid::symbol::to_char(value, b.side(), crate::grid::symbol::Style::Line)
                .unwrap_or('?'),
            house_name(b.layout().kind(house))
        ),
    }
}

fn assumption(b: &Board, cell: usize, v: u8) -> String {
    format!(
        "{}={}",
        b.cell_name(cell),
        crate::grid::symbol::to_char(v, b.side(), crate::grid::symbol::Style::Line).unwrap_or('?')
    )
}

/// Open cells, fewest candidates first (reading order among equals).
fn cells_by_count(b: &Board) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..b.layout().cells()).filter(|&c| b.value(c) == 0).collect();
    cells.sort_by_key(|&c| b.cands(c).count_ones());
    cells
}

/// A candidate whose singles lead to a broken rule: it goes.
pub fn contradiction(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    for cell in cells_by_count(b) {
        for v in values(b.cands(cell)) {
            if let Branch::Broken(why) = branch(b, cell, v, &mut cx.work) {
                let mut step = Step::new(Technique::ForcingChain, b.side());
                step.values.push(v);
                step.cells.push(cell);
                step.detail = Detail::Forcing {
                    branches: vec![(cell, v)],
                    outcome: format!(
                        "{} leads to a contradiction ({})",
                        assumption(b, cell, v),
                        describe(b, why)
                    ),
                };
                step.eliminate.push((cell, v));
                return Some(step);
            }
        }
    }
    None
}

/// A conclusion shared by every possible branch: a placement if any, else eliminations.
/// What a step does: placements, eliminations.
type Effects = (Vec<(usize, u8)>, Vec<(usize, u8)>);

fn common(b: &Board, branches: &[Board]) -> Option<Effects> {
    let first = branches.first()?;
    for c in 0..b.layout().cells() {
        let v = first.value(c);
        if b.value(c) == 0 && v != 0 && branches.iter().all(|t| t.value(c) == v) {
            return Some((vec![(c, v)], Vec::new()));
        }
    }
    let mut elim = Vec::new();
    for c in 0..b.layout().cells() {
        for v in values(b.cands(c)) {
            if branches.iter().all(|t| t.value(c) != v && !t.has(c, v)) {
                elim.push((c, v));
            }
        }
    }
    (!elim.is_empty()).then_some((Vec::new(), elim))
}

fn forcing_step(
    b: &Board,
    technique: Technique,
    tried: &[(usize, u8)],
    broken: &[bool],
    (place, eliminate): Effects,
) -> Step {
    let mut step = Step::new(technique, b.side());
    let mut cells: Vec<usize> = tried.iter().map(|&(c, _)| c).collect();
    cells.dedup();
    step.cells = cells;
    step.values = tried.iter().map(|&(_, v)| v).collect();
    step.values.sort_unstable();
    step.values.dedup();
    let outcome = tried
        .iter()
        .zip(broken)
        .map(|(&(c, v), &x)| {
            let a = assumption(b, c, v);
            if x { format!("{a} (contradiction)") } else { a }
        })
        .collect::<Vec<_>>()
        .join(" | ");
    step.detail = Detail::Forcing { branches: tried.to_vec(), outcome };
    step.place = place;
    step.eliminate = eliminate;
    step
}

/// Every candidate of a cell (two or three) leads to the same conclusion.
pub fn cell_forcing(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    for cell in cells_by_count(b) {
        if b.cands(cell).count_ones() > 3 {
            break;
        }
        let tried: Vec<(usize, u8)> = values(b.cands(cell)).map(|v| (cell, v)).collect();
        if let Some(step) = forcing(cx, Technique::CellForcingChain, &tried) {
            return Some(step);
        }
    }
    None
}

/// Every place of a value in a house (two or three) leads to the same conclusion.
pub fn unit_forcing(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let l = b.layout();
    for h in 0..l.house_count() {
        for v in values(full_mask(l.side()) & !b.placed_in(h)) {
            let n = b.positions(h, v).count_ones();
            if !(2..=3).contains(&n) {
                continue;
            }
            let tried: Vec<(usize, u8)> = b.cells_with(h, v).map(|c| (c, v)).collect();
            if let Some(step) = forcing(cx, Technique::UnitForcingChain, &tried) {
                return Some(step);
            }
        }
    }
    None
}

fn forcing(cx: &mut Ctx, technique: Technique, tried: &[(usize, u8)]) -> Option<Step> {
    let b = cx.board;
    let mut boards = Vec::with_capacity(tried.len());
    let mut broken = Vec::with_capacity(tried.len());
    for &(c, v) in tried {
        match branch(b, c, v, &mut cx.work) {
            Branch::Board(t) => {
                boards.push(t);
                broken.push(false);
            }
            Branch::Broken(_) => broken.push(true),
        }
    }
    let found = common(b, &boards)?;
    // A conclusion already on the board is no step.
    let (place, elim) = &found;
    if place.iter().all(|&(c, _)| b.value(c) != 0) && elim.iter().all(|&(c, v)| !b.has(c, v)) {
        return None;
    }
    Some(forcing_step(b, technique, tried, &broken, found))
}

/// The guess: the first open cell with the fewest candidates takes the solution's value.
pub fn guess(cx: &mut Ctx) -> Option<Step> {
    let b = cx.board;
    let cell = cells_by_count(b).into_iter().next()?;
    let v = cx.solution.get(cell).copied().filter(|&v| v != 0 && b.cands(cell) & bit(v) != 0)?;
    let mut step = Step::placing(Technique::Guess, b.side(), cell, v);
    step.values = values(b.cands(cell)).collect();
    Some(step)
}
