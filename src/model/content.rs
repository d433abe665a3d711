//! The API message inside user and assistant lines, and its content blocks.
//!
//! Blocks are indexed, not decoded: a block knows its kind, the ids and names pairing needs, and
//! where its body is. [`crate::model::body`] decodes a body when it is shown.

use super::span::{JsonStr, Span};

/// The `message` of a user or assistant line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Message {
    /// Anthropic's message id (`msg_...`). Claude Code writes one line per content block, so lines
    /// sharing it (within one `requestId`) are one API response. Not unique per line.
    pub id: Option<JsonStr>,
    pub role: Option<JsonStr>,
    pub model: Option<JsonStr>,
    pub stop_reason: Option<JsonStr>,
    pub usage: Option<Usage>,
    pub content: Content,
}

impl Message {
    /// The text an item of this message shows: the whole content when it is a string, else the
    /// text (or thinking) of block `block`.
    pub fn text<'s>(&self, src: &'s [u8], block: Option<u32>) -> Option<std::borrow::Cow<'s, str>> {
        match (&self.content, block) {
            (Content::Text(text), _) => Some(text.decode(src)),
            (Content::Blocks(_), Some(b)) => match &self.content.block(b)?.kind {
                BlockKind::Text { text } => Some(text.decode(src)),
                BlockKind::Thinking { thinking } => Some(thinking.decode(src)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Token counts of one API response, as its last line reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_creation_input_tokens: u64,
    /// Of the cache written, what was written for an hour (`cache_creation.ephemeral_1h_input_tokens`,
    /// priced higher than the usual five minutes); 0 where the usage does not split it.
    pub cache_creation_1h_input_tokens: u64,
    pub cache_read_input_tokens: u64,
}

/// `message.content`: a plain string or a list of blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Content {
    /// No `content` at all.
    #[default]
    Missing,
    Text(JsonStr),
    Blocks(Vec<Block>),
}

impl Content {
    pub fn blocks(&self) -> &[Block] {
        match self {
            Content::Blocks(blocks) => blocks,
            _ => &[],
        }
    }

    /// The block written at `index` in the list (blocks that could not be read are kept too, so
    /// this is usually `blocks()[index]`, but it is looked up by the index written in each).
    pub fn block(&self, index: u32) -> Option<&Block> {
        let blocks = self.blocks();
        match blocks.get(index as usize) {
            Some(block) if block.index == index => Some(block),
            _ => blocks.iter().find(|b| b.index == index),
        }
    }
}

/// One item of a content list. `index` is its position in the list as written, which derived
/// UUIDs and raw views refer to.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub index: u32,
    pub kind: BlockKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BlockKind {
    /// A `text` block, or a bare string in the list.
    Text {
        text: JsonStr,
    },
    Thinking {
        thinking: JsonStr,
    },
    /// Thinking the API returned encrypted; only its presence can be shown.
    RedactedThinking,
    ToolUse(ToolUse),
    /// A tool the API ran itself (web search, code execution).
    ServerToolUse(ToolUse),
    ToolResult(ToolResult),
    /// The result of a tool the API ran itself (`web_search_tool_result`, `web_fetch_tool_result`,
    /// `code_execution_tool_result`, …), written in the assistant message next to its
    /// `server_tool_use`.
    ServerToolResult {
        type_name: JsonStr,
        result: ToolResult,
    },
    /// An image; `source` is the raw `{type, media_type, data}` or `{type: url, url}` object.
    Image {
        source: Option<Span>,
    },
    /// A document (PDF, plain text) sent to the model; `source` as for images.
    Document {
        source: Option<Span>,
        title: Option<JsonStr>,
    },
    /// A block type this version of cctv does not know, or an item that is not a block at all
    /// (a number, `null`). The line's raw JSON still has it; see [`crate::model::Line::span`].
    Unknown {
        type_name: Option<JsonStr>,
    },
    /// A known block type whose fields do not fit it (a `text` block without a string `text`).
    Malformed {
        type_name: JsonStr,
        error: &'static str,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolUse {
    pub id: Option<JsonStr>,
    pub name: Option<JsonStr>,
    /// The raw `input` object.
    pub input: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    pub tool_use_id: Option<JsonStr>,
    /// The raw `content`: a string, or a list of text / image / tool_reference blocks.
    pub content: Option<Span>,
    pub is_error: bool,
}

impl BlockKind {
    /// The block's `type` as Claude Code writes it, for the types it always has; `None` where the
    /// name is the block's own (unknown and malformed blocks, server tool results).
    pub fn type_name(&self) -> Option<&'static str> {
        Some(match self {
            BlockKind::Text { .. } => "text",
            BlockKind::Thinking { .. } => "thinking",
            BlockKind::RedactedThinking => "redacted_thinking",
            BlockKind::ToolUse(_) => "tool_use",
            BlockKind::ServerToolUse(_) => "server_tool_use",
            BlockKind::ToolResult(_) => "tool_result",
            BlockKind::ServerToolResult { .. } => return None,
            BlockKind::Image { .. } => "image",
            BlockKind::Document { .. } => "document",
            BlockKind::Unknown { .. } | BlockKind::Malformed { .. } => return None,
        })
    }
}
