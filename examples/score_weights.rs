//! Measures the score scale: each technique's weight and the levels' bounds
//! (`src/logic/score.rs` holds the rounded result).
//!
//! Weights: every puzzle of the corpus (magictour top1465, the first 500 17-clue puzzles, and
//! Solo-generated 9x9 puzzles at every level) is explained on the score scale, and each step
//! records how many elementary checks its technique's scan made before finding it (candidate
//! patterns tried: a house and value for a hidden single, a combination for a subset or fish, a
//! link for a chain, a cell or house looked at while following a forcing branch). A technique's
//! weight is the mean over its steps, rounded to two significant digits. A guess is what is left
//! after every technique was tried and found nothing, so its weight is the mean of all the
//! checks made in the positions where a guess was needed. A technique seen fewer than 20 times
//! in the corpus is measured on its own instead (after singles, on top1465).
//!
//! Levels: Solo-generated puzzles at each of Solo's levels (3x3, 2x3, 4x3, 3x3x and 9j) are
//! scored with the measured weights, per 81 cells; the bound between two of our levels is the
//! score that misclassifies the fewest puzzles of the two Solo levels it separates (Easy: Solo
//! Trivial and Basic; Medium: Intermediate; Hard: Advanced; Unfair: Extreme; Extreme:
//! Unreasonable).
//!
//! Killer: the cage techniques are measured the same way on Solo-generated 3x3 Killer puzzles
//! (a quarter as many per level), see [`killer_weights`].
//!
//! ```text
//! cargo run --release --example score_weights -- 100     # 100 generated puzzles per Solo level
//! ```

use std::process::Command;

use rayon::prelude::*;
use sudobot::format;
use sudobot::grid::Grid;
use sudobot::logic::{self, Scale, SoloLevel, Technique};

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bench/");

fn load(path: &str, limit: usize) -> Vec<Grid> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    format::read_puzzles(&text, path, &Default::default())
        .expect("puzzles")
        .entries
        .into_iter()
        .take(limit)
        .filter_map(|e| e.puzzle.ok())
        .collect()
}

fn generate(params: &str, n: usize) -> Vec<Grid> {
    let solo = if std::path::Path::new("/usr/games/sgt-solo").exists() {
        "/usr/games/sgt-solo"
    } else {
        "sgt-solo"
    };
    let out = Command::new(solo)
        .args(["--generate", &n.to_string(), params])
        .output()
        .expect("sgt-solo runs (install sgt-puzzles)");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| format::parse(l, None).ok())
        .collect()
}

/// One puzzle's path: per step, the index in [`logic::SCORE_ORDER`] of the finder that found it
/// and the checks of every finder tried.
fn measure(p: &Grid, finders: &[logic::Finder]) -> Vec<(usize, Vec<u64>)> {
    let (_, steps) = logic::explain_with(p, finders, Scale::Score).expect("the corpus explains");
    steps.into_iter().map(|m| (m.tried.len() - 1, m.tried)).collect()
}

/// Per finder: the checks of each of its failed scans, and of each scan that found a step.
fn scans(paths: &[Vec<(usize, Vec<u64>)>], finders: usize) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let mut failed: Vec<Vec<u64>> = vec![Vec::new(); finders];
    let mut found: Vec<Vec<u64>> = vec![Vec::new(); finders];
    for (j, tried) in paths.iter().flatten() {
        for (i, &w) in tried[..*j].iter().enumerate() {
            failed[i].push(w);
        }
        found[*j].push(tried[*j]);
    }
    (failed, found)
}

fn round2(x: f64) -> u64 {
    if x < 10.0 {
        return x.round().max(1.0) as u64;
    }
    let mag = 10f64.powi(x.log10().floor() as i32 - 1);
    ((x / mag).round() * mag) as u64
}

fn mean(v: &[u64]) -> f64 {
    v.iter().sum::<u64>() as f64 / v.len().max(1) as f64
}

