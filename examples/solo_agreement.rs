//! Agreement of `grade --scale solo` with Simon Tatham's Solo, on freshly generated puzzles.
//!
//! For every shape and level, Solo's generator (`sgt-solo --generate N SHAPE+dX`) makes N
//! puzzles that its own solver grades exactly at that level; each is graded by sudobot and by
//! Solo's standalone grader (`solo -g ID`, built by `.ci/solo-grader`). Prints the agreement
//! table (markdown) and every disagreement with both grades and the path's hardest step.
//!
//! ```text
//! cargo run --release --example solo_agreement -- 100                  # every shape, 100 each
//! cargo run --release --example solo_agreement -- 20 3x3 9j            # some shapes
//! ```

use std::process::Command;

use rayon::prelude::*;
use sudobot::format;
use sudobot::logic::{self, Scale, SoloLevel};

const SHAPES: [&str; 6] = ["3x3", "2x3", "4x3", "3x3x", "9j", "4x4"];

/// One graded puzzle.
struct Row {
    id: String,
    asked: SoloLevel,
    solo_g: Option<SoloLevel>,
    ours: Result<(SoloLevel, String), String>,
}

fn level_named(name: &str) -> Option<SoloLevel> {
    SoloLevel::ALL.into_iter().find(|l| l.name() == name)
}

fn generate(shape: &str, level: SoloLevel, n: usize) -> Result<Vec<String>, String> {
    let params = format!("{shape}{}", level.suffix());
    // Debian installs it in /usr/games, which is not always on PATH.
    let solo = if std::path::Path::new("/usr/games/sgt-solo").exists() {
        "/usr/games/sgt-solo"
    } else {
        "sgt-solo"
    };
    let out = Command::new(solo)
        .args(["--generate", &n.to_string(), &params])
        .output()
        .map_err(|e| format!("running sgt-solo: {e} (install sgt-puzzles)"))?;
    if !out.status.success() {
        return Err(format!("sgt-solo --generate {n} {params} failed"));
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect())
}

/// Solo's standalone grader's verdict: `Difficulty rating: Extreme (...)`.
fn solo_grade(grader: &str, id: &str) -> Option<SoloLevel> {
    let out = Command::new(grader).args(["-g", id]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let rest = text.lines().find_map(|l| l.strip_prefix("Difficulty rating: "))?;
    level_named(rest.split_whitespace().next()?)
}

fn ours(id: &str) -> Result<(SoloLevel, String), String> {
    let puzzle = format::parse(id, None).map_err(|e| e.to_string())?;
    let path = logic::explain(&puzzle, Scale::Solo).map_err(|e| e.to_string())?;
    let level = path.steps.iter().map(SoloLevel::of).max().unwrap_or(SoloLevel::Trivial);
    let hardest =
        path.steps.iter().find(|s| SoloLevel::of(s) == level).map(|s| s.text()).unwrap_or_default();
    Ok((level, hardest))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(20);
    let shapes: Vec<String> = args.collect();
    let shapes: Vec<String> =
        if shapes.is_empty() { SHAPES.iter().map(|s| s.to_string()).collect() } else { shapes };
    let grader = Command::new("bash").arg(".ci/solo-grader").output()?;
    if !grader.status.success() {
        return Err(format!(
            "cannot build Solo's grader: {}",
            String::from_utf8_lossy(&grader.stderr).trim()
        )
        .into());
    }
    let grader = String::from_utf8(grader.stdout)?.trim().to_string();

    println!("| shape | level | puzzles | = generator | = solo -g |");
    println!("|---|---|---:|---:|---:|");
    let mut disagreements: Vec<(String, Row)> = Vec::new();
    let (mut total, mut agree_gen, mut agree_g) = (0usize, 0usize, 0usize);
    for shape in &shapes {
        for level in SoloLevel::ALL {
            let ids = generate(shape, level, n)?;
            let rows: Vec<Row> = ids
                .par_iter()
                .map(|id| Row {
                    id: id.clone(),
                    asked: level,
                    solo_g: solo_grade(&grader, id),
                    ours: ours(id),
                })
                .collect();
            let gen_ok =
                rows.iter().filter(|r| matches!(&r.ours, Ok((l, _)) if *l == r.asked)).count();
            let g_ok = rows
                .iter()
                .filter(|r| matches!(&r.ours, Ok((l, _)) if Some(*l) == r.solo_g))
                .count();
            let pct = |k: usize| 100.0 * k as f64 / rows.len().max(1) as f64;
            println!(
                "| {shape} | {} | {} | {gen_ok} ({:.1}%) | {g_ok} ({:.1}%) |",
                level.name(),
                rows.len(),
                pct(gen_ok),
                pct(g_ok)
            );
            total += rows.len();
            agree_gen += gen_ok;
            agree_g += g_ok;
            for r in rows {
                let same = matches!(&r.ours, Ok((l, _)) if *l == r.asked && Some(*l) == r.solo_g);
                if !same {
                    disagreements.push((shape.clone(), r));
                }
            }
        }
    }
    println!(
        "\n{total} puzzles: {agree_gen} agree with the generator, {agree_g} with solo -g, {} disagreements",
        disagreements.len()
    );
    for (shape, r) in &disagreements {
        let ours = match &r.ours {
            Ok((l, hardest)) => format!("{} (hardest step: {hardest})", l.name()),
            Err(e) => format!("error: {e}"),
        };
        println!(
            "- {shape} {}: generator {}, solo -g {}, sudobot {ours}",
            r.id,
            r.asked.name(),
            r.solo_g.map_or("?", |l| l.name())
        );
    }
    Ok(())
}
