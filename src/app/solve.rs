//! `sudobot solve`: read the input, solve (one puzzle, or a batch on all cores), print in the
//! chosen format, and map the outcome to an exit code. Reading and formats live in the
//! library (`sudobot::format`); this file only wires them to the terminal.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use sudobot::format::{self, Entry, ReadOptions, pretty};
use sudobot::grid::{Conflict, Geometry, Grid};
use sudobot::solve::{self, Count, Verdict};

use super::Code;
use crate::cli::solve::{ColourChoice, OutputFormat, SolveArgs};

/// What to compute for each puzzle.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Print the solution.
    Solve,
    /// Count solutions up to a limit.
    Count(u64),
    /// Print only a verdict.
    Check,
}

/// How to print grids.
struct Printer {
    output: OutputFormat,
    charset: pretty::Charset,
    colour: bool,
}

impl Printer {
    /// A grid in the output format, without a trailing newline. `puzzle` decides which values
    /// are coloured as filled in.
    fn grid(&self, grid: &Grid, puzzle: &Grid) -> String {
        match self.output {
            OutputFormat::Line => format::line::write(grid),
            OutputFormat::Id => format::solo_id::write(grid),
            OutputFormat::Cages => format::cages::write(grid),
            OutputFormat::Pretty => {
                let options = pretty::Options {
                    charset: self.charset,
                    colour_filled_from: self.colour.then_some(puzzle),
                };
                pretty::write_with(grid, &options)
            }
        }
    }

    /// Between two grids printed one after the other.
    fn separator(&self) -> &'static str {
        if matches!(self.output, OutputFormat::Pretty | OutputFormat::Cages) {
            "\n\n"
        } else {
            "\n"
        }
    }
}

/// What became of one puzzle.
enum Outcome {
    /// It could not be read.
    BadInput(format::ParseError),
    /// Its givens conflict.
    Invalid(Conflict),
    /// Solved or checked: the verdict.
    Solved(Grid),
    Several(Grid, Grid),
    NoSolution,
    /// Counted.
    Counted(Count),
}

impl Outcome {
    fn code(&self) -> Code {
        match self {
            Outcome::BadInput(_) | Outcome::Invalid(_) => Code::BadInput,
            Outcome::Solved(_) => Code::Success,
            Outcome::Several(..) => Code::Multiple,
            Outcome::NoSolution => Code::NoSolution,
            Outcome::Counted(c) => match (c.found, c.exhaustive) {
                (0, _) => Code::NoSolution,
                (1, true) => Code::Success,
                _ => Code::Multiple,
            },
        }
    }
}

/// One puzzle's result.
struct Done {
    line: usize,
    puzzle: Option<Grid>,
    outcome: Outcome,
    elapsed: Duration,
}

fn work(entry: &Entry, mode: Mode) -> Done {
    let start = Instant::now();
    let outcome = match &entry.puzzle {
        Err(e) => Outcome::BadInput(e.clone()),
        Ok(puzzle) => match mode {
            Mode::Count(limit) => match solve::count_solutions(puzzle, limit) {
                Ok(count) => Outcome::Counted(count),
                Err(conflict) => Outcome::Invalid(conflict),
            },
            Mode::Solve | Mode::Check => match solve::solve(puzzle) {
                Verdict::Unique(g) => Outcome::Solved(g),
                Verdict::Multiple(a, b) => Outcome::Several(a, b),
                Verdict::Unsolvable => Outcome::NoSolution,
                Verdict::Invalid(c) => Outcome::Invalid(c),
            },
        },
    };
    Done {
        line: entry.line,
        puzzle: entry.puzzle.as_ref().ok().cloned(),
        outcome,
        elapsed: start.elapsed(),
    }
}

