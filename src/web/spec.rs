//! The board a site file describes, typed: [`BoardSpec::Dom`] (a board of page elements) or
//! [`BoardSpec::Pixels`] (one element whose pixels are read). The file's `[board]` table is
//! read as a [`RawBoard`] (the on-disk shape) and validated once, by `TryFrom`, into a
//! [`BoardSpec`]: box shapes, given markers and styles are parsed there, and a key that cannot
//! apply to the kind of board is an error naming it. Discovery builds a [`BoardSpec`] directly,
//! and [`BoardSpec::to_toml`] writes one back as a `[board]` table that loads again.
//!
//! To add a key: a field in [`RawBoard`] (and in `sites/README.md`), its typed form in
//! [`DomSpec`] or [`PixelSpec`], its check in `TryFrom<RawBoard>` with a [`BoardError`]
//! variant naming the key, and its line in [`BoardSpec::to_toml`].
//!
//! A leaf: it knows the grid and CSS selectors, nothing of sites, pages or browsers.

use std::fmt;

use serde::Deserialize;

use crate::grid::{BoxShape, Geometry, GridError};

/// The side of a board whose site file does not say (`board.side`).
pub const SIDE: usize = 9;

/// The sides a web board may have: each has a usual box shape (4 = 2x2, 6 = 3x2, 8 = 4x2,
/// 12 = 4x3) unless `board.boxes` names one.
pub const SIDES: &[usize] = &[4, 6, 8, 9, 12, 16];

/// Placeholders an id template may use, with their meaning for cell `index` (reading order).
pub const ID_PLACEHOLDERS: &[&str] = &["index0", "index1", "row", "col", "row1", "col1"];

/// The `[board]` table as written in a site file: checked by `TryFrom` into a [`BoardSpec`],
/// which is what the rest of sudobot reads.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    /// The number of cells in a row (4, 6, 8, 9, 12 or 16; default 9).
    #[serde(default)]
    pub side: Option<usize>,
    /// The box shape, `"WxH"` (e.g. `"3x2"`: 3 wide, 2 tall); default: the usual one for the
    /// side.
    #[serde(default)]
    pub boxes: Option<String>,
    /// CSS selector matching exactly the side x side cells (with `read = "pixels"`: the one
    /// element the board is drawn in).
    pub cells: String,
    /// Cell order: `document`, `id` (with `id_template`) or `position`.
    #[serde(default)]
    pub order: Option<Order>,
    /// Where a cell's value is: `value` (default), `text`, `{ attribute = "..." }` or `overlay`.
    #[serde(default)]
    pub value: Option<ValueSource>,
    /// With `order = "id"`: the id of each cell, e.g. `c{index1}` or `f{col}{row}`.
    #[serde(default)]
    pub id_template: Option<String>,
    /// `source` (default), `script` or `pixels`.
    #[serde(default)]
    pub read: RawRead,
    /// What marks a given cell (required, except with `read = "pixels"`).
    #[serde(default)]
    pub given: Option<RawGiven>,
    /// The givens that must hold a value before the board counts as ready.
    #[serde(default)]
    pub min_givens: Option<usize>,
    /// How long to wait for the ready condition, in milliseconds.
    #[serde(default)]
    pub ready_timeout_ms: Option<u64>,
    /// `true`: nothing proves the givens, every filled cell is fixed (what `sites learn`
    /// writes then).
    #[serde(default)]
    pub unproven: bool,
    /// The variant the board must be (`auto`, the default: whatever the page marks).
    #[serde(default)]
    pub variant: VariantSpec,
    /// A page-state path (`Game.areas`) holding each cell's jigsaw region, row by row.
    #[serde(default)]
    pub regions_state: Option<String>,
}

/// `board.read` as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawRead {
    /// A board of elements, read from the page source.
    #[default]
    Source,
    /// A board of elements, read by one script.
    Script,
    /// One element's pixels.
    Pixels,
}

/// `board.given` as written.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub enum RawGiven {
    /// `{ attribute = "readonly" }`.
    Attribute(String),
    /// `{ class = "s0" }`.
    Class(String),
    /// `{ filled = true }` (`false` marks nothing: an error).
    Filled(bool),
    /// `{ style = "font-weight: 700" }`.
    Style(String),
}

/// A site's board, validated.
// One a site, built once per file: a few hundred bytes unboxed keep the matches plain.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardSpec {
    /// A board of page elements, one a cell.
    Dom(DomSpec),
    /// A board drawn in one element (a canvas), read from an element screenshot by
    /// [`crate::pixels`].
    Pixels(PixelSpec),
}

