//! Grep and Glob: the pattern, where, and the lines or files found.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Answer, SearchBody, SearchOutput};
use crate::ui::content::field;
use crate::ui::markup::terminal;

pub(crate) fn view(body: SearchBody) -> AnyView {
    let found = match body.found {
        Answer::Structured(SearchOutput::Lines(text)) => terminal(&text, "cctv-out"),
        Answer::Structured(SearchOutput::Files(files)) => file_list(files),
        Answer::Plain(o) => output(&o),
    };
    view! {
        // LS lists a folder: it has no pattern.
        {(!body.pattern.is_empty()).then(|| field("pattern", body.pattern))}
        {body.path.map(|p| field("in", p))}
        {body.glob.map(|g| field("files", g))}
        {found}
        {body.truncated.then(|| view! { <span class="cctv-badge cctv-badge--warn">"truncated: more files matched"</span> })}
    }
    .into_any()
}

fn file_list(files: Vec<String>) -> AnyView {
    if files.is_empty() {
        return view! { <div class="cctv-muted">"no matches"</div> }.into_any();
    }
    view! { <ul class="cctv-files">{files.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul> }
        .into_any()
}
