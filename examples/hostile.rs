//! The hostile solver set: boards built to find the solver's worst case, and a runner that
//! prints the worst case per side.
//!
//! ```text
//! cargo run --release --example hostile -- generate > benches/hostile.txt
//! cargo run --release --example hostile -- run benches/hostile.txt
//! ```
//!
//! `generate` writes, for every side with a box shape from 4 to 36 (the standard shape of
//! `sudobot solve`: boxes as square as possible, wider than tall), valid grids made from the
//! banded pattern with rows, columns and symbols shuffled within their bands, blanked 30% to
//! 80%; and boards of the same grids blanked 55-65% with one given changed to a value that is
//! in none of its houses (so the givens do not conflict, but most such boards have no
//! solution). A fixed seed makes the set the same on every run. The generated set is committed
//! as `benches/hostile.txt`.
//!
//! `run` counts each board's solutions up to 2 (the "unique / several / none" answer of
//! `sudobot solve --check`), with the budget of `HOSTILE_MAX_SECONDS` (default none), and prints
//! per side the number of boards, each answer's count and the slowest board's time and line.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use sudobot::format::{self, line};
use sudobot::grid::{Geometry, Grid};
use sudobot::solve::{Budget, count_solutions_within};

/// Sides with a box shape, up to the largest the model takes.
const SIDES: [usize; 19] = [4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 24, 25, 28, 30, 32, 35, 36];
/// Blank fractions (percent) of the plain boards, one board each.
const BLANKS: [usize; 8] = [30, 40, 50, 55, 60, 65, 70, 80];
/// Blank fractions of the spoiled boards, one board each.
const SPOILED: [usize; 3] = [55, 60, 65];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate"] => generate(),
        ["run", path] => run(path)?,
        _ => return Err("usage: hostile generate | hostile run FILE".into()),
    }
    Ok(())
}

/// A valid grid for boxes `w` wide and `h` tall, shuffled within bands and stacks.
fn valid_grid(rng: &mut fastrand::Rng, w: usize, h: usize) -> Vec<u8> {
    let n = w * h;
    // Rows: bands of `h` rows; columns: stacks of `w` columns. Shuffle the bands, the rows in
    // each band, the stacks, the columns in each stack, and the symbols.
    let order = |rng: &mut fastrand::Rng, groups: usize, size: usize| -> Vec<usize> {
        let mut outer: Vec<usize> = (0..groups).collect();
        rng.shuffle(&mut outer);
        let mut all = Vec::with_capacity(groups * size);
        for g in outer {
            let mut inner: Vec<usize> = (0..size).map(|k| g * size + k).collect();
            rng.shuffle(&mut inner);
            all.extend(inner);
        }
        all
    };
    let rows = order(rng, w, h);
    let cols = order(rng, h, w);
    let mut symbols: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut symbols);
    (0..n * n)
        .map(|i| {
            let (r, c) = (rows[i / n], cols[i % n]);
            symbols[(w * (r % h) + r / h + c) % n]
        })
        .collect()
}

/// `grid` with `percent` of its cells blank, chosen at random.
fn blanked(rng: &mut fastrand::Rng, grid: &[u8], percent: usize) -> Vec<u8> {
    let mut cells: Vec<usize> = (0..grid.len()).collect();
    rng.shuffle(&mut cells);
    let mut board = grid.to_vec();
    for &i in &cells[..grid.len() * percent / 100] {
        board[i] = 0;
    }
    board
}

/// Changes one given of `board` to a value in none of its houses (the first such given in a
/// random order); `None` when no given has such a value.
fn spoil(rng: &mut fastrand::Rng, board: &mut [u8], geometry: &Geometry) -> Option<()> {
    let n = geometry.side();
    let mut cells: Vec<usize> = (0..board.len()).filter(|&i| board[i] != 0).collect();
    rng.shuffle(&mut cells);
    for cell in cells {
        let mut seen = vec![false; n + 1];
        for house in geometry.houses().iter().filter(|h| h.cells.contains(&cell)) {
            for &c in &house.cells {
                seen[board[c] as usize] = true;
            }
        }
        let free: Vec<u8> = (1..=n as u8).filter(|&v| !seen[v as usize]).collect();
        if !free.is_empty() {
            board[cell] = free[rng.usize(..free.len())];
            return Some(());
        }
    }
    None
}

