//! Input and outcome handling shared by `grade`, `explain` and `hint`: where the text comes
//! from, the read options, the scale, and exit codes for the engine's errors.

use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use sudobot::format::{self, ReadOptions};
use sudobot::grid::{Geometry, Grid};
use sudobot::logic::{LogicError, Scale};
use sudobot::solve::{self, Budget, GaveUp};

use super::Code;
use crate::cli::grade::{ReadArgs, ScaleArg};

/// Some input text and where it came from (for messages).
pub struct Text {
    pub text: String,
    pub name: String,
}

/// The text of an argument: `-` reads standard input, an existing path reads the file,
/// anything else is the text itself. Without an argument, standard input when it is not a
/// terminal.
pub fn text_of(arg: Option<&str>) -> anyhow::Result<Option<Text>> {
    match arg {
        Some("-") => Ok(Some(stdin()?)),
        // Any path that exists is read: a file, a pipe (`<(...)`), and a directory, whose read
        // fails with a message instead of the path being taken for puzzle text.
        Some(a) if !a.contains('\n') && Path::new(a).exists() => {
            Ok(Some(Text { text: format::read_file(Path::new(a))?, name: a.to_string() }))
        }
        Some(a) => Ok(Some(Text { text: a.to_string(), name: "the argument".into() })),
        None if !io::stdin().is_terminal() => Ok(Some(stdin()?)),
        None => Ok(None),
    }
}

fn stdin() -> anyhow::Result<Text> {
    Ok(Text { text: format::read_stdin(io::stdin().lock())?, name: "standard input".into() })
}

/// The read options of the shared flags.
pub fn read_options(read: &ReadArgs) -> anyhow::Result<ReadOptions> {
    Ok(ReadOptions {
        format: read.format.map(super::input_format),
        geometry: geometry(read)?,
        diagonals: read.diagonals,
    })
}

/// The geometry `--box` asks for, if any.
pub fn geometry(read: &ReadArgs) -> anyhow::Result<Option<Arc<Geometry>>> {
    read.box_shape
        .map(|b| {
            Geometry::boxed(b.width, b.height)
                .map(Arc::new)
                .with_context(|| format!("--box {}x{}", b.width, b.height))
        })
        .transpose()
}

/// Exactly one puzzle from a text; `Ok(Err(message))` when it cannot be read (the message
/// names the source, line and column).
pub fn one_puzzle(
    text: &Text,
    read: &ReadArgs,
    command: &str,
) -> anyhow::Result<Result<Grid, String>> {
    let puzzles = format::read_puzzles(&text.text, &text.name, &read_options(read)?)?;
    match puzzles.entries.as_slice() {
        [one] => Ok(one.puzzle.clone().map_err(|e| format!("{}: {e}", text.name))),
        many => Ok(Err(format!(
            "{}: {command} takes one puzzle, the input holds {} (grade takes a batch)",
            text.name,
            many.len()
        ))),
    }
}

/// The library scale of a command-line scale.
pub fn scale(s: ScaleArg) -> Scale {
    match s {
        ScaleArg::Solo => Scale::Solo,
        ScaleArg::Score => Scale::Score,
    }
}

/// The exit code of an engine error.
/// With a `--max-time` (there is one unless it is `off`), the solver's search for the puzzle's
/// solutions within that time, before the techniques (which need the unique solution and
/// search for it again: a search already known to end in time). Without one, nothing.
pub fn within_max_time(puzzle: &Grid, read: &ReadArgs) -> Result<(), GaveUp> {
    let Some(time) = read.max_time.0 else { return Ok(()) };
    solve::solve_within(puzzle, &Budget { time: Some(time), ..Budget::NONE }).map(drop)
}

pub fn code_of(e: &LogicError) -> Code {
    match e {
        LogicError::Invalid(_) => Code::BadInput,
        LogicError::NoSolution | LogicError::MarksMissSolution { .. } => Code::NoSolution,
        LogicError::Several(_) => Code::Multiple,
        _ => Code::Failure,
    }
}
