//! Sub-agents rebuilt from `agent_progress` lines, for sessions whose sub-agent files were not
//! loaded (a session file shared alone, or versions that kept the agent's messages only there).
//!
//! Each `agent_progress` line carries one message of the sub-agent (`data.message`, an entry of
//! its own: type, message, uuid, timestamp). Copied one per line, they make a transcript of the
//! agent that reads like its own file would; it is named as that file would be, in the session's
//! `subagents/` folder, so it joins its session and links to its call like a loaded one.

use std::collections::HashSet;

use crate::model::{EntryKind, ProgressKind, Transcript};

/// The transcripts of agents that `files` mention in `agent_progress` lines but do not hold.
pub(crate) fn rebuild(files: &[Transcript]) -> Vec<Transcript> {
    let mut known: HashSet<String> = HashSet::new();
    for file in files {
        if let Some(id) = super::agent_id_of_name(&file.name) {
            known.insert(id);
            continue;
        }
        // Inline sub-agents (the oldest layout) carry their id on their lines.
        for line in &file.lines {
            if let Some(e) = line.entry().filter(|e| e.envelope.is_sidechain) {
                if let Some(id) = e.envelope.agent_id.map(|id| id.decode(&file.bytes)) {
                    if !known.contains(id.as_ref()) {
                        known.insert(id.into_owned());
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for file in files.iter().filter(|f| super::agent_id_of_name(&f.name).is_none()) {
        let session = super::first_session_id(file).unwrap_or_else(|| super::stem(&file.name));
        // Agents in the order they first report, each with its messages' bytes.
        let mut agents: Vec<(String, Vec<u8>)> = Vec::new();
        for line in &file.lines {
            let Some(EntryKind::Progress(p)) = line.entry().map(|e| &e.kind) else { continue };
            let (ProgressKind::AgentProgress, Some(id), Some(message)) = (p.kind, p.agent_id, p.message)
            else {
                continue;
            };
            let id = id.decode(&file.bytes);
            // The id names the rebuilt file; one that could not name a file is not an agent id.
            let usable =
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if known.contains(id.as_ref()) || !usable {
                continue;
            }
            let at = match agents.iter().position(|(a, _)| *a == id) {
                Some(at) => at,
                None => {
                    agents.push((id.into_owned(), Vec::new()));
                    agents.len() - 1
                }
            };
            let bytes = &mut agents[at].1;
            bytes.extend_from_slice(message.bytes(&file.bytes));
            bytes.push(b'\n');
        }
        for (id, bytes) in agents {
            out.push(Transcript::parse(format!("{session}/subagents/agent-{id}.jsonl"), bytes));
        }
    }
    out
}
