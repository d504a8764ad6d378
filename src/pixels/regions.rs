//! Jigsaw region borders drawn in pixels: the width of the line drawn along each inner edge
//! between two cells, measured across it at five places along its middle. A board whose
//! thick lines all lie on its box boundaries is a classic board; thick lines anywhere else
//! are region borders, and they are checked to make `side` regions of `side` cells by
//! [`crate::grid::killer::bordered_regions`], the rule the web's jigsaw marks are checked by.
//! Pure: the image and the board found in it in, what the borders make out.

use crate::grid::killer::{RegionError, bordered_regions};

use super::Rgba;
use super::board::Board;
use super::killer::distance;

/// A pixel this far (largest channel difference) from the cells' background is line.
const INK: u8 = 48;

/// Where along an edge its width is measured, as shares of its length (clear of the corners,
/// where lines cross).
const ALONG: [f32; 5] = [0.3, 0.4, 0.5, 0.6, 0.7];

/// Thick borders between cells that are not the board's box lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Borders {
    /// How many of them lie off the box boundaries.
    pub off_boxes: usize,
    /// The region of every cell (reading order), or why the borders make no regions.
    pub regions: Result<Vec<usize>, RegionError>,
}

/// The thick borders of the board in `image` that lie off its box boundaries: `None` where
/// there are none, or fewer than `side` that outline no regions (or the board is too small to
/// measure).
pub fn thick_borders(image: Rgba<'_>, board: &Board, bg: &[[u8; 3]]) -> Option<Borders> {
    let side = board.side;
    if side < 4 || board.rows.len() != side || board.cols.len() != side || bg.len() != side * side {
        return None;
    }
    // (a, b, width, on a box boundary), a left of or above b.
    let mut edges: Vec<(usize, usize, usize, bool)> = Vec::with_capacity(2 * side * side);
    for r in 0..side {
        for c in 0..side {
            let i = r * side + c;
            if c + 1 < side {
                let width = edge_width(image, board, i, i + 1, bg, true);
                edges.push((i, i + 1, width, (c + 1) % board.box_width == 0));
            }
            if r + 1 < side {
                let width = edge_width(image, board, i, i + side, bg, false);
                edges.push((i, i + side, width, (r + 1) % board.box_height == 0));
            }
        }
    }
    // The usual width: the median of the edges off the box lines (most of them thin, on a
    // jigsaw too); thick is clearly wider: twice it and two pixels more at least.
    let mut off: Vec<usize> = edges.iter().filter(|e| !e.3).map(|e| e.2).collect();
    off.sort_unstable();
    let usual = *off.get(off.len() / 2)?;
    let cut = (2 * usual).max(usual + 2);
    let is_thick = |w: usize| w >= cut;
    let off_boxes = edges.iter().filter(|e| !e.3 && is_thick(e.2)).count();
    if off_boxes == 0 {
        return None;
    }
    let pairs: Vec<(usize, usize, bool)> =
        edges.iter().map(|&(a, b, w, _)| (a, b, is_thick(w))).collect();
    let regions = bordered_regions(side, &pairs);
    // A few thick edges that outline no regions are no jigsaw: a selected cell's frame, a
    // note or a digit touching the line. Region borders that do not add up are many.
    if regions.is_err() && off_boxes < side {
        return None;
    }
    Some(Borders { off_boxes, regions })
}

