//! Small views shared by rows and tool panels: code with line numbers, images, JSON, results.

use leptos::prelude::*;
use serde_json::Value;

use super::copy::copy_button;
use super::markup;
use crate::model::body::{ImageSource, ResultItem, ToolResultContent};
use crate::text::highlight::highlight_lines;

/// Text with line numbers starting at `first`, highlighted when its language is known, with a
/// button that copies it.
pub(crate) fn numbered(text: &str, first: u64, language: Option<&str>) -> AnyView {
    let lines = highlight_lines(text, language);
    view! {
        <div class="cctv-copyable">
            {copy_button("copy the text", text.to_owned())}
            <table class="cctv-code">
                <tbody>
                    {lines
                        .into_iter()
                        .enumerate()
                        .map(|(i, l)| view! { <tr><td class="cctv-code__no">{first + i as u64}</td><td class="cctv-code__line">{markup::nodes(l)}</td></tr> })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}

/// Image types shown inline. SVG is not among them: it can carry script.
const IMAGE_TYPES: &[&str] =
    &["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/avif"];

/// An image from its data, never from the network; click to enlarge.
pub(crate) fn image(source: &ImageSource) -> AnyView {
    match source {
        ImageSource::Base64 { media_type, data } => {
            let base64 = data.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'\n' | b'\r'));
            if !IMAGE_TYPES.contains(&media_type.as_str()) || !base64 {
                return view! { <span class="cctv-badge">{format!("image ({media_type}) not shown")}</span> }.into_any();
            }
            let src = format!("data:{media_type};base64,{}", data.replace(['\n', '\r'], ""));
            let (zoomed, set_zoomed) = signal(false);
            view! {
                <img
                    class={move || if zoomed.get() { "cctv-img cctv-img--zoomed" } else { "cctv-img" }}
                    src=src
                    alt="image from the transcript"
                    title="click to enlarge"
                    on:click=move |_| set_zoomed.update(|z| *z = !*z)
                />
            }
            .into_any()
        }
        ImageSource::Url(url) => {
            view! { <span class="cctv-badge" title=url.clone()>"image by URL (not loaded: cctv makes no requests)"</span> }.into_any()
        }
        ImageSource::Other(value) => json(value),
    }
}

pub(crate) fn json(value: &Value) -> AnyView {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    view! { <pre class="cctv-json">{text}</pre> }.into_any()
}

/// What a tool told the model: text (terminal-style), images, tool references.
pub(crate) fn result_content(content: &ToolResultContent, error: bool) -> AnyView {
    let class = if error { "cctv-out cctv-out--error" } else { "cctv-out" };
    match content {
        ToolResultContent::Text(text) if text.is_empty() => {
            view! { <div class="cctv-muted">"(no output)"</div> }.into_any()
        }
        ToolResultContent::Text(text) => view! {
            <div class="cctv-copyable">{copy_button("copy the output", text.clone())}{markup::terminal(text, class)}</div>
        }
        .into_any(),
        ToolResultContent::Items(items) => items
            .iter()
            .map(|item| match item {
                ResultItem::Text(text) => markup::terminal(text, class),
                ResultItem::Image(source) => image(source),
                ResultItem::ToolReference { tool_name } => {
                    view! { <span class="cctv-badge">{format!("tool available: {tool_name}")}</span> }
                        .into_any()
                }
                ResultItem::Other(value) => json(value),
            })
            .collect_view()
            .into_any(),
    }
}

/// A labelled value on one line.
pub(crate) fn field(label: &'static str, value: String) -> AnyView {
    view! {
        <div class="cctv-field">
            <span class="cctv-field__label">{label}</span>
            <span class="cctv-field__value">{value}</span>
        </div>
    }
    .into_any()
}
