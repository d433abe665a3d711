//! `toolUseResult` decoded into the typed shapes the viewer renders, on every real fixture.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::{BTreeMap, HashMap};

use cctv::model::tool_result::{self, ToolUseResult};
use cctv::model::{BlockKind, EntryKind, Tool, Transcript};
use common::{fixture, fixture_files};

fn variant(result: &ToolUseResult) -> &'static str {
    match result {
        ToolUseResult::Read(_) => "Read",
        ToolUseResult::Edit(_) => "Edit",
        ToolUseResult::MultiEdit(_) => "MultiEdit",
        ToolUseResult::Write(_) => "Write",
        ToolUseResult::Bash(_) => "Bash",
        ToolUseResult::Glob(_) => "Glob",
        ToolUseResult::Grep(_) => "Grep",
        ToolUseResult::TodoWrite(_) => "TodoWrite",
        ToolUseResult::Task(_) => "Task",
        ToolUseResult::WebSearch(_) => "WebSearch",
        ToolUseResult::WebFetch(_) => "WebFetch",
        ToolUseResult::ShellOutput(_) => "BashOutput",
        ToolUseResult::TaskOutput(_) => "TaskOutput",
        ToolUseResult::SendMessage(_) => "SendMessage",
        ToolUseResult::ToolSearch(_) => "ToolSearch",
        ToolUseResult::Workflow(_) => "Workflow",
        ToolUseResult::EnterWorktree(_) => "EnterWorktree",
        ToolUseResult::ExitWorktree(_) => "ExitWorktree",
        ToolUseResult::PushNotification(_) => "PushNotification",
        ToolUseResult::ReadNotifications(_) => "ReadNotifications",
        ToolUseResult::ReportFindings(_) => "ReportFindings",
        ToolUseResult::ReadMcpResource(_) => "ReadMcpResource",
        ToolUseResult::ReadMcpResourceDir(_) => "ReadMcpResourceDir",
        ToolUseResult::Text(_) => "Text",
        ToolUseResult::List(_) => "List",
        ToolUseResult::Other { error: None, .. } => "Other",
        ToolUseResult::Other { error: Some(_), .. } => "Mismatch",
    }
}

