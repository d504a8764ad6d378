use assert_cmd::Command;

#[test]
fn solves_a_line_puzzle() {
    Command::cargo_bin("sudobot")
        .unwrap()
        .args(["solve", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"])
        .assert()
        .success()
        .stdout("417369825632158947958724316825437169791586432346912758289643571573291684164875293\n");
}
