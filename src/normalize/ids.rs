//! Stable ids for items, derived when asked for.

use super::view::{Item, ItemRef, Session, Workspace};
use crate::model::EntryKind;

/// Claude Code's `deriveUUID`: the parent's first 24 characters and the block index as 12 hex
/// digits. Splitting the same message always gives the same ids.
pub fn derive_uuid(parent: &str, index: u32) -> String {
    let head: String = parent.chars().take(24).collect();
    format!("{head}{index:012x}")
}

/// The anchor id of an item, as Claude Code names it: its line's uuid, or for one block of a
/// multi-block message (and for every assistant block after one, [`Item::derived_id`]) the uuid
/// derived from it; lines without a uuid are named by file and line number.
pub fn item_id(workspace: &Workspace, item: &Item) -> String {
    let file = workspace.file(item.line);
    let line = &file.lines[item.line.line as usize];
    let Some(uuid) = line.entry().and_then(|e| e.envelope.uuid) else {
        return format!("f{}-l{}", item.line.file, line.number);
    };
    let uuid = uuid.decode(&file.bytes);
    let blocks = match line.entry().map(|e| &e.kind) {
        Some(EntryKind::User(u)) => u.message.content.blocks().len(),
        Some(EntryKind::Assistant(a)) => a.message.content.blocks().len(),
        _ => 0,
    };
    match item.block {
        Some(block) if blocks > 1 || item.derived_id => derive_uuid(&uuid, block),
        _ => uuid.into_owned(),
    }
}

/// Where an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchored {
    /// An index into the workspace's sessions.
    pub session: usize,
    pub at: ItemRef,
}

/// The item whose anchor id is `id`, in the first session that has it (links that name their
/// session go through `present::link::resolve`, which looks in that session first). A session that begins
/// with a copy of another's lines shares their ids; the link goes to the original.
pub fn find(workspace: &Workspace, id: &str) -> Option<Anchored> {
    workspace
        .sessions
        .iter()
        .enumerate()
        .find_map(|(session, s)| find_in(workspace, s, id).map(|at| Anchored { session, at }))
}

/// The item whose anchor id is `id` in one session, not counting lines it copied from another.
pub(crate) fn find_in(workspace: &Workspace, session: &Session, id: &str) -> Option<ItemRef> {
    session.threads().find_map(|(thread_ref, thread)| {
        let named = |item: &Item| !session.is_copied(item.line) && item_id(workspace, item) == id;
        thread.items.iter().position(named).map(|item| ItemRef::new(thread_ref, item as u32))
    })
}

#[cfg(test)]
mod tests {
    use super::derive_uuid;

    #[test]
    fn derived_uuids_keep_the_parent_prefix_and_count_in_hex() {
        assert_eq!(
            derive_uuid("0253ba17-6b4f-4c11-9d2e-8f1a2b3c4d5e", 0),
            "0253ba17-6b4f-4c11-9d2e-000000000000"
        );
        assert_eq!(
            derive_uuid("0253ba17-6b4f-4c11-9d2e-8f1a2b3c4d5e", 26),
            "0253ba17-6b4f-4c11-9d2e-00000000001a"
        );
        assert_eq!(derive_uuid("u1", 2), "u1000000000002");
    }
}
