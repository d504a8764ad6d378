//! The page around the board: opening it (navigation, the browser's own error page, cookies,
//! overlays), entering frames (also for `sites check`), the page's input mode, its dialogs
//! (read and dismissed, never accepted) and its confirmation of a finished board.

use std::time::{Duration, Instant};

use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;

use super::error::{PlayError, short, wd, wd_selector};
use super::options::PlayOptions;
use super::poll::{CLICK_PROOF, Waited, poll};
use super::site::{InputMode, KeyName, Site, Success, failure_text, frame_index};

/// Puts the page in normal input mode (a key enters a value, not a pencil mark) and checks
/// that it is: `active` matches, before or within a bounded wait after clicking `select`.
pub(super) async fn normal_mode(driver: &WebDriver, mode: &InputMode) -> Result<(), PlayError> {
    let on = || async {
        driver
            .execute(
                "return document.querySelector(arguments[0]) !== null;",
                vec![mode.active.clone().into()],
            )
            .await
            .and_then(|r| r.convert::<bool>())
            .map_err(|e| wd_selector("checking the input mode", &mode.active, e))
    };
    if on().await? {
        return Ok(());
    }
    let button = driver
        .find(By::Css(&mode.select))
        .await
        .map_err(|e| wd_selector("finding the normal-mode control", &mode.select, e))?;
    button.click().await.map_err(|e| wd_selector("clicking normal mode", &mode.select, e))?;
    poll(CLICK_PROOF, Duration::from_millis(20), "normal input mode", async |_| {
        on().await.map(|yes| yes.then_some(()))
    })
    .await
    .map_err(|w| {
        w.or_out(|_| {
            PlayError::InputMode(format!(
                "`{}` does not match after clicking `{}`",
                mode.active, mode.select
            ))
        })
    })
}

/// If `e` says a dialog is open (an alert, a confirm or a prompt: the session leaves them open,
/// `unhandledPromptBehavior = "ignore"`), reads its text and dismisses it, and returns the text.
/// A dialog is never accepted: Cancel keeps what a confirm would throw away, and on an alert
/// dismissing is the same as OK.
pub(super) async fn take_alert(
    driver: &WebDriver,
    e: &WebDriverError,
) -> Result<Option<String>, PlayError> {
    if !matches!(e.as_inner(), WebDriverErrorInner::UnexpectedAlertOpen(..)) {
        return Ok(None);
    }
    take_open_dialog(driver).await
}

/// Reads and dismisses the dialog open now, if there is one.
pub(super) async fn take_open_dialog(driver: &WebDriver) -> Result<Option<String>, PlayError> {
    let text = match driver.get_alert_text().await {
        Ok(text) => text,
        Err(e) if matches!(e.as_inner(), WebDriverErrorInner::NoSuchAlert(..)) => return Ok(None),
        Err(e) => return Err(wd("reading the dialog")(e)),
    };
    match driver.dismiss_alert().await {
        Ok(()) => {}
        // Closed by the page meanwhile.
        Err(e) if matches!(e.as_inner(), WebDriverErrorInner::NoSuchAlert(..)) => {}
        Err(e) => return Err(wd("dismissing the dialog")(e)),
    }
    tracing::debug!("the page opened a dialog (dismissed): {text:?}");
    Ok(Some(text))
}

/// Navigation, overlays and cookies.
pub(super) async fn navigate(
    driver: &WebDriver,
    site: Option<&Site>,
    options: &PlayOptions,
) -> Result<(), PlayError> {
    let nav = |e: WebDriverError| {
        if matches!(e.as_inner(), WebDriverErrorInner::WebDriverTimeout(..)) {
            return PlayError::Navigate {
                url: options.url.clone(),
                reason: format!(
                    "the page did not finish loading: timed out after {:?} \
                     (`browser.page_load_timeout_ms`)",
                    options.page_load_timeout
                ),
                source: Some(e),
            };
        }
        let full = short(&e);
        // The browser's own code (net::ERR_CONNECTION_REFUSED, ...) says it best.
        let reason = super::browser::error_code(&full)
            .map(|code| format!("the browser says {code}"))
            .unwrap_or(full);
        PlayError::Navigate { url: options.url.clone(), reason, source: Some(e) }
    };
    // No "leave frames" command first: Navigate To works on the top-level context and leaves
    // the session there, and on a fresh browser that command would wait out the first page's
    // load under its own name instead of the navigation's.
    let t = Instant::now();
    driver.goto(&options.url).await.map_err(nav)?;
    tracing::debug!(elapsed = ?t.elapsed(), url = %options.url, "page loaded");
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
            source: None,
        });
    }
    // A page no site file describes has no cookies to clear and no overlays named.
    let Some(site) = site else { return Ok(()) };
    if site.consent.clear_cookies {
        driver.delete_all_cookies().await.map_err(wd("clearing cookies"))?;
        driver.refresh().await.map_err(nav)?;
    }
    dismiss(driver, site).await;
    Ok(())
}

