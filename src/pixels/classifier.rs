//! A small neural network that names the symbol a glyph shows: a digit 1 to 9, a letter A to
//! G (the values 10 to 16 of a 16x16 board), or something else ([`OTHER`]: other letters and
//! signs, so that a board showing them is refused rather than read). Its input is a glyph's
//! [`Features`](super::digits::Features) as the cell reader makes them; two hidden layers of
//! rectified units and a softmax. Plain Rust, no crate.
//!
//! The weights (`classifier.bin`) are trained by `examples/train_digits.rs` from glyphs rendered
//! in fonts of Debian's font packages and degraded (blur, noise, thickness, slant, perspective,
//! a lower resolution, JPEG), each passed through the same cell reader as a real picture.
//!
//! The reader asks a [`Committee`]: a few networks trained alike, each from its own random
//! draw of samples, whose probabilities are averaged. One network's reading of a photo's
//! blurred glyph depends on its draw (two draws of the same recipe read 147 and 153 of the
//! development set's 206 photos exactly, each losing pictures the other read); the average
//! is steadier, and its wrong readings less probable.

use std::sync::OnceLock;

use super::digits::{FEATURES, Features};

/// The class of a glyph that is no value (a letter past G, a sign, a zero).
pub const OTHER: usize = 0;

/// Classes: [`OTHER`], the digits 1 to 9, the letters A to G (values 10 to 16).
pub const CLASSES: usize = 17;

/// The first bytes of a network's weights.
pub const MAGIC: &[u8; 8] = b"SBNET001";

/// The built-in weights: the committee's networks, one after another.
const WEIGHTS: &[u8] = include_bytes!("classifier.bin");

/// A fully connected layer: `outputs` rows of `inputs` weights, then the biases.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Inputs per unit.
    pub inputs: usize,
    /// Units.
    pub outputs: usize,
    /// `weights[o * inputs + i]`.
    pub weights: Vec<f32>,
    /// One per unit.
    pub biases: Vec<f32>,
}

impl Layer {
    /// A layer of zeros.
    pub fn zeros(inputs: usize, outputs: usize) -> Layer {
        Layer { inputs, outputs, weights: vec![0.0; inputs * outputs], biases: vec![0.0; outputs] }
    }

    /// `out = W x + b`.
    pub fn apply(&self, x: &[f32], out: &mut [f32]) {
        for (o, slot) in out.iter_mut().enumerate().take(self.outputs) {
            let row = &self.weights[o * self.inputs..(o + 1) * self.inputs];
            *slot = self.biases[o] + dot(row, x);
        }
    }
}

