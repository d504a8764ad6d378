//! Ownership of everything the web bot starts: the run's directory, the local driver process
//! tree (chromedriver or geckodriver, the browser it launches, the browser's helpers and content
//! processes) and the process-wide list that the signal handler uses when a second signal asks
//! for an immediate exit.
//!
//! Every exit path goes through [`DriverTree::stop`] and [`RunDir`]'s removal, in that order:
//! success, errors, panics (both run from `Drop`), signals ([`super::signals`]) and a driver that
//! died or hangs ([`super::session::Session`] notices it). The rules:
//!
//! - chromedriver runs in a process group of its own; the browser and its children inherit it,
//!   so one `killpg(SIGKILL)` stops the whole tree at once, also a driver wrapper script's
//!   children. Nothing is asked politely first: a polite quit waits for the command in flight,
//!   and that command may be typing.
//! - the driver gets `PR_SET_PDEATHSIG = SIGKILL` (Linux), so a sudobot killed with SIGKILL
//!   takes its driver with it; Chromium runs with `--remote-debugging-pipe` and exits by
//!   itself when the driver's end of the pipe closes, and Firefox starts through a wrapper that
//!   gives it the same parent-death signal towards geckodriver ([`super::browser`]). No key
//!   can be typed without the driver.
//! - the browser's `TMPDIR` (where Chromium puts `org.chromium.Chromium.*` and its shared
//!   memory files under `--disable-dev-shm-usage`), its profile and `XDG_CONFIG_HOME` (its crash
//!   database), and Firefox's `HOME` and XDG directories, are inside the run's own directory, so
//!   deleting that directory deletes every file the run made.
//! - the directory is deleted only after every process of the tree has exited (a browser that
//!   still runs would write its profile again), within a bound.
//! - a directory left by a run that was killed with SIGKILL is deleted by the next run (its
//!   name holds the owner's pid and start time).
//!
//! Several trees and directories can live in one process side by side (parallel sessions); the
//! only global is [`LIVE`], the list of live trees for the second-signal path.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::poll::poll_blocking;

/// How long stopping a tree may wait for its processes to be gone.
pub const STOP_BOUND: Duration = Duration::from_millis(1500);

const PREFIX: &str = "sudobot-run-";

/// The live trees and directories, for the second-signal path ([`stop_all_now`]).
static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());

#[derive(Clone, Debug)]
struct Live {
    pgid: i32,
    dir: PathBuf,
}

/// The run's own directory: `profile/` (the browser profile), `tmp/` (the browser's `TMPDIR`)
/// and `config/` (its `XDG_CONFIG_HOME`); for Firefox also `home/` (its `HOME` and XDG cache and
/// data directories) and the `firefox` start script ([`super::browser`]). Removed on
/// [`RunDir::remove`] or drop.
#[derive(Debug)]
pub struct RunDir {
    path: PathBuf,
    removed: bool,
}

