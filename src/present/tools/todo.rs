//! TodoWrite: the checklist, and what changed since the list before it.

use crate::model::tool_result::{Todo, ToolUseResult};
use crate::model::Tool;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct TodoBody {
    pub todos: Vec<TodoView>,
    /// `added: x`, `x: pending → completed`, `removed: y`.
    pub changes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TodoView {
    pub status: TodoStatus,
    /// The status as written, for `data-status`.
    pub status_name: String,
    /// What the item says: while in progress, its active form ("Running tests").
    pub label: String,
    pub priority: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
    Other,
}

impl TodoView {
    pub fn of(todo: &Todo) -> TodoView {
        let status = match todo.status.as_str() {
            "completed" => TodoStatus::Completed,
            "in_progress" => TodoStatus::InProgress,
            "pending" => TodoStatus::Pending,
            _ => TodoStatus::Other,
        };
        let label = match status {
            TodoStatus::InProgress => todo.active_form.clone().unwrap_or(todo.content.clone()),
            _ => todo.content.clone(),
        };
        TodoView { status, status_name: todo.status.clone(), label, priority: todo.priority.clone() }
    }

    pub fn list(todos: &[Todo]) -> Vec<TodoView> {
        todos.iter().map(TodoView::of).collect()
    }
}

impl TodoBody {
    /// The list `call` wrote, and what changed since `previous` (the list the thread's TodoWrite
    /// before it wrote). Claude Code's own `oldTodos` is used when it holds a list; 1.0.x wrote
    /// `oldTodos: []` on every call, which would show every item as added each time.
    pub fn of(call: &CallView, previous: Option<&[Todo]>) -> TodoBody {
        // TodoRead (before 1.0) changes nothing: it shows the list as it was read.
        if call.tool == Tool::TodoRead {
            let read = match call.structured() {
                Some(ToolUseResult::List(items)) => Todo::list(&serde_json::Value::Array(items.clone())),
                _ => Vec::new(),
            };
            return TodoBody { todos: TodoView::list(&read), changes: Vec::new() };
        }
        let new = call.input.get("todos").map(Todo::list).unwrap_or_default();
        let old = match call.structured() {
            Some(ToolUseResult::TodoWrite(t)) if !t.old_todos.is_empty() => Some(t.old_todos.as_slice()),
            Some(ToolUseResult::TodoWrite(_)) => previous.or(Some(&[])),
            _ => previous,
        };
        let changes = old.map(|old| todo_changes(old, &new)).unwrap_or_default();
        TodoBody { todos: TodoView::list(&new), changes }
    }
}

/// The todo list a TodoWrite call wrote (its input), for comparing the next one with it.
pub fn written_todos(call: &CallView) -> Option<Vec<Todo>> {
    (call.tool == Tool::TodoWrite).then(|| call.input.get("todos").map(Todo::list)).flatten()
}

/// What changed from `old` to `new`, item by item (items are known by their text).
pub fn todo_changes(old: &[Todo], new: &[Todo]) -> Vec<String> {
    let mut changes = Vec::new();
    for todo in new {
        match old.iter().find(|o| o.content == todo.content) {
            None => changes.push(format!("added: {}", todo.content)),
            Some(o) if o.status != todo.status => {
                changes.push(format!("{}: {} → {}", todo.content, o.status, todo.status))
            }
            _ => {}
        }
    }
    for o in old {
        if !new.iter().any(|t| t.content == o.content) {
            changes.push(format!("removed: {}", o.content));
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, ToolBody};
    use super::TodoStatus;
    use crate::fixtures::workspace;

    #[test]
    fn old_todo_writes_with_empty_old_todos_compare_with_the_previous_list() {
        // fe5e1c67 (d-kimuson, CC 1.0.98) writes `oldTodos: []` on all 19 of its TodoWrites.
        let ws = workspace("d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
        let writes = calls(&ws, "TodoWrite");
        assert!(writes.len() > 2);
        let mut previous: Option<Vec<crate::model::tool_result::Todo>> = None;
        let mut only_status_changes = 0;
        for call in &writes {
            let body = super::TodoBody::of(call, previous.as_deref());
            if previous.is_some()
                && !body.changes.is_empty()
                && body.changes.iter().all(|c| c.contains(" → "))
            {
                only_status_changes += 1;
            }
            // Without the previous list, every item would read as added.
            let naive = super::TodoBody::of(call, None);
            assert!(naive.changes.iter().all(|c| c.starts_with("added: ")));
            previous = super::written_todos(call);
        }
        assert!(only_status_changes > 0, "later writes show status changes, not every item added again");
    }

    #[test]
    fn real_todo_writes_show_the_list_and_what_changed() {
        let ws = workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let writes = calls(&ws, "TodoWrite");
        assert!(!writes.is_empty());
        let bodies: Vec<_> = writes
            .iter()
            .map(|c| match tool_body(c, None) {
                ToolBody::Todo(t) => t,
                other => panic!("TodoWrite gets the todo body, not {other:?}"),
            })
            .collect();
        assert!(bodies.iter().all(|b| !b.todos.is_empty()));
        // An item in progress shows its active form when it has one.
        assert!(bodies.iter().flat_map(|b| &b.todos).any(|t| t.status == TodoStatus::InProgress));
        assert!(bodies.iter().any(|b| b.changes.iter().any(|c| c.contains(" → "))), "{bodies:#?}");
    }
}
