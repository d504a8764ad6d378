//! The integration-test binary. One module per area.

// `sudobot solve` end to end through the binary.
mod cli_solve;
// Property tests: format round trips, batch reading, no panics, solving random puzzles.
mod formats;
// The solvers: benchmark sets, the two engines against each other, brute-force counts.
mod solver;