/// A board of page elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomSpec {
    /// CSS selector matching exactly the side x side cells.
    pub cells: String,
    /// Cells in a row: one of [`SIDES`].
    pub side: usize,
    /// The box shape the file names (it tiles `side`); `None`: the usual one for the side.
    pub boxes: Option<BoxShape>,
    /// Cell order.
    pub order: Order,
    /// With [`Order::Id`] (and only then): the id of each cell.
    pub id_template: Option<String>,
    /// Where a cell's value is.
    pub value: ValueSource,
    /// How the board is read.
    pub read: ReadMode,
    /// What marks a given cell.
    pub given: Given,
    /// Set when nothing proves the givens: every filled cell is fixed (`given` is then
    /// [`Given::Filled`]).
    pub unproven: Option<Unproven>,
    /// `board.min_givens` (see [`BoardSpec::min_givens_for`]).
    pub min_givens: Option<usize>,
    /// `board.ready_timeout_ms`.
    pub ready_timeout_ms: Option<u64>,
    /// `board.variant`: see [`crate::web::variant`].
    pub variant: VariantSpec,
    /// `board.regions_state`: a page-state path (`Game.areas`, dotted names from `window`)
    /// holding each cell's jigsaw region, checked against the drawn borders.
    pub regions_state: Option<String>,
}

/// A board read from one element's pixels: the image says the side, boxes and givens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixelSpec {
    /// CSS selector of the one element the board is drawn in (`board.cells`).
    pub element: String,
    /// `board.min_givens` (see [`BoardSpec::min_givens_for`]).
    pub min_givens: Option<usize>,
    /// `board.ready_timeout_ms`.
    pub ready_timeout_ms: Option<u64>,
    /// `board.variant`: any (Killer cages, jigsaw regions and X diagonals are read from the
    /// board's pixels).
    pub variant: VariantSpec,
}

/// A board whose givens nothing proves (no read-only, disabled or `aria-readonly` state and no
/// site file's marker): what discovery saw, kept to name the player's mistakes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unproven {
    /// A style or class that only some filled cells have (colour, weight, a class): it may mark
    /// the givens or the player's entries, so it is a hint, never a proof.
    pub hint: Option<Given>,
    /// The hint in words (empty without one).
    pub hint_note: String,
}

/// Where a cell's value is read from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub enum ValueSource {
    /// The `value` property of an input or textarea, else the text content.
    #[default]
    Value,
    /// The text content.
    Text,
    /// An attribute, e.g. `aria-label` (a label that is not one symbol reads as empty).
    Attribute(String),
    /// The SVG `<text>` drawn over the cell (an SVG `<rect>`): the one whose centre lies in it.
    Overlay,
}

impl ValueSource {
    /// The kind and name as the board scripts take them.
    pub fn script_args(&self) -> (&'static str, &str) {
        match self {
            ValueSource::Value => ("value", ""),
            ValueSource::Text => ("text", ""),
            ValueSource::Attribute(a) => ("attribute", a),
            ValueSource::Overlay => ("overlay", ""),
        }
    }
}

/// Cell order on the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// The n-th match of `cells` in document order is the n-th cell in reading order.
    #[default]
    Document,
    /// Each cell is found by the id `id_template` gives for it.
    Id,
    /// Rows and columns come from where the cells are drawn on screen (any document order).
    Position,
}

/// How a board of elements is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadMode {
    /// One `page source` command, parsed here (givens must be in the markup).
    #[default]
    Source,
    /// One script returning every cell's live value and given flag.
    Script,
}

/// What marks a given cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Given {
    /// The cell has this attribute (any value), e.g. `readonly`.
    Attribute(String),
    /// The cell has this class, e.g. `s0`.
    Class(String),
    /// Every cell that holds a value when the page is read is a given (sites whose givens are
    /// plain pre-filled inputs).
    Filled,
    /// A computed style, e.g. `font-weight: 700`.
    Style(Style),
}

/// A computed style a given has: `property: value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// The CSS property, e.g. `font-weight`.
    pub property: String,
    /// Its computed value, e.g. `700`.
    pub value: String,
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.property, self.value)
    }
}

impl std::str::FromStr for Style {
    type Err = ();

    /// `property: value`, both parts non-empty.
    fn from_str(text: &str) -> Result<Style, ()> {
        let (p, v) = text.split_once(':').ok_or(())?;
        let (property, value) = (p.trim(), v.trim());
        if property.is_empty() || value.is_empty() {
            return Err(());
        }
        Ok(Style { property: property.to_string(), value: value.to_string() })
    }
}

impl Given {
    /// The kind and name as the board scripts take them.
    pub fn script_args(&self) -> (&'static str, String) {
        match self {
            Given::Attribute(a) => ("attribute", a.clone()),
            Given::Class(c) => ("class", c.clone()),
            Given::Filled => ("filled", String::new()),
            Given::Style(s) => ("style", s.to_string()),
        }
    }

