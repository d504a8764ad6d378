//! `sudobot web` and `sudobot sites`.

use super::Code;
use crate::cli::web::{SitesArgs, WebArgs};

pub fn run(_args: WebArgs) -> anyhow::Result<Code> {
    anyhow::bail!("`sudobot web` is not built yet")
}

pub fn run_sites(_args: SitesArgs) -> anyhow::Result<Code> {
    anyhow::bail!("`sudobot sites` is not built yet")
}
