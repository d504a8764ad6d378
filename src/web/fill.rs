//! Typing the answer. The plan lists the cells to type (never a given; user values that already
//! match are left alone; wrong ones are cleared first). The default strategy clicks the first
//! cell and sends the whole plan (digits, Tabs between cells) as one Element Send Keys: real,
//! trusted key events in two commands, so the page's keyboard handlers run as for a person. One
//! Actions chain does the same in one command but measured about twice as slow in chromedriver.
//!
//! Keys go only into the board: [`super::guard`] checks, in the page, that the Tab walk reaches
//! exactly the targets (else the cells are clicked), re-reads the givens and installs a guard
//! that swallows any key leaving the board, and reads the board back with the guard's report.

use std::time::Duration;

use thirtyfour::prelude::*;

use super::read::{PageBoard, symbol_key};
use super::site::Strategy;

/// One cell to type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Reading-order index.
    pub index: usize,
    /// The digit to leave in it.
    pub digit: u8,
    /// How many characters to delete first (a wrong user value).
    pub clear: usize,
}

/// The cells to type, in document order (so a Tab walk visits them in order).
pub fn plan(board: &PageBoard, solution: &[u8]) -> Vec<Target> {
    board
        .dom_order
        .iter()
        .copied()
        .filter(|&i| !board.given[i] && board.digit(i) != solution[i])
        .map(|i| Target { index: i, digit: solution[i], clear: board.raw[i].chars().count() })
        .collect()
}

/// How to move between cells, decided before typing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Tab walk: the targets in this order, with this many Tabs between each and the next.
    Tab {
        /// Target order (indices into the plan).
        order: Vec<usize>,
        /// Tabs between consecutive targets.
        steps: Vec<usize>,
    },
    /// Click every target.
    Click,
}

/// The keys for one target: delete a wrong value (in a text field), then the symbol. A cell
/// that is clicked gets the symbol alone (digits and letters only): it replaces what the cell
/// showed.
fn keys_for(target: &Target, field: bool, out: &mut String) {
    if field && target.clear > 0 {
        out.push(char::from(Key::End));
        for _ in 0..target.clear {
            out.push(char::from(Key::Backspace));
        }
    }
    out.push(symbol_key(target.digit));
}

/// Types the plan with the site's strategy along `route`. With `chunk > 0` the Tab walk is sent
/// as several Send Keys commands of at most `chunk` targets each (so a cancelled run stops after
/// the command in flight, for drivers sudobot cannot kill).
pub async fn type_plan(
    driver: &WebDriver,
    strategy: Strategy,
    route: &Route,
    cells: &[WebElement],
    targets: &[Target],
    chunk: usize,
) -> WebDriverResult<()> {
    if targets.is_empty() {
        return Ok(());
    }
    match (strategy, route) {
        (Strategy::Keys | Strategy::Actions, Route::Click) => {
            type_with_clicks(driver, cells, targets, true).await
        }
        (Strategy::Click, _) => type_with_clicks(driver, cells, targets, false).await,
        (Strategy::Keys, Route::Tab { order, steps }) => {
            type_with_tab(driver, true, order, steps, cells, targets, chunk).await
        }
        (Strategy::Actions, Route::Tab { order, steps }) => {
            type_with_tab(driver, false, order, steps, cells, targets, 0).await
        }
        (Strategy::PerCell, _) => {
            for t in targets {
                let el = &cells[t.index];
                el.click().await?;
                let mut keys = String::new();
                keys_for(t, true, &mut keys);
                el.send_keys(keys).await?;
            }
            Ok(())
        }
        (Strategy::Script, _) => type_with_script(driver, cells, targets).await,
    }
}

