//! Site descriptions (`sites/*.toml`): the schema, loading (embedded files plus an optional
//! directory), validation, and the small template language for URLs and cell ids.
//!
//! A site that shows its board as `<input>` elements is a new TOML file and no code. The schema
//! is documented for users in `sites/README.md`; keep the two in step.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use super::spec::{
    BoardError, BoardSpec, DomSpec, Given, ID_PLACEHOLDERS, Order, PixelSpec, RawBoard, ReadMode,
    SIDE, SIDES, Style, Unproven, ValueSource,
};
use super::spec::{check_selector, fill_template, placeholders, toml_str};

/// The sites built into the binary, as `(file name, contents)`.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("demo.toml", include_str!("../../sites/demo.toml")),
    ("nytimes.toml", include_str!("../../sites/nytimes.toml")),
    ("puzzle-sudoku.com.toml", include_str!("../../sites/puzzle-sudoku.com.toml")),
    ("puzzle-jigsaw-sudoku.com.toml", include_str!("../../sites/puzzle-jigsaw-sudoku.com.toml")),
    ("sudoku.name.toml", include_str!("../../sites/sudoku.name.toml")),
    ("sudokupuzzle.org.toml", include_str!("../../sites/sudokupuzzle.org.toml")),
    ("websudoku.com.toml", include_str!("../../sites/websudoku.com.toml")),
    ("sudokuonline.eu.toml", include_str!("../../sites/sudokuonline.eu.toml")),
    ("sudoku.com.toml", include_str!("../../sites/sudoku.com.toml")),
    ("linkedin.toml", include_str!("../../sites/linkedin.toml")),
];

/// One site. `B` is its board: a [`RawBoard`] as the TOML file says it ([`RawSite`]), a
/// [`BoardSpec`] once validated ([`Site::parse`]), which is all the rest of sudobot sees.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Site<B = BoardSpec> {
    /// The name used with `--site` (defaults to the file name without `.toml`).
    #[serde(default)]
    pub name: String,
    /// One line for `sudobot sites list`.
    pub description: String,
    /// The play URL; `{difficulty}` is required, other placeholders come from `params`.
    pub url: String,
    /// Values for optional URL placeholders (`{lang}`, `{puzzle}`, ...).
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    /// `"demo"` when sudobot serves the page itself (the URL then uses `{origin}`).
    #[serde(default)]
    pub serve: Option<Served>,
    /// Difficulty names and the values put into the URL.
    pub difficulty: Difficulty,
    /// Frames to enter, outermost first: CSS selectors, or `#N` for the N-th frame (0-based).
    #[serde(default)]
    pub frames: Vec<String>,
    /// Where the cells are and how to read them.
    pub board: B,
    /// How to type the answer.
    #[serde(default)]
    pub fill: Fill,
    /// How the page confirms a solved board.
    pub completion: Completion,
    /// Overlays to dismiss and cookies to clear before reading.
    #[serde(default)]
    pub consent: Consent,
    /// A page with a "normal / candidate" input mode: how to put it in normal mode before
    /// typing, and how to see that it is.
    #[serde(default)]
    pub input_mode: Option<InputMode>,
    /// A site that needs the player's login: what its page shows instead of the board without
    /// one ([`super::login`] checks it).
    #[serde(default)]
    pub login: Option<Login>,
}

/// Putting a page in the mode where a key enters a value (not a pencil mark).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputMode {
    /// The control to click for normal mode.
    pub select: String,
    /// Matches an element once normal mode is on (checked before and after the click).
    pub active: String,
}

/// A field a site asks bots to set before submitting (puzzle-sudoku.com's hidden `#robot`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotFlag {
    /// The field.
    pub selector: String,
    /// The value to give it.
    pub value: String,
}

/// Pages sudobot serves itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Served {
    /// The embedded practice page ([`crate::web::demo`]).
    Demo,
}

/// Difficulty levels of a site.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Difficulty {
    /// The level used without `--difficulty` (a name from `levels` or a raw value).
    pub default: String,
    /// Level name -> the value put into `{difficulty}`.
    #[serde(default)]
    pub levels: BTreeMap<String, String>,
}

/// How the answer is typed.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fill {
    /// `keys` (default), `actions`, `per-cell` or `script`.
    #[serde(default)]
    pub strategy: Strategy,
    /// With `keys` or `actions`: move between cells with Tab (`tab`, default) or by clicking each
    /// (`click`, one Actions chain).
    #[serde(default)]
    pub navigate: Navigate,
}

