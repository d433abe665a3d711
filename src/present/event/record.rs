//! What a record row says: a page the session published (`frame-link`), tool outputs replaced in
//! what the model sees (`content-replacement`), a memory mode (`memory-mode`), a worktree entered
//! or left (`worktree-state`). Their fields are read from the line when the row is shown.

use serde_json::Value;

use super::{EventView, Tone};
use crate::model::{body, RecordEntry, RecordKind};
use crate::normalize::about::{Worktree, WorktreeSaid};
use crate::normalize::{Item, Workspace};
use crate::present::fields::{fields_in_words, first_str};
use crate::text::format::{isolate, plural};
use crate::text::markup::safe_href;

pub(crate) fn record_view(ws: &Workspace, item: &Item, record: &RecordEntry) -> EventView {
    let src = ws.src(item.line);
    let fields = body::line_value(src, ws.line(item.line)).unwrap_or(Value::Null);
    let line = |text: String, tone: Tone, details: Vec<String>| EventView::Line { text, tone, details };
    match record.kind {
        RecordKind::FrameLink => {
            let url = first_str(&fields, &["frameUrl", "url"]);
            let what = first_str(&fields, &["title", "path"]);
            let label = match what.is_empty() {
                true => "Published a page".to_owned(),
                false => format!("Published {what}"),
            };
            match safe_href(&url) {
                Some(href) => EventView::Link { label, href: Some(href) },
                None => line(label, Tone::Normal, fields_in_words(&fields, &[])),
            }
        }
        RecordKind::ContentReplacement => {
            let replaced = fields.get("replacements").and_then(Value::as_array).map(Vec::as_slice);
            let replaced = replaced.unwrap_or_default();
            let details = replaced.iter().map(replacement).collect();
            let text = format!(
                "{} replaced in what the model sees (kept on disk)",
                plural(replaced.len() as u64, "tool output")
            );
            line(text, Tone::Quiet, details)
        }
        RecordKind::MemoryMode => {
            let mode = first_str(&fields, &["memoryMode", "mode"]);
            let text = match mode.is_empty() {
                true => "Memory mode changed".to_owned(),
                false => format!("Memory mode: {mode}"),
            };
            line(text, Tone::Normal, fields_in_words(&fields, &[]))
        }
        RecordKind::WorktreeState => match Worktree::said(src, record.value) {
            WorktreeSaid::In(w) => {
                let name = w.worktree_name.as_deref().map(isolate).unwrap_or_else(|| "a worktree".into());
                let mut details = Vec::new();
                details.extend(w.worktree_path.map(|p| format!("path: {p}")));
                details.extend(w.worktree_branch.map(|b| format!("branch: {b}")));
                details.extend(w.original_cwd.map(|c| format!("from: {c}")));
                line(format!("Working in worktree {name}"), Tone::Normal, details)
            }
            WorktreeSaid::Left => line("Left the worktree".into(), Tone::Normal, vec![]),
            WorktreeSaid::Unreadable => {
                line("The worktree changed".into(), Tone::Unknown, fields_in_words(&fields, &[]))
            }
        },
    }
}

/// One replaced output: the call it was, and the start of what the model sees instead.
fn replacement(r: &Value) -> String {
    let id = first_str(r, &["toolUseId", "tool_use_id", "id"]);
    let instead = first_str(r, &["replacement", "content", "text", "preview"]);
    let instead: String =
        instead.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(160).collect();
    match (id.is_empty(), instead.is_empty()) {
        (false, false) => format!("{id}: {instead}"),
        (false, true) => id,
        (true, _) => instead,
    }
}

#[cfg(test)]
mod tests {
    use crate::normalize::{normalize, Input, ItemKind, LineRef, NotShown};
    use crate::present::event::{event_view, EventView};

