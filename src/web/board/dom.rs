//! A board of page elements (inputs, divs, SVG cells): waited for and read in one script, typed
//! with real keys behind the in-page guard (`guard.rs`: keys reach only board cells, a changed
//! board is noticed), the first clicked key proven, read back, and cells that dropped a key
//! retyped behind the guard ([`DomBoard`], a [`BoardSource`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use thirtyfour::prelude::*;

use super::{Back, BoardSource, Finished, Proof, Seen, Settle, Typed, back_of};
use crate::grid::{Cell, Grid};
use crate::web::answer::unproven_error;
use crate::web::error::{PlayError, is_session_lost, short, wd};
use crate::web::fill::{self, Route, Target};
use crate::web::guard::{self, GuardReport, PrepareArgs, Prepared};
use crate::web::options::{Outcome, PlayOptions};
use crate::web::page::{await_confirmation, normal_mode, take_alert, take_open_dialog};
use crate::web::poll::{MISMATCH_SETTLE, poll};
use crate::web::read::{self, PageBoard, ReadArgs, ReadError};
use crate::web::site::{
    BoardSpec, Given, Navigate, Order, ReadMode, Site, Strategy, Success, ValueSource,
};

/// A board of page elements on the page `driver` shows, as `site` describes it.
pub(crate) struct DomBoard<'a> {
    driver: &'a WebDriver,
    site: &'a Site,
    options: &'a PlayOptions,
    /// After typing: the cells typed into and what the page showed.
    typed: Option<TypingDone>,
}

impl<'a> DomBoard<'a> {
    /// The board `site` describes, on the page `driver` shows (its frames entered).
    pub(crate) fn new(driver: &'a WebDriver, site: &'a Site, options: &'a PlayOptions) -> Self {
        DomBoard { driver, site, options, typed: None }
    }

    /// What the last typing left; an error where nothing was typed yet (never, in the story).
    fn typed(&mut self) -> Result<&mut TypingDone, PlayError> {
        self.typed.as_mut().ok_or_else(|| PlayError::Logic("read back before typing".into()))
    }
}

impl BoardSource for DomBoard<'_> {
    fn success(&self) -> &Success {
        &self.site.completion.success
    }

    async fn read(&mut self, again: bool) -> Result<Seen, PlayError> {
        // A board that changed under the keys is read live: its source may be stale.
        let read = self.site.board.dom().map_or(ReadMode::Script, |d| d.read);
        let mode = if again { ReadMode::Script } else { read };
        // The variant (Killer cages, jigsaw regions, X diagonals) is read in the same script.
        let scripted = scripted(self.site);
        let (board, geometry) =
            crate::web::variant::dom::read_marked(self.driver, self.site, mode, scripted).await?;
        Ok(Seen { board, geometry, unsure: Vec::new(), read_took: None })
    }

    async fn mistakes(&mut self, seen: &Seen) -> Option<PlayError> {
        self.site.board.unproven().is_some().then_some(())?;
        Some(unproven_mistakes(self.driver, self.site, &seen.board).await)
    }

    async fn type_cells(
        &mut self,
        seen: &Seen,
        targets: &[Target],
        notes: &[Vec<String>],
        outcome: &mut Outcome,
    ) -> Result<Typed, PlayError> {
        let (driver, site) = (self.driver, self.site);
        if let Some(mode) = &site.input_mode {
            normal_mode(driver, mode).await?;
        }
        let keys = Keys { targets, notes };
        match type_guarded(driver, site, self.options, &seen.board, keys, outcome).await? {
            Guarded::Done(done) => {
                self.typed = Some(done);
                Ok(Typed::Done)
            }
            Guarded::Changed(why) => Ok(Typed::Changed(why)),
        }
    }

    async fn read_back(
        &mut self,
        _seen: &Seen,
        targets: &[Target],
        solution: &Grid,
    ) -> Result<Back, PlayError> {
        back_of(&self.typed()?.after, targets, solution)
    }

    async fn retype(&mut self, _seen: &Seen, cells: &[Target]) -> Result<(), PlayError> {
        let (driver, site) = (self.driver, self.site);
        let typed = self.typed()?;
        tracing::debug!(cells = cells.len(), "retyping cells that dropped a key");
        // The retry is guarded as the first run was.
        let (prepared, _) = prepare(driver, site, &typed.after, cells).await?;
        if prepared.missing.is_some() {
            return Err(PlayError::BoardChanged("board cells are gone".into()));
        }
        let field = site.fill.strategy != Strategy::Click;
        let typing = fill::type_with_clicks(driver, &typed.cells, cells, field).await;
        let when = "cells that dropped a key were retyped";
        let (guard, dialog, again) = after_typing(driver, site, typing, cells, when).await?;
        if let Some(text) = dialog {
            typed.alert.get_or_insert(text);
        }
        let guard = guard.ok_or_else(|| {
            PlayError::BoardChanged("the page reloaded or navigated while keys were typed".into())
        })?;
        if let Some(why) = guard.changed {
            return Err(PlayError::BoardChanged(why));
        }
        if let Some(detail) = guard.left {
            return Err(PlayError::LeftBoard { detail, blocked: guard.blocked });
        }
        typed.after = again;
        Ok(())
    }

    fn finished(&mut self) -> Finished {
        let typed = self.typed.as_ref();
        Finished {
            alert: typed.and_then(|t| t.alert.clone()),
            before: typed.is_some_and(|t| t.before),
        }
    }

    async fn confirm(&mut self, seen: &Seen) -> Result<String, PlayError> {
        let (driver, site) = (self.driver, self.site);
        let typed = self.typed()?;
        let board = &seen.board;
        let key_cell = site.completion.key.map(|_| {
            // Pressed in the last editable cell, as a person would after typing the last digit.
            let last = board
                .dom_order
                .iter()
                .rev()
                .find(|&&i| !board.given[i])
                .copied()
                .unwrap_or(board.raw.len() - 1);
            &typed.cells[last]
        });
        await_confirmation(driver, site, key_cell, typed.alert.clone()).await
    }
}