    /// The marker as a TOML inline table.
    pub fn to_toml(&self) -> String {
        match self {
            Given::Attribute(a) => format!("{{ attribute = {} }}", toml_str(a)),
            Given::Class(c) => format!("{{ class = {} }}", toml_str(c)),
            Given::Filled => "{ filled = true }".to_string(),
            Given::Style(s) => format!("{{ style = {} }}", toml_str(&s.to_string())),
        }
    }
}

/// A `[board]` key that is not valid. [`BoardError::key`] names the key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// `cells` is not a CSS selector.
    #[error("{0}")]
    Cells(String),
    /// `side` is not one of [`SIDES`].
    #[error("{0} is not a supported side (4, 6, 8, 9, 12 or 16)")]
    Side(usize),
    /// `boxes` is not `WxH`.
    #[error("`{0}` is not `WxH` (e.g. `3x2`: 3 wide, 2 tall)")]
    BoxText(String),
    /// `boxes` does not tile the side.
    #[error("`{shape}`: boxes of {shape} do not tile a side of {side}")]
    BoxesDoNotTile {
        /// The shape written.
        shape: BoxShape,
        /// The board's side.
        side: usize,
    },
    /// `boxes` (or the side's usual shape) makes no grid.
    #[error("{0}")]
    Geometry(GridError),
    /// `value` names an empty attribute.
    #[error("names an empty attribute")]
    EmptyValueAttribute,
    /// `order = "id"` without `id_template`.
    #[error("is required with `order = \"id\"`")]
    IdTemplateMissing,
    /// `id_template` without `order = "id"`.
    #[error("is only used with `order = \"id\"`")]
    IdTemplateUnused,
    /// `id_template` is not a template of the known placeholders, or gives two cells one id.
    #[error("{0}")]
    IdTemplate(String),
    /// A board of elements without `given`.
    #[error("is required (except with `read = \"pixels\"`)")]
    GivenMissing,
    /// `given` names an empty attribute, class or style.
    #[error("names an empty attribute, class or style")]
    GivenEmpty,
    /// `given`'s style is not `property: value`.
    #[error("style `{0}` is not `property: value` (e.g. `font-weight: 700`)")]
    GivenStyle(String),
    /// `given = { filled = false }`.
    #[error("`filled = false` marks nothing")]
    FilledFalse,
    /// `unproven = true` beside a marker that claims to prove the givens.
    #[error("says nothing proves the givens, but `given` names a marker: keep one")]
    UnprovenWithMarker,
    /// `min_givens` above the number of cells.
    #[error("is above the {0} cells")]
    MinGivens(usize),
    /// A key that describes page cells, on a board read from pixels.
    #[error("{what} with `read = \"pixels\"` (the image says it)")]
    NotForPixels {
        /// The key, dotted.
        key: &'static str,
        /// What is wrong with it.
        what: &'static str,
    },
    /// `regions_state` that is not a dotted path of names.
    #[error("`{0}` is not a page-state path: names joined by dots, such as `Game.areas`")]
    RegionsState(String),
}

impl BoardError {
    /// The key at fault, dotted (`board.boxes`).
    pub fn key(&self) -> &'static str {
        match self {
            BoardError::Cells(_) => "board.cells",
            BoardError::Side(_) => "board.side",
            BoardError::BoxText(_)
            | BoardError::BoxesDoNotTile { .. }
            | BoardError::Geometry(_) => "board.boxes",
            BoardError::EmptyValueAttribute => "board.value",
            BoardError::IdTemplateMissing
            | BoardError::IdTemplateUnused
            | BoardError::IdTemplate(_) => "board.id_template",
            BoardError::GivenMissing
            | BoardError::GivenEmpty
            | BoardError::GivenStyle(_)
            | BoardError::FilledFalse => "board.given",
            BoardError::UnprovenWithMarker => "board.unproven",
            BoardError::MinGivens(_) => "board.min_givens",
            BoardError::NotForPixels { key, .. } => key,
            BoardError::RegionsState(_) => "board.regions_state",
        }
    }
}

impl TryFrom<RawBoard> for BoardSpec {
    type Error = BoardError;

