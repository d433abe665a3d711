//! The panel of a tool whose result is a few facts (a worktree entered, a notification sent, a
//! goal proposed, a resource read, an artifact published): what happened in labelled lines, a
//! text the call carried, what it listed, and what the model was told when the facts do not say
//! it. The families that say their calls this way each build [`Facts`] from their own fields.

use serde_json::Value;

use super::Output;
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;
use crate::text::markup::safe_href;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// What happened, as (label, value), in the order it is told.
    pub fields: Vec<(&'static str, String)>,
    /// A text the call carried or got back (a message, a condition, a skill's instructions), with
    /// its label; Markdown.
    pub text: Option<(&'static str, String)>,
    /// What the call listed (resources, findings, artifacts, notifications).
    pub items: Vec<Listed>,
    /// What the tool told the model, while the facts above do not say what happened: no
    /// structured result, a failure, or no result at all.
    pub told: Option<Output>,
}

/// One thing a call listed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listed {
    pub title: String,
    /// Where it links to: only an absolute http(s) URL (`safe_href`), never anything else.
    pub href: Option<String>,
    /// A few words beside the title: a kind, a state, a size.
    pub note: Option<String>,
    /// Text under it, Markdown.
    pub text: Option<String>,
}

impl Facts {
    /// No facts yet, and what the tool told the model.
    pub(super) fn new(call: &CallView) -> Facts {
        Facts { told: Some(Output::of(call)), ..Facts::default() }
    }

    /// Adds `label: value` when there is a value.
    pub(super) fn field(&mut self, label: &'static str, value: Option<String>) {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            self.fields.push((label, value));
        }
    }

    pub(super) fn text(&mut self, label: &'static str, value: Option<String>) {
        self.text = value.filter(|v| !v.trim().is_empty()).map(|v| (label, v));
    }

    /// The structured result said what happened: the model's copy of it is not shown again,
    /// unless the tool reported a failure.
    pub(super) fn said(&mut self) {
        if !matches!(self.told, Some(Output::Result { is_error: true, .. })) {
            self.told = None;
        }
    }
}

impl Listed {
    pub(super) fn new(title: impl Into<String>) -> Listed {
        Listed { title: title.into(), ..Listed::default() }
    }

    /// Links to `url` when it is http(s); anything else stays text in the title.
    pub(super) fn link(mut self, url: Option<&str>) -> Listed {
        self.href = url.and_then(safe_href);
        self
    }

    pub(super) fn note(mut self, note: Option<String>) -> Listed {
        self.note = note.filter(|n| !n.is_empty());
        self
    }

    pub(super) fn with_text(mut self, text: Option<String>) -> Listed {
        self.text = text.filter(|t| !t.trim().is_empty());
        self
    }
}

/// The structured result as JSON, for the results read field by field: an object (a shape
/// cctv does not type, or one that did not fit its type), or `None`.
pub(super) fn result_object(call: &CallView) -> Option<&Value> {
    call.structured_fields().filter(|v| v.is_object())
}

/// The structured result when it is a list (MCP resources, servers refreshed).
pub(super) fn result_list(call: &CallView) -> Option<&[Value]> {
    match call.structured()? {
        ToolUseResult::List(items) => Some(items),
        _ => None,
    }
}

/// A non-empty string at `key`.
pub(super) fn text(value: Option<&Value>, key: &str) -> Option<String> {
    value?.get(key)?.as_str().filter(|s| !s.trim().is_empty()).map(str::to_owned)
}

/// A number at `key` (written as a number, or as a string of digits).
pub(super) fn number(value: Option<&Value>, key: &str) -> Option<u64> {
    match value?.get(key)? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

pub(super) fn flag(value: Option<&Value>, key: &str) -> Option<bool> {
    value?.get(key)?.as_bool()
}

/// The list at `key`, or none.
pub(super) fn list<'v>(value: Option<&'v Value>, key: &str) -> &'v [Value] {
    value.and_then(|v| v.get(key)).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// A value with a kebab- or snake-case name in words: `missing_capability` → `missing capability`.
pub(super) fn words(name: &str) -> String {
    name.replace(['_', '-'], " ")
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};

    /// The tools said as facts.
    const TOOLS: &[&str] = &[
        "EnterWorktree",
        "ExitWorktree",
        "PushNotification",
        "SendUserFile",
        "ReadNotifications",
        "ProposeGoal",
        "ProposeSkills",
        "ReportFindings",
        "SendFeedback",
        "ListMcpResources",
        "ReadMcpResource",
        "ReadMcpResourceDir",
        "RefreshMcpTools",
        "Artifact",
        "Projects",
        "ClaudeDesign",
        "RemoteTrigger",
        "ListAgents",
        "OfferChromeSetup",
        "ShowOnboardingRolePicker",
    ];

    fn facts(body: ToolBody) -> Option<super::Facts> {
        match body {
            ToolBody::Worktree(f)
            | ToolBody::Notify(f)
            | ToolBody::Proposal(f)
            | ToolBody::Report(f)
            | ToolBody::McpResources(f)
            | ToolBody::Artifact(f)
            | ToolBody::Cloud(f)
            | ToolBody::App(f) => Some(f),
            _ => None,
        }
    }

    #[test]
    fn inputs_and_results_of_the_wrong_type_give_a_panel_never_a_panic() {
        // Every field these tools read, with a value of every wrong type (and PowerShell's and
        // NotebookEdit's, drawn by the shell and edit families).
        let keys = [
            "action",
            "path",
            "name",
            "message",
            "file_path",
            "condition",
            "proposals",
            "findings",
            "level",
            "type",
            "title",
            "server",
            "uri",
            "method",
            "operation",
            "arguments",
            "trigger_id",
            "reason",
            "url",
            "contents",
            "resources",
            "notifications",
            "artifacts",
            "read",
            "watch",
            "watches",
            "asset_uploads",
            "hits",
            "docs",
            "files",
            "content",
            "status",
            "worktreePath",
            "discardedFiles",
            "count",
            "role",
            "outcome",
            "pushSent",
        ];
        let wrong =
            [json!(null), json!(7), json!(-1.5), json!("text"), json!([1, "a", null, {}]), json!({"x": []})];
        for tool in TOOLS.iter().chain(&["PowerShell", "NotebookEdit"]) {
            for value in &wrong {
                let object: Value = keys
                    .iter()
                    .map(|k| (k.to_string(), value.clone()))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
                for (input, result) in [(object.clone(), object.clone()), (value.clone(), value.clone())] {
                    let call = documented(tool, input, "told", result);
                    let body = tool_body(&call, None);
                    let own = match *tool {
                        "PowerShell" => matches!(body, ToolBody::Bash(_)),
                        "NotebookEdit" => matches!(body, ToolBody::Edit(_)),
                        _ => facts(body).is_some(),
                    };
                    assert!(own, "{tool} keeps its family's panel");
                    let _ = (call.target(), call.detail());
                }
            }
        }
    }

    #[test]
    fn a_result_that_is_no_object_leaves_what_the_model_was_told_on_the_panel() {
        for tool in TOOLS {
            let call = documented(tool, json!({}), "what the tool said", json!(5));
            let panel = facts(tool_body(&call, None)).unwrap();
            assert!(panel.told.is_some(), "{tool}: {panel:?}");
        }
    }
}
