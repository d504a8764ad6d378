//! Speed of the technique engine, on one core, in thread CPU time (so other processes on a busy
//! machine do not count); per-puzzle explain times are wall time, as the kernel's thread CPU
//! time is only as fine as a scheduler tick.
//!
//! ```text
//! # grades per second on Solo's scale (uniqueness check included), best of 3 rounds
//! cargo run --release --example logic_bench -- grade tests/fixtures/logic/solo_3x3de.txt
//! # explain (score scale): time per puzzle (median, worst; wall time), steps, share without a
//! # guess
//! cargo run --release --example logic_bench -- explain tests/fixtures/bench/puzzles3_magictour_top1465
//! cargo run --release --example logic_bench -- explain FILE --scale solo --limit 100
//! ```

use sudobot::format;
use sudobot::logic::{self, Scale};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: logic_bench grade|explain FILE [--scale solo|score] [--limit N] [--rounds N]";
    let (mode, path) = match args.as_slice() {
        [m, p, ..] => (m.as_str(), p.as_str()),
        _ => return Err(usage.into()),
    };
    let flag = |name: &str| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
    };
    let default_scale = if mode == "grade" { "solo" } else { "score" };
    let scale: Scale = flag("--scale").unwrap_or(default_scale).parse()?;
    let limit: usize = flag("--limit").map(str::parse).transpose()?.unwrap_or(usize::MAX);
    let rounds: usize = flag("--rounds").map(str::parse).transpose()?.unwrap_or(3);
    let text = std::fs::read_to_string(path)?;
    let puzzles = format::read_puzzles(&text, path, &Default::default())?
        .entries
        .into_iter()
        .take(limit)
        .map(|e| e.puzzle)
        .collect::<Result<Vec<_>, _>>()?;
    match mode {
        "grade" => grade(path, &puzzles, scale, rounds),
        "explain" => explain(path, &puzzles, scale),
        _ => Err(usage.into()),
    }
}

fn grade(
    path: &str,
    puzzles: &[sudobot::grid::Grid],
    scale: Scale,
    rounds: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut best = 0.0f64;
    let mut levels = std::collections::BTreeMap::new();
    for _ in 0..rounds {
        let start = cpu_seconds();
        let mut done = 0usize;
        // Repeat the file until at least 0.5 s of CPU time have passed.
        let elapsed = loop {
            levels.clear();
            for p in puzzles {
                let g = logic::grade(p, scale)?;
                *levels.entry(g.level.name()).or_insert(0usize) += 1;
            }
            done += puzzles.len();
            let t = cpu_seconds() - start;
            if t >= 0.5 {
                break t;
            }
        };
        best = best.max(done as f64 / elapsed);
    }
    println!(
        "{path}: {} puzzles, scale {scale}, best of {rounds} (thread CPU time): {best:.0} grades/s, {:.1} µs/grade; levels {levels:?}",
        puzzles.len(),
        1e6 / best
    );
    Ok(())
}

fn explain(
    path: &str,
    puzzles: &[sudobot::grid::Grid],
    scale: Scale,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut times = Vec::with_capacity(puzzles.len());
    let (mut steps, mut guessless) = (0usize, 0usize);
    let mut levels = std::collections::BTreeMap::new();
    let mut worst = (0.0f64, 0usize);
    let cpu_start = cpu_seconds();
    for (i, p) in puzzles.iter().enumerate() {
        // Per puzzle: wall time (the kernel's thread CPU time is only as fine as a scheduler
        // tick); the total below is CPU time.
        let start = std::time::Instant::now();
        let e = logic::explain(p, scale)?;
        let t = start.elapsed().as_secs_f64();
        times.push(t);
        if t > worst.0 {
            worst = (t, i + 1);
        }
        steps += e.steps.len();
        guessless += usize::from(e.grade.guesses == 0);
        *levels.entry(e.grade.level.name()).or_insert(0usize) += 1;
    }
    let cpu_total = cpu_seconds() - cpu_start;
    times.sort_by(f64::total_cmp);
    let n = times.len().max(1);
    println!(
        "{path}: {} puzzles, scale {scale}: explain median {:.2} ms, worst {:.2} ms (puzzle {}) (wall), total {:.1} s (CPU); {:.1} steps/puzzle; {guessless} without a guess ({:.1}%); levels {levels:?}",
        times.len(),
        times[times.len() / 2] * 1e3,
        worst.0 * 1e3,
        worst.1,
        cpu_total,
        steps as f64 / n as f64,
        100.0 * guessless as f64 / n as f64,
    );
    Ok(())
}

/// This thread's CPU time in seconds (Linux's `/proc/thread-self/schedstat`), else wall time.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map(|ns| ns / 1e9)
        .unwrap_or_else(|| {
            use std::sync::OnceLock;
            static START: OnceLock<std::time::Instant> = OnceLock::new();
            START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
        })
}
