//! Helpers shared by several test modules.

use std::process::Child;
use std::time::{Duration, Instant};

/// Sends `signal` (`"-TERM"`, `"-KILL"`, ...) to `target`: a pid, or `-PGID` for a process
/// group. Quiet when the target is gone already; a signal name that is not one is a test bug.
pub fn signal(signal: &str, target: &str) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let name = format!("SIG{}", signal.trim_start_matches('-'));
    let signal: Signal = name.parse().unwrap_or_else(|_| panic!("no signal {name}"));
    let pid: i32 = target.parse().unwrap_or_else(|_| panic!("no pid or -pgid: {target}"));
    let _ = kill(Pid::from_raw(pid), signal);
}

/// The `sudobot` binary of this build, as an `assert_cmd` command: the one builder every test
/// module starts it with. `RUST_LOG` is removed, so a developer's logging setting cannot change
/// what a test reads on standard error.
pub fn sudobot() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("sudobot").expect("the sudobot binary is built");
    cmd.env_remove("RUST_LOG");
    cmd
}

/// Polls until `child` has exited (reaping it) or `deadline` has passed; whether it exited.
pub fn wait_exit(child: &mut Child, deadline: Instant) -> bool {
    loop {
        if child.try_wait().ok().flatten().is_some() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether the cells labelled `label` form one orthogonally connected piece (true when there
/// are none). The random jigsaw generators keep every region connected with it, as Solo's
/// formats need.
pub fn connected(labels: &[usize], side: usize, label: usize) -> bool {
    let cells: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == label).collect();
    let Some(&start) = cells.first() else {
        return true;
    };
    let mut seen = vec![false; labels.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        let (r, c) = (i / side, i % side);
        let neighbours = [
            (r > 0).then(|| i - side),
            (r + 1 < side).then(|| i + side),
            (c > 0).then(|| i - 1),
            (c + 1 < side).then(|| i + 1),
        ];
        for j in neighbours.into_iter().flatten() {
            if !seen[j] && labels[j] == label {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    count == cells.len()
}

/// A deterministic generator for the randomized tests (`fastrand`, seeded): the same cases
/// for the same seed.
pub struct Rng(fastrand::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(fastrand::Rng::with_seed(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.u64(..)
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.usize(..n) }
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.0.u64(..100) < percent
    }
}
