//! AskUserQuestion (the questions, their options, the answer picked) and ExitPlanMode (the plan).

use leptos::prelude::*;

use super::output;
use crate::present::tools::{AskBody, PlanBody};
use crate::ui::markup::markdown;

pub(crate) fn ask(body: AskBody) -> AnyView {
    view! {
        {body
            .questions
            .into_iter()
            .map(|q| view! {
                <div class="cctv-question">
                    <div class="cctv-question__text">{q.text}</div>
                    <ul>
                        {q.choices
                            .into_iter()
                            .map(|c| view! {
                                <li class=if c.chosen { "cctv-option cctv-option--chosen" } else { "cctv-option" }>
                                    <strong>{c.label}</strong>" "<span class="cctv-muted">{c.description}</span>
                                    {c.chosen.then(|| view! { <span class="cctv-badge">"answer"</span> })}
                                </li>
                            })
                            .collect_view()}
                    </ul>
                </div>
            })
            .collect_view()}
        {body.answer_text.map(|t| view! { <div class="cctv-muted">{t}</div> })}
    }
    .into_any()
}

pub(crate) fn plan(body: PlanBody) -> AnyView {
    // Entering plan mode has no plan yet: what the tool told the model is all there is.
    let plan = (!body.plan.is_empty()).then(|| view! { <div class="cctv-plan">{markdown(&body.plan)}</div> });
    view! { {plan} {output(&body.output)} }.into_any()
}
