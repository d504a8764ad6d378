//! Agreement of `grade --scale solo` with Simon Tatham's Solo on Killer puzzles: both Solo's
//! main level and its Killer level (Trivial, Simple, Intermediate, Advanced).
//!
//! Solo's generator keeps only Killer puzzles its solver grades exactly at the asked level and at
//! Killer Advanced, so besides the generated puzzles each one is also graded with some of its
//! solution's values given (a fixed pseudo-random choice of a twelfth, a sixth, a quarter and
//! half of the cells), which gives the lower Killer levels. Every puzzle is graded by sudobot and by Solo's
//! standalone grader (`solo -g ID`, built by `.ci/solo-grader`). Prints the agreement table
//! (markdown) and every disagreement.
//!
//! ```text
//! cargo run --release --example killer_agreement -- 20                 # every shape and level
//! cargo run --release --example killer_agreement -- 10 3x3k 2x3k       # some shapes
//! cargo run --release --example killer_agreement -- fixtures           # tests/fixtures/killer
//! ```

use std::collections::BTreeMap;
use std::process::Command;

use rayon::prelude::*;
use sudobot::format::{self, solo_id};
use sudobot::grid::Grid;
use sudobot::logic::{self, KillerLevel, Scale, SoloLevel};
use sudobot::solve::{self, Verdict};

/// Every Killer shape Solo makes, with the levels its generator reaches on it (all shapes but
/// 3x3 come out Trivial, or Unreasonable when asked).
const SHAPES: [(&str, &[&str]); 6] = [
    ("2x2k", &["dt"]),
    ("2x3k", &["dt", "du"]),
    ("3x2k", &["dt", "du"]),
    ("2x4k", &["dt", "du"]),
    ("4x2k", &["dt", "du"]),
    ("3x3k", &["dt", "db", "di", "da", "de", "du"]),
];

/// The Solo grade: main level and Killer level.
type Levels = (SoloLevel, KillerLevel);

fn sgt_solo() -> &'static str {
    // Debian installs it in /usr/games, which is not always on PATH.
    if std::path::Path::new("/usr/games/sgt-solo").exists() {
        "/usr/games/sgt-solo"
    } else {
        "sgt-solo"
    }
}

fn generate(params: &str, n: usize) -> Result<Vec<String>, String> {
    let out = Command::new(sgt_solo())
        .args(["--generate", &n.to_string(), params])
        .output()
        .map_err(|e| format!("running sgt-solo: {e} (install sgt-puzzles)"))?;
    if !out.status.success() {
        return Err(format!("sgt-solo --generate {n} {params} failed"));
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect())
}

/// Solo's grader: `Difficulty rating: Basic (...)` then `Killer difficulty: Advanced (...)`.
fn solo_grade(grader: &str, id: &str) -> Option<Levels> {
    let out = Command::new(grader).args(["-g", id]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let word = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|r| r.split_whitespace().next())
            .map(str::to_string)
    };
    let main = word("Difficulty rating: ")?;
    let killer = word("Killer difficulty: ")?;
    Some((
        SoloLevel::ALL.into_iter().find(|l| l.name() == main)?,
        KillerLevel::ALL.into_iter().find(|l| l.name() == killer)?,
    ))
}

fn ours(id: &str) -> Result<Levels, String> {
    let puzzle = format::parse(id, None).map_err(|e| e.to_string())?;
    let grade = logic::grade(&puzzle, Scale::Solo).map_err(|e| e.to_string())?;
    match (grade.level, grade.killer) {
        (logic::Level::Solo(main), Some(k)) => Ok((main, k)),
        other => Err(format!("not a Solo Killer grade: {other:?}")),
    }
}

/// The puzzle with the solution's values in `fraction` of the cells (chosen by a fixed
/// pseudo-random sequence), as a Solo ID.
fn with_givens(id: &str, fraction: f64, seed: u64) -> Option<String> {
    let puzzle = format::parse(id, None).ok()?;
    let Verdict::Unique(solution) = solve::solve(&puzzle) else { return None };
    let n = puzzle.cells().len();
    let mut cells = puzzle.cells().to_vec();
    let mut rng = fastrand::Rng::with_seed(seed);
    let want = (n as f64 * fraction) as usize;
    let mut given = cells.iter().filter(|&&v| v != 0).count();
    while given < want {
        let c = rng.usize(..n);
        if cells[c] == 0 {
            cells[c] = solution.cells()[c];
            given += 1;
        }
    }
    let grid = Grid::new(puzzle.geometry_arc().clone(), cells).ok()?;
    Some(solo_id::write(&grid))
}

