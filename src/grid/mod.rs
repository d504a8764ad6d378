//! The puzzle model: a [`Geometry`] (side, regions, diagonals) and a [`Grid`] of values on it.
//!
//! Cells are numbered in reading order, `index = row * side + col`, and hold `0` for empty or a
//! value `1..=side`. Everything that talks to people names cells as `r{row}c{col}`, 1-based.

mod geometry;
pub mod killer;
pub mod symbol;

use std::fmt;
use std::sync::Arc;

pub use geometry::{BoxShape, Geometry, House, HouseKind, NotABoxShape, Regions};
pub use killer::{Cage, CageConflict, CageRef, MAX_KILLER_SIDE};

/// The largest supported side (36x36 grids, boxes of 6x6).
pub const MAX_SIDE: usize = 36;

/// A cell position, 0-based inside; displayed 1-based as `r3c5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
}

impl Cell {
    /// The cell at a reading-order index on a grid of the given side.
    pub fn from_index(index: usize, side: usize) -> Cell {
        Cell { row: index / side, col: index % side }
    }

    /// Reading-order index on a grid of the given side.
    pub fn index(self, side: usize) -> usize {
        self.row * side + self.col
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// Errors building a geometry or a grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// The side is 0 or larger than [`MAX_SIDE`].
    #[error("grid side {side} is not supported (1 to {MAX_SIDE})")]
    BadSide {
        /// The side asked for.
        side: usize,
    },
    /// The box shape gives a side of 0 or above [`MAX_SIDE`].
    #[error("box shape {width}x{height} is not supported (side must be 1 to {MAX_SIDE})")]
    BadBox {
        /// Box width asked for.
        width: usize,
        /// Box height asked for.
        height: usize,
    },
    /// No rectangular box shape exists for this side.
    #[error("a {side}x{side} grid has no rectangular box shape; give its regions as a jigsaw")]
    NoBoxShape {
        /// The side.
        side: usize,
    },
    /// A jigsaw map of the wrong length.
    #[error("jigsaw map has {found} cells, expected {expected}")]
    JigsawCellCount {
        /// side * side.
        expected: usize,
        /// What was given.
        found: usize,
    },
    /// A jigsaw with the wrong number of regions.
    #[error("jigsaw has {found} regions, a {side}x{side} grid needs {side}")]
    JigsawRegionCount {
        /// The side.
        side: usize,
        /// Regions found.
        found: usize,
    },
    /// A jigsaw region of the wrong size.
    #[error(
        "the jigsaw region containing {first_cell} has {size} cells, every region needs {side}"
    )]
    JigsawRegionSize {
        /// The side.
        side: usize,
        /// The region's size.
        size: usize,
        /// Its first cell in reading order.
        first_cell: Cell,
    },
    /// A cell vector of the wrong length.
    #[error("a {side}x{side} grid has {expected} cells, got {found}")]
    CellCount {
        /// The side.
        side: usize,
        /// side * side.
        expected: usize,
        /// What was given.
        found: usize,
    },
    /// A value above the side.
    #[error("{cell} holds {value}, but a {side}x{side} grid only has values 1 to {side}")]
    ValueOutOfRange {
        /// Where.
        cell: Cell,
        /// The value.
        value: u8,
        /// The side.
        side: usize,
    },
    /// Killer cages on a grid too large for them.
    #[error(
        "Killer cages are supported on grids up to {MAX_KILLER_SIDE}x{MAX_KILLER_SIDE}, this one is {side}x{side}"
    )]
    KillerSide {
        /// The side.
        side: usize,
    },
    /// A cage with no cells.
    #[error("cage {number} (sum {sum}) has no cells")]
    EmptyCage {
        /// 1-based, in the order given.
        number: usize,
        /// Its sum.
        sum: u32,
    },
    /// A cage naming a cell outside the grid.
    #[error("cage {number} (sum {sum}) names {cell}, outside the {side}x{side} grid")]
    CageCellOutside {
        /// 1-based, in the order given.
        number: usize,
        /// Its sum.
        sum: u32,
        /// The cell.
        cell: Cell,
        /// The side.
        side: usize,
    },
    /// A cage listing a cell twice.
    #[error("{cage} lists {cell} twice")]
    CageCellRepeated {
        /// The cage.
        cage: CageRef,
        /// The cell.
        cell: Cell,
    },
    /// A cage with more cells than values.
    #[error("{cage} has {size} cells, but a {side}x{side} grid has only {side} different values")]
    CageTooBig {
        /// The cage.
        cage: CageRef,
        /// Its cells.
        size: usize,
        /// The side.
        side: usize,
    },
    /// A cage whose sum its cells cannot make.
    #[error(
        "{cage} cannot be made: {size} different values of 1 to {side} add up to {min} to {max}"
    )]
    CageSum {
        /// The cage.
        cage: CageRef,
        /// Its cells.
        size: usize,
        /// The side.
        side: usize,
        /// The smallest possible sum.
        min: u32,
        /// The largest.
        max: u32,
    },
    /// A cell in two cages.
    #[error(
        "{cell} is in cage {first} and in cage {second}; every cell belongs to exactly one cage"
    )]
    CellInTwoCages {
        /// The cell.
        cell: Cell,
        /// 1-based number of the earlier cage, in the order given.
        first: usize,
        /// The later one.
        second: usize,
    },
    /// A cell in no cage.
    #[error(
        "{cell} is in no cage ({missing} cell{} in none); every cell belongs to exactly one cage",
        if *missing == 1 { "" } else { "s" }
    )]
    CellInNoCage {
        /// The first such cell in reading order.
        cell: Cell,
        /// How many cells are in no cage.
        missing: usize,
    },
}

