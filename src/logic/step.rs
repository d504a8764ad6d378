//! One deduction as a value: what was found ([`Technique`], the cells, houses and values of the
//! pattern) and what it does (placements or eliminations), with its text in the usual notation
//! (`Hidden Single: r3c4=5`, `Naked Pair: 1,2 in r1c23 => r1c4<>1, r1c7<>2`).
//!
//! `explain`, `grade` and `hint` print steps, and a bot showing its thinking types them: a step
//! either places values or removes candidates, never both, so replaying it is unambiguous.

use std::fmt::{self, Write as _};

use crate::grid::symbol::{self, Style};
use crate::grid::{Cell, HouseKind};

/// The techniques the engine knows, easiest first in the usual order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Technique {
    /// The last open cell of a house.
    FullHouse,
    /// A cell with one candidate left.
    NakedSingle,
    /// A value with one place left in a house.
    HiddenSingle,
    /// A placed value still pencilled in a peer (only on boards given with pencil marks).
    Cleanup,
    /// A value confined to a line inside a region: out of the rest of the line
    /// (Locked Candidates Type 1).
    Pointing,
    /// A value confined to a region inside a line: out of the rest of the region
    /// (Locked Candidates Type 2).
    Claiming,
    /// A naked pair or triple inside the intersection of a line and a region.
    LockedSubset(u8),
    /// N cells of a house with N candidates between them.
    NakedSubset(u8),
    /// N values of a house with N places between them.
    HiddenSubset(u8),
    /// A value in N rows (or columns) confined to N columns (rows): X-Wing, Swordfish, ...
    Fish(u8),
    /// A fish with extra candidates (fins) in one region.
    FinnedFish(u8),
    /// A finned fish where a base line keeps at most one candidate off the fins.
    SashimiFish(u8),
    /// Two parallel conjugate pairs sharing one end line.
    Skyscraper,
    /// A row and a column conjugate pair joined in a region.
    TwoStringKite,
    /// A region whose candidates for a value lie on one row and one column, with a conjugate
    /// pair.
    EmptyRectangle,
    /// Two equal bivalue cells joined by a conjugate pair.
    WWing,
    /// A bivalue pivot and two bivalue pincers.
    XyWing,
    /// A trivalue pivot and two bivalue pincers.
    XyzWing,
    /// Conjugate pairs of one value coloured in two colours: a cell sees both colours (trap) or
    /// one colour sees itself (wrap).
    SimpleColours,
    /// An alternating chain of strong and weak links on one value.
    XChain,
    /// A chain of bivalue cells.
    XyChain,
    /// An alternating inference chain over any candidates (nice loops included).
    Aic,
    /// A unique rectangle, types 1 to 4.
    UniqueRectangle(u8),
    /// Bivalue universal grave plus one.
    BugPlusOne,
    /// Two almost locked sets joined by a restricted common value.
    AlsXz,
    /// A candidate whose consequences contradict each other.
    ForcingChain,
    /// Every candidate of a cell leads to the same conclusion.
    CellForcingChain,
    /// Every place of a value in a house leads to the same conclusion.
    UnitForcingChain,
    /// The cell with the fewest candidates takes the solution's value (found by search).
    Guess,
    /// Killer: a placed value leaves the other cells of its cage.
    CageExclusion,
    /// Killer: the last open cell of a cage takes what the cage still adds up to.
    CageSingle,
    /// Killer: a value is out where even the largest (smallest) values the cage's other cells
    /// can take leave its sum short (exceeded).
    CageBounds,
    /// Killer: values in no set of different values that makes the cage's sum and fits its
    /// cells are out; a value in every such set is out of the cells that see all its places in
    /// the cage.
    CageCombination,
    /// Killer, the 45 rule: houses add up to 1 + 2 + ... + N, so the cells left once the cages
    /// inside them are taken out (innies), or the cells outside of cages reaching in (outies),
    /// add up to a known sum.
    InnieOutie,
}