/// The dot product, in eight lanes so that it vectorises.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(p, q)| p * q).sum();
    for (x, y) in ca.zip(cb) {
        for ((lane, p), q) in lanes.iter_mut().zip(x).zip(y) {
            *lane += p * q;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The network: layers applied in turn, rectified between them, a softmax at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// The layers, input first.
    pub layers: Vec<Layer>,
}

/// The activations of every layer for one input (after rectifying, except the last, which
/// holds the class probabilities).
pub type Activations = Vec<Vec<f32>>;

impl Net {
    /// The input a glyph's features give: the ink centred on 0.
    pub fn input(features: &Features) -> Vec<f32> {
        features.0.iter().map(|v| v - 0.5).collect()
    }

    /// Every layer's output for `input`; the last is the class probabilities.
    pub fn activations(&self, input: &[f32]) -> Activations {
        let mut acts: Activations = Vec::with_capacity(self.layers.len());
        for (k, layer) in self.layers.iter().enumerate() {
            let x = acts.last().map_or(input, |a| a.as_slice());
            let mut out = vec![0f32; layer.outputs];
            layer.apply(x, &mut out);
            if k + 1 < self.layers.len() {
                out.iter_mut().for_each(|v| *v = v.max(0.0));
            } else {
                softmax(&mut out);
            }
            acts.push(out);
        }
        acts
    }

    /// The class probabilities of a glyph (empty for a network without layers).
    pub fn probabilities(&self, features: &Features) -> Vec<f32> {
        self.activations(&Net::input(features)).pop().unwrap_or_default()
    }

    /// The weights file: [`MAGIC`], the layer count and each layer's sizes (u32, little
    /// endian), then each layer's weights and biases (f32, little endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((self.layers.len() as u32).to_le_bytes());
        for l in &self.layers {
            out.extend((l.inputs as u32).to_le_bytes());
            out.extend((l.outputs as u32).to_le_bytes());
        }
        for l in &self.layers {
            for v in l.weights.iter().chain(&l.biases) {
                out.extend(v.to_le_bytes());
            }
        }
        out
    }

    /// Reads a weights file; `None` when it is damaged or does not map [`FEATURES`] inputs to
    /// [`CLASSES`] outputs.
    pub fn from_bytes(data: &[u8]) -> Option<Net> {
        match Net::parse(data)? {
            (net, []) => Some(net),
            _ => None,
        }
    }

    /// Reads one network's weights from the start of `data`: the network and the bytes after
    /// it.
    fn parse(data: &[u8]) -> Option<(Net, &[u8])> {
        let mut rest = data.strip_prefix(MAGIC.as_slice())?;
        let mut word = || -> Option<u32> {
            let (head, tail) = rest.split_first_chunk::<4>()?;
            rest = tail;
            Some(u32::from_le_bytes(*head))
        };
        let count = word()? as usize;
        if count == 0 || count > 8 {
            return None;
        }
        let mut layers = Vec::with_capacity(count);
        for _ in 0..count {
            let (i, o) = (word()? as usize, word()? as usize);
            if i == 0 || o == 0 || i > 4096 || o > 4096 {
                return None;
            }
            layers.push(Layer::zeros(i, o));
        }
        let chained = layers.windows(2).all(|w| w[0].outputs == w[1].inputs);
        if !chained || layers[0].inputs != FEATURES || layers[count - 1].outputs != CLASSES {
            return None;
        }
        for l in &mut layers {
            for v in l.weights.iter_mut().chain(l.biases.iter_mut()) {
                *v = f32::from_bits(word()?);
                if !v.is_finite() {
                    return None;
                }
            }
        }
        Some((Net { layers }, rest))
    }
}

/// Networks trained alike from different random draws (see the module): a glyph's class
/// probabilities are their mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Committee {
    /// The networks, at least one.
    pub members: Vec<Net>,
}

impl Committee {
    /// The most members a weights file may hold.
    pub const MOST: usize = 16;

    /// The mean of the members' class probabilities for a glyph.
    pub fn probabilities(&self, features: &Features) -> Vec<f32> {
        self.probabilities_of(&Net::input(features))
    }

    /// The mean of the members' class probabilities for a network input (see
    /// [`Net::input`]).
    pub fn probabilities_of(&self, input: &[f32]) -> Vec<f32> {
        let mut mean = vec![0f32; CLASSES];
        for net in &self.members {
            let p = net.activations(input).pop().unwrap_or_default();
            mean.iter_mut().zip(&p).for_each(|(m, q)| *m += q);
        }
        let n = self.members.len().max(1) as f32;
        mean.iter_mut().for_each(|m| *m /= n);
        mean
    }

    /// The weights file: each member's weights ([`Net::to_bytes`]) one after another.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.members.iter().flat_map(Net::to_bytes).collect()
    }

    /// Reads a weights file of one to [`Committee::MOST`] networks; `None` when any is
    /// damaged or bytes are left over.
    pub fn from_bytes(mut data: &[u8]) -> Option<Committee> {
        let mut members = Vec::new();
        while !data.is_empty() && members.len() < Self::MOST {
            let (net, rest) = Net::parse(data)?;
            members.push(net);
            data = rest;
        }
        (data.is_empty() && !members.is_empty()).then_some(Committee { members })
    }
}

