//! Typed entries: one per JSON line, by its `type`.
//!
//! The format is undocumented and changes every release, so nothing here is fatal: a `type` cctv
//! does not know is kept as [`EntryKind::Unknown`], a known one whose payload no longer fits is
//! kept as [`EntryKind::Malformed`] with the typed error, and either way the raw line is still
//! there to show.

use std::borrow::Cow;

use super::content::{Message, Usage};
use super::span::{JsonStr, Span};

/// The fields most entries share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Envelope {
    pub type_name: Option<JsonStr>,
    pub uuid: Option<JsonStr>,
    pub parent_uuid: Option<JsonStr>,
    /// Where a compaction boundary logically continues from (its `parentUuid` is null).
    pub logical_parent_uuid: Option<JsonStr>,
    pub session_id: Option<JsonStr>,
    pub timestamp: Option<JsonStr>,
    /// Set on sub-agent lines.
    pub agent_id: Option<JsonStr>,
    pub cwd: Option<JsonStr>,
    pub version: Option<JsonStr>,
    pub git_branch: Option<JsonStr>,
    pub slug: Option<JsonStr>,
    pub is_sidechain: bool,
    /// Injected for the model, not typed by the user (skill expansions, reminders).
    pub is_meta: bool,
    pub is_visible_in_transcript_only: bool,
    pub is_compact_summary: bool,
}

