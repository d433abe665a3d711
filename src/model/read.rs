//! From the borrowed wire shape to typed entries, with positions instead of copies.

use std::collections::HashMap;

use super::content::{Block, BlockKind, Content, Message, ToolResult, ToolUse, Usage};
use super::deserializer;
use super::entry::*;
use super::scan::Stop;
use super::span::{JsonStr, Span};
use super::wire::*;

/// Reads one line that starts like a JSON object, in one pass. Fails only when the line is not
/// JSON: valid JSON that does not fit the typed shapes becomes [`EntryKind::Malformed`] (known
/// type) or [`EntryKind::Unknown`].
pub(crate) fn read_entry(line: &str, base: usize) -> Result<Entry, serde_json::Error> {
    let at = At { line, base, fast: true };
    match deserializer::from_str::<WireLine>(line) {
        Ok(wire) => Ok(at.entry(wire)),
        Err(Stop) => at.read_by_serde_json(),
    }
}

/// For tests and the fuzzer: `line` as our deserializer reads it (`None` where it stops and
/// [`read_entry`] asks serde_json), and as serde_json alone reads it. Where the first is an
/// entry, the two must be equal.
#[doc(hidden)]
pub fn read_both_ways(line: &str) -> (Option<Entry>, Result<Entry, String>) {
    let fast = deserializer::from_str::<WireLine>(line)
        .ok()
        .map(|wire| At { line, base: 0, fast: true }.entry(wire));
    let reference = At { line, base: 0, fast: false }.read_by_serde_json().map_err(|e| e.to_string());
    (fast, reference)
}

/// Where the line being read sits in the buffer.
#[derive(Clone, Copy)]
struct At<'a> {
    line: &'a str,
    base: usize,
    /// Whether to try our deserializer before serde_json (false only to check the two agree).
    fast: bool,
}

impl<'a> At<'a> {
    /// The line as serde_json reads it: what our deserializer leaves, with serde_json's errors.
    fn read_by_serde_json(self) -> Result<Entry, serde_json::Error> {
        match serde_json::from_str::<WireLine>(self.line) {
            Ok(wire) => Ok(self.entry(wire)),
            Err(error) if error.is_syntax() || error.is_eof() => Err(error),
            Err(error) => {
                // A shape error stops the typed read early; the rest of the line must still be JSON.
                serde_json::from_str::<serde::de::IgnoredAny>(self.line)?;
                Ok(self.lenient(error.to_string()))
            }
        }
    }

