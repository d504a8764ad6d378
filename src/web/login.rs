//! Sites that need the player's login (`[login]` in a site file): without a session their page
//! shows a login wall where the board would be. sudobot looks once the page has loaded, before
//! it waits for the board: the wall is a clear error that says how to bring a session, given
//! the one the run had ([`Session`]): `--attach` to the user's own browser or `--profile` with
//! a profile they logged in with; attached, to log in in that browser; with a profile, to log
//! in once in a browser using it. Nothing is typed.

use std::path::PathBuf;
use std::time::Duration;

use thirtyfour::prelude::*;

use super::poll::{Waited, poll};
use super::site::Site;

pub use super::site::Login;

/// Whose session the browser brings to the page: what the login-wall message tells the user
/// to do depends on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Session {
    /// A fresh profile of sudobot's own: no login.
    #[default]
    Fresh,
    /// The user's own browser (`--attach`).
    Attached,
    /// A persistent profile (`--profile DIR`), with the command line that opens a browser on
    /// it, for the user to log in there.
    Profile {
        /// The profile.
        dir: PathBuf,
        /// The browser's command line on that profile, in backquotes.
        open: String,
    },
}

impl Session {
    /// What the user can do to be logged in next time.
    fn advice(&self) -> String {
        match self {
            Session::Fresh => "use --attach or --profile".into(),
            Session::Attached => {
                "the browser sudobot attached to is not logged in there: log in in that \
                 browser, then run again"
                    .into()
            }
            Session::Profile { dir, open } => format!(
                "the profile {} is not logged in there: log in once in a browser on it \
                 ({open}), close that browser, then run again",
                dir.display()
            ),
        }
    }
}

/// The page shows its login wall.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoginError {
    /// The wall is there and the board is not.
    #[error(
        "this site needs you to be logged in: {} (the page shows its login wall `{selector}` \
         instead of the board); nothing was typed",
        session.advice()
    )]
    Wall {
        /// The selector that matched.
        selector: String,
        /// The session the run had.
        session: Session,
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
/// the wall is [`LoginError::Wall`], its advice fitted to `session`. Neither within `bound`:
/// the board's own wait says why.
pub async fn check(
    driver: &WebDriver,
    site: &Site,
    session: &Session,
    bound: Duration,
) -> Result<(), LoginError> {
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
                let selector = wall.trim_start_matches("wall:").to_string();
                Err(LoginError::Wall { selector, session: session.clone() })
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
    fn the_message_says_what_to_do_with_the_session_the_run_had() {
        let wall = |session| LoginError::Wall { selector: ".authwall".into(), session }.to_string();
        let fresh = wall(Session::Fresh);
        assert!(
            fresh.starts_with("this site needs you to be logged in: use --attach or --profile"),
            "{fresh}"
        );
        assert!(fresh.contains("`.authwall`") && fresh.contains("nothing was typed"), "{fresh}");
        let attached = wall(Session::Attached);
        assert!(attached.contains("log in in that browser, then run again"), "{attached}");
        assert!(!attached.contains("--attach or --profile"), "{attached}");
        let open = "`firefox -profile /p`".to_string();
        let profile = wall(Session::Profile { dir: "/p".into(), open });
        assert!(profile.contains("the profile /p is not logged in"), "{profile}");
        assert!(profile.contains("(`firefox -profile /p`), close that browser"), "{profile}");
        assert!(!profile.contains("--attach or --profile"), "{profile}");
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
