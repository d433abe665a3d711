//! LSP: the question to the language server, and its answer.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Answer, LspBody};
use crate::ui::content::field;
use crate::ui::markup::terminal;

pub(crate) fn view(body: LspBody) -> AnyView {
    let answer = match body.answer {
        Answer::Structured((text, counts)) => view! {
            {counts.map(|c| view! { <div class="cctv-muted">{c}</div> })}
            {terminal(&text, "cctv-out")}
        }
        .into_any(),
        Answer::Plain(o) => output(&o),
    };
    view! { {field("asks", body.operation)} {field("at", body.at)} {answer} }.into_any()
}
