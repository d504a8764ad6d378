//! The page-board assembly: a page source (`read::parse_source`) or the board script's answer
//! (`read::from_script`, JSON as WebDriver returns it) placed on the board of each shipped
//! site. No panic; an accepted board has 81 cells, each placed once (`dom_order` is a
//! permutation), and a puzzle or a `BadGiven` error. The first byte picks the site and the
//! reader, the rest is the HTML or the JSON.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sudobot::web::read::{self, PageBoard, ReadError, ScriptCell};
use sudobot::web::site::{self, SIDE, Site};
use sudobot_fuzz::text;

fn sites() -> &'static [Site] {
    static SITES: OnceLock<Vec<Site>> = OnceLock::new();
    SITES.get_or_init(|| {
        site::EMBEDDED
            .iter()
            .map(|(file, toml)| Site::parse(file, toml).expect("shipped site"))
            .collect()
    })
}

fn check(board: &PageBoard) {
    let n = SIDE * SIDE;
    assert_eq!(board.raw.len(), n);
    assert_eq!(board.given.len(), n);
    let mut seen = vec![false; n];
    for &i in &board.dom_order {
        assert!(!std::mem::replace(&mut seen[i], true), "cell {i} placed twice");
    }
    assert!(seen.iter().all(|&s| s), "a cell not placed");
    assert!(board.givens() <= n);
    match board.puzzle_values() {
        Ok(values) => {
            assert_eq!(values.len(), n);
            assert!(values.iter().all(|&v| v <= 9));
        }
        Err(ReadError::BadGiven { cell, .. }) => assert!(cell.index(SIDE) < n),
        Err(e) => panic!("unexpected error from puzzle_values: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Some(text) = text(rest) else { return };
    let sites = sites();
    let site = &sites[usize::from(pick & 0x7f) % sites.len()];
    let result = if pick & 0x80 == 0 {
        read::parse_source(text, site)
    } else {
        let Ok(cells) = serde_json::from_str::<Vec<ScriptCell>>(text) else { return };
        read::from_script(site, cells)
    };
    match result {
        Ok(board) => check(&board),
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
