//! The X11 desktop: keys and clicks through enigo (XTEST over x11rb, no system libraries), the
//! clipboard through arboard, and window lookup, focus and menu detection through x11rb.
//!
//! The game window is the viewable window with the given title; among several, one whose
//! `WM_CLASS` names a Solo front end (`sgt-solo` for GTK, `solo.exe` for the Win32 front end
//! under Wine) wins, and that class tells which front end it is ([`X11Desktop::front_end`]).
//!
//! Without a window manager (a bare Xvfb) X's focus follows the pointer unless a window is
//! focused explicitly, so the game window is given the input focus with `SetInputFocus` and
//! raised; with a window manager `_NET_ACTIVE_WINDOW` is requested as well.

use std::collections::HashSet;
use std::time::Duration;

use x11rb::connection::Connection;
use x11rb::errors::ReplyError;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConfigureWindowAux, ConnectionExt, EventMask, GetPropertyReply,
    InputFocus, MapState, StackMode, Window,
};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::DesktopError;
use super::backend::{Desktop, Focused, Popups, Rect};
use super::menu::Platform;
use super::portable::Input;
use super::send::Sendable;

mod capture;
mod state;

/// The real desktop on an X11 display.
pub struct X11Desktop {
    /// The title the game window was found by.
    title: String,
    /// The `WM_CLASS` (instance or class) the game window must have, when one is required.
    class: Option<String>,
    conn: RustConnection,
    root: Window,
    game: Window,
    front_end: Option<Platform>,
    input: Input,
    /// Override-redirect windows showing before any menu was opened (panels, tooltips...).
    baseline_popups: HashSet<Window>,
    net_wm_name: u32,
    utf8_string: u32,
    net_active_window: u32,
    wm_protocols: u32,
    wm_delete_window: u32,
}

fn display_error(e: impl std::fmt::Display) -> DesktopError {
    DesktopError::Display(e.to_string())
}

/// A reply about one window: `None` when the window no longer exists (X's `BadWindow`), the
/// reply otherwise; any other failure is the display's.
fn alive<T>(reply: Result<T, ReplyError>) -> Result<Option<T>, DesktopError> {
    match reply {
        Ok(reply) => Ok(Some(reply)),
        Err(ReplyError::X11Error(e)) if e.error_kind == x11rb::protocol::ErrorKind::Window => {
            Ok(None)
        }
        Err(e) => Err(display_error(e)),
    }
}

impl X11Desktop {
    /// Connects to `$DISPLAY`, finds the viewable window titled `title` (preferring one whose
    /// `WM_CLASS` names a Solo front end) and focuses it. A game that is still starting gets up
    /// to `wait` to show its window.
    pub fn connect(title: &str, wait: Duration) -> Result<X11Desktop, DesktopError> {
        X11Desktop::connect_class(title, None, wait)
    }

    /// [`X11Desktop::connect`], taking only a window whose `WM_CLASS` instance or class is
    /// `class` (any case) when one is given: a game known by its class (`gnome-sudoku`) is
    /// never confused with another window of the same title (a browser tab "Sudoku").
    pub fn connect_class(
        title: &str,
        class: Option<&str>,
        wait: Duration,
    ) -> Result<X11Desktop, DesktopError> {
        let mut desktop = X11Desktop::open(title, class)?;
        let deadline = desktop.input.elapsed() + wait;
        (desktop.game, desktop.front_end) = loop {
            if let Some(found) = desktop.find_game(title)? {
                break found;
            }
            if desktop.input.elapsed() >= deadline {
                return Err(desktop.not_found(title).stopped(&[]));
            }
            desktop.input.pause(Duration::from_millis(50));
        };
        desktop.baseline_popups = desktop.popups()?;
        desktop.focus_game()?;
        Ok(desktop)
    }

    /// For the interactive mode: [`X11Desktop::connect`] when the game window shows now, else
    /// a desktop bound to no window yet (F2 binds it to the focused window; until then
    /// anything that would touch the game fails, naming the missing window).
    pub fn connect_or_unbound(title: &str) -> Result<X11Desktop, DesktopError> {
        let mut desktop = X11Desktop::open(title, None)?;
        if let Some((game, front_end)) = desktop.find_game(title)? {
            (desktop.game, desktop.front_end) = (game, front_end);
            desktop.focus_game()?;
        }
        desktop.baseline_popups = desktop.popups()?;
        Ok(desktop)
    }

