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
    /// `permission-mode`, `last-prompt`, `ai-title`, `custom-title`, `agent-name`, `mode`, `tag`, …:
    /// what a session is, the newest line of each kind winning.
    Metadata(MetadataEntry),
    /// A line that is a row of the conversation though not a message ([`RecordKind`]).
    Record(RecordEntry),
    /// Claude Code's own bookkeeping ([`Bookkeeping`]): never a row, counted with its reason.
    Bookkeeping(Bookkeeping),
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

/// Declares [`SystemSubtype`] from the one list of subtype names: its variants, `from_name` and
/// `name` (as `tools!` does for tools). The names are those Claude Code 2.1.332 builds
/// (`/work/shared/CLAUDE_CODE_FORMAT.md`), `microcompact_boundary` (real transcripts) and
/// `api_metrics` (older versions).
macro_rules! system_subtypes {
    ($($variant:ident = $name:literal,)*) => {
        /// `system` subtypes. Lines from before subtypes existed are [`SystemSubtype::Legacy`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum SystemSubtype {
            $($variant,)*
            Legacy,
            /// A subtype cctv does not know; the name is in the entry's `subtype` span.
            Unknown(JsonStr),
        }

        impl SystemSubtype {
            /// Every subtype name cctv reads.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            pub(crate) fn from_name(name: &str, span: JsonStr) -> SystemSubtype {
                match name {
                    $($name => SystemSubtype::$variant,)*
                    _ => SystemSubtype::Unknown(span),
                }
            }

            /// The name as written, for census and badges.
            pub fn name<'s>(&self, src: &'s [u8]) -> &'s str {
                match self {
                    $(SystemSubtype::$variant => $name,)*
                    SystemSubtype::Legacy => "",
                    SystemSubtype::Unknown(name) => name.raw(src),
                }
            }
        }
    };
}

system_subtypes! {
    AgentsKilled = "agents_killed",
    ApiError = "api_error",
    ApiMetrics = "api_metrics",
    ApiRetry = "api_retry",
    AwaySummary = "away_summary",
    BackgroundTasksChanged = "background_tasks_changed",
    BridgeState = "bridge_state",
    BridgeStatus = "bridge_status",
    CheckpointDone = "checkpoint_done",
    CloudSessionDelta = "cloud_session_delta",
    CloudSessionStatus = "cloud_session_status",
    CodeChangePublished = "code_change_published",
    CommandsChanged = "commands_changed",
    CompactBoundary = "compact_boundary",
    ControlRequestProgress = "control_request_progress",
    DevIntent = "dev_intent",
    ElicitationComplete = "elicitation_complete",
    FeedbackDraftQueued = "feedback_draft_queued",
    FileAttachmentsMissing = "file_attachments_missing",
    FileSnapshot = "file_snapshot",
    HookProgress = "hook_progress",
    HookResponse = "hook_response",
    HookStarted = "hook_started",
    Informational = "informational",
    InheritedAsksSettled = "inherited_asks_settled",
    Init = "init",
    InstructionSizeWarning = "instruction_size_warning",
    LateAllowNotRun = "late_allow_not_run",
    LocalCommand = "local_command",
    MemoryRecall = "memory_recall",
    MemorySaved = "memory_saved",
    MicrocompactBoundary = "microcompact_boundary",
    MirrorError = "mirror_error",
    ModelConsentFallback = "model_consent_fallback",
    ModelFallback = "model_fallback",
    ModelRefusalFallback = "model_refusal_fallback",
    ModelRefusalNoFallback = "model_refusal_no_fallback",
    Notification = "notification",
    PeerMessageHold = "peer_message_hold",
    PerTurnEffortChanged = "per_turn_effort_changed",
    PermissionCheckStatus = "permission_check_status",
    PermissionDenied = "permission_denied",
    PermissionRetry = "permission_retry",
    Placed = "placed",
    PluginInstall = "plugin_install",
    PostTurnSummary = "post_turn_summary",
    RewindStandIn = "rewind_stand_in",
    ScheduledTaskFire = "scheduled_task_fire",
    SessionMetadata = "session_metadata",
    SessionStateChanged = "session_state_changed",
    SessionTitleChanged = "session_title_changed",
    SessionWritesLost = "session_writes_lost",
    ShellCwd = "shell_cwd",
    StartFolder = "start_folder",
    Status = "status",
    StopHookSummary = "stop_hook_summary",
    TaskNotification = "task_notification",
    TaskProgress = "task_progress",
    TaskStarted = "task_started",
    TaskSummary = "task_summary",
    TaskUpdated = "task_updated",
    ThinkingTokens = "thinking_tokens",
    ToolHostResult = "tool_host_result",
    TurnBeganBeforeInit = "turn_began_before_init",
    TurnDuration = "turn_duration",
    TurnHandoffAvailable = "turn_handoff_available",
    TurnPreempted = "turn_preempted",
    TurnStarting = "turn_starting",
    UiFocus = "ui_focus",
    UiInvalidate = "ui_invalidate",
    UiLog = "ui_log",
    UiNotify = "ui_notify",
    UiNotifyCancel = "ui_notify_cancel",
    UiPanes = "ui_panes",
    UiPlaced = "ui_placed",
    UiScroll = "ui_scroll",
    UiStatus = "ui_status",
    UiToast = "ui_toast",
    VcsStateChanged = "vcs_state_changed",
    VoiceCallTalk = "voice_call_talk",
    WorkerShuttingDown = "worker_shutting_down",
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

/// Declares [`ProgressKind`] from the one list of progress `data.type`s (Claude Code 2.1.332,
/// `/work/shared/CLAUDE_CODE_FORMAT.md`): its variants, `from_name` and `name`.
macro_rules! progress_kinds {
    ($($variant:ident = $name:literal,)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ProgressKind {
            $($variant,)*
            /// A `data.type` cctv does not know (or none).
            Unknown(Option<JsonStr>),
        }

        impl ProgressKind {
            /// Every progress type cctv reads.
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            pub(crate) fn from_name(name: &str, span: JsonStr) -> ProgressKind {
                match name {
                    $($name => ProgressKind::$variant,)*
                    _ => ProgressKind::Unknown(Some(span)),
                }
            }

            pub fn name<'s>(&self, src: &'s [u8]) -> &'s str {
                match self {
                    $(ProgressKind::$variant => $name,)*
                    ProgressKind::Unknown(name) => name.map(|n| n.raw(src)).unwrap_or(""),
                }
            }
        }
    };
}

