//! `sudobot solve`.

use anyhow::Context;
use sudobot::{format, solve};

use super::Code;
use crate::cli::solve::SolveArgs;

pub fn run(args: SolveArgs) -> anyhow::Result<Code> {
    let text = match args.puzzle.as_deref() {
        None | Some("-") => std::io::read_to_string(std::io::stdin()).context("reading standard input")?,
        Some(p) => p.to_string(),
    };
    let puzzle = format::line::parse(text.trim())?;
    Ok(match solve::solve(&puzzle) {
        solve::Verdict::Unique(s) => {
            println!("{}", format::line::write(&s));
            Code::Success
        }
        solve::Verdict::Multiple(..) => Code::Multiple,
        solve::Verdict::Unsolvable => Code::NoSolution,
        solve::Verdict::Invalid(c) => anyhow::bail!("invalid givens: {c}"),
    })
}
