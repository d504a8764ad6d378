//! What the X11 desktop sees around the game window: the game's own menus and dialogs (windows
//! transient for it), the screen's size, windows stacked above the game, and the window that
//! has the focus (interactive F2 binds to it).

use x11rb::protocol::xproto::{AtomEnum, ConnectionExt, MapState, Window};

use super::super::DesktopError;
use super::super::backend::{Focused, Popups, Rect};
use super::{X11Desktop, display_error};

impl X11Desktop {
    /// The window a window is transient for, if any.
    fn transient_for(&self, window: Window) -> Result<Option<Window>, DesktopError> {
        let reply = self.property(window, AtomEnum::WM_TRANSIENT_FOR, AtomEnum::WINDOW, 1)?;
        Ok(reply.and_then(|r| r.value32().and_then(|mut v| v.next())))
    }

    /// Viewable windows down to the given depth under the root (top-level windows, window
    /// manager frames and their clients), with whether each is override-redirect.
    fn viewable_tree(&self, depth: usize) -> Result<Vec<(Window, bool)>, DesktopError> {
        let mut out = Vec::new();
        let mut level = vec![self.root];
        for _ in 0..depth {
            let mut next = Vec::new();
            for parent in level {
                let Ok(tree) = self.conn.query_tree(parent).map_err(display_error)?.reply() else {
                    continue;
                };
                for &w in &tree.children {
                    let Ok(attrs) =
                        self.conn.get_window_attributes(w).map_err(display_error)?.reply()
                    else {
                        continue;
                    };
                    if attrs.map_state == MapState::VIEWABLE {
                        out.push((w, attrs.override_redirect));
                        next.push(w);
                    }
                }
            }
            level = next;
        }
        Ok(out)
    }

    /// The game's menus (override-redirect windows transient for it) and dialogs (other
    /// windows transient for it) that are showing.
    pub(super) fn game_popups(&self) -> Result<Popups, DesktopError> {
        let mut popups = Popups::default();
        for (w, override_redirect) in self.viewable_tree(3)? {
            if w == self.game || self.transient_for(w)? != Some(self.game) {
                continue;
            }
            if override_redirect {
                popups.menus += 1;
            } else {
                let title = self.title_of(w)?;
                // A dialog closing as it is looked at is no longer showing.
                if title.is_some() || self.viewable(w)? {
                    popups.dialogs.push(title.unwrap_or_default());
                }
            }
        }
        Ok(popups)
    }

    /// Why no viewable game window was found: a window with the title that is minimized
    /// (iconic or unmapped) is named as such.
    pub(super) fn not_found(&self, title: &str) -> DesktopError {
        let minimized = (|| -> Result<bool, DesktopError> {
            let mut level = vec![self.root];
            for _ in 0..3 {
                let mut next = Vec::new();
                for parent in level {
                    let Ok(tree) = self.conn.query_tree(parent).map_err(display_error)?.reply()
                    else {
                        continue;
                    };
                    for &w in &tree.children {
                        if self.title_of(w)?.as_deref() == Some(title) && !self.viewable(w)? {
                            return Ok(true);
                        }
                        next.push(w);
                    }
                }
                level = next;
            }
            Ok(false)
        })();
        if minimized.unwrap_or(false) {
            DesktopError::Minimized { title: title.to_string() }
        } else if let Some(class) = &self.class {
            DesktopError::WindowOfClassNotFound { title: title.to_string(), class: class.clone() }
        } else {
            DesktopError::WindowNotFound { title: title.to_string() }
        }
    }

    /// The screen's size in pixels.
    pub(super) fn screen_pixels(&self) -> Result<(u32, u32), DesktopError> {
        let geometry = self
            .conn
            .get_geometry(self.root)
            .map_err(display_error)?
            .reply()
            .map_err(display_error)?;
        Ok((geometry.width.into(), geometry.height.into()))
    }

