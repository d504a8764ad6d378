//! The `sudobot` binary: parse arguments, run the library, map the outcome to an exit code.

mod app;
mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse_args();
    app::run(cli)
}
