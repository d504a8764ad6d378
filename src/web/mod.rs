//! The web bot: open a sudoku page in a real browser through WebDriver, read the board, solve
//! it, type the answer with real key events and wait for the page to confirm.
//!
//! - [`config`]: `webdriver.toml` (local driver or a remote WebDriver/Grid URL, browser);
//! - [`attach`]: playing in a browser the user runs (`--attach`), in a tab of sudobot's own;
//!   [`profile`]: `--profile DIR`, refused while a running browser holds it;
//! - [`browser`]: Chromium or Firefox: every difference between the two browsers and drivers;
//! - [`session`]: starting and stopping the driver and the browser session, watching the driver;
//! - [`owner`]: the processes and files a run owns, stopped and deleted on every path;
//! - [`signals`]: SIGINT/SIGTERM/SIGHUP: cancel at once, a second signal exits at once;
//! - [`login`]: sites that need the player's login, and their login wall;
//! - [`site`]: per-site descriptions (`sites/*.toml`), embedded and overridable; [`spec`]: the
//!   board a site file or discovery describes, typed and validated once ([`spec::BoardSpec`]);
//! - [`discover`]: finding the board on a page no site file describes (and when a site file's
//!   board no longer matches);
//! - [`play`]: one puzzle, the one story over any board; [`locate`]: where the board is (a site
//!   file's, or found by discovery); [`options`]: what to do (the run's
//!   [`Mode`]) and what it gave; [`error`]: why it failed, and the [`FailureKind`] the pool
//!   decides retries and evidence by; [`answer`]: the board solved once, the hint, the
//!   show-thinking order; [`page`]: navigation, frames, dialogs, the page's confirmation;
//!   [`poll`]: the one bounded wait; [`wd`]: how a WebDriver error reads;
//! - [`board`]: the board sources: [`board::dom`] (page elements) and [`board::canvas`] (a
//!   board drawn on a canvas, read from an element screenshot by [`crate::pixels`], typed by
//!   clicking cell centres);
//! - [`read`], [`fill`], [`guard`]: reading the cells, typing (with the in-page guard that keeps
//!   keys on the board); [`mistakes`]: naming the player's wrong values where nothing proves
//!   the givens (every filled cell is then fixed);
//! - [`pool`]: `--parallel K`: K sessions work through the puzzles, a failed puzzle is
//!   retried once on a fresh session; [`grid`]: a Selenium Grid's `/status` and this run's
//!   session tag;
//! - [`report`]: one puzzle's result as a JSON line; [`evidence`]: what a failure leaves and
//!   `sites check --url`;
//! - [`demo`]: the embedded practice page and its HTTP server (hyper).

pub mod answer;
pub mod attach;
pub mod board;
pub mod browser;
pub mod config;
pub mod demo;
pub mod discover;
pub mod error;
pub mod evidence;
pub mod fill;
pub mod grid;
pub mod guard;
pub mod locate;
pub mod login;
pub mod mistakes;
pub mod options;
pub mod owner;
pub mod page;
pub mod play;
pub mod poll;
pub mod pool;
pub mod profile;
pub mod read;
pub mod report;
pub mod session;
pub mod signals;
pub mod site;
pub mod spec;
pub mod variant;
pub mod wd;

pub use browser::Browser;
pub use config::{ConfigError, WebDriverConfig};
pub use error::{FailureKind, PlayError};
pub use locate::Locate;
pub use options::{Discover, Hint, Mode, Outcome, PlayOptions, Thinking, Timings};
pub use play::play;
pub use session::{Session, SessionError, Stop};
pub use signals::{Cancel, Signal};
pub use site::{Site, SiteError};