fn subset_word(n: u8) -> String {
    match n {
        2 => "Pair".into(),
        3 => "Triple".into(),
        4 => "Quad".into(),
        5 => "Quint".into(),
        6 => "Sextet".into(),
        7 => "Septet".into(),
        8 => "Octet".into(),
        n => format!("Subset of {n}"),
    }
}

fn fish_word(n: u8) -> String {
    match n {
        2 => "X-Wing".into(),
        3 => "Swordfish".into(),
        4 => "Jellyfish".into(),
        5 => "Squirmbag".into(),
        6 => "Whale".into(),
        7 => "Leviathan".into(),
        n => format!("Fish of {n}"),
    }
}

impl Technique {
    /// The name as printed, e.g. `Naked Pair`, `Finned X-Wing`, `Uniqueness Test 2`.
    pub fn name(self) -> String {
        match self {
            Technique::FullHouse => "Full House".into(),
            Technique::NakedSingle => "Naked Single".into(),
            Technique::HiddenSingle => "Hidden Single".into(),
            Technique::Cleanup => "Cleanup".into(),
            Technique::Pointing => "Locked Candidates Type 1 (Pointing)".into(),
            Technique::Claiming => "Locked Candidates Type 2 (Claiming)".into(),
            Technique::LockedSubset(n) => format!("Locked {}", subset_word(n)),
            Technique::NakedSubset(n) => format!("Naked {}", subset_word(n)),
            Technique::HiddenSubset(n) => format!("Hidden {}", subset_word(n)),
            Technique::Fish(n) => fish_word(n),
            Technique::FinnedFish(n) => format!("Finned {}", fish_word(n)),
            Technique::SashimiFish(n) => format!("Sashimi {}", fish_word(n)),
            Technique::Skyscraper => "Skyscraper".into(),
            Technique::TwoStringKite => "2-String Kite".into(),
            Technique::EmptyRectangle => "Empty Rectangle".into(),
            Technique::WWing => "W-Wing".into(),
            Technique::XyWing => "XY-Wing".into(),
            Technique::XyzWing => "XYZ-Wing".into(),
            Technique::SimpleColours => "Simple Colors".into(),
            Technique::XChain => "X-Chain".into(),
            Technique::XyChain => "XY-Chain".into(),
            Technique::Aic => "AIC".into(),
            Technique::UniqueRectangle(n) => format!("Uniqueness Test {n}"),
            Technique::BugPlusOne => "BUG+1".into(),
            Technique::AlsXz => "ALS-XZ".into(),
            Technique::ForcingChain => "Forcing Chain".into(),
            Technique::CellForcingChain => "Cell Forcing Chain".into(),
            Technique::UnitForcingChain => "Unit Forcing Chain".into(),
            Technique::Guess => "Guess".into(),
            Technique::CageExclusion => "Cage Exclusion".into(),
            Technique::CageSingle => "Cage Single".into(),
            Technique::CageBounds => "Cage Sum Bounds".into(),
            Technique::CageCombination => "Cage Combinations".into(),
            Technique::InnieOutie => "Innies/Outies".into(),
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A link of a chain: the candidate `value` of `cell`, reached by a strong (`=`) or weak (`-`)
/// link from the node before (the first node's flag is unused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The cell.
    pub cell: usize,
    /// The candidate.
    pub value: u8,
    /// Whether the link into this node is strong.
    pub strong: bool,
}

/// What the text of a step needs beyond its cells, values and houses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Detail {
    /// Nothing more.
    #[default]
    None,
    /// A fish: the first `base` of the step's houses are the base lines, the rest the cover
    /// lines; the fins.
    Fish {
        /// How many of the houses are base lines.
        base: usize,
        /// Fin cells.
        fins: Vec<usize>,
    },
    /// A pattern joined by a conjugate pair or link (Skyscraper, Kite, Empty Rectangle,
    /// W-Wing): the joining cells.
    Connected(Vec<usize>),
    /// A chain in Eureka notation.
    Chain(Vec<Node>),
    /// Two colours of conjugate pairs: the cells of each.
    Colours(Vec<usize>, Vec<usize>),
    /// Two almost locked sets with their values, the restricted common value X and the
    /// eliminated value Z.
    Als {
        /// Cells of set A.
        a: Vec<usize>,
        /// Values of A.
        a_values: u64,
        /// Cells of set B.
        b: Vec<usize>,
        /// Values of B.
        b_values: u64,
        /// The restricted common value.
        x: u8,
    },
    /// A forcing chain: the assumptions tried and what each led to, in words.
    Forcing {
        /// `(cell, value)` assumed true in each branch.
        branches: Vec<(usize, u8)>,
        /// What each branch ended in (a contradiction, or the common conclusion).
        outcome: String,
    },
    /// Killer: the sum regions used (a cage's open cells, or cells the 45 rule gives), each
    /// with what its cells add up to; the step's houses are the houses the 45 rule took.
    Sums(Vec<(Vec<usize>, u32)>),
}

/// One deduction.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// What was found.
    pub technique: Technique,
    /// The values of the pattern, ascending where order carries no meaning.
    pub values: Vec<u8>,
    /// The cells of the pattern (for a hint that points at cells).
    pub cells: Vec<usize>,
    /// The houses of the pattern.
    pub houses: Vec<HouseKind>,
    /// Values placed: `(cell, value)`. Empty when the step eliminates.
    pub place: Vec<(usize, u8)>,
    /// Candidates removed: `(cell, value)`. Empty when the step places.
    pub eliminate: Vec<(usize, u8)>,
    /// Extra structure for the text.
    pub detail: Detail,
    /// The side of the grid (for cell names and symbols).
    pub side: u8,
}