/// The bound between two groups of values that misclassifies the fewest, and the share it
/// gets right.
fn best_cut(below: &[f64], above: &[f64]) -> (f64, f64) {
    let mut candidates: Vec<f64> = below.iter().chain(above).copied().collect();
    candidates.sort_by(f64::total_cmp);
    let errors = |t: f64| {
        below.iter().filter(|&&x| x > t).count() + above.iter().filter(|&&x| x <= t).count()
    };
    let best = candidates.iter().copied().min_by_key(|&t| errors(t)).unwrap_or(0.0);
    (best, 1.0 - errors(best) as f64 / (below.len() + above.len()).max(1) as f64)
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let order = logic::SCORE_ORDER;
    if std::env::args().any(|a| a == "--killer") {
        // Only the cage techniques, with the plain weights of src/logic/score.rs.
        let plain: Vec<u64> = order.iter().map(|&t| u64::from(logic::score::weight(t))).collect();
        killer_weights(n, &plain);
        return;
    }
    let finders: Vec<logic::Finder> = order.iter().filter_map(|&t| logic::finder(t)).collect();
    let mut corpus = load(&format!("{BENCH}puzzles3_magictour_top1465"), usize::MAX);
    corpus.extend(load(&format!("{BENCH}puzzles2_17_clue"), 500));
    let mut by_level: Vec<(SoloLevel, Vec<Grid>)> = Vec::new();
    for level in SoloLevel::ALL {
        let mut ps = Vec::new();
        for shape in ["3x3", "2x3", "4x3", "3x3x", "9j"] {
            let k = if shape == "3x3" { n } else { n / 4 };
            ps.extend(generate(&format!("{shape}{}", level.suffix()), k));
        }
        corpus.extend(ps.iter().filter(|p| p.geometry().is_classic()).cloned());
        by_level.push((level, ps));
    }
    eprintln!("measuring on {} puzzles", corpus.len());
    let paths: Vec<Vec<(usize, Vec<u64>)>> =
        corpus.par_iter().map(|p| measure(p, &finders)).collect();
    let (failed, mut found) = scans(&paths, order.len());
    // Rare techniques: the finder's own checks measured alone, after singles.
    let alone_corpus = load(&format!("{BENCH}puzzles3_magictour_top1465"), 400);
    let base = [Technique::FullHouse, Technique::NakedSingle, Technique::HiddenSingle];
    let mut alone_note = vec![false; order.len()];
    for (j, &t) in order.iter().enumerate() {
        if found[j].len() >= 20 || t == Technique::Guess {
            continue;
        }
        let fs: Vec<logic::Finder> =
            base.iter().chain(&[t, Technique::Guess]).filter_map(|&x| logic::finder(x)).collect();
        let alone: Vec<u64> = alone_corpus
            .par_iter()
            .flat_map_iter(|p| {
                measure(p, &fs).into_iter().filter(|(k, _)| *k == 3).map(|(k, tried)| tried[k])
            })
            .collect();
        eprintln!(
            "{}: {} steps in the corpus, its own checks measured alone ({} steps)",
            t.name(),
            found[j].len(),
            alone.len()
        );
        found[j] = alone;
        alone_note[j] = true;
    }
    println!(
        "| technique | steps | failed scan (mean checks) | finding scan (mean checks) | weight |"
    );
    println!("|---|---:|---:|---:|---:|");
    let mut weights: Vec<u64> = Vec::with_capacity(order.len());
    let mut prefix = 0.0;
    for (j, &t) in order.iter().enumerate() {
        let w = round2(prefix + mean(&found[j]));
        weights.push(w);
        println!(
            "| {} | {}{} | {:.0} | {:.0} | {w} |",
            t.name(),
            found[j].len(),
            if alone_note[j] { " (alone)" } else { "" },
            mean(&failed[j]),
            mean(&found[j])
        );
        prefix += mean(&failed[j]);
    }

    // Level bounds from Solo's levels, with the measured weights.
    let stats = |p: &Grid| -> (f64, f64) {
        let path = measure(p, &finders);
        let total: u64 = path.iter().map(|(j, _)| weights[*j]).sum();
        let hardest = path.iter().map(|(j, _)| weights[*j]).max().unwrap_or(0);
        (total as f64 * 81.0 / (p.side() * p.side()) as f64, hardest as f64)
    };
    let scored: Vec<(SoloLevel, Vec<(f64, f64)>)> =
        by_level.iter().map(|(l, ps)| (*l, ps.par_iter().map(stats).collect())).collect();
    let ours = |l: SoloLevel| match l {
        SoloLevel::Trivial | SoloLevel::Basic => 0,
        SoloLevel::Intermediate => 1,
        SoloLevel::Advanced => 2,
        SoloLevel::Extreme => 3,
        SoloLevel::Unreasonable => 4,
    };
    let names = ["Easy", "Medium", "Hard", "Unfair", "Extreme"];
    println!(
        "\n| Solo level | our level | puzzles | median score per 81 cells | median hardest weight |"
    );
    println!("|---|---|---:|---:|---:|");
    for (l, s) in &scored {
        let mut a: Vec<f64> = s.iter().map(|x| x.0).collect();
        let mut h: Vec<f64> = s.iter().map(|x| x.1).collect();
        a.sort_by(f64::total_cmp);
        h.sort_by(f64::total_cmp);
        println!(
            "| {} | {} | {} | {:.0} | {:.0} |",
            l.name(),
            names[ours(*l)],
            a.len(),
            a[a.len() / 2],
            h[h.len() / 2]
        );
    }
    // The level of the hardest step: the cut between neighbouring groups. Then the score: a
    // puzzle scoring above 95% of its group's puzzles counts one level harder.
    println!("\nbounds (upper bound of each level below Extreme):");
    let group = |k: usize| -> Vec<(f64, f64)> {
        scored.iter().filter(|(l, _)| ours(*l) == k).flat_map(|(_, s)| s.clone()).collect()
    };
    let mut hardest_bounds = Vec::new();
    let mut score_bounds = Vec::new();
    for b in 0..4 {
        let below: Vec<f64> = group(b).iter().map(|x| x.1).collect();
        let above: Vec<f64> = group(b + 1).iter().map(|x| x.1).collect();
        let (cut, acc) = best_cut(&below, &above);
        let mut scores: Vec<f64> = group(b).iter().map(|x| x.0).collect();
        scores.sort_by(f64::total_cmp);
        let p95 = scores[(scores.len() * 95 / 100).min(scores.len() - 1)];
        println!(
            "  {}: hardest step <= {} ({:.1}% of {} and {} apart), score per 81 cells <= {} (95th percentile)",
            names[b],
            round2(cut),
            100.0 * acc,
            names[b],
            names[b + 1],
            round2(p95)
        );
        hardest_bounds.push(round2(cut));
        score_bounds.push(round2(p95));
    }
    let classify = |(score, hardest): (f64, f64)| -> usize {
        let mut k = hardest_bounds.iter().position(|&b| hardest <= b as f64).unwrap_or(4);
        if k < 4 && score > score_bounds[k] as f64 {
            k += 1;
        }
        k
    };
    println!("\n| Solo level | puzzles | graded Easy | Medium | Hard | Unfair | Extreme |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (l, s) in &scored {
        let mut counts = [0usize; 5];
        for &x in s {
            counts[classify(x)] += 1;
        }
        println!(
            "| {} | {} | {} |",
            l.name(),
            s.len(),
            counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" | ")
        );
    }
    println!("\nweights for src/logic/score.rs:");
    for (j, &t) in order.iter().enumerate() {
        println!("  {:?} => {},", t, weights[j]);
    }
    println!("hardest-step bounds: {hardest_bounds:?}; score bounds: {score_bounds:?}");
    killer_weights(n, &weights);
}

