//! `sudobot web` and `sudobot sites`: turn the flags and files into library configuration, run
//! the session (with Ctrl-C and every error path quitting the browser and stopping the driver),
//! and report progress, results and phase times.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use sudobot::format;
use sudobot::web::config::{ConfigError, DriverMode, Headless};
use sudobot::web::demo::DemoServer;
use sudobot::web::grid;
use sudobot::web::pool::{self, Event, Failure, PoolOptions};
use sudobot::web::report::PuzzleReport;
use sudobot::web::site::{self, Served, Strategy};
use sudobot::web::{
    Cancel, Hint, Outcome, PlayError, PlayOptions, Session, SessionError, Signal, Stop, Thinking,
    Timings, WebDriverConfig, evidence, signals,
};

use super::logic_input::scale;
use super::{Code, init_logging};
use crate::cli::hint::Reveal;
use crate::cli::web::{CheckArgs, Parallel, SitesAction, SitesArgs, WebArgs};

/// Prints to stdout; a closed pipe (`sudobot web ... | head`) is not an error.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub fn run(args: WebArgs) -> anyhow::Result<Code> {
    init_logging(args.verbose);
    let config = build_config(&args)?;
    let loaded = site::find(&args.site, args.sites_dir.as_deref())?;
    let mut site = loaded.site;
    if let Some(s) = args.strategy.as_deref() {
        site.fill.strategy = match s {
            "actions" => Strategy::Actions,
            "per-cell" => Strategy::PerCell,
            "script" => Strategy::Script,
            _ => Strategy::Keys,
        };
    }
    let difficulty = site.difficulty_value(args.difficulty.as_deref())?;
    if let Some(url) = &args.url {
        check_url(url)?;
    }
    let report = match &args.report {
        Some(path) => {
            Some(std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(|e| {
                ConfigError::Invalid {
                    file: "command line".into(),
                    key: "--report".into(),
                    message: format!("cannot open {}: {e}", path.display()),
                }
            })?)
        }
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(run_async(args, config, site, difficulty, report))
}

/// `--url` must be an http(s) or file URL: checked before any browser starts.
fn check_url(url: &str) -> Result<(), ConfigError> {
    let bad = |message: String| ConfigError::Invalid {
        file: "command line".into(),
        key: "--url".into(),
        message,
    };
    match url::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some() => Ok(()),
        Ok(u) if u.scheme() == "file" => Ok(()),
        Ok(u) => Err(bad(format!(
            "`{url}`: only http, https and file URLs can be opened (got `{}:`)",
            u.scheme()
        ))),
        Err(e) => Err(bad(format!("`{url}` is not a URL: {e}"))),
    }
}

fn build_config(args: &WebArgs) -> anyhow::Result<WebDriverConfig> {
    let mut config = WebDriverConfig::load(args.config.as_deref())?;
    if args.headed {
        config.browser.headless = Headless::Fixed(false);
    }
    if args.headless {
        config.browser.headless = Headless::Fixed(true);
    }
    if let Some(d) = &args.driver {
        config.driver.mode = DriverMode::Local;
        config.driver.driver_binary = d.display().to_string();
    }
    if let Some(url) = &args.remote {
        config.driver.mode = DriverMode::Remote;
        config.driver.url = Some(url.clone());
    }
    if let Some(b) = &args.browser_binary {
        config.browser.binary = Some(b.display().to_string());
    }
    config.validate("command line")?;
    check_display(&config, args.headed)?;
    Ok(config)
}

/// A local headed browser needs a display.
fn check_display(config: &WebDriverConfig, flag: bool) -> Result<(), ConfigError> {
    let set = |v: &str| std::env::var_os(v).is_some_and(|v| !v.is_empty());
    if config.driver.mode == DriverMode::Local
        && !config.browser.headless.resolve()
        && !set("DISPLAY")
        && !set("WAYLAND_DISPLAY")
    {
        return Err(ConfigError::Invalid {
            file: "command line".into(),
            key: if flag { "--headed".into() } else { "browser.headless".into() },
            message: "a visible browser needs a display, but DISPLAY and WAYLAND_DISPLAY are not \
                      set; use --headless or run under a display (e.g. xvfb-run)"
                .into(),
        });
    }
    Ok(())
}

