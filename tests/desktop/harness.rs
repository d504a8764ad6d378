//! Test harness for the desktop bot: a private Xvfb display, the real `sgt-solo` on it, the real
//! `sudobot` binary, and independent read-back of the game (xdotool + xclip for Copy, Game >
//! Save for pencil marks and move history). Every wait has a bound and every process is stopped
//! by its id when the guard drops.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const SOLO: &str = "/usr/games/sgt-solo";
/// Debian's GNOME Sudoku (`apt-get install gnome-sudoku`).
pub const GNOME_SUDOKU: &str = "/usr/games/gnome-sudoku";

/// Why the desktop tests cannot run here, if they cannot.
pub fn missing_tools() -> Option<String> {
    for (tool, path) in
        [("Xvfb", "Xvfb"), ("sgt-solo", SOLO), ("xdotool", "xdotool"), ("xclip", "xclip")]
    {
        let found = if path.starts_with('/') {
            Path::new(path).exists()
        } else {
            std::env::var_os("PATH")
                .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(path).exists()))
        };
        if !found {
            return Some(format!("{tool} is not installed"));
        }
    }
    None
}

/// Skips the calling test (returns from it) when a tool is missing, saying why.
macro_rules! require_tools {
    () => {
        if let Some(why) = $crate::desktop::harness::missing_tools() {
            eprintln!("skipping: {why} (apt-get install xvfb sgt-puzzles xdotool xclip)");
            return;
        }
    };
}
pub(crate) use require_tools;

/// Polls `f` every 20 ms until it returns `Some` or `timeout` passes.
pub fn wait_until<T>(what: &str, timeout: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out after {timeout:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Stops an X server the way that lets it remove its socket and lock file
/// (`/tmp/.X11-unix/XN`, `/tmp/.XN-lock`): SIGTERM, a bounded wait, then SIGKILL.
fn stop_server(child: &mut Child) {
    crate::support::signal("-TERM", &child.id().to_string());
    crate::support::wait_exit(child, Instant::now() + Duration::from_secs(5));
    kill(child);
}

/// A private X display with Solo games on it.
pub struct Screen {
    pub display: String,
    xvfb: Child,
    games: Vec<Child>,
    pub dir: tempfile::TempDir,
}

/// A running game.
pub struct Game {
    pub pid: u32,
    pub window: String,
}

/// Makes `/tmp/.X11-unix` (sticky, world-writable) before any X server starts. Two Xvfb
/// servers started at once on a fresh /tmp race to create it, and the one that loses gets no
/// socket (`_XSERVTransmkdir: ... errno = 17`).
fn x11_socket_dir() {
    use std::os::unix::fs::PermissionsExt;
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let dir = Path::new("/tmp/.X11-unix");
        match std::fs::create_dir(dir) {
            Ok(()) => {
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o1777))
                    .expect("chmod 1777 /tmp/.X11-unix");
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => panic!("cannot create /tmp/.X11-unix: {e}"),
        }
    });
}

