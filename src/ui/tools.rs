//! Tool call panels: the call, its hooks, its result and its progress, rendered per tool.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use super::content::{field, image, json, numbered, result_content};
use super::hooks::{hook, progress_summary};
use super::markup::{markdown, terminal};
use super::panel::{local_panel, panel};
use super::state::{part, use_viewer};
use crate::model::body::{ImageSource, ToolResultContent};
use crate::model::tool_result::{Todo, ToolUseResult};
use crate::normalize::{Item, ToolCall, Workspace};
use crate::present::calls::{call_view, CallView, Outcome};
use crate::present::diff::{self, Row as DiffRow, RowKind};
use crate::present::markup::safe_href;
use crate::present::rows::Row;

pub fn tool_call(ws: Arc<Workspace>, row: Row, item: &Item, call: &ToolCall) -> AnyView {
    let view = call_view(&ws, item, call);
    let outcome = view.outcome();
    let target = view.target();
    let detail = view.detail();
    let hooks = call.pre_hooks.len() + call.post_hooks.len();
    let (name_label, server) = match &view.mcp {
        Some((server, tool)) => (tool.clone(), Some(server.clone())),
        None => (view.name.clone(), None),
    };
    let outcome_badge = match outcome {
        Outcome::Ok => None,
        Outcome::Error => Some(("error", "cctv-badge cctv-badge--error")),
        Outcome::Interrupted => Some(("interrupted", "cctv-badge cctv-badge--warn")),
        Outcome::Missing => Some(("no result", "cctv-badge cctv-badge--warn")),
    };
    let header = view! {
        <span class="cctv-tool__name">{name_label}</span>
        {server.map(|s| view! { <span class="cctv-badge">{format!("MCP {s}")}</span> })}
        <span class="cctv-tool__target">{target}</span>
        {detail.map(|d| view! { <span class="cctv-tool__detail">{d}</span> })}
        {(hooks > 0).then(|| view! { <span class="cctv-badge">{format!("{hooks} hook{}", if hooks == 1 { "" } else { "s" })}</span> })}
        {outcome_badge.map(|(text, class)| view! { <span class=class>{text}</span> })}
    }
    .into_any();
    let key = (row.thread, row.item, part::BODY);
    let call = call.clone();
    let ws2 = ws.clone();
    let item_line = item.line;
    let agent_toggle = call.agent.map(|agent| agent_button(ws.clone(), row, agent));
    let body = move || {
        let ws = ws2.clone();
        let view = view.clone();
        let pre: Vec<AnyView> = call.pre_hooks.iter().map(|l| hook(&ws, *l, "PreToolUse")).collect();
        let post: Vec<AnyView> = call.post_hooks.iter().map(|l| hook(&ws, *l, "PostToolUse")).collect();
        let progress = progress_summary(&ws, &call.progress);
        let _ = item_line;
        view! {
            {pre}
            {tool_body(&view)}
            {post}
            {progress}
        }
        .into_any()
    };
    view! {
        <div class="cctv-tool">
            {panel(key, "cctv-tool__panel", header, body)}
            {agent_toggle}
        </div>
    }
    .into_any()
}

/// "Show the sub-agent's conversation": puts its rows under this call.
fn agent_button(ws: Arc<Workspace>, _row: Row, agent: u32) -> AnyView {
    let viewer = use_viewer();
    let session = viewer.session.get_untracked();
    let (items, label) = ws
        .sessions
        .get(session)
        .and_then(|s| s.agents.get(agent as usize))
        .map(|a| {
            let stats = &a.stats;
            let label = format!(
                "{} · {} items · {} tool calls · {} tokens out",
                a.agent_type.clone().unwrap_or_else(|| "sub-agent".into()),
                a.thread.items.len(),
                stats.tool_calls.values().sum::<u64>(),
                stats.output_tokens
            );
            (a.thread.items.len(), label)
        })
        .unwrap_or((0, String::new()));
    let open = move || viewer.choices.with(|c| c.open_agents.contains(&agent));
    view! {
        <button
            class={move || if open() { "cctv-agent-toggle cctv-agent-toggle--open" } else { "cctv-agent-toggle" }}
            on:click=move |_| viewer.choices.update(|c| {
                if !c.open_agents.remove(&agent) {
                    c.open_agents.insert(agent);
                }
            })
            disabled=items == 0
        >
            {move || if open() { "Hide sub-agent conversation" } else { "Show sub-agent conversation" }}
            <span class="cctv-muted">{format!(" ({label})")}</span>
        </button>
    }
    .into_any()
}

