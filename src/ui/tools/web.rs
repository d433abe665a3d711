//! WebSearch (the query and the links found) and WebFetch (the URL, what was asked, the answer).

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Answer, WebFetchBody, WebResult, WebSearchBody};
use crate::text::markup::safe_href;
use crate::ui::content::{field, json};
use crate::ui::markup::markdown;

pub(crate) fn search(body: WebSearchBody) -> AnyView {
    let found = match body.results {
        Answer::Structured(results) => results.into_iter().map(result).collect_view().into_any(),
        Answer::Plain(o) => output(&o),
    };
    view! { {field("query", body.query)} {found} }.into_any()
}

fn result(result: WebResult) -> AnyView {
    match result {
        WebResult::Markdown(text) => markdown(&text),
        WebResult::Links(links) => view! {
            <ul class="cctv-links">
                {links.into_iter().map(|l| view! { <li>{l.title}" "{link(&l.url)}</li> }).collect_view()}
            </ul>
        }
        .into_any(),
        WebResult::Json(value) => json(&value),
    }
}

pub(crate) fn fetch(body: WebFetchBody) -> AnyView {
    let fetched = match body.fetched {
        Answer::Structured(f) => {
            view! { <div class="cctv-muted">{f.status}</div> {markdown(&f.answer)} }.into_any()
        }
        Answer::Plain(o) => output(&o),
    };
    view! {
        <div class="cctv-field"><span class="cctv-field__label">"url"</span>{link(&body.url)}</div>
        {body.prompt.map(|p| field("asked", p))}
        {fetched}
    }
    .into_any()
}

/// A link that opens apart from this page, or inert text for anything but http(s).
fn link(url: &str) -> AnyView {
    match safe_href(url) {
        Some(href) => view! {
            <a class="cctv-link" href=href target="_blank" rel="noopener noreferrer nofollow">{url.to_owned()}</a>
        }
        .into_any(),
        None => view! { <span class="cctv-md__inert-link">{url.to_owned()}</span> }.into_any(),
    }
}
