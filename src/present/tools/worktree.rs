//! Worktrees: EnterWorktree moves the session into a git worktree (a new one, or one that
//! exists), ExitWorktree moves it back to where it started, keeping the worktree on disk or
//! removing it with its branch. The panel says which worktree and branch, and what became of it.

use super::facts::Facts;
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::plural;

pub fn worktree(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    match call.structured() {
        Some(ToolUseResult::EnterWorktree(entered)) => {
            facts.field("entered", Some(entered.worktree_path.clone()));
            facts.field("branch", entered.worktree_branch.clone());
            facts.text("message", entered.message.clone());
            facts.said();
        }
        Some(ToolUseResult::ExitWorktree(left)) => {
            facts.field("left", Some(left.worktree_path.clone()));
            facts.field("branch", left.worktree_branch.clone());
            facts.field("worktree", Some(fate(&left.action)));
            let discarded: Vec<String> = [(left.discarded_files, "file"), (left.discarded_commits, "commit")]
                .into_iter()
                .filter_map(|(n, what)| n.filter(|n| *n > 0).map(|n| plural(n, what)))
                .collect();
            facts.field("discarded", Some(discarded.join(", ")));
            facts.field("back in", left.original_cwd.clone());
            facts.text("message", left.message.clone());
            facts.said();
        }
        // No structured result (it failed, or was never run): what was asked.
        _ if call.tool == Tool::EnterWorktree => {
            let asked = match (call.text("path"), call.text("name")) {
                (Some(path), _) => Some(path.to_owned()),
                (None, Some(name)) => Some(format!("a new worktree named {name}")),
                (None, None) => Some("a new worktree".to_owned()),
            };
            facts.field("enters", asked);
        }
        _ => {
            let asked = call.text("action").map(|action| match action {
                "keep" => "keeping it on disk".to_owned(),
                "remove" => "removing it and its branch".to_owned(),
                other => other.to_owned(),
            });
            facts.field("leaves the worktree", asked);
            let discard = call.input.get("discard_changes").and_then(serde_json::Value::as_bool);
            facts.field(
                "discards",
                (discard == Some(true)).then(|| "its uncommitted files and commits".to_owned()),
            );
        }
    }
    facts
}

/// What became of a worktree the session left.
fn fate(action: &str) -> String {
    match action {
        "keep" => "kept on disk".to_owned(),
        "remove" => "removed, with its branch".to_owned(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::facts::Facts;
    use super::super::test_support::documented;
    use super::super::{tool_body, Output, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::Worktree(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn entering_a_worktree_says_its_path_and_branch() {
        let facts = body(documented(
            "EnterWorktree",
            json!({"name": "fix-parser"}),
            "Switched to worktree",
            json!({"worktreePath": "/repo/.claude/worktrees/fix-parser", "worktreeBranch": "worktree-fix-parser",
                   "message": "Created worktree at /repo/.claude/worktrees/fix-parser"}),
        ));
        assert_eq!(
            facts.fields,
            [
                ("entered", "/repo/.claude/worktrees/fix-parser".to_owned()),
                ("branch", "worktree-fix-parser".to_owned())
            ]
        );
        assert_eq!(facts.told, None, "the result said it");
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn leaving_a_worktree_says_whether_it_was_kept_or_removed_and_what_was_lost() {
        let call = documented(
            "ExitWorktree",
            json!({"action": "remove", "discard_changes": true}),
            "Removed worktree",
            json!({"action": "remove", "originalCwd": "/repo", "worktreePath": "/repo/.claude/worktrees/fix-parser",
                   "worktreeBranch": "worktree-fix-parser", "discardedFiles": 3, "discardedCommits": 1,
                   "message": "Removed worktree and branch"}),
        );
        assert_eq!(
            (call.target().as_str(), call.detail().as_deref()),
            ("remove the worktree", Some("removed"))
        );
        let facts = body(call);
        assert_eq!(
            facts.fields,
            [
                ("left", "/repo/.claude/worktrees/fix-parser".to_owned()),
                ("branch", "worktree-fix-parser".to_owned()),
                ("worktree", "removed, with its branch".to_owned()),
                ("discarded", "3 files, 1 commit".to_owned()),
                ("back in", "/repo".to_owned()),
            ]
        );
        assert_eq!(facts.text, Some(("message", "Removed worktree and branch".to_owned())));
    }

    #[test]
    fn a_refused_exit_says_what_was_asked_and_what_the_tool_answered() {
        // A refusal is a plain error string; the result has no typed fields.
        let mut call = documented(
            "ExitWorktree",
            json!({"action": "remove"}),
            "Refusing: 2 uncommitted files",
            json!("Refusing: 2 uncommitted files"),
        );
        call.result.as_mut().unwrap().is_error = true;
        let facts = body(call);
        assert_eq!(facts.fields, [("leaves the worktree", "removing it and its branch".to_owned())]);
        assert!(matches!(facts.told, Some(Output::Result { is_error: true, .. })));
    }
}
