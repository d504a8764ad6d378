//! Boards drawn on a canvas (`read = "pixels"`, and canvases found by discovery): the element's
//! screenshot is read by [`crate::pixels`], each cell is clicked at its centre (image pixels
//! mapped to CSS pixels: screenshot size against the element's rectangle, which covers any
//! devicePixelRatio) and its digit sent as a real key; then the board is screenshot and read
//! again until every cell shows the solution.
//!
//! Nothing is typed unless the read is certain and the solution unique: a board with uncertain
//! cells is played only when the board without them still has exactly one solution, and those
//! cells are never typed into. Pages such as sudoku.com end the game after a few mistakes, so
//! the first key is proven (the cell must show it) before the rest are sent.

use std::time::{Duration, Instant};

use thirtyfour::prelude::*;

use super::{Back, BoardSource, Finished, Proof, Seen, Settle, Typed};
use crate::grid::{Cage, Cell, Grid};
use crate::pixels::killer::{self, KillerError, KillerRead};
use crate::pixels::{self, BoardRead, CellKind, PixelError, Puzzle, Rules, Uncertain};
use crate::web::answer;
use crate::web::error::{PlayError, is_session_lost, short};
use crate::web::fill::Target;
use crate::web::options::{Outcome, PlayOptions};
use crate::web::page;
use crate::web::poll::{SETTLE, Waited, poll};
use crate::web::read::{PageBoard, symbol_key};
use crate::web::site::{Site, Success};
use crate::web::spec::BoardSpec;
use crate::web::variant::{Found, VariantError, VariantSpec};

/// A board drawn on the element `site` names, on the page `driver` shows.
pub(crate) struct CanvasBoard<'a> {
    driver: &'a WebDriver,
    site: &'a Site,
    options: &'a PlayOptions,
    /// The element and the shot the board is played from (after `read`).
    seen: Option<CanvasRead>,
}

impl<'a> CanvasBoard<'a> {
    /// The canvas `site` describes, on the page `driver` shows (its frames entered).
    pub(crate) fn new(driver: &'a WebDriver, site: &'a Site, options: &'a PlayOptions) -> Self {
        CanvasBoard { driver, site, options, seen: None }
    }

    /// The board as read; an error before the first read (never, in the story).
    fn canvas(&self) -> Result<&CanvasRead, PlayError> {
        self.seen.as_ref().ok_or_else(|| PlayError::Logic("the canvas was never read".into()))
    }
}

impl BoardSource for CanvasBoard<'_> {
    fn success(&self) -> &Success {
        &self.site.completion.success
    }

    async fn read(&mut self, _again: bool) -> Result<Seen, PlayError> {
        let bound = self
            .site
            .board
            .ready_timeout_ms()
            .map(Duration::from_millis)
            .unwrap_or(self.options.element_timeout);
        let canvas = read(self.driver, self.site, bound).await?;
        let seen = seen_of(&canvas.shot, &canvas.selector, self.site.board.variant())?;
        self.seen = Some(canvas);
        Ok(seen)
    }

    async fn mistakes(&mut self, seen: &Seen) -> Option<PlayError> {
        let canvas = self.seen.as_ref()?;
        Some(mistakes_of(&canvas.shot, seen))
    }

    async fn type_cells(
        &mut self,
        _seen: &Seen,
        targets: &[Target],
        notes: &[Vec<String>],
        _outcome: &mut Outcome,
    ) -> Result<Typed, PlayError> {
        type_all(self.driver, self.canvas()?, targets, notes, self.options).await?;
        Ok(Typed::Done)
    }

    async fn read_back(
        &mut self,
        seen: &Seen,
        _targets: &[Target],
        solution: &Grid,
    ) -> Result<Back, PlayError> {
        verify(self.site, self.canvas()?, solution, &seen.unsure).await?;
        Ok(Back::Right)
    }

    async fn retype(&mut self, _seen: &Seen, cells: &[Target]) -> Result<(), PlayError> {
        // A canvas reads back by waiting for every cell (never [`Back::Dropped`]); a cell typed
        // again is clicked and keyed again.
        let canvas = self.canvas()?;
        type_cells(self.driver, &canvas.el, &canvas.shot, cells).await.map_err(PlayError::Typing)
    }

    fn finished(&mut self) -> Finished {
        // A dialog met while typing on a canvas stops the run; no marker is read before.
        Finished::default()
    }

    async fn confirm(&mut self, _seen: &Seen) -> Result<String, PlayError> {
        let completion = &self.site.completion;
        if completion.success.read_back && completion.submit.is_none() {
            return Ok(String::new());
        }
        page::await_confirmation(self.driver, self.site, None, None).await
    }
}

/// Between two screenshots of a wait.
const TICK: Duration = Duration::from_millis(30);

