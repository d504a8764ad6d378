//! One puzzle on one page: navigate, dismiss overlays, enter frames, wait for the board, read,
//! solve, type, verify, and wait for the page's own confirmation. Every wait is bounded and says
//! what it waited for when it gives up.

use std::time::{Duration, Instant};

use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;

use super::fill::{self, Target};
use super::read::{self, PageBoard, READ_JS, ReadError, ScriptCell};
use super::site::{KeyName, ReadMode, SIDE, Site, frame_index};
use crate::grid::{Cell, Conflict, Geometry, Grid};
use crate::solve::{self, Verdict};

/// What to do on the page.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The URL to open.
    pub url: String,
    /// Read and solve only; type nothing.
    pub dry_run: bool,
    /// How long to wait for the board and frames.
    pub element_timeout: Duration,
}

/// Time spent in each phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Navigation, overlays, frames and the ready wait.
    pub navigate: Duration,
    /// Reading the board.
    pub read: Duration,
    /// Solving.
    pub solve: Duration,
    /// Typing.
    pub fill: Duration,
    /// Read-back, retries and the page's confirmation.
    pub verify: Duration,
}

/// A finished puzzle.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The givens.
    pub puzzle: Grid,
    /// The solution.
    pub solution: Grid,
    /// Cells typed.
    pub typed: usize,
    /// Cells that held a wrong user value and were retyped.
    pub corrected: usize,
    /// Cells retyped after dropping a key.
    pub retried: usize,
    /// What the page showed to confirm (empty on a dry run).
    pub confirmation: String,
    /// Phase times.
    pub timings: Timings,
}

/// Why a puzzle failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The page did not load.
    #[error("cannot open {url}: {reason}")]
    Navigate {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// A frame was not found.
    #[error("frame `{frame}` not found within {waited:?}: {reason}")]
    Frame {
        /// The frame selector.
        frame: String,
        /// How long we waited.
        waited: Duration,
        /// The driver's message.
        reason: String,
    },
    /// The board never became ready.
    #[error(
        "the board was not ready after {waited:?}: {detail} (need 81 cells and at least {min_givens} givens)"
    )]
    NotReady {
        /// How long we waited.
        waited: Duration,
        /// What the last look found.
        detail: String,
        /// The givens needed.
        min_givens: usize,
    },
    /// The board could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The givens break a rule; nothing was typed.
    #[error("the board on the page is invalid ({0}); nothing was typed")]
    Invalid(Conflict),
    /// No solution; nothing was typed.
    #[error("the board on the page has no solution; nothing was typed")]
    Unsolvable,
    /// Several solutions; nothing was typed.
    #[error("the board on the page has several solutions; nothing was typed")]
    Multiple,
    /// Typing failed.
    #[error("typing the answer failed: {0}")]
    Typing(String),
    /// A cell still does not hold its digit after one retry.
    #[error("{cell} holds {found:?} after typing {expected} twice (the page drops keys)")]
    Dropped {
        /// The cell.
        cell: Cell,
        /// The digit typed.
        expected: u8,
        /// What the cell holds.
        found: String,
    },
    /// The page never showed its success marker.
    #[error("the page did not confirm the solution within {waited:?}: {detail}")]
    NotConfirmed {
        /// How long we waited.
        waited: Duration,
        /// What it showed instead.
        detail: String,
    },
    /// Another WebDriver failure.
    #[error("{step}: {reason}")]
    WebDriver {
        /// What we were doing.
        step: &'static str,
        /// The driver's message.
        reason: String,
    },
}

impl PlayError {
    /// Whether the board itself was at fault (invalid, unsolvable, several solutions).
    pub fn is_board_problem(&self) -> bool {
        matches!(self, PlayError::Invalid(_) | PlayError::Unsolvable | PlayError::Multiple)
    }
}