/// Worse outcomes first: bad input, then no solution, then several, then solved.
fn severity(code: Code) -> u8 {
    match code {
        Code::BadInput => 3,
        Code::NoSolution => 2,
        Code::Multiple => 1,
        _ => 0,
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<Code> {
    let Some((text, source)) = read_input(&args)? else {
        eprintln!(
            "sudobot: no puzzle given: pass it as an argument, `-` to read standard input, or --file FILE \
             (see sudobot solve --help)"
        );
        return Ok(Code::BadInput);
    };
    let geometry = match args.box_shape {
        Some(b) => Some(Arc::new(
            Geometry::boxed(b.width, b.height)
                .with_context(|| format!("--box {}x{}", b.width, b.height))?,
        )),
        None => None,
    };
    let options = ReadOptions {
        format: args.format.map(super::input_format),
        geometry,
        diagonals: args.diagonals,
    };
    // Timing starts once the text is in, so waiting on standard input does not count.
    let started = Instant::now();
    let puzzles = format::read_puzzles(&text, &source.name(), &options)?;
    let mode = match (args.count, args.check) {
        (Some(limit), _) => Mode::Count(limit),
        (None, true) => Mode::Check,
        (None, false) => Mode::Solve,
    };
    let batch = puzzles.entries.len() > 1;
    let stdout_tty = io::stdout().is_terminal();
    let printer = Printer {
        output: args.output.unwrap_or(if stdout_tty && !batch {
            OutputFormat::Pretty
        } else {
            OutputFormat::Line
        }),
        charset: if args.ascii { pretty::Charset::Ascii } else { pretty::Charset::Unicode },
        colour: match args.color {
            ColourChoice::Always => true,
            ColourChoice::Never => false,
            ColourChoice::Auto => {
                stdout_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        },
    };

    let (results, threads) = if batch {
        solve_batch(&puzzles.entries, mode, args.jobs)?
    } else {
        (puzzles.entries.iter().map(|e| work(e, mode)).collect(), 1)
    };

    let mut out = BufWriter::new(io::stdout().lock());
    let printed = match results.as_slice() {
        [single] => print_single(&mut out, single, mode, &printer, &source),
        all => print_batch(&mut out, all, mode, &printer),
    };
    let flushed = printed.and_then(|()| out.flush());
    // A closed pipe (`| head`) is the reader's choice, not a failure worth a message.
    if let Err(e) = flushed
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        return Err(e).context("writing to standard output");
    }
    drop(out);

    if batch {
        summarise(&results, mode, &source);
    }
    if args.stats {
        print_stats(&results, started.elapsed(), threads);
    }
    Ok(results
        .iter()
        .map(|d| d.outcome.code())
        .max_by_key(|&c| severity(c))
        .unwrap_or(Code::Success))
}

/// Where the input came from, for messages.
enum Source {
    /// The PUZZLE argument, kept for hints.
    Argument(String),
    Stdin,
    File(String),
}

impl Source {
    fn name(&self) -> String {
        match self {
            Source::Argument(_) => "the argument".into(),
            Source::Stdin => "standard input".into(),
            Source::File(path) => path.clone(),
        }
    }

    /// Prefix for messages about a puzzle of this input: the file name, or nothing.
    fn prefix(&self) -> String {
        match self {
            Source::File(path) => format!("{path}: "),
            Source::Stdin => "standard input: ".into(),
            Source::Argument(_) => String::new(),
        }
    }
}

/// The input text and its source; `None` when there is nothing to read.
fn read_input(args: &SolveArgs) -> anyhow::Result<Option<(String, Source)>> {
    if let Some(path) = &args.file {
        let text = format::read_file(path)?;
        return Ok(Some((text, Source::File(path.display().to_string()))));
    }
    match args.puzzle.as_deref() {
        Some("-") => Ok(Some((format::read_stdin(io::stdin().lock())?, Source::Stdin))),
        Some(p) => Ok(Some((p.to_string(), Source::Argument(p.to_string())))),
        None if !io::stdin().is_terminal() => {
            Ok(Some((format::read_stdin(io::stdin().lock())?, Source::Stdin)))
        }
        None => Ok(None),
    }
}

/// Solves every puzzle in parallel, results in input order, with a progress bar on a terminal.
fn solve_batch(
    entries: &[Entry],
    mode: Mode,
    jobs: Option<u16>,
) -> anyhow::Result<(Vec<Done>, usize)> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        builder = builder.num_threads(n.into());
    }
    let pool = builder.build().context("starting the worker threads")?;
    let bar = if io::stderr().is_terminal() {
        let bar =
            ProgressBar::with_draw_target(Some(entries.len() as u64), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, {eta} left")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let results = pool.install(|| {
        entries
            .par_iter()
            .map(|e| {
                let done = work(e, mode);
                bar.inc(1);
                done
            })
            .collect()
    });
    bar.finish_and_clear();
    Ok((results, pool.current_num_threads()))
}

