//! Which rows the reader asked to see.

use crate::model::{EntryKind, SystemSubtype};
use crate::normalize::{ItemKind, Session, ThreadRef, Workspace};

/// Which kinds of items are shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    pub user: bool,
    pub assistant: bool,
    pub thinking: bool,
    pub tools: bool,
    pub system: bool,
    /// Text Claude Code injected for the model (`isMeta` prompts, reminders, notifications):
    /// Claude Code itself does not show it; cctv shows it folded unless asked not to.
    pub injected: bool,
    /// Only errors (failed tools, API errors, malformed and unknown lines).
    pub errors_only: bool,
    /// Only calls of this tool.
    pub tool: Option<String>,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            user: true,
            assistant: true,
            thinking: true,
            tools: true,
            system: true,
            injected: true,
            errors_only: false,
            tool: None,
        }
    }
}

impl Filter {
    /// Whether item `item` of `thread` passes.
    pub fn keeps(&self, ws: &Workspace, session: &Session, thread: ThreadRef, item: u32) -> bool {
        let Some(item) = session.item(thread, item) else { return false };
        let error = match &item.kind {
            ItemKind::ToolCall(call) => call.result.is_some_and(|r| r.failed()),
            ItemKind::Unknown | ItemKind::Malformed | ItemKind::UnknownBlock => true,
            ItemKind::Event => matches!(
                ws.entry(item.line).map(|e| &e.kind),
                Some(EntryKind::System(s)) if s.subtype == SystemSubtype::ApiError
            ),
            _ => item.synthetic,
        };
        if self.errors_only && !error {
            return false;
        }
        if !self.injected && (item.meta || matches!(item.kind, ItemKind::Injected)) {
            return false;
        }
        // Picking one tool shows its calls and nothing else.
        if let Some(tool) = &self.tool {
            return matches!(&item.kind, ItemKind::ToolCall(call) if call.name.is_some_and(|n| n.decode(ws.src(item.line)) == *tool));
        }
        match &item.kind {
            ItemKind::Prompt | ItemKind::Command(_) | ItemKind::Shell(_) => self.user,
            ItemKind::Text | ItemKind::RedactedThinking => self.assistant,
            ItemKind::Thinking => self.thinking,
            ItemKind::ToolCall(_) | ItemKind::OrphanResult => self.tools,
            ItemKind::Event
            | ItemKind::Injected
            | ItemKind::CompactBoundary(_)
            | ItemKind::Unknown
            | ItemKind::Malformed
            | ItemKind::UnknownBlock => self.system,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{normalize, Input};
    use crate::present::rows::rows;

    fn general() -> Workspace {
        crate::present::tools::test_support::fixture(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        )
    }

    #[test]
    fn picking_a_tool_shows_only_its_calls() {
        let ws = general();
        let s = &ws.sessions[0];
        let filter = Filter { tool: Some("Bash".into()), ..Filter::default() };
        let shown = rows(s, &Default::default(), &|t, i| filter.keeps(&ws, s, t, i));
        assert_eq!(shown.len() as u64, s.stats.tool_calls["Bash"]);
        for row in shown {
            let ItemKind::ToolCall(call) = &s.item(row.thread, row.item).unwrap().kind else { panic!() };
            assert_eq!(call.name.unwrap().decode(ws.src(s.item(row.thread, row.item).unwrap().line)), "Bash");
        }
    }

    #[test]
    fn injected_text_can_be_hidden() {
        // moredip 0ccf1a04 has task notifications and a slash command's expanded (meta) prompt.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/fixtures/moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl"
        );
        let ws = normalize(vec![Input { name: "s.jsonl".into(), bytes: std::fs::read(path).unwrap() }]);
        let s = &ws.sessions[0];
        let shown = |filter: &Filter| rows(s, &Default::default(), &|t, i| filter.keeps(&ws, s, t, i));
        let all = shown(&Filter::default());
        let without = shown(&Filter { injected: false, ..Filter::default() });
        let injected = |r: &crate::present::rows::Row| {
            let item = s.item(r.thread, r.item).unwrap();
            item.meta || matches!(item.kind, ItemKind::Injected)
        };
        assert!(all.iter().any(injected));
        assert!(!without.iter().any(injected));
        assert_eq!(all.len() - without.len(), all.iter().filter(|r| injected(r)).count());
    }

    #[test]
    fn turning_kinds_off_hides_them() {
        let ws = general();
        let s = &ws.sessions[0];
        let all = rows(s, &Default::default(), &|t, i| Filter::default().keeps(&ws, s, t, i));
        let filter = Filter { tools: false, thinking: false, ..Filter::default() };
        let some = rows(s, &Default::default(), &|t, i| filter.keeps(&ws, s, t, i));
        assert!(some.len() < all.len());
        assert!(some.iter().all(|r| !matches!(
            s.item(r.thread, r.item).unwrap().kind,
            ItemKind::ToolCall(_) | ItemKind::Thinking
        )));
    }
}
