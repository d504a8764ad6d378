//! `sudobot completions` and `sudobot man`: generated from these same clap definitions.

use std::path::PathBuf;

use clap::Args;

/// `sudobot completions SHELL`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  sudobot completions bash > /etc/bash_completion.d/sudobot
  sudobot completions zsh > ~/.zfunc/_sudobot        # with fpath+=~/.zfunc in ~/.zshrc
  sudobot completions fish > ~/.config/fish/completions/sudobot.fish
  sudobot completions powershell >> $PROFILE")]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `sudobot man [--dir DIR]`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  sudobot man | man -l -                           # read it now
  sudobot man --dir /usr/local/share/man/man1      # sudobot.1, sudobot-web.1, ... then `man sudobot-web`")]
pub struct ManArgs {
    /// Write sudobot.1 and one page per command (sudobot-web.1, ...) into DIR instead of
    /// printing sudobot.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}
