//! Selenium Grid 4 as seen through its `/status`: nodes, their slots, the sessions in them, and
//! the tag that marks the sessions of this run so none is left behind.
//!
//! Every remote session sudobot creates carries the capability [`TAG_CAP`] =
//! `host/pid/start-time` ([`run_tag`]). The Grid echoes requested capabilities in `/status`, so
//! a run can find and delete its own sessions at the end ([`sweep`]: a session whose creation
//! was still in flight when the run stopped), and a later run on the same host can delete those
//! of a run that was killed outright ([`is_stale`]).

use std::time::Duration;

/// The capability that names the run a remote session belongs to.
pub const TAG_CAP: &str = "sudobot:run";

/// What `/status` says about a Grid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridStatus {
    /// The Grid's own `ready`.
    pub ready: bool,
    /// Its nodes.
    pub nodes: Vec<NodeStatus>,
}

/// One node of a Grid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeStatus {
    /// The node's URI.
    pub uri: String,
    /// `availability` is `UP` (not `DOWN` or `DRAINING`).
    pub up: bool,
    /// Its slots.
    pub slots: usize,
    /// The sessions in its slots.
    pub sessions: Vec<GridSession>,
    /// The browsers its slots offer (`stereotype.browserName`: `chrome`, `firefox`, ...).
    pub browsers: Vec<String>,
}

/// A session in a slot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridSession {
    /// The session id.
    pub id: String,
    /// The node's URI.
    pub node: String,
    /// The value of [`TAG_CAP`], for sessions sudobot created.
    pub tag: Option<String>,
}

impl GridStatus {
    /// Slots on nodes that are up.
    pub fn slots(&self) -> usize {
        self.nodes.iter().filter(|n| n.up).map(|n| n.slots).sum()
    }

    /// Free slots on nodes that are up.
    pub fn free(&self) -> usize {
        self.nodes.iter().filter(|n| n.up).map(|n| n.slots.saturating_sub(n.sessions.len())).sum()
    }

    /// Nodes that are up.
    pub fn nodes_up(&self) -> usize {
        self.nodes.iter().filter(|n| n.up).count()
    }

    /// Sessions on nodes that are up (a node that is down took its sessions with it, though
    /// the Grid lists them until it forgets the node).
    pub fn live_sessions(&self) -> Vec<&GridSession> {
        self.nodes.iter().filter(|n| n.up).flat_map(|n| n.sessions.iter()).collect()
    }

