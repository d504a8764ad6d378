//! Variant boards on web pages: Killer, jigsaw and X. After the board's cells are read, one
//! script ([`dom`]) takes the marks every cell shows (border widths and styles, backgrounds,
//! classes, the small text beside its value); [`check`] establishes the variant from them,
//! exactly, or refuses the board with the reason. A board with any variant mark is never played
//! as a classic one. A site file may name the variant it expects (`[board] variant`), and then a
//! board without it is refused too.

pub mod check;
pub mod dom;
pub mod marks;

use std::sync::Arc;

use crate::grid::{Cage, Cell, Geometry};

pub use crate::web::spec::VariantSpec;

/// A side of a cell as drawn: its widest solid border and whether any border there is dashed
/// or dotted (over the cell element and its ancestors that hold no other cell).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideMark {
    /// The widest solid (or double, ridge...) border, CSS pixels.
    pub width: f64,
    /// A dashed or dotted border with some width.
    pub dashed: bool,
}

/// What one cell shows besides its value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CellMarks {
    /// Top, right, bottom, left.
    pub sides: [SideMark; 4],
    /// Background colours that are not transparent, innermost first.
    pub backgrounds: Vec<String>,
    /// Class names.
    pub classes: Vec<String>,
    /// A number written beside the value (a Killer sum), if any.
    pub sum: Option<u32>,
    /// A line is drawn across the cell from corner to corner (an X diagonal).
    pub crossed: bool,
}

/// What a board's marks established.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Jigsaw regions: the region of every cell (reading order), or `None` for boxes.
    pub regions: Option<Vec<usize>>,
    /// Both diagonals are houses.
    pub diagonals: bool,
    /// Killer cages, or `None`.
    pub cages: Option<Vec<Cage>>,
    /// What was seen, for `-v`.
    pub notes: Vec<String>,
}

impl Found {
    /// The variant's name: `classic`, or the marks found joined (`killer`, `jigsaw x`).
    pub fn name(&self) -> String {
        let mut parts = Vec::new();
        if self.regions.is_some() {
            parts.push("jigsaw");
        }
        if self.diagonals {
            parts.push("x");
        }
        if self.cages.is_some() {
            parts.push("killer");
        }
        if parts.is_empty() { "classic".into() } else { parts.join(" ") }
    }

    /// Whether the board is `spec`: `auto` always, else exactly that variant's mark.
    pub fn matches(&self, spec: VariantSpec) -> bool {
        match spec {
            VariantSpec::Auto => true,
            VariantSpec::Classic => self.name() == "classic",
            VariantSpec::Killer => self.cages.is_some(),
            VariantSpec::Jigsaw => self.regions.is_some(),
            VariantSpec::X => self.diagonals,
        }
    }

    /// What was seen, for `-v`: the notes, or `none` when there are none.
    pub fn why(&self, none: &str) -> String {
        if self.notes.is_empty() { none.into() } else { self.notes.join("; ") }
    }

    /// This variant when it is `spec` (see [`Found::matches`]); else the board is refused as
    /// not the site's.
    pub fn require(self, spec: VariantSpec) -> Result<Found, VariantError> {
        if !self.matches(spec) {
            return Err(VariantError::NotTheSite { want: spec.name(), found: self.name() });
        }
        Ok(self)
    }

    /// `base` (the site's geometry) with the regions, diagonals and cages found.
    pub fn geometry(&self, base: Arc<Geometry>) -> Result<Arc<Geometry>, VariantError> {
        if self.regions.is_none() && !self.diagonals && self.cages.is_none() {
            return Ok(base);
        }
        let side = base.side();
        let mut g = match &self.regions {
            Some(regions) => Geometry::jigsaw(side, regions)
                .map_err(|e| VariantError::Geometry(e.to_string()))?,
            None => (*base).clone(),
        };
        if self.diagonals {
            g = g.with_diagonals();
        }
        if let Some(cages) = &self.cages {
            g = g.with_cages(cages.clone()).map_err(|e| VariantError::Geometry(e.to_string()))?;
        }
        Ok(Arc::new(g))
    }
}

