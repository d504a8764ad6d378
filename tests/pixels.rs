//! `sudobot solve --image` end to end on committed pictures (drawn by the pixel reader's own
//! tests in fonts its templates were not built from; rebuilt with
//! `cargo test --lib pixels::tests::write_fixtures -- --ignored`).

use std::path::PathBuf;

use predicates::prelude::*;

use crate::support::sudobot;

/// The puzzle drawn in `screenshot-9x9.png` (with pencil marks in two empty cells) and its
/// solution.
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pixels").join(name)
}

#[test]
fn solves_a_screenshot_with_a_number_pad() {
    sudobot()
        .args(["solve", "-o", "line", "--image"])
        .arg(fixture("screenshot-9x9.png"))
        .assert()
        .code(0)
        .stdout(format!("{SOLUTION}\n"));
}

/// `-x` makes the diagonals houses of the board read from pixels too: this board's only
/// classic solution holds 4 twice on the main diagonal, so as an X sudoku it has none (the
/// flag was ignored before, and that solution printed).
#[test]
fn x_with_an_image_counts_the_diagonals() {
    assert_eq!(SOLUTION.as_bytes()[0], SOLUTION.as_bytes()[30], "r1c1 and r4c4 hold the same");
    sudobot()
        .args(["solve", "-x", "-o", "line", "--image"])
        .arg(fixture("screenshot-9x9.png"))
        .assert()
        .code(3)
        .stdout(predicate::str::contains(SOLUTION).not());
}

#[test]
fn reads_standard_input_and_shows_the_read() {
    let png = std::fs::read(fixture("screenshot-9x9.png")).expect("fixture");
    sudobot()
        .args(["solve", "-o", "line", "--show-read", "--image", "-"])
        .write_stdin(png)
        .assert()
        .code(0)
        .stdout(format!("{SOLUTION}\n"))
        .stderr(predicate::str::contains("a 9x9 board with boxes 3x3"))
        .stderr(predicate::str::contains("4 . ,  . . .  8 . 5"));
}

