//! The guard around typing, as two scripts with their arguments and results typed beside them:
//! [`PREPARE_JS`] (run just before the first key: re-reads the givens, checks the Tab walk,
//! installs the guard) and [`FINISH_JS`] (right after the last key: reads the board back with
//! what the guard saw, and removes it).

use serde::Deserialize;
use serde_json::Value;
use thirtyfour::prelude::*;

use super::fill::Target;
use super::read::{PageBoard, ReadArgs, ScriptCell};
use super::site::{Order, Site, Strategy};

/// The script run just before the first key, in the board's frame. Arguments: the cell
/// selector, the ids in reading order (or null), the given kind and name and the value kind
/// and name (as [`super::read`]), the target cells (reading-order indices), the success marker
/// (`selector`, `title` or null) with its text, the document index of each cell in reading
/// order (or null: document order) and whether cells are clicked (not focused) to type. It
/// returns:
///
/// - `elements`: the cells in reading order (for clicks and Send Keys);
/// - `cells`: every cell as [`super::read::READ_JS`] returns it (the givens, re-read now);
/// - `tab`: whether pressing Tab from the first target reaches exactly the targets, in which
///   order and with how many Tabs each, passing only board cells; else why not;
/// - `marker`: whether the success marker already shows success (then it proves nothing).
///
/// It also installs a guard: capture-phase listeners that swallow every key event whose target
/// is not a board cell, every character typed into a cell that is not a target, and every key
/// once the board changed (cells replaced or a given's value changed), focus left the board or
/// the page opened a dialog (its `alert`, `confirm` and `prompt` answer as Cancel, unshown, and
/// note the text);
/// and it records the values of the page's other controls. On a board whose cells are clicked,
/// a key may also reach the page body, and a character counts only while the last click
/// selected a target; a click that lands outside every cell is swallowed and ends typing.
/// [`FINISH_JS`] reads and removes it.
pub static PREPARE_JS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "const [sel, ids, kind, name, vkind, vname, targets, marker, markerText, order, click] = arguments;\n{}\n{}",
        super::read::CELL_JS,
        PREPARE_BODY
    )
});

const PREPARE_BODY: &str = r#"
const byDoc = Array.from(document.querySelectorAll(sel));
const cells = ids ? ids.map(id => document.getElementById(id)) : order ? order.map(i => byDoc[i]) : byDoc;
if (cells.some(c => !c) || (order && byDoc.length !== order.length)) return {missing: Math.max(1, cells.filter(c => !c).length)};
const read = byDoc.map(e => { const v = valueOf(e); const [x, y] = centre(e); return [v, givenOf(e, v), e.id || null, x, y]; });
const describe = e => !e ? 'nothing' : e === document.body ? 'the page body'
  : e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.name ? '[name=' + e.name + ']' : '')
    + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '');
const board = new Set(cells);
const cellOf = t => (t && t.nodeType === 1) ? (cells.find(c => c === t || c.contains(t)) || null) : null;
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
let tab = {ok: false, reason: 'cells are clicked', order: [], steps: []};
if (!click) {
  const all = Array.from(document.querySelectorAll('*')).filter(focusable);
  const focusOrder = all.filter(e => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex)
    .concat(all.filter(e => e.tabIndex === 0));
  const pos = new Map(focusOrder.map((e, i) => [e, i]));
  tab = {ok: true, reason: '', order: [], steps: []};
  const missing = targets.find(t => !pos.has(cells[t]));
  if (missing !== undefined) {
    tab = {ok: false, reason: describe(cells[missing]) + ' is not a Tab stop', order: [], steps: []};
  } else {
    const sorted = targets.slice().sort((a, b) => pos.get(cells[a]) - pos.get(cells[b]));
    for (let i = 1; i < sorted.length && tab.ok; i++) {
      const from = pos.get(cells[sorted[i - 1]]), to = pos.get(cells[sorted[i]]);
      for (let k = from + 1; k < to; k++) {
        if (!board.has(focusOrder[k])) {
          tab = {ok: false, reason: 'Tab from ' + describe(cells[sorted[i - 1]]) + ' passes '
            + describe(focusOrder[k]) + ', which is not a board cell', order: [], steps: []};
          break;
        }
      }
      tab.steps.push(to - from);
    }
    if (tab.ok) tab.order = sorted;
  }
}
let shown = null;
if (marker === 'title') shown = document.title;
else if (marker) { const m = document.querySelector(marker); shown = m ? m.textContent : null; }
const typable = e => !board.has(e) && !cellOf(e) && !e.disabled && !e.readOnly && !(e.tagName === 'INPUT' && e.type === 'hidden');
const others = Array.from(document.querySelectorAll('input,select,textarea,[contenteditable]')).filter(typable);
const state = e => e.isContentEditable ? e.textContent
  : (e.type === 'checkbox' || e.type === 'radio') ? String(e.checked)
  : e.tagName === 'SELECT' ? String(e.selectedIndex) : String(e.value);
