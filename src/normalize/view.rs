//! The view model: what the UI renders, as indices into the parsed files.
//!
//! Nothing here copies transcript text. An [`Item`] names a line (and a block in it); the UI
//! decodes what it shows from the file's bytes. Ids are derived when asked for, not stored.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::model::{Block, Entry, JsonStr, Line, Tool, Transcript};

/// A line of one of the loaded files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineRef {
    /// Index into [`super::Workspace::files`].
    pub file: u32,
    /// Index into that file's `lines` (the line number minus one).
    pub line: u32,
}

/// Which thread of a session: the main line, an alternative branch, or a sub-agent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum ThreadRef {
    Main,
    /// An index into [`Session::branches`].
    Branch(u32),
    /// An index into [`Session::agents`].
    Agent(u32),
}

/// Where an item is in a session: its thread, and its index in that thread's items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct ItemRef {
    pub thread: ThreadRef,
    pub item: u32,
}

impl ItemRef {
    pub fn new(thread: ThreadRef, item: u32) -> ItemRef {
        ItemRef { thread, item }
    }
}

/// One rendered row of a conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub line: LineRef,
    /// The content block this item shows, for items split out of a multi-block message.
    pub block: Option<u32>,
    pub kind: ItemKind,
    /// The assistant API response this item belongs to ([`Thread::responses`]).
    pub response: Option<u32>,
    /// Injected for the model rather than typed by the user (skill expansions, reminders,
    /// caveats): the UI folds these.
    pub meta: bool,
    /// Made up by Claude Code, not said by the user or the model: interrupt and rejection
    /// notices, `<synthetic>` API error messages.
    pub synthetic: bool,
    /// Claude Code names this item by a uuid derived from its line's (`deriveUUID`), not by the
    /// line's own: once a response of several blocks has been split in a conversation, every
    /// assistant message after it is (`isNewChain`, seed 001 §5.5), so no two share a uuid.
    pub derived_id: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    /// A user's message: a text or image block, or the whole string content.
    Prompt,
    /// Assistant text.
    Text,
    Thinking,
    RedactedThinking,
    ToolCall(ToolCall),
    /// A `tool_result` whose `tool_use` is not in the loaded files.
    OrphanResult,
    /// A slash command the person ran, with its expanded prompt and its output folded in.
    Command(UserCommand),
    /// A bash-mode (`!`) command the person ran, with its output folded in.
    Shell(UserCommand),
    /// A note Claude Code put in a user message for the model (a reminder, a background task
    /// finishing), or command output with no command before it.
    Injected,
    /// A system line, a hook that ran outside a tool call, a PR link, a summary: rendered from
    /// its line.
    Event,
    /// A compaction: the conversation before it was summarised.
    CompactBoundary(CompactBoundary),
    /// A content block of a type cctv does not know: shown raw.
    UnknownBlock,
    /// An entry of a type cctv does not know: shown raw with a badge.
    Unknown,
    /// A known type whose payload does not fit: shown raw with the error.
    Malformed,
}

impl Item {
    /// A prompt the person typed or a command they ran: what the session's title, prompt count
    /// and j/k stop at.
    pub fn is_typed_prompt(&self) -> bool {
        match self.kind {
            ItemKind::Prompt => !self.meta && !self.synthetic,
            ItemKind::Command(_) | ItemKind::Shell(_) => true,
            _ => false,
        }
    }
}

impl ItemKind {
    /// The kind's name in reports and in the JavaScript API.
    pub fn name(&self) -> &'static str {
        match self {
            ItemKind::Prompt => "prompt",
            ItemKind::Text => "text",
            ItemKind::Thinking => "thinking",
            ItemKind::RedactedThinking => "redactedThinking",
            ItemKind::ToolCall(_) => "toolCall",
            ItemKind::OrphanResult => "orphanResult",
            ItemKind::Command(_) => "command",
            ItemKind::Shell(_) => "shell",
            ItemKind::Injected => "injected",
            ItemKind::Event => "event",
            ItemKind::CompactBoundary(_) => "compactBoundary",
            ItemKind::UnknownBlock => "unknownBlock",
            ItemKind::Unknown => "unknown",
            ItemKind::Malformed => "malformed",
        }
    }
}

/// What followed a command the person ran.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct UserCommand {
    /// The prompt a slash command expanded to (the `isMeta` line after it).
    pub expansion: Option<LineRef>,
    /// Lines with what the command printed.
    pub output: Vec<LineRef>,
}

