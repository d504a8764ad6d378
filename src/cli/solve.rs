//! Arguments of `sudobot solve`.

use clap::Args;

/// Arguments of `sudobot solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The puzzle, or `-` to read standard input.
    pub puzzle: Option<String>,
}
