//! `sudobot desktop`: builds the bot's options from the command line, connects to the display
//! and runs the automatic or the interactive mode.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sudobot::desktop::by_pixels::{self, PixelGame};
use sudobot::desktop::{
    self, Check, Desktop, DesktopError, Input, MouseGrid, Options, Platform, Report,
};

use super::Code;
use crate::cli::desktop::{DesktopArgs, GameArg, InputArg, PlatformArg};

mod signals {
    //! SIGINT, SIGTERM and SIGHUP (Ctrl-C on Windows). The first signal during a run sets the
    //! run's abort flag, so it stops between two moves and releases the keys; with nothing
    //! running, or at a second signal, the process exits at once, removing a Killer run's
    //! private save directory. Either way the exit code is 128 + the first signal's number
    //! (130 SIGINT, 143 SIGTERM, 129 SIGHUP) and the message names it.

    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};

    use sudobot::desktop;

    use super::Code;

    /// The first signal that came, with its exit code and name.
    type First = Arc<OnceLock<(Code, &'static str)>>;

    /// What the watcher has seen.
    pub struct Stop(First);

    impl Stop {
        /// When a signal stopped the run: says so, naming it, and gives its exit code.
        pub fn stopped(&self) -> Option<Code> {
            let &(code, name) = self.0.get()?;
            eprintln!("sudobot: aborted by {name}; keys released");
            Some(code)
        }
    }

    /// Notes the first signal; ends the process unless a run can stop by itself.
    fn on_signal(first: &First, seen: (Code, &'static str), abort: &AtomicBool, busy: &AtomicBool) {
        let _ = first.set(seen);
        if !busy.load(Ordering::SeqCst) || abort.swap(true, Ordering::SeqCst) {
            let &(code, name) = first.get().unwrap_or(&seen);
            desktop::save::remove_private_dirs();
            eprintln!("sudobot: stopped by {name}");
            std::process::exit(code as i32);
        }
    }

    /// Starts watching on a thread of its own. Must run before any other thread starts: the
    /// signals are blocked here and every later thread inherits that, so only the watcher
    /// takes them.
    #[cfg(unix)]
    pub fn watch(abort: Arc<AtomicBool>, busy: Arc<AtomicBool>) -> anyhow::Result<Stop> {
        use nix::sys::signal::{SigSet, Signal};
        let mut set = SigSet::empty();
        for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
            set.add(signal);
        }
        set.thread_block()?;
        let first = First::default();
        let seen = Arc::clone(&first);
        std::thread::Builder::new().name("sudobot-signals".into()).spawn(move || {
            while let Ok(signal) = set.wait() {
                let code = match signal {
                    Signal::SIGTERM => Code::Terminated,
                    Signal::SIGHUP => Code::HungUp,
                    _ => Code::Interrupted,
                };
                on_signal(&seen, (code, signal.as_str()), &abort, &busy);
            }
        })?;
        Ok(Stop(first))
    }

    #[cfg(not(unix))]
    pub fn watch(abort: Arc<AtomicBool>, busy: Arc<AtomicBool>) -> anyhow::Result<Stop> {
        let first = First::default();
        let seen = Arc::clone(&first);
        ctrlc::set_handler(move || on_signal(&seen, (Code::Interrupted, "Ctrl-C"), &abort, &busy))?;
        Ok(Stop(first))
    }
}

pub fn run(args: DesktopArgs) -> anyhow::Result<Code> {
    super::init_logging(args.verbose);
    // Flags that do not go together are bad input (exit 2), as clap's own usage errors.
    let input = match input(&args) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("sudobot: {e}");
            return Ok(Code::BadInput);
        }
    };
    if args.game != GameArg::Solo && !args.auto && !args.show_read {
        eprintln!(
            "sudobot: --game is for --auto (or --show-read); the interactive mode plays the \
             focused window at F2: Solo through its menus, any other by its pixels"
        );
        return Ok(Code::BadInput);
    }
    if args.auto && !cfg!(all(unix, not(target_os = "macos"))) {
        anyhow::bail!(
            "--auto finds the game window, which this build can do on X11 only; use the interactive \
             mode instead: start `sudobot desktop`, focus the game and press F2"
        );
    }
    // A signal (and Esc in interactive mode) sets `abort`; a run stops between two moves,
    // releases the modifier keys and exits with the signal's code. With nothing running, or at
    // a second signal, it exits at once.
    let abort = Arc::new(AtomicBool::new(false));
    let busy = Arc::new(AtomicBool::new(args.auto));
    let stop = signals::watch(Arc::clone(&abort), Arc::clone(&busy))?;
    // Private save directories of desktop runs that were killed (SIGKILL leaves them).
    desktop::save::sweep_stale();
    // GNOME Sudoku's title is a common word: its window is known by its class too.
    let class = match args.game {
        GameArg::GnomeSudoku => PixelGame::GNOME_SUDOKU.class,
        _ => None,
    };
    let wait = Duration::from_millis(args.timeout.max(1));
    // The interactive mode starts without a game window too: F2 binds the focused one.
    let interactive = !args.auto && !args.show_read;
    let (screen, detected) = connect(args.title(), class, wait, interactive)?;
    if args.show_read {
        return show_read(screen, wait);
    }
    let opts = options(&args, input, platform(&args, detected), abort);
    if args.auto {
        return run_auto(&args, screen, &opts, &stop);
    }
    interactive::run(&args, screen, opts, busy, &stop)
}

