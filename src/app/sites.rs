//! `sudobot sites`: list the site files, validate them, or (`check --url`) open a live page and
//! show what each selector of a site matches there.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use sudobot::web::{Cancel, Session, SessionError, Stop, evidence, signals};
use sudobot::web::{discover, site};

use super::Code;
use super::init_logging;
use super::web::{check_url, code_for, load_config, on_first_signal, runtime};
use crate::cli::web::{CheckArgs, LearnArgs, SitesAction, SitesArgs};

/// Prints a line to stdout. A closed pipe (`sudobot sites list | head`) is not an error; any
/// other write error (a full disk) is, so that a listing is never lost with exit 0.
macro_rules! out {
    ($($arg:tt)*) => {
        match writeln!(std::io::stdout(), $($arg)*) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(anyhow::Error::new(e).context("writing to standard output"))
            }
            _ => anyhow::Ok(()),
        }
    };
}

pub fn run(args: SitesArgs) -> anyhow::Result<Code> {
    let dir = args.sites_dir.as_deref();
    match args.action {
        SitesAction::List => {
            list(dir)?;
            Ok(Code::Success)
        }
        SitesAction::Check(check) if check.url.is_some() => {
            let url = check.url.clone().unwrap_or_default();
            check_live(&check, dir, &url)
        }
        SitesAction::Check(_) => check_files(dir),
        SitesAction::Learn(learn_args) => learn(&learn_args, dir),
    }
}

/// `sites learn`: find the board on the page and write a site file for it.
fn learn(args: &LearnArgs, dir: Option<&Path>) -> anyhow::Result<Code> {
    init_logging(0);
    check_url(&args.url)?;
    let name = match &args.name {
        Some(n) => n.clone(),
        None => url::Url::parse(&args.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_else(|| "learned".into()),
    };
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        anyhow::bail!(sudobot::web::ConfigError::Invalid {
            file: "command line".into(),
            key: "--name".into(),
            message: format!("`{name}` cannot be a site file name"),
        });
    }
    let target = match (&args.output, dir) {
        (Some(path), _) => Some(path.clone()),
        (None, Some(dir)) => Some(dir.join(format!("{name}.toml"))),
        (None, None) => None,
    };
    if let Some(path) = &target
        && path.exists()
        && !args.force
    {
        eprintln!("sudobot: {} exists; --force replaces it", path.display());
        return Ok(Code::BadInput);
    }
    let mut config = load_config(args.config.as_deref(), args.browser)?;
    if args.headless {
        config.browser.headless = sudobot::web::config::Headless::Fixed(true);
    }
    let found = runtime()?.block_on(async {
        let cancel: Cancel = signals::watch(on_first_signal).context("watching signals")?;
        let session = match Session::start(&config, cancel).await {
            Ok(s) => s,
            Err(SessionError::Cancelled(s)) => return Ok(Err(code_for(s))),
            Err(e) => return Err(anyhow::Error::from(e)),
        };
        let driver = session.driver();
        let bound = config.element_timeout();
        let found = session
            .guard(async {
                driver.goto(&args.url).await.map_err(|e| {
                    format!("cannot open {}: {}", args.url, sudobot::web::error::short(&e))
                })?;
                let mut found = discover::discover(driver, &args.url, bound)
                    .await
                    .map_err(|e| e.to_string())?;
                discover::learn_variant(driver, &mut found).await;
                Ok::<_, String>(found)
            })
            .await;
        session.close().await;
        match found {
            Ok(Ok(found)) => Ok(Ok(found)),
            Ok(Err(e)) => anyhow::bail!(e),
            Err(Stop::Signal(s)) => Ok(Err(code_for(s))),
            Err(stop) => anyhow::bail!(stop),
        }
    })?;
    let found = match found {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    let mut site = found.site;
    // A marker is written only when the page proves it; otherwise every filled cell is fixed.
    let unproven = site.board.unproven().map(|u| {
        let hint = if u.hint_note.is_empty() {
            String::new()
        } else {
            format!(" ({} may mark the givens or the player's entries)", u.hint_note)
        };
        format!(
            "no given marker written: nothing on the page proves which cells are givens{hint}, \
             so the file says `unproven = true`: every filled cell is fixed, never typed into \
             or corrected; where you know a mark only the givens have, put it in [board] given \
             and drop that line"
        )
    });
    site.name = name.clone();
    site.description = format!("learned from {} by `sudobot sites learn`", args.url);
    let text = format!(
        "# Learned from {url} by `sudobot sites learn`: {why}.\n\
         # Success is only every cell read back right: put the page's own sign in\n\
         # [completion] success (a selector and its text, the title, or an alert) where you know it.\n{toml}",
        url = args.url,
        why = found.why,
        toml = site.to_toml()
    );
    // What is written must read back as a valid site.
    site::Site::parse(&format!("{name}.toml"), &text)
        .context("the learned site file does not validate (a bug)")?;
    match &target {
        Some(path) => {
            std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("sudobot: wrote {} ({})", path.display(), found.why);
        }
        None => {
            // The file is the whole point: a full disk or a closed pipe loses it, so say so.
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{text}")
                .and_then(|()| stdout.flush())
                .context("writing the site file to standard output (nothing was saved)")?;
        }
    }
    if let Some(note) = unproven {
        eprintln!("sudobot: {note}");
    }
    Ok(Code::Success)
}

/// `sites list`: each site, its levels (easy before hard) and where its file comes from.
fn list(dir: Option<&Path>) -> anyhow::Result<()> {
    let sites = site::load_all(dir)?;
    // The names' column is as wide as the longest name.
    let width = sites.iter().map(|l| l.site.name.chars().count()).max().unwrap_or(0).max(12);
    for loaded in &sites {
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
        out!("{:<width$} {}", s.name, s.description)?;
        out!(
            "{:<width$} levels: {levels} (default {}); from {}",
            "",
            s.difficulty.default,
            loaded.origin
        )?;
    }
    Ok(())
}

/// `sites check`: every site file validates, or its errors are named.
fn check_files(dir: Option<&Path>) -> anyhow::Result<Code> {
    let mut bad = 0;
    for (file, result) in site::check_all(dir)? {
        match result {
            Ok(name) => out!("ok     {file} ({name})")?,
            Err(e) => {
                bad += 1;
                out!("error  {e}")?;
            }
        }
    }
    if bad > 0 {
        eprintln!("sudobot: {bad} site file(s) have errors");
        return Ok(Code::BadInput);
    }
    Ok(Code::Success)
}

/// `sites check --url URL --site NAME`: what each selector matches on the live page.
fn check_live(args: &CheckArgs, dir: Option<&Path>, url: &str) -> anyhow::Result<Code> {
    init_logging(0);
    check_url(url)?;
    let name = args.site.as_deref().unwrap_or("demo");
    let site = site::find(name, dir)?.site;
    let config = load_config(args.config.as_deref(), args.browser)?;
    runtime()?.block_on(async {
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
            out!("{:<6} {:<28} {}", if l.ok { "ok" } else { "error" }, l.key, l.found)?;
        }
        if bad > 0 {
            eprintln!("sudobot: {bad} selector(s) of site `{name}` do not fit {url}");
            return Ok(Code::Failure);
        }
        Ok(Code::Success)
    })
}
