//! Sites that need the player's login (`[login]` in a site file): without a session their page
//! shows a login wall where the board would be. sudobot looks once the page has loaded, before
//! it waits for the board: the wall is a clear error that says how to bring a session
//! (`--attach` to the user's own browser, or `--profile` with a profile they logged in with),
//! and nothing is typed.

use std::time::Duration;

use thirtyfour::prelude::*;

use super::poll::{Waited, poll};
use super::site::Site;

pub use super::site::Login;

/// The page shows its login wall.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoginError {
    /// The wall is there and the board is not.
    #[error(
        "this site needs you to be logged in: use --attach or --profile (the page shows its \
         login wall `{selector}` instead of the board); nothing was typed"
    )]
    Wall {
        /// The selector that matched.
        selector: String,
    },
}

/// Looks in the page and its same-origin frames: `"board"` when a board cell is there,
/// `"wall:SELECTOR"` when a wall shows, else null.
const LOOK: &str = r#"
const [cells, walls] = arguments;
const docs = [document];
for (const f of document.querySelectorAll('iframe, frame')) {
  try { if (f.contentDocument) docs.push(f.contentDocument); } catch (e) {}
}
for (const d of docs) { if (d.querySelector(cells)) return 'board'; }
for (const d of docs) {
  for (const w of walls) {
    const e = d.querySelector(w);
    if (e && e.getClientRects().length > 0) return 'wall:' + w;
  }
}
return null;
"#;

/// With a `[login]` site: waits (bounded) until the page shows its board or its login wall;
/// the wall is [`LoginError::Wall`]. Neither within `bound`: the board's own wait says why.
pub async fn check(driver: &WebDriver, site: &Site, bound: Duration) -> Result<(), LoginError> {
    let Some(login) = &site.login else {
        return Ok(());
    };
    let args = vec![site.board.cells().into(), serde_json::json!(login.wall)];
    let seen = poll(bound, Duration::from_millis(50), "the board or a login wall", async |_| {
        let seen: Option<String> = driver
            .execute(LOOK, args.clone())
            .await
            .ok()
            .and_then(|r| r.convert::<Option<String>>().ok())
            .flatten();
        match seen.as_deref() {
            Some("board") => Ok(Some(())),
            Some(wall) if wall.starts_with("wall:") => {
                Err(LoginError::Wall { selector: wall.trim_start_matches("wall:").to_string() })
            }
            _ => Ok(None),
        }
    })
    .await;
    match seen {
        Err(Waited::Stopped(wall)) => Err(wall),
        Ok(()) | Err(Waited::Out(_)) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_says_what_to_do() {
        let e = LoginError::Wall { selector: ".authwall".into() };
        let text = e.to_string();
        assert!(
            text.starts_with("this site needs you to be logged in: use --attach or --profile"),
            "{text}"
        );
        assert!(text.contains("nothing was typed"), "{text}");
    }

    #[test]
    fn the_linkedin_site_has_a_wall_and_an_empty_one_is_refused() {
        let linkedin = crate::web::site::find("linkedin", None).unwrap().site;
        assert!(!linkedin.login.as_ref().unwrap().wall.is_empty());
        let text = include_str!("../../sites/linkedin.toml");
        let empty = text.replace(
            &text[text.find("wall = ").unwrap()..].lines().next().unwrap().to_string(),
            "wall = []",
        );
        let err = Site::parse("l.toml", &empty).unwrap_err().to_string();
        assert!(err.contains("login.wall"), "{err}");
        let bad = text.replace("[login]", "[login]\nwal = 1");
        assert!(Site::parse("l.toml", &bad).is_err());
    }
}