progress_kinds! {
    AgentApiRetry = "agent_api_retry",
    AgentProgress = "agent_progress",
    BashProgress = "bash_progress",
    ConnectorFileProgress = "connector_file_progress",
    HookProgress = "hook_progress",
    McpProgress = "mcp_progress",
    PowershellProgress = "powershell_progress",
    QueryUpdate = "query_update",
    ReplToolCall = "repl_tool_call",
    SearchResultsReceived = "search_results_received",
    SearchRetry = "search_retry",
    ToolHeartbeat = "tool_heartbeat",
    WaitingForTask = "waiting_for_task",
    WorkflowAgent = "workflow_agent",
    WorkflowLog = "workflow_log",
    WorkflowPhase = "workflow_phase",
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
    /// The tag the person gave the session (`/tag`); an empty tag clears it.
    Tag,
    /// The session was moved to another working directory (`relocatedCwd`).
    Relocated,
    /// The model ended the conversation itself (no value).
    EndedByModel,
    /// The session this one was derived from; its fields are read from the line when shown.
    DerivedFrom,
}

/// Lines that are rows although they are not messages. Their fields are read from the line when
/// the row is shown; `value` is what normalize needs before that.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordEntry {
    pub kind: RecordKind,
    /// `worktree-state`: the raw `worktreeSession` (an object, or `null` once the worktree is left).
    pub value: Option<Span>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// `frame-link`: a page the session published (an artifact), by its path and link.
    FrameLink,
    /// `content-replacement`: tool outputs replaced in what the model sees (kept on disk).
    ContentReplacement,
    /// `memory-mode`: how the session uses memory, from this line on.
    MemoryMode,
    /// `worktree-state`: the worktree the session works in, or none. Re-written with the other
    /// session metadata, so only a change is a row.
    WorktreeState,
}

/// Claude Code's bookkeeping: lines it keeps to resume, rewind, attribute or bill a session. None
/// is part of the conversation; each is counted in the accounting with the reason in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bookkeeping {
    /// `file-history-delta`: one file's backup, for rewinding edits.
    FileHistoryDelta,
    /// `api-request`, `api-request-shape`, `api-request-blob`, `api-request-resumed`: the requests
    /// sent to the API, kept so a resumed session sends the same.
    ApiRequest,
    /// `data-flow-records`, `data-flow-incomplete`: where data in the context came from.
    DataFlow,
    /// `resume-head-vouch`: which line a resume may continue from.
    ResumeHead,
    /// `attribution-snapshot`: which changes Claude made, for commit attribution.
    Attribution,
    /// `isolation-latch`, `session-owner`, `dev-mods`, `history-suppression`: switches Claude Code
    /// holds for the session.
    Latch,
    /// `tools-used`: the tools the session has used, for the next start.
    ToolsUsed,
    /// `artifact-comment-monitor`, `artifact-autoreact-ledger`: published pages watched for comments.
    ArtifactWatch,
    /// `observer-ref`: a session observing this one.
    ObserverRef,
}

impl Bookkeeping {
    /// The bookkeeping a line of `type_name` is, if it is.
    pub fn of(type_name: &str) -> Option<Bookkeeping> {
        Some(match type_name {
            "file-history-delta" => Bookkeeping::FileHistoryDelta,
            "api-request" | "api-request-shape" | "api-request-blob" | "api-request-resumed" => {
                Bookkeeping::ApiRequest
            }
            "data-flow-records" | "data-flow-incomplete" => Bookkeeping::DataFlow,
            "resume-head-vouch" => Bookkeeping::ResumeHead,
            "attribution-snapshot" => Bookkeeping::Attribution,
            "isolation-latch" | "session-owner" | "dev-mods" | "history-suppression" => Bookkeeping::Latch,
            "tools-used" => Bookkeeping::ToolsUsed,
            "artifact-comment-monitor" | "artifact-autoreact-ledger" => Bookkeeping::ArtifactWatch,
            "observer-ref" => Bookkeeping::ObserverRef,
            _ => return None,
        })
    }
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
