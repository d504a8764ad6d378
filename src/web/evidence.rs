//! What a failed run leaves for the person who fixes a site file, and `sites check --url`.
//!
//! - [`collect`]: a screenshot, the page source of the document holding the board (the frame)
//!   and of the top document, the URL and the error, in one directory;
//! - [`check_page`]: what each selector of a site file matches on a live page.

use std::path::{Path, PathBuf};

use thirtyfour::prelude::*;

use super::error::short;
use super::page::{dismiss, enter_frame_now};
use super::poll::poll;
use super::read::{self, ReadArgs};
use super::site::Site;

/// Writes `error.txt`, `url.txt`, `screenshot.png`, `frame.html` (the current browsing context,
/// where the board is) and `page.html` (the top document) into `dir`, creating it. Returns the
/// files written; a file that could not be had is named in `missing.txt` instead. When the board
/// was read from pixels (`pixels`), `read.png` also shows what the reader made of the screenshot
/// (see [`crate::pixels::annotate`]).
pub async fn collect(
    driver: &WebDriver,
    dir: &Path,
    error: &str,
    pixels: bool,
) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let mut missing = Vec::new();
    let mut put = |name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, bytes)?;
        written.push(path);
        Ok(())
    };
    put("error.txt", format!("{error}\n").as_bytes())?;
    match driver.current_url().await {
        Ok(url) => put("url.txt", format!("{url}\n").as_bytes())?,
        Err(e) => missing.push(format!("url.txt: {}", short(&e))),
    }
    match driver.screenshot_as_png().await {
        Ok(png) => {
            put("screenshot.png", &png)?;
            if pixels && let Some(read) = annotated(&png) {
                put("read.png", &read)?;
            }
        }
        Err(e) => missing.push(format!("screenshot.png: {}", short(&e))),
    }
    match driver.source().await {
        Ok(html) => put("frame.html", html.as_bytes())?,
        Err(e) => missing.push(format!("frame.html: {}", short(&e))),
    }
    let top = match driver.enter_default_frame().await {
        Ok(()) => driver.source().await,
        Err(e) => Err(e),
    };
    match top {
        Ok(html) => put("page.html", html.as_bytes())?,
        Err(e) => missing.push(format!("page.html: {}", short(&e))),
    }
    if !missing.is_empty() {
        put("missing.txt", (missing.join("\n") + "\n").as_bytes())?;
    }
    Ok(written)
}

/// The reader's view of a page screenshot: the board it found outlined and each cell marked, or
/// the picture framed in red when it found none. `None` when the screenshot cannot be decoded.
fn annotated(png: &[u8]) -> Option<Vec<u8>> {
    let image = crate::pixels::decode(png).ok()?;
    let read = crate::pixels::read(image.view().ok()?).ok();
    crate::pixels::encode_png(&crate::pixels::annotate(&image, read.as_ref())).ok()
}

/// One line of `sites check --url`: what was looked for, what was found, and whether that is
/// what the site file needs.
#[derive(Clone, Debug)]
pub struct CheckLine {
    /// The site-file key (`frames[0]`, `board.cells`, ...).
    pub key: String,
    /// What matched.
    pub found: String,
    /// Whether it is usable.
    pub ok: bool,
}

/// How many elements a selector matches in the current document, or the browser's objection.
async fn count(driver: &WebDriver, selector: &str) -> Result<usize, String> {
    driver
        .execute("return document.querySelectorAll(arguments[0]).length;", vec![selector.into()])
        .await
        .and_then(|r| r.convert::<usize>())
        .map_err(|e| short(&e))
}

