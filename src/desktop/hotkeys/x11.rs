//! The X11 listener: the RECORD extension over x11rb's pure-Rust connection.
//!
//! RECORD wants two connections: one to create and later stop a recording context, one that
//! receives the recorded data. The context records the core device events KeyPress and
//! KeyRelease of every client; each arrives as a raw 32-byte event (type, keycode, sequence,
//! time, ...). Nothing is grabbed, so the keys also reach the focused window, as the seed bot's
//! listener behaved. Keys are matched by keycode, found once from the keyboard mapping; a key
//! press repeated by the keyboard (same keycode already down, or pressed at the very time it
//! was released) is not a new hotkey.
//!
//! The bot's own Escapes (sent through XTEST) are recorded like the user's. Each is noted in
//! [`OwnEscapes`] before it is sent, and every Escape press that is not a key held down takes
//! one note: also a press in the same millisecond as the previous release, which is how the
//! bot's two Escapes in a row arrive (the server's clock counts milliseconds). Were that press
//! taken for a keyboard repeat, its note would be left over and swallow the user's next Esc.

use std::sync::{Arc, mpsc};
use std::time::Duration;

use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::record::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{self, ConnectionExt as _};
use x11rb::rust_connection::RustConnection;

use super::OwnEscapes;
use super::{Hotkey, Sink};
use crate::desktop::DesktopError;

const XK_ESCAPE: u32 = 0xff1b;
const XK_F1: u32 = 0xffbe;
/// RECORD reply categories (the protocol's numbers; x11rb names no constants for them).
const FROM_SERVER: u8 = 0;
const START_OF_DATA: u8 = 4;
const END_OF_DATA: u8 = 5;
/// How long the server may take to start the recording.
const START_TIMEOUT: Duration = Duration::from_secs(5);

fn error(what: &str, e: impl std::fmt::Display) -> DesktopError {
    DesktopError::Hotkeys(format!("{what}: {e}"))
}

/// What each keycode means to the listener.
struct Keymap {
    hotkey: [Option<Hotkey>; 256],
    /// Shift, Control, Alt (Mod1) and the logo key (Mod4): an F-key pressed with one of them
    /// down is not a hotkey.
    modifier: [bool; 256],
}

impl Keymap {
    fn read(conn: &RustConnection) -> Result<Keymap, DesktopError> {
        let setup = conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let mapping = conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(|e| error("cannot read the keyboard mapping", e))?
            .reply()
            .map_err(|e| error("cannot read the keyboard mapping", e))?;
        let mut map = Keymap { hotkey: [None; 256], modifier: [false; 256] };
        let per = usize::from(mapping.keysyms_per_keycode).max(1);
        for (code, syms) in (usize::from(min)..).zip(mapping.keysyms.chunks(per)) {
            // The unshifted and shifted symbols of the key.
            for &sym in syms.iter().take(2) {
                let key = match sym {
                    XK_ESCAPE => Hotkey::Escape,
                    s if s == XK_F1 => Hotkey::Origin,
                    s if s == XK_F1 + 1 => Hotkey::Solve,
                    s if s == XK_F1 + 2 => Hotkey::Walk,
                    s if s == XK_F1 + 3 => Hotkey::Calibrate,
                    _ => continue,
                };
                map.hotkey[code] = Some(key);
            }
        }
        let modifiers = conn
            .get_modifier_mapping()
            .map_err(|e| error("cannot read the modifier mapping", e))?
            .reply()
            .map_err(|e| error("cannot read the modifier mapping", e))?;
        let per = usize::from(modifiers.keycodes_per_modifier()).max(1);
        // Modifier rows: Shift, Lock, Control, Mod1 (Alt), Mod2 (Num Lock), Mod3, Mod4, Mod5.
        for (row, codes) in modifiers.keycodes.chunks(per).enumerate() {
            if matches!(row, 0 | 2 | 3 | 6) {
                for &code in codes.iter().filter(|&&c| c != 0) {
                    map.modifier[usize::from(code)] = true;
                }
            }
        }
        Ok(map)
    }
}

/// Key state across events: which keys are down, and when each was last released.
struct Keyboard {
    map: Keymap,
    down: [bool; 256],
    released_at: [u32; 256],
    /// The Escapes the bot is sending itself.
    own: Arc<OwnEscapes>,
}