fn tool_body(view: &CallView) -> AnyView {
    let result = view.result.as_ref();
    let structured = result.and_then(|r| r.structured.as_ref());
    let generic_result = || match result {
        Some(r) => result_content(&r.content, r.is_error),
        None => missing(),
    };
    match (view.name.as_str(), structured) {
        ("Bash", _) => {
            let command = view.text("command").unwrap_or_default().to_owned();
            let description = view.text("description").map(str::to_owned);
            let output = match structured {
                Some(ToolUseResult::Bash(b)) => view! {
                    {(!b.stdout.is_empty()).then(|| terminal(&b.stdout, "cctv-out"))}
                    {(!b.stderr.is_empty()).then(|| view! {
                        <div class="cctv-out__label">"stderr"</div>
                        {terminal(&b.stderr, "cctv-out cctv-out--stderr")}
                    })}
                    {(b.stdout.is_empty() && b.stderr.is_empty()).then(|| view! { <div class="cctv-muted">"(no output)"</div> })}
                    {b.interrupted.then(|| view! { <span class="cctv-badge cctv-badge--warn">"interrupted"</span> })}
                    {b.return_code_interpretation.clone().map(|t| view! { <div class="cctv-muted">{t}</div> })}
                }
                .into_any(),
                _ => generic_result(),
            };
            view! {
                {description.map(|d| view! { <div class="cctv-muted">{d}</div> })}
                <pre class="cctv-command">{format!("$ {command}")}</pre>
                {output}
            }
            .into_any()
        }
        ("Read", Some(ToolUseResult::Read(r))) if !r.file.file_path.is_empty() => {
            let file = &r.file;
            let range = if file.total_lines > 0 {
                format!(
                    "lines {}–{} of {}",
                    file.start_line,
                    file.start_line + file.num_lines.saturating_sub(1),
                    file.total_lines
                )
            } else {
                String::new()
            };
            let content = match (&file.base64, &file.media_type) {
                (Some(data), Some(media)) => {
                    image(&ImageSource::Base64 { media_type: media.clone(), data: data.clone() })
                }
                _ => numbered(&file.content, file.start_line.max(1)),
            };
            view! { {field("file", file.file_path.clone())} <div class="cctv-muted">{range}</div> {content} }
                .into_any()
        }
        ("Edit" | "MultiEdit" | "Write", _) => edit_body(view),
        ("Grep", _) | ("Glob", _) => {
            let pattern = view.text("pattern").unwrap_or_default().to_owned();
            let path = view.text("path").map(str::to_owned);
            let glob = view.text("glob").map(str::to_owned);
            let found = match structured {
                Some(ToolUseResult::Grep(g)) if g.content.is_some() => {
                    terminal(g.content.as_deref().unwrap_or_default(), "cctv-out")
                }
                Some(ToolUseResult::Grep(g)) => file_list(&g.filenames),
                Some(ToolUseResult::Glob(g)) => file_list(&g.filenames),
                _ => generic_result(),
            };
            view! {
                {field("pattern", pattern)}
                {path.map(|p| field("in", p))}
                {glob.map(|g| field("files", g))}
                {found}
            }
            .into_any()
        }
        ("WebSearch", _) => {
            let query = view.text("query").unwrap_or_default().to_owned();
            let found = match structured {
                Some(ToolUseResult::WebSearch(s)) => {
                    s.results.iter().map(search_result).collect_view().into_any()
                }
                _ => generic_result(),
            };
            view! { {field("query", query)} {found} }.into_any()
        }
        ("WebFetch", _) => {
            let url = view.text("url").unwrap_or_default().to_owned();
            let prompt = view.text("prompt").map(str::to_owned);
            let fetched = match structured {
                Some(ToolUseResult::WebFetch(f)) => view! {
                    <div class="cctv-muted">{format!("{} {} · {} bytes", f.code.unwrap_or(0), f.code_text.clone().unwrap_or_default(), f.bytes.unwrap_or(0))}</div>
                    {markdown(&f.result)}
                }
                .into_any(),
                _ => generic_result(),
            };
            view! { <div class="cctv-field"><span class="cctv-field__label">"url"</span>{link(&url)}</div> {prompt.map(|p| field("asked", p))} {fetched} }.into_any()
        }
        ("TodoWrite", _) => {
            let new = view.input.get("todos").map(Todo::list).unwrap_or_default();
            let old = match structured {
                Some(ToolUseResult::TodoWrite(t)) => Some(t.old_todos.clone()),
                _ => None,
            };
            todo_list(&new, old.as_deref())
        }
        ("Task" | "Agent", _) => {
            let prompt = view.text("prompt").unwrap_or_default().to_owned();
            let kind = view.text("subagent_type").map(str::to_owned);
            let answer: String = match structured {
                Some(ToolUseResult::Task(t)) => t
                    .content
                    .iter()
                    .filter_map(|c| c.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n\n"),
                _ => String::new(),
            };
            let status = match structured {
                Some(ToolUseResult::Task(t)) => t.status.clone(),
                _ => None,
            };
            view! {
                {kind.map(|k| field("agent", k))}
                {status.map(|s| field("status", s))}
                {local_panel("cctv-prompt", view! { <span>"Prompt"</span> }.into_any(), false, move || markdown(&prompt))}
                {if answer.is_empty() { generic_result() } else { markdown(&answer) }}
            }
            .into_any()
        }
        ("AskUserQuestion", _) => ask_body(view),
        ("ExitPlanMode", _) => {
            let plan = view.text("plan").unwrap_or_default().to_owned();
            view! { <div class="cctv-plan">{markdown(&plan)}</div> {generic_result()} }.into_any()
        }
        _ => view! {
            <div class="cctv-out__label">"input"</div>
            {json(&view.input)}
            <div class="cctv-out__label">"result"</div>
            {generic_result()}
        }
        .into_any(),
    }
}

fn missing() -> AnyView {
    view! {
        <div class="cctv-missing">
            "No result in the transcript: the session ended or was interrupted before this call returned."
        </div>
    }
    .into_any()
}

fn link(url: &str) -> AnyView {
    match safe_href(url) {
        Some(href) => view! {
            <a class="cctv-link" href=href target="_blank" rel="noopener noreferrer nofollow">{url.to_owned()}</a>
        }
        .into_any(),
        None => view! { <span class="cctv-md__inert-link">{url.to_owned()}</span> }.into_any(),
    }
}

fn file_list(files: &[String]) -> AnyView {
    if files.is_empty() {
        return view! { <div class="cctv-muted">"no matches"</div> }.into_any();
    }
    view! { <ul class="cctv-files">{files.iter().map(|f| view! { <li>{f.clone()}</li> }).collect_view()}</ul> }.into_any()
}

fn search_result(result: &Value) -> AnyView {
    match result {
        Value::String(text) => markdown(text),
        Value::Object(_) => {
            let links = result.get("content").and_then(Value::as_array).cloned().unwrap_or_default();
            view! {
                <ul class="cctv-links">
                    {links
                        .iter()
                        .map(|l| {
                            let title = l.get("title").and_then(Value::as_str).unwrap_or("").to_owned();
                            let url = l.get("url").and_then(Value::as_str).unwrap_or("").to_owned();
                            view! { <li>{title}" "{link(&url)}</li> }
                        })
                        .collect_view()}
                </ul>
            }
            .into_any()
        }
        other => json(other),
    }
}

fn edit_body(view: &CallView) -> AnyView {
    let path = view.text("file_path").unwrap_or_default().to_owned();
    let structured = view.result.as_ref().and_then(|r| r.structured.as_ref());
    let (rows, badges): (Option<Vec<DiffRow>>, Vec<&'static str>) = match structured {
        Some(ToolUseResult::Edit(e)) if !e.structured_patch.is_empty() => (
            Some(diff::from_hunks(&e.structured_patch)),
            [(e.user_modified, "edited by the user"), (e.replace_all, "replace all")]
                .into_iter()
                .filter_map(|(on, b)| on.then_some(b))
                .collect(),
        ),
        Some(ToolUseResult::MultiEdit(e)) if !e.structured_patch.is_empty() => (
            Some(diff::from_hunks(&e.structured_patch)),
            if e.user_modified { vec!["edited by the user"] } else { vec![] },
        ),
        Some(ToolUseResult::Write(w)) if w.kind == "create" || w.structured_patch.is_empty() => {
            let content = w.content.clone();
            return view! {
                {field("file", path)}
                <span class="cctv-badge">{if w.kind == "create" { "new file" } else { "whole file written" }}</span>
                {numbered(&content, 1)}
            }
            .into_any();
        }
        Some(ToolUseResult::Write(w)) => (Some(diff::from_hunks(&w.structured_patch)), vec![]),
        _ => (None, vec![]),
    };
    // Without a stored patch (older versions, or a call that failed), diff what was asked.
    let rows = rows.unwrap_or_else(|| match view.name.as_str() {
        "Edit" => diff::between(
            view.text("old_string").unwrap_or_default(),
            view.text("new_string").unwrap_or_default(),
            1,
        ),
        "MultiEdit" => view
            .input
            .get("edits")
            .and_then(Value::as_array)
            .map(|edits| {
                edits
                    .iter()
                    .flat_map(|e| {
                        let old = e.get("old_string").and_then(Value::as_str).unwrap_or_default();
                        let new = e.get("new_string").and_then(Value::as_str).unwrap_or_default();
                        diff::between(old, new, 1)
                    })
                    .collect()
            })
            .unwrap_or_default(),
        _ => diff::between("", view.text("content").unwrap_or_default(), 1),
    });
    let failed = view.result.as_ref().filter(|r| r.is_error).map(|r| result_content(&r.content, true));
    view! {
        {field("file", path)}
        {badges.into_iter().map(|b| view! { <span class="cctv-badge">{b}</span> }).collect_view()}
        {diff_view(rows)}
        {failed}
    }
    .into_any()
}

pub fn diff_view(rows: Vec<DiffRow>) -> AnyView {
    view! {
        <table class="cctv-diff">
            <tbody>
                {rows
                    .into_iter()
                    .map(|r| {
                        let (class, sign) = match r.kind {
                            RowKind::Hunk => ("cctv-diff__hunk", ""),
                            RowKind::Context => ("cctv-diff__context", " "),
                            RowKind::Added => ("cctv-diff__added", "+"),
                            RowKind::Removed => ("cctv-diff__removed", "-"),
                        };
                        view! {
                            <tr class=class>
                                <td class="cctv-diff__no">{r.old_line}</td>
                                <td class="cctv-diff__no">{r.new_line}</td>
                                <td class="cctv-diff__sign">{sign}</td>
                                <td class="cctv-diff__text">{r.text}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// A checklist; with the previous list, what changed since.
pub fn todo_list(todos: &[Todo], previous: Option<&[Todo]>) -> AnyView {
    let changes: Vec<String> = previous
        .map(|old| {
            let mut changes = Vec::new();
            for todo in todos {
                match old.iter().find(|o| o.content == todo.content) {
                    None => changes.push(format!("added: {}", todo.content)),
                    Some(o) if o.status != todo.status => {
                        changes.push(format!("{}: {} → {}", todo.content, o.status, todo.status))
                    }
                    _ => {}
                }
            }
            for o in old {
                if !todos.iter().any(|t| t.content == o.content) {
                    changes.push(format!("removed: {}", o.content));
                }
            }
            changes
        })
        .unwrap_or_default();
    view! {
        <ul class="cctv-todos">
            {todos
                .iter()
                .map(|t| {
                    let (mark, class) = match t.status.as_str() {
                        "completed" => ("☑", "cctv-todo cctv-todo--completed"),
                        "in_progress" => ("◐", "cctv-todo cctv-todo--in-progress"),
                        "pending" => ("☐", "cctv-todo cctv-todo--pending"),
                        _ => ("?", "cctv-todo"),
                    };
                    let label = if t.status == "in_progress" { t.active_form.clone().unwrap_or(t.content.clone()) } else { t.content.clone() };
                    view! {
                        <li class=class data-status=t.status.clone()>
                            <span class="cctv-todo__mark" aria-hidden="true">{mark}</span>
                            <span>{label}</span>
                            {t.priority.clone().map(|p| view! { <span class="cctv-badge">{p}</span> })}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
        {(!changes.is_empty()).then(|| view! {
            <div class="cctv-todos__changes">
                <div class="cctv-out__label">"changed"</div>
                <ul>{changes.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ul>
            </div>
        })}
    }
    .into_any()
}

fn ask_body(view: &CallView) -> AnyView {
    let questions = view.input.get("questions").and_then(Value::as_array).cloned().unwrap_or_default();
    let answers = match view.result.as_ref().and_then(|r| r.structured.as_ref()) {
        Some(ToolUseResult::Other { value, .. }) => value.get("answers").cloned(),
        _ => None,
    };
    let answer_text = view.result.as_ref().map(|r| match &r.content {
        ToolResultContent::Text(t) => t.clone(),
        _ => String::new(),
    });
    view! {
        {questions
            .iter()
            .map(|q| {
                let question = q.get("question").and_then(Value::as_str).unwrap_or_default().to_owned();
                let chosen = answers.as_ref().and_then(|a| a.get(&question)).and_then(Value::as_str).map(str::to_owned);
                let options = q.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
                view! {
                    <div class="cctv-question">
                        <div class="cctv-question__text">{question.clone()}</div>
                        <ul>
                            {options
                                .iter()
                                .map(|o| {
                                    let label = o.get("label").and_then(Value::as_str).unwrap_or_default().to_owned();
                                    let description = o.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
                                    let picked = chosen.as_deref() == Some(label.as_str());
                                    view! {
                                        <li class=if picked { "cctv-option cctv-option--chosen" } else { "cctv-option" }>
                                            <strong>{label}</strong>" "<span class="cctv-muted">{description}</span>
                                            {picked.then(|| view! { <span class="cctv-badge">"answer"</span> })}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    </div>
                }
            })
            .collect_view()}
        {answer_text.map(|t| view! { <div class="cctv-muted">{t}</div> })}
    }
    .into_any()
}