/// `--show-read`: the window's board as its pixels show it; nothing is typed.
fn show_read(mut screen: Box<dyn Desktop>, timeout: Duration) -> anyhow::Result<Code> {
    use sudobot::pixels;
    // A window just raised over another may not have drawn itself yet: it is read again,
    // within the bound, until a board shows.
    let deadline = screen.elapsed() + timeout;
    let read = loop {
        let image = screen.capture()?;
        match image.view().and_then(pixels::read) {
            Ok(read) => break read,
            Err(e) if screen.elapsed() >= deadline => {
                eprintln!("sudobot: the window: {e}");
                return Ok(Code::BadInput);
            }
            Err(_) => screen.pause(Duration::from_millis(50)),
        }
    };
    eprintln!("sudobot: the window shows {}:", super::solve::board_found(&read.board));
    eprint!("{read}");
    match read.grid() {
        Ok(grid) => {
            println!("{}", sudobot::format::line::write(&grid));
            Ok(Code::Success)
        }
        Err(e) => {
            eprintln!("sudobot: the window: {e}");
            Ok(Code::BadInput)
        }
    }
}

/// The input strategy, checked before anything else is done.
fn input(args: &DesktopArgs) -> anyhow::Result<Input> {
    Ok(match args.input {
        InputArg::Keyboard => Input::Keyboard,
        InputArg::Mouse => match (args.origin, args.step) {
            (Some(origin), Some(step)) if step > 0.0 => {
                Input::Mouse(Some(MouseGrid { origin, step }))
            }
            (Some(_), Some(step)) => anyhow::bail!("--step must be positive, got {step}"),
            (None, None) => Input::Mouse(None),
            _ => anyhow::bail!("--origin and --step go together"),
        },
    })
}

/// The bot's options, built once the game's front end is known.
fn options(
    args: &DesktopArgs,
    input: Input,
    platform: Platform,
    abort: Arc<AtomicBool>,
) -> Options {
    Options {
        platform,
        input,
        key_delay: Duration::from_millis(args.key_delay),
        timeout: Duration::from_millis(args.timeout.max(1)),
        show_thinking: args.show_thinking,
        step_delay: Duration::from_millis(args.step_delay),
        stop_after: args.stop_after,
        scale: super::logic_input::scale(args.scale),
        // Each step's text on standard output as it is played, flushed at once.
        tell: args.show_thinking.then(|| {
            desktop::thinking::Tell(Arc::new(|text: &str| {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{text}");
                let _ = out.flush();
            }))
        }),
        abort: Some(abort),
        evidence_dir: args.debug_dir.clone(),
        ..Options::default()
    }
}

/// The front end whose keys are used: `--platform` when given, else the one the game window
/// shows (its X11 `WM_CLASS`), else this OS's own.
fn platform(args: &DesktopArgs, detected: Option<Platform>) -> Platform {
    match args.platform {
        Some(PlatformArg::Gtk) => Platform::Gtk,
        Some(PlatformArg::Windows) => Platform::Windows,
        None => detected.unwrap_or_else(Platform::native),
    }
}

fn run_auto(
    args: &DesktopArgs,
    mut screen: Box<dyn Desktop>,
    opts: &Options,
    stop: &signals::Stop,
) -> anyhow::Result<Code> {
    let result = match args.game {
        GameArg::Solo => desktop::run_matching(&mut *screen, opts, None),
        GameArg::GnomeSudoku => {
            by_pixels::run_by_pixels(&mut *screen, opts, PixelGame::GNOME_SUDOKU)
        }
        GameArg::Pixels => by_pixels::run_by_pixels(&mut *screen, opts, PixelGame::ANY),
    };
    if result.as_ref().is_err_and(|e| matches!(e.cause(), DesktopError::Aborted))
        && let Some(code) = stop.stopped()
    {
        return Ok(code);
    }
    match result {
        Ok(report) => {
            print_outcome(&report, args);
            Ok(Code::Success)
        }
        Err(e) => error_code(e),
    }
}