    fn try_from(raw: RawBoard) -> Result<BoardSpec, BoardError> {
        check_selector(&raw.cells).map_err(BoardError::Cells)?;
        if raw.read == RawRead::Pixels {
            return pixels(raw).map(BoardSpec::Pixels);
        }
        let side = raw.side.unwrap_or(SIDE);
        if !SIDES.contains(&side) {
            return Err(BoardError::Side(side));
        }
        let boxes = raw.boxes.as_deref().map(|text| box_shape(text, side)).transpose()?;
        let value = raw.value.unwrap_or_default();
        if let ValueSource::Attribute(a) = &value
            && a.trim().is_empty()
        {
            return Err(BoardError::EmptyValueAttribute);
        }
        let given = match raw.given {
            None => return Err(BoardError::GivenMissing),
            Some(raw) => given(raw)?,
        };
        if raw.unproven && given != Given::Filled {
            return Err(BoardError::UnprovenWithMarker);
        }
        let spec = DomSpec {
            cells: raw.cells,
            side,
            boxes,
            order: raw.order.unwrap_or_default(),
            id_template: raw.id_template,
            value,
            read: if raw.read == RawRead::Script { ReadMode::Script } else { ReadMode::Source },
            given,
            unproven: raw.unproven.then(Unproven::default),
            min_givens: raw.min_givens,
            ready_timeout_ms: raw.ready_timeout_ms,
            variant: raw.variant,
            regions_state: raw.regions_state,
        };
        if let Some(path) = &spec.regions_state
            && !is_state_path(path)
        {
            return Err(BoardError::RegionsState(path.clone()));
        }
        spec.geometry().map_err(BoardError::Geometry)?;
        spec.check_ids()?;
        let n = side * side;
        if spec.min_givens.is_some_and(|m| m > n) {
            return Err(BoardError::MinGivens(n));
        }
        Ok(BoardSpec::Dom(spec))
    }
}

/// A board read from pixels: every key that describes page cells is an error (the image says
/// the side, boxes and givens).
fn pixels(raw: RawBoard) -> Result<PixelSpec, BoardError> {
    let not = |key, what| Err(BoardError::NotForPixels { key, what });
    if raw.given.is_some() {
        return not("board.given", "is not used: the ink colour tells givens");
    }
    // A key written with its default value says nothing and is let through.
    if raw.side.is_some_and(|s| s != SIDE) {
        return not("board.side", "is not used");
    }
    if raw.boxes.is_some() {
        return not("board.boxes", "is not used");
    }
    if raw.order.is_some_and(|o| o != Order::Document) {
        return not("board.order", "is not used");
    }
    if raw.id_template.is_some() {
        return not("board.id_template", "is not used");
    }
    if raw.value.as_ref().is_some_and(|v| *v != ValueSource::Value) {
        return not("board.value", "is not used");
    }
    if raw.regions_state.is_some() {
        return not("board.regions_state", "is not read from pixels yet");
    }
    if raw.min_givens.is_some_and(|m| m > SIDE * SIDE) {
        return Err(BoardError::MinGivens(SIDE * SIDE));
    }
    // `unproven = true` says what a pixel board always is (every filled cell is fixed, the ink
    // colour only a hint): accepted, and not written back.
    Ok(PixelSpec {
        element: raw.cells,
        min_givens: raw.min_givens,
        ready_timeout_ms: raw.ready_timeout_ms,
        variant: raw.variant,
    })
}

/// `board.boxes` for a board of `side`.
fn box_shape(text: &str, side: usize) -> Result<BoxShape, BoardError> {
    let shape: BoxShape = text.parse().map_err(|_| BoardError::BoxText(text.to_string()))?;
    if shape.side() != side {
        return Err(BoardError::BoxesDoNotTile { shape, side });
    }
    Ok(shape)
}

/// `board.given`, parsed.
fn given(raw: RawGiven) -> Result<Given, BoardError> {
    match raw {
        RawGiven::Attribute(a) | RawGiven::Class(a) | RawGiven::Style(a) if a.trim().is_empty() => {
            Err(BoardError::GivenEmpty)
        }
        RawGiven::Attribute(a) => Ok(Given::Attribute(a)),
        RawGiven::Class(c) => Ok(Given::Class(c)),
        RawGiven::Filled(true) => Ok(Given::Filled),
        RawGiven::Filled(false) => Err(BoardError::FilledFalse),
        RawGiven::Style(s) => s.parse().map(Given::Style).map_err(|()| BoardError::GivenStyle(s)),
    }
}

impl DomSpec {
    /// The board's shape: `boxes`, or the usual boxes for the side.
    pub fn geometry(&self) -> Result<Geometry, GridError> {
        match self.boxes {
            Some(shape) => shape.geometry(),
            None => Geometry::for_side(self.side),
        }
    }

    /// The id of the cell at a reading-order index (with `order = "id"`).
    pub fn cell_id(&self, index: usize) -> Option<String> {
        let template = self.id_template.as_deref()?;
        let side = self.side;
        let (row, col) = (index / side, index % side);
        let values = [index, index + 1, row, col, row + 1, col + 1];
        let lookup = |name: &str| {
            ID_PLACEHOLDERS.iter().position(|p| *p == name).map(|i| values[i].to_string())
        };
        fill_template(template, lookup).ok()
    }

