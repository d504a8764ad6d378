//! The Win32 front end of Solo (`windows.c`, what MobaXterm's Games menu runs), built from
//! Debian's sgt-puzzles source with mingw-w64 by `.ci/solo-exe`, under Wine on a private Xvfb
//! display with openbox. `sudobot desktop --auto` runs with no `--platform`: it must recognise
//! the front end by the window's WM_CLASS (`solo.exe`) and use its keys. Each board is read back
//! independently through the front end's own Game > Copy (xdotool + xclip) and checked here; a
//! Killer game (no Copy) through the front end's own Game > Save... and a replay here.
//!
//! One display and one Wine prefix (with its server) serve every case; at the end the server is
//! stopped with `wineserver -k` and the test checks no process of its prefix is left.
//! The test skips, saying why, only when Wine cannot be installed (no root and no sudo).

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use super::harness::{Screen, require_tools, save_complete, save_moves, wait_until};
use super::killer;
use super::{expected_solved, game_id};
use sudobot::format::{solo_id, solo_text};
use sudobot::grid::Grid;

/// solo.exe, built (and Wine installed) by `.ci/solo-exe`; `None`, with a message, when Wine
/// cannot be installed here.
fn solo_exe() -> Option<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash").arg(format!("{root}/.ci/solo-exe")).output().expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        return Some(String::from_utf8_lossy(&out.stdout).trim().to_string());
    }
    if stderr.contains("cannot install") {
        eprintln!("skipping the Win32 front end under Wine: {}", stderr.trim());
        return None;
    }
    panic!("`.ci/solo-exe` failed:\n{stderr}");
}

fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Xvfb + openbox + a Wine prefix with its server, and the games started in it.
struct WineScreen {
    screen: Screen,
    exe: String,
    prefix: std::path::PathBuf,
    openbox: Child,
    games: Vec<Child>,
}

impl WineScreen {
    fn start(exe: String) -> WineScreen {
        let screen = Screen::start(1280, 1024);
        let openbox = screen
            .command("openbox")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start openbox");
        let prefix = screen.dir.path().join("wine-prefix");
        let wine = WineScreen { screen, exe, prefix, openbox, games: vec![] };
        let boot = wine.wine_command("timeout").args(["180", "wineboot", "-i"]).output();
        let boot = boot.expect("run wineboot");
        assert!(
            boot.status.success(),
            "wineboot -i failed: {}",
            String::from_utf8_lossy(&boot.stderr)
        );
        wine
    }

    fn wine_command(&self, program: &str) -> Command {
        wine_command(&self.screen, &self.prefix, program)
    }

    /// Starts solo.exe on a game ID and waits for its window.
    fn launch(&mut self, id: &str) {
        let child = self.wine_command("wine").arg(&self.exe).arg(id).spawn().expect("start wine");
        self.games.push(child);
        self.activate(&self.game_window(Duration::from_secs(60)));
    }

    /// The game's window (title `Solo`, class `solo.exe`), looked up afresh each time: while
    /// starting, Wine may replace the X window of the game by a new one.
    fn game_window(&self, wait: Duration) -> String {
        wait_until("the solo.exe game window", wait, || {
            let out =
                self.screen.xdotool(&["search", "--all", "--onlyvisible", "--name", "^Solo$"]);
            out.lines().find(|w| self.class_of(w).contains("\"solo.exe\"")).map(str::to_string)
        })
    }

