//! Single-threaded solver throughput over a puzzle file (any format `sudobot solve` reads, one
//! puzzle a line or one a block), in "unique" mode (count to 2), with every solution checked
//! against its puzzle.
//!
//! Plain 9x9 files are timed through `solve::count_classic`, the entry `sudobot solve --file`
//! uses for plain 81-character lines (no `Grid` per puzzle), like tdoku's harness times its
//! solver alone: the first solution of each puzzle is kept and checked after the timed loop, and
//! the guesses are counted in a separate untimed pass through `count_solutions`. Set
//! `THROUGHPUT_GRID=1` to time `count_solutions` (the `Grid` API, with its checks) instead, as
//! before 2026-11-23 23:00 UTC.
//!
//! ```text
//! cargo run --release --example throughput -- tests/fixtures/bench/puzzles6_forum_hardest_1106
//! TDOKU_BENCH=target/side-by-side/tdoku/tdoku-bench cargo run --release --example throughput -- FILE
//! ```
//!
//! With `TDOKU_BENCH` naming a built tdoku comparator (`../shared/comparators/tdoku/build.sh
//! DIR`, or `benches/side-by-side.sh` builds one in `target/side-by-side/tdoku/`), 9x9 files are
//! also timed with tdoku's solve loop right after, and the ratio printed; without it, the
//! output says tdoku is not available.

use std::time::Instant;

use sudobot::format::{self, line};
use sudobot::grid::Grid;
use sudobot::solve::{count_classic, count_solutions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: throughput FILE [LIMIT] [ROUNDS]")?;
    let limit: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(2);
    let rounds: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    let text = std::fs::read_to_string(&path)?;
    let mut puzzles = Vec::new();
    for entry in format::read_puzzles(&text, &path, &Default::default())?.entries {
        puzzles.push(entry.puzzle.map_err(|e| format!("{path}: {e}"))?);
    }
    let classic = puzzles.iter().all(|p| p.geometry().is_classic() && !p.geometry().is_killer());
    let raw = classic && std::env::var_os("THROUGHPUT_GRID").is_none();
    let cells: Vec<[u8; 81]> = if raw {
        puzzles.iter().map(|p| p.cells().try_into().expect("a classic grid has 81 cells")).collect()
    } else {
        Vec::new()
    };
    let mut firsts = vec![[[0u8; 81]; 2]; cells.len()];
    // Each round passes over the whole file, repeating it until at least 0.2 s have passed so
    // that small sets of easy puzzles still give a measurable time.
    let mut best_rate = 0.0f64;
    let (mut guesses, mut multi) = (0u64, 0usize);
    for _ in 0..rounds {
        let start = Instant::now();
        let cpu_start = thread_cpu_seconds();
        let mut solved = 0usize;
        let elapsed = loop {
            guesses = 0;
            multi = 0;
            if raw {
                for ((c, first), p) in cells.iter().zip(firsts.iter_mut()).zip(&puzzles) {
                    let found = count_classic(c, limit, first).ok_or("a value above 9")?;
                    if found == 0 {
                        return Err(format!("no solution for {}", line::write(p)).into());
                    }
                    multi += usize::from(found > 1);
                }
            } else {
                for p in &puzzles {
                    let c =
                        count_solutions(p, limit).map_err(|c| format!("invalid givens: {c}"))?;
                    guesses += c.guesses;
                    multi += usize::from(c.found > 1);
                    if c.found == 0 || !c.examples[0].is_solution_of(p) {
                        return Err(format!("bad result for {}", line::write(p)).into());
                    }
                }
            }
            solved += puzzles.len();
            // Thread CPU time where the OS reports it (other processes on a busy machine do
            // not count), wall time otherwise.
            let elapsed = match (cpu_start, thread_cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => start.elapsed().as_secs_f64(),
            };
            if elapsed >= 0.2 {
                break elapsed;
            }
        };
        best_rate = best_rate.max(solved as f64 / elapsed);
    }
    if raw {
        // Outside the timing: every first solution solves its puzzle, and the guesses.
        for (p, first) in puzzles.iter().zip(&firsts) {
            let grid = Grid::new(p.geometry_arc().clone(), first[0].to_vec())?;
            if !grid.is_solution_of(p) {
                return Err(format!("bad result for {}", line::write(p)).into());
            }
            guesses += count_solutions(p, limit).map_err(|c| format!("{c}"))?.guesses;
        }
        println!("timed: solve::count_classic (the CLI's entry for plain 9x9 lines)");
    } else {
        println!("timed: solve::count_solutions (the Grid API)");
    }
    println!(
        "{path}: {} puzzles, best of {rounds} (CPU time): {best_rate:.0} puzzles/s, {:.1} µs/puzzle, {:.1} guesses/puzzle, {multi} with several solutions",
        puzzles.len(),
        1e6 / best_rate,
        guesses as f64 / puzzles.len() as f64
    );
    if puzzles.iter().all(|p| p.geometry().is_classic()) {
        tdoku(&path, rounds, best_rate);
    }
    Ok(())
}

/// tdoku's solve loop on the same file right after, when `TDOKU_BENCH` names its build.
fn tdoku(path: &str, rounds: usize, ours: f64) {
    let Some(bench) = std::env::var_os("TDOKU_BENCH") else {
        println!("tdoku: not available (set TDOKU_BENCH to a tdoku-bench build to compare)");
        return;
    };
    let out = std::env::temp_dir().join(format!("tdoku-solutions-{}.txt", std::process::id()));
    let run =
        std::process::Command::new(&bench).arg(path).arg(&out).arg(rounds.to_string()).output();
    let _ = std::fs::remove_file(&out);
    match run {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            match text.split_whitespace().nth(1).and_then(|r| r.parse::<f64>().ok()) {
                Some(rate) => println!(
                    "tdoku (same file, same run): {rate:.0} puzzles/s; sudobot / tdoku = {:.2}",
                    ours / rate
                ),
                None => println!("tdoku: unexpected output {text:?}"),
            }
        }
        Ok(o) => println!("tdoku: failed ({})", o.status),
        Err(e) => println!("tdoku: cannot run {}: {e}", std::path::Path::new(&bench).display()),
    }
}

/// This thread's CPU time in seconds, from Linux's `/proc/thread-self/schedstat`.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