/// The cells to type, and with show-thinking the steps told before each.
struct Keys<'k> {
    targets: &'k [Target],
    notes: &'k [Vec<String>],
}

/// The result of typing behind the guard.
enum Guarded {
    /// Typed, and the guard saw nothing leave the board.
    Done(TypingDone),
    /// The board was not the one solved (before the first key or while typing).
    Changed(String),
}

/// A typing run that finished, for the read-back and the confirmation.
struct TypingDone {
    /// The board's cells, as typed into.
    cells: Vec<WebElement>,
    /// Whether the success marker showed success before the first key (then it cannot confirm).
    before: bool,
    /// An alert the page raised while keys were typed.
    alert: Option<String>,
    /// The board as read back right after typing (or retyping).
    after: PageBoard,
}

/// Re-reads the givens and checks the route and installs the guard (one script), types, then
/// reads the guard's report. Keys reach only board cells.
async fn type_guarded(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
    board: &PageBoard,
    Keys { targets, notes }: Keys<'_>,
    outcome: &mut Outcome,
) -> Result<Guarded, PlayError> {
    let (prepared, handle) = prepare(driver, site, board, targets).await?;
    if let Some(missing) = prepared.missing {
        return Ok(Guarded::Changed(format!("{missing} board cells are gone")));
    }
    let now = read::from_script(site, prepared.cells)?;
    if let Some(i) = (0..board.raw.len())
        .find(|&i| now.given[i] != board.given[i] || (board.given[i] && now.raw[i] != board.raw[i]))
    {
        return Ok(Guarded::Changed(format!(
            "{} was {:?} when read and is {:?} now",
            Cell::from_index(i, board.side),
            board.raw[i],
            now.raw[i]
        )));
    }
    let cells: Vec<WebElement> = prepared
        .elements
        .into_iter()
        .map(|v| WebElement::from_json(v, handle.clone()))
        .collect::<WebDriverResult<_>>()
        .map_err(wd("preparing to type"))?;
    let success = &site.completion.success;
    let before = prepared.marker.is_some_and(|m| success.confirmed_by(&m) && !success.alert);
    let click = site.fill.strategy == Strategy::Click;
    let thinking = options.mode.thinking().is_some();
    let route = route(site, thinking, prepared.tab, targets);
    outcome.clicked = route == Route::Click && site.fill.navigate == Navigate::Tab && !click;
    let started = Instant::now();
    // A clicked board types its first cell alone and reads it back: a page where a click does
    // not select a cell gets one key, not a whole board of them.
    let rest = match targets.split_first() {
        Some((first, rest)) if click && !thinking && !rest.is_empty() => {
            match prove_click(driver, site, &cells, first, targets.len()).await? {
                None => rest,
                Some(why) => return Err(first_key_failed(driver, site, targets, why).await),
            }
        }
        _ => targets,
    };
    let typing = match options.mode.thinking() {
        Some(th) => {
            fill::type_thinking(
                driver,
                !click,
                &cells,
                targets,
                notes,
                th.step_delay,
                th.tell.as_ref(),
            )
            .await
        }
        None => {
            fill::type_plan(driver, site.fill.strategy, &route, &cells, rest, options.chunk).await
        }
    };
    tracing::debug!(elapsed = ?started.elapsed(), cells = targets.len(), ?route, "typed");
    let (guard, alert, after) =
        after_typing(driver, site, typing, targets, "the answer was typed").await?;
    Ok(match judge_typing(guard, board, &after)? {
        Some(why) => Guarded::Changed(why),
        None => Guarded::Done(TypingDone { cells, before, alert, after }),
    })
}