/// Fill strategies (`[fill] strategy`, by the names in [`Strategy::NAMES`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Click the first cell, then one Element Send Keys with every key for the board (digits,
    /// Tabs): real key events, two commands, the fastest measured.
    #[default]
    Keys,
    /// One WebDriver Actions chain of real key events for the whole board (one command).
    Actions,
    /// Click each cell, then send its digit (two commands per cell; slow but plain).
    PerCell,
    /// Opt-in: set `value` by script and dispatch input/keyup/change events (untrusted events;
    /// only for sites that accept them).
    Script,
    /// Click each cell's centre with real pointer events, then press the key: cells that are
    /// not inputs (`div`, `span`, `td`, SVG) and select on click. The whole board is one
    /// Actions chain after the first cell proved that a click selects it.
    Click,
}

impl Strategy {
    /// Each strategy by its name in a site file.
    pub const NAMES: [(&'static str, Strategy); 5] = [
        ("keys", Strategy::Keys),
        ("actions", Strategy::Actions),
        ("per-cell", Strategy::PerCell),
        ("script", Strategy::Script),
        ("click", Strategy::Click),
    ];
}

impl std::str::FromStr for Strategy {
    type Err = String;

    /// A name of [`Strategy::NAMES`]; else a message naming the key and the known names.
    fn from_str(name: &str) -> Result<Strategy, String> {
        Strategy::NAMES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s).ok_or_else(|| {
            let known: Vec<&str> = Strategy::NAMES.iter().map(|(n, _)| *n).collect();
            format!("`fill.strategy`: unknown strategy `{name}` (known: {})", known.join(", "))
        })
    }
}

impl<'de> Deserialize<'de> for Strategy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Strategy, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// Moving between cells inside one Actions chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Navigate {
    /// Click the first cell, then Tab through cells in document order (fastest).
    #[default]
    Tab,
    /// Click every cell to type into (for pages whose Tab order leaves the board).
    Click,
}

/// How the page confirms the board.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Completion {
    /// A button to click once the board is filled (e.g. "How am I doing?").
    #[serde(default)]
    pub submit: Option<String>,
    /// A key to press in the last cell once the board is filled (e.g. `Enter`).
    #[serde(default)]
    pub key: Option<KeyName>,
    /// A field the site asks bots to set (it says so), set just before `submit`.
    #[serde(default)]
    pub bot_flag: Option<BotFlag>,
    /// What success looks like.
    pub success: Success,
    /// How long to wait for success, in milliseconds.
    #[serde(default = "default_completion_timeout")]
    pub timeout_ms: u64,
}

fn default_completion_timeout() -> u64 {
    5000
}

/// Keys a site may need after filling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum KeyName {
    /// The Enter key.
    Enter,
    /// The Tab key.
    Tab,
}

/// A success marker. Exactly one of `selector`, `title`, `alert` or `read_back` is set.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Success {
    /// No confirmation is known: success is every cell read back right (pages found by
    /// discovery, learned site files until someone names a marker).
    #[serde(default)]
    pub read_back: bool,
    /// An element (in the board's frame) whose text must contain `text`.
    #[serde(default)]
    pub selector: Option<String>,
    /// The page title must contain `text`.
    #[serde(default)]
    pub title: bool,
    /// A JavaScript alert whose text contains `text` (never any alert: a page's alert may say
    /// the solution is wrong); it is dismissed, which closes an alert as OK does.
    #[serde(default)]
    pub alert: bool,
    /// The text to look for (never empty, except with `read_back`).
    #[serde(default)]
    pub text: String,
}

/// Words a page uses to say the solution is wrong (lower case). A text holding one is a
/// failure, never a confirmation, even where the site's success text would match it.
pub const FAILURE_TEXTS: &[&str] = &[
    "not correct",
    "incorrect",
    "incorect",
    "wrong",
    "nu este corect",
    "greșit",
    "gresit",
    "mistake",
    "try again",
    "not solved",
    "unsolved",
];

/// The failure word `shown` holds, if any (case-insensitive).
pub fn failure_text(shown: &str) -> Option<&'static str> {
    let lower = shown.to_lowercase();
    FAILURE_TEXTS.iter().copied().find(|f| lower.contains(f))
}

