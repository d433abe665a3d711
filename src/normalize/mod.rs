//! From parsed files to the conversations a person reads.
//!
//! [`normalize`] takes files as a user drops them (a session file, its sub-agent files in any of
//! the three layouts, `.meta.json` files, unrelated sessions) and makes [`Session`]s: the main
//! line and its alternative branches ([`dag`]), items with tool calls paired and hooks and
//! progress folded in ([`thread`]), sub-agents linked to their calls ([`sidechains`]), stats,
//! and an account of where every line went ([`accounting`]). Pure Rust: no DOM, tested natively.

pub mod about;
pub mod accounting;
pub mod beside;
pub mod continued;
pub mod dag;
pub mod fxhash;
pub mod ids;
mod item_text;
pub mod live;
pub mod pace;
mod progress_agents;
pub mod sidechains;
pub mod stats;
pub mod thread;
pub mod time;
mod tree;
mod view;

use std::collections::{HashMap, HashSet};

pub use accounting::{NotShown, Placement};
pub use sidechains::AgentMeta;
pub use view::*;

use crate::model::{EntryKind, Transcript};
use pace::Pace;

/// A file as the user gave it: its path (relative inside a dropped folder) and its bytes.
#[derive(Clone, Debug)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Input {
    /// Its name and bytes, borrowed: how files held elsewhere are handed on without a copy.
    pub fn parts(&self) -> (&str, &[u8]) {
        (&self.name, &self.bytes)
    }
}

/// Parses and normalizes `inputs`.
pub fn normalize(inputs: Vec<Input>) -> Workspace {
    let (side, transcripts): (Vec<Input>, Vec<Input>) =
        inputs.into_iter().partition(|input| beside::beside(&input.name).is_some());
    let transcripts =
        transcripts.into_iter().map(|input| Transcript::parse(input.name, input.bytes)).collect();
    assemble(transcripts, side)
}

/// Normalizes files already parsed (a page parses large files in steps), with the files beside
/// them that are not transcripts ([`beside`]: sub-agent metadata, saved outputs, workflow runs).
pub fn assemble(transcripts: Vec<Transcript>, side: Vec<Input>) -> Workspace {
    pace::finish(assemble_paced(transcripts, side, &mut Pace::never()))
}

/// [`assemble`], pausing where `pace` says (a page paints meanwhile).
pub async fn assemble_paced(
    transcripts: Vec<Transcript>,
    side: Vec<Input>,
    pace: &mut Pace<'_>,
) -> Workspace {
    let mut files = Vec::new();
    let beside::Read { metas, saved_outputs, workflow_runs, side, mut rejected } = beside::read(side);
    let agent_metas: HashMap<String, AgentMeta> =
        metas.into_iter().map(|(name, meta)| (agent_id_of_name(&name).unwrap_or_default(), meta)).collect();
    for transcript in transcripts {
        match rejection(&transcript) {
            Some(reason) => rejected.push((transcript.name, reason)),
            None => files.push(transcript),
        }
    }
    // Sub-agents whose files were not loaded, rebuilt from their progress lines: files cctv made,
    // after the ones the user gave, and left out of the line accounting (their lines are copies of
    // lines the session file already accounts for).
    let given = files.len();
    files.extend(progress_agents::rebuild(&files));
    let sessions = sessions(&files, &agent_metas, given, pace).await;
    Workspace {
        generation: Generation::next(),
        files,
        given,
        sessions,
        rejected,
        saved_outputs,
        workflow_runs,
        side,
    }
}

/// Why a file is not a transcript at all, if it is not.
fn rejection(t: &Transcript) -> Option<String> {
    if t.bytes.iter().all(u8::is_ascii_whitespace) {
        return Some("empty file".into());
    }
    if t.lines.iter().any(|l| l.entry().is_some()) {
        return None;
    }
    let first = t
        .lines
        .iter()
        .find_map(|l| l.invalid().filter(|i| **i != crate::model::Invalid::Blank).map(|i| (l.number, i)));
    let detail = first.map(|(n, i)| format!(" (line {n}: {})", i.reason())).unwrap_or_default();
    Some(format!(
        "not a Claude Code transcript: none of its {} lines is a JSON object{detail}",
        t.lines.len()
    ))
}

/// `agent-<id>.jsonl` or `agent-<id>.meta.json` -> `<id>`.
pub fn agent_id_of_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next()?;
    let id = base.strip_prefix("agent-")?;
    let id = id.strip_suffix(".jsonl").or_else(|| id.strip_suffix(".meta.json"))?;
    Some(id.to_owned())
}

/// `<session>/subagents/[…/]agent-<id>.jsonl` -> `<session>` (agents of agents and of workflow
/// runs are in folders below `subagents`).
fn session_of_path(name: &str) -> Option<String> {
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    let at = parts.iter().rposition(|p| *p == "subagents")?;
    parts[..at].last().map(|s| (*s).to_owned())
}

