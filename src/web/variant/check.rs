//! Establishing a board's variant from the marks its cells show, pure: jigsaw regions from the
//! thick borders between cells, X from shaded (or classed) diagonals, Killer cages from dashed
//! or dotted borders with their sums from the small text in each cage's first cell. Every
//! conclusion is checked exactly; marks that do not add up are refused with the reason, never
//! read as a classic board.

use crate::grid::{Cage, Cell, killer};

use super::{CellMarks, Found, VariantError};

/// An inner edge between two cells: `a` left of or above `b`.
#[derive(Clone, Copy, Debug)]
struct Edge {
    a: usize,
    b: usize,
    /// The wider solid border drawn on either side of the edge, in CSS pixels.
    width: f64,
    /// Whether either side draws a dashed or dotted border there.
    dashed: bool,
}

/// The sides of a cell's marks: top, right, bottom, left.
const TOP: usize = 0;
const RIGHT: usize = 1;
const BOTTOM: usize = 2;
const LEFT: usize = 3;

fn edges(side: usize, marks: &[CellMarks]) -> Vec<Edge> {
    let mut out = Vec::with_capacity(2 * side * side);
    for i in 0..side * side {
        let (r, c) = (i / side, i % side);
        let mut push = |b: usize, from: usize, to: usize| {
            let (x, y) = (&marks[i].sides[from], &marks[b].sides[to]);
            out.push(Edge { a: i, b, width: x.width.max(y.width), dashed: x.dashed || y.dashed });
        };
        if c + 1 < side {
            push(i + 1, RIGHT, LEFT);
        }
        if r + 1 < side {
            push(i + side, BOTTOM, TOP);
        }
    }
    out
}

/// Whether an edge lies on a box boundary of `width x height` boxes.
fn on_box_boundary(side: usize, e: &Edge, (width, height): (usize, usize)) -> bool {
    let (ra, ca, rb, cb) = (e.a / side, e.a % side, e.b / side, e.b % side);
    ra / height != rb / height || ca / width != cb / width
}

/// The jigsaw regions the thick borders draw: `None` where there are no thick borders or they
/// all lie on the box boundaries (a classic board), else the region of every cell once they
/// make `side` regions of `side` cells with no thick border inside one.
fn regions(
    side: usize,
    edges: &[Edge],
    boxes: Option<(usize, usize)>,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<usize>>, VariantError> {
    let thinnest = edges.iter().map(|e| e.width).fold(f64::INFINITY, f64::min);
    let cut = (thinnest * 1.5).max(thinnest + 0.9);
    let thick: Vec<&Edge> = edges.iter().filter(|e| e.width > cut).collect();
    if thick.is_empty() {
        return Ok(None);
    }
    if let Some(shape) = boxes
        && thick.iter().all(|e| on_box_boundary(side, e, shape))
    {
        notes.push(format!(
            "the {} thick borders between cells lie on the {}x{} box boundaries",
            thick.len(),
            shape.0,
            shape.1
        ));
        return Ok(None);
    }
    let pairs: Vec<(usize, usize, bool)> =
        edges.iter().map(|e| (e.a, e.b, e.width > cut)).collect();
    let label = killer::bordered_regions(side, &pairs)
        .map_err(|e| VariantError::Regions { thick: thick.len(), why: e.to_string() })?;
    notes.push(format!(
        "jigsaw: {} thick borders between cells make {side} connected regions of {side} cells",
        thick.len()
    ));
    Ok(Some(label))
}

/// The X mark: a background colour, a class or a line drawn across from corner to corner that
/// most diagonal cells have and few others. Exact (every diagonal cell and no other) is an X;
/// anything close to it is refused.
fn diagonals(
    side: usize,
    marks: &[CellMarks],
    notes: &mut Vec<String>,
) -> Result<bool, VariantError> {
    let on_diagonal = |i: usize| i / side == i % side || i / side + i % side == side - 1;
    let diagonal = (0..side * side).filter(|&i| on_diagonal(i)).count();
    let mut looks: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, m) in marks.iter().enumerate() {
        let colours = m.backgrounds.iter().map(|b| format!("background {b}"));
        let classes = m.classes.iter().map(|c| format!("class `{c}`"));
        let crossed = m.crossed.then(|| "a line drawn across from corner to corner".to_string());
        for what in colours.chain(classes).chain(crossed) {
            match looks.iter_mut().find(|(w, _)| *w == what) {
                Some((_, cells)) if cells.last() == Some(&i) => {}
                Some((_, cells)) => cells.push(i),
                None => looks.push((what, vec![i])),
            }
        }
    }
    for (what, cells) in looks {
        let on = cells.iter().filter(|&&i| on_diagonal(i)).count();
        let off = cells.len() - on;
        if on * 2 < diagonal || on * 10 < cells.len() * 7 {
            continue;
        }
        if on == diagonal && off == 0 {
            notes.push(format!(
                "X: the {diagonal} cells of both diagonals, and no other, have {what}"
            ));
            return Ok(true);
        }
        let stray = cells.iter().copied().find(|&i| !on_diagonal(i));
        let missing = (0..side * side).find(|&i| on_diagonal(i) && !cells.contains(&i));
        let why = match (missing, stray) {
            (Some(m), _) => format!("{} on a diagonal does not", Cell::from_index(m, side)),
            (None, Some(s)) => {
                format!("{} off the diagonals has it too", Cell::from_index(s, side))
            }
            (None, None) => "it is not on the diagonals".into(),
        };
        return Err(VariantError::Diagonals { what, on, diagonal, why });
    }
    Ok(false)
}

