//! Typing the answer. The plan lists the cells to type (never a given; user values that already
//! match are left alone; wrong ones are cleared first). The default strategy clicks the first
//! cell and sends the whole plan (digits, Tabs between cells) as one Element Send Keys: real,
//! trusted key events in two commands, so the page's keyboard handlers run as for a person. One
//! Actions chain does the same in one command but measured about twice as slow in chromedriver.
//!
//! Keys go only into the board: [`PREPARE_JS`] checks, in the page, that the Tab walk reaches
//! exactly the targets (else the cells are clicked), re-reads the givens and installs a guard that
//! swallows any key leaving the board; [`FINISH_JS`] reads the board back with the guard's
//! report (focus, other controls, a board that changed).

use std::time::Duration;

use serde::Deserialize;
use thirtyfour::prelude::*;

use super::read::PageBoard;
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
        .filter(|&i| !board.given[i] && board.raw[i] != solution[i].to_string())
        .map(|i| Target { index: i, digit: solution[i], clear: board.raw[i].chars().count() })
        .collect()
}

/// The script run just before the first key, in the board's frame. Arguments: the cell
/// selector, the ids in reading order (or null), the given kind and name (as [`super::read`]),
/// the target cells (reading-order indices), and the success marker (`selector`, `title` or
/// null) with its text. It returns:
///
/// - `elements`: the cells in reading order (for clicks and Send Keys);
/// - `cells`: every cell as [`super::read::READ_JS`] returns it (the givens, re-read now);
/// - `tab`: whether pressing Tab from the first target reaches exactly the targets, in which
///   order and with how many Tabs each, passing only board cells; else why not;
/// - `marker`: whether the success marker already shows success (then it proves nothing).
///
/// It also installs a guard: capture-phase listeners that swallow every key event whose target
/// is not a board cell, every character typed into a cell that is not a target, and every key
/// once the board changed (cells replaced or a given's value changed) or focus left the board;
/// and it records the values of the page's other controls. [`FINISH_JS`] reads and removes it.
pub const PREPARE_JS: &str = r#"
const [sel, ids, kind, name, targets, marker, markerText] = arguments;
const byDoc = Array.from(document.querySelectorAll(sel));
const cells = ids ? ids.map(id => document.getElementById(id)) : byDoc;
if (cells.some(c => !c)) return {missing: cells.filter(c => !c).length};
const valueOf = e => (e.value !== undefined ? String(e.value) : (e.textContent || '')).trim();
const givenOf = (e, v) => kind === 'attribute' ? e.hasAttribute(name)
  : kind === 'class' ? e.classList.contains(name)
  : v !== '' && e.defaultValue !== undefined && e.defaultValue.trim() !== '';
const read = byDoc.map(e => { const v = valueOf(e); return [v, givenOf(e, v), e.id || null]; });
const describe = e => !e ? 'nothing' : e === document.body ? 'the page body'
  : e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.name ? '[name=' + e.name + ']' : '')
    + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '');
const board = new Set(cells);
// Sequential focus navigation order: positive tabindex first (ascending, stable), then the rest
// in document order; only rendered, enabled, non-inert elements that take focus.
const focusable = e => {
  if (e.tabIndex < 0 || e.disabled || e.closest('[inert]')) return false;
  if (e.tagName === 'INPUT' && e.type === 'hidden') return false;
  const natural = e.matches('input,select,textarea,button,a[href],area[href],iframe,summary,[contenteditable]');
  if (!natural && !e.hasAttribute('tabindex')) return false;
  if (e.getClientRects().length === 0) return false;
  const v = getComputedStyle(e).visibility;
  return v !== 'hidden' && v !== 'collapse';
};
const all = Array.from(document.querySelectorAll('*')).filter(focusable);
const order = all.filter(e => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex)
  .concat(all.filter(e => e.tabIndex === 0));
const pos = new Map(order.map((e, i) => [e, i]));
let tab = {ok: true, reason: '', order: [], steps: []};
const missing = targets.find(t => !pos.has(cells[t]));
if (missing !== undefined) {
  tab = {ok: false, reason: describe(cells[missing]) + ' is not a Tab stop', order: [], steps: []};
} else {
  const sorted = targets.slice().sort((a, b) => pos.get(cells[a]) - pos.get(cells[b]));
  for (let i = 1; i < sorted.length && tab.ok; i++) {
    const from = pos.get(cells[sorted[i - 1]]), to = pos.get(cells[sorted[i]]);
    for (let k = from + 1; k < to; k++) {
      if (!board.has(order[k])) {
        tab = {ok: false, reason: 'Tab from ' + describe(cells[sorted[i - 1]]) + ' passes '
          + describe(order[k]) + ', which is not a board cell', order: [], steps: []};
        break;
      }
    }
    tab.steps.push(to - from);
  }
  if (tab.ok) tab.order = sorted;
}
let shown = null;
if (marker === 'title') shown = document.title;
else if (marker) { const m = document.querySelector(marker); shown = m ? m.textContent : null; }
const typable = e => !board.has(e) && !e.disabled && !e.readOnly && !(e.tagName === 'INPUT' && e.type === 'hidden');
const others = Array.from(document.querySelectorAll('input,select,textarea,[contenteditable]')).filter(typable);
const state = e => e.isContentEditable ? e.textContent
  : (e.type === 'checkbox' || e.type === 'radio') ? String(e.checked)
  : e.tagName === 'SELECT' ? String(e.selectedIndex) : String(e.value);
