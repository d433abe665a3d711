//! ToolSearch: the model looked up tools whose definitions Claude Code held back (deferred
//! tools), and these were loaded for it.

use super::{Answer, Output};
use crate::model::body::{ResultItem, ToolResultContent};
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct ToolSearchBody {
    /// `select:TaskCreate` picks tools by name; anything else is a search.
    pub query: String,
    pub found: Answer<Vec<String>>,
    /// How many tools were deferred at the time.
    pub deferred: Option<u64>,
}

impl ToolSearchBody {
    pub fn of(call: &CallView) -> ToolSearchBody {
        let references = |content: &ToolResultContent| match content {
            ToolResultContent::Items(items) => items
                .iter()
                .filter_map(|i| match i {
                    ResultItem::ToolReference { tool_name } => Some(tool_name.clone()),
                    _ => None,
                })
                .collect(),
            ToolResultContent::Text(_) => Vec::new(),
        };
        let (found, deferred) = match (call.structured(), &call.result) {
            (Some(ToolUseResult::ToolSearch(s)), _) => {
                (Answer::Structured(s.matches.clone()), s.total_deferred_tools)
            }
            // Without the structured result, the `tool_reference` blocks name the tools.
            (_, Some(r)) if !r.is_error && !references(&r.content).is_empty() => {
                (Answer::Structured(references(&r.content)), None)
            }
            _ => (Answer::Plain(Output::of(call)), None),
        };
        ToolSearchBody { query: call.text("query").unwrap_or_default().to_owned(), found, deferred }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, Answer, ToolBody};
    use crate::fixtures::workspace;

    #[test]
    fn a_tool_search_names_the_tools_it_loaded() {
        let ws = workspace("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");
        let searches = calls(&ws, "ToolSearch");
        let ToolBody::ToolSearch(first) = tool_body(&searches[0], None) else { panic!() };
        assert_eq!(first.query, "select:TaskCreate");
        assert_eq!(first.found, Answer::Structured(vec!["TaskCreate".to_owned()]));
        assert_eq!(first.deferred, Some(55));
    }

    #[test]
    fn without_the_structured_result_the_tool_references_name_them() {
        // This sub-agent's results carry no `toolUseResult`, only `tool_reference` blocks.
        let ws = workspace("handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a4ca7529859c158c2.jsonl");
        let searches = calls(&ws, "ToolSearch");
        assert!(!searches.is_empty());
        for call in &searches {
            let ToolBody::ToolSearch(body) = tool_body(call, None) else { panic!() };
            let Answer::Structured(names) = &body.found else { panic!("{body:?}") };
            assert!(!names.is_empty());
        }
    }
}
