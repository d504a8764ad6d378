//! `sudobot desktop`: builds the bot's options from the command line, connects to the display
//! and runs the automatic or the interactive mode.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sudobot::desktop::{
    self, Check, Desktop, DesktopError, Input, MouseGrid, Options, Platform, Report,
};

use super::Code;
use crate::cli::desktop::{DesktopArgs, InputArg, PlatformArg};

pub fn run(args: DesktopArgs) -> anyhow::Result<Code> {
    // Flags that do not go together are bad input (exit 2), as clap's own usage errors.
    let mut opts = match options(&args) {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("sudobot: {e}");
            return Ok(Code::BadInput);
        }
    };
    // Ctrl-C (and Esc in interactive mode) set `abort`; a run stops between two moves, releases
    // the modifier keys and exits 130. With nothing running, Ctrl-C exits at once.
    let abort = Arc::new(AtomicBool::new(false));
    let busy = Arc::new(AtomicBool::new(args.auto));
    {
        let (abort, busy) = (Arc::clone(&abort), Arc::clone(&busy));
        ctrlc::set_handler(move || {
            if !busy.load(Ordering::SeqCst) || abort.swap(true, Ordering::SeqCst) {
                // A Killer run's private save directory goes too.
                desktop::save::remove_private_dirs();
                std::process::exit(Code::Interrupted as i32);
            }
        })?;
    }
    opts.abort = Some(abort);
    if args.auto {
        return run_auto(&args, &opts);
    }
    interactive::run(&args, opts, busy)
}

fn options(args: &DesktopArgs) -> anyhow::Result<Options> {
    let input = match args.input {
        InputArg::Keyboard => Input::Keyboard,
        InputArg::Mouse => match (args.origin, args.step) {
            (Some(origin), Some(step)) if step > 0.0 => {
                Input::Mouse(Some(MouseGrid { origin, step }))
            }
            (Some(_), Some(step)) => anyhow::bail!("--step must be positive, got {step}"),
            (None, None) => Input::Mouse(None),
            _ => anyhow::bail!("--origin and --step go together"),
        },
    };
    Ok(Options {
        platform: platform(args, None),
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
        ..Options::default()
    })
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

fn run_auto(args: &DesktopArgs, opts: &Options) -> anyhow::Result<Code> {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        anyhow::bail!(
            "--auto finds the game window, which this build can do on X11 only; use the interactive \
             mode instead: start `sudobot desktop`, focus the game and press F2"
        );
    }
    let (mut screen, detected) = connect(&args.window, opts.timeout)?;
    let opts = &Options { platform: platform(args, detected), ..opts.clone() };
    match desktop::run_auto(&mut *screen, opts) {
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
    wait: std::time::Duration,
) -> anyhow::Result<(Box<dyn Desktop>, Option<Platform>)> {
    let screen = desktop::x11::X11Desktop::connect(title, wait)?;
    let front_end = screen.front_end();
    Ok((Box::new(screen), front_end))
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn connect(
    _title: &str,
    _wait: std::time::Duration,
) -> anyhow::Result<(Box<dyn Desktop>, Option<Platform>)> {
    Ok((Box::new(desktop::portable::PortableDesktop::new()?), None))
}

/// Maps solver outcomes to their exit codes; other errors go up to `classify`.
fn error_code(e: DesktopError) -> anyhow::Result<Code> {
    let code = match &e {
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
        (false, _) => "typed (not verified)",
    };
    match report.check {
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
        mut opts: Options,
        busy: Arc<AtomicBool>,
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
        let (mut screen, detected) = connect(&args.window, opts.timeout)?;
        opts.platform = platform(args, detected);
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
             calibrate the step, F3 walk the empty cells, F2 solve, Esc abort/quit"
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
                Err(DesktopError::Aborted) => {
                    screen.release_all();
                    eprintln!("aborted; keys released");
                }
                Err(e) => eprintln!("sudobot: {e}"),
            }
        }
        drop(listener);
        anyhow::bail!("the hotkey listener stopped")
    }
}
