//! Wings: W-Wing (two equal bivalue cells joined by a conjugate pair), XY-Wing (a bivalue pivot
//! and two bivalue pincers) and XYZ-Wing (a trivalue pivot).

use super::Ctx;
use super::board::{Bits, values};
use super::step::{Detail, Step, Technique};

/// Open cells with exactly `n` candidates.
fn with_count(cx: &Ctx, n: u32) -> Vec<usize> {
    let b = cx.board;
    (0..b.layout().cells()).filter(|&c| b.cands(c).count_ones() == n).collect()
}

/// Cells with candidate `v`, none of `not`, seeing every cell of `all`.
fn seeing_all(cx: &mut Ctx, v: u8, all: &[usize], not: &[usize]) -> Vec<(usize, u8)> {
    let b = cx.board;
    let l = b.layout();
    let first = all[0];
    cx.work += l.peers(first).len() as u64;
    l.peers(first)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| b.has(c, v) && !not.contains(&c) && l.sees_all(c, all))
        .map(|c| (c, v))
        .collect()
}

/// XY-Wing: pivot {x,y}, pincers {x,z} and {y,z} seeing it; z leaves the cells seeing both
/// pincers.
pub fn xy_wing(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let b = cx.board;
    let bivalue = with_count(cx, 2);
    for &p in &bivalue {
        let pm = b.cands(p);
        let pincers: Vec<usize> = bivalue
            .iter()
            .copied()
            .filter(|&c| l.sees(p, c) && (b.cands(c) & pm).count_ones() == 1)
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &c in &pincers[i + 1..] {
                cx.work += 1;
                let (am, cm) = (b.cands(a), b.cands(c));
                let z = am & cm & !pm;
                if z.count_ones() != 1 || (am & pm) == (cm & pm) {
                    continue;
                }
                let zv = values(z).next()?;
                let elim = seeing_all(cx, zv, &[a, c], &[p]);
                if !elim.is_empty() {
                    let mut step = Step::new(Technique::XyWing, l.side());
                    step.values = values(pm | z).collect();
                    step.cells = vec![p, a, c];
                    step.eliminate = elim;
                    return Some(step);
                }
            }
        }
    }
    None
}

/// XYZ-Wing: pivot {x,y,z}, pincers {x,z} and {y,z} seeing it; z leaves the cells seeing all
/// three.
pub fn xyz_wing(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let b = cx.board;
    let bivalue = with_count(cx, 2);
    for p in with_count(cx, 3) {
        let pm = b.cands(p);
        let pincers: Vec<usize> =
            bivalue.iter().copied().filter(|&c| l.sees(p, c) && b.cands(c) & !pm == 0).collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &c in &pincers[i + 1..] {
                cx.work += 1;
                let (am, cm) = (b.cands(a), b.cands(c));
                let z = am & cm;
                if am == cm || z.count_ones() != 1 {
                    continue;
                }
                let zv = values(z).next()?;
                let elim = seeing_all(cx, zv, &[p, a, c], &[]);
                if !elim.is_empty() {
                    let mut step = Step::new(Technique::XyzWing, l.side());
                    step.values = values(pm).collect();
                    step.cells = vec![p, a, c];
                    step.eliminate = elim;
                    return Some(step);
                }
            }
        }
    }
    None
}

/// W-Wing: bivalue cells A and B with the same {x,y} that do not see each other, and a conjugate
/// pair on x with one end seeing A and the other seeing B; y leaves the cells seeing A and B.
pub fn w_wing(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let b = cx.board;
    let bivalue = with_count(cx, 2);
    for (i, &a) in bivalue.iter().enumerate() {
        for &c in &bivalue[i + 1..] {
            let m = b.cands(a);
            if b.cands(c) != m || l.sees(a, c) {
                continue;
            }
            for x in values(m) {
                let y = values(m & !super::board::bit(x)).next()?;
                for h in 0..l.house_count() {
                    cx.work += 1;
                    let pos = b.positions(h, x);
                    if pos.count_ones() != 2 {
                        continue;
                    }
                    let mut it = Bits(pos).map(|i| l.house(h)[i] as usize);
                    let (p, q) = (it.next()?, it.next()?);
                    if [p, q].iter().any(|&e| e == a || e == c) {
                        continue;
                    }
                    let joined = (l.sees(p, a) && l.sees(q, c)) || (l.sees(p, c) && l.sees(q, a));
                    if !joined {
                        continue;
                    }
                    let elim = seeing_all(cx, y, &[a, c], &[]);
                    if !elim.is_empty() {
                        let mut step = Step::new(Technique::WWing, l.side());
                        // Text: "y/x in A,B connected by x in p,q".
                        step.values = vec![y, x, x];
                        step.cells = vec![a, c];
                        step.detail = Detail::Connected(vec![p, q]);
                        step.eliminate = elim;
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}
