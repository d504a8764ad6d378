//! `sudobot solve`: read the input, solve (one puzzle, or a batch on all cores), print in the
//! chosen format, and map the outcome to an exit code. Reading and formats live in the
//! library (`sudobot::format`); this file only wires them to the terminal.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::Context;
use rayon::prelude::*;
use sudobot::format::{self, Chunk, Entry, Format, InputError, LineReader, ReadOptions, pretty};
use sudobot::grid::{Conflict, Geometry, Grid};
use sudobot::solve::{self, Budget, Count, GaveUp, Verdict};

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
    /// The search went past `--max-time`.
    GaveUp(GaveUp),
}

impl Outcome {
    fn code(&self) -> Code {
        match self {
            Outcome::BadInput(_) | Outcome::Invalid(_) => Code::BadInput,
            Outcome::Solved(_) => Code::Success,
            Outcome::Several(..) => Code::Multiple,
            Outcome::NoSolution => Code::NoSolution,
            Outcome::GaveUp(_) => Code::GaveUp,
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

fn work(entry: Entry, mode: Mode, budget: &Budget) -> Done {
    let start = Instant::now();
    let outcome = match &entry.puzzle {
        Err(e) => Outcome::BadInput(e.clone()),
        Ok(puzzle) => match mode {
            Mode::Count(limit) => match solve::count_solutions_within(puzzle, limit, budget) {
                Ok(count) if count.gave_up => Outcome::GaveUp(GaveUp {
                    seconds: start.elapsed().as_secs_f64(),
                    guesses: count.guesses,
                }),
                Ok(count) => Outcome::Counted(count),
                Err(conflict) => Outcome::Invalid(conflict),
            },
            Mode::Solve | Mode::Check => match solve::solve_within(puzzle, budget) {
                Err(gave_up) => Outcome::GaveUp(gave_up),
                Ok(Verdict::Unique(g)) => Outcome::Solved(g),
                Ok(Verdict::Multiple(a, b)) => Outcome::Several(a, b),
                Ok(Verdict::Unsolvable) => Outcome::NoSolution,
                Ok(Verdict::Invalid(c)) => Outcome::Invalid(c),
            },
        },
    };
    Done { line: entry.line, puzzle: entry.puzzle.ok(), outcome, elapsed: start.elapsed() }
}

/// Worse outcomes first: bad input, then gave up, then no solution, then several, then solved.
fn severity(code: Code) -> u8 {
    match code {
        Code::BadInput => 4,
        Code::GaveUp => 3,
        Code::NoSolution => 2,
        Code::Multiple => 1,
        _ => 0,
    }
}

/// Lines in the first chunk of a streamed batch, so the first results come out soon. With
/// worker threads later chunks double up to [`MAX_CHUNK`] (large files in few steps); with one
/// job every chunk has this size.
const FIRST_CHUNK: usize = 256;
const MAX_CHUNK: usize = 16_384;

pub fn run(args: SolveArgs) -> anyhow::Result<Code> {
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
    let mode = match (args.count, args.check) {
        (Some(limit), _) => Mode::Count(limit),
        (None, true) => Mode::Check,
        (None, false) => Mode::Solve,
    };
    if let (Some(_), Some(p)) = (args.count, args.puzzle.as_deref())
        && !p.is_empty()
        && p.len() < 16
        && p.bytes().all(|b| b.is_ascii_digit())
    {
        // `--count 2 PUZZLE`: the limit needs '=', so '2' was taken for the puzzle.
        eprintln!(
            "sudobot: '{p}' is not a puzzle: --count takes its limit with '=' (--count={p} \
             PUZZLE)"
        );
        return Ok(Code::BadInput);
    }
    let budget = Budget { time: args.max_time.0, ..Budget::NONE };
    if let Some(path) = &args.image {
        return run_image(&args, path, mode, &budget);
    }
    let started = Instant::now();
    let (text, source) = match open_input(&args)? {
        None => {
            eprintln!(
                "sudobot: no puzzle given: pass it as an argument, `-` to read standard input, or --file FILE \
                 (see sudobot solve --help)"
            );
            return Ok(Code::BadInput);
        }
        Some(Input::Text(text, source)) => (text, source),
        Some(Input::Lines(mut reader, source)) => {
            // A batch of one-line puzzles or game IDs is solved and printed a chunk at a time;
            // anything else (one puzzle, a multi-line format) is read whole.
            let first = reader.next_chunk(FIRST_CHUNK)?;
            let format = options.format.unwrap_or_else(|| format::detect(first.text()));
            let several = first.puzzle_lines().nth(1).is_some() || !reader.at_end();
            let geometry_fits = options.geometry.is_none() || format == Format::Line;
            if format::is_line_by_line(format) && several && geometry_fits {
                return stream(reader, first, &options, (mode, &budget), &args, &source, started);
            }
            let mut text = first.into_text();
            while !reader.at_end() {
                text.push_str(reader.next_chunk(MAX_CHUNK)?.text());
                if text.len() > format::MAX_TEXT {
                    return Err(InputError::TooLarge { source_name: source.name() }.into());
                }
            }
            (text, source)
        }
    };
    // Timing starts once the text is in, so waiting on standard input does not count.
    let started = if matches!(source, Source::Stdin) { Instant::now() } else { started };
    let puzzles = format::read_puzzles(&text, &source.name(), &options)?;
    let batch = puzzles.entries.len() > 1;
    let printer = printer(&args, batch);

    let (results, threads) = if batch {
        solve_batch(puzzles.entries, (mode, &budget), args.jobs)?
    } else {
        (puzzles.entries.into_iter().map(|e| work(e, mode, &budget)).collect(), 1)
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

    let mut tally = Tally::default();
    tally.add(&results);
    finish(&tally, batch, mode, &source, &args, started.elapsed(), threads)
}

/// The most bytes read for `--image` (a larger picture is refused).
const MAX_IMAGE_BYTES: u64 = 64 << 20;

/// Where the pixel reader found a board and its shape, for `--show-read`.
pub(super) fn board_found(b: &sudobot::pixels::Board) -> String {
    let shape = if b.regions.is_some() {
        "jigsaw regions".to_string()
    } else {
        let usual = if b.boxes_seen { "" } else { " (the usual shape: no thicker lines)" };
        format!("boxes {}x{}{usual}", b.box_width, b.box_height)
    };
    let x = if b.diagonals.is_some() { " and both diagonals (X)" } else { "" };
    format!(
        "a {}x{} board with {shape}{x} at ({}, {}), {}x{} pixels",
        b.side, b.side, b.left, b.top, b.width, b.height
    )
}

/// The board in a picture with its Killer cages and what the Killer read saw: a board that
/// shows cage outlines as the Killer read takes it (cages exact, or refused with the reason),
/// a classic one read with every cell certain as it is, any other by
/// [`sudobot::pixels::read_picture_in`] (a photo straightened).
fn read_picture(
    image: &sudobot::pixels::RgbaImage,
) -> (Result<sudobot::pixels::PictureRead, sudobot::pixels::PixelError>, Outlined, Vec<String>) {
    use sudobot::pixels::{self, PictureRead};
    let view = match image.view() {
        Ok(view) => view,
        Err(e) => return (Err(e), Ok(None), Vec::new()),
    };
    match pixels::killer::read(view) {
        Ok(k) if !matches!(k.cages, Ok(None)) || k.read.uncertain().is_empty() => {
            (Ok(PictureRead { read: k.read, straightened: None }), k.cages, k.notes)
        }
        // A classic board read as it is (the same read as `pixels::read`), or none found.
        direct => {
            let read = pixels::read_picture_after(view, direct.map(|k| k.read));
            let notes = read.as_ref().map(|p| p.read.settled_notes()).unwrap_or_default();
            (read, Ok(None), notes)
        }
    }
}

/// The Killer cages a picture shows (`None`: none), or why its outlines are not cages.
type Outlined = Result<Option<Vec<sudobot::grid::Cage>>, sudobot::pixels::killer::KillerError>;

/// `solve --image FILE`: read the board from pixels, then solve it as any one puzzle.
fn run_image(
    args: &SolveArgs,
    path: &std::path::Path,
    mode: Mode,
    budget: &Budget,
) -> anyhow::Result<Code> {
    use std::io::Read;
    use sudobot::pixels;
    let started = Instant::now();
    // Both read at most one byte past the bound (a file may be /dev/zero or a pipe).
    let bounded = |mut input: Box<dyn Read>| {
        let mut bytes = Vec::new();
        input.by_ref().take(MAX_IMAGE_BYTES + 1).read_to_end(&mut bytes).map(|_| bytes)
    };
    let (bytes, source) = if path.as_os_str() == "-" {
        (bounded(Box::new(io::stdin().lock())), Source::Stdin)
    } else {
        let name = path.display().to_string();
        let file = std::fs::File::open(path);
        (file.and_then(|f| bounded(Box::new(f))), Source::File(name))
    };
    let prefix = source.prefix();
    let bytes = match bytes {
        Ok(b) if b.len() as u64 > MAX_IMAGE_BYTES => {
            eprintln!("sudobot: {prefix}the image is over {} MiB", MAX_IMAGE_BYTES >> 20);
            return Ok(Code::BadInput);
        }
        Ok(b) => b,
        Err(e) => {
            eprintln!("sudobot: cannot read {}: {e}", source.name());
            return Ok(Code::BadInput);
        }
    };
    let image = match pixels::decode(&bytes) {
        Ok(image) => image,
        Err(e) => {
            eprintln!("sudobot: {prefix}{e}");
            return Ok(Code::BadInput);
        }
    };
    let (found, cages, notes) = read_picture(&image);
    if let Some(out) = &args.annotate {
        let annotated = match &found {
            Ok(picture) => picture.annotated(&image),
            Err(_) => pixels::annotate(&image, None),
        };
        let bytes = pixels::encode_png(&annotated)?;
        std::fs::write(out, bytes)
            .with_context(|| format!("writing the annotated picture {}", out.display()))?;
    }
    let read = match found {
        Ok(picture) => picture.read,
        Err(e) => {
            eprintln!("sudobot: {prefix}{e}");
            return Ok(Code::BadInput);
        }
    };
    if args.show_read {
        eprintln!("sudobot: {prefix}{}:", board_found(&read.board));
        eprint!("{read}");
        for note in &notes {
            eprintln!("sudobot: {prefix}{note}");
        }
    }
    let cages = match cages {
        Ok(cages) => cages,
        Err(e) => {
            eprintln!(
                "sudobot: {prefix}the board shows Killer cage outlines, but {e}; refusing to guess"
            );
            return Ok(Code::BadInput);
        }
    };
    // Cells the reader is unsure of are left out when the rest still has exactly one
    // solution (with -x, the diagonals are houses of the board read: a picture does not say).
    let rules = pixels::Rules {
        uncertain: pixels::Uncertain::LeaveOutIfUnique,
        diagonals: args.diagonals,
        budget: *budget,
    };
    let puzzle = match pixels::Puzzle::with_cages(&read, &rules, cages.as_deref()) {
        Ok(puzzle) => puzzle,
        Err(refused @ pixels::PixelError::UncertainNeeded { .. }) => {
            eprintln!("sudobot: {prefix}{refused}; refusing to guess");
            return Ok(Code::BadInput);
        }
        Err(e) => {
            eprintln!("sudobot: {prefix}{e}");
            return Ok(Code::BadInput);
        }
    };
    if !puzzle.left_out.is_empty() {
        let names: Vec<String> = puzzle.left_out.iter().map(ToString::to_string).collect();
        eprintln!(
            "sudobot: {prefix}left out the uncertain {}: the rest of the board has exactly one solution",
            names.join(" ")
        );
    }
    let puzzle = puzzle.givens;
    if args.show_read && cages.is_some() {
        eprintln!(
            "sudobot: {prefix}as `sudobot solve` reads it:\n{}",
            format::cages::write(&puzzle)
        );
    }
    let done = work(Entry { line: 1, puzzle: Ok(puzzle) }, mode, budget);
    let printer = printer(args, false);
    let mut out = BufWriter::new(io::stdout().lock());
    let flushed = print_single(&mut out, &done, mode, &printer, &source).and_then(|()| out.flush());
    if let Err(e) = flushed
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        return Err(e).context("writing to standard output");
    }
    drop(out);
    let mut tally = Tally::default();
    tally.add(std::slice::from_ref(&done));
    finish(&tally, false, mode, &source, args, started.elapsed(), 1)
}

/// How to print, from the options and whether the input is a batch.
fn printer(args: &SolveArgs, batch: bool) -> Printer {
    let stdout_tty = io::stdout().is_terminal();
    Printer {
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
    }
}

/// The summary, the statistics and the exit code of a run.
fn finish(
    tally: &Tally,
    batch: bool,
    mode: Mode,
    source: &Source,
    args: &SolveArgs,
    elapsed: Duration,
    threads: usize,
) -> anyhow::Result<Code> {
    if batch {
        summarise(tally, mode, source);
    }
    if tally.failures.iter().any(|&(_, code)| code == Code::GaveUp) {
        eprintln!("sudobot: note: {}", args.max_time.note());
    }
    if args.stats {
        print_stats(tally, elapsed, threads);
    }
    Ok(tally.worst)
}

/// What the end of a run needs to know about its puzzles, gathered as they are printed.
struct Tally {
    total: usize,
    /// Line and outcome of every puzzle without exactly one solution.
    failures: Vec<(usize, Code)>,
    /// The slowest puzzle: its line and time.
    slowest: Option<(usize, Duration)>,
    /// The worst outcome (see [`severity`]).
    worst: Code,
    /// CPU seconds of the thread that wrote the output, where a thread of its own did
    /// ([`pipeline`]), for `--stats`.
    writer_cpu: Option<f64>,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            total: 0,
            failures: Vec::new(),
            slowest: None,
            worst: Code::Success,
            writer_cpu: None,
        }
    }
}

impl Tally {
    fn add(&mut self, results: &[Done]) {
        for done in results {
            self.add_one(done.line, done.outcome.code(), done.elapsed);
        }
    }

