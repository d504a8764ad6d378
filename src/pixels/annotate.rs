//! What the reader saw, drawn over the picture (`solve --image FILE --annotate OUT.png`, and
//! the bots' evidence when a read is refused): the board found outlined in blue, and in each
//! cell's top-left corner the digit read on a white tag, blue for a given, green for an entry,
//! red (with the cell outlined in red) for an uncertain cell. Empty and pencil-marked cells
//! get no tag. With no board found, the whole picture is framed in red. The digits come from a
//! built-in 3x5 bitmap font: no font files.

use std::io;
use std::path::Path;

use super::board::Area;
use super::{BoardRead, CellKind, PixelError, RgbaImage};

/// The board's outline.
const BOARD: [u8; 3] = [20, 90, 230];
/// A certain given's digit.
const GIVEN: [u8; 3] = [20, 60, 200];
/// A certain entry's digit.
const ENTRY: [u8; 3] = [0, 140, 40];
/// An uncertain cell: its digit and its outline; the frame of a picture with no board.
const UNCERTAIN: [u8; 3] = [230, 0, 0];
/// The tag under a digit.
const TAG: [u8; 3] = [255, 255, 255];

/// The font's glyphs, 3 pixels wide and 5 high: one row a `u8`, the high bit of three the
/// left pixel. `0`-`9`, then `?` (a cell whose value was not guessed).
const FONT: [[u8; 5]; 11] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b011, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b010, 0b010, 0b010],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
    [0b111, 0b001, 0b011, 0b000, 0b010],
];

/// The glyph index of `?`.
const QUESTION: usize = 10;

/// A digit takes about this share of a cell's height.
const DIGIT_SHARE: usize = 4;

/// `image` with what `read` saw drawn over it (see the module's text); `None`: no board was
/// found, and the picture is framed in red.
pub fn annotate(image: &RgbaImage, read: Option<&BoardRead>) -> RgbaImage {
    let mut out = image.clone();
    let Some(read) = read else {
        let thick = (image.width.min(image.height) / 100).max(2);
        let whole = Area { left: 0, top: 0, width: image.width, height: image.height };
        outline(&mut out, whole, thick, UNCERTAIN);
        return out;
    };
    let board = &read.board;
    let thick = (board.width / 150).max(2);
    let around = Area {
        left: board.left.saturating_sub(thick),
        top: board.top.saturating_sub(thick),
        width: board.width + 2 * thick,
        height: board.height + 2 * thick,
    };
    outline(&mut out, around, thick, BOARD);
    for (index, cell) in read.cells.iter().enumerate() {
        let Some(rect) = board.cell_rect(index) else { continue };
        let certain = cell.is_certain();
        let (glyph, colour) = match (cell.kind, cell.value) {
            _ if !certain => (cell.value.map_or(QUESTION, usize::from), UNCERTAIN),
            (CellKind::Given, Some(v)) => (usize::from(v), GIVEN),
            (CellKind::Entry, Some(v)) => (usize::from(v), ENTRY),
            _ => continue,
        };
        if !certain {
            outline(&mut out, rect, (rect.width / 20).max(1), UNCERTAIN);
        }
        tag(&mut out, rect, glyph, colour);
    }
    out
}

/// Sets a pixel, ignoring points outside the image.
fn put(image: &mut RgbaImage, x: usize, y: usize, colour: [u8; 3]) {
    if x >= image.width || y >= image.height {
        return;
    }
    let i = (y * image.width + x) * 4;
    if let Some(px) = image.data.get_mut(i..i + 4) {
        px.copy_from_slice(&[colour[0], colour[1], colour[2], 255]);
    }
}

/// Fills a rectangle.
fn fill(image: &mut RgbaImage, area: Area, colour: [u8; 3]) {
    for y in area.top..area.top.saturating_add(area.height).min(image.height) {
        for x in area.left..area.left.saturating_add(area.width).min(image.width) {
            put(image, x, y, colour);
        }
    }
}

/// Draws a rectangle's outline `thick` pixels wide, inside it.
fn outline(image: &mut RgbaImage, area: Area, thick: usize, colour: [u8; 3]) {
    let t = thick.min(area.width).min(area.height);
    let Area { left, top, width, height } = area;
    fill(image, Area { left, top, width, height: t }, colour);
    fill(image, Area { left, top: top + height - t, width, height: t }, colour);
    fill(image, Area { left, top, width: t, height }, colour);
    fill(image, Area { left: left + width - t, top, width: t, height }, colour);
}