/// The width of the line between cells `a` and `b` (side by side when `across`, else `a`
/// above `b`): at each place along it, the run of line pixels through the middle of the gap
/// between the cells, grown into both cells while the pixels stay far from their backgrounds;
/// the median of the five runs.
fn edge_width(
    image: Rgba<'_>,
    board: &Board,
    a: usize,
    b: usize,
    bg: &[[u8; 3]],
    across: bool,
) -> usize {
    let side = board.side;
    // The cells' spans across the edge and along it.
    let (span_a, span_b, along) = if across {
        (board.cols[a % side], board.cols[b % side], board.rows[a / side])
    } else {
        (board.rows[a / side], board.rows[b / side], board.cols[a % side])
    };
    let mid = (span_a.1 + span_b.0) / 2;
    // How far a run may grow: to the middle of either cell.
    let (lo, hi) = ((span_a.0 + span_a.1) / 2, (span_b.0 + span_b.1) / 2);
    let pixel = |across_at: usize, along_at: usize| {
        if across { image.rgb(across_at, along_at) } else { image.rgb(along_at, across_at) }
    };
    let ink = |at: usize, along_at: usize| {
        let c = pixel(at, along_at);
        distance(c, bg[a]) >= INK && distance(c, bg[b]) >= INK
    };
    let mut runs: Vec<usize> = ALONG
        .iter()
        .map(|f| {
            let along_at = along.0 + ((along.1 - along.0) as f32 * f) as usize;
            // A line pixel in the gap between the cells, its middle first.
            let gap = span_a.1 + 1..span_b.0;
            let Some(start) = std::iter::once(mid).chain(gap).find(|&x| ink(x, along_at)) else {
                return 0;
            };
            let mut from = start;
            while from > lo && ink(from - 1, along_at) {
                from -= 1;
            }
            let mut to = start;
            while to < hi && ink(to + 1, along_at) {
                to += 1;
            }
            to - from + 1
        })
        .collect();
    runs.sort_unstable();
    runs[ALONG.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::super::drawkit::{
        Canvas, JIGSAW_REGIONS, JIGSAW_STYLE, Puzzle, draw, font, puzzle, region_lines,
    };
    use super::*;

    /// [`thick_borders`] of the board drawn in `c`.
    fn borders_of(c: &Canvas, board: &Board) -> Option<Borders> {
        thick_borders(c.view(), board, &super::super::killer::backgrounds(c.view(), board))
    }

    /// A 9x9 board drawn as a jigsaw is: every line thin (1 px).
    fn plain() -> Canvas {
        let p: Puzzle = puzzle(9, 3, 3, 7, false, false);
        let mut c = Canvas::new(420, 420, [255, 255, 255]);
        draw(&mut c, 10, 10, &p, &JIGSAW_STYLE, &font(0));
        c
    }

    /// [`plain`] with the edges between cells of different `labels` drawn 5 px wide.
    fn drawn_regions(labels: &str) -> (Canvas, Board) {
        let mut c = plain();
        region_lines(&mut c, labels.as_bytes());
        let board = super::super::board::find(c.view()).expect("still found");
        (c, board)
    }

    /// [`plain`] with the `thick` edges (pairs of cells) drawn 5 px wide.
    fn drawn(thick: &[(usize, usize)]) -> (Canvas, Board) {
        let mut c = plain();
        let board = super::super::board::find(c.view()).expect("the drawn grid is found");
        for &(a, b) in thick {
            let (ra, ca) = (board.rows[a / 9], board.cols[a % 9]);
            let (rb, cb) = (board.rows[b / 9], board.cols[b % 9]);
            if b == a + 1 {
                let x = (ca.1 + cb.0) / 2;
                c.rect(x - 2, ra.0 - 1, 5, ra.1 - ra.0 + 3, [0, 0, 0]);
            } else {
                let y = (ra.1 + rb.0) / 2;
                c.rect(ca.0 - 1, y - 2, ca.1 - ca.0 + 3, 5, [0, 0, 0]);
            }
        }
        let board = super::super::board::find(c.view()).expect("still found");
        (c, board)
    }

    #[test]
    fn a_classic_board_and_a_selected_cells_frame_show_no_region_borders() {
        let (c, board) = drawn(&[]);
        assert_eq!(borders_of(&c, &board), None);
        let boxes = [(2, 3), (5, 6), (11, 12), (14, 15), (18, 27), (19, 28), (20, 29), (21, 30)];
        let (c, board) = drawn(&boxes);
        assert_eq!(borders_of(&c, &board), None, "box lines drawn thick in part");
        // A frame around r5c5 (a selected cell): four thick edges outlining no regions.
        let (c, board) = drawn(&[(39, 40), (40, 41), (31, 40), (40, 49)]);
        assert_eq!(borders_of(&c, &board), None);
    }

    #[test]
    fn jigsaw_borders_are_read_as_regions_and_refused_when_they_do_not_make_them_exactly() {
        let (c, board) = drawn_regions(JIGSAW_REGIONS);
        let b = borders_of(&c, &board).expect("region borders");
        let want = crate::grid::killer::joined_groups(
            81,
            (0..81).flat_map(|i| [(i, i + 1), (i, i + 9)]).filter(|&(a, b)| {
                b < 81
                    && (b != a + 1 || a % 9 < 8)
                    && JIGSAW_REGIONS.as_bytes()[a] == JIGSAW_REGIONS.as_bytes()[b]
            }),
        );
        assert_eq!(b.regions, Ok(want.clone()));
        // The read carries them, and its geometry is the jigsaw's.
        let read = super::super::read(c.view()).expect("read");
        assert_eq!(read.board.regions.as_ref(), Some(&want));
        let jigsaw = crate::grid::Geometry::jigsaw(9, &want).unwrap();
        assert_eq!(read.geometry().unwrap().region_map(), jigsaw.region_map());
        // r1c2 drawn in the second region: regions of 8 and 10 cells.
        let bad = format!("12{}", &JIGSAW_REGIONS[2..]);
        let (c, board) = drawn_regions(&bad);
        let b = borders_of(&c, &board).expect("region borders");
        let e = b.regions.unwrap_err().to_string();
        assert!(e.contains("the region at r1c1 has 8 cells, not 9"), "{e}");
        let e = super::super::read(c.view()).unwrap_err().to_string();
        assert!(e.contains("they do not make jigsaw regions: the region at r1c1"), "{e}");
    }
}
