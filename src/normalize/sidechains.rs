//! Sub-agents: finding where each one was born: its spawning `Task`/`Agent` call, or, for the
//! kinds no call starts, the line it grew from.
//!
//! Three on-disk layouts exist (inline `isSidechain` lines in the session file, `agent-<id>.jsonl`
//! beside it, `<session>/subagents/agent-<id>.jsonl` with a `.meta.json`), and each version
//! leaves different evidence. Stronger evidence is tried first; each call spawns one agent. An
//! agent's own agents are written flat beside it, and found the same way: by the calls in its
//! thread. A team member is found by the name its call gave it, else at its team's `TeamCreate`;
//! a fork at the line its `fork-context-ref` names; a side question at the prompt of the turn it
//! was asked in.

use std::collections::HashMap;

use serde::Deserialize;

use super::pace::Pace;
use super::view::{
    AgentKind, AgentLink, ItemKind, ItemRef, LineRef, LinkEvidence, Session, Thread, ThreadRef,
};
use crate::model::{self, tool_result, Content, EntryKind, Tool, Transcript};

/// `agent-<id>.meta.json`, written beside newer sub-agent files.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct AgentMeta {
    pub agent_type: Option<String>,
    pub description: Option<String>,
    pub tool_use_id: Option<String>,
    /// A team member's name in its team.
    pub name: Option<String>,
    /// 1 for an agent the main conversation started, 2 for one its agent started, …
    pub spawn_depth: Option<u64>,
    pub is_fork: Option<bool>,
    /// The agent whose call started this one, for an agent of an agent.
    pub parent_agent_id: Option<String>,
}

/// The file name of a side question's agent: `agent-aside_question-<hex>.jsonl`.
pub fn is_side_question(agent_id: &str) -> bool {
    agent_id.starts_with("aside_question-")
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
    /// The `name` and `team_name` it gave a team member.
    name: Option<String>,
    team: Option<String>,
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
    let members: Vec<(Option<String>, Option<String>)> = (0..session.agents.len())
        .map(|agent| {
            // Only an agent's own file says who it is: an agent rebuilt from progress lines, or
            // one inline in the session's file, starts with a line that is not its own to read.
            let a = &session.agents[agent];
            let (name, team) = match a.file.is_some() && !a.rebuilt {
                true => member_of(&a.thread, files),
                false => (None, None),
            };
            (meta(agent).and_then(|m| m.name.clone()).or(name), team)
        })
        .collect();
    // By name: any agent may have one (2.1.332 `AgentInput.name`, "addressable via
    // SendMessage"), so two may share it; a name links only when exactly one call left has it
    // and no team says otherwise. Else the prompt decides.
    for (agent, link) in links.iter_mut().enumerate() {
        let (Some(name), team) = &members[agent] else { continue };
        if link.is_some() {
            continue;
        }
        let fits = |call: &SpawnCall| {
            !call.taken
                && call.name.as_deref() == Some(name.as_str())
                && match (&call.team, team) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                }
        };
        let mut candidates = calls.iter().enumerate().filter(|(_, c)| fits(c)).map(|(i, _)| i);
        if let (Some(c), None) = (candidates.next(), candidates.next()) {
            calls[c].taken = true;
            *link = Some((c, LinkEvidence::TeamName));
        }
    }
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
        a.parent_agent = meta.and_then(|m| m.parent_agent_id.clone());
        a.spawn_depth = meta.and_then(|m| m.spawn_depth).map(|d| d.min(u32::MAX.into()) as u32);
        let call = link.map(|(c, how)| (&calls[c], how));
        let (name, team) = members[agent].clone();
        let name = name.or_else(|| call.and_then(|(c, _)| c.name.clone()));
        let team = team.or_else(|| call.and_then(|(c, _)| c.team.clone()));
        let fork = fork_reference(a, files);
        a.kind = if a.agent_id.as_deref().is_some_and(is_side_question) {
            AgentKind::SideQuestion
        } else if fork.is_some()
            || a.agent_type.as_deref() == Some("fork")
            || meta.and_then(|m| m.is_fork) == Some(true)
        {
            AgentKind::Fork
        } else if team.is_some() {
            AgentKind::TeamMember { name, team }
        } else {
            // A name alone is no team's: any agent may be given one to be addressed by.
            a.name = name;
            AgentKind::Task
        };
        if let Some((_, session_id)) = fork {
            a.parent_session = session_id;
        }
        let Some((call, how)) = call else {
            a.link = AgentLink::Orphan;
            continue;
        };
        a.link = AgentLink::ToolCall { line: call.line, how };
        a.description = a.description.take().or_else(|| call.description.clone());
        a.agent_type = a.agent_type.take().or_else(|| call.agent_type.clone());
        let thread = session.thread_mut(call.thread);
        if let ItemKind::ToolCall(tool_call) = &mut thread.items[call.item].kind {
            tool_call.agents.push(agent as u32);
        }
    }
    link_to_teams(session, files);
    link_born(session, files);
    link_workflow_agents(session, files);
}