    /// A window's rectangle on the screen.
    fn rect_of(&self, window: Window) -> Result<Option<Rect>, DesktopError> {
        let Ok(g) = self.conn.get_geometry(window).map_err(display_error)?.reply() else {
            return Ok(None);
        };
        let Ok(at) = self
            .conn
            .translate_coordinates(window, self.root, 0, 0)
            .map_err(display_error)?
            .reply()
        else {
            return Ok(None);
        };
        Ok(Some(Rect {
            x: at.dst_x.into(),
            y: at.dst_y.into(),
            width: g.width.into(),
            height: g.height.into(),
        }))
    }

    /// The top-level window (a child of the root: the window itself or its frame) holding a
    /// window.
    fn top_level_of(&self, mut window: Window) -> Result<Window, DesktopError> {
        for _ in 0..16 {
            let Ok(tree) = self.conn.query_tree(window).map_err(display_error)?.reply() else {
                return Ok(window);
            };
            if tree.parent == self.root || tree.parent == x11rb::NONE {
                return Ok(window);
            }
            window = tree.parent;
        }
        Ok(window)
    }

    /// A name for a top-level window: its title, or its client's title under a frame.
    fn name_of(&self, top: Window) -> Result<String, DesktopError> {
        if let Some(title) = self.title_of(top)? {
            return Ok(format!("{title:?}"));
        }
        if let Ok(tree) = self.conn.query_tree(top).map_err(display_error)?.reply() {
            for &child in &tree.children {
                if let Some(title) = self.title_of(child)? {
                    return Ok(format!("{title:?}"));
                }
            }
        }
        Ok(format!("0x{top:x} (untitled)"))
    }

    /// The first viewable top-level window stacked above the game that covers the point.
    pub(super) fn window_covering(&self, x: i32, y: i32) -> Result<Option<String>, DesktopError> {
        let game_top = self.top_level_of(self.game)?;
        let stacked = self.top_levels()?;
        let Some(pos) = stacked.iter().position(|&w| w == game_top) else {
            return Ok(None);
        };
        for &w in &stacked[pos + 1..] {
            let Ok(attrs) = self.conn.get_window_attributes(w).map_err(display_error)?.reply()
            else {
                continue;
            };
            if attrs.map_state != MapState::VIEWABLE
                || attrs.class == x11rb::protocol::xproto::WindowClass::INPUT_ONLY
            {
                continue;
            }
            if let Some(r) = self.rect_of(w)?
                && (r.x..r.x + r.width as i32).contains(&x)
                && (r.y..r.y + r.height as i32).contains(&y)
            {
                return Ok(Some(self.name_of(w)?));
            }
        }
        Ok(None)
    }

    /// Binds to the window that has the focus now (or, with focus following the pointer, the
    /// one under the pointer): the game when it carries the game's title, else that window
    /// (its client under a window manager's frame), to be played by its pixels.
    pub(super) fn bind_focused(&mut self, title: &str) -> Result<Focused, DesktopError> {
        let focus = self
            .conn
            .get_input_focus()
            .map_err(display_error)?
            .reply()
            .map_err(display_error)?
            .focus;
        let focused = if focus == x11rb::NONE || focus == 1 || focus == self.root {
            let pointer = self
                .conn
                .query_pointer(self.root)
                .map_err(display_error)?
                .reply()
                .map_err(display_error)?;
            pointer.child
        } else {
            focus
        };
        if focused == x11rb::NONE {
            return Err(DesktopError::NotTheGame { focused: "no window".into() });
        }
        let top = self.top_level_of(focused)?;
        let mut candidates = vec![top];
        if let Ok(tree) = self.conn.query_tree(top).map_err(display_error)?.reply() {
            candidates.extend(tree.children.iter().copied());
        }
        for &w in &candidates {
            if self.title_of(w)?.as_deref() == Some(title) && self.viewable(w)? {
                self.game = w;
                return Ok(Focused::Game);
            }
        }
        // Another window: its client (the one with a class), else the top-level itself.
        let mut client = None;
        for &w in &candidates {
            if self.viewable(w)? && !self.class_names(w)?.is_empty() {
                client = Some(w);
                break;
            }
        }
        let window = client.unwrap_or(top);
        if top == self.root || !self.viewable(window)? {
            return Err(DesktopError::NotTheGame { focused: "no window".into() });
        }
        self.game = window;
        Ok(Focused::Other { name: self.name_of(top)?, class: self.class_names(window)? })
    }
}
