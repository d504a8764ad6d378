//! `sudobot web`: the flags and files become one run configuration ([`WebRun`], built once);
//! the run is the library's session pool (one session and no retry without `--parallel`); the
//! pool's events are drawn as progress and written to the report ([`Progress`]); then one
//! summary and one exit code.

use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

use anyhow::Context;
use sudobot::logic::Scale;
use sudobot::web::attach::TabChoice;
use sudobot::web::config::{ConfigError, DriverMode, Headless};
use sudobot::web::demo::DemoServer;
use sudobot::web::grid;
use sudobot::web::login::Session as LoginSession;
use sudobot::web::pool::{self, Attempt, Event, Failure, PoolOptions, PoolRun};
use sudobot::web::site::{self, Served, Strategy, Success};
use sudobot::web::variant::VariantSpec;
use sudobot::web::{
    Browser, Discover, FailureKind, Hint, Locate, Mode as PlayMode, Outcome, PlayError,
    PlayOptions, Signal, Site, Thinking, Timings, WebDriverConfig, signals,
};

use super::logic_input::scale;
use super::{Code, init_logging};
use crate::cli::hint::Reveal;
use crate::cli::web::{BrowserArg, Parallel, StrategyArg, TabArg, WebArgs};

/// Prints to stdout; a closed pipe (`sudobot web ... | head`) is not an error.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod events;
mod print;

use events::{Progress, Report};

pub fn run(args: WebArgs) -> anyhow::Result<Code> {
    init_logging(args.verbose);
    let run = WebRun::from_args(args)?;
    runtime()?.block_on(run.play())
}

/// The single-threaded async runtime a command that drives a browser runs on.
pub(super) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// `--url` must be an http(s) or file URL: checked before any browser starts.
pub(super) fn check_url(url: &str) -> Result<(), ConfigError> {
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

pub(super) fn code_for(signal: Signal) -> Code {
    match signal {
        Signal::Interrupt => Code::Interrupted,
        Signal::Terminate => Code::Terminated,
        Signal::HangUp => Code::HungUp,
    }
}

pub(super) fn on_first_signal(signal: Signal) {
    let again = if signal == Signal::Interrupt { "Ctrl-C" } else { "a second signal" };
    eprintln!("sudobot: {}: stopping the browser ({again} exits at once)", signal.name());
}

/// What the run does with each board it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Type the answer and wait for the page to confirm it.
    Solve,
    /// `--dry-run`: read and solve; type nothing.
    DryRun,
    /// `--hint`: read and give the next step; type nothing.
    Hint(Reveal),
    /// `--show-thinking`: type in the engine's order with this pause after each cell.
    Thinking(Duration),
}

/// `sudobot web`, built once from the flags and files: nothing after it reads the flags.
struct WebRun {
    config: WebDriverConfig,
    /// The site file (`None`: `--url` alone, the board found on the page).
    site: Option<Site>,
    difficulty: String,
    /// `--url`: the page to open instead of the site's own.
    url: Option<String>,
    count: usize,
    /// `--parallel` (`None`: one session, no retry).
    parallel: Option<Parallel>,
    oversubscribe: bool,
    mode: Mode,
    scale: Scale,
    stats: bool,
    verbose: bool,
    report: Option<Report>,
    /// Where failures keep their evidence (`None`: `--no-debug-files`).
    evidence_dir: Option<PathBuf>,
    /// Board discovery as a fallback, or off (a page with no site is always discovered).
    discover: Discover,
    /// `--success-text`/`--success-selector`.
    success: Option<Success>,
    /// `--browser` was given (else a Grid's nodes may choose it).
    browser_given: bool,
}

/// `--success-text` and `--success-selector` as a success marker (checked like a site file's).
fn success_marker(
    text: Option<&str>,
    selector: Option<&str>,
) -> Result<Option<Success>, ConfigError> {
    let bad = |key: &str, message: String| ConfigError::Invalid {
        file: "command line".into(),
        key: key.into(),
        message,
    };
    if let Some(sel) = selector
        && let Err(e) = scraper::Selector::parse(sel)
    {
        return Err(bad("--success-selector", format!("`{sel}` is not a valid CSS selector: {e}")));
    }
    if text.is_some_and(|t| t.trim().is_empty()) {
        return Err(bad("--success-text", "is empty".into()));
    }
    Ok(match (text, selector) {
        (None, None) => None,
        (text, Some(sel)) => Some(Success {
            selector: Some(sel.to_string()),
            text: text.unwrap_or("").to_string(),
            ..Success::default()
        }),
        (Some(text), None) => {
            Some(Success { title: true, text: text.to_string(), ..Success::default() })
        }
    })
}