/// Image pixels to CSS pixels: the element's size on the page against its screenshot's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mapping {
    /// The element's width in CSS pixels.
    pub css_width: f64,
    /// The element's height in CSS pixels.
    pub css_height: f64,
    /// The screenshot's width in image pixels.
    pub image_width: usize,
    /// The screenshot's height in image pixels.
    pub image_height: usize,
}

impl Mapping {
    /// Image pixels per CSS pixel, across and down (the devicePixelRatio where the element is
    /// drawn 1:1).
    pub fn ratio(&self) -> (f64, f64) {
        (
            self.image_width as f64 / self.css_width.max(f64::MIN_POSITIVE),
            self.image_height as f64 / self.css_height.max(f64::MIN_POSITIVE),
        )
    }

    /// The offset of image pixel (`x`, `y`) from the element's centre in CSS pixels, rounded
    /// (what a WebDriver pointer move to an element takes), clamped inside the element.
    pub fn offset(&self, x: usize, y: usize) -> (i64, i64) {
        let (rx, ry) = self.ratio();
        // Inside the element by a pixel; a rectangle under 2 pixels gets its centre.
        let inside = |v: f64, half: f64| {
            if half > 1.0 { v.clamp(-half + 1.0, half - 1.0) } else { 0.0 }
        };
        let dx = inside((x as f64 + 0.5) / rx - self.css_width / 2.0, self.css_width / 2.0);
        let dy = inside((y as f64 + 0.5) / ry - self.css_height / 2.0, self.css_height / 2.0);
        (dx.round() as i64, dy.round() as i64)
    }
}

/// One look at the board: its read and where it lies.
#[derive(Clone, Debug)]
pub struct Shot {
    /// The board as read (a Killer's cells without its outlines and sums).
    pub read: BoardRead,
    /// The Killer cages the board shows (`Ok(None)`: no outlines, a classic board), or why the
    /// outlines seen do not make cages exactly.
    pub cages: Result<Option<Vec<Cage>>, KillerError>,
    /// What the Killer read saw, for `-v`.
    pub notes: Vec<String>,
    /// Image to CSS pixels.
    pub mapping: Mapping,
    /// Screenshot (the WebDriver command and PNG transfer) and recognition (decode and read)
    /// times.
    pub screenshot: Duration,
    /// Decoding and reading.
    pub recognition: Duration,
}

impl Shot {
    /// The board as a page board: certain values, every one of them fixed (the ink colour that
    /// tells givens from entries is only a hint: see [`Shot::ink_hint`]); uncertain cells blank.
    pub fn page_board(&self) -> PageBoard {
        let side = self.read.board.side;
        let raw = self
            .read
            .cells
            .iter()
            .map(|c| match c.value {
                Some(v) if c.is_certain() => symbol_key(v).to_string(),
                _ => String::new(),
            })
            .collect();
        let given = self.read.cells.iter().map(|c| c.is_certain() && c.value.is_some()).collect();
        PageBoard { side, raw, given, dom_order: (0..side * side).collect() }
    }

    /// The cells whose ink reads as a given's: a hint to name the player's mistakes with, never
    /// a reason to type into a filled cell.
    pub fn ink_hint(&self) -> Vec<bool> {
        self.read.cells.iter().map(|c| c.is_certain() && c.kind == CellKind::Given).collect()
    }

    /// The offset of a cell's centre from the element's centre, in CSS pixels.
    pub fn cell_offset(&self, index: usize) -> Option<(i64, i64)> {
        let side = self.read.board.side;
        let (x, y) = self.read.board.cell_centre(index / side, index % side)?;
        Some(self.mapping.offset(x, y))
    }
}

