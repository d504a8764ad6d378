//! The interactive mode's hotkey listener on a real X server: it is listening when it says so,
//! F-keys held with a modifier are not hotkeys, and a plain F2 solves.

use std::time::Duration;

use super::harness::{self, Screen, require_tools};
use super::{assert_solved, game_id};

#[test]
fn listens_when_it_says_so_and_ignores_modified_f_keys() {
    require_tools!();
    let mut screen = Screen::start(1024, 768);
    let name = "2x3";
    let game = screen.launch(game_id(name), &[]);
    screen.focus(&game);
    let mut bot = screen.spawn_sudobot(&["desktop"]);
    harness::wait_until("the listener to be ready", Duration::from_secs(10), || {
        bot.output().contains("listening").then_some(())
    });
    // Alt+F2 and Ctrl+F1 are not hotkeys. F3 (walk) then answers with an error, as no origin is
    // set; hotkeys are handled in order, so once it answered, the two before it were not taken.
    screen.xdotool(&["key", "alt+F2", "ctrl+F1", "F3"]);
    harness::wait_until("F3 to answer", Duration::from_secs(10), || {
        bot.output().contains("first cell's centre").then_some(())
    });
    let out = bot.output();
    assert!(!out.contains("confirmed") && !out.contains("origin set"), "{out}");
    // One plain F2, pressed once after "listening", solves the game.
    screen.xdotool(&["key", "F2"]);
    harness::wait_until("F2 to solve the game", Duration::from_secs(30), || {
        bot.output().contains("confirmed").then_some(())
    });
    screen.xdotool(&["key", "Escape"]);
    assert_eq!(bot.wait_exit(Duration::from_secs(10)), Some(0), "{}", bot.output());
    assert_solved(name, &screen.copy_board(&game));
}