/// The desktop backend and the game's front end when the window tells it: X11 (finds and
/// focuses the window by title, reads the front end from its `WM_CLASS`) where available, else
/// input and clipboard only (the user focuses the game; the front end is this OS's own).
#[cfg(all(unix, not(target_os = "macos")))]
fn connect(
    title: &str,
    class: Option<&str>,
    wait: std::time::Duration,
    interactive: bool,
) -> anyhow::Result<(Box<dyn Desktop>, Option<Platform>)> {
    use desktop::x11::X11Desktop;
    let screen = match interactive {
        true => X11Desktop::connect_or_unbound(title)?,
        false => X11Desktop::connect_class(title, class, wait)?,
    };
    let front_end = screen.front_end();
    Ok((Box::new(screen), front_end))
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn connect(
    _title: &str,
    _class: Option<&str>,
    _wait: std::time::Duration,
    _interactive: bool,
) -> anyhow::Result<(Box<dyn Desktop>, Option<Platform>)> {
    Ok((Box::new(desktop::portable::PortableDesktop::new()?), None))
}

/// Maps solver outcomes to their exit codes; other errors go up to `classify`.
fn error_code(e: DesktopError) -> anyhow::Result<Code> {
    let code = match e.cause() {
        DesktopError::Unsolvable => Code::NoSolution,
        DesktopError::Multiple => Code::Multiple,
        DesktopError::Aborted => Code::Interrupted,
        DesktopError::Killer { .. }
        | DesktopError::CannotSave { .. }
        | DesktopError::Invalid(_)
        | DesktopError::BadPuzzle(_)
        | DesktopError::BadGameId { .. }
        | DesktopError::PuzzleMismatch { .. } => Code::BadInput,
        _ => return Err(e.into()),
    };
    eprintln!("sudobot: {e}");
    Ok(code)
}

fn print_outcome(report: &Report, args: &DesktopArgs) {
    let stats = args.stats;
    let confirmed = match (report.verified, report.check) {
        (true, Check::Copy) => "solved and confirmed by copying the board back",
        (true, Check::Save) => "solved and confirmed by saving the game and replaying its moves",
        (true, Check::Pixels) => "solved and confirmed by reading the window's pixels back",
        (true, Check::Completion) => {
            "solved and confirmed: the board read back right before the last digit, then the \
             game's completion dialog"
        }
        (false, _) => "typed (not verified)",
    };
    match report.check {
        Check::Pixels | Check::Completion => println!(
            "{}: {} value(s) typed, {} corrected; {confirmed}",
            report.params, report.typed, report.corrected
        ),
        Check::Copy => println!(
            "{} ({}x{}): {} value(s) typed, {} corrected; {confirmed}",
            report.params, report.side, report.side, report.typed, report.corrected
        ),
        // Killer, show-thinking: the values the engine's steps placed.
        Check::Save if args.show_thinking => println!(
            "{} ({}x{}): {} value(s) placed in the engine's order; {confirmed}",
            report.params, report.side, report.side, report.typed
        ),
        // Killer: the board cannot be read before typing, so every non-given cell is typed.
        Check::Save => println!(
            "{} ({}x{}): {} value(s) typed (every non-given cell); {confirmed}",
            report.params, report.side, report.side, report.typed
        ),
    }
    if stats {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "stats: read {:.0} ms, solve {:.1} ms, type {:.0} ms ({} actions), verify {:.0} ms, total {:.0} ms",
            ms(report.read),
            ms(report.solve),
            ms(report.typing),
            report.actions,
            ms(report.verify),
            ms(report.total())
        );
    }
}

mod interactive {
    //! The hotkey loop: a listener thread ([`desktop::hotkeys`]) feeding a session on the main
    //! thread.
    //!
    //! On X11 the listener also sees the bot's own keys. The bot closes dialogs without keys
    //! where it can; its rare own Escapes are counted and skipped. Hotkeys are numbered as they
    //! are queued: an Esc while anything is queued or running aborts the run between two moves
    //! and cancels every hotkey queued before it; an Esc with nothing to do ends the session.

