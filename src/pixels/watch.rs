//! Watching a board's cells between two reads, for a bot that plays by pixels: how a cell
//! looks ([`CellLook`]: its margin's colour and how much of its middle is ink), whether a
//! click showed it as the selected cell ([`selected`]), and whether its digit changed
//! ([`Glyph::changed`]). Cells are placed by the board's measured cell edges
//! ([`Board::cell_rect`]), the same geometry the reader and the web's clicks use.

use std::fmt;

use super::RgbaImage;
use super::board::{Area, Board};
use crate::grid::Cell;

/// A colour as three channels, 0 to 255.
pub type Rgb = [f64; 3];

/// A band of a cell where something is sampled, in fractions of the cell's side from its
/// edges: from `from` in, `span` further, at `points` steps.
#[derive(Clone, Copy, Debug)]
struct Band {
    from: f64,
    span: f64,
    points: usize,
}

impl Band {
    /// A cell's margin, where no digit is drawn: its colour is sampled along four strips
    /// between 12% and 25% in from its edges.
    const MARGIN: Band = Band { from: 0.12, span: 0.13, points: 20 };
    /// The middle 40%, where a digit's ink is looked for on a 16 x 16 lattice.
    const MIDDLE: Band = Band { from: 0.3, span: 0.4, points: 16 };
    /// The middle half, sampled on a 16 x 16 lattice to see a glyph change.
    const GLYPH: Band = Band { from: 0.25, span: 0.5, points: 16 };

    /// Step `k` of [`Band::points`] (first and last included) across the band.
    fn at(self, k: usize) -> f64 {
        self.from + self.span * k as f64 / (self.points.max(2) - 1) as f64
    }
}

/// Thresholds: each says what it tells apart.
mod bar {
    /// A pixel this far from the margin's colour (the sum of the channel differences) is ink.
    pub const INK_FAR: f64 = 150.0;
    /// A cell shows a digit once this share of its middle is ink.
    pub const INK_SHOWN: f64 = 0.04;
    /// A colour whose channels spread less than this is a grey (no hue).
    pub const NEUTRAL_SPREAD: f64 = 16.0;
    /// Two margin colours further apart than this (the sum of the channel differences) tell
    /// a selection or a shaded given.
    pub const LOOK_CHANGE: f64 = 18.0;
    /// A glyph changed when its grey levels moved by more than this on average, per sample.
    pub const GLYPH_CHANGE: u32 = 4;
}

/// How a cell looks: the colour of its margin and how much of its middle is ink.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellLook {
    /// The margin's colour (the median of each channel, so that pencil marks drawn there do
    /// not tint it).
    pub background: Rgb,
    /// The share of the middle that is ink (far from the margin's colour), 0 to 1.
    pub ink: f64,
}

/// The colour at a point, black outside the image.
fn colour_at(image: &RgbaImage, x: f64, y: f64) -> Rgb {
    let (x, y) = (x as usize, y as usize);
    if x >= image.width || y >= image.height {
        return [0.0; 3];
    }
    let i = (y * image.width + x) * 4;
    match image.data.get(i..i + 3) {
        Some(p) => [f64::from(p[0]), f64::from(p[1]), f64::from(p[2])],
        None => [0.0; 3],
    }
}

/// The point at fractions (`fx`, `fy`) across a cell.
fn point(cell: Area, fx: f64, fy: f64) -> (f64, f64) {
    (cell.left as f64 + fx * cell.width as f64, cell.top as f64 + fy * cell.height as f64)
}

