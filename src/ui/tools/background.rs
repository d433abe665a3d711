//! Background shells and tasks: which one, what it runs, its state and its output so far.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{Answer, BackgroundAction, BackgroundBody};
use crate::ui::content::field;
use crate::ui::markup::terminal;

pub(crate) fn view(body: BackgroundBody) -> AnyView {
    let action = match body.action {
        BackgroundAction::Read { wait: true } => "waits for",
        BackgroundAction::Read { wait: false } => "reads",
        BackgroundAction::Stop => "stops",
    };
    let out = match body.output {
        Answer::Structured(b) => view! {
            {b.what.map(|w| field("runs", w))}
            {b.status.map(|s| field("status", s))}
            {b.exit_code.map(|c| field("exit code", c.to_string()))}
            {b.timed_out.then(|| view! { <div class="cctv-muted">"Stopped waiting before it finished."</div> })}
            {(!b.stdout.is_empty()).then(|| terminal(&b.stdout, "cctv-out"))}
            {(!b.stderr.is_empty()).then(|| view! {
                <div class="cctv-out__label">"stderr"</div>
                {terminal(&b.stderr, "cctv-out cctv-out--stderr")}
            })}
            {b.message.map(|m| view! { <div class="cctv-muted">{m}</div> })}
        }
        .into_any(),
        Answer::Plain(o) => output(&o),
    };
    view! { {field(action, body.id)} {out} }.into_any()
}
