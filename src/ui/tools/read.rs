//! Read: the file, the range read, the lines with their numbers (or the image).

use leptos::prelude::*;

use crate::present::tools::{ReadBody, ReadContent};
use crate::ui::content::{field, image, numbered};

pub(crate) fn view(body: ReadBody) -> AnyView {
    let content = match body.content {
        ReadContent::Image(source) => image(&source),
        ReadContent::Lines { text, first } => numbered(&text, first, body.language.as_deref()),
    };
    view! { {field("file", body.path)} <div class="cctv-muted">{body.range.unwrap_or_default()}</div> {content} }.into_any()
}
