//! `sudobot explain`: the whole solving path of one puzzle, as text or JSON.

use std::io::{self, Write};

use anyhow::Context;
use sudobot::logic::{self, json};

use super::Code;
use super::logic_input::{code_of, one_puzzle, scale, text_of, within_max_time};
use crate::cli::explain::{ExplainArgs, ExplainOutput};

pub fn run(args: ExplainArgs) -> anyhow::Result<Code> {
    let Some(text) = text_of(args.puzzle.as_deref())? else {
        eprintln!(
            "sudobot: no puzzle given: pass it as an argument or `-` to read standard input \
             (see sudobot explain --help)"
        );
        return Ok(Code::BadInput);
    };
    let puzzle = match one_puzzle(&text, &args.read, "explain")? {
        Ok(p) => p,
        Err(message) => {
            eprintln!("sudobot: {message}");
            return Ok(Code::BadInput);
        }
    };
    if let Err(gave_up) = within_max_time(&puzzle, &args.read) {
        eprintln!("sudobot: {gave_up}");
        eprintln!("sudobot: note: {}", args.read.max_time.note());
        return Ok(Code::GaveUp);
    }
    let path = match logic::explain(&puzzle, scale(args.style.scale)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sudobot: {e}");
            return Ok(code_of(&e));
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = match args.style.output {
        ExplainOutput::Json => writeln!(out, "{}", json::to_json(&path)),
        ExplainOutput::Text => {
            let mut r = Ok(());
            for step in &path.steps {
                r = r.and_then(|()| writeln!(out, "{step}"));
            }
            let g = &path.grade;
            let guesses = match g.guesses {
                0 => String::new(),
                1 => ", 1 guess".into(),
                n => format!(", {n} guesses"),
            };
            let steps = if g.steps == 1 { "1 step".into() } else { format!("{} steps", g.steps) };
            r.and_then(|()| {
                let killer = g.killer.map(|k| format!(", Killer {k}")).unwrap_or_default();
                writeln!(
                    out,
                    "# {}{killer}, score {} (scale {}, {steps}{guesses})",
                    g.level, g.score, g.scale
                )
            })
        }
    };
    if let Err(e) = written.and_then(|()| out.flush())
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        return Err(e).context("writing to standard output");
    }
    Ok(Code::Success)
}
