//! Hook runs and progress lines, as shown inside the tool call they belong to (or as rows of
//! their own when they ran outside one).

use serde_json::Value;

use crate::model::{body, EntryKind, ProgressKind};
use crate::normalize::{LineRef, Workspace};
use crate::present::fields::{colon, first_line, first_str, text_of};
use crate::text::format::{duration, isolate, plural};

/// One hook run.
#[derive(Clone, Debug, PartialEq)]
pub struct HookView {
    /// The hook's name, else the event it ran on (`PreToolUse`), as the line or its call says.
    pub name: String,
    /// `hook success`, `hook blocking error`, ...
    pub kind: String,
    pub command: String,
    pub exit: Option<i64>,
    pub took: Option<String>,
    /// Why the hook blocked what it ran for.
    pub blocking: Option<String>,
    pub failed: bool,
    pub stdout: String,
    pub stderr: String,
    /// What the hook added to the conversation (legacy system lines keep their text here).
    pub content: String,
}

/// The fields of a hook's line, wherever the version put them.
fn hook_fields(ws: &Workspace, line: LineRef) -> Option<Value> {
    let value = body::line_value(ws.src(line), ws.line(line))?;
    Some(match value.get("attachment").or_else(|| value.get("data")) {
        Some(inner) => inner.clone(),
        // Legacy system lines ("Running PostToolUse:Edit...") keep their text in `content`.
        None => serde_json::json!({ "content": value.get("content") }),
    })
}

/// The hook run on `line`; `event` names it when the line does not.
pub(crate) fn hook_view(ws: &Workspace, line: LineRef, event: &str) -> Option<HookView> {
    let fields = hook_fields(ws, line)?;
    let text = |key: &str| fields.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let kind = text("type");
    let exit = fields.get("exitCode").and_then(Value::as_i64);
    let blocking =
        fields.get("blockingError").map(|b| match b.get("blockingError").and_then(Value::as_str) {
            Some(message) => message.to_owned(),
            None => b.to_string(),
        });
    let failed = kind.contains("error") || exit.is_some_and(|e| e != 0) || blocking.is_some();
    let content = match fields.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    };
    Some(HookView {
        name: [text("hookName"), text("hookEvent")]
            .into_iter()
            .find(|n| !n.is_empty())
            .unwrap_or_else(|| event.to_owned()),
        kind: kind.replace('_', " "),
        command: text("command"),
        exit,
        took: fields.get("durationMs").and_then(Value::as_f64).map(duration),
        blocking,
        failed,
        stdout: text("stdout"),
        stderr: text("stderr"),
        content,
    })
}

/// A call's progress lines, folded: the searches run, agent steps, the last bash output.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressView {
    pub lines: usize,
    pub notes: Vec<String>,
    pub last_output: Option<String>,
}

pub fn progress_view(ws: &Workspace, lines: &[LineRef]) -> Option<ProgressView> {
    if lines.is_empty() {
        return None;
    }
    let mut notes: Vec<String> = Vec::new();
    let mut last_output: Option<String> = None;
    let (mut agent_steps, mut heartbeats) = (0, 0);
    for &line in lines {
        let src = ws.src(line);
        let Some(EntryKind::Progress(p)) = ws.entry(line).map(|e| &e.kind) else { continue };
        // The `data` of kinds read by their fields when shown.
        let data = || {
            body::line_value(src, ws.line(line))
                .and_then(|mut v| v.get_mut("data").map(Value::take))
                .unwrap_or_default()
        };
        let about = || {
            let data = data();
            match first_str(
                &data,
                &["toolName", "tool_name", "name", "phase", "fileName", "filename", "path"],
            ) {
                name if !name.is_empty() => name,
                _ => first_line(&text_of(&data)),
            }
        };
        match p.kind {
            // PowerShell runs where Bash does (Windows), with the same output fields.
            ProgressKind::BashProgress | ProgressKind::PowershellProgress => {
                if let Some(span) = p.full_output.or(p.output) {
                    last_output = Some(body::text(src, span));
                }
            }
            ProgressKind::AgentProgress => agent_steps += 1,
            ProgressKind::QueryUpdate => {
                if let Some(q) = p.query {
                    notes.push(format!("searched: {}", body::text(src, q)));
                }
            }
            ProgressKind::SearchResultsReceived => notes.push(plural(p.result_count.unwrap_or(0), "result")),
            ProgressKind::WaitingForTask => {
                let task = p.task_description.map(|t| body::text(src, t)).unwrap_or_default();
                notes.push(format!("waited for: {task}"));
            }
            ProgressKind::HookProgress => {
                let name = p.hook_name.map(|n| n.decode(src).into_owned()).unwrap_or_default();
                notes.push(format!("hook ran: {name}"));
            }
            ProgressKind::McpProgress => {
                let name = |s: Option<crate::model::JsonStr>| {
                    s.map(|s| s.decode(src).into_owned()).unwrap_or_default()
                };
                // The server's and tool's names are transcript text among cctv's words: isolated.
                let tool = [name(p.server_name), name(p.tool_name)]
                    .into_iter()
                    .filter(|n| !n.is_empty())
                    .map(|n| format!(" {}", isolate(&n)))
                    .collect::<String>();
                notes.push(format!("MCP{tool}{}", colon(&name(p.status))));
            }
            // A call still running says so now and then; one note says how often.
            ProgressKind::ToolHeartbeat => heartbeats += 1,
            ProgressKind::AgentApiRetry => {
                notes.push(format!("sub-agent's API request retried{}", colon(&about())))
            }
            ProgressKind::SearchRetry => notes.push(format!("search retried{}", colon(&about()))),
            ProgressKind::ConnectorFileProgress => notes.push(format!("connector file{}", colon(&about()))),
            ProgressKind::WorkflowAgent => notes.push(format!("workflow agent{}", colon(&about()))),
            ProgressKind::WorkflowLog => {
                notes.push(format!("workflow log{}", colon(&first_line(&text_of(&data())))))
            }
            ProgressKind::WorkflowPhase => notes.push(format!("workflow phase{}", colon(&about()))),
            ProgressKind::ReplToolCall => notes.push(format!("tool called from the REPL{}", colon(&about()))),
            ProgressKind::Unknown(_) => {
                notes.push(format!("progress {}{}", p.kind.name(src), colon(&first_line(&text_of(&data())))))
            }
        }
    }
    if agent_steps > 0 {
        notes.push(format!("{agent_steps} sub-agent progress updates"));
    }
    if heartbeats > 0 {
        notes.push(format!("still running: {}", plural(heartbeats, "heartbeat")));
    }
    Some(ProgressView { lines: lines.len(), notes, last_output: last_output.filter(|o| !o.is_empty()) })
}