    /// Reads `text` with our deserializer, or with serde_json where it stops.
    fn read_json<T: serde::Deserialize<'a>>(self, text: &'a str) -> serde_json::Result<T> {
        match self.fast {
            true => deserializer::from_str(text).or_else(|_| serde_json::from_str(text)),
            false => serde_json::from_str(text),
        }
    }

    fn span(self, text: &str) -> Span {
        Span::of_slice(self.line, self.base, text)
    }

    fn str(self, s: Option<Str>) -> Option<JsonStr> {
        s.map(|s| JsonStr::new(self.span(s.0)))
    }

    fn raw(self, raw: Option<Raw>) -> Option<Span> {
        raw.map(|r| self.span(r.0))
    }

    /// A raw value that must be a string to count.
    fn raw_str(self, raw: Option<Raw>) -> Option<JsonStr> {
        raw.filter(|r| r.0.starts_with('"')).map(|r| JsonStr::new(self.span(r.0)))
    }

    fn borrowed(self, s: &str) -> JsonStr {
        // A borrowed string is the token's inside; widen it by the two quotes around it.
        let inner = Span::of_slice(self.line, self.base, s);
        JsonStr::new(Span { start: inner.start - 1, end: inner.end + 1 })
    }

    fn entry(self, w: WireLine) -> Entry {
        let envelope = Envelope {
            type_name: self.str(w.type_name),
            uuid: self.str(w.uuid),
            parent_uuid: self.str(w.parent_uuid),
            logical_parent_uuid: self.str(w.logical_parent_uuid),
            session_id: self.str(w.session_id),
            timestamp: self.str(w.timestamp),
            agent_id: self.str(w.agent_id),
            cwd: self.str(w.cwd),
            version: self.str(w.version),
            git_branch: self.str(w.git_branch),
            slug: self.str(w.slug),
            is_sidechain: w.is_sidechain.unwrap_or(false),
            is_meta: w.is_meta.unwrap_or(false),
            is_visible_in_transcript_only: w.is_visible_in_transcript_only.unwrap_or(false),
            is_compact_summary: w.is_compact_summary.unwrap_or(false),
        };
        let type_name = w.type_name.map(|t| unquote(t.0)).unwrap_or("");
        let kind = match self.kind(type_name, w) {
            Ok(kind) => kind,
            Err(error) => EntryKind::Malformed { error },
        };
        Entry { envelope, kind }
    }

    fn kind(self, type_name: &str, w: WireLine) -> Result<EntryKind, String> {
        Ok(match type_name {
            "user" => EntryKind::User(UserEntry {
                message: self.message(w.message.ok_or("a user line without `message`")?),
                tool_use_result: self.raw(w.tool_use_result),
                source_tool_assistant_uuid: self.str(w.source_tool_assistant_uuid),
                source_tool_use_id: self.str(w.source_tool_use_id),
                permission_mode: self.str(w.permission_mode),
            }),
            "assistant" => EntryKind::Assistant(AssistantEntry {
                message: self.message(w.message.ok_or("an assistant line without `message`")?),
                request_id: self.str(w.request_id),
                is_api_error_message: w.is_api_error_message.unwrap_or(false),
                api_error: self.raw(w.api_error),
                error: self.raw(w.error),
            }),
            "system" => EntryKind::System(self.system(w)),
            "summary" => EntryKind::Summary(SummaryEntry {
                summary: self.str(w.summary),
                leaf_uuid: self.str(w.leaf_uuid),
            }),
            "progress" => EntryKind::Progress(self.progress(w)),
            "attachment" => EntryKind::Attachment(self.attachment(w)?),
            "file-history-snapshot" => EntryKind::FileHistorySnapshot(FileHistorySnapshotEntry {
                message_id: self.str(w.message_id),
                is_snapshot_update: w.is_snapshot_update.unwrap_or(false),
            }),
            "queue-operation" => EntryKind::QueueOperation(QueueOperationEntry {
                operation: self.str(w.operation),
                content: self.raw(w.content),
            }),
            "pr-link" => EntryKind::PrLink(PrLinkEntry {
                number: w.pr_number.map(count),
                url: self.str(w.pr_url),
                repository: self.str(w.pr_repository),
            }),
            "tombstone" => EntryKind::Tombstone(TombstoneEntry {
                target: w.message.and_then(|m| self.str(m.uuid)).or(self.str(w.uuid)),
            }),
            "permission-mode" => metadata(MetadataKind::PermissionMode, self.str(w.permission_mode)),
            "last-prompt" => metadata(MetadataKind::LastPrompt, self.str(w.last_prompt)),
            "ai-title" => metadata(MetadataKind::AiTitle, self.str(w.ai_title)),
            "custom-title" => metadata(MetadataKind::CustomTitle, self.str(w.custom_title)),
            "agent-name" => metadata(MetadataKind::AgentName, self.str(w.agent_name)),
            "mode" => metadata(MetadataKind::Mode, self.str(w.mode)),
            "agent-color" => metadata(MetadataKind::AgentColor, self.str(w.agent_color)),
            "agent-setting" => metadata(MetadataKind::AgentSetting, self.str(w.agent_setting)),
            "bridge-session" => metadata(MetadataKind::BridgeSession, self.str(w.bridge_session_id)),
            "continued-in" => metadata(MetadataKind::ContinuedIn, self.str(w.continued_in_session_id)),
            // A value Claude Code sends back to the API: nothing for a reader.
            "atis-latch" => metadata(MetadataKind::AtisLatch, None),
            // Claude Code's own running cost tally; read from the line when shown.
            "cost-state" => metadata(MetadataKind::CostState, None),
            "fork-context-ref" => EntryKind::ForkContextRef(ForkContextRefEntry {
                parent_session_id: self.raw_str(w.parent_session_id),
                parent_last_uuid: self.raw_str(w.parent_last_uuid),
                // A number's raw text; anything else is no length.
                context_length: w
                    .context_length
                    .and_then(|r| r.0.trim().parse::<f64>().ok())
                    .map(|n| count(Num(n))),
            }),
            "tag" => metadata(MetadataKind::Tag, self.raw_str(w.tag)),
            "relocated" => metadata(MetadataKind::Relocated, self.raw_str(w.relocated_cwd)),
            "ended-by-model" => metadata(MetadataKind::EndedByModel, None),
            "derived-from" => metadata(MetadataKind::DerivedFrom, None),
            "frame-link" => record(RecordKind::FrameLink, None),
            "content-replacement" => record(RecordKind::ContentReplacement, None),
            "memory-mode" => record(RecordKind::MemoryMode, None),
            // Missing and `null` both mean no worktree.
            "worktree-state" => record(RecordKind::WorktreeState, self.raw(w.worktree_session)),
            other => match Bookkeeping::of(other) {
                Some(kind) => EntryKind::Bookkeeping(kind),
                None => EntryKind::Unknown,
            },
        })
    }

    fn system(self, w: WireLine) -> SystemEntry {
        SystemEntry {
            subtype: match w.subtype {
                Some(s) => SystemSubtype::from_name(unquote(s.0), JsonStr::new(self.span(s.0))),
                None => SystemSubtype::Legacy,
            },
            content: self.raw(w.content),
            level: self.str(w.level),
            tool_use_id: self.str(w.tool_use_id),
            duration_ms: w.duration_ms.map(|n| n.0),
            message_count: w.message_count.map(count),
            compact: w.compact_metadata.map(|c| CompactMetadata {
                trigger: self.str(c.trigger),
                pre_tokens: c.pre_tokens.map(count),
                post_tokens: c.post_tokens.map(count),
            }),
            retry: (w.retry_attempt.is_some() || w.max_retries.is_some() || w.retry_in_ms.is_some()).then(
                || Retry {
                    attempt: w.retry_attempt.map(count),
                    max_retries: w.max_retries.map(count),
                    retry_in_ms: w.retry_in_ms.map(|n| n.0),
                },
            ),
            hook_count: w.hook_count.map(count),
            prevented_continuation: w.prevented_continuation.unwrap_or(false),
            error: self.raw(w.error),
        }
    }

    fn progress(self, w: WireLine) -> ProgressEntry {
        let d = w.data.unwrap_or_default();
        ProgressEntry {
            kind: match d.type_name {
                Some(s) => ProgressKind::from_name(unquote(s.0), JsonStr::new(self.span(s.0))),
                None => ProgressKind::Unknown(None),
            },
            tool_use_id: self.str(w.tool_use_id),
            parent_tool_use_id: self.str(w.parent_tool_use_id),
            hook_event: self.str(d.hook_event),
            hook_name: self.str(d.hook_name),
            command: self.str(d.command),
            agent_id: self.str(d.agent_id),
            prompt: self.raw(d.prompt),
            message: self.raw(d.message),
            output: self.raw(d.output),
            full_output: self.raw(d.full_output),
            query: self.raw(d.query),
            task_description: self.raw(d.task_description),
            elapsed_seconds: d.elapsed_time_seconds.map(|n| n.0),
            total_lines: d.total_lines.map(count),
            result_count: d.result_count.map(count),
            server_name: self.str(d.server_name),
            tool_name: self.str(d.tool_name),
            status: self.str(d.status),
        }
    }

    fn attachment(self, w: WireLine) -> Result<AttachmentEntry, String> {
        let raw = w.attachment.ok_or("an attachment line without `attachment`")?;
        // Attachments are small; reading the shared hook fields is a second look at them.
        let a: WireAttachment = self.read_json(raw.0).map_err(|e| e.to_string())?;
        Ok(AttachmentEntry {
            attachment_type: self.str(a.type_name),
            hook: HookFields {
                hook_event: self.str(a.hook_event),
                hook_name: self.str(a.hook_name),
                tool_use_id: self.str(a.tool_use_id),
                command: self.str(a.command),
                exit_code: a.exit_code.map(|n| n.0 as i64),
                duration_ms: a.duration_ms.map(|n| n.0),
                stdout: self.raw(a.stdout),
                stderr: self.raw(a.stderr),
                content: self.raw(a.content),
                blocking_error: self.raw(a.blocking_error),
            },
            attachment: self.span(raw.0),
        })
    }

    fn message(self, m: WireMessage) -> Message {
        let content = match m.content {
            None => Content::Missing,
            Some(WireContent::Text(s)) => Content::Text(self.borrowed(s)),
            Some(WireContent::EscapedText) => match self.locate_content() {
                Some(Located::Text(span)) => Content::Text(span),
                _ => Content::Missing,
            },
            Some(WireContent::Blocks(items)) => Content::Blocks(self.blocks(items)),
        };
        Message {
            id: self.str(m.id),
            role: self.str(m.role),
            model: self.str(m.model),
            stop_reason: self.str(m.stop_reason),
            usage: m.usage.map(|u| Usage {
                input_tokens: u.input_tokens.map(count).unwrap_or(0),
                output_tokens: u.output_tokens.map(count).unwrap_or(0),
                cache_creation_input_tokens: u.cache_creation_input_tokens.map(count).unwrap_or(0),
                cache_creation_1h_input_tokens: u
                    .cache_creation
                    .and_then(|c| c.ephemeral_1h_input_tokens)
                    .map(count)
                    .unwrap_or(0),
                cache_read_input_tokens: u.cache_read_input_tokens.map(count).unwrap_or(0),
            }),
            content,
        }
    }

    fn blocks(self, items: Vec<WireItem>) -> Vec<Block> {
        // Strings with escapes come out of serde decoded, without a position: find them again
        // with a second, shallow look at this line (prompts are short, so this stays cheap).
        let relocated = if items.iter().any(|i| matches!(i, WireItem::EscapedText)) {
            match self.locate_content() {
                Some(Located::Items(spans)) => spans,
                _ => Vec::new(),
            }
        } else {
            Vec::new()
        };
        items
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                let kind = match item {
                    WireItem::Block(b) => self.block(b),
                    WireItem::Text(s) => BlockKind::Text { text: self.borrowed(s) },
                    WireItem::EscapedText => match relocated.get(index) {
                        Some(text) => BlockKind::Text { text: *text },
                        None => BlockKind::Unknown { type_name: None },
                    },
                    WireItem::Other => BlockKind::Unknown { type_name: None },
                };
                Block { index: index as u32, kind }
            })
            .collect()
    }

    fn block(self, b: WireBlock) -> BlockKind {
        let type_name = self.str(b.type_name);
        let name = b.type_name.map(|t| unquote(t.0)).unwrap_or("");
        let malformed = |error| match type_name {
            Some(type_name) => BlockKind::Malformed { type_name, error },
            None => BlockKind::Unknown { type_name },
        };
        let tool_use = || ToolUse { id: self.str(b.id), name: self.str(b.name), input: self.raw(b.input) };
        match name {
            "text" => match self.raw_str(b.text) {
                Some(text) => BlockKind::Text { text },
                None => malformed("a text block without a string `text`"),
            },
            "thinking" => match self.raw_str(b.thinking) {
                Some(thinking) => BlockKind::Thinking { thinking },
                None => malformed("a thinking block without a string `thinking`"),
            },
            "redacted_thinking" => BlockKind::RedactedThinking,
            "tool_use" => BlockKind::ToolUse(tool_use()),
            "server_tool_use" => BlockKind::ServerToolUse(tool_use()),
            "tool_result" => BlockKind::ToolResult(ToolResult {
                tool_use_id: self.str(b.tool_use_id),
                content: self.raw(b.content),
                is_error: b.is_error.unwrap_or(false),
            }),
            "image" => BlockKind::Image { source: self.raw(b.source) },
            "document" => BlockKind::Document { source: self.raw(b.source), title: self.str(b.title) },
            server if server.ends_with("_tool_result") && b.tool_use_id.is_some() => match type_name {
                Some(type_name) => BlockKind::ServerToolResult {
                    type_name,
                    result: ToolResult {
                        tool_use_id: self.str(b.tool_use_id),
                        content: self.raw(b.content),
                        is_error: b.is_error.unwrap_or(false),
                    },
                },
                None => BlockKind::Unknown { type_name },
            },
            _ => BlockKind::Unknown { type_name },
        }
    }

    fn locate_content(self) -> Option<Located> {
        #[derive(serde::Deserialize)]
        struct Line<'a> {
            #[serde(borrow)]
            message: Option<Msg<'a>>,
        }
        #[derive(serde::Deserialize)]
        struct Msg<'a> {
            #[serde(borrow)]
            content: Option<Raw<'a>>,
        }
        let content = self.read_json::<Line>(self.line).ok()?.message?.content?;
        if content.0.starts_with('"') {
            return Some(Located::Text(JsonStr::new(self.span(content.0))));
        }
        let items: Vec<Raw> = self.read_json(content.0).ok()?;
        Some(Located::Items(items.into_iter().map(|i| JsonStr::new(self.span(i.0))).collect()))
    }

    /// The slow path for a line that is a JSON object but does not fit the wire shape (a field of
    /// the wrong type, a duplicate key): keep the envelope fields that do fit, and the error.
    fn lenient(self, error: String) -> Entry {
        let fields: HashMap<String, Raw> = serde_json::from_str(self.line).unwrap_or_default();
        let s = |key: &str| self.raw_str(fields.get(key).copied());
        let b = |key: &str| fields.get(key).is_some_and(|r| r.0 == "true");
        let envelope = Envelope {
            type_name: s("type"),
            uuid: s("uuid"),
            parent_uuid: s("parentUuid"),
            logical_parent_uuid: s("logicalParentUuid"),
            session_id: s("sessionId"),
            timestamp: s("timestamp"),
            agent_id: s("agentId"),
            cwd: s("cwd"),
            version: s("version"),
            git_branch: s("gitBranch"),
            slug: s("slug"),
            is_sidechain: b("isSidechain"),
            is_meta: b("isMeta"),
            is_visible_in_transcript_only: b("isVisibleInTranscriptOnly"),
            is_compact_summary: b("isCompactSummary"),
        };
        let known = fields.get("type").is_some_and(|t| is_known_type(unquote(t.0)));
        let kind = if known { EntryKind::Malformed { error } } else { EntryKind::Unknown };
        Entry { envelope, kind }
    }
}