impl CellLook {
    /// How the cell at `cell` (a rectangle of `image`) looks.
    pub fn of(image: &RgbaImage, cell: Area) -> CellLook {
        let mut channels: [Vec<f64>; 3] = Default::default();
        for k in 0..Band::MARGIN.points {
            let t = Band::MARGIN.at(k);
            for (fx, fy) in [(t, 0.5), (1.0 - t, 0.5), (0.5, t), (0.5, 1.0 - t)] {
                let (x, y) = point(cell, fx, fy);
                let c = colour_at(image, x, y);
                (0..3).for_each(|j| channels[j].push(c[j]));
            }
        }
        let background = channels.map(|mut values| {
            values.sort_by(f64::total_cmp);
            values.get(values.len() / 2).copied().unwrap_or(0.0)
        });
        let mut ink = 0usize;
        for i in 0..Band::MIDDLE.points {
            for j in 0..Band::MIDDLE.points {
                let (fx, fy) = (Band::MIDDLE.at(i), Band::MIDDLE.at(j));
                let (x, y) = point(cell, fx, fy);
                let c = colour_at(image, x, y);
                let far: f64 = (0..3).map(|k| (c[k] - background[k]).abs()).sum();
                ink += usize::from(far > bar::INK_FAR);
            }
        }
        CellLook { background, ink: ink as f64 / (Band::MIDDLE.points.pow(2)) as f64 }
    }

    /// How cell `index` of `board` looks; black (no cell) for an index off the board.
    pub fn at(image: &RgbaImage, board: &Board, index: usize) -> CellLook {
        match board.cell_rect(index) {
            Some(cell) => CellLook::of(image, cell),
            None => CellLook { background: [0.0; 3], ink: 0.0 },
        }
    }

    /// Whether the cell shows a digit (a bare cell after its digit was typed).
    pub fn shows_ink(&self) -> bool {
        self.ink > bar::INK_SHOWN
    }
}

/// Whether a colour is a shade of grey (no hue).
pub fn neutral(c: Rgb) -> bool {
    let max = c.iter().copied().fold(0.0, f64::max);
    let min = c.iter().copied().fold(255.0, f64::min);
    max - min < bar::NEUTRAL_SPREAD
}

/// Whether two margin colours differ enough to tell a selection (or a shaded given).
pub fn differ(a: Rgb, b: Rgb) -> bool {
    (0..3).map(|k| (a[k] - b[k]).abs()).sum::<f64>() > bar::LOOK_CHANGE
}

/// The look of an unselected empty cell: the middle (by brightness) of the margins of
/// `cells`, so that one cell left selected before the run does not set it; white when there
/// are none.
pub fn plain(image: &RgbaImage, board: &Board, cells: &[usize]) -> Rgb {
    let mut looks: Vec<Rgb> =
        cells.iter().map(|&i| CellLook::at(image, board, i).background).collect();
    looks.sort_by(|a, b| a.iter().sum::<f64>().total_cmp(&b.iter().sum::<f64>()));
    looks.get(looks.len() / 2).copied().unwrap_or([255.0; 3])
}

/// Whether a filled cell's margin says it is a player's entry in a game that shades its
/// givens (GNOME Sudoku): the plain background, or a coloured one (the selection, a mistake
/// shown in red).
pub fn entry_by_background(look: Rgb, plain: Rgb) -> bool {
    !differ(look, plain) || !neutral(look)
}

/// Why a cell does not show as the selected one.
#[derive(Clone, Debug, PartialEq)]
pub enum NotSelected {
    /// Its look is the one it had before the click, and the plain one.
    Unchanged {
        /// Its margin's colour.
        look: Rgb,
    },
    /// It looks unlike the cells seen selected before in this run.
    UnlikeBefore {
        /// Its margin's colour.
        look: Rgb,
        /// How the cells selected before looked.
        before: Rgb,
    },
    /// Other cells look the same: a highlighted row, column or box, not the selection.
    Highlight {
        /// Its margin's colour.
        look: Rgb,
        /// The cells that look like it.
        alike: Vec<Cell>,
    },
}

/// A colour as CSS writes it.
fn css(c: Rgb) -> String {
    format!("rgb({:.0}, {:.0}, {:.0})", c[0], c[1], c[2])
}

impl fmt::Display for NotSelected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotSelected::Unchanged { look } => {
                write!(f, "its look, {}, did not change", css(*look))
            }
            NotSelected::UnlikeBefore { look, before } => write!(
                f,
                "it looks {}, not as the cells selected before ({})",
                css(*look),
                css(*before)
            ),
            NotSelected::Highlight { look, alike } => {
                let names: Vec<String> = alike.iter().map(Cell::to_string).collect();
                write!(
                    f,
                    "it looks {}, as {} do(es): a highlight, not the selection",
                    css(*look),
                    names.join(" ")
                )
            }
        }
    }
}

