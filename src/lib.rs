//! sudobot solves sudoku where people play it: on web pages through a real browser (WebDriver),
//! and in Simon Tatham's Solo (the sudoku in MobaXterm's Games menu) through OS input.
//!
//! The library is layered so data flows one way:
//!
//! - [`grid`]: the puzzle model (geometry, houses, values, conflicts);
//! - [`format`]: text formats in and out (one line, Solo Copy text, Solo game IDs, pretty);
//! - [`solve`]: the solvers;
//! - [`logic`]: human-style techniques: explanations, grades and hints.
//!
//! ```
//! use sudobot::{format, solve};
//!
//! let puzzle = format::line::parse(
//!     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
//! )?;
//! let solve::Verdict::Unique(solution) = solve::solve(&puzzle) else { panic!("unique") };
//! assert!(solution.is_solution_of(&puzzle));
//! assert!(format::line::write(&solution).starts_with("417369825"));
//! # Ok::<(), sudobot::format::ParseError>(())
//! ```

#![warn(missing_docs)]
#![deny(unsafe_code)]

// The pixel reader's drawing kit (`src/pixels/drawkit.rs`) is shared with an example, where
// the library is `sudobot`: in the crate's own tests it is `sudobot` too.
#[cfg(test)]
extern crate self as sudobot;

pub mod desktop;
pub mod format;
pub mod grid;
pub mod logic;
pub mod pixels;
pub mod solve;
pub mod web;
