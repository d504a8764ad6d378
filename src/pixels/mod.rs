//! The pixel reader: a sudoku board read from an RGBA image (a screenshot, a canvas, a photo
//! of a screen is out of scope). Pure: pixels in, a [`BoardRead`] with a confidence for every
//! cell out. It finds the board by its grid lines ([`board`]), reads each cell (empty, pencil
//! marks, or a value drawn as a given or an entry), and names the digits with templates built
//! from fonts ([`digits`]) and a small network trained on fonts ([`classifier`]). It refuses rather than guesses: [`BoardRead::grid`] fails, naming
//! the cells, when any cell is uncertain.

mod annotate;
pub mod board;
pub(crate) mod cells;
pub mod classifier;
mod diagonals;
mod differ;
pub mod digits;
pub mod killer;
mod puzzle;
mod rectify;
mod regions;
mod settle;
pub mod watch;

#[cfg(test)]
mod drawkit;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use crate::grid::symbol::Style;
use crate::grid::{Cell, Geometry, Grid};

pub use annotate::{annotate, encode_png, save_annotated};
pub use board::Board;
pub use diagonals::{DiagonalError, Marked};
pub use puzzle::{Puzzle, Rest, Rules, Uncertain};

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
    /// Two boards of the same size, apart: which one is meant cannot be told.
    #[error(
        "two boards of the same size were found, the first {first}, the second {second}: crop the image to the one meant"
    )]
    TwoBoards {
        /// The one higher up (or further left).
        first: board::Area,
        /// The other.
        second: board::Area,
    },
    /// A board was found, but of a side the reader does not read.
    #[error("a {side}x{side} board was found; only 4x4, 6x6, 9x9, 12x12 and 16x16 boards are read")]
    UnsupportedSide {
        /// The side found.
        side: usize,
    },
    /// A 6x6 board drawn without thicker box lines: its boxes may be 3x2 or 2x3.
    #[error("a 6x6 or 12x12 board was found, but no thicker lines show the shape of its boxes")]
    BoxesUnseen,
    /// Thick lines between cells off the box lines that do not make jigsaw regions.
    #[error(
        "the board is drawn with {off_boxes} thick lines between cells off its box lines, but they do not make jigsaw regions: {why}"
    )]
    Regions {
        /// The thick inner edges off the box boundaries.
        off_boxes: usize,
        /// Why they make no regions.
        why: crate::grid::killer::RegionError,
    },
    /// Marks along the board's diagonals that are not exactly both diagonals.
    #[error("{0}")]
    Diagonals(#[from] DiagonalError),
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
    /// Some cells could not be read with certainty, and the board needs them: without them it
    /// has no unique solution (see [`Puzzle`]).
    #[error(
        "the board was found, but {} uncertain: {}; without them the board has no unique solution ({rest})",
        count_cells(cells.len()),
        list_cells(cells)
    )]
    UncertainNeeded {
        /// The uncertain cells.
        cells: Vec<Cell>,
        /// What the board without them has.
        rest: Rest,
    },
    /// The board found makes no grid (a shape the puzzle model does not hold).
    #[error("the board found makes no grid: {0}")]
    Grid(#[from] crate::grid::GridError),
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
    pub(crate) fn rgb(&self, x: usize, y: usize) -> [u8; 3] {
        self.rgb_at(y * self.width + x)
    }

    /// The colour of the `p`-th pixel in reading order (as [`Rgba::rgb`]).
    pub(crate) fn rgb_at(&self, p: usize) -> [u8; 3] {
        let i = p * 4;
        let a = u16::from(self.data[i + 3]);
        if a == 255 {
            return [self.data[i], self.data[i + 1], self.data[i + 2]];
        }
        over_white(&self.data[i..i + 4])
    }

    /// Pixel row `y`'s bytes, 4 a pixel; `None` when `y` is outside the image.
    fn row(&self, y: usize) -> Option<&'a [u8]> {
        self.data.get(y * self.width * 4..(y + 1) * self.width * 4)
    }

    /// The colours of pixel row `y` into `out` (the first `width` of them), each as
    /// [`Rgba::rgb`] gives it, in a loop without branches that the compiler vectorises (an
    /// opaque pixel's formula gives its own colour back).
    pub(crate) fn rgb_row(&self, y: usize, out: &mut [[u8; 3]]) {
        let Some(row) = self.row(y) else { return };
        for (o, p) in out.iter_mut().zip(row.chunks_exact(4)) {
            *o = over_white(p);
        }
    }

    /// Pixel row `y` as 4 bytes a pixel, each colour as [`Rgba::rgb`] gives it and the fourth
    /// byte 255: the image's own row when all its pixels are opaque (no copy), else `scratch`
    /// filled. Empty when `y` is outside the image.
    pub(crate) fn opaque_row<'s>(&'s self, y: usize, scratch: &'s mut Vec<u8>) -> &'s [u8] {
        let Some(row) = self.row(y) else { return &[] };
        if all_opaque(row) {
            return row;
        }
        scratch.clear();
        scratch.extend(row.chunks_exact(4).flat_map(|p| {
            let [r, g, b] = over_white(p);
            [r, g, b, 255]
        }));
        scratch
    }
}