    use std::sync::atomic::AtomicUsize;
    use std::sync::mpsc;

    use sudobot::desktop::hotkeys::Listener;
    use sudobot::desktop::interactive::{Hotkey, Outcome, Session, Source};

    use super::*;

    pub fn run(
        args: &DesktopArgs,
        mut screen: Box<dyn Desktop>,
        mut opts: Options,
        busy: Arc<AtomicBool>,
        stop: &signals::Stop,
    ) -> anyhow::Result<Code> {
        let abort = opts.abort.clone().unwrap_or_default();
        let own_escapes = Arc::new(desktop::OwnEscapes::default());
        // Hotkeys queued and finished so far, and the last one an Esc cancelled.
        let queued = Arc::new(AtomicUsize::new(0));
        let done = Arc::new(AtomicUsize::new(0));
        let cancel_upto = Arc::new(AtomicUsize::new(0));
        let source = match (&args.puzzle, args.from_clipboard) {
            (Some(text), _) => Source::Text(text.clone()),
            (None, true) => Source::Clipboard,
            (None, false) => Source::Game,
        };
        let (tx, rx) = mpsc::channel();
        let listener = {
            let abort = Arc::clone(&abort);
            let (queued, done, cancel_upto) =
                (Arc::clone(&queued), Arc::clone(&done), Arc::clone(&cancel_upto));
            Listener::start(
                Box::new(move |heard| {
                    let hotkey = match heard {
                        Ok(Hotkey::Escape) => {
                            let pending = queued.load(Ordering::SeqCst);
                            if pending > done.load(Ordering::SeqCst) {
                                cancel_upto.store(pending, Ordering::SeqCst);
                                abort.store(true, Ordering::SeqCst);
                                return;
                            }
                            Hotkey::Escape
                        }
                        Ok(hotkey) => hotkey,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                    queued.fetch_add(1, Ordering::SeqCst);
                    let _ = tx.send(Ok(hotkey));
                }),
                Arc::clone(&own_escapes),
            )?
        };
        // Where the listener hears the bot's own keys, its Escapes are noted so they are skipped.
        if listener.sees_own_keys() {
            opts.own_escapes = Some(Arc::clone(&own_escapes));
        }
        let mut session = Session::new(opts, source);
        eprintln!(
            "sudobot desktop: listening. F1 origin (pointer on the top-left cell), F4 twice to \
             calibrate the step, F3 walk the empty cells, F2 solve (a focused window that is \
             not Solo: by its pixels), Esc abort/quit"
        );
        for (index, message) in (1..).zip(rx) {
            let hotkey = message?;
            if index <= cancel_upto.load(Ordering::SeqCst) {
                eprintln!("{hotkey:?} cancelled by Esc");
                done.fetch_add(1, Ordering::SeqCst);
                continue;
            }
            busy.store(true, Ordering::SeqCst);
            let outcome = session.handle(hotkey, &mut *screen);
            busy.store(false, Ordering::SeqCst);
            done.fetch_add(1, Ordering::SeqCst);
            abort.store(false, Ordering::SeqCst);
            match outcome {
                Ok(Outcome::Quit) => {
                    eprintln!("sudobot desktop: bye");
                    return Ok(Code::Success);
                }
                Ok(Outcome::Origin(g)) => {
                    eprintln!("origin set at {:?}, step {} px", g.origin, g.step)
                }
                Ok(Outcome::CalibrationStarted(at)) => {
                    eprintln!("first point {at:?}; now press F4 on the cell to its right")
                }
                Ok(Outcome::Calibrated(g)) => {
                    eprintln!("calibrated: origin {:?}, step {} px", g.origin, g.step)
                }
                Ok(Outcome::CalibrationRejected) => {
                    eprintln!("the two F4 points are too close; press F4 twice again")
                }
                Ok(Outcome::Walked(n)) => eprintln!("walked {n} empty cells"),
                Ok(Outcome::Solved(report)) => print_outcome(&report, args),
                Err(e) if matches!(e.cause(), DesktopError::Aborted) => {
                    screen.release_all();
                    // A signal ends the session; Esc only the run.
                    if let Some(code) = stop.stopped() {
                        return Ok(code);
                    }
                    match e {
                        // A run by pixels says what it had typed.
                        DesktopError::Stopped { .. } => eprintln!("sudobot: {e}"),
                        _ => eprintln!("aborted; keys released"),
                    }
                }
                Err(e) => eprintln!("sudobot: {e}"),
            }
        }
        drop(listener);
        anyhow::bail!("the hotkey listener stopped")
    }
}
