//! `--profile DIR`: a persistent profile for the browser sudobot starts (Chromium's
//! `--user-data-dir`, Firefox's `-profile`), so a login made once is used again. A profile that
//! a running browser holds is refused before any driver starts: Chromium would hand the run to
//! the running browser and exit (chromedriver then waits for nothing), Firefox would say the
//! profile is in use.
//!
//! The locks, looked at as the browsers themselves look at them:
//! - Chromium's `SingletonLock` is a symbolic link to `HOST-PID`.
//! - Firefox on Linux and the BSDs takes two: the symbolic link `lock` -> `ADDRESS:+PID`, and a
//!   POSIX record lock (`fcntl`) on the empty file `.parentlock`. The file itself stays after
//!   Firefox exits, so only the record lock says it is held; the link stays after Firefox was
//!   killed, so only a live process behind it says it is held. Either one held refuses the
//!   profile, as Firefox refuses it. (Windows' Firefox keeps `parent.lock` open instead.)
//!
//! A link whose process is gone is stale: the browser replaces it.

use std::path::{Path, PathBuf};

use super::browser::Browser;

/// Why a profile cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// A running browser holds it.
    #[error(
        "the profile {dir} is in use by a running browser ({lock} -> {target}); close that \
         browser first, or play in it with --attach"
    )]
    InUse {
        /// The profile.
        dir: PathBuf,
        /// The lock file.
        lock: String,
        /// What the lock says.
        target: String,
    },
    /// It exists and is not a directory, or cannot be made.
    #[error("the profile {dir} cannot be used: {reason}")]
    Unusable {
        /// The profile.
        dir: PathBuf,
        /// Why.
        reason: String,
    },
}

/// The files of a Firefox profile that a run changes in place and that are put back as they
/// were once the browser is gone: geckodriver writes its automation preferences into `user.js`
/// (and leaves them there when the profile had none), and Firefox copies them into `prefs.js`
/// (pop-up blocking off, no update checks, a Marionette port, ...). A login lives elsewhere
/// (`cookies.sqlite`) and stays. Put back by [`Kept::restore`] or on drop; a run killed with
/// SIGKILL cannot put them back.
#[derive(Debug)]
pub struct Kept {
    files: Vec<(PathBuf, Option<Vec<u8>>)>,
}

impl Kept {
    /// Saves what `browser`'s run may change in the profile `dir` (nothing for Chromium, whose
    /// driver writes no preference into the profile).
    pub fn save(browser: Browser, dir: &Path) -> Kept {
        let names: &[&str] = match browser {
            Browser::Chromium => &[],
            Browser::Firefox => &["user.js", "prefs.js"],
        };
        let files = names
            .iter()
            .map(|name| {
                let path = dir.join(name);
                let before = std::fs::read(&path).ok();
                (path, before)
            })
            .collect();
        Kept { files }
    }

    /// Puts the files back as they were (a file that was not there is removed). Call once no
    /// process of the browser runs (Firefox writes `prefs.js` while it runs and as it quits).
    pub fn restore(&mut self) {
        for (path, before) in self.files.drain(..) {
            let result = match before {
                Some(bytes) => std::fs::write(&path, bytes),
                None => std::fs::remove_file(&path).or_else(|e| {
                    if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) }
                }),
            };
            if let Err(e) = result {
                tracing::warn!("cannot put back {} as it was: {e}", path.display());
            }
        }
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        self.restore();
    }
}

/// The command line (in backquotes) that opens `browser` on the profile `dir`, for the user to
/// log in there by hand.
pub fn open_command(browser: Browser, dir: &Path) -> String {
    let dir = dir.display();
    match browser {
        Browser::Chromium => format!("`chromium --user-data-dir={dir}`"),
        Browser::Firefox => format!("`firefox -no-remote -profile {dir}`"),
    }
}

/// Checks that `dir` can be the browser's profile: a directory (made when missing) that no
/// running browser holds.
pub fn check(browser: Browser, dir: &Path) -> Result<(), ProfileError> {
    let unusable = |reason: String| ProfileError::Unusable { dir: dir.to_path_buf(), reason };
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => return Err(unusable("not a directory".into())),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| unusable(e.to_string()))?;
            return Ok(());
        }
        Err(e) => return Err(unusable(e.to_string())),
    }
    let locks: &[&str] = match browser {
        Browser::Chromium => &["SingletonLock"],
        Browser::Firefox => &["lock", "parent.lock"],
    };
    for name in locks {
        let path = dir.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let in_use = |target: String| ProfileError::InUse {
            dir: dir.to_path_buf(),
            lock: (*name).to_string(),
            target,
        };
        if !meta.file_type().is_symlink() {
            // Windows' parent.lock (a plain file held open): present means in use only there.
            if cfg!(windows) {
                return Err(in_use("a lock file".into()));
            }
            continue;
        }
        let target = std::fs::read_link(&path).unwrap_or_default().display().to_string();
        if holder_alive(&target) {
            return Err(in_use(target));
        }
        tracing::debug!("{} is a stale lock ({target}): the browser replaces it", path.display());
    }
    if browser == Browser::Firefox
        && let Some(holder) = record_lock_holder(&dir.join(".parentlock"))
    {
        return Err(ProfileError::InUse {
            dir: dir.to_path_buf(),
            lock: ".parentlock".into(),
            target: format!("locked by pid {holder}"),
        });
    }
    Ok(())
}