/// The raw JSON of a line, pretty-printed, or its text when it is not JSON.
pub fn raw_text(ws: &Workspace, line: LineRef) -> String {
    let src = ws.src(line);
    let l = ws.line(line);
    match body::line_value(src, l) {
        Some(value) => serde_json::to_string_pretty(&value).unwrap_or_default(),
        None => l.raw(src).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::workspace;
    use crate::normalize::ItemKind;

    #[test]
    fn real_hook_attachments_show_their_name_command_and_outcome() {
        let ws = workspace("handgemacht-ai__claude-code-log/test/test_data/hook_attachments.jsonl");
        let mut hooks = Vec::new();
        for (_, thread) in ws.sessions[0].threads() {
            for item in &thread.items {
                match &item.kind {
                    ItemKind::ToolCall(call) => hooks.extend(
                        call.pre_hooks
                            .iter()
                            .chain(&call.post_hooks)
                            .filter_map(|l| hook_view(&ws, *l, "hook")),
                    ),
                    ItemKind::Event => hooks.extend(hook_view(&ws, item.line, "hook")),
                    _ => {}
                }
            }
        }
        assert!(!hooks.is_empty());
        assert!(hooks.iter().any(|h| !h.command.is_empty()), "{hooks:#?}");
        assert!(hooks.iter().any(|h| h.failed) && hooks.iter().any(|h| !h.failed), "{hooks:#?}");
    }

    #[test]
    fn real_mcp_progress_says_the_server_the_tool_and_how_it_went() {
        // obsessiondb/chkit 62/9489e96930 (CC 2.1.50): mcp_progress lines (`serverName`,
        // `toolName`, `status`) of a call to the conductor server's AskUserQuestion.
        let ws = workspace("obsessiondb__chkit/62/9489e96930/0/full.jsonl");
        let notes: Vec<String> = ws.sessions[0]
            .thread
            .items
            .iter()
            .filter_map(|item| match &item.kind {
                ItemKind::ToolCall(call) => progress_view(&ws, &call.progress),
                _ => None,
            })
            .flat_map(|v| v.notes)
            .collect();
        // The names are isolated (FSI … PDI): transcript text among cctv's words.
        let said =
            |status: &str| format!("MCP \u{2068}conductor\u{2069} \u{2068}AskUserQuestion\u{2069}: {status}");
        assert!(notes.iter().any(|n| *n == said("started")), "{notes:#?}");
        assert!(notes.iter().any(|n| *n == said("failed")), "{notes:#?}");
        assert!(notes.iter().all(|n| !n.starts_with("progress ")), "{notes:#?}");
    }

    #[test]
    fn real_progress_lines_fold_into_notes() {
        let ws =
            workspace("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
        let views: Vec<ProgressView> = ws.sessions[0]
            .thread
            .items
            .iter()
            .filter_map(|item| match &item.kind {
                ItemKind::ToolCall(call) => progress_view(&ws, &call.progress),
                _ => None,
            })
            .collect();
        assert!(!views.is_empty());
        assert!(views.iter().all(|v| v.lines > 0));
        assert!(views.iter().any(|v| !v.notes.is_empty() || v.last_output.is_some()));
    }
}
