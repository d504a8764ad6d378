//! The pixel reader: a sudoku board read from an RGBA image (a screenshot, a canvas, a photo
//! of a screen is out of scope). Pure: pixels in, a [`BoardRead`] with a confidence for every
//! cell out. It finds the board by its grid lines ([`board`]), reads each cell (empty, pencil
//! marks, or a value drawn as a given or an entry), and names the digits with templates built
//! from fonts ([`digits`]). It refuses rather than guesses: [`BoardRead::grid`] fails, naming
//! the cells, when any cell is uncertain.

pub mod board;
pub(crate) mod cells;
pub mod digits;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use crate::grid::{Cell, Geometry, Grid};

pub use board::Board;

/// The largest image read, in pixels (width times height).
pub const MAX_PIXELS: usize = 40_000_000;

/// The smallest board side in pixels that can hold legible digits.
pub const MIN_SIDE_PX: usize = 40;

/// Errors reading a board from pixels.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PixelError {
    /// The image is too small to hold a board.
    #[error(
        "the image is {width}x{height} pixels: too small to hold a board ({MIN_SIDE_PX} pixels a side at least)"
    )]
    TooSmall {
        /// Width in pixels.
        width: usize,
        /// Height in pixels.
        height: usize,
    },
    /// The image is larger than [`MAX_PIXELS`].
    #[error("the image is {width}x{height} pixels, above the limit of {MAX_PIXELS} pixels")]
    TooLarge {
        /// Width in pixels.
        width: usize,
        /// Height in pixels.
        height: usize,
    },
    /// The pixel buffer does not match the size.
    #[error("the pixel buffer holds {found} bytes; a {width}x{height} RGBA image needs {expected}")]
    BadLength {
        /// Width in pixels.
        width: usize,
        /// Height in pixels.
        height: usize,
        /// Bytes needed.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// The bytes are not an image this reader decodes.
    #[error("cannot decode the image: {0}")]
    Decode(String),
    /// No grid of lines that makes a board was found.
    #[error("no sudoku board found in the image: {0}")]
    NoBoard(String),
    /// A board was found, but of a side the reader does not read.
    #[error("a {side}x{side} board was found; only 4x4, 6x6 and 9x9 boards are read")]
    UnsupportedSide {
        /// The side found.
        side: usize,
    },
    /// A 6x6 board drawn without thicker box lines: its boxes may be 3x2 or 2x3.
    #[error("a 6x6 board was found, but no thicker lines show whether its boxes are 3x2 or 2x3")]
    BoxesUnseen,
    /// The digit templates are missing from this build.
    #[error(
        "the digit templates are missing or damaged (rebuild them: cargo run --example pixel_templates)"
    )]
    NoTemplates,
    /// Some cells could not be read with certainty.
    #[error("the board was found, but {} uncertain: {}", count_cells(cells.len()), list_cells(cells))]
    Uncertain {
        /// The uncertain cells.
        cells: Vec<Cell>,
    },
}

fn count_cells(n: usize) -> String {
    if n == 1 { "1 cell is".into() } else { format!("{n} cells are") }
}

fn list_cells(cells: &[Cell]) -> String {
    let names: Vec<String> = cells.iter().take(20).map(Cell::to_string).collect();
    let more =
        if cells.len() > 20 { format!(" and {} more", cells.len() - 20) } else { String::new() };
    format!("{}{more}", names.join(" "))
}

/// A borrowed RGBA image: 4 bytes a pixel, rows top to bottom, no padding.
#[derive(Clone, Copy, Debug)]
pub struct Rgba<'a> {
    width: usize,
    height: usize,
    data: &'a [u8],
}

impl<'a> Rgba<'a> {
    /// Checks the sizes: the buffer must hold exactly `width * height * 4` bytes, the image
    /// must be at least [`MIN_SIDE_PX`] each way and at most [`MAX_PIXELS`].
    pub fn new(width: usize, height: usize, data: &'a [u8]) -> Result<Rgba<'a>, PixelError> {
        let pixels = width.checked_mul(height);
        if pixels.is_none_or(|p| p > MAX_PIXELS) {
            return Err(PixelError::TooLarge { width, height });
        }
        let expected = width * height * 4;
        if data.len() != expected {
            return Err(PixelError::BadLength { width, height, expected, found: data.len() });
        }
        if width < MIN_SIDE_PX || height < MIN_SIDE_PX {
            return Err(PixelError::TooSmall { width, height });
        }
        Ok(Rgba { width, height, data })
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The colour at a pixel (alpha dropped: transparent pixels are taken as drawn on white).
    fn rgb(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 4;
        let a = u16::from(self.data[i + 3]);
        let over_white = |c: u8| ((u16::from(c) * a + 255 * (255 - a)) / 255) as u8;
        [over_white(self.data[i]), over_white(self.data[i + 1]), over_white(self.data[i + 2])]
    }
}

/// An owned RGBA image, as decoded from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// 4 bytes a pixel, rows top to bottom.
    pub data: Vec<u8>,
}

impl RgbaImage {
    /// A view for [`read`].
    pub fn view(&self) -> Result<Rgba<'_>, PixelError> {
        Rgba::new(self.width, self.height, &self.data)
    }
}

