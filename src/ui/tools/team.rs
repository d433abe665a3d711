//! SendMessage: a message between teammates, with who sent it to whom.

use leptos::prelude::*;

use super::output;
use crate::present::tools::MessageBody;
use crate::ui::content::field;
use crate::ui::markup::markdown;

pub fn view(body: MessageBody) -> AnyView {
    view! {
        {body.from.map(|f| field("from", f))}
        {field("to", body.to)}
        {body.summary.map(|s| field("summary", s))}
        <div class="cctv-plan">{markdown(&body.message)}</div>
        {output(&body.output)}
    }
    .into_any()
}