    /// Whether the desktop is bound to a window (see [`X11Desktop::connect_or_unbound`]).
    fn bound(&self) -> Result<(), DesktopError> {
        match self.game == self.root {
            true => Err(self.not_found(&self.title)),
            false => Ok(()),
        }
    }

    /// Connects to the display, bound to no window yet.
    fn open(title: &str, class: Option<&str>) -> Result<X11Desktop, DesktopError> {
        let (conn, screen) = x11rb::connect(None).map_err(|e| {
            let display = std::env::var("DISPLAY").unwrap_or_default();
            display_error(format!(
                "cannot connect to the X display {display:?} (is DISPLAY set?): {e}"
            ))
        })?;
        let root = conn
            .setup()
            .roots
            .get(screen)
            .map(|s| s.root)
            .ok_or_else(|| display_error("no screen"))?;
        let atom = |name: &str| -> Result<u32, DesktopError> {
            Ok(conn
                .intern_atom(false, name.as_bytes())
                .map_err(display_error)?
                .reply()
                .map_err(display_error)?
                .atom)
        };
        let net_wm_name = atom("_NET_WM_NAME")?;
        let utf8_string = atom("UTF8_STRING")?;
        let net_active_window = atom("_NET_ACTIVE_WINDOW")?;
        let wm_protocols = atom("WM_PROTOCOLS")?;
        let wm_delete_window = atom("WM_DELETE_WINDOW")?;
        let input = Input::new()?;
        let desktop = X11Desktop {
            title: title.to_string(),
            class: class.map(str::to_string),
            conn,
            root,
            game: root,
            front_end: None,
            input,
            baseline_popups: HashSet::new(),
            net_wm_name,
            utf8_string,
            net_active_window,
            wm_protocols,
            wm_delete_window,
        };
        Ok(desktop)
    }

    /// The game window's id.
    pub fn game_window(&self) -> Window {
        self.game
    }

    /// The game's front end as its window's `WM_CLASS` tells, `None` when the class names none.
    pub fn front_end(&self) -> Option<Platform> {
        self.front_end
    }

    /// A window's property of the given type, at most `len` 32-bit units of it; `None` when
    /// the window has gone away. Windows come and go while the tree is walked (a dialog
    /// closing, a menu folding), so a window destroyed between listing and reading is not a
    /// display failure.
    fn property(
        &self,
        window: Window,
        name: impl Into<u32>,
        kind: impl Into<u32>,
        len: u32,
    ) -> Result<Option<GetPropertyReply>, DesktopError> {
        let cookie = self.conn.get_property(false, window, name, kind, 0, len);
        alive(cookie.map_err(display_error)?.reply())
    }

    /// A window's `WM_CLASS`: two NUL-terminated strings, instance and class (none when the
    /// window has gone away).
    fn class_names(&self, window: Window) -> Result<Vec<String>, DesktopError> {
        let Some(reply) = self.property(window, AtomEnum::WM_CLASS, AtomEnum::STRING, 256)? else {
            return Ok(Vec::new());
        };
        let text = String::from_utf8_lossy(&reply.value);
        Ok(text.split('\0').take(2).map(str::to_string).collect())
    }

    /// The front end named by a window's `WM_CLASS`, if any.
    fn front_end_of(&self, window: Window) -> Result<Option<Platform>, DesktopError> {
        let names = self.class_names(window)?;
        let name = |i: usize| names.get(i).map_or("", String::as_str);
        Ok(Platform::from_window_class(name(0), name(1)))
    }

    /// The game window titled `title` and its front end: the first viewable window with that
    /// title whose `WM_CLASS` names a Solo front end, else the first one with that title.
    pub fn find_game(
        &self,
        title: &str,
    ) -> Result<Option<(Window, Option<Platform>)>, DesktopError> {
        if let Some(wanted) = &self.class {
            for window in self.windows_titled(title)? {
                if self.class_names(window)?.iter().any(|n| n.eq_ignore_ascii_case(wanted)) {
                    return Ok(Some((window, None)));
                }
            }
            return Ok(None);
        }
        let mut first = None;
        for window in self.windows_titled(title)? {
            if let Some(platform) = self.front_end_of(window)? {
                return Ok(Some((window, Some(platform))));
            }
            first.get_or_insert((window, None));
        }
        Ok(first)
    }

