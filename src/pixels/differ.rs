//! A blurred photo's 9 reads nearly as well as an 8 by the templates, as the strokes the two
//! digits share outweigh the one place they differ: the lower left, where an 8's lower loop
//! closes and a 9's is open. Here a glyph is compared with the board's sure examples of the
//! two digits only there: its ink is put on the axis from the templates' mean 9 to their mean
//! 8, weighted by where those means differ (see [`position`]), and the glyph is read as the
//! digit whose sure examples on that axis it is clearly nearer (see [`verdict`]).
//!
//! Taken only where the templates' two best digits are the pair and the glyph is torn between
//! them (see [`digits::Guess::torn`]; the blurred 9s of the development set came within 0.018
//! to 0.02 of their 8s), and the network reads the templates' best digit: the glyph is one of
//! the two, and the axis only decides which. On the development set's photos, over every glyph of truth 9 or 8 on a board with
//! sure examples of both, the measure (see [`verdict`]) was at most -0.093 for a 9 the
//! templates took for a 9 or an 8 and at least 0.12 for an 8; [`APART`] is 0.05 either way.
//! The same measure does not part a 6 from an 8 as cleanly (a sure 6 of hue-tesco-68b sat
//! at 0.097 towards the 8s, while a blurred 8 of wt-image36 sat at 0.039), so that pair is
//! left to the other steps.

use super::cells::Net;
use super::digits::{self, FEATURES, Features, Scores};
use super::{CellKind, CellRead};

/// The pairs told apart: the digit whose loop is open, and the 8.
const PAIRS: [(u8, u8); 1] = [(9, 8)];

/// The network's least probability for its reading (the blurred 9s of the development set:
/// 0.963 and 0.965).
const NET_LEAST: f32 = 0.7;

/// How much nearer the sure examples of one digit than the other's a glyph must be (see
/// [`verdict`]).
const APART: f32 = 0.05;

/// Reads as certain the uncertain glyphs of `out` that the place where their pair differs
/// settles (see the module). Leaves a board with pencil marks as it is (a photo read before
/// its perspective is undone may cut a given into what passes for marks).
pub(super) fn differ(out: &mut [CellRead], scores: &[Option<Scores>], nets: &[Net]) {
    if out.iter().any(|c| c.kind == CellKind::Pencil) {
        return;
    }
    // The features each glyph was read from.
    let features = |cell: usize| Some(scores.get(cell)?.as_ref()?.glyph());
    let mut read = Vec::new();
    for (cell, c) in out.iter().enumerate() {
        if c.is_certain() || c.kind == CellKind::Unclear {
            continue;
        }
        let (Some(value), Some(Some(score)), Some(net)) =
            (c.value, scores.get(cell), nets.get(cell))
        else {
            continue;
        };
        let Some(guess) = score.guess(&[false; 10]) else { continue };
        let net = net.reading();
        if !guess.torn()
            || guess.digit != value
            || net.value != value
            || net.probability < NET_LEAST
        {
            continue;
        }
        let Some(&(open, eight)) = PAIRS.iter().find(|&&(o, e)| {
            [o, e] == [guess.digit, guess.second] || [e, o] == [guess.digit, guess.second]
        }) else {
            continue;
        };
        let Some(at) = position(score.glyph(), open, eight) else { continue };
        // The sure examples of each digit of the pair, of the glyph's kind, on the axis.
        let examples = |digit: u8| -> Vec<f32> {
            out.iter()
                .enumerate()
                .filter(|&(j, e)| {
                    j != cell && e.is_certain() && e.kind == c.kind && e.value == Some(digit)
                })
                .filter_map(|(j, _)| position(features(j)?, open, eight))
                .collect()
        };
        if verdict(at, (open, eight), &examples(open), &examples(eight)) == Some(value) {
            read.push(cell);
        }
    }
    for cell in read {
        out[cell].confidence = out[cell].confidence.max(super::CERTAIN);
    }
}

