//! Bash: the command as typed, then stdout and stderr as the terminal showed them.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Answer, BashBody};
use crate::ui::content::image;
use crate::ui::markup::terminal;

pub fn view(body: BashBody) -> AnyView {
    let out = match body.output {
        Answer::Structured(b) => view! {
            {b.image.as_ref().map(image)}
            {(!b.stdout.is_empty()).then(|| terminal(&b.stdout, "cctv-out"))}
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
        <pre class="cctv-command">{format!("$ {}", body.command)}</pre>
        {out}
    }
    .into_any()
}
