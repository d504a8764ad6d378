//! Talking to a running Solo game: reading its game ID (Game > Specific...) and its board
//! (Game > Copy) through the clipboard, with every wait bounded.

use std::time::Duration;

use super::backend::{Desktop, wait_for};
use super::menu::MenuItem;
use super::send::{Command, Sendable};
use super::{DesktopError, Options};
use crate::format::solo_id::{self, SoloId};
use crate::format::solo_text;
use crate::grid::Grid;

/// How often the clipboard and the window list are polled while waiting.
pub const POLL: Duration = Duration::from_millis(2);

/// The game as read from the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// The puzzle definition (givens, size, X, jigsaw walls).
    pub id: SoloId,
    /// The board as it is now (givens plus the user's values).
    pub board: Grid,
}

/// Sends input, pacing keys with the configured key delay.
pub(super) fn send<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    input: &[Sendable],
) -> Result<(), DesktopError> {
    for &one in input {
        desktop.send(one)?;
        if one.key().is_some() && !opts.key_delay.is_zero() {
            desktop.pause(opts.key_delay);
        }
    }
    Ok(())
}

/// Sends one of the game's menu or dialog commands, by name.
pub fn send_command<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    command: Command,
) -> Result<(), DesktopError> {
    send(desktop, opts, &Sendable::command(opts.platform, command))
}

/// A clipboard value no game writes, so a change proves a fresh copy.
pub(super) fn sentinel(now: Duration) -> String {
    format!("sudobot-waiting-for-copy-{}", now.as_nanos())
}

/// Opens the Game menu and picks an item, waiting (bounded) for the menu to show when the
/// platform can tell, else pacing with the menu delay. The item's keys are sent only once the
/// menu shows (Win32 item letters such as `n`, `r`, `s` would be game commands outside it).
pub fn pick<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    item: MenuItem,
) -> Result<(), DesktopError> {
    tracing::debug!("Game > {item:?}");
    send_command(desktop, opts, Command::OpenGameMenu)?;
    match desktop.menu_showing()? {
        None => desktop.pause(opts.menu_delay),
        Some(_) => {
            wait_for(opts, desktop, "the Game menu to open", opts.timeout, POLL, |d| {
                Ok(d.menu_showing()?.filter(|&s| s))
            })?;
        }
    }
    send_command(desktop, opts, Command::Pick(item))
}

/// Escapes out of a menu that may have opened half-way, and refocuses the game.
fn recover<D: Desktop + ?Sized>(desktop: &mut D, opts: &Options) -> Result<(), DesktopError> {
    // Always two: an Escape that closed a menu from outside (the user's) can leave GTK's menu
    // bar active with no menu showing, which swallows the next Alt+G.
    escape(desktop, opts)?;
    escape(desktop, opts)?;
    desktop.focus_game()
}

/// Closes the game's menus and dialogs the player left open, and checks they are gone, before
/// anything else is sent (keys sent with a menu open would go to the menu). Where the platform
/// cannot see them, two Escapes close a menu and leave the menu bar.
pub fn close_popups<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
) -> Result<(), DesktopError> {
    let Some(mut open) = desktop.open_popups()? else {
        return recover(desktop, opts);
    };
    if open.is_empty() {
        return Ok(());
    }
    for _attempt in 0..4 {
        for title in &open.dialogs {
            if !desktop.close_dialog(title)? {
                escape(desktop, opts)?;
            }
        }
        if open.menus > 0 {
            escape(desktop, opts)?;
        }
        let before = open.clone();
        let settled =
            wait_for(opts, desktop, "the menus and dialogs to close", opts.timeout, POLL, |d| {
                Ok(d.open_popups()?.filter(|now| *now != before))
            });
        open = match settled {
            Ok(now) => now,
            Err(DesktopError::Timeout { .. }) => before,
            Err(e) => return Err(e),
        };
        if open.is_empty() {
            // An Escape that closed a menu can leave the menu bar active: one more leaves it.
            escape(desktop, opts)?;
            desktop.focus_game()?;
            return Ok(());
        }
    }
    let what = match open.dialogs.first() {
        Some(title) => format!("dialog {title:?}"),
        None => "menu".to_string(),
    };
    Err(DesktopError::Blocked { what })
}

/// Sends Escape, first telling the hotkey listener (if any) that this one is ours, so it does
/// not take it for the user's abort key, and then waiting (bounded) until the listener has seen
/// it, so no note is left to swallow a later Esc of the user's.
pub(crate) fn escape<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
) -> Result<(), DesktopError> {
    let Some(own) = &opts.own_escapes else {
        return desktop.send(Sendable::escape());
    };
    own.note();
    let sent = desktop.send(Sendable::escape());
    own.settle();
    sent
}

/// Reads the game ID through Game > Specific... and the clipboard.
pub fn read_game_id<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
) -> Result<String, DesktopError> {
    with_retries(desktop, opts, "the game ID", |d| try_read_game_id(d, opts))
}

