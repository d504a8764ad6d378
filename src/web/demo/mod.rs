//! The offline practice site behind `sudobot web --site demo`: an embedded page in the spirit of
//! the real sites (readonly givens in the markup, a flat 9x9 table of inputs) with its own script
//! that decides "solved", served by a tiny HTTP/1.1 server on an ephemeral 127.0.0.1 port with a
//! fresh puzzle for every page load.

pub mod generate;
mod server;

pub use server::{DemoServer, render_page};
