//! The task tools: what the call changed, and the board after it.

use leptos::prelude::*;

use super::todo::todo_list;
use crate::present::tools::{TasksBody, TodoView};

pub(crate) fn view(body: TasksBody) -> AnyView {
    let board = body
        .board
        .into_iter()
        .map(|t| TodoView {
            status: t.status,
            status_name: String::new(),
            label: format!("#{} {}", t.id, t.subject),
            priority: None,
        })
        .collect();
    todo_list(board, vec![body.change])
}