    /// Whether a window is override-redirect (Wine's open menus are).
    fn is_popup(&self, window: &str) -> bool {
        let out = self.screen.command("xwininfo").args(["-id", window]).output();
        out.is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout).contains("Override Redirect State: yes")
        })
    }

    fn class_of(&self, window: &str) -> String {
        let out = self.screen.command("xprop").args(["-id", window, "WM_CLASS"]).output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
    }

    /// Activates a window through the window manager; false when it did not become the active
    /// window within 5 s.
    fn activate(&self, window: &str) -> bool {
        wait_until_or_not(Duration::from_secs(5), || {
            self.screen.xdotool(&["windowactivate", window]);
            let active = self.screen.xdotool(&["getactivewindow"]);
            (active.trim() == window).then_some(())
        })
        .is_some()
    }

    /// Stops every game started so far.
    fn close_games(&mut self) {
        for child in &mut self.games {
            stop(child);
        }
        self.games.clear();
    }

    /// Visible windows of class `solo.exe` (the game, its dialogs and each open menu).
    /// xdotool gives up with an X error when a window goes away during its search (Wine makes
    /// and destroys windows often): such a search is repeated.
    fn solo_windows(&self) -> Vec<String> {
        wait_until("a complete window search", Duration::from_secs(5), || {
            let out = self
                .screen
                .command("xdotool")
                .args(["search", "--onlyvisible", "--class", "^solo\\.exe$"])
                .output()
                .expect("run xdotool");
            let complete = out.status.success() || out.stderr.is_empty();
            complete
                .then(|| String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect())
        })
    }

    /// Game > Copy through the front end's own menu: tap Alt, `g`, wait for the menu window,
    /// `c`; then the clipboard, waited for until it changes from a sentinel. Up to three
    /// attempts (Escape twice in between), as Wine on a loaded machine now and then drops one;
    /// each failed attempt is reported.
    fn copy_board(&self) -> String {
        for attempt in 1..=3 {
            match self.try_copy_board() {
                Ok(text) => return text,
                Err(why) => {
                    eprintln!("wine copy attempt {attempt} failed: {why}");
                    self.screen.xdotool(&["key", "--delay", "40", "Escape", "Escape"]);
                }
            }
        }
        panic!("Game > Copy through solo.exe failed three times");
    }

    fn try_copy_board(&self) -> Result<String, String> {
        let sentinel = "wine-harness-sentinel";
        let mut owner = self.screen.hold_clipboard(sentinel);
        let result = (|| {
            wait_until_or_not(Duration::from_secs(5), || {
                (self.clipboard() == sentinel).then_some(())
            })
            .ok_or("the sentinel never reached the clipboard")?;
            let window = self.game_window(Duration::from_secs(10));
            if !self.activate(&window) {
                return Err(format!("the game window {window} did not become active"));
            }
            let before = self.solo_windows();
            if !before.contains(&window) {
                return Err(format!("the game window {window} went away"));
            }
            self.screen.xdotool(&["key", "--delay", "40", "alt", "g"]);
            // The menu is an override-redirect window that was not there before.
            wait_until_or_not(Duration::from_secs(5), || {
                let now = self.solo_windows();
                now.iter().any(|w| !before.contains(w) && self.is_popup(w)).then_some(())
            })
            .ok_or("the Game menu did not open")?;
            self.screen.xdotool(&["key", "c"]);
            wait_until_or_not(Duration::from_secs(5), || {
                let text = self.clipboard();
                (text != sentinel && !text.is_empty()).then_some(text)
            })
            .ok_or_else(|| {
                format!(
                    "the clipboard did not change (it holds {:?}; solo.exe windows before {before:?}, now {:?})",
                    self.clipboard(),
                    self.solo_windows()
                )
            })
        })();
        stop(&mut owner);
        // Solo writes CRLF on Windows; Wine gives the X clipboard LF, without the last one.
        let mut text = result?.replace("\r\n", "\n");
        if !text.ends_with('\n') {
            text.push('\n');
        }
        Ok(text)
    }

    /// Saves the game through the front end's Game > Save... (tap Alt, `g`, `s`; a Windows
    /// file dialog takes `Z:\...` paths under Wine) and returns the save file's text.
    fn save_game(&self, name: &str) -> String {
        let path = self.screen.dir.path().join(format!("{name}.sav"));
        let typed = format!("Z:{}", path.to_string_lossy().replace('/', "\\"));
        let window = self.game_window(Duration::from_secs(10));
        assert!(self.activate(&window), "the game window did not become active");
        let before = self.solo_windows();
        self.screen.xdotool(&["key", "--delay", "40", "alt", "g"]);
        wait_until("the Game menu", Duration::from_secs(10), || {
            let now = self.solo_windows();
            now.iter().any(|w| !before.contains(w) && self.is_popup(w)).then_some(())
        });
        self.screen.xdotool(&["key", "s"]);
        let dialog = wait_until("the Save dialog", Duration::from_secs(10), || {
            let out = self.screen.xdotool(&[
                "search",
                "--onlyvisible",
                "--name",
                "^Enter name of game file to save$",
            ]);
            out.lines().next().map(str::to_string)
        });
        assert!(self.activate(&dialog), "the Save dialog did not become active");
        self.screen.xdotool(&["type", "--delay", "10", &typed]);
        self.screen.xdotool(&["key", "Return"]);
        wait_until("the save file", Duration::from_secs(10), || {
            std::fs::read_to_string(&path).ok().filter(|t| save_complete(t))
        })
    }

    /// The clipboard's text; empty when its owner did not answer within 2 s (xclip waits for
    /// ever, and Wine now and then leaves a request unanswered).
    fn clipboard(&self) -> String {
        let out = self
            .screen
            .command("timeout")
            .args(["2", "xclip", "-o", "-selection", "clipboard"])
            .output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
    }

    /// Processes whose environment names this prefix (zombies have none).
    fn prefix_processes(&self) -> Vec<String> {
        let needle = format!("WINEPREFIX={}", self.prefix.display());
        let Ok(dir) = std::fs::read_dir("/proc") else { return vec![] };
        dir.filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()))
            .filter(|e| {
                std::fs::read(e.path().join("environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == needle.as_bytes()))
            })
            .map(|e| {
                let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
                format!("{} {}", e.file_name().to_string_lossy(), String::from_utf8_lossy(&cmd))
            })
            .collect()
    }

    /// Stops the games and the prefix's server (`wineserver -k` ends every Wine process of the
    /// prefix), reaps the children, and returns what is still running in the prefix.
    fn shut_down(&mut self) -> Vec<String> {
        self.close_games();
        let _ = self.wine_command("timeout").args(["30", "wineserver", "-k"]).status();
        let left = wait_until_or_not(Duration::from_secs(10), || {
            let left = self.prefix_processes();
            left.is_empty().then_some(())
        });
        let left = if left.is_some() { vec![] } else { self.prefix_processes() };
        if left.is_empty() {
            self.remove_server_dir();
        }
        left
    }

    /// Removes the directory the prefix's server kept its socket and lock in, which Wine leaves
    /// in the machine's /tmp (`/tmp/wine-XXXXXX/server-DEV-INODE`, named after the prefix's
    /// device and inode). Best effort: a directory not found is left to the system.
    fn remove_server_dir(&self) {
        use std::os::unix::fs::MetadataExt;
        let Ok(meta) = std::fs::metadata(&self.prefix) else { return };
        let server = format!("server-{:x}-{:x}", meta.dev(), meta.ino());
        let Ok(dir) = std::fs::read_dir("/tmp") else { return };
        for entry in dir.filter_map(Result::ok) {
            let path = entry.path();
            let ours = entry.file_name().to_string_lossy().starts_with("wine-")
                && path.join(&server).is_dir();
            if ours {
                let _ = std::fs::remove_dir_all(&path);
            }
        }
    }
}