fn wd(step: &'static str) -> impl Fn(WebDriverError) -> PlayError {
    move |e| PlayError::WebDriver { step, reason: short(&e) }
}

/// The driver's message on one line, without the stack trace chromedriver appends.
fn short(e: &WebDriverError) -> String {
    let text = e.to_string();
    let text = text.split("Stacktrace").next().unwrap_or("");
    let mut line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.len() > 300 {
        let cut = (0..=300).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
        line.truncate(cut);
        line.push_str("...");
    }
    line
}

/// Plays one puzzle.
pub async fn play(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
) -> Result<Outcome, PlayError> {
    let mut timings = Timings::default();
    let t = Instant::now();
    open(driver, site, options).await?;
    timings.navigate = t.elapsed();

    let t = Instant::now();
    let board = read_board(driver, site).await?;
    timings.read = t.elapsed();

    let t = Instant::now();
    // 9 is a supported side and digits are 1-9, so neither step can fail on page input.
    let geometry = std::sync::Arc::new(Geometry::for_side(SIDE).expect("9x9 is supported"));
    let puzzle = Grid::new(geometry, board.puzzle_values()?).expect("digits 1-9 fit a 9x9 grid");
    let solution = match solve::solve(&puzzle) {
        Verdict::Unique(s) => s,
        Verdict::Invalid(c) => return Err(PlayError::Invalid(c)),
        Verdict::Unsolvable => return Err(PlayError::Unsolvable),
        Verdict::Multiple(..) => return Err(PlayError::Multiple),
    };
    timings.solve = t.elapsed();

    let targets = fill::plan(&board, solution.cells());
    let corrected = targets.iter().filter(|t| t.clear > 0).count();
    let mut outcome = Outcome {
        puzzle,
        solution,
        typed: targets.len(),
        corrected,
        retried: 0,
        confirmation: String::new(),
        timings,
    };
    if options.dry_run {
        return Ok(outcome);
    }

    let t = Instant::now();
    let cells = fill::elements(driver, site).await.map_err(wd("finding the cells"))?;
    if cells.len() != SIDE * SIDE {
        return Err(PlayError::Read(ReadError::CellCount {
            selector: site.board.cells.clone(),
            found: cells.len(),
            missing: String::new(),
        }));
    }
    fill::type_plan(driver, site, &board, &cells, &targets)
        .await
        .map_err(|e| PlayError::Typing(short(&e)))?;
    outcome.timings.fill = t.elapsed();

    let t = Instant::now();
    outcome.retried = read_back(driver, site, &cells, &targets, outcome.solution.cells()).await?;
    outcome.confirmation = confirm(driver, site, &cells, &board).await?;
    outcome.timings.verify = t.elapsed();
    Ok(outcome)
}

/// Navigation, overlays, cookies, frames and the ready wait.
async fn open(driver: &WebDriver, site: &Site, options: &PlayOptions) -> Result<(), PlayError> {
    let nav = |e: WebDriverError| {
        let full = short(&e);
        // The browser's own code (net::ERR_CONNECTION_REFUSED, ...) says it best.
        let reason = full
            .split_whitespace()
            .find(|w| w.starts_with("net::ERR_"))
            .map(|code| format!("the browser says {code}"))
            .unwrap_or(full);
        PlayError::Navigate { url: options.url.clone(), reason }
    };
    driver.enter_default_frame().await.map_err(wd("leaving frames"))?;
    driver.goto(&options.url).await.map_err(nav)?;
    // Chromium shows its own error page instead of failing the command when the server refuses.
    let refused: Option<String> = driver
        .execute(
            "return document.documentElement && document.documentElement.innerHTML.includes('neterror') \
             ? (document.querySelector('.error-code') || {}).textContent || 'the browser shows an error page' : null",
            vec![],
        )
        .await
        .ok()
        .and_then(|r| r.convert().ok())
        .flatten();
    if let Some(reason) = refused {
        return Err(PlayError::Navigate {
            url: options.url.clone(),
            reason: reason.trim().to_string(),
        });
    }
    if site.consent.clear_cookies {
        driver.delete_all_cookies().await.map_err(wd("clearing cookies"))?;
        driver.refresh().await.map_err(nav)?;
    }
    for selector in &site.consent.dismiss {
        // Best effort: a banner that is not there is fine.
        let _ = driver
            .execute(
                "const e = document.querySelector(arguments[0]); if (e) { e.click(); } return !!e;",
                vec![selector.clone().into()],
            )
            .await;
    }
    for frame in &site.frames {
        enter_frame(driver, frame, options.element_timeout).await?;
    }
    wait_ready(driver, site, options.element_timeout).await
}

