//! Sub-agents: finding each one's spawning `Task`/`Agent` call.
//!
//! Three on-disk layouts exist (inline `isSidechain` lines in the session file, `agent-<id>.jsonl`
//! beside it, `<session>/subagents/agent-<id>.jsonl` with a `.meta.json`), and each version
//! leaves different evidence. Stronger evidence is tried first; each call spawns one agent.

use serde::Deserialize;

use super::pace::Pace;
use super::view::{AgentLink, ItemKind, LineRef, LinkEvidence, Session, Thread, ThreadRef};
use crate::model::{self, tool_result, Content, EntryKind, Tool, Transcript};

/// `agent-<id>.meta.json`, written beside newer sub-agent files.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct AgentMeta {
    pub agent_type: Option<String>,
    pub description: Option<String>,
    pub tool_use_id: Option<String>,
}

/// A call that spawns a sub-agent, with what it says about the agent.
struct SpawnCall {
    thread: ThreadRef,
    item: usize,
    line: LineRef,
    tool_use_id: String,
    prompt: Option<String>,
    description: Option<String>,
    agent_type: Option<String>,
    /// `toolUseResult.agentId` of its result.
    result_agent_id: Option<String>,
    /// `agentId`s named by its agent_progress lines.
    progress_agent_ids: Vec<String>,
    taken: bool,
}

/// Links every agent of `session` to its spawning call, and records the link on both sides.
/// `metas[i]` is agent i's `.meta.json`, if one was loaded.
pub async fn link(
    session: &mut Session,
    files: &[Transcript],
    metas: &[Option<AgentMeta>],
    pace: &mut Pace<'_>,
) {
    let mut calls = spawn_calls(session, files, pace).await;
    let first_prompts: Vec<Option<String>> =
        session.agents.iter().map(|agent| first_prompt(&agent.thread, files)).collect();
    let mut links: Vec<Option<(usize, LinkEvidence)>> = vec![None; session.agents.len()];

    let try_link = |links: &mut Vec<Option<(usize, LinkEvidence)>>,
                    calls: &mut Vec<SpawnCall>,
                    evidence: LinkEvidence,
                    matches: &dyn Fn(usize, &SpawnCall) -> bool| {
        for (agent, link) in links.iter_mut().enumerate() {
            if link.is_some() {
                continue;
            }
            if let Some(c) = calls.iter().position(|call| !call.taken && matches(agent, call)) {
                calls[c].taken = true;
                *link = Some((c, evidence));
            }
        }
    };
    let ids: Vec<Option<String>> = session.agents.iter().map(|a| a.agent_id.clone()).collect();
    let meta = |agent: usize| metas.get(agent).and_then(Option::as_ref);
    try_link(&mut links, &mut calls, LinkEvidence::ResultAgentId, &|agent, call| {
        ids[agent].is_some() && call.result_agent_id == ids[agent]
    });
    try_link(&mut links, &mut calls, LinkEvidence::MetaToolUseId, &|agent, call| {
        meta(agent).and_then(|m| m.tool_use_id.as_deref()) == Some(call.tool_use_id.as_str())
    });
    try_link(&mut links, &mut calls, LinkEvidence::AgentProgress, &|agent, call| {
        ids[agent].as_ref().is_some_and(|id| call.progress_agent_ids.contains(id))
    });
    try_link(&mut links, &mut calls, LinkEvidence::Prompt, &|agent, call| {
        let prompt = first_prompts[agent].as_deref().map(str::trim);
        prompt.is_some() && call.prompt.as_deref().map(str::trim) == prompt
    });
    try_link(&mut links, &mut calls, LinkEvidence::Description, &|agent, call| {
        let description = meta(agent).and_then(|m| m.description.as_deref());
        description.is_some() && call.description.as_deref() == description
    });

    for (agent, link) in links.into_iter().enumerate() {
        let meta = meta(agent);
        let a = &mut session.agents[agent];
        a.description = meta.and_then(|m| m.description.clone());
        a.agent_type = meta.and_then(|m| m.agent_type.clone());
        let Some((c, how)) = link else {
            a.link = AgentLink::Orphan;
            continue;
        };
        let call = &calls[c];
        a.link = AgentLink::ToolCall { line: call.line, how };
        a.description = a.description.take().or_else(|| call.description.clone());
        a.agent_type = a.agent_type.take().or_else(|| call.agent_type.clone());
        let thread = session.thread_mut(call.thread);
        if let ItemKind::ToolCall(tool_call) = &mut thread.items[call.item].kind {
            tool_call.agents.push(agent as u32);
        }
    }
    link_workflow_agents(session, files);
}

