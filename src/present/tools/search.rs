//! Grep and Glob: what was looked for, where, and what was found.

use super::{Answer, Output};
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct SearchBody {
    pub pattern: String,
    pub path: Option<String>,
    /// Grep's file filter.
    pub glob: Option<String>,
    pub found: Answer<SearchOutput>,
    /// Glob stopped at its limit: there are more files than listed.
    pub truncated: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SearchOutput {
    /// Matching lines (Grep in content mode), as the terminal showed them.
    Lines(String),
    /// Matching files.
    Files(Vec<String>),
}

impl SearchBody {
    pub fn of(call: &CallView) -> SearchBody {
        let found = match call.structured() {
            Some(ToolUseResult::Grep(g)) => match &g.content {
                Some(content) => Answer::Structured(SearchOutput::Lines(content.clone())),
                None => Answer::Structured(SearchOutput::Files(g.filenames.clone())),
            },
            Some(ToolUseResult::Glob(g)) => Answer::Structured(SearchOutput::Files(g.filenames.clone())),
            // LS (before 2.0) kept the tree it printed, without the note to the model after it.
            Some(ToolUseResult::Text(tree)) if call.tool == Tool::LS => {
                Answer::Structured(SearchOutput::Lines(tree.clone()))
            }
            _ => Answer::Plain(Output::of(call)),
        };
        let truncated = matches!(call.structured(), Some(ToolUseResult::Glob(g)) if g.truncated);
        SearchBody {
            truncated,
            pattern: call.text("pattern").unwrap_or_default().to_owned(),
            path: call.text("path").map(str::to_owned),
            glob: call.text("glob").map(str::to_owned),
            found,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, Answer, ToolBody};
    use super::SearchOutput;
    use crate::fixtures::workspace;

    #[test]
    fn real_greps_and_globs_show_their_pattern_and_the_files_found() {
        let ws =
            workspace("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
        let mut found_files = 0;
        for name in ["Grep", "Glob"] {
            for call in calls(&ws, name) {
                let ToolBody::Search(body) = tool_body(&call, None) else {
                    panic!("{name} gets the search body")
                };
                assert_eq!(body.pattern, call.text("pattern").unwrap());
                if let Answer::Structured(SearchOutput::Files(files)) = &body.found {
                    found_files += files.len();
                }
            }
        }
        assert!(found_files > 0, "the fixture's searches found files");
    }
}
