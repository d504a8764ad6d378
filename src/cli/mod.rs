//! Command-line syntax (clap derive types only). Everything here is turned into library
//! configuration in `app/` before anything runs; the library never sees these types.

pub mod desktop;
pub mod solve;
pub mod web;

use clap::{Parser, Subcommand};

/// Solves sudoku where people play it: on web pages (WebDriver) and in Simon Tatham's Solo.
#[derive(Debug, Parser)]
#[command(name = "sudobot", version, about, max_term_width = 100)]
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
}
