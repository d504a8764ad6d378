//! `sudobot desktop`.

use super::Code;
use crate::cli::desktop::DesktopArgs;

pub fn run(_args: DesktopArgs) -> anyhow::Result<Code> {
    anyhow::bail!("`sudobot desktop` is not built yet")
}
