//! The shape of a line as serde reads it: borrowed, flat, one pass.
//!
//! Every field is optional and every body is a [`Raw`] slice of the line, so deserializing a line
//! validates it and records where things are without copying or allocating per field. Fields whose
//! shape differs between entry types (`content`, `error`) stay raw. [`super::read`] turns this into
//! typed entries; a line that does not fit these shapes falls back to the lenient path there.
//!
//! These structs are read by [`super::deserializer`] first and by serde_json when it stops.

use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt;

use super::deserializer::RAW_TOKEN;

/// A value as written in the line, whatever its kind: a body to decode later, or a token to locate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Raw<'a>(pub &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for Raw<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RawVisitor;
        impl<'de> Visitor<'de> for RawVisitor {
            type Value = Raw<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            /// Our deserializer knows [`RAW_TOKEN`] and hands over the value's text.
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Raw<'de>, E> {
                Ok(Raw(text))
            }
            /// serde_json does not know it, and reads its own raw value instead.
            fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Raw<'de>, D::Error> {
                <&RawValue>::deserialize(d).map(|raw| Raw(raw.get()))
            }
        }
        d.deserialize_newtype_struct(RAW_TOKEN, RawVisitor)
    }
}

/// A JSON string token, borrowed with its quotes so its position in the line is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Str<'a>(pub &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Raw::deserialize(d)?;
        if raw.0.starts_with('"') {
            Ok(Str(raw.0))
        } else {
            Err(de::Error::invalid_type(unexpected(raw.0), &"a string"))
        }
    }
}

fn unexpected(raw: &str) -> de::Unexpected<'static> {
    match raw.as_bytes().first() {
        Some(b'{') => de::Unexpected::Map,
        Some(b'[') => de::Unexpected::Seq,
        Some(b't' | b'f') => de::Unexpected::Other("a boolean"),
        Some(b'n') => de::Unexpected::Unit,
        _ => de::Unexpected::Other("a number"),
    }
}

