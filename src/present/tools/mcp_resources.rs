//! MCP servers' resources and tools: ListMcpResources (what resources servers offer),
//! ReadMcpResource (what one held), ReadMcpResourceDir (what a directory resource holds) and
//! RefreshMcpTools (each server's tools asked for again: how many now, which came and went).

use serde_json::Value;

use super::facts::{self, Facts, Listed};
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::plural;

pub fn mcp_resources(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    facts.field("server", call.text("server").map(str::to_owned));
    facts.field("uri", call.text("uri").map(str::to_owned));
    match (&call.tool, call.structured()) {
        (_, Some(ToolUseResult::ReadMcpResource(read))) => {
            facts.field("error", read.error.clone());
            facts.items = read
                .contents
                .iter()
                .map(|c| {
                    let saved = c.blob_saved_to.as_ref().map(|path| format!("saved to {path}"));
                    Listed::new(c.uri.clone()).note(c.mime_type.clone()).with_text(c.text.clone().or(saved))
                })
                .collect();
            facts.said();
        }
        (_, Some(ToolUseResult::ReadMcpResourceDir(dir))) => {
            facts.field("error", dir.error.clone());
            facts.field("holds", Some(plural(dir.resources.len() as u64, "resource")));
            facts.items = dir
                .resources
                .iter()
                .map(|r| {
                    let kind = match r.mime_type.as_deref() {
                        Some("inode/directory") => Some("directory".to_owned()),
                        other => other.map(str::to_owned),
                    };
                    Listed::new(if r.name.is_empty() { r.uri.clone() } else { r.name.clone() })
                        .note(kind)
                        .with_text((!r.name.is_empty()).then(|| r.uri.clone()))
                })
                .collect();
            facts.said();
        }
        (Tool::ListMcpResources, _) => {
            if let Some(resources) = facts::result_list(call) {
                facts.field("found", Some(plural(resources.len() as u64, "resource")));
                facts.items = resources.iter().map(resource).collect();
                facts.said();
            }
        }
        (Tool::RefreshMcpTools, _) => {
            if let Some(servers) = facts::result_list(call) {
                facts.items = servers.iter().map(refreshed).collect();
                facts.said();
            }
        }
        _ => {}
    }
    facts
}

/// A resource a server offers: its name, server and type, its URI and description.
fn resource(r: &Value) -> Listed {
    let r = Some(r);
    let name = facts::text(r, "name").or(facts::text(r, "uri")).unwrap_or_default();
    let note: Vec<String> =
        [facts::text(r, "server"), facts::text(r, "mimeType")].into_iter().flatten().collect();
    let text: Vec<String> =
        [facts::text(r, "uri"), facts::text(r, "description")].into_iter().flatten().collect();
    Listed::new(name).note(Some(note.join(" · "))).with_text(Some(text.join("\n\n")))
}

/// One server refreshed: refreshed with how many tools (and which came and went), failed and why,
/// or not connected.
fn refreshed(server: &Value) -> Listed {
    let s = Some(server);
    let status = match facts::text(s, "status").as_deref() {
        Some("refreshed") => match facts::number(s, "toolCount") {
            Some(n) => format!("refreshed: {}", plural(n, "tool")),
            None => "refreshed".to_owned(),
        },
        Some("error") => "failed, kept its tools".to_owned(),
        Some("not_connected") => "not connected".to_owned(),
        Some(other) => other.to_owned(),
        None => String::new(),
    };
    let names = |key: &str| {
        let names: Vec<&str> = facts::list(s, key).iter().filter_map(Value::as_str).collect();
        (!names.is_empty()).then(|| names.join(", "))
    };
    let changes: Vec<String> = [
        names("added").map(|n| format!("added: {n}")),
        names("removed").map(|n| format!("removed: {n}")),
        facts::text(s, "error"),
    ]
    .into_iter()
    .flatten()
    .collect();
    Listed::new(facts::text(s, "server").unwrap_or_default())
        .note(Some(status))
        .with_text(Some(changes.join("\n\n")))
}

#[cfg(test)]
mod tests {
    use super::super::facts::Facts;
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::McpResources(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn resources_listed_read_and_browsed_say_what_each_server_had() {
        let listed = body(documented(
            "ListMcpResources",
            json!({"server": "docs"}),
            "1 resource",
            json!([{"uri": "docs://guide", "name": "Guide", "mimeType": "text/markdown", "server": "docs"}]),
        ));
        assert_eq!(listed.fields, [("server", "docs".to_owned()), ("found", "1 resource".to_owned())]);
        assert_eq!(listed.items[0].title, "Guide");
        assert_eq!(listed.items[0].note.as_deref(), Some("docs · text/markdown"));
        assert_eq!(listed.items[0].text.as_deref(), Some("docs://guide"));

        let read = body(documented(
            "ReadMcpResource",
            json!({"server": "docs", "uri": "docs://guide"}),
            "…",
            json!({"contents": [{"uri": "docs://guide", "mimeType": "text/markdown", "text": "# Guide"},
                                {"uri": "docs://logo", "blobSavedTo": "/tmp/logo.png"}]}),
        ));
        assert_eq!(read.items[0].text.as_deref(), Some("# Guide"));
        assert_eq!(read.items[1].text.as_deref(), Some("saved to /tmp/logo.png"));
        assert_eq!(read.told, None);

        let dir = body(documented(
            "ReadMcpResourceDir",
            json!({"server": "docs", "uri": "docs://"}),
            "…",
            json!({"resources": [{"uri": "docs://api/", "name": "api", "mimeType": "inode/directory"}]}),
        ));
        assert_eq!(dir.fields.last(), Some(&("holds", "1 resource".to_owned())));
        assert_eq!(dir.items[0].note.as_deref(), Some("directory"));
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_refresh_says_per_server_what_came_and_went() {
        let refresh = body(documented(
            "RefreshMcpTools",
            json!({}),
            "Refreshed",
            json!([{"server": "github", "status": "refreshed", "toolCount": 12, "added": ["create_pr"], "removed": ["old_pr"]},
                   {"server": "jira", "status": "not_connected"}]),
        ));
        assert_eq!(refresh.items[0].title, "github");
        assert_eq!(refresh.items[0].note.as_deref(), Some("refreshed: 12 tools"));
        assert_eq!(refresh.items[0].text.as_deref(), Some("added: create_pr\n\nremoved: old_pr"));
        assert_eq!(refresh.items[1].note.as_deref(), Some("not connected"));
        assert_eq!(refresh.items[1].text, None);
    }
}
