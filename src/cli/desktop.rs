//! Arguments of `sudobot desktop`.

use clap::Args;

/// Arguments of `sudobot desktop`.
#[derive(Debug, Args)]
pub struct DesktopArgs {}
