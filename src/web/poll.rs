//! The one bounded wait of the web bot: look, and look again every so often, until the look
//! says done, says stop, or the bound passes. Every wait on a page goes through [`poll`], so
//! each one is bounded the same way and names what it waited for when it gives up.

use std::time::{Duration, Instant};

/// How long a first typed cell (clicked, or a canvas's) has to show its value, and a clicked
/// normal-mode control to take effect.
pub const CLICK_PROOF: Duration = Duration::from_millis(1500);

/// How long a board with fewer givens than it needs, or with cells a canvas read could not
/// tell, must read the same before it is taken as it is.
pub const SETTLE: Duration = Duration::from_millis(1000);

/// How long the wrong number of cells must stay the same before self-healing looks for the
/// board (pages that draw the board late show 0 cells first, then all of them).
pub const MISMATCH_SETTLE: Duration = Duration::from_millis(2000);

/// How a wait ended without its condition.
#[derive(Debug, PartialEq, Eq)]
pub enum Waited<E> {
    /// A look said to stop (a lost session, a settled mismatch, ...).
    Stopped(E),
    /// The bound passed; how long it waited.
    Out(Duration),
}

/// No bound: a watch that runs until its condition, raced (`tokio::select!`) against a future
/// that is bounded (a session start, a command), which ends it otherwise.
pub const WATCH: Duration = Duration::MAX;

/// Calls `look` at once and then every `every` (a slow look delays the next one, it does not
/// pile up), with the time since the wait began. `Ok(Some(t))` ends the wait with `t`,
/// `Ok(None)` looks again, `Err(e)` stops it with [`Waited::Stopped`]. After a look that is
/// not done once `bound` has passed, it ends with [`Waited::Out`]: at least one look is always
/// made, and the last one sees the whole bound. `what` names the wait in the debug log.
pub async fn poll<T, E>(
    bound: Duration,
    every: Duration,
    what: &str,
    mut look: impl AsyncFnMut(Duration) -> Result<Option<T>, E>,
) -> Result<T, Waited<E>> {
    let start = Instant::now();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let elapsed = start.elapsed();
        if let Some(end) = ended(look(elapsed).await, elapsed, bound, start, what) {
            return end;
        }
    }
}

/// [`poll`] for a thread with no runtime to wait in (a process tree stopped on drop, a tab
/// closed from a signal handler's thread): the same rule, the thread sleeping between looks.
pub fn poll_blocking<T, E>(
    bound: Duration,
    every: Duration,
    what: &str,
    mut look: impl FnMut(Duration) -> Result<Option<T>, E>,
) -> Result<T, Waited<E>> {
    let start = Instant::now();
    loop {
        let looked_at = Instant::now();
        let elapsed = start.elapsed();
        if let Some(end) = ended(look(elapsed), elapsed, bound, start, what) {
            return end;
        }
        std::thread::sleep(every.saturating_sub(looked_at.elapsed()));
    }
}

/// The rule of both waits: what a look that began `elapsed` into the wait ends it with, if it
/// ends it.
fn ended<T, E>(
    looked: Result<Option<T>, E>,
    elapsed: Duration,
    bound: Duration,
    start: Instant,
    what: &str,
) -> Option<Result<T, Waited<E>>> {
    match looked {
        Ok(Some(done)) => Some(Ok(done)),
        Err(e) => Some(Err(Waited::Stopped(e))),
        Ok(None) if elapsed >= bound => {
            tracing::debug!(waited = ?start.elapsed(), "gave up waiting for {what}");
            Some(Err(Waited::Out(start.elapsed())))
        }
        Ok(None) => None,
    }
}

impl<E> Waited<E> {
    /// The error a wait ends with: a stop's own, or `out` built from how long it waited.
    pub fn or_out(self, out: impl FnOnce(Duration) -> E) -> E {
        match self {
            Waited::Stopped(e) => e,
            Waited::Out(waited) => out(waited),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(f)
    }

    #[test]
    fn a_look_that_is_done_ends_the_wait_with_its_value() {
        let mut looks = 0;
        let got = run(poll(
            Duration::from_secs(5),
            Duration::from_millis(1),
            "three looks",
            async |_| {
                looks += 1;
                Ok::<_, ()>((looks == 3).then_some(looks * 10))
            },
        ));
        assert_eq!(got, Ok(30));
        assert_eq!(looks, 3);
    }

    #[test]
    fn a_stop_ends_the_wait_at_once_with_the_looks_error() {
        let mut looks = 0;
        let got: Result<(), _> =
            run(poll(Duration::from_secs(5), Duration::from_millis(1), "a stop", async |_| {
                looks += 1;
                Err("session lost")
            }));
        assert_eq!(got, Err(Waited::Stopped("session lost")));
        assert_eq!(looks, 1);
    }

    #[test]
    fn a_zero_bound_still_looks_once_and_then_gives_up() {
        let mut looks = 0;
        let got: Result<(), Waited<()>> =
            run(poll(Duration::ZERO, Duration::from_millis(1), "nothing", async |_| {
                looks += 1;
                Ok(None)
            }));
        assert!(matches!(got, Err(Waited::Out(_))));
        assert_eq!(looks, 1);
    }

    #[test]
    fn the_blocking_wait_keeps_the_same_rule() {
        let mut looks = 0;
        let got = poll_blocking(Duration::from_secs(5), Duration::from_millis(1), "three", |_| {
            looks += 1;
            Ok::<_, ()>((looks == 3).then_some(looks))
        });
        assert_eq!(got, Ok(3));
        let got: Result<(), _> =
            poll_blocking(Duration::from_secs(5), Duration::from_millis(1), "stop", |_| Err(7));
        assert_eq!(got, Err(Waited::Stopped(7)));
        let mut last = Duration::ZERO;
        let bound = Duration::from_millis(20);
        let got: Result<(), Waited<()>> =
            poll_blocking(bound, Duration::from_millis(5), "never", |elapsed| {
                last = elapsed;
                Ok(None)
            });
        assert!(matches!(got, Err(Waited::Out(w)) if w >= last && last >= bound), "{got:?}");
    }

    #[test]
    fn the_wait_gives_up_after_the_bound_with_the_time_it_waited() {
        let bound = Duration::from_millis(30);
        let mut last = Duration::ZERO;
        let got: Result<(), Waited<()>> =
            run(poll(bound, Duration::from_millis(5), "never", async |elapsed| {
                last = elapsed;
                Ok(None)
            }));
        let Err(Waited::Out(waited)) = got else { panic!("{got:?}") };
        assert!(last >= bound, "the last look sees the whole bound: {last:?}");
        assert!(waited >= last);
        assert!(Waited::Out(waited).or_out(|w| w.as_millis() > 0));
    }
}
