//! What JavaScript sees, as plain data: a file's lines (`parseTranscript`), and the view model
//! (`normalizeSession`): sessions, their items with ids and kinds, sub-agents with their links,
//! branches, stats and the line accounting.

use serde::Serialize;

use crate::model::{self, Census, EntryKind, LineContent};
use crate::normalize::{ids, AgentLink, Item, ItemKind, Session, Stats, Thread, Workspace};
use crate::present::accounting::{in_words, AccountingInWords};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NormalizedJs {
    pub sessions: Vec<SessionJs>,
    pub rejected: Vec<Rejected>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rejected {
    pub file: String,
    pub reason: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionJs {
    pub session_id: Option<String>,
    pub file: Option<String>,
    pub title: Option<String>,
    pub items: Vec<ItemJs>,
    pub branches: Vec<BranchJs>,
    pub agents: Vec<AgentJs>,
    pub stats: Stats,
    pub accounting: AccountingInWords,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BranchJs {
    /// The line number the branch forks after, in the session file.
    pub fork_point_line: Option<u32>,
    pub items: Vec<ItemJs>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentJs {
    pub agent_id: Option<String>,
    pub file: Option<String>,
    pub description: Option<String>,
    pub agent_type: Option<String>,
    /// The call that spawned it (or the line a fork or side question was born at), or null for
    /// an orphan.
    pub spawned_by: Option<SpawnJs>,
    pub items: Vec<ItemJs>,
    pub stats: Stats,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpawnJs {
    pub file: String,
    pub line: u32,
    pub evidence: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemJs {
    /// The anchor id (`#<id>` opens the viewer there).
    pub id: String,
    /// `prompt`, `command`, `shell`, `injected`, `text`, `thinking`, `redactedThinking`,
    /// `toolCall`, `orphanResult`, `event`, `compactBoundary`, `unknownBlock`, `unknown`,
    /// `malformed`.
    pub kind: &'static str,
    pub file: String,
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    pub meta: bool,
    pub synthetic: bool,
    /// For prompts, commands (`/name args`), injected notes, text and thinking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// For system events, attachments and progress: their type and subtype.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolJs>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolJs {
    pub name: String,
    pub tool_use_id: Option<String>,
    /// The line of its result, or null when the result is missing.
    pub result_line: Option<u32>,
    pub is_error: bool,
    pub pre_hooks: usize,
    pub post_hooks: usize,
    pub progress: usize,
    /// Index into the session's agents.
    pub agent: Option<u32>,
}

pub fn normalized(ws: &Workspace) -> NormalizedJs {
    NormalizedJs {
        sessions: ws.sessions.iter().map(|s| session(ws, s)).collect(),
        rejected: ws
            .rejected
            .iter()
            .map(|(file, reason)| Rejected { file: file.clone(), reason: reason.clone() })
            .collect(),
    }
}

fn session(ws: &Workspace, s: &Session) -> SessionJs {
    SessionJs {
        session_id: s.session_id.clone(),
        file: s.file.map(|f| ws.files[f as usize].name.clone()),
        title: s.title.clone(),
        items: items(ws, &s.thread),
        branches: s
            .branches
            .iter()
            .map(|b| BranchJs {
                fork_point_line: b.fork_point.map(|l| ws.line(l).number),
                items: items(ws, &b.thread),
            })
            .collect(),
        agents: s
            .agents
            .iter()
            .map(|a| AgentJs {
                agent_id: a.agent_id.clone(),
                file: a.file.map(|f| ws.files[f as usize].name.clone()),
                description: a.description.clone(),
                agent_type: a.agent_type.clone(),
                spawned_by: match a.link {
                    AgentLink::Orphan => None,
                    AgentLink::ToolCall { line, how } | AgentLink::At { line, how } => Some(SpawnJs {
                        file: ws.file(line).name.clone(),
                        line: ws.line(line).number,
                        evidence: format!("{how:?}"),
                    }),
                },
                items: items(ws, &a.thread),
                stats: a.stats.clone(),
            })
            .collect(),
        stats: s.stats.clone(),
        accounting: in_words(&s.accounting),
    }
}

fn items(ws: &Workspace, thread: &Thread) -> Vec<ItemJs> {
    thread.items.iter().map(|item| item_js(ws, item)).collect()
}

fn item_js(ws: &Workspace, item: &Item) -> ItemJs {
    let file = ws.file(item.line);
    let src = &file.bytes;
    let entry = ws.line(item.line).entry();
    let kind = item.kind.name();
    let text = matches!(
        item.kind,
        ItemKind::Prompt
            | ItemKind::Text
            | ItemKind::Thinking
            | ItemKind::Command(_)
            | ItemKind::Shell(_)
            | ItemKind::Injected
    )
    .then(|| ws.item_text(item))
    .flatten();
    let event = matches!(item.kind, ItemKind::Event).then(|| match entry.map(|e| &e.kind) {
        Some(EntryKind::System(s)) => format!("system/{}", s.subtype.name(src)),
        Some(EntryKind::Attachment(a)) => {
            format!(
                "attachment/{}",
                a.attachment_type.map(|t| t.decode(src).into_owned()).unwrap_or_default()
            )
        }
        Some(EntryKind::Progress(p)) => format!("progress/{}", p.kind.name(src)),
        _ => entry.and_then(|e| e.envelope.type_name).map(|t| t.decode(src).into_owned()).unwrap_or_default(),
    });
    let tool = match &item.kind {
        ItemKind::ToolCall(call) => Some(ToolJs {
            name: call.name.map(|n| n.decode(src).into_owned()).unwrap_or_default(),
            tool_use_id: call.tool_use_id.map(|i| i.decode(src).into_owned()),
            result_line: call.result.map(|r| ws.line(r.line).number),
            is_error: call.result.is_some_and(|r| r.is_error),
            pre_hooks: call.pre_hooks.len(),
            post_hooks: call.post_hooks.len(),
            progress: call.progress.len(),
            agent: call.agents.first().copied(),
        }),
        _ => None,
    };
    ItemJs {
        id: ids::item_id(ws, item),
        kind,
        file: file.name.clone(),
        line: ws.line(item.line).number,
        block: item.block,
        timestamp: entry.and_then(|e| e.envelope.timestamp).map(|t| t.decode(src).into_owned()),
        meta: item.meta,
        synthetic: item.synthetic,
        text,
        event,
        tool,
    }
}

#[derive(Serialize)]
pub struct ParsedTranscript {
    lines: Vec<ParsedLine>,
    census: Census,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParsedLine {
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

/// Every line of a file as `parseTranscript` gives it: its span, status, type, ids and reason.
pub fn parsed(bytes: &[u8]) -> ParsedTranscript {
    let lines = model::parse(bytes);
    let census = Census::of(&lines, bytes);
    let src = bytes;
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
                        _ => out.subtype = entry.label(src).1.map(|s| s.into_owned()),
                    }
                }
            }
            out
        })
        .collect();
    ParsedTranscript { lines, census }
}