/// How the keys reach the cells: the site's Tab walk where it reaches exactly the cells to type
/// (in `tab`'s order), else a click on each; show-thinking and clicked boards always click.
fn route(site: &Site, thinking: bool, tab: guard::TabCheck, targets: &[Target]) -> Route {
    match site.fill.navigate {
        // Show-thinking types in the engine's order, one cell at a time; clicked cells are
        // clicked.
        _ if thinking || site.fill.strategy == Strategy::Click => Route::Click,
        Navigate::Click => Route::Click,
        Navigate::Tab if tab.ok => {
            let position: Vec<usize> = tab
                .order
                .iter()
                .map(|&i| targets.iter().position(|t| t.index == i).unwrap_or(0))
                .collect();
            Route::Tab { order: position, steps: tab.steps }
        }
        Navigate::Tab => {
            tracing::info!(
                "Tab would not reach exactly the cells to type ({}); clicking each cell",
                tab.reason
            );
            Route::Click
        }
    }
}

/// The error when the first clicked cell did not show its value (`why`): a dialog the guard
/// answered on that key stops the run whatever it was (no cell was finished for it to judge),
/// a key that left the board is said as such, else the click does not select.
async fn first_key_failed(
    driver: &WebDriver,
    site: &Site,
    targets: &[Target],
    why: String,
) -> PlayError {
    let (guard, now) = match finish(driver, site, &mut None).await {
        Ok(finished) => finished,
        Err(e) => return e,
    };
    let dialog = guard.as_ref().and_then(|g| g.dialog.clone());
    if let Err(e) = dialog_stop(&dialog, true, &now, targets, "the first cell was typed") {
        return e;
    }
    match guard.and_then(|g| g.left.map(|l| (l, g.blocked))) {
        Some((detail, blocked)) => PlayError::LeftBoard { detail, blocked },
        None => PlayError::ClickDoesNotSelect(why),
    }
}

/// The guard's report and the board after typing, judged: `Some(why)` when the page changed
/// the puzzle (the guard saw it, the page reloaded and lost the guard, or a given changed),
/// an error when a key or focus left the board or other controls changed, `None` when typing
/// went where it should.
fn judge_typing(
    guard: Option<GuardReport>,
    board: &PageBoard,
    after: &PageBoard,
) -> Result<Option<String>, PlayError> {
    let Some(guard) = guard else {
        return Ok(Some("the page reloaded or navigated while keys were typed".into()));
    };
    tracing::debug!(?guard, "guard report");
    if let Some(why) = guard.changed {
        return Ok(Some(why));
    }
    if let Some(detail) = guard.left {
        return Err(PlayError::LeftBoard { detail, blocked: guard.blocked });
    }
    if !guard.others.is_empty() {
        return Err(PlayError::LeftBoard {
            detail: format!("other controls changed: {}", guard.others.join(", ")),
            blocked: guard.blocked,
        });
    }
    Ok((0..board.raw.len()).find(|&i| board.given[i] && after.raw[i] != board.raw[i]).map(|i| {
        format!(
            "given {} changed from {:?} to {:?}",
            Cell::from_index(i, board.side),
            board.raw[i],
            after.raw[i]
        )
    }))
}