/// How a cell looked around a click, to tell whether the click selected it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    /// The cell's margin just before the click.
    pub before: Rgb,
    /// An unselected empty cell's margin ([`plain`]).
    pub plain: Rgb,
    /// How the cells seen selected before in this run looked, when known (learnt from bare
    /// cells only: pencil marks and digits tint a margin).
    pub learnt: Option<Rgb>,
}

/// Whether `image` shows cell `index` as the selected one: its look changed with the click
/// (or is not the plain one, for a cell left selected before); it looks as the cells selected
/// before did; and no other cell looks like it (a highlighted row, column or box has one tint
/// for many cells, the selection is one cell's). Gives the cell's margin colour, or why not.
pub fn selected(
    image: &RgbaImage,
    board: &Board,
    index: usize,
    around: &Selection,
) -> Result<Rgb, NotSelected> {
    let look = CellLook::at(image, board, index).background;
    if !differ(look, around.before) && !differ(look, around.plain) {
        return Err(NotSelected::Unchanged { look });
    }
    if let Some(before) = around.learnt.filter(|&l| differ(look, l)) {
        return Err(NotSelected::UnlikeBefore { look, before });
    }
    let side = board.side;
    let alike: Vec<Cell> = (0..side * side)
        .filter(|&i| i != index && !differ(CellLook::at(image, board, i).background, look))
        .map(|i| Cell::from_index(i, side))
        .collect();
    if !alike.is_empty() {
        return Err(NotSelected::Highlight { look, alike });
    }
    Ok(look)
}

/// The grey levels of a cell's middle, to see its digit change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Glyph(Vec<u8>);

impl Glyph {
    /// Samples the middle of cell `index` of `board` on a lattice (clamped into the image).
    pub fn sample(image: &RgbaImage, board: &Board, index: usize) -> Glyph {
        let Some(cell) = board.cell_rect(index) else { return Glyph::default() };
        if image.width == 0 || image.height == 0 {
            return Glyph::default();
        }
        let mut out = Vec::with_capacity(Band::GLYPH.points.pow(2));
        for i in 0..Band::GLYPH.points {
            for j in 0..Band::GLYPH.points {
                let (fx, fy) = (Band::GLYPH.at(i), Band::GLYPH.at(j));
                let (x, y) = point(cell, fx, fy);
                let (x, y) =
                    ((x as usize).min(image.width - 1), (y as usize).min(image.height - 1));
                let c = colour_at(image, x as f64, y as f64);
                out.push(((c[0] + c[1] + c[2]) / 3.0) as u8);
            }
        }
        Glyph(out)
    }