    fn rows(lines: &[&str]) -> (crate::normalize::Workspace, Vec<EventView>) {
        let ws = normalize(vec![Input { name: "s.jsonl".into(), bytes: lines.join("\n").into_bytes() }]);
        let thread = &ws.sessions[0].thread;
        let views = thread
            .items
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::Event))
            .map(|i| event_view(&ws, i))
            .collect();
        (ws, views)
    }

    // Written from the documented shapes (CLAUDE_CODE_FORMAT.md, 2.1.332, with field names as
    // Claude Code's writer spells them); no real line in ../shared/fixtures holds them.
    const PROMPT: &str = r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"publish the report"}}"#;

    #[test]
    fn a_published_page_is_a_link_and_a_hostile_one_is_text() {
        let (_, views) = rows(&[
            PROMPT,
            r#"{"type":"frame-link","sessionId":"s","path":"/tmp/report.html","frameUrl":"https://claude.ai/code/artifact/abc","title":"Board Styles","artifactCount":1,"timestamp":"2026-11-20T10:00:01Z"}"#,
            r#"{"type":"frame-link","sessionId":"s","path":"/tmp/x.html","frameUrl":"javascript:alert(1)","timestamp":"2026-11-20T10:00:02Z"}"#,
        ]);
        assert_eq!(
            views[0],
            EventView::Link {
                label: "Published Board Styles".into(),
                href: Some("https://claude.ai/code/artifact/abc".into())
            }
        );
        let EventView::Line { text, details, .. } = &views[1] else { panic!("{:?}", views[1]) };
        assert_eq!(text, "Published /tmp/x.html");
        assert!(details.contains(&"frameUrl: javascript:alert(1)".to_owned()), "said as text: {details:?}");
    }

    #[test]
    fn a_worktree_is_a_row_when_it_changes_and_the_header_knows_the_last() {
        let (ws, views) = rows(&[
            r#"{"type":"worktree-state","worktreeSession":null,"sessionId":"s"}"#,
            PROMPT,
            r#"{"type":"worktree-state","worktreeSession":{"originalCwd":"/repo","worktreePath":"/repo/.claude/worktrees/fix","worktreeName":"fix","worktreeBranch":"worktree-fix"},"sessionId":"s"}"#,
            r#"{"type":"worktree-state","worktreeSession":{"originalCwd":"/repo","worktreePath":"/repo/.claude/worktrees/fix","worktreeName":"fix","worktreeBranch":"worktree-fix"},"sessionId":"s"}"#,
            r#"{"type":"worktree-state","worktreeSession":null,"sessionId":"s"}"#,
        ]);
        let texts: Vec<String> = views
            .iter()
            .map(|v| match v {
                EventView::Line { text, .. } => text.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, ["Working in worktree \u{2068}fix\u{2069}", "Left the worktree"]);
        let s = &ws.sessions[0];
        assert_eq!(s.about.state.worktree, None, "left at the end");
        let not_shown = |line| s.not_shown.contains(&(LineRef { file: 0, line }, NotShown::Metadata));
        assert!(not_shown(0), "no worktree to begin with");
        assert!(not_shown(3), "written again unchanged");
    }

    #[test]
    fn a_worktree_written_in_an_unexpected_shape_is_not_said_to_be_left() {
        let (ws, views) = rows(&[
            PROMPT,
            r#"{"type":"worktree-state","worktreeSession":{"worktreeName":"fix","worktreePath":7},"sessionId":"s"}"#,
            r#"{"type":"worktree-state","worktreeSession":"fix","sessionId":"s"}"#,
        ]);
        let texts: Vec<String> = views
            .iter()
            .map(|v| match v {
                EventView::Line { text, .. } => text.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        // A path of the wrong type leaves only the path unknown; a string is no worktree at all.
        assert_eq!(texts, ["Working in worktree \u{2068}fix\u{2069}", "The worktree changed"]);
        let worktree =
            ws.sessions[0].about.state.worktree.as_ref().expect("still in it, as far as anyone can tell");
        assert_eq!(
            (worktree.worktree_name.as_deref(), worktree.worktree_path.as_deref()),
            (Some("fix"), None)
        );
    }

    #[test]
    fn replaced_outputs_and_memory_modes_say_what_they_hold() {
        let (_, views) = rows(&[
            PROMPT,
            r#"{"type":"content-replacement","sessionId":"s","replacements":[{"toolUseId":"toolu_01","replacement":"Output saved to tool-results/toolu_01.txt (2.1 MB)"}]}"#,
            r#"{"type":"memory-mode","sessionId":"s","mode":"auto"}"#,
        ]);
        let EventView::Line { text, details, .. } = &views[0] else { panic!() };
        assert_eq!(text, "1 tool output replaced in what the model sees (kept on disk)");
        assert_eq!(details, &["toolu_01: Output saved to tool-results/toolu_01.txt (2.1 MB)"]);
        let EventView::Line { text, .. } = &views[1] else { panic!() };
        assert_eq!(text, "Memory mode: auto");
    }
}
