//! How a WebDriver error reads: the session lost or not, the transport failing, the message
//! on one line. A leaf: the errors of every layer (pages, discovery, sessions) use it.

use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;

/// Whether the error is the HTTP exchange with the driver failing: no connection, or no answer
/// within the bound on each command ([`WebDriverErrorInner::Timeout`], given by the session's
/// client; thirtyfour's element waits, which give it too, are not used here).
pub fn is_transport(e: &WebDriverError) -> bool {
    matches!(
        e.as_inner(),
        WebDriverErrorInner::HttpError(..)
            | WebDriverErrorInner::RequestFailed(..)
            | WebDriverErrorInner::Timeout(..)
    )
}

/// Whether the error says the session is gone, by its kind: the transport, a W3C "invalid
/// session id" or "no such window", thirtyfour's own session errors. A driver's "unknown
/// error" says it only in words (chromedriver's "disconnected" and "not reachable", a Grid's
/// "Unable to find session"), so for those kinds alone the message is read.
pub fn is_session_lost(e: &WebDriverError) -> bool {
    use WebDriverErrorInner as K;
    let message = match e.as_inner() {
        K::HttpError(..)
        | K::RequestFailed(..)
        | K::Timeout(..)
        | K::InvalidSessionId(..)
        | K::NoSuchWindow(..)
        | K::FatalError(..)
        | K::CommandSendError(..)
        | K::CommandRecvError(..) => return true,
        K::UnknownError(info) | K::NotInSpec(info) => &info.value.message,
        K::UnknownResponse(_, body) => body,
        _ => return false,
    };
    [
        "disconnected",
        "not reachable",
        "session deleted",
        "Unable to find session",
        "Unable to execute request",
        "Connection failure",
        // geckodriver, once Firefox is gone.
        "without establishing a connection",
        "Failed to decode response from marionette",
    ]
    .iter()
    .any(|m| message.contains(m))
}

/// The driver's message on one line, without the stack trace chromedriver appends.
pub fn short(e: &WebDriverError) -> String {
    let text = e.to_string();
    let text = text.split("Stacktrace").next().unwrap_or("");
    let mut line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.len() > 300 {
        let cut = (0..=300).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
        line.truncate(cut);
        line.push_str("...");
    }
    line
}