/// Clicks each of the site's `consent.dismiss` selectors that is present (best effort: a banner
/// that is not there is fine).
pub async fn dismiss(driver: &WebDriver, site: &Site) {
    for selector in &site.consent.dismiss {
        let _ = driver
            .execute(
                "const e = document.querySelector(arguments[0]); if (e) { e.click(); } return !!e;",
                vec![selector.clone().into()],
            )
            .await;
    }
}

/// Whether the current document has at least one board cell.
pub(super) async fn board_here(driver: &WebDriver, site: &Site) -> bool {
    driver
        .execute(
            "return document.querySelector(arguments[0]) !== null;",
            vec![site.board.cells().into()],
        )
        .await
        .ok()
        .and_then(|r| r.convert::<bool>().ok())
        .unwrap_or(false)
}

/// Enters `frame` (an index or a selector), looking again until it is there or `bound` passes.
pub(super) async fn enter_frame(
    driver: &WebDriver,
    frame: &str,
    bound: Duration,
) -> Result<(), PlayError> {
    let fail = |source: WebDriverError| PlayError::Frame {
        frame: frame.to_string(),
        waited: bound,
        source,
    };
    // The last look's error is the one named: a look at the bound always gives one.
    let entered =
        poll(bound, Duration::from_millis(50), "the frame", async |elapsed| match enter_frame_now(
            driver, frame,
        )
        .await
        {
            Ok(()) => Ok(Some(())),
            Err(e) if elapsed >= bound => Err(e),
            Err(_) => Ok(None),
        })
        .await;
    entered
        .map_err(|w| {
            w.or_out(|_| {
                let info =
                    thirtyfour::error::WebDriverErrorInfo::new(format!("no frame `{frame}`"));
                WebDriverError::from_inner(WebDriverErrorInner::NoSuchFrame(info))
            })
        })
        .map_err(fail)
}

/// Enters `frame` now, once: by its index, or the element its selector matches.
pub async fn enter_frame_now(driver: &WebDriver, frame: &str) -> WebDriverResult<()> {
    match frame_index(frame) {
        Some(n) => driver.enter_frame(n).await,
        None => driver.find(By::Css(frame)).await?.enter_frame().await,
    }
}

/// Triggers the site's check if it has one and waits for its success marker. `alert` is a
/// dialog that opened with the last key typed (already dismissed): a failure when it says the
/// solution is wrong, the confirmation when the site confirms by an alert with its text, and
/// otherwise only information (the site's own rule still decides, and a failure names it).
/// A dialog that opens while waiting is dismissed and judged the same way.
pub(super) async fn confirm(
    driver: &WebDriver,
    site: &Site,
    key_cell: Option<&WebElement>,
    before: bool,
    alert: Option<String>,
) -> Result<String, PlayError> {
    let success = &site.completion.success;
    if let Some(text) = &alert {
        match alert_says(success, text) {
            AlertSays::Refutes(e) => return Err(e),
            AlertSays::Confirms(shown) => return Ok(shown),
            AlertSays::Neither => {
                tracing::info!("an alert said {text:?} when the last value was typed (dismissed)")
            }
        }
    }
    if before {
        let what =
            success.selector.as_deref().map(|s| format!("`{s}`")).unwrap_or("the title".into());
        return Err(PlayError::NotConfirmed {
            waited: Duration::ZERO,
            detail: format!(
                "{what} already showed {:?} before anything was typed, so it proves nothing",
                success.text
            ),
        });
    }
    complete(driver, site, key_cell).await?;
    if success.read_back {
        // Every cell was read back right; the page's own verdict is not known.
        return Ok(String::new());
    }
    wait_confirmation(driver, site, alert).await
}

