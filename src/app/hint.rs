//! `sudobot hint`: the easiest next step for a board, fitted to the player's pencil marks when
//! given, shown as much as asked.

use anyhow::{Context, bail};
use sudobot::grid::Grid;
use sudobot::logic::{self, Board, LogicError, Step, Technique, json, marks, step::house_name};

use super::Code;
use super::logic_input::{code_of, geometry, one_puzzle, scale, text_of};
use crate::cli::explain::ExplainOutput;
use crate::cli::hint::{HintArgs, Reveal};

pub fn run(args: HintArgs) -> anyhow::Result<Code> {
    let Some(text) = text_of(args.board.as_deref())? else {
        eprintln!(
            "sudobot: no board given: pass it as an argument or `-` to read standard input \
             (see sudobot hint --help)"
        );
        return Ok(Code::BadInput);
    };
    let board = if args.read.format.is_none() && marks::looks_like_marks(&text.text) {
        if args.marks.is_some() {
            bail!("{}: the board is already a candidate grid; drop --marks", text.name);
        }
        let m = marks::parse(&text.text).with_context(|| text.name.clone())?;
        let grid = with_x(m.grid(geometry(&args.read)?)?, args.read.diagonals)?;
        board_or_conflict(Board::with_marks(&grid, &m.marks))?
    } else {
        let grid = one_puzzle(&text, &args.read, "hint")?;
        match &args.marks {
            None => board_or_conflict(Board::new(&grid))?,
            Some(arg) => {
                let mt = text_of(Some(arg))?.context("reading --marks")?;
                let m = marks::parse(&mt.text).with_context(|| format!("--marks: {}", mt.name))?;
                if m.side != grid.side() {
                    bail!(
                        "--marks: a {}x{} candidate grid for a {}x{} board",
                        m.side,
                        m.side,
                        grid.side(),
                        grid.side()
                    );
                }
                // A single mark is still a mark here: the board's own values say what is placed.
                let masks: Vec<u64> = m
                    .marks
                    .iter()
                    .zip(&m.values)
                    .map(|(&mk, &v)| if v != 0 { 1u64 << (v - 1) } else { mk })
                    .collect();
                board_or_conflict(Board::with_marks(&grid, &masks))?
            }
        }
    };
    let step = match logic::hint(&board, scale(args.scale)) {
        Ok(Some(step)) => step,
        Ok(None) => {
            println!("The board is solved.");
            return Ok(Code::Success);
        }
        Err(LogicError::MarksMissSolution { cell, value }) => {
            match args.reveal {
                Reveal::Step => {
                    println!(
                        "Mistake: the pencil marks of {cell} leave out its solution value {value}."
                    )
                }
                Reveal::Cells => println!("Mistake: check the pencil marks of {cell}."),
                Reveal::Technique => println!("Mistake: a pencil mark that is needed was removed."),
            }
            return Ok(Code::NoSolution);
        }
        Err(e) => {
            eprintln!("sudobot: {e}");
            return Ok(code_of(&e));
        }
    };
    match args.output {
        ExplainOutput::Json => println!("{}", json::step_json(&step)),
        ExplainOutput::Text => println!("{}", describe(&step, args.reveal)),
    }
    Ok(Code::Success)
}

fn with_x(grid: Grid, diagonals: bool) -> anyhow::Result<Grid> {
    if !diagonals {
        return Ok(grid);
    }
    let geometry = grid.geometry().clone().with_diagonals();
    Ok(Grid::new(std::sync::Arc::new(geometry), grid.cells().to_vec())?)
}

fn board_or_conflict(b: Result<Board, sudobot::grid::Conflict>) -> anyhow::Result<Board> {
    b.map_err(|c| anyhow::Error::new(LogicError::Invalid(c)))
}

/// The hint in words, as much as `reveal` allows.
fn describe(step: &Step, reveal: Reveal) -> String {
    let name = step.technique.name();
    match (reveal, step.technique) {
        (Reveal::Step, _) => step.text(),
        (Reveal::Technique, Technique::Guess) => {
            "No technique of this scale applies: the next step is a guess in the cell with the \
             fewest candidates."
                .into()
        }
        (Reveal::Technique, Technique::Cleanup) => {
            "Some pencil marks are out of date: a placed value is still marked in its house.".into()
        }
        (Reveal::Technique, _) => format!("Look for a {name}."),
        (Reveal::Cells, _) => {
            let cells = step.cells.iter().map(|&c| step.cell_name(c)).collect::<Vec<_>>();
            let houses = step.houses.iter().map(|&h| house_name(h)).collect::<Vec<_>>();
            let mut t = format!("{name}: look at {}", cells.join(", "));
            if !houses.is_empty() {
                t.push_str(&format!(" (in {})", houses.join(", ")));
            }
            t.push('.');
            t
        }
    }
}
