//! The shape of a puzzle: its side, its regions (boxes or a jigsaw partition) and whether the
//! two diagonals are houses too. A [`Geometry`] is immutable once built and precomputes its
//! houses, so solvers and checkers walk plain index lists.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::killer::{self, Cage, CageSet};
use super::{Cell, GridError, MAX_SIDE};

/// How the cells are split into the N regions that, with rows and columns, must each hold every
/// value once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Regions {
    /// Rectangular boxes `width` cells wide and `height` cells tall (`width * height == side`).
    Boxes {
        /// Cells per box row.
        width: usize,
        /// Cells per box column.
        height: usize,
    },
    /// An arbitrary partition into `side` connected-or-not regions of `side` cells each.
    Jigsaw,
}

/// A box shape, `width` cells wide and `height` cells tall, as written `WxH` (`3x2`): what
/// `--box` and a site file's `board.boxes` say. Whether it tiles a side is
/// [`BoxShape::side`]'s business and [`Geometry::boxed`]'s check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoxShape {
    /// Cells per box row.
    pub width: usize,
    /// Rows per box.
    pub height: usize,
}

impl BoxShape {
    /// The side these boxes tile (`width * height`, saturated: never wrapped).
    pub fn side(self) -> usize {
        self.width.saturating_mul(self.height)
    }

    /// The geometry of boxes of this shape.
    pub fn geometry(self) -> Result<Geometry, GridError> {
        Geometry::boxed(self.width, self.height)
    }
}

/// Text that is not `WxH` with two whole numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a box shape: write WIDTHxHEIGHT, e.g. 3x2")]
pub struct NotABoxShape;

impl std::str::FromStr for BoxShape {
    type Err = NotABoxShape;

    /// `3x2` or `3X2` (spaces around the numbers allowed).
    fn from_str(text: &str) -> Result<BoxShape, NotABoxShape> {
        let (w, h) = text.split_once(['x', 'X']).ok_or(NotABoxShape)?;
        let width = w.trim().parse().map_err(|_| NotABoxShape)?;
        let height = h.trim().parse().map_err(|_| NotABoxShape)?;
        Ok(BoxShape { width, height })
    }
}

impl fmt::Display for BoxShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// What a house is, for messages: "row 3", "box 5", "diagonal".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    /// A row, 0-based.
    Row(usize),
    /// A column, 0-based.
    Column(usize),
    /// A box or jigsaw region, 0-based in reading order of its first cell.
    Region(usize),
    /// The main diagonal, top-left to bottom-right (X puzzles).
    Diagonal,
    /// The anti-diagonal, top-right to bottom-left (X puzzles).
    AntiDiagonal,
}

impl fmt::Display for HouseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HouseKind::Row(r) => write!(f, "row {}", r + 1),
            HouseKind::Column(c) => write!(f, "column {}", c + 1),
            HouseKind::Region(b) => write!(f, "region {}", b + 1),
            HouseKind::Diagonal => f.write_str("the main diagonal"),
            HouseKind::AntiDiagonal => f.write_str("the anti-diagonal"),
        }
    }
}

/// A set of `side` cells that must hold each value exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    /// Which house this is.
    pub kind: HouseKind,
    /// Cell indices (`row * side + col`), in reading order.
    pub cells: Vec<usize>,
}

/// The shape of a puzzle. Build it with [`Geometry::boxed`], [`Geometry::jigsaw`] or
/// [`Geometry::for_side`], optionally adding the diagonals with [`Geometry::with_diagonals`]
/// and Killer cages with [`Geometry::with_cages`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    side: usize,
    regions: Regions,
    diagonals: bool,
    /// Region index of every cell, regions numbered in reading order of their first cell.
    region_of: Vec<u8>,
    houses: Vec<House>,
    /// Killer cages, if any.
    cages: Option<Arc<CageSet>>,
}