/// The colour of an RGBA pixel (its 4 bytes) drawn on white: its own colour when it is opaque.
#[inline(always)]
fn over_white(p: &[u8]) -> [u8; 3] {
    let a = u16::from(p[3]);
    let over = |c: u8| ((u16::from(c) * a + 255 * (255 - a)) / 255) as u8;
    [over(p[0]), over(p[1]), over(p[2])]
}

/// Whether every pixel of RGBA bytes is opaque: their alphas together, in a loop without
/// branches over whole pixels.
fn all_opaque(data: &[u8]) -> bool {
    let alpha = data
        .chunks_exact(4)
        .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
        .fold(u32::MAX, |m, v| m & v);
    alpha >> 24 == 255
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

/// Decodes a PNG or JPEG file's bytes into 8-bit RGBA, refusing images above [`MAX_PIXELS`]
/// before allocating them, and turned upright by their EXIF orientation (a phone photo taken
/// upside down is stored upside down with an orientation tag; read as stored, its 6s are 9s).
///
/// Memory is bounded by the pixels alone: the decoded samples go straight into the RGBA
/// buffer (4 bytes a pixel), 16-bit PNGs are cut to 8 bits row by row as they are decoded,
/// and only a rotation by a quarter turn needs a second buffer of the same size.
pub fn decode(bytes: &[u8]) -> Result<RgbaImage, PixelError> {
    let format = image::guess_format(bytes)
        .map_err(|_| PixelError::Decode("not a PNG or JPEG file".into()))?;
    let (image, orientation) = match format {
        image::ImageFormat::Png => decode_png(bytes)?,
        image::ImageFormat::Jpeg => decode_8bit(bytes, format)?,
        _ => return Err(PixelError::Decode("not a PNG or JPEG file".into())),
    };
    upright(image, orientation)
}

/// Errors of the decoders, as text.
fn decode_error(e: impl fmt::Display) -> PixelError {
    PixelError::Decode(e.to_string())
}

/// Refuses sizes above [`MAX_PIXELS`]; gives the pixel count.
fn pixel_count(width: u32, height: u32) -> Result<usize, PixelError> {
    let (w, h) = (width as usize, height as usize);
    match w.checked_mul(h) {
        Some(p) if p <= MAX_PIXELS => Ok(p),
        _ => Err(PixelError::TooLarge { width: w, height: h }),
    }
}

/// Widens `n` pixels of `channels` 8-bit samples (gray, gray and alpha, RGB or RGBA) at the
/// start of `buf` to RGBA in place, from the last pixel back so no sample is overwritten
/// before it is read.
fn widen_to_rgba(buf: &mut [u8], n: usize, channels: usize) {
    for i in (0..n).rev() {
        let s = i * channels;
        let px = match channels {
            1 => [buf[s], buf[s], buf[s], 255],
            2 => [buf[s], buf[s], buf[s], buf[s + 1]],
            3 => [buf[s], buf[s + 1], buf[s + 2], 255],
            _ => [buf[s], buf[s + 1], buf[s + 2], buf[s + 3]],
        };
        buf[i * 4..i * 4 + 4].copy_from_slice(&px);
    }
}

/// A PNG through the `png` crate, which cuts 16-bit samples to 8 bits and expands palettes
/// and low bit depths while decoding (the `image` crate would hold the 16-bit image whole).
fn decode_png(bytes: &[u8]) -> Result<(RgbaImage, image::metadata::Orientation), PixelError> {
    let limits = png::Limits { bytes: MAX_PIXELS * 4 + (1 << 20) };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(decode_error)?;
    let (w, h) = reader.info().size();
    let n = pixel_count(w, h)?;
    let orientation = reader
        .info()
        .exif_metadata
        .as_deref()
        .and_then(image::metadata::Orientation::from_exif_chunk)
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let channels = match reader.output_color_type() {
        (png::ColorType::Grayscale, png::BitDepth::Eight) => 1,
        (png::ColorType::GrayscaleAlpha, png::BitDepth::Eight) => 2,
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        (c, d) => return Err(PixelError::Decode(format!("unsupported PNG colour {c:?} {d:?}"))),
    };
    let need = reader
        .output_buffer_size()
        .filter(|&b| b <= n * 4)
        .ok_or_else(|| PixelError::Decode("the PNG's rows do not fit its size".into()))?;
    let mut data = vec![0u8; n * 4];
    reader.next_frame(&mut data[..need]).map_err(decode_error)?;
    widen_to_rgba(&mut data, n, channels);
    Ok((RgbaImage { width: w as usize, height: h as usize, data }, orientation))
}

/// An 8-bit image (JPEG) through the `image` crate, decoded into the RGBA buffer itself.
fn decode_8bit(
    bytes: &[u8],
    format: image::ImageFormat,
) -> Result<(RgbaImage, image::metadata::Orientation), PixelError> {
    use image::ImageDecoder;
    let reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    let mut decoder = reader.into_decoder().map_err(decode_error)?;
    let (w, h) = decoder.dimensions();
    let n = pixel_count(w, h)?;
    let mut limits = image::Limits::default();
    limits.max_alloc = Some((MAX_PIXELS as u64) * 4);
    decoder.set_limits(limits).map_err(decode_error)?;
    let orientation = decoder.orientation().map_err(decode_error)?;
    let channels = match decoder.color_type() {
        image::ColorType::L8 => 1,
        image::ColorType::La8 => 2,
        image::ColorType::Rgb8 => 3,
        image::ColorType::Rgba8 => 4,
        c => return Err(PixelError::Decode(format!("unsupported colour type {c:?}"))),
    };
    let mut data = vec![0u8; n * 4];
    decoder.read_image(&mut data[..n * channels]).map_err(decode_error)?;
    widen_to_rgba(&mut data, n, channels);
    Ok((RgbaImage { width: w as usize, height: h as usize, data }, orientation))
}

/// The image turned as its EXIF orientation says.
fn upright(
    image: RgbaImage,
    orientation: image::metadata::Orientation,
) -> Result<RgbaImage, PixelError> {
    if orientation == image::metadata::Orientation::NoTransforms {
        return Ok(image);
    }
    let (w, h) = (image.width as u32, image.height as u32);
    let buffer = image::RgbaImage::from_raw(w, h, image.data)
        .ok_or_else(|| PixelError::Decode("the decoded buffer does not match its size".into()))?;
    let mut dynamic = image::DynamicImage::ImageRgba8(buffer);
    dynamic.apply_orientation(orientation);
    let rgba = dynamic.into_rgba8();
    Ok(RgbaImage {
        width: rgba.width() as usize,
        height: rgba.height() as usize,
        data: rgba.into_raw(),
    })
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
    /// The givens among `cells` that the puzzle's rules settled between two or three digits.
    pub settled: Vec<Settled>,
}

/// A given whose glyph the readers narrowed to two or three digits, settled by the puzzle's
/// rules: each other digit leaves the board's certain givens no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The cell, in reading order.
    pub cell: usize,
    /// The digit read.
    pub digit: u8,
    /// The digits the rules ruled out.
    pub ruled_out: Vec<u8>,
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
        Ok(Grid::new(self.geometry()?, cells)?)
    }

    /// What the puzzle's rules settled, a line per cell (for `-v` and `--show-read`).
    pub fn settled_notes(&self) -> Vec<String> {
        let side = self.board.side;
        self.settled
            .iter()
            .map(|s| {
                let cell = Cell::from_index(s.cell, side);
                let d = s.digit;
                let either = |digits: &[u8]| -> String {
                    let words: Vec<String> = digits.iter().map(u8::to_string).collect();
                    match words.split_last() {
                        Some((last, rest)) if !rest.is_empty() => {
                            format!("{} or {last}", rest.join(", "))
                        }
                        _ => words.concat(),
                    }
                };
                let all: Vec<u8> = std::iter::once(d).chain(s.ruled_out.iter().copied()).collect();
                let (reads, others) = (either(&all), either(&s.ruled_out));
                let leaves = if s.ruled_out.len() > 1 { "leave" } else { "leaves" };
                format!(
                    "{cell}: the glyph reads {reads}; it is {d}, since {others} there {leaves} \
                     the certain givens no solution"
                )
            })
            .collect()
    }

    /// The board's geometry: its boxes, or its jigsaw regions; with the diagonals of an X.
    pub fn geometry(&self) -> Result<Arc<Geometry>, PixelError> {
        self.board.geometry()
    }

    /// The grid with every value the reader saw, certain or not (for display only).
    fn best_guess_grid(&self) -> Result<Grid, PixelError> {
        let cells = self.cells.iter().map(|c| c.value.unwrap_or(0)).collect();
        Ok(Grid::new(self.geometry()?, cells)?)
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
                    (_, Some(v)) => {
                        crate::grid::symbol::to_char(v, b.side, Style::Line).unwrap_or('?')
                    }
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
/// board; succeeds with uncertain cells marked otherwise (see [`BoardRead::grid`]). The
/// board's coordinates are the image's (for clicking).
///
/// The board is looked for by its lines against the image's background colours; failing
/// that, in the image binarized by an adaptive threshold (ink darker, then lighter, than its
/// surroundings), which finds faint lines on dark themes and lines through tinted cells.
pub fn read(image: Rgba<'_>) -> Result<BoardRead, PixelError> {
    if digits::template_count() == 0 {
        return Err(PixelError::NoTemplates);
    }
    let board = find_board(image)?;
    read_board(image, board)
}

/// The board by its lines, by its edges, or in the binarized image.
fn find_board(image: Rgba<'_>) -> Result<Board, PixelError> {
    let first = match board::find(image) {
        Ok(board) => return Ok(board),
        Err(e @ PixelError::TwoBoards { .. }) => return Err(e),
        Err(e) => e,
    };
    match board::find_by_edges(image) {
        Ok(board) => return Ok(board),
        Err(e @ PixelError::TwoBoards { .. }) => return Err(e),
        Err(_) => {}
    }
    for picture in rectify::binarized(image) {
        let Some(view) = picture.view() else { continue };
        match board::find(view) {
            Ok(board) => return Ok(board),
            Err(e @ PixelError::TwoBoards { .. }) => return Err(e),
            Err(_) => {}
        }
    }
    Err(first)
}

/// Reads the cells of a board found in `image`, with its jigsaw regions where thick lines off
/// its box lines outline them.
fn read_board(image: Rgba<'_>, mut board: Board) -> Result<BoardRead, PixelError> {
    if !matches!(board.side, 4 | 6 | 9 | 12 | 16) {
        return Err(PixelError::UnsupportedSide { side: board.side });
    }
    if matches!(board.side, 6 | 12) && !board.boxes_seen {
        return Err(PixelError::BoxesUnseen);
    }
    // Never a jigsaw read as boxes, nor an X as a classic board: region borders make its
    // regions and diagonal marks its diagonals, or the read fails.
    let bg = killer::backgrounds(image, &board);
    if let Some(borders) = regions::thick_borders(image, &board, &bg) {
        match borders.regions {
            Ok(regions) => board.regions = Some(regions),
            Err(why) => {
                return Err(PixelError::Regions { off_boxes: borders.off_boxes, why });
            }
        }
    }
    board.diagonals = diagonals::marks(image, &board, &bg)?;
    let (cells, settled) = if board.diagonals == Some(Marked::Lines) {
        let cleaned = diagonals::without_lines(image, &board, &bg)?;
        cells::read_cells(cleaned.view()?, &board)
    } else {
        cells::read_cells(image, &board)
    };
    Ok(BoardRead { board, cells, settled })
}

/// Reads the board in a picture that may be a photo: as [`read`], and when no board is found
/// that way, the largest four-cornered piece of ink is warped onto a square (undoing the
/// perspective and rotation of a camera) and the board is looked for there. The board's
/// coordinates are then those of the straightened picture, not of `image`: for reading only
/// (`solve --image`), never for clicking.
pub fn read_picture(image: Rgba<'_>) -> Result<BoardRead, PixelError> {
    read_picture_in(image).map(|picture| picture.read)
}

/// A board read by [`read_picture_in`], with the picture its coordinates refer to.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureRead {
    /// The board as read.
    pub read: BoardRead,
    /// The straightened picture the board was found in, when it was found only once the
    /// picture was warped onto a square (a photo); `None`: the board's coordinates are the
    /// image's own.
    pub straightened: Option<RgbaImage>,
}