/// What a dialog's text says about the finished board.
#[derive(Debug)]
enum AlertSays {
    /// The site confirms by an alert, and this one holds its text: the confirmation shown.
    Confirms(String),
    /// It holds a failure word: the page says the solution is wrong.
    Refutes(PlayError),
    /// Neither: information only (the site's own marker still decides).
    Neither,
}

/// Judges a dialog's text against the site's success rule.
fn alert_says(success: &Success, text: &str) -> AlertSays {
    if let Some(e) = refuted("an alert said", text) {
        return AlertSays::Refutes(e);
    }
    if success.alert && success.confirmed_by(text) {
        return AlertSays::Confirms(format!("alert: {text}"));
    }
    AlertSays::Neither
}

/// The failure a text shows where the page would confirm (`where_`: "an alert said", "the
/// title is", ...), if it holds a failure word.
fn refuted(where_: &str, shown: &str) -> Option<PlayError> {
    failure_text(shown).map(|word| PlayError::Refuted {
        where_: where_.to_string(),
        shown: shown.trim().to_string(),
        word,
    })
}

/// What a finished board asks of the page before it confirms: the bot flag set, the submit
/// button clicked, the completion key pressed in `key_cell`.
async fn complete(
    driver: &WebDriver,
    site: &Site,
    key_cell: Option<&WebElement>,
) -> Result<(), PlayError> {
    let completion = &site.completion;
    if let Some(flag) = &completion.bot_flag {
        // The site asks bots to say so: set its field before submitting.
        let set: bool = driver
            .execute(
                "const e = document.querySelector(arguments[0]); if (!e) return false; \
                 e.value = arguments[1]; return true;",
                vec![flag.selector.clone().into(), flag.value.clone().into()],
            )
            .await
            .and_then(|r| r.convert())
            .map_err(|e| wd_selector("setting the bot flag", &flag.selector, e))?;
        if !set {
            tracing::warn!("the bot flag `{}` is not on the page", flag.selector);
        }
    }
    if let Some(submit) = &completion.submit {
        let button = driver
            .find(By::Css(submit))
            .await
            .map_err(|e| wd_selector("finding the submit button", submit, e))?;
        button.click().await.map_err(wd("clicking the submit button"))?;
    }
    if let (Some(key), Some(cell)) = (completion.key, key_cell) {
        let k = match key {
            KeyName::Enter => Key::Enter,
            KeyName::Tab => Key::Tab,
        };
        let pressed = driver
            .action_chain_with_delay(None, Some(Duration::ZERO))
            .click_element(cell)
            .send_keys(k)
            .perform()
            .await;
        match pressed {
            // The key opened the page's dialog: the wait for the confirmation takes it.
            Err(e) if is_dialog(&e) => {}
            pressed => pressed.map_err(wd("pressing the completion key"))?,
        }
    }
    Ok(())
}

/// Whether a command failed because a dialog is open.
fn is_dialog(e: &WebDriverError) -> bool {
    matches!(e.as_inner(), WebDriverErrorInner::UnexpectedAlertOpen(..))
}

/// Waits (bounded by the completion timeout) for the success marker: the title, an element's
/// text or an alert. `seen_alert`: an alert that was not the confirmation, for the message.
async fn wait_confirmation(
    driver: &WebDriver,
    site: &Site,
    mut seen_alert: Option<String>,
) -> Result<String, PlayError> {
    let success = &site.completion.success;
    let bound = Duration::from_millis(site.completion.timeout_ms);
    // Whether the last command found a dialog open.
    let mut dialog_open = false;
    // What the marker showed at the last look.
    let mut seen: Option<String> = None;
    let confirmed =
        poll(bound, Duration::from_millis(20), "the page's confirmation", async |elapsed| {
            // A dialog open now: dismissed, and judged by its text.
            let dialog = if success.alert || std::mem::take(&mut dialog_open) {
                take_open_dialog(driver).await?
            } else {
                None
            };
            if let Some(text) = dialog {
                match alert_says(success, &text) {
                    AlertSays::Refutes(e) => return Err(e),
                    AlertSays::Confirms(shown) => return Ok(Some(shown)),
                    AlertSays::Neither => {}
                }
                if success.alert {
                    return Err(PlayError::NotConfirmed {
                        waited: elapsed,
                        detail: format!(
                            "an alert said {text:?} (dismissed), expected one saying {:?}",
                            success.text
                        ),
                    });
                }
                tracing::info!(
                    "an alert said {text:?} while waiting for the confirmation (dismissed)"
                );
                seen_alert = Some(text);
            }
            match marker(driver, site, elapsed < bound).await? {
                // A dialog is open: the next look takes it.
                None => dialog_open = true,
                Some(now) => seen = now,
            }
            Ok(seen.as_ref().filter(|t| success.confirmed_by(t)).map(|t| t.trim().to_string()))
        })
        .await;
    match confirmed {
        Ok(text) => Ok(text),
        Err(Waited::Stopped(e)) => Err(e),
        Err(Waited::Out(_)) => Err(not_confirmed(site, seen, &seen_alert)),
    }
}