const old = window.__sudobot;
if (old && old.remove) old.remove();
const targetSet = new Set(targets.map(t => cells[t]));
const givens = cells.map(e => { const v = valueOf(e); return givenOf(e, v) ? v : null; });
const g = {left: null, changed: null, blocked: 0, keys: 0, selected: null, others, before: others.map(state), state, describe};
const same = () => cells.every((e, i) => e.isConnected && (givens[i] === null || valueOf(e) === givens[i]));
const swallow = e => { g.blocked++; e.preventDefault(); e.stopImmediatePropagation(); };
// On an SVG board the text drawn over a cell takes the click: the cell is the one under the
// pointer, but only for a target inside the board's own <svg>.
const svg = cells[0] && cells[0].ownerSVGElement;
const cellAt = (x, y) => cells.find(c => inside(c.getBoundingClientRect(), x, y)) || null;
const onKey = e => {
  // The full checks run once per key press (keydown); the other events of the same key only
  // follow its verdict, so the guard costs little per key.
  const page = e.target === document.body || e.target === document.documentElement;
  const inSvg = !!svg && (e.target === svg || e.target.ownerSVGElement === svg);
  const onBoard = board.has(e.target) || (click && (page || inSvg || cellOf(e.target) !== null));
  if (e.type === 'keydown') {
    let bad = null;
    const into = click ? g.selected : e.target;
    if (!onBoard) bad = 'a key went to ' + describe(e.target);
    else if (e.key && e.key.length === 1 && !targetSet.has(into))
      bad = 'a character went to ' + (into ? describe(into) + ', which is not a target' : 'no selected cell');
    if (!g.changed && !same()) g.changed = 'the page changed the board while keys were typed';
    if (bad && !g.left) g.left = bad;
  } else if (!onBoard && !g.left) {
    g.left = 'a key went to ' + describe(e.target);
  }
  if (g.left || g.changed || g.dialog !== undefined) swallow(e);
  else if (e.type === 'keydown') g.keys++;
};
// A dialog the page opens while keys are typed is answered as the player's Cancel would be
// (an alert closed, a confirm false, a prompt null) without being shown, its text kept, and every
// key event after it is swallowed: keys the driver already sent would otherwise reach the page
// once the dialog closed, and Firefox runs them while a shown dialog waits, where the driver
// may not see it.
const dialogNames = ['alert', 'confirm', 'prompt'];
const dialogOwn = dialogNames.map(n => window[n]);
const dialogCancel = [undefined, false, null];
dialogNames.forEach((n, i) => {
  window[n] = function () {
    if (g.dialog === undefined) {
      g.dialog = String(arguments[0] === undefined ? '' : arguments[0]).slice(0, 500);
      g.dialogKind = n;
    }
    return dialogCancel[i];
  };
});
const onPointer = e => {
  if (!click) return;
  const c = cellOf(e.target) || (svg && e.target.ownerSVGElement === svg ? cellAt(e.clientX, e.clientY) : null);
  if (c && !g.left) { g.selected = c; return; }
  if (!g.left) g.left = 'a click at a cell landed on ' + describe(e.target) + ', which is not a board cell';
  swallow(e);
};
const onFocus = e => {
  const page = e.target === document.body || e.target === document.documentElement;
  if (!board.has(e.target) && !(click && (page || cellOf(e.target))) && !g.left) g.left = 'focus moved to ' + describe(e.target);
};
const types = ['keydown', 'keypress', 'keyup', 'beforeinput', 'input'];
const pointers = ['pointerdown', 'mousedown', 'click'];
types.forEach(t => window.addEventListener(t, onKey, true));
pointers.forEach(t => window.addEventListener(t, onPointer, true));
window.addEventListener('focusin', onFocus, true);
g.remove = () => {
  dialogNames.forEach((n, i) => { window[n] = dialogOwn[i]; });
  types.forEach(t => window.removeEventListener(t, onKey, true));
  pointers.forEach(t => window.removeEventListener(t, onPointer, true));
  window.removeEventListener('focusin', onFocus, true);
};
window.__sudobot = g;
return {elements: cells, cells: read, tab, marker: shown};
"#;

/// The read-back script: every cell's live value (as [`super::read::READ_JS`]), and what the
/// guard of [`PREPARE_JS`] saw (`null` when the page lost it: a reload or navigation); removes
/// the guard.
pub static FINISH_JS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "const [sel, kind, name, vkind, vname] = arguments;\n{}\n{}",
        super::read::CELL_JS,
        r#"