fn first_session_id(t: &Transcript) -> Option<String> {
    t.lines.iter().find_map(|l| Some(l.entry()?.envelope.session_id?.decode(&t.bytes).into_owned()))
}

/// Files from `given` on were rebuilt by cctv ([`progress_agents`]).
async fn sessions(
    files: &[Transcript],
    metas: &HashMap<String, AgentMeta>,
    given: usize,
    pace: &mut Pace<'_>,
) -> Vec<Session> {
    let mut sessions: Vec<Session> = Vec::new();
    // Sub-agent files name their session twice: by folder (`<session>/subagents/`) and in their
    // lines' `sessionId`. Either may be the one that matches a loaded session.
    let mut agent_files: Vec<(usize, Option<String>, [Option<String>; 2])> = Vec::new();
    for (index, file) in files.iter().enumerate() {
        let agent_id = agent_id_of_name(&file.name);
        if agent_id.is_some() {
            agent_files.push((index, agent_id, [session_of_path(&file.name), first_session_id(file)]));
        } else {
            sessions.push(Session {
                session_id: first_session_id(file).or_else(|| Some(stem(&file.name))),
                file: Some(index as u32),
                ..Session::default()
            });
        }
    }
    // Sub-agent files join the session they name; those whose session was not loaded are
    // grouped by that id, as sessions of orphans.
    let mut session_agent_files: Vec<Vec<(usize, Option<String>)>> = vec![Vec::new(); sessions.len()];
    for (index, agent_id, names) in agent_files {
        let known = |id: &Option<String>| sessions.iter().position(|s| id.is_some() && s.session_id == *id);
        let at = known(&names[0]).or_else(|| known(&names[1]));
        let at = at.unwrap_or_else(|| {
            let session_id = names[1].clone().or_else(|| names[0].clone());
            sessions.push(Session { session_id, file: None, ..Session::default() });
            session_agent_files.push(Vec::new());
            sessions.len() - 1
        });
        session_agent_files[at].push((index, agent_id));
    }
    for (session, agent_files) in sessions.iter_mut().zip(session_agent_files) {
        build_session(session, files, &agent_files, metas, given, pace).await;
    }
    continued::link(&mut sessions, files);
    // A copy holds its original's title lines too: it is named by its own first prompt instead.
    for s in 0..sessions.len() {
        let Some(from) = &sessions[s].about.continued_from else { continue };
        if sessions[s].title == sessions[from.session as usize].title {
            if let Some(own) = first_prompt_title(&sessions[s], files) {
                sessions[s].title = Some(own);
            }
        }
    }
    sessions
}

fn stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.strip_suffix(".jsonl").unwrap_or(base).to_owned()
}

/// Where the lines of each file read so far went, by file index.
type Placements = HashMap<u32, Vec<Placement>>;

/// Builds one session's threads, links its agents, counts it.
async fn build_session(
    session: &mut Session,
    files: &[Transcript],
    agent_files: &[(usize, Option<String>)],
    metas: &HashMap<String, AgentMeta>,
    given: usize,
    pace: &mut Pace<'_>,
) {
    let mut placements = Placements::new();
    let mut agent_metas: Vec<Option<AgentMeta>> = Vec::new();
    if let Some(file_index) = session.file {
        let file = &files[file_index as usize];
        let place = read_session_file(session, file, file_index, metas, &mut agent_metas, pace).await;
        placements.insert(file_index, place);
    }
    // A side question's file replays the conversation it was asked in: the lines of the
    // session's own file it copies (by uuid) are that file's, shown there.
    let asides = agent_files.iter().any(|(_, id)| id.as_deref().is_some_and(sidechains::is_side_question));
    let parent_uuids: fxhash::FxSet<&[u8]> = match (asides, session.file) {
        (true, Some(f)) => {
            let file = &files[f as usize];
            file.lines.iter().filter_map(|l| Some(l.entry()?.envelope.uuid?.key(&file.bytes))).collect()
        }
        _ => fxhash::FxSet::default(),
    };
    for (file_index, agent_id) in agent_files {
        let replays = agent_id.as_deref().is_some_and(sidechains::is_side_question);
        let parent = if replays { Some(&parent_uuids) } else { None };
        let (agent, place) =
            read_agent_file(&files[*file_index], *file_index as u32, agent_id, parent, pace).await;
        agent_metas.push(agent_id.as_ref().and_then(|id| metas.get(id).cloned()));
        // An agent rebuilt from progress lines is not a file the reader gave: its lines are
        // accounted for in the session's file.
        let rebuilt = *file_index >= given;
        session.agents.push(Agent { rebuilt, ..agent });
        if !rebuilt {
            placements.insert(*file_index as u32, place);
        }
    }
    sidechains::link(session, files, &agent_metas, pace).await;
    merge_fork_references(session, files, &mut placements);
    if session.title.is_none() {
        session.title = first_prompt_title(session, files);
    }
    count(session, files, pace).await;
    account(session, placements, pace).await;
}