/// Clicks the first cell to type and presses its key, then reads that cell: `None` when it
/// shows the value, else what it shows (the click did not select the cell). `total`: the cells
/// there are to type, for the message when a dialog stops the run.
async fn prove_click(
    driver: &WebDriver,
    site: &Site,
    cells: &[WebElement],
    first: &Target,
    total: usize,
) -> Result<Option<String>, PlayError> {
    if let Err(e) = fill::type_with_clicks(driver, cells, std::slice::from_ref(first), false).await
    {
        let Some(text) = take_alert(driver, &e).await? else {
            return Err(PlayError::Typing(e));
        };
        // The key may have landed before the dialog: the count is the page's.
        let now = read::cells(driver, &ReadArgs::new(site)).await.map_err(wd("reading back"))?;
        let now = read::from_script(site, now)?;
        let typed = typed_count(&now, std::slice::from_ref(first));
        return Err(PlayError::Dialog { when: "the first cell was typed", text, typed, total });
    }
    // The one click proof: the page may draw the value on its next frame.
    super::prove_first(Duration::from_millis(10), async || {
        let now = read::cells(driver, &ReadArgs::new(site)).await.map_err(wd("reading back"))?;
        let board = read::from_script(site, now)?;
        if board.digit(first.index) == first.digit {
            return Ok(Proof::Shown);
        }
        Ok(Proof::Not(format!(
            "clicking {} and pressing {} left it showing {:?}",
            Cell::from_index(first.index, board.side),
            read::symbol_key(first.digit),
            board.raw[first.index]
        )))
    })
    .await
}

/// Runs [`guard::PREPARE_JS`] for `targets` (re-reads the board, checks the Tab route,
/// installs the guard).
async fn prepare(
    driver: &WebDriver,
    site: &Site,
    board: &PageBoard,
    targets: &[Target],
) -> Result<(Prepared, std::sync::Arc<thirtyfour::session::handle::SessionHandle>), PlayError> {
    let args = PrepareArgs::new(site, board, targets);
    let prepared = guard::prepare(driver, &args).await.map_err(wd("preparing to type"))?;
    Ok((prepared, driver.handle().clone()))
}

/// After keys were typed behind the guard: a dialog the typing met is read (an error other than
/// an open dialog is [`PlayError::Typing`]), the guard's report and the board are taken, any
/// later dialog is dismissed, and a dialog that is not the known confirmation stops the run
/// ([`dialog_stop`], naming `when`). Returns the guard's report, the first dialog's text and
/// the board now.
async fn after_typing(
    driver: &WebDriver,
    site: &Site,
    typing: WebDriverResult<()>,
    targets: &[Target],
    when: &'static str,
) -> Result<(Option<GuardReport>, Option<String>, PageBoard), PlayError> {
    let mut dialog = None;
    if let Err(e) = typing {
        match take_alert(driver, &e).await? {
            Some(text) => dialog = Some(text),
            None => return Err(PlayError::Typing(e)),
        }
    }
    let (guard, now) = finish(driver, site, &mut dialog).await?;
    let (dialog, now) = typing_dialog(driver, site, dialog, &guard, now).await?;
    dialog_stop(&dialog, asked(&guard, site), &now, targets, when)?;
    Ok((guard, dialog, now))
}

/// Runs [`guard::FINISH_JS`]: the guard's report (`None`: the page lost it) and the board as it
/// is now. A dialog in the way is read and dismissed into `alert`.
async fn finish(
    driver: &WebDriver,
    site: &Site,
    alert: &mut Option<String>,
) -> Result<(Option<GuardReport>, PageBoard), PlayError> {
    let args = ReadArgs::new(site);
    // A page may open a few dialogs in a row; each is dismissed and the first one kept.
    let mut dialogs = 0;
    let finished = loop {
        match guard::finish(driver, &args).await {
            Ok(finished) => break finished,
            Err(e) => match take_alert(driver, &e).await? {
                Some(text) if dialogs < 4 => {
                    dialogs += 1;
                    alert.get_or_insert(text);
                }
                _ => return Err(wd("reading back")(e)),
            },
        }
    };
    tracing::debug!(guard = ?finished.guard, "read back");
    Ok((finished.guard, read::from_script(site, finished.cells)?))
}