/// Count wording: "12" or "at least 1000".
fn count_text(count: &Count) -> String {
    if count.exhaustive { count.found.to_string() } else { format!("at least {}", count.found) }
}

fn print_single(
    out: &mut impl Write,
    done: &Done,
    mode: Mode,
    printer: &Printer,
    source: &Source,
) -> io::Result<()> {
    let prefix = source.prefix();
    let puzzle = done.puzzle.as_ref();
    match (&done.outcome, mode) {
        (Outcome::BadInput(e), _) => {
            eprintln!("sudobot: {prefix}{e}");
            // `sudobot solve puzzles.txt` is an easy slip for `--file puzzles.txt`.
            if let Source::Argument(arg) = source
                && std::path::Path::new(arg).is_file()
            {
                eprintln!(
                    "sudobot: note: {arg} is a file; to read puzzles from it, use --file {arg}"
                );
            }
        }
        (Outcome::Invalid(c), _) => eprintln!("sudobot: {prefix}invalid givens: {c}"),
        (Outcome::Counted(count), _) => {
            let plural = if count.found == 1 && count.exhaustive { "" } else { "s" };
            let limit =
                if count.exhaustive { "" } else { " (the limit; raise it with --count LIMIT)" };
            writeln!(out, "{} solution{plural}{limit}", count_text(count))?;
        }
        (outcome, Mode::Check) => writeln!(out, "{}", verdict_word(outcome))?,
        (Outcome::Solved(g), _) => writeln!(out, "{}", printer.grid(g, puzzle.unwrap_or(g)))?,
        (Outcome::Several(a, b), _) => {
            let p = puzzle.unwrap_or(a);
            writeln!(out, "{}{}{}", printer.grid(a, p), printer.separator(), printer.grid(b, p))?;
            out.flush()?;
            eprintln!(
                "sudobot: {prefix}several solutions; the two shown differ in {}",
                cell_list(a, b)
            );
        }
        (Outcome::NoSolution, _) => eprintln!("sudobot: {prefix}no solution"),
    }
    Ok(())
}

/// `--check` wording.
fn verdict_word(outcome: &Outcome) -> &'static str {
    match outcome.code() {
        Code::Success => "unique",
        Code::NoSolution => "no solution",
        Code::Multiple => "several solutions",
        _ => "invalid",
    }
}

/// The cells where two grids differ, at most 8 named.
fn cell_list(a: &Grid, b: &Grid) -> String {
    let cells = a.differences(b);
    let mut text = cells.iter().take(8).map(|c| c.to_string()).collect::<Vec<_>>().join(", ");
    if cells.len() > 8 {
        text.push_str(&format!(" and {} more cells", cells.len() - 8));
    }
    text
}

