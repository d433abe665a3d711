//! Task and Agent: the sub-agent's kind and status, its prompt (folded), and its answer.

use leptos::prelude::*;

use super::output;
use crate::present::rows::Row;
use crate::present::tools::{AgentBody, Answer};
use crate::ui::content::field;
use crate::ui::markup::markdown;
use crate::ui::panel::panel;
use crate::ui::state::{PanelKey, Part};

pub(crate) fn view(row: Row, body: AgentBody) -> AnyView {
    let prompt = body.prompt;
    view! {
        {body.agent_type.map(|k| field("agent", k))}
        {body.status.map(|s| field("status", s))}
        {panel(PanelKey::new(row, Part::Prompt), "cctv-prompt", view! { <span>"Prompt"</span> }.into_any(), move || markdown(&prompt))}
        {match body.answer {
            Answer::Structured(answer) => markdown(&answer),
            Answer::Plain(o) => output(&o),
        }}
    }
    .into_any()
}