/// `--variant`: makes `site` play `spec`; refused (before any browser starts) where it cannot be
/// honoured: a page found by `--url` alone.
fn variant_for(site: Option<&mut site::Site>, spec: VariantSpec) -> Result<(), ConfigError> {
    let refuse = |message: String| ConfigError::Invalid {
        file: "command line".into(),
        key: "--variant".into(),
        message,
    };
    match site {
        Some(site) => {
            sudobot::web::variant::choose(site, spec);
            Ok(())
        }
        None if !matches!(spec, VariantSpec::Auto | VariantSpec::Classic) => Err(refuse(format!(
            "`{}` needs --site: a page found by --url alone is played as the variant its marks \
             show (-v says which)",
            spec.name()
        ))),
        None => Ok(()),
    }
}

impl WebRun {
    fn from_args(args: WebArgs) -> anyhow::Result<WebRun> {
        let config = build_config(&args)?;
        if args.parallel.is_some()
            && (config.browser.attach.is_some() || config.browser.profile.is_some())
        {
            return Err(ConfigError::Invalid {
                file: "command line".into(),
                key: "--parallel".into(),
                message: "one browser plays with --attach or --profile (a profile is one \
                          browser's at a time)"
                    .into(),
            }
            .into());
        }
        // `--url` alone: any page, the board found on it. Else the site (default: the demo).
        let discover = if args.no_discover { Discover::Off } else { Discover::Fallback };
        let mut site = match (&args.site, &args.url) {
            (None, Some(_)) => None,
            (name, _) => {
                Some(site::find(name.as_deref().unwrap_or("demo"), args.sites_dir.as_deref())?.site)
            }
        };
        if let Some(spec) = args.variant.as_deref().and_then(VariantSpec::parse) {
            variant_for(site.as_mut(), spec)?;
        }
        if let (Some(site), Some(s)) = (&mut site, args.strategy) {
            site.fill.strategy = strategy(s);
        }
        let success =
            success_marker(args.success_text.as_deref(), args.success_selector.as_deref())?;
        if let (Some(site), Some(success)) = (&mut site, &success) {
            site.completion.success = success.clone();
        }
        let difficulty = match &site {
            Some(site) => site.difficulty_value(args.difficulty.as_deref())?,
            None => args.difficulty.clone().unwrap_or_default(),
        };
        if let Some(url) = &args.url {
            check_url(url)?;
        }
        let report = args.report.map(Report::open).transpose()?;
        let mode = match () {
            _ if args.hint => Mode::Hint(args.reveal),
            _ if args.dry_run => Mode::DryRun,
            _ if args.show_thinking => Mode::Thinking(Duration::from_millis(args.step_delay)),
            _ => Mode::Solve,
        };
        Ok(WebRun {
            config,
            site,
            difficulty,
            url: args.url,
            count: args.count as usize,
            parallel: args.parallel,
            oversubscribe: args.oversubscribe,
            mode,
            scale: scale(args.scale),
            stats: args.stats,
            verbose: args.verbose > 0,
            report,
            evidence_dir: (!args.no_debug_files)
                .then(|| args.debug_dir.unwrap_or_else(std::env::temp_dir)),
            discover,
            success,
            browser_given: args.browser.is_some(),
        })
    }

    /// What to do on each page.
    fn play_options(&self, url: String) -> PlayOptions {
        PlayOptions {
            url,
            mode: match self.mode {
                Mode::Solve => PlayMode::Solve,
                Mode::DryRun => PlayMode::DryRun,
                Mode::Hint(_) => PlayMode::Hint(self.scale),
                Mode::Thinking(step_delay) => PlayMode::Thinking(Thinking {
                    scale: self.scale,
                    step_delay,
                    tell: std::sync::Arc::new(|text: &str| out!("{text}")),
                }),
            },
            element_timeout: self.config.element_timeout(),
            page_load_timeout: Duration::from_millis(self.config.browser.page_load_timeout_ms),
            // A remote driver cannot be killed: small chunks bound what a cancelled run types.
            // An attached browser outlives its driver and would go on with the keys already
            // handed to it: smaller chunks still.
            chunk: match (self.config.driver.mode, &self.config.browser.attach) {
                (_, Some(_)) => 3,
                (DriverMode::Remote, None) => 9,
                (DriverMode::Local, None) => 0,
            },
            discover: self.discover,
            success: self.success.clone(),
            login: match (&self.config.browser.attach, &self.config.browser.profile) {
                (Some(_), _) => LoginSession::Attached,
                (None, Some(dir)) => LoginSession::Profile {
                    dir: dir.clone(),
                    open: sudobot::web::profile::open_command(self.config.browser(), dir),
                },
                (None, None) => LoginSession::Fresh,
            },
        }
    }