/// Opens `url` and reports what each selector of `site` matches: consent buttons (top
/// document), frames (entered only while the board is not in the current document), the cells,
/// their ids and givens (waiting up to `bound` for a board drawn by script), the submit button
/// and the success marker.
pub async fn check_page(
    driver: &WebDriver,
    site: &Site,
    url: &str,
    bound: std::time::Duration,
) -> Result<Vec<CheckLine>, String> {
    let mut out = Vec::new();
    let mut line = |key: &str, found: String, ok: bool| {
        out.push(CheckLine { key: key.to_string(), found, ok });
    };
    driver.goto(url).await.map_err(|e| format!("cannot open {url}: {}", short(&e)))?;
    let title = driver.title().await.unwrap_or_default();
    line("url", format!("{url} (title {title:?})"), true);
    for (i, sel) in site.consent.dismiss.iter().enumerate() {
        let found = count(driver, sel).await;
        line(&format!("consent.dismiss[{i}]"), describe_count(sel, &found), found.is_ok());
    }
    for (i, frame) in site.frames.iter().enumerate() {
        let key = format!("frames[{i}]");
        if count(driver, site.board.cells()).await.unwrap_or(0) > 0 {
            line(&key, format!("`{frame}`: not needed, the board is in this document"), true);
            break;
        }
        let entered = enter_frame_now(driver, frame).await.map_err(|e| short(&e));
        match entered {
            Ok(()) => line(&key, format!("`{frame}`: found and entered"), true),
            Err(e) => {
                line(&key, format!("`{frame}`: not found ({e})"), false);
                return Ok(out);
            }
        }
    }
    let sel = site.board.cells();
    let cells = count(driver, sel).await;
    if site.board.is_pixels() {
        // One element, its board read from a screenshot.
        line("board.cells", describe_count(sel, &cells), cells == Ok(1));
        if cells == Ok(1) {
            let (found, ok) = check_pixels(driver, site).await?;
            line("board.read", found, ok);
        }
        return Ok(out);
    }
    line("board.cells", describe_count(sel, &cells), cells == Ok(site.cell_count()));
    if let Some((text, ok)) = check_ids(driver, site).await {
        line("board.id_template", text, ok);
    }
    let givens = check_givens(driver, site, bound).await;
    match givens {
        Ok(board) => {
            let n = board.givens();
            let ok = n >= site.min_givens();
            line(
                "board.given",
                format!("{n} givens hold a digit (min_givens = {})", site.min_givens()),
                ok,
            );
        }
        Err(e) => line("board.given", e, false),
    }
    if let Some(s) = &site.completion.submit {
        let found = count(driver, s).await;
        line("completion.submit", describe_count(s, &found), found == Ok(1));
    }
    if let Some(s) = &site.completion.success.selector {
        let found = count(driver, s).await;
        line(
            "completion.success.selector",
            describe_count(s, &found),
            matches!(found, Ok(n) if n >= 1),
        );
    }
    Ok(out)
}

/// `board.read` of a board read from pixels: the overlays a run clicks away are clicked away
/// (they would cover the board's pixels), the frames entered again, and one read.
async fn check_pixels(driver: &WebDriver, site: &Site) -> Result<(String, bool), String> {
    let sel = site.board.cells();
    driver.enter_default_frame().await.map_err(|e| short(&e))?;
    dismiss(driver, site).await;
    for frame in &site.frames {
        if count(driver, sel).await.unwrap_or(0) > 0 {
            break;
        }
        enter_frame_now(driver, frame).await.map_err(|e| short(&e))?;
    }
    Ok(super::board::canvas::check(driver, sel).await)
}

/// `board.id_template`: how many of the ids it gives are on the page (`None`: no template).
async fn check_ids(driver: &WebDriver, site: &Site) -> Option<(String, bool)> {
    let ids = site.cell_ids()?;
    let found: Result<usize, String> = driver
        .execute(
            "return arguments[0].filter(id => document.getElementById(id)).length;",
            vec![ids.clone().into()],
        )
        .await
        .and_then(|r| r.convert())
        .map_err(|e| short(&e));
    let template = site.board.dom().and_then(|d| d.id_template.as_deref()).unwrap_or("");
    let text = match &found {
        Ok(n) => format!(
            "`{template}`: {n} of {} ids found ({} .. {})",
            ids.len(),
            ids[0],
            ids[ids.len() - 1]
        ),
        Err(e) => format!("`{template}`: {e}"),
    };
    Some((text, found == Ok(ids.len())))
}

/// The board as read once enough givens hold a digit, or as the last read within `bound`
/// showed it.
async fn check_givens(
    driver: &WebDriver,
    site: &Site,
    bound: std::time::Duration,
) -> Result<read::PageBoard, String> {
    let mut last = Err(String::from("the board was never read"));
    let every = std::time::Duration::from_millis(50);
    let enough = poll(bound, every, "the givens", async |_| {
        let read = read::cells(driver, &ReadArgs::new(site))
            .await
            .map_err(|e| short(&e))
            .and_then(|c| read::from_script(site, c).map_err(|e| e.to_string()));
        if matches!(&read, Ok(b) if b.givens() >= site.min_givens()) {
            return Ok::<_, ()>(Some(read));
        }
        last = read;
        Ok(None)
    })
    .await;
    enough.unwrap_or(last)
}

fn describe_count(selector: &str, found: &Result<usize, String>) -> String {
    match found {
        Ok(1) => format!("`{selector}`: 1 match"),
        Ok(n) => format!("`{selector}`: {n} matches"),
        Err(e) => format!("`{selector}`: the browser rejects it: {e}"),
    }
}
