//! Any other tool: its input as JSON, then what it returned.

use leptos::prelude::*;
use serde_json::Value;

use super::output;
use crate::present::tools::Output;
use crate::ui::content::json;

pub(crate) fn view(input: &Value, result: &Output) -> AnyView {
    view! {
        <div class="cctv-out__label">"input"</div>
        {json(input)}
        <div class="cctv-out__label">"result"</div>
        {output(result)}
    }
    .into_any()
}
