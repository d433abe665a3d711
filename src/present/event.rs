//! What a system line, an attachment, a summary or a PR link says, in words: a line, and the
//! details the row shows when opened (its raw JSON stays below them).

mod record;

pub use record::fields_in_words;

use serde_json::Value;

use crate::model::user_text::{user_text, UserText};
use crate::model::{body, EntryKind, Span, SystemEntry, SystemSubtype};
use crate::normalize::{Item, Workspace};
use crate::present::hooks::{hook_view, HookView};
use crate::text::format::{duration, plural};
use crate::text::markup::safe_href;

/// An event row.
#[derive(Clone, Debug, PartialEq)]
pub enum EventView {
    /// A line of words; opened, its details and the raw line.
    Line { text: String, tone: Tone, details: Vec<String> },
    /// A hook that ran outside a tool call.
    Hook(HookView),
    /// A summary Claude Code wrote of the conversation so far.
    Summary(String),
    /// A pull request the session opened, a page it published; `href` only for http(s) links.
    Link { label: String, href: Option<String> },
    /// Nothing to say in words: the raw line.
    Raw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Normal,
    /// Routine bookkeeping (turn durations, stop hooks, listings sent to the model).
    Quiet,
    Error,
    /// A subtype or attachment type cctv does not know.
    Unknown,
}

pub fn event_view(ws: &Workspace, item: &Item) -> EventView {
    let src = ws.src(item.line);
    let Some(entry) = ws.entry(item.line) else { return EventView::Raw };
    match &entry.kind {
        EntryKind::System(s) => {
            // Fields only some subtypes have are read from the line when it is shown.
            let fields = body::line_value(src, ws.line(item.line)).unwrap_or(Value::Null);
            let (text, tone, details) = system(s, src, &fields);
            EventView::Line { text: first_line(&text), tone, details }
        }
        EntryKind::Attachment(a) if a.is_hook(src) => hook(ws, item),
        EntryKind::Attachment(a) => {
            let kind = a.attachment_type.map(|t| t.decode(src).into_owned()).unwrap_or_default();
            let fields = body::value(src, a.attachment).unwrap_or(Value::Null);
            let (text, tone, details) = attachment(&kind, &fields);
            EventView::Line { text: first_line(&text), tone, details }
        }
        EntryKind::Progress(_) => hook(ws, item),
        EntryKind::Summary(s) => {
            EventView::Summary(s.summary.map(|t| t.decode(src).into_owned()).unwrap_or_default())
        }
        EntryKind::PrLink(pr) => {
            let url = pr.url.map(|u| u.decode(src).into_owned()).unwrap_or_default();
            let label = format!(
                "Pull request #{} in {}",
                pr.number.unwrap_or(0),
                pr.repository.map(|r| r.decode(src).into_owned()).unwrap_or_default()
            );
            EventView::Link { label, href: safe_href(&url) }
        }
        EntryKind::Record(record) => record::record_view(ws, item, record),
        _ => EventView::Raw,
    }
}