/// Why a board's variant could not be established; nothing is typed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VariantError {
    /// Thick borders that do not make regions.
    #[error(
        "the board has {thick} thick borders between cells that are not its boxes, but they do \
         not make jigsaw regions: {why}; nothing was typed"
    )]
    Regions {
        /// How many thick inner borders.
        thick: usize,
        /// What is off.
        why: String,
    },
    /// Jigsaw regions in the page state that are not what the borders draw, or no regions.
    #[error("the page state `{path}` {why}; nothing was typed")]
    State {
        /// The page-state path (`Game.areas`).
        path: String,
        /// What is off.
        why: String,
    },
    /// Diagonals marked, but not exactly.
    #[error(
        "{on} of the {diagonal} diagonal cells have {what}, like an X board, but not exactly: \
         {why}; nothing was typed"
    )]
    Diagonals {
        /// The mark (a background colour or a class).
        what: String,
        /// Diagonal cells with it.
        on: usize,
        /// Cells on the diagonals.
        diagonal: usize,
        /// What is off.
        why: String,
    },
    /// A Killer cage that is not one.
    #[error("the Killer cage at {first} is not a cage: {why}; nothing was typed")]
    Cage {
        /// Its first cell.
        first: Cell,
        /// What is off.
        why: String,
    },
    /// Cage sums that do not add up.
    #[error(
        "the {cages} Killer cages' sums add up to {total}, not {want}: a sum or an outline was \
         misread; nothing was typed"
    )]
    Sums {
        /// Their total.
        total: u32,
        /// What a board's values add up to.
        want: u32,
        /// How many cages.
        cages: usize,
    },
    /// The site file names a variant the board does not show.
    #[error("the site expects a {want} board but the page shows {found}; nothing was typed")]
    NotTheSite {
        /// The site's variant.
        want: &'static str,
        /// What the page shows.
        found: String,
    },
    /// The marks make no grid.
    #[error("the variant does not make a grid: {0}; nothing was typed")]
    Geometry(String),
    /// Killer cage outlines seen in a board's pixels that do not make cages exactly.
    #[error("the board shows Killer cage outlines, but {0}; nothing was typed")]
    Outlines(#[from] crate::pixels::killer::KillerError),
    /// The marks script failed or answered something unexpected.
    #[error("the variant marks could not be read: {0}")]
    Script(String),
}

impl VariantError {
    /// Whether the marks could not be read at all (else they were read and do not add up: the
    /// board's own problem, which another session would read the same way).
    pub fn is_unread(&self) -> bool {
        matches!(self, VariantError::Script(_))
    }
}

/// Makes `site` play `spec` (`--variant`): the board must show it; a URL parameter named after
/// it (`params = { killer = "0" }` for `{killer}` in the URL) is set to `1`; and a Killer,
/// which may have no givens at all, is ready once its cells are there. On a board read from
/// pixels as in the DOM, the variant's marks are read and the board is refused without them.
pub fn choose(site: &mut crate::web::site::Site, spec: VariantSpec) {
    use crate::web::spec::BoardSpec;
    if let Some(value) = site.params.get_mut(spec.name()) {
        *value = "1".into();
    }
    let (variant, min_givens) = match &mut site.board {
        BoardSpec::Dom(dom) => (&mut dom.variant, &mut dom.min_givens),
        BoardSpec::Pixels(pixels) => (&mut pixels.variant, &mut pixels.min_givens),
    };
    *variant = spec;
    if spec == VariantSpec::Killer && min_givens.is_none() {
        *min_givens = Some(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::spec::{BoardSpec, PixelSpec};

    fn canvas_site() -> crate::web::site::Site {
        let board = BoardSpec::Pixels(PixelSpec {
            element: "canvas".into(),
            min_givens: None,
            ready_timeout_ms: None,
            variant: VariantSpec::Auto,
        });
        crate::web::discover::page_site("http://127.0.0.1:9/", board)
    }

    #[test]
    fn a_board_read_from_pixels_plays_any_variant() {
        let mut site = canvas_site();
        choose(&mut site, VariantSpec::Killer);
        assert_eq!(site.board.variant(), VariantSpec::Killer);
        assert_eq!(site.board.min_givens_for(9), 0, "a Killer may give nothing but cages");
        let mut jigsaw = canvas_site();
        choose(&mut jigsaw, VariantSpec::Jigsaw);
        assert_eq!(jigsaw.board.variant(), VariantSpec::Jigsaw);
        let mut x = canvas_site();
        choose(&mut x, VariantSpec::X);
        assert_eq!(x.board.variant(), VariantSpec::X);
        let mut classic = canvas_site();
        choose(&mut classic, VariantSpec::Classic);
        assert_eq!(classic.board.min_givens_for(9), 17);
    }
}
