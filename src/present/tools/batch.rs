//! Batch (before 1.0): several tool calls run as one, each named with what it was about, and
//! their results as the model got them.

use serde_json::Value;

use super::Output;
use crate::model::Tool;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct BatchBody {
    pub description: Option<String>,
    /// Each call in the batch: the tool and its target ("Read", "/src/main.rs").
    pub invocations: Vec<(String, String)>,
    pub output: Output,
}

impl BatchBody {
    pub fn of(call: &CallView) -> BatchBody {
        let invocations = call.input.get("invocations").and_then(Value::as_array).map(Vec::as_slice);
        let invocations = invocations
            .unwrap_or_default()
            .iter()
            .map(|i| {
                let name = i.get("tool_name").and_then(Value::as_str).unwrap_or_default().to_owned();
                let input = i.get("input").cloned().unwrap_or(Value::Null);
                let inner =
                    CallView { tool: Tool::from_name(&name), name, input, result: None, loaded: Vec::new() };
                let target = inner.target();
                (inner.name, target)
            })
            .collect();
        BatchBody {
            description: call.text("description").map(str::to_owned),
            invocations,
            output: Output::of(call),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, ToolBody};
    use crate::fixtures::workspace;

    #[test]
    fn a_batch_lists_its_calls_by_tool_and_target() {
        // The oldest session in the fixtures (CC 0.2.106) reads several files in one Batch.
        let ws = workspace("tensiondriven__athena/data/claude-logs/archive/20250608_234910_claude_projects_backup/-Users-j-Code-experiments-notes-export/9acf0b36-fef3-4804-b46c-36f79bf1f248.jsonl");
        let ToolBody::Batch(batch) = tool_body(&calls(&ws, "Batch")[0], None) else { panic!() };
        assert_eq!(batch.description.as_deref(), Some("Read all markdown files"));
        assert_eq!(
            batch.invocations[0],
            ("Read".to_owned(), "/Users/j/Code/experiments/notes-export/notes_schema.md".to_owned())
        );
        assert_eq!(batch.invocations.len(), 2);
    }
}
