//! The folder layouts of Claude Code 2.1.x, from `tests/layouts/` (hand-made from the shapes
//! Claude Code's own writers document; see its README): sub-agents nested three deep, a workflow
//! run with its journal and snapshot, and a tool output saved to `tool-results/`.

mod common;

use cctv::insight::drift::drift;
use cctv::model::body::ToolResultContent;
use cctv::normalize::{self, AgentLink, ItemKind, LinkEvidence, Session, ThreadRef, Workspace};
use cctv::present::calls::call_view;
use cctv::present::tools::{tool_body, ToolBody};

/// The folder's files as the viewer reads a picked folder: its README is not among them.
fn files() -> Vec<normalize::Input> {
    let root = common::repository().join("tests/layouts");
    common::folder_at(&root).into_iter().filter(|i| !i.name.ends_with("README.md")).collect()
}

fn layout() -> Workspace {
    normalize::normalize(files())
}

fn agent(session: &Session, id: &str) -> u32 {
    session.agents.iter().position(|a| a.agent_id.as_deref() == Some(id)).unwrap() as u32
}

/// The calls of tool `name` in `thread`, with the agents each spawned.
fn calls<'s>(
    ws: &Workspace,
    session: &'s Session,
    thread: ThreadRef,
    name: &str,
) -> Vec<&'s normalize::Item> {
    session
        .thread(thread)
        .items
        .iter()
        .filter(|item| match &item.kind {
            ItemKind::ToolCall(call) => call.name.is_some_and(|n| n.raw(&ws.file(item.line).bytes) == name),
            _ => false,
        })
        .collect()
}

fn spawned(item: &normalize::Item) -> Vec<u32> {
    match &item.kind {
        ItemKind::ToolCall(call) => call.agents.clone(),
        _ => Vec::new(),
    }
}

#[test]
fn the_folder_is_one_session_with_every_file_placed() {
    let ws = layout();
    assert_eq!(ws.rejected, Vec::<(String, String)>::new());
    assert_eq!(ws.sessions.len(), 1);
    assert_eq!(ws.sessions[0].agents.len(), 5);
    assert!(!ws.sessions[0].accounting.not_shown.contains_key(&cctv::normalize::NotShown::Unplaced));
    assert_eq!(ws.saved_outputs.len(), 1);
    assert_eq!(ws.workflow_runs.len(), 1);
    // Nothing in it is unknown to cctv.
    let report = drift(&ws);
    assert!(report.unrecognised.is_empty() && report.misfits.is_empty(), "{report:?}");
}

#[test]
fn agents_nested_three_deep_each_hang_under_the_call_that_spawned_them() {
    let ws = layout();
    let s = &ws.sessions[0];
    let (a1, a2, a3) = (agent(s, "a1111111"), agent(s, "a2222222"), agent(s, "a3333333"));
    assert_eq!(spawned(calls(&ws, s, ThreadRef::Main, "Agent")[0]), [a1]);
    assert_eq!(spawned(calls(&ws, s, ThreadRef::Agent(a1), "Agent")[0]), [a2]);
    assert_eq!(spawned(calls(&ws, s, ThreadRef::Agent(a2), "Agent")[0]), [a3]);
    assert_eq!(s.stats.sub_agents, 5);
}

#[test]
fn a_workflow_run_nests_its_agents_and_says_how_it_went() {
    let ws = layout();
    let s = &ws.sessions[0];
    let call = calls(&ws, s, ThreadRef::Main, "Workflow")[0];
    assert_eq!(spawned(call), [agent(s, "w1"), agent(s, "w2")]);
    assert!(matches!(
        s.agents[agent(s, "w1") as usize].link,
        AgentLink::ToolCall { how: LinkEvidence::WorkflowRun, .. }
    ));
    let ItemKind::ToolCall(tool_call) = &call.kind else { unreachable!() };
    let ToolBody::Workflow(body) = tool_body(&call_view(&ws, call, tool_call), None) else { panic!() };
    assert_eq!(body.name, "Check everything");
    assert_eq!(body.run_id.as_deref(), Some("wf_abc123def456"));
    assert_eq!(body.status.as_deref(), Some("completed"));
    assert_eq!(body.summary.as_deref(), Some("Tests pass; lint has 2 warnings."));
    let totals = body.totals.unwrap();
    assert!(totals.starts_with("2 agents · 1 returned · 1 failed · "), "{totals}");
    assert!(totals.ends_with("30,500 tokens"), "{totals}");

    // The run's agents are in the order they started, whatever order the files came in.
    let mut reversed = files();
    reversed.reverse();
    let ws = normalize::normalize(reversed);
    let s = &ws.sessions[0];
    assert_eq!(spawned(calls(&ws, s, ThreadRef::Main, "Workflow")[0]), [agent(s, "w1"), agent(s, "w2")]);
}

#[test]
fn a_saved_output_is_shown_whole_in_place_of_its_preview() {
    let ws = layout();
    let s = &ws.sessions[0];
    let call = calls(&ws, s, ThreadRef::Main, "Grep")[0];
    let ItemKind::ToolCall(tool_call) = &call.kind else { unreachable!() };
    let view = call_view(&ws, call, tool_call);
    let result = view.result.as_ref().unwrap();
    let saved = result.saved.as_ref().unwrap();
    assert_eq!(saved.output.size.as_deref(), Some("52.1KB"));
    assert_eq!(
        saved.loaded_from.as_deref(),
        Some("1a7e0c55-2222-4333-8444-555566667777/tool-results/toolu_G1.txt")
    );
    let ToolResultContent::Text(text) = &result.content else { panic!() };
    assert_eq!(text.lines().count(), 1204);
    assert!(text.ends_with("src/a.rs:1204: // TODO item 1204\n"));

    // Without the folder, the preview is what there is, and the panel says where the rest is.
    let main = files().into_iter().filter(|i| !i.name.contains('/')).collect();
    let ws = normalize::normalize(main);
    let s = &ws.sessions[0];
    let call = calls(&ws, s, ThreadRef::Main, "Grep")[0];
    let ItemKind::ToolCall(tool_call) = &call.kind else { unreachable!() };
    let view = call_view(&ws, call, tool_call);
    let result = view.result.as_ref().unwrap();
    assert_eq!(result.saved.as_ref().unwrap().loaded_from, None);
    let ToolResultContent::Text(text) = &result.content else { panic!() };
    assert!(text.starts_with("<persisted-output>"));
}
