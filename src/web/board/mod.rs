//! The board sources: how a board is waited for, read, typed into and read back, by kind.
//! [`play`](super::play) tells the one story over them (read, solve once, plan, the run's mode,
//! type, read back, confirm); what differs by source lives here:
//!
//! - [`dom`]: a board of page elements, read in one script, typed with real keys behind the
//!   in-page guard, the first clicked key proven, one retry for dropped keys;
//! - [`canvas`]: a board drawn on a canvas, read from an element screenshot by
//!   [`crate::pixels`], typed by clicking cell centres, the first key proven, read back from
//!   its pixels.

pub mod canvas;
pub mod dom;
