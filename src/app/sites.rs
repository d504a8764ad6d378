//! `sudobot sites`: list the site files, validate them, or (`check --url`) open a live page and
//! show what each selector of a site matches there.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use sudobot::web::site;
use sudobot::web::{Cancel, Session, SessionError, Stop, WebDriverConfig, evidence, signals};

use super::Code;
use super::init_logging;
use super::web::{check_url, code_for, on_first_signal};
use crate::cli::web::{CheckArgs, SitesAction, SitesArgs};

/// Prints to stdout; a closed pipe (`sudobot sites list | head`) is not an error.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
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
    }
}

/// `sites list`: each site, its levels (easy before hard) and where its file comes from.
fn list(dir: Option<&Path>) -> anyhow::Result<()> {
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
    Ok(())
}

/// `sites check`: every site file validates, or its errors are named.
fn check_files(dir: Option<&Path>) -> anyhow::Result<Code> {
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
