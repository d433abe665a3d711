//! Decoding bodies on demand: what a span holds, when the UI shows it or a search reads it.

use serde::Deserialize;
use serde_json::Value;

use super::line::Line;
use super::span::Span;

/// The raw JSON at `span` as a value (for JSON views of inputs and unknown shapes).
pub fn value(src: &[u8], span: Span) -> Result<Value, String> {
    serde_json::from_slice(span.bytes(src)).map_err(|e| e.to_string())
}

/// A body that is usually a string: the string decoded, or the JSON pretty-printed if it is not.
pub fn text(src: &[u8], span: Span) -> String {
    match value(src, span) {
        Ok(Value::String(s)) => s,
        Ok(other) => serde_json::to_string_pretty(&other).unwrap_or_default(),
        Err(_) => String::from_utf8_lossy(span.bytes(src)).into_owned(),
    }
}

/// The whole line as a value, for raw views; `None` for invalid lines.
pub fn line_value(src: &[u8], line: &Line) -> Option<Value> {
    line.entry()?;
    serde_json::from_slice(line.span.bytes(src)).ok()
}

/// The content of a `tool_result` block.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolResultContent {
    Text(String),
    Items(Vec<ResultItem>),
}

impl ToolResultContent {
    /// The result's texts in order: the whole text, or each text item (images and other items
    /// have none).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        let (whole, items) = match self {
            ToolResultContent::Text(text) => (Some(text.as_str()), &[][..]),
            ToolResultContent::Items(items) => (None, items.as_slice()),
        };
        whole.into_iter().chain(items.iter().filter_map(|item| match item {
            ResultItem::Text(text) => Some(text.as_str()),
            _ => None,
        }))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ResultItem {
    Text(String),
    Image(ImageSource),
    /// A deferred tool made available (`tool_reference`).
    ToolReference {
        tool_name: String,
    },
    Other(Value),
}

/// Where an image's bytes are.
#[derive(Clone, Debug, PartialEq)]
pub enum ImageSource {
    Base64 { media_type: String, data: String },
    Url(String),
    Other(Value),
}

impl ImageSource {
    pub fn from_value(source: Value) -> ImageSource {
        #[derive(Deserialize)]
        struct Wire {
            #[serde(rename = "type")]
            kind: Option<String>,
            media_type: Option<String>,
            data: Option<String>,
            url: Option<String>,
        }
        match Wire::deserialize(&source) {
            Ok(Wire { kind: Some(k), media_type, data: Some(data), .. }) if k == "base64" => {
                ImageSource::Base64 { media_type: media_type.unwrap_or_default(), data }
            }
            Ok(Wire { kind: Some(k), url: Some(url), .. }) if k == "url" => ImageSource::Url(url),
            _ => ImageSource::Other(source),
        }
    }
}

pub fn image_source(src: &[u8], span: Span) -> ImageSource {
    ImageSource::from_value(value(src, span).unwrap_or(Value::Null))
}

pub(crate) fn tool_result_content(src: &[u8], span: Span) -> ToolResultContent {
    match value(src, span) {
        Ok(Value::String(s)) => ToolResultContent::Text(s),
        Ok(Value::Array(items)) => ToolResultContent::Items(items.into_iter().map(result_item).collect()),
        Ok(other) => ToolResultContent::Items(vec![ResultItem::Other(other)]),
        Err(_) => ToolResultContent::Text(String::from_utf8_lossy(span.bytes(src)).into_owned()),
    }
}

fn result_item(item: Value) -> ResultItem {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
    match (kind.as_str(), &item) {
        ("text", _) => match item.get("text").and_then(Value::as_str) {
            Some(text) => ResultItem::Text(text.to_owned()),
            None => ResultItem::Other(item),
        },
        ("image", _) => match item.get("source") {
            Some(source) => ResultItem::Image(ImageSource::from_value(source.clone())),
            None => ResultItem::Other(item),
        },
        ("tool_reference", _) => match item.get("tool_name").and_then(Value::as_str) {
            Some(name) => ResultItem::ToolReference { tool_name: name.to_owned() },
            None => ResultItem::Other(item),
        },
        (_, Value::String(s)) => ResultItem::Text(s.clone()),
        _ => ResultItem::Other(item),
    }
}
