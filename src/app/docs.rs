//! `sudobot completions` and `sudobot man`.

use std::io::Write;

use anyhow::Context;
use clap::CommandFactory;

use super::Code;
use crate::cli::Cli;
use crate::cli::docs::{CompletionsArgs, ManArgs};

pub fn completions(args: CompletionsArgs) -> anyhow::Result<Code> {
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, "sudobot", &mut out);
    out.flush()?;
    Ok(Code::Success)
}

pub fn man(args: ManArgs) -> anyhow::Result<Code> {
    let cmd = Cli::command();
    match args.dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            clap_mangen::generate_to(cmd, &dir)
                .with_context(|| format!("cannot write the manual pages into {}", dir.display()))?;
            eprintln!("wrote the manual pages into {}", dir.display());
        }
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            out.flush()?;
        }
    }
    Ok(Code::Success)
}
