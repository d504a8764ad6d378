//! The progress bar of batch commands (`grade --file`, `web --count`): on standard error when it
//! is a terminal, hidden otherwise; one style for all of them.

use std::io::{self, IsTerminal};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar for `len` puzzles. Its message (a command's own count, such as failures) follows the
/// rate and the time left.
pub fn puzzles(len: usize) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, {eta} left  {msg}")
    {
        bar.set_style(style);
    }
    bar
}
