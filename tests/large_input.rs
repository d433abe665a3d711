//! A generated 50 MB session (the fixtures stop at 1.2 MB): every line accounted for, every
//! sub-agent linked. Correctness only; speed is measured by `cctv-bench`, never here.

#![cfg(not(target_arch = "wasm32"))]

use cctv::normalize::{self, AgentLink, LinkEvidence};

#[test]
fn a_50_mb_session_is_fully_accounted_for_and_its_sub_agents_linked() {
    let inputs = cctv::generate::session(50.0, 42);
    let bytes: usize = inputs.iter().map(|i| i.bytes.len()).sum();
    assert!(bytes >= 50_000_000, "{bytes}");
    let lines: usize = inputs.iter().map(|i| i.bytes.iter().filter(|&&b| b == b'\n').count()).sum();
    let ws = normalize::normalize(inputs);
    assert!(ws.rejected.is_empty(), "{:?}", ws.rejected);
    assert_eq!(ws.sessions.len(), 1);
    let s = &ws.sessions[0];
    let a = &s.accounting;
    assert_eq!(a.lines as usize, lines);
    assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines, "{a:?}");
    assert!(!a.not_shown.contains_key(&cctv::normalize::NotShown::Unplaced), "{a:?}");
    assert!(s.agents.len() >= 20, "{} agents", s.agents.len());
    assert!(s
        .agents
        .iter()
        .all(|agent| matches!(agent.link, AgentLink::ToolCall { how: LinkEvidence::ResultAgentId, .. })));
    assert!(s.branches.is_empty(), "the generated session never rewinds");
    assert_eq!(s.stats.sub_agents as usize, s.agents.len());
    // The compaction boundary took its summary and the chain went on through it.
    let boundaries = s
        .thread
        .items
        .iter()
        .filter(|i| matches!(&i.kind, normalize::ItemKind::CompactBoundary(b) if b.summary.is_some() && b.summaries.len() == 1))
        .count();
    assert_eq!(boundaries, 1);
}