    /// Adds the tally of the lines that follow this one's.
    fn merge(&mut self, later: Tally) {
        self.total += later.total;
        self.failures.extend(later.failures);
        if severity(later.worst) > severity(self.worst) {
            self.worst = later.worst;
        }
        if let Some((line, t)) = later.slowest
            && self.slowest.is_none_or(|(_, s)| t > s)
        {
            self.slowest = Some((line, t));
        }
    }

    fn add_one(&mut self, line: usize, code: Code, elapsed: Duration) {
        self.total += 1;
        if code != Code::Success {
            self.failures.push((line, code));
        }
        if severity(code) > severity(self.worst) {
            self.worst = code;
        }
        if self.slowest.is_none_or(|(_, t)| elapsed > t) {
            self.slowest = Some((line, elapsed));
        }
    }
}

/// One line of a streamed batch, solved.
enum Solved {
    /// A plain 9x9 puzzle with one solution or several, solved without building grids (see
    /// [`fast_9x9`]): its line, verdict and time.
    Plain(usize, Fast, Duration),
    /// Anything else, through the general path.
    General(Done),
}

/// What the fast path found: the solution, or the first two of several (in the order the
/// general path gives them).
enum Fast {
    Unique([u8; 81]),
    Several([[u8; 81]; 2]),
}

/// The fast path of a batch: a line of exactly 81 digits and dots (surrounding whitespace
/// aside, as the general reader takes it) is solved straight from its bytes, in one search
/// that stops at the second solution. Gives the solution, or two when there are several; the
/// other cases (other lines, no solution, conflicting givens) go through the general path,
/// which words them.
fn fast_9x9(line: &str, timed: bool) -> Option<(Fast, Duration)> {
    let bytes: &[u8; 81] = line.trim_ascii().as_bytes().try_into().ok()?;
    let start = timed.then(Instant::now);
    // Without a branch per byte (the loop vectorises): '1'..'9' are 1..9, '.' and '0' blank.
    let mut cells = [0u8; 81];
    let mut bad = false;
    for (cell, &b) in cells.iter_mut().zip(bytes) {
        let digit = b.wrapping_sub(b'0');
        let dot = b == b'.';
        bad |= digit > 9 && !dot;
        *cell = if dot { 0 } else { digit };
    }
    if bad {
        return None;
    }
    let mut found = [[0u8; 81]; 2];
    let fast = match solve::count_classic(&cells, 2, &mut found)? {
        1 => Fast::Unique(found[0]),
        2 => Fast::Several(found),
        _ => return None,
    };
    Some((fast, start.map_or(Duration::ZERO, |s| s.elapsed())))
}

/// A solution as a line of 81 digits, with its newline.
fn digits_line(values: &[u8; 81]) -> [u8; 82] {
    let mut text = [b'\n'; 82];
    for (byte, &v) in text.iter_mut().zip(values) {
        *byte = b'0' + v;
    }
    text
}

/// A batch of line-by-line puzzles, read, solved (on all cores, or `--jobs`) and printed a
/// chunk at a time, in input order.
fn stream<R: io::BufRead>(
    mut reader: LineReader<R>,
    first: Chunk,
    options: &ReadOptions,
    (mode, budget): (Mode, &Budget),
    args: &SolveArgs,
    source: &Source,
    started: Instant,
) -> anyhow::Result<Code> {
    let printer = printer(args, true);
    // One job (`--jobs 1`, or one core available): no worker threads at all, the puzzles are
    // solved on this thread.
    let jobs = args
        .jobs
        .map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
    let pool = match jobs {
        0 | 1 => None,
        n => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .context("starting the worker threads")?,
        ),
    };
    let threads = pool.as_ref().map_or(1, |p| p.current_num_threads());
    let bar = super::progress::puzzles_streamed();
    // Plain 9x9 lines take the fast path when it prints what the general one would: one-line
    // input read as such, no options that change the grid, and a solution printed as a line
    // (or only the verdict).
    let fast = matches!(options.format, None | Some(Format::Line))
        && options.geometry.is_none()
        && !options.diagonals
        && match mode {
            Mode::Solve => printer.output == OutputFormat::Line,
            Mode::Check => true,
            Mode::Count(_) => false,
        };
    let timed = args.stats;
    let solve_line = |&(n, l): &(usize, &str)| match fast.then(|| fast_9x9(l, timed)).flatten() {
        Some((solution, elapsed)) => Solved::Plain(n, solution, elapsed),
        None => Solved::General(work(format::line_entry(l, n, options), mode, budget)),
    };
    let tally = match &pool {
        None => {
            let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
            let mut tally = Tally::default();
            let mut chunk = first;
            let mut results: Vec<Solved> = Vec::new();
            loop {
                results.clear();
                results.extend(chunk.puzzle_lines().map(|line| solve_line(&line)));
                bar.inc(results.len() as u64);
                let printed = print_stream(&mut out, &results, &mut tally, mode, &printer);
                if !written(printed.and_then(|()| out.flush()))? || reader.at_end() {
                    break;
                }
                // One job: every chunk at one size, its buffers reused on memory already mapped.
                chunk = reader.refill(FIRST_CHUNK, chunk)?;
            }
            tally
        }
        Some(pool) => pipeline(&mut reader, first, pool, &solve_line, (mode, &printer), &bar)?,
    };
    bar.finish_and_clear();
    if tally.total == 0 {
        return Err(InputError::Empty { source_name: source.name() }.into());
    }
    finish(&tally, true, mode, source, args, started.elapsed(), threads)
}

