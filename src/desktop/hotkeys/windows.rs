//! The Windows listener: `RegisterHotKey` for F1-F4 and a low-level keyboard hook for Esc, on
//! a thread of their own with a message loop.
//!
//! This module holds the crate's only Win32 calls, all `unsafe`. The invariants:
//! - every call happens on the listening thread, which owns its hotkeys and its hook (Windows
//!   ties both to the thread that registered them) and unregisters them before it returns;
//! - the hook procedure reads `lparam` as a `KBDLLHOOKSTRUCT` only when `code == HC_ACTION`,
//!   which is when Windows passes one, and always calls the next hook;
//! - the sink lives in a thread-local of the listening thread, which is the thread Windows calls
//!   the hook on (a low-level hook runs on the thread that installed it, inside its message
//!   loop), so no other thread can reach it; it is borrowed with `try_borrow_mut`, never twice.
//!
//! Stopping: [`Listener`]'s drop posts `WM_QUIT` to the thread, whose loop then ends.

use std::cell::RefCell;
use std::ptr::null_mut;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use windows_sys::Win32::System::Threading::GetCurrentThreadId;
use windows_sys::Win32::UI::Input::KeyboardAndMouse::{
    MOD_NOREPEAT, RegisterHotKey, UnregisterHotKey, VK_ESCAPE, VK_F1, VK_F2, VK_F3, VK_F4,
};
use windows_sys::Win32::UI::WindowsAndMessaging::{
    CallNextHookEx, GetMessageW, HC_ACTION, KBDLLHOOKSTRUCT, LLKHF_INJECTED, MSG, PM_NOREMOVE,
    PeekMessageW, PostThreadMessageW, SetWindowsHookExW, UnhookWindowsHookEx, WH_KEYBOARD_LL,
    WM_HOTKEY, WM_KEYDOWN, WM_KEYUP, WM_QUIT, WM_SYSKEYDOWN, WM_SYSKEYUP,
};

use super::OwnEscapes;
use super::{Hotkey, Sink};
use crate::desktop::DesktopError;

/// The registered hotkeys: (id, virtual key, hotkey, name).
const KEYS: [(i32, u16, Hotkey, &str); 4] = [
    (1, VK_F1, Hotkey::Origin, "F1"),
    (2, VK_F2, Hotkey::Solve, "F2"),
    (3, VK_F3, Hotkey::Walk, "F3"),
    (4, VK_F4, Hotkey::Calibrate, "F4"),
];

thread_local! {
    /// The listening thread's sink, and whether Esc is down (a held key repeats its key-down).
    static SINK: RefCell<Option<(Sink, bool)>> = const { RefCell::new(None) };
}

fn deliver(key: Hotkey) {
    SINK.with(|cell| {
        if let Ok(mut slot) = cell.try_borrow_mut()
            && let Some((sink, _)) = slot.as_mut()
        {
            sink(Ok(key));
        }
    });
}

/// Whether this key-down of Esc is a new press (not a repeat); `down` false notes a release.
fn escape_edge(down: bool) -> bool {
    SINK.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else { return false };
        let Some((_, held)) = slot.as_mut() else { return false };
        let edge = down && !*held;
        *held = down;
        edge
    })
}

/// The low-level keyboard hook: reports the user's Esc presses, never swallows a key.
unsafe extern "system" fn escape_hook(code: i32, wparam: usize, lparam: isize) -> isize {
    if code == HC_ACTION as i32 {
        // SAFETY: with HC_ACTION, lparam points to a KBDLLHOOKSTRUCT for this call.
        let info = unsafe { &*(lparam as *const KBDLLHOOKSTRUCT) };
        let message = wparam as u32;
        if info.vkCode == u32::from(VK_ESCAPE) && info.flags & LLKHF_INJECTED == 0 {
            let down = message == WM_KEYDOWN || message == WM_SYSKEYDOWN;
            let up = message == WM_KEYUP || message == WM_SYSKEYUP;
            if (down || up) && escape_edge(down) {
                deliver(Hotkey::Escape);
            }
        }
    }
    // SAFETY: passing the hook's own arguments on, as every hook must.
    unsafe { CallNextHookEx(null_mut(), code, wparam, lparam) }
}

pub(super) struct Listener {
    thread: u32,
}

impl Listener {
    /// Injected keys never reach the sink here, so the bot's own Escapes need no notes.
    pub(super) fn start(sink: Sink, _own: Arc<OwnEscapes>) -> Result<Listener, DesktopError> {
        let (ready_tx, ready) = mpsc::channel();
        std::thread::spawn(move || listen(sink, ready_tx));
        match ready.recv_timeout(Duration::from_secs(5)) {
            Ok(Ok(thread)) => Ok(Listener { thread }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(DesktopError::Hotkeys("the hotkey thread did not start".into())),
        }
    }

    pub(super) fn sees_own_keys(&self) -> bool {
        false
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        // SAFETY: posting to a thread id is harmless even if that thread has ended.
        unsafe { PostThreadMessageW(self.thread, WM_QUIT, 0, 0) };
    }
}

fn listen(sink: Sink, ready: mpsc::Sender<Result<u32, DesktopError>>) {
    SINK.with(|cell| *cell.borrow_mut() = Some((sink, false)));
    let mut registered = Vec::new();
    let mut failed = None;
    for (id, vk, _, name) in KEYS {
        // SAFETY: registers a thread hotkey (no window), unregistered below on this thread.
        if unsafe { RegisterHotKey(null_mut(), id, MOD_NOREPEAT, u32::from(vk)) } == 0 {
            failed = Some(format!(
                "{name} is already registered as a hotkey by another program; close it and retry"
            ));
            break;
        }
        registered.push(id);
    }
    // SAFETY: installs the hook for this thread's lifetime; removed below.
    let hook = match failed {
        None => unsafe { SetWindowsHookExW(WH_KEYBOARD_LL, Some(escape_hook), null_mut(), 0) },
        Some(_) => null_mut(),
    };
    if failed.is_none() && hook.is_null() {
        failed = Some("cannot install the keyboard hook for Esc".into());
    }
    if let Some(why) = failed {
        for id in registered {
            // SAFETY: unregistering this thread's own hotkey.
            unsafe { UnregisterHotKey(null_mut(), id) };
        }
        let _ = ready.send(Err(DesktopError::Hotkeys(why)));
        return;
    }
    let mut msg = MSG::default();
    // SAFETY: creates this thread's message queue so that WM_QUIT can be posted to it.
    unsafe { PeekMessageW(&mut msg, null_mut(), 0, 0, PM_NOREMOVE) };
    // SAFETY: no preconditions.
    let _ = ready.send(Ok(unsafe { GetCurrentThreadId() }));
    // SAFETY: a plain message loop on this thread; GetMessageW returns 0 on WM_QUIT, -1 on
    // error, and runs the hook procedure while it waits.
    while unsafe { GetMessageW(&mut msg, null_mut(), 0, 0) } > 0 {
        if msg.message == WM_HOTKEY
            && let Some(&(_, _, key, _)) = KEYS.iter().find(|k| k.0 as usize == msg.wParam)
        {
            deliver(key);
        }
    }
    // SAFETY: removing this thread's own hook and hotkeys.
    unsafe {
        UnhookWindowsHookEx(hook);
        for id in registered {
            UnregisterHotKey(null_mut(), id);
        }
    }
    SINK.with(|cell| cell.borrow_mut().take());
}
