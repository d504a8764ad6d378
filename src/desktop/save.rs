//! Reading a game through Game > Save... where Game > Copy does not exist (Killer): the game
//! is saved to a file in a private temporary directory, read back and replayed over the game
//! ID's givens ([`crate::format::solo_save`]).
//!
//! The save dialog (`Enter name of game file to save`, on both front ends) gets the file's
//! path by the clipboard (Ctrl+A, Ctrl+V), not by typing it, so no letter of the path can
//! reach the game if the dialog lost the focus. It is confirmed with Alt+S (the dialog's
//! `_Save` / `&Save` button) after a short pause ([`settle`]): GTK's file chooser drops a
//! confirmation that follows a change of its entry too closely, so the paste and Alt+S are
//! repeated while the dialog stays open. Alt+S is harmless if it reaches the game (`s` is no
//! value and no command on a grid of side 9 or less, and neither front end has a menu on
//! Alt+S), unlike Return, which toggles the pencil mode. The dialog must be seen: a backend that cannot see
//! windows refuses before anything is typed.
//!
//! The directory is created with mode 0700 under the temporary directory, registered so a
//! signal handler can remove it ([`remove_private_dirs`]) and removed when dropped.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use super::backend::{Desktop, wait_for};
use super::game::{POLL, pick, send_keys};
use super::keys::Key;
use super::menu::{MenuItem, Platform};
use super::{DesktopError, Options};
use crate::format::solo_save::{Board, SaveFile};
use crate::grid::Grid;

/// The save dialog's title on both front ends (`gtk.c`, `windows.c`).
pub const SAVE_DIALOG_TITLE: &str = "Enter name of game file to save";

/// Directories alive now, for [`remove_private_dirs`].
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every private directory still alive (for a signal handler about to exit).
pub fn remove_private_dirs() {
    let dirs = match LIVE.lock() {
        Ok(mut live) => std::mem::take(&mut *live),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    };
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A private temporary directory for save files, removed on drop.
#[derive(Debug)]
pub struct PrivateDir {
    path: PathBuf,
    files: usize,
}

impl PrivateDir {
    /// Creates a fresh directory only this user can enter, under the temporary directory.
    pub fn new() -> Result<PrivateDir, DesktopError> {
        let base = std::env::temp_dir();
        let mut last = None;
        for _ in 0..16 {
            let path =
                base.join(format!("sudobot-save-{}-{:08x}", std::process::id(), fastrand::u32(..)));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(&path) {
                Ok(()) => {
                    if let Ok(mut live) = LIVE.lock() {
                        live.push(path.clone());
                    }
                    return Ok(PrivateDir { path, files: 0 });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(DesktopError::SaveFile(format!("{}: {e}", path.display()))),
            }
        }
        Err(DesktopError::SaveFile(format!(
            "cannot make a private directory in {}: {}",
            base.display(),
            last.map(|e| e.to_string()).unwrap_or_default()
        )))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A file name not used before in this directory.
    fn next_file(&mut self) -> PathBuf {
        self.files += 1;
        self.path.join(format!("game-{}.sav", self.files))
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|p| p != &self.path);
        }
    }
}

/// The path as the game's file dialog takes it: the Win32 front end on a Unix machine runs
/// under Wine, whose drive `Z:` is the root directory.
pub fn dialog_path(platform: Platform, path: &Path) -> String {
    let text = path.to_string_lossy();
    if platform == Platform::Windows && cfg!(unix) {
        format!("Z:{}", text.replace('/', "\\"))
    } else {
        text.into_owned()
    }
}

/// Fails unless the backend can see the save dialog (checked before anything is typed).
pub fn check_backend<D: Desktop + ?Sized>(desktop: &mut D) -> Result<(), DesktopError> {
    match desktop.focus_dialog(SAVE_DIALOG_TITLE)? {
        Some(false) => Ok(()),
        Some(true) => Err(DesktopError::Blocked { what: format!("dialog {SAVE_DIALOG_TITLE:?}") }),
        None => Err(DesktopError::CannotSave {
            why: "this desktop backend cannot see the game's dialogs".into(),
        }),
    }
}

/// Saves the game through Game > Save... into `dir` and reads the save file back.
pub fn save_game<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    dir: &mut PrivateDir,
) -> Result<SaveFile, DesktopError> {
    if opts.aborted() {
        desktop.release_all();
        return Err(DesktopError::Aborted);
    }
    let path = dir.next_file();
    let result = try_save(desktop, opts, &path);
    if result.is_err() && desktop.focus_dialog(SAVE_DIALOG_TITLE)? == Some(true) {
        desktop.close_dialog(SAVE_DIALOG_TITLE)?;
    }
    let _ = std::fs::remove_file(&path);
    desktop.focus_game()?;
    result
}

