//! One bot per game: a run holds an advisory lock on a file named after the game window, so a
//! second bot started on the same game refuses before it sends anything (two bots' menu keys
//! and clipboard pastes would mix). The lock goes with the file descriptor, so the system
//! releases it on every exit, SIGKILL included.
//!
//! The file lives in the user's runtime directory (`XDG_RUNTIME_DIR`), else the temporary
//! directory. The holder deletes it before it lets go, so a bot that opened it just before
//! and locks it then holds a lock on a deleted file: it checks that the path still names the
//! file it locked, and else starts over.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::error::DesktopError;

/// A held lock on one game; dropping it deletes the file and lets go.
#[derive(Debug)]
pub struct GameLock {
    path: PathBuf,
    _file: File,
}

impl GameLock {
    /// Locks the game window named by `key` (the backend's [`super::Desktop::game_window_key`]),
    /// failing with [`DesktopError::Busy`] while another run holds it.
    pub fn take(key: &str) -> Result<GameLock, DesktopError> {
        let dir = std::env::var_os("XDG_RUNTIME_DIR")
            .map(PathBuf::from)
            .filter(|d| d.is_dir())
            .unwrap_or_else(std::env::temp_dir);
        let name: String =
            key.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        GameLock::take_at(dir.join(format!("sudobot-game-{name}.lock")), key)
    }

    fn take_at(path: PathBuf, key: &str) -> Result<GameLock, DesktopError> {
        let failed = |source| DesktopError::Lock { path: path.clone(), source };
        // Three tries: each lost race means a holder let go just now.
        for _ in 0..3 {
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(failed)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => break,
                Err(TryLockError::Error(e)) => return Err(failed(e)),
            }
            if names(&path, &file) {
                tracing::debug!("locked the game: {}", path.display());
                return Ok(GameLock { path, _file: file });
            }
        }
        Err(DesktopError::Busy { window: key.to_string() })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for GameLock {
    fn drop(&mut self) {
        // Deleted while still locked; the lock goes when the file closes right after.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether `path` names the open `file` (not deleted or replaced since it was opened).
#[cfg(unix)]
fn names(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(path), file.metadata()) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Windows does not delete a file another process holds open.
#[cfg(not(unix))]
fn names(path: &Path, _file: &File) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_game_is_refused_until_the_first_goes() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("game.lock");
        let first = GameLock::take_at(path.clone(), "w1").expect("first");
        let err = GameLock::take_at(path.clone(), "w1").expect_err("second");
        assert!(matches!(err, DesktopError::Busy { .. }), "{err}");
        assert!(err.to_string().contains("nothing was typed"), "{err}");
        drop(first);
        assert!(!path.exists(), "the lock file is deleted");
        let again = GameLock::take_at(path.clone(), "w1").expect("free again");
        assert_eq!(again.path(), path);
        // Another game is another file.
        GameLock::take_at(dir.path().join("other.lock"), "w2").expect("another game");
    }
}
