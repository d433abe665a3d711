//! MCP tools: the server, each argument on its own line, and the result.

use leptos::prelude::*;
use serde_json::Value;

use super::output;
use crate::present::tools::McpBody;
use crate::ui::content::json;

pub(crate) fn view(body: McpBody) -> AnyView {
    view! {
        <div class="cctv-field">
            <span class="cctv-field__label">"server"</span>
            <span class="cctv-field__value">{body.server}</span>
        </div>
        {body
            .arguments
            .into_iter()
            .map(|(name, value)| {
                let value = match value {
                    Value::String(text) => view! { <span class="cctv-field__value">{text}</span> }.into_any(),
                    other => json(&other),
                };
                view! { <div class="cctv-field"><span class="cctv-field__label">{name}</span>{value}</div> }
            })
            .collect_view()}
        <div class="cctv-out__label">"result"</div>
        {output(&body.output)}
    }
    .into_any()
}
