//! Scheduled events: what will happen and when, the prompt it will send, or the jobs listed.

use leptos::prelude::*;

use super::output;
use crate::present::tools::ScheduleBody;
use crate::ui::content::field;
use crate::ui::markup::markdown;

pub(crate) fn view(body: ScheduleBody) -> AnyView {
    view! {
        {body.fields.into_iter().map(|(label, value)| field(label, value)).collect_view()}
        {body.prompt.map(|p| view! {
            <div class="cctv-out__label">"prompt"</div>
            <div class="cctv-plan">{markdown(&p)}</div>
        })}
        {(!body.jobs.is_empty()).then(|| view! {
            <ul class="cctv-files">
                {body.jobs.into_iter().map(|j| view! {
                    <li><strong>{j.schedule}</strong>" "<bdi>{j.prompt}</bdi>" "<span class="cctv-muted">{j.id}</span></li>
                }).collect_view()}
            </ul>
        })}
        {output(&body.output)}
    }
    .into_any()
}