impl Step {
    /// A step of `technique` on a grid of `side`, with nothing in it yet.
    pub fn new(technique: Technique, side: usize) -> Step {
        Step {
            technique,
            values: Vec::new(),
            cells: Vec::new(),
            houses: Vec::new(),
            place: Vec::new(),
            eliminate: Vec::new(),
            detail: Detail::None,
            side: side as u8,
        }
    }

    /// A step placing `value` in `cell`.
    pub fn placing(technique: Technique, side: usize, cell: usize, value: u8) -> Step {
        let mut step = Step::new(technique, side);
        step.values.push(value);
        step.cells.push(cell);
        step.place.push((cell, value));
        step
    }

    /// Whether the step does anything.
    pub fn is_empty(&self) -> bool {
        self.place.is_empty() && self.eliminate.is_empty()
    }

    /// The symbol of a value (`1`-`9`, then `A`-`Z`).
    pub fn symbol(&self, value: u8) -> char {
        symbol::to_char(value, self.side as usize, Style::Line).unwrap_or('?')
    }

    /// A cell's name, `r3c4`.
    pub fn cell_name(&self, cell: usize) -> String {
        Cell::from_index(cell, self.side as usize).to_string()
    }

    /// The text of the step in the usual notation.
    pub fn text(&self) -> String {
        let mut out = self.technique.name();
        out.push_str(": ");
        let pattern = self.pattern_text();
        if !pattern.is_empty() {
            out.push_str(&pattern);
            out.push_str(" => ");
        }
        out.push_str(&self.effect_text());
        out
    }