/// Why one look failed.
#[derive(Debug)]
enum ShotError {
    /// A WebDriver command failed.
    Driver(&'static str, WebDriverError),
    /// The pixels hold no readable board.
    Pixels(PixelError),
}

impl ShotError {
    fn into_play(self, selector: &str) -> PlayError {
        match self {
            ShotError::Driver(step, source) => {
                PlayError::WebDriver { step, selector: Some(selector.to_string()), source }
            }
            ShotError::Pixels(source) => {
                PlayError::Pixels { selector: selector.to_string(), source, note: String::new() }
            }
        }
    }
}

/// Screenshots the element and reads it.
async fn shoot(element: &WebElement) -> Result<Shot, ShotError> {
    let t = Instant::now();
    // The two commands overlap (their HTTP round trips, at least).
    let (rect, png) = tokio::join!(element.rect(), element.screenshot_as_png());
    let rect = rect.map_err(|e| ShotError::Driver("measuring the board", e))?;
    let png = png.map_err(|e| ShotError::Driver("taking a screenshot of the board", e))?;
    let screenshot = t.elapsed();
    let t = Instant::now();
    let image = pixels::decode(&png).map_err(ShotError::Pixels)?;
    let view = image.view().map_err(ShotError::Pixels)?;
    let KillerRead { read, cages, notes } = killer::read(view).map_err(ShotError::Pixels)?;
    let recognition = t.elapsed();
    let mapping = Mapping {
        css_width: rect.width,
        css_height: rect.height,
        image_width: image.width,
        image_height: image.height,
    };
    tracing::debug!(
        screenshot_ms = screenshot.as_millis() as u64,
        recognition_ms = recognition.as_millis() as u64,
        image = %format!("{}x{}", image.width, image.height),
        css = %format!("{:.0}x{:.0}", rect.width, rect.height),
        "canvas read"
    );
    Ok(Shot { read, cages, notes, mapping, screenshot, recognition })
}

async fn element(driver: &WebDriver, selector: &str) -> Result<WebElement, ShotError> {
    driver.find(By::Css(selector)).await.map_err(|e| ShotError::Driver("finding the board", e))
}

/// Finds the element and reads it.
async fn look(driver: &WebDriver, selector: &str) -> Result<(WebElement, Shot), ShotError> {
    let el = element(driver, selector).await?;
    let shot = shoot(&el).await?;
    Ok((el, shot))
}

/// Waits (bounded) until the element shows a board with enough certain givens and no
/// uncertain cell, or one that reads the same for [`SETTLE`].
async fn wait_board(
    driver: &WebDriver,
    site: &Site,
    bound: Duration,
) -> Result<(WebElement, Shot), PlayError> {
    let selector = site.board.cells();
    let mut settle = Settle::default();
    let mut failed = None;
    let looked = poll(bound, TICK, "the board's pixels", async |elapsed| {
        match look(driver, selector).await {
            Ok((el, shot)) => {
                let givens = shot.page_board().givens();
                let enough = givens >= min_givens(site, &shot);
                let steady = settle.settled(shot.read.to_string(), givens);
                let certain = enough && shot.read.uncertain().is_empty();
                // At the bound, the board is taken as it reads.
                let done = certain || steady || elapsed >= bound;
                Ok(done.then_some((el, shot)))
            }
            Err(ShotError::Driver(step, e)) if is_session_lost(&e) => {
                Err(ShotError::Driver(step, e).into_play(selector))
            }
            // Region borders that make no regions, or diagonal marks that make no X: the
            // board's own drawing, refused now.
            Err(ShotError::Pixels(e @ (PixelError::Regions { .. } | PixelError::Diagonals(_)))) => {
                Err(ShotError::Pixels(e).into_play(selector))
            }
            Err(e) => {
                failed = Some(e);
                Ok(None)
            }
        }
    })
    .await;
    match looked {
        Ok(found) => Ok(found),
        Err(Waited::Stopped(e)) => Err(e),
        Err(Waited::Out(waited)) => Err(match failed.map(|e| e.into_play(selector)) {
            Some(PlayError::Pixels { selector, source, .. }) => PlayError::Pixels {
                selector,
                source,
                note: format!(" (looked for {:.1} s)", waited.as_secs_f64()),
            },
            Some(other) => other,
            None => PlayError::NotReady {
                cells: site.cell_count(),
                mismatch: false,
                waited,
                detail: format!("`{selector}` was never read"),
                min_givens: site.min_givens(),
            },
        }),
    }
}

/// The givens a read must show before it is played: `board.min_givens`, else none on a Killer
/// (its cages may be all it gives) and the usual count on a classic board.
fn min_givens(site: &Site, shot: &Shot) -> usize {
    match &site.board {
        BoardSpec::Pixels(p) if p.min_givens.is_none() && matches!(shot.cages, Ok(Some(_))) => 0,
        _ => site.min_givens_for(shot.read.board.side),
    }
}

/// The variant `shot` shows: Killer cages read exactly, jigsaw regions, none (classic), or
/// outlines refused with the reason; a board that is not the site's `spec` is refused too.
/// `-v` says which variant was found and why.
fn variant_of(shot: &Shot, spec: VariantSpec) -> Result<Found, VariantError> {
    let cages = shot.cages.clone()?;
    let regions = shot.read.board.regions.clone();
    let diagonals = shot.read.board.diagonals.is_some();
    let found = Found { cages, regions, diagonals, notes: shot.notes.clone() };
    tracing::info!(
        "variant: {} ({})",
        found.name(),
        found.why("no cage outlines, region borders or diagonal marks")
    );
    found.require(spec)
}

/// The board `shot` reads as, with the uncertain-cell rule of [`Puzzle::from_read`] (the one
/// pixel policy): a board with cells the read could not tell is played only when the board
/// without them has exactly one solution, and those cells are never typed into
/// ([`Seen::unsure`]); otherwise the read is refused.
pub(crate) fn seen_of(shot: &Shot, selector: &str, spec: VariantSpec) -> Result<Seen, PlayError> {
    let pixels = |source: PixelError| PlayError::Pixels {
        selector: selector.to_string(),
        source,
        note: String::new(),
    };
    let found = variant_of(shot, spec)?;
    let rules = Rules::new(Uncertain::LeaveOutIfUnique);
    let left_out =
        Puzzle::with_cages(&shot.read, &rules, found.cages.as_deref()).map_err(pixels)?.left_out;
    let board = shot.page_board();
    let geometry = found.geometry(shot.read.geometry().map_err(pixels)?)?;
    if !left_out.is_empty() {
        tracing::info!(
            "{}: the board without them has one solution; they are not typed into",
            PixelError::Uncertain { cells: left_out.clone() }
        );
    }
    let unsure = left_out.iter().map(|c| c.index(board.side)).collect();
    let read_took = Some(shot.screenshot + shot.recognition);
    Ok(Seen { board, geometry, unsure, read_took })
}

/// A board read from `shot` whose filled cells break a rule or leave no solution: every filled
/// cell is fixed (the ink only hints which are the player's), so a wrong one is the player's
/// mistake, named, never typed over.
pub(crate) fn mistakes_of(shot: &Shot, seen: &Seen) -> PlayError {
    answer::unproven_error(
        &seen.board,
        &seen.geometry,
        Some(&shot.ink_hint()),
        "the board is read from pixels, where the ink colour tells givens from the player's \
         entries only as a hint"
            .to_string(),
    )
}

/// Clicks each target's cell centre and sends its key, as one Actions chain.
async fn type_cells(
    driver: &WebDriver,
    el: &WebElement,
    shot: &Shot,
    targets: &[Target],
) -> WebDriverResult<()> {
    let mut chain = driver.action_chain_with_delay(None, Some(Duration::ZERO));
    for t in targets {
        // Every target is a cell of the board read, so it has a centre.
        let Some((dx, dy)) = shot.cell_offset(t.index) else { continue };
        chain = chain
            .move_to_element_with_offset(el, dx, dy)
            .click()
            .send_keys(symbol_key(t.digit).to_string());
    }
    chain.perform().await
}

/// Screenshots until `done` holds for the read, or the bound passes: the last shot and whether
/// it held.
async fn wait_for(
    el: &WebElement,
    selector: &str,
    bound: Duration,
    done: impl Fn(&Shot) -> bool,
) -> Result<(Option<Shot>, bool), PlayError> {
    let mut last = None;
    let held = poll(bound, TICK, "the board read back", async |_| {
        match shoot(el).await {
            Ok(shot) if done(&shot) => return Ok(Some(shot)),
            Ok(shot) => last = Some(shot),
            Err(ShotError::Driver(step, e)) => {
                return Err(ShotError::Driver(step, e).into_play(selector));
            }
            // A frame caught mid-draw: look again.
            Err(ShotError::Pixels(e)) => tracing::debug!("read back: {e}"),
        }
        Ok(None)
    })
    .await;
    match held {
        Ok(shot) => Ok((Some(shot), true)),
        Err(Waited::Stopped(e)) => Err(e),
        Err(Waited::Out(_)) => Ok((last, false)),
    }
}

/// What a cell shows, for messages.
fn shows(shot: &Shot, index: usize) -> String {
    let c = shot.read.cells[index];
    match (c.kind, c.value) {
        _ if !c.is_certain() => "something unreadable".into(),
        (CellKind::Given | CellKind::Entry, Some(v)) => symbol_key(v).to_string(),
        _ => "nothing".into(),
    }
}

/// Whether the read shows the same board shape and `index` holds `digit`, certainly.
fn holds(shot: &Shot, side: usize, index: usize, digit: u8) -> bool {
    shot.read.board.side == side
        && shot.read.cells.get(index).is_some_and(|c| c.is_certain() && c.value == Some(digit))
}

/// A canvas board as read: its element, its selector and the shot it was read from.
struct CanvasRead {
    /// The board's element.
    el: WebElement,
    /// Its selector, for messages and looks.
    selector: String,
    /// The read the board is played from.
    shot: Shot,
}

/// Waits (bounded) for the board's pixels to show a board and reads it.
async fn read(driver: &WebDriver, site: &Site, bound: Duration) -> Result<CanvasRead, PlayError> {
    let selector = site.board.cells();
    let (el, shot) = wait_board(driver, site, bound).await?;
    tracing::debug!(
        "read a {side}x{side} board from `{selector}` in {:.0} ms (screenshot {:.0} ms, \
         recognition {:.0} ms); {:.2} image pixels a CSS pixel:\n{}",
        (shot.screenshot + shot.recognition).as_secs_f64() * 1000.0,
        shot.screenshot.as_secs_f64() * 1000.0,
        shot.recognition.as_secs_f64() * 1000.0,
        shot.mapping.ratio().0,
        shot.read,
        side = shot.read.board.side,
    );
    Ok(CanvasRead { el, selector: selector.to_string(), shot })
}

/// Types the targets: the first alone, proven by a read that shows it, then the rest in one
/// chain (or one by one, telling the steps, with show-thinking).
async fn type_all(
    driver: &WebDriver,
    seen: &CanvasRead,
    targets: &[Target],
    notes: &[Vec<String>],
    options: &PlayOptions,
) -> Result<(), PlayError> {
    let CanvasRead { el, selector, shot } = seen;
    let Some((first, rest)) = targets.split_first() else { return Ok(()) };
    // A dialog the page opens stops the run (read, dismissed as Cancel, named with what the
    // canvas shows then); any other error as it is.
    let stopped = async |e: WebDriverError| -> PlayError {
        let text = match page::take_alert(driver, &e).await {
            Ok(Some(text)) => text,
            Ok(None) => return PlayError::Typing(e),
            Err(other) => return other,
        };
        let side = shot.read.board.side;
        match look(driver, selector).await {
            Ok((_, now)) => PlayError::Dialog {
                when: "keys were typed on the canvas",
                text,
                typed: targets.iter().filter(|t| holds(&now, side, t.index, t.digit)).count(),
                total: targets.len(),
            },
            // No count to give without a read: the driver's error says what stopped it.
            Err(_) => PlayError::Typing(e),
        }
    };
    if let Some(thinking) = options.mode.thinking() {
        for (i, t) in targets.iter().enumerate() {
            for text in notes.get(i).into_iter().flatten() {
                (thinking.tell)(text);
            }
            if let Err(e) = type_cells(driver, el, shot, std::slice::from_ref(t)).await {
                return Err(stopped(e).await);
            }
            if i == 0 {
                prove(el, selector, shot, first).await?;
            }
            // The user's pacing between steps.
            tokio::time::sleep(thinking.step_delay).await;
        }
        return Ok(());
    }
    if let Err(e) = type_cells(driver, el, shot, std::slice::from_ref(first)).await {
        return Err(stopped(e).await);
    }
    prove(el, selector, shot, first).await?;
    if !rest.is_empty()
        && let Err(e) = type_cells(driver, el, shot, rest).await
    {
        return Err(stopped(e).await);
    }
    tracing::debug!(cells = targets.len(), "typed on the canvas");
    Ok(())
}

/// Waits (bounded: the one click proof) for the first typed cell to show its digit, with
/// every given as first read.
async fn prove(
    el: &WebElement,
    selector: &str,
    before: &Shot,
    first: &Target,
) -> Result<(), PlayError> {
    let side = before.read.board.side;
    let mut last: Option<Shot> = None;
    let not_shown = super::prove_first(TICK, async || {
        match shoot(el).await {
            Ok(shot) => {
                if holds(&shot, side, first.index, first.digit)
                    && changed_given(before, &shot).is_none()
                {
                    return Ok(Proof::Shown);
                }
                last = Some(shot);
            }
            Err(ShotError::Driver(step, e)) => {
                return Err(ShotError::Driver(step, e).into_play(selector));
            }
            // A frame caught mid-draw: look again.
            Err(ShotError::Pixels(e)) => tracing::debug!("read back: {e}"),
        }
        let seen = last.as_ref().map(|s| shows(s, first.index));
        Ok(Proof::Not(seen.unwrap_or_else(|| "no board".into())))
    })
    .await?;
    let Some(seen) = not_shown else { return Ok(()) };
    if let Some(why) = last.as_ref().and_then(|s| changed_given(before, s)) {
        return Err(PlayError::BoardChanged(why));
    }
    let cell = Cell::from_index(first.index, side);
    Err(PlayError::ClickDoesNotSelect(format!(
        "clicking the centre of {cell} on the canvas and pressing {} left it showing {seen}",
        symbol_key(first.digit)
    )))
}

/// A given of the board as first read that `now` does not show the same (another puzzle, or
/// another shape): what changed, in words.
fn changed_given(before: &Shot, now: &Shot) -> Option<String> {
    let side = before.read.board.side;
    if now.read.board.side != side {
        return Some(format!("the {side}x{side} board now reads as {0}x{0}", now.read.board.side));
    }
    let was = before.page_board();
    let is = now.page_board();
    (0..was.raw.len())
        .find(|&i| was.given[i] && is.raw[i] != was.raw[i] && now.read.cells[i].is_certain())
        .map(|i| {
            format!(
                "given {} was {} when read and shows {} now",
                Cell::from_index(i, side),
                was.raw[i],
                shows(now, i)
            )
        })
}

/// Reads the board back until every cell shows the solution (bounded by the completion
/// timeout).
async fn verify(
    site: &Site,
    seen: &CanvasRead,
    solution: &Grid,
    unsure: &[usize],
) -> Result<(), PlayError> {
    let (el, before) = (&seen.el, &seen.shot);
    let side = before.read.board.side;
    let want = solution.cells();
    let bound = Duration::from_millis(site.completion.timeout_ms);
    let start = Instant::now();
    // Cells never typed because they could not be read may stay unreadable: once every other
    // cell is right, they get SETTLE to show their digit, not the whole bound.
    let others_right = std::cell::Cell::new(None::<Instant>);
    let (last, _) = wait_for(el, site.board.cells(), bound, |s| {
        let right = |i: usize| holds(s, side, i, want[i]);
        if !(0..want.len()).filter(|i| !unsure.contains(i)).all(right) {
            others_right.set(None);
            return false;
        }
        let since = others_right.get().unwrap_or_else(Instant::now);
        others_right.set(Some(since));
        unsure.iter().all(|&i| right(i)) || since.elapsed() >= SETTLE
    })
    .await?;
    if let Some(detail) = read_back_differs(last.as_ref(), side, want, unsure) {
        return Err(PlayError::NotShown { waited: start.elapsed(), detail });
    }
    tracing::debug!("every cell read back right");
    Ok(())
}

/// How the board read back (`last`, `None`: no read) differs from the solution `want` of the
/// `side`x`side` board typed, in words; `None` when every cell shows it. `unsure`: the cells
/// never typed because they could not be read.
fn read_back_differs(
    last: Option<&Shot>,
    side: usize,
    want: &[u8],
    unsure: &[usize],
) -> Option<String> {
    let s = match last {
        None => return Some("no board could be read".to_string()),
        Some(s) if s.read.board.side != side => {
            return Some(format!("a {0}x{0} board is shown now", s.read.board.side));
        }
        Some(s) => s,
    };
    let differs: Vec<usize> = (0..want.len()).filter(|&i| !holds(s, side, i, want[i])).collect();
    if differs.is_empty() {
        return None;
    }
    if differs.iter().all(|i| unsure.contains(i)) {
        let cells: Vec<String> =
            differs.iter().map(|&i| Cell::from_index(i, side).to_string()).collect();
        return Some(format!(
            "every other cell shows the solution, but {} could not be read (and was never \
             typed), so the board is not confirmed",
            cells.join(" ")
        ));
    }
    let wrong: Vec<String> = differs
        .iter()
        .take(12)
        .map(|&i| {
            let never = if unsure.contains(&i) { ", never typed" } else { "" };
            format!(
                "{} shows {} (solution {}{never})",
                Cell::from_index(i, side),
                shows(s, i),
                symbol_key(want[i])
            )
        })
        .collect();
    Some(wrong.join(", "))
}

/// `sites check --url` for a board read from pixels: what one read of the element shows, and
/// whether it could be played (a board, every cell certain).
pub async fn check(driver: &WebDriver, selector: &str) -> (String, bool) {
    match look(driver, selector).await {
        Ok((_, shot)) => {
            let side = shot.read.board.side;
            let givens = shot.page_board().givens();
            let uncertain = shot.read.uncertain();
            let mut text = format!(
                "pixels: a {side}x{side} board with {givens} givens, read in {:.0} ms",
                (shot.screenshot + shot.recognition).as_secs_f64() * 1000.0
            );
            if !uncertain.is_empty() {
                text.push_str(&format!("; {}", PixelError::Uncertain { cells: uncertain.clone() }));
            }
            match &shot.cages {
                Ok(None) => {}
                Ok(Some(cages)) => text.push_str(&format!("; a Killer of {} cages", cages.len())),
                Err(e) => text.push_str(&format!("; {}", VariantError::Outlines(e.clone()))),
            }
            (text, uncertain.is_empty() && shot.cages.is_ok())
        }
        Err(ShotError::Driver(step, e)) => (format!("{step}: {}", short(&e)), false),
        Err(ShotError::Pixels(e)) => (format!("pixels: {e}"), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shot of a 9x9 board read from `puzzle` (`.` empty, `?` an uncertain cell).
    fn shot(puzzle: &str) -> Shot {
        use crate::pixels::{Board, CellRead};
        let spans: Vec<(usize, usize)> = (0..9).map(|i| (i * 50 + 2, i * 50 + 48)).collect();
        let board = Board {
            left: 0,
            top: 0,
            width: 450,
            height: 450,
            side: 9,
            box_width: 3,
            box_height: 3,
            boxes_seen: true,
            rows: spans.clone(),
            cols: spans,
            regions: None,
            diagonals: None,
        };
        let cells = puzzle
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => {
                    CellRead { kind: CellKind::Given, value: Some(b - b'0'), confidence: 1.0 }
                }
                b'?' => CellRead { kind: CellKind::Unclear, value: Some(1), confidence: 0.2 },
                // The player's entries, in coloured ink: `a` = 1 ... `i` = 9.
                b'a'..=b'i' => {
                    CellRead { kind: CellKind::Entry, value: Some(b - b'a' + 1), confidence: 1.0 }
                }
                _ => CellRead { kind: CellKind::Empty, value: None, confidence: 1.0 },
            })
            .collect();
        Shot {
            read: BoardRead { board, cells, settled: Vec::new() },
            cages: Ok(None),
            notes: Vec::new(),
            mapping: Mapping {
                css_width: 450.0,
                css_height: 450.0,
                image_width: 450,
                image_height: 450,
            },
            screenshot: Duration::ZERO,
            recognition: Duration::ZERO,
        }
    }

    /// The board `shot` reads as, solved as the story solves it: filled cells that break a
    /// rule are the player's mistakes.
    fn solve_read(
        shot: &Shot,
        selector: &str,
    ) -> Result<(PageBoard, Grid, Grid, Vec<usize>), PlayError> {
        let seen = seen_of(shot, selector, VariantSpec::Auto)?;
        let (puzzle, solution) = match answer::solve_board(seen.geometry.clone(), &seen.board) {
            Err(PlayError::Invalid(_) | PlayError::Unsolvable) => {
                return Err(mistakes_of(shot, &seen));
            }
            solved => solved?,
        };
        Ok((seen.board, puzzle, solution, seen.unsure))
    }

    const PUZZLE: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    #[test]
    fn an_uncertain_cell_is_left_out_only_when_the_rest_is_unique() {
        let (board, _, solution, uncertain) = solve_read(&shot(PUZZLE), "#c").unwrap();
        assert_eq!(board.givens(), 36);
        assert!(uncertain.is_empty());
        // r1c5 (a given 6) unreadable: the other givens still have one solution.
        let one = PUZZLE.replacen('6', "?", 1);
        let (_, _, s, uncertain) = solve_read(&shot(&one), "#c").unwrap();
        assert_eq!(uncertain, [4], "r1c5");
        assert_eq!(s.cells(), solution.cells());
        // Nearly every given unreadable: refused, naming the cells.
        let many: String = PUZZLE
            .chars()
            .enumerate()
            .map(|(i, c)| if i < 70 && c != '.' { '?' } else { c })
            .collect();
        let err = solve_read(&shot(&many), "#c").unwrap_err().to_string();
        assert!(err.contains("uncertain: r1c4 r1c5"), "{err}");
        assert!(err.contains("without them the board has no unique solution"), "{err}");
        assert!(err.contains("nothing was typed"), "{err}");
        // A cell's centre, from the element's centre.
        assert_eq!(shot(PUZZLE).cell_offset(0), Some((-200, -200)));
        assert_eq!(shot(PUZZLE).cell_offset(80), Some((201, 201)));
    }

    #[test]
    fn an_entry_in_coloured_ink_is_never_typed_over() {
        let (_, _, solution, _) = solve_read(&shot(PUZZLE), "#c").unwrap();
        let empty: Vec<usize> = (0..81).filter(|&i| PUZZLE.as_bytes()[i] == b'.').collect();
        let ink = |v: u8| b'a' + v - 1;
        // Two right entries: left alone, only the other empty cells are planned.
        let mut right = PUZZLE.as_bytes().to_vec();
        for &i in &empty[..2] {
            right[i] = ink(solution.cells()[i]);
        }
        let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
        let (board, _, _, _) = solve_read(&shot(&text(&right)), "#c").unwrap();
        let plan = crate::web::fill::plan(&board, solution.cells());
        assert_eq!(plan.len(), empty.len() - 2);
        assert!(plan.iter().all(|t| !empty[..2].contains(&t.index)), "{plan:?}");
        // A wrong entry: the ink only hints that it is the player's, so it is not typed over;
        // the run is refused, naming it.
        let mut wrong = right.clone();
        let at = empty[2];
        wrong[at] = ink(solution.cells()[at] % 9 + 1);
        let err = solve_read(&shot(&text(&wrong)), "#c").unwrap_err();
        assert!(matches!(err, PlayError::Mistakes { .. }), "{err}");
        let message = err.to_string();
        let cell = Cell::from_index(at, 9);
        assert!(message.contains(&format!("; check {cell};")), "{message}");
        assert!(message.contains("read from pixels"), "{message}");
        assert!(message.contains("nothing was typed"), "{message}");
    }

    #[test]
    fn a_canvas_killer_is_played_with_its_cages_and_refused_when_they_are_not_exact() {
        let rows: Vec<Cage> = (0..9).map(|r| Cage::new(45, r * 9..r * 9 + 9)).collect();
        let mut killer = shot(PUZZLE);
        killer.cages = Ok(Some(rows));
        killer.notes = vec!["Killer: 9 cages".into()];
        let seen = seen_of(&killer, "#c", VariantSpec::Killer).unwrap();
        assert_eq!(seen.geometry.cages().len(), 9, "the cages are the board's");
        assert_eq!(seen_of(&killer, "#c", VariantSpec::Auto).unwrap().geometry.cages().len(), 9);
        // Killer asked, a classic board seen (and the other way round): refused.
        let err = seen_of(&shot(PUZZLE), "#c", VariantSpec::Killer).unwrap_err().to_string();
        assert!(err.contains("expects a killer board but the page shows classic"), "{err}");
        let err = seen_of(&killer, "#c", VariantSpec::Classic).unwrap_err().to_string();
        assert!(err.contains("shows killer"), "{err}");
        // Outlines seen but not made into cages: refused with the reason, never classic.
        let mut unclear = shot(PUZZLE);
        unclear.cages =
            Err(KillerError::Sum { cell: Cell::from_index(0, 9), why: "a smudge".into() });
        let err = seen_of(&unclear, "#c", VariantSpec::Auto).unwrap_err();
        assert!(matches!(err, PlayError::Variant(VariantError::Outlines(_))), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("cage sum in r1c1 cannot be read with certainty"), "{text}");
        assert!(text.contains("nothing was typed"), "{text}");
    }

    #[test]
    fn offsets_map_image_pixels_to_css_pixels_from_the_centre() {
        // 1:1.
        let m =
            Mapping { css_width: 360.0, css_height: 360.0, image_width: 360, image_height: 360 };
        assert_eq!(m.offset(180, 180), (1, 1));
        assert_eq!(m.offset(20, 20), (-160, -160));
        // devicePixelRatio 2: the screenshot is twice the CSS size.
        let m =
            Mapping { css_width: 360.0, css_height: 360.0, image_width: 720, image_height: 720 };
        assert_eq!(m.ratio(), (2.0, 2.0));
        assert_eq!(m.offset(39, 39), (-160, -160));
        assert_eq!(m.offset(700, 20), (170, -170));
        // Never outside the element.
        let m = Mapping { css_width: 100.0, css_height: 50.0, image_width: 100, image_height: 50 };
        assert_eq!(m.offset(5000, 5000), (49, 24));
        // A zero-sized rectangle does not divide by zero.
        let m = Mapping { css_width: 0.0, css_height: 0.0, image_width: 10, image_height: 10 };
        assert_eq!(m.offset(5, 5), (0, 0), "the centre of an element with no size");
    }

    /// The puzzle's solution as the board reads when every cell shows it (entries in ink).
    fn solved_text(solution: &[u8]) -> String {
        PUZZLE
            .bytes()
            .zip(solution)
            .map(|(g, &v)| if g == b'.' { (b'a' + v - 1) as char } else { g as char })
            .collect()
    }

    #[test]
    fn a_canvas_whose_read_back_differs_is_not_shown_and_names_the_cells() {
        let (_, _, solution, _) = solve_read(&shot(PUZZLE), "#c").unwrap();
        let want = solution.cells();
        let right = solved_text(want);
        assert_eq!(read_back_differs(Some(&shot(&right)), 9, want, &[]), None);
        // One typed cell shows another digit, one shows nothing (a dropped key).
        let empty: Vec<usize> = (0..81).filter(|&i| PUZZLE.as_bytes()[i] == b'.').collect();
        let mut wrong = right.clone().into_bytes();
        wrong[empty[0]] = b'a' + want[empty[0]] % 9;
        wrong[empty[1]] = b'.';
        let detail =
            read_back_differs(Some(&shot(&String::from_utf8(wrong).unwrap())), 9, want, &[])
                .expect("the read back differs");
        let (a, b) = (Cell::from_index(empty[0], 9), Cell::from_index(empty[1], 9));
        let other = symbol_key(want[empty[0]] % 9 + 1);
        assert!(
            detail.starts_with(&format!(
                "{a} shows {other} (solution {})",
                symbol_key(want[empty[0]])
            )),
            "{detail}"
        );
        assert!(detail.contains(&format!("{b} shows nothing")), "{detail}");
        // No read at all, or another board.
        assert_eq!(
            read_back_differs(None, 9, want, &[]).as_deref(),
            Some("no board could be read")
        );
        assert!(read_back_differs(Some(&shot(&right)), 4, want, &[]).unwrap().contains("9x9"));
    }

    #[test]
    fn a_cell_never_typed_because_unreadable_keeps_the_board_unconfirmed() {
        let (_, _, solution, _) = solve_read(&shot(PUZZLE), "#c").unwrap();
        let want = solution.cells();
        let mut blurred = solved_text(want).into_bytes();
        blurred[4] = b'?';
        let seen = shot(&String::from_utf8(blurred).unwrap());
        let detail = read_back_differs(Some(&seen), 9, want, &[4]).expect("not confirmed");
        assert!(detail.contains("but r1c5 could not be read (and was never typed)"), "{detail}");
        // The same cell, typed and still wrong, is a plain difference.
        let detail = read_back_differs(Some(&seen), 9, want, &[]).unwrap();
        assert!(detail.starts_with("r1c5 shows something unreadable"), "{detail}");
    }
}