impl Success {
    /// Whether `shown` (an element's text, the title or an alert's text) confirms the
    /// solution: it holds `text` and no [`FAILURE_TEXTS`] word.
    pub fn confirmed_by(&self, shown: &str) -> bool {
        let holds = if self.text.is_empty() {
            !shown.trim().is_empty()
        } else {
            shown.contains(&self.text)
        };
        holds && failure_text(shown).is_none()
    }
}

/// Things to clear away before reading.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Consent {
    /// Buttons to click when present (cookie banners), best effort, in the top document.
    #[serde(default)]
    pub dismiss: Vec<String>,
    /// Delete the site's cookies and reload first (pages that restore old progress).
    #[serde(default)]
    pub clear_cookies: bool,
}

/// Errors loading or validating site files. Messages name the file and the key.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SiteError {
    /// The TOML does not parse or does not fit the schema.
    #[error("{file}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// What toml said (it names the key and line).
        message: String,
    },
    /// A value is wrong.
    #[error("{file}: `{key}`: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// The key, dotted (`board.cells`).
        key: String,
        /// What is wrong.
        message: String,
    },
    /// A `[board]` key is wrong ([`BoardError::key`] names it).
    #[error("{file}: `{}`: {error}", error.key())]
    Board {
        /// The file.
        file: String,
        /// What is wrong, and with which key.
        error: BoardError,
    },
    /// No site by that name.
    #[error("no site named `{name}` (known: {known}); see `sudobot sites list`")]
    Unknown {
        /// What was asked for.
        name: String,
        /// The names there are.
        known: String,
    },
    /// A difficulty the site does not have.
    #[error("site `{site}` has no difficulty `{asked}` (levels: {known})")]
    BadDifficulty {
        /// The site.
        site: String,
        /// What was asked for.
        asked: String,
        /// Its levels.
        known: String,
    },
    /// The sites directory cannot be read.
    // The cause is part of the message, not a `source`: an error chain printed whole would
    // say it twice.
    #[error("cannot read sites directory {}: {error}", dir.display())]
    Dir {
        /// The directory.
        dir: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A site file in the sites directory cannot be read.
    #[error("cannot read site file {}: {error}", file.display())]
    File {
        /// The file.
        file: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// A site file as written, before its board is validated.
pub type RawSite = Site<RawBoard>;

impl<B> Site<B> {
    /// The same site with `board` (a raw board once validated).
    fn with_board<C>(self, board: C) -> Site<C> {
        Site {
            name: self.name,
            description: self.description,
            url: self.url,
            params: self.params,
            serve: self.serve,
            difficulty: self.difficulty,
            frames: self.frames,
            board,
            fill: self.fill,
            completion: self.completion,
            consent: self.consent,
            input_mode: self.input_mode,
            login: self.login,
        }
    }
}

/// A validated site together with the file it came from.
#[derive(Clone, Debug)]
pub struct LoadedSite {
    /// The site.
    pub site: Site,
    /// `embedded:<file>` or the path.
    pub origin: String,
}

/// The error for a key of `file` that is not valid: `bad(key, message)`.
fn invalid_in(file: &str) -> impl Fn(&str, String) -> SiteError + '_ {
    move |key, message| SiteError::Invalid { file: file.to_string(), key: key.to_string(), message }
}

impl Site {
    /// Parses and validates one site file; `file` names it in errors and gives the default name.
    pub fn parse(file: &str, text: &str) -> Result<Site, SiteError> {
        let mut raw: RawSite = toml::from_str(text)
            .map_err(|e| SiteError::Parse { file: file.to_string(), message: one_line(&e) })?;
        if raw.name.is_empty() {
            let base = Path::new(file).file_name().and_then(|s| s.to_str()).unwrap_or(file);
            raw.name = base.strip_suffix(".toml").unwrap_or(base).to_string();
        }
        let board = BoardSpec::try_from(raw.board.clone())
            .map_err(|error| SiteError::Board { file: file.to_string(), error })?;
        let site = raw.with_board(board);
        site.validate(file)?;
        Ok(site)
    }

    fn validate(&self, file: &str) -> Result<(), SiteError> {
        self.validate_url(file)?;
        if self.board.is_pixels() {
            self.validate_pixel_site(file)?;
        }
        self.validate_completion(file)?;
        let bad = invalid_in(file);
        if let Some(mode) = &self.input_mode {
            check_selector(&mode.select).map_err(|m| bad("input_mode.select", m))?;
            check_selector(&mode.active).map_err(|m| bad("input_mode.active", m))?;
        }
        if let Some(flag) = &self.completion.bot_flag {
            check_selector(&flag.selector).map_err(|m| bad("completion.bot_flag.selector", m))?;
        }
        if let Some(login) = &self.login {
            if login.wall.is_empty() {
                return Err(bad("login.wall", "is empty".into()));
            }
            for (i, s) in login.wall.iter().enumerate() {
                check_selector(s).map_err(|m| bad(&format!("login.wall[{i}]"), m))?;
            }
        }
        for (i, s) in self.consent.dismiss.iter().enumerate() {
            check_selector(s).map_err(|m| bad(&format!("consent.dismiss[{i}]"), m))?;
        }
        Ok(())
    }

    /// The URL's placeholders, the difficulty levels and the frames.
    fn validate_url(&self, file: &str) -> Result<(), SiteError> {
        let bad = invalid_in(file);
        // URL placeholders: {difficulty} is required, {origin} only for served pages, the rest
        // from `params`.
        let names = placeholders(&self.url).map_err(|m| bad("url", m))?;
        if !names.iter().any(|n| n == "difficulty") && self.difficulty.levels.len() > 1 {
            return Err(bad("url", "has no `{difficulty}` placeholder but several levels".into()));
        }
        for name in &names {
            let known = name == "difficulty"
                || (name == "origin" && self.serve.is_some())
                || self.params.contains_key(name);
            if !known {
                return Err(bad(
                    "url",
                    format!("unknown placeholder `{{{name}}}` (not in `params`)"),
                ));
            }
        }
        if self.serve.is_some() && !names.iter().any(|n| n == "origin") {
            return Err(bad("url", "a served site's URL must start with `{origin}`".into()));
        }
        if self.difficulty.default.is_empty() && !self.difficulty.levels.is_empty() {
            return Err(bad("difficulty.default", "is empty".into()));
        }
        if !self.difficulty.levels.is_empty()
            && !self.difficulty.levels.contains_key(&self.difficulty.default)
            && !self.difficulty.levels.values().any(|v| v == &self.difficulty.default)
        {
            return Err(bad(
                "difficulty.default",
                format!("`{}` is not one of the levels", self.difficulty.default),
            ));
        }
        for (i, frame) in self.frames.iter().enumerate() {
            if frame_index(frame).is_none() {
                check_selector(frame).map_err(|m| bad(&format!("frames[{i}]"), m))?;
            }
        }
        Ok(())
    }

    /// The completion: the submit button and exactly one success marker, with a text that is
    /// not a failure word.
    fn validate_completion(&self, file: &str) -> Result<(), SiteError> {
        let bad = invalid_in(file);
        if let Some(s) = &self.completion.submit {
            check_selector(s).map_err(|m| bad("completion.submit", m))?;
        }
        let success = &self.completion.success;
        let kinds = usize::from(success.selector.is_some())
            + usize::from(success.title)
            + usize::from(success.alert)
            + usize::from(success.read_back);
        if kinds != 1 {
            return Err(bad(
                "completion.success",
                "set exactly one of `selector`, `title = true`, `alert = true` or \
                 `read_back = true`"
                    .into(),
            ));
        }
        if let Some(s) = &success.selector {
            check_selector(s).map_err(|m| bad("completion.success.selector", m))?;
        }
        if success.alert && success.text.trim().is_empty() {
            return Err(bad(
                "completion.success.text",
                "is empty: an alert confirms only by its text (a page's alert may say the \
                 solution is wrong)"
                    .into(),
            ));
        }
        if !success.read_back && success.text.is_empty() {
            return Err(bad("completion.success.text", "is empty".into()));
        }
        if let Some(word) = failure_text(&success.text) {
            return Err(bad(
                "completion.success.text",
                format!("holds {word:?}, a word pages use to say the solution is wrong"),
            ));
        }
        Ok(())
    }

    /// What a board read from pixels rules out beyond its `[board]` table: a key pressed in a
    /// cell element, and an input mode.
    fn validate_pixel_site(&self, file: &str) -> Result<(), SiteError> {
        if self.completion.key.is_some() {
            return Err(SiteError::Invalid {
                file: file.to_string(),
                key: "completion.key".into(),
                message: "is not supported with `read = \"pixels\"` (there is no cell \
                          element to press it in); use `submit`"
                    .into(),
            });
        }
        if self.input_mode.is_some() {
            return Err(SiteError::Invalid {
                file: file.to_string(),
                key: "input_mode".into(),
                message: "is not supported with `read = \"pixels\"`".into(),
            });
        }
        Ok(())
    }

    /// This site with the board (and frames) another site found on the page: what self-healing
    /// plays when this site's board does not match. The URL, levels, consent and completion stay
    /// this site's; cells that are not text fields are clicked.
    pub fn healed_by(&self, found: &Site) -> Site {
        let mut healed = self.clone();
        healed.frames = found.frames.clone();
        healed.board = found.board.clone();
        // The variant the site expects still holds on the board found instead.
        let variant = self.board.variant();
        match &mut healed.board {
            BoardSpec::Dom(now) => {
                now.variant = variant;
                if let Some(was) = self.board.dom() {
                    now.regions_state = was.regions_state.clone();
                }
            }
            BoardSpec::Pixels(now) => now.variant = variant,
        }
        if found.fill.strategy == Strategy::Click {
            healed.fill = found.fill.clone();
        }
        healed
    }

    /// The `frames` line and the `[board]` table as TOML (what `sites learn` and self-healing
    /// print).
    pub fn board_toml(&self) -> String {
        let mut out = String::new();
        if !self.frames.is_empty() {
            out.push_str(&format!("frames = {}\n\n", toml_list(&self.frames)));
        }
        out.push_str(&self.board.to_toml());
        if self.fill.strategy == Strategy::Click {
            out.push_str("\n[fill]\nstrategy = \"click\"\n");
        }
        out
    }

    /// The whole site as a TOML file that [`Site::parse`] reads back (`sudobot sites learn`).
    pub fn to_toml(&self) -> String {
        let mut out = format!(
            "name = {}\ndescription = {}\nurl = {}\n",
            toml_str(&self.name),
            toml_str(&self.description),
            toml_str(&self.url)
        );
        if !self.frames.is_empty() {
            out.push('\n');
        }
        out.push_str(&self.board_toml().replacen(
            "[board]",
            "\n[board]",
            usize::from(self.frames.is_empty()),
        ));
        let d = &self.difficulty;
        out.push_str(&format!(
            "\n[difficulty]\ndefault = {}\nlevels = {{{}}}\n",
            toml_str(&d.default),
            d.levels
                .iter()
                .map(|(k, v)| format!(" {} = {} ", toml_str(k), toml_str(v)))
                .collect::<Vec<_>>()
                .join(",")
        ));
        let c = &self.completion;
        out.push_str("\n[completion]\n");
        if let Some(sub) = &c.submit {
            out.push_str(&format!("submit = {}\n", toml_str(sub)));
        }
        let success = &c.success;
        let marker = if success.read_back {
            "{ read_back = true }".to_string()
        } else if let Some(sel) = &success.selector {
            format!("{{ selector = {}, text = {} }}", toml_str(sel), toml_str(&success.text))
        } else if success.title {
            format!("{{ title = true, text = {} }}", toml_str(&success.text))
        } else {
            format!("{{ alert = true, text = {} }}", toml_str(&success.text))
        };
        out.push_str(&format!("success = {marker}\ntimeout_ms = {}\n", c.timeout_ms));
        out
    }

    /// The board's side (a board read from pixels: [`SIDE`] until the image says).
    pub fn side(&self) -> usize {
        self.board.side()
    }

    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        self.side() * self.side()
    }

    /// The givens needed before the board counts as ready.
    pub fn min_givens(&self) -> usize {
        self.board.min_givens_for(self.side())
    }

    /// The givens needed on a board of `side` (a board read from pixels has the side it is
    /// seen to have): `board.min_givens`, else 17 on 9x9 and a sixth of the cells otherwise.
    pub fn min_givens_for(&self, side: usize) -> usize {
        self.board.min_givens_for(side)
    }

    /// The board's shape: `board.boxes` or the usual boxes for the side (a board read from
    /// pixels: the usual 9x9 until the image says).
    pub fn geometry(&self) -> Result<crate::grid::Geometry, String> {
        match &self.board {
            BoardSpec::Dom(d) => d.geometry(),
            BoardSpec::Pixels(_) => crate::grid::Geometry::for_side(SIDE),
        }
        .map_err(|e| e.to_string())
    }

    /// The id of the cell at a reading-order index (with `order = "id"`).
    pub fn cell_id(&self, index: usize) -> Option<String> {
        self.board.dom()?.cell_id(index)
    }

    /// The value put into `{difficulty}` for a level name or raw value (`None`: the default).
    pub fn difficulty_value(&self, asked: Option<&str>) -> Result<String, SiteError> {
        let asked = asked.unwrap_or(&self.difficulty.default);
        let levels = &self.difficulty.levels;
        if levels.is_empty() {
            return Ok(asked.to_string());
        }
        if let Some(v) = levels.get(asked) {
            return Ok(v.clone());
        }
        if levels.values().any(|v| v == asked) {
            return Ok(asked.to_string());
        }
        let known = levels.iter().map(|(k, v)| format!("{k} ({v})")).collect::<Vec<_>>().join(", ");
        Err(SiteError::BadDifficulty { site: self.name.clone(), asked: asked.to_string(), known })
    }

    /// The play URL for a difficulty value; `origin` replaces `{origin}` for served sites.
    pub fn url_for(&self, difficulty: &str, origin: Option<&str>) -> String {
        let lookup = |name: &str| match name {
            "difficulty" => Some(difficulty.to_string()),
            "origin" => origin.map(str::to_string),
            _ => self.params.get(name).cloned(),
        };
        // Validation checked every placeholder, so this only fails for `{origin}` without one.
        fill_template(&self.url, lookup).unwrap_or_else(|_| self.url.clone())
    }

    /// The reading-order ids of all cells, or `None` for document or position order (and for
    /// a board read from pixels).
    pub fn cell_ids(&self) -> Option<Vec<String>> {
        self.board.dom()?.cell_ids()
    }
}

