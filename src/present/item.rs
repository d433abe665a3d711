//! What one row of the conversation says: who, when, and its body, decided here so the UI only
//! draws it.

use crate::model::body::{self, ImageSource, ToolResultContent};
use crate::model::synthetic::rejection_feedback;
use crate::model::tool_result::{Todo, ToolUseResult};
use crate::model::user_text::{user_text, UserText};
use crate::model::{BlockKind, Entry, EntryKind, Tool};
use crate::normalize::{
    ids, AgentKind, CompactBoundary, Item, ItemKind, ItemRef, LineRef, Session, Thread, ThreadRef, ToolCall,
    Workspace,
};
use crate::present::agents::{self, AgentLabel};
use crate::present::calls::{call_view, CallView, Outcome, Saved};
use crate::present::commands::{
    command_view, headline, injected_view, note_label, notice_view, CommandView, InjectedView, NoticeView,
};
use crate::present::event::{event_view, EventView};
use crate::present::hooks::{hook_view, progress_view, HookView, ProgressView};
use crate::present::link::{self, Anchor, Link};
use crate::present::rows::{forks_at, Row};
use crate::present::session::session_name;
use crate::present::tools::{family, tool_body, written_todos, Family, TaskBoard, TasksBody, ToolBody};
use crate::text::format::{plural, squeeze};

#[derive(Clone, Debug, PartialEq)]
pub struct ItemView {
    /// The anchor id (`#<id>`).
    pub id: String,
    /// A link to the row, as a fragment without its `#` ([`link::Link::fragment`]).
    pub link: String,
    /// For a prompt the person typed, a link to the turn it begins.
    pub turn_link: Option<String>,
    /// The line the row shows, for its raw view.
    pub line: LineRef,
    pub role: Role,
    /// When the line was written (milliseconds since the epoch), shown in the reader's zone
    /// ([`crate::present::when::clock`]).
    pub time: Option<i64>,
    pub meta: bool,
    pub synthetic: bool,
    pub body: ItemBody,
    /// Why the response stopped, when it is not the ordinary end (`max_tokens`, `refusal`,
    /// `pause_turn`): on the response's last row.
    pub stop: Option<String>,
    /// The conversation forked after this row: the branches to switch to.
    pub forks: Vec<BranchChoice>,
    /// Sub-agents born at this row that no call of it started (a fork after it, a side question
    /// at its prompt): their conversations open under it, as a call's agents do under the call.
    pub born: Vec<AgentSummary>,
    /// On the first row of an agent no loaded call or line leads to (listed at the end): what
    /// it is, and that its parent is not loaded.
    pub orphan: Option<AgentLabel>,
}

/// Who a row is from, as its label says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    You,
    /// Text Claude Code injected for the model in the user's place.
    Meta,
    Claude,
    Thinking,
    Tool,
    /// What failed: an API error Claude Code reported in Claude's place.
    Error,
    /// Claude Code's own notice in the person's name (an interrupt, a rejection).
    Notice,
    Compact,
    Hook,
    System,
    /// Shown as its raw JSON.
    Raw,
}