    /// A window's title (`_NET_WM_NAME`, else `WM_NAME`); `None` when it has none or has gone
    /// away.
    fn title_of(&self, window: Window) -> Result<Option<String>, DesktopError> {
        let Some(net) = self.property(window, self.net_wm_name, self.utf8_string, 1024)? else {
            return Ok(None);
        };
        if !net.value.is_empty() {
            return Ok(Some(String::from_utf8_lossy(&net.value).into_owned()));
        }
        let Some(old) = self.property(window, AtomEnum::WM_NAME, AtomEnum::STRING, 1024)? else {
            return Ok(None);
        };
        Ok((!old.value.is_empty()).then(|| String::from_utf8_lossy(&old.value).into_owned()))
    }

    fn viewable(&self, window: Window) -> Result<bool, DesktopError> {
        let attrs = self.conn.get_window_attributes(window).map_err(display_error)?.reply();
        Ok(attrs.is_ok_and(|a| a.map_state == MapState::VIEWABLE))
    }

    /// The first viewable window titled exactly `title`, searching top-level windows and
    /// their children (window managers reparent clients into frames).
    pub fn find_window(&self, title: &str) -> Result<Option<Window>, DesktopError> {
        Ok(self.windows_titled(title)?.into_iter().next())
    }

    /// Every viewable window titled exactly `title`, topmost first, searching top-level windows
    /// and their children (window managers reparent clients into frames).
    fn windows_titled(&self, title: &str) -> Result<Vec<Window>, DesktopError> {
        let mut found = Vec::new();
        let mut level = vec![self.root];
        for _depth in 0..3 {
            let mut next = Vec::new();
            for parent in level {
                let Ok(tree) = self.conn.query_tree(parent).map_err(display_error)?.reply() else {
                    continue;
                };
                for &w in tree.children.iter().rev() {
                    if self.title_of(w).ok().flatten().as_deref() == Some(title)
                        && self.viewable(w)?
                    {
                        found.push(w);
                    }
                    next.push(w);
                }
            }
            level = next;
        }
        Ok(found)
    }

    /// The top-level windows (the root's children), bottom to top.
    fn top_levels(&self) -> Result<Vec<Window>, DesktopError> {
        let tree = self.conn.query_tree(self.root).map_err(display_error)?;
        Ok(tree.reply().map_err(display_error)?.children)
    }

    /// Viewable override-redirect top-level windows (menus are such windows).
    fn popups(&self) -> Result<HashSet<Window>, DesktopError> {
        let cookies: Vec<_> = self
            .top_levels()?
            .iter()
            .map(|&w| (w, self.conn.get_window_attributes(w)))
            .filter_map(|(w, c)| c.ok().map(|c| (w, c)))
            .collect();
        Ok(cookies
            .into_iter()
            .filter_map(|(w, c)| c.reply().ok().map(|a| (w, a)))
            .filter(|(_, a)| a.override_redirect && a.map_state == MapState::VIEWABLE)
            .map(|(w, _)| w)
            .collect())
    }

    fn focus(&self, window: Window) -> Result<(), DesktopError> {
        let event = ClientMessageEvent::new(32, window, self.net_active_window, [2u32, 0, 0, 0, 0]);
        self.conn
            .send_event(
                false,
                self.root,
                EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
                event,
            )
            .map_err(display_error)?;
        self.conn
            .configure_window(window, &ConfigureWindowAux::new().stack_mode(StackMode::ABOVE))
            .map_err(display_error)?;
        self.conn
            .set_input_focus(InputFocus::PARENT, window, x11rb::CURRENT_TIME)
            .map_err(display_error)?;
        self.conn.sync().map_err(display_error)?;
        Ok(())
    }
}

impl Desktop for X11Desktop {
    fn send(&mut self, input: Sendable) -> Result<(), DesktopError> {
        self.input.send(input)
    }

    fn move_pointer(&mut self, x: i32, y: i32) -> Result<(), DesktopError> {
        self.input.move_pointer(x, y)
    }

    fn pointer(&mut self) -> Result<(i32, i32), DesktopError> {
        self.input.pointer()
    }

    fn clipboard_text(&mut self) -> Result<Option<String>, DesktopError> {
        self.input.clipboard_text()
    }

    fn set_clipboard_text(&mut self, text: &str) -> Result<(), DesktopError> {
        self.input.set_clipboard_text(text)
    }

    fn clear_clipboard(&mut self) -> Result<(), DesktopError> {
        self.input.clear_clipboard()
    }

