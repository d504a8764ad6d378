//! How close the pixel reader came to a wrong digit on a set of pictures with a truth file
//! (the development set's `truth.tsv`: file, kind, side, cells, ...): every cell read as a
//! value that the truth does not hold, with its confidence, highest first; a confidence at or
//! above `pixels::CERTAIN` is a wrong digit the reader would have given.
//!
//! ```text
//! cargo run --release --example closest_call -- ../shared/data/real-images
//! ```

use std::path::Path;

use sudobot::pixels::{self, CERTAIN};

/// A cell read as a value the truth does not hold.
struct Miss {
    file: String,
    side: usize,
    cell: usize,
    read: u8,
    want: char,
    confidence: f32,
}

fn misses_in(dir: &Path, file: &str, side: usize, cells: &str) -> Vec<Miss> {
    let Ok(bytes) = std::fs::read(dir.join("images").join(file)) else { return Vec::new() };
    let Ok(image) = pixels::decode(&bytes) else { return Vec::new() };
    let Ok(view) = image.view() else { return Vec::new() };
    let Ok(read) = pixels::read_picture(view) else { return Vec::new() };
    if read.board.side != side {
        return Vec::new();
    }
    let want: Vec<char> = cells.chars().collect();
    let mut out = Vec::new();
    for (i, cell) in read.cells.iter().enumerate() {
        let Some(v) = cell.value else { continue };
        let truth = want.get(i).copied().unwrap_or('.');
        if truth.to_digit(17) != Some(u32::from(v)) {
            out.push(Miss {
                file: file.to_string(),
                side,
                cell: i,
                read: v,
                want: truth,
                confidence: cell.confidence,
            });
        }
    }
    out
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/data/real-images".into());
    let dir = Path::new(&dir);
    let truth = std::fs::read_to_string(dir.join("truth.tsv")).expect("truth.tsv");
    let mut misses = Vec::new();
    for line in truth.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(file), Some(side), Some(cells)) = (f.first(), f.get(2), f.get(3)) else {
            continue;
        };
        let Ok(side) = side.parse::<usize>() else { continue };
        misses.extend(misses_in(dir, file, side, cells));
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
