//! A search across sessions: what each matching row of a session is, and the text around its
//! first match, for the list of every session.

use crate::normalize::{ids, Item, ItemKind, ItemRef, Session, ThreadRef, Workspace};
use crate::present::link::{session_key, Anchor, Link};
use crate::query::search::{hits, search_text, Matcher};

/// A match found by a search across sessions: a link to its row, what the row is, and the text
/// around the first match (`before`, `matched`, `after`, each one line of plain text).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SessionHit {
    pub link: Link,
    pub what: String,
    pub before: String,
    pub matched: String,
    pub after: String,
}

/// How many characters of context are kept on each side of a match.
const CONTEXT_CHARS: usize = 60;

/// The rows of `session` that match, as [`SessionHit`]s: the first `limit`, and how many there are.
pub fn found_in(
    ws: &Workspace,
    session: &Session,
    matcher: &Matcher,
    limit: usize,
) -> (Vec<SessionHit>, usize) {
    let hits = hits(ws, session, matcher);
    let found = hits
        .iter()
        .take(limit)
        .filter_map(|&ItemRef { thread, item }| {
            let it = &session.thread(thread).items[item as usize];
            let text = search_text(ws, it, matcher.scope)?;
            let range = matcher.ranges(&text).into_iter().next().unwrap_or(0..0);
            let before: String = text[..range.start]
                .chars()
                .rev()
                .take(CONTEXT_CHARS)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let after: String = text[range.end..].chars().take(CONTEXT_CHARS).collect();
            let agent = match thread {
                ThreadRef::Agent(_) => "sub-agent · ",
                ThreadRef::Branch(_) => "branch · ",
                ThreadRef::Main => "",
            };
            Some(SessionHit {
                link: Link { session: session_key(ws, session), anchor: Anchor::Row(ids::item_id(ws, it)) },
                what: format!("{agent}{}", what(ws, it)),
                before: one_line(&before),
                matched: one_line(&text[range]),
                after: one_line(&after),
            })
        })
        .collect();
    (found, hits.len())
}

/// `s` on one line: each run of white space (line breaks too) as one space.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c.is_whitespace() {
            true if out.ends_with(' ') => {}
            true => out.push(' '),
            false => out.push(c),
        }
    }
    out
}

/// What kind of row a match is in, in a word or two.
fn what(ws: &Workspace, item: &Item) -> String {
    match &item.kind {
        ItemKind::Prompt => "prompt".to_owned(),
        ItemKind::Text => "answer".to_owned(),
        ItemKind::Thinking => "thinking".to_owned(),
        ItemKind::ToolCall(call) => {
            call.name.map(|n| n.raw(ws.src(item.line)).to_owned()).unwrap_or_else(|| "tool call".to_owned())
        }
        ItemKind::Command(_) => "command".to_owned(),
        ItemKind::Shell(_) => "shell".to_owned(),
        _ => "event".to_owned(),
    }
}