/// A team member's name and team, as its first conversation line says (`agentName`,
/// `teamName`: on every line of a member's file; one line says them, as for `about::Started`),
/// else as its `agentId` does when it is a member's (`alice@cart-tests`, as `team-lead@core` is
/// a team's lead).
fn member_of(thread: &Thread, files: &[Transcript]) -> (Option<String>, Option<String>) {
    #[derive(Deserialize, Default)]
    #[serde(rename_all = "camelCase", default)]
    struct Member {
        agent_name: Option<String>,
        team_name: Option<String>,
        agent_id: Option<String>,
    }
    let Some(first) = thread.items.first() else { return (None, None) };
    let file = &files[first.line.file as usize];
    let line = &file.lines[first.line.line as usize];
    let member: Member = serde_json::from_slice(line.span.bytes(&file.bytes)).unwrap_or_default();
    let from_id = member.agent_id.as_deref().and_then(|id| id.split_once('@'));
    let from_id = from_id.filter(|(name, team)| !name.is_empty() && !team.is_empty());
    (
        member.agent_name.or_else(|| from_id.map(|(name, _)| name.to_owned())),
        member.team_name.or_else(|| from_id.map(|(_, team)| team.to_owned())),
    )
}

/// A fork's `fork-context-ref`: the uuid of the parent's line it was given last, and the
/// parent session's id. It opens the fork's file, before any conversation line: looked for
/// there only, as every agent's file is asked.
fn fork_reference(
    agent: &super::view::Agent,
    files: &[Transcript],
) -> Option<(Option<String>, Option<String>)> {
    let file = &files[agent.file? as usize];
    let line = fork_reference_line(file)?;
    let Some(EntryKind::ForkContextRef(r)) = file.lines[line].entry().map(|e| &e.kind) else { return None };
    Some((
        r.parent_last_uuid.map(|u| u.decode(&file.bytes).into_owned()),
        r.parent_session_id.map(|s| s.decode(&file.bytes).into_owned()),
    ))
}

/// The line of a fork's file that holds its `fork-context-ref`: before any conversation line.
pub(super) fn fork_reference_line(file: &Transcript) -> Option<usize> {
    for (index, line) in file.lines.iter().enumerate() {
        match &line.entry().map(|e| &e.kind) {
            Some(EntryKind::ForkContextRef(_)) => return Some(index),
            Some(EntryKind::User(_) | EntryKind::Assistant(_)) => return None,
            _ => {}
        }
    }
    None
}

