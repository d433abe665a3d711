//! ToolSearch: the query, and the deferred tools it loaded.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Answer, ToolSearchBody};
use crate::ui::content::field;

pub(crate) fn view(body: ToolSearchBody) -> AnyView {
    let found = match body.found {
        Answer::Structured(names) if names.is_empty() => {
            view! { <div class="cctv-muted">"no tools matched"</div> }.into_any()
        }
        Answer::Structured(names) => view! {
            <div class="cctv-out__label">"tools loaded"</div>
            <ul class="cctv-files">{names.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
        }
        .into_any(),
        Answer::Plain(o) => output(&o),
    };
    view! {
        {field("query", body.query)}
        {found}
        {body.deferred.map(|n| view! { <div class="cctv-muted">{match n { 1 => "1 tool was deferred".to_owned(), n => format!("{n} tools were deferred") }}</div> })}
    }
    .into_any()
}
