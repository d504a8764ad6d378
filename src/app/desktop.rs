//! `sudobot desktop`: builds the bot's options from the command line, connects to the display
//! and runs the automatic or the interactive mode.

use std::time::Duration;

use sudobot::desktop::{self, DesktopError, Input, MouseGrid, Options, Platform, Report};

use super::Code;
use crate::cli::desktop::{DesktopArgs, InputArg, PlatformArg};

pub fn run(args: DesktopArgs) -> anyhow::Result<Code> {
    let opts = options(&args)?;
    if args.auto {
        return run_auto(&args, &opts);
    }
    interactive::run(&args, opts)
}

fn options(args: &DesktopArgs) -> anyhow::Result<Options> {
    let input = match args.input {
        InputArg::Keyboard => Input::Keyboard,
        InputArg::Mouse => match (args.origin, args.step) {
            (Some(origin), Some(step)) if step > 0.0 => {
                Input::Mouse(Some(MouseGrid { origin, step }))
            }
            (Some(_), Some(step)) => anyhow::bail!("--step must be positive, got {step}"),
            (None, None) => Input::Mouse(None),
            _ => anyhow::bail!("--origin and --step go together"),
        },
    };
    Ok(Options {
        platform: match args.platform {
            Some(PlatformArg::Gtk) => Platform::Gtk,
            Some(PlatformArg::Windows) => Platform::Windows,
            None => Platform::native(),
        },
        input,
        key_delay: Duration::from_millis(args.key_delay),
        timeout: Duration::from_millis(args.timeout.max(1)),
        show_thinking: args.show_thinking,
        step_delay: Duration::from_millis(args.step_delay),
        stop_after: args.stop_after,
        ..Options::default()
    })
}

fn run_auto(args: &DesktopArgs, opts: &Options) -> anyhow::Result<Code> {
    let mut screen = connect(&args.window)?;
    match desktop::run_auto(&mut screen, opts) {
        Ok(report) => {
            print_outcome(&report, args.stats);
            Ok(Code::Success)
        }
        Err(e) => error_code(e),
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
fn connect(title: &str) -> anyhow::Result<desktop::x11::X11Desktop> {
    Ok(desktop::x11::X11Desktop::connect(title)?)
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn connect(_title: &str) -> anyhow::Result<std::convert::Infallible> {
    anyhow::bail!("`sudobot desktop` drives X11 only in this build")
}

/// Maps solver outcomes to their exit codes; other errors go up to `classify`.
fn error_code(e: DesktopError) -> anyhow::Result<Code> {
    let code = match &e {
        DesktopError::Unsolvable => Code::NoSolution,
        DesktopError::Multiple => Code::Multiple,
        DesktopError::Aborted => Code::Interrupted,
        DesktopError::Killer { .. }
        | DesktopError::Invalid(_)
        | DesktopError::BadPuzzle(_)
        | DesktopError::BadGameId { .. } => Code::BadInput,
        _ => return Err(e.into()),
    };
    eprintln!("sudobot: {e}");
    Ok(code)
}

fn print_outcome(report: &Report, stats: bool) {
    let confirmed = if report.verified {
        "solved and confirmed by copying the board back"
    } else {
        "typed (not verified)"
    };
    println!(
        "{} ({}x{}): {} value(s) typed, {} corrected; {confirmed}",
        report.params, report.side, report.side, report.typed, report.corrected
    );
    if stats {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "stats: read {:.0} ms, solve {:.1} ms, type {:.0} ms ({} actions), verify {:.0} ms, total {:.0} ms",
            ms(report.read),
            ms(report.solve),
            ms(report.typing),
            report.actions,
            ms(report.verify),
            ms(report.total())
        );
    }
}

mod interactive {
    //! The hotkey mode (not built yet in this step).
    use super::*;

    pub fn run(_args: &DesktopArgs, _opts: Options) -> anyhow::Result<Code> {
        anyhow::bail!("interactive mode is not built yet; use --auto")
    }
}
