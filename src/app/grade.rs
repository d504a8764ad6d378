//! `sudobot grade`: read every puzzle, grade them in parallel, print one line each in input
//! order.

use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use anyhow::Context;
use rayon::prelude::*;
use sudobot::format::{self, Entry};
use sudobot::logic::{self, Grade, LogicError, Scale};

use super::Code;
use super::logic_input::{Text, code_of, read_options, scale, text_of, within_max_time};
use crate::cli::grade::GradeArgs;

/// One puzzle's result.
struct Graded {
    /// Where it was read: "line 3" or "argument 2, line 1".
    place: String,
    result: Result<Grade, Failure>,
    elapsed: Duration,
}

enum Failure {
    Input(format::ParseError),
    Logic(LogicError),
    GaveUp(sudobot::solve::GaveUp),
}

pub fn run(args: GradeArgs) -> anyhow::Result<Code> {
    let mut inputs: Vec<Text> = Vec::new();
    if let Some(path) = &args.file {
        inputs.push(Text { text: format::read_file(path)?, name: path.display().to_string() });
    } else if args.puzzles.is_empty() {
        match text_of(None)? {
            Some(t) => inputs.push(t),
            None => {
                eprintln!(
                    "sudobot: no puzzle given: pass puzzles as arguments, `-` to read standard input, \
                     or --file FILE (see sudobot grade --help)"
                );
                return Ok(Code::BadInput);
            }
        }
    } else {
        for (k, p) in args.puzzles.iter().enumerate() {
            let mut t = text_of(Some(p))?.context("reading a puzzle argument")?;
            if args.puzzles.len() > 1 && t.name == "the argument" {
                t.name = format!("argument {}", k + 1);
            }
            inputs.push(t);
        }
    }
    let options = read_options(&args.read)?;
    let scale = scale(args.scale);
    let started = Instant::now();
    let mut entries: Vec<(String, Entry)> = Vec::new();
    for input in &inputs {
        let puzzles = format::read_puzzles(&input.text, &input.name, &options)?;
        let several_inputs = inputs.len() > 1;
        for e in puzzles.entries {
            let place = if several_inputs {
                format!("{}, line {}", input.name, e.line)
            } else {
                format!("line {}", e.line)
            };
            entries.push((place, e));
        }
    }
    let results = grade_all(&entries, scale, &args)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let printed = results.iter().try_for_each(|g| writeln!(out, "{}", line(g)));
    if let Err(e) = printed.and_then(|()| out.flush())
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        return Err(e).context("writing to standard output");
    }
    drop(out);
    if results.iter().any(|g| matches!(g.result, Err(Failure::GaveUp(_)))) {
        eprintln!("sudobot: note: {}", args.read.max_time.note());
    }
    if args.stats {
        stats(&results, started.elapsed());
    }
    let worst = results
        .iter()
        .map(|g| match &g.result {
            Ok(_) => Code::Success,
            Err(Failure::Input(_)) => Code::BadInput,
            Err(Failure::Logic(e)) => code_of(e),
            Err(Failure::GaveUp(_)) => Code::GaveUp,
        })
        .max_by_key(|&c| match c {
            Code::Failure => 5,
            Code::BadInput => 4,
            Code::GaveUp => 3,
            Code::NoSolution => 2,
            Code::Multiple => 1,
            _ => 0,
        })
        .unwrap_or(Code::Success);
    Ok(worst)
}

fn grade_one((place, entry): &(String, Entry), scale: Scale, args: &GradeArgs) -> Graded {
    let start = Instant::now();
    let result = match &entry.puzzle {
        Err(e) => Err(Failure::Input(e.clone())),
        Ok(p) => match within_max_time(p, &args.read) {
            Err(gave_up) => Err(Failure::GaveUp(gave_up)),
            Ok(()) => logic::grade(p, scale).map_err(Failure::Logic),
        },
    };
    Graded { place: place.clone(), result, elapsed: start.elapsed() }
}

fn grade_all(
    entries: &[(String, Entry)],
    scale: Scale,
    args: &GradeArgs,
) -> anyhow::Result<Vec<Graded>> {
    if entries.len() == 1 {
        return Ok(vec![grade_one(&entries[0], scale, args)]);
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.jobs {
        builder = builder.num_threads(n.into());
    }
    let pool = builder.build().context("starting the worker threads")?;
    let bar = super::progress::puzzles(entries.len());
    let results = pool.install(|| {
        entries
            .par_iter()
            .map(|e| {
                let g = grade_one(e, scale, args);
                bar.inc(1);
                g
            })
            .collect()
    });
    bar.finish_and_clear();
    Ok(results)
}

/// The output line of one puzzle.
fn line(g: &Graded) -> String {
    match &g.result {
        Ok(grade) => match grade.scale {
            Scale::Solo => match grade.killer {
                // "Basic, Killer Advanced": Solo's main level, then its Killer level.
                Some(k) => format!("{}, Killer {}", grade.level.name(), k.name()),
                None => grade.level.name().to_string(),
            },
            Scale::Score => format!("{} {}", grade.level.name(), grade.score),
        },
        // Parse errors already name their line (and column).
        Err(Failure::Input(e)) => format!("# {e}"),
        Err(Failure::Logic(e)) => format!("# {}: {e}", g.place),
        Err(Failure::GaveUp(e)) => format!("# {}: {e}", g.place),
    }
}

fn stats(results: &[Graded], total: Duration) {
    let n = results.len();
    let secs = total.as_secs_f64();
    let rate = if secs > 0.0 { n as f64 / secs } else { f64::INFINITY };
    let mut text = format!("stats: {n} puzzles in {secs:.3} s, {rate:.0} grades/s");
    if let Some(slowest) = results.iter().max_by_key(|g| g.elapsed) {
        text.push_str(&format!(
            "; slowest: {} ({:.3} ms)",
            slowest.place,
            slowest.elapsed.as_secs_f64() * 1000.0
        ));
    }
    eprintln!("{text}");
}