    /// The browsers that nodes that are up offer, each once.
    pub fn browsers(&self) -> Vec<&str> {
        let mut all: Vec<&str> = self
            .nodes
            .iter()
            .filter(|n| n.up)
            .flat_map(|n| n.browsers.iter().map(String::as_str))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// One line: nodes, slots, free slots.
    pub fn describe(&self) -> String {
        let down = self.nodes.len() - self.nodes_up();
        let down = if down > 0 { format!(" ({down} down)") } else { String::new() };
        format!(
            "{} node(s) up{down}, {} slot(s), {} free",
            self.nodes_up(),
            self.slots(),
            self.free()
        )
    }
}

/// Parses a `/status` body. `Ok(None)`: a WebDriver server that is not a Grid (no `nodes`,
/// e.g. chromedriver).
pub fn parse_status(body: &str) -> Result<Option<GridStatus>, String> {
    let json: serde_json::Value =
        serde_json::from_str(body).map_err(|e| format!("/status is not JSON: {e}"))?;
    let value = &json["value"];
    let Some(nodes) = value.get("nodes").and_then(|n| n.as_array()) else {
        return Ok(None);
    };
    let mut status =
        GridStatus { ready: value["ready"].as_bool().unwrap_or(false), nodes: Vec::new() };
    for node in nodes {
        let uri = node["uri"].as_str().unwrap_or("").to_string();
        let slots = node["slots"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        let sessions = slots
            .iter()
            .filter_map(|s| s.get("session").filter(|s| !s.is_null()))
            .map(|s| GridSession {
                id: s["sessionId"].as_str().unwrap_or("").to_string(),
                node: uri.clone(),
                tag: s["capabilities"][TAG_CAP].as_str().map(str::to_string),
            })
            .collect();
        let mut browsers: Vec<String> = slots
            .iter()
            .filter_map(|s| s["stereotype"]["browserName"].as_str())
            .map(str::to_string)
            .collect();
        browsers.sort_unstable();
        browsers.dedup();
        status.nodes.push(NodeStatus {
            browsers,
            up: node["availability"].as_str() == Some("UP"),
            slots: slots.len(),
            sessions,
            uri,
        });
    }
    Ok(Some(status))
}

fn client(bound: Duration) -> reqwest::Client {
    reqwest::Client::builder().timeout(bound).build().unwrap_or_else(|_| reqwest::Client::new())
}

/// Asks `url/status` (bounded). `Ok(None)`: the server is not a Grid.
pub async fn status(url: &str, bound: Duration) -> Result<Option<GridStatus>, String> {
    let url = format!("{}/status", url.trim_end_matches('/'));
    let body = client(bound)
        .get(&url)
        .send()
        .await
        .map_err(|e| format!("GET {url}: {e}"))?
        .text()
        .await
        .map_err(|e| format!("GET {url}: {e}"))?;
    parse_status(&body)
}

/// Deletes a session on the server (bounded); whether the server said yes.
pub async fn delete_session(url: &str, id: &str, bound: Duration) -> bool {
    let url = format!("{}/session/{id}", url.trim_end_matches('/'));
    matches!(client(bound).delete(&url).send().await, Ok(r) if r.status().is_success())
}

/// Deletes every live session whose tag `matches` (bounded as a whole); returns the ids deleted.
pub async fn sweep(url: &str, bound: Duration, matches: impl Fn(&str) -> bool) -> Vec<String> {
    let work = async {
        let Ok(Some(status)) = status(url, bound).await else {
            return Vec::new();
        };
        let mine: Vec<String> = status
            .live_sessions()
            .into_iter()
            .filter(|s| s.tag.as_deref().is_some_and(&matches))
            .map(|s| s.id.clone())
            .collect();
        let mut deleted = Vec::new();
        for id in mine {
            if delete_session(url, &id, bound).await {
                tracing::debug!("deleted Grid session {id} left by this or an earlier run");
                deleted.push(id);
            }
        }
        deleted
    };
    tokio::time::timeout(bound, work).await.unwrap_or_default()
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}

/// This process's tag: `host/pid/start-time`.
pub fn run_tag() -> String {
    let pid = std::process::id();
    format!("{}/{pid}/{}", host(), super::owner::start_time(pid).unwrap_or(0))
}

/// Whether a tag names a run on this host whose process is gone.
pub fn is_stale(tag: &str) -> bool {
    let mut parts = tag.rsplitn(3, '/');
    let (Some(start), Some(pid), Some(tag_host)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Ok(start), Ok(pid)) = (start.parse::<u64>(), pid.parse::<u32>()) else {
        return false;
    };
    tag_host == host() && super::owner::start_time(pid) != Some(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: &str = r#"{"value":{"ready":true,"message":"Selenium Grid ready.","nodes":[
      {"uri":"http://10.0.0.1:5555","availability":"UP","maxSessions":2,"slots":[
        {"session":null,"stereotype":{"browserName":"firefox"}},
        {"session":{"sessionId":"abc","capabilities":{"sudobot:run":"h/1/2"}},
         "stereotype":{"browserName":"firefox"}}]},
      {"uri":"http://10.0.0.2:5555","availability":"DOWN","maxSessions":1,"slots":[
        {"session":{"sessionId":"dead","capabilities":{}}}]},
      {"uri":"http://10.0.0.3:5555","availability":"UP","maxSessions":1,"slots":[
        {"session":null}]}]}}"#;

    #[test]
    fn status_counts_slots_on_nodes_that_are_up() {
        let s = parse_status(STATUS).unwrap().unwrap();
        assert!(s.ready);
        assert_eq!((s.nodes.len(), s.nodes_up(), s.slots(), s.free()), (3, 2, 3, 2));
        let live = s.live_sessions();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].id, "abc");
        assert_eq!(live[0].tag.as_deref(), Some("h/1/2"));
        assert_eq!(s.describe(), "2 node(s) up (1 down), 3 slot(s), 2 free");
        assert_eq!(s.browsers(), ["firefox"]);
    }

    #[test]
    fn chromedriver_status_is_not_a_grid() {
        let body =
            r#"{"value":{"build":{"version":"156"},"message":"ChromeDriver ready","ready":true}}"#;
        assert_eq!(parse_status(body).unwrap(), None);
        assert!(parse_status("<html>").is_err());
    }

    #[test]
    fn tags_of_live_runs_are_not_stale() {
        let mine = run_tag();
        assert!(!is_stale(&mine));
        let host = mine.split('/').next().unwrap();
        // pid 0 never names a live process.
        assert!(is_stale(&format!("{host}/0/1")));
        assert!(!is_stale("another-host/0/1"), "another host's runs are not ours to judge");
        assert!(!is_stale("garbage"));
    }
}