const cells = Array.from(document.querySelectorAll(sel)).map(e => {
  const v = valueOf(e);
  const [x, y] = centre(e);
  return [v, givenOf(e, v), e.id || null, x, y];
});
const g = window.__sudobot;
let guard = null;
if (g && g.remove) {
  g.remove();
  const changed = g.others.filter((e, i) => g.state(e) !== g.before[i]).map(g.describe);
  guard = {left: g.left, changed: g.changed, blocked: g.blocked, keys: g.keys, others: changed, dialog: g.dialog === undefined ? null : g.dialog, dialog_kind: g.dialog === undefined ? null : g.dialogKind};
  window.__sudobot = null;
}
return {cells, guard};
"#
    )
});

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
    /// The text of the first dialog the page opened while keys were typed; every key event
    /// after it was swallowed.
    #[serde(default)]
    pub dialog: Option<String>,
    /// Which function opened it: `alert`, `confirm` or `prompt`.
    #[serde(default)]
    pub dialog_kind: Option<String>,
}

/// The arguments of [`PREPARE_JS`], in its order.
#[derive(Clone, Debug)]
pub struct PrepareArgs {
    /// How cells and givens are read ([`super::read::READ_JS`]'s arguments).
    pub read: ReadArgs,
    /// The cell ids in reading order, when the site lists them.
    pub ids: Option<Vec<String>>,
    /// The target cells (reading-order indices).
    pub targets: Vec<usize>,
    /// The success marker: its selector, `title`, or none.
    pub marker: Option<String>,
    /// The marker's success text.
    pub marker_text: String,
    /// The document index of each cell in reading order (`order = "position"`).
    pub order: Option<Vec<usize>>,
    /// Cells are clicked to type (not focused).
    pub click: bool,
}

impl PrepareArgs {
    /// The arguments for typing `targets` on `site`, whose cells were read as `board`.
    pub fn new(site: &Site, board: &PageBoard, targets: &[Target]) -> PrepareArgs {
        let success = &site.completion.success;
        let marker = match (&success.selector, success.title) {
            (Some(sel), _) => Some(sel.clone()),
            (None, true) => Some("title".to_string()),
            _ => None,
        };
        PrepareArgs {
            read: ReadArgs::new(site),
            ids: site.cell_ids(),
            targets: targets.iter().map(|t| t.index).collect(),
            marker,
            marker_text: success.text.clone(),
            order: site.board.dom().is_some_and(|d| d.order == Order::Position).then(|| {
                let mut order = vec![0; board.dom_order.len()];
                for (doc, &i) in board.dom_order.iter().enumerate() {
                    order[i] = doc;
                }
                order
            }),
            click: site.fill.strategy == Strategy::Click,
        }
    }

    fn values(&self) -> Vec<Value> {
        let r = &self.read;
        vec![
            r.selector.clone().into(),
            self.ids.clone().map(Value::from).unwrap_or(Value::Null),
            r.kind.into(),
            r.name.clone().into(),
            r.value_kind.into(),
            r.value_name.clone().into(),
            self.targets.clone().into(),
            self.marker.clone().map(Value::from).unwrap_or(Value::Null),
            self.marker_text.clone().into(),
            self.order.clone().map(Value::from).unwrap_or(Value::Null),
            self.click.into(),
        ]
    }
}

/// What [`PREPARE_JS`] returns.
#[derive(Deserialize)]
pub struct Prepared {
    /// A target that is not a board cell any more (the board changed).
    #[serde(default)]
    pub missing: Option<usize>,
    /// The cells in reading order, as element references.
    #[serde(default)]
    pub elements: Vec<Value>,
    /// Every cell as [`super::read::READ_JS`] returns it.
    #[serde(default)]
    pub cells: Vec<ScriptCell>,
    /// Whether Tab reaches exactly the targets.
    #[serde(default)]
    pub tab: TabCheck,
    /// The success marker's text before typing.
    #[serde(default)]
    pub marker: Option<String>,
}

/// What [`FINISH_JS`] returns.
#[derive(Deserialize)]
pub struct Finished {
    /// Every cell as [`super::read::READ_JS`] returns it.
    pub cells: Vec<ScriptCell>,
    /// What the guard saw (`None`: the page lost it).
    pub guard: Option<GuardReport>,
}

/// Runs [`PREPARE_JS`].
pub async fn prepare(driver: &WebDriver, args: &PrepareArgs) -> WebDriverResult<Prepared> {
    driver.execute(PREPARE_JS.as_str(), args.values()).await?.convert()
}

/// Runs [`FINISH_JS`].
pub async fn finish(driver: &WebDriver, args: &ReadArgs) -> WebDriverResult<Finished> {
    driver.execute(FINISH_JS.as_str(), args.values()).await?.convert()
}