const old = window.__sudobot;
if (old && old.remove) old.remove();
const targetSet = new Set(targets.map(t => cells[t]));
const givens = cells.map(e => { const v = valueOf(e); return givenOf(e, v) ? v : null; });
const g = {left: null, changed: null, blocked: 0, keys: 0, others, before: others.map(state), state, describe};
const same = () => cells.every((e, i) => e.isConnected && (givens[i] === null || valueOf(e) === givens[i]));
const onKey = e => {
  // The full checks run once per key press (keydown); the other events of the same key only
  // follow its verdict, so the guard costs little per key.
  if (e.type === 'keydown') {
    let bad = null;
    if (!board.has(e.target)) bad = 'a key went to ' + describe(e.target);
    else if (e.key && e.key.length === 1 && !targetSet.has(e.target))
      bad = 'a character went to ' + describe(e.target) + ', which is not a target';
    if (!g.changed && !same()) g.changed = 'the page changed the board while keys were typed';
    if (bad && !g.left) g.left = bad;
  } else if (!board.has(e.target) && !g.left) {
    g.left = 'a key went to ' + describe(e.target);
  }
  if (g.left || g.changed) { g.blocked++; e.preventDefault(); e.stopImmediatePropagation(); }
  else if (e.type === 'keydown') g.keys++;
};
const onFocus = e => { if (!board.has(e.target) && !g.left) g.left = 'focus moved to ' + describe(e.target); };
const types = ['keydown', 'keypress', 'keyup', 'beforeinput', 'input'];
types.forEach(t => window.addEventListener(t, onKey, true));
window.addEventListener('focusin', onFocus, true);
g.remove = () => {
  types.forEach(t => window.removeEventListener(t, onKey, true));
  window.removeEventListener('focusin', onFocus, true);
};
window.__sudobot = g;
return {elements: cells, cells: read, tab, marker: shown};
"#;

/// The read-back script: every cell's live value (as [`super::read::READ_JS`]), and what the
/// guard of [`PREPARE_JS`] saw (`null` when the page lost it: a reload or navigation); removes
/// the guard.
pub const FINISH_JS: &str = r#"
const [sel, kind, name] = arguments;
const valueOf = e => (e.value !== undefined ? String(e.value) : (e.textContent || '')).trim();
const cells = Array.from(document.querySelectorAll(sel)).map(e => {
  const v = valueOf(e);
  const g = kind === 'attribute' ? e.hasAttribute(name)
          : kind === 'class' ? e.classList.contains(name)
          : v !== '' && e.defaultValue !== undefined && e.defaultValue.trim() !== '';
  return [v, g, e.id || null];
});
const g = window.__sudobot;
let guard = null;
if (g && g.remove) {
  g.remove();
  const changed = g.others.filter((e, i) => g.state(e) !== g.before[i]).map(g.describe);
  guard = {left: g.left, changed: g.changed, blocked: g.blocked, keys: g.keys, others: changed};
  window.__sudobot = null;
}
return {cells, guard};
"#;

/// What [`PREPARE_JS`] found about Tab navigation.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct TabCheck {
    /// Tab reaches exactly the targets.
    pub ok: bool,
    /// Why not.
    pub reason: String,
    /// The targets (reading-order indices) in Tab order.
    pub order: Vec<usize>,
    /// Tabs from each target to the next.
    pub steps: Vec<usize>,
}

/// What the guard saw while keys were typed.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GuardReport {
    /// How focus or a key left the board, if it did.
    pub left: Option<String>,
    /// How the board changed, if it did.
    pub changed: Option<String>,
    /// Key events swallowed.
    pub blocked: usize,
    /// Key presses that reached board cells.
    pub keys: usize,
    /// Other controls whose value changed.
    pub others: Vec<String>,
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

/// The keys for one target: delete a wrong value, then the digit.
fn keys_for(target: &Target, out: &mut String) {
    if target.clear > 0 {
        out.push(char::from(Key::End));
        for _ in 0..target.clear {
            out.push(char::from(Key::Backspace));
        }
    }
    out.push(char::from(b'0' + target.digit));
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
            type_with_clicks(driver, cells, targets).await
        }
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
                keys_for(t, &mut keys);
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
            keys_for(&targets[t], &mut keys);
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
            keys_for(&targets[t], &mut keys);
        }
        cells[targets[part[0]].index].send_keys(keys).await?;
    }
    Ok(())
}

/// Show-thinking: before each target, `tell` gets the texts of its steps (`notes`, one list per
/// target), then the cell is clicked and typed, then the user's pause (`delay`) follows.
pub async fn type_thinking(
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
        el.click().await?;
        let mut keys = String::new();
        keys_for(t, &mut keys);
        el.send_keys(keys).await?;
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
    }
    Ok(())
}

/// Click each target and type into it: one chain, for pages whose Tab order leaves the board.
pub async fn type_with_clicks(
    driver: &WebDriver,
    cells: &[WebElement],
    targets: &[Target],
) -> WebDriverResult<()> {
    let mut chain = driver.action_chain_with_delay(None, Some(Duration::ZERO));
    for t in targets {
        let mut keys = String::new();
        keys_for(t, &mut keys);
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
    let digits: Vec<String> = targets.iter().map(|t| t.digit.to_string()).collect();
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
        let board = PageBoard { raw, given, dom_order: (0..81).collect() };
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