/// Whether the process a lock names (`HOST-PID` or `ADDRESS:+PID`) runs. A lock of another
/// host counts as held (it cannot be checked from here).
fn holder_alive(target: &str) -> bool {
    let (host, pid) = match target.rsplit_once(":+").or_else(|| target.rsplit_once('-')) {
        Some(parts) => parts,
        None => return true,
    };
    let Ok(pid) = pid.parse::<i32>() else {
        return true;
    };
    // Firefox writes an address of this host; Chromium the host name.
    let ours = hostname();
    let local =
        ours.is_none() || ours.as_deref() == Some(host) || host.parse::<std::net::IpAddr>().is_ok();
    if !local {
        return true;
    }
    super::owner::proc_state(pid) != super::owner::ProcState::Gone
}

/// The process holding a POSIX record lock on `file` (Firefox's `.parentlock`), if one does
/// (`F_GETLK`, which takes no lock itself). A missing or unreadable file holds nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn record_lock_holder(file: &Path) -> Option<i32> {
    use nix::fcntl::{FcntlArg, fcntl};
    use nix::libc;
    let handle = std::fs::File::open(file).ok()?;
    // A write lock over the whole file: any lock another process holds conflicts with it.
    let mut probe = libc::flock {
        l_type: libc::F_WRLCK as libc::c_short,
        l_whence: libc::SEEK_SET as libc::c_short,
        l_start: 0,
        l_len: 0,
        l_pid: 0,
    };
    fcntl(&handle, FcntlArg::F_GETLK(&mut probe)).ok()?;
    (probe.l_type != libc::F_UNLCK as libc::c_short).then_some(probe.l_pid)
}

/// Elsewhere only the `lock` link is looked at.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn record_lock_holder(_file: &Path) -> Option<i32> {
    None
}

fn hostname() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_lock_of_a_live_process_is_refused_and_a_stale_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let host = hostname().unwrap_or_default();
        let me = std::process::id();
        let lock = dir.path().join("SingletonLock");
        std::os::unix::fs::symlink(format!("{host}-{me}"), &lock).unwrap();
        let err = check(Browser::Chromium, dir.path()).unwrap_err().to_string();
        assert!(err.contains("in use by a running browser") && err.contains("--attach"), "{err}");
        // Firefox does not look at Chromium's lock.
        check(Browser::Firefox, dir.path()).unwrap();
        std::fs::remove_file(&lock).unwrap();
        // A pid that is gone (a child reaped).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        std::os::unix::fs::symlink(format!("{host}-{gone}"), &lock).unwrap();
        check(Browser::Chromium, dir.path()).unwrap();
        std::os::unix::fs::symlink(format!("127.0.1.1:+{me}"), dir.path().join("lock")).unwrap();
        let err = check(Browser::Firefox, dir.path()).unwrap_err().to_string();
        assert!(err.contains("lock -> 127.0.1.1:+"), "{err}");
    }

    #[test]
    fn kept_files_are_put_back_and_new_ones_removed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("user.js"), "mine").unwrap();
        let mut kept = Kept::save(Browser::Firefox, dir.path());
        std::fs::write(dir.path().join("user.js"), "geckodriver's").unwrap();
        std::fs::write(dir.path().join("prefs.js"), "firefox's").unwrap();
        kept.restore();
        assert_eq!(std::fs::read_to_string(dir.path().join("user.js")).unwrap(), "mine");
        assert!(!dir.path().join("prefs.js").exists());
        // Chromium keeps nothing: its files are left alone.
        std::fs::write(dir.path().join("prefs.js"), "x").unwrap();
        drop(Kept::save(Browser::Chromium, dir.path()));
        assert!(dir.path().join("prefs.js").exists());
    }

    #[test]
    fn a_missing_profile_is_made_and_a_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("a/b");
        check(Browser::Chromium, &new).unwrap();
        assert!(new.is_dir());
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let err = check(Browser::Firefox, &file).unwrap_err().to_string();
        assert!(err.contains("not a directory"), "{err}");
    }
}
