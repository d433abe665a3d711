//! Batch: the calls it ran together, then their results.

use leptos::prelude::*;

use super::output;
use crate::present::tools::BatchBody;

pub(crate) fn view(body: BatchBody) -> AnyView {
    view! {
        {body.description.map(|d| view! { <div class="cctv-muted">{d}</div> })}
        <ul class="cctv-files">
            {body.invocations.into_iter().map(|(tool, target)| view! {
                <li><strong>{tool}</strong>" "<bdi>{target}</bdi></li>
            }).collect_view()}
        </ul>
        {output(&body.output)}
    }
    .into_any()
}
