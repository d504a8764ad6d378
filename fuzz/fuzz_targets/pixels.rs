//! The pixel reader: no panic on any file bytes (decoded as PNG or JPEG) nor on any RGBA
//! buffer of any size; a board read gives one cell per square of its side.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::pixels;

fuzz_target!(|data: &[u8]| {
    if let Ok(image) = pixels::decode(data)
        && let Ok(view) = image.view()
    {
        check(view);
    }
    // The bytes as raw pixels: the first two bytes give the width, the rest is the buffer.
    if let [w, h, rest @ ..] = data {
        let (w, h) = (usize::from(*w) + 1, usize::from(*h) + 1);
        let take = (w * h * 4).min(rest.len());
        if let Ok(view) = pixels::Rgba::new(w, h, &rest[..take]) {
            check(view);
        }
    }
});

fn check(view: pixels::Rgba<'_>) {
    if let Ok(read) = pixels::read(view) {
        let side = read.board.side;
        assert_eq!(read.cells.len(), side * side);
        let _ = read.grid();
        let _ = read.to_string();
    }
}