/// A fork's `fork-context-ref` that made its link is shown by it: merged. Only there: the line
/// is [`NotShown::ForkReferenceUnlinked`] anywhere else.
fn merge_fork_references(session: &Session, files: &[Transcript], placements: &mut Placements) {
    for agent in &session.agents {
        if !matches!(agent.link, AgentLink::At { how: LinkEvidence::ForkContextRef, .. }) {
            continue;
        }
        let Some(file) = agent.file else { continue };
        let Some(line) = sidechains::fork_reference_line(&files[file as usize]) else { continue };
        if let Some(place) = placements.get_mut(&file).and_then(|p| p.get_mut(line)) {
            *place = Placement::Merged;
        }
    }
}

/// The session's own file: its main thread, branches, inline agents (the oldest layout: separate
/// conversations in the same file), what it says about itself and its title. Returns where its
/// lines went.
async fn read_session_file(
    session: &mut Session,
    file: &Transcript,
    file_index: u32,
    metas: &HashMap<String, AgentMeta>,
    agent_metas: &mut Vec<Option<AgentMeta>>,
    pace: &mut Pace<'_>,
) -> Vec<Placement> {
    let src = &file.bytes[..];
    let mut place = vec![Placement::Pending; file.lines.len()];
    let tombstoned = tombstoned(file);
    let ctx = thread::Context { file, file_index, tombstoned: &tombstoned };
    let (side, main): (Vec<u32>, Vec<u32>) = (0..file.lines.len() as u32)
        .partition(|&i| file.lines[i as usize].entry().is_some_and(|e| e.envelope.is_sidechain));
    let plan = dag::plan(&file.lines, src, &main, pace).await;
    for &d in &plan.duplicates {
        place[d as usize] = Placement::NotShown(NotShown::Duplicate);
    }
    session.thread = thread::build(&ctx, &plan.main, &mut place, pace).await;
    for (fork_point, lines) in &plan.branches {
        session.branches.push(Branch {
            fork_point: fork_point.map(|line| LineRef { file: file_index, line }),
            thread: thread::build(&ctx, lines, &mut place, pace).await,
        });
    }
    for lines in inline_agents(file, &side) {
        let agent_id = lines
            .iter()
            .find_map(|&i| Some(file.lines[i as usize].entry()?.envelope.agent_id?.decode(src).into_owned()));
        let thread = agent_thread(&ctx, &lines, &mut place, pace).await;
        agent_metas.push(agent_id.as_ref().and_then(|id| metas.get(id).cloned()));
        session.agents.push(Agent { agent_id, file: None, thread, ..Agent::default() });
    }
    session.about = about::about(file, file_index, pace).await;
    // The person's own title, else Claude's, else the latest summary.
    let a = &session.about;
    session.title = a.custom_title.clone().or(a.ai_title.clone()).or(a.summary.clone());
    place
}

/// A sub-agent's own file, read whole as its conversation; where its lines went. `replayed`: the
/// uuids of the lines a side question's file copies from the session's, which are not its own.
async fn read_agent_file(
    file: &Transcript,
    file_index: u32,
    agent_id: &Option<String>,
    replayed: Option<&fxhash::FxSet<&[u8]>>,
    pace: &mut Pace<'_>,
) -> (Agent, Vec<Placement>) {
    let mut place = vec![Placement::Pending; file.lines.len()];
    let tombstoned = tombstoned(file);
    let ctx = thread::Context { file, file_index, tombstoned: &tombstoned };
    let mut all: Vec<u32> = (0..file.lines.len() as u32).collect();
    if let Some(replayed) = replayed.filter(|r| !r.is_empty()) {
        all.retain(|&i| {
            let uuid = file.lines[i as usize].entry().and_then(|e| e.envelope.uuid);
            let copy = uuid.is_some_and(|u| replayed.contains(u.key(&file.bytes)));
            if copy {
                place[i as usize] = Placement::NotShown(NotShown::Replayed);
            }
            !copy
        });
    }
    let thread = agent_thread(&ctx, &all, &mut place, pace).await;
    let agent = Agent {
        agent_id: agent_id.clone(),
        file: Some(file_index),
        thread,
        effort: about::effort(file),
        ..Agent::default()
    };
    (agent, place)
}

