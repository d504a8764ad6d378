//! The integration-test binary. One module per area.

// `sudobot solve` end to end through the binary.
mod cli_solve;
// Solo game IDs and Copy text: property round trips.
mod solo_formats;
// `sudobot desktop --auto` against the real sgt-solo under Xvfb.
mod desktop;