/// A tool call with everything that happened to it, in the order Claude Code shows it:
/// the call, PreToolUse hooks, the result, PostToolUse hooks; progress folded in.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolCall {
    pub tool_use_id: Option<JsonStr>,
    pub name: Option<JsonStr>,
    pub pre_hooks: Vec<LineRef>,
    pub result: Option<ToolResultRef>,
    pub post_hooks: Vec<LineRef>,
    /// bash_progress, agent_progress, hook_progress (other than pre/post), query_update, ...
    pub progress: Vec<LineRef>,
    /// What the call put into the conversation for the model, written as a meta user line that
    /// names the call (`sourceToolUseID`): a skill's instructions.
    pub loaded: Vec<LineRef>,
    /// The sub-agents this call spawned (one for Task/Agent, each agent of its run for a
    /// Workflow): indexes into [`Session::agents`].
    pub agents: Vec<u32>,
}

impl ToolCall {
    /// Which tool the call uses, from its name in `src` (its line's file).
    pub fn tool(&self, src: &[u8]) -> Tool {
        Tool::from_name(&self.name.map(|n| n.decode(src)).unwrap_or_default())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolResultRef {
    pub line: LineRef,
    /// The `tool_result` block's index in its line.
    pub block: u32,
    pub is_error: bool,
    /// What an error result's text says when Claude Code wrote it: the person rejected or
    /// interrupted the call, or a placeholder stands in for a result that never came. Such a
    /// call did not fail, and is not counted as a tool error.
    pub synthetic: Option<crate::model::synthetic::Synthetic>,
}

impl ToolResultRef {
    /// The tool itself reported an error.
    pub fn failed(&self) -> bool {
        self.is_error && self.synthetic.is_none()
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct CompactBoundary {
    /// The summary the conversation continues from (the `isCompactSummary` user message).
    pub summary: Option<LineRef>,
    /// `summary` entries whose leaf this compaction follows.
    pub summaries: Vec<LineRef>,
}

/// One API response: consecutive assistant lines that share `message.id` and `requestId`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Response {
    pub lines: Vec<LineRef>,
    pub model: Option<JsonStr>,
    pub stop_reason: Option<JsonStr>,
    /// The usage the response's last line reports (earlier lines carry partial counts).
    pub usage: crate::model::Usage,
}

/// A conversation in reading order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Thread {
    pub items: Vec<Item>,
    pub responses: Vec<Response>,
}

impl Thread {
    /// Where each turn begins: at each prompt the person typed (and at the first item, when
    /// something comes before the first prompt).
    pub fn turn_starts(&self) -> Vec<u32> {
        let items = &self.items;
        let mut starts: Vec<u32> =
            items.iter().enumerate().filter(|(_, it)| it.is_typed_prompt()).map(|(i, _)| i as u32).collect();
        if !items.is_empty() && starts.first() != Some(&0) {
            starts.insert(0, 0);
        }
        starts
    }

    /// The last item of the turn that begins at item `first`: the item before the next prompt
    /// the person typed, or the thread's last.
    pub fn turn_end(&self, first: usize) -> usize {
        let next = self.items.iter().skip(first + 1).position(Item::is_typed_prompt);
        next.map_or(self.items.len().saturating_sub(1).max(first), |n| first + n)
    }
}

/// An alternative continuation where the conversation forked (a rewind or an edit).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Branch {
    /// The line both continuations follow (`None` when the fork is at the very start).
    pub fork_point: Option<LineRef>,
    pub thread: Thread,
}

/// A sub-agent's conversation.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Agent {
    pub agent_id: Option<String>,
    /// The agent's own file, when it has one (else its lines are inline in the session file).
    pub file: Option<u32>,
    pub link: AgentLink,
    pub thread: Thread,
    /// From the spawning call's input or the `.meta.json`.
    pub description: Option<String>,
    pub agent_type: Option<String>,
    pub stats: Stats,
    /// Rebuilt from the session's `agent_progress` lines: its own file was not loaded.
    pub rebuilt: bool,
    /// The reasoning effort its file's lines ask for.
    pub effort: Option<String>,
    /// What kind of agent it is: a task's, a fork, a side question, a team member.
    pub kind: AgentKind,
    /// The session a fork says it forked from (its `fork-context-ref`), and the agent a
    /// `.meta.json` says started it (`parentAgentId`): what to name when they are not loaded.
    pub parent_session: Option<String>,
    pub parent_agent: Option<String>,
    /// How deep it was started (`spawnDepth`: 1 by the main conversation, 2 by its agent, …).
    pub spawn_depth: Option<u32>,
    /// The name it was given to be addressed by (`AgentInput.name`, `.meta.json` `name`), for an
    /// agent of no known team; a team member's is in its [`AgentKind::TeamMember`].
    pub name: Option<String>,
}