/// What the success marker shows now (`Some(None)`: no marker element; always `Some(None)` for
/// an alert, which [`wait_confirmation`] takes itself); `None` when a dialog is in the way and
/// `may_wait` (the next look takes it).
async fn marker(
    driver: &WebDriver,
    site: &Site,
    may_wait: bool,
) -> Result<Option<Option<String>>, PlayError> {
    let success = &site.completion.success;
    if success.alert {
        return Ok(Some(None));
    }
    if success.title {
        return match driver.title().await {
            Err(e) if is_dialog(&e) && may_wait => Ok(None),
            title => Ok(Some(Some(title.map_err(wd("reading the title"))?))),
        };
    }
    let selector = success.selector.clone().unwrap_or_default();
    let read = driver
        .execute(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
            vec![selector.into()],
        )
        .await;
    match read {
        Err(e) if is_dialog(&e) && may_wait => Ok(None),
        read => Ok(Some(
            read.map_err(wd("reading the success marker"))?
                .convert()
                .map_err(wd("reading the success marker"))?,
        )),
    }
}

/// Why the page did not confirm within the completion timeout: a failure word where the marker
/// is, else what it showed instead.
fn not_confirmed(site: &Site, seen: Option<String>, seen_alert: &Option<String>) -> PlayError {
    let success = &site.completion.success;
    let sel = success.selector.as_deref().unwrap_or("");
    let where_ = if success.title { "the title is".to_string() } else { format!("`{sel}` shows") };
    if let Some(e) = seen.as_deref().and_then(|t| refuted(&where_, t)) {
        return e;
    }
    let what = if success.alert {
        format!("no alert saying {:?} appeared", success.text)
    } else if success.title {
        format!("the title is {seen:?}, expected it to contain {:?}", success.text)
    } else {
        match seen {
            None => format!("`{sel}` is not on the page"),
            Some(t) => format!("`{sel}` shows {:?}, expected {:?}", t.trim(), success.text),
        }
    };
    let note = seen_alert
        .as_ref()
        .map(|t| format!("; an alert said {t:?} (dismissed)"))
        .unwrap_or_default();
    PlayError::NotConfirmed {
        waited: Duration::from_millis(site.completion.timeout_ms),
        detail: format!("{what}{note}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_alert(text: &str) -> Success {
        Success { alert: true, text: text.into(), ..Success::default() }
    }

    #[test]
    fn an_alert_with_the_sites_text_is_the_confirmation() {
        let says = alert_says(&by_alert("Congratulations"), "Congratulations, you solved it!");
        assert!(
            matches!(&says, AlertSays::Confirms(s) if s == "alert: Congratulations, you solved it!"),
            "{says:?}"
        );
    }

    #[test]
    fn an_alert_with_a_failure_word_refutes_whatever_the_site_confirms_by() {
        for success in [by_alert("Congratulations"), Success { title: true, ..Success::default() }]
        {
            let says = alert_says(&success, "Sorry, the solution is wrong");
            let AlertSays::Refutes(e) = says else { panic!("{says:?}") };
            assert_eq!(e.kind(), crate::web::FailureKind::PageSaysWrong);
            assert!(e.to_string().contains("an alert said"), "{e}");
        }
    }

    #[test]
    fn an_alert_is_only_information_where_the_site_confirms_otherwise_or_by_other_text() {
        let title = Success { title: true, text: "Solved".into(), ..Success::default() };
        assert!(matches!(alert_says(&title, "Solved"), AlertSays::Neither));
        assert!(matches!(alert_says(&by_alert("Congratulations"), "Saved"), AlertSays::Neither));
    }
}
