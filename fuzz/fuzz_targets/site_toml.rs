//! Site files (`sites/*.toml`): no panic; errors name a line inside the file; an accepted site
//! gives 81 distinct cell ids (with `order = "id"`) and URLs for its levels.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::web::site::{SIDE, Site, SiteError};
use sudobot_fuzz::{assert_toml_position_inside, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    match Site::parse("fuzz.toml", text) {
        Ok(site) => {
            if let Some(ids) = site.cell_ids() {
                assert_eq!(ids.len(), SIDE * SIDE);
                let distinct: std::collections::HashSet<&String> = ids.iter().collect();
                assert_eq!(distinct.len(), SIDE * SIDE, "cell ids repeat");
            }
            let levels: Vec<String> = site.difficulty.levels.keys().cloned().collect();
            let asked = levels.iter().map(|l| Some(l.as_str())).chain([None, Some("nope")]);
            for level in asked {
                if let Ok(value) = site.difficulty_value(level) {
                    let _ = site.url_for(&value, Some("http://127.0.0.1:1"));
                    let _ = site.url_for(&value, None);
                }
            }
            let _ = sudobot::web::read::ReadArgs::new(&site);
        }
        Err(SiteError::Parse { message, .. }) => assert_toml_position_inside(text, &message),
        Err(_) => {}
    }
});