impl Keyboard {
    /// Feeds one recorded event; returns the hotkey it completes, if any.
    fn event(&mut self, event: &[u8]) -> Option<Hotkey> {
        let (kind, code) = (event[0] & 0x7f, usize::from(event[1]));
        let time = u32::from_ne_bytes([event[4], event[5], event[6], event[7]]);
        match kind {
            xproto::KEY_PRESS_EVENT => {
                let held = self.down[code];
                if self.map.hotkey[code] == Some(Hotkey::Escape) {
                    tracing::trace!(
                        time,
                        held,
                        released_at = self.released_at[code],
                        "Esc pressed (keycode {code})"
                    );
                }
                let repeat = held || self.released_at[code] == time;
                self.down[code] = true;
                let key = self.map.hotkey[code]?;
                if key == Hotkey::Escape && !held && self.own.take() {
                    return None;
                }
                if repeat {
                    return None;
                }
                let modified = (0..256).any(|c| self.down[c] && self.map.modifier[c]);
                (key == Hotkey::Escape || !modified).then_some(key)
            }
            xproto::KEY_RELEASE_EVENT => {
                if self.map.hotkey[code] == Some(Hotkey::Escape) {
                    tracing::trace!(time, "Esc released (keycode {code})");
                }
                self.down[code] = false;
                self.released_at[code] = time;
                None
            }
            _ => None,
        }
    }
}

/// The control connection and the recording context; dropping them stops the recording.
pub(super) struct Listener {
    ctrl: RustConnection,
    context: record::Context,
}

