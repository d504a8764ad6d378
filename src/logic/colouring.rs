//! Simple colouring: the conjugate pairs of one value, coloured alternately. Two cells of one
//! colour in a house make that colour false (wrap); a cell seeing both colours loses the value
//! (trap).

use super::Ctx;
use super::board::Bits;
use super::step::{Detail, Step, Technique};

/// A colour wrap or trap on any value.
pub fn simple_colours(cx: &mut Ctx) -> Option<Step> {
    let l = cx.board.layout().clone();
    let b = cx.board;
    let side = l.side();
    let n = l.cells();
    let mut colour = vec![u8::MAX; n];
    for v in 1..=side as u8 {
        // Conjugate-pair neighbours of every cell.
        let mut links: Vec<Vec<usize>> = vec![Vec::new(); n];
        for h in 0..l.house_count() {
            cx.work += 1;
            let p = b.positions(h, v);
            if p.count_ones() == 2 {
                let mut it = Bits(p).map(|i| l.house(h)[i] as usize);
                if let (Some(x), Some(y)) = (it.next(), it.next()) {
                    links[x].push(y);
                    links[y].push(x);
                }
            }
        }
        colour.iter_mut().for_each(|c| *c = u8::MAX);
        for start in 0..n {
            if links[start].is_empty() || colour[start] != u8::MAX {
                continue;
            }
            // Colour one component.
            let mut groups: [Vec<usize>; 2] = [vec![start], Vec::new()];
            colour[start] = 0;
            let mut queue = vec![start];
            while let Some(c) = queue.pop() {
                for &d in &links[c] {
                    cx.work += 1;
                    if colour[d] == u8::MAX {
                        colour[d] = 1 - colour[c];
                        groups[colour[d] as usize].push(d);
                        queue.push(d);
                    }
                }
            }
            if groups[0].len() + groups[1].len() < 3 {
                continue;
            }
            // Wrap: a colour seeing itself is false.
            for k in 0..2 {
                let g = &groups[k];
                let clash =
                    g.iter().enumerate().any(|(i, &x)| g[i + 1..].iter().any(|&y| l.sees(x, y)));
                if clash {
                    let elim = g.iter().map(|&c| (c, v)).collect();
                    return Some(colour_step(side, v, &groups, elim));
                }
            }
            // Trap: an uncoloured cell seeing both colours.
            let elim: Vec<(usize, u8)> = (0..n)
                .filter(|&c| b.has(c, v) && colour[c] == u8::MAX)
                .filter(|&c| {
                    groups[0].iter().any(|&x| l.sees(c, x))
                        && groups[1].iter().any(|&y| l.sees(c, y))
                })
                .map(|c| (c, v))
                .collect();
            cx.work += n as u64;
            if !elim.is_empty() {
                return Some(colour_step(side, v, &groups, elim));
            }
        }
    }
    None
}

fn colour_step(side: usize, v: u8, groups: &[Vec<usize>; 2], elim: Vec<(usize, u8)>) -> Step {
    let mut step = Step::new(Technique::SimpleColours, side);
    step.values.push(v);
    let (mut a, mut b) = (groups[0].clone(), groups[1].clone());
    a.sort_unstable();
    b.sort_unstable();
    step.cells = a.iter().chain(&b).copied().collect();
    step.detail = Detail::Colours(a, b);
    step.eliminate = elim;
    step
}
