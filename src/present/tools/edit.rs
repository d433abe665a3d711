//! Edit, MultiEdit, Write and NotebookEdit: the file (or notebook cell) and what changed in it,
//! as a diff.
//!
//! Claude Code stores the patch it applied (`structuredPatch`) since about 1.0.50; before that,
//! and for calls that failed, the diff is computed from what was asked.

use crate::text::highlight::language_of_path;
use serde_json::Value;

use crate::model::body::ToolResultContent;
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::diff::{self, Row};

#[derive(Clone, Debug, PartialEq)]
pub struct EditBody {
    pub path: String,
    /// The grammar the file's extension names, for highlighting the diff or the file.
    pub language: Option<String>,
    /// "edited by the user", "replace all".
    pub badges: Vec<&'static str>,
    pub change: Change,
    /// What the tool said when the edit failed.
    pub failed: Option<ToolResultContent>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Diff(Vec<Row>),
    /// A Write of a whole file (new, or replacing one without a stored patch).
    WholeFile {
        created: bool,
        content: String,
    },
}

impl EditBody {
    pub fn of(call: &CallView) -> EditBody {
        if call.tool == Tool::NotebookEdit {
            return notebook(call);
        }
        let path = call.text("file_path").unwrap_or_default().to_owned();
        let (stored, badges): (Option<Vec<Row>>, Vec<&'static str>) = match call.structured() {
            Some(ToolUseResult::Edit(e)) if !e.structured_patch.is_empty() => (
                Some(diff::from_hunks(&e.structured_patch)),
                [(e.user_modified, "edited by the user"), (e.replace_all, "replace all")]
                    .into_iter()
                    .filter_map(|(on, b)| on.then_some(b))
                    .collect(),
            ),
            Some(ToolUseResult::MultiEdit(e)) if !e.structured_patch.is_empty() => (
                Some(diff::from_hunks(&e.structured_patch)),
                if e.user_modified { vec!["edited by the user"] } else { vec![] },
            ),
            Some(ToolUseResult::Write(w)) if w.kind == "create" || w.structured_patch.is_empty() => {
                let change = Change::WholeFile { created: w.kind == "create", content: w.content.clone() };
                return EditBody {
                    language: language_of_path(&path),
                    path,
                    badges: vec![],
                    change,
                    failed: None,
                };
            }
            Some(ToolUseResult::Write(w)) => (Some(diff::from_hunks(&w.structured_patch)), vec![]),
            _ => (None, vec![]),
        };
        let rows = stored.unwrap_or_else(|| asked(call));
        let failed = call.result.as_ref().filter(|r| r.is_error).map(|r| r.content.clone());
        EditBody { language: language_of_path(&path), path, badges, change: Change::Diff(rows), failed }
    }
}

/// NotebookEdit: one cell replaced, inserted or deleted. The result keeps the cell's old source
/// where there was one (documented shape: Claude Code's `sdk-tools.d.ts`; no public session has
/// a notebook edit).
fn notebook(call: &CallView) -> EditBody {
    let stored = call.structured_fields();
    let text = |key: &str| {
        stored.and_then(|v| v.get(key)).and_then(Value::as_str).or_else(|| call.text(key)).unwrap_or_default()
    };
    let mode = text("edit_mode");
    let new = text("new_source").to_owned();
    let old = stored.and_then(|v| v.get("old_source")).and_then(Value::as_str);
    let change = match (mode, old) {
        ("delete", old) => Change::Diff(diff::between(old.unwrap_or_default(), "", 1)),
        (_, Some(old)) => Change::Diff(diff::between(old, &new, 1)),
        (mode, None) => Change::WholeFile { created: mode == "insert", content: new },
    };
    let badges = match mode {
        "insert" => vec!["new cell"],
        "delete" => vec!["cell deleted"],
        _ => vec!["cell replaced"],
    };
    let path = call.text("notebook_path").unwrap_or_default();
    let path = match call.text("cell_id") {
        Some(cell) => format!("{path} · cell {cell}"),
        None => path.to_owned(),
    };
    let failed = call.result.as_ref().filter(|r| r.is_error).map(|r| r.content.clone());
    // A cell's language is the notebook's, which the call does not say.
    EditBody { language: None, path, badges, change, failed }
}