/// Turns scores into probabilities in place.
pub fn softmax(v: &mut [f32]) {
    let top = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in v.iter_mut() {
        *x = (*x - top).exp();
        sum += *x;
    }
    if sum > 0.0 {
        v.iter_mut().for_each(|x| *x /= sum);
    }
}

/// The built-in committee, `None` when its file is missing or damaged.
pub fn builtin() -> Option<&'static Committee> {
    static NETS: OnceLock<Option<Committee>> = OnceLock::new();
    NETS.get_or_init(|| Committee::from_bytes(WEIGHTS)).as_ref()
}

/// What the network made of a glyph on a board of `side` values (all zero: no network).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reading {
    /// The most probable value of the board (1 to `side`), or 0 when the most probable
    /// class is no value of this board.
    pub value: u8,
    /// The probability of the most probable class.
    pub probability: f32,
    /// The probability of the next class (a value of the board or not).
    pub runner_up: f32,
}

/// Names a glyph for a board of `side` values: classes that are no value of the board (a
/// letter on a 9x9 board) count as [`OTHER`].
pub fn read(nets: &Committee, features: &Features, side: usize) -> Reading {
    let p = nets.probabilities(features);
    let mut merged = [0f32; CLASSES];
    for (class, &q) in p.iter().enumerate().take(CLASSES) {
        let slot = if class <= side { class } else { OTHER };
        merged[slot] += q;
    }
    let mut order: Vec<usize> = (0..CLASSES).collect();
    order.sort_by(|&a, &b| merged[b].total_cmp(&merged[a]));
    let best = order[0];
    Reading { value: best as u8, probability: merged[best], runner_up: merged[order[1]] }
}

#[cfg(test)]
pub(super) mod tests {
    use ab_glyph::FontVec;

    use super::super::drawkit::letters_puzzle;
    use super::super::tests::{Canvas, Drawn, LIGHT, Style, draw};
    use super::super::{CellKind, digits};
    use super::*;

    /// Fonts `examples/train_digits.rs` holds out of training (its `HELD_OUT`).
    const UNSEEN: &[&str] = &[
        "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf",
        "/usr/share/fonts/truetype/freefont/FreeMono.ttf",
        "/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf",
        "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
    ];

