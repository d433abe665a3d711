//! Search over a whole session, sub-agents and tool output included.

use super::calls::search_text;
use crate::normalize::{Session, ThreadRef, Workspace};

/// Every item whose text contains `query` (case-insensitively), main line first, then branches,
/// then sub-agents.
pub fn hits(ws: &Workspace, session: &Session, query: &str) -> Vec<(ThreadRef, u32)> {
    let query = query.trim().to_lowercase();
    if query.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (thread_ref, thread) in session.threads() {
        for (index, item) in thread.items.iter().enumerate() {
            if search_text(ws, item).to_lowercase().contains(&query) {
                out.push((thread_ref, index as u32));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{normalize, Input};

    #[test]
    fn search_finds_words_in_sub_agents_and_tool_output() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/fixtures/moredip__session-share/samples/claude-code-projects/"
        );
        let mut inputs = Vec::new();
        for entry in walk(dir) {
            let name = entry.strip_prefix(dir).unwrap().to_owned();
            inputs.push(Input { name, bytes: std::fs::read(&entry).unwrap() });
        }
        let ws = normalize(inputs);
        let s = &ws.sessions[0];
        assert!(hits(&ws, s, "  ").is_empty());
        // The prompt names the curries; sub-agents search the web for them.
        let found = hits(&ws, s, "GREEN CURRY");
        assert!(found.iter().any(|(t, _)| matches!(t, ThreadRef::Agent(_))), "{found:?}");
        assert!(found.iter().any(|(t, _)| *t == ThreadRef::Main), "{found:?}");
    }

    fn walk(dir: &str) -> Vec<String> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path().to_string_lossy().into_owned();
            if entry.path().is_dir() {
                out.extend(walk(&format!("{path}/")));
            } else {
                out.push(path);
            }
        }
        out
    }
}