/// The Killer cages the dashed borders draw, each with the sum written in its first cell;
/// `None` where no border is dashed.
fn cages(
    side: usize,
    edges: &[Edge],
    marks: &[CellMarks],
    notes: &mut Vec<String>,
) -> Result<Option<Vec<Cage>>, VariantError> {
    let dashed = edges.iter().filter(|e| e.dashed).count();
    if dashed == 0 {
        if let Some(i) = marks.iter().position(|m| m.sum.is_some()) {
            notes.push(format!(
                "small numbers (first at {}) but no dashed or dotted borders: not read as cages",
                Cell::from_index(i, side)
            ));
        }
        return Ok(None);
    }
    let joined = edges.iter().filter(|e| !e.dashed).map(|e| (e.a, e.b));
    let sums: Vec<Option<u32>> = marks.iter().map(|m| m.sum).collect();
    let out = killer::outlined_cages(side, joined, &sums).map_err(|e| match e {
        killer::OutlineError::Sums { total, want, cages } => {
            VariantError::Sums { total, want, cages }
        }
        killer::OutlineError::Cage { first, why } => VariantError::Cage { first, why },
    })?;
    let want = (side * side * (side + 1) / 2) as u32;
    notes.push(format!(
        "Killer: {dashed} dashed or dotted borders make {} cages whose sums add up to {want}",
        out.len()
    ));
    Ok(Some(out))
}

/// What the marks of a board of `side` (in reading order) establish: jigsaw regions, X
/// diagonals, Killer cages, with what was seen in `notes`. `boxes`: the box shape the board has
/// without regions (`None` for sides with none). Refused when marks do not add up.
pub fn establish(
    side: usize,
    marks: &[CellMarks],
    boxes: Option<(usize, usize)>,
) -> Result<Found, VariantError> {
    if marks.len() != side * side {
        return Err(VariantError::Script(format!(
            "{} cells marked for {} cells",
            marks.len(),
            side * side
        )));
    }
    let mut notes = Vec::new();
    let edges = edges(side, marks);
    let regions = regions(side, &edges, boxes, &mut notes)?;
    let diagonals = diagonals(side, marks, &mut notes)?;
    let cages = cages(side, &edges, marks, &mut notes)?;
    Ok(Found { regions, diagonals, cages, notes })
}

/// `labels` relabelled in order of first appearance (two labellings of one partition agree).
fn first_seen(labels: &[usize]) -> Vec<usize> {
    let mut names: Vec<usize> = Vec::new();
    labels
        .iter()
        .map(|l| {
            names.iter().position(|n| n == l).unwrap_or_else(|| {
                names.push(*l);
                names.len() - 1
            })
        })
        .collect()
}