    /// Whether `now` looks different from this sample (a digit replaced, marks gone).
    pub fn changed(&self, now: &Glyph) -> bool {
        let diff: u32 = self.0.iter().zip(&now.0).map(|(a, b)| u32::from(a.abs_diff(*b))).sum();
        diff > bar::GLYPH_CHANGE * self.0.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9x9 board of 20 px cells (lines 2 px) on a white 184 px image, with cell fills.
    fn board() -> Board {
        crate::pixels::test_board(9, (3, 3), (0, 0), 18, 2)
    }

    fn image(fill: impl Fn(usize, usize) -> [u8; 3]) -> RgbaImage {
        let (w, h) = (184, 184);
        let mut data = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                let [r, g, b] = fill(x, y);
                data.extend([r, g, b, 255]);
            }
        }
        RgbaImage { width: w, height: h, data }
    }

    /// Paints cell `index`'s rectangle (a margin colour) and a dark block in its middle when
    /// `digit`.
    fn paint(image: &mut RgbaImage, index: usize, colour: [u8; 3], digit: bool) {
        let cell = board().cell_rect(index).unwrap();
        for y in cell.top..cell.top + cell.height {
            for x in cell.left..cell.left + cell.width {
                let middle = (x - cell.left) * 10 / cell.width;
                let down = (y - cell.top) * 10 / cell.height;
                let ink = digit && (4..=5).contains(&middle) && (3..=6).contains(&down);
                let c = if ink { [0, 0, 0] } else { colour };
                let i = (y * image.width + x) * 4;
                image.data[i..i + 3].copy_from_slice(&c);
            }
        }
    }

    const WHITE: [u8; 3] = [255, 255, 255];
    const BLUE: [u8; 3] = [180, 200, 250];

    #[test]
    fn a_cell_look_is_its_margin_colour_and_its_share_of_ink() {
        let mut img = image(|_, _| WHITE);
        paint(&mut img, 10, BLUE, true);
        let look = CellLook::at(&img, &board(), 10);
        assert_eq!(look.background, [180.0, 200.0, 250.0]);
        assert!(look.shows_ink(), "{look:?}");
        let bare = CellLook::at(&img, &board(), 11);
        assert_eq!(bare, CellLook { background: [255.0; 3], ink: 0.0 });
        assert!(!bare.shows_ink());
        // Off the board: no cell.
        assert_eq!(CellLook::at(&img, &board(), 81).background, [0.0; 3]);
    }

    #[test]
    fn greys_are_neutral_and_small_differences_are_no_change() {
        assert!(neutral([200.0, 205.0, 210.0]));
        assert!(!neutral([180.0, 200.0, 250.0]));
        assert!(!differ([200.0; 3], [206.0; 3]));
        assert!(differ([200.0; 3], [207.0; 3]));
        // A shaded given's grey against the plain white is a given; white or a hue is an entry.
        assert!(!entry_by_background([220.0; 3], [255.0; 3]));
        assert!(entry_by_background([255.0; 3], [255.0; 3]));
        assert!(entry_by_background([250.0, 200.0, 200.0], [255.0; 3]));
    }

    #[test]
    fn a_selection_is_one_cell_changed_by_the_click_and_a_highlight_is_not() {
        let white = [255.0; 3];
        let around = Selection { before: white, plain: white, learnt: None };
        let mut img = image(|_, _| WHITE);
        // Nothing changed.
        assert_eq!(
            selected(&img, &board(), 40, &around),
            Err(NotSelected::Unchanged { look: white })
        );
        // Only r5c5 tinted: selected.
        paint(&mut img, 40, BLUE, false);
        assert_eq!(selected(&img, &board(), 40, &around), Ok([180.0, 200.0, 250.0]));
        // But unlike the selections seen before.
        let learnt = Selection { learnt: Some([250.0, 250.0, 150.0]), ..around };
        let err = selected(&img, &board(), 40, &learnt).unwrap_err();
        assert!(matches!(err, NotSelected::UnlikeBefore { .. }), "{err}");
        // Its whole row tinted alike: a highlight, naming the others.
        for i in 36..45 {
            paint(&mut img, i, BLUE, false);
        }
        let err = selected(&img, &board(), 40, &around).unwrap_err();
        let NotSelected::Highlight { alike, .. } = &err else { panic!("{err}") };
        assert_eq!(alike.len(), 8);
        assert_eq!(alike[0], Cell { row: 4, col: 0 });
        assert!(err.to_string().starts_with("it looks rgb(180, 200, 250), as r5c1 r5c2"), "{err}");
    }

    #[test]
    fn the_median_empty_look_is_plain_though_one_cell_is_selected() {
        let mut img = image(|_, _| WHITE);
        paint(&mut img, 0, BLUE, false);
        assert_eq!(plain(&img, &board(), &[0, 1, 2]), [255.0; 3]);
        assert_eq!(plain(&img, &board(), &[]), [255.0; 3]);
    }

    #[test]
    fn a_glyph_changes_when_its_digit_does_and_not_with_noise() {
        let mut img = image(|_, _| WHITE);
        paint(&mut img, 5, WHITE, true);
        let before = Glyph::sample(&img, &board(), 5);
        assert_eq!(before.0.len(), 256);
        // A few pixels of noise elsewhere in the cell: the same glyph.
        let cell = board().cell_rect(5).unwrap();
        let i = ((cell.top + 5) * img.width + cell.left + 6) * 4;
        img.data[i..i + 3].copy_from_slice(&[0, 0, 0]);
        assert!(!before.changed(&Glyph::sample(&img, &board(), 5)));
        // The digit gone: changed.
        paint(&mut img, 5, WHITE, false);
        assert!(before.changed(&Glyph::sample(&img, &board(), 5)));
    }
}
