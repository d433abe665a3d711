//! The side panel: session stats, the latest todo list, and what was not shown.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use super::tools::todo_list;
use crate::model::tool_result::Todo;
use crate::model::EntryKind;
use crate::normalize::{ItemKind, Session, Workspace};
use crate::present::calls::duration;

pub fn side(ws: Arc<Workspace>, session: usize) -> AnyView {
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
    let stats = &s.stats;
    let number = |n: u64| {
        let text = n.to_string();
        let mut out = String::new();
        for (i, c) in text.chars().enumerate() {
            if i > 0 && (text.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let mut tools: Vec<(String, u64)> = stats.tool_calls.iter().map(|(k, v)| (k.clone(), *v)).collect();
    tools.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let models: Vec<String> = stats.models.keys().cloned().collect();
    let wall = stats.wall_ms.map(|ms| duration(ms as f64));
    let todos = latest_todos(&ws, s);
    let a = &s.accounting;
    let not_shown: Vec<(String, u64)> = a.not_shown.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let problems: Vec<String> = s
        .not_shown
        .iter()
        .filter(|(_, reason)| *reason == crate::normalize::NotShown::Invalid)
        .take(50)
        .map(|(line, _)| {
            let l = ws.line(*line);
            let reason = l.invalid().map(|i| i.reason()).unwrap_or_default();
            format!("{} line {}: {reason}", ws.file(*line).name, l.number)
        })
        .collect();
    view! {
        <aside class="cctv-side">
            <section class="cctv-stats" aria-label="session stats">
                <h2>"Session"</h2>
                <dl>
                    <dt>"models"</dt><dd>{if models.is_empty() { "—".to_owned() } else { models.join(", ") }}</dd>
                    <dt>"tokens in"</dt><dd>{number(stats.input_tokens)}</dd>
                    <dt>"tokens out"</dt><dd>{number(stats.output_tokens)}</dd>
                    <dt>"cache read"</dt><dd>{number(stats.cache_read_tokens)}</dd>
                    <dt>"cache write"</dt><dd>{number(stats.cache_creation_tokens)}</dd>
                    <dt>"prompts"</dt><dd>{stats.user_prompts}</dd>
                    <dt>"responses"</dt><dd>{stats.assistant_turns}</dd>
                    <dt>"tool calls"</dt><dd>{tools.iter().map(|t| t.1).sum::<u64>()}</dd>
                    <dt>"errors"</dt><dd>{format!("{} tool, {} API", stats.tool_errors, stats.api_errors)}</dd>
                    <dt>"sub-agents"</dt><dd>{stats.sub_agents}</dd>
                    <dt>"duration"</dt><dd>{wall.unwrap_or("—".into())}</dd>
                    <dt>"working time"</dt><dd>{if stats.turn_duration_ms > 0.0 { duration(stats.turn_duration_ms) } else { "—".into() }}</dd>
                </dl>
                <ul class="cctv-stats__tools">
                    {tools.into_iter().map(|(name, n)| view! { <li><span>{name}</span><span>{n}</span></li> }).collect_view()}
                </ul>
            </section>
            {todos.map(|t| view! { <section class="cctv-side__todos"><h2>"Latest todos"</h2>{todo_list(&t, None)}</section> })}
            <section class="cctv-accounting" aria-label="lines">
                <h2>"Lines"</h2>
                <p>{format!("{} lines: {} shown, {} folded into others, {} not shown", a.lines, a.rendered, a.merged, a.not_shown_total())}</p>
                <ul>{not_shown.into_iter().map(|(k, n)| view! { <li>{format!("{n} {k}")}</li> }).collect_view()}</ul>
                {(!problems.is_empty()).then(|| view! {
                    <h3>"Lines that could not be read"</h3>
                    <ul class="cctv-problems">{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                })}
            </section>
        </aside>
    }
    .into_any()
}

/// The last todo list the session wrote.
fn latest_todos(ws: &Workspace, s: &Session) -> Option<Vec<Todo>> {
    s.thread.items.iter().rev().find_map(|item| {
        let ItemKind::ToolCall(call) = &item.kind else { return None };
        let src = &ws.file(item.line).bytes;
        if call.name.map(|n| n.raw(src)) != Some("TodoWrite") {
            return None;
        }
        let EntryKind::Assistant(a) = &ws.line(item.line).entry()?.kind else { return None };
        let block = a.message.content.blocks().iter().find(|b| Some(b.index) == item.block)?;
        let crate::model::BlockKind::ToolUse(t) = &block.kind else { return None };
        let input: Value = crate::model::body::value(src, t.input?).ok()?;
        Some(Todo::list(input.get("todos")?))
    })
}
