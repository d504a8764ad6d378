//! Where the board is: a site file's board ([`Locate::Site`], found again by discovery when it no
//! longer matches the page: self-healing) or any page's board found by discovery
//! ([`Locate::Discover`], `sudobot web --url URL`). Enters the board's frames and waits until
//! it is there.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use thirtyfour::prelude::*;

use super::board::dom;
use super::discover;
use super::error::{PlayError, wd};
use super::options::{Discover, PlayOptions, Timings, timed};
use super::page::{board_here, enter_frame};
use super::poll::{MISMATCH_SETTLE, Waited, poll};
use super::site::Site;

/// Where the board to play comes from.
#[derive(Clone, Debug)]
pub enum Locate {
    /// A site file's board (found again by discovery as [`PlayOptions::discover`] says).
    Site(Box<Site>),
    /// Any page: the board is found on it.
    Discover,
}

/// The board to play: the site's, found by discovery (no site file), or found by discovery
/// after the site's did not match (self-healing, with the note that says so). Enters the
/// board's frames and waits until it is ready. Returns the site to use when it is not `site`.
pub(crate) async fn find_board<'a>(
    driver: &WebDriver,
    locate: &'a Locate,
    options: &PlayOptions,
    timings: &mut Timings,
) -> Result<(Cow<'a, Site>, Option<String>), PlayError> {
    let with_success = |mut found: Site| {
        if let Some(success) = &options.success {
            found.completion.success = success.clone();
        }
        found
    };
    let Locate::Site(site) = locate else {
        let t = Instant::now();
        let found = discover::discover(driver, &options.url, options.element_timeout).await;
        timed(&mut timings.discover, t);
        let found = found?;
        tracing::debug!("discovery chose {}", found.why);
        for other in &found.others {
            tracing::debug!("discovery passed over {other}");
        }
        let found = with_success(found.site);
        let t = Instant::now();
        enter_board(driver, &found, options, false).await?;
        timed(&mut timings.navigate, t);
        return Ok((Cow::Owned(found), None));
    };
    let heal = options.discover == Discover::Fallback;
    let t = Instant::now();
    let entered = enter_board(driver, site, options, heal).await;
    timed(&mut timings.navigate, t);
    let failed = match entered {
        Ok(()) => return Ok((Cow::Borrowed(&**site), None)),
        Err(e) if heal && e.is_board_mismatch() => e,
        Err(e) => return Err(e),
    };
    let t = Instant::now();
    driver.enter_default_frame().await.map_err(wd("leaving the frames"))?;
    // A page still drawing its board gets what is left of the wait.
    let left = options.element_timeout.saturating_sub(timings.navigate.unwrap_or_default());
    let found = discover::discover(driver, &options.url, left).await;
    timed(&mut timings.discover, t);
    let found = match found {
        Ok(found) => found,
        Err(discover) => {
            return Err(PlayError::NotHealed { site_error: Box::new(failed), discover });
        }
    };
    let healed = site.healed_by(&found.site);
    let note = format!(
        "site `{}`: {failed}. Found on the page instead: {}. These site-file lines would fix \
         it:\n{}",
        site.name,
        found.why,
        healed.board_toml()
    );
    tracing::warn!("{note}");
    let t = Instant::now();
    enter_board(driver, &healed, options, heal).await?;
    timed(&mut timings.navigate, t);
    Ok((Cow::Owned(healed), Some(note)))
}

/// Enters the board's frames and waits (bounded) until the board is ready. With `heal`, a
/// board that keeps not matching ends the wait early (self-healing looks for it then).
async fn enter_board(
    driver: &WebDriver,
    site: &Site,
    options: &PlayOptions,
    heal: bool,
) -> Result<(), PlayError> {
    for frame in &site.frames {
        // A page opened at the frame's own URL already holds the board: enter frames only
        // while the board is not in the current document.
        if board_here(driver, site).await {
            tracing::debug!("the board is in this document; not entering frame `{frame}`");
            break;
        }
        enter_frame(driver, frame, options.element_timeout).await?;
    }
    if site.board.is_pixels() {
        // The board's own wait (its pixels) is `canvas::read`'s; here the element must exist.
        return wait_element(driver, site, options.element_timeout, heal).await;
    }
    dom::wait_ready(driver, site, options.element_timeout, heal).await
}

/// Waits (bounded) until the board's one element (a canvas) is in the document. With
/// self-healing on, an element still missing after [`MISMATCH_SETTLE`] goes to discovery.
async fn wait_element(
    driver: &WebDriver,
    site: &Site,
    bound: Duration,
    heal: bool,
) -> Result<(), PlayError> {
    let bound = site.board.ready_timeout_ms().map(Duration::from_millis).unwrap_or(bound);
    poll(bound, Duration::from_millis(25), "the board's element", async |elapsed| {
        if board_here(driver, site).await {
            return Ok(Some(()));
        }
        if heal && elapsed >= MISMATCH_SETTLE {
            return Err(elapsed);
        }
        Ok(None)
    })
    .await
    .map_err(|w| {
        let (Waited::Stopped(waited) | Waited::Out(waited)) = w;
        PlayError::NotReady {
            cells: site.cell_count(),
            mismatch: true,
            waited,
            detail: format!("`{}` matches no element", site.board.cells()),
            min_givens: site.min_givens(),
        }
    })
}