fn try_save<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    path: &Path,
) -> Result<SaveFile, DesktopError> {
    desktop.set_clipboard_text(&dialog_path(opts.platform, path))?;
    pick(desktop, opts, MenuItem::Save)?;
    wait_for(opts, desktop, "the Game > Save... dialog", opts.timeout, POLL, |d| {
        Ok(d.focus_dialog(SAVE_DIALOG_TITLE)?.filter(|&open| open))
    })?;
    // Paste the path and confirm while the dialog stays open; each round focuses it first.
    // A round outlasts a confirmation GTK is still working on (about 0.6 s): pasting again
    // while it works can lose it.
    let round = Duration::from_millis(1500);
    let bound = opts.timeout * 2;
    let closed =
        wait_for(opts, desktop, "the save dialog to take the file name", bound, POLL, |d| {
            if d.focus_dialog(SAVE_DIALOG_TITLE)? != Some(true) {
                return Ok(Some(()));
            }
            send_keys(d, opts, &[Key::Ctrl('a'), Key::Ctrl('v')])?;
            d.pause(settle(opts.platform));
            if d.focus_dialog(SAVE_DIALOG_TITLE)? == Some(true) {
                send_keys(d, opts, &[Key::Alt('s')])?;
            }
            let gone = wait_for(opts, d, "the save dialog to close", round, POLL, |d| {
                Ok((d.focus_dialog(SAVE_DIALOG_TITLE)? == Some(false)).then_some(()))
            });
            match gone {
                Ok(()) => Ok(Some(())),
                Err(DesktopError::Timeout { .. }) => Ok(None),
                Err(e) => Err(e),
            }
        });
    closed?;
    // The game writes the file once the dialog is gone: wait until it is complete.
    let what = format!("the save file {}", path.display());
    wait_for(opts, desktop, &what, opts.timeout, POLL, |_| {
        let Ok(bytes) = std::fs::read(path) else { return Ok(None) };
        Ok(SaveFile::parse(&bytes).ok())
    })
}

/// The pause between pasting the file name and confirming. GTK's file chooser drops, in
/// about 4 of 10 tries measured here, a confirmation that follows a change of its entry within
/// about 0.15 s (it is still loading the folder for its completion, which nothing outside the
/// game can observe); after 0.25 s, 11 of 11 went through at once. The Win32 dialog needs none.
pub fn settle(platform: Platform) -> Duration {
    match platform {
        Platform::Gtk => Duration::from_millis(250),
        Platform::Windows => Duration::ZERO,
    }
}

/// Saves the game and replays the save file over the ID's givens (`desc`: the ID after `:`).
pub fn read_board<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    dir: &mut PrivateDir,
    givens: &Grid,
    desc: &str,
) -> Result<(Board, SaveFile), DesktopError> {
    let file = save_game(desktop, opts, dir)?;
    let board = file.replay(givens, desc).map_err(|source| DesktopError::BadSave { source })?;
    Ok((board, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_dirs_are_private_and_removed() {
        let dir = PrivateDir::new().expect("dir");
        let path = dir.path().to_path_buf();
        assert!(path.is_dir());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        std::fs::write(path.join("x.sav"), "x").expect("write");
        drop(dir);
        assert!(!path.exists());
        // Registered for a signal handler until dropped (not removed here: other tests'
        // directories are registered too).
        let dir = PrivateDir::new().expect("dir");
        let path = dir.path().to_path_buf();
        assert!(LIVE.lock().expect("lock").contains(&path));
        drop(dir);
        assert!(!LIVE.lock().expect("lock").contains(&path));
    }

    #[test]
    fn wine_paths_are_on_drive_z() {
        let p = Path::new("/tmp/sudobot-save-1/game-1.sav");
        assert_eq!(dialog_path(Platform::Gtk, p), "/tmp/sudobot-save-1/game-1.sav");
        if cfg!(unix) {
            assert_eq!(dialog_path(Platform::Windows, p), "Z:\\tmp\\sudobot-save-1\\game-1.sav");
        }
    }
}