enum Located {
    Text(JsonStr),
    Items(Vec<JsonStr>),
}

/// The inside of a string token as written (escapes kept); names never carry escapes.
fn unquote(token: &str) -> &str {
    token.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(token)
}

fn metadata(kind: MetadataKind, value: Option<JsonStr>) -> EntryKind {
    EntryKind::Metadata(MetadataEntry { kind, value })
}

fn record(kind: RecordKind, value: Option<Span>) -> EntryKind {
    EntryKind::Record(RecordEntry { kind, value })
}

fn count(n: Num) -> u64 {
    if n.0.is_finite() && n.0 > 0.0 {
        n.0 as u64
    } else {
        0
    }
}

/// Every `type` cctv reads into a typed entry.
pub const KNOWN_TYPES: &[&str] = &[
    "user",
    "assistant",
    "system",
    "summary",
    "progress",
    "attachment",
    "file-history-snapshot",
    "queue-operation",
    "pr-link",
    "tombstone",
    "permission-mode",
    "last-prompt",
    "ai-title",
    "custom-title",
    "agent-name",
    "mode",
    "agent-color",
    "agent-setting",
    "bridge-session",
    "continued-in",
    "atis-latch",
    "cost-state",
    "tag",
    "relocated",
    "ended-by-model",
    "derived-from",
    "frame-link",
    "content-replacement",
    "memory-mode",
    "worktree-state",
    // Bookkeeping (`Bookkeeping::of`).
    "file-history-delta",
    "api-request",
    "api-request-shape",
    "api-request-blob",
    "api-request-resumed",
    "data-flow-records",
    "data-flow-incomplete",
    "resume-head-vouch",
    "attribution-snapshot",
    "isolation-latch",
    "session-owner",
    "dev-mods",
    "history-suppression",
    "tools-used",
    "artifact-comment-monitor",
    "artifact-autoreact-ledger",
    "observer-ref",
    "fork-context-ref",
];

pub fn is_known_type(name: &str) -> bool {
    KNOWN_TYPES.contains(&name)
}