/// One output line (or block, for pretty) per puzzle, in input order.
fn print_batch(
    out: &mut impl Write,
    results: &[Done],
    mode: Mode,
    printer: &Printer,
) -> io::Result<()> {
    let pretty = matches!(printer.output, OutputFormat::Pretty | OutputFormat::Cages);
    for done in results {
        let line = done.line;
        let puzzle = done.puzzle.as_ref();
        match (&done.outcome, mode) {
            // The parse error already names the line (and column).
            (Outcome::BadInput(e), _) => writeln!(out, "# {e}")?,
            (Outcome::Invalid(c), _) => writeln!(out, "# line {line}: invalid givens: {c}")?,
            (Outcome::Counted(count), _) => writeln!(out, "{}", count_text(count))?,
            (outcome, Mode::Check) => writeln!(out, "{}", verdict_word(outcome))?,
            (Outcome::NoSolution, _) => writeln!(out, "# line {line}: no solution")?,
            (Outcome::Solved(g), _) if pretty => {
                writeln!(out, "# line {line}\n{}\n", printer.grid(g, puzzle.unwrap_or(g)))?
            }
            (Outcome::Solved(g), _) => writeln!(out, "{}", printer.grid(g, puzzle.unwrap_or(g)))?,
            (Outcome::Several(a, b), _) if pretty => {
                let p = puzzle.unwrap_or(a);
                writeln!(
                    out,
                    "# line {line}: several solutions, two of them:\n{}\n\n{}\n",
                    printer.grid(a, p),
                    printer.grid(b, p)
                )?
            }
            (Outcome::Several(a, b), _) => {
                let p = puzzle.unwrap_or(a);
                writeln!(
                    out,
                    "# line {line}: several solutions, two of them: {} {}",
                    printer.grid(a, p),
                    printer.grid(b, p)
                )?
            }
        }
    }
    Ok(())
}

/// A summary on standard error of the puzzles without exactly one solution.
fn summarise(results: &[Done], mode: Mode, source: &Source) {
    let lines_with = |code: Code| -> Vec<usize> {
        results.iter().filter(|d| d.outcome.code() == code).map(|d| d.line).collect()
    };
    let groups = [
        ("bad input", lines_with(Code::BadInput)),
        ("no solution", lines_with(Code::NoSolution)),
        ("several solutions", lines_with(Code::Multiple)),
    ];
    let failed: usize = groups.iter().map(|(_, l)| l.len()).sum();
    if failed == 0 {
        return;
    }
    let parts: Vec<String> = groups
        .iter()
        .filter(|(_, l)| !l.is_empty())
        .map(|(what, l)| {
            let shown = l.iter().take(10).map(|n| n.to_string()).collect::<Vec<_>>().join(", ");
            let more =
                if l.len() > 10 { format!(" and {} more", l.len() - 10) } else { String::new() };
            let s = if l.len() == 1 { "" } else { "s" };
            format!("{what} on line{s} {shown}{more}")
        })
        .collect();
    let verb = match mode {
        Mode::Solve => "not solved",
        Mode::Count(_) | Mode::Check => "without a unique solution",
    };
    eprintln!(
        "sudobot: {}{} of {} puzzles {verb}: {}",
        source.prefix(),
        failed,
        results.len(),
        parts.join("; ")
    );
}

/// `--stats`: throughput and the slowest puzzle, on standard error.
fn print_stats(results: &[Done], total: Duration, threads: usize) {
    let n = results.len();
    let secs = total.as_secs_f64();
    let rate = if secs > 0.0 { n as f64 / secs } else { f64::INFINITY };
    let thread_s = if threads == 1 { "" } else { "s" };
    let mut text = format!(
        "stats: {n} puzzle{} in {secs:.3} s, {rate:.0} puzzles/s on {threads} thread{thread_s}",
        if n == 1 { "" } else { "s" }
    );
    if let Some(slowest) = results.iter().max_by_key(|d| d.elapsed) {
        text.push_str(&format!(
            "; slowest: line {} ({:.3} ms)",
            slowest.line,
            slowest.elapsed.as_secs_f64() * 1000.0
        ));
    }
    eprintln!("{text}");
}