impl Geometry {
    /// A grid of `width x height` boxes: side `width * height`.
    pub fn boxed(width: usize, height: usize) -> Result<Geometry, GridError> {
        // Both factors come from input (`--box`, `box:` lines): saturated, never wrapped.
        let side = width.saturating_mul(height);
        if width == 0 || height == 0 || !(1..=MAX_SIDE).contains(&side) {
            return Err(GridError::BadBox { width, height });
        }
        let region_of = (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                ((r / height) * (side / width) + c / width) as u8
            })
            .collect();
        Ok(Geometry::build(side, Regions::Boxes { width, height }, false, region_of))
    }

    /// The usual box shape for a side: boxes as square as possible, wider than tall
    /// (6 = 3x2, 12 = 4x3, 9 = 3x3). Fails for sides with no such shape (primes above 3 such
    /// as 5 or 7; use a jigsaw for those).
    pub fn for_side(side: usize) -> Result<Geometry, GridError> {
        if side == 0 || side > MAX_SIDE {
            return Err(GridError::BadSide { side });
        }
        if side == 1 {
            return Geometry::boxed(1, 1);
        }
        let height =
            (1..=side).filter(|&h| side.is_multiple_of(h) && h * h <= side).max().unwrap_or(1);
        if height == 1 {
            return Err(GridError::NoBoxShape { side });
        }
        Geometry::boxed(side / height, height)
    }

    /// [`Geometry::for_side`], built once per side and shared: parsing a file of puzzles then
    /// costs no geometry building per line.
    pub fn standard(side: usize) -> Result<Arc<Geometry>, GridError> {
        static STANDARD: [OnceLock<Result<Arc<Geometry>, GridError>>; MAX_SIDE + 1] =
            [const { OnceLock::new() }; MAX_SIDE + 1];
        match STANDARD.get(side) {
            Some(slot) => slot.get_or_init(|| Geometry::for_side(side).map(Arc::new)).clone(),
            None => Err(GridError::BadSide { side }),
        }
    }

    /// A jigsaw grid: `region_of[i]` names the region of cell `i` (any labels; they are
    /// renumbered in reading order). There must be `side` regions of `side` cells each.
    pub fn jigsaw(side: usize, region_of: &[usize]) -> Result<Geometry, GridError> {
        if side == 0 || side > MAX_SIDE {
            return Err(GridError::BadSide { side });
        }
        if region_of.len() != side * side {
            return Err(GridError::JigsawCellCount {
                expected: side * side,
                found: region_of.len(),
            });
        }
        // Renumber labels in reading order of first appearance.
        let mut relabel = std::collections::HashMap::new();
        let mut renumbered = Vec::with_capacity(region_of.len());
        for &label in region_of {
            let next = relabel.len();
            let id = *relabel.entry(label).or_insert(next);
            renumbered.push(id);
        }
        if relabel.len() != side {
            return Err(GridError::JigsawRegionCount { side, found: relabel.len() });
        }
        let mut sizes = vec![0usize; side];
        for &id in &renumbered {
            sizes[id] += 1;
        }
        if let Some((region, &size)) = sizes.iter().enumerate().find(|&(_, &s)| s != side) {
            let first = renumbered.iter().position(|&id| id == region).unwrap_or(0);
            return Err(GridError::JigsawRegionSize {
                side,
                size,
                first_cell: Cell::from_index(first, side),
            });
        }
        let region_of = renumbered.into_iter().map(|id| id as u8).collect();
        Ok(Geometry::build(side, Regions::Jigsaw, false, region_of))
    }

    /// The same geometry with both diagonals added as houses (an "X" puzzle).
    pub fn with_diagonals(self) -> Geometry {
        if self.diagonals {
            return self;
        }
        let cages = self.cages;
        Geometry { cages, ..Geometry::build(self.side, self.regions, true, self.region_of) }
    }

    /// The same geometry as a Killer puzzle with these cages (replacing any it had). Every cell
    /// must be in exactly one cage, no cage may have more cells than the side, and each sum
    /// must be one its cells can make; errors name the cage (numbered in the order given) and
    /// the cell. Cages are kept in reading order of their first cells, cells in reading order.
    pub fn with_cages(self, cages: Vec<Cage>) -> Result<Geometry, GridError> {
        let set = killer::validate(self.side, cages)?;
        Ok(Geometry { cages: Some(Arc::new(set)), ..self })
    }

    /// The same geometry without Killer cages.
    pub fn without_cages(self) -> Geometry {
        Geometry { cages: None, ..self }
    }

    /// Whether this is a Killer geometry (it has cages).
    pub fn is_killer(&self) -> bool {
        self.cages.is_some()
    }

    /// The Killer cages, in reading order of their first cells; empty without cages.
    pub fn cages(&self) -> &[Cage] {
        self.cages.as_ref().map_or(&[], |c| &c.cages)
    }

    /// The index (into [`Geometry::cages`]) of a cell's cage; `None` without cages.
    pub fn cage_of(&self, index: usize) -> Option<usize> {
        self.cages.as_ref().map(|c| c.cage_of[index] as usize)
    }

    fn build(side: usize, regions: Regions, diagonals: bool, region_of: Vec<u8>) -> Geometry {
        let mut houses = Vec::with_capacity(3 * side + 2);
        for r in 0..side {
            houses.push(House {
                kind: HouseKind::Row(r),
                cells: (0..side).map(|c| r * side + c).collect(),
            });
        }
        for c in 0..side {
            houses.push(House {
                kind: HouseKind::Column(c),
                cells: (0..side).map(|r| r * side + c).collect(),
            });
        }
        for b in 0..side {
            let cells = (0..side * side).filter(|&i| region_of[i] as usize == b).collect();
            houses.push(House { kind: HouseKind::Region(b), cells });
        }
        if diagonals {
            houses.push(House {
                kind: HouseKind::Diagonal,
                cells: (0..side).map(|i| i * side + i).collect(),
            });
            houses.push(House {
                kind: HouseKind::AntiDiagonal,
                cells: (0..side).map(|i| i * side + (side - 1 - i)).collect(),
            });
        }
        Geometry { side, regions, diagonals, region_of, houses, cages: None }
    }

    /// Cells per row, column and region (N).
    pub fn side(&self) -> usize {
        self.side
    }

    /// Number of cells (N * N).
    pub fn cell_count(&self) -> usize {
        self.side * self.side
    }

    /// Boxes or jigsaw.
    pub fn regions(&self) -> &Regions {
        &self.regions
    }

    /// `Some((width, height))` for boxed geometries.
    pub fn box_shape(&self) -> Option<(usize, usize)> {
        match self.regions {
            Regions::Boxes { width, height } => Some((width, height)),
            Regions::Jigsaw => None,
        }
    }

    /// Whether the diagonals are houses.
    pub fn has_diagonals(&self) -> bool {
        self.diagonals
    }

    /// Whether this is the classic 9x9 grid with 3x3 boxes, no extra houses and no cages.
    pub fn is_classic(&self) -> bool {
        !self.diagonals
            && self.cages.is_none()
            && self.regions == Regions::Boxes { width: 3, height: 3 }
    }

    /// Region index of a cell.
    pub fn region_of(&self, index: usize) -> usize {
        self.region_of[index] as usize
    }

    /// Region index of every cell, in reading order.
    pub fn region_map(&self) -> &[u8] {
        &self.region_of
    }

    /// Every house: rows, then columns, then regions, then the diagonals if any.
    pub fn houses(&self) -> &[House] {
        &self.houses
    }

    /// Whether a cell lies on one of the diagonals (only meaningful for X puzzles).
    pub fn on_diagonal(&self, index: usize) -> bool {
        let (r, c) = (index / self.side, index % self.side);
        r == c || r + c == self.side - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes_read_as_written_and_say_their_side() {
        let shape: BoxShape = " 3 X 2".parse().unwrap();
        assert_eq!(shape, BoxShape { width: 3, height: 2 });
        assert_eq!((shape.side(), shape.to_string()), (6, "3x2".to_string()));
        assert_eq!(shape.geometry().unwrap().box_shape(), Some((3, 2)));
        for bad in ["3", "3x", "x2", "3x2x1", "-3x2", "3.0x2"] {
            assert_eq!(bad.parse::<BoxShape>(), Err(NotABoxShape), "{bad}");
        }
        let huge = BoxShape { width: usize::MAX, height: 2 };
        assert_eq!(huge.side(), usize::MAX);
        assert!(huge.geometry().is_err());
    }

    #[test]
    fn usual_box_shapes() {
        let shape = |n| Geometry::for_side(n).map(|g| g.box_shape());
        assert_eq!(shape(9), Ok(Some((3, 3))));
        assert_eq!(shape(6), Ok(Some((3, 2))));
        assert_eq!(shape(12), Ok(Some((4, 3))));
        assert_eq!(shape(36), Ok(Some((6, 6))));
        assert_eq!(shape(7), Err(GridError::NoBoxShape { side: 7 }));
        assert_eq!(shape(37), Err(GridError::BadSide { side: 37 }));
    }

    /// Found by the `cages` fuzz target (issue 26): `box: 5x13244231341221433331` overflowed
    /// the side's product (a panic with overflow checks on, a wrapped side without).
    #[test]
    fn a_huge_box_shape_is_refused_not_overflowed() {
        let height = 13_244_231_341_221_433_331;
        assert_eq!(Geometry::boxed(5, height), Err(GridError::BadBox { width: 5, height }));
        assert_eq!(
            Geometry::boxed(usize::MAX, usize::MAX),
            Err(GridError::BadBox { width: usize::MAX, height: usize::MAX })
        );
        assert!(Geometry::boxed(6, 6).is_ok());
    }

    #[test]
    fn standard_geometries_are_shared() {
        let a = Geometry::standard(16).unwrap();
        let b = Geometry::standard(16).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(*a, Geometry::for_side(16).unwrap());
        assert!(Geometry::standard(99).is_err());
    }

    #[test]
    fn jigsaw_errors_name_the_problem() {
        assert_eq!(
            Geometry::jigsaw(4, &[0; 15]),
            Err(GridError::JigsawCellCount { expected: 16, found: 15 })
        );
        assert_eq!(
            Geometry::jigsaw(4, &[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3]),
            Err(GridError::JigsawRegionSize {
                side: 4,
                size: 5,
                first_cell: Cell { row: 2, col: 0 }
            })
        );
        let rows_as_regions: Vec<usize> = (0..16).map(|i| i / 4).collect();
        let g = Geometry::jigsaw(4, &rows_as_regions).unwrap();
        assert_eq!(g.region_of(5), 1);
        assert!(!g.is_classic());
    }

    #[test]
    fn houses_come_rows_columns_regions_diagonals() {
        let g = Geometry::boxed(3, 2).unwrap().with_diagonals();
        let kinds: Vec<HouseKind> = g.houses().iter().map(|h| h.kind).collect();
        assert_eq!(kinds.len(), 6 * 3 + 2);
        assert_eq!(kinds[0], HouseKind::Row(0));
        assert_eq!(kinds[6], HouseKind::Column(0));
        assert_eq!(kinds[12], HouseKind::Region(0));
        assert_eq!(kinds[18], HouseKind::Diagonal);
        // A 3-wide, 2-tall box: cells (0,0..3) and (1,0..3).
        assert_eq!(g.houses()[12].cells, vec![0, 1, 2, 6, 7, 8]);
        assert!(g.houses().iter().all(|h| h.cells.len() == 6));
    }
}