/// (tool name, decoded variant) -> count, over every fixture.
fn outcomes() -> BTreeMap<(String, &'static str), usize> {
    let mut out = BTreeMap::new();
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let t = Transcript::parse(name.clone(), fixture(&name));
        let src = &t.bytes;
        let mut tool_names = HashMap::new();
        for line in &t.lines {
            let Some(entry) = line.entry() else { continue };
            match &entry.kind {
                EntryKind::Assistant(a) => {
                    for block in a.message.content.blocks() {
                        if let BlockKind::ToolUse(tool) = &block.kind {
                            if let (Some(id), Some(tool_name)) = (tool.id, tool.name) {
                                tool_names.insert(id.raw(src).to_owned(), tool_name.raw(src).to_owned());
                            }
                        }
                    }
                }
                EntryKind::User(u) => {
                    let Some(span) = u.tool_use_result else { continue };
                    let tool_name = u.message.content.blocks().iter().find_map(|b| match &b.kind {
                        BlockKind::ToolResult(r) => tool_names.get(r.tool_use_id?.raw(src)).cloned(),
                        _ => None,
                    });
                    let decoded =
                        tool_result::decode(src, span, tool_name.as_deref().map(Tool::from_name).as_ref());
                    *out.entry((tool_name.unwrap_or_default(), variant(&decoded))).or_insert(0) += 1;
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn every_result_of_a_specially_rendered_tool_decodes_to_its_typed_shape_or_a_plain_string() {
    let outcomes = outcomes();
    for ((tool, variant), count) in &outcomes {
        let special = [
            "Read",
            "Edit",
            "MultiEdit",
            "Write",
            "Bash",
            "Glob",
            "Grep",
            "TodoWrite",
            "WebSearch",
            "WebFetch",
            "BashOutput",
            "TaskOutput",
            "SendMessage",
            "ToolSearch",
        ];
        if special.contains(&tool.as_str()) {
            assert!(
                *variant == tool.as_str() || *variant == "Text",
                "{count} {tool} results decoded as {variant}"
            );
        }
        if tool == "Task" || tool == "Agent" {
            assert!(*variant == "Task" || *variant == "Text", "{count} {tool} results decoded as {variant}");
        }
        assert_ne!(*variant, "Mismatch", "{count} {tool} results did not fit their shape");
    }
    // The fixtures exercise each shape at least once.
    for tool in [
        "Read",
        "Edit",
        "MultiEdit",
        "Write",
        "Bash",
        "Glob",
        "Grep",
        "TodoWrite",
        "Task",
        "WebSearch",
        "WebFetch",
        "BashOutput",
        "TaskOutput",
        "SendMessage",
        "ToolSearch",
    ] {
        assert!(
            outcomes.keys().any(|(_, v)| *v == tool),
            "no {tool} result decoded in any fixture: {outcomes:?}"
        );
    }
}

#[test]
fn an_edit_result_carries_its_structured_patch() {
    let path = "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/edit-tool-variants.jsonl";
    let t = Transcript::parse(path, fixture(path));
    let edits: Vec<_> = t
        .lines
        .iter()
        .filter_map(|l| match &l.entry()?.kind {
            EntryKind::User(u) => {
                match tool_result::decode(&t.bytes, u.tool_use_result?, Some(&Tool::Edit)) {
                    ToolUseResult::Edit(edit) => Some(edit),
                    _ => None,
                }
            }
            _ => None,
        })
        .collect();
    assert!(!edits.is_empty());
    for edit in &edits {
        assert!(!edit.file_path.is_empty());
        for hunk in &edit.structured_patch {
            let old = hunk.lines.iter().filter(|l| !l.starts_with('+')).count() as u64;
            let new = hunk.lines.iter().filter(|l| !l.starts_with('-')).count() as u64;
            assert_eq!((old, new), (hunk.old_lines, hunk.new_lines), "hunk line counts match its header");
        }
    }
}

#[test]
fn a_todo_list_with_a_broken_item_keeps_the_good_items_and_the_broken_one() {
    let value = serde_json::json!({"oldTodos": [], "newTodos": ["broken_todo", {"id": "2", "content": "Implement", "status": "in_progress", "priority": "high"}]});
    let ToolUseResult::TodoWrite(todos) = tool_result::from_value(value, Some(&Tool::TodoWrite)) else {
        panic!()
    };
    assert_eq!(todos.new_todos.len(), 2);
    assert_eq!(todos.new_todos[0].content, "broken_todo");
    assert_eq!(todos.new_todos[0].status, "");
    assert_eq!(todos.new_todos[1].status, "in_progress");
    assert_eq!(todos.new_todos[1].priority.as_deref(), Some("high"));
}

#[test]
fn a_result_that_does_not_fit_its_tool_keeps_the_json_and_the_error() {
    let value = serde_json::json!({"stdout": 5, "stderr": ""});
    let ToolUseResult::Other { value, error: Some(error) } =
        tool_result::from_value(value, Some(&Tool::Bash))
    else {
        panic!()
    };
    assert_eq!(value["stdout"], 5);
    assert!(error.contains("invalid type"), "{error}");
}

// Written by hand, no real line holds these: results that are not objects for tools whose
// results are, read as what they are (an array by position into a struct would be a guess).
#[test]
fn a_known_tools_result_that_is_no_object_stays_what_it_is() {
    let decode = |json: &str, tool: Tool| {
        let span = cctv::model::Span::new(0, json.len());
        tool_result::decode(json.as_bytes(), span, Some(&tool))
    };
    assert_eq!(decode(r#"["x"]"#, Tool::Bash), ToolUseResult::List(vec![serde_json::json!("x")]));
    assert_eq!(decode(" []", Tool::Read), ToolUseResult::List(Vec::new()));
    assert_eq!(decode(r#""Error: no""#, Tool::Edit), ToolUseResult::Text("Error: no".into()));
    // An object whose key is written twice: the last one, as a JSON value says.
    let ToolUseResult::Bash(bash) = decode(r#"{"stdout":"a","stdout":"b"}"#, Tool::Bash) else { panic!() };
    assert_eq!(bash.stdout, "b");
}