async fn enter_frame(driver: &WebDriver, frame: &str, bound: Duration) -> Result<(), PlayError> {
    let fail = |e: WebDriverError| PlayError::Frame {
        frame: frame.to_string(),
        waited: bound,
        reason: short(&e),
    };
    match frame_index(frame) {
        Some(n) => {
            let start = Instant::now();
            let mut tick = tokio::time::interval(Duration::from_millis(50));
            loop {
                tick.tick().await;
                match driver.enter_frame(n).await {
                    Ok(()) => return Ok(()),
                    Err(e) if start.elapsed() > bound => return Err(fail(e)),
                    Err(_) => {}
                }
            }
        }
        None => {
            let el = driver
                .query(By::Css(frame))
                .desc("frame")
                .wait(bound, Duration::from_millis(50))
                .first()
                .await
                .map_err(fail)?;
            el.enter_frame().await.map_err(fail)
        }
    }
}

async fn read_script(driver: &WebDriver, site: &Site) -> WebDriverResult<Vec<ScriptCell>> {
    driver.execute(READ_JS, read::read_args(site)).await?.convert()
}

/// Waits until the cells are there and enough givens hold digits.
async fn wait_ready(
    driver: &WebDriver,
    site: &Site,
    default_bound: Duration,
) -> Result<(), PlayError> {
    let bound = site.board.ready_timeout_ms.map(Duration::from_millis).unwrap_or(default_bound);
    let min_givens = site.board.min_givens;
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(25));
    loop {
        tick.tick().await;
        let detail = match read_script(driver, site).await {
            Ok(cells) => match read::from_script(site, cells) {
                Ok(board) if board.givens() >= min_givens => return Ok(()),
                Ok(board) => format!("81 cells but only {} givens", board.givens()),
                Err(e) => e.to_string(),
            },
            Err(e) => short(&e),
        };
        if start.elapsed() >= bound {
            return Err(PlayError::NotReady { waited: bound, detail, min_givens });
        }
    }
}

/// Reads the board in one command.
async fn read_board(driver: &WebDriver, site: &Site) -> Result<PageBoard, PlayError> {
    Ok(match site.board.read {
        ReadMode::Source => {
            let html = driver.source().await.map_err(wd("reading the page source"))?;
            read::parse_source(&html, site)?
        }
        ReadMode::Script => read::from_script(
            site,
            read_script(driver, site).await.map_err(wd("reading the board"))?,
        )?,
    })
}

/// Reads every cell back (live values), retypes cells that dropped a key once, and returns how
/// many were retyped.
async fn read_back(
    driver: &WebDriver,
    site: &Site,
    cells: &[WebElement],
    targets: &[Target],
    solution: &[u8],
) -> Result<usize, PlayError> {
    let now =
        read::from_script(site, read_script(driver, site).await.map_err(wd("reading back"))?)?;
    let wrong: Vec<Target> = targets
        .iter()
        .filter(|t| now.raw[t.index] != t.digit.to_string())
        .map(|t| Target { clear: now.raw[t.index].chars().count(), ..*t })
        .collect();
    if wrong.is_empty() {
        return check_full(&now, solution).map(|()| 0);
    }
    fill::type_with_clicks(driver, cells, &wrong)
        .await
        .map_err(|e| PlayError::Typing(short(&e)))?;
    let again =
        read::from_script(site, read_script(driver, site).await.map_err(wd("reading back"))?)?;
    if let Some(t) = wrong.iter().find(|t| again.raw[t.index] != t.digit.to_string()) {
        return Err(PlayError::Dropped {
            cell: Cell::from_index(t.index, SIDE),
            expected: t.digit,
            found: again.raw[t.index].clone(),
        });
    }
    check_full(&again, solution).map(|()| wrong.len())
}