fn code_for(signal: Signal) -> Code {
    match signal {
        Signal::Interrupt => Code::Interrupted,
        Signal::Terminate => Code::Terminated,
        Signal::HangUp => Code::HungUp,
    }
}

fn on_first_signal(signal: Signal) {
    let again = if signal == Signal::Interrupt { "Ctrl-C" } else { "a second signal" };
    eprintln!("sudobot: {}: stopping the browser ({again} exits at once)", signal.name());
}

async fn run_async(
    args: WebArgs,
    config: WebDriverConfig,
    site: sudobot::web::Site,
    difficulty: String,
    mut report: Option<std::fs::File>,
) -> anyhow::Result<Code> {
    let cancel = signals::watch(on_first_signal).context("watching signals")?;
    // The demo site is served here unless --url points elsewhere.
    let demo = match (site.serve, &args.url) {
        (Some(Served::Demo), None) => {
            Some(DemoServer::start().await.context("starting the demo server")?)
        }
        _ => None,
    };
    let url = match &args.url {
        Some(u) => u.clone(),
        None => site.url_for(&difficulty, demo.as_ref().map(|d| d.origin()).as_deref()),
    };

    let options = PlayOptions {
        url: url.clone(),
        dry_run: args.dry_run,
        element_timeout: config.element_timeout(),
        page_load_timeout: Duration::from_millis(config.browser.page_load_timeout_ms),
        // A remote driver cannot be killed: small chunks bound what a cancelled run still types.
        chunk: if config.driver.mode == DriverMode::Remote { 9 } else { 0 },
        hint: args.hint.then(|| scale(args.scale)),
        thinking: args.show_thinking.then(|| Thinking {
            scale: scale(args.scale),
            step_delay: Duration::from_millis(args.step_delay),
            tell: std::sync::Arc::new(|text: &str| out!("{text}")),
        }),
    };
    if args.parallel.is_some() {
        let code = run_pool(&args, config, site, options, report, cancel).await;
        drop(demo);
        return code;
    }

    let started = Instant::now();
    let session = match Session::start(&config, cancel.clone()).await {
        Ok(s) => s,
        Err(SessionError::Cancelled(signal)) => {
            eprintln!(
                "sudobot: interrupted by {} while starting the browser; stopped",
                signal.name()
            );
            return Ok(code_for(signal));
        }
        Err(e) => return Err(e.into()),
    };
    let session_start = started.elapsed();
    let run = play_all(&session, &site, &options, &args, &mut report).await;
    session.close().await;
    drop(demo);
    if let Some(signal) = run.signal {
        eprintln!("sudobot: interrupted by {}; browser stopped", signal.name());
        return Ok(code_for(signal));
    }
    let results = run.results;
    let ok: Vec<&Outcome> = results.iter().filter_map(|(r, _)| r.as_ref().ok()).collect();
    match results.as_slice() {
        [(Ok(o), _)] => print_outcome(&args, o),
        [_] => {}
        _ => out!("{} of {} puzzles solved and confirmed", ok.len(), args.count),
    }
    if args.stats {
        let timings: Vec<Timings> = results.iter().map(|(_, t)| *t).collect();
        print_stats(&[session_start], &timings);
    }
    if run.driver_fault {
        return Ok(Code::Failure);
    }
    Ok(match results.as_slice() {
        [(Ok(Outcome { hint: Some(Hint::Mistakes(_)), .. }), _)] => Code::NoSolution,
        [(Ok(_), _)] => Code::Success,
        [(Err(PlayError::Invalid(_) | PlayError::Unsolvable), _)] => Code::NoSolution,
        [(Err(PlayError::Multiple(_)), _)] => Code::Multiple,
        _ if ok.len() == results.len() && results.len() == args.count as usize => Code::Success,
        _ => Code::Failure,
    })
}