    fn game_window_key(&self) -> Option<String> {
        // Window IDs are per display.
        let display = std::env::var("DISPLAY").unwrap_or_default();
        Some(format!("{display}-{:x}", self.game))
    }

    fn menu_showing(&mut self) -> Result<Option<bool>, DesktopError> {
        // The game's own menus are transient for it (GTK reuses one menu window, so a menu
        // left open at start is in the baseline); other front ends' menus are new popups.
        if self.game_popups()?.menus > 0 {
            return Ok(Some(true));
        }
        let now = self.popups()?;
        Ok(Some(now.difference(&self.baseline_popups).next().is_some()))
    }

    fn open_popups(&mut self) -> Result<Option<Popups>, DesktopError> {
        self.game_popups().map(Some)
    }

    fn screen_size(&mut self) -> Result<Option<(u32, u32)>, DesktopError> {
        self.screen_pixels().map(Some)
    }

    fn capture(&mut self) -> Result<crate::pixels::RgbaImage, DesktopError> {
        self.capture_game()
    }

    fn covered_at(&mut self, x: i32, y: i32) -> Result<Option<String>, DesktopError> {
        self.window_covering(x, y)
    }

    fn bind_focused_game(&mut self) -> Result<Focused, DesktopError> {
        let title = self.title.clone();
        self.bind_focused(&title)
    }

    fn focus_dialog(&mut self, title: &str) -> Result<Option<bool>, DesktopError> {
        match self.find_window(title)? {
            Some(w) => {
                self.focus(w)?;
                Ok(Some(true))
            }
            None => Ok(Some(false)),
        }
    }

    fn close_dialog(&mut self, title: &str) -> Result<bool, DesktopError> {
        let Some(window) = self.find_window(title)? else {
            return Ok(false);
        };
        // WM_DELETE_WINDOW, as a window manager's close button sends it; GTK dialogs answer it
        // like Cancel.
        let event = ClientMessageEvent::new(
            32,
            window,
            self.wm_protocols,
            [self.wm_delete_window, 0, 0, 0, 0],
        );
        self.conn.send_event(false, window, EventMask::NO_EVENT, event).map_err(display_error)?;
        self.conn.sync().map_err(display_error)?;
        Ok(true)
    }

    fn focus_game(&mut self) -> Result<(), DesktopError> {
        self.bound()?;
        self.focus(self.game)
    }

    fn game_area(&mut self) -> Result<Option<Rect>, DesktopError> {
        self.bound()?;
        // The game closed while it was played: no window, not a broken display.
        let gone = || DesktopError::WindowNotFound { title: self.title.clone() };
        let geometry = alive(self.conn.get_geometry(self.game).map_err(display_error)?.reply())?
            .ok_or_else(gone)?;
        let at = alive(
            self.conn
                .translate_coordinates(self.game, self.root, 0, 0)
                .map_err(display_error)?
                .reply(),
        )?
        .ok_or_else(gone)?;
        Ok(Some(Rect {
            x: at.dst_x.into(),
            y: at.dst_y.into(),
            width: geometry.width.into(),
            height: geometry.height.into(),
        }))
    }

    fn elapsed(&self) -> Duration {
        self.input.elapsed()
    }

    fn pause(&mut self, duration: Duration) {
        self.input.pause(duration)
    }

    fn release_all(&mut self) {
        self.input.release_all()
    }
}

#[cfg(test)]
mod tests {
    use x11rb::protocol::ErrorKind;
    use x11rb::x11_utils::X11Error;

    use super::*;

    fn x11_error(error_kind: ErrorKind) -> ReplyError {
        ReplyError::X11Error(X11Error {
            error_kind,
            error_code: 3,
            sequence: 107,
            bad_value: 0x0020_0024,
            minor_opcode: 0,
            major_opcode: 20,
            extension_name: None,
            request_name: Some("GetProperty"),
        })
    }

    /// CI once failed with `BadWindow` from `GetProperty` while a dialog closed: a window that
    /// went away is gone, not a broken display; any other error still is.
    #[test]
    fn a_window_gone_while_read_is_none_and_other_errors_are_the_displays() {
        assert_eq!(alive(Ok::<u8, ReplyError>(7)).unwrap(), Some(7));
        assert_eq!(alive::<u8>(Err(x11_error(ErrorKind::Window))).unwrap(), None);
        let err = alive::<u8>(Err(x11_error(ErrorKind::Atom))).unwrap_err();
        assert!(matches!(err, DesktopError::Display(_)), "{err}");
    }
}
