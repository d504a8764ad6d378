//! The integration-test binary. One module per area.

// `sudobot solve` end to end through the binary.
mod cli_solve;

// `sudobot web` / `sudobot sites` against replica pages in headless chromium.
mod web;