/// How many sessions `--parallel` runs, after asking a Grid for its slots; `Err(code)` when it
/// cannot run at all (a Grid without a free slot).
async fn pool_size(
    args: &WebArgs,
    config: &WebDriverConfig,
) -> Result<(usize, Option<String>), Code> {
    let asked = args.parallel.unwrap_or(Parallel::Auto);
    let count = args.count as usize;
    if config.driver.mode != DriverMode::Remote {
        let k = match asked {
            Parallel::Auto => pool::default_local_sessions(),
            Parallel::Sessions(k) => k,
        };
        return Ok((k.min(count), None));
    }
    let url = config.driver.url.clone().unwrap_or_default().trim_end_matches('/').to_string();
    let bound = Duration::from_secs(5);
    let status = match grid::status(&url, bound).await {
        Ok(Some(status)) => status,
        other => {
            // Not a Grid (a plain WebDriver server), or unreachable: the session start says why.
            if let Err(e) = other {
                tracing::debug!("no Grid status: {e}");
            }
            let k = match asked {
                Parallel::Auto => 1,
                Parallel::Sessions(k) => k,
            };
            return Ok((k.min(count), None));
        }
    };
    // Sessions that runs killed on this host left behind go first.
    let stale = grid::sweep(&url, Duration::from_secs(3), grid::is_stale).await;
    let status = if stale.is_empty() {
        status
    } else {
        eprintln!(
            "sudobot: deleted {} Grid session(s) left by earlier runs that were killed",
            stale.len()
        );
        grid::status(&url, bound).await.ok().flatten().unwrap_or(status)
    };
    eprintln!("sudobot: Selenium Grid at {url}: {}", status.describe());
    let free = status.free();
    let k = match asked {
        Parallel::Auto if args.oversubscribe => status.slots().max(1),
        Parallel::Sessions(k) if args.oversubscribe => k,
        _ if free == 0 => {
            eprintln!(
                "sudobot: the Grid has no free slot; wait for one, add nodes, or use \
                 --parallel K --oversubscribe to queue sessions on the Grid"
            );
            return Err(Code::Failure);
        }
        Parallel::Auto => free,
        Parallel::Sessions(k) if k > free => {
            eprintln!(
                "sudobot: using {free} session(s), not {k}: the Grid has {free} free slot(s) \
                 (--oversubscribe to queue the others on the Grid)"
            );
            free
        }
        Parallel::Sessions(k) => k,
    };
    Ok((k.min(count), Some(url)))
}