impl Screen {
    /// Starts `Xvfb -displayfd 1 -screen 0 WxHx24 -nolisten tcp -noreset`: the server picks a
    /// free display number itself and writes it to its standard output once it accepts
    /// connections. A server that does not come up fails the test with its own stderr.
    pub fn start(width: u32, height: u32) -> Screen {
        x11_socket_dir();
        let dir = tempfile::tempdir().expect("temp dir");
        let log_path = dir.path().join("xvfb.log");
        let log = std::fs::File::create(&log_path).expect("create the Xvfb log");
        let mut xvfb = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                &format!("{width}x{height}x24"),
                "-nolisten",
                "tcp",
                "-noreset",
            ])
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("start Xvfb");
        let stdout = xvfb.stdout.take().expect("Xvfb stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        // Ends with Xvfb's stdout: after the number, or at once when the server dies.
        std::thread::spawn(move || {
            use std::io::BufRead;
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let timeout = Duration::from_secs(15);
        let number = rx.recv_timeout(timeout).ok().and_then(|l| l.trim().parse::<u32>().ok());
        let Some(number) = number else {
            let pid = xvfb.id();
            kill(&mut xvfb);
            let log = std::fs::read_to_string(&log_path).unwrap_or_default();
            panic!(
                "Xvfb (pid {pid}) did not report a display within {timeout:?}; its stderr:\n{log}"
            );
        };
        Screen { display: format!(":{number}"), xvfb, games: Vec::new(), dir }
    }

    /// A command with `DISPLAY` set to this screen.
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("DISPLAY", &self.display);
        c
    }

    /// The temporary directory of the bots run on this screen (their private save
    /// directories), apart from other tests' bots running at the same time.
    pub fn bot_tmp(&self) -> PathBuf {
        self.subdir("bot-tmp")
    }

    /// The runtime directory of the bots run on this screen (their game locks).
    pub fn bot_runtime(&self) -> PathBuf {
        self.subdir("bot-runtime")
    }

    /// The working directory of the games on this screen: a file saved under a relative name
    /// lands there.
    pub fn solo_cwd(&self) -> PathBuf {
        self.subdir("solo-cwd")
    }

    fn subdir(&self, name: &str) -> PathBuf {
        let dir = self.dir.path().join(name);
        std::fs::create_dir_all(&dir).expect("create a directory of the screen");
        dir
    }

    /// The names of the files in a directory.
    pub fn files_in(dir: &std::path::Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default()
    }

    /// The sudobot binary, on this display, with this screen's temporary and runtime
    /// directories.
    fn sudobot_command(&self) -> Command {
        let mut c = self.command(env!("CARGO_BIN_EXE_sudobot"));
        c.env("TMPDIR", self.bot_tmp()).env("XDG_RUNTIME_DIR", self.bot_runtime());
        c
    }

    /// Runs xdotool and returns its standard output.
    pub fn xdotool(&self, args: &[&str]) -> String {
        let out = self.command("xdotool").args(args).output().expect("run xdotool");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Launches sgt-solo with a game ID and waits for its window.
    pub fn launch(&mut self, id: &str, env: &[(&str, &str)]) -> Game {
        let mut c = self.command(SOLO);
        c.arg(id).stdout(Stdio::null()).stderr(Stdio::null()).current_dir(self.solo_cwd());
        // GTK's file chooser lists every saved file in the user's recent files
        // (`$XDG_DATA_HOME/recently-used.xbel`): the games' saves go to this screen's directory.
        let data = self.dir.path().join("xdg-data");
        std::fs::create_dir_all(&data).expect("create the games' data directory");
        c.env("XDG_DATA_HOME", data);
        for (k, v) in env {
            c.env(k, v);
        }
        let child = c.spawn().expect("start sgt-solo");
        let pid = child.id();
        self.games.push(child);
        let window = wait_until("the Solo window", Duration::from_secs(15), || {
            let out = self.xdotool(&[
                "search",
                "--all",
                "--onlyvisible",
                "--pid",
                &pid.to_string(),
                "--name",
                "^Solo$",
            ]);
            out.lines().next().map(str::to_string)
        });
        Game { pid, window }
    }

    /// Launches Debian's GNOME Sudoku with a private home and XDG directories, picks a level
    /// in its "Select Difficulty" window (Easy, Medium, Hard, Very Hard) and waits for the
    /// game's window (`Sudoku`). `None` when gnome-sudoku is not installed.
    pub fn launch_gnome_sudoku(&mut self, level: &str) -> Option<Game> {
        self.launch_gnome_sudoku_with(level, &[])
    }

    /// [`Screen::launch_gnome_sudoku`] with some of its settings (`org.gnome.Sudoku` keys,
    /// GVariant text: `("highlighter", "true")`), kept in a key file in its private home.
    pub fn launch_gnome_sudoku_with(
        &mut self,
        level: &str,
        settings: &[(&str, &str)],
    ) -> Option<Game> {
        self.launch_gnome(level, settings, &[])
    }

    /// [`Screen::launch_gnome_sudoku`] with more environment (`GTK_THEME`).
    pub fn launch_gnome_sudoku_env(&mut self, level: &str, env: &[(&str, &str)]) -> Option<Game> {
        self.launch_gnome(level, &[], env)
    }

    fn launch_gnome(
        &mut self,
        level: &str,
        settings: &[(&str, &str)],
        env: &[(&str, &str)],
    ) -> Option<Game> {
        if !Path::new(GNOME_SUDOKU).exists() {
            return None;
        }
        let home = self.subdir(&format!("gnome-home-{}", self.games.len()));
        let mut c = self.command(GNOME_SUDOKU);
        c.envs(env.iter().copied());
        for (key, sub) in [
            ("XDG_CONFIG_HOME", ".config"),
            ("XDG_DATA_HOME", ".local/share"),
            ("XDG_CACHE_HOME", ".cache"),
        ] {
            let dir = home.join(sub);
            std::fs::create_dir_all(&dir).expect("create the game's XDG directory");
            c.env(key, dir);
        }
        // Settings in memory (no dconf), or in a key file when some are set; no accessibility
        // bus.
        let backend = match settings.is_empty() {
            true => "memory",
            false => {
                let dir = home.join(".config/glib-2.0/settings");
                std::fs::create_dir_all(&dir).expect("create the game's settings directory");
                let mut text = String::from("[org/gnome/Sudoku]\n");
                for (key, value) in settings {
                    text.push_str(&format!("{key}={value}\n"));
                }
                std::fs::write(dir.join("keyfile"), text).expect("write the game's settings");
                "keyfile"
            }
        };
        c.env("HOME", &home).env("GSETTINGS_BACKEND", backend).env("NO_AT_BRIDGE", "1");
        let child =
            c.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("start gnome-sudoku");
        let pid = child.id().to_string();
        self.games.push(child);
        let find = |title: &str| {
            let out =
                self.xdotool(&["search", "--all", "--onlyvisible", "--pid", &pid, "--name", title]);
            out.lines().next().map(str::to_string)
        };
        let chooser = wait_until("GNOME Sudoku's level chooser", Duration::from_secs(20), || {
            find("^Select Difficulty$")
        });
        // The levels are rows of the chooser, 80 pixels apart from Easy's at y = 205.
        let row = ["Easy", "Medium", "Hard", "Very Hard"]
            .iter()
            .position(|l| *l == level)
            .expect("a level");
        let y = (205 + 80 * row).to_string();
        self.xdotool(&["mousemove", "--window", &chooser, "370", &y, "click", "1"]);
        let window =
            wait_until("GNOME Sudoku's game window", Duration::from_secs(20), || find("^Sudoku$"));
        Some(Game { pid: pid.parse().expect("pid"), window })
    }

    /// The windows of a game that are showing (its main window, and any dialog).
    pub fn windows_of(&self, game: &Game) -> Vec<String> {
        let out =
            self.xdotool(&["search", "--all", "--onlyvisible", "--pid", &game.pid.to_string()]);
        out.lines().map(str::to_string).collect()
    }

    /// Stops a game by its pid.
    pub fn close(&mut self, game: Game) {
        if let Some(pos) = self.games.iter().position(|c| c.id() == game.pid) {
            let mut child = self.games.remove(pos);
            kill(&mut child);
        }
    }

    /// Runs the real sudobot binary on this display.
    /// [`Screen::sudobot`], with its exit code and output printed (shown when a test fails).
    pub fn sudobot_logged(&self, args: &[&str]) -> Output {
        let out = self.sudobot(args);
        eprintln!(
            "sudobot {args:?}: {:?}\n{}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    pub fn sudobot(&self, args: &[&str]) -> Output {
        let mut c = self.sudobot_command();
        c.args(args);
        let mut child =
            c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start sudobot");
        let pid = child.id();
        // Bound the bot's run: a hung bot is killed by its pid.
        let status =
            wait_until(&format!("sudobot (pid {pid}) to finish"), Duration::from_secs(60), || {
                child.try_wait().ok().flatten()
            });
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        if let Some(mut s) = child.stdout.take() {
            let _ = std::io::Read::read_to_end(&mut s, &mut stdout);
        }
        if let Some(mut s) = child.stderr.take() {
            let _ = std::io::Read::read_to_end(&mut s, &mut stderr);
        }
        Output { status, stdout, stderr }
    }

    /// Focuses the game window and keeps the pointer over it (no window manager).
    pub fn focus(&self, game: &Game) {
        self.xdotool(&["mousemove", "10", "40"]);
        self.xdotool(&["windowfocus", "--sync", &game.window]);
    }

    /// Puts `text` on the clipboard: the returned xclip (`-quiet` keeps it in the foreground,
    /// so it is ours to stop by pid) owns the selection until it is killed or another client
    /// takes it. The caller waits for the text to show.
    pub fn hold_clipboard(&self, text: &str) -> Child {
        let mut owner = self
            .command("xclip")
            .args(["-quiet", "-i", "-selection", "clipboard"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xclip");
        if let Some(mut stdin) = owner.stdin.take() {
            stdin.write_all(text.as_bytes()).expect("write to xclip");
        }
        owner
    }

    /// Reads the board independently of sudobot: Game > Copy by xdotool, then xclip, waiting
    /// for the clipboard to change from a sentinel.
    pub fn copy_board(&self, game: &Game) -> String {
        let sentinel = "harness-sentinel";
        let mut owner = self.hold_clipboard(sentinel);
        wait_until("the sentinel on the clipboard", Duration::from_secs(5), || {
            (self.clipboard() == sentinel).then_some(())
        });
        // A loaded machine may open the menu after the first Downs went to the game (they only
        // move the cursor there): escape and try again until the clipboard changes.
        let mut sent = Instant::now() - Duration::from_secs(10);
        let mut retry = false;
        let text =
            wait_until("Game > Copy to change the clipboard", Duration::from_secs(20), || {
                let text = self.clipboard();
                if text != sentinel && !text.is_empty() {
                    return Some(text);
                }
                if sent.elapsed() >= Duration::from_secs(5) {
                    // Escape only on a retry: an interactive sudobot on this screen hears it.
                    if retry {
                        self.escape(game);
                    }
                    self.focus(game);
                    retry = true;
                    if self.open_game_menu(game) {
                        self.xdotool(&[
                            "key", "--delay", "20", "Down", "Down", "Down", "Down", "Down", "Down",
                            "Down", "Down", "Down", "Return",
                        ]);
                    }
                    sent = Instant::now();
                }
                None
            });
        kill(&mut owner);
        text
    }

    fn clipboard(&self) -> String {
        let out = self
            .command("xclip")
            .args(["-o", "-selection", "clipboard"])
            .output()
            .expect("run xclip");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Saves the game through Game > Save... and returns the save file's text.
    pub fn save_game(&self, game: &Game, name: &str) -> String {
        let path = self.dir.path().join(format!("{name}.sav"));
        assert!(!path.exists(), "save file names must be fresh: {name}");
        self.focus(game);
        self.xdotool(&[
            "key", "--delay", "40", "alt+g", "Down", "Down", "Down", "Down", "Down", "Return",
        ]);
        let dialog = wait_until("the Save dialog", Duration::from_secs(10), || {
            let out = self.xdotool(&[
                "search",
                "--all",
                "--onlyvisible",
                "--name",
                "Enter name of game file to save",
            ]);
            out.lines().next().map(str::to_string)
        });
        self.xdotool(&["windowfocus", "--sync", &dialog]);
        self.xdotool(&["type", "--delay", "10", &path.to_string_lossy()]);
        // The file chooser may still be autocompleting: press Return until the file appears.
        let mut last_return = Instant::now() - Duration::from_secs(1);
        wait_until("the save file to be written", Duration::from_secs(10), || {
            if path.exists() {
                return std::fs::read_to_string(&path).ok().filter(|t| save_complete(t));
            }
            if last_return.elapsed() >= Duration::from_millis(500) {
                self.xdotool(&["windowfocus", "--sync", &dialog]);
                self.xdotool(&["key", "Return"]);
                last_return = Instant::now();
            }
            None
        })
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        for child in &mut self.games {
            kill(child);
        }
        stop_server(&mut self.xvfb);
    }
}

/// The records of a Solo save file, `KEY     :length:value` a line, as (key, value).
fn save_records(save: &str) -> impl Iterator<Item = (&str, &str)> {
    save.lines().filter_map(|l| Some((l.get(..8)?.trim_end(), l.get(9..)?.split_once(':')?.1)))
}

/// Whether a Solo save file read while Solo writes it is whole: it has the `NSTATES` header and
/// a move record (`MOVE`, `SOLVE` or `RESTART`) for every state after the first. A file read too
/// early ends part way through the moves (seen on a loaded machine: the test then found the
/// bot's pencil marks cut short).
pub fn save_complete(save: &str) -> bool {
    let states = save_records(save)
        .find(|&(key, _)| key == "NSTATES")
        .and_then(|(_, value)| value.trim().parse::<usize>().ok());
    let records =
        save_records(save).filter(|&(key, _)| matches!(key, "MOVE" | "SOLVE" | "RESTART")).count();
    states.is_some_and(|n| records + 1 == n && save.ends_with('\n'))
}

/// The moves recorded in a Solo save file, up to the current position.
pub fn save_moves(save: &str) -> Vec<String> {
    let pos: usize = save_records(save)
        .find(|&(key, _)| key == "STATEPOS")
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(1);
    save_records(save)
        .filter(|&(key, _)| key == "MOVE")
        .map(|(_, value)| value.to_string())
        .take(pos.saturating_sub(1))
        .collect()
}

/// A sudobot process left running (interactive mode), its output collected by threads.
pub struct Running {
    child: Child,
    output: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Running {
    /// Everything printed so far (stdout and stderr, interleaved by line).
    pub fn output(&self) -> String {
        self.output.lock().map(|o| o.clone()).unwrap_or_default()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits (bounded) until the process takes SIGINT itself: a handler is installed, or the
    /// main thread blocks it for a thread that waits for it.
    pub fn wait_sigint_handler(&self) {
        let status = format!("/proc/{}/status", self.child.id());
        wait_until("the SIGINT handler", Duration::from_secs(10), || {
            let text = std::fs::read_to_string(&status).ok()?;
            let mask = |field: &str| {
                let mask = text.lines().find_map(|l| l.strip_prefix(field))?;
                u64::from_str_radix(mask.trim(), 16).ok()
            };
            ((mask("SigCgt:")? | mask("SigBlk:")?) & 0x2 != 0).then_some(())
        });
    }

    /// Waits (bounded) for the process to exit and returns its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        match self.try_wait_exit(timeout) {
            Some(code) => code,
            None => panic!(
                "timed out after {timeout:?} waiting for sudobot (pid {}) to exit; its output:\n{}",
                self.child.id(),
                self.output()
            ),
        }
    }

    /// Waits up to `timeout` for the exit: `Some(code)` once exited, `None` if still running.
    pub fn try_wait_exit(&mut self, timeout: Duration) -> Option<Option<i32>> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().ok().flatten() {
                return Some(status.code());
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        kill(&mut self.child);
    }
}

impl Screen {
    /// Starts sudobot without waiting for it.
    pub fn spawn_sudobot(&self, args: &[&str]) -> Running {
        self.spawn_sudobot_env(args, &[])
    }

    /// Starts sudobot without waiting for it, with extra environment variables.
    pub fn spawn_sudobot_env(&self, args: &[&str], env: &[(&str, &str)]) -> Running {
        let mut child = self
            .sudobot_command()
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sudobot");
        let output = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let pipes: Vec<Box<dyn std::io::Read + Send>> = vec![
            Box::new(child.stdout.take().expect("stdout")),
            Box::new(child.stderr.take().expect("stderr")),
        ];
        for pipe in pipes {
            let output = std::sync::Arc::clone(&output);
            // Ends when the pipe closes, i.e. when the process is gone.
            std::thread::spawn(move || {
                use std::io::BufRead;
                for line in std::io::BufReader::new(pipe).lines().map_while(Result::ok) {
                    if let Ok(mut o) = output.lock() {
                        o.push_str(&line);
                        o.push('\n');
                    }
                }
            });
        }
        Running { child, output }
    }
}

impl Screen {
    /// Sends keys to the focused window, 8 ms apart (nothing when the list is empty).
    pub fn xdotool_keys(&self, keys: &[String]) {
        if keys.is_empty() {
            return;
        }
        let mut args = vec!["key", "--delay", "8"];
        args.extend(keys.iter().map(String::as_str));
        self.xdotool(&args);
    }

    /// Presses Alt+G and waits (bounded) for the Game menu's window (GTK names it `sgt-solo`)
    /// to show, so no menu key reaches the game; false if it did not show.
    pub fn open_game_menu(&self, game: &Game) -> bool {
        self.xdotool(&["key", "alt+g"]);
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            let out = self.xdotool(&[
                "search",
                "--all",
                "--onlyvisible",
                "--pid",
                &game.pid.to_string(),
                "--name",
                "^sgt-solo$",
            ]);
            if !out.trim().is_empty() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Whether a game's process still runs.
    pub fn alive(&mut self, game: &Game) -> bool {
        self.games
            .iter_mut()
            .find(|c| c.id() == game.pid)
            .is_some_and(|c| c.try_wait().ok().flatten().is_none())
    }

    /// Closes the game's menus and dialogs (Escape twice), as a player would.
    pub fn escape(&self, game: &Game) {
        self.focus(game);
        self.xdotool(&["key", "--delay", "40", "Escape", "Escape"]);
    }

    /// Reads the game ID independently of sudobot: Game > Specific..., select all, copy.
    pub fn game_id(&self, game: &Game) -> String {
        let sentinel = "harness-sentinel-id";
        let mut owner = self.hold_clipboard(sentinel);
        wait_until("the sentinel on the clipboard", Duration::from_secs(5), || {
            (self.clipboard() == sentinel).then_some(())
        });
        let mut sent = Instant::now() - Duration::from_secs(10);
        let dialog = wait_until("the Specific dialog", Duration::from_secs(15), || {
            let out = self.xdotool(&[
                "search",
                "--all",
                "--onlyvisible",
                "--name",
                "^Solo game selection$",
            ]);
            if let Some(w) = out.lines().next() {
                return Some(w.to_string());
            }
            if sent.elapsed() >= Duration::from_secs(3) {
                self.escape(game);
                if self.open_game_menu(game) {
                    self.xdotool(&["key", "--delay", "20", "Down", "Down", "Return"]);
                }
                sent = Instant::now();
            }
            None
        });
        self.xdotool(&["windowfocus", "--sync", &dialog]);
        let mut last = Instant::now() - Duration::from_secs(1);
        let id = wait_until("the game ID on the clipboard", Duration::from_secs(10), || {
            let text = self.clipboard();
            if text.contains(':') && !text.contains('\n') {
                return Some(text.trim().to_string());
            }
            if last.elapsed() >= Duration::from_millis(300) {
                self.xdotool(&["key", "ctrl+a", "ctrl+c"]);
                last = Instant::now();
            }
            None
        });
        self.xdotool(&["windowfocus", "--sync", &dialog]);
        self.xdotool(&["key", "Escape"]);
        wait_until("the Specific dialog to close", Duration::from_secs(10), || {
            let out = self.xdotool(&[
                "search",
                "--all",
                "--onlyvisible",
                "--name",
                "^Solo game selection$",
            ]);
            out.trim().is_empty().then_some(())
        });
        kill(&mut owner);
        id
    }

    /// Starts openbox on this screen (stopped with the screen).
    pub fn start_window_manager(&mut self) {
        let child = self
            .command("openbox")
            .args(["--sm-disable"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start openbox");
        self.games.push(child);
        wait_until("openbox to manage the screen", Duration::from_secs(10), || {
            let out = self.command("xprop").args(["-root", "_NET_SUPPORTING_WM_CHECK"]).output();
            out.ok()
                .filter(|o| String::from_utf8_lossy(&o.stdout).contains("window id"))
                .map(|_| ())
        });
    }

    /// Starts xmessage (a window titled `cover-N`) at a place on the screen; returns its
    /// window id.
    pub fn cover(&mut self, geometry: &str) -> String {
        let title = format!("cover-{}", self.games.len());
        self.window_titled(&title, geometry)
    }

    /// Starts xmessage titled `title` at a place on the screen; returns its window id.
    pub fn window_titled(&mut self, title: &str, geometry: &str) -> String {
        let title = title.to_string();
        let child = self
            .command("xmessage")
            .args(["-title", &title, "-geometry", geometry, "covering the game"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xmessage");
        self.games.push(child);
        wait_until("the xmessage window", Duration::from_secs(10), || {
            let out = self.xdotool(&[
                "search",
                "--all",
                "--onlyvisible",
                "--name",
                &format!("^{title}$"),
            ]);
            out.lines().next().map(str::to_string)
        })
    }
}