/// `found` (from the marks of a board of `side`) held against the jigsaw regions a page state
/// `path` gives (`state`, reading order): they must be `side` regions of `side` cells and the
/// regions the borders draw. Where no thick border is drawn at all, the state's regions are the
/// board's; where the borders draw the boxes (`boxes`), the state must hold the boxes too.
pub fn with_state(
    mut found: Found,
    side: usize,
    marks: &[CellMarks],
    boxes: Option<(usize, usize)>,
    path: &str,
    state: &[usize],
) -> Result<Found, VariantError> {
    let bad = |why: String| VariantError::State { path: path.to_string(), why };
    let n = side * side;
    if state.len() != n {
        return Err(bad(format!("holds {} cells, not {n}", state.len())));
    }
    let state = first_seen(state);
    for region in 0..state.iter().max().map_or(0, |m| m + 1) {
        let size = state.iter().filter(|&&l| l == region).count();
        if size != side {
            let first = state.iter().position(|&l| l == region).unwrap_or(0);
            return Err(bad(format!(
                "puts {size} cells, not {side}, in the region of {}",
                Cell::from_index(first, side)
            )));
        }
    }
    let box_labels: Option<Vec<usize>> =
        boxes.map(|(w, h)| (0..n).map(|i| (i / side) / h * (side / w) + (i % side) / w).collect());
    let drawn = match &found.regions {
        Some(regions) => Some(first_seen(regions)),
        // Thick borders on the box boundaries draw the boxes; none at all draw nothing.
        None if has_thick(side, marks) => box_labels.as_deref().map(first_seen),
        None => None,
    };
    match drawn {
        Some(drawn) => {
            // The first cell whose region is not the same set of cells in both.
            let apart = |i: usize| (0..n).any(|j| (drawn[j] == drawn[i]) != (state[j] == state[i]));
            if let Some(i) = (0..n).find(|&i| apart(i)) {
                return Err(bad(format!(
                    "puts {} in another region than the borders drawn on the page",
                    Cell::from_index(i, side)
                )));
            }
            found.notes.push(format!("the page state `{path}` holds the regions drawn"));
        }
        None if box_labels.as_deref().map(first_seen).as_deref() == Some(&state[..]) => {
            found.notes.push(format!("the page state `{path}` holds the boxes"));
        }
        None => {
            found.notes.push(format!(
                "jigsaw: {side} regions of {side} cells from the page state `{path}` (no thick \
                 borders drawn)"
            ));
            found.regions = Some(state);
        }
    }
    Ok(found)
}