/// A workflow run's agents are in `subagents/workflows/<runId>/`; the Workflow call that started
/// the run names it in its result. One call has all of the run's agents.
fn link_workflow_agents(session: &mut Session, files: &[Transcript]) {
    let run_of_path = |name: &str| {
        let parts: Vec<&str> = name.split(['/', '\\']).collect();
        let at = parts.iter().rposition(|p| *p == "workflows")?;
        parts.get(at + 1).filter(|_| at + 2 < parts.len()).map(|s| (*s).to_owned())
    };
    let mut runs: Vec<(String, ThreadRef, usize, LineRef)> = Vec::new();
    for (thread_id, thread) in session.threads() {
        for (index, item) in thread.items.iter().enumerate() {
            let ItemKind::ToolCall(call) = &item.kind else { continue };
            let src = &files[item.line.file as usize].bytes[..];
            if call.tool(src) != Tool::Workflow {
                continue;
            }
            let run_id = match structured_result(files, call, &Tool::Workflow) {
                Some(tool_result::ToolUseResult::Workflow(w)) => w.run_id,
                _ => None,
            };
            if let Some(run_id) = run_id {
                runs.push((run_id, thread_id, index, item.line));
            }
        }
    }
    if runs.is_empty() {
        return;
    }
    // In the order they started (files arrive in any order), so the run reads as it ran.
    let started = |agent: &super::view::Agent| {
        let first = agent.thread.items.first()?;
        let file = &files[first.line.file as usize];
        Some(
            file.lines[first.line.line as usize]
                .entry()?
                .envelope
                .timestamp?
                .decode(&file.bytes)
                .into_owned(),
        )
    };
    let mut order: Vec<usize> = (0..session.agents.len()).collect();
    order.sort_by_cached_key(|&a| (started(&session.agents[a]), session.agents[a].agent_id.clone()));
    for agent in order {
        let a = &session.agents[agent];
        if !matches!(a.link, AgentLink::Orphan) {
            continue;
        }
        let Some(run) = a.file.and_then(|f| run_of_path(&files[f as usize].name)) else { continue };
        let Some((_, thread, item, line)) = runs.iter().find(|r| r.0 == run).cloned() else { continue };
        session.agents[agent].link = AgentLink::ToolCall { line, how: LinkEvidence::WorkflowRun };
        if let ItemKind::ToolCall(call) = &mut session.thread_mut(thread).items[item].kind {
            call.agents.push(agent as u32);
        }
    }
}

/// The calls of `session` that started sub-agents. Every item is looked at: a GB session has a
/// million.
async fn spawn_calls(session: &Session, files: &[Transcript], pace: &mut Pace<'_>) -> Vec<SpawnCall> {
    let mut calls = Vec::new();
    for (thread_id, thread) in session.threads() {
        for (index, item) in thread.items.iter().enumerate() {
            pace.step().await;
            let ItemKind::ToolCall(call) = &item.kind else { continue };
            let src = &files[item.line.file as usize].bytes[..];
            if call.tool(src) != Tool::Agent {
                continue;
            }
            let input = input_of(files, item.line, item.block);
            let text = |key: &str| input.as_ref().and_then(|i| i.get(key)?.as_str().map(str::to_owned));
            let result_agent_id = match structured_result(files, call, &Tool::Agent) {
                Some(tool_result::ToolUseResult::Task(task)) => task.agent_id,
                _ => None,
            };
            let progress_agent_ids = call
                .progress
                .iter()
                .filter_map(|p| {
                    let file = &files[p.file as usize];
                    match &file.lines[p.line as usize].entry()?.kind {
                        EntryKind::Progress(progress) => {
                            Some(progress.agent_id?.decode(&file.bytes).into_owned())
                        }
                        _ => None,
                    }
                })
                .collect();
            calls.push(SpawnCall {
                thread: thread_id,
                item: index,
                line: item.line,
                tool_use_id: call.tool_use_id.map(|id| id.decode(src).into_owned()).unwrap_or_default(),
                prompt: text("prompt"),
                description: text("description"),
                agent_type: text("subagent_type"),
                result_agent_id,
                progress_agent_ids,
                taken: false,
            });
        }
    }
    calls
}

/// The `toolUseResult` of `call`'s result line, decoded as `tool`'s.
fn structured_result(
    files: &[Transcript],
    call: &super::view::ToolCall,
    tool: &Tool,
) -> Option<tool_result::ToolUseResult> {
    let r = call.result?;
    let file = &files[r.line.file as usize];
    let EntryKind::User(user) = &file.lines[r.line.line as usize].entry()?.kind else { return None };
    Some(tool_result::decode(&file.bytes, user.tool_use_result?, Some(tool)))
}

fn input_of(files: &[Transcript], line: LineRef, block: Option<u32>) -> Option<serde_json::Value> {
    let file = &files[line.file as usize];
    let EntryKind::Assistant(a) = &file.lines[line.line as usize].entry()?.kind else { return None };
    match &a.message.content.block(block?)?.kind {
        model::BlockKind::ToolUse(t) => model::body::value(&file.bytes, t.input?).ok(),
        _ => None,
    }
}

/// The text of an agent's first user message: the prompt its spawning call gave it.
fn first_prompt(thread: &Thread, files: &[Transcript]) -> Option<String> {
    let item = thread.items.iter().find(|i| matches!(i.kind, ItemKind::Prompt))?;
    let file = &files[item.line.file as usize];
    let EntryKind::User(user) = &file.lines[item.line.line as usize].entry()?.kind else { return None };
    match &user.message.content {
        Content::Text(text) => Some(text.decode(&file.bytes).into_owned()),
        Content::Blocks(blocks) => blocks.iter().find_map(|b| match b.kind {
            model::BlockKind::Text { text } => Some(text.decode(&file.bytes).into_owned()),
            _ => None,
        }),
        Content::Missing => None,
    }
}