/// `--parallel`: the pool of sessions, one progress bar (and a status line per session with
/// `-v`), the report as puzzles finish, and the summary.
async fn run_pool(
    args: &WebArgs,
    config: WebDriverConfig,
    site: sudobot::web::Site,
    options: PlayOptions,
    report: Option<std::fs::File>,
    cancel: Cancel,
) -> anyhow::Result<Code> {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    let count = args.count as usize;
    let (sessions, grid_url) = match pool_size(args, &config).await {
        Ok(k) => k,
        Err(code) => return Ok(code),
    };
    let where_ = if config.driver.mode == DriverMode::Remote { "remote" } else { "local" };
    eprintln!("sudobot: {count} puzzle(s) over {sessions} {where_} session(s)");

    let multi = MultiProgress::new();
    let bar = multi.add(ProgressBar::new(count as u64));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} puzzles  {msg}  [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let verbose = args.verbose > 0;
    let lines: Vec<ProgressBar> = if verbose {
        (1..=sessions)
            .map(|i| {
                let line = multi.add(ProgressBar::new_spinner());
                line.set_style(
                    ProgressStyle::with_template("  {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                line.set_message(format!("session {i}: waiting"));
                line
            })
            .collect()
    } else {
        Vec::new()
    };
    let hidden = bar.is_hidden();
    let say = {
        let bar = bar.clone();
        move |line: String| if hidden { eprintln!("{line}") } else { bar.println(line) }
    };
    let status = {
        let lines = lines.clone();
        let say = say.clone();
        move |session: usize, what: String| {
            if !verbose {
                return;
            }
            let line = format!("session {session}: {what}");
            match lines.get(session.wrapping_sub(1)) {
                Some(l) if !hidden => l.set_message(line),
                _ => say(format!("sudobot: {line}")),
            }
        }
    };
    let report = Rc::new(RefCell::new(report));
    let failed = Rc::new(Cell::new(0usize));
    let retried = Rc::new(Cell::new(0usize));
    let on_event = {
        let (bar, report, failed, retried) =
            (bar.clone(), report.clone(), failed.clone(), retried.clone());
        let (url, dry_run, single) = (options.url.clone(), args.dry_run, sessions == 1);
        move |event: &Event<'_>| match event {
            Event::Starting { session } => status(*session, "starting the browser".into()),
            Event::Started { session, took } => {
                status(*session, format!("browser started in {:.1} s", took.as_secs_f64()))
            }
            Event::StartFailed { session, error } => {
                // One session: the error is the run's error, said once at the end.
                if !single {
                    say(format!("sudobot: session {session}: {error}"));
                }
                status(*session, "could not start".into());
            }
            Event::Playing { session, puzzle, attempt } => {
                let retry = if *attempt > 1 { " (retry)" } else { "" };
                status(*session, format!("puzzle {puzzle}{retry}"));
            }
            Event::Done(a) => {
                let at =
                    if a.session > 0 { format!(" (session {})", a.session) } else { String::new() };
                match &a.result {
                    Ok(_) => status(a.session, format!("puzzle {} solved", a.puzzle)),
                    Err(Failure::Interrupted(_)) => {}
                    Err(f) => {
                        let mut msg = format!("sudobot: puzzle {}{at}: {f}", a.puzzle);
                        if let Some(dir) = &a.evidence {
                            msg.push_str(&format!(
                                "\n  evidence (screenshot, page source): {}",
                                dir.display()
                            ));
                        }
                        if a.will_retry {
                            msg.push_str("\n  retrying it once on a fresh session");
                        }
                        say(msg);
                        status(a.session, format!("puzzle {} failed ({})", a.puzzle, f.kind()));
                    }
                }
                if a.will_retry {
                    retried.set(retried.get() + 1);
                } else {
                    if a.result.is_err() {
                        failed.set(failed.get() + 1);
                    }
                    let line = PuzzleReport::from_attempt(a, &url, dry_run);
                    if let Some(file) = report.borrow_mut().as_mut()
                        && let Err(e) = writeln!(file, "{}", line.to_json_line())
                    {
                        say(format!("sudobot: cannot write the report: {e}"));
                    }
                    bar.inc(1);
                }
                bar.set_message(format!("{} failed, {} retried", failed.get(), retried.get()));
            }
            Event::Closed { session, reason } => {
                status(*session, reason.clone().unwrap_or_else(|| "closed".into()))
            }
        }
    };
    let pool_options = PoolOptions {
        sessions,
        count,
        retry: true,
        evidence_dir: (!args.no_debug_files)
            .then(|| args.debug_dir.clone().unwrap_or_else(std::env::temp_dir)),
        grid_url,
    };
    let run = pool::run(config, site, options, pool_options, cancel, Box::new(on_event)).await;
    bar.finish_and_clear();
    for l in &lines {
        l.finish_and_clear();
    }
    if run.swept > 0 {
        eprintln!(
            "sudobot: deleted {} Grid session(s) of this run that were still being created",
            run.swept
        );
    }
    if let Some(signal) = run.signal {
        eprintln!("sudobot: interrupted by {}; every browser session stopped", signal.name());
        return Ok(code_for(signal));
    }
    if run.session_starts.is_empty()
        && let Some(e) = run.start_errors.into_iter().next()
    {
        return Err(e.into());
    }
    let finished = &run.finished;
    if let [a] = finished.as_slice()
        && let Ok(o) = &a.result
    {
        print_outcome(args, o);
    }
    let summary = pool::summarize(finished, run.elapsed);
    out!(
        "{} of {count} puzzles solved and confirmed over {sessions} session(s) in {:.1} s: {:.1} puzzles/min",
        summary.solved,
        run.elapsed.as_secs_f64(),
        summary.per_minute
    );
    if let Some((median, p90, max)) = summary.fill {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        out!(
            "fill time: median {:.0} ms, p90 {:.0} ms, max {:.0} ms",
            ms(median),
            ms(p90),
            ms(max)
        );
    }
    if run.retried > 0 {
        let mut kinds: Vec<(&str, usize)> = Vec::new();
        for e in finished.iter().filter_map(|a| a.earlier.as_ref()) {
            match kinds.iter_mut().find(|(k, _)| *k == e.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((e.kind, 1)),
            }
        }
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        out!("retried on a fresh session: {} ({})", run.retried, kinds.join(", "));
    }
    let failures = pool::failures_by_kind(finished);
    if failures.is_empty() {
        out!("failures: none");
    } else {
        let list: Vec<String> = failures.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        out!("failures by reason: {}", list.join(", "));
    }
    if args.stats {
        let timings: Vec<Timings> = finished.iter().map(|a| a.timings).collect();
        print_stats(&run.session_starts, &timings);
    }
    Ok(match finished.as_slice() {
        [a] if count == 1 => match &a.result {
            Ok(_) => Code::Success,
            Err(Failure::Play(PlayError::Invalid(_) | PlayError::Unsolvable)) => Code::NoSolution,
            Err(Failure::Play(PlayError::Multiple(_))) => Code::Multiple,
            Err(_) => Code::Failure,
        },
        _ if summary.solved == count => Code::Success,
        _ => Code::Failure,
    })
}

/// What a run of puzzles came to.
struct Run {
    results: Vec<(Result<Outcome, PlayError>, Timings)>,
    signal: Option<Signal>,
    driver_fault: bool,
}

async fn play_all(
    session: &Session,
    site: &sudobot::web::Site,
    options: &PlayOptions,
    args: &WebArgs,
    report: &mut Option<std::fs::File>,
) -> Run {
    let count = args.count as usize;
    let bar = if count > 1 {
        let bar = ProgressBar::new(count as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} puzzles  {msg}  [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let say = |line: String| match &bar {
        Some(b) if !b.is_hidden() => b.println(line),
        _ => eprintln!("{line}"),
    };
    let prefix =
        |n: usize| if count > 1 { format!("sudobot: puzzle {n}: ") } else { "sudobot: ".into() };
    let mut run = Run { results: Vec::with_capacity(count), signal: None, driver_fault: false };
    let mut failed = 0;
    for n in 1..=count {
        let mut timings = Timings::default();
        let mut guarded =
            session.guard(sudobot::web::play(session.driver(), site, options, &mut timings)).await;
        // A command that failed because of a signal or a dead driver is said as such.
        if let Ok(Err(e)) = &guarded
            && let Some(stop) = session.cause_of(e).await
        {
            guarded = Err(stop);
        }
        let (line, result) = match guarded {
            Ok(result) => {
                let mut line =
                    PuzzleReport::new(n, &options.url, &result, &timings, options.dry_run);
                if let Err(e) = &result {
                    failed += 1;
                    let mut msg = format!("{}{e}", prefix(n));
                    if !e.is_board_problem()
                        && e.after_load()
                        && let Some(dir) = keep_evidence(session, args, n, &e.to_string()).await
                    {
                        msg.push_str(&format!(
                            "\n  evidence (screenshot, page source): {}",
                            dir.display()
                        ));
                        line.evidence = Some(dir.display().to_string());
                    }
                    say(msg);
                }
                (line, Some(result))
            }
            Err(stop) => {
                let signal = matches!(stop, Stop::Signal(_));
                let line =
                    PuzzleReport::stopped(n, &options.url, &timings, stop.to_string(), signal);
                match stop {
                    Stop::Signal(s) => run.signal = Some(s),
                    Stop::Driver(m) => {
                        run.driver_fault = true;
                        say(format!("{}{m}", prefix(n)));
                    }
                }
                (line, None)
            }
        };
        if let Some(file) = report.as_mut()
            && let Err(e) = writeln!(file, "{}", line.to_json_line())
        {
            say(format!("sudobot: cannot write the report: {e}"));
        }
        let Some(result) = result else {
            break;
        };
        run.results.push((result, timings));
        if let Some(b) = &bar {
            b.set_message(format!("{failed} failed"));
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    run
}

/// Keeps a screenshot and the page sources of a failed puzzle; returns the directory.
async fn keep_evidence(
    session: &Session,
    args: &WebArgs,
    n: usize,
    error: &str,
) -> Option<PathBuf> {
    if args.no_debug_files {
        return None;
    }
    let base = args.debug_dir.clone().unwrap_or_else(std::env::temp_dir);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let dir = base.join(format!("sudobot-debug-{stamp}-{}-{n}", std::process::id()));
    let collect = evidence::collect(session.driver(), &dir, error);
    match session.guard(tokio::time::timeout(Duration::from_secs(10), collect)).await {
        Ok(Ok(Ok(_))) => Some(dir),
        Ok(Ok(Err(e))) => {
            tracing::warn!("cannot keep evidence in {}: {e}", dir.display());
            None
        }
        _ => dir.exists().then_some(dir),
    }
}

fn print_outcome(args: &WebArgs, o: &Outcome) {
    if let Some(hint) = &o.hint {
        match hint {
            Hint::Solved => out!("The board is solved."),
            Hint::Step(step) => out!("{}", super::hint::describe(step, args.reveal)),
            Hint::Mistakes(wrong) => match args.reveal {
                Reveal::Technique => out!("Mistake: a value typed on the board is wrong."),
                Reveal::Cells => {
                    let cells: Vec<String> = wrong.iter().map(|(c, _)| c.to_string()).collect();
                    out!("Mistake: check {}.", cells.join(", "))
                }
                Reveal::Step => {
                    for (cell, found) in wrong {
                        out!("Mistake: {cell} holds {found}, which is not its solution value.");
                    }
                }
            },
        }
        return;
    }
    if args.dry_run {
        out!("board:\n{}", format::pretty::write(&o.puzzle));
        out!("answer:\n{}", format::pretty::write(&o.solution));
        out!(
            "dry run: {} cells would be typed ({} wrong values would be corrected)",
            o.typed,
            o.corrected
        );
        return;
    }
    let mut line = format!("solved: typed {} cells", o.typed);
    if o.corrected > 0 {
        line.push_str(&format!(", corrected {} wrong values", o.corrected));
    }
    if o.retried > 0 {
        line.push_str(&format!(", retyped {} that dropped a key", o.retried));
    }
    if o.clicked {
        line.push_str(", clicking each cell (Tab would leave the board)");
    }
    if o.resolved > 0 {
        line.push_str(", after the page loaded a different puzzle");
    }
    out!("{line}; the page confirmed: {:?}", o.confirmation);
}

/// A phase name and how to get its time.
type Phase = (&'static str, fn(&Timings) -> Option<Duration>);

/// Phase times; a phase a puzzle did not reach shows `-` (one puzzle) or is left out of the
/// medians (n says how many reached it).
fn print_stats(session_starts: &[Duration], all: &[Timings]) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let session_start = pool::median_p90_max(session_starts.to_vec())
        .map(|(median, _, _)| median)
        .unwrap_or_default();
    let phases: [Phase; 6] = [
        ("navigation", |t| t.navigate),
        ("read", |t| t.read),
        ("solve", |t| t.solve),
        ("fill", |t| t.fill),
        ("verify", |t| t.verify),
        ("fill + verify", |t| Some(t.fill? + t.verify?)),
    ];
    if all.len() <= 1 {
        eprintln!("{:<14}{:>10.1} ms", "session start", ms(session_start));
        for (name, get) in phases {
            match all.first().and_then(get) {
                Some(v) => eprintln!("{name:<14}{:>10.1} ms", ms(v)),
                None => eprintln!("{name:<14}{:>10}    (not reached)", "-"),
            }
        }
        return;
    }
    eprintln!("{:<14}{:>10} {:>10} {:>10} {:>5}   (ms)", "phase", "median", "min", "max", "n");
    eprintln!("{:<14}{:>10.1}", "session start", ms(session_start));
    for (name, get) in phases {
        let mut v: Vec<f64> = all.iter().filter_map(get).map(ms).collect();
        if v.is_empty() {
            eprintln!("{name:<14}{:>10}", "-");
            continue;
        }
        v.sort_by(f64::total_cmp);
        let median = if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        eprintln!(
            "{name:<14}{median:>10.1} {:>10.1} {:>10.1} {:>5}",
            v[0],
            v[v.len() - 1],
            v.len()
        );
    }
}

/// `sites check --url URL --site NAME`: what each selector matches on the live page.
fn check_live(args: &CheckArgs, dir: Option<&Path>, url: &str) -> anyhow::Result<Code> {
    init_logging(0);
    check_url(url)?;
    let name = args.site.as_deref().unwrap_or("demo");
    let site = site::find(name, dir)?.site;
    let config = WebDriverConfig::load(args.config.as_deref())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let cancel: Cancel = signals::watch(on_first_signal).context("watching signals")?;
        let session = match Session::start(&config, cancel).await {
            Ok(s) => s,
            Err(SessionError::Cancelled(s)) => return Ok(code_for(s)),
            Err(e) => return Err(e.into()),
        };
        let checked = session
            .guard(evidence::check_page(session.driver(), &site, url, config.element_timeout()))
            .await;
        session.close().await;
        let lines = match checked {
            Ok(Ok(lines)) => lines,
            Ok(Err(e)) => anyhow::bail!(e),
            Err(Stop::Signal(s)) => return Ok(code_for(s)),
            Err(stop) => anyhow::bail!(stop),
        };
        let mut bad = 0;
        for l in &lines {
            bad += usize::from(!l.ok);
            out!("{:<6} {:<28} {}", if l.ok { "ok" } else { "error" }, l.key, l.found);
        }
        if bad > 0 {
            eprintln!("sudobot: {bad} selector(s) of site `{name}` do not fit {url}");
            return Ok(Code::Failure);
        }
        Ok(Code::Success)
    })
}

pub fn run_sites(args: SitesArgs) -> anyhow::Result<Code> {
    let dir = args.sites_dir.as_deref();
    match args.action {
        SitesAction::List => {
            for loaded in site::load_all(dir)? {
                let s = &loaded.site;
                let mut levels: Vec<(&String, &String)> = s.difficulty.levels.iter().collect();
                // Numeric values in order (easy before hard), names as a tie-break.
                levels.sort_by_key(|(name, value)| {
                    (value.parse::<u32>().unwrap_or(u32::MAX), (*value).clone(), (*name).clone())
                });
                let levels = if levels.is_empty() {
                    "none".to_string()
                } else {
                    levels
                        .iter()
                        .map(|(n, v)| if n == v { n.to_string() } else { format!("{n}={v}") })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                out!("{:<18} {}", s.name, s.description);
                out!(
                    "{:<18} levels: {levels} (default {}); from {}",
                    "",
                    s.difficulty.default,
                    loaded.origin
                );
            }
            Ok(Code::Success)
        }
        SitesAction::Check(check) if check.url.is_some() => {
            let url = check.url.clone().unwrap_or_default();
            check_live(&check, dir, &url)
        }
        SitesAction::Check(_) => {
            let mut bad = 0;
            for (file, result) in site::check_all(dir)? {
                match result {
                    Ok(name) => out!("ok     {file} ({name})"),
                    Err(e) => {
                        bad += 1;
                        out!("error  {e}");
                    }
                }
            }
            if bad > 0 {
                eprintln!("sudobot: {bad} site file(s) have errors");
                Ok(Code::BadInput)
            } else {
                Ok(Code::Success)
            }
        }
    }
}