impl Role {
    pub fn label(self) -> &'static str {
        match self {
            Role::You => "you",
            Role::Meta => "meta",
            Role::Claude => "claude",
            Role::Thinking => "thinking",
            Role::Tool => "tool",
            Role::Error => "error",
            Role::Notice => "note",
            Role::Compact => "compact",
            Role::Hook => "hook",
            Role::System => "system",
            Role::Raw => "raw",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ItemBody {
    /// What the person typed; `notes` are what Claude Code appended to it for the model.
    Prompt {
        text: String,
        notes: Vec<InjectedView>,
    },
    /// Injected text (meta prompts, the compaction summary), folded under its first line.
    Folded {
        first_line: String,
        text: String,
    },
    Image(ImageSource),
    Document {
        title: String,
    },
    /// Claude's answer, Markdown.
    Answer(String),
    Thinking {
        text: String,
        words: usize,
    },
    /// A thinking block whose text was not kept (recent versions keep only its signature).
    ThinkingNotRecorded,
    RedactedThinking,
    /// A slash command or a bash-mode command, with what it printed.
    Command(CommandView),
    Shell(CommandView),
    /// A note Claude Code injected for the model.
    Injected(InjectedView),
    /// Claude Code's notice in the person's name.
    Notice(NoticeView),
    /// An API failure Claude Code reported as a message from Claude.
    ApiError {
        message: String,
        detail: Option<String>,
    },
    ToolCall(Box<CallRow>),
    OrphanResult {
        tool_use_id: String,
        content: ToolResultContent,
        is_error: bool,
    },
    Event(EventView),
    Compacted(Compacted),
    /// The rows this session copied from another at its start, folded into one.
    Copied(CopiedView),
    /// An entry or block cctv cannot show in words, with a badge saying why (none for a prompt
    /// that is neither text, image nor document: its raw line is all there is).
    Raw {
        badge: String,
        line_number: u32,
    },
    /// Nothing to draw: the line or block is not of the kind the item says (a thinking item
    /// without its thinking block, a result item without its result).
    Empty,
}

/// The beginning of a session that is a copy of another loaded session.
#[derive(Clone, Debug, PartialEq)]
pub struct CopiedView {
    /// The session copied, as an index into the workspace's sessions.
    pub from: usize,
    /// What that session is called.
    pub from_title: String,
    /// "This session continues …: it begins with 12 lines copied from it (40 rows, folded here)."
    pub text: String,
}

/// A tool call's header, and what its panel holds when opened.
#[derive(Clone, Debug, PartialEq)]
pub struct CallRow {
    pub call: CallView,
    /// The tool's name (for MCP tools, without the server).
    pub name: String,
    pub server: Option<String>,
    pub target: String,
    pub detail: Option<String>,
    pub hooks: usize,
    pub outcome: Outcome,
    pub pre_hooks: Vec<LineRef>,
    pub post_hooks: Vec<LineRef>,
    pub progress: Vec<LineRef>,
    /// The sub-agents the call spawned.
    pub agents: Vec<AgentSummary>,
    /// For a TodoWrite, the list the thread's TodoWrite before it wrote.
    pub previous_todos: Option<Vec<Todo>>,
    /// For a task tool, the board the thread's task calls built up to and with this one.
    pub tasks: Option<TasksBody>,
}

/// What an opened tool panel shows, in order: hooks before, the tool's body, hooks after,
/// progress.
#[derive(Clone, Debug, PartialEq)]
pub struct CallPanel {
    /// What Claude Code's own result text says happened (rejected, with the person's words).
    pub notice: Option<NoticeView>,
    /// The output was too large for the conversation: what the model saw, and what is shown.
    pub saved: Option<SavedNotice>,
    pub pre: Vec<HookView>,
    pub body: ToolBody,
    pub post: Vec<HookView>,
    pub progress: Option<ProgressView>,
}

impl CallRow {
    /// Built only when the panel opens: decoding every call's hooks up front would be wasted on
    /// the thousands a long session has.
    pub fn panel(&self, ws: &Workspace) -> CallPanel {
        let result = self.call.result.as_ref();
        CallPanel {
            notice: result.and_then(|r| Some((r.synthetic?, r))).map(|(kind, r)| NoticeView {
                kind,
                headline: headline(kind),
                feedback: match &r.content {
                    ToolResultContent::Text(text) => rejection_feedback(text).map(str::to_owned),
                    _ => None,
                },
            }),
            saved: result.and_then(|r| r.saved.as_ref()).map(|saved| saved_notice(saved, &self.call)),
            pre: self.pre_hooks.iter().filter_map(|l| hook_view(ws, *l, "PreToolUse")).collect(),
            body: match &self.tasks {
                Some(tasks) => ToolBody::Tasks(tasks.clone()),
                None => tool_body(&self.call, self.previous_todos.as_deref()),
            },
            post: self.post_hooks.iter().filter_map(|l| hook_view(ws, *l, "PostToolUse")).collect(),
            progress: progress_view(ws, &self.progress),
        }
    }
}

/// A result whose whole output Claude Code saved to a file.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedNotice {
    /// `output saved to a file (141KB)`.
    pub headline: String,
    /// What the model saw, and what the panel shows.
    pub detail: String,
}

fn saved_notice(saved: &Saved, call: &CallView) -> SavedNotice {
    let headline = match &saved.output.size {
        Some(size) => format!("output saved to a file ({size})"),
        None => "output saved to a file".to_owned(),
    };
    let file = saved.output.file_name();
    let detail = match (&saved.loaded_from, call.structured()) {
        (Some(from), _) => format!("The model saw a preview; this is the whole output, read from {from}."),
        (None, Some(ToolUseResult::Bash(b))) if !b.stdout.is_empty() => {
            "The model saw a preview; this is the whole output, as Claude Code kept it for its own display."
                .to_owned()
        }
        (None, _) => format!(
            "The model saw only this preview. The whole output is in tool-results/{file} beside the session: open the session's folder to see it."
        ),
    };
    SavedNotice { headline, detail }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AgentSummary {
    /// An index into the session's agents.
    pub agent: u32,
    pub items: usize,
    /// `Explore`, or `sub-agent` when the transcript does not say: transcript text. For a fork,
    /// a side question or a team member, that in words first (`team member alice ·
    /// general-purpose`), its name isolated.
    pub agent_type: String,
    /// What it was asked, when its call spawned several (a workflow run's agents): transcript
    /// text, shortened.
    pub task: Option<String>,
    /// `12 items · 5 tool calls · 900 tokens out`.
    pub counts: String,
    /// A link to its conversation ([`link::agent_link`]), when the agent's id is known.
    pub link: Option<String>,
    /// What it is and where it was born.
    pub label: AgentLabel,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Compacted {
    /// `Conversation compacted (auto, 150000 tokens before, 30000 after)`.
    pub header: String,
    /// `summary` entries the compaction follows.
    pub summaries: Vec<String>,
    /// The summary the conversation continues from, Markdown.
    pub summary: Option<String>,
}

/// A branch to switch to where the conversation forked.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchChoice {
    /// `None`: the latest continuation (what Claude Code resumes).
    pub branch: Option<u32>,
    pub label: String,
}

/// The row `row` of session `session`, or `None` if the row is not in it.
pub fn item_view(ws: &Workspace, session: &Session, row: Row) -> Option<ItemView> {
    let item = session.item(row.thread, row.item)?;
    let thread = session.thread(row.thread);
    let last_of_line = thread.items.get(row.item as usize + 1).is_none_or(|next| next.line != item.line);
    let forks = match row.thread {
        ThreadRef::Main if last_of_line => branch_choices(ws, session, forks_at(session, item.line)),
        _ => Vec::new(),
    };
    let id = ids::item_id(ws, item);
    let key = link::session_key(ws, session);
    let link = |anchor| Link { session: key.clone(), anchor }.fragment();
    Some(ItemView {
        link: link(Anchor::Row(id.clone())),
        turn_link: (row.copied == 0 && item.is_typed_prompt()).then(|| link(Anchor::Turn(id.clone()))),
        id,
        line: item.line,
        role: match row.copied {
            0 => role(ws, item),
            _ => Role::System,
        },
        time: crate::present::when::item_millis(ws, item),
        meta: item.meta,
        synthetic: item.synthetic,
        body: match row.copied {
            0 => item_body(ws, session, thread, row.item),
            rows => copied_view(ws, session, rows).unwrap_or(ItemBody::Empty),
        },
        stop: stop_reason(ws, thread, row.item),
        forks,
        born: session
            .born_at(ItemRef::new(row.thread, row.item))
            .filter_map(|agent| agent_summary(ws, session, agent, false))
            .collect(),
        // On the agent's first item only. With a filter hiding that item, the heading does not
        // show: the first kept row is known to `rows::rows`, not here, and would need a mark on
        // `Row` that the list's row keys (`ui::list::row_key`/`parse_key`) carry too. Left for
        // then.
        orphan: match row.thread {
            ThreadRef::Agent(agent) if row.item == 0 => {
                agents::label(ws, session, agent).filter(|label| label.orphan)
            }
            _ => None,
        },
    })
}

fn copied_view(ws: &Workspace, session: &Session, rows: u32) -> Option<ItemBody> {
    let continued = session.about.continued_from.as_ref()?;
    let from = ws.sessions.get(continued.session as usize)?;
    let from_title = session_name(from).unwrap_or_else(|| "another session".to_owned());
    let (lines, rows) = (plural(continued.copied.into(), "line"), plural(rows.into(), "row"));
    Some(ItemBody::Copied(CopiedView {
        from: continued.session as usize,
        text: format!("This session continues “{from_title}”: it begins with {lines} copied from it ({rows}, folded here)."),
        from_title,
    }))
}

fn role(ws: &Workspace, item: &Item) -> Role {
    match &item.kind {
        ItemKind::Prompt if item.synthetic => Role::Notice,
        ItemKind::Prompt if item.meta => Role::Meta,
        ItemKind::Prompt | ItemKind::Command(_) | ItemKind::Shell(_) => Role::You,
        ItemKind::Injected => Role::Meta,
        ItemKind::Text if is_api_error(ws, item) => Role::Error,
        ItemKind::Text => Role::Claude,
        ItemKind::Thinking | ItemKind::RedactedThinking => Role::Thinking,
        ItemKind::ToolCall(_) | ItemKind::OrphanResult => Role::Tool,
        ItemKind::CompactBoundary(_) => Role::Compact,
        ItemKind::Unknown | ItemKind::Malformed | ItemKind::UnknownBlock => Role::Raw,
        // Hook runs are hooks; other attachments (context for the model, plan mode, …) are
        // Claude Code's own, as system lines are.
        ItemKind::Event => match ws.entry(item.line).map(|e| &e.kind) {
            Some(EntryKind::Attachment(a)) if a.is_hook(ws.src(item.line)) => Role::Hook,
            Some(EntryKind::Progress(_)) => Role::Hook,
            _ => Role::System,
        },
    }
}

fn item_body(ws: &Workspace, session: &Session, thread: &Thread, index: u32) -> ItemBody {
    let item = &thread.items[index as usize];
    let src = ws.src(item.line);
    let Some(entry) = ws.entry(item.line) else { return ItemBody::Empty };
    let text = || entry.message().and_then(|m| m.text(src, item.block)).map(|t| t.into_owned());
    match &item.kind {
        ItemKind::Prompt if item.synthetic => match notice_view(ws, item) {
            Some(notice) => ItemBody::Notice(notice),
            None => typed(text().unwrap_or_default()),
        },
        ItemKind::Command(command) => ItemBody::Command(command_view(ws, item, command)),
        ItemKind::Shell(command) => ItemBody::Shell(command_view(ws, item, command)),
        ItemKind::Injected => ItemBody::Injected(injected_view(ws, item)),
        ItemKind::Text if is_api_error(ws, item) => api_error(ws, item, text().unwrap_or_default()),
        ItemKind::Prompt => prompt_body(ws, item, entry, text()),
        ItemKind::Text => ItemBody::Answer(text().unwrap_or_default()),
        ItemKind::Thinking => match text() {
            Some(text) if text.trim().is_empty() => ItemBody::ThinkingNotRecorded,
            Some(text) => ItemBody::Thinking { words: text.split_whitespace().count(), text },
            None => ItemBody::Empty,
        },
        ItemKind::RedactedThinking => ItemBody::RedactedThinking,
        ItemKind::ToolCall(call) => ItemBody::ToolCall(Box::new(call_row(ws, session, thread, index, call))),
        ItemKind::OrphanResult => orphan_result(ws, item),
        ItemKind::Event => ItemBody::Event(event_view(ws, item)),
        ItemKind::CompactBoundary(boundary) => ItemBody::Compacted(compacted(ws, item, boundary)),
        ItemKind::UnknownBlock => raw(ws, item, format!("unknown block: {}", unknown_block_name(ws, item))),
        ItemKind::Unknown => {
            let name =
                entry.envelope.type_name.map(|t| t.decode(src).into_owned()).unwrap_or("(no type)".into());
            raw(ws, item, format!("unknown type: {name}"))
        }
        ItemKind::Malformed => {
            let name = entry.envelope.type_name.map(|t| t.decode(src).into_owned()).unwrap_or_default();
            let error = match &entry.kind {
                EntryKind::Malformed { error } => error.as_str(),
                _ => "",
            };
            raw(ws, item, format!("{name} entry that does not fit: {error}"))
        }
    }
}

/// A prompt the person did not type as such: injected context folded under its first line, an
/// image or a document; else the typed prompt.
fn prompt_body(ws: &Workspace, item: &Item, entry: &Entry, text: Option<String>) -> ItemBody {
    let src = ws.src(item.line);
    match (text, ws.block(item).map(|b| &b.kind)) {
        (Some(text), _) if item.meta || entry.envelope.is_compact_summary => ItemBody::Folded {
            first_line: text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").chars().take(100).collect(),
            text,
        },
        (Some(text), _) => typed(text),
        (None, Some(BlockKind::Image { source: Some(s) })) => ItemBody::Image(body::image_source(src, *s)),
        (None, Some(BlockKind::Document { title, .. })) => {
            ItemBody::Document { title: title.map(|t| t.decode(src).into_owned()).unwrap_or_default() }
        }
        _ => raw(ws, item, String::new()),
    }
}

/// A tool call's row: its panel's view, the agents it spawned, and the todos or tasks it
/// changed, next to what they were before.
fn call_row(ws: &Workspace, session: &Session, thread: &Thread, index: u32, call: &ToolCall) -> CallRow {
    let item = &thread.items[index as usize];
    let view = call_view(ws, item, call);
    let (name, server) = match &view.tool {
        Tool::Mcp { server, tool } => (tool.clone(), Some(server.clone())),
        _ => (view.name.clone(), None),
    };
    let several = call.agents.len() > 1;
    let agents = call.agents.iter().filter_map(|&a| agent_summary(ws, session, a, several)).collect();
    let previous_todos = (view.tool == Tool::TodoWrite).then(|| previous_todos(ws, thread, index)).flatten();
    let tasks = (family(&view.tool) == Some(Family::Tasks)).then(|| task_board(ws, thread, index));
    CallRow {
        name,
        server,
        target: view.target(),
        detail: view.detail(),
        hooks: call.pre_hooks.len() + call.post_hooks.len(),
        outcome: view.outcome(),
        pre_hooks: call.pre_hooks.clone(),
        post_hooks: call.post_hooks.clone(),
        progress: call.progress.clone(),
        agents,
        previous_todos,
        tasks,
        call: view,
    }
}

/// A tool result whose call is not among the loaded lines.
fn orphan_result(ws: &Workspace, item: &Item) -> ItemBody {
    let src = ws.src(item.line);
    let (Some(BlockKind::ToolResult(r)) | Some(BlockKind::ServerToolResult { result: r, .. })) =
        ws.block(item).map(|b| &b.kind)
    else {
        return ItemBody::Empty;
    };
    ItemBody::OrphanResult {
        tool_use_id: r.tool_use_id.map(|i| i.decode(src).into_owned()).unwrap_or_default(),
        content: r
            .content
            .map(|c| body::tool_result_content(src, c))
            .unwrap_or(ToolResultContent::Text(String::new())),
        is_error: r.is_error,
    }
}

/// The type a block cctv does not know says it is (and why it does not fit, for a known type).
fn unknown_block_name(ws: &Workspace, item: &Item) -> String {
    let src = ws.src(item.line);
    match ws.block(item).map(|b| &b.kind) {
        Some(BlockKind::Unknown { type_name }) => {
            type_name.map(|t| t.decode(src).into_owned()).unwrap_or("not a block".into())
        }
        Some(BlockKind::Malformed { type_name, error }) => format!("{} ({error})", type_name.decode(src)),
        _ => String::new(),
    }
}

/// A compaction: how it was triggered, the tokens before and after, and the summary kept.
fn compacted(ws: &Workspace, item: &Item, boundary: &CompactBoundary) -> Compacted {
    let src = ws.src(item.line);
    let meta = match ws.entry(item.line).map(|e| &e.kind) {
        Some(EntryKind::System(s)) => s.compact.clone(),
        _ => None,
    };
    let trigger =
        meta.as_ref().and_then(|m| m.trigger).map(|t| t.decode(src).into_owned()).unwrap_or_default();
    let before =
        meta.as_ref().and_then(|m| m.pre_tokens).map(|t| format!(", {t} tokens before")).unwrap_or_default();
    let after = meta.as_ref().and_then(|m| m.post_tokens).map(|t| format!(", {t} after")).unwrap_or_default();
    let summary = boundary.summary.map(|l| {
        let Some(message) = ws.entry(l).and_then(|e| e.message()) else { return String::new() };
        let s = ws.src(l);
        match &message.content {
            crate::model::Content::Blocks(blocks) => blocks
                .iter()
                .filter_map(|b| match b.kind {
                    BlockKind::Text { text } => Some(text.decode(s).into_owned()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
            _ => message.text(s, None).map(|t| t.into_owned()).unwrap_or_default(),
        }
    });
    let summaries = boundary
        .summaries
        .iter()
        .filter_map(|l| match ws.entry(*l).map(|e| &e.kind) {
            Some(EntryKind::Summary(s)) => s.summary.map(|t| t.decode(ws.src(*l)).into_owned()),
            _ => None,
        })
        .collect();
    let header = match format!("{trigger}{before}{after}") {
        said if said.is_empty() => "Conversation compacted".to_owned(),
        said => format!("Conversation compacted ({})", said.trim_start_matches(", ")),
    };
    Compacted { header, summaries, summary }
}

/// The task board after item `index` of `thread`: every task call up to it, applied in order.
fn task_board(ws: &Workspace, thread: &Thread, index: u32) -> TasksBody {
    let mut board = TaskBoard::default();
    let mut change = String::new();
    for earlier in &thread.items[..=index as usize] {
        if let ItemKind::ToolCall(call) = &earlier.kind {
            if family(&call.tool(ws.src(earlier.line))) == Some(Family::Tasks) {
                change = board.apply(&call_view(ws, earlier, call));
            }
        }
    }
    TasksBody { change, board: board.tasks }
}

/// The list the last TodoWrite before item `index` of `thread` wrote.
fn previous_todos(ws: &Workspace, thread: &Thread, index: u32) -> Option<Vec<Todo>> {
    thread.items[..index as usize].iter().rev().find_map(|earlier| match &earlier.kind {
        ItemKind::ToolCall(call) if call.tool(ws.src(earlier.line)) == Tool::TodoWrite => {
            written_todos(&call_view(ws, earlier, call))
        }
        _ => None,
    })
}

/// A typed prompt, with the notes Claude Code appended to it split off.
fn typed(text: String) -> ItemBody {
    match user_text(&text) {
        UserText::Typed { text, injected } => ItemBody::Prompt {
            text,
            notes: injected
                .into_iter()
                .map(|n| InjectedView { label: note_label(&n.tag), text: n.body })
                .collect(),
        },
        _ => ItemBody::Prompt { text, notes: Vec::new() },
    }
}

/// A message Claude Code made up to report a failed API call (`isApiErrorMessage`).
fn is_api_error(ws: &Workspace, item: &Item) -> bool {
    matches!(ws.entry(item.line).map(|e| &e.kind), Some(EntryKind::Assistant(a)) if a.is_api_error_message)
}

fn api_error(ws: &Workspace, item: &Item, message: String) -> ItemBody {
    let src = ws.src(item.line);
    let Some(EntryKind::Assistant(a)) = ws.entry(item.line).map(|e| &e.kind) else {
        return ItemBody::ApiError { message, detail: None };
    };
    // `error` is a word ("unknown", "rate_limit"); `apiError` an object with the status.
    let detail = [a.error, a.api_error]
        .into_iter()
        .flatten()
        .map(|span| body::text(src, span))
        .filter(|t| !t.is_empty() && t != "unknown")
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(300).collect::<String>())
        .next();
    ItemBody::ApiError { message, detail }
}

/// Why the response `item` belongs to stopped, on its last row, when that is worth saying.
fn stop_reason(ws: &Workspace, thread: &Thread, index: u32) -> Option<String> {
    let item = thread.items.get(index as usize)?;
    let response = thread.responses.get(item.response? as usize)?;
    // The response's last row: on its last line, and the last block of that line.
    let next_on_same_line = thread.items.get(index as usize + 1).is_some_and(|next| next.line == item.line);
    if response.lines.last() != Some(&item.line) || next_on_same_line {
        return None;
    }
    let reason = response.stop_reason?;
    let reason = reason.decode(ws.src(item.line));
    let said = match reason.as_ref() {
        "end_turn" | "tool_use" | "stop_sequence" => return None,
        "max_tokens" => "cut off: the response reached its token limit",
        "refusal" => "stopped: the model declined to continue",
        "pause_turn" => "paused: the API paused a long turn",
        "model_context_window_exceeded" => "cut off: the context window is full",
        other => return Some(format!("stopped: {other}")),
    };
    Some(said.to_owned())
}

fn raw(ws: &Workspace, item: &Item, badge: String) -> ItemBody {
    ItemBody::Raw { badge, line_number: ws.line(item.line).number }
}

/// `several`: the call spawned more than one (a workflow run), so each says what it was given.
fn agent_summary(ws: &Workspace, session: &Session, agent: u32, several: bool) -> Option<AgentSummary> {
    let a = session.agents.get(agent as usize)?;
    let mut counts = format!(
        "{} · {} · {} out",
        plural(a.thread.items.len() as u64, "item"),
        plural(a.stats.tool_calls.values().sum::<u64>(), "tool call"),
        plural(a.stats.output_tokens, "token")
    );
    if let Some(effort) = &a.effort {
        counts.push_str(&format!(" · {effort} effort"));
    }
    if a.rebuilt {
        counts.push_str(" · rebuilt from progress lines");
    }
    let label = agents::label(ws, session, agent)?;
    let agent_type = match (&a.kind, &a.agent_type) {
        (AgentKind::Task, t) => t.clone().unwrap_or_else(|| "sub-agent".into()),
        // `fork` says again what the words say.
        (AgentKind::Fork, _) | (_, None) => label.what(),
        (_, Some(t)) => format!("{} · {t}", label.what()),
    };
    let task = several
        .then(|| a.description.clone().or_else(|| a.thread.items.first().and_then(|i| ws.item_text(i))))
        .flatten()
        .map(|t| squeeze(&t, 60));
    let link = link::agent_link(ws, session, agent).map(|l| l.fragment());
    Some(AgentSummary { agent, items: a.thread.items.len(), agent_type, task, counts, link, label })
}

fn branch_choices(ws: &Workspace, session: &Session, branches: Vec<u32>) -> Vec<BranchChoice> {
    if branches.is_empty() {
        return Vec::new();
    }
    std::iter::once(BranchChoice { branch: None, label: "latest (what Claude Code resumes)".into() })
        .chain(branches.into_iter().map(|b| {
            let first = session.branches[b as usize].thread.items.first().and_then(|i| ws.item_text(i));
            let label = first.unwrap_or_default().chars().take(60).collect::<String>();
            BranchChoice { branch: Some(b), label: format!("earlier: {label}") }
        }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{from_folder, session, workspace};
    use crate::normalize::normalize;
    use crate::present::event::Tone;

    fn views(ws: &Workspace) -> Vec<(ItemKind, ItemView)> {
        let mut out = Vec::new();
        for s in &ws.sessions {
            for (thread, items) in s.threads() {
                for (i, item) in items.items.iter().enumerate() {
                    let view =
                        item_view(ws, s, Row::new(thread, i as u32, 0)).expect("every item has a view");
                    out.push((item.kind.clone(), view));
                }
            }
        }
        out
    }

    #[test]
    fn every_row_of_a_real_session_says_who_and_what() {
        let ws = workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let views = views(&ws);
        for (kind, view) in &views {
            let ok = match (kind, &view.role, &view.body) {
                (ItemKind::Prompt, Role::You, ItemBody::Prompt { text, .. }) => !text.is_empty(),
                (ItemKind::Prompt, Role::Meta, ItemBody::Folded { .. }) => true,
                (ItemKind::Prompt, Role::Notice, ItemBody::Notice(_)) => view.synthetic,
                (ItemKind::Command(_), Role::You, ItemBody::Command(c)) => c.line.starts_with('/'),
                (ItemKind::Injected, Role::Meta, ItemBody::Injected(n)) => !n.label.is_empty(),
                (ItemKind::Text, Role::Claude, ItemBody::Answer(t)) => !t.is_empty(),
                (ItemKind::Thinking, Role::Thinking, ItemBody::Thinking { text, words }) => {
                    *words == text.split_whitespace().count() && *words > 0
                }
                (ItemKind::ToolCall(_), Role::Tool, ItemBody::ToolCall(call)) => {
                    !call.name.is_empty() && call.name == call.call.name
                }
                (ItemKind::Event, Role::System | Role::Hook, ItemBody::Event(_)) => true,
                _ => false,
            };
            assert!(ok, "{kind:?} shown as {:?} {:?}", view.role, view.body);
            // Summary lines carry no timestamp; every other line does.
            let summary = matches!(view.body, ItemBody::Event(EventView::Summary(_)));
            assert!(summary || view.time.is_some_and(|t| t > 1_700_000_000_000), "{view:?}");
        }
        assert!(views.iter().any(|(k, _)| matches!(k, ItemKind::Thinking)));
        assert!(views.iter().any(|(k, _)| matches!(k, ItemKind::ToolCall(_))));
    }

    #[test]
    fn a_real_compaction_says_what_was_kept() {
        let ws =
            workspace("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
        let compacted: Vec<Compacted> = views(&ws)
            .into_iter()
            .filter_map(|(_, v)| match v.body {
                ItemBody::Compacted(c) => Some(c),
                _ => None,
            })
            .collect();
        assert_eq!(compacted.len(), 1);
        assert!(compacted[0].header.starts_with("Conversation compacted (auto"), "{}", compacted[0].header);
        assert!(compacted[0].summary.as_deref().is_some_and(|s| s.len() > 100));
    }

    #[test]
    fn real_api_errors_read_as_errors_with_their_retry() {
        let ws = workspace("M-Thisness__M-Claude/Archives/7fcdbdcd-c55c-4463-b1d1-3a8d85864ad0.jsonl");
        let errors: Vec<String> = views(&ws)
            .into_iter()
            .filter_map(|(_, v)| match v.body {
                ItemBody::Event(EventView::Line { text, tone: Tone::Error, .. }) => Some(text),
                _ => None,
            })
            .collect();
        assert_eq!(errors.len(), 30, "the fixture has 30 api_error lines");
        assert!(errors.iter().all(|e| e.starts_with("API error, retry ")), "{errors:#?}");
    }

    #[test]
    fn a_sub_agent_call_says_what_it_spawned() {
        let ws = normalize(session(
            "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
        ));
        let agents: Vec<AgentSummary> = views(&ws)
            .into_iter()
            .filter_map(|(_, v)| match v.body {
                ItemBody::ToolCall(call) => call.agents.first().cloned(),
                _ => None,
            })
            .collect();
        assert_eq!(agents.len(), 5);
        assert!(agents.iter().all(|a| a.items > 0 && a.counts.starts_with(&plural(a.items as u64, "item"))));
    }

    #[test]
    fn a_sub_agent_says_the_effort_it_ran_at() {
        // palimondo/fortress (CC 2.1.2xx, Claude Code on the web): sub-agent lines say `effort`.
        let ws = normalize(from_folder(
            "palimondo__fortress/projects/-home-user-fortress",
            &["bdff267d-67dc-5bb9-b970-8c3dfaa634b6/subagents/agent-a6a81729e8512ac72.jsonl"],
        ));
        let session = &ws.sessions[0];
        assert_eq!(session.agents[0].effort.as_deref(), Some("high"));
        let summary = agent_summary(&ws, session, 0, false).unwrap();
        assert!(summary.counts.contains(" · high effort"), "{}", summary.counts);
    }
}