/// Where `glyph` lies on the axis from the templates' mean `from` to their mean `to` (0 and
/// 1), counting each pixel by how much the two means differ there, so that the strokes both
/// digits share count for nothing. Each glyph's ink is scaled to the same mean first (a
/// photo's strokes are bolder or fainter than the templates'). `None` for a glyph without ink.
fn position(glyph: &Features, from: u8, to: u8) -> Option<f32> {
    let means = digits::mean_ink();
    let scaled = |f: &Features| -> Option<[f32; FEATURES]> {
        let mean = f.0.iter().sum::<f32>() / FEATURES as f32;
        (mean > 0.0).then(|| f.0.map(|v| v / mean))
    };
    let g = scaled(glyph)?;
    let a = scaled(means.get(usize::from(from))?)?;
    let b = scaled(means.get(usize::from(to))?)?;
    let (mut along, mut length) = (0f32, 0f32);
    for ((g, a), b) in g.iter().zip(&a).zip(&b) {
        let w = b - a;
        along += w * (g - a);
        length += w * w;
    }
    (length > 0.0).then(|| along / length)
}

/// The digit of the pair (`open`, `eight`) a glyph at `at` on the axis shows, given the
/// positions of the board's sure examples of each: how far it lies past the highest sure
/// `open`, less how far short of the lowest sure `eight`, must be at least [`APART`] for
/// `eight` and at most -[`APART`] for `open`. `None` when either digit has no sure example,
/// or the glyph is not clearly nearer one.
fn verdict(at: f32, (open, eight): (u8, u8), opens: &[f32], eights: &[f32]) -> Option<u8> {
    let highest_open = opens.iter().copied().reduce(f32::max)?;
    let lowest_eight = eights.iter().copied().reduce(f32::min)?;
    let towards_eight = (at - highest_open) - (lowest_eight - at);
    if towards_eight >= APART {
        Some(eight)
    } else if towards_eight <= -APART {
        Some(open)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::cells::{Content, cell_content};
    use super::super::drawkit::{Canvas, blur, font};
    use super::*;

    /// The features of `digit` drawn in font `f`, blurred by `radius`, as the board reader
    /// makes them of a cell.
    fn drawn(f: usize, digit: char, radius: usize) -> Features {
        let mut c = Canvas::new(64, 64, [250, 250, 250]);
        c.glyph(&font(f), digit, 44.0, 32.0, 32.0, [20, 20, 20]);
        let c = if radius > 0 { blur(&c, radius) } else { c };
        match cell_content(c.view(), 0, 0, 63, 63) {
            Content::Glyph(features, _) => *features,
            other => panic!("{digit} in font {f}: {other:?}"),
        }
    }

    #[test]
    fn the_axis_runs_from_one_mean_to_the_other() {
        let means = digits::mean_ink();
        let at = |d: usize| position(&means[d], 9, 8).expect("ink");
        assert!(at(9).abs() < 1e-3, "{}", at(9));
        assert!((at(8) - 1.0).abs() < 1e-3, "{}", at(8));
        assert_eq!(position(&Features([0.0; FEATURES]), 9, 8), None);
    }

    /// A blurred 9 and a blurred 8 lie each nearer the examples of its own digit drawn
    /// sharper in the same font, by more than [`APART`].
    #[test]
    fn a_blurred_glyph_is_nearer_its_own_digits_sure_examples() {
        for f in 0..3 {
            let at = |digit: char, radius: usize| position(&drawn(f, digit, radius), 9, 8);
            let nines = [at('9', 0).expect("a 9"), at('9', 1).expect("a 9")];
            let eights = [at('8', 0).expect("an 8"), at('8', 1).expect("an 8")];
            for radius in [2, 3] {
                let nine = at('9', radius).expect("a blurred 9");
                let eight = at('8', radius).expect("a blurred 8");
                assert_eq!(verdict(nine, (9, 8), &nines, &eights), Some(9), "font {f}");
                assert_eq!(verdict(eight, (9, 8), &nines, &eights), Some(8), "font {f}");
            }
        }
    }

    #[test]
    fn a_glyph_midway_or_without_examples_is_left_alone() {
        // 0.2 past the highest sure 9 and 0.2 short of the lowest sure 8: midway.
        assert_eq!(verdict(0.5, (9, 8), &[0.3, 0.4], &[0.6, 0.7]), None);
        assert_eq!(verdict(0.51, (9, 8), &[0.3, 0.4], &[0.6, 0.7]), None);
        assert_eq!(verdict(0.47, (9, 8), &[0.3, 0.4], &[0.6, 0.7]), Some(9));
        assert_eq!(verdict(0.53, (9, 8), &[0.3, 0.4], &[0.6, 0.7]), Some(8));
        assert_eq!(verdict(0.2, (9, 8), &[], &[0.6, 0.7]), None);
        assert_eq!(verdict(0.9, (9, 8), &[0.3], &[]), None);
    }
}