impl RunDir {
    /// Creates a fresh directory under the system temporary directory, after deleting any that
    /// runs killed earlier left behind.
    pub fn create() -> std::io::Result<RunDir> {
        static SEQ: AtomicU32 = AtomicU32::new(0);
        let base = std::env::temp_dir();
        sweep_stale(&base, PREFIX);
        let me = std::process::id();
        let start = start_time(me).unwrap_or(0);
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let path = base.join(format!("{PREFIX}{me}-{start}-{seq}"));
        for sub in ["profile", "tmp", "config"] {
            std::fs::create_dir_all(path.join(sub))?;
        }
        Ok(RunDir { path, removed: false })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The browser profile (`--user-data-dir`).
    pub fn profile(&self) -> PathBuf {
        self.path.join("profile")
    }

    /// Deletes the directory (idempotent). Call only after the processes using it are gone.
    pub fn remove(&mut self) {
        if !self.removed {
            self.removed = true;
            if let Err(e) = std::fs::remove_dir_all(&self.path)
                && e.kind() != std::io::ErrorKind::NotFound
            {
                tracing::warn!("cannot delete {}: {e}", self.path.display());
            }
        }
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Deletes the directories `PREFIX` + `PID-START-N` in `base` whose process is gone (this bot's
/// run directories, the desktop bot's save directories).
pub(crate) fn sweep_stale(base: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(prefix)) else {
            continue;
        };
        let mut parts = rest.split('-');
        let (Some(Ok(pid)), Some(Ok(start)), Some(_)) = (
            parts.next().map(str::parse::<u32>),
            parts.next().map(str::parse::<u64>),
            parts.next(),
        ) else {
            continue;
        };
        if start_time(pid) != Some(start) {
            tracing::debug!("deleting {} left by an earlier run", entry.path().display());
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A process's start time in clock ticks since boot (`/proc/PID/stat` field 22).
pub(crate) fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(19)?.parse().ok()
}

/// What a process is doing, from `/proc/PID/stat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcState {
    /// Running or sleeping.
    Alive,
    /// Stopped (SIGSTOP, SIGTSTP) or traced.
    Stopped,
    /// Exited (a zombie, or gone).
    Gone,
}

/// The state of a process.
pub fn proc_state(pid: i32) -> ProcState {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return ProcState::Gone;
    };
    match stat.rsplit_once(')').and_then(|(_, r)| r.split_whitespace().next()) {
        Some("Z" | "X" | "x") | None => ProcState::Gone,
        Some("T" | "t") => ProcState::Stopped,
        Some(_) => ProcState::Alive,
    }
}

/// A spawned driver and every process it started, in their own process group.
#[derive(Debug)]
pub struct DriverTree {
    child: Mutex<Child>,
    pid: i32,
    binary: String,
    dir_marker: String,
    stopped: bool,
}

impl DriverTree {
    /// Spawns `binary ARGS` in a new process group with the run directory's `TMPDIR` and
    /// `XDG_CONFIG_HOME`, the variables in `env`, and (Linux) a parent-death signal. Must be
    /// called from a thread that lives as long as the driver (the main thread or a runtime
    /// worker, never a thread of `spawn_blocking`): the parent-death signal follows the spawning
    /// thread.
    pub fn spawn(
        binary: &str,
        args: &[String],
        env: &[(&str, PathBuf)],
        dir: &RunDir,
    ) -> std::io::Result<DriverTree> {
        let mut cmd = Command::new(binary);
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .env("TMPDIR", dir.path().join("tmp"))
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .envs(env.iter().map(|(k, v)| (k, v)));
        sys::own_group(&mut cmd);
        let child = cmd.spawn()?;
        let pid = child.id() as i32;
        if let Ok(mut live) = LIVE.lock() {
            live.push(Live { pgid: pid, dir: dir.path().to_path_buf() });
        }
        tracing::debug!(pid, binary, ?args, "driver spawned in its own process group");
        Ok(DriverTree {
            child: Mutex::new(child),
            pid,
            binary: binary.to_string(),
            dir_marker: dir.path().display().to_string(),
            stopped: false,
        })
    }

    /// The driver's pid (also its process group).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The driver binary.
    pub fn binary(&self) -> &str {
        &self.binary
    }

    /// The driver's state.
    pub fn state(&self) -> ProcState {
        proc_state(self.pid)
    }

    /// Running processes of the tree other than the driver itself (the browser and helpers).
    pub fn children(&self) -> Vec<i32> {
        let mut all = tree_members(self.pid, &self.dir_marker);
        all.retain(|&p| p != self.pid);
        all
    }

    /// The driver's exit status, if it exited (reaps it). A process killed with many threads
    /// shows as a zombie (its main thread) a moment before it can be reaped: this waits up to
    /// 300 ms for that.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        let reaped = poll_blocking(
            Duration::from_millis(300),
            Duration::from_millis(5),
            "the driver to be reaped",
            |_| match self.child.lock() {
                Ok(mut child) => Ok(child.try_wait().ok().flatten()),
                Err(_) => Err(()),
            },
        );
        reaped.ok()
    }

