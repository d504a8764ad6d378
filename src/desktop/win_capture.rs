//! Windows: the foreground window's pixels through GDI, for the pixel reader, and its place on
//! the screen for the clicks. The portable backend finds no window by title, so on Windows the
//! window played by its pixels is the one the user focused (the interactive mode's F2).
//!
//! Written against the Win32 documentation and windows-sys 0.61, compiled and linted for
//! `x86_64-pc-windows-gnu` (a step of `.ci/run`) but never run (see the README). The
//! invariants of its `unsafe` calls:
//! - every handle it gets (the window's DC, a memory DC, a bitmap) is released on every path by
//!   [`Gdi`]'s drop, in the reverse order of creation, and the bitmap is selected out of the
//!   memory DC before it is deleted;
//! - `GetDIBits` writes at most `width * height * 4` bytes (a top-down 32-bit DIB of the sizes
//!   given), which is the length of the buffer it is handed;
//! - `BITMAPINFO` is zeroed before its header is filled (it is plain old data).
//!
//! The rules of the X11 capture hold: a minimized window, one partly off the virtual screen,
//! and one covered by another window at any of its [`COVER_PROBES`] x [`COVER_PROBES`] points
//! are refused (clicks at those points would land elsewhere), naming why.

use std::ptr::null_mut;

use windows_sys::Win32::Foundation::{HWND, POINT, RECT};
use windows_sys::Win32::Graphics::Gdi::{
    BI_RGB, BITMAPINFO, BITMAPINFOHEADER, BitBlt, ClientToScreen, CreateCompatibleBitmap,
    CreateCompatibleDC, DIB_RGB_COLORS, DeleteDC, DeleteObject, GetDC, GetDIBits, HBITMAP, HDC,
    HGDIOBJ, ReleaseDC, SRCCOPY, SelectObject,
};
use windows_sys::Win32::Storage::Xps::{PW_CLIENTONLY, PrintWindow};
use windows_sys::Win32::UI::WindowsAndMessaging::{
    GA_ROOT, GetAncestor, GetClientRect, GetForegroundWindow, GetSystemMetrics, GetWindowTextW,
    IsIconic, SM_CXVIRTUALSCREEN, SM_CYVIRTUALSCREEN, SM_XVIRTUALSCREEN, SM_YVIRTUALSCREEN,
    WindowFromPoint,
};

use super::DesktopError;
use super::backend::{COVER_PROBES, Rect};
use crate::pixels::RgbaImage;

/// `PW_RENDERFULLCONTENT` (Windows 8.1 and later): windows drawn by DirectComposition too.
const PW_RENDERFULLCONTENT: u32 = 2;

fn refuse(why: String) -> DesktopError {
    DesktopError::Capture(why)
}

/// The foreground window and its client area on the screen, refused when it is minimized or
/// partly off the virtual screen.
pub(crate) fn foreground_area() -> Result<(HWND, Rect), DesktopError> {
    // SAFETY: no arguments; a null handle is checked below.
    let hwnd = unsafe { GetForegroundWindow() };
    if hwnd.is_null() {
        return Err(refuse("no window has the focus".into()));
    }
    // SAFETY: `hwnd` is a window handle Windows just gave; a stale one makes these fail, which
    // is checked.
    if unsafe { IsIconic(hwnd) } != 0 {
        return Err(refuse(format!("{} is minimized: restore it", title(hwnd))));
    }
    let mut client = RECT { left: 0, top: 0, right: 0, bottom: 0 };
    // SAFETY: as above; `client` is a valid RECT to write.
    if unsafe { GetClientRect(hwnd, &mut client) } == 0 {
        return Err(refuse(format!("the size of {} is unknown", title(hwnd))));
    }
    let mut origin = POINT { x: 0, y: 0 };
    // SAFETY: as above; `origin` is a valid POINT to convert in place.
    if unsafe { ClientToScreen(hwnd, &mut origin) } == 0 {
        return Err(refuse(format!("the place of {} is unknown", title(hwnd))));
    }
    let width = (client.right - client.left).max(0) as u32;
    let height = (client.bottom - client.top).max(0) as u32;
    if width == 0 || height == 0 {
        return Err(refuse(format!("{} shows nothing ({width}x{height})", title(hwnd))));
    }
    let area = Rect { x: origin.x, y: origin.y, width, height };
    // SAFETY: plain queries of the screen's metrics.
    let screen = unsafe {
        Rect {
            x: GetSystemMetrics(SM_XVIRTUALSCREEN),
            y: GetSystemMetrics(SM_YVIRTUALSCREEN),
            width: GetSystemMetrics(SM_CXVIRTUALSCREEN).max(0) as u32,
            height: GetSystemMetrics(SM_CYVIRTUALSCREEN).max(0) as u32,
        }
    };
    if !area.inside(screen) {
        return Err(refuse(format!(
            "{} is partly off-screen ({width}x{height} at {},{}): move it fully onto the screen",
            title(hwnd),
            area.x,
            area.y
        )));
    }
    Ok((hwnd, area))
}

