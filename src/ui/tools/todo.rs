//! TodoWrite: the checklist, and what changed since the list before it.

use leptos::prelude::*;

use crate::present::tools::{TodoBody, TodoStatus, TodoView};

pub(crate) fn view(body: TodoBody) -> AnyView {
    todo_list(body.todos, body.changes)
}

/// A checklist, and what changed (the side panel shows the latest list with no changes).
pub(crate) fn todo_list(todos: Vec<TodoView>, changes: Vec<String>) -> AnyView {
    view! {
        <ul class="cctv-todos">
            {todos
                .into_iter()
                .map(|t| {
                    let (mark, class) = match t.status {
                        TodoStatus::Completed => ("☑", "cctv-todo cctv-todo--completed"),
                        TodoStatus::InProgress => ("◐", "cctv-todo cctv-todo--in-progress"),
                        TodoStatus::Pending => ("☐", "cctv-todo cctv-todo--pending"),
                        TodoStatus::Other => ("?", "cctv-todo"),
                    };
                    view! {
                        <li class=class data-status=t.status_name>
                            <span class="cctv-todo__mark" aria-hidden="true">{mark}</span>
                            <span>{t.label}</span>
                            {t.priority.map(|p| view! { <span class="cctv-badge">{p}</span> })}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
        {(!changes.is_empty()).then(|| view! {
            <div class="cctv-todos__changes">
                <div class="cctv-out__label">"changed"</div>
                <ul>{changes.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ul>
            </div>
        })}
    }
    .into_any()
}
