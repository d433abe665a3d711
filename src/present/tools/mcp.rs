//! MCP tools (`mcp__<server>__<tool>`): which server and tool, the arguments, and the result.

use serde_json::Value;

use super::Output;
use crate::model::Tool;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct McpBody {
    pub server: String,
    pub tool: String,
    /// The arguments, one per field; text as text, anything else as JSON.
    pub arguments: Vec<(String, Value)>,
    pub output: Output,
}

impl McpBody {
    pub fn of(call: &CallView) -> Option<McpBody> {
        let Tool::Mcp { server, tool } = call.tool.clone() else { return None };
        let arguments = match &call.input {
            Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            Value::Null => Vec::new(),
            other => vec![(String::new(), other.clone())],
        };
        Some(McpBody { server, tool, arguments, output: Output::of(call) })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tool_body, Output, ToolBody};
    use crate::fixtures::workspace;
    use crate::normalize::ItemKind;
    use crate::present::calls::call_view;

    #[test]
    fn a_real_mcp_call_names_its_server_and_tool_and_keeps_its_result() {
        let ws = workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/images-in-tool-results.jsonl",
        );
        let body = ws.sessions[0]
            .thread
            .items
            .iter()
            .find_map(|item| match &item.kind {
                ItemKind::ToolCall(call) => match tool_body(&call_view(&ws, item, call), None) {
                    ToolBody::Mcp(m) => Some(m),
                    _ => None,
                },
                _ => None,
            })
            .expect("the fixture's MCP call");
        assert!(!body.server.is_empty() && !body.tool.is_empty());
        assert!(matches!(body.output, Output::Result { .. }));
    }
}