/// Any JSON number, as `f64`. Counts and durations are written as integers or floats depending on
/// the version, so neither is refused.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Num(pub f64);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NumVisitor;
        impl Visitor<'_> for NumVisitor {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Num, E> {
                Ok(Num(v))
            }
        }
        d.deserialize_any(NumVisitor)
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireLine<'a> {
    #[serde(rename = "type", borrow)]
    pub type_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub subtype: Option<Str<'a>>,
    #[serde(borrow)]
    pub uuid: Option<Str<'a>>,
    #[serde(borrow)]
    pub parent_uuid: Option<Str<'a>>,
    #[serde(borrow)]
    pub logical_parent_uuid: Option<Str<'a>>,
    #[serde(borrow)]
    pub session_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub timestamp: Option<Str<'a>>,
    #[serde(borrow)]
    pub agent_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub cwd: Option<Str<'a>>,
    #[serde(borrow)]
    pub version: Option<Str<'a>>,
    #[serde(borrow)]
    pub git_branch: Option<Str<'a>>,
    #[serde(borrow)]
    pub slug: Option<Str<'a>>,
    pub is_sidechain: Option<bool>,
    pub is_meta: Option<bool>,
    pub is_visible_in_transcript_only: Option<bool>,
    pub is_compact_summary: Option<bool>,

    // user / assistant
    #[serde(borrow)]
    pub message: Option<WireMessage<'a>>,
    #[serde(borrow)]
    pub request_id: Option<Str<'a>>,
    pub is_api_error_message: Option<bool>,
    #[serde(borrow)]
    pub api_error: Option<Raw<'a>>,
    #[serde(borrow)]
    pub error: Option<Raw<'a>>,
    #[serde(borrow)]
    pub tool_use_result: Option<Raw<'a>>,
    #[serde(rename = "sourceToolAssistantUUID", borrow)]
    pub source_tool_assistant_uuid: Option<Str<'a>>,
    #[serde(rename = "sourceToolUseID", borrow)]
    pub source_tool_use_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub permission_mode: Option<Str<'a>>,

    // system
    #[serde(borrow)]
    pub content: Option<Raw<'a>>,
    #[serde(borrow)]
    pub level: Option<Str<'a>>,
    pub duration_ms: Option<Num>,
    pub message_count: Option<Num>,
    #[serde(borrow)]
    pub compact_metadata: Option<WireCompactMetadata<'a>>,
    pub retry_attempt: Option<Num>,
    pub max_retries: Option<Num>,
    pub retry_in_ms: Option<Num>,
    pub hook_count: Option<Num>,
    pub prevented_continuation: Option<bool>,

    // progress and hooks
    #[serde(rename = "toolUseID", borrow)]
    pub tool_use_id: Option<Str<'a>>,
    #[serde(rename = "parentToolUseID", borrow)]
    pub parent_tool_use_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub data: Option<WireProgressData<'a>>,
    #[serde(borrow)]
    pub attachment: Option<Raw<'a>>,

    // summary, snapshots, queue, links, metadata entries
    #[serde(borrow)]
    pub summary: Option<Str<'a>>,
    #[serde(borrow)]
    pub leaf_uuid: Option<Str<'a>>,
    #[serde(borrow)]
    pub message_id: Option<Str<'a>>,
    pub is_snapshot_update: Option<bool>,
    #[serde(borrow)]
    pub operation: Option<Str<'a>>,
    pub pr_number: Option<Num>,
    #[serde(borrow)]
    pub pr_url: Option<Str<'a>>,
    #[serde(borrow)]
    pub pr_repository: Option<Str<'a>>,
    #[serde(borrow)]
    pub last_prompt: Option<Str<'a>>,
    #[serde(borrow)]
    pub ai_title: Option<Str<'a>>,
    #[serde(borrow)]
    pub custom_title: Option<Str<'a>>,
    #[serde(borrow)]
    pub agent_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub mode: Option<Str<'a>>,
    #[serde(borrow)]
    pub agent_color: Option<Str<'a>>,
    #[serde(borrow)]
    pub agent_setting: Option<Str<'a>>,
    #[serde(borrow)]
    pub bridge_session_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub continued_in_session_id: Option<Str<'a>>,
    // Raw, not `Str`: a field of another shape under the same name elsewhere must not make the
    // whole line fall back to the slow path.
    #[serde(borrow)]
    pub tag: Option<Raw<'a>>,
    #[serde(borrow)]
    pub relocated_cwd: Option<Raw<'a>>,
    #[serde(borrow)]
    pub worktree_session: Option<Raw<'a>>,

    // fork-context-ref. Raw too, for the same reason: these names are common enough that another
    // line may well carry one of another shape.
    #[serde(borrow)]
    pub parent_session_id: Option<Raw<'a>>,
    #[serde(borrow)]
    pub parent_last_uuid: Option<Raw<'a>>,
    #[serde(borrow)]
    pub context_length: Option<Raw<'a>>,
}

/// `message`: the API message of user and assistant lines (and the wrapped message of a tombstone,
/// whose `uuid` names what it removes).
#[derive(Deserialize, Default)]
pub(crate) struct WireMessage<'a> {
    #[serde(borrow)]
    pub id: Option<Str<'a>>,
    #[serde(borrow)]
    pub uuid: Option<Str<'a>>,
    #[serde(borrow)]
    pub role: Option<Str<'a>>,
    #[serde(borrow)]
    pub model: Option<Str<'a>>,
    #[serde(borrow)]
    pub stop_reason: Option<Str<'a>>,
    pub usage: Option<WireUsage>,
    #[serde(borrow)]
    pub content: Option<WireContent<'a>>,
}

#[derive(Deserialize, Default)]
pub(crate) struct WireUsage {
    pub input_tokens: Option<Num>,
    pub output_tokens: Option<Num>,
    pub cache_creation_input_tokens: Option<Num>,
    pub cache_read_input_tokens: Option<Num>,
    pub cache_creation: Option<WireCacheCreation>,
}

/// `usage.cache_creation`: the cache written, by how long it is kept.
#[derive(Deserialize, Default)]
pub(crate) struct WireCacheCreation {
    pub ephemeral_1h_input_tokens: Option<Num>,
}

