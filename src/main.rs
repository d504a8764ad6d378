//! The `sudobot` binary: parse arguments, run the library, map the outcome to an exit code.

mod app;
mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    app::run(cli)
}
