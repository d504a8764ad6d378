//! The integration-test binary. One module per area.

// `sudobot solve` end to end through the binary.
mod cli_solve;
// `sudobot completions` and `sudobot man`.
mod cli_docs;
// `sudobot solve` on Solo game IDs and Copy text captured from the real game.
mod cli_solo_formats;
// `sudobot desktop --auto` against the real sgt-solo under Xvfb.
mod desktop;
// The technique engine: steps checked against solutions, explain JSON replayed, agreement
// with Solo's generator and grader, and `grade`/`explain`/`hint` end to end.
mod logic;
// Property tests: format round trips, batch reading, no panics, solving random puzzles.
mod formats;
// Killer sudoku: Solo's generated IDs solved and checked independently, brute-force counts,
// cage text and drawings, `sudobot solve` on Killer input.
mod killer;
// Solo game IDs and Copy text: property round trips.
mod solo_formats;
// Hostile input for every reader: endless lines, huge inputs, paths that are no files.
mod bad_input;
// `sudobot solve --image`: boards read from pictures.
mod pixels;
// Boards rendered by headless Chromium from a fixture page, read by the pixel reader.
mod pixels_chromium;
// Helpers shared by several modules.
mod support;
// The boxed-grid engine (4x4 to 16x16) against the generic engine.
mod box_engine;
// The solvers: benchmark sets, the two engines against each other, brute-force counts.
mod solver;
// `sudobot web` / `sudobot sites` against replica pages in headless chromium.
mod web;