/// A team member no loaded call started by name goes to its team's `TeamCreate` call: that call
/// started the team, and with it every member (a call of the team's, so it holds them all).
fn link_to_teams(session: &mut Session, files: &[Transcript]) {
    let waiting: Vec<(usize, String)> = session
        .agents
        .iter()
        .enumerate()
        .filter(|(_, a)| a.link == AgentLink::Orphan)
        .filter_map(|(i, a)| match &a.kind {
            AgentKind::TeamMember { team: Some(team), .. } => Some((i, team.clone())),
            _ => None,
        })
        .collect();
    if waiting.is_empty() {
        return;
    }
    let mut teams: Vec<(String, ThreadRef, usize, LineRef)> = Vec::new();
    for (thread_id, thread) in session.threads() {
        for (index, item) in thread.items.iter().enumerate() {
            let ItemKind::ToolCall(call) = &item.kind else { continue };
            if call.tool(&files[item.line.file as usize].bytes) != Tool::TeamCreate {
                continue;
            }
            let input = input_of(files, item.line, item.block);
            if let Some(team) = input.as_ref().and_then(|i| i.get("team_name")?.as_str().map(str::to_owned)) {
                teams.push((team, thread_id, index, item.line));
            }
        }
    }
    let mut parents = session.agent_parents();
    for (agent, team) in waiting {
        // The first call that created a team of that name, outside the member itself and the
        // agents it started: a place inside itself would hang it from nothing shown.
        let Some(&(_, thread, item, line)) =
            teams.iter().find(|(t, thread, ..)| *t == team && !within(session, &parents, *thread, agent))
        else {
            continue;
        };
        parents[agent] = Some(ItemRef::new(thread, item as u32));
        session.agents[agent].link = AgentLink::ToolCall { line, how: LinkEvidence::TeamCreate };
        if let ItemKind::ToolCall(call) = &mut session.thread_mut(thread).items[item].kind {
            call.agents.push(agent as u32);
        }
    }
}

/// Forks and side questions that no call started: each at the item it was born at.
///
/// A fork's file names the parent line it was given last (`parentLastUuid`): it continues from
/// there, so it goes right after that line's item.
///
/// A side question is asked while the conversation goes on, and answered from a copy of the
/// conversation so far, which its file replays (those lines are the parent's: they are shown
/// there and not again, [`super::NotShown::Replayed`]). Its own first line follows the last
/// line it was given; it goes at the prompt whose turn that line is in: the question was asked
/// about what that prompt set going, and a turn's prompt is where a reader looks for it. Without
/// a parent line to follow, its time says which turn was under way. The copies are known only by
/// their uuids: a copy written with new ones would read as the side question's own lines, and
/// with its parent not loaded the copies are all there is of that conversation, so they show.
fn link_born(session: &mut Session, files: &[Transcript]) {
    let waiting: Vec<usize> = (0..session.agents.len())
        .filter(|&a| {
            let agent = &session.agents[a];
            agent.link == AgentLink::Orphan && matches!(agent.kind, AgentKind::Fork | AgentKind::SideQuestion)
        })
        .collect();
    if waiting.is_empty() {
        return;
    }
    let places = Places::new(session, files);
    let mut parents = session.agent_parents();
    for agent in waiting {
        let a = &session.agents[agent];
        let found = match a.kind {
            AgentKind::Fork => fork_reference(a, files)
                .and_then(|(uuid, _)| places.item_of_uuid(&uuid?, files))
                .map(|at| (at, LinkEvidence::ForkContextRef)),
            _ => side_question_turn(session, agent, &places, files)
                .map(|at| (at, LinkEvidence::SideQuestionTurn)),
        };
        // A fork's file holds its own lines' uuids too: a `parentLastUuid` naming one of them, or
        // one of an agent it started, is no place to be born at.
        let found = found.filter(|(at, _)| !within(session, &parents, at.thread, agent));
        let Some((at, how)) = found else { continue };
        parents[agent] = Some(at);
        let line = session.thread(at.thread).items[at.item as usize].line;
        session.agents[agent].link = AgentLink::At { line, how };
        session.born.push((at, agent as u32));
    }
    session.born.sort_unstable();
}

/// Whether `thread` is agent `agent`'s own or that of an agent it started, directly or not, as
/// `parents` (by [`Session::agent_parents`]) has them so far.
fn within(session: &Session, parents: &[Option<ItemRef>], thread: ThreadRef, agent: usize) -> bool {
    match thread {
        ThreadRef::Agent(a) => session.ancestry(parents, a).0.contains(&(agent as u32)),
        _ => false,
    }
}