/// The diff of what the call asked for, when no applied patch was stored.
fn asked(call: &CallView) -> Vec<Row> {
    match call.tool {
        Tool::Edit => diff::between(
            call.text("old_string").unwrap_or_default(),
            call.text("new_string").unwrap_or_default(),
            1,
        ),
        Tool::MultiEdit => call
            .input
            .get("edits")
            .and_then(Value::as_array)
            .map(|edits| {
                edits
                    .iter()
                    .flat_map(|e| {
                        let old = e.get("old_string").and_then(Value::as_str).unwrap_or_default();
                        let new = e.get("new_string").and_then(Value::as_str).unwrap_or_default();
                        diff::between(old, new, 1)
                    })
                    .collect()
            })
            .unwrap_or_default(),
        _ => diff::between("", call.text("content").unwrap_or_default(), 1),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{calls, documented};
    use super::super::{tool_body, ToolBody};
    use super::Change;
    use crate::fixtures::workspace;
    use crate::text::diff::{counts, RowKind};

    const EDITS: &str = "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";

    #[test]
    fn real_edits_show_the_stored_patch_as_a_diff() {
        let ws = workspace(EDITS);
        for name in ["Edit", "MultiEdit"] {
            let found = calls(&ws, name);
            assert!(!found.is_empty(), "the fixture has {name} calls");
            for call in found {
                let ToolBody::Edit(body) = tool_body(&call, None) else {
                    panic!("{name} gets the edit body")
                };
                assert_eq!(body.path, call.text("file_path").unwrap());
                let Change::Diff(rows) = &body.change else { panic!("an edit is a diff") };
                assert_eq!(rows.first().map(|r| r.kind), Some(RowKind::Hunk), "{name}: hunks first");
                let (added, removed) = counts(rows);
                assert!(added + removed > 0, "{name} changed something");
            }
        }
    }

    #[test]
    fn a_real_write_of_a_new_file_shows_the_whole_file() {
        let ws = workspace(EDITS);
        let writes = calls(&ws, "Write");
        assert!(!writes.is_empty());
        let shown: Vec<_> = writes.iter().map(|c| tool_body(c, None)).collect();
        assert!(
            shown.iter().any(|b| matches!(b, ToolBody::Edit(e) if matches!(&e.change, Change::WholeFile { created: true, content } if !content.is_empty()))),
            "{shown:#?}"
        );
    }

    #[test]
    fn an_edit_without_a_stored_patch_diffs_what_was_asked() {
        let call = crate::present::calls::CallView {
            name: "Edit".into(),
            tool: crate::model::Tool::Edit,
            input: serde_json::json!({"file_path": "/a.rs", "old_string": "a\nb\n", "new_string": "a\nc\n"}),
            result: None,
            loaded: Vec::new(),
        };
        let ToolBody::Edit(body) = tool_body(&call, None) else { panic!() };
        let Change::Diff(rows) = body.change else { panic!() };
        assert_eq!(counts(&rows), (1, 1));
    }

    #[test]
    fn a_notebook_cell_edit_diffs_the_cell() {
        // Documented shape (sdk-tools.d.ts NotebookEditOutput); no public session edits a notebook.
        let call = documented(
            "NotebookEdit",
            serde_json::json!({"notebook_path": "/n.ipynb", "cell_id": "c2", "new_source": "x = 2\nprint(x)"}),
            "Updated cell c2",
            serde_json::json!({"new_source": "x = 2\nprint(x)", "old_source": "x = 1\nprint(x)", "cell_id": "c2",
                "cell_type": "code", "language": "python", "edit_mode": "replace", "notebook_path": "/n.ipynb"}),
        );
        let ToolBody::Edit(body) = tool_body(&call, None) else { panic!() };
        assert_eq!(body.path, "/n.ipynb · cell c2");
        assert_eq!(body.badges, ["cell replaced"]);
        let Change::Diff(rows) = body.change else { panic!() };
        assert_eq!(crate::text::diff::counts(&rows), (1, 1));
    }
}
