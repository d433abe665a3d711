//! TodoWrite: the checklist, and what changed since the list before it.

use crate::model::tool_result::{Todo, ToolUseResult};
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
    pub fn of(call: &CallView) -> TodoBody {
        let new = call.input.get("todos").map(Todo::list).unwrap_or_default();
        let changes = match call.structured() {
            Some(ToolUseResult::TodoWrite(t)) => todo_changes(&t.old_todos, &new),
            _ => Vec::new(),
        };
        TodoBody { todos: TodoView::list(&new), changes }
    }
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
    use super::super::test_support::{calls, fixture};
    use super::super::{tool_body, ToolBody};
    use super::TodoStatus;

    #[test]
    fn real_todo_writes_show_the_list_and_what_changed() {
        let ws = fixture(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let writes = calls(&ws, "TodoWrite");
        assert!(!writes.is_empty());
        let bodies: Vec<_> = writes
            .iter()
            .map(|c| match tool_body(c) {
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
