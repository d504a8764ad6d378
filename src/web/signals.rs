//! SIGINT, SIGTERM and SIGHUP for the web bot. The signals are watched on a thread of their own
//! (so they are seen even while the main thread waits on something synchronous):
//!
//! - the first signal kills every local driver tree at once (so no key reaches a page after
//!   it, with any number of sessions) and cancels: every [`Cancel`] resolves, the running
//!   puzzles are dropped and the sessions close through [`super::owner`];
//! - a second signal, or the first one still unfinished after [`EXIT_BOUND`], kills every live
//!   tree, deletes their directories and exits the process at once with 128 + the signal.
//!
//! This is the web bot's only process-wide state besides the list of live trees it uses.

use std::sync::OnceLock;
use std::time::Duration;

use tokio::sync::watch;

/// The longest a first signal may take to end the process.
pub const EXIT_BOUND: Duration = Duration::from_millis(1900);

/// A signal that stops the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM (`kill`, `timeout`, a cancelled CI job).
    Terminate,
    /// SIGHUP (the terminal closed).
    HangUp,
}

impl Signal {
    /// The conventional exit code: 128 + the signal number.
    pub fn exit_code(self) -> u8 {
        match self {
            Signal::Interrupt => 130,
            Signal::Terminate => 143,
            Signal::HangUp => 129,
        }
    }

    /// The signal's name.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
            Signal::HangUp => "SIGHUP",
        }
    }
}

/// Resolves when the first signal arrives. Cheap to clone; one per session or task.
#[derive(Clone, Debug)]
pub struct Cancel(watch::Receiver<Option<Signal>>);

impl Cancel {
    /// A token that never fires (library use without signal handling, tests).
    pub fn never() -> Cancel {
        let (tx, rx) = watch::channel(None);
        // Keep the sender alive so `changed` never errors out.
        std::mem::forget(tx);
        Cancel(rx)
    }

    /// The signal, if one came.
    pub fn fired(&self) -> Option<Signal> {
        *self.0.borrow()
    }

    /// Waits for the signal.
    pub async fn wait(&mut self) -> Signal {
        loop {
            if let Some(s) = *self.0.borrow_and_update() {
                return s;
            }
            if self.0.changed().await.is_err() {
                // The watcher is gone: no signal will ever come.
                std::future::pending::<()>().await;
            }
        }
    }
}

static WATCHER: OnceLock<Cancel> = OnceLock::new();

/// Starts watching SIGINT, SIGTERM and SIGHUP (once per process; later calls return the same
/// token). `on_first` runs on the watcher thread when the first signal arrives (print a note).
pub fn watch(on_first: fn(Signal)) -> std::io::Result<Cancel> {
    if let Some(c) = WATCHER.get() {
        return Ok(c.clone());
    }
    let (tx, rx) = watch::channel(None);
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    std::thread::Builder::new().name("sudobot-signals".into()).spawn(move || {
        let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(r) => r,
            Err(e) => {
                let _ = ready_tx.send(Err(e));
                return;
            }
        };
        runtime.block_on(async move {
            let mut signals = match Signals::new() {
                Ok(signals) => signals,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            let _ = ready_tx.send(Ok(()));
            let first = signals.next().await;
            tracing::debug!("{} received: cancelling", first.name());
            // The token first, so that a command failing because of the kill below is already
            // seen as the signal's doing, not as a dead driver.
            let _ = tx.send(Some(first));
            // Every local browser stops typing now, not when its session's turn to close comes.
            super::owner::kill_all_now();
            on_first(first);
            let second = tokio::select! {
                s = signals.next() => Some(s),
                _ = tokio::time::sleep(EXIT_BOUND) => None,
            };
            match second {
                Some(s) => tracing::debug!("{} received again: exiting now", s.name()),
                None => tracing::warn!("clean-up took longer than {EXIT_BOUND:?}: exiting now"),
            }
            super::owner::stop_all_now();
            std::process::exit(i32::from(first.exit_code()));
        });
    })?;
    match ready_rx.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(e),
        Err(_) => return Err(std::io::Error::other("the signal thread did not start")),
    }
    let cancel = Cancel(rx);
    Ok(WATCHER.get_or_init(|| cancel).clone())
}

/// The signals the watcher waits on: SIGINT, SIGTERM and SIGHUP on Unix, Ctrl-C elsewhere.
/// Made inside the watcher's runtime.
struct Signals {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    hup: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> std::io::Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Signals {
                int: signal(SignalKind::interrupt())?,
                term: signal(SignalKind::terminate())?,
                hup: signal(SignalKind::hangup())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// The next signal.
    async fn next(&mut self) -> Signal {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.int.recv() => Signal::Interrupt,
                _ = self.term.recv() => Signal::Terminate,
                _ = self.hup.recv() => Signal::HangUp,
            }
        }
        #[cfg(not(unix))]
        {
            // A Ctrl-C handler that cannot be installed never fires.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
            Signal::Interrupt
        }
    }
}
