//! The shape of a puzzle: its side, its regions (boxes or a jigsaw partition) and whether the
//! two diagonals are houses too. A [`Geometry`] is immutable once built and precomputes its
//! houses, so solvers and checkers walk plain index lists.

use std::fmt;

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
/// [`Geometry::for_side`], optionally adding the diagonals with [`Geometry::with_diagonals`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    side: usize,
    regions: Regions,
    diagonals: bool,
    /// Region index of every cell, regions numbered in reading order of their first cell.
    region_of: Vec<u8>,
    houses: Vec<House>,
}

impl Geometry {
    /// A grid of `width x height` boxes: side `width * height`.
    pub fn boxed(width: usize, height: usize) -> Result<Geometry, GridError> {
        let side = width * height;
        if width == 0 || height == 0 || side < 1 || side > MAX_SIDE {
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
        let height = (1..=side).filter(|h| side % h == 0 && h * h <= side).max().unwrap_or(1);
        if height == 1 {
            return Err(GridError::NoBoxShape { side });
        }
        Geometry::boxed(side / height, height)
    }

    /// A jigsaw grid: `region_of[i]` names the region of cell `i` (any labels; they are
    /// renumbered in reading order). There must be `side` regions of `side` cells each.
    pub fn jigsaw(side: usize, region_of: &[usize]) -> Result<Geometry, GridError> {
        if side == 0 || side > MAX_SIDE {
            return Err(GridError::BadSide { side });
        }
        if region_of.len() != side * side {
            return Err(GridError::JigsawCellCount { expected: side * side, found: region_of.len() });
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
        Geometry::build(self.side, self.regions, true, self.region_of)
    }

    fn build(side: usize, regions: Regions, diagonals: bool, region_of: Vec<u8>) -> Geometry {
        let mut houses = Vec::with_capacity(3 * side + 2);
        for r in 0..side {
            houses.push(House { kind: HouseKind::Row(r), cells: (0..side).map(|c| r * side + c).collect() });
        }
        for c in 0..side {
            houses.push(House { kind: HouseKind::Column(c), cells: (0..side).map(|r| r * side + c).collect() });
        }
        for b in 0..side {
            let cells = (0..side * side).filter(|&i| region_of[i] as usize == b).collect();
            houses.push(House { kind: HouseKind::Region(b), cells });
        }
        if diagonals {
            houses.push(House { kind: HouseKind::Diagonal, cells: (0..side).map(|i| i * side + i).collect() });
            houses.push(House {
                kind: HouseKind::AntiDiagonal,
                cells: (0..side).map(|i| i * side + (side - 1 - i)).collect(),
            });
        }
        Geometry { side, regions, diagonals, region_of, houses }
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

    /// Whether this is the classic 9x9 grid with 3x3 boxes and no extra houses.
    pub fn is_classic(&self) -> bool {
        !self.diagonals && self.regions == Regions::Boxes { width: 3, height: 3 }
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
