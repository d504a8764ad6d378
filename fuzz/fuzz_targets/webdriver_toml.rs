//! `webdriver.toml`: no panic; errors name a line inside the file; an accepted config passes
//! its own validation again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudobot::web::config::{ConfigError, WebDriverConfig};
use sudobot_fuzz::{assert_toml_position_inside, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    match WebDriverConfig::parse("fuzz.toml", text) {
        Ok(config) => {
            config.validate("fuzz.toml").expect("a parsed config is valid");
            let _ = config.element_timeout();
            let _ = config.browser.headless.resolve();
        }
        Err(ConfigError::Parse { message, .. }) => assert_toml_position_inside(text, &message),
        Err(_) => {}
    }
});