/// Two cells of one house holding the same value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated value.
    pub value: u8,
    /// The earlier cell in reading order.
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
    /// The house both lie in.
    pub house: HouseKind,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} and {} both hold {} in {}", self.first, self.second, self.value, self.house)
    }
}

/// A puzzle or a (partial) solution: values on a geometry. Cloning is cheap for the geometry
/// (shared) and copies the cell values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    geometry: Arc<Geometry>,
    cells: Vec<u8>,
}

impl Grid {
    /// An empty grid.
    pub fn empty(geometry: impl Into<Arc<Geometry>>) -> Grid {
        let geometry = geometry.into();
        let cells = vec![0; geometry.cell_count()];
        Grid { geometry, cells }
    }

    /// A grid from values in reading order (0 = empty). Checks length and range, not conflicts
    /// (see [`Grid::conflict`]).
    pub fn new(geometry: impl Into<Arc<Geometry>>, cells: Vec<u8>) -> Result<Grid, GridError> {
        let geometry = geometry.into();
        let side = geometry.side();
        if cells.len() != geometry.cell_count() {
            return Err(GridError::CellCount {
                side,
                expected: geometry.cell_count(),
                found: cells.len(),
            });
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > side) {
            return Err(GridError::ValueOutOfRange {
                cell: Cell::from_index(i, side),
                value: cells[i],
                side,
            });
        }
        Ok(Grid { geometry, cells })
    }

    /// The shape.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The shared shape, for building sibling grids cheaply.
    pub fn geometry_arc(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// Cells per row (N).
    pub fn side(&self) -> usize {
        self.geometry.side()
    }

    /// All values in reading order, 0 for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at an index, `None` when empty.
    pub fn get(&self, index: usize) -> Option<u8> {
        match self.cells[index] {
            0 => None,
            v => Some(v),
        }
    }

    /// The value at a cell, `None` when empty.
    pub fn at(&self, cell: Cell) -> Option<u8> {
        self.get(cell.index(self.side()))
    }

    /// Sets (or with `None` clears) a cell. Values above the side are rejected.
    pub fn set(&mut self, index: usize, value: Option<u8>) -> Result<(), GridError> {
        let side = self.side();
        let v = value.unwrap_or(0);
        if v as usize > side {
            return Err(GridError::ValueOutOfRange {
                cell: Cell::from_index(index, side),
                value: v,
                side,
            });
        }
        self.cells[index] = v;
        Ok(())
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell holds a value.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first repeated value in a house, scanning houses in order (rows, columns, regions,
    /// diagonals) and cells in reading order.
    pub fn conflict(&self) -> Option<Conflict> {
        let side = self.side();
        for house in self.geometry.houses() {
            let mut seen = 0u64;
            for (k, &i) in house.cells.iter().enumerate() {
                let v = self.cells[i];
                let bit = (1u64 << v) & !1;
                if seen & bit != 0 {
                    let first = house.cells[..k]
                        .iter()
                        .find(|&&j| self.cells[j] == v)
                        .copied()
                        .unwrap_or(i);
                    return Some(Conflict {
                        value: v,
                        first: Cell::from_index(first, side),
                        second: Cell::from_index(i, side),
                        house: house.kind,
                    });
                }
                seen |= bit;
            }
        }
        None
    }

    /// The first Killer cage (in the geometry's order) whose values repeat, add up to the wrong
    /// sum when full, or already leave too little for its empty cells; `None` without cages.
    pub fn cage_conflict(&self) -> Option<CageConflict> {
        let side = self.side();
        for (k, cage) in self.geometry.cages().iter().enumerate() {
            let name = CageRef {
                number: k + 1,
                sum: cage.sum,
                first: Cell::from_index(cage.cells[0], side),
            };
            let (mut seen, mut total, mut open) = (0u64, 0u32, 0usize);
            for (n, &i) in cage.cells.iter().enumerate() {
                let v = self.cells[i];
                if v == 0 {
                    open += 1;
                    continue;
                }
                if seen & (1 << v) != 0 {
                    let first = cage.cells[..n].iter().copied().find(|&j| self.cells[j] == v);
                    return Some(CageConflict::Repeat {
                        cage: name,
                        value: v,
                        first: Cell::from_index(first.unwrap_or(i), side),
                        second: Cell::from_index(i, side),
                    });
                }
                seen |= 1 << v;
                total += u32::from(v);
            }
            let wrong = if open == 0 { total != cage.sum } else { total + open as u32 > cage.sum };
            if wrong {
                return Some(CageConflict::Sum { cage: name, total, open });
            }
        }
        None
    }

    /// Whether this grid is full, conflict-free (houses and Killer cages), on the same
    /// geometry as `puzzle`, and keeps every value `puzzle` has.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.geometry == puzzle.geometry
            && self.is_full()
            && self.conflict().is_none()
            && self.cage_conflict().is_none()
            && puzzle.cells.iter().zip(&self.cells).all(|(&p, &s)| p == 0 || p == s)
    }

    /// Cells whose value differs from `other` (same geometry assumed), in reading order.
    pub fn differences(&self, other: &Grid) -> Vec<Cell> {
        let side = self.side();
        (0..self.cells.len())
            .filter(|&i| self.cells[i] != other.cells.get(i).copied().unwrap_or(0))
            .map(|i| Cell::from_index(i, side))
            .collect()
    }
}
