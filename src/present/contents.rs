//! The table of contents of a session: what the person asked for, in order, with when. Each
//! entry leads to its row.

use crate::normalize::{ItemKind, Session, ThreadRef, Workspace};
use crate::present::when::item_millis;
use crate::text::format::squeeze;

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub thread: ThreadRef,
    pub item: u32,
    pub kind: EntryKind,
    /// When it was typed (milliseconds since the epoch).
    pub time: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Prompt,
    /// A slash command or a bash-mode command.
    Command,
    /// The conversation was compacted here.
    Compaction,
}

/// The prompts and commands the person typed on the session's main line, and where it was
/// compacted.
pub fn contents(ws: &Workspace, session: &Session) -> Vec<Entry> {
    let mut out = Vec::new();
    for (index, item) in session.thread.items.iter().enumerate() {
        if session.is_copied(item.line) {
            continue;
        }
        let kind = match &item.kind {
            ItemKind::Command(_) | ItemKind::Shell(_) => EntryKind::Command,
            ItemKind::CompactBoundary(_) => EntryKind::Compaction,
            _ if item.is_typed_prompt() => EntryKind::Prompt,
            _ => continue,
        };
        // A prompt split into several blocks (text and images) is one entry.
        if out.last().is_some_and(|e: &Entry| {
            e.kind == kind && session.thread.items[e.item as usize].line == item.line
        }) {
            continue;
        }
        out.push(Entry { thread: ThreadRef::Main, item: index as u32, kind, time: item_millis(ws, item) });
    }
    out
}

/// What an entry says: the prompt or command on one line, shortened (transcript text). Made
/// when the entry is drawn: a GB session has tens of thousands, and only those in view are.
pub fn entry_text(ws: &Workspace, session: &Session, entry: &Entry) -> String {
    match entry.kind {
        EntryKind::Compaction => "Conversation compacted".to_owned(),
        _ => {
            let item = session.thread.items.get(entry.item as usize);
            squeeze(&item.and_then(|item| ws.item_text(item)).unwrap_or_default(), 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contents_list_every_prompt_and_command_in_order() {
        // marot 8463c716: typed prompts and a compaction.
        let ws = crate::fixtures::workspace(
            "marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl",
        );
        let s = &ws.sessions[0];
        let entries = contents(&ws, s);
        let prompts = entries.iter().filter(|e| e.kind == EntryKind::Prompt).count() as u64;
        assert_eq!(prompts, s.stats.user_prompts, "{entries:#?}");
        assert!(entries.iter().any(|e| e.kind == EntryKind::Compaction));
        assert!(entries.windows(2).all(|w| w[0].item < w[1].item));
        for e in &entries {
            let text = entry_text(&ws, s, e);
            assert!(!text.is_empty() && text.chars().count() <= 61, "{e:?}: {text}");
            assert!(!text.contains('<'), "no wrapper markup: {e:?}: {text}");
            assert!(e.time.is_some());
        }
    }
}
