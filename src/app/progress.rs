//! The progress bar of batch commands (`solve --file`, `grade --file`, `web --count`): on
//! standard error when it is a terminal, hidden otherwise; one style for all of them.

use std::io::{self, IsTerminal};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar for `len` puzzles. Its message (a command's own count, such as failures) follows the
/// rate and the time left.
pub fn puzzles(len: usize) -> ProgressBar {
    bar(Some(len as u64), "{bar:40} {pos}/{len} puzzles, {per_sec}, {eta} left  {msg}")
}

/// A bar for a batch whose length is not known (one read a chunk at a time): the count and
/// the rate.
pub fn puzzles_streamed() -> ProgressBar {
    bar(None, "{pos} puzzles, {per_sec}  {msg}")
}

fn bar(len: Option<u64>, template: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
