//! ALS-XZ: two almost locked sets (N cells of a house with N + 1 candidates) that share a
//! restricted common value X (every X of one sees every X of the other, so at most one set holds
//! X and the other is then locked). For any other common value Z, one of the sets holds Z, so a
//! cell seeing every Z of both loses it.

use super::Ctx;
use super::board::{bit, values};
use super::step::{Detail, Step, Technique};
use super::subsets::combinations_within;

/// An almost locked set: cells (sorted) and their candidates.
struct Als {
    cells: Vec<usize>,
    mask: u64,
}

/// Every ALS of up to `max` cells, each cell set once.
fn all_sets(cx: &mut Ctx, max: usize) -> Vec<Als> {
    let b = cx.board;
    let l = b.layout();
    let mut out: Vec<Als> = Vec::new();
    for h in 0..l.house_count() {
        let open: Vec<usize> =
            l.house(h).iter().map(|&c| c as usize).filter(|&c| b.value(c) == 0).collect();
        let masks: Vec<u64> = open.iter().map(|&c| b.cands(c)).collect();
        for k in 1..=max.min(open.len().saturating_sub(1)) {
            let mut work = 0;
            // Combinations whose union has at most k + 1 values; keep exactly k + 1.
            combinations_within(&masks, k, k + 1, &mut work, &mut |chosen, union| {
                if union.count_ones() as usize == k + 1 {
                    let mut cells: Vec<usize> = chosen.iter().map(|&i| open[i]).collect();
                    cells.sort_unstable();
                    if !out.iter().any(|a| a.cells == cells) {
                        out.push(Als { cells, mask: union });
                    }
                }
                None::<()>
            });
            cx.work += work;
        }
    }
    out
}

/// An ALS-XZ elimination, sets of up to `max` cells.
pub fn als_xz(cx: &mut Ctx, max: usize) -> Option<Step> {
    let sets = all_sets(cx, max);
    let b = cx.board;
    let l = b.layout();
    let with = |a: &Als, v: u8| -> Vec<usize> {
        a.cells.iter().copied().filter(|&c| b.has(c, v)).collect()
    };
    for (i, a) in sets.iter().enumerate() {
        for bset in &sets[i + 1..] {
            cx.work += 1;
            let common = a.mask & bset.mask;
            if common.count_ones() < 2 || a.cells.iter().any(|c| bset.cells.contains(c)) {
                continue;
            }
            for x in values(common) {
                let (ax, bx) = (with(a, x), with(bset, x));
                if !ax.iter().all(|&p| bx.iter().all(|&q| l.sees(p, q))) {
                    continue;
                }
                for z in values(common & !bit(x)) {
                    let zs: Vec<usize> = with(a, z).into_iter().chain(with(bset, z)).collect();
                    cx.work += l.peers(zs[0]).len() as u64;
                    let elim: Vec<(usize, u8)> = l
                        .peers(zs[0])
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| b.has(c, z) && !zs.contains(&c) && l.sees_all(c, &zs))
                        .map(|c| (c, z))
                        .collect();
                    if elim.is_empty() {
                        continue;
                    }
                    let mut step = Step::new(Technique::AlsXz, l.side());
                    step.values = vec![z];
                    step.cells = a.cells.iter().chain(&bset.cells).copied().collect();
                    step.detail = Detail::Als {
                        a: a.cells.clone(),
                        a_values: a.mask,
                        b: bset.cells.clone(),
                        b_values: bset.mask,
                        x,
                    };
                    step.eliminate = elim;
                    return Some(step);
                }
            }
        }
    }
    None
}