/// The cage techniques, measured the same way on Solo-generated 3x3 Killer puzzles at every
/// level, in the Killer order (the score order with the cage techniques after the singles). A
/// cage technique's weight is the failed scans of everything before it in that order plus its
/// own finding scan, so it stays comparable with the plain techniques' weights. Then the Killer
/// puzzles are graded with the measured weights and the plain scale's bounds.
fn killer_weights(n: usize, plain: &[u64]) {
    let at =
        logic::SCORE_ORDER.iter().position(|&t| t == Technique::HiddenSingle).map_or(0, |k| k + 1);
    let mut order = logic::SCORE_ORDER.to_vec();
    order.splice(at..at, logic::KILLER_ORDER.iter().copied());
    let finders: Vec<logic::Finder> = order.iter().filter_map(|&t| logic::finder(t)).collect();
    let by_level: Vec<(SoloLevel, Vec<Grid>)> = SoloLevel::ALL
        .iter()
        .map(|&l| (l, generate(&format!("3x3k{}", l.suffix()), (n / 4).max(5))))
        .collect();
    let corpus: Vec<&Grid> = by_level.iter().flat_map(|(_, ps)| ps).collect();
    eprintln!("measuring the cage techniques on {} Killer puzzles", corpus.len());
    let paths: Vec<Vec<(usize, Vec<u64>)>> =
        corpus.par_iter().map(|p| measure(p, &finders)).collect();
    let (failed, found) = scans(&paths, order.len());
    println!(
        "\n| Killer order | steps | failed scan (mean checks) | finding scan (mean checks) | weight |"
    );
    println!("|---|---:|---:|---:|---:|");
    let mut weights = Vec::with_capacity(order.len());
    let mut prefix = 0.0;
    for (j, &t) in order.iter().enumerate() {
        // The plain techniques keep their weights from the plain corpus.
        let w = match logic::SCORE_ORDER.iter().position(|&x| x == t) {
            Some(k) => plain[k],
            None => round2(prefix + mean(&found[j])),
        };
        weights.push(w);
        if logic::KILLER_ORDER.contains(&t) || !found[j].is_empty() {
            println!(
                "| {} | {} | {:.0} | {:.0} | {w} |",
                t.name(),
                found[j].len(),
                mean(&failed[j]),
                mean(&found[j])
            );
        }
        prefix += mean(&failed[j]);
    }
    // Killer levels: the scores per level (they overlap across all of Solo's levels), and the
    // levels our rule gives: the hardest step's alone (see src/logic/score.rs).
    let mut scored: Vec<(SoloLevel, Vec<(f64, f64)>)> = Vec::new();
    let mut at_path = 0;
    for (l, ps) in &by_level {
        let s = paths[at_path..at_path + ps.len()]
            .iter()
            .map(|path| {
                let total: u64 = path.iter().map(|(j, _)| weights[*j]).sum();
                let hardest = path.iter().map(|(j, _)| weights[*j]).max().unwrap_or(0);
                (total as f64, hardest as f64)
            })
            .collect();
        at_path += ps.len();
        scored.push((*l, s));
    }
    let classify = |(total, hardest): (f64, f64)| {
        logic::score::level(total as u64, hardest as u32, 9, true) as usize
    };
    println!(
        "\n| Solo Killer level | puzzles | score per 81 cells: min | median | max | graded Easy | Medium | Hard | Unfair | Extreme |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (l, s) in &scored {
        let mut counts = [0usize; 5];
        for &x in s {
            counts[classify(x)] += 1;
        }
        let mut s: Vec<f64> = s.iter().map(|x| x.0).collect();
        s.sort_by(f64::total_cmp);
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.0} | {} |",
            l.name(),
            s.len(),
            s[0],
            s[s.len() / 2],
            s[s.len() - 1],
            counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" | ")
        );
    }
    // The same scores grouped by Solo's Killer level (the hardest cage deduction Solo's grader
    // needs; ours agrees with it on every puzzle checked, see examples/killer_agreement.rs).
    println!("\n| Solo Killer deductions | puzzles | score per 81 cells: min | median | max |");
    println!("|---|---:|---:|---:|---:|");
    let totals: Vec<f64> = scored.iter().flat_map(|(_, s)| s.iter().map(|x| x.0)).collect();
    for k in logic::KillerLevel::ALL {
        let mut s: Vec<f64> = corpus
            .iter()
            .zip(&totals)
            .filter(|(p, _)| logic::grade(p, Scale::Solo).ok().and_then(|g| g.killer) == Some(k))
            .map(|(_, &x)| x)
            .collect();
        if s.is_empty() {
            continue;
        }
        s.sort_by(f64::total_cmp);
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.0} |",
            k.name(),
            s.len(),
            s[0],
            s[s.len() / 2],
            s[s.len() - 1]
        );
    }
    println!("\ncage weights for src/logic/score.rs:");
    for (j, &t) in order.iter().enumerate() {
        if logic::KILLER_ORDER.contains(&t) {
            println!("  {:?} => {},", t, weights[j]);
        }
    }
}