fn check_full(now: &PageBoard, solution: &[u8]) -> Result<(), PlayError> {
    match (0..SIDE * SIDE).find(|&i| now.digit(i) != solution[i]) {
        None => Ok(()),
        Some(i) => Err(PlayError::Dropped {
            cell: Cell::from_index(i, SIDE),
            expected: solution[i],
            found: now.raw[i].clone(),
        }),
    }
}

/// Triggers the site's check if it has one and waits for its success marker.
async fn confirm(
    driver: &WebDriver,
    site: &Site,
    cells: &[WebElement],
    board: &PageBoard,
) -> Result<String, PlayError> {
    let completion = &site.completion;
    if let Some(submit) = &completion.submit {
        let button = driver.find(By::Css(submit)).await.map_err(wd("finding the submit button"))?;
        button.click().await.map_err(wd("clicking the submit button"))?;
    }
    if let Some(key) = completion.key {
        // Press it in the last editable cell, as a person would after typing the last digit.
        let last = board
            .dom_order
            .iter()
            .rev()
            .find(|&&i| !board.given[i])
            .copied()
            .unwrap_or(SIDE * SIDE - 1);
        let k = match key {
            KeyName::Enter => Key::Enter,
            KeyName::Tab => Key::Tab,
        };
        driver
            .action_chain_with_delay(None, Some(Duration::ZERO))
            .click_element(&cells[last])
            .send_keys(k)
            .perform()
            .await
            .map_err(wd("pressing the completion key"))?;
    }
    let success = &completion.success;
    let bound = Duration::from_millis(completion.timeout_ms);
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    loop {
        tick.tick().await;
        let seen: Option<String> = if success.alert {
            match driver.get_alert_text().await {
                Ok(text) => {
                    driver.accept_alert().await.map_err(wd("accepting the alert"))?;
                    if text.contains(&success.text) {
                        return Ok(format!("alert: {text}"));
                    }
                    return Err(PlayError::NotConfirmed {
                        waited: start.elapsed(),
                        detail: format!("the alert said {text:?}, expected {:?}", success.text),
                    });
                }
                Err(e) if matches!(e.as_inner(), WebDriverErrorInner::NoSuchAlert(..)) => None,
                Err(e) => return Err(wd("reading the alert")(e)),
            }
        } else if success.title {
            Some(driver.title().await.map_err(wd("reading the title"))?)
        } else {
            let selector = success.selector.clone().unwrap_or_default();
            driver
                .execute(
                    "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                    vec![selector.into()],
                )
                .await
                .map_err(wd("reading the success marker"))?
                .convert()
                .map_err(wd("reading the success marker"))?
        };
        if let Some(text) = &seen
            && text.contains(&success.text)
        {
            return Ok(text.trim().to_string());
        }
        if start.elapsed() >= bound {
            let what = if success.alert {
                "no alert appeared".to_string()
            } else if success.title {
                format!("the title is {seen:?}, expected it to contain {:?}", success.text)
            } else {
                let sel = success.selector.as_deref().unwrap_or("");
                match seen {
                    None => format!("`{sel}` is not on the page"),
                    Some(t) => format!("`{sel}` shows {:?}, expected {:?}", t.trim(), success.text),
                }
            };
            return Err(PlayError::NotConfirmed { waited: bound, detail: what });
        }
    }
}
