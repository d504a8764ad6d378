//! Arguments of `sudobot web` and `sudobot sites`.

use clap::Args;

/// Arguments of `sudobot web`.
#[derive(Debug, Args)]
pub struct WebArgs {}

/// Arguments of `sudobot sites`.
#[derive(Debug, Args)]
pub struct SitesArgs {}