/// A system line in words: (line, tone, details).
fn system(s: &SystemEntry, src: &[u8], fields: &Value) -> (String, Tone, Vec<String>) {
    let content = s.content.map(|c: Span| body::text(src, c)).unwrap_or_default();
    let str_of = |key: &str| fields.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    match s.subtype {
        SystemSubtype::TurnDuration => {
            (format!("Turn took {}", duration(s.duration_ms.unwrap_or(0.0))), Tone::Quiet, vec![])
        }
        SystemSubtype::ApiError => {
            let retry = s
                .retry
                .map(|r| {
                    format!(
                        ", retry {}/{} in {}",
                        r.attempt.unwrap_or(0),
                        r.max_retries.unwrap_or(0),
                        duration(r.retry_in_ms.unwrap_or(0.0))
                    )
                })
                .unwrap_or_default();
            let error = s.error.map(|e| body::text(src, e)).unwrap_or_default();
            let short: String =
                error.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(160).collect();
            (format!("API error{retry}: {short}"), Tone::Error, vec![])
        }
        SystemSubtype::StopHookSummary => {
            let hooks: Vec<String> =
                list(fields, "hookInfos").iter().map(|h| str_field(h, "command")).collect();
            let errors: Vec<String> = list(fields, "hookErrors").iter().map(to_text).collect();
            let count = s.hook_count.unwrap_or(hooks.len() as u64);
            let mut text = format!("Stop hooks: {count} ran");
            if !errors.is_empty() {
                text.push_str(&format!(", {} failed", errors.len()));
            }
            if s.prevented_continuation {
                let reason = str_of("stopReason");
                text.push_str(" and kept the response going");
                if !reason.is_empty() {
                    text.push_str(&format!(": {reason}"));
                }
            }
            let tone = if errors.is_empty() { Tone::Quiet } else { Tone::Error };
            (text, tone, hooks.into_iter().chain(errors.into_iter().map(|e| format!("error: {e}"))).collect())
        }
        // Claude Code's own recap when the person comes back; its text does not repeat the label.
        SystemSubtype::AwaySummary => (format!("While you were away: {content}"), Tone::Normal, vec![]),
        SystemSubtype::MicrocompactBoundary => {
            let meta = fields.get("microcompactMetadata").unwrap_or(&Value::Null);
            let saved = meta
                .get("tokensSaved")
                .and_then(Value::as_u64)
                .map(|t| format!(", {t} tokens freed"))
                .unwrap_or_default();
            (format!("Older tool results cleared from the context{saved}"), Tone::Quiet, vec![])
        }
        SystemSubtype::LocalCommand => match user_text(&content) {
            read @ UserText::Command { .. } => (read.headline().unwrap_or_default(), Tone::Normal, vec![]),
            UserText::CommandOutput { stdout, stderr } => {
                (format!("Command output: {stdout}{stderr}"), Tone::Normal, vec![])
            }
            _ => (content, Tone::Normal, vec![]),
        },
        SystemSubtype::MemorySaved => (format!("Memory saved{}", colon(&content)), Tone::Normal, vec![]),
        SystemSubtype::PermissionRetry => {
            (format!("Permission asked again{}", colon(&content)), Tone::Normal, vec![])
        }
        SystemSubtype::BridgeStatus => (format!("Remote session{}", colon(&content)), Tone::Quiet, vec![]),
        SystemSubtype::AgentsKilled => {
            (format!("Background agents stopped{}", colon(&content)), Tone::Normal, vec![])
        }
        SystemSubtype::ScheduledTaskFire => {
            (format!("Scheduled task ran{}", colon(&content)), Tone::Normal, vec![])
        }
        SystemSubtype::ApiMetrics => (format!("API metrics{}", colon(&content)), Tone::Quiet, vec![]),
        SystemSubtype::Legacy | SystemSubtype::Informational => (content, Tone::Normal, vec![]),
        SystemSubtype::CompactBoundary => ("Conversation compacted".into(), Tone::Normal, vec![]),
        SystemSubtype::Unknown(name) => {
            (format!("unknown system event {}: {content}", name.decode(src)), Tone::Unknown, vec![])
        }
    }
}

/// Attachment types cctv puts in words (besides hook runs, `hook_*`); others show their type.
pub(crate) const KNOWN_ATTACHMENTS: &[&str] = &[
    "queued_command",
    "task_reminder",
    "todo_reminder",
    "compact_file_reference",
    "file",
    "deferred_tools_delta",
    "agent_listing_delta",
    "mcp_instructions_delta",
    "skill_listing",
    "critical_system_reminder",
    "companion_intro",
    "date_change",
    "edited_text_file",
];

/// An attachment that is not a hook run, in words: (line, tone, details).
fn attachment(kind: &str, a: &Value) -> (String, Tone, Vec<String>) {
    let names = |key: &str| list(a, key).iter().map(to_text).collect::<Vec<_>>();
    match kind {
        "queued_command" => {
            (format!("Queued while Claude worked: {}", str_field(a, "prompt")), Tone::Normal, vec![])
        }
        "task_reminder" => {
            let n = a.get("itemCount").and_then(Value::as_u64).unwrap_or(0);
            (format!("Task list reminder sent to the model ({})", plural(n, "item")), Tone::Quiet, vec![])
        }
        "todo_reminder" => ("Todo list reminder sent to the model".into(), Tone::Quiet, vec![]),
        "compact_file_reference" => {
            let path = Some(str_field(a, "displayPath"))
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| str_field(a, "filename"));
            (format!("File kept in context after compaction: {path}"), Tone::Quiet, vec![])
        }
        "file" => (format!("File attached: {}", str_field(a, "filename")), Tone::Normal, vec![]),
        "deferred_tools_delta" => {
            let added = names("addedNames");
            (
                format!("Tools made available to the model: {}", plural(added.len() as u64, "tool")),
                Tone::Quiet,
                added,
            )
        }
        "agent_listing_delta" => {
            let added = names("addedTypes");
            (
                format!("Sub-agent types listed for the model: {}", added.join(", ")),
                Tone::Quiet,
                names("addedLines"),
            )
        }
        "mcp_instructions_delta" => ("MCP server instructions sent to the model".into(), Tone::Quiet, vec![]),
        "skill_listing" => {
            let content = str_field(a, "content");
            let skills: Vec<String> =
                content.lines().filter(|l| l.starts_with("- ")).map(str::to_owned).collect();
            (
                format!("Skills listed for the model: {}", plural(skills.len() as u64, "skill")),
                Tone::Quiet,
                skills,
            )
        }
        "critical_system_reminder" => {
            ("System reminder sent to the model".into(), Tone::Quiet, vec![str_field(a, "content")])
        }
        "companion_intro" => ("Companion introduced".into(), Tone::Quiet, vec![]),
        // The reader's calendar day turned while the session was open; the model is told.
        "date_change" => (format!("The date is now {}", str_field(a, "newDate")), Tone::Quiet, vec![]),
        // A file Claude had read was changed outside it (by the person or a tool); the model is
        // shown the changed lines.
        "edited_text_file" => (
            format!("File changed outside Claude Code: {}", str_field(a, "filename")),
            Tone::Normal,
            vec![str_field(a, "snippet")],
        ),
        other => (format!("attachment: {}", other.replace('_', " ")), Tone::Normal, vec![]),
    }
}

