//! Normalize on the real transcripts: sub-agent linking in all three layouts, branches, and an
//! accounting of every line of every file.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::model::EntryKind;
use cctv::normalize::{self, ids, AgentLink, Input, ItemKind, LinkEvidence, Session, Workspace};
use common::{fixture_files, folder, input};

fn linked_calls(ws: &Workspace, session: &Session) -> Vec<(String, String)> {
    // (agent id or first prompt words, tool_use id of the call it is linked from)
    let mut out = Vec::new();
    for item in &session.thread.items {
        if let ItemKind::ToolCall(call) = &item.kind {
            for &agent in &call.agents {
                let a = &session.agents[agent as usize];
                let id = call.tool_use_id.unwrap().decode(&ws.file(item.line).bytes).into_owned();
                out.push((
                    a.agent_id.clone().unwrap_or_else(|| a.description.clone().unwrap_or_default()),
                    id,
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_moredip_session_links_all_five_subagent_files_to_their_task_calls() {
    let ws = normalize::normalize(folder("moredip__session-share/samples/claude-code-projects"));
    assert_eq!(ws.sessions.len(), 1);
    let s = &ws.sessions[0];
    assert_eq!(s.agents.len(), 5);
    assert!(s
        .agents
        .iter()
        .all(|a| matches!(a.link, AgentLink::ToolCall { how: LinkEvidence::ResultAgentId, .. })));
    assert_eq!(
        linked_calls(&ws, s),
        [
            ("a5bdbc1".to_string(), "toolu_011472X3mPpLSX8BmtHebyH4".to_string()),
            ("a9cad17".into(), "toolu_014qfHW38puz7Wk8PgqC45nY".into()),
            ("aa5ef13".into(), "toolu_01EeTxsNZzn4MFsxuRo7BYcK".into()),
            ("ac27727".into(), "toolu_018pmVb1JqzfoGPF4pfSuB4J".into()),
            ("afbbf75".into(), "toolu_01GWWdppestRqCj3fkznnGwf".into()),
        ]
    );
    // Each sub-agent ran a web search whose progress folded into its call.
    for agent in &s.agents {
        let progress: usize = agent
            .thread
            .items
            .iter()
            .map(|i| match &i.kind {
                ItemKind::ToolCall(c) => c.progress.len(),
                _ => 0,
            })
            .sum();
        assert_eq!(progress, 2, "{:?}", agent.agent_id);
    }
}

#[test]
fn the_handgemacht_worktrees_session_links_its_two_subagents_and_takes_their_meta() {
    let ws = normalize::normalize(folder(
        "handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees",
    ));
    assert_eq!(ws.sessions.len(), 1);
    let s = &ws.sessions[0];
    assert_eq!(
        linked_calls(&ws, s),
        [
            ("a4ca7529859c158c2".to_string(), "toolu_01GmrK6tgdD9D5xD6W5X9UUy".to_string()),
            ("a52886dc180afb356".into(), "toolu_016neBD9WjCCZqzRTP3afGDT".into()),
        ]
    );
    let alice = s.agents.iter().find(|a| a.agent_id.as_deref() == Some("a4ca7529859c158c2")).unwrap();
    assert_eq!(alice.description.as_deref(), Some("Research Claude Code plan mode"));
    assert_eq!(alice.agent_type.as_deref(), Some("general-purpose"));
}

#[test]
fn the_meta_json_description_links_subagents_when_the_results_say_nothing() {
    // Without the Task results (a session cut short before they came back) and with prompts that
    // no longer match, the .meta.json description is the evidence left.
    let mut inputs =
        folder("handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees");
    for input in &mut inputs {
        let text = String::from_utf8(input.bytes.clone()).unwrap();
        input.bytes = if input.name.contains('/') {
            text.replace("You are **", "You were **").into_bytes()
        } else {
            let kept: Vec<&str> = text.lines().filter(|l| !l.contains("\"totalToolUseCount\"")).collect();
            kept.join("\n").into_bytes()
        };
    }
    let ws = normalize::normalize(inputs);
    let s = &ws.sessions[0];
    assert_eq!(linked_calls(&ws, s).len(), 2);
    assert!(s
        .agents
        .iter()
        .all(|a| matches!(a.link, AgentLink::ToolCall { how: LinkEvidence::Description, .. })));
}

#[test]
fn the_d_kimuson_session_links_its_inline_sidechains_to_its_five_task_calls() {
    let ws = normalize::normalize(vec![input(
        "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
    )]);
    let s = &ws.sessions[0];
    assert_eq!(s.agents.len(), 5);
    assert!(s.agents.iter().all(|a| a.file.is_none()), "inline sidechains have no file of their own");
    assert!(s.agents.iter().all(|a| matches!(a.link, AgentLink::ToolCall { how: LinkEvidence::Prompt, .. })));
    let calls = linked_calls(&ws, s);
    assert_eq!(calls.len(), 5);
    let mut ids: Vec<&str> = calls.iter().map(|(_, id)| id.as_str()).collect();
    ids.sort();
    assert_eq!(
        ids,
        [
            "toolu_014i9ThHMNShCHocf9xMKasf",
            "toolu_017rjDpjVPeNFmAEXNTkoP55",
            "toolu_01EPom7jESzNbU8coiKjzVGS",
            "toolu_01EbxY94wRUAGyMLj5wh699C",
            "toolu_01LS6tcVd796SbQKmZqeVnWY",
        ]
    );
    // No sidechain line leaks into the main conversation.
    for item in &s.thread.items {
        assert!(!ws.line(item.line).entry().unwrap().envelope.is_sidechain);
    }
}

#[test]
fn the_coderabbit_agent_file_joins_its_own_session_as_an_orphan() {
    // agent-668b5ac2 names session 741790a4, which is not among the fixtures: the folder's
    // session file (cb2e607c) spawned a different agent (ea02459f, not present). So it is shown
    // in a session of its own, unlinked, rather than pinned to a call it did not come from.
    let ws = normalize::normalize(folder(
        "handgemacht-ai__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-coderabbit-review-helper",
    ));
    assert_eq!(ws.sessions.len(), 2);
    let main = ws.sessions.iter().find(|s| s.file.is_some()).unwrap();
    assert_eq!(main.session_id.as_deref(), Some("cb2e607c-c758-415a-8b45-c49e4631906a"));
    assert!(main.agents.is_empty());
    let orphans = ws.sessions.iter().find(|s| s.file.is_none()).unwrap();
    assert_eq!(orphans.session_id.as_deref(), Some("741790a4-4fe2-4644-9a51-fb4482074060"));
    assert_eq!(orphans.agents.len(), 1);
    assert_eq!(orphans.agents[0].agent_id.as_deref(), Some("668b5ac2"));
    assert_eq!(orphans.agents[0].link, AgentLink::Orphan);
    assert!(orphans.agents[0].thread.items.len() > 10);
    // Nothing hosts it, so the viewer lists its conversation without being asked.
    let rows = cctv::present::rows::rows(orphans, &Default::default(), &|_| true);
    let shown = rows.iter().filter(|r| r.thread == cctv::present::rows::ThreadRef::Agent(0)).count();
    assert_eq!(shown, orphans.agents[0].thread.items.len());
}

#[test]
fn the_hand_made_fork_and_rewind_files_offer_their_abandoned_branch() {
    let ws =
        normalize::normalize(vec![input("handgemacht-ai__claude-code-log/test/test_data/dag_fork.jsonl")]);
    let s = &ws.sessions[0];
    let texts = |thread: &normalize::Thread| -> Vec<String> {
        thread.items.iter().map(|i| prompt_or_text(&ws, i)).collect()
    };
    assert_eq!(texts(&s.thread), ["Start", "Reply 1", "Middle", "Fork from c", "Forked reply", "End of s3"]);
    assert_eq!(s.branches.len(), 1);
    assert_eq!(
        texts(&s.branches[0].thread),
        ["Reply 2", "Last in s1", "Continue from e", "Continued reply", "End of s2"]
    );

    let ws = normalize::normalize(vec![input(
        "daaain__claude-code-log/test/test_data/dag_compact_after_rewind.jsonl",
    )]);
    let s = &ws.sessions[0];
    assert_eq!(s.branches.len(), 1);
    assert_eq!(s.branches[0].thread.items.len(), 2, "the first attempt and its answer");
    assert!(s.thread.items.iter().any(|i| matches!(i.kind, ItemKind::CompactBoundary(_))));
    assert_eq!(s.thread.items.last().map(|i| prompt_or_text(&ws, i)).as_deref(), Some("Final answer"));
}

fn prompt_or_text(ws: &Workspace, item: &normalize::Item) -> String {
    let file = ws.file(item.line);
    let entry = ws.line(item.line).entry().unwrap();
    let message = match &entry.kind {
        EntryKind::User(u) => &u.message,
        EntryKind::Assistant(a) => &a.message,
        _ => return String::new(),
    };
    let block = item.block.map(|b| &message.content.blocks()[b as usize]);
    match block.map(|b| &b.kind) {
        Some(cctv::model::BlockKind::Text { text }) => text.decode(&file.bytes).into_owned(),
        _ => String::new(),
    }
}

#[test]
fn every_line_of_every_fixture_is_rendered_merged_or_not_shown_with_a_reason() {
    let inputs = common::every_fixture();
    let total_lines: usize = inputs.iter().map(|i| cctv::model::parse(&i.bytes).len()).sum();
    let ws = normalize::normalize(inputs);
    assert!(ws.rejected.is_empty(), "{:?}", ws.rejected);
    let mut accounted = 0;
    for s in &ws.sessions {
        let a = &s.accounting;
        assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines, "{:?}: {a:?}", s.session_id);
        assert!(!a.not_shown.contains_key(&cctv::normalize::NotShown::Unplaced), "{:?}: {a:?}", s.session_id);
        assert_eq!(a.not_shown_total() as usize, s.not_shown.len());
        accounted += a.lines as usize;
    }
    assert_eq!(accounted, total_lines, "each line belongs to exactly one session");
}

#[test]
fn item_ids_are_unique_within_a_session() {
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let ws = normalize::normalize(vec![Input { name: name.clone(), bytes: common::fixture(&name) }]);
        for s in &ws.sessions {
            let mut seen = std::collections::HashSet::new();
            let threads = std::iter::once(&s.thread)
                .chain(s.branches.iter().map(|b| &b.thread))
                .chain(s.agents.iter().map(|a| &a.thread));
            for thread in threads {
                for item in &thread.items {
                    let id = ids::item_id(&ws, item);
                    assert!(seen.insert(id.clone()), "{name}: id {id} twice");
                }
            }
        }
    }
}