/// Click the first target, then walk with Tab: the Tab counts come from the page's own focus
/// order ([`PREPARE_JS`]). One Element Send Keys per chunk (`one_send_keys`) or one Actions
/// chain.
async fn type_with_tab(
    driver: &WebDriver,
    one_send_keys: bool,
    order: &[usize],
    steps: &[usize],
    cells: &[WebElement],
    targets: &[Target],
    chunk: usize,
) -> WebDriverResult<()> {
    let chunk = if chunk == 0 { order.len() } else { chunk };
    let first = &cells[targets[order[0]].index];
    if !one_send_keys {
        let mut keys = String::new();
        for (k, &t) in order.iter().enumerate() {
            if k > 0 {
                keys.extend(std::iter::repeat_n(char::from(Key::Tab), steps[k - 1]));
            }
            keys_for(&targets[t], true, &mut keys);
        }
        return driver
            .action_chain_with_delay(None, Some(Duration::ZERO))
            .click_element(first)
            .send_keys(keys)
            .perform()
            .await;
    }
    // Element Send Keys with a run of keys: chromedriver focuses the element and types every
    // key (digits, Tabs, Backspaces) as trusted key events into whatever has focus. Measured
    // about twice as fast as the same keys in an Actions chain. Each chunk starts at a target,
    // which Send Keys focuses itself.
    first.click().await?;
    for (c, part) in order.chunks(chunk).enumerate() {
        let mut keys = String::new();
        for (k, &t) in part.iter().enumerate() {
            if k > 0 {
                let step = steps[c * chunk + k - 1];
                keys.extend(std::iter::repeat_n(char::from(Key::Tab), step));
            }
            keys_for(&targets[t], true, &mut keys);
        }
        cells[targets[part[0]].index].send_keys(keys).await?;
    }
    Ok(())
}

/// Show-thinking: before each target, `tell` gets the texts of its steps (`notes`, one list per
/// target), then the cell is clicked and typed, then the user's pause (`delay`) follows.
pub async fn type_thinking(
    driver: &WebDriver,
    field: bool,
    cells: &[WebElement],
    targets: &[Target],
    notes: &[Vec<String>],
    delay: Duration,
    tell: &(dyn Fn(&str) + Send + Sync),
) -> WebDriverResult<()> {
    for (k, t) in targets.iter().enumerate() {
        for text in notes.get(k).into_iter().flatten() {
            tell(text);
        }
        let el = &cells[t.index];
        let mut keys = String::new();
        keys_for(t, field, &mut keys);
        if field {
            el.click().await?;
            el.send_keys(keys).await?;
        } else {
            type_with_clicks(driver, cells, std::slice::from_ref(t), false).await?;
        }
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
    }
    Ok(())
}

/// Click each target's centre and type into it: one chain, for pages whose Tab order leaves the
/// board and for cells that are not text fields (`field == false`: no clearing keys).
pub async fn type_with_clicks(
    driver: &WebDriver,
    cells: &[WebElement],
    targets: &[Target],
    field: bool,
) -> WebDriverResult<()> {
    let mut chain = driver.action_chain_with_delay(None, Some(Duration::ZERO));
    for t in targets {
        let mut keys = String::new();
        keys_for(t, field, &mut keys);
        chain = chain.click_element(&cells[t.index]).send_keys(keys);
    }
    chain.perform().await
}

/// Opt-in: the native value setter plus input/keyup/change events (untrusted) in one script.
async fn type_with_script(
    driver: &WebDriver,
    cells: &[WebElement],
    targets: &[Target],
) -> WebDriverResult<()> {
    const JS: &str = r#"
const [els, digits] = arguments;
const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
els.forEach((el, i) => {
  setter.call(el, digits[i]);
  for (const type of ['input', 'keyup', 'change']) el.dispatchEvent(new Event(type, {bubbles: true}));
});
"#;
    let els: Vec<serde_json::Value> =
        targets.iter().map(|t| cells[t.index].to_json()).collect::<WebDriverResult<_>>()?;
    let digits: Vec<String> = targets.iter().map(|t| symbol_key(t.digit).to_string()).collect();
    driver.execute(JS, vec![els.into(), digits.into()]).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_skips_givens_and_right_values_and_clears_wrong_ones() {
        let mut raw = vec![String::new(); 81];
        let mut given = vec![false; 81];
        raw[0] = "5".into();
        given[0] = true;
        raw[1] = "3".into(); // user value, right
        raw[2] = "9".into(); // user value, wrong
        let board = PageBoard { side: 9, raw, given, dom_order: (0..81).collect() };
        let mut solution = vec![1u8; 81];
        solution[0] = 5;
        solution[1] = 3;
        solution[2] = 4;
        let p = plan(&board, &solution);
        assert_eq!(p.len(), 79);
        assert_eq!(p[0], Target { index: 2, digit: 4, clear: 1 });
        assert_eq!(p[1], Target { index: 3, digit: 1, clear: 0 });
    }
}