    /// Kills the whole tree at once (SIGKILL to the group and to strays that carry the run
    /// directory in their arguments), reaps the driver and waits (bounded) until no process of
    /// the tree runs. Returns the pids still running after the bound (empty on success).
    pub fn stop(&mut self) -> Vec<i32> {
        if self.stopped {
            return Vec::new();
        }
        self.stopped = true;
        let started = Instant::now();
        sys::kill_group(self.pid);
        let left = wait_gone(self.pid, &self.dir_marker, STOP_BOUND, || {
            if let Ok(mut c) = self.child.lock() {
                let _ = c.try_wait();
            }
        });
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|l| l.pgid != self.pid);
        }
        tracing::debug!(pid = self.pid, ?left, elapsed = ?started.elapsed(), "driver tree stopped");
        left
    }
}

impl Drop for DriverTree {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Kills every process of the group and every stray whose arguments name the run directory,
/// repeatedly, until none runs or the bound passes. Returns what still runs.
fn wait_gone(pgid: i32, marker: &str, bound: Duration, mut reap: impl FnMut()) -> Vec<i32> {
    let mut left = Vec::new();
    let gone = poll_blocking(bound, Duration::from_millis(5), "the driver tree to go", |_| {
        reap();
        left = tree_members(pgid, marker);
        if left.is_empty() {
            return Ok::<_, ()>(Some(()));
        }
        for &pid in &left {
            sys::kill_pid(pid);
        }
        Ok(None)
    });
    match gone {
        Ok(()) => Vec::new(),
        Err(_) => left,
    }
}

/// Running (not zombie) processes in the group, or whose command line names the run directory
/// (Chromium's crash handler leaves the group; it carries its database path, which is inside).
fn tree_members(pgid: i32, marker: &str) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next().unwrap_or("Z");
        if matches!(state, "Z" | "X" | "x") {
            continue;
        }
        // After the state: ppid, then pgrp.
        let group = fields.nth(1).and_then(|g| g.parse::<i32>().ok());
        let named = || {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains(marker))
                .unwrap_or(false)
        };
        if group == Some(pgid) || (!marker.is_empty() && named()) {
            out.push(pid);
        }
    }
    out
}

/// The second-signal path: SIGKILL every live tree, wait for them briefly, delete their
/// directories. Safe to call from any thread; never blocks on a lock held elsewhere.
pub fn stop_all_now() {
    let live: Vec<Live> = match LIVE.try_lock() {
        Ok(l) => l.clone(),
        Err(_) => return,
    };
    for l in &live {
        sys::kill_group(l.pgid);
    }
    for l in &live {
        let marker = l.dir.display().to_string();
        if wait_gone(l.pgid, &marker, Duration::from_millis(500), || {}).is_empty() {
            let _ = std::fs::remove_dir_all(&l.dir);
        }
    }
    // Tabs sudobot opened in a browser the user runs (`--attach`) go too; nothing else of it.
    super::attach::close_all_now();
}

/// The first-signal path: SIGKILL every live tree at once, without waiting (their sessions
/// then close and wait for them one by one; with several sessions no browser may type while
/// another tree is being waited for). Never blocks on a lock held elsewhere.
pub fn kill_all_now() {
    if let Ok(live) = LIVE.try_lock() {
        for l in live.iter() {
            sys::kill_group(l.pgid);
        }
    }
    // A browser the user runs (`--attach`) outlives the driver: sudobot's tab goes at once,
    // with the keys already handed to it.
    super::attach::close_all_now();
}

/// Whether any tree is live (tests of the library).
pub fn live_trees() -> usize {
    LIVE.lock().map(|l| l.len()).unwrap_or(0)
}

#[cfg(unix)]
mod sys {
    //! Process groups, signals and the parent-death signal.

    use std::os::unix::process::CommandExt;
    use std::process::Command;

