//! A session at a glance, before reading it: how the context filled (and where it was compacted)
//! and what each tool did (how often, how long, how often it failed). Its cost is
//! [`crate::insight::cost`]'s.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::insight::cost::{prompt_tokens, response_dollars};
use crate::model::{EntryKind, SystemSubtype};
use crate::normalize::time::parse_millis;
use crate::normalize::{ItemKind, ItemRef, Session, Workspace};
use crate::present::when::item_millis;

/// The context a response was given, and the row it begins at.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextPoint {
    /// Tokens of prompt: fresh input, read from the cache and written to it.
    pub tokens: u64,
    /// The first row of the response in the main conversation.
    pub item: u32,
    pub millis: Option<i64>,
    /// What the response cost, where its model is priced.
    pub dollars: Option<f64>,
}

/// Where the context was cut short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Compaction {
    /// How many points come before it.
    pub after: u32,
    pub item: u32,
    /// A micro-compaction (old tool results cleared), not a summary of the conversation.
    pub micro: bool,
}

/// The context over the session's main conversation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Context {
    pub points: Vec<ContextPoint>,
    pub compactions: Vec<Compaction>,
    /// The model's context window: 200K tokens, or 1M where a prompt was longer than 200K (the
    /// transcript does not say which window a session had).
    pub limit: u64,
}

/// The standard context window, and the long one.
const WINDOW: u64 = 200_000;
const LONG_WINDOW: u64 = 1_000_000;

/// How the main conversation's context filled, response by response.
pub fn context(ws: &Workspace, session: &Session) -> Context {
    let thread = &session.thread;
    let mut out = Context::default();
    let mut seen = vec![false; thread.responses.len()];
    for (index, item) in thread.items.iter().enumerate() {
        match &item.kind {
            ItemKind::CompactBoundary(_) => out.compactions.push(Compaction {
                after: out.points.len() as u32,
                item: index as u32,
                micro: false,
            }),
            ItemKind::Event => {
                let micro = matches!(&ws.entry(item.line).map(|e| &e.kind),
                    Some(EntryKind::System(s)) if s.subtype == SystemSubtype::MicrocompactBoundary);
                if micro {
                    out.compactions.push(Compaction {
                        after: out.points.len() as u32,
                        item: index as u32,
                        micro,
                    });
                }
            }
            _ => {}
        }
        let Some(turn) = item.response.map(|t| t as usize) else { continue };
        if seen.get(turn).is_none_or(|s| *s) {
            continue;
        }
        seen[turn] = true;
        let response = &thread.responses[turn];
        let tokens = prompt_tokens(&response.usage);
        // Claude Code's stand-in for a failed request has no usage: it was no request.
        if tokens > 0 {
            let dollars = response_dollars(ws, response);
            out.points.push(ContextPoint {
                tokens,
                item: index as u32,
                millis: item_millis(ws, item),
                dollars,
            });
        }
    }
    let peak = out.points.iter().map(|p| p.tokens).max().unwrap_or(0);
    out.limit = if peak > WINDOW { LONG_WINDOW } else { WINDOW };
    out
}

/// What one tool did in a session (its sub-agents included).
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolTotal {
    pub name: String,
    pub calls: u64,
    /// Calls whose tool reported an error.
    pub errors: u64,
    /// From each call to its result, over the calls whose both times are known.
    pub timed: u64,
    pub total_ms: i64,
    pub longest_ms: i64,
    /// The longest call: its thread and row.
    pub longest: Option<ItemRef>,
}

/// Each tool's calls, errors and time, the most called first.
pub fn tools(ws: &Workspace, session: &Session) -> Vec<ToolTotal> {
    let mut by_name: BTreeMap<String, ToolTotal> = BTreeMap::new();
    for (thread_ref, thread) in session.threads() {
        for (index, item) in thread.items.iter().enumerate() {
            let ItemKind::ToolCall(call) = &item.kind else { continue };
            let src = ws.src(item.line);
            let name = call.name.map_or("(unnamed)".to_owned(), |n| n.raw(src).to_owned());
            let total =
                by_name.entry(name.clone()).or_insert_with(|| ToolTotal { name, ..ToolTotal::default() });
            total.calls += 1;
            let Some(result) = call.result else { continue };
            total.errors += result.failed() as u64;
            let ended = ws
                .entry(result.line)
                .and_then(|e| e.envelope.timestamp)
                .and_then(|t| parse_millis(t.key(ws.src(result.line))));
            if let (Some(start), Some(end)) = (item_millis(ws, item), ended) {
                // Clocks of hostile files can run backwards.
                let ms = end.saturating_sub(start).max(0);
                total.timed += 1;
                total.total_ms = total.total_ms.saturating_add(ms);
                if ms > total.longest_ms || total.longest.is_none() {
                    total.longest_ms = ms;
                    total.longest = Some(ItemRef::new(thread_ref, index as u32));
                }
            }
        }
    }
    let mut out: Vec<ToolTotal> = by_name.into_values().collect();
    out.sort_by(|a, b| b.calls.cmp(&a.calls).then(a.name.cmp(&b.name)));
    out
}
