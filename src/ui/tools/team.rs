//! Teammates: a team created or ended, and messages between teammates with who sent them to whom.

use leptos::prelude::*;

use super::output;
use crate::present::tools::{MessageBody, TeamBody};
use crate::ui::content::field;
use crate::ui::markup::markdown;

pub(crate) fn team(body: TeamBody) -> AnyView {
    view! {
        {field(if body.created { "creates team" } else { "ends team" }, body.team.unwrap_or_default())}
        {body.description.map(|d| view! { <div class="cctv-muted">{d}</div> })}
        {body.lead.map(|l| field("lead", l))}
        {output(&body.output)}
    }
    .into_any()
}

pub(crate) fn view(body: MessageBody) -> AnyView {
    view! {
        {body.from.map(|f| field("from", f))}
        {field("to", body.to)}
        {body.summary.map(|s| field("summary", s))}
        <div class="cctv-plan">{markdown(&body.message)}</div>
        {output(&body.output)}
    }
    .into_any()
}