fn hook(ws: &Workspace, item: &Item) -> EventView {
    hook_view(ws, item.line, "hook").map_or(EventView::Raw, EventView::Hook)
}

fn list<'v>(value: &'v Value, key: &str) -> &'v [Value] {
    value.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

fn str_field(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

fn to_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn colon(content: &str) -> String {
    if content.trim().is_empty() {
        String::new()
    } else {
        format!(": {}", content.trim())
    }
}

/// An event says one line; legacy system lines can hold a whole terminal screen.
fn first_line(text: &str) -> String {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or_default().chars().take(300).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::ItemKind;

    fn events(path: &str) -> Vec<(String, Tone, Vec<String>)> {
        let ws = crate::fixtures::workspace(path);
        let mut out = Vec::new();
        for s in &ws.sessions {
            for (_, thread) in s.threads() {
                for item in thread.items.iter().filter(|i| matches!(i.kind, ItemKind::Event)) {
                    if let EventView::Line { text, tone, details } = event_view(&ws, item) {
                        out.push((text, tone, details));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn real_date_changes_and_files_edited_outside_read_as_words() {
        // planetfall 49/ff84fd3d0b (CC 2.1.1xx): a `date_change` and `edited_text_file`
        // attachments (GPL-3.0: read by path only).
        let found = events("blackgirlbytes__planetfall-seed-signalkit/49/ff84fd3d0b/1/full.jsonl");
        assert!(found.iter().any(|(t, tone, _)| t == "The date is now 2026-06-14" && *tone == Tone::Quiet));
        let edited = found
            .iter()
            .find(|(t, _, _)| t.starts_with("File changed outside Claude Code: /Users/"))
            .expect("a file edited outside");
        assert!(edited.0.ends_with("src/titleScreen.js"), "{}", edited.0);
        assert!(edited.2[0].starts_with("1\t// Title screen"), "{:?}", edited.2);
    }

    #[test]
    fn real_stop_hook_summaries_name_their_hooks() {
        // marot 8463c716 (CC 2.1.39): stop_hook_summary with three hookInfos.
        let found =
            events("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
        let stop =
            found.iter().find(|(t, _, _)| t.starts_with("Stop hooks: 3 ran")).expect("a stop hook summary");
        assert_eq!(stop.2.len(), 3);
        assert!(stop.2.iter().any(|c| c.contains("tmux-waiting.sh")));
    }

    #[test]
    fn real_attachments_read_as_words_not_raw_json() {
        // planetfall 09/cb2aeecea3 (CC 2.1.177): compact_file_reference, deferred_tools_delta,
        // agent_listing_delta, file, task_reminder, skill_listing, queued_command.
        let found = events("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");
        let texts: Vec<&str> = found.iter().map(|(t, _, _)| t.as_str()).collect();
        for expected in [
            "File kept in context after compaction: src/",
            "Tools made available to the model: ",
            "Sub-agent types listed for the model: ",
        ] {
            assert!(texts.iter().any(|t| t.starts_with(expected)), "{expected}: {texts:#?}");
        }
        assert!(texts.iter().all(|t| !t.starts_with("attachment: ")), "{texts:#?}");
        let tools = found.iter().find(|(t, _, _)| t.starts_with("Tools made available")).unwrap();
        assert!(tools.2.iter().any(|n| n == "WebSearch"), "the tools are listed when opened");
    }

    #[test]
    fn every_known_attachment_type_has_words_of_its_own() {
        for kind in KNOWN_ATTACHMENTS {
            let (text, _, _) = attachment(kind, &serde_json::json!({}));
            assert!(!text.starts_with("attachment: "), "{kind}");
        }
        assert!(attachment("brand_new", &serde_json::json!({})).0.starts_with("attachment: brand new"));
    }
}
