//! What a system line, an attachment, a summary or a PR link says, in words: a line, and the
//! details the row shows when opened (its raw JSON stays behind a toggle below them). System
//! lines are read in `system`, attachments in `attachment`, their fields in `present::fields`.

mod attachment;
mod record;
mod system;

use serde_json::Value;

use crate::model::{body, EntryKind};
use crate::normalize::{Item, Workspace};
use crate::present::hooks::{hook_view, HookView};
use crate::text::markup::safe_href;
pub(crate) use attachment::known_attachment;

/// An event row.
#[derive(Clone, Debug, PartialEq)]
pub enum EventView {
    /// A line of words; opened, its details (and the raw line behind a toggle).
    Line { text: String, tone: Tone, details: Vec<String> },
    /// Context Claude Code injected for the model (a reminder, a listing, a memory file), folded
    /// under its label as a `<system-reminder>` is: `text` is one line, `body` all it says.
    Context { label: String, text: String, body: String },
    /// A hook that ran outside a tool call.
    Hook(HookView),
    /// A summary Claude Code wrote of the conversation so far.
    Summary(String),
    /// A pull request the session opened, a page it published; `href` only for http(s) links.
    Link { label: String, href: Option<String> },
    /// Nothing to say in words: the raw line, behind a toggle.
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
            system::system(s, src, &fields)
        }
        EntryKind::Attachment(a) if a.is_hook(src) => hook(ws, item),
        EntryKind::Attachment(a) => {
            let kind = a.attachment_type.map(|t| t.decode(src).into_owned()).unwrap_or_default();
            let fields = body::value(src, a.attachment).unwrap_or(Value::Null);
            attachment::attachment(&kind, &fields)
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

/// Whether `item` is an attachment of context injected for the model (a reminder, a listing, a
/// memory file): what the filter's "injected" hides with the `<system-reminder>`s.
pub(crate) fn is_injected_context(ws: &Workspace, item: &Item) -> bool {
    let src = ws.src(item.line);
    match ws.entry(item.line).map(|e| &e.kind) {
        Some(EntryKind::Attachment(a)) => {
            a.attachment_type.is_some_and(|t| attachment::is_context(&t.decode(src)))
        }
        _ => false,
    }
}

/// A line of words: its first line, its tone, its details.
pub(crate) fn line(text: String, tone: Tone, details: Vec<String>) -> EventView {
    EventView::Line { text: crate::present::fields::first_line(&text), tone, details }
}

fn hook(ws: &Workspace, item: &Item) -> EventView {
    hook_view(ws, item.line, "hook").map_or(EventView::Raw, EventView::Hook)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::ItemKind;

    fn views(path: &str) -> Vec<EventView> {
        let ws = crate::fixtures::workspace(path);
        let mut out = Vec::new();
        for s in &ws.sessions {
            for (_, thread) in s.threads() {
                out.extend(
                    thread
                        .items
                        .iter()
                        .filter(|i| matches!(i.kind, ItemKind::Event))
                        .map(|i| event_view(&ws, i)),
                );
            }
        }
        out
    }

    fn events(path: &str) -> Vec<(String, Tone, Vec<String>)> {
        views(path)
            .into_iter()
            .filter_map(|v| match v {
                EventView::Line { text, tone, details } => Some((text, tone, details)),
                _ => None,
            })
            .collect()
    }

    /// (label, line, body) of the folded context a fixture holds.
    fn contexts(path: &str) -> Vec<(String, String, String)> {
        views(path)
            .into_iter()
            .filter_map(|v| match v {
                EventView::Context { label, text, body } => Some((label, text, body)),
                _ => None,
            })
            .collect()
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
    fn real_turn_durations_say_their_fields_when_opened() {
        // marot 8463c716 (CC 2.1.39): turn_duration lines hold `durationMs` (and nothing else
        // a reader wants): opened, the row says it in words, not as JSON.
        let found =
            events("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
        let turn = found.iter().find(|(t, _, _)| t.starts_with("Turn took ")).expect("a turn duration");
        assert_eq!(turn.1, Tone::Quiet);
        assert!(turn.2.iter().any(|d| d.starts_with("durationMs: ")), "{:?}", turn.2);
        assert!(turn.2.iter().all(|d| !d.starts_with('{') && !d.starts_with("uuid")), "{:?}", turn.2);
    }

    #[test]
    fn real_api_errors_say_their_cause_when_opened() {
        // moredip 0ccf1a04 (CC 2.1.15) line 23: an api_error whose `error` is `{cause: {code, path,
        // errno}}`.
        let found = events(
            "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
        );
        let error =
            found.iter().find(|(t, _, _)| t.starts_with("API error, retry 1/10")).expect("an api error");
        assert_eq!(error.1, Tone::Error);
        assert!(error.2.contains(&"error.cause.code: FailedToOpenSocket".to_owned()), "{:?}", error.2);
        assert!(error.2.contains(&"maxRetries: 10".to_owned()), "{:?}", error.2);
    }

    #[test]
    fn real_attachments_read_as_words_not_raw_json() {
        // planetfall 09/cb2aeecea3 (CC 2.1.177): compact_file_reference, deferred_tools_delta,
        // agent_listing_delta, file, task_reminder, skill_listing, queued_command.
        let path = "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl";
        let folded = contexts(path);
        for (label, expected) in [
            ("file", "File kept in context after compaction: src/"),
            ("tools", "Tools made available to the model: "),
            ("sub-agents", "Sub-agent types listed for the model: claude, "),
            ("task list", "Task list reminder (0 items)"),
        ] {
            assert!(
                folded.iter().any(|(l, t, _)| l == label && t.starts_with(expected)),
                "{expected}: {folded:#?}"
            );
        }
        let tools = folded.iter().find(|(_, t, _)| t.starts_with("Tools made available")).unwrap();
        assert!(tools.2.lines().any(|n| n == "WebSearch"), "the tools are listed when opened");
        let found = events(path);
        let texts: Vec<&str> = found.iter().map(|(t, _, _)| t.as_str()).collect();
        assert!(
            texts.iter().any(|t| t.starts_with("Queued while Claude worked: a subagent can also")),
            "{texts:#?}"
        );
        // The memory file attached with @ is named as Claude Code showed it (its `displayPath`),
        // and its text is there when opened.
        let file = found.iter().find(|(t, _, _)| t.starts_with("File attached: ../")).expect("a file");
        assert!(file.0.ends_with("level2-drone-bay-design.md"), "{}", file.0);
        assert!(file.2.iter().any(|d| d.starts_with("---\nname: level2-drone-bay-design")), "{:?}", file.2);
        assert!(found.iter().all(|(_, tone, _)| *tone != Tone::Unknown), "{texts:#?}");
    }

    #[test]
    fn real_skill_listings_fold_under_their_label() {
        // palimondo/fortress (CC 2.1.1xx sub-agent): a skill_listing with `content` and
        // `skillCount`, and a deferred_tools_delta.
        let folded = contexts(
            "palimondo__fortress/projects/-home-user-fortress/bdff267d-67dc-5bb9-b970-8c3dfaa634b6/subagents/agent-ad14da67757fdcf3c.jsonl",
        );
        let skills = folded.iter().find(|(l, _, _)| l == "skills").expect("a skill listing");
        assert!(skills.1.starts_with("Skills listed for the model: "), "{}", skills.1);
        assert!(skills.2.starts_with("- session-start-hook: "), "{}", skills.2);
    }
}