    /// The reading-order ids of all cells, or `None` for document or position order.
    pub fn cell_ids(&self) -> Option<Vec<String>> {
        match self.order {
            Order::Document | Order::Position => None,
            Order::Id => (0..self.side * self.side).map(|i| self.cell_id(i)).collect(),
        }
    }

    /// `order` and `id_template` together: a template exactly with `order = "id"`, of known
    /// placeholders, giving every cell an id of its own.
    fn check_ids(&self) -> Result<(), BoardError> {
        let t = match (self.order, &self.id_template) {
            (Order::Id, None) => return Err(BoardError::IdTemplateMissing),
            (Order::Document | Order::Position, Some(_)) => {
                return Err(BoardError::IdTemplateUnused);
            }
            (Order::Document | Order::Position, None) => return Ok(()),
            (Order::Id, Some(t)) => t,
        };
        for name in placeholders(t).map_err(BoardError::IdTemplate)? {
            if !ID_PLACEHOLDERS.contains(&name.as_str()) {
                return Err(BoardError::IdTemplate(format!(
                    "unknown placeholder `{{{name}}}` (known: {})",
                    ID_PLACEHOLDERS.join(", ")
                )));
            }
        }
        let n = self.side * self.side;
        let ids: std::collections::HashSet<String> =
            (0..n).map(|i| self.cell_id(i).unwrap_or_default()).collect();
        if ids.len() != n {
            return Err(BoardError::IdTemplate(format!("`{t}` does not give {n} different ids")));
        }
        Ok(())
    }
}

impl BoardSpec {
    /// The selector of the cells (a board of elements) or of the one element (pixels).
    pub fn cells(&self) -> &str {
        match self {
            BoardSpec::Dom(d) => &d.cells,
            BoardSpec::Pixels(p) => &p.element,
        }
    }

    /// Whether the board is read from an element's pixels.
    pub fn is_pixels(&self) -> bool {
        matches!(self, BoardSpec::Pixels(_))
    }

    /// The board of elements, if it is one.
    pub fn dom(&self) -> Option<&DomSpec> {
        match self {
            BoardSpec::Dom(d) => Some(d),
            BoardSpec::Pixels(_) => None,
        }
    }

    /// The side: the file's for a board of elements; [`SIDE`] for pixels until the image says.
    pub fn side(&self) -> usize {
        match self {
            BoardSpec::Dom(d) => d.side,
            BoardSpec::Pixels(_) => SIDE,
        }
    }

    /// `board.variant`.
    pub fn variant(&self) -> VariantSpec {
        match self {
            BoardSpec::Dom(d) => d.variant,
            BoardSpec::Pixels(p) => p.variant,
        }
    }

    /// `board.ready_timeout_ms`.
    pub fn ready_timeout_ms(&self) -> Option<u64> {
        match self {
            BoardSpec::Dom(d) => d.ready_timeout_ms,
            BoardSpec::Pixels(p) => p.ready_timeout_ms,
        }
    }

    /// Whether nothing proves the givens (every filled cell fixed) on a board of elements.
    pub fn unproven(&self) -> Option<&Unproven> {
        self.dom().and_then(|d| d.unproven.as_ref())
    }

    /// The givens needed on a board of `side` (a board read from pixels has the side it is
    /// seen to have): `board.min_givens`, else 17 on 9x9 and a sixth of the cells otherwise.
    pub fn min_givens_for(&self, side: usize) -> usize {
        let set = match self {
            BoardSpec::Dom(d) => d.min_givens,
            BoardSpec::Pixels(p) => p.min_givens,
        };
        set.unwrap_or(match side {
            SIDE => 17,
            side => side * side / 6,
        })
    }

    /// The `[board]` table as TOML: what [`RawBoard`] reads back as this board.
    pub fn to_toml(&self) -> String {
        let mut out = String::from("[board]\n");
        let (min_givens, ready) = match self {
            BoardSpec::Dom(d) => {
                d.write_toml(&mut out);
                (d.min_givens, d.ready_timeout_ms)
            }
            BoardSpec::Pixels(p) => {
                out.push_str(&format!("cells = {}\nread = \"pixels\"\n", toml_str(&p.element)));
                if p.variant != VariantSpec::Auto {
                    out.push_str(&format!("variant = \"{}\"\n", p.variant.name()));
                }
                (p.min_givens, p.ready_timeout_ms)
            }
        };
        if let Some(n) = min_givens {
            out.push_str(&format!("min_givens = {n}\n"));
        }
        if let Some(ms) = ready {
            out.push_str(&format!("ready_timeout_ms = {ms}\n"));
        }
        out
    }
}

