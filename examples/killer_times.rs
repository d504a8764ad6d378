//! Per-puzzle solve times over puzzle files (any format sudobot reads; made for the Killer
//! sets): median, 90th percentile and worst, single-threaded, in "unique" mode (count to 2),
//! with every solution checked against the puzzle's rows, columns, regions and cages.
//!
//! ```text
//! cargo run --release --example killer_times -- tests/fixtures/killer/*.txt
//! ```
//!
//! Each puzzle is timed once per round, in file order, so every solve builds its own tables
//! (one puzzle's cages are another's geometry); a puzzle's time is its fastest round, which
//! keeps other processes on a busy machine out of the figures (use a few rounds there).

use std::time::{Duration, Instant};

use sudobot::format::{self, ReadOptions};
use sudobot::solve::count_solutions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rounds = 5;
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.strip_prefix("--rounds=") {
            Some(n) => rounds = n.parse()?,
            None => files.push(arg),
        }
    }
    if files.is_empty() {
        return Err("usage: killer_times [--rounds=N] FILE...".into());
    }
    println!(
        "{:<16} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8} {:>5}",
        "file", "count", "median", "mean", "p90", "worst", "guesses", "multi"
    );
    for path in files {
        let text = format::read_file(path.as_ref())?;
        let puzzles = format::read_puzzles(&text, &path, &ReadOptions::default())?;
        let mut grids = Vec::new();
        for entry in puzzles.entries {
            grids.push(entry.puzzle.map_err(|e| format!("{path}: {e}"))?);
        }
        let mut best = vec![Duration::MAX; grids.len()];
        let (mut guesses, mut multi) = (0u64, 0usize);
        for _ in 0..rounds {
            guesses = 0;
            multi = 0;
            for (k, p) in grids.iter().enumerate() {
                let start = Instant::now();
                let c = count_solutions(p, 2).map_err(|c| format!("invalid givens: {c}"))?;
                best[k] = best[k].min(start.elapsed());
                guesses += c.guesses;
                multi += usize::from(c.found > 1);
                if c.found == 0 || !c.examples.iter().all(|s| s.is_solution_of(p)) {
                    return Err(format!("{path}: puzzle {} not solved", k + 1).into());
                }
            }
        }
        best.sort_unstable();
        let at = |q: f64| best[((best.len() - 1) as f64 * q).round() as usize];
        let us = |d: Duration| format!("{:.1} µs", d.as_secs_f64() * 1e6);
        let mean = best.iter().sum::<Duration>() / grids.len() as u32;
        let name = std::path::Path::new(&path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{:<16} {:>5} {:>9} {:>9} {:>9} {:>9} {:>8.1} {:>5}",
            name,
            grids.len(),
            us(at(0.5)),
            us(mean),
            us(at(0.9)),
            us(at(1.0)),
            guesses as f64 / grids.len() as f64,
            multi
        );
    }
    Ok(())
}
