//! Skill: the skill and its arguments, then the instructions it loaded, folded.

use leptos::prelude::*;

use super::output;
use crate::present::tools::SkillBody;
use crate::ui::content::field;
use crate::ui::markup::markdown;

pub(crate) fn view(body: SkillBody) -> AnyView {
    view! {
        {field("skill", body.skill)}
        {body.args.map(|a| field("arguments", a))}
        {body.base_dir.map(|d| field("from", d))}
        {output(&body.output)}
        {body.loaded.map(|text| view! {
            <details class="cctv-loaded">
                <summary>"Instructions it loaded"</summary>
                <div class="cctv-plan">{markdown(&text)}</div>
            </details>
        })}
    }
    .into_any()
}