/// Decodes a PNG or JPEG file's bytes, refusing images above [`MAX_PIXELS`] before
/// allocating them.
pub fn decode(bytes: &[u8]) -> Result<RgbaImage, PixelError> {
    use image::ImageDecoder;
    let cursor = std::io::Cursor::new(bytes);
    let reader = image::ImageReader::new(cursor)
        .with_guessed_format()
        .map_err(|e| PixelError::Decode(e.to_string()))?;
    if reader.format().is_none() {
        return Err(PixelError::Decode("not a PNG or JPEG file".into()));
    }
    let mut limits = image::Limits::default();
    limits.max_alloc = Some((MAX_PIXELS as u64) * 8);
    let mut decoder = reader.into_decoder().map_err(|e| PixelError::Decode(e.to_string()))?;
    let (w, h) = decoder.dimensions();
    let (width, height) = (w as usize, h as usize);
    if width.checked_mul(height).is_none_or(|p| p > MAX_PIXELS) {
        return Err(PixelError::TooLarge { width, height });
    }
    decoder.set_limits(limits).map_err(|e| PixelError::Decode(e.to_string()))?;
    let image = image::DynamicImage::from_decoder(decoder)
        .map_err(|e| PixelError::Decode(e.to_string()))?;
    let rgba = image.into_rgba8();
    Ok(RgbaImage { width, height, data: rgba.into_raw() })
}

/// How a cell was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// Nothing drawn in it.
    Empty,
    /// Only small candidate digits: counts as empty.
    Pencil,
    /// A value drawn as a given (dark, uncoloured ink).
    Given,
    /// A value drawn as an entry (coloured ink).
    Entry,
    /// Something the reader could not place.
    Unclear,
}

/// One cell as read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellRead {
    /// What was seen.
    pub kind: CellKind,
    /// The value for [`CellKind::Given`] and [`CellKind::Entry`] (the best guess, possibly
    /// wrong, when the confidence is low).
    pub value: Option<u8>,
    /// From 0 to 1; a cell below [`CERTAIN`] is uncertain.
    pub confidence: f32,
}

impl CellRead {
    /// Whether the read of this cell can be trusted.
    pub fn is_certain(&self) -> bool {
        self.kind != CellKind::Unclear && self.confidence >= CERTAIN
    }
}

/// The confidence a cell needs to count as read.
pub const CERTAIN: f32 = 0.75;

/// A board as read from an image.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRead {
    /// Where the board is and its shape.
    pub board: Board,
    /// The cells in reading order.
    pub cells: Vec<CellRead>,
}

impl BoardRead {
    /// The cells that are not certain, in reading order.
    pub fn uncertain(&self) -> Vec<Cell> {
        let side = self.board.side;
        (0..self.cells.len())
            .filter(|&i| !self.cells[i].is_certain())
            .map(|i| Cell::from_index(i, side))
            .collect()
    }

    /// The puzzle: givens and entries as values, empty and pencil-marked cells blank. Fails,
    /// naming them, when any cell is uncertain.
    pub fn grid(&self) -> Result<Grid, PixelError> {
        let uncertain = self.uncertain();
        if !uncertain.is_empty() {
            return Err(PixelError::Uncertain { cells: uncertain });
        }
        self.best_guess_grid()
    }

    /// The puzzle with every uncertain cell left blank (for a board that may be solvable
    /// without them).
    pub fn grid_without_uncertain(&self) -> Result<Grid, PixelError> {
        let cells = self
            .cells
            .iter()
            .map(|c| if c.is_certain() { c.value.unwrap_or(0) } else { 0 })
            .collect();
        Grid::new(self.geometry()?, cells).map_err(|e| PixelError::NoBoard(e.to_string()))
    }

    /// The board's geometry.
    pub fn geometry(&self) -> Result<Arc<Geometry>, PixelError> {
        let b = &self.board;
        Geometry::boxed(b.box_width, b.box_height)
            .map(Arc::new)
            .map_err(|e| PixelError::NoBoard(e.to_string()))
    }

    /// The grid with every value the reader saw, certain or not (for display only).
    fn best_guess_grid(&self) -> Result<Grid, PixelError> {
        let cells = self.cells.iter().map(|c| c.value.unwrap_or(0)).collect();
        Grid::new(self.geometry()?, cells).map_err(|e| PixelError::NoBoard(e.to_string()))
    }
}

impl fmt::Display for BoardRead {
    /// The board as read: one row a line, `.` for empty, `,` for pencil marks, digits for
    /// values, `'` after an entry's digit, `?` after an uncertain cell (alone when no digit
    /// was guessed), a blank column between boxes and a blank line between box rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.board;
        for r in 0..b.side {
            if r > 0 && r % b.box_height == 0 {
                writeln!(f)?;
            }
            for c in 0..b.side {
                if c > 0 && c % b.box_width == 0 {
                    write!(f, " ")?;
                }
                let cell = self.cells[r * b.side + c];
                let symbol = match (cell.kind, cell.value) {
                    (CellKind::Empty, _) => '.',
                    (CellKind::Pencil, _) => ',',
                    (_, Some(v)) => char::from(b'0' + v),
                    (_, None) => '?',
                };
                let mark = if !cell.is_certain() {
                    '?'
                } else if cell.kind == CellKind::Entry {
                    '\''
                } else {
                    ' '
                };
                write!(f, "{symbol}{mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Reads the board in an image: finds it, then reads every cell. Fails when there is no
/// board; succeeds with uncertain cells marked otherwise (see [`BoardRead::grid`]).
pub fn read(image: Rgba<'_>) -> Result<BoardRead, PixelError> {
    if digits::template_count() == 0 {
        return Err(PixelError::NoTemplates);
    }
    let board = board::find(image)?;
    if !matches!(board.side, 4 | 6 | 9) {
        return Err(PixelError::UnsupportedSide { side: board.side });
    }
    if board.side == 6 && !board.boxes_seen {
        return Err(PixelError::BoxesUnseen);
    }
    let cells = cells::read_cells(image, &board);
    Ok(BoardRead { board, cells })
}

/// Reads an image's board and gives its puzzle, refusing any board with an uncertain cell.
pub fn read_grid(image: Rgba<'_>) -> Result<Grid, PixelError> {
    read(image)?.grid()
}