    /// What the step does: `r3c4=5` or `r1c4<>1, r1c7<>2` (eliminations grouped by value).
    pub fn effect_text(&self) -> String {
        if !self.place.is_empty() {
            return self
                .place
                .iter()
                .map(|&(c, v)| format!("{}={}", self.cell_name(c), self.symbol(v)))
                .collect::<Vec<_>>()
                .join(", ");
        }
        let mut by_value: Vec<u8> = self.eliminate.iter().map(|&(_, v)| v).collect();
        by_value.sort_unstable();
        by_value.dedup();
        by_value
            .iter()
            .map(|&v| {
                let cells: Vec<usize> =
                    self.eliminate.iter().filter(|&&(_, w)| w == v).map(|&(c, _)| c).collect();
                format!("{}<>{}", self.cells_text(&cells), self.symbol(v))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A list of cells, compressed as in `r1c23` or `r13c5` on grids up to 9x9.
    pub fn cells_text(&self, cells: &[usize]) -> String {
        cells_text(cells, self.side as usize)
    }

    /// Values as `1,2` (or `1/2` with `sep`).
    fn values_text(&self, values: &[u8], sep: &str) -> String {
        values.iter().map(|&v| self.symbol(v).to_string()).collect::<Vec<_>>().join(sep)
    }

    fn mask_text(&self, mask: u64) -> String {
        let values: Vec<u8> = super::board::values(mask).collect();
        format!("{{{}}}", self.values_text(&values, ","))
    }

    /// The pattern part of the text, before `=>`; empty for singles.
    fn pattern_text(&self) -> String {
        let side = self.side as usize;
        let list = |cells: &[usize]| {
            cells.iter().map(|&c| self.cell_name(c)).collect::<Vec<_>>().join(",")
        };
        let houses =
            |hs: &[HouseKind]| hs.iter().map(|&h| house_name(h)).collect::<Vec<_>>().join(",");
        match (&self.technique, &self.detail) {
            (
                Technique::FullHouse
                | Technique::NakedSingle
                | Technique::HiddenSingle
                | Technique::BugPlusOne,
                _,
            ) => String::new(),
            (Technique::Guess, _) => self
                .place
                .first()
                .map(|&(c, _)| {
                    format!("{} in {}", self.values_text(&self.values, ","), self.cell_name(c))
                })
                .unwrap_or_default(),
            (Technique::Cleanup, _) => self
                .cells
                .first()
                .map(|&c| format!("{}={}", self.cell_name(c), self.values_text(&self.values, ",")))
                .unwrap_or_default(),
            // The house the value is locked in; the second house is where it goes.
            (Technique::Pointing | Technique::Claiming, _) => {
                format!(
                    "{} in {}",
                    self.values_text(&self.values, ","),
                    houses(self.houses.get(..1).unwrap_or_default())
                )
            }
            (
                Technique::NakedSubset(_) | Technique::HiddenSubset(_) | Technique::LockedSubset(_),
                _,
            ) => format!(
                "{} in {}",
                self.values_text(&self.values, ","),
                cells_text(&self.cells, side)
            ),
            (_, Detail::Fish { base, fins }) => {
                let (b, c) = self.houses.split_at((*base).min(self.houses.len()));
                let mut t = format!(
                    "{} in {} {}",
                    self.values_text(&self.values, ","),
                    houses(b),
                    houses(c)
                );
                if !fins.is_empty() {
                    let _ = write!(t, " fins {}", list(fins));
                }
                t
            }
            (Technique::WWing, Detail::Connected(link)) => format!(
                "{} in {} connected by {} in {}",
                self.values_text(&self.values[..2.min(self.values.len())], "/"),
                list(&self.cells),
                self.values.get(2).map(|&v| self.symbol(v)).unwrap_or('?'),
                list(link)
            ),
            (Technique::EmptyRectangle, Detail::Connected(link)) => format!(
                "{} in {} ({})",
                self.values_text(&self.values, ","),
                houses(&self.houses),
                list(link)
            ),
            (_, Detail::Connected(link)) => format!(
                "{} in {} (connected by {})",
                self.values_text(&self.values, ","),
                list(&self.cells),
                list(link)
            ),
            (_, Detail::Chain(nodes)) => chain_text(nodes, side),
            (_, Detail::Colours(a, b)) => {
                format!("{} ({}) / ({})", self.values_text(&self.values, ","), list(a), list(b))
            }
            (_, Detail::Als { a, a_values, b, b_values, x }) => format!(
                "A={} {}, B={} {}, X={}, Z={}",
                cells_text(a, side),
                self.mask_text(*a_values),
                cells_text(b, side),
                self.mask_text(*b_values),
                self.symbol(*x),
                self.values_text(&self.values, ",")
            ),
            (_, Detail::Forcing { outcome, .. }) => outcome.clone(),
            (_, Detail::Sums(sums)) => {
                let mut t = sums
                    .iter()
                    .map(|(cells, sum)| format!("{}={sum}", list(cells).replace(',', "+")))
                    .collect::<Vec<_>>()
                    .join(", ");
                if !self.houses.is_empty() {
                    let _ = write!(t, " in {}", houses(&self.houses));
                }
                t
            }
            (Technique::UniqueRectangle(_), _) => {
                format!("{} in {}", self.values_text(&self.values, "/"), list(&self.cells))
            }
            _ => format!("{} in {}", self.values_text(&self.values, "/"), list(&self.cells)),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// A house as written in step texts: `r3`, `c5`, `b2`, `d\` (main diagonal), `d/`.
pub fn house_name(h: HouseKind) -> String {
    match h {
        HouseKind::Row(r) => format!("r{}", r + 1),
        HouseKind::Column(c) => format!("c{}", c + 1),
        HouseKind::Region(b) => format!("b{}", b + 1),
        HouseKind::Diagonal => "d\\".into(),
        HouseKind::AntiDiagonal => "d/".into(),
    }
}

/// A chain in Eureka notation: `(4)r1c1=(4)r1c5-(4)r3c5=(4)r3c8`.
pub fn chain_text(nodes: &[Node], side: usize) -> String {
    let mut out = String::new();
    for (k, n) in nodes.iter().enumerate() {
        if k > 0 {
            out.push(if n.strong { '=' } else { '-' });
        }
        let sym = symbol::to_char(n.value, side, Style::Line).unwrap_or('?');
        let _ = write!(out, "({sym}){}", Cell::from_index(n.cell, side));
    }
    out
}

/// Cells compressed as people write them on grids up to 9x9: `r1c23` (one row), `r13c5` (one
/// column), else rows joined with commas (`r1c2,r3c45`). Bigger grids list every cell.
pub fn cells_text(cells: &[usize], side: usize) -> String {
    let mut cells = cells.to_vec();
    cells.sort_unstable();
    cells.dedup();
    let name = |c: usize| Cell::from_index(c, side).to_string();
    if side > 9 || cells.len() < 2 {
        return cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(",");
    }
    let digit = |k: usize| char::from(b'1' + k as u8);
    let rows: Vec<usize> = cells.iter().map(|&c| c / side).collect();
    let cols: Vec<usize> = cells.iter().map(|&c| c % side).collect();
    if cols.iter().all(|&c| c == cols[0]) {
        let rs: String = rows.iter().map(|&r| digit(r)).collect();
        return format!("r{rs}c{}", cols[0] + 1);
    }
    let mut parts = Vec::new();
    let mut k = 0;
    while k < cells.len() {
        let r = rows[k];
        let mut cs = String::new();
        while k < cells.len() && rows[k] == r {
            cs.push(digit(cols[k]));
            k += 1;
        }
        parts.push(format!("r{}c{cs}", r + 1));
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_follow_the_usual_notation() {
        let hs = Step::placing(Technique::HiddenSingle, 9, 2 * 9 + 3, 5);
        assert_eq!(hs.text(), "Hidden Single: r3c4=5");

        let mut np = Step::new(Technique::NakedSubset(2), 9);
        np.values = vec![1, 2];
        np.cells = vec![1, 2];
        np.eliminate = vec![(3, 1), (6, 2)];
        assert_eq!(np.text(), "Naked Pair: 1,2 in r1c23 => r1c4<>1, r1c7<>2");

        let mut xw = Step::new(Technique::Fish(2), 9);
        xw.values = vec![4];
        xw.houses =
            vec![HouseKind::Row(1), HouseKind::Row(6), HouseKind::Column(2), HouseKind::Column(7)];
        xw.detail = Detail::Fish { base: 2, fins: vec![] };
        xw.eliminate = vec![(4 * 9 + 2, 4)];
        assert_eq!(xw.text(), "X-Wing: 4 in r2,r7 c3,c8 => r5c3<>4");
    }

    #[test]
    fn cells_compress_only_where_unambiguous() {
        assert_eq!(cells_text(&[1, 2], 9), "r1c23");
        assert_eq!(cells_text(&[4, 13, 31], 9), "r124c5");
        assert_eq!(cells_text(&[1, 2, 20], 9), "r1c23,r3c3");
        assert_eq!(cells_text(&[10, 11], 16), "r1c11,r1c12");
        assert_eq!(cells_text(&[40], 9), "r5c5");
    }
}