    use nix::sys::signal::{Signal, kill, killpg};
    use nix::unistd::Pid;

    /// Puts the child in a new process group (its pid) and arms its parent-death signal.
    pub fn own_group(cmd: &mut Command) {
        cmd.process_group(0);
        #[cfg(target_os = "linux")]
        pdeathsig(cmd);
    }

    /// The child gets SIGKILL when the thread that spawned it exits (with the whole process on
    /// SIGKILL or exit).
    /// The crate's only `unsafe`: `pre_exec` has no safe equivalent, and the parent-death
    /// signal is what stops a driver (and with it all typing) when sudobot is killed outright.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    fn pdeathsig(cmd: &mut Command) {
        let parent = std::process::id() as i32;
        // SAFETY: the closure runs in the child between fork and exec. It calls only prctl(2)
        // and getppid(2), which are async-signal-safe, allocates nothing and takes no lock
        // (`io::Error::from_raw_os_error` and nix's `Errno` conversion do not allocate).
        // `parent` is computed before the fork. If the parent died between fork and prctl,
        // getppid no longer matches and the child exits instead of running unowned.
        unsafe {
            cmd.pre_exec(move || {
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(std::io::Error::from)?;
                if nix::unistd::getppid().as_raw() != parent {
                    return Err(std::io::Error::from_raw_os_error(nix::libc::ESRCH));
                }
                Ok(())
            });
        }
    }

    /// SIGKILL to the group.
    pub fn kill_group(pgid: i32) {
        if pgid > 1 {
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
        }
    }

    /// SIGKILL to one process.
    pub fn kill_pid(pid: i32) {
        if pid > 1 {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
mod sys {
    //! Without process groups only the driver itself can be stopped (by `Child::kill` in the
    //! caller's reaping); the browser is chromedriver's to stop.
    pub fn own_group(_cmd: &mut std::process::Command) {}
    pub fn kill_group(_pgid: i32) {}
    pub fn kill_pid(_pid: i32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_with_a_grandchild_is_stopped_whole() {
        let dir = RunDir::create().unwrap();
        let path = dir.path().to_path_buf();
        // A "driver" that starts a grandchild and ignores SIGTERM: only SIGKILL to the group
        // stops both. It takes `--port=N` as $0's first argument and ignores it.
        let script = dir.path().join("driver.sh");
        std::fs::write(&script, "#!/bin/sh\ntrap '' TERM\nsleep 300 &\nsleep 300\n").unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let args = ["--port=1".to_string()];
        let mut tree = DriverTree::spawn(script.to_str().unwrap(), &args, &[], &dir).unwrap();
        let pgid = tree.pid();
        let _ =
            poll_blocking(Duration::from_secs(5), Duration::from_millis(5), "3 members", |_| {
                Ok::<_, ()>((tree_members(pgid, "").len() >= 3).then_some(()))
            });
        assert_eq!(
            tree_members(pgid, "").len(),
            3,
            "sh and two sleeps run: {:?} {:?}",
            tree.state(),
            tree.exit_status()
        );
        assert_eq!(tree.state(), ProcState::Alive);
        assert!(tree.stop().is_empty());
        assert!(tree_members(pgid, "").is_empty());
        assert!(tree.exit_status().is_some() || tree.state() == ProcState::Gone);
        drop(tree);
        drop(dir);
        assert!(!path.exists());
    }

    #[test]
    fn stale_directories_of_dead_runs_are_swept() {
        let base = std::env::temp_dir();
        // pid 0 never names a live process.
        let stale = base.join(format!("{PREFIX}0-1-0"));
        std::fs::create_dir_all(stale.join("tmp")).unwrap();
        let mine = RunDir::create().unwrap();
        assert!(!stale.exists());
        assert!(mine.path().exists());
        let again = RunDir::create().unwrap();
        assert!(mine.path().exists(), "a live run's directory is kept");
        drop(again);
    }
}