/// Whether any border between cells is drawn thicker than the thinnest (as [`regions`] cuts).
fn has_thick(side: usize, marks: &[CellMarks]) -> bool {
    let edges = edges(side, marks);
    let thinnest = edges.iter().map(|e| e.width).fold(f64::INFINITY, f64::min);
    let cut = (thinnest * 1.5).max(thinnest + 0.9);
    edges.iter().any(|e| e.width > cut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::killer::sample::killer_cages;
    use crate::web::variant::SideMark;

    /// The regions of the jigsaw fixture (Solo 9j), one label a cell.
    const JIGSAW: &str =
        "112333333112223334112244444112254446172555666775555686779599886779999886779988886";

    fn boxes() -> Vec<usize> {
        (0..81).map(|i| (i / 27) * 3 + (i % 9) / 3).collect()
    }

    fn jigsaw() -> Vec<usize> {
        JIGSAW.bytes().map(|b| usize::from(b - b'0')).collect()
    }

    /// Marks drawing `regions` with 3px solid borders (1px inside one) and, with `cages`,
    /// dashed outlines round each cage and its sum in the first cell.
    fn marks(regions: &[usize], cages: Option<&[Cage]>) -> Vec<CellMarks> {
        let cage_of = |i: usize| cages.map(|c| c.iter().position(|k| k.cells.contains(&i)));
        (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                let next = [
                    (r > 0).then(|| i - 9),
                    (c < 8).then(|| i + 1),
                    (r < 8).then(|| i + 9),
                    (c > 0).then(|| i - 1),
                ];
                let sides = next.map(|n| match n {
                    None => SideMark { width: 3.0, dashed: cages.is_some() },
                    Some(n) => SideMark {
                        width: if regions[n] != regions[i] { 3.0 } else { 1.0 },
                        dashed: cage_of(n) != cage_of(i),
                    },
                });
                let sum =
                    cages.and_then(|cs| cs.iter().find(|k| k.first() == Some(i)).map(|k| k.sum));
                CellMarks { sides, sum, classes: vec!["cell".into()], ..Default::default() }
            })
            .collect()
    }

    #[test]
    fn plain_and_boxed_borders_are_a_classic_board() {
        let plain = marks(&[0; 81], None);
        let found = establish(9, &plain, Some((3, 3))).unwrap();
        assert_eq!(found.name(), "classic");
        let boxed = establish(9, &marks(&boxes(), None), Some((3, 3))).unwrap();
        assert_eq!(boxed.name(), "classic");
        assert!(boxed.notes[0].contains("box boundaries"), "{:?}", boxed.notes);
    }

    #[test]
    fn thick_borders_off_the_boxes_make_the_jigsaw_regions() {
        let found = establish(9, &marks(&jigsaw(), None), Some((3, 3))).unwrap();
        assert_eq!(found.name(), "jigsaw");
        let want = crate::grid::Geometry::jigsaw(9, &jigsaw()).unwrap();
        let got = found.geometry(crate::grid::Geometry::standard(9).unwrap()).unwrap();
        assert_eq!(got.region_map(), want.region_map());
    }

    #[test]
    fn regions_of_the_wrong_size_or_a_stray_thick_border_are_refused() {
        // r1c2 moved from region 1 to region 2: 8 and 10 cells.
        let mut wrong = jigsaw();
        wrong[1] = 2;
        let e = establish(9, &marks(&wrong, None), Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("the region at r1c1 has 8 cells, not 9"), "{e}");
        // A thick border inside region 1 (between r1c1 and r1c2) only.
        let mut stray = marks(&jigsaw(), None);
        stray[0].sides[RIGHT].width = 3.0;
        let e = establish(9, &stray, Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("between r1c1 and r1c2 lies inside one region"), "{e}");
    }

    #[test]
    fn shaded_diagonals_are_an_x_board_and_nearly_shaded_ones_are_refused() {
        let shade = |skip: Option<usize>| {
            let mut m = marks(&boxes(), None);
            for (i, cell) in m.iter_mut().enumerate() {
                let (r, c) = (i / 9, i % 9);
                if (r == c || r + c == 8) && Some(i) != skip {
                    cell.backgrounds.push("rgb(220, 230, 255)".into());
                }
                cell.backgrounds.push("rgb(255, 255, 255)".into());
            }
            m
        };
        let found = establish(9, &shade(None), Some((3, 3))).unwrap();
        assert!(found.diagonals && found.name() == "x", "{found:?}");
        let e = establish(9, &shade(Some(40)), Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("16 of the 17 diagonal cells"), "{e}");
        assert!(e.to_string().contains("r5c5 on a diagonal does not"), "{e}");
        // Alternate boxes shaded (boxes 1, 3, 5, 7, 9 hold both diagonals) are no X.
        let mut chequer = marks(&boxes(), None);
        for (i, cell) in chequer.iter_mut().enumerate() {
            if boxes()[i].is_multiple_of(2) {
                cell.backgrounds.push("rgb(240, 240, 240)".into());
            }
        }
        assert_eq!(establish(9, &chequer, Some((3, 3))).unwrap().name(), "classic");
    }

    #[test]
    fn diagonals_drawn_as_lines_are_an_x_board_and_one_line_alone_is_refused() {
        let cross = |both: bool| {
            let mut m = marks(&boxes(), None);
            for (i, cell) in m.iter_mut().enumerate() {
                let (r, c) = (i / 9, i % 9);
                cell.crossed = r == c || (both && r + c == 8);
            }
            m
        };
        let found = establish(9, &cross(true), Some((3, 3))).unwrap();
        assert!(found.diagonals, "{found:?}");
        assert!(found.notes.iter().any(|n| n.contains("a line drawn across")), "{found:?}");
        let e = establish(9, &cross(false), Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("9 of the 17 diagonal cells"), "{e}");
    }

    #[test]
    fn dashed_outlines_with_sums_are_the_killer_cages() {
        let want = killer_cages();
        let found = establish(9, &marks(&boxes(), Some(&want)), Some((3, 3))).unwrap();
        assert_eq!(found.name(), "killer");
        assert_eq!(found.cages.as_deref(), Some(&want[..]));
        assert!(found.notes.iter().any(|n| n.contains("add up to 405")), "{:?}", found.notes);
    }

    #[test]
    fn cages_that_do_not_add_up_are_refused() {
        let mut cs = killer_cages();
        cs[0].sum = 6;
        let e = establish(9, &marks(&boxes(), Some(&cs)), Some((3, 3))).unwrap_err();
        assert!(matches!(e, VariantError::Sums { total: 406, want: 405, .. }), "{e}");
        // A sum no two cells make.
        let mut cs = killer_cages();
        cs[1].sum = 2;
        let e = establish(9, &marks(&boxes(), Some(&cs)), Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("r1c3") && e.to_string().contains("not 2"), "{e}");
        // A missing outline: the first two cages merged, two sums in one cage.
        let mut m = marks(&boxes(), Some(&killer_cages()));
        m[1].sides[RIGHT].dashed = false;
        m[2].sides[LEFT].dashed = false;
        let e = establish(9, &m, Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("r1c3 holds a sum too"), "{e}");
        // No sum in a cage's first cell.
        let mut m = marks(&boxes(), Some(&killer_cages()));
        m[0].sum = None;
        let e = establish(9, &m, Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("r1c1 is not a cage: its first cell shows no sum"), "{e}");
    }

    #[test]
    fn a_cage_larger_than_the_side_is_refused() {
        // Rows 1 and 2 as one cage of 18 cells.
        let mut cs: Vec<Cage> = (2..9).map(|r| Cage::new(45, (0..9).map(|c| r * 9 + c))).collect();
        cs.push(Cage::new(90, 0..18));
        let e = establish(9, &marks(&boxes(), Some(&cs)), Some((3, 3))).unwrap_err();
        assert!(e.to_string().contains("it has 18 cells, more than 9"), "{e}");
    }

    #[test]
    fn page_state_regions_must_be_the_drawn_ones() {
        let drawn = marks(&jigsaw(), None);
        let found = establish(9, &drawn, Some((3, 3))).unwrap();
        // The same partition under other labels agrees.
        let state: Vec<usize> = jigsaw().iter().map(|l| 10 + l * 3).collect();
        let ok = with_state(found.clone(), 9, &drawn, Some((3, 3)), "Game.areas", &state).unwrap();
        assert_eq!(ok.regions, found.regions);
        assert!(ok.notes.iter().any(|n| n.contains("holds the regions drawn")), "{:?}", ok.notes);
        // r1c3 and r1c4 swapped between regions 2 and 3: sizes stay 9, the partition differs.
        let mut swapped = jigsaw();
        swapped.swap(2, 3);
        let e =
            with_state(found.clone(), 9, &drawn, Some((3, 3)), "Game.areas", &swapped).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the page state `Game.areas` puts r1c3 in another region than the borders drawn on \
             the page; nothing was typed"
        );
        let mut short = jigsaw();
        short[1] = 2;
        let e = with_state(found, 9, &drawn, Some((3, 3)), "Game.areas", &short).unwrap_err();
        assert!(e.to_string().contains("puts 8 cells, not 9, in the region of r1c1"), "{e}");
        // Boxes drawn, a jigsaw in the state: refused; the boxes in the state: classic.
        let boxed = marks(&boxes(), None);
        let classic = establish(9, &boxed, Some((3, 3))).unwrap();
        let e = with_state(classic.clone(), 9, &boxed, Some((3, 3)), "G", &jigsaw()).unwrap_err();
        assert!(e.to_string().contains("another region than the borders"), "{e}");
        let same = with_state(classic, 9, &boxed, Some((3, 3)), "G", &boxes()).unwrap();
        assert_eq!(same.name(), "classic");
        // No thick border drawn: the state's regions are the board's.
        let plain = marks(&[0; 81], None);
        let bare = establish(9, &plain, Some((3, 3))).unwrap();
        let got = with_state(bare, 9, &plain, Some((3, 3)), "G", &jigsaw()).unwrap();
        assert_eq!(got.name(), "jigsaw");
        assert_eq!(got.regions.as_deref(), Some(&first_seen(&jigsaw())[..]));
    }

    #[test]
    fn the_site_variant_must_be_what_the_page_shows() {
        let found = establish(9, &marks(&boxes(), None), Some((3, 3))).unwrap();
        let e = found.require(super::super::VariantSpec::Killer).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the site expects a killer board but the page shows classic; nothing was typed"
        );
    }
}
