//! Helpers shared by several test modules.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `kill SIGNAL -- TARGET` (a pid, or `-PGID` for a process group), quietly: the target may be
/// gone already.
pub fn signal(signal: &str, target: &str) {
    let _ = Command::new("kill").args([signal, "--", target]).stderr(Stdio::null()).status();
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

/// A small deterministic generator for the randomized tests (xorshift64*): the same cases for
/// the same seed. The seed must not be 0 (callers pass `seed | 1`).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}
