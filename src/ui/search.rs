//! Search over a whole session, sub-agents and tool output included.

use crate::normalize::{Session, Workspace};
use crate::present::calls::search_text;
use crate::present::rows::{self, ThreadRef};

/// Every item whose text contains `query` (case-insensitively), main line first, then branches,
/// then sub-agents.
pub fn hits(ws: &Workspace, session: &Session, query: &str) -> Vec<(ThreadRef, u32)> {
    let query = query.trim().to_lowercase();
    if query.is_empty() {
        return Vec::new();
    }
    let threads = std::iter::once(ThreadRef::Main)
        .chain((0..session.branches.len() as u32).map(ThreadRef::Branch))
        .chain((0..session.agents.len() as u32).map(ThreadRef::Agent));
    let mut out = Vec::new();
    for thread in threads {
        for (index, item) in rows::thread(session, thread).items.iter().enumerate() {
            if search_text(ws, item).to_lowercase().contains(&query) {
                out.push((thread, index as u32));
            }
        }
    }
    out
}
