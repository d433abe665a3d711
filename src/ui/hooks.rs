//! Hook runs and progress lines, shown inside the tool call they belong to.

use leptos::prelude::*;
use serde_json::Value;

use super::content::json;
use super::markup::terminal;
use crate::model::{body, EntryKind, ProgressKind};
use crate::normalize::{LineRef, Workspace};
use crate::present::calls::duration;

/// The fields of a hook's line, wherever the version put them.
fn hook_fields(ws: &Workspace, line: LineRef) -> Option<Value> {
    let value = body::line_value(&ws.file(line).bytes, ws.line(line))?;
    Some(match value.get("attachment").or_else(|| value.get("data")) {
        Some(inner) => inner.clone(),
        // Legacy system lines ("Running PostToolUse:Edit...") keep their text in `content`.
        None => serde_json::json!({ "content": value.get("content") }),
    })
}

pub fn hook(ws: &Workspace, line: LineRef, event: &'static str) -> AnyView {
    let Some(fields) = hook_fields(ws, line) else { return ().into_any() };
    let text = |key: &str| fields.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let kind = text("type");
    let name = Some(text("hookName")).filter(|n| !n.is_empty()).unwrap_or_else(|| event.to_owned());
    let command = text("command");
    let exit = fields.get("exitCode").and_then(Value::as_i64);
    let took = fields.get("durationMs").and_then(Value::as_f64).map(duration);
    let blocking =
        fields.get("blockingError").map(|b| match b.get("blockingError").and_then(Value::as_str) {
            Some(message) => message.to_owned(),
            None => b.to_string(),
        });
    let failed = kind.contains("error") || exit.is_some_and(|e| e != 0) || blocking.is_some();
    let class = if failed { "cctv-hook cctv-hook--failed" } else { "cctv-hook" };
    let stdout = text("stdout");
    let stderr = text("stderr");
    let content = match fields.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    };
    view! {
        <div class=class>
            <div class="cctv-hook__head">
                <span class="cctv-badge">{format!("hook {name}")}</span>
                {(!kind.is_empty()).then(|| view! { <span class="cctv-muted">{kind.replace('_', " ")}</span> })}
                {(!command.is_empty()).then(|| view! { <code>{command.clone()}</code> })}
                {exit.map(|e| view! { <span class="cctv-muted">{format!("exit {e}")}</span> })}
                {took.map(|t| view! { <span class="cctv-muted">{t}</span> })}
            </div>
            {blocking.map(|b| view! { <div class="cctv-out cctv-out--error">{format!("blocked: {b}")}</div> })}
            {(!stdout.is_empty()).then(|| terminal(&stdout, "cctv-out"))}
            {(!stderr.is_empty()).then(|| terminal(&stderr, "cctv-out cctv-out--stderr"))}
            {(!content.is_empty()).then(|| terminal(&content, "cctv-out"))}
        </div>
    }
    .into_any()
}

/// Progress lines of a call, folded: the last bash output, the searches run, agent steps.
pub fn progress_summary(ws: &Workspace, lines: &[LineRef]) -> AnyView {
    if lines.is_empty() {
        return ().into_any();
    }
    let mut notes: Vec<String> = Vec::new();
    let mut last_output: Option<String> = None;
    let mut agent_steps = 0;
    for &line in lines {
        let src = &ws.file(line).bytes;
        let Some(EntryKind::Progress(p)) = ws.line(line).entry().map(|e| &e.kind) else { continue };
        match p.kind {
            ProgressKind::BashProgress => {
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
            ProgressKind::SearchResultsReceived => {
                notes.push(format!("{} results", p.result_count.unwrap_or(0)))
            }
            ProgressKind::WaitingForTask => {
                let task = p.task_description.map(|t| body::text(src, t)).unwrap_or_default();
                notes.push(format!("waited for: {task}"));
            }
            ProgressKind::HookProgress => {
                let name = p.hook_name.map(|n| n.decode(src).into_owned()).unwrap_or_default();
                notes.push(format!("hook ran: {name}"));
            }
            _ => notes.push(format!("progress: {}", p.kind.name(src))),
        }
    }
    if agent_steps > 0 {
        notes.push(format!("{agent_steps} sub-agent progress updates"));
    }
    let count = lines.len();
    view! {
        <div class="cctv-progress-lines">
            <div class="cctv-out__label">{format!("progress ({count} lines)")}</div>
            {notes.into_iter().map(|n| view! { <div class="cctv-muted">{n}</div> }).collect_view()}
            {last_output.filter(|o| !o.is_empty()).map(|o| terminal(&o, "cctv-out cctv-out--progress"))}
        </div>
    }
    .into_any()
}

/// The raw JSON of a line, pretty-printed, or its text when it is not JSON.
pub fn raw_line(ws: &Workspace, line: LineRef) -> AnyView {
    let src = &ws.file(line).bytes;
    let l = ws.line(line);
    match body::line_value(src, l) {
        Some(value) => json(&value),
        None => view! { <pre class="cctv-json">{l.raw(src).into_owned()}</pre> }.into_any(),
    }
}