    /// Serves the demo page when needed, runs the pool, says how it went.
    async fn play(mut self) -> anyhow::Result<Code> {
        let cancel = signals::watch(on_first_signal).context("watching signals")?;
        // The demo site is served here unless --url points elsewhere.
        let demo = match (self.site.as_ref().and_then(|s| s.serve), &self.url) {
            (Some(Served::Demo), None) => {
                Some(DemoServer::start().await.context("starting the demo server")?)
            }
            _ => None,
        };
        let url = match &self.url {
            Some(u) => u.clone(),
            None => {
                let origin = demo.as_ref().map(|d| d.origin());
                // Without `--url` there is a site (the demo by default).
                self.site.as_ref().map(|s| s.url_for(&self.difficulty, origin.as_deref()))
            }
            .unwrap_or_default(),
        };
        let options = self.play_options(url);
        let (sessions, grid_url, grid_browser) = match self.pool_size().await {
            Ok(k) => k,
            Err(code) => return Ok(code),
        };
        if let Some(browser) = grid_browser {
            eprintln!("sudobot: the Grid's nodes offer {browser} only: using --browser {browser}");
            self.config.browser.kind = browser;
        }
        if self.parallel.is_some() {
            let at = if self.remote() { "remote" } else { "local" };
            eprintln!("sudobot: {} puzzle(s) over {sessions} {at} session(s)", self.count);
        }
        let progress = Rc::new(Progress::new(&mut self, sessions, &options));
        let pool_options = PoolOptions {
            sessions,
            count: self.count,
            retry: self.parallel.is_some(),
            evidence_dir: self.evidence_dir.clone(),
            grid_url,
        };
        let on_event = {
            let progress = Rc::clone(&progress);
            move |event: &Event<'_>| progress.on_event(event)
        };
        let locate = match &self.site {
            Some(site) => Locate::Site(Box::new(site.clone())),
            None => Locate::Discover,
        };
        let config = self.config.clone();
        let run =
            pool::run(config, locate, options, pool_options, cancel, Box::new(on_event)).await;
        progress.finish();
        drop(demo);
        self.conclude(run, sessions, &progress)
    }

    /// Whether success is every cell read back right (no confirmation from the page is known):
    /// the site's rule, or for a discovered board `--success-*` or nothing.
    fn read_back(&self) -> bool {
        match &self.site {
            Some(site) => site.completion.success.read_back,
            None => self.success.as_ref().is_none_or(|s| s.read_back),
        }
    }

    fn remote(&self) -> bool {
        self.config.driver.mode == DriverMode::Remote
    }