fn generate() {
    let mut rng = fastrand::Rng::with_seed(26);
    println!("# The hostile solver set (examples/hostile.rs generate; seed 26): per side, one");
    println!("# valid grid blanked {BLANKS:?} percent, then {SPOILED:?} percent with one given");
    println!("# changed to a value in none of its houses.");
    for side in SIDES {
        let geometry = Geometry::standard(side).expect("a side with a box shape");
        let (w, h) = geometry.box_shape().expect("boxes");
        println!("# {side}x{side}, boxes {w} wide x {h} tall");
        let grid = valid_grid(&mut rng, w, h);
        for percent in BLANKS {
            let board = blanked(&mut rng, &grid, percent);
            println!("{}", text(&geometry, board));
        }
        for percent in SPOILED {
            let mut board = blanked(&mut rng, &grid, percent);
            if spoil(&mut rng, &mut board, &geometry).is_some() {
                println!("{}", text(&geometry, board));
            }
        }
    }
}

fn text(geometry: &std::sync::Arc<Geometry>, cells: Vec<u8>) -> String {
    line::write(&Grid::new(geometry.clone(), cells).expect("values up to the side"))
}

/// Per side: boards, answers (unique, several, none, gave up) and the slowest board.
#[derive(Default)]
struct Side {
    boards: usize,
    answers: [usize; 4],
    worst: Duration,
    worst_line: usize,
}

fn run(path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let max = std::env::var("HOSTILE_MAX_SECONDS").ok().map(|s| s.parse::<f64>()).transpose()?;
    let verbose = std::env::var_os("HOSTILE_VERBOSE").is_some();
    let min_side: usize = std::env::var("HOSTILE_MIN_SIDE").map_or(Ok(0), |s| s.parse())?;
    let text = std::fs::read_to_string(path)?;
    let mut sides: BTreeMap<usize, Side> = BTreeMap::new();
    for entry in format::read_puzzles(&text, path, &Default::default())?.entries {
        let puzzle = entry.puzzle.map_err(|e| format!("{path}: {e}"))?;
        if puzzle.side() < min_side {
            continue;
        }
        let budget = Budget { time: max.map(Duration::from_secs_f64), ..Budget::default() };
        let start = Instant::now();
        let limit = std::env::var("HOSTILE_LIMIT").map_or(Ok(2), |s| s.parse())?;
        let count = count_solutions_within(&puzzle, limit, &budget);
        let took = start.elapsed();
        let answer = match &count {
            Ok(count) if count.gave_up => 3,
            Ok(count) => {
                for example in &count.examples {
                    assert!(
                        example.is_solution_of(&puzzle),
                        "line {}: a wrong solution",
                        entry.line
                    );
                }
                match count.found {
                    0 => 2,
                    1 => 0,
                    _ => 1,
                }
            }
            Err(_) => 2,
        };
        if verbose {
            let guesses = count.as_ref().map_or(0, |c| c.guesses);
            let took = took.as_secs_f64();
            eprintln!(
                "line {}: side {}, answer {answer}, {took:.3} s, {guesses} guesses",
                entry.line,
                puzzle.side()
            );
        }
        let side = sides.entry(puzzle.side()).or_default();
        side.boards += 1;
        // 0 unique, 1 several, 2 none (or conflicting givens), 3 gave up.
        side.answers[answer] += 1;
        if took >= side.worst {
            side.worst = took;
            side.worst_line = entry.line;
        }
    }
    println!("side  boards  unique  several  none  gave-up  worst (s)  worst line");
    for (n, s) in &sides {
        let [unique, several, none, gave_up] = s.answers;
        println!(
            "{n:>4}  {:>6}  {unique:>6}  {several:>7}  {none:>4}  {gave_up:>7}  {:>9.3}  {:>10}",
            s.boards,
            s.worst.as_secs_f64(),
            s.worst_line
        );
    }
    Ok(())
}
