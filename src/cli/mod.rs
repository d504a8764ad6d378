//! Command-line syntax (clap derive types only). Everything here is turned into library
//! configuration in `app/` before anything runs; the library never sees these types.

pub mod desktop;
pub mod docs;
pub mod explain;
pub mod grade;
pub mod hint;
pub mod solve;
pub mod web;

use std::ffi::OsString;

use clap::{Args, FromArgMatches, Parser, Subcommand};

/// The top-level help's end: examples and the exit codes of every command (`app::Code`; a
/// test there checks that each code is listed).
pub(crate) const AFTER_HELP: &str = "\
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
  5    gave up: the search went past --max-time (solve, grade, explain, hint; 30 s unless
       given, `--max-time off` for no limit)
  129  stopped by SIGHUP (web, desktop)
  130  interrupted (Ctrl-C; Esc in desktop)
  143  stopped by SIGTERM (web, desktop)";

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
    Web(Box<web::WebArgs>),
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

impl Cli {
    /// Parses the process's arguments, exiting with clap's message on a usage error or for
    /// `--help` and `--version`.
    ///
    /// `sudobot solve ...` is parsed against the `solve` subcommand alone: building the whole
    /// command tree (nine subcommands, their help texts) is about a tenth of a one-puzzle
    /// `solve` run (measured: ~0.3 ms of ~3 ms), and scripts run `solve` once per file or puzzle. Whenever that parse does not
    /// succeed (`--help`, a usage error, anything unexpected), the full parser runs on the same
    /// arguments, so help, errors and exit codes are exactly the full parser's.
    pub fn parse_args() -> Cli {
        let args: Vec<OsString> = std::env::args_os().collect();
        Cli::solve_only(&args).unwrap_or_else(|| Cli::parse_from(args))
    }

    /// The `solve` subcommand's own parse, or `None` when it is not `solve` or does not parse.
    fn solve_only(args: &[OsString]) -> Option<Cli> {
        let rest = args.get(1..).filter(|rest| rest.first().is_some_and(|a| a == "solve"))?;
        let command = solve::SolveArgs::augment_args(clap::Command::new("solve"));
        let matches = command.try_get_matches_from(rest).ok()?;
        let args = solve::SolveArgs::from_arg_matches(&matches).ok()?;
        Some(Cli { command: Command::Solve(args) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    /// The short parse gives what the full parser gives, for every argument form of `solve`.
    #[test]
    fn solve_only_parses_as_the_full_parser_does() {
        let cases: &[&[&str]] = &[
            &["sudobot", "solve", "--file", "p.txt", "-o", "line"],
            &["sudobot", "solve", "--file=p.txt", "--jobs", "2", "--stats"],
            &["sudobot", "solve", "--count=100", "--box", "2x3", "123"],
            &["sudobot", "solve", "-x", "--check", "-"],
            &["sudobot", "solve", "--", "-not-an-option"],
        ];
        for case in cases {
            let args = os(case);
            let short = Cli::solve_only(&args).unwrap_or_else(|| panic!("{case:?}"));
            let full = Cli::try_parse_from(&args).unwrap();
            assert_eq!(format!("{short:?}"), format!("{full:?}"), "{case:?}");
        }
    }

    /// Anything else goes to the full parser: other commands, help, version, usage errors.
    #[test]
    fn solve_only_leaves_the_rest_to_the_full_parser() {
        let cases: &[&[&str]] = &[
            &["sudobot"],
            &["sudobot", "web", "--site", "demo"],
            &["sudobot", "--version"],
            &["sudobot", "solve", "--help"],
            &["sudobot", "solve", "-h"],
            &["sudobot", "solve", "--version"],
            &["sudobot", "solve", "--jobs", "many", "p"],
            &["sudobot", "solve", "--no-such-option"],
            &["sudobot", "-v", "solve", "p"],
        ];
        for case in cases {
            assert!(Cli::solve_only(&os(case)).is_none(), "{case:?}");
        }
    }
}
