//! `sudobot web` and `sudobot sites`: turn the flags and files into library configuration, run
//! the session (with Ctrl-C and every error path quitting the browser and stopping the driver),
//! and report progress, results and phase times.

use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sudobot::format;
use sudobot::web::config::{DriverMode, Headless};
use sudobot::web::demo::DemoServer;
use sudobot::web::site::{self, Served, Strategy};
use sudobot::web::{Outcome, PlayError, PlayOptions, Session, Timings, WebDriverConfig};

use super::Code;
use crate::cli::web::{SitesAction, SitesArgs, WebArgs};

pub fn run(args: WebArgs) -> anyhow::Result<Code> {
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
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(run_async(args, config, site, difficulty))
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
    Ok(config)
}

async fn run_async(
    args: WebArgs,
    config: WebDriverConfig,
    site: sudobot::web::Site,
    difficulty: String,
) -> anyhow::Result<Code> {
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

    let started = Instant::now();
    let session = tokio::select! {
        s = Session::start(&config) => s?,
        _ = tokio::signal::ctrl_c() => {
            eprintln!("sudobot: interrupted");
            return Ok(Code::Interrupted);
        }
    };
    let session_start = started.elapsed();
    let options =
        PlayOptions { url, dry_run: args.dry_run, element_timeout: config.element_timeout() };

    let outcome = tokio::select! {
        r = play_all(&session, &site, &options, &args) => Some(r),
        _ = tokio::signal::ctrl_c() => None,
    };
    session.close().await;
    drop(demo);
    let Some(results) = outcome else {
        eprintln!("sudobot: interrupted; browser closed");
        return Ok(Code::Interrupted);
    };
    report(&args, session_start, &results)
}

async fn play_all(
    session: &Session,
    site: &sudobot::web::Site,
    options: &PlayOptions,
    args: &WebArgs,
) -> Vec<Result<Outcome, PlayError>> {
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
    let mut results = Vec::with_capacity(count);
    let mut failed = 0;
    for n in 1..=count {
        let result = sudobot::web::play(session.driver(), site, options).await;
        if let Err(e) = &result {
            failed += 1;
            if let Some(b) = &bar {
                b.println(format!("sudobot: puzzle {n}: {e}"));
            }
        }
        if let Some(b) = &bar {
            b.set_message(format!("{failed} failed"));
            b.inc(1);
        }
        results.push(result);
    }
    if let Some(b) = bar {
        b.finish();
    }
    results
}

fn report(
    args: &WebArgs,
    session_start: Duration,
    results: &[Result<Outcome, PlayError>],
) -> anyhow::Result<Code> {
    let ok: Vec<&Outcome> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    if results.len() == 1 {
        match &results[0] {
            Ok(o) => print_outcome(args, o),
            Err(e) => {
                eprintln!("sudobot: {e}");
            }
        }
    } else {
        println!("{} of {} puzzles solved and confirmed", ok.len(), results.len());
    }
    if args.stats {
        print_stats(session_start, &ok);
    }
    Ok(match results {
        [Ok(_)] => Code::Success,
        [Err(PlayError::Invalid(_)) | Err(PlayError::Unsolvable)] => Code::NoSolution,
        [Err(PlayError::Multiple)] => Code::Multiple,
        _ if ok.len() == results.len() => Code::Success,
        _ => Code::Failure,
    })
}

fn print_outcome(args: &WebArgs, o: &Outcome) {
    if args.dry_run {
        println!("board:\n{}", format::pretty::write(&o.puzzle));
        println!("answer:\n{}", format::pretty::write(&o.solution));
        println!(
            "dry run: {} cells would be typed ({} wrong values would be corrected)",
            o.typed, o.corrected
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
    println!("{line}; the page confirmed: {:?}", o.confirmation);
}

/// A phase name and how to get its time.
type Phase = (&'static str, fn(&Timings) -> Duration);

fn print_stats(session_start: Duration, ok: &[&Outcome]) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let phases: [Phase; 5] = [
        ("navigation", |t| t.navigate),
        ("read", |t| t.read),
        ("solve", |t| t.solve),
        ("fill", |t| t.fill),
        ("verify", |t| t.verify),
    ];
    if ok.len() <= 1 {
        eprintln!("{:<14}{:>10.1} ms", "session start", ms(session_start));
        for (name, get) in phases {
            let v = ok.first().map(|o| ms(get(&o.timings))).unwrap_or(0.0);
            eprintln!("{name:<14}{v:>10.1} ms");
        }
        if let Some(o) = ok.first() {
            eprintln!("{:<14}{:>10.1} ms", "fill + verify", ms(o.timings.fill + o.timings.verify));
        }
        return;
    }
    eprintln!(
        "{:<14}{:>10} {:>10} {:>10}   (n = {}, ms)",
        "phase",
        "median",
        "min",
        "max",
        ok.len()
    );
    eprintln!("{:<14}{:>10.1}", "session start", ms(session_start));
    let mut rows: Vec<(&str, Vec<f64>)> = phases
        .iter()
        .map(|(name, get)| (*name, ok.iter().map(|o| ms(get(&o.timings))).collect()))
        .collect();
    rows.push((
        "fill + verify",
        ok.iter().map(|o| ms(o.timings.fill + o.timings.verify)).collect(),
    ));
    for (name, mut v) in rows {
        v.sort_by(f64::total_cmp);
        let median = if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        eprintln!("{name:<14}{median:>10.1} {:>10.1} {:>10.1}", v[0], v[v.len() - 1]);
    }
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
                println!("{:<18} {}", s.name, s.description);
                println!(
                    "{:<18} levels: {levels} (default {}); from {}",
                    "", s.difficulty.default, loaded.origin
                );
            }
            Ok(Code::Success)
        }
        SitesAction::Check => {
            let mut bad = 0;
            for (file, result) in site::check_all(dir)? {
                match result {
                    Ok(name) => println!("ok     {file} ({name})"),
                    Err(e) => {
                        bad += 1;
                        println!("error  {e}");
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