/// Where the lines of a session's conversations are shown: each line's item, and each uuid's
/// line (a parent's line before an agent's copy of it).
struct Places {
    item_of_line: HashMap<LineRef, ItemRef>,
    line_of_uuid: HashMap<Vec<u8>, LineRef>,
}

impl Places {
    fn new(session: &Session, files: &[Transcript]) -> Places {
        let mut item_of_line = HashMap::new();
        for (t, thread) in session.threads() {
            for (index, item) in thread.items.iter().enumerate() {
                item_of_line.insert(item.line, ItemRef::new(t, index as u32));
            }
        }
        let mut line_of_uuid = HashMap::new();
        // A side question's file holds copies of the conversation's lines: a fork or a side
        // question is born at the conversation's own line, or, with it not loaded, nowhere.
        let own = session.file.into_iter();
        let agents = session.agents.iter().filter(|a| a.kind != AgentKind::SideQuestion);
        for file_index in own.chain(agents.filter_map(|a| a.file)) {
            let file = &files[file_index as usize];
            for (line, l) in file.lines.iter().enumerate() {
                let Some(uuid) = l.entry().and_then(|e| e.envelope.uuid) else { continue };
                line_of_uuid
                    .entry(uuid.key(&file.bytes).to_vec())
                    .or_insert(LineRef { file: file_index, line: line as u32 });
            }
        }
        Places { item_of_line, line_of_uuid }
    }

    /// The item that shows the line `uuid` names, or the nearest above it that is shown (a tool
    /// result is shown with its call, so the chain of parents leads there).
    fn item_of_uuid(&self, uuid: &str, files: &[Transcript]) -> Option<ItemRef> {
        let mut line = *self.line_of_uuid.get(uuid.as_bytes())?;
        // Bounded: a damaged file's parents can go round in a circle.
        for _ in 0..self.line_of_uuid.len() + 1 {
            if let Some(&item) = self.item_of_line.get(&line) {
                return Some(item);
            }
            let file = &files[line.file as usize];
            let parent = file.lines[line.line as usize].entry()?.envelope.parent_uuid?;
            line = *self.line_of_uuid.get(parent.key(&file.bytes))?;
        }
        None
    }
}

/// The prompt of the turn side question `agent` was asked in ([`link_born`]).
fn side_question_turn(
    session: &Session,
    agent: usize,
    places: &Places,
    files: &[Transcript],
) -> Option<ItemRef> {
    let first = session.agents[agent].thread.items.first()?;
    let file = &files[first.line.file as usize];
    let envelope = &file.lines[first.line.line as usize].entry()?.envelope;
    let followed = envelope
        .parent_uuid
        .and_then(|p| places.item_of_uuid(&p.decode(&file.bytes), files))
        .filter(|at| at.thread != ThreadRef::Agent(agent as u32));
    let (thread, before) = match followed {
        Some(at) => (at.thread, at.item as usize + 1),
        None => {
            let asked = super::time::parse_millis(envelope.timestamp?.raw(&file.bytes).as_bytes())?;
            let main = &session.thread;
            let before = main.items.iter().position(|item| {
                let f = &files[item.line.file as usize];
                let written = f.lines[item.line.line as usize].entry().and_then(|e| e.envelope.timestamp);
                written
                    .and_then(|t| super::time::parse_millis(t.raw(&f.bytes).as_bytes()))
                    .is_some_and(|t| t > asked)
            });
            (ThreadRef::Main, before.unwrap_or(main.items.len()))
        }
    };
    let items = &session.thread(thread).items;
    let prompt = items[..before.min(items.len())].iter().rposition(|i| i.is_typed_prompt())?;
    Some(ItemRef::new(thread, prompt as u32))
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
                name: text("name"),
                team: text("team_name"),
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
