//! The web bot: open a sudoku page in a real browser through WebDriver, read the board, solve
//! it, type the answer with real key events and wait for the page to confirm.
//!
//! - [`config`]: `webdriver.toml` (local chromedriver or a remote WebDriver/Grid URL, browser);
//! - [`session`]: starting and stopping the driver and the browser session;
//! - [`site`]: per-site descriptions (`sites/*.toml`), embedded and overridable;
//! - [`read`], [`fill`], [`play`]: reading the board, typing, verifying one puzzle;
//! - [`demo`]: the embedded practice page and its tiny HTTP server.

pub mod config;
pub mod demo;
pub mod fill;
pub mod play;
pub mod read;
pub mod session;
pub mod site;

pub use config::{ConfigError, WebDriverConfig};
pub use play::{Outcome, PlayError, PlayOptions, Timings, play};
pub use session::{Session, SessionError};
pub use site::{Site, SiteError};
