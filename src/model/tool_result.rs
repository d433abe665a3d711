//! `toolUseResult`: the structured result Claude Code keeps next to a `tool_result` for its UI.
//!
//! Decoded on demand, typed for the tools cctv renders specially. The shape is picked by the
//! tool's name when the call is known, else by the result's fields. A result that does not fit
//! its tool's shape stays as JSON together with the error, never dropped.

use serde::Deserialize;
use serde_json::Value;

use super::span::Span;
use super::tool::Tool;

#[derive(Clone, Debug, PartialEq)]
pub enum ToolUseResult {
    Read(ReadResult),
    Edit(EditResult),
    MultiEdit(MultiEditResult),
    Write(WriteResult),
    Bash(BashResult),
    Glob(GlobResult),
    Grep(GrepResult),
    TodoWrite(TodoWriteResult),
    Task(TaskResult),
    WebSearch(WebSearchResult),
    WebFetch(WebFetchResult),
    /// BashOutput (KillShell's result is a message, kept as `Other`).
    ShellOutput(ShellOutputResult),
    TaskOutput(TaskOutputResult),
    SendMessage(SendMessageResult),
    ToolSearch(ToolSearchResult),
    Workflow(WorkflowResult),
    EnterWorktree(EnterWorktreeResult),
    ExitWorktree(ExitWorktreeResult),
    PushNotification(PushNotificationResult),
    ReadNotifications(ReadNotificationsResult),
    ReportFindings(ReportFindingsResult),
    ReadMcpResource(McpResourceResult),
    ReadMcpResourceDir(McpResourceDirResult),
    /// A plain string: errors and rejections are written this way.
    Text(String),
    /// A list (MCP tools return content blocks).
    List(Vec<Value>),
    /// Any other shape; `error` says why a typed shape did not fit, if one was expected.
    Other {
        value: Value,
        error: Option<String>,
    },
}