    fn font(path: &str) -> FontVec {
        let bytes = std::fs::read(path).unwrap_or_else(|e| {
            panic!(
                "{path}: {e} (install fonts-freefont-ttf and fonts-urw-base35: bash .ci/deps test)"
            )
        });
        FontVec::try_from_vec(bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// One symbol drawn alone in a cell of `cell` pixels, as the board reader sees it.
    fn cell_glyph(
        font: &FontVec,
        ch: char,
        cell: usize,
        colour: [u8; 3],
    ) -> Option<digits::Features> {
        let side = (cell + 8).max(40);
        let mut canvas = Canvas::new(side, side, [250, 250, 246]);
        let centre = 2.0 + cell as f32 / 2.0;
        canvas.glyph(font, ch, cell as f32 * 0.75, centre + 0.3, centre - 0.2, colour);
        digits::cell_features(canvas.view(), (2, 2, cell + 1, cell + 1))
    }

    /// Digits and the letters A to G in fonts the network never saw, at cell sizes from 20 to
    /// 64 pixels: nearly all read right and certain, and none read as another value with a
    /// probability at the bar.
    #[test]
    fn symbols_in_held_out_fonts_are_read() {
        let nets = builtin().expect("classifier.bin is built in");
        let (mut right, mut total, mut sure_wrong) = (0, 0, Vec::new());
        for path in UNSEEN {
            let font = font(path);
            for value in 1..=16u8 {
                let ch = crate::grid::symbol::to_char(value, 16, crate::grid::symbol::Style::Line)
                    .expect("a symbol");
                for cell in [20, 28, 40, 64] {
                    total += 1;
                    let Some(features) = cell_glyph(&font, ch, cell, [20, 20, 20]) else {
                        continue;
                    };
                    let r = read(nets, &features, 16);
                    if r.value == value && r.probability >= digits::NET_BAR {
                        right += 1;
                    } else if r.value != value && r.value != 0 && r.probability >= digits::NET_BAR {
                        sure_wrong.push(format!("{path} {ch} at {cell}: {r:?}"));
                    }
                }
            }
        }
        assert!(sure_wrong.is_empty(), "read as another value: {sure_wrong:#?}");
        assert!(right * 100 >= total * 95, "{right} of {total} read right and certain");
    }

    /// Letters past G and signs are no value of a 16x16 board, and letters are no value of a
    /// 9x9 board.
    #[test]
    fn glyphs_that_are_no_value_are_not_read_as_values() {
        let nets = builtin().expect("classifier.bin is built in");
        let font = font(UNSEEN[0]);
        for ch in ['H', 'K', 'M', 'R', 'X', '#', '@', '0'] {
            let f = cell_glyph(&font, ch, 40, [0, 0, 0]).expect("a glyph");
            let r = read(nets, &f, 16);
            assert!(r.value == 0 || r.probability < digits::NET_BAR, "{ch}: {r:?}");
        }
        for ch in ['A', 'C', 'E', 'F'] {
            let f = cell_glyph(&font, ch, 40, [0, 0, 0]).expect("a glyph");
            let r = read(nets, &f, 9);
            assert!(r.value == 0 || r.probability < digits::NET_BAR, "{ch} on 9x9: {r:?}");
        }
    }

    /// The weights file round-trips, and a damaged one is refused.
    #[test]
    fn the_weights_file_round_trips() {
        let nets = builtin().expect("classifier.bin is built in");
        assert!(nets.members.len() > 1, "a committee of {}", nets.members.len());
        let bytes = nets.to_bytes();
        assert_eq!(bytes, WEIGHTS);
        assert_eq!(Committee::from_bytes(&bytes).as_ref(), Some(nets));
        assert!(Committee::from_bytes(&bytes[..bytes.len() - 1]).is_none());
        assert!(Committee::from_bytes(b"SBNET001").is_none());
        assert!(Committee::from_bytes(b"").is_none());
        let mut wrong_size = bytes.clone();
        wrong_size[12..16].copy_from_slice(&7u32.to_le_bytes());
        assert!(Committee::from_bytes(&wrong_size).is_none());
        // One network alone: a file of its own, and a committee of one.
        let one = nets.members[0].to_bytes();
        assert_eq!(Net::from_bytes(&one).as_ref(), Some(&nets.members[0]));
        assert!(Net::from_bytes(&bytes).is_none(), "more than one network is no single network");
        let alone = Committee::from_bytes(&one).expect("a committee of one");
        let f = digits::Features([0.5; digits::FEATURES]);
        assert_eq!(alone.probabilities(&f), nets.members[0].probabilities(&f));
    }

    /// A 16x16 board with letters, drawn in fonts the network never saw, is read exactly in
    /// FreeSans; in every held-out font, no cell is read wrong (a few `G`s of FreeSerif Bold
    /// are uncertain).
    #[test]
    fn a_16x16_board_with_letters_is_read() {
        for (k, path) in UNSEEN.iter().enumerate() {
            let f = font(path);
            let p = letters_puzzle();
            let style = Style { cell: 30, ..LIGHT };
            let mut canvas = Canvas::new(560, 560, [255, 255, 255]);
            draw(&mut canvas, 12, 9, &p, &style, &f);
            let board = super::super::read(canvas.view()).expect("a board");
            assert_eq!((board.board.side, board.board.box_width), (16, 4), "{path}");
            for (i, (cell, drawn)) in board.cells.iter().zip(&p.cells).enumerate() {
                let want = match drawn {
                    Drawn::Given(v) => Some(*v),
                    _ => None,
                };
                assert!(k > 0 || cell.is_certain(), "{path}: cell {i} uncertain\n{board}");
                if cell.is_certain() {
                    assert_eq!(cell.value, want, "{path}: cell {i}\n{board}");
                }
                assert_ne!(cell.kind, CellKind::Entry, "{path}: cell {i}");
            }
        }
    }
}
