//! Runs a parsed command line and maps results and errors to exit codes.

mod desktop;
mod docs;
mod explain;
mod grade;
mod hint;
mod logic_input;
mod progress;
mod sites;
mod solve;
mod web;

use std::process::ExitCode;

use crate::cli::{Cli, Command};

/// Exit codes, documented in `--help`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Solved (and, for the bots, confirmed).
    Success = 0,
    /// A runtime failure: browser, game window, I/O, verification.
    Failure = 1,
    /// Bad input or configuration (also clap's usage errors).
    BadInput = 2,
    /// The puzzle has no solution.
    NoSolution = 3,
    /// The puzzle has several solutions.
    Multiple = 4,
    /// The search went past its budget (`--max-time`).
    GaveUp = 5,
    /// Interrupted by Ctrl-C.
    Interrupted = 130,
    /// Stopped by SIGTERM.
    Terminated = 143,
    /// Stopped by SIGHUP.
    HungUp = 129,
}

impl Code {
    /// Every code, in the order `--help` lists them.
    #[cfg(test)]
    const ALL: [Code; 9] = [
        Code::Success,
        Code::Failure,
        Code::BadInput,
        Code::NoSolution,
        Code::Multiple,
        Code::GaveUp,
        Code::HungUp,
        Code::Interrupted,
        Code::Terminated,
    ];
}

/// Runs the command and returns the process exit code, printing any error as `sudobot: ...`.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Web(args) => web::run(*args),
        Command::Sites(args) => sites::run(args),
        Command::Desktop(args) => desktop::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Hint(args) => hint::run(args),
        Command::Completions(args) => docs::completions(args),
        Command::Man(args) => docs::man(args),
    };
    let code = match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("sudobot: {err:#}");
            classify(&err)
        }
    };
    ExitCode::from(code as u8)
}

/// Logs to standard error through `tracing` (the web and desktop bots): `-v` sudobot's steps
/// (and each WebDriver command with its duration), `-vv` everything; `RUST_LOG` overrides.
pub fn init_logging(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let default = match verbose {
        0 => "sudobot=warn",
        1 => "sudobot=debug",
        _ => "sudobot=trace,thirtyfour=debug,hyper=info",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour only on a terminal: a log file gets plain WARN lines, not escape codes.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(verbose > 1)
        .try_init();
}

/// The library format of a `--format` value.
pub fn input_format(f: crate::cli::solve::InputFormat) -> sudobot::format::Format {
    use crate::cli::solve::InputFormat;
    use sudobot::format::Format;
    match f {
        InputFormat::Line => Format::Line,
        InputFormat::SoloText => Format::SoloText,
        InputFormat::SoloId => Format::SoloId,
        InputFormat::Pretty => Format::Pretty,
        InputFormat::Cages => Format::Cages,
    }
}

/// The exit code for an error: bad input when any cause is an input error, else failure.
fn classify(err: &anyhow::Error) -> Code {
    for cause in err.chain() {
        if cause.is::<sudobot::format::ParseError>() || cause.is::<sudobot::grid::GridError>() {
            return Code::BadInput;
        }
        // Empty or unreadable puzzle input (a missing file), options that do not fit the format.
        if cause.is::<sudobot::format::InputError>() {
            return Code::BadInput;
        }
        // Givens of grade, explain or hint that break a rule.
        if let Some(sudobot::logic::LogicError::Invalid(_)) = cause.downcast_ref() {
            return Code::BadInput;
        }
        // A site file or webdriver.toml that does not validate.
        if cause.is::<sudobot::web::SiteError>() || cause.is::<sudobot::web::ConfigError>() {
            return Code::BadInput;
        }
        // `--attach` with no browser listening, `--profile` held by a running browser.
        if let Some(
            sudobot::web::SessionError::NoBrowser { .. } | sudobot::web::SessionError::Profile(_),
        ) = cause.downcast_ref()
        {
            return Code::BadInput;
        }
    }
    Code::Failure
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Code;
    use crate::cli::{AFTER_HELP, Cli};

    /// The exit codes are defined here once; the help texts that list them must not drift from
    /// it (the top-level table once missed 129 and 143).
    #[test]
    fn every_exit_code_is_in_the_help() {
        let table = AFTER_HELP.split("Exit codes").nth(1).expect("an exit code table");
        let listed: Vec<u8> =
            table.lines().filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect();
        let all: Vec<u8> = Code::ALL.iter().map(|&c| c as u8).collect();
        assert_eq!(listed, all, "{table}");
        // The bots stop on signals: their own help names the three codes.
        for bot in ["web", "desktop"] {
            let mut cli = Cli::command();
            let help = cli.find_subcommand_mut(bot).expect(bot).render_long_help().to_string();
            let words: Vec<&str> = help.split_whitespace().collect();
            for code in [Code::HungUp, Code::Interrupted, Code::Terminated] {
                let n = (code as u8).to_string();
                assert!(words.contains(&n.as_str()), "{bot}: {code:?}\n{help}");
            }
        }
    }
}
