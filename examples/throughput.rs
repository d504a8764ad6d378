//! Single-threaded solver throughput over a puzzle file, in "unique" mode (count to 2), with
//! every solution checked against its puzzle.
//!
//! ```text
//! cargo run --release --example throughput -- tests/fixtures/bench/puzzles6_forum_hardest_1106
//! ```

use std::time::Instant;

use sudobot::format::line;
use sudobot::solve::count_solutions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: throughput FILE [LIMIT] [ROUNDS]")?;
    let limit: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(2);
    let rounds: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    let text = std::fs::read_to_string(&path)?;
    let mut puzzles = Vec::new();
    for (n, entry) in line::parse_file(&text) {
        puzzles.push(entry.map_err(|e| format!("{path}:{n}: {e}"))?);
    }
    let mut best = f64::MAX;
    let (mut guesses, mut multi) = (0u64, 0usize);
    for _ in 0..rounds {
        guesses = 0;
        multi = 0;
        let start = Instant::now();
        for p in &puzzles {
            let c = count_solutions(p, limit).map_err(|c| format!("invalid givens: {c}"))?;
            guesses += c.guesses;
            multi += usize::from(c.found > 1);
            if c.found == 0 || !c.examples[0].is_solution_of(p) {
                return Err(format!("bad result for {}", line::write(p)).into());
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{path}: {} puzzles, best of {rounds}: {:.3} s, {:.0} puzzles/s, {:.1} µs/puzzle, {:.1} guesses/puzzle, {multi} with several solutions",
        puzzles.len(),
        best,
        puzzles.len() as f64 / best,
        best * 1e6 / puzzles.len() as f64,
        guesses as f64 / puzzles.len() as f64
    );
    Ok(())
}