impl PictureRead {
    /// [`annotate`]d: the picture the board was read in, with what was read.
    pub fn annotated<'a>(&'a self, image: &'a RgbaImage) -> RgbaImage {
        annotate(self.straightened.as_ref().unwrap_or(image), Some(&self.read))
    }
}

/// [`read_picture`], keeping the straightened picture when the board was found only in it.
pub fn read_picture_in(image: Rgba<'_>) -> Result<PictureRead, PixelError> {
    read_picture_after(image, read(image))
}

/// [`read_picture_in`] once the board was looked for in `image` as it is: `direct` is what
/// [`read`] (or a read like it, such as [`killer::read`]'s) gave, so the picture is not
/// searched twice.
pub fn read_picture_after(
    image: Rgba<'_>,
    direct: Result<BoardRead, PixelError>,
) -> Result<PictureRead, PixelError> {
    // A board found as it is, but with cells it could not tell, may be a photo's board found
    // without its perspective undone: the straightened picture is read too, and kept only
    // when it reads better.
    let (direct, first) = match direct {
        Ok(read) if read.uncertain().is_empty() => {
            return Ok(PictureRead { read, straightened: None });
        }
        Ok(read) => (Some(read), None),
        Err(e @ PixelError::NoBoard(_)) => (None, Some(e)),
        Err(e) => return Err(e),
    };
    let as_it_is = |direct: Option<BoardRead>, first: Option<PixelError>| match direct {
        Some(read) => Ok(PictureRead { read, straightened: None }),
        None => Err(first.unwrap_or_else(|| PixelError::NoBoard("no board found".into()))),
    };
    // Of the grids found in the straightened pictures (the quadrilateral by its corners, then
    // by its sides), the read with the fewest uncertain cells, if fewer than as it is.
    let mut best: Option<(BoardRead, rectify::Picture)> = None;
    // Failing all those, with no board found at all: the quadrilateral of strong ink only
    // (asked for only once those are tried).
    let found = std::cell::Cell::new(direct.is_some());
    let last_resort =
        std::iter::once_with(|| (!found.get()).then(|| rectify::warped_strong(image)));
    for (straight, side, margin) in rectify::warped(image).chain(last_resort.flatten().flatten()) {
        let Some(view) = straight.view() else { continue };
        let mut better: Option<BoardRead> = None;
        for board in rectify::grid_in_square(&straight, side, margin) {
            let Ok(mut read) = read_board(view, board) else { continue };
            found.set(true);
            doubt_clashes(&mut read);
            let fewest = better.as_ref().or(best.as_ref().map(|b| &b.0)).or(direct.as_ref());
            if fewest.is_none_or(|b| read.uncertain().len() < b.uncertain().len()) {
                better = Some(read);
            }
        }
        if let Some(read) = better {
            best = Some((read, straight));
        }
        if best.as_ref().is_some_and(|b| b.0.uncertain().is_empty()) {
            break;
        }
    }
    let Some((read, straight)) = best else { return as_it_is(direct, first) };
    let straightened =
        RgbaImage { width: straight.width, height: straight.height, data: straight.data };
    Ok(PictureRead { read, straightened: Some(straightened) })
}