/// Runs a menu-driven read up to three times. A timeout anywhere in an attempt (a menu that did
/// not open, a clipboard that did not change) is retried after escaping out; an abort escapes
/// out of what the attempt opened and ends the read; other errors end the read at once.
fn with_retries<D: Desktop + ?Sized, T>(
    desktop: &mut D,
    opts: &Options,
    what: &str,
    mut attempt: impl FnMut(&mut D) -> Result<T, DesktopError>,
) -> Result<T, DesktopError> {
    let mut last = None;
    for _attempt in 0..3 {
        match attempt(desktop) {
            Ok(value) => return Ok(value),
            Err(e @ DesktopError::Timeout { .. }) => {
                recover(desktop, opts)?;
                last = Some(e);
            }
            Err(DesktopError::Aborted) => {
                recover(desktop, opts)?;
                return Err(DesktopError::Aborted);
            }
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or(DesktopError::Timeout { what: what.into(), waited_ms: 0 }))
}

fn try_read_game_id<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
) -> Result<String, DesktopError> {
    let mark = sentinel(desktop.elapsed());
    desktop.set_clipboard_text(&mark)?;
    pick(desktop, opts, MenuItem::Specific)?;
    let title = opts.platform.specific_dialog_title();
    match desktop.focus_dialog(title)? {
        // The platform cannot see windows: pace instead, the copy below retries anyway.
        None => desktop.pause(opts.menu_delay),
        Some(_) => {
            wait_for(opts, desktop, "the Game > Specific... dialog", opts.timeout, POLL, |d| {
                Ok(d.focus_dialog(title)?.filter(|&open| open).map(|_| ()))
            })?
        }
    }
    // The dialog's text starts selected; select all anyway and copy until the clipboard changes
    // (the first keys can arrive before the entry has the focus).
    let per_try = Duration::from_millis(300);
    let id = wait_for(
        opts,
        desktop,
        "the game ID on the clipboard",
        opts.timeout,
        Duration::ZERO,
        |d| {
            send_command(d, opts, Command::CopyDialogText)?;
            let got = wait_for(opts, d, "the clipboard", per_try, POLL, |d| {
                Ok(d.clipboard_text()?.filter(|t| *t != mark && !t.trim().is_empty()))
            });
            match got {
                Ok(text) => Ok(Some(text)),
                Err(DesktopError::Timeout { .. }) => Ok(None),
                Err(e) => Err(e),
            }
        },
    )?;
    // Closing the window rather than pressing Escape keeps Escape for the user's abort key
    // (a hotkey listener sees synthetic keys too).
    if !desktop.close_dialog(title)? {
        escape(desktop, opts)?;
    }
    match desktop.focus_dialog(title)? {
        None => desktop.pause(opts.menu_delay),
        Some(_) => {
            wait_for(opts, desktop, "the Specific... dialog to close", opts.timeout, POLL, |d| {
                Ok((d.focus_dialog(title)? == Some(false)).then_some(()))
            })?
        }
    }
    desktop.focus_game()?;
    Ok(id.trim().to_string())
}

/// Copies the board through Game > Copy. Never call this for a Killer game: there the GTK
/// keys land on Solve ([`read_board`] refuses Killer IDs).
pub fn copy_board_text<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
) -> Result<String, DesktopError> {
    with_retries(desktop, opts, "Game > Copy", |desktop| {
        let mark = sentinel(desktop.elapsed());
        desktop.set_clipboard_text(&mark)?;
        pick(desktop, opts, MenuItem::Copy)?;
        wait_for(
            opts,
            desktop,
            "the board on the clipboard after Game > Copy",
            opts.timeout,
            POLL,
            |d| Ok(d.clipboard_text()?.filter(|t| *t != mark && !t.trim().is_empty())),
        )
    })
}

/// Reads the board (values only) on the geometry of `id`, checking the copy matches it.
pub fn read_board<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    id: &SoloId,
) -> Result<Grid, DesktopError> {
    if id.params.killer {
        return Err(DesktopError::Killer { params: id.params.to_string() });
    }
    let text = copy_board_text(desktop, opts)?;
    board_from_copy(&text, id)
}

/// Puts copied values on the ID's geometry (the Copy text cannot show X on a full grid), after
/// checking the copy shows the same regions and keeps every given.
pub fn board_from_copy(text: &str, id: &SoloId) -> Result<Grid, DesktopError> {
    let copied = solo_text::parse(text).map_err(|source| DesktopError::BadCopy { source })?;
    let geometry = id.grid.geometry_arc().clone();
    if copied.side() != geometry.side() || copied.geometry().region_map() != geometry.region_map() {
        return Err(DesktopError::CopyMismatch {
            detail: format!(
                "the game ID describes a {s}x{s} grid but Game > Copy shows a {c}x{c} grid with other regions",
                s = geometry.side(),
                c = copied.side()
            ),
        });
    }
    let board = Grid::new(geometry, copied.cells().to_vec())
        .map_err(|e| DesktopError::CopyMismatch { detail: e.to_string() })?;
    if let Some(i) = (0..board.cells().len())
        .find(|&i| id.grid.get(i).is_some() && board.get(i) != id.grid.get(i))
    {
        let cell = crate::grid::Cell::from_index(i, board.side());
        return Err(DesktopError::CopyMismatch {
            detail: format!("the given at {cell} differs between the game ID and the copied board"),
        });
    }
    Ok(board)
}

/// Reads the game: its ID and its board by Game > Copy. A Killer game, which has no Copy, is
/// refused as [`DesktopError::Killer`] before the Copy keys are sent (on GTK they would land on
/// Solve).
pub fn read_game<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
) -> Result<GameState, DesktopError> {
    let text = read_game_id(desktop, opts)?;
    let id = parse_game_id(&text)?;
    if id.params.killer {
        return Err(DesktopError::Killer { params: id.params.to_string() });
    }
    let board = read_board(desktop, opts, &id)?;
    Ok(GameState { id, board })
}

/// Decodes a game ID read from the game (Killer IDs included).
pub fn parse_game_id(text: &str) -> Result<SoloId, DesktopError> {
    solo_id::parse_id(text)
        .map_err(|source| DesktopError::BadGameId { id: text.to_string(), source })
}