#[test]
fn a_number_pad_alone_is_no_board() {
    sudobot()
        .args(["solve", "--image"])
        .arg(fixture("number-pad.png"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("no sudoku board found"));
}

#[test]
fn files_that_are_no_pictures_are_refused() {
    sudobot()
        .args(["solve", "--image", "-"])
        .write_stdin(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot decode the image"));
    sudobot()
        .args(["solve", "--image", "/nonexistent/board.png"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read /nonexistent/board.png"));
    // a PNG header and nothing after it
    sudobot()
        .args(["solve", "--image", "-"])
        .write_stdin(b"\x89PNG\r\n\x1a\n".to_vec())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot decode the image"));
    // An endless file is read up to the bound, not until memory runs out.
    #[cfg(unix)]
    sudobot()
        .args(["solve", "--image", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/dev/zero: the image is over 64 MiB"));
}

/// A simulated camera photo (turned, in perspective, on grey paper, noisy and blurred, JPEG) of
/// the same puzzle: found only once straightened, and solved.
#[test]
fn solves_a_photo_in_perspective() {
    sudobot()
        .args(["solve", "-o", "line", "--image"])
        .arg(fixture("photo-9x9.jpg"))
        .assert()
        .code(0)
        .stdout(format!("{SOLUTION}\n"));
}

/// A jigsaw (Solo 9j) drawn with thick lines around its regions and thin ones elsewhere: its
/// regions are read from the lines and it is solved as a jigsaw (as boxes, its givens clash).
#[test]
fn solves_a_jigsaw_by_the_regions_its_lines_outline() {
    sudobot()
        .args(["solve", "-o", "line", "--show-read", "--image"])
        .arg(fixture("jigsaw-9x9.png"))
        .assert()
        .code(0)
        .stdout(
            "674253819521984673835761942492317586186572394748639251913425768359846127267198435\n",
        )
        .stderr(predicate::str::contains("a 9x9 board with jigsaw regions"))
        .stderr(predicate::str::contains("outline 9 regions of 9 cells"));
}

/// An X (Solo 3x3x: two solutions as a classic board) with lines drawn across its diagonals:
/// they are read as its diagonals, the digits under them read, and it is solved as an X, the
/// solution `sudobot solve -x` gives for the same givens.
#[test]
fn solves_an_x_by_the_lines_drawn_across_its_diagonals() {
    let givens =
        ".8...5....79...83....73........1...64..9.6..27...4........71....65...24....6...5.";
    let want = sudobot().args(["solve", "-x", "-o", "line", givens]).output().unwrap();
    assert!(want.status.success(), "{want:?}");
    sudobot()
        .args(["solve", "-o", "line", "--show-read", "--image"])
        .arg(fixture("x-9x9.png"))
        .assert()
        .code(0)
        .stdout(String::from_utf8(want.stdout).unwrap())
        .stderr(predicate::str::contains("a 9x9 board with boxes 3x3 and both diagonals (X)"))
        .stderr(predicate::str::contains("no other, are crossed by a line"));
}

#[test]
fn an_uncertain_cell_the_solution_does_not_need_is_left_out_by_name() {
    // r1c2 is smeared; the 47 other givens still have exactly one solution.
    sudobot()
        .args(["solve", "-o", "line", "--image"])
        .arg(fixture("smudge-spare.png"))
        .assert()
        .code(0)
        .stdout(format!("{SOLUTION}\n"))
        .stderr(predicate::str::contains("left out the uncertain r1c2"));
}

#[test]
fn an_uncertain_cell_the_solution_needs_refuses_the_board() {
    // The 17-given puzzle with its given r1c1 smeared: without it, thousands of solutions.
    sudobot()
        .args(["solve", "--image"])
        .arg(fixture("smudge-needed.png"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("1 cell is uncertain: r1c1"))
        .stderr(predicate::str::contains("refusing to guess"));
}

/// A 40-megapixel 16-bit PNG (0.3 MB on disk, 320 MB as 16-bit RGBA) is read within a
/// bounded address space: its samples are cut to 8 bits while decoding, so the picture takes
/// 4 bytes a pixel (it peaked at 475 MB when decoded whole at 16 bits and then converted).
#[cfg(target_os = "linux")]
#[test]
fn a_large_16_bit_png_is_read_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("big16.png");
    let side = 6324u32; // 39.99 megapixels, under the 40-megapixel limit
    {
        let file = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        let mut e = png::Encoder::new(file, side, side);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Sixteen);
        e.set_compression(png::Compression::Fast);
        let mut w = e.write_header().expect("header").into_stream_writer().expect("stream");
        let row = vec![0xffu8; side as usize * 8];
        for _ in 0..side {
            std::io::Write::write_all(&mut w, &row).expect("row");
        }
        w.finish().expect("finish");
    }
    // 300 MB of address space: enough for the 8-bit picture and the reader's work, not for
    // a 16-bit copy of it.
    let bin = assert_cmd::cargo::cargo_bin("sudobot");
    std::process::Command::new("sh")
        .args(["-c", "ulimit -v 300000 && exec \"$0\" solve --image \"$1\""])
        .arg(&bin)
        .arg(&path)
        .output()
        .map(|out| {
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(err.contains("no sudoku board found"), "{err}");
        })
        .expect("runs");
}

/// The RGB of a pixel.
fn rgb(image: &sudobot::pixels::RgbaImage, x: usize, y: usize) -> [u8; 3] {
    let i = (y * image.width + x) * 4;
    [image.data[i], image.data[i + 1], image.data[i + 2]]
}

/// `solve --image FILE --annotate OUT`: runs it and gives the exit code, the picture read and
/// the annotated one.
fn annotated(
    name: &str,
) -> (Option<i32>, sudobot::pixels::RgbaImage, sudobot::pixels::RgbaImage, String) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = dir.path().join("read.png");
    let run = sudobot()
        .args(["solve", "-o", "line", "--image"])
        .arg(fixture(name))
        .arg("--annotate")
        .arg(&out)
        .output()
        .expect("sudobot runs");
    let decode = |path: &std::path::Path| {
        sudobot::pixels::decode(&std::fs::read(path).expect("a picture")).expect("a PNG")
    };
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    (run.status.code(), decode(&fixture(name)), decode(&out), stderr)
}

#[test]
fn annotate_outlines_the_board_and_marks_the_uncertain_cell_in_red() {
    let (code, original, out, stderr) = annotated("smudge-spare.png");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!((out.width, out.height), (original.width, original.height));
    // The board found, from the reader itself, and the cell it was unsure of.
    let read = sudobot::pixels::read(original.view().unwrap()).expect("a board");
    let uncertain = read.uncertain();
    assert_eq!(uncertain.len(), 1, "{read}");
    let b = &read.board;
    // Just outside the board's top-left corner: the blue outline.
    let blue = rgb(&out, b.left.saturating_sub(1), b.top + b.height / 2);
    assert!(blue[2] > 200 && blue[0] < 60, "{blue:?}");
    // The uncertain cell's own outline is red; every given cell has a tag in blue.
    let cell = uncertain[0];
    let rect = b.cell_rect(cell.row * b.side + cell.col).unwrap();
    assert_eq!(rgb(&out, rect.left + rect.width / 2, rect.top), [230, 0, 0]);
    let given =
        (0..b.side * b.side).find(|&i| read.cells[i].is_certain() && read.cells[i].value.is_some());
    let g = b.cell_rect(given.expect("a given")).unwrap();
    let tag: Vec<[u8; 3]> = (g.top..g.top + g.height / 3)
        .flat_map(|y| (g.left..g.left + g.width / 3).map(move |x| (x, y)))
        .map(|(x, y)| rgb(&out, x, y))
        .collect();
    assert!(tag.contains(&[20, 60, 200]), "no blue digit in the given's corner");
    // Away from the tags and outlines, the picture is unchanged.
    let (x, y) = (rect.left + rect.width * 3 / 4, rect.top + rect.height * 3 / 4);
    assert_eq!(rgb(&out, x, y), rgb(&original, x, y));
}

#[test]
fn annotate_writes_a_refused_read_too() {
    // Refused for an uncertain cell it needs: the board is still drawn, the cell in red.
    let (code, _, out, stderr) = annotated("smudge-needed.png");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("refusing to guess"), "{stderr}");
    assert!(out.data.chunks(4).any(|p| p[..3] == [230, 0, 0]), "no red mark");
    assert!(out.data.chunks(4).any(|p| p[..3] == [20, 90, 230]), "no board outline");
    // No board at all: the picture framed in red.
    let (code, original, out, stderr) = annotated("number-pad.png");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(rgb(&out, 0, 0), [230, 0, 0]);
    assert_eq!(rgb(&out, out.width - 1, out.height / 2), [230, 0, 0]);
    let (cx, cy) = (out.width / 2, out.height / 2);
    assert_eq!(rgb(&out, cx, cy), rgb(&original, cx, cy));
}

/// The 16x16 board of `letters-16x16.png`, values 10 to 16 drawn as A to G (drawn by
/// `pixels::tests::fixtures`), solved: its rows are the pattern the drawing takes its givens
/// from.
#[test]
fn solves_a_16x16_board_with_letters() {
    let solution: String = (0..256)
        .map(|i| {
            let (r, c) = (i / 16, i % 16);
            let v = ((r % 4) * 4 + r / 4 + c) % 16 + 1;
            char::from_digit(v as u32, 17)
                .map_or('?', |d| if v < 10 { d } else { char::from(b'A' + v as u8 - 10) })
        })
        .collect();
    sudobot()
        .args(["solve", "-o", "line", "--image"])
        .arg(fixture("letters-16x16.png"))
        .assert()
        .code(0)
        .stdout(format!("{solution}\n"));
}

/// The Killer drawn in `killer-9x9.png` (dashed cage outlines, sums in the corners, three
/// givens; Solo 3x3kdu) and its one solution.
const KILLER_SOLUTION: &str =
    "417869352598237614362145798246791583951384267873652941734516829689423175125978436";

/// A picture of a Killer is solved with its cages (without them it has thousands of solutions),
/// and `--show-read` prints the cage text `sudobot solve` reads, which solves the same.
#[test]
fn a_killer_picture_is_solved_with_its_cages_read() {
    let out = sudobot()
        .args(["solve", "-o", "line", "--show-read", "--image"])
        .arg(fixture("killer-9x9.png"))
        .output()
        .expect("run sudobot");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{KILLER_SOLUTION}\n"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("they make 34 cages whose sums add up to 405"), "{stderr}");
    let text = stderr.split("as `sudobot solve` reads it:\n").nth(1).expect("the cage text");
    assert!(text.lines().any(|l| l == "20: r8c5 r8c6 r9c5 r9c6"), "{text}");
    sudobot()
        .args(["solve", "-o", "line", "-"])
        .write_stdin(text.to_string())
        .assert()
        .code(0)
        .stdout(format!("{KILLER_SOLUTION}\n"));
}

/// Cage outlines whose sums do not add up: refused with the reason, nothing solved.
#[test]
fn a_killer_picture_whose_sums_do_not_add_up_is_refused() {
    sudobot()
        .args(["solve", "--image"])
        .arg(fixture("killer-9x9-bad.png"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "the board shows Killer cage outlines, but the 34 cages' sums add up to 406, not 405",
        ));
}