/// Makes uncertain every certain value of a straightened photo's read that another certain
/// value repeats in its row, column or box: one of the two is misread (a blurred 3 taken for
/// a 1), and which cannot be told. (A screenshot's clashing entry is drawn so by the game and
/// read as it is; a photo's is printed or written by hand, and rarely wrong.)
fn doubt_clashes(read: &mut BoardRead) {
    let b = &read.board;
    let (n, bw, bh) = (b.side, b.box_width, b.box_height);
    if bw == 0 || bh == 0 || read.cells.len() != n * n {
        return;
    }
    let house_of = |i: usize| {
        let (r, c) = (i / n, i % n);
        [r, n + c, 2 * n + (r / bh) * (n / bw) + c / bw]
    };
    // For each house and value, how many certain cells hold it.
    let mut seen = vec![0u8; 3 * n * (n + 1)];
    let value_of = |c: &CellRead| c.value.filter(|_| c.is_certain()).map(usize::from);
    for (i, cell) in read.cells.iter().enumerate() {
        if let Some(v) = value_of(cell).filter(|&v| v <= n) {
            for h in house_of(i) {
                seen[h * (n + 1) + v] = seen[h * (n + 1) + v].saturating_add(1);
            }
        }
    }
    for (i, cell) in read.cells.iter_mut().enumerate() {
        let Some(v) = value_of(cell).filter(|&v| v <= n) else { continue };
        if house_of(i).iter().any(|&h| seen[h * (n + 1) + v] > 1) {
            cell.confidence = cell.confidence.min(CERTAIN / 2.0);
        }
    }
}

