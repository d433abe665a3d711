//! The JavaScript API: thin wrappers with camelCase names. No logic lives here; every error
//! crosses as a `js_sys::Error` with a message.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::model::{self, Census, EntryKind, LineContent};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One physical line of a transcript. */
export interface ParsedLine {
  /** 1-based line number. */
  line: number;
  /** Byte range of the line in the input. */
  start: number;
  end: number;
  /** `entry` (typed), `unknown` (type cctv does not know), `malformed` (known type, payload does
   * not fit), or `invalid` (not a JSON object). */
  status: "entry" | "unknown" | "malformed" | "invalid";
  type?: string;
  subtype?: string;
  uuid?: string;
  parentUuid?: string;
  /** Why the line is invalid or malformed. */
  reason?: string;
}

export interface ParsedTranscript {
  lines: ParsedLine[];
  /** Lines per kind: `user`, `system/turn_duration`, `invalid/comment`, ... */
  census: Record<string, number>;
}

/** Parses a transcript (the bytes of a `.jsonl` file, or its text). */
export function parseTranscript(input: Uint8Array | string): ParsedTranscript;
"#;

#[derive(Serialize)]
struct ParsedTranscript {
    lines: Vec<ParsedLine>,
    census: Census,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ParsedLine {
    line: u32,
    start: u32,
    end: u32,
    status: &'static str,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    type_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subtype: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uuid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent_uuid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// Parses transcript bytes (or text) into its lines.
#[wasm_bindgen(js_name = parseTranscript, skip_typescript)]
pub fn parse_transcript(input: JsValue) -> Result<JsValue, js_sys::Error> {
    let bytes = bytes_of(&input)?;
    let lines = model::parse(&bytes);
    let census = Census::of(&lines, &bytes);
    let src = bytes.as_slice();
    let text = |s: Option<model::JsonStr>| s.map(|s| s.decode(src).into_owned());
    let lines = lines
        .iter()
        .map(|line| {
            let mut out = ParsedLine {
                line: line.number,
                start: line.span.start,
                end: line.span.end,
                status: "entry",
                type_name: None,
                subtype: None,
                uuid: None,
                parent_uuid: None,
                reason: None,
            };
            match &line.content {
                LineContent::Invalid(invalid) => {
                    out.status = "invalid";
                    out.reason = Some(invalid.reason());
                }
                LineContent::Entry(entry) => {
                    out.type_name = text(entry.envelope.type_name);
                    out.uuid = text(entry.envelope.uuid);
                    out.parent_uuid = text(entry.envelope.parent_uuid);
                    match &entry.kind {
                        EntryKind::Unknown => out.status = "unknown",
                        EntryKind::Malformed { error } => {
                            out.status = "malformed";
                            out.reason = Some(error.clone());
                        }
                        EntryKind::System(s) => out.subtype = Some(s.subtype.name(src).to_owned()),
                        EntryKind::Progress(p) => out.subtype = Some(p.kind.name(src).to_owned()),
                        EntryKind::Attachment(a) => out.subtype = text(a.attachment_type),
                        _ => {}
                    }
                }
            }
            out
        })
        .collect();
    to_js(&ParsedTranscript { lines, census })
}

fn bytes_of(input: &JsValue) -> Result<Vec<u8>, js_sys::Error> {
    if let Some(text) = input.as_string() {
        return Ok(text.into_bytes());
    }
    if input.is_instance_of::<js_sys::Uint8Array>() {
        return Ok(js_sys::Uint8Array::new(input).to_vec());
    }
    if input.is_instance_of::<js_sys::ArrayBuffer>() {
        return Ok(js_sys::Uint8Array::new(input).to_vec());
    }
    Err(js_sys::Error::new("expected a Uint8Array, an ArrayBuffer or a string"))
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, js_sys::Error> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::Error::new(&e.to_string()))
}