/// The dialog of a typing run and the board after it: the dialog the driver reported, else the
/// one the guard saw (Firefox runs scripts while a dialog is open, so its commands may report
/// none). One still open is dismissed now, and the board read again once the page's own script
/// went on past it.
async fn typing_dialog(
    driver: &WebDriver,
    site: &Site,
    reported: Option<String>,
    guard: &Option<GuardReport>,
    now: PageBoard,
) -> Result<(Option<String>, PageBoard), PlayError> {
    if reported.is_some() {
        return Ok((reported, now));
    }
    let Some(seen) = guard.as_ref().and_then(|g| g.dialog.clone()) else {
        return Ok((None, now));
    };
    match take_open_dialog(driver).await? {
        Some(text) => {
            let cells =
                read::cells(driver, &ReadArgs::new(site)).await.map_err(wd("reading back"))?;
            Ok((Some(text), read::from_script(site, cells)?))
        }
        None => Ok((Some(seen), now)),
    }
}

/// Whether the dialog the guard answered while keys were typed asked a question (`confirm` or
/// `prompt`) that is not the site's own completion text: never the page's word on a finished
/// board, whatever the board shows after it.
fn asked(guard: &Option<GuardReport>, site: &Site) -> bool {
    let success = &site.completion.success;
    guard.as_ref().is_some_and(|g| {
        matches!(g.dialog_kind.as_deref(), Some("confirm" | "prompt"))
            && !(success.alert && g.dialog.as_deref().is_some_and(|t| success.confirmed_by(t)))
    })
}

/// A dialog that opened while keys were typed stops the run, unless every cell to type holds
/// its value and it was no question (`asked`): an alert that came with the last key is the
/// page's own word on the finished board, which [`confirm`] judges.
fn dialog_stop(
    dialog: &Option<String>,
    asked: bool,
    now: &PageBoard,
    targets: &[Target],
    when: &'static str,
) -> Result<(), PlayError> {
    let Some(text) = dialog else {
        return Ok(());
    };
    let typed = typed_count(now, targets);
    if typed == targets.len() && !asked {
        return Ok(());
    }
    Err(PlayError::Dialog { when, text: text.clone(), typed, total: targets.len() })
}

/// How many of `targets` the board shows holding their value.
fn typed_count(now: &PageBoard, targets: &[Target]) -> usize {
    targets.iter().filter(|t| now.digit(t.index) == t.digit).count()
}

/// Waits until the cells are there and enough givens hold digits, or until a board with fewer
/// givens has stayed the same for [`SETTLE`](crate::web::poll::SETTLE) (it is read and refused as having several
/// solutions, not called "not ready"). A driver that stops answering ends the wait at once.
pub(crate) async fn wait_ready(
    driver: &WebDriver,
    site: &Site,
    default_bound: Duration,
    heal: bool,
) -> Result<(), PlayError> {
    let bound = site.board.ready_timeout_ms().map(Duration::from_millis).unwrap_or(default_bound);
    let min_givens = site.min_givens();
    let not_ready = |detail: String, mismatch: bool, waited: Duration| PlayError::NotReady {
        cells: site.cell_count(),
        mismatch,
        waited,
        detail,
        min_givens,
    };
    let mut settle = Settle::default();
    // The same wrong cell count since when: with self-healing on, a page that keeps showing
    // it for MISMATCH_SETTLE goes to discovery without waiting out the whole bound.
    let mut mismatch: Option<(String, Instant)> = None;
    let mut last = (String::new(), false);
    let ready = poll(bound, Duration::from_millis(25), "the board", async |elapsed| {
        let (detail, wrong) = match read::cells(driver, &ReadArgs::new(site)).await {
            Ok(cells) => match read::from_script(site, cells) {
                Ok(board) if board.givens() >= min_givens => return Ok(Some(())),
                Ok(board) => {
                    let (cells, givens) = (board.raw.len(), board.givens());
                    if settle.settled(board.raw, givens) {
                        return Ok(Some(()));
                    }
                    (format!("{cells} cells but only {givens} givens"), false)
                }
                Err(e @ (ReadError::CellCount { .. } | ReadError::NotAGrid { .. })) => {
                    (e.to_string(), true)
                }
                Err(e) => (e.to_string(), false),
            },
            // A lost session ends the wait at once.
            Err(e) if is_session_lost(&e) => return Err(wd("waiting for the board")(e)),
            Err(e) => (short(&e), false),
        };
        let settled = match (&mismatch, wrong) {
            (Some((last, since)), true) if *last == detail => since.elapsed() >= MISMATCH_SETTLE,
            (_, true) => {
                mismatch = Some((detail.clone(), Instant::now()));
                false
            }
            (_, false) => {
                mismatch = None;
                false
            }
        };
        if heal && settled {
            return Err(not_ready(detail, wrong, elapsed));
        }
        last = (detail, wrong);
        Ok(None)
    })
    .await;
    ready.map_err(|w| w.or_out(|waited| not_ready(last.0, last.1, waited)))
}