/// The glyph scores of each cell of `board` in `image`, in reading order (`None`: no glyph in
/// the cell): what tells two glyphs alike, for the `similarities` report of
/// `examples/pixel_reports.rs` (the evidence for `SAME_GLYPH` and `OTHER_GLYPH`).
#[doc(hidden)]
pub fn glyph_scores(image: Rgba<'_>, board: &Board) -> Vec<Option<digits::Scores>> {
    let mut out = Vec::with_capacity(board.side * board.side);
    for &(y0, y1) in &board.rows {
        for &(x0, x1) in &board.cols {
            out.push(cells::read_cell(image, (x0, y0, x1, y1), board.side).1);
        }
    }
    out
}

/// A board of `side` cells `cell` pixels wide between lines `line` pixels thick, boxes
/// `boxes` (width, height), its outer border's top-left corner at `at` (for tests).
#[cfg(test)]
pub(crate) fn test_board(
    side: usize,
    boxes: (usize, usize),
    at: (usize, usize),
    cell: usize,
    line: usize,
) -> Board {
    let span = |k: usize, from: usize| {
        let first = from + line + k * (cell + line);
        (first, first + cell - 1)
    };
    let size = side * (cell + line) + line;
    Board {
        left: at.0,
        top: at.1,
        width: size,
        height: size,
        side,
        box_width: boxes.0,
        box_height: boxes.1,
        boxes_seen: true,
        rows: (0..side).map(|k| span(k, at.1)).collect(),
        cols: (0..side).map(|k| span(k, at.0)).collect(),
        regions: None,
        diagonals: None,
    }
}

/// Reads an image's board and gives its puzzle, refusing any board with an uncertain cell.
pub fn read_grid(image: Rgba<'_>) -> Result<Grid, PixelError> {
    read(image)?.grid()
}
