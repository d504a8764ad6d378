//! The game window's pixels through X11 `GetImage` (pure Rust over x11rb), for the pixel
//! reader. A window that is minimized, partly off-screen or covered by another window is
//! refused: X keeps no contents for the parts that cannot be seen, so those pixels would be
//! whatever is there. The refusals say nothing of what was typed: a run adds that.

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, ImageFormat, ImageOrder};

use super::{X11Desktop, display_error};
use crate::desktop::DesktopError;
use crate::desktop::backend::{COVER_PROBES, Desktop, Rect};
use crate::pixels::RgbaImage;

impl X11Desktop {
    /// The game window's pixels, RGBA.
    pub(super) fn capture_game(&mut self) -> Result<RgbaImage, DesktopError> {
        let refuse = DesktopError::Capture;
        let Some(area) = self.game_area()? else {
            return Err(refuse("the window's place on the screen is unknown".into()));
        };
        // Iconified by a window manager (or unmapped): nothing of it is on the screen.
        if !self.viewable(self.game)? {
            return Err(DesktopError::Minimized { title: self.title.clone() });
        }
        let (screen_w, screen_h) = self.screen_pixels()?;
        if !area.inside(Rect { x: 0, y: 0, width: screen_w, height: screen_h }) {
            return Err(refuse(format!(
                "the window is partly off-screen ({}x{} at {},{} on a {screen_w}x{screen_h} \
                 screen): move it fully onto the screen",
                area.width, area.height, area.x, area.y
            )));
        }
        for (x, y) in area.probes(COVER_PROBES) {
            if let Some(by) = self.window_covering(x, y)? {
                return Err(DesktopError::Covered { by, x, y });
            }
        }
        let (Ok(width), Ok(height)) = (u16::try_from(area.width), u16::try_from(area.height))
        else {
            return Err(refuse(format!(
                "the window is too large ({}x{})",
                area.width, area.height
            )));
        };
        let reply = self
            .conn
            .get_image(ImageFormat::Z_PIXMAP, self.game, 0, 0, width, height, !0)
            .map_err(display_error)?
            .reply()
            .map_err(|e| refuse(format!("the display would not give the window's pixels: {e}")))?;
        let setup = self.conn.setup();
        let format = setup.pixmap_formats.iter().find(|f| f.depth == reply.depth);
        if format.is_none_or(|f| f.bits_per_pixel != 32) {
            return Err(refuse(format!(
                "the display's {}-bit pixels are not supported (32 bits a pixel are)",
                reply.depth
            )));
        }
        // The visual gives the colour masks; a window without its own uses the root's.
        let visuals = setup.roots.iter().flat_map(|s| &s.allowed_depths).flat_map(|d| &d.visuals);
        let visual = visuals
            .clone()
            .find(|v| v.visual_id == reply.visual)
            .or_else(|| {
                let root_visual = setup.roots.first().map(|s| s.root_visual);
                visuals.clone().find(|v| Some(v.visual_id) == root_visual)
            })
            .ok_or_else(|| refuse("the window's colour format is unknown".into()))?;
        let order = setup.image_byte_order;
        let masks = [visual.red_mask, visual.green_mask, visual.blue_mask];
        Ok(RgbaImage {
            width: usize::from(width),
            height: usize::from(height),
            data: to_rgba(&reply.data, order == ImageOrder::MSB_FIRST, masks),
        })
    }
}

/// 32-bit pixels (in this byte order, with these colour masks) as RGBA bytes.
fn to_rgba(data: &[u8], msb_first: bool, masks: [u32; 3]) -> Vec<u8> {
    let channel = |pixel: u32, mask: u32| -> u8 {
        if mask == 0 {
            return 0;
        }
        let max = mask >> mask.trailing_zeros();
        (((pixel & mask) >> mask.trailing_zeros()) * 255 / max) as u8
    };
    let mut out = Vec::with_capacity(data.len());
    for px in data.chunks_exact(4) {
        let bytes = [px[0], px[1], px[2], px[3]];
        let pixel = if msb_first { u32::from_be_bytes(bytes) } else { u32::from_le_bytes(bytes) };
        out.extend_from_slice(&[
            channel(pixel, masks[0]),
            channel(pixel, masks[1]),
            channel(pixel, masks[2]),
            255,
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_rgba;

    #[test]
    fn pixels_come_out_rgba_in_either_byte_order() {
        let masks = [0xff0000, 0x00ff00, 0x0000ff];
        // 0x00112233: red 0x11, green 0x22, blue 0x33.
        assert_eq!(to_rgba(&[0x33, 0x22, 0x11, 0x00], false, masks), [0x11, 0x22, 0x33, 255]);
        assert_eq!(to_rgba(&[0x00, 0x11, 0x22, 0x33], true, masks), [0x11, 0x22, 0x33, 255]);
        // 10-bit channels are scaled to 8 bits.
        let deep = [0x3ff << 20, 0x3ff << 10, 0x3ff];
        assert_eq!(to_rgba(&(0x3ff_u32 << 20).to_le_bytes(), false, deep), [255, 0, 0, 255]);
    }
}
