//! LSP: a question to the language server (go to definition, find references, hover, symbols)
//! about a place in a file, and its answer.
//!
//! Documented shape (Agent SDK `sdk-tools.d.ts`, Claude Code 2.1.x); no public session has one.

use super::{Answer, Output};
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;
use crate::text::format::plural;

#[derive(Clone, Debug, PartialEq)]
pub struct LspBody {
    /// `goToDefinition`, `findReferences`, `hover`, …
    pub operation: String,
    /// `src/main.rs:12:5` (1-based), or the symbol searched for.
    pub at: String,
    /// The server's answer as text, and `3 results in 2 files`.
    pub answer: Answer<(String, Option<String>)>,
}

impl LspBody {
    pub fn of(call: &CallView) -> LspBody {
        let number = |key: &str| call.input.get(key).and_then(serde_json::Value::as_u64);
        let file = call.text("filePath").unwrap_or_default();
        let at = match (call.text("query"), number("line"), number("character")) {
            (Some(query), _, _) => query.to_owned(),
            (None, Some(line), Some(col)) => format!("{file}:{line}:{col}"),
            (None, Some(line), None) => format!("{file}:{line}"),
            _ => file.to_owned(),
        };
        let answer = match call.structured() {
            Some(ToolUseResult::Other { value, .. }) if value.get("result").is_some() => {
                let text = match &value["result"] {
                    serde_json::Value::String(s) => s.clone(),
                    other => serde_json::to_string_pretty(other).unwrap_or_default(),
                };
                let count = |key: &str| value.get(key).and_then(serde_json::Value::as_u64);
                let counts = match (count("resultCount"), count("fileCount")) {
                    (Some(r), Some(f)) => Some(format!("{} in {}", plural(r, "result"), plural(f, "file"))),
                    (Some(r), None) => Some(plural(r, "result")),
                    _ => None,
                };
                Answer::Structured((text, counts))
            }
            _ => Answer::Plain(Output::of(call)),
        };
        LspBody { operation: call.text("operation").unwrap_or_default().to_owned(), at, answer }
    }

    /// For the header: `hover src/main.rs:12:5`.
    pub fn target(&self) -> String {
        format!("{} {}", self.operation, self.at)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::documented;
    use super::super::{tool_body, Answer, ToolBody};

    #[test]
    fn a_language_server_question_names_the_place_and_counts_the_answers() {
        let call = documented(
            "LSP",
            serde_json::json!({"operation": "findReferences", "filePath": "src/lib.rs", "line": 12, "character": 5}),
            "3 references",
            serde_json::json!({"operation": "findReferences", "result": "src/a.rs:3:1\nsrc/b.rs:9:4\nsrc/b.rs:20:4",
                "filePath": "src/lib.rs", "resultCount": 3, "fileCount": 2}),
        );
        let ToolBody::Lsp(body) = tool_body(&call, None) else { panic!() };
        assert_eq!(body.target(), "findReferences src/lib.rs:12:5");
        let Answer::Structured((text, counts)) = body.answer else { panic!() };
        assert_eq!(text.lines().count(), 3);
        assert_eq!(counts.as_deref(), Some("3 results in 2 files"));
    }
}
