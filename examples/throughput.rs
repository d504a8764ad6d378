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
        let cpu_start = thread_cpu_seconds();
        for p in &puzzles {
            let c = count_solutions(p, limit).map_err(|c| format!("invalid givens: {c}"))?;
            guesses += c.guesses;
            multi += usize::from(c.found > 1);
            if c.found == 0 || !c.examples[0].is_solution_of(p) {
                return Err(format!("bad result for {}", line::write(p)).into());
            }
        }
        // Thread CPU time where the OS reports it (other processes on a busy machine do not
        // count), wall time otherwise.
        let elapsed = match (cpu_start, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => start.elapsed().as_secs_f64(),
        };
        best = best.min(elapsed);
    }
    println!(
        "{path}: {} puzzles, best of {rounds} (CPU time): {:.3} s, {:.0} puzzles/s, {:.1} µs/puzzle, {:.1} guesses/puzzle, {multi} with several solutions",
        puzzles.len(),
        best,
        puzzles.len() as f64 / best,
        best * 1e6 / puzzles.len() as f64,
        guesses as f64 / puzzles.len() as f64
    );
    Ok(())
}

/// This thread's CPU time in seconds, from Linux's `/proc/thread-self/schedstat`.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
