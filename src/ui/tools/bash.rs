//! Bash and PowerShell: the command as typed at its shell's prompt, then stdout and stderr as the
//! terminal showed them.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Answer, BashBody};
use crate::text::highlight::highlight;
use crate::ui::content::image;
use crate::ui::copy::copy_button;
use crate::ui::markup::{nodes, terminal};

pub(crate) fn view(body: BashBody) -> AnyView {
    let language = body.language;
    let out = match body.output {
        Answer::Structured(b) => view! {
            {b.image.as_ref().map(image)}
            {(!b.stdout.is_empty()).then(|| stdout(&b.stdout, language.as_deref()))}
            {(!b.stderr.is_empty()).then(|| view! {
                <div class="cctv-out__label">"stderr"</div>
                {terminal(&b.stderr, "cctv-out cctv-out--stderr")}
            })}
            {(b.stdout.is_empty() && b.stderr.is_empty() && b.image.is_none()).then(|| view! { <div class="cctv-muted">"(no output)"</div> })}
            {b.interrupted.then(|| view! { <span class="cctv-badge cctv-badge--warn">"interrupted"</span> })}
            {b.note.map(|t| view! { <div class="cctv-muted">{t}</div> })}
        }
        .into_any(),
        Answer::Plain(o) => output(&o),
    };
    view! {
        {body.description.map(|d| view! { <div class="cctv-muted">{d}</div> })}
        <div class="cctv-copyable">
            {copy_button("copy the command", body.command.clone())}
            <pre class="cctv-command">{format!("{} {}", body.shell.prompt(), body.command)}</pre>
        </div>
        {out}
    }
    .into_any()
}

/// What the command printed: a file's text highlighted as that file (`cat x.rs`), unless it
/// carries terminal colours of its own; otherwise as the terminal showed it.
fn stdout(text: &str, language: Option<&str>) -> AnyView {
    match language.filter(|_| !text.contains('\u{1b}')) {
        Some(language) => view! {
            <div class="cctv-copyable">
                {copy_button("copy the output", text.to_owned())}
                <pre class="cctv-out">{nodes(highlight(text, language))}</pre>
            </div>
        }
        .into_any(),
        None => view! {
            <div class="cctv-copyable">{copy_button("copy the output", text.to_owned())}{terminal(text, "cctv-out")}</div>
        }
        .into_any(),
    }
}