/// Draws glyph `glyph` in `colour` on a white tag in the top-left corner of `cell`.
fn tag(image: &mut RgbaImage, cell: Area, glyph: usize, colour: [u8; 3]) {
    let Some(rows) = FONT.get(glyph) else { return };
    let scale = (cell.height / (5 * DIGIT_SHARE)).max(1);
    let (left, top) = (cell.left + 1, cell.top + 1);
    let back = Area { left, top, width: 5 * scale, height: 7 * scale };
    fill(image, back, TAG);
    for (row, bits) in rows.iter().enumerate() {
        for col in 0..3 {
            if bits & (0b100 >> col) != 0 {
                let x = left + (1 + col) * scale;
                let y = top + (1 + row) * scale;
                fill(image, Area { left: x, top: y, width: scale, height: scale }, colour);
            }
        }
    }
}

/// `image` as a PNG file's bytes.
pub fn encode_png(image: &RgbaImage) -> Result<Vec<u8>, PixelError> {
    let encoding = |e: png::EncodingError| PixelError::Decode(format!("cannot write a PNG: {e}"));
    let mut bytes = Vec::new();
    let (w, h) = (u32::try_from(image.width), u32::try_from(image.height));
    let (Ok(w), Ok(h)) = (w, h) else {
        return Err(PixelError::TooLarge { width: image.width, height: image.height });
    };
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(encoding)?;
    writer.write_image_data(&image.data).map_err(encoding)?;
    writer.finish().map_err(encoding)?;
    Ok(bytes)
}

/// Writes [`annotate`]'s picture of `image` and `read` to `path` as a PNG.
pub fn save_annotated(path: &Path, image: &RgbaImage, read: Option<&BoardRead>) -> io::Result<()> {
    let bytes = encode_png(&annotate(image, read)).map_err(io::Error::other)?;
    std::fs::write(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pixels::CellRead;

    /// A 4x4 board of 20 px cells on a white 90 px image.
    fn read(cells: [CellRead; 16]) -> BoardRead {
        let board = crate::pixels::test_board(4, (2, 2), (5, 5), 19, 1);
        BoardRead { board, cells: cells.to_vec(), settled: Vec::new() }
    }

    fn white() -> RgbaImage {
        RgbaImage { width: 90, height: 90, data: vec![255; 90 * 90 * 4] }
    }

    fn at(image: &RgbaImage, x: usize, y: usize) -> [u8; 3] {
        let i = (y * image.width + x) * 4;
        [image.data[i], image.data[i + 1], image.data[i + 2]]
    }

    /// The pixels of one colour inside a rectangle.
    fn count(image: &RgbaImage, area: Area, colour: [u8; 3]) -> usize {
        (area.top..area.top + area.height)
            .flat_map(|y| (area.left..area.left + area.width).map(move |x| (x, y)))
            .filter(|&(x, y)| at(image, x, y) == colour)
            .count()
    }

    const EMPTY: CellRead = CellRead { kind: CellKind::Empty, value: None, confidence: 1.0 };

    #[test]
    fn each_cell_is_marked_by_what_was_read() {
        let mut cells = [EMPTY; 16];
        cells[0] = CellRead { kind: CellKind::Given, value: Some(1), confidence: 1.0 };
        cells[1] = CellRead { kind: CellKind::Entry, value: Some(7), confidence: 0.9 };
        cells[2] = CellRead { kind: CellKind::Given, value: Some(3), confidence: 0.5 };
        cells[3] = CellRead { kind: CellKind::Unclear, value: None, confidence: 0.0 };
        let read = read(cells);
        let out = annotate(&white(), Some(&read));
        let rect = |i| read.board.cell_rect(i).unwrap();
        // The board's outline, just outside its border.
        assert_eq!(at(&out, 3, 40), BOARD);
        // A given: its digit in blue; "1" is 8 pixels of the font.
        assert_eq!(count(&out, rect(0), GIVEN), 8);
        // An entry: "7" in green (7 pixels).
        assert_eq!(count(&out, rect(1), ENTRY), 7);
        // An uncertain cell: outlined in red, with its guess; one without a guess gets "?".
        let outline_px = 2 * rect(2).width + 2 * rect(2).height - 4;
        assert_eq!(count(&out, rect(2), UNCERTAIN), outline_px + 10);
        assert_eq!(count(&out, rect(3), UNCERTAIN), outline_px + 7);
        // An empty cell is left as it was.
        assert_eq!(count(&out, rect(4), [255; 3]), rect(4).width * rect(4).height);
        // The picture itself is not changed, and is the same size.
        assert_eq!((out.width, out.height), (90, 90));
    }

    #[test]
    fn a_picture_with_no_board_is_framed_in_red_and_round_trips_as_png() {
        let out = annotate(&white(), None);
        assert_eq!(at(&out, 0, 0), UNCERTAIN);
        assert_eq!(at(&out, 89, 45), UNCERTAIN);
        assert_eq!(at(&out, 45, 45), [255; 3]);
        let back = crate::pixels::decode(&encode_png(&out).unwrap()).unwrap();
        assert_eq!(back, out);
    }
}
