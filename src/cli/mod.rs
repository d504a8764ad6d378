//! Command-line syntax (clap derive types only). Everything here is turned into library
//! configuration in `app/` before anything runs; the library never sees these types.

pub mod desktop;
pub mod docs;
pub mod explain;
pub mod grade;
pub mod hint;
pub mod solve;
pub mod web;

use clap::{Parser, Subcommand};

const AFTER_HELP: &str = "\
Examples:
  sudobot web --site demo                       # the embedded practice site, offline
  sudobot web --site sudoku.name --difficulty 4
  sudobot desktop --auto                        # find the Solo window, solve it, verify
  sudobot desktop                               # interactive: F1 origin, F2 solve, Esc abort
  sudobot solve '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
  sudobot solve --file puzzles.txt --stats      # batch on all cores
  sudobot sites list
  sudobot grade --file puzzles.txt              # difficulty, one line per puzzle
  sudobot explain PUZZLE                        # the solving path, one step a line
  sudobot hint --reveal cells PUZZLE            # the easiest next step, as much as asked

Exit codes (every command):
  0    solved (and, for web and desktop, confirmed by the game)
  1    runtime failure (browser, driver, game window, verification)
  2    bad input or configuration
  3    the puzzle has no solution
  4    the puzzle has several solutions
  130  interrupted (Ctrl-C)";

/// Solves sudoku where people play it: on web pages (WebDriver) and in Simon Tatham's Solo.
#[derive(Debug, Parser)]
#[command(name = "sudobot", version, about, max_term_width = 100, after_help = AFTER_HELP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles given as text (one line, Solo grid text or Solo game ID).
    Solve(solve::SolveArgs),
    /// Open a sudoku web site in a real browser, read the board, solve it and type the answer.
    Web(web::WebArgs),
    /// List or validate the site configurations used by `web`.
    Sites(web::SitesArgs),
    /// Solve the Solo game (MobaXterm's sudoku) on the screen through keyboard and mouse input.
    Desktop(desktop::DesktopArgs),
    /// Grade puzzles: Solo's levels exactly, or sudobot's measured score.
    Grade(grade::GradeArgs),
    /// Explain a puzzle's solving path, one human-style step a line (or JSON).
    Explain(explain::ExplainArgs),
    /// The easiest next step for a board (with your pencil marks), shown as much as asked.
    Hint(hint::HintArgs),
    /// Print a shell completion script.
    Completions(docs::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    Man(docs::ManArgs),
}