/// The session's stats: its own, and each agent's, added in.
async fn count(session: &mut Session, files: &[Transcript], pace: &mut Pace<'_>) {
    let mut stats = Stats::default();
    if let Some(file_index) = session.file {
        stats::add_thread(&mut stats, &session.thread, &files[file_index as usize], pace).await;
    }
    for agent in &mut session.agents {
        let mut agent_stats = Stats::default();
        if let Some(first) = agent.thread.items.first() {
            stats::add_thread(&mut agent_stats, &agent.thread, &files[first.line.file as usize], pace).await;
        }
        stats::add_agent(&mut stats, &agent_stats);
        agent.stats = agent_stats;
    }
    session.stats = stats;
}

/// Where every line of the session's files went, in file order.
async fn account(session: &mut Session, placements: Placements, pace: &mut Pace<'_>) {
    let mut files_in_order: Vec<_> = placements.into_iter().collect();
    files_in_order.sort_by_key(|(f, _)| *f);
    for (file_index, place) in files_in_order {
        for (line, placement) in place.into_iter().enumerate() {
            pace.step().await;
            let at = LineRef { file: file_index, line: line as u32 };
            session.accounting.lines += 1;
            match placement {
                Placement::Rendered => session.accounting.rendered += 1,
                Placement::Merged => session.accounting.merged += 1,
                Placement::NotShown(reason) => {
                    *session.accounting.not_shown.entry(reason).or_insert(0) += 1;
                    session.not_shown.push((at, reason));
                }
                Placement::Pending => {
                    // A line no step claimed is a bug in cctv, and is said so rather than lost.
                    *session.accounting.not_shown.entry(NotShown::Unplaced).or_insert(0) += 1;
                }
            }
        }
    }
}

/// An agent's conversation: its lines in file order, replays dropped. Agents are never rewound
/// by a user, so forks inside them are structure, not alternatives, and read in place.
async fn agent_thread(
    ctx: &thread::Context<'_>,
    lines: &[u32],
    place: &mut [Placement],
    pace: &mut Pace<'_>,
) -> Thread {
    let plan = dag::plan(&ctx.file.lines, &ctx.file.bytes, lines, pace).await;
    let duplicates: HashSet<u32> = plan.duplicates.iter().copied().collect();
    for &d in &duplicates {
        place[d as usize] = Placement::NotShown(NotShown::Duplicate);
    }
    let keep: Vec<u32> = lines.iter().copied().filter(|i| !duplicates.contains(i)).collect();
    thread::build(ctx, &keep, place, pace).await
}

/// Groups a file's inline sidechain lines into agents: by `agentId` where lines carry one, else
/// by the root their `parentUuid` chain reaches.
fn inline_agents(file: &Transcript, side: &[u32]) -> Vec<Vec<u32>> {
    let src = &file.bytes[..];
    let mut uuid_line: fxhash::FxMap<&[u8], u32> = fxhash::FxMap::default();
    for &i in side {
        if let Some(uuid) = file.lines[i as usize].entry().and_then(|e| e.envelope.uuid) {
            uuid_line.entry(uuid.key(src)).or_insert(i);
        }
    }
    let mut root_of: HashMap<u32, u32> = HashMap::new();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut group_of_key: HashMap<String, usize> = HashMap::new();
    for &i in side {
        let entry = file.lines[i as usize].entry().expect("sidechain lines are entries");
        let key = match entry.envelope.agent_id {
            Some(id) => format!("id:{}", id.raw(src)),
            None => {
                // Walk up to the root, bounded by the number of lines (a cycle cannot loop).
                let mut at = i;
                for _ in 0..side.len() {
                    if let Some(&root) = root_of.get(&at) {
                        at = root;
                        break;
                    }
                    let parent = file.lines[at as usize]
                        .entry()
                        .and_then(|e| e.envelope.parent_uuid)
                        .and_then(|p| uuid_line.get(p.key(src)).copied());
                    match parent {
                        Some(p) if p != at => at = p,
                        _ => break,
                    }
                }
                root_of.insert(i, at);
                format!("root:{at}")
            }
        };
        let group = *group_of_key.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[group].push(i);
    }
    groups
}

fn tombstoned(file: &Transcript) -> fxhash::FxSet<&[u8]> {
    file.lines
        .iter()
        .filter_map(|l| match &l.entry()?.kind {
            EntryKind::Tombstone(t) => Some(t.target?.key(&file.bytes)),
            _ => None,
        })
        .collect()
}

/// The first prompt the person typed in this session (not one copied from another).
fn first_prompt_title(session: &Session, files: &[Transcript]) -> Option<String> {
    let item = session.thread.items.iter().find(|i| i.is_typed_prompt() && !session.is_copied(i.line))?;
    let file = &files[item.line.file as usize];
    let message = file.lines[item.line.line as usize].entry()?.message()?;
    let text = message.text(&file.bytes, item.block)?;
    // What the person typed or ran, never the markup around it.
    let line = crate::model::user_text::user_text(&text).headline()?;
    Some(line.chars().take(120).collect())
}