impl DomSpec {
    /// The keys of a board of elements, from `side` to `unproven`.
    fn write_toml(&self, out: &mut String) {
        if self.side != SIDE {
            out.push_str(&format!("side = {}\n", self.side));
        }
        if let Some(boxes) = &self.boxes {
            out.push_str(&format!("boxes = \"{boxes}\"\n"));
        }
        out.push_str(&format!("cells = {}\n", toml_str(&self.cells)));
        let order = match self.order {
            Order::Document => "document",
            Order::Id => "id",
            Order::Position => "position",
        };
        out.push_str(&format!("order = \"{order}\"\n"));
        if let Some(t) = &self.id_template {
            out.push_str(&format!("id_template = {}\n", toml_str(t)));
        }
        match &self.value {
            ValueSource::Value => {}
            ValueSource::Text => out.push_str("value = \"text\"\n"),
            ValueSource::Overlay => out.push_str("value = \"overlay\"\n"),
            ValueSource::Attribute(a) => {
                out.push_str(&format!("value = {{ attribute = {} }}\n", toml_str(a)));
            }
        }
        if self.read == ReadMode::Script {
            out.push_str("read = \"script\"\n");
        }
        out.push_str(&format!("given = {}\n", self.given.to_toml()));
        if self.variant != VariantSpec::Auto {
            out.push_str(&format!("variant = \"{}\"\n", self.variant.name()));
        }
        if let Some(path) = &self.regions_state {
            out.push_str(&format!("regions_state = {}\n", toml_str(path)));
        }
        if self.unproven.is_some() {
            out.push_str("unproven = true\n");
        }
    }
}

/// Whether `path` is names joined by dots (`Game.areas`): a page-state path, never code.
fn is_state_path(path: &str) -> bool {
    !path.is_empty()
        && path.split('.').all(|name| {
            name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
}

/// A TOML basic string.
pub(crate) fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Whether `selector` parses as CSS; else why not, in words.
pub(crate) fn check_selector(selector: &str) -> Result<(), String> {
    scraper::Selector::parse(selector)
        .map(|_| ())
        .map_err(|e| format!("`{selector}` is not a valid CSS selector: {}", selector_error(&e)))
}

/// scraper's message, except for the kinds it shows as "report this to the developer" with a
/// debug dump: those are said in words with the token at fault.
fn selector_error(e: &scraper::error::SelectorErrorKind) -> String {
    use scraper::error::SelectorErrorKind;
    let SelectorErrorKind::UnexpectedSelectorParseError(kind) = e else {
        return e.to_string().to_lowercase();
    };
    let debug = format!("{kind:?}");
    let (name, detail) = debug.split_once('(').unwrap_or((&debug, ""));
    // `UnsupportedPseudoClassOrElement` -> "unsupported pseudo class or element".
    let mut words = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            words.push(' ');
        }
        words.extend(c.to_lowercase());
    }
    let token: String = detail.chars().filter(|c| !matches!(c, '"' | ')' | '(')).collect();
    if token.trim().is_empty() { words } else { format!("{words} ({})", token.trim()) }
}

/// The placeholder names in a template (an id template, a site's URL), in order. `{{` and `}}`
/// are not supported (ids and URLs do not need braces).
pub(crate) fn placeholders(template: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    fill_template(template, |name| {
        names.push(name.to_string());
        Some(String::new())
    })?;
    Ok(names)
}

/// Replaces every `{name}` with `lookup(name)`.
pub(crate) fn fill_template(
    template: &str,
    lookup: impl FnMut(&str) -> Option<String>,
) -> Result<String, String> {
    let mut lookup = lookup;
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err(format!("`}}` without `{{` in `{template}`"));
        }
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| format!("unclosed `{{` in `{template}`"))?;
        let name = &after[..close];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("bad placeholder `{{{name}}}` in `{template}`"));
        }
        let value = lookup(name).ok_or_else(|| format!("unknown placeholder `{{{name}}}`"))?;
        out.push_str(&value);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The variant a site file names (`[board] variant`): `auto` (the default: whatever the page
/// marks, classic without marks), or one the board must show.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum VariantSpec {
    /// Whatever the page marks.
    #[default]
    Auto,
    /// No variant marks.
    Classic,
    /// Killer cages (dashed or dotted outlines with sums).
    Killer,
    /// Jigsaw regions (thick borders).
    Jigsaw,
    /// Both diagonals (shaded or classed cells).
    X,
}