/// What a worker run gives: its output, formatted, and its tally.
type Run = io::Result<(Vec<u8>, Tally)>;

/// A streamed batch on worker threads, as a pipeline of three threads: this one reads chunks,
/// a second hands each chunk to the workers (who solve a run of lines each and format its
/// output), a third writes the runs in input order. Reading and writing overlap the solving;
/// done in between, with the workers idle, they were the serial part that kept easy puzzles
/// from scaling past a few cores. At most one chunk waits at each step, so memory stays
/// bounded; when the output is closed (`| head`) or fails, each step stops in turn.
fn pipeline<R: io::BufRead>(
    reader: &mut LineReader<R>,
    first: Chunk,
    pool: &rayon::ThreadPool,
    solve_line: &(dyn Fn(&(usize, &str)) -> Solved + Sync),
    (mode, printer): (Mode, &Printer),
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<Tally> {
    let threads = pool.current_num_threads();
    let (to_solve, chunks) = mpsc::sync_channel::<Chunk>(1);
    let (to_write, solved) = mpsc::sync_channel::<Vec<Run>>(1);
    // Chunks done with go back to the reader, whose buffers it refills.
    let (to_reuse, spent) = mpsc::channel::<Chunk>();
    std::thread::scope(|scope| {
        let solver = scope.spawn(move || {
            for chunk in chunks {
                let lines: Vec<(usize, &str)> = chunk.puzzle_lines().collect();
                let run = lines.len().div_ceil(threads * 4).max(64);
                let runs: Vec<Run> = pool.install(|| {
                    lines
                        .par_chunks(run)
                        .map(|part| {
                            let solved: Vec<Solved> = part.iter().map(solve_line).collect();
                            let mut text = Vec::with_capacity(part.len() * 83);
                            let mut part_tally = Tally::default();
                            print_stream(&mut text, &solved, &mut part_tally, mode, printer)
                                .map(|()| (text, part_tally))
                        })
                        .collect()
                });
                drop(lines);
                let _ = to_reuse.send(chunk);
                if to_write.send(runs).is_err() {
                    break;
                }
            }
        });
        let writer = scope.spawn(move || {
            let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
            let mut tally = Tally::default();
            let write_all = || -> io::Result<()> {
                for runs in solved {
                    for run in runs {
                        let (text, part_tally) = run?;
                        bar.inc(part_tally.total as u64);
                        tally.merge(part_tally);
                        out.write_all(&text)?;
                    }
                    out.flush()?;
                }
                Ok(())
            };
            let result = write_all();
            tally.writer_cpu = thread_cpu();
            (tally, result)
        });
        let mut chunk = first;
        let mut size = FIRST_CHUNK;
        let read = loop {
            let at_end = reader.at_end();
            // Refused once the writer has stopped (and the solver after it).
            if to_solve.send(chunk).is_err() || at_end {
                break Ok(());
            }
            // Larger chunks keep the workers busy (large files in few steps).
            size = (size * 2).min(MAX_CHUNK);
            match reader.refill(size, spent.try_recv().unwrap_or_default()) {
                Ok(next) => chunk = next,
                Err(e) => break Err(e),
            }
        };
        drop(to_solve);
        let panicked = || anyhow::anyhow!("a thread of the batch pipeline panicked");
        solver.join().map_err(|_| panicked())?;
        let (tally, written_out) = writer.join().map_err(|_| panicked())?;
        read?;
        written(written_out)?;
        Ok(tally)
    })
}

/// Whether output may go on after a write: a closed pipe (`| head`) means the reader wants no
/// more (stop solving, no error); any other failure is an error.
fn written(result: io::Result<()>) -> anyhow::Result<bool> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e).context("writing to standard output"),
    }
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

