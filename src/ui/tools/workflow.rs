//! Workflow: the run, how it went, and its summary; its agents are toggled below the panel.

use leptos::prelude::*;

use super::output;
use crate::present::tools::WorkflowBody;
use crate::ui::content::field;
use crate::ui::markup::markdown;

pub(crate) fn view(body: WorkflowBody) -> AnyView {
    view! {
        {field("workflow", body.name)}
        {body.run_id.map(|r| field("run", r))}
        {body.status.map(|s| field("status", s))}
        {body.totals.map(|t| view! { <div class="cctv-muted">{t}</div> })}
        {body.error.map(|e| view! { <div class="cctv-out cctv-out--stderr">{e}</div> })}
        {body.summary.map(|s| view! { <div class="cctv-plan">{markdown(&s)}</div> })}
        {output(&body.output)}
    }
    .into_any()
}