/// What kind of sub-agent an agent is, as its file name, its lines, its `.meta.json` or its
/// spawning call says.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum AgentKind {
    /// Started by a `Task`/`Agent` call (or a workflow run) for a task of its own.
    #[default]
    Task,
    /// The conversation so far, continued apart (`agentType: "fork"`, a `fork-context-ref`).
    Fork,
    /// A question asked aside while the conversation went on (`agent-aside_question-<hex>`).
    SideQuestion,
    /// A member of an agent team: its name in the team and the team's, where said.
    TeamMember { name: Option<String>, team: Option<String> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AgentLink {
    /// Spawned by this tool call (its `tool_use` line), found by the given evidence.
    ToolCall { line: LineRef, how: LinkEvidence },
    /// Born at this line of a conversation, which is no call: the line a fork was given last,
    /// the prompt whose turn a side question was asked in ([`Session::born`] has the item).
    At { line: LineRef, how: LinkEvidence },
    /// No spawning call found in the loaded files.
    #[default]
    Orphan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEvidence {
    /// `toolUseResult.agentId` of the call's result.
    ResultAgentId,
    /// `toolUseId` in the agent's `.meta.json`.
    MetaToolUseId,
    /// An `agent_progress` line naming both.
    AgentProgress,
    /// The agent's first prompt equals the call's `prompt` input.
    Prompt,
    /// The `.meta.json` description equals the call's `description` input.
    Description,
    /// The agent's file is in the folder of the workflow run the call started
    /// (`subagents/workflows/<runId>/`).
    WorkflowRun,
    /// The agent's `.meta.json` `name` (or its lines' `agentName`) is the `name` the call gave
    /// the team member it started.
    TeamName,
    /// A team member no loaded call started by name: the `TeamCreate` call of its team
    /// (`teamName` of its lines).
    TeamCreate,
    /// A fork's `fork-context-ref` names the parent's line it forked after (`parentLastUuid`).
    ForkContextRef,
    /// A side question is at the prompt of the turn it was asked in: the parent's last typed
    /// prompt before the line its own conversation follows (or, without one, before its time).
    SideQuestionTurn,
}

/// Counts for a session or an agent.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_creation_tokens: u64,
    /// Of the cache written, what was kept for an hour rather than five minutes.
    pub cache_creation_1h_tokens: u64,
    /// Model name -> API responses.
    pub models: std::collections::BTreeMap<String, u64>,
    /// Tool name -> calls.
    pub tool_calls: std::collections::BTreeMap<String, u64>,
    /// Calls whose tool reported an error.
    pub tool_errors: u64,
    /// Calls the person declined when asked for permission (or a sub-agent's permission or auto
    /// mode denied).
    pub tool_rejections: u64,
    /// Responses the person interrupted.
    pub interruptions: u64,
    pub api_errors: u64,
    pub user_prompts: u64,
    /// API responses ([`Response`]); named `assistantTurns` in JavaScript, as the package
    /// always has.
    #[serde(rename = "assistantTurns")]
    pub responses: u64,
    /// Sum of `turn_duration` system lines.
    pub turn_duration_ms: f64,
    pub first_timestamp: Option<String>,
    pub last_timestamp: Option<String>,
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
    /// From the first to the last timestamp.
    pub wall_ms: Option<i64>,
    pub sub_agents: u64,
}

/// Where every line of a session's files went.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Accounting {
    pub lines: u64,
    pub rendered: u64,
    pub merged: u64,
    /// Why -> how many lines.
    pub not_shown: std::collections::BTreeMap<super::NotShown, u64>,
}

impl Accounting {
    pub fn not_shown_total(&self) -> u64 {
        self.not_shown.values().sum()
    }
}

/// One conversation as a person reads it, with its sub-agents.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Session {
    pub session_id: Option<String>,
    /// The session's own file (`None` when only sub-agent files of it were loaded).
    pub file: Option<u32>,
    /// `custom-title`, else `ai-title`, else a `summary`, else the first prompt.
    pub title: Option<String>,
    /// What the session's file says about it besides the conversation.
    pub about: super::about::About,
    pub thread: Thread,
    pub branches: Vec<Branch>,
    pub agents: Vec<Agent>,
    pub stats: Stats,
    pub accounting: Accounting,
    /// Lines that are not shown, each with its reason, for the UI's list.
    pub not_shown: Vec<(LineRef, super::NotShown)>,
    /// Agents born at an item that is not their spawning call (forks, side questions), as
    /// (item, agent), sorted: their rows go under that item as a call's go under the call.
    pub born: Vec<(ItemRef, u32)>,
}

/// Which making of a workspace this is: a number from a counter of the whole program, taken each
/// time one is made, so no two workspaces of a page's life share it. What the page worked out
/// from a workspace (the Share tab's findings, a row drawn) holds for another one only if it has
/// the same generation: an address cannot say so, since a freed workspace's memory can hold the
/// next one (a followed session is made anew each time it grows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Generation(u64);

