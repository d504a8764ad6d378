//! `sudobot completions` and `sudobot man`: generated from the clap definitions, checked with
//! real tools (bash parses the completion script; every command gets a manual page).

use crate::support::sudobot;

/// The subcommands as `sudobot --help` lists them.
fn commands() -> Vec<String> {
    let out = sudobot().arg("--help").output().expect("run sudobot --help");
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let listed = help.split("Commands:").nth(1).expect("a Commands section");
    listed
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's name is indented by two; its wrapped description by more.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completion_parses_and_knows_every_command() {
    let out = sudobot().args(["completions", "bash"]).output().expect("run");
    assert!(out.status.success());
    let script = String::from_utf8(out.stdout).expect("utf-8");
    let commands = commands();
    assert!(commands.len() >= 6, "{commands:?}");
    for c in &commands {
        assert!(script.contains(c.as_str()), "the script does not complete {c}");
    }
    // bash itself parses the script (-n: read, do not run).
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("sudobot.bash");
    std::fs::write(&path, &script).expect("write");
    let status = std::process::Command::new("bash").arg("-n").arg(&path).status().expect("bash");
    assert!(status.success(), "bash -n rejected the completion script");
}

#[test]
fn every_shell_has_a_script_and_a_bad_shell_is_a_usage_error() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = sudobot().args(["completions", shell]).output().expect("run");
        assert!(out.status.success() && !out.stdout.is_empty(), "{shell}");
    }
    sudobot().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn man_prints_a_page_and_writes_one_per_command() {
    let out = sudobot().arg("man").output().expect("run");
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).expect("utf-8");
    assert!(page.contains(".TH sudobot 1"), "{page}");
    assert!(page.contains("Exit codes"), "the examples and exit codes belong in the page");
    let dir = tempfile::tempdir().expect("temp dir");
    sudobot().args(["man", "--dir"]).arg(dir.path()).assert().success();
    for c in commands() {
        let file = dir.path().join(format!("sudobot-{c}.1"));
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(text.contains(&format!(".TH sudobot-{c} 1")), "{}", file.display());
    }
}
