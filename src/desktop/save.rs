//! Reading a game through Game > Save... where Game > Copy does not exist (Killer): the game
//! is saved to a file in a private temporary directory, read back and replayed over the game
//! ID's givens ([`crate::format::solo_save`]).
//!
//! The save dialog (`Enter name of game file to save`, on both front ends) gets the file's
//! path by the clipboard (Ctrl+A, Ctrl+V), not by typing it, so no letter of the path can
//! reach the game if the dialog lost the focus. The clipboard is shared with every other
//! program, so what was pasted is not taken on trust: the field is copied back (Ctrl+A,
//! Ctrl+C, over a mark put on the clipboard first, so only that copy can replace it) and the
//! dialog is confirmed only when the copy is the path. It is confirmed with Alt+S (the dialog's
//! `_Save` / `&Save` button) after a short pause ([`settle`]): GTK's file chooser drops a
//! confirmation that follows a change of its entry too closely, so the paste and Alt+S are
//! repeated while the dialog stays open. Alt+S is harmless if it reaches the game (`s` is no
//! value and no command on a grid of side 9 or less, and neither front end has a menu on
//! Alt+S), unlike Return, which toggles the pencil mode. The dialog must be seen: a backend that cannot see
//! windows refuses before anything is typed.
//!
//! The directory is created with mode 0700 under the temporary directory, registered so a
//! signal handler can remove it ([`remove_private_dirs`]) and removed when dropped. Its name
//! carries the owner's process ID and start time, so a later run removes the directories of
//! runs that were killed outright ([`sweep_stale`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use super::backend::{Desktop, wait_for};
use super::game::{POLL, pick, send_command, sentinel};
use super::menu::{MenuItem, Platform};
use super::send::Command;
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

/// Names start with this, then the owner's process ID and start time (`PID-START-`).
const PREFIX: &str = "sudobot-save-";

/// Removes the save directories under the temporary directory whose run is gone (killed
/// outright, so it could not remove its own); those of live runs stay.
pub fn sweep_stale() {
    crate::web::owner::sweep_stale(&std::env::temp_dir(), PREFIX);
}

/// A private temporary directory for save files, removed on drop.
#[derive(Debug)]
pub struct PrivateDir {
    dir: tempfile::TempDir,
    files: usize,
}

impl PrivateDir {
    /// Creates a fresh directory only this user can enter, under the temporary directory.
    pub fn new() -> Result<PrivateDir, DesktopError> {
        let base = std::env::temp_dir();
        let me = std::process::id();
        let start = crate::web::owner::start_time(me).unwrap_or(0);
        let mut builder = tempfile::Builder::new();
        let prefix = format!("{PREFIX}{me}-{start}-");
        builder.prefix(&prefix);
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
        let dir = builder.tempdir_in(&base).map_err(|e| {
            DesktopError::SaveFile(format!(
                "cannot make a private directory in {}: {e}",
                base.display()
            ))
        })?;
        if let Ok(mut live) = LIVE.lock() {
            live.push(dir.path().to_path_buf());
        }
        tracing::debug!("save directory {}", dir.path().display());
        Ok(PrivateDir { dir, files: 0 })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A file name not used before in this directory.
    fn next_file(&mut self) -> PathBuf {
        self.files += 1;
        self.path().join(format!("game-{}.sav", self.files))
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        // The directory itself goes with `dir`, dropped right after.
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|p| p != self.dir.path());
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
    tracing::debug!("saving the game to {}", path.display());
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
    let name = dialog_path(opts.platform, path);
    desktop.set_clipboard_text(&name)?;
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
            send_command(d, opts, Command::PasteOver)?;
            d.pause(settle(opts.platform));
            if opts.platform.save_field_copies() && !field_holds(d, opts, &name)? {
                // Another program's text was pasted (or none): paste the path again.
                tracing::debug!("the save dialog's field is not the path: pasting again");
                d.set_clipboard_text(&name)?;
                return Ok(None);
            }
            if d.focus_dialog(SAVE_DIALOG_TITLE)? == Some(true) {
                send_command(d, opts, Command::Save)?;
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

/// Whether the save dialog (focused, with its field focused) holds exactly `name`, by copying
/// the field: the clipboard gets a mark first, so only the copy can change it, and a copy that
/// does not come within a short bound counts as no.
fn field_holds<D: Desktop + ?Sized>(
    desktop: &mut D,
    opts: &Options,
    name: &str,
) -> Result<bool, DesktopError> {
    if desktop.focus_dialog(SAVE_DIALOG_TITLE)? != Some(true) {
        return Ok(false);
    }
    let mark = sentinel(desktop.elapsed());
    desktop.set_clipboard_text(&mark)?;
    send_command(desktop, opts, Command::CopyField)?;
    let copied = wait_for(opts, desktop, "the save dialog's field", COPY_BOUND, POLL, |d| {
        Ok(d.clipboard_text()?.filter(|t| *t != mark))
    });
    match copied {
        Ok(text) => {
            tracing::debug!("the save dialog's field holds {text:?}");
            Ok(text == name)
        }
        Err(DesktopError::Timeout { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// How long a copy of the save dialog's field may take to reach the clipboard.
const COPY_BOUND: Duration = Duration::from_millis(500);

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