/// `message.content`: a string, or a list that may mix bare strings and blocks.
pub(crate) enum WireContent<'a> {
    /// A string without escapes, borrowed in place.
    Text(&'a str),
    /// A string with escapes: serde hands it over decoded, so its position is found again later.
    EscapedText,
    Blocks(Vec<WireItem<'a>>),
}

pub(crate) enum WireItem<'a> {
    Block(WireBlock<'a>),
    Text(&'a str),
    EscapedText,
    /// A number, boolean or null where a block belongs.
    Other,
}

impl<'de: 'a, 'a> Deserialize<'de> for WireContent<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ContentVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for ContentVisitor<'a> {
            type Value = WireContent<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of content blocks")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(WireContent::Text(v))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(WireContent::EscapedText)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(1));
                while let Some(item) = seq.next_element::<WireItem<'a>>()? {
                    items.push(item);
                }
                Ok(WireContent::Blocks(items))
            }
        }
        d.deserialize_any(ContentVisitor(std::marker::PhantomData))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for WireItem<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ItemVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for ItemVisitor<'a> {
            type Value = WireItem<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a content block or a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(WireItem::Text(v))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(WireItem::EscapedText)
            }
            fn visit_map<M: de::MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
                WireBlock::deserialize(de::value::MapAccessDeserializer::new(map)).map(WireItem::Block)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(WireItem::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(WireItem::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(WireItem::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(WireItem::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(WireItem::Other)
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(WireItem::Other)
            }
        }
        d.deserialize_any(ItemVisitor(std::marker::PhantomData))
    }
}

/// One content block, every kind's fields side by side; the `type` decides which count.
#[derive(Deserialize, Default)]
pub(crate) struct WireBlock<'a> {
    #[serde(rename = "type", borrow)]
    pub type_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub text: Option<Raw<'a>>,
    #[serde(borrow)]
    pub thinking: Option<Raw<'a>>,
    #[serde(borrow)]
    pub id: Option<Str<'a>>,
    #[serde(borrow)]
    pub name: Option<Str<'a>>,
    #[serde(borrow)]
    pub input: Option<Raw<'a>>,
    #[serde(borrow)]
    pub tool_use_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub content: Option<Raw<'a>>,
    pub is_error: Option<bool>,
    #[serde(borrow)]
    pub source: Option<Raw<'a>>,
    #[serde(borrow)]
    pub title: Option<Str<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireCompactMetadata<'a> {
    #[serde(borrow)]
    pub trigger: Option<Str<'a>>,
    pub pre_tokens: Option<Num>,
    pub post_tokens: Option<Num>,
}

/// `data` of a progress line: what it is and the small fields indexing needs; the big ones
/// (`output`, `fullOutput`, a sub-agent's `message`) are kept as positions.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireProgressData<'a> {
    #[serde(rename = "type", borrow)]
    pub type_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub hook_event: Option<Str<'a>>,
    #[serde(borrow)]
    pub hook_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub command: Option<Str<'a>>,
    #[serde(borrow)]
    pub agent_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub prompt: Option<Raw<'a>>,
    #[serde(borrow)]
    pub message: Option<Raw<'a>>,
    #[serde(borrow)]
    pub output: Option<Raw<'a>>,
    #[serde(borrow)]
    pub full_output: Option<Raw<'a>>,
    pub elapsed_time_seconds: Option<Num>,
    pub total_lines: Option<Num>,
    #[serde(borrow)]
    pub query: Option<Raw<'a>>,
    pub result_count: Option<Num>,
    #[serde(borrow)]
    pub task_description: Option<Raw<'a>>,
    #[serde(borrow)]
    pub server_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub tool_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub status: Option<Str<'a>>,
}

/// The fields hook attachments share, read from an `attachment` object.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireAttachment<'a> {
    #[serde(rename = "type", borrow)]
    pub type_name: Option<Str<'a>>,
    #[serde(borrow)]
    pub hook_event: Option<Str<'a>>,
    #[serde(borrow)]
    pub hook_name: Option<Str<'a>>,
    #[serde(rename = "toolUseID", borrow)]
    pub tool_use_id: Option<Str<'a>>,
    #[serde(borrow)]
    pub command: Option<Str<'a>>,
    pub exit_code: Option<Num>,
    pub duration_ms: Option<Num>,
    #[serde(borrow)]
    pub stdout: Option<Raw<'a>>,
    #[serde(borrow)]
    pub stderr: Option<Raw<'a>>,
    #[serde(borrow)]
    pub content: Option<Raw<'a>>,
    #[serde(borrow)]
    pub blocking_error: Option<Raw<'a>>,
}