/// Like `wait_until`, but gives `None` instead of failing when time runs out.
fn wait_until_or_not<T>(timeout: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if std::time::Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A command with the screen's display and a private prefix, and no Mono/Gecko prompts.
fn wine_command(screen: &Screen, prefix: &std::path::Path, program: &str) -> Command {
    let mut c = screen.command(program);
    c.env("WINEPREFIX", prefix)
        .env("WINEDEBUG", "-all")
        .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

impl Drop for WineScreen {
    fn drop(&mut self) {
        self.shut_down();
        stop(&mut self.openbox);
    }
}

#[test]
fn solves_every_shape_through_the_win32_front_end_with_no_platform_flag() {
    require_tools!();
    let Some(exe) = solo_exe() else { return };
    let mut wine = WineScreen::start(exe);
    // 9x9, rectangular boxes (6x6 and 12x12), X, jigsaw, 16x16 (values typed as letters).
    for name in ["3x3du", "2x3", "3x4", "3x3x", "9j", "4x4"] {
        let id = game_id(name);
        wine.launch(id);
        // The copy route works and the game starts unsolved, as the ID says.
        let puzzle = solo_id::parse(id).expect("fixture ID");
        assert_eq!(wine.copy_board(), solo_text::write(&puzzle), "{name}: before");
        let out = wine.screen.sudobot_logged(&["desktop", "--auto", "--stats"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && stdout.contains("confirmed"), "{name}: {stdout}");
        // Independently: the board copied back through the front end's own menu is the
        // checked-in solution, and a full grid keeping every given of the ID.
        let copied = wine.copy_board();
        assert_eq!(copied, expected_solved(name), "{name}: the board copied back");
        let values = solo_text::parse(&copied).expect("copied text parses");
        let grid = Grid::new(Arc::clone(puzzle.geometry_arc()), values.cells().to_vec())
            .expect("same size");
        assert!(grid.is_solution_of(&puzzle), "{name}: the copied board is not a solution");
        wine.close_games();
    }
    // Killer (no Copy): typed blind and checked by the bot through the front end's own Save
    // dialog (a Windows file dialog); checked here through a save of the test's own.
    let id = killer::generate("3x3k", "sudobot-wine");
    wine.launch(&id);
    let out = wine.screen.sudobot_logged(&["desktop", "--auto", "--stats"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("replaying its moves"), "Killer: {stdout}");
    let save = wine.save_game("killer");
    assert!(save.contains("\r\n"), "the Win32 front end writes CRLF");
    let save = save.replace("\r\n", "\n");
    assert!(!save.contains("\nSOLVE"), "the game's Solve was used");
    let givens = solo_id::parse(&id).expect("ID");
    let values = killer::replay(givens.cells(), givens.side(), &save_moves(&save));
    assert_eq!(values, killer::solo_solution(&id), "Killer: not Solo's solution");
    killer::check_rules(&id, &values);
    wine.close_games();
    let left = wine.shut_down();
    assert!(left.is_empty(), "Wine processes left running in the test's prefix: {left:?}");
}
