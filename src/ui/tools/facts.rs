//! The panels said as facts (worktrees, notifications, proposals, reports, MCP resources,
//! artifacts, claude.ai services, Claude Code's own dialogs): the labelled lines, the text, the
//! list with its links, and what the model was told while the facts do not say it. The families
//! differ in what they say, not in how it is drawn, so one drawing serves them all.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Facts, Listed};
use crate::ui::content::field;
use crate::ui::markup::markdown;

pub(crate) fn view(body: Facts) -> AnyView {
    view! {
        {body.fields.into_iter().map(|(label, value)| field(label, value)).collect_view()}
        {body.text.map(|(label, text)| view! {
            <div class="cctv-out__label">{label}</div>
            <div class="cctv-plan">{markdown(&text)}</div>
        })}
        {(!body.items.is_empty()).then(|| view! {
            <ul class="cctv-links">{body.items.into_iter().map(item).collect_view()}</ul>
        })}
        {body.told.map(|o| output(&o))}
    }
    .into_any()
}

/// One thing listed: its title (a link only where present made it one: http(s)), a note
/// beside it, and its text under it.
fn item(listed: Listed) -> AnyView {
    let title = match listed.href {
        Some(href) => view! {
            <a class="cctv-link" href=href target="_blank" rel="noopener noreferrer nofollow"><bdi>{listed.title}</bdi></a>
        }
        .into_any(),
        None => view! { <strong><bdi>{listed.title}</bdi></strong> }.into_any(),
    };
    view! {
        <li>
            {title}
            {listed.note.map(|n| view! { " "<span class="cctv-muted">{n}</span> })}
            {listed.text.map(|t| view! { <div class="cctv-plan">{markdown(&t)}</div> })}
        </li>
    }
    .into_any()
}
