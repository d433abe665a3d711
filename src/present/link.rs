//! Links to a place in a session, as the address's fragment, so a reader can send one:
//!
//! - `#s=<session>&i=<row id>`: a row;
//! - `#s=<session>&t=<row id>`: a whole turn, named by the prompt that begins it;
//! - `#s=<session>&a=<agent id>`: a sub-agent's conversation;
//! - `#<row id>`: a row in whichever loaded session has it (what cctv copied before links said
//!   which session they belong to).
//!
//! `<session>` is the session's id, or its file's name when the file has none. Row ids are the
//! line uuids Claude Code wrote ([`ids::item_id`]), so a link outlives a reload and works for
//! whoever has the same files.

use crate::normalize::{ids, ItemRef, Session, ThreadRef, Workspace};
use crate::text::format::isolate;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Anchor {
    Row(String),
    Turn(String),
    Agent(String),
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Link {
    /// The session the place is in; `None` for a bare `#<row id>`.
    pub session: Option<String>,
    pub anchor: Anchor,
}

/// Where a link leads: rows `first..=last` of one thread of one session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// An index into the workspace's sessions.
    pub session: usize,
    pub thread: ThreadRef,
    pub first: u32,
    pub last: u32,
}

impl Link {
    /// Reads a fragment (with or without its `#`), percent-decoding its parts; `None` for an
    /// empty one or one that names nothing.
    pub fn parse(fragment: &str) -> Option<Link> {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        if fragment.is_empty() {
            return None;
        }
        if !fragment.contains('=') {
            return Some(Link { session: None, anchor: Anchor::Row(decode(fragment)) });
        }
        let (mut session, mut anchor) = (None, None);
        for pair in fragment.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = decode(value);
            if value.is_empty() {
                continue;
            }
            match key {
                "s" => session = Some(value),
                "i" => anchor = Some(Anchor::Row(value)),
                "t" => anchor = Some(Anchor::Turn(value)),
                "a" => anchor = Some(Anchor::Agent(value)),
                _ => {}
            }
        }
        Some(Link { session, anchor: anchor? })
    }

    /// The fragment, without its `#`.
    pub fn fragment(&self) -> String {
        let (key, value) = match &self.anchor {
            Anchor::Row(id) => ("i", id),
            Anchor::Turn(id) => ("t", id),
            Anchor::Agent(id) => ("a", id),
        };
        match &self.session {
            Some(s) => format!("s={}&{key}={}", encode(s), encode(value)),
            None => encode(value),
        }
    }

    /// What the reader is told while this link's place is in no loaded session.
    pub fn not_open_note(&self) -> String {
        let what = match self.anchor {
            Anchor::Row(_) => "a row",
            Anchor::Turn(_) => "a turn",
            Anchor::Agent(_) => "a sub-agent's conversation",
        };
        let session = match &self.session {
            Some(s) => format!(" of session {}", isolate(s)),
            None => String::new(),
        };
        format!(
            "This address links to {what}{session} that is not open. Open that session's files (drop them here or use Open) and cctv will go there."
        )
    }
}

/// The session a fragment names (`#s=<session>`, with or without a place in it).
pub fn session_of(fragment: &str) -> Option<String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    fragment.split('&').find_map(|pair| pair.strip_prefix("s=")).map(decode).filter(|s| !s.is_empty())
}

/// The fragment that opens a session at its start.
pub fn session_fragment(session: &str) -> String {
    format!("s={}", encode(session))
}

/// How links name a session: its id, or the name of its file.
pub(crate) fn session_key(ws: &Workspace, session: &Session) -> Option<String> {
    session
        .session_id
        .clone()
        .or_else(|| session.file.and_then(|f| ws.files.get(f as usize)).map(|f| f.name.clone()))
}

/// A link to sub-agent `agent`'s conversation (for an agent whose id is known).
pub(crate) fn agent_link(ws: &Workspace, session: &Session, agent: u32) -> Option<Link> {
    let id = session.agents.get(agent as usize)?.agent_id.clone()?;
    Some(Link { session: session_key(ws, session), anchor: Anchor::Agent(id) })
}

/// Where `link` leads in `ws`: in the session it names when that is loaded, else in any session
/// that has the place (the same files can be loaded under other names).
pub fn resolve(ws: &Workspace, link: &Link) -> Option<Place> {
    let named = |s: &Session| link.session.is_some() && session_key(ws, s) == link.session;
    let order = ws
        .sessions
        .iter()
        .enumerate()
        .filter(|(_, s)| named(s))
        .chain(ws.sessions.iter().enumerate().filter(|(_, s)| !named(s)));
    for (index, session) in order {
        if let Some(place) = resolve_in(ws, index, session, &link.anchor) {
            return Some(place);
        }
    }
    None
}