/// Whether the board must be read by script whatever its site says: positions, computed styles
/// and text drawn over SVG cells are only in the live page.
fn scripted(site: &Site) -> bool {
    site.board.dom().is_none_or(|d| {
        d.order == Order::Position
            || matches!(d.given, Given::Style(_))
            || d.value == ValueSource::Overlay
    })
}

/// Where nothing proves the givens and the filled cells (all fixed) break the board: the
/// player's mistakes, named with the help of the discovered hint (read again, by its marker)
/// where it tells them.
pub(crate) async fn unproven_mistakes(
    driver: &WebDriver,
    site: &Site,
    board: &PageBoard,
) -> PlayError {
    let unproven = site.board.unproven().cloned().unwrap_or_default();
    let mut hint = None;
    if let Some(marker) = &unproven.hint {
        let mut hinted = site.clone();
        if let BoardSpec::Dom(d) = &mut hinted.board {
            d.given = marker.clone();
            d.unproven = None;
        }
        if let Ok(cells) = read::cells(driver, &ReadArgs::new(&hinted)).await
            && let Ok(again) = read::from_script(&hinted, cells)
            && again.raw == board.raw
        {
            hint = Some(again.given);
        }
    }
    let rule = format!(
        "nothing on the page proves which cells are givens (no `readonly`, `disabled` or \
         `aria-readonly` mark{})",
        if unproven.hint_note.is_empty() {
            String::new()
        } else {
            format!("; {} is only a hint", unproven.hint_note)
        }
    );
    match site.geometry() {
        Ok(g) => unproven_error(board, &Arc::new(g), hint.as_deref(), rule),
        Err(e) => PlayError::Logic(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 board from a line (`.` blank); the cells at `givens` are givens.
    fn board(line: &str, givens: &[usize]) -> PageBoard {
        let raw: Vec<String> =
            line.chars().map(|c| if c == '.' { String::new() } else { c.to_string() }).collect();
        PageBoard {
            side: 4,
            given: (0..raw.len()).map(|i| givens.contains(&i)).collect(),
            raw,
            dom_order: (0..16).collect(),
        }
    }

    #[test]
    fn typing_that_stayed_on_the_board_is_done() {
        let before = board("1...............", &[0]);
        let after = board("1234............", &[0]);
        let guard = GuardReport { keys: 3, ..GuardReport::default() };
        assert_eq!(judge_typing(Some(guard), &before, &after).unwrap(), None);
    }

    #[test]
    fn a_given_that_changed_while_typing_means_another_puzzle() {
        let before = board("1...............", &[0]);
        let after = board("2234............", &[0]);
        let why = judge_typing(Some(GuardReport::default()), &before, &after).unwrap();
        assert_eq!(why.as_deref(), Some("given r1c1 changed from \"1\" to \"2\""));
        // The guard's own word on a changed board, and a reload that lost the guard.
        let seen =
            GuardReport { changed: Some("the board was replaced".into()), ..Default::default() };
        assert_eq!(
            judge_typing(Some(seen), &before, &before).unwrap().as_deref(),
            Some("the board was replaced")
        );
        let lost = judge_typing(None, &before, &before).unwrap();
        assert!(lost.is_some_and(|w| w.contains("reloaded")));
    }

    #[test]
    fn a_key_that_left_the_board_or_changed_another_control_stops_the_run() {
        let b = board("1...............", &[0]);
        let left =
            GuardReport { left: Some("focus left".into()), blocked: 7, ..Default::default() };
        let e = judge_typing(Some(left), &b, &b).unwrap_err();
        assert!(matches!(e, PlayError::LeftBoard { blocked: 7, .. }), "{e}");
        let others = GuardReport { others: vec!["#search".into()], ..Default::default() };
        let e = judge_typing(Some(others), &b, &b).unwrap_err();
        assert_eq!(e.kind(), crate::web::FailureKind::KeysLeftBoard);
        assert!(e.to_string().contains("other controls changed: #search"), "{e}");
    }
}
