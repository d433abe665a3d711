//! Claude's services the session called on claude.ai: Projects (a project's documents and
//! memory: read, searched, written, deleted), Claude Design (an operation and its answer) and
//! RemoteTrigger (triggers that start remote sessions: listed, created, run).

use serde_json::Value;

use super::facts::{self, Facts, Listed};
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::{plural, size};

pub fn cloud(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    match call.tool {
        Tool::Projects => projects(call, &mut facts),
        Tool::ClaudeDesign => design(call, &mut facts),
        _ => trigger(call, &mut facts),
    }
    facts
}

/// Projects: what the method did to the project, from the result when there is one.
fn projects(call: &CallView, facts: &mut Facts) {
    let input = Some(&call.input);
    let result = facts::result_object(call);
    let method = facts::text(result, "method").or(facts::text(input, "method")).unwrap_or_default();
    let path = facts::text(result, "path").or(facts::text(input, "path"));
    facts.field("project", Some(facts::words(method.strip_prefix("project_").unwrap_or(&method))));
    match method.as_str() {
        "project_info" => {
            facts.field("name", facts::text(result, "name"));
            facts.field(
                "documents",
                result.map(|r| plural(facts::list(Some(r), "docs").len() as u64, "document")),
            );
            facts.text("description", facts::text(result, "description"));
            facts.items = facts::list(result, "docs")
                .iter()
                .map(|d| Listed::new(facts::text(Some(d), "path").unwrap_or_default()))
                .collect();
        }
        "project_search" => {
            facts.field("query", facts::text(input, "query"));
            facts.items = facts::list(result, "hits")
                .iter()
                .map(|h| {
                    let name = facts::text(Some(h), "name").unwrap_or_default();
                    Listed::new(name)
                        .note(facts::number(Some(h), "page").map(|p| format!("page {p}")))
                        .with_text(facts::text(Some(h), "text"))
                })
                .collect();
            if result.is_some() {
                facts.field("found", Some(plural(facts.items.len() as u64, "passage")));
            }
        }
        "project_write" => {
            facts.field("document", path);
            let replaced = facts::flag(result, "replaced");
            facts.field(
                "written",
                replaced.map(|r| if r { "replaced the one there was" } else { "new" }.to_owned()),
            );
            facts.field("from", facts::text(input, "local_path"));
            let shown = facts::flag(result, "present_to_user").or(facts::flag(input, "present_to_user"));
            facts.field(
                "for the person",
                (shown == Some(true)).then(|| "yes, it is what they asked for".to_owned()),
            );
            facts.text("content", facts::text(input, "content"));
        }
        "project_delete" => {
            facts.field("document", path);
            facts.field(
                "deleted",
                facts::flag(result, "deleted").map(|d| if d { "yes" } else { "no" }.to_owned()),
            );
        }
        "project_memory_list" => {
            facts.items = facts::list(result, "files")
                .iter()
                .map(|f| {
                    let note = [
                        facts::number(Some(f), "size_bytes").map(|b| size(b as usize)),
                        facts::text(Some(f), "updated_at"),
                    ];
                    Listed::new(facts::text(Some(f), "path").unwrap_or_default())
                        .note(Some(note.into_iter().flatten().collect::<Vec<_>>().join(" · ")))
                })
                .collect();
            if result.is_some() {
                facts.field("memory", Some(plural(facts.items.len() as u64, "file")));
            }
        }
        // project_read and project_memory_read: the document and what it holds.
        _ => {
            facts.field("document", path);
            facts.field("saved to", facts::text(result, "local_file"));
            facts.text("content", facts::text(result, "content"));
        }
    }
    facts.field("notice", facts::text(result, "notice"));
    if result.is_some() {
        facts.said();
    }
}