    /// How many sessions the run uses (1 without `--parallel`), the Grid to watch and the
    /// browser its nodes offer when `--browser` was not given and they do not offer the
    /// configured one, after asking a Grid for its slots; `Err(code)` when it cannot run at all
    /// (no free slot).
    async fn pool_size(&self) -> Result<(usize, Option<String>, Option<Browser>), Code> {
        let Some(asked) = self.parallel else {
            return Ok((1, None, None));
        };
        if !self.remote() {
            let k = match asked {
                Parallel::Auto => pool::default_local_sessions(),
                Parallel::Sessions(k) => k,
            };
            return Ok((k.min(self.count), None, None));
        }
        let url = self.config.driver.url.clone().unwrap_or_default();
        let url = url.trim_end_matches('/').to_string();
        let Some(status) = grid_status(&url).await else {
            // Not a Grid (a plain WebDriver server), or unreachable: the session start says why.
            let k = match asked {
                Parallel::Auto => 1,
                Parallel::Sessions(k) => k,
            };
            return Ok((k.min(self.count), None, None));
        };
        let browser = if self.browser_given { None } else { grid_browser(&status, &self.config) };
        let free = status.free();
        let k = match asked {
            Parallel::Auto if self.oversubscribe => status.slots().max(1),
            Parallel::Sessions(k) if self.oversubscribe => k,
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
        Ok((k.min(self.count), Some(url), browser))
    }

    /// After the pool: the signal, a start error, or the summary and the exit code.
    fn conclude(
        &self,
        mut run: PoolRun,
        sessions: usize,
        progress: &Progress,
    ) -> anyhow::Result<Code> {
        if run.swept > 0 {
            eprintln!(
                "sudobot: deleted {} Grid session(s) of this run that were still being created",
                run.swept
            );
        }
        if let Some(signal) = run.signal {
            let stopped =
                if sessions > 1 { "every browser session stopped" } else { "browser stopped" };
            eprintln!("sudobot: interrupted by {}; {stopped}", signal.name());
            return Ok(code_for(signal));
        }
        if run.session_starts.is_empty() && !run.start_errors.is_empty() {
            return Err(run.start_errors.swap_remove(0).into());
        }
        self.summarize(&run, sessions);
        if self.stats {
            let timings: Vec<Timings> = run.finished.iter().map(|a| a.timings).collect();
            print::stats(&run.session_starts, &timings);
        }
        let code = exit_code(&run.finished, self.count);
        Ok(match progress.report_failed() {
            true if code == Code::Success => Code::Failure,
            _ => code,
        })
    }

    /// The outcome of a lone puzzle (or of each, when nothing was typed), then the summary: one
    /// line for several puzzles, and with `--parallel` throughput, fill times and failures.
    fn summarize(&self, run: &PoolRun, sessions: usize) {
        let mut finished: Vec<&Attempt> = run.finished.iter().collect();
        finished.sort_by_key(|a| a.puzzle);
        for a in &finished {
            if let Ok(o) = &a.result
                && (self.count == 1 || !matches!(self.mode, Mode::Solve | Mode::Thinking(_)))
            {
                if self.count > 1 {
                    out!("puzzle {}:", a.puzzle);
                }
                print::outcome(self.mode, o);
            }
        }
        if self.count == 1 && self.parallel.is_none() {
            return;
        }
        let summary = pool::summarize(&run.finished, run.elapsed);
        let what = match self.mode {
            Mode::Solve | Mode::Thinking(_) if self.read_back() => {
                "solved and read back (no confirmation from the page is known)"
            }
            Mode::Solve | Mode::Thinking(_) => "solved and confirmed",
            Mode::DryRun => "solved (dry run: nothing typed)",
            Mode::Hint(_) => "read and given a hint (nothing typed)",
        };
        let (solved, count) = (summary.solved, self.count);
        if self.parallel.is_none() {
            out!("{solved} of {count} puzzles {what}");
            return;
        }
        let (took, rate) = (run.elapsed.as_secs_f64(), summary.per_minute);
        out!(
            "{solved} of {count} puzzles {what} over {sessions} session(s) in {took:.1} s: \
             {rate:.1} puzzles/min"
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
            let kinds = by_kind(&pool::retries_by_kind(&run.finished));
            out!("retried on a fresh session: {} ({kinds})", run.retried);
        }
        match pool::failures_by_kind(&run.finished) {
            failures if failures.is_empty() => out!("failures: none"),
            failures => out!("failures by reason: {}", by_kind(&failures)),
        }
    }
}

/// A Grid's status, after deleting the sessions that killed runs on this host left; `None`
/// for a plain WebDriver server or one that does not answer.
async fn grid_status(url: &str) -> Option<grid::GridStatus> {
    let bound = Duration::from_secs(5);
    let status = match grid::status(url, bound).await {
        Ok(Some(status)) => status,
        Ok(None) => return None,
        Err(e) => {
            tracing::debug!("no Grid status: {e}");
            return None;
        }
    };
    let stale = grid::sweep(url, Duration::from_secs(3), grid::is_stale).await;
    let status = if stale.is_empty() {
        status
    } else {
        eprintln!(
            "sudobot: deleted {} Grid session(s) left by earlier runs that were killed",
            stale.len()
        );
        grid::status(url, bound).await.ok().flatten().unwrap_or(status)
    };
    eprintln!("sudobot: Selenium Grid at {url}: {}", status.describe());
    Some(status)
}

/// The browser a Grid's nodes offer when they do not offer the configured one and offer exactly
/// one that sudobot drives.
fn grid_browser(status: &grid::GridStatus, config: &WebDriverConfig) -> Option<Browser> {
    let mut offered: Vec<Browser> =
        status.browsers().into_iter().filter_map(Browser::from_name).collect();
    offered.dedup();
    match offered.as_slice() {
        [one] if *one != config.browser() => Some(*one),
        _ => None,
    }
}

/// The exit code of a run: a lone puzzle's own (its board's problem, a mistake found by
/// `--hint`); for several, success only when every one succeeded.
fn exit_code(finished: &[Attempt], count: usize) -> Code {
    let solved = finished.iter().filter(|a| a.result.is_ok()).count();
    match finished {
        [a] if count == 1 => match &a.result {
            Ok(Outcome { hint: Some(Hint::Mistakes(_)), .. }) => Code::NoSolution,
            Ok(_) => Code::Success,
            Err(Failure::Play(
                PlayError::Invalid(_) | PlayError::Unsolvable | PlayError::Mistakes { .. },
            )) => Code::NoSolution,
            Err(Failure::Play(PlayError::Multiple { .. })) => Code::Multiple,
            Err(_) => Code::Failure,
        },
        _ if solved == count => Code::Success,
        _ => Code::Failure,
    }
}

/// `kind: n, kind: n`.
fn by_kind(counts: &[(FailureKind, usize)]) -> String {
    counts.iter().map(|(k, n)| format!("{k}: {n}")).collect::<Vec<_>>().join(", ")
}

/// The library's browser for `--browser`.
/// `--strategy` as the site file's [`Strategy`].
fn strategy(arg: StrategyArg) -> Strategy {
    match arg {
        StrategyArg::Keys => Strategy::Keys,
        StrategyArg::Actions => Strategy::Actions,
        StrategyArg::PerCell => Strategy::PerCell,
        StrategyArg::Script => Strategy::Script,
        StrategyArg::Click => Strategy::Click,
    }
}

fn browser(arg: BrowserArg) -> Browser {
    match arg {
        BrowserArg::Chromium => Browser::Chromium,
        BrowserArg::Firefox => Browser::Firefox,
    }
}

/// `webdriver.toml` (the given file, or the built-in one) with `--browser` applied.
pub(super) fn load_config(
    path: Option<&std::path::Path>,
    browser_arg: Option<BrowserArg>,
) -> anyhow::Result<WebDriverConfig> {
    let mut config = WebDriverConfig::load(path)?;
    if let Some(b) = browser_arg {
        config.browser.kind = browser(b);
    }
    Ok(config)
}

fn build_config(args: &WebArgs) -> anyhow::Result<WebDriverConfig> {
    let mut config = load_config(args.config.as_deref(), args.browser)?;
    if args.headed {
        config.browser.headless = Headless::Fixed(false);
    }
    if args.headless {
        config.browser.headless = Headless::Fixed(true);
    }
    if let Some(d) = &args.driver {
        config.driver.mode = DriverMode::Local;
        config.driver.driver_binary = Some(d.display().to_string());
    }
    if let Some(url) = &args.remote {
        config.driver.mode = DriverMode::Remote;
        config.driver.url = Some(url.clone());
    }
    if let Some(b) = &args.browser_binary {
        config.browser.binary = Some(b.display().to_string());
    }
    if let Some(at) = &args.attach {
        config.browser.attach = Some(at.clone());
        config.browser.profile = None;
        if config.driver.mode == DriverMode::Remote && args.remote.is_none() {
            // The file's remote URL gives way to the browser named on the command line.
            config.driver.mode = DriverMode::Local;
        }
    }
    if let Some(tab) = args.tab {
        config.browser.tab = match tab {
            TabArg::New => TabChoice::New,
            TabArg::Current => TabChoice::Current,
        };
    }
    if let Some(dir) = &args.profile {
        config.browser.profile = Some(dir.clone());
        config.browser.attach = None;
    }
    config.validate("command line")?;
    check_display(&config, args.headed)?;
    Ok(config)
}

/// A local headed browser needs a display.
fn check_display(config: &WebDriverConfig, flag: bool) -> Result<(), ConfigError> {
    let set = |v: &str| std::env::var_os(v).is_some_and(|v| !v.is_empty());
    if config.driver.mode == DriverMode::Local
        && config.browser.attach.is_none()
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