/// An input: text already in hand (the argument), or lines to read (a file, standard input).
enum Input {
    Text(String, Source),
    Lines(LineReader<Box<dyn io::BufRead>>, Source),
}

/// The input and its source; `None` when there is nothing to read.
fn open_input(args: &SolveArgs) -> anyhow::Result<Option<Input>> {
    let stdin = || {
        let reader: Box<dyn io::BufRead> = Box::new(io::stdin().lock());
        Input::Lines(LineReader::new(reader, "standard input"), Source::Stdin)
    };
    if let Some(path) = &args.file {
        let reader: Box<dyn io::BufRead> = Box::new(format::open_file(path)?);
        let name = path.display().to_string();
        return Ok(Some(Input::Lines(LineReader::new(reader, &name), Source::File(name))));
    }
    match args.puzzle.as_deref() {
        Some("-") => Ok(Some(stdin())),
        Some(p) => Ok(Some(Input::Text(p.to_string(), Source::Argument(p.to_string())))),
        None if !io::stdin().is_terminal() => Ok(Some(stdin())),
        None => Ok(None),
    }
}

/// Solves every puzzle in parallel, results in input order, with a progress bar on a terminal.
fn solve_batch(
    entries: Vec<Entry>,
    (mode, budget): (Mode, &Budget),
    jobs: Option<u16>,
) -> anyhow::Result<(Vec<Done>, usize)> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        builder = builder.num_threads(n.into());
    }
    let pool = builder.build().context("starting the worker threads")?;
    let bar = super::progress::puzzles(entries.len());
    let results = pool.install(|| {
        entries
            .into_par_iter()
            .map(|e| {
                let done = work(e, mode, budget);
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
        (Outcome::GaveUp(g), _) => eprintln!("sudobot: {prefix}{g}"),
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

/// A streamed chunk's results, in input order, counted into `tally`.
fn print_stream(
    out: &mut impl Write,
    results: &[Solved],
    tally: &mut Tally,
    mode: Mode,
    printer: &Printer,
) -> io::Result<()> {
    for solved in results {
        match solved {
            Solved::Plain(line, Fast::Unique(solution), elapsed) => {
                tally.add_one(*line, Code::Success, *elapsed);
                if matches!(mode, Mode::Check) {
                    out.write_all(b"unique\n")?;
                } else {
                    out.write_all(&digits_line(solution))?;
                }
            }
            // As the general path words it (`print_batch`), from the same two solutions.
            Solved::Plain(line, Fast::Several([a, b]), elapsed) => {
                tally.add_one(*line, Code::Multiple, *elapsed);
                if matches!(mode, Mode::Check) {
                    out.write_all(b"several solutions\n")?;
                } else {
                    write!(out, "# line {line}: several solutions, two of them: ")?;
                    let [a, b] = [digits_line(a), digits_line(b)];
                    out.write_all(&a[..81])?;
                    out.write_all(b" ")?;
                    out.write_all(&b)?;
                }
            }
            Solved::General(done) => {
                tally.add(std::slice::from_ref(done));
                print_batch(out, std::slice::from_ref(done), mode, printer)?;
            }
        }
    }
    Ok(())
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
            (Outcome::GaveUp(g), _) => writeln!(out, "# line {line}: {g}")?,
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
fn summarise(tally: &Tally, mode: Mode, source: &Source) {
    let lines_with = |code: Code| -> Vec<usize> {
        tally.failures.iter().filter(|(_, c)| *c == code).map(|(line, _)| *line).collect()
    };
    let groups = [
        ("bad input", lines_with(Code::BadInput)),
        ("gave up", lines_with(Code::GaveUp)),
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
        tally.total,
        parts.join("; ")
    );
}

/// `--stats`: throughput and the slowest puzzle, on standard error.
fn print_stats(tally: &Tally, total: Duration, threads: usize) {
    let n = tally.total;
    let secs = total.as_secs_f64();
    let rate = if secs > 0.0 { n as f64 / secs } else { f64::INFINITY };
    let thread_s = if threads == 1 { "" } else { "s" };
    let mut text = format!(
        "stats: {n} puzzle{} in {secs:.3} s, {rate:.0} puzzles/s on {threads} thread{thread_s}",
        if n == 1 { "" } else { "s" }
    );
    if let Some((line, elapsed)) = tally.slowest {
        text.push_str(&format!(
            "; slowest: line {line} ({:.3} ms)",
            elapsed.as_secs_f64() * 1000.0
        ));
    }
    // The serial part: the reading (main) thread's and the writing thread's shares of the
    // process's CPU time. They overlap the solving (a pipeline), so on 16 cores the run takes
    // at least the longer of the two and a sixteenth of all the work. Idle workers spin a
    // little before they sleep, so the shares are a little low, the prediction a little high.
    if threads > 1
        && let (Some(main), Some(all)) = (thread_cpu(), process_cpu())
        && all > 0.0
    {
        let (read, write) = (main / all, tally.writer_cpu.unwrap_or(0.0) / all);
        text.push_str(&format!(
            "; reading {:.1}% and writing {:.1}% of {all:.3} CPU s (at most {:.1}x on 16 cores)",
            read * 100.0,
            write * 100.0,
            pipeline_bound(read.max(write), 16)
        ));
    }
    eprintln!("{text}");
}

/// The most a pipelined batch can gain on `cores` cores when one thread (reading and writing)
/// takes `serial` of the CPU time and overlaps the rest: the run lasts at least as long as that
/// thread's work, and as a `cores`th of all the work.
fn pipeline_bound(serial: f64, cores: usize) -> f64 {
    1.0 / serial.max(1.0 / cores as f64)
}

/// CPU seconds (user + system) of the calling thread, where the OS reports them per thread.
#[cfg(target_os = "linux")]
fn thread_cpu() -> Option<f64> {
    cpu_seconds(nix::sys::resource::UsageWho::RUSAGE_THREAD)
}

/// CPU seconds (user + system) of the whole process.
#[cfg(target_os = "linux")]
fn process_cpu() -> Option<f64> {
    cpu_seconds(nix::sys::resource::UsageWho::RUSAGE_SELF)
}

#[cfg(target_os = "linux")]
fn cpu_seconds(who: nix::sys::resource::UsageWho) -> Option<f64> {
    use nix::sys::time::TimeValLike;
    let u = nix::sys::resource::getrusage(who).ok()?;
    Some((u.user_time().num_microseconds() + u.system_time().num_microseconds()) as f64 / 1e6)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> Option<f64> {
    None
}

#[cfg(not(target_os = "linux"))]
fn process_cpu() -> Option<f64> {
    None
}

#[cfg(test)]
mod tests {
    use super::pipeline_bound;

    #[test]
    fn the_pipeline_bound_is_the_serial_share_or_the_cores() {
        // Reading and writing overlap the solving: 5% of the work on one thread allows up to
        // 16x on 16 cores (Amdahl's law, with nothing overlapped, would allow 9.1x); 10%
        // allows 10x whatever the cores.
        assert!((pipeline_bound(0.05, 16) - 16.0).abs() < 1e-9);
        assert!((pipeline_bound(0.10, 16) - 10.0).abs() < 1e-9);
        assert!((pipeline_bound(0.10, 4) - 4.0).abs() < 1e-9);
    }
}
