//! How close the pixel reader came to a wrong digit on a set of pictures with a truth file
//! (the development set's `truth.tsv`: file, kind, side, cells, ...): every cell read as a
//! value that the truth does not hold, with its confidence, highest first; a confidence at or
//! above `pixels::CERTAIN` is a wrong digit the reader would have given.
//!
//! With `--cells DIR`, also every uncertain cell of a board found: its truth, what the
//! network and the templates made of it, and its picture written to `DIR` (to see why it is
//! uncertain; the pictures are the set's, keep them out of the repository).
//!
//! ```text
//! cargo run --release --example closest_call -- ../shared/data/real-images
//! cargo run --release --example closest_call -- ../shared/data/real-images --cells /tmp/cells
//! ```

use std::path::{Path, PathBuf};

use sudobot::pixels::{self, CERTAIN, PictureRead, RgbaImage, classifier, digits};

/// A cell read as a value the truth does not hold.
struct Miss {
    file: String,
    side: usize,
    cell: usize,
    read: u8,
    want: char,
    confidence: f32,
}

/// One picture of the truth file, read.
struct Picture<'a> {
    file: &'a str,
    side: usize,
    want: Vec<char>,
    image: RgbaImage,
    read: PictureRead,
}

impl Picture<'_> {
    /// The picture the board's coordinates refer to.
    fn board_image(&self) -> &RgbaImage {
        self.read.straightened.as_ref().unwrap_or(&self.image)
    }

    fn truth(&self, cell: usize) -> char {
        self.want.get(cell).copied().unwrap_or('.')
    }
}

fn load<'a>(dir: &Path, file: &'a str, side: usize, cells: &str) -> Option<Picture<'a>> {
    let bytes = std::fs::read(dir.join("images").join(file)).ok()?;
    let image = pixels::decode(&bytes).ok()?;
    let read = pixels::read_picture_in(image.view().ok()?).ok()?;
    (read.read.board.side == side).then(|| Picture {
        file,
        side,
        want: cells.chars().collect(),
        image,
        read,
    })
}

fn misses_in(p: &Picture) -> Vec<Miss> {
    let mut out = Vec::new();
    for (i, cell) in p.read.read.cells.iter().enumerate() {
        let Some(v) = cell.value else { continue };
        let truth = p.truth(i);
        if truth.to_digit(17) != Some(u32::from(v)) {
            out.push(Miss {
                file: p.file.to_string(),
                side: p.side,
                cell: i,
                read: v,
                want: truth,
                confidence: cell.confidence,
            });
        }
    }
    out
}

/// The rectangle of cell `i`: first and last column, first and last row.
fn cell_rect(p: &Picture, i: usize) -> (usize, usize, usize, usize) {
    let board = &p.read.read.board;
    let (y0, y1) = board.rows[i / p.side];
    let (x0, x1) = board.cols[i % p.side];
    (x0, y0, x1, y1)
}

/// What the network and the templates make of cell `i`, in words.
fn opinions(p: &Picture, i: usize) -> String {
    let image = p.board_image();
    let Ok(view) = image.view() else { return "no view".into() };
    let Some(features) = digits::cell_features(view, cell_rect(p, i)) else {
        return "no single glyph".into();
    };
    let net = classifier::builtin()
        .map(|n| classifier::read(n, &features, p.side))
        .map_or("no net".into(), |r| format!("net {} p {:.3}", r.value, r.probability));
    let template = digits::classify(&features).map_or("no templates".into(), |g| {
        format!(
            "templates {} s {:.3} c {:.2} (next {} s {:.3}, no digit s {:.3})",
            g.digit, g.similarity, g.confidence, g.second, g.runner_up, g.not_a_digit
        )
    });
    format!("{net}, {template}")
}

/// Writes cell `i`'s picture, a margin around it, enlarged, to `dir`.
fn write_crop(p: &Picture, i: usize, dir: &Path) -> Option<PathBuf> {
    let image = p.board_image();
    let (x0, y0, x1, y1) = cell_rect(p, i);
    let m = (x1 - x0) / 6;
    let (x0, y0) = (x0.saturating_sub(m), y0.saturating_sub(m));
    let (x1, y1) = ((x1 + m).min(image.width - 1), (y1 + m).min(image.height - 1));
    // Enlarged (nearest pixel) to about 240 pixels, to be looked at.
    let k = (240 / (x1 - x0 + 1)).max(1);
    let (w, h) = ((x1 - x0 + 1) * k, (y1 - y0 + 1) * k);
    let mut data = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            let at = ((y0 + y / k) * image.width + x0 + x / k) * 4;
            data.extend_from_slice(&image.data[at..at + 4]);
        }
    }
    let crop = RgbaImage { width: w, height: h, data };
    let (r, c) = (i / p.side + 1, i % p.side + 1);
    let path = dir.join(format!("{}-r{r}c{c}.png", p.file.replace('.', "_")));
    std::fs::write(&path, pixels::encode_png(&crop).ok()?).ok()?;
    Some(path)
}

/// Prints every uncertain cell of `p`, writing its picture to `dir`.
fn uncertain_cells(p: &Picture, dir: &Path) {
    for (i, cell) in p.read.read.cells.iter().enumerate() {
        if cell.is_certain() {
            continue;
        }
        let (r, c) = (i / p.side + 1, i % p.side + 1);
        let crop = write_crop(p, i, dir).map_or(String::new(), |x| x.display().to_string());
        println!(
            "uncertain {} r{r}c{c} want {} {:?} {:?} c {:.2}: {} {crop}",
            p.file,
            p.truth(i),
            cell.kind,
            cell.value,
            cell.confidence,
            opinions(p, i)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cells_dir = args.iter().position(|a| a == "--cells").and_then(|k| args.get(k + 1));
    // `--only a.jpg,b.png`: only these pictures (to look at a few cells quickly).
    let only: Option<Vec<&str>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|k| args.get(k + 1))
        .map(|list| list.split(',').collect());
    let dir = args.first().filter(|a| !a.starts_with("--")).cloned();
    let dir = dir.unwrap_or_else(|| "../shared/data/real-images".into());
    let dir = Path::new(&dir);
    if let Some(out) = cells_dir
        && let Err(e) = std::fs::create_dir_all(out)
    {
        eprintln!("closest_call: {out}: {e}");
        return;
    }
    let truth = std::fs::read_to_string(dir.join("truth.tsv")).expect("truth.tsv");
    let mut misses = Vec::new();
    for line in truth.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(file), Some(side), Some(cells)) = (f.first(), f.get(2), f.get(3)) else {
            continue;
        };
        let Ok(side) = side.parse::<usize>() else { continue };
        if only.as_ref().is_some_and(|o| !o.contains(file)) {
            continue;
        }
        let Some(picture) = load(dir, file, side, cells) else { continue };
        misses.extend(misses_in(&picture));
        if let Some(out) = cells_dir {
            uncertain_cells(&picture, Path::new(out));
        }
    }
    misses.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    println!(
        "{} cells read as a value the truth does not hold; the bar is {CERTAIN}",
        misses.len()
    );
    for m in misses.iter().take(15) {
        let (r, c) = (m.cell / m.side + 1, m.cell % m.side + 1);
        println!("{:.3} {} r{r}c{c} read {} want {}", m.confidence, m.file, m.read, m.want);
    }
}