/// Claude Design: the operation, its arguments, and the answer's text.
fn design(call: &CallView, facts: &mut Facts) {
    let input = Some(&call.input);
    let result = facts::result_object(call);
    facts.field("operation", facts::text(result, "operation").or(facts::text(input, "operation")));
    if let Some(Value::Object(arguments)) = call.input.get("arguments") {
        facts.items = arguments
            .iter()
            .map(|(name, value)| {
                let value = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
                Listed::new(name.clone()).note(Some("argument".to_owned())).with_text(Some(value))
            })
            .collect();
    }
    let Some(result) = result else { return };
    let answer: Vec<&str> = facts::list(Some(result), "content")
        .iter()
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    facts.field("failed", (facts::flag(Some(result), "isError") == Some(true)).then(|| "yes".to_owned()));
    facts.text("answer", Some(answer.join("\n\n")));
    // Blocks other than text (an image, a file) are in what the model was told.
    if facts.text.is_some() {
        facts.said();
    }
}

/// RemoteTrigger: the action on which trigger or run, and what the API answered.
fn trigger(call: &CallView, facts: &mut Facts) {
    let input = Some(&call.input);
    let result = facts::result_object(call);
    facts.field("action", facts::text(input, "action").map(|a| facts::words(&a)));
    facts.field("trigger", facts::text(input, "trigger_id"));
    facts.field("run", facts::text(input, "session_id"));
    facts.field("answer", facts::number(result, "status").map(|s| format!("HTTP {s}")));
    facts.text("summary", facts::text(result, "summary"));
    // Without a summary, the answer's JSON is what the model was told: it stays below.
    if facts.text.is_some() {
        facts.said();
    }
}

#[cfg(test)]
mod tests {
    use super::super::facts::Facts;
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::Cloud(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_project_write_and_search_say_what_they_did() {
        let write = body(documented(
            "Projects",
            json!({"method": "project_write", "path": "plan.md", "content": "# Plan", "present_to_user": true}),
            "Written",
            json!({"method": "project_write", "path": "claude/plan.md", "doc_uuid": "d1", "replaced": false,
                   "present_to_user": true}),
        ));
        assert_eq!(
            write.fields,
            [
                ("project", "write".to_owned()),
                ("document", "claude/plan.md".to_owned()),
                ("written", "new".to_owned()),
                ("for the person", "yes, it is what they asked for".to_owned())
            ]
        );
        assert_eq!(write.text, Some(("content", "# Plan".to_owned())));
        let search = body(documented(
            "Projects",
            json!({"method": "project_search", "query": "retention policy"}),
            "2 hits",
            json!({"method": "project_search", "rag": true, "hits": [
                {"name": "policy.pdf", "text": "Logs are kept 30 days", "page": 4}, {"name": "faq.md", "text": "…"}]}),
        ));
        assert_eq!(
            search.fields[1..],
            [("query", "retention policy".to_owned()), ("found", "2 passages".to_owned())]
        );
        assert_eq!(search.items[0].note.as_deref(), Some("page 4"));
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_design_call_and_a_trigger_say_what_came_back() {
        let design = body(documented(
            "ClaudeDesign",
            json!({"operation": "create_mockup", "arguments": {"prompt": "a login page"}}),
            "Created",
            json!({"operation": "create_mockup", "content": [{"type": "text", "text": "Mockup created"}]}),
        ));
        assert_eq!(design.fields, [("operation", "create_mockup".to_owned())]);
        assert_eq!(design.items[0].title, "prompt");
        assert_eq!(design.items[0].text.as_deref(), Some("a login page"));
        assert_eq!(design.text, Some(("answer", "Mockup created".to_owned())));
        let run = body(documented(
            "RemoteTrigger",
            json!({"action": "run", "trigger_id": "trg_1"}),
            "{\"ok\":true}",
            json!({"status": 200, "json": "{\"ok\":true}", "summary": "Started run cse_9"}),
        ));
        assert_eq!(
            run.fields,
            [
                ("action", "run".to_owned()),
                ("trigger", "trg_1".to_owned()),
                ("answer", "HTTP 200".to_owned())
            ]
        );
        assert_eq!(run.text, Some(("summary", "Started run cse_9".to_owned())));
    }
}