impl Listener {
    pub(super) fn start(sink: Sink, own: Arc<OwnEscapes>) -> Result<Listener, DesktopError> {
        let connect = || {
            x11rb::connect(None).map(|(c, _)| c).map_err(|e| error("cannot open the display", e))
        };
        let (ctrl, data) = (connect()?, connect()?);
        let has_record = ctrl
            .extension_information(record::X11_EXTENSION_NAME)
            .map_err(|e| error("cannot ask the display for its extensions", e))?
            .is_some();
        if !has_record {
            return Err(DesktopError::Hotkeys(
                "the X server has no RECORD extension, which the hotkeys listen through".into(),
            ));
        }
        ctrl.record_query_version(1, 13)
            .map_err(|e| error("cannot start RECORD", e))?
            .reply()
            .map_err(|e| error("cannot start RECORD", e))?;
        let keyboard =
            Keyboard { map: Keymap::read(&ctrl)?, down: [false; 256], released_at: [0; 256], own };
        let context = ctrl.generate_id().map_err(|e| error("cannot start RECORD", e))?;
        let none = record::Range8 { first: 0, last: 0 };
        let no_ext = record::ExtRange { major: none, minor: record::Range16 { first: 0, last: 0 } };
        let range = record::Range {
            core_requests: none,
            core_replies: none,
            ext_requests: no_ext,
            ext_replies: no_ext,
            delivered_events: none,
            device_events: record::Range8 {
                first: xproto::KEY_PRESS_EVENT,
                last: xproto::KEY_RELEASE_EVENT,
            },
            errors: none,
            client_started: false,
            client_died: false,
        };
        ctrl.record_create_context(context, 0, &[record::CS::ALL_CLIENTS.into()], &[range])
            .map_err(|e| error("cannot create the recording context", e))?
            .check()
            .map_err(|e| error("cannot create the recording context", e))?;
        let (ready_tx, ready) = mpsc::channel();
        std::thread::spawn(move || record(data, context, keyboard, sink, ready_tx));
        match ready.recv_timeout(START_TIMEOUT) {
            Ok(Ok(())) => Ok(Listener { ctrl, context }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(DesktopError::Hotkeys(format!(
                "the X server did not start recording keys within {} s",
                START_TIMEOUT.as_secs()
            ))),
        }
    }

    pub(super) fn sees_own_keys(&self) -> bool {
        true
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        // Ends the data stream: the listening thread sees END_OF_DATA and returns.
        let _ = self.ctrl.record_disable_context(self.context);
        let _ = self.ctrl.record_free_context(self.context);
        let _ = self.ctrl.flush();
    }
}

/// The listening thread: reports readiness once the server starts sending, then every hotkey.
fn record(
    data: RustConnection,
    context: record::Context,
    mut keyboard: Keyboard,
    mut sink: Sink,
    ready: mpsc::Sender<Result<(), DesktopError>>,
) {
    let replies = match data.record_enable_context(context) {
        Ok(replies) => replies,
        Err(e) => {
            let _ = ready.send(Err(error("cannot start recording keys", e)));
            return;
        }
    };
    for reply in replies {
        let reply = match reply {
            Ok(reply) => reply,
            Err(e) => {
                let e = error("the display stopped sending keys", e);
                // Before readiness the error goes to the starter, after it to the sink.
                if let Err(mpsc::SendError(Err(e))) = ready.send(Err(e)) {
                    sink(Err(e));
                }
                return;
            }
        };
        match reply.category {
            START_OF_DATA => {
                let _ = ready.send(Ok(()));
            }
            FROM_SERVER => {
                for event in reply.data.chunks_exact(32) {
                    if let Some(key) = keyboard.event(event) {
                        sink(Ok(key));
                    }
                }
            }
            END_OF_DATA => return,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyboard() -> Keyboard {
        let mut map = Keymap { hotkey: [None; 256], modifier: [false; 256] };
        map.hotkey[67] = Some(Hotkey::Origin);
        map.hotkey[68] = Some(Hotkey::Solve);
        map.hotkey[9] = Some(Hotkey::Escape);
        map.modifier[64] = true;
        Keyboard { map, down: [false; 256], released_at: [0; 256], own: Arc::default() }
    }

    fn event(kind: u8, code: u8, time: u32) -> [u8; 32] {
        let mut e = [0; 32];
        e[0] = kind;
        e[1] = code;
        e[4..8].copy_from_slice(&time.to_ne_bytes());
        e
    }

    #[test]
    fn presses_are_hotkeys_repeats_and_modified_f_keys_are_not() {
        let mut k = keyboard();
        let (press, release) = (xproto::KEY_PRESS_EVENT, xproto::KEY_RELEASE_EVENT);
        assert_eq!(k.event(&event(press, 68, 10)), Some(Hotkey::Solve));
        // Held down: the keyboard repeats the press.
        assert_eq!(k.event(&event(press, 68, 40)), None);
        // Repeated as release + press at the same time.
        assert_eq!(k.event(&event(release, 68, 70)), None);
        assert_eq!(k.event(&event(press, 68, 70)), None);
        assert_eq!(k.event(&event(release, 68, 90)), None);
        assert_eq!(k.event(&event(press, 68, 120)), Some(Hotkey::Solve));
        assert_eq!(k.event(&event(release, 68, 130)), None);
        // Alt+F1 is not a hotkey; Alt+Esc still is.
        assert_eq!(k.event(&event(press, 64, 200)), None);
        assert_eq!(k.event(&event(press, 67, 210)), None);
        assert_eq!(k.event(&event(release, 67, 220)), None);
        assert_eq!(k.event(&event(press, 9, 230)), Some(Hotkey::Escape));
        assert_eq!(k.event(&event(release, 9, 240)), None);
        assert_eq!(k.event(&event(release, 64, 250)), None);
        assert_eq!(k.event(&event(press | 0x80, 67, 260)), Some(Hotkey::Origin));
        // Keys that are not hotkeys, and other event kinds.
        assert_eq!(k.event(&event(press, 38, 300)), None);
        assert_eq!(k.event(&event(xproto::MOTION_NOTIFY_EVENT, 0, 310)), None);
    }

    /// The bot's two Escapes in a row arrive in one millisecond (release and press at the same
    /// time, like a keyboard repeat): each takes its note, so the user's next Esc is heard.
    #[test]
    fn own_escapes_in_one_millisecond_take_their_notes() {
        let mut k = keyboard();
        let (press, release) = (xproto::KEY_PRESS_EVENT, xproto::KEY_RELEASE_EVENT);
        k.own.note();
        k.own.note();
        for (kind, time) in [(press, 500), (release, 500), (press, 500), (release, 500)] {
            assert_eq!(k.event(&event(kind, 9, time)), None);
        }
        assert_eq!(k.event(&event(press, 9, 700)), Some(Hotkey::Escape));
        assert_eq!(k.event(&event(release, 9, 710)), None);
    }
}