struct Row {
    source: String,
    id: String,
    solo: Option<Levels>,
    ours: Result<Levels, String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let grader = Command::new("bash").arg(".ci/solo-grader").output()?;
    if !grader.status.success() {
        return Err(format!(
            "cannot build Solo's grader: {}",
            String::from_utf8_lossy(&grader.stderr).trim()
        )
        .into());
    }
    let grader = String::from_utf8(grader.stdout)?.trim().to_string();

    let mut puzzles: Vec<(String, String)> = Vec::new();
    if args.first().map(String::as_str) == Some("fixtures") {
        let dir = "tests/fixtures/killer";
        let mut names: Vec<_> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt") && n != "ambiguous.txt")
            .collect();
        names.sort();
        for name in names {
            let text = std::fs::read_to_string(format!("{dir}/{name}"))?;
            for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
                puzzles.push((name.trim_end_matches(".txt").to_string(), line.to_string()));
            }
        }
    } else {
        let n: usize = args.first().map(|s| s.parse()).transpose()?.unwrap_or(10);
        let only: Vec<&String> = args.iter().skip(1).collect();
        for (shape, levels) in SHAPES {
            if !only.is_empty() && !only.iter().any(|s| *s == shape) {
                continue;
            }
            for level in levels.iter() {
                let params = format!("{shape}{level}");
                eprintln!("generating {n} {params}");
                for id in generate(&params, n)? {
                    puzzles.push((params.clone(), id));
                }
            }
        }
    }
    // Each puzzle also with a twelfth, a sixth, a quarter and half of its cells given.
    let mut all: Vec<(String, String)> = Vec::new();
    for (k, (source, id)) in puzzles.iter().enumerate() {
        all.push((source.clone(), id.clone()));
        for (name, fraction) in
            [("+1/12", 1.0 / 12.0), ("+1/6", 1.0 / 6.0), ("+1/4", 0.25), ("+1/2", 0.5)]
        {
            if let Some(v) = with_givens(id, fraction, k as u64 + 1) {
                all.push((format!("{source}{name}"), v));
            }
        }
    }
    eprintln!("grading {} puzzles", all.len());
    let rows: Vec<Row> = all
        .par_iter()
        .map(|(source, id)| Row {
            source: source.clone(),
            id: id.clone(),
            solo: solo_grade(&grader, id),
            ours: ours(id),
        })
        .collect();

    // Agreement by Solo's verdict (main, Killer).
    let mut table: BTreeMap<(SoloLevel, KillerLevel), (usize, usize)> = BTreeMap::new();
    let mut by_source: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut skipped = 0;
    let mut disagreements = Vec::new();
    for r in &rows {
        let Some(solo) = r.solo else {
            // Ambiguous or impossible for Solo: sudobot refuses those too.
            skipped += 1;
            continue;
        };
        let agree = r.ours.as_ref().ok() == Some(&solo);
        let e = table.entry(solo).or_default();
        e.1 += 1;
        e.0 += usize::from(agree);
        let base = r.source.split('+').next().unwrap_or("").to_string();
        let s = by_source.entry(base).or_default();
        s.1 += 1;
        s.0 += usize::from(agree);
        if !agree {
            disagreements.push(r);
        }
    }
    println!("| Solo's grade (main, Killer) | agree | puzzles |");
    println!("|---|---:|---:|");
    for ((main, killer), (agree, total)) in &table {
        println!("| {main}, Killer {killer} | {agree} | {total} |");
    }
    let (agree, total) = table.values().fold((0, 0), |(a, t), (x, y)| (a + x, t + y));
    println!("| **all** | **{agree}** | **{total}** |");
    println!();
    println!("| source | agree | puzzles |");
    println!("|---|---:|---:|");
    for (source, (a, t)) in &by_source {
        println!("| {source} | {a} | {t} |");
    }
    if skipped > 0 {
        println!("\n{skipped} puzzles Solo's grader calls ambiguous or impossible (not compared).");
    }
    // With KILLER_SAMPLES=N, up to N puzzles of each Solo grade, to stdout (for fixtures).
    if let Some(n) = std::env::var("KILLER_SAMPLES").ok().and_then(|v| v.parse::<usize>().ok()) {
        let mut seen: BTreeMap<Levels, usize> = BTreeMap::new();
        for r in &rows {
            if let Some(solo) = r.solo {
                let k = seen.entry(solo).or_default();
                if *k < n {
                    *k += 1;
                    println!("SAMPLE {} {} {}", solo.0, solo.1, r.id);
                }
            }
        }
    }
    for r in disagreements {
        println!("DISAGREE {}: solo -g {:?}, sudobot {:?}: {}", r.source, r.solo, r.ours, r.id);
    }
    Ok(())
}
