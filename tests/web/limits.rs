//! The edges of issue 32: discovery's frame caps named when they hide the board, `sites learn`
//! into a full disk, a FIFO among the site files.

use std::time::{Duration, Instant};

use super::server::FixtureServer;
use super::{assert_code, browser_lock, config_with, sudobot, sudobot_plain, text};

/// A board 4 frames deep, and one in the 17th frame: "no sudoku board found", with the cap that
/// hid it named (the depth cap, then the frame cap).
#[test]
fn a_board_past_the_frame_caps_is_not_found_and_the_cap_is_named() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let dir = tempfile::tempdir().unwrap();
    // A short bound: discovery looks again until it, for boards drawn late.
    let config =
        config_with(dir.path(), &[("element_timeout_ms = 10000", "element_timeout_ms = 1500")]);
    let config = config.to_str().unwrap();
    for (page, cap) in [
        ("deep.html?n=4", "nested more than 3 deep were not looked at (discovery's depth cap)"),
        ("frames_17.html", "discovery scans at most 16 documents"),
    ] {
        let url = server.url(&format!("any/{page}"));
        let out = sudobot(&["web", "--url", &url, "--config", config]);
        assert_code(&out, 1);
        let stderr = text(&out).1;
        assert!(
            stderr.contains("no sudoku board found") && stderr.contains(cap),
            "{page}: {stderr}"
        );
    }
    assert!(server.verdicts("deep").is_empty(), "nothing was typed");
}

/// `sites learn` with its standard output on a full disk: exit 1 and a message, not exit 0 with
/// the file lost.
#[test]
fn learning_into_a_full_disk_fails() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("any/li_4x4.html");
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sudobot"))
        .args(["sites", "learn", "--url", &url, "--name", "four", "--headless"])
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let exited = crate::support::wait_exit(&mut child, Instant::now() + Duration::from_secs(60));
    if !exited {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    let stderr = reader.join().unwrap();
    assert!(exited, "sudobot sites learn did not exit within 60 s: {stderr}");
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("writing the site file to standard output (nothing was saved)")
            && stderr.contains("No space left on device"),
        "{stderr}"
    );
}

/// `sites list` and `sites check` with standard output on a full disk: exit 1 naming the write
/// error (a closed pipe, as in `sites list | head`, stays quiet).
#[test]
fn listing_sites_into_a_full_disk_fails() {
    for action in ["list", "check"] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudobot"))
            .args(["sites", action])
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "sites {action}: {stderr}");
        assert!(
            stderr.contains("writing to standard output") && stderr.contains("No space left"),
            "sites {action}: {stderr}"
        );
    }
}

/// A FIFO named `x.toml` among the site files: `sites check` and `web` say so at once instead of
/// waiting for a writer for ever.
#[test]
fn a_fifo_site_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("x.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo {}", fifo.display());
    let dir_arg = dir.path().to_str().unwrap();
    for args in [
        vec!["sites", "check", "--sites-dir", dir_arg],
        vec!["web", "--site", "demo", "--sites-dir", dir_arg, "--headless"],
    ] {
        let started = Instant::now();
        let out = sudobot_plain(&args);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{args:?} took {:?}",
            started.elapsed()
        );
        assert_code(&out, 2);
        let (stdout, stderr) = text(&out);
        assert!(
            format!("{stdout}{stderr}").contains("x.toml: not a regular file"),
            "{args:?}: {stdout}{stderr}"
        );
    }
}

/// Two boards alike on one page: refused, both named with where they are, nothing typed.
#[test]
fn two_equal_boards_are_refused_with_both_named() {
    let _lock = browser_lock();
    let server = FixtureServer::start();
    let url = server.url("any/two_boards.html");
    let out = sudobot(&["web", "--url", &url]);
    assert_code(&out, 1);
    let stderr = text(&out).1;
    assert!(stderr.contains("two equal sudoku boards on the page"), "{stderr}");
    assert_eq!(stderr.matches("a 9x9 grid of inputs").count(), 2, "{stderr}");
    assert_eq!(stderr.matches(" at x=").count(), 2, "{stderr}");
    assert!(server.verdicts("two_left").is_empty() && server.verdicts("two_right").is_empty());
}
