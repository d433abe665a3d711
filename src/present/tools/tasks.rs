//! The task tools (TaskCreate, TaskUpdate, TaskGet, TaskList; 2.1.x's successor to TodoWrite):
//! each call shows the task board as it stood after it, and what the call changed.

use serde_json::Value;

use super::todo::TodoStatus;
use crate::model::body::ToolResultContent;
use crate::model::Tool;
use crate::present::calls::CallView;

/// One task on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub id: String,
    pub subject: String,
    pub status: TodoStatus,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TasksBody {
    /// `created #3: Write the tests`, `#1: in_progress → completed`, `listed the tasks`.
    pub change: String,
    /// The board after this call.
    pub board: Vec<Task>,
}

/// The board a thread's task calls build, one call at a time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskBoard {
    pub tasks: Vec<Task>,
}

impl TaskBoard {
    /// Applies a task call to the board; returns what it changed, in words.
    pub fn apply(&mut self, call: &CallView) -> String {
        let text = |key: &str| call.text(key).unwrap_or_default().to_owned();
        match call.tool {
            Tool::TaskCreate => {
                let id = created_id(call).unwrap_or_else(|| (self.tasks.len() + 1).to_string());
                let subject = text("subject");
                self.tasks.push(Task {
                    id: id.clone(),
                    subject: subject.clone(),
                    status: TodoStatus::Pending,
                });
                format!("created #{id}: {subject}")
            }
            Tool::TaskUpdate => {
                let id = call.input.get("taskId").map(id_text).unwrap_or_default();
                let Some(task) = self.tasks.iter_mut().find(|t| t.id == id) else {
                    return format!("updated #{id} (not created in this thread)");
                };
                let mut changes = Vec::new();
                if let Some(status) = call.text("status") {
                    let new = status_of(status);
                    if new != task.status {
                        changes.push(format!("{} → {status}", name(task.status)));
                        task.status = new;
                    }
                }
                if let Some(subject) = call.text("subject") {
                    task.subject = subject.to_owned();
                    changes.push(format!("renamed “{subject}”"));
                }
                if changes.is_empty() {
                    format!("#{id} updated")
                } else {
                    format!("#{id}: {}", changes.join(", "))
                }
            }
            Tool::TaskList => "listed the tasks".into(),
            Tool::TaskGet => format!("read #{}", call.input.get("taskId").map(id_text).unwrap_or_default()),
            _ => call.name.clone(),
        }
    }
}

/// The id Claude Code gave a created task: `toolUseResult.task.id`, or "Task #3 created …".
fn created_id(call: &CallView) -> Option<String> {
    let result = call.result.as_ref()?;
    if let Some(crate::model::tool_result::ToolUseResult::Other { value, .. }) = &result.structured {
        if let Some(id) = value.get("task").and_then(|t| t.get("id")) {
            return Some(id_text(id));
        }
    }
    let ToolResultContent::Text(text) = &result.content else { return None };
    let rest = text.strip_prefix("Task #")?;
    Some(rest.split(|c: char| !c.is_ascii_alphanumeric()).next()?.to_owned())
}

fn id_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn status_of(status: &str) -> TodoStatus {
    match status {
        "completed" => TodoStatus::Completed,
        "in_progress" => TodoStatus::InProgress,
        "pending" => TodoStatus::Pending,
        _ => TodoStatus::Other,
    }
}

fn name(status: TodoStatus) -> &'static str {
    match status {
        TodoStatus::Completed => "completed",
        TodoStatus::InProgress => "in_progress",
        TodoStatus::Pending => "pending",
        TodoStatus::Other => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::workspace;
    use crate::normalize::ItemKind;
    use crate::present::calls::call_view;

    #[test]
    fn a_real_task_board_follows_the_calls() {
        // ef958aa1's sub-agents (CC 2.1.114) and planetfall (2.1.177) create and update tasks;
        // planetfall 18/e55e8a9e52 is a main thread that does both.
        let ws = workspace("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");
        let mut board = TaskBoard::default();
        let mut changes = Vec::new();
        for item in &ws.sessions[0].thread.items {
            let ItemKind::ToolCall(call) = &item.kind else { continue };
            let view = call_view(&ws, item, call);
            if super::super::family(&view.tool) == Some(super::super::Family::Tasks) {
                changes.push(board.apply(&view));
            }
        }
        assert!(changes.iter().any(|c| c.starts_with("created #1: ")), "{changes:#?}");
        assert!(changes.iter().any(|c| c.contains("→ completed")), "{changes:#?}");
        assert!(!board.tasks.is_empty());
        assert!(board.tasks.iter().all(|t| !t.subject.is_empty()));
        // The header names the task and what became of it.
        let update = ws.sessions[0]
            .thread
            .items
            .iter()
            .find_map(|item| match &item.kind {
                ItemKind::ToolCall(call) => {
                    Some(call_view(&ws, item, call)).filter(|v| v.name == "TaskUpdate")
                }
                _ => None,
            })
            .unwrap();
        assert!(update.target().starts_with('#'), "{}", update.target());
    }
}