/// The foreground window's client area, RGBA, after checking that no other window covers it.
pub(crate) fn capture_foreground() -> Result<RgbaImage, DesktopError> {
    let (hwnd, area) = foreground_area()?;
    let (w, h) = (area.width as i32, area.height as i32);
    for (x, y) in area.probes(COVER_PROBES) {
        // SAFETY: plain queries; a null result means no window there.
        let top = unsafe { GetAncestor(WindowFromPoint(POINT { x, y }), GA_ROOT) };
        if !top.is_null() && top != hwnd {
            return Err(DesktopError::Covered { by: quoted(top), x, y });
        }
    }
    let gdi = Gdi::new(hwnd, w, h)?;
    // The window draws itself into the bitmap (PrintWindow); where it will not, what the
    // screen shows of it is copied (the probes above found it uncovered).
    // SAFETY: the DCs and bitmap are live for `gdi`'s life.
    let printed = unsafe { PrintWindow(hwnd, gdi.memory, PW_CLIENTONLY | PW_RENDERFULLCONTENT) };
    if printed == 0 {
        // SAFETY: as above; both DCs are `w` x `h` or larger.
        let copied = unsafe { BitBlt(gdi.memory, 0, 0, w, h, gdi.window, 0, 0, SRCCOPY) };
        if copied == 0 {
            return Err(refuse(format!("Windows would not give the pixels of {}", title(hwnd))));
        }
    }
    // SAFETY: zeroed plain old data, then its header filled.
    let mut info: BITMAPINFO = unsafe { std::mem::zeroed() };
    info.bmiHeader = BITMAPINFOHEADER {
        biSize: std::mem::size_of::<BITMAPINFOHEADER>() as u32,
        biWidth: w,
        biHeight: -h, // top-down rows
        biPlanes: 1,
        biBitCount: 32,
        biCompression: BI_RGB,
        biSizeImage: 0,
        biXPelsPerMeter: 0,
        biYPelsPerMeter: 0,
        biClrUsed: 0,
        biClrImportant: 0,
    };
    let mut data = vec![0u8; area.width as usize * area.height as usize * 4];
    // SAFETY: `data` holds exactly the `h` rows of `w` 32-bit pixels the header describes.
    let rows = unsafe {
        GetDIBits(
            gdi.memory,
            gdi.bitmap,
            0,
            h as u32,
            data.as_mut_ptr().cast(),
            &mut info,
            DIB_RGB_COLORS,
        )
    };
    if rows != h {
        return Err(refuse(format!("Windows gave {rows} of the {h} rows of {}", title(hwnd))));
    }
    // BGRX to RGBA.
    for px in data.chunks_exact_mut(4) {
        px.swap(0, 2);
        px[3] = 255;
    }
    Ok(RgbaImage { width: area.width as usize, height: area.height as usize, data })
}

/// A window's title in quotes.
fn quoted(hwnd: HWND) -> String {
    let mut buffer = [0u16; 256];
    // SAFETY: the buffer's length is passed; Windows writes at most that many units.
    let n = unsafe { GetWindowTextW(hwnd, buffer.as_mut_ptr(), buffer.len() as i32) };
    let n = usize::try_from(n).unwrap_or(0).min(buffer.len());
    format!("\"{}\"", String::from_utf16_lossy(&buffer[..n]))
}

/// A window named for messages.
fn title(hwnd: HWND) -> String {
    format!("the window {}", quoted(hwnd))
}

/// The GDI objects of one capture, released on drop.
struct Gdi {
    hwnd: HWND,
    window: HDC,
    memory: HDC,
    bitmap: HBITMAP,
    old: HGDIOBJ,
}

impl Gdi {
    fn new(hwnd: HWND, w: i32, h: i32) -> Result<Gdi, DesktopError> {
        let fail = || refuse(format!("Windows could not make a bitmap of {w}x{h}"));
        // SAFETY: `hwnd` is live (checked by the caller); each handle is checked before use and
        // released by `drop` (null ones are skipped there).
        unsafe {
            let window = GetDC(hwnd);
            if window.is_null() {
                return Err(fail());
            }
            let mut gdi =
                Gdi { hwnd, window, memory: null_mut(), bitmap: null_mut(), old: null_mut() };
            gdi.memory = CreateCompatibleDC(window);
            if gdi.memory.is_null() {
                return Err(fail());
            }
            gdi.bitmap = CreateCompatibleBitmap(window, w, h);
            if gdi.bitmap.is_null() {
                return Err(fail());
            }
            gdi.old = SelectObject(gdi.memory, gdi.bitmap);
            Ok(gdi)
        }
    }
}

impl Drop for Gdi {
    fn drop(&mut self) {
        // SAFETY: each handle was made in `new` and is released once, in reverse order.
        unsafe {
            if !self.old.is_null() {
                SelectObject(self.memory, self.old);
            }
            if !self.bitmap.is_null() {
                DeleteObject(self.bitmap);
            }
            if !self.memory.is_null() {
                DeleteDC(self.memory);
            }
            ReleaseDC(self.hwnd, self.window);
        }
    }
}
