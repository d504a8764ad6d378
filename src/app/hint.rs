//! `sudobot hint`: the easiest next step for a board, fitted to the player's pencil marks when
//! given, shown as much as asked.

use anyhow::Context;
use sudobot::grid::symbol::{self, Style};
use sudobot::grid::{Cell, Grid};
use sudobot::logic::{self, Board, LogicError, Step, Technique, json, marks, step::house_name};

use super::Code;
use super::logic_input::{Text, code_of, geometry, one_puzzle, scale, text_of, within_max_time};
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
    let board = match read_board(&args, &text)? {
        Ok(b) => b,
        Err(message) => {
            eprintln!("sudobot: {message}");
            return Ok(Code::BadInput);
        }
    };
    if let Err(gave_up) = within_max_time(&board.to_grid(), &args.read) {
        eprintln!("sudobot: {gave_up}");
        eprintln!("sudobot: note: {}", args.read.max_time.note());
        return Ok(Code::GaveUp);
    }
    let step = match logic::hint(&board, scale(args.style.scale)) {
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
    match args.style.output {
        ExplainOutput::Json => println!("{}", json::step_json(&step)),
        ExplainOutput::Text => println!("{}", describe(&step, args.reveal)),
    }
    Ok(Code::Success)
}

/// The board to hint on: a candidate grid, or a puzzle with or without `--marks`. `Ok(Err(_))`
/// is bad input, with the message.
fn read_board(args: &HintArgs, text: &Text) -> anyhow::Result<Result<Board, String>> {
    let invalid = |c: sudobot::grid::Conflict| LogicError::Invalid(c).to_string();
    if args.read.format.is_none() && marks::looks_like_marks(&text.text) {
        if args.marks.is_some() {
            return Ok(Err(format!(
                "{}: the board is already a candidate grid; drop --marks",
                text.name
            )));
        }
        let m = match marks::parse(&text.text) {
            Ok(m) => m,
            Err(e) => return Ok(Err(format!("{}: {e}", text.name))),
        };
        let grid = match m.grid(geometry(&args.read)?) {
            Ok(g) => with_x(g, args.read.diagonals)?,
            Err(e) => return Ok(Err(format!("{}: {e}", text.name))),
        };
        return Ok(Board::with_marks(&grid, &m.marks).map_err(invalid));
    }
    let grid = match one_puzzle(text, &args.read, "hint")? {
        Ok(g) => g,
        Err(message) => return Ok(Err(message)),
    };
    let Some(arg) = &args.marks else {
        return Ok(Board::new(&grid).map_err(invalid));
    };
    let mt = text_of(Some(arg))?.context("reading --marks")?;
    let m = match marks::parse(&mt.text) {
        Ok(m) => m,
        Err(e) => return Ok(Err(format!("--marks: {}: {e}", mt.name))),
    };
    if m.side != grid.side() {
        let (a, b) = (m.side, grid.side());
        return Ok(Err(format!("--marks: a {a}x{a} candidate grid for a {b}x{b} board")));
    }
    if let Some(message) = marks_against_givens(&grid, &m) {
        return Ok(Err(format!("--marks: {message}")));
    }
    // A single mark is still a mark here: the board's own values say what is placed.
    let masks: Vec<u64> = m
        .marks
        .iter()
        .zip(&m.values)
        .map(|(&mk, &v)| if v != 0 { 1u64 << (v - 1) } else { mk })
        .collect();
    Ok(Board::with_marks(&grid, &masks).map_err(invalid))
}

/// The first given that the player's marks contradict (another value placed there, or marks
/// that leave the given out), described; `None` when the marks fit every given.
fn marks_against_givens(grid: &Grid, m: &marks::Marks) -> Option<String> {
    let side = grid.side();
    let name = |v: u8| symbol::to_char(v, side, Style::Line).unwrap_or('?');
    grid.cells().iter().enumerate().find_map(|(i, &given)| {
        let (placed, mask) = (m.values[i], m.marks[i]);
        let g = name(given);
        let wrong = if given == 0 || placed == given {
            return None;
        } else if placed != 0 {
            format!("the marks place {} there", name(placed))
        } else if mask != 0 && mask & (1 << (given - 1)) == 0 {
            let marks: String =
                (1..=side as u8).filter(|v| mask & (1 << (v - 1)) != 0).map(name).collect();
            format!("its marks {marks} leave {g} out")
        } else {
            return None;
        };
        Some(format!("{} is given as {g}, but {wrong}", Cell::from_index(i, side)))
    })
}

fn with_x(grid: Grid, diagonals: bool) -> anyhow::Result<Grid> {
    if !diagonals {
        return Ok(grid);
    }
    let geometry = grid.geometry().clone().with_diagonals();
    Ok(Grid::new(std::sync::Arc::new(geometry), grid.cells().to_vec())?)
}

/// The hint in words, as much as `reveal` allows.
pub fn describe(step: &Step, reveal: Reveal) -> String {
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
        (Reveal::Technique, _) => format!("Next technique: {name}."),
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
