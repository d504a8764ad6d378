//! Runs a command and prints the CPU time it used, user plus system, in seconds with
//! microseconds: the kernel's accounting of the child, read as the change in
//! `getrusage(RUSAGE_CHILDREN)` around it. `benches/side-by-side.sh` times whole `sudobot`
//! processes with it; bash's `time` counts whole milliseconds, a step of 7% on a 14 ms run.
//!
//! ```text
//! cputime [--allow-exit CODE] OUT -- COMMAND [ARGS...]
//! ```
//!
//! COMMAND's standard output goes to the file OUT. A non-zero exit fails, unless it is the
//! `--allow-exit` code (`solve` exits 4 on a set whose puzzles all have several solutions).

use std::fs::File;
use std::process::{Command, ExitCode};

use anyhow::{Context, bail};
use nix::sys::resource::{Usage, UsageWho, getrusage};
use nix::sys::time::TimeValLike;

fn seconds(usage: &Usage) -> f64 {
    (usage.user_time().num_microseconds() + usage.system_time().num_microseconds()) as f64 / 1e6
}

fn run() -> anyhow::Result<f64> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut allowed = None;
    if args.first().map(String::as_str) == Some("--allow-exit") {
        let code = args.get(1).and_then(|c| c.parse::<i32>().ok());
        allowed = Some(code.context("--allow-exit takes an exit code")?);
        args.drain(..2);
    }
    let (Some(out), Some("--"), Some((program, rest))) = (
        args.first(),
        args.get(1).map(String::as_str),
        args.get(2..).and_then(|a| a.split_first()),
    ) else {
        bail!("usage: cputime [--allow-exit CODE] OUT -- COMMAND [ARGS...]");
    };
    let file = File::create(out).with_context(|| format!("creating {out}"))?;
    let before = getrusage(UsageWho::RUSAGE_CHILDREN).context("getrusage")?;
    let status = Command::new(program)
        .args(rest)
        .stdout(file)
        .status()
        .with_context(|| format!("running {program}"))?;
    let after = getrusage(UsageWho::RUSAGE_CHILDREN).context("getrusage")?;
    if !status.success() && (allowed.is_none() || status.code() != allowed) {
        bail!("{program} failed: {status}");
    }
    Ok(seconds(&after) - seconds(&before))
}

fn main() -> ExitCode {
    match run() {
        Ok(seconds) => {
            println!("{seconds:.6}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cputime: {e:#}");
            ExitCode::FAILURE
        }
    }
}