fn resolve_in(ws: &Workspace, index: usize, session: &Session, anchor: &Anchor) -> Option<Place> {
    match anchor {
        Anchor::Row(id) => {
            let ItemRef { thread, item } = ids::find_in(ws, session, id)?;
            Some(Place { session: index, thread, first: item, last: item })
        }
        Anchor::Turn(id) => {
            let ItemRef { thread, item: first } = ids::find_in(ws, session, id)?;
            let last = session.thread(thread).turn_end(first as usize) as u32;
            Some(Place { session: index, thread, first, last })
        }
        Anchor::Agent(id) => {
            let agent = session.agents.iter().position(|a| a.agent_id.as_deref() == Some(id.as_str()))?;
            let len = session.agents[agent].thread.items.len() as u32;
            (len > 0).then_some(Place {
                session: index,
                thread: ThreadRef::Agent(agent as u32),
                first: 0,
                last: len - 1,
            })
        }
    }
}

/// Percent-encodes everything but the characters `encodeURIComponent` leaves alone.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'!'
            | b'~'
            | b'*'
            | b'\''
            | b'('
            | b')' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Undoes [`encode`] (and any other percent-encoding); a malformed escape stays as written.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        // Two hex digits exactly (`from_str_radix` would also take a sign).
        let hex = bytes.get(i + 1..i + 3).filter(|h| h.iter().all(u8::is_ascii_hexdigit));
        let hex = hex.and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::normalize;
    use crate::present::item::item_view;
    use crate::present::rows::Row;

    /// Two real sessions loaded together: moredip's (with its sub-agent files) and
    /// general-tool-calls.
    fn two_sessions() -> Workspace {
        normalize(crate::fixtures::from_folder(
            "moredip__session-share",
            &[
                "samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
                "samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-a5bdbc1.jsonl",
                "samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-a9cad17.jsonl",
                "session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
            ],
        ))
    }

    #[test]
    fn every_row_link_leads_back_to_its_row_and_turns_end_before_the_next_prompt() {
        let ws = two_sessions();
        assert_eq!(ws.sessions.len(), 2);
        let (mut rows, mut turns) = (0, 0);
        for (index, session) in ws.sessions.iter().enumerate() {
            for (thread, t) in session.threads() {
                for item in 0..t.items.len() as u32 {
                    let view = item_view(&ws, session, Row::new(thread, item, 0)).unwrap();
                    let link = Link::parse(&view.link).unwrap();
                    assert_eq!(link.session, session_key(&ws, session));
                    let place = resolve(&ws, &link).unwrap();
                    assert_eq!(
                        (place.session, place.thread, place.first, place.last),
                        (index, thread, item, item)
                    );
                    rows += 1;
                    let Some(turn) = view.turn_link else { continue };
                    let place = resolve(&ws, &Link::parse(&turn).unwrap()).unwrap();
                    assert_eq!(place.first, item);
                    let next = t.items.get(place.last as usize + 1);
                    assert!(
                        next.is_none_or(|i| i.is_typed_prompt()),
                        "a turn ends before a prompt or at the end"
                    );
                    assert!(t.items[item as usize + 1..=place.last as usize]
                        .iter()
                        .all(|i| !i.is_typed_prompt()));
                    turns += 1;
                }
            }
        }
        assert!(rows > 300 && turns >= 3, "{rows} rows, {turns} turns");
    }

    #[test]
    fn an_agent_link_opens_its_whole_conversation_and_a_missing_place_resolves_to_nothing() {
        let ws = two_sessions();
        let session = &ws.sessions[0];
        assert_eq!(session.agents.len(), 2);
        for agent in 0..2 {
            let link = agent_link(&ws, session, agent).unwrap();
            let place = resolve(&ws, &link).unwrap();
            let len = session.agents[agent as usize].thread.items.len() as u32;
            assert_eq!((place.thread, place.first, place.last), (ThreadRef::Agent(agent), 0, len - 1));
        }
        let missing = Link { session: Some("not-loaded".into()), anchor: Anchor::Row("no-such-row".into()) };
        assert_eq!(resolve(&ws, &missing), None);
    }

    #[test]
    fn fragments_round_trip_and_bare_ids_still_read() {
        let link = Link { session: Some("s p/é".into()), anchor: Anchor::Turn("a&b=c#d".into()) };
        assert_eq!(link.fragment(), "s=s%20p%2F%C3%A9&t=a%26b%3Dc%23d");
        assert_eq!(Link::parse(&format!("#{}", link.fragment())), Some(link));
        let bare = Link::parse("#0253ba17-6b4f-4c11-9d2e-8f1a2b3c4d5e").unwrap();
        assert_eq!(bare.session, None);
        assert_eq!(bare.anchor, Anchor::Row("0253ba17-6b4f-4c11-9d2e-8f1a2b3c4d5e".into()));
        assert_eq!(Link::parse("#"), None);
        assert_eq!(Link::parse("#s=abc"), None, "a session alone names no place");
        assert_eq!(Link::parse("#%zz").unwrap().anchor, Anchor::Row("%zz".into()));
        assert_eq!(Link::parse("#%+A").unwrap().anchor, Anchor::Row("%+A".into()));
    }
}