impl VariantSpec {
    /// Every name [`VariantSpec::name`] writes, in declaration order (what `--variant` takes).
    pub const NAMES: [&'static str; 5] = ["auto", "classic", "killer", "jigsaw", "x"];

    /// The name, as written in site files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            VariantSpec::Auto => "auto",
            VariantSpec::Classic => "classic",
            VariantSpec::Killer => "killer",
            VariantSpec::Jigsaw => "jigsaw",
            VariantSpec::X => "x",
        }
    }

    /// The variant named `name` (as [`VariantSpec::name`] writes it, any case).
    pub fn parse(name: &str) -> Option<VariantSpec> {
        [Self::Auto, Self::Classic, Self::Killer, Self::Jigsaw, Self::X]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[board]` table of a file: `text`'s lines, one a line.
    #[derive(Deserialize)]
    struct Table {
        board: RawBoard,
    }

    /// The board of a `[board]` table given as its lines.
    fn board(lines: &[&str]) -> Result<BoardSpec, BoardError> {
        let text = format!("[board]\n{}\n", lines.join("\n"));
        let table: Table = toml::from_str(&text).unwrap();
        BoardSpec::try_from(table.board)
    }

    /// LinkedIn's board (6x6, 3x2 boxes) with `boxes` as given.
    fn six(boxes: &str) -> Result<BoardSpec, BoardError> {
        board(&[
            "side = 6",
            &format!("boxes = {boxes:?}"),
            "cells = \".sudoku-cell\"",
            "order = \"position\"",
            "given = { class = \"sudoku-cell-prefilled\" }",
        ])
    }

    /// The error, checked to name `key`.
    fn error(board: Result<BoardSpec, BoardError>, key: &str) -> BoardError {
        let err = board.unwrap_err();
        assert_eq!(err.key(), key, "{err}");
        err
    }

    const NAME: [&str; 4] = [
        "cells = \"table#sudoku_main_board input.i3\"",
        "order = \"id\"",
        "id_template = \"c{index1}\"",
        "given = { attribute = \"readonly\" }",
    ];

    #[test]
    fn a_box_shape_that_is_not_w_by_h_is_refused_naming_boxes() {
        for bad in ["3-2", "3x", "x2", "threextwo", "3x2x1", ""] {
            let err = error(six(bad), "board.boxes");
            assert_eq!(err, BoardError::BoxText(bad.to_string()));
            assert!(err.to_string().contains("is not `WxH`"), "{err}");
        }
    }

    #[test]
    fn a_box_shape_that_does_not_tile_the_side_is_refused_naming_boxes() {
        for (bad, width, height) in [("2x2", 2, 2), ("3x3", 3, 3), ("6x0", 6, 0), ("1x1", 1, 1)] {
            let err = error(six(bad), "board.boxes");
            let shape = BoxShape { width, height };
            assert_eq!(err, BoardError::BoxesDoNotTile { shape, side: 6 });
            assert!(err.to_string().contains("do not tile a side of 6"), "{err}");
        }
        // A shape that does tile is kept as a type, and gives the geometry.
        for (ok, w, h) in [("2x3", 2, 3), ("6 X 1", 6, 1), (" 3x2 ", 3, 2)] {
            let spec = six(ok).unwrap();
            let dom = spec.dom().unwrap();
            assert_eq!(dom.boxes, Some(BoxShape { width: w, height: h }));
            assert_eq!(dom.geometry().unwrap().box_shape(), Some((w, h)));
        }
    }

    #[test]
    fn a_side_the_web_does_not_play_is_refused_naming_side() {
        let err = error(
            board(&["side = 7", "cells = \"td\"", "given = { class = \"g\" }"]),
            "board.side",
        );
        assert_eq!(err, BoardError::Side(7));
    }

    #[test]
    fn a_pixel_board_with_a_key_for_page_cells_is_refused_naming_it() {
        let canvas = ["cells = \"#game > canvas\"", "read = \"pixels\""];
        for (add, key) in [
            ("given = { class = \"x\" }", "board.given"),
            ("side = 6", "board.side"),
            ("boxes = \"3x3\"", "board.boxes"),
            ("order = \"id\"", "board.order"),
            ("id_template = \"c{index1}\"", "board.id_template"),
            ("value = \"text\"", "board.value"),
        ] {
            let err = error(board(&[canvas[0], canvas[1], add]), key);
            assert!(matches!(err, BoardError::NotForPixels { .. }), "{add}: {err:?}");
            assert!(err.to_string().contains("read = \"pixels\""), "{err}");
        }
        // The defaults written out say nothing, as before: the board still loads.
        let spec = board(&[
            canvas[0],
            canvas[1],
            "side = 9",
            "order = \"document\"",
            "value = \"value\"",
            "min_givens = 20",
        ])
        .unwrap();
        let BoardSpec::Pixels(p) = &spec else { panic!("a pixel board: {spec:?}") };
        assert_eq!((p.element.as_str(), p.min_givens), ("#game > canvas", Some(20)));
        assert_eq!(spec.min_givens_for(4), 20);
        // A Killer's cages, a jigsaw's regions and an X's diagonals are read from pixels: the
        // variant loads and is written back.
        for name in ["killer", "jigsaw", "x"] {
            let spec = board(&[canvas[0], canvas[1], &format!("variant = \"{name}\"")]).unwrap();
            assert_eq!(spec.variant().name(), name);
            assert!(spec.to_toml().contains(&format!("variant = \"{name}\"\n")), "{spec:?}");
        }
        assert_eq!(board(&canvas).unwrap().variant(), VariantSpec::Auto);
    }

    #[test]
    fn a_board_of_elements_without_a_given_marker_is_refused_naming_given() {
        let err = error(board(&NAME[..3]), "board.given");
        assert_eq!(err, BoardError::GivenMissing);
        assert!(err.to_string().starts_with("is required"), "{err}");
    }

    #[test]
    fn given_markers_are_parsed_once_and_bad_ones_name_given() {
        let with = |marker: &str| {
            let given = format!("given = {marker}");
            board(&[NAME[0], NAME[1], NAME[2], &given])
        };
        let spec = with("{ style = \" font-weight :  700 \" }").unwrap();
        let style = Style { property: "font-weight".into(), value: "700".into() };
        assert_eq!(spec.dom().unwrap().given, Given::Style(style));
        // Written back as the scripts and the file say it.
        assert!(spec.to_toml().contains("given = { style = \"font-weight: 700\" }"));
        assert_eq!(with("{ filled = true }").unwrap().dom().unwrap().given, Given::Filled);
        for (marker, want) in [
            ("{ style = \"font-weight 700\" }", BoardError::GivenStyle("font-weight 700".into())),
            ("{ style = \"color:\" }", BoardError::GivenStyle("color:".into())),
            ("{ class = \" \" }", BoardError::GivenEmpty),
            ("{ filled = false }", BoardError::FilledFalse),
        ] {
            assert_eq!(error(with(marker), "board.given"), want, "{marker}");
        }
        let unproven = board(&[NAME[0], NAME[1], NAME[2], NAME[3], "unproven = true"]);
        assert_eq!(error(unproven, "board.unproven"), BoardError::UnprovenWithMarker);
    }

    #[test]
    fn id_templates_and_min_givens_name_their_keys() {
        let err = error(board(&[NAME[0], NAME[1], NAME[3]]), "board.id_template");
        assert_eq!(err, BoardError::IdTemplateMissing);
        let err = error(
            board(&[NAME[0], NAME[1], "id_template = \"c{row}\"", NAME[3]]),
            "board.id_template",
        );
        assert!(err.to_string().contains("does not give 81 different ids"), "{err}");
        let err =
            error(board(&[NAME[0], "order = \"document\"", NAME[2], NAME[3]]), "board.id_template");
        assert_eq!(err, BoardError::IdTemplateUnused);
        let err = error(
            board(&[NAME[0], NAME[1], NAME[2], NAME[3], "min_givens = 82"]),
            "board.min_givens",
        );
        assert_eq!(err, BoardError::MinGivens(81));
        for bad in ["Game.areas()", "Game..areas", "", "1x"] {
            let line = format!("regions_state = \"{bad}\"");
            let err =
                error(board(&[NAME[0], NAME[1], NAME[2], NAME[3], &line]), "board.regions_state");
            assert_eq!(err, BoardError::RegionsState(bad.into()));
        }
        let err = error(board(&["cells = \"td[\"", NAME[3]]), "board.cells");
        assert!(err.to_string().contains("is not a valid CSS selector"), "{err}");
    }

    /// A board written out (what `sites learn` and self-healing print) loads back as the same
    /// board, for every kind of key.
    #[test]
    fn a_board_written_out_reads_back_the_same() {
        let boards = [
            six("3x2").unwrap(),
            board(&NAME).unwrap(),
            board(&["cells = \"#game > canvas\"", "read = \"pixels\"", "ready_timeout_ms = 900"])
                .unwrap(),
            board(&[
                "side = 4",
                "cells = \"rect\"",
                "value = \"overlay\"",
                "read = \"script\"",
                "given = { style = \"color: rgb(0, 0, 0)\" }",
                "min_givens = 4",
            ])
            .unwrap(),
            board(&[
                "cells = \"td\"",
                "value = { attribute = \"aria-label\" }",
                "given = { filled = true }",
                "unproven = true",
            ])
            .unwrap(),
            board(&[NAME[0], NAME[1], NAME[2], NAME[3], "regions_state = \"Game.areas\""]).unwrap(),
        ];
        for spec in boards {
            let written = spec.to_toml();
            let table: Table = toml::from_str(&written).unwrap();
            assert_eq!(BoardSpec::try_from(table.board), Ok(spec), "{written}");
        }
    }
}