/// One hunk of a unified diff, as Claude Code stores it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Hunk {
    pub old_start: u64,
    pub old_lines: u64,
    pub new_start: u64,
    pub new_lines: u64,
    /// Lines prefixed with ` `, `-` or `+`.
    pub lines: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReadResult {
    /// `text`, `image`, `notebook`, `pdf`.
    #[serde(rename = "type")]
    pub kind: String,
    pub file: ReadFile,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReadFile {
    pub file_path: String,
    pub content: String,
    pub num_lines: u64,
    pub start_line: u64,
    pub total_lines: u64,
    /// Images read with Read.
    pub base64: Option<String>,
    #[serde(rename = "type")]
    pub media_type: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EditResult {
    pub file_path: String,
    pub old_string: String,
    pub new_string: String,
    pub original_file: Option<String>,
    pub structured_patch: Vec<Hunk>,
    pub user_modified: bool,
    pub replace_all: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MultiEditResult {
    pub file_path: String,
    pub edits: Vec<MultiEditItem>,
    pub original_file_contents: Option<String>,
    pub structured_patch: Vec<Hunk>,
    pub user_modified: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct MultiEditItem {
    pub old_string: String,
    pub new_string: String,
    pub replace_all: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WriteResult {
    /// `create` or `update`.
    #[serde(rename = "type")]
    pub kind: String,
    pub file_path: String,
    pub content: String,
    pub structured_patch: Vec<Hunk>,
    pub original_file: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BashResult {
    pub stdout: String,
    pub stderr: String,
    pub interrupted: bool,
    pub is_image: bool,
    pub no_output_expected: Option<bool>,
    pub background_task_id: Option<String>,
    pub return_code_interpretation: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GlobResult {
    pub filenames: Vec<String>,
    pub duration_ms: Option<f64>,
    pub num_files: u64,
    pub truncated: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GrepResult {
    /// `files_with_matches`, `content` or `count`.
    pub mode: Option<String>,
    pub filenames: Vec<String>,
    pub num_files: u64,
    pub content: Option<String>,
    pub num_lines: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TodoWriteResult {
    pub old_todos: Vec<Todo>,
    pub new_todos: Vec<Todo>,
}

/// A todo item. Old versions had `id` and `priority`, newer ones `activeForm`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Todo {
    pub content: String,
    /// `pending`, `in_progress`, `completed`.
    pub status: String,
    pub active_form: Option<String>,
    pub id: Option<String>,
    pub priority: Option<String>,
}

impl Todo {
    /// Reads a list of todos one by one, so one broken item (a bare string, seen in real files)
    /// costs only itself: it is kept with its JSON as content and an empty status.
    pub fn list(value: &Value) -> Vec<Todo> {
        let Some(items) = value.as_array() else { return Vec::new() };
        items
            .iter()
            .map(|item| {
                Todo::deserialize(item).unwrap_or_else(|_| Todo {
                    content: match item {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    },
                    ..Todo::default()
                })
            })
            .collect()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TaskResult {
    /// `completed`, `async_launched`, ...
    pub status: Option<String>,
    pub prompt: Option<String>,
    pub agent_id: Option<String>,
    pub agent_type: Option<String>,
    pub description: Option<String>,
    /// The sub-agent's final answer, as content blocks.
    pub content: Vec<Value>,
    pub total_duration_ms: Option<f64>,
    pub total_tokens: Option<u64>,
    pub total_tool_use_count: Option<u64>,
    pub is_async: Option<bool>,
    pub output_file: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WebSearchResult {
    pub query: String,
    /// Mixed: link lists (`{tool_use_id, content: [{title, url}]}`) and text.
    pub results: Vec<Value>,
    pub duration_seconds: Option<f64>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WebFetchResult {
    pub url: String,
    pub code: Option<u64>,
    pub code_text: Option<String>,
    pub bytes: Option<u64>,
    pub result: String,
    pub duration_ms: Option<f64>,
}

/// BashOutput: what a background shell has printed so far.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ShellOutputResult {
    pub shell_id: String,
    pub command: String,
    /// `running`, `completed`, `failed`, `killed`.
    pub status: String,
    pub exit_code: Option<i64>,
    pub stdout: String,
    pub stderr: String,
}

/// TaskOutput: a background task (a shell or a sub-agent) and what it has printed so far.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TaskOutputResult {
    /// `success`, `timeout` (the wait ended while the task still ran), `not_ready`.
    pub retrieval_status: Option<String>,
    pub task: BackgroundTask,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct BackgroundTask {
    pub task_id: String,
    /// `local_bash`, `local_agent`, ...
    pub task_type: Option<String>,
    pub status: Option<String>,
    pub description: Option<String>,
    pub output: String,
    #[serde(rename = "exitCode")]
    pub exit_code: Option<i64>,
}

/// SendMessage: a message from one agent of a team to another, and where it was delivered.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SendMessageResult {
    pub success: Option<bool>,
    /// "Message sent to alice's inbox".
    pub message: Option<String>,
    pub routing: Option<Routing>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Routing {
    pub sender: Option<String>,
    /// `@alice`, or `*` for everyone.
    pub target: Option<String>,
    pub summary: Option<String>,
    pub content: Option<String>,
}

/// ToolSearch: the deferred tools a search loaded for the model.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ToolSearchResult {
    pub query: String,
    pub matches: Vec<String>,
    pub total_deferred_tools: Option<u64>,
}

/// Workflow: a run started in the background (its agents' files are under
/// `subagents/workflows/<runId>/`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkflowResult {
    /// `async_launched`, `remote_launched`.
    pub status: Option<String>,
    pub task_id: Option<String>,
    pub workflow_name: Option<String>,
    pub run_id: Option<String>,
    pub summary: Option<String>,
    pub error: Option<String>,
    pub warning: Option<String>,
}

/// EnterWorktree: the worktree the session moved into.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnterWorktreeResult {
    pub worktree_path: String,
    pub worktree_branch: Option<String>,
    pub message: Option<String>,
}

/// ExitWorktree: the worktree the session left, and whether it was kept or removed.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExitWorktreeResult {
    /// `keep` or `remove`.
    pub action: String,
    /// Where the session went back to.
    pub original_cwd: Option<String>,
    pub worktree_path: String,
    pub worktree_branch: Option<String>,
    /// Uncommitted files and unmerged commits a removal threw away.
    pub discarded_files: Option<u64>,
    pub discarded_commits: Option<u64>,
    pub message: Option<String>,
}

/// PushNotification: the message, and whether it reached the person.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PushNotificationResult {
    pub message: String,
    /// Sent to the person's phone.
    pub push_sent: Option<bool>,
    /// Shown on this computer.
    pub local_sent: Option<bool>,
    /// Why it was not sent: `config_off`, `user_present`, `no_transport`.
    pub disabled_reason: Option<String>,
    pub sent_at: Option<String>,
}

/// ReadNotifications: the notifications the call took off the session's queue.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ReadNotificationsResult {
    pub notifications: Vec<Notification>,
    /// Still queued after this call.
    pub remaining: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Notification {
    /// `github_webhook`, `trigger_fire`, `mcp_send_message`, ….
    pub origin: String,
    pub queued_at: Option<String>,
    pub content: String,
}

/// ReportFindings: a review's findings, most severe first.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ReportFindingsResult {
    pub count: Option<u64>,
    /// The effort the review ran at: `low` … `max`.
    pub level: Option<String>,
    pub findings: Vec<Finding>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Finding {
    pub file: String,
    pub line: Option<u64>,
    pub summary: String,
    pub failure_scenario: Option<String>,
    pub category: Option<String>,
    /// `important`, `pre_existing`, `nit`.
    pub severity: Option<String>,
    /// `CONFIRMED`, `PLAUSIBLE`: set when a verify pass ran.
    pub verdict: Option<String>,
    /// `fixed`, `skipped`, `no_change_needed`: set when reported again after fixing.
    pub outcome: Option<String>,
}

/// ReadMcpResource: what an MCP server's resource held.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct McpResourceResult {
    pub contents: Vec<McpResourceContent>,
    pub error: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct McpResourceContent {
    pub uri: String,
    pub mime_type: Option<String>,
    pub text: Option<String>,
    /// Where a binary content was saved, in place of its text.
    pub blob_saved_to: Option<String>,
}

/// ReadMcpResourceDir: the resources a directory resource holds.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct McpResourceDirResult {
    pub resources: Vec<McpResourceEntry>,
    pub error: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct McpResourceEntry {
    pub uri: String,
    pub name: String,
    /// `inode/directory` for a subdirectory.
    pub mime_type: Option<String>,
}

/// Decodes the `toolUseResult` at `span`, for a call of `tool` if known.
pub fn decode(src: &[u8], span: Span, tool: Option<&Tool>) -> ToolUseResult {
    // Straight into the tool's type where it has one: a `Value` first was a second pass and a
    // copy of every string (an Edit's whole file before it, a Read's file), most of the time
    // the Overview's replay of the files changed took. What does not fit is read the long way,
    // which says why. Only an object: serde reads a struct from an array too, by position, where
    // the long way keeps an array a list.
    let object = span.bytes(src).iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if let Some(shape) = tool.and_then(shape_of_tool).filter(|&s| s != Shape::TodoWrite && object) {
        let mut from = serde_json::Deserializer::from_slice(span.bytes(src));
        if let Ok(typed) = typed(shape, &mut from) {
            if from.end().is_ok() {
                return typed;
            }
        }
    }
    match serde_json::from_slice::<Value>(span.bytes(src)) {
        Ok(value) => from_value(value, tool),
        Err(e) => ToolUseResult::Other {
            value: Value::String(String::from_utf8_lossy(span.bytes(src)).into_owned()),
            error: Some(e.to_string()),
        },
    }
}

pub fn from_value(value: Value, tool: Option<&Tool>) -> ToolUseResult {
    let object = match value {
        Value::String(s) => return ToolUseResult::Text(s),
        Value::Array(items) => return ToolUseResult::List(items),
        Value::Object(_) => value,
        other => return ToolUseResult::Other { value: other, error: None },
    };
    let shape = tool.and_then(shape_of_tool).or_else(|| shape_of_fields(&object));
    let Some(shape) = shape else {
        return ToolUseResult::Other { value: object, error: None };
    };
    let typed = match shape {
        Shape::TodoWrite => Ok(ToolUseResult::TodoWrite(TodoWriteResult {
            old_todos: object.get("oldTodos").map(Todo::list).unwrap_or_default(),
            new_todos: object.get("newTodos").map(Todo::list).unwrap_or_default(),
        })),
        shape => typed(shape, &object).map_err(|e| e.to_string()),
    };
    typed.unwrap_or_else(|error| ToolUseResult::Other { value: object, error: Some(error) })
}

/// The result of a tool of `shape` (any but TodoWrite, whose lists are read leniently in
/// [`from_value`]), read from `from`: a `Value`, or the bytes themselves.
fn typed<'de, D: serde::Deserializer<'de>>(shape: Shape, from: D) -> Result<ToolUseResult, D::Error> {
    Ok(match shape {
        Shape::Read => ToolUseResult::Read(Deserialize::deserialize(from)?),
        Shape::Edit => ToolUseResult::Edit(Deserialize::deserialize(from)?),
        Shape::MultiEdit => ToolUseResult::MultiEdit(Deserialize::deserialize(from)?),
        Shape::Write => ToolUseResult::Write(Deserialize::deserialize(from)?),
        Shape::Bash => ToolUseResult::Bash(Deserialize::deserialize(from)?),
        Shape::Glob => ToolUseResult::Glob(Deserialize::deserialize(from)?),
        Shape::Grep => ToolUseResult::Grep(Deserialize::deserialize(from)?),
        Shape::Task => ToolUseResult::Task(Deserialize::deserialize(from)?),
        Shape::WebSearch => ToolUseResult::WebSearch(Deserialize::deserialize(from)?),
        Shape::WebFetch => ToolUseResult::WebFetch(Deserialize::deserialize(from)?),
        Shape::ShellOutput => ToolUseResult::ShellOutput(Deserialize::deserialize(from)?),
        Shape::TaskOutput => ToolUseResult::TaskOutput(Deserialize::deserialize(from)?),
        Shape::SendMessage => ToolUseResult::SendMessage(Deserialize::deserialize(from)?),
        Shape::ToolSearch => ToolUseResult::ToolSearch(Deserialize::deserialize(from)?),
        Shape::Workflow => ToolUseResult::Workflow(Deserialize::deserialize(from)?),
        Shape::EnterWorktree => ToolUseResult::EnterWorktree(Deserialize::deserialize(from)?),
        Shape::ExitWorktree => ToolUseResult::ExitWorktree(Deserialize::deserialize(from)?),
        Shape::PushNotification => ToolUseResult::PushNotification(Deserialize::deserialize(from)?),
        Shape::ReadNotifications => ToolUseResult::ReadNotifications(Deserialize::deserialize(from)?),
        Shape::ReportFindings => ToolUseResult::ReportFindings(Deserialize::deserialize(from)?),
        Shape::ReadMcpResource => ToolUseResult::ReadMcpResource(Deserialize::deserialize(from)?),
        Shape::ReadMcpResourceDir => ToolUseResult::ReadMcpResourceDir(Deserialize::deserialize(from)?),
        Shape::TodoWrite => return Err(serde::de::Error::custom("TodoWrite is read from a value")),
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Read,
    Edit,
    MultiEdit,
    Write,
    Bash,
    Glob,
    Grep,
    TodoWrite,
    Task,
    WebSearch,
    WebFetch,
    ShellOutput,
    TaskOutput,
    SendMessage,
    ToolSearch,
    Workflow,
    EnterWorktree,
    ExitWorktree,
    PushNotification,
    ReadNotifications,
    ReportFindings,
    ReadMcpResource,
    ReadMcpResourceDir,
}

fn shape_of_tool(tool: &Tool) -> Option<Shape> {
    Some(match tool {
        Tool::Read => Shape::Read,
        Tool::Edit => Shape::Edit,
        Tool::MultiEdit => Shape::MultiEdit,
        Tool::Write => Shape::Write,
        // PowerShell's result is Bash's: the two are one shell tool for two systems.
        Tool::Bash | Tool::PowerShell => Shape::Bash,
        Tool::Glob => Shape::Glob,
        Tool::Grep => Shape::Grep,
        Tool::TodoWrite => Shape::TodoWrite,
        Tool::Agent => Shape::Task,
        Tool::WebSearch => Shape::WebSearch,
        Tool::WebFetch => Shape::WebFetch,
        Tool::BashOutput => Shape::ShellOutput,
        Tool::TaskOutput => Shape::TaskOutput,
        Tool::SendMessage => Shape::SendMessage,
        Tool::ToolSearch => Shape::ToolSearch,
        Tool::Workflow => Shape::Workflow,
        Tool::EnterWorktree => Shape::EnterWorktree,
        Tool::ExitWorktree => Shape::ExitWorktree,
        Tool::PushNotification => Shape::PushNotification,
        Tool::ReadNotifications => Shape::ReadNotifications,
        Tool::ReportFindings => Shape::ReportFindings,
        Tool::ReadMcpResource => Shape::ReadMcpResource,
        Tool::ReadMcpResourceDir => Shape::ReadMcpResourceDir,
        _ => return None,
    })
}

/// For results whose call is unknown (an orphan result): recognise the shape by its fields.
fn shape_of_fields(value: &Value) -> Option<Shape> {
    let has = |key: &str| value.get(key).is_some();
    Some(if has("file") && has("type") {
        Shape::Read
    } else if has("edits") && has("filePath") {
        Shape::MultiEdit
    } else if has("oldString") && has("newString") {
        Shape::Edit
    } else if has("filePath") && has("content") && has("type") {
        Shape::Write
    } else if has("stdout") && has("stderr") && has("interrupted") {
        Shape::Bash
    } else if has("oldTodos") || has("newTodos") {
        Shape::TodoWrite
    } else if has("agentId") || has("totalToolUseCount") {
        Shape::Task
    } else if has("filenames") && has("mode") {
        Shape::Grep
    } else if has("filenames") {
        Shape::Glob
    } else if has("query") && has("results") {
        Shape::WebSearch
    } else if has("url") && has("codeText") {
        Shape::WebFetch
    } else if has("shellId") && has("stdout") {
        Shape::ShellOutput
    } else if has("retrieval_status") && has("task") {
        Shape::TaskOutput
    } else if has("routing") {
        Shape::SendMessage
    } else if has("matches") && has("total_deferred_tools") {
        Shape::ToolSearch
    } else if has("runId") && has("workflowName") {
        Shape::Workflow
    } else if has("worktreePath") && has("originalCwd") {
        Shape::ExitWorktree
    } else if has("worktreePath") {
        Shape::EnterWorktree
    } else if has("notifications") && has("remaining") {
        Shape::ReadNotifications
    } else if has("findings") && has("count") {
        Shape::ReportFindings
    } else {
        return None;
    })
}