/// A line that parsed as a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub envelope: Envelope,
    pub kind: EntryKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EntryKind {
    User(UserEntry),
    Assistant(AssistantEntry),
    System(SystemEntry),
    Summary(SummaryEntry),
    Progress(ProgressEntry),
    Attachment(AttachmentEntry),
    FileHistorySnapshot(FileHistorySnapshotEntry),
    QueueOperation(QueueOperationEntry),
    PrLink(PrLinkEntry),
    Tombstone(TombstoneEntry),
    /// `fork-context-ref`: the first line of a fork agent's file, naming the parent line it forked at.
    ForkContextRef(ForkContextRefEntry),
    /// `permission-mode`, `last-prompt`, `ai-title`, `custom-title`, `agent-name`, `mode`.
    Metadata(MetadataEntry),
    /// A `type` cctv does not know, or none at all.
    Unknown,
    /// A known `type` whose payload does not fit; `error` is what did not fit.
    Malformed {
        error: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct UserEntry {
    pub message: Message,
    /// The structured result Claude Code keeps for its UI next to a `tool_result`. Raw; see
    /// [`crate::model::tool_result`].
    pub tool_use_result: Option<Span>,
    pub source_tool_assistant_uuid: Option<JsonStr>,
    pub source_tool_use_id: Option<JsonStr>,
    pub permission_mode: Option<JsonStr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AssistantEntry {
    pub message: Message,
    pub request_id: Option<JsonStr>,
    /// A message Claude Code made up to report an API failure (model `<synthetic>`).
    pub is_api_error_message: bool,
    /// Raw `apiError` / `error` values, whatever their shape.
    pub api_error: Option<Span>,
    pub error: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SystemEntry {
    pub subtype: SystemSubtype,
    /// Raw `content` (a string in every version seen).
    pub content: Option<Span>,
    pub level: Option<JsonStr>,
    pub tool_use_id: Option<JsonStr>,
    pub duration_ms: Option<f64>,
    pub message_count: Option<u64>,
    pub compact: Option<CompactMetadata>,
    pub retry: Option<Retry>,
    pub hook_count: Option<u64>,
    pub prevented_continuation: bool,
    /// Raw `error` (api_error lines).
    pub error: Option<Span>,
}

/// `system` subtypes. Lines from before subtypes existed are [`SystemSubtype::Legacy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemSubtype {
    CompactBoundary,
    MicrocompactBoundary,
    TurnDuration,
    ApiError,
    LocalCommand,
    Informational,
    StopHookSummary,
    AwaySummary,
    MemorySaved,
    PermissionRetry,
    BridgeStatus,
    ApiMetrics,
    ScheduledTaskFire,
    AgentsKilled,
    Legacy,
    /// A subtype cctv does not know; the name is in the entry's `subtype` span.
    Unknown(JsonStr),
}

impl SystemSubtype {
    pub(crate) fn from_name(name: &str, span: JsonStr) -> SystemSubtype {
        match name {
            "compact_boundary" => SystemSubtype::CompactBoundary,
            "microcompact_boundary" => SystemSubtype::MicrocompactBoundary,
            "turn_duration" => SystemSubtype::TurnDuration,
            "api_error" => SystemSubtype::ApiError,
            "local_command" => SystemSubtype::LocalCommand,
            "informational" => SystemSubtype::Informational,
            "stop_hook_summary" => SystemSubtype::StopHookSummary,
            "away_summary" => SystemSubtype::AwaySummary,
            "memory_saved" => SystemSubtype::MemorySaved,
            "permission_retry" => SystemSubtype::PermissionRetry,
            "bridge_status" => SystemSubtype::BridgeStatus,
            "api_metrics" => SystemSubtype::ApiMetrics,
            "scheduled_task_fire" => SystemSubtype::ScheduledTaskFire,
            "agents_killed" => SystemSubtype::AgentsKilled,
            _ => SystemSubtype::Unknown(span),
        }
    }

    /// The name as written, for census and badges.
    pub fn name<'s>(&self, src: &'s [u8]) -> &'s str {
        match self {
            SystemSubtype::CompactBoundary => "compact_boundary",
            SystemSubtype::MicrocompactBoundary => "microcompact_boundary",
            SystemSubtype::TurnDuration => "turn_duration",
            SystemSubtype::ApiError => "api_error",
            SystemSubtype::LocalCommand => "local_command",
            SystemSubtype::Informational => "informational",
            SystemSubtype::StopHookSummary => "stop_hook_summary",
            SystemSubtype::AwaySummary => "away_summary",
            SystemSubtype::MemorySaved => "memory_saved",
            SystemSubtype::PermissionRetry => "permission_retry",
            SystemSubtype::BridgeStatus => "bridge_status",
            SystemSubtype::ApiMetrics => "api_metrics",
            SystemSubtype::ScheduledTaskFire => "scheduled_task_fire",
            SystemSubtype::AgentsKilled => "agents_killed",
            SystemSubtype::Legacy => "",
            SystemSubtype::Unknown(name) => name.raw(src),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompactMetadata {
    /// `auto` or `manual`.
    pub trigger: Option<JsonStr>,
    pub pre_tokens: Option<u64>,
    pub post_tokens: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Retry {
    pub attempt: Option<u64>,
    pub max_retries: Option<u64>,
    pub retry_in_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SummaryEntry {
    pub summary: Option<JsonStr>,
    /// The last message the summary covers.
    pub leaf_uuid: Option<JsonStr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProgressEntry {
    pub kind: ProgressKind,
    pub tool_use_id: Option<JsonStr>,
    /// The tool call this progress belongs to.
    pub parent_tool_use_id: Option<JsonStr>,
    pub hook_event: Option<JsonStr>,
    pub hook_name: Option<JsonStr>,
    pub command: Option<JsonStr>,
    pub agent_id: Option<JsonStr>,
    /// Raw bodies, by kind: a sub-agent's prompt and message, bash output so far, the search query.
    pub prompt: Option<Span>,
    pub message: Option<Span>,
    pub output: Option<Span>,
    pub full_output: Option<Span>,
    pub query: Option<Span>,
    pub task_description: Option<Span>,
    pub elapsed_seconds: Option<f64>,
    pub total_lines: Option<u64>,
    pub result_count: Option<u64>,
    pub server_name: Option<JsonStr>,
    pub tool_name: Option<JsonStr>,
    pub status: Option<JsonStr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressKind {
    BashProgress,
    AgentProgress,
    HookProgress,
    QueryUpdate,
    SearchResultsReceived,
    WaitingForTask,
    McpProgress,
    /// A `data.type` cctv does not know (or none).
    Unknown(Option<JsonStr>),
}

impl ProgressKind {
    pub(crate) fn from_name(name: &str, span: JsonStr) -> ProgressKind {
        match name {
            "bash_progress" => ProgressKind::BashProgress,
            "agent_progress" => ProgressKind::AgentProgress,
            "hook_progress" => ProgressKind::HookProgress,
            "query_update" => ProgressKind::QueryUpdate,
            "search_results_received" => ProgressKind::SearchResultsReceived,
            "waiting_for_task" => ProgressKind::WaitingForTask,
            "mcp_progress" => ProgressKind::McpProgress,
            _ => ProgressKind::Unknown(Some(span)),
        }
    }

    pub fn name<'s>(&self, src: &'s [u8]) -> &'s str {
        match self {
            ProgressKind::BashProgress => "bash_progress",
            ProgressKind::AgentProgress => "agent_progress",
            ProgressKind::HookProgress => "hook_progress",
            ProgressKind::QueryUpdate => "query_update",
            ProgressKind::SearchResultsReceived => "search_results_received",
            ProgressKind::WaitingForTask => "waiting_for_task",
            ProgressKind::McpProgress => "mcp_progress",
            ProgressKind::Unknown(name) => name.map(|n| n.raw(src)).unwrap_or(""),
        }
    }
}

/// An `attachment` line. Attachment kinds come and go between releases, so the kind stays open
/// (its name) and only what hooks share is typed.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentEntry {
    /// `attachment.type`: `hook_success`, `hook_blocking_error`, `queued_command`, ...
    pub attachment_type: Option<JsonStr>,
    pub hook: HookFields,
    /// The raw `attachment` object.
    pub attachment: Span,
}

impl AttachmentEntry {
    pub fn is_hook(&self, src: &[u8]) -> bool {
        self.attachment_type.is_some_and(|t| t.raw(src).starts_with("hook_"))
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct HookFields {
    /// `PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Stop`, ...
    pub hook_event: Option<JsonStr>,
    pub hook_name: Option<JsonStr>,
    /// The tool call the hook ran for (for tool hooks).
    pub tool_use_id: Option<JsonStr>,
    pub command: Option<JsonStr>,
    pub exit_code: Option<i64>,
    pub duration_ms: Option<f64>,
    pub stdout: Option<Span>,
    pub stderr: Option<Span>,
    pub content: Option<Span>,
    pub blocking_error: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FileHistorySnapshotEntry {
    pub message_id: Option<JsonStr>,
    pub is_snapshot_update: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueOperationEntry {
    /// `enqueue`, `dequeue`, `remove`, `popAll`.
    pub operation: Option<JsonStr>,
    /// Raw `content`: the queued prompt, a string or a list of blocks.
    pub content: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PrLinkEntry {
    pub number: Option<u64>,
    pub url: Option<JsonStr>,
    pub repository: Option<JsonStr>,
}

/// `fork-context-ref`: a fork agent starts from its parent's whole conversation, which its file
/// does not copy but names: the parent session and the last line of it the fork was given.
#[derive(Clone, Debug, PartialEq)]
pub struct ForkContextRefEntry {
    pub parent_session_id: Option<JsonStr>,
    pub parent_last_uuid: Option<JsonStr>,
    /// How many messages of the parent's conversation the fork was given.
    pub context_length: Option<u64>,
}

/// A control line that withdraws a message already written (streaming fallback).
#[derive(Clone, Debug, PartialEq)]
pub struct TombstoneEntry {
    /// The uuid of the withdrawn message (`message.uuid`).
    pub target: Option<JsonStr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataKind {
    PermissionMode,
    LastPrompt,
    AiTitle,
    CustomTitle,
    AgentName,
    Mode,
    /// The colour the agent is shown in (`red`, `blue`, …).
    AgentColor,
    /// The agent definition the session runs as (`--agent`).
    AgentSetting,
    /// Connected to claude.ai (remote control); an empty id when disconnected.
    BridgeSession,
    /// This session went on in another one (a background session took over): its id.
    ContinuedIn,
    AtisLatch,
    CostState,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MetadataEntry {
    pub kind: MetadataKind,
    pub value: Option<JsonStr>,
}

impl Entry {
    /// The API message of a user or assistant line.
    pub fn message(&self) -> Option<&Message> {
        match &self.kind {
            EntryKind::User(u) => Some(&u.message),
            EntryKind::Assistant(a) => Some(&a.message),
            _ => None,
        }
    }

    /// The entry's `type`, and the kind inside it where the type has kinds (a system line's
    /// subtype, a progress line's `data.type`, an attachment's `attachment.type`): what census,
    /// outlines, exports and the JavaScript API name a line by. A legacy system line (from before
    /// subtypes) has none.
    pub fn label<'s>(&self, src: &'s [u8]) -> (Cow<'s, str>, Option<Cow<'s, str>>) {
        let type_name = self.envelope.type_name.map(|t| t.decode(src)).unwrap_or_default();
        let subtype = match &self.kind {
            EntryKind::System(s) => Some(Cow::Borrowed(s.subtype.name(src))).filter(|s| !s.is_empty()),
            EntryKind::Progress(p) => Some(Cow::Borrowed(p.kind.name(src))),
            EntryKind::Attachment(a) => Some(a.attachment_type.map(|t| t.decode(src)).unwrap_or_default()),
            _ => None,
        };
        (type_name, subtype)
    }
}

impl EntryKind {
    /// Usage of an assistant entry, if any.
    pub fn usage(&self) -> Option<Usage> {
        match self {
            EntryKind::Assistant(a) => a.message.usage,
            _ => None,
        }
    }
}
