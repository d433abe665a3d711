//! What the page says about a whole session: its name in the selector, and the side panel.

use super::format::{duration, isolate, thousands};
use super::tools::TodoView;
use crate::model::tool_result::Todo;
use crate::model::BlockKind;
use crate::normalize::{ItemKind, NotShown, Session, Workspace};

/// A session as the selector and the title bar name it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionLabel {
    /// The title (custom, AI, summary or first prompt), else the session id: transcript text.
    pub title: String,
    /// `2026-01-22 · 0.1 MB · claude-opus-4`.
    pub detail: String,
}

impl SessionLabel {
    /// Title and detail on one line of plain text (for `<option>`s), the title isolated so its
    /// text cannot reorder the detail after it.
    pub fn one_line(&self) -> String {
        format!("{} — {}", isolate(&self.title), self.detail)
    }
}

pub fn session_label(ws: &Workspace, s: &Session) -> SessionLabel {
    let title = s.title.clone().unwrap_or_else(|| s.session_id.clone().unwrap_or_default());
    let date = s.stats.first_timestamp.as_deref().and_then(|t| t.get(..10)).unwrap_or("");
    let size: usize = s
        .file
        .iter()
        .chain(s.agents.iter().filter_map(|a| a.file.as_ref()))
        .map(|f| ws.files[*f as usize].bytes.len())
        .sum();
    let model = s.stats.models.keys().next().map(String::as_str).unwrap_or_default();
    SessionLabel { title, detail: format!("{date} · {:.1} MB · {model}", size as f64 / 1e6) }
}

/// The side panel: counts, the latest todo list, and where every line went.
#[derive(Clone, Debug, PartialEq)]
pub struct SideView {
    /// (label, value) rows of the stats list.
    pub stats: Vec<(&'static str, String)>,
    /// Tool name and calls, most used first.
    pub tools: Vec<(String, u64)>,
    pub todos: Option<Vec<TodoView>>,
    /// `120 lines: 100 shown, 15 folded into others, 5 not shown`.
    pub lines: String,
    /// `3 duplicate`, by reason.
    pub not_shown: Vec<String>,
    /// The first lines that could not be read: the file's name (transcript text), and the line's
    /// number and reason.
    pub unreadable: Vec<(String, String)>,
}

pub fn side_view(ws: &Workspace, s: &Session) -> SideView {
    let stats = &s.stats;
    let mut tools: Vec<(String, u64)> = stats.tool_calls.iter().map(|(k, v)| (k.clone(), *v)).collect();
    tools.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let models: Vec<&str> = stats.models.keys().map(String::as_str).collect();
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "—".into());
    let rows = vec![
        ("models", or_dash((!models.is_empty()).then(|| models.join(", ")))),
        ("tokens in", thousands(stats.input_tokens)),
        ("tokens out", thousands(stats.output_tokens)),
        ("cache read", thousands(stats.cache_read_tokens)),
        ("cache write", thousands(stats.cache_creation_tokens)),
        ("prompts", stats.user_prompts.to_string()),
        ("responses", stats.assistant_turns.to_string()),
        ("tool calls", tools.iter().map(|t| t.1).sum::<u64>().to_string()),
        ("errors", format!("{} tool, {} API", stats.tool_errors, stats.api_errors)),
        // Not errors: what the person decided.
        ("rejected", stats.tool_rejections.to_string()),
        ("interrupted", stats.interruptions.to_string()),
        ("sub-agents", stats.sub_agents.to_string()),
        ("duration", or_dash(stats.wall_ms.map(|ms| duration(ms as f64)))),
        ("working time", or_dash((stats.turn_duration_ms > 0.0).then(|| duration(stats.turn_duration_ms)))),
    ];
    let a = &s.accounting;
    SideView {
        stats: rows,
        tools,
        todos: latest_todos(ws, s).map(|t| TodoView::list(&t)),
        lines: format!(
            "{} lines: {} shown, {} folded into others, {} not shown",
            a.lines,
            a.rendered,
            a.merged,
            a.not_shown_total()
        ),
        not_shown: a.not_shown.iter().map(|(k, n)| format!("{n} {k}")).collect(),
        unreadable: s
            .not_shown
            .iter()
            .filter(|(_, reason)| *reason == NotShown::Invalid)
            .take(50)
            .map(|(line, _)| {
                let l = ws.line(*line);
                let reason = l.invalid().map(|i| i.reason()).unwrap_or_default();
                (ws.file(*line).name.clone(), format!("line {}: {reason}", l.number))
            })
            .collect(),
    }
}

/// The last todo list the session's main line wrote.
fn latest_todos(ws: &Workspace, s: &Session) -> Option<Vec<Todo>> {
    s.thread.items.iter().rev().find_map(|item| {
        let ItemKind::ToolCall(call) = &item.kind else { return None };
        let src = ws.src(item.line);
        if call.name.map(|n| n.raw(src)) != Some("TodoWrite") {
            return None;
        }
        let BlockKind::ToolUse(t) = &ws.block(item)?.kind else { return None };
        let input: serde_json::Value = crate::model::body::value(src, t.input?).ok()?;
        Some(Todo::list(input.get("todos")?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn general() -> Workspace {
        crate::present::tools::test_support::fixture(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        )
    }

    #[test]
    fn the_side_panel_counts_a_real_session() {
        let ws = general();
        let side = side_view(&ws, &ws.sessions[0]);
        let get = |label| side.stats.iter().find(|(l, _)| *l == label).map(|(_, v)| v.as_str()).unwrap();
        assert_eq!(get("tool calls"), ws.sessions[0].stats.tool_calls.values().sum::<u64>().to_string());
        assert!(side.tools.windows(2).all(|w| w[0].1 >= w[1].1), "most used first");
        assert!(side.todos.as_ref().is_some_and(|t| !t.is_empty()), "the fixture writes todos");
        assert!(side.lines.starts_with(&format!("{} lines", ws.sessions[0].accounting.lines)));
    }

    #[test]
    fn a_title_cannot_reorder_the_words_after_it() {
        let mut ws = general();
        ws.sessions[0].title = Some("gnirts\u{202E} reversed".into());
        let label = session_label(&ws, &ws.sessions[0]);
        let line = label.one_line();
        let (title, detail) = line.split_once(" — ").unwrap();
        assert_eq!(title, "\u{2068}gnirts\u{202E} reversed\u{2069}");
        assert!(detail.ends_with("MB · ") || detail.contains(" MB · "), "{detail}");
        assert!(!detail.contains('\u{202E}'));
    }
}