fn toml_list(items: &[String]) -> String {
    format!("[{}]", items.iter().map(|s| toml_str(s)).collect::<Vec<_>>().join(", "))
}

/// `#3` -> frame index 3.
pub fn frame_index(frame: &str) -> Option<u16> {
    frame.strip_prefix('#').and_then(|n| n.parse().ok())
}

fn one_line(e: &toml::de::Error) -> String {
    e.to_string().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// All sites: the embedded ones, then `*.toml` files from `dir`, which replace embedded sites of
/// the same name and add new ones. Every file is validated; the first error stops loading.
pub fn load_all(dir: Option<&Path>) -> Result<Vec<LoadedSite>, SiteError> {
    let mut sites: Vec<LoadedSite> = Vec::new();
    let mut add =
        |loaded: LoadedSite| match sites.iter_mut().find(|s| s.site.name == loaded.site.name) {
            Some(slot) => *slot = loaded,
            None => sites.push(loaded),
        };
    for (file, text) in EMBEDDED {
        add(LoadedSite { site: Site::parse(file, text)?, origin: format!("embedded:{file}") });
    }
    for path in dir_files(dir)? {
        let text = super::config::read_small_file(&path)
            .map_err(|error| SiteError::File { file: path.clone(), error })?;
        let file = path.display().to_string();
        add(LoadedSite { site: Site::parse(&file, &text)?, origin: file });
    }
    Ok(sites)
}

/// One checked file: where it came from, and the site name or the error.
pub type Checked = (String, Result<String, SiteError>);

/// Validates every site file and returns one result per file (for `sudobot sites check`).
pub fn check_all(dir: Option<&Path>) -> Result<Vec<Checked>, SiteError> {
    let mut out = Vec::new();
    for (file, text) in EMBEDDED {
        out.push((format!("embedded:{file}"), Site::parse(file, text).map(|s| s.name)));
    }
    for path in dir_files(dir)? {
        let file = path.display().to_string();
        let result = match super::config::read_small_file(&path) {
            Ok(text) => Site::parse(&file, &text).map(|s| s.name),
            Err(error) => Err(SiteError::File { file: path.clone(), error }),
        };
        out.push((file, result));
    }
    Ok(out)
}

fn dir_files(dir: Option<&Path>) -> Result<Vec<PathBuf>, SiteError> {
    let Some(dir) = dir else {
        return Ok(Vec::new());
    };
    let entries =
        std::fs::read_dir(dir).map_err(|error| SiteError::Dir { dir: dir.to_path_buf(), error })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

/// Finds a site by name among `load_all(dir)`.
pub fn find(name: &str, dir: Option<&Path>) -> Result<LoadedSite, SiteError> {
    let sites = load_all(dir)?;
    let known = sites.iter().map(|s| s.site.name.as_str()).collect::<Vec<_>>().join(", ");
    sites
        .into_iter()
        .find(|s| s.site.name == name)
        .ok_or_else(|| SiteError::Unknown { name: name.to_string(), known })
}

/// `[login]` of a site file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Login {
    /// CSS selectors of what the page shows instead of the board without a login (a sign-in
    /// form, a "join to play" wall); any one of them, visible, means no session.
    pub wall: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_sites_are_valid() {
        let sites = load_all(None).unwrap();
        let names: Vec<_> = sites.iter().map(|s| s.site.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "demo",
                "nytimes",
                "puzzle-sudoku.com",
                "puzzle-jigsaw-sudoku.com",
                "sudoku.name",
                "sudokupuzzle.org",
                "websudoku.com",
                "sudokuonline.eu",
                "sudoku.com",
                "linkedin"
            ]
        );
    }

    #[test]
    fn a_failure_word_is_never_a_confirmation() {
        let alert = |text: &str| Success { alert: true, text: text.into(), ..Success::default() };
        assert!(alert("Felicit").confirmed_by("Felicitări! Ai rezolvat corect!"));
        assert!(!alert("corect").confirmed_by("Solutia nu este corecta."));
        assert!(!alert("Felicit").confirmed_by("Solutia nu este corecta."));
        assert!(!alert("solved").confirmed_by("Not solved yet"));
        assert_eq!(failure_text("Soluția nu este corectă."), Some("nu este corect"));
        assert_eq!(failure_text("That is WRONG"), Some("wrong"));
        assert_eq!(failure_text("Răspuns GREȘIT"), Some("greșit"));
        assert_eq!(failure_text("Congratulations! You solved this Sudoku!"), None);
        // A site file whose alert confirms by any text, or by a failure word, is refused.
        let file = include_str!("../../sites/sudokuonline.eu.toml");
        for (text, says) in [("", "is empty"), ("incorrect", "holds \"incorrect\"")] {
            let bad = file.replace("text = \"Felicit\"", &format!("text = {text:?}"));
            let err = Site::parse("x.toml", &bad).unwrap_err().to_string();
            assert!(err.starts_with("x.toml: `completion.success.text`: "), "{err}");
            assert!(err.contains(says), "{err}");
        }
    }

    #[test]
    fn websudoku_ids_are_column_first() {
        let site = find("websudoku.com", None).unwrap().site;
        // r1c2 (index 1) is column 1, row 0.
        assert_eq!(site.cell_id(1).as_deref(), Some("f10"));
        assert_eq!(site.cell_id(9).as_deref(), Some("f01"));
    }

    #[test]
    fn errors_name_file_and_key() {
        let text = include_str!("../../sites/sudoku.name.toml").replace("c{index1}", "c{cell}");
        let err = Site::parse("x.toml", &text).unwrap_err().to_string();
        assert!(
            err.starts_with("x.toml: `board.id_template`: unknown placeholder `{cell}`"),
            "{err}"
        );
        let text = include_str!("../../sites/sudoku.name.toml").replace("input.i3", "input..i3");
        let err = Site::parse("x.toml", &text).unwrap_err().to_string();
        assert!(err.starts_with("x.toml: `board.cells`:"), "{err}");
        let text = include_str!("../../sites/sudoku.name.toml").replace("input.i3", "input:bogus");
        let err = Site::parse("x.toml", &text).unwrap_err().to_string();
        assert!(err.contains("is not a valid CSS selector: unsupported pseudo"), "{err}");
        assert!(!err.contains("report this"), "{err}");
        let err = Site::parse("x.toml", "description = 1").unwrap_err().to_string();
        assert!(err.starts_with("x.toml: "), "{err}");
    }

    #[test]
    fn pixel_boards_name_one_element_and_no_dom_keys() {
        let site = find("sudoku.com", None).unwrap().site;
        assert!(site.board.is_pixels());
        assert_eq!(site.board.cells(), "#game > canvas");
        assert_eq!(site.difficulty_value(Some("master")).unwrap(), "evil");
        assert_eq!(site.url_for("evil", None), "https://sudoku.com/evil/");
        // The written-out board reads back the same.
        let again = Site::parse("again.toml", &site.to_toml()).unwrap();
        assert_eq!(again.board, site.board);
        let text = include_str!("../../sites/sudoku.com.toml");
        for (add, key) in [
            ("given = { class = \"x\" }", "board.given"),
            ("side = 6", "board.side"),
            ("boxes = \"3x3\"", "board.boxes"),
            ("order = \"position\"", "board.order"),
            ("id_template = \"c{index1}\"", "board.id_template"),
            ("value = \"text\"", "board.value"),
        ] {
            let bad = text.replace("read = \"pixels\"", &format!("read = \"pixels\"\n{add}"));
            let err = Site::parse("x.toml", &bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("x.toml: `{key}`:")), "{add}: {err}");
            assert!(err.contains("pixels"), "{err}");
        }
        // A board of elements still needs its given marker.
        let text = include_str!("../../sites/sudoku.name.toml");
        let given = text.lines().find(|l| l.starts_with("given")).unwrap();
        let err = Site::parse("x.toml", &text.replace(given, "")).unwrap_err().to_string();
        assert!(err.starts_with("x.toml: `board.given`: is required"), "{err}");
    }

    /// `unproven = true` (what `sites learn` writes when nothing proves the givens) makes every
    /// filled cell fixed when the file is played, reads back the same, and goes with no marker
    /// that claims to prove the givens.
    #[test]
    fn an_unproven_board_is_said_in_the_file_and_read_back() {
        let text = include_str!("../../sites/sudokupuzzle.org.toml");
        let given = text.lines().find(|l| l.starts_with("given")).unwrap();
        let unproven = text.replace(given, "given = { filled = true }\nunproven = true");
        let site = Site::parse("x.toml", &unproven).unwrap();
        assert!(site.board.unproven().is_some());
        assert!(site.to_toml().contains("unproven = true"), "{}", site.to_toml());
        let again = Site::parse("again.toml", &site.to_toml()).unwrap();
        assert!(again.board.unproven().is_some());
        // Without the line, a `filled` board trusts its marker as before.
        let plain = text.replace(given, "given = { filled = true }");
        assert!(Site::parse("x.toml", &plain).unwrap().board.unproven().is_none());
        let both = text.replace(given, "given = { class = \"x\" }\nunproven = true");
        let err = Site::parse("x.toml", &both).unwrap_err().to_string();
        assert!(err.starts_with("x.toml: `board.unproven`:"), "{err}");
    }

    /// A `[board]` error names the file and the key; every shipped board written out loads back
    /// the same.
    #[test]
    fn board_errors_name_the_file_and_the_key() {
        let text = include_str!("../../sites/linkedin.toml").replace("\"3x2\"", "\"3x3\"");
        let err = Site::parse("bad.toml", &text).unwrap_err();
        assert!(
            err.to_string().starts_with("bad.toml: `board.boxes`: `3x3`: boxes of 3x3 do not tile"),
            "{err}"
        );
        let SiteError::Board { file, error } = err else { panic!("not a board error: {err:?}") };
        assert_eq!((file.as_str(), error.key()), ("bad.toml", "board.boxes"));
        #[derive(Deserialize)]
        struct Table {
            board: RawBoard,
        }
        for (file, text) in EMBEDDED {
            let site = Site::parse(file, text).unwrap();
            let written = site.board.to_toml();
            let table: Table = toml::from_str(&written).unwrap();
            assert_eq!(BoardSpec::try_from(table.board), Ok(site.board), "{file}:\n{written}");
        }
    }

    #[test]
    fn an_unknown_strategy_is_refused_naming_the_key() {
        let text = include_str!("../../sites/linkedin.toml");
        let bad = text.replace("strategy = \"click\"", "strategy = \"telepathy\"");
        let err = Site::parse("bad.toml", &bad).unwrap_err().to_string();
        assert!(err.starts_with("bad.toml: "), "{err}");
        assert!(err.contains("strategy = \"telepathy\""), "the key and value are shown: {err}");
        assert!(err.contains("`fill.strategy`: unknown strategy `telepathy`"), "{err}");
        assert!(err.contains("(known: keys, actions, per-cell, script, click)"), "{err}");
        for (name, want) in Strategy::NAMES {
            let text = text.replace("strategy = \"click\"", &format!("strategy = \"{name}\""));
            assert_eq!(Site::parse("ok.toml", &text).unwrap().fill.strategy, want);
        }
    }

    #[test]
    fn unknown_difficulty_lists_levels() {
        let site = find("websudoku.com", None).unwrap().site;
        assert_eq!(site.difficulty_value(Some("evil")).unwrap(), "4");
        assert_eq!(site.difficulty_value(Some("2")).unwrap(), "2");
        let err = site.difficulty_value(Some("9")).unwrap_err().to_string();
        assert!(err.contains("easy (1)"), "{err}");
    }
}
