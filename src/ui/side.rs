//! The side panel: draws `present::session::SideView`.

use std::sync::Arc;

use leptos::prelude::*;

use super::tools::todo_list;
use crate::normalize::Workspace;
use crate::present::session::side_view;

pub fn side(ws: Arc<Workspace>, session: usize) -> AnyView {
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
    let side = side_view(&ws, s);
    view! {
        <aside class="cctv-side">
            <section class="cctv-stats" aria-label="session stats">
                <h2>"Session"</h2>
                <dl>
                    {side.stats.into_iter().map(|(label, value)| view! { <dt>{label}</dt><dd>{value}</dd> }).collect_view()}
                </dl>
                <ul class="cctv-stats__tools">
                    {side.tools.into_iter().map(|(name, n)| view! { <li><span>{name}</span><span>{n}</span></li> }).collect_view()}
                </ul>
            </section>
            {side.todos.map(|t| view! { <section class="cctv-side__todos"><h2>"Latest todos"</h2>{todo_list(t, Vec::new())}</section> })}
            <section class="cctv-accounting" aria-label="lines">
                <h2>"Lines"</h2>
                <p>{side.lines}</p>
                <ul>{side.not_shown.into_iter().map(|k| view! { <li>{k}</li> }).collect_view()}</ul>
                {(!side.unreadable.is_empty()).then(|| view! {
                    <h3>"Lines that could not be read"</h3>
                    <ul class="cctv-problems">{side.unreadable.into_iter().map(|(file, what)| view! { <li><bdi>{file}</bdi>" "{what}</li> }).collect_view()}</ul>
                })}
            </section>
        </aside>
    }
    .into_any()
}