impl Generation {
    /// One never handed out before.
    pub(super) fn next() -> Generation {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Generation(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// A workspace made empty is made all the same: a new generation, never a shared one.
impl Default for Generation {
    fn default() -> Generation {
        Generation::next()
    }
}

/// Everything loaded: the files, and the sessions made of them.
///
/// There is no `PartialEq`: workspaces are told apart by [`generation`](Workspace::generation),
/// not by comparing the files they hold. A clone keeps the generation, since it holds the same
/// files; a workspace is not changed once shown (the page shares it behind an `Arc`), so more of
/// the files is a new workspace, with a new generation.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    /// Taken when the workspace is made ([`super::assemble`]).
    pub generation: Generation,
    /// The files given, then the ones cctv rebuilt (sub-agents from progress lines).
    pub files: Vec<Transcript>,
    /// How many of `files` were given; the rest were rebuilt by cctv.
    pub given: usize,
    pub sessions: Vec<Session>,
    /// Files that could not be read as transcripts at all, with the reason.
    pub rejected: Vec<(String, String)>,
    /// Whole tool outputs Claude Code saved beside a session (`tool-results/`).
    pub saved_outputs: Vec<super::beside::SavedOutput>,
    /// Workflow runs: their snapshots and journals.
    pub workflow_runs: Vec<super::beside::WorkflowRun>,
    /// The other files beside the sessions that were read (sub-agent metadata, workflow runs), as
    /// given.
    pub side: Vec<super::Input>,
}

impl Workspace {
    /// The files this was made of, as given (not the ones cctv rebuilt, nor the rejected), as
    /// (name, bytes): what a shared copy of it holds.
    pub fn given_files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        let transcripts = self.files[..self.given].iter().map(|f| (f.name.as_str(), &f.bytes[..]));
        let saved = self.saved_outputs.iter().map(|f| (f.name.as_str(), &f.bytes[..]));
        let side = self.side.iter().map(|f| f.parts());
        transcripts.chain(saved).chain(side)
    }

    /// [`given_files`](Workspace::given_files), copied.
    pub fn inputs(&self) -> Vec<super::Input> {
        self.given_files()
            .map(|(name, bytes)| super::Input { name: name.to_owned(), bytes: bytes.to_vec() })
            .collect()
    }

    pub fn file(&self, line: LineRef) -> &Transcript {
        &self.files[line.file as usize]
    }

    pub fn line(&self, line: LineRef) -> &Line {
        &self.files[line.file as usize].lines[line.line as usize]
    }

    /// The bytes of the file `line` is in, which its spans point into.
    pub fn src(&self, line: LineRef) -> &[u8] {
        &self.files[line.file as usize].bytes
    }

    pub fn entry(&self, line: LineRef) -> Option<&Entry> {
        self.line(line).entry()
    }

    /// The content block an item shows, for items split out of a message.
    pub fn block(&self, item: &Item) -> Option<&Block> {
        self.entry(item.line)?.message()?.content.block(item.block?)
    }
}

impl Session {
    pub fn thread(&self, thread: ThreadRef) -> &Thread {
        match thread {
            ThreadRef::Main => &self.thread,
            ThreadRef::Branch(b) => &self.branches[b as usize].thread,
            ThreadRef::Agent(a) => &self.agents[a as usize].thread,
        }
    }

    pub fn thread_mut(&mut self, thread: ThreadRef) -> &mut Thread {
        match thread {
            ThreadRef::Main => &mut self.thread,
            ThreadRef::Branch(b) => &mut self.branches[b as usize].thread,
            ThreadRef::Agent(a) => &mut self.agents[a as usize].thread,
        }
    }

    /// Every thread: the main line, then the branches, then the sub-agents.
    pub fn threads(&self) -> impl Iterator<Item = (ThreadRef, &Thread)> {
        std::iter::once((ThreadRef::Main, &self.thread))
            .chain(self.branches.iter().enumerate().map(|(i, b)| (ThreadRef::Branch(i as u32), &b.thread)))
            .chain(self.agents.iter().enumerate().map(|(i, a)| (ThreadRef::Agent(i as u32), &a.thread)))
    }

    /// An item by where it is.
    pub fn item(&self, thread: ThreadRef, item: u32) -> Option<&Item> {
        self.thread(thread).items.get(item as usize)
    }

    /// Whether a line of this session is part of the copy of another session it begins with
    /// (see [`super::continued`]).
    pub fn is_copied(&self, line: LineRef) -> bool {
        self.about
            .continued_from
            .as_ref()
            .is_some_and(|c| self.file == Some(line.file) && line.line <= c.through)
    }
}
