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
    /// NotebookEdit: one cell of a notebook.
    Cell(CellChange),
}

/// A notebook cell replaced, inserted or deleted.
#[derive(Clone, Debug, PartialEq)]
pub struct CellChange {
    pub edit: CellEdit,
    /// The cell changed; for an insert, the cell the new one follows (`None`: at the top).
    pub cell: Option<String>,
    /// `code` or `markdown`.
    pub kind: Option<String>,
    /// The cell's source before and after, when the result kept the old one.
    pub diff: Option<Vec<Row>>,
    /// The cell's new source (empty for a delete).
    pub source: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellEdit {
    Replace,
    Insert,
    Delete,
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

/// NotebookEdit: one cell replaced, inserted or deleted, said as the cell changed (which cell,
/// how, its source) rather than as a file. The result keeps the cell's old source for a replace
/// or a delete (documented shape: `sdk-tools.d.ts`; no public session has a notebook edit).
fn notebook(call: &CallView) -> EditBody {
    let stored = call.structured_fields();
    let text = |key: &str| stored.and_then(|v| v.get(key)).and_then(Value::as_str).or_else(|| call.text(key));
    let edit = match text("edit_mode") {
        Some("insert") => CellEdit::Insert,
        Some("delete") => CellEdit::Delete,
        // Replace is the default.
        _ => CellEdit::Replace,
    };
    let source = text("new_source").unwrap_or_default().to_owned();
    let old = stored.and_then(|v| v.get("old_source")).and_then(Value::as_str);
    let diff = match (edit, old) {
        (CellEdit::Delete, Some(old)) => Some(diff::between(old, "", 1)),
        (CellEdit::Replace, Some(old)) => Some(diff::between(old, &source, 1)),
        _ => None,
    };
    // An insert's `cell_id` in the call is the cell the new one follows; in the result, the new
    // cell's own id.
    let cell = match edit {
        CellEdit::Insert => call.text("cell_id"),
        _ => text("cell_id"),
    };
    let cell = cell.map(str::to_owned);
    let kind = text("cell_type").map(str::to_owned);
    // A markdown cell reads as Markdown; a code cell in the notebook's language, which only the
    // result says.
    let language = match kind.as_deref() {
        Some("markdown") => Some("md".to_owned()),
        _ => stored.and_then(|v| v.get("language")).and_then(Value::as_str).map(str::to_owned),
    };
    let failed = call.result.as_ref().filter(|r| r.is_error).map(|r| r.content.clone());
    let failed = failed.or_else(|| {
        text("error").filter(|_| stored.is_some()).map(|e| ToolResultContent::Text(e.to_owned()))
    });
    EditBody {
        language,
        path: call.text("notebook_path").or_else(|| text("notebook_path")).unwrap_or_default().to_owned(),
        badges: Vec::new(),
        change: Change::Cell(CellChange { edit, cell, kind, diff, source }),
        failed,
    }
}

impl CellChange {
    /// The change in a few words: `cell c2 replaced`, `new cell after c2`, `new cell at the top`.
    pub fn words(&self) -> String {
        match (self.edit, &self.cell) {
            (CellEdit::Insert, Some(after)) => format!("new cell after {after}"),
            (CellEdit::Insert, None) => "new cell at the top".to_owned(),
            (CellEdit::Replace, Some(cell)) => format!("cell {cell} replaced"),
            (CellEdit::Delete, Some(cell)) => format!("cell {cell} deleted"),
            (CellEdit::Replace, None) => "a cell replaced".to_owned(),
            (CellEdit::Delete, None) => "a cell deleted".to_owned(),
        }
    }
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

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_notebook_edit_is_the_cell_changed_with_its_source() {
        let call = documented(
            "NotebookEdit",
            serde_json::json!({"notebook_path": "/n.ipynb", "cell_id": "c2", "new_source": "x = 2\nprint(x)"}),
            "Updated cell c2",
            serde_json::json!({"new_source": "x = 2\nprint(x)", "old_source": "x = 1\nprint(x)", "cell_id": "c2",
                "cell_type": "code", "language": "python", "edit_mode": "replace", "notebook_path": "/n.ipynb",
                "original_file": "{}", "updated_file": "{}"}),
        );
        let ToolBody::Edit(body) = tool_body(&call, None) else { panic!() };
        assert_eq!(body.path, "/n.ipynb");
        assert_eq!(body.language.as_deref(), Some("python"));
        let Change::Cell(cell) = body.change else { panic!("a cell, not a file") };
        assert_eq!(cell.words(), "cell c2 replaced");
        assert_eq!(cell.kind.as_deref(), Some("code"));
        assert_eq!(cell.source, "x = 2\nprint(x)");
        assert_eq!(crate::text::diff::counts(&cell.diff.unwrap()), (1, 1));
        assert_eq!(call.detail().as_deref(), Some("cell c2 replaced"), "the header says it too");
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_cell_inserted_says_which_cell_it_follows_and_a_deleted_one_what_it_held() {
        let insert = documented(
            "NotebookEdit",
            serde_json::json!({"notebook_path": "/n.ipynb", "cell_id": "c2", "new_source": "# Results",
                "cell_type": "markdown", "edit_mode": "insert"}),
            "Inserted cell",
            serde_json::json!({"new_source": "# Results", "cell_id": "c3", "cell_type": "markdown",
                "language": "python", "edit_mode": "insert", "notebook_path": "/n.ipynb"}),
        );
        let ToolBody::Edit(body) = tool_body(&insert, None) else { panic!() };
        assert_eq!(body.language.as_deref(), Some("md"), "a markdown cell reads as Markdown");
        let Change::Cell(cell) = body.change else { panic!() };
        // The call names the cell the new one follows; the result the new cell's own id.
        assert_eq!(cell.edit, super::CellEdit::Insert);
        assert_eq!(cell.words(), "new cell after c2");
        assert_eq!(cell.diff, None);
        assert_eq!(cell.source, "# Results");
        let delete = documented(
            "NotebookEdit",
            serde_json::json!({"notebook_path": "/n.ipynb", "cell_id": "c4", "new_source": "", "edit_mode": "delete"}),
            "Deleted cell c4",
            serde_json::json!({"new_source": "", "old_source": "print(1)", "cell_id": "c4", "cell_type": "code",
                "language": "python", "edit_mode": "delete", "notebook_path": "/n.ipynb"}),
        );
        let ToolBody::Edit(body) = tool_body(&delete, None) else { panic!() };
        let Change::Cell(cell) = body.change else { panic!() };
        assert_eq!(cell.words(), "cell c4 deleted");
        assert_eq!(crate::text::diff::counts(&cell.diff.unwrap()), (0, 1));
    }

    #[test]
    fn a_notebook_edit_without_a_result_says_what_was_asked() {
        let call = crate::present::calls::CallView {
            name: "NotebookEdit".into(),
            tool: crate::model::Tool::NotebookEdit,
            input: serde_json::json!({"notebook_path": "/n.ipynb", "new_source": 7, "edit_mode": "insert"}),
            result: None,
            loaded: Vec::new(),
        };
        let ToolBody::Edit(body) = tool_body(&call, None) else { panic!() };
        let Change::Cell(cell) = body.change else { panic!() };
        assert_eq!(cell.words(), "new cell at the top");
        assert_eq!(cell.source, "", "a source of the wrong type is no source");
    }
}
