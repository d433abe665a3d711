//! Which rows the reader asked to see.

use crate::model::{EntryKind, SystemSubtype};
use crate::normalize::{ItemKind, ItemRef, Session, Workspace};
use crate::present::event::is_injected_context;
use crate::present::rows::Choices;

/// Which kinds of items are shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    pub user: bool,
    pub assistant: bool,
    pub thinking: bool,
    pub tools: bool,
    pub system: bool,
    /// Text Claude Code injected for the model (`isMeta` prompts, reminders, notifications, and
    /// attachments of context: listings, memory files, instructions): Claude Code itself does not
    /// show it; cctv shows it folded unless asked not to.
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
    /// The choices rows are listed with under this filter: one that picks rows across the whole
    /// session (one tool's calls, errors only) looks inside every sub-agent, as the side panel's
    /// counts it is read against do.
    pub fn widen(&self, session: &Session, mut choices: Choices) -> Choices {
        if self.tool.is_some() || self.errors_only {
            choices.open_agents.extend(0..session.agents.len() as u32);
        }
        choices
    }

    /// Whether item `item` of `thread` passes.
    pub fn keeps(&self, ws: &Workspace, session: &Session, at: ItemRef) -> bool {
        let Some(item) = session.item(at.thread, at.item) else { return false };
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
        // Asked only when injected text is hidden: reading an attachment's type is not free on
        // every row of a long session.
        let injected = || {
            item.meta
                || matches!(item.kind, ItemKind::Injected)
                || (matches!(item.kind, ItemKind::Event) && is_injected_context(ws, item))
        };
        if !self.injected && injected() {
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
    use crate::normalize::ThreadRef;
    use crate::present::rows::rows;

    fn general() -> Workspace {
        crate::fixtures::workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        )
    }

    fn shown(ws: &Workspace, filter: &Filter) -> Vec<crate::present::rows::Row> {
        let s = &ws.sessions[0];
        rows(s, &filter.widen(s, Choices::default()), &|at| filter.keeps(ws, s, at))
    }

    #[test]
    fn a_tool_filter_and_errors_only_show_what_the_side_panel_counts_sub_agents_included() {
        // marot 8463c716: Bash calls in the main line and in its sub-agents; tool errors.
        let ws = crate::fixtures::workspace(
            "marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl",
        );
        let s = &ws.sessions[0];
        let in_agents = |rows: &[crate::present::rows::Row]| {
            rows.iter().filter(|r| matches!(r.thread, ThreadRef::Agent(_))).count()
        };
        for tool in ["Bash", "Read", "Grep"] {
            let bash = shown(&ws, &Filter { tool: Some(tool.into()), ..Filter::default() });
            assert_eq!(bash.len() as u64, s.stats.tool_calls[tool], "{tool}");
        }
        let bash = shown(&ws, &Filter { tool: Some("Bash".into()), ..Filter::default() });
        assert!(in_agents(&bash) > 0, "the sub-agents' Bash calls are among them");
        let errors = shown(&ws, &Filter { errors_only: true, ..Filter::default() });
        let counted = errors
            .iter()
            .filter(|r| {
                let item = s.item(r.thread, r.item).unwrap();
                matches!(&item.kind, ItemKind::ToolCall(c) if c.result.is_some_and(|r| r.failed()))
            })
            .count() as u64;
        assert!(s.stats.tool_errors > 0);
        assert_eq!(counted, s.stats.tool_errors);
    }

    #[test]
    fn errors_only_shows_every_api_error_counted() {
        let ws = crate::fixtures::workspace(
            "M-Thisness__M-Claude/Archives/7fcdbdcd-c55c-4463-b1d1-3a8d85864ad0.jsonl",
        );
        let s = &ws.sessions[0];
        let errors = shown(&ws, &Filter { errors_only: true, ..Filter::default() });
        assert!(s.stats.api_errors >= 30);
        assert!(errors.len() as u64 >= s.stats.api_errors + s.stats.tool_errors, "{} rows", errors.len());
    }

    #[test]
    fn picking_a_tool_shows_only_its_calls() {
        let ws = general();
        let s = &ws.sessions[0];
        let filter = Filter { tool: Some("Bash".into()), ..Filter::default() };
        let shown = shown(&ws, &filter);
        assert_eq!(shown.len() as u64, s.stats.tool_calls["Bash"]);
        for row in shown {
            let ItemKind::ToolCall(call) = &s.item(row.thread, row.item).unwrap().kind else { panic!() };
            assert_eq!(call.name.unwrap().decode(ws.src(s.item(row.thread, row.item).unwrap().line)), "Bash");
        }
    }

    #[test]
    fn injected_text_can_be_hidden() {
        // moredip 0ccf1a04 has task notifications and a slash command's expanded (meta) prompt.
        let ws = crate::fixtures::workspace(
            "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
        );
        let s = &ws.sessions[0];
        let shown = |filter: &Filter| rows(s, &Default::default(), &|at| filter.keeps(&ws, s, at));
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
    fn injected_context_attachments_are_hidden_with_injected_text() {
        // planetfall 09/cb2aeecea3 (CC 2.1.177): task_reminder, skill_listing, deferred_tools_delta
        // (context for the model) beside queued_command and file (what happened).
        let ws = crate::fixtures::workspace(
            "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl",
        );
        let s = &ws.sessions[0];
        let shown = |filter: &Filter| rows(s, &Default::default(), &|at| filter.keeps(&ws, s, at));
        let context =
            |r: &crate::present::rows::Row| is_injected_context(&ws, s.item(r.thread, r.item).unwrap());
        let all = shown(&Filter::default());
        let without = shown(&Filter { injected: false, ..Filter::default() });
        assert!(all.iter().filter(|r| context(r)).count() >= 3);
        assert!(!without.iter().any(context));
        // What happened stays: the prompt queued while Claude worked is an event, not context.
        let queued = |r: &crate::present::rows::Row| {
            let item = s.item(r.thread, r.item).unwrap();
            matches!(item.kind, ItemKind::Event)
                && ws
                    .entry(item.line)
                    .is_some_and(|e| e.label(ws.src(item.line)).1.as_deref() == Some("queued_command"))
        };
        assert!(without.iter().any(queued));
    }

    #[test]
    fn turning_kinds_off_hides_them() {
        let ws = general();
        let s = &ws.sessions[0];
        let all = rows(s, &Default::default(), &|at| Filter::default().keeps(&ws, s, at));
        let filter = Filter { tools: false, thinking: false, ..Filter::default() };
        let some = rows(s, &Default::default(), &|at| filter.keeps(&ws, s, at));
        assert!(some.len() < all.len());
        assert!(some.iter().all(|r| !matches!(
            s.item(r.thread, r.item).unwrap().kind,
            ItemKind::ToolCall(_) | ItemKind::Thinking
        )));
    }
}
