//! What a system line, an attachment, a summary or a PR link says, in one line of words.

use super::format::duration;
use super::hooks::{hook_view, HookView};
use super::markup::safe_href;
use crate::model::{body, EntryKind, Span, SystemSubtype};
use crate::normalize::{Item, Workspace};

/// An event row.
#[derive(Clone, Debug, PartialEq)]
pub enum EventView {
    /// A line of words, with the raw line folded under it.
    Line { text: String, tone: Tone },
    /// A hook that ran outside a tool call.
    Hook(HookView),
    /// A summary Claude Code wrote of the conversation so far.
    Summary(String),
    /// A pull request the session opened; `href` only for http(s) links.
    PrLink { label: String, href: Option<String> },
    /// Nothing to say in words: the raw line.
    Raw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Normal,
    /// Routine bookkeeping (turn durations, stop hooks).
    Quiet,
    Error,
    /// A subtype cctv does not know.
    Unknown,
}

pub fn event_view(ws: &Workspace, item: &Item) -> EventView {
    let src = ws.src(item.line);
    let Some(entry) = ws.entry(item.line) else { return EventView::Raw };
    let text = |span: Option<Span>| span.map(|s| body::text(src, s)).unwrap_or_default();
    match &entry.kind {
        EntryKind::System(s) => {
            let content = text(s.content);
            let (text, tone) = match s.subtype {
                SystemSubtype::TurnDuration => {
                    (format!("Turn took {}", duration(s.duration_ms.unwrap_or(0.0))), Tone::Quiet)
                }
                SystemSubtype::ApiError => {
                    let retry = s
                        .retry
                        .map(|r| {
                            format!(
                                ", retry {}/{} in {}",
                                r.attempt.unwrap_or(0),
                                r.max_retries.unwrap_or(0),
                                duration(r.retry_in_ms.unwrap_or(0.0))
                            )
                        })
                        .unwrap_or_default();
                    let error = s.error.map(|e| body::text(src, e)).unwrap_or_default();
                    let short: String =
                        error.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(160).collect();
                    (format!("API error{retry}: {short}"), Tone::Error)
                }
                SystemSubtype::StopHookSummary => {
                    (format!("Stop hooks: {} ran", s.hook_count.unwrap_or(0)), Tone::Quiet)
                }
                SystemSubtype::AwaySummary => (format!("While you were away: {content}"), Tone::Normal),
                SystemSubtype::LocalCommand | SystemSubtype::Legacy | SystemSubtype::Informational => {
                    (content, Tone::Normal)
                }
                SystemSubtype::Unknown(name) => {
                    (format!("unknown system event {}: {content}", name.decode(src)), Tone::Unknown)
                }
                _ => (format!("{}: {content}", s.subtype.name(src)), Tone::Normal),
            };
            EventView::Line { text: first_line(&text), tone }
        }
        EntryKind::Attachment(a) if a.is_hook(src) => hook(ws, item),
        EntryKind::Attachment(a) => {
            let kind = a.attachment_type.map(|t| t.decode(src).replace('_', " ")).unwrap_or_default();
            EventView::Line { text: format!("attachment: {kind}"), tone: Tone::Normal }
        }
        EntryKind::Progress(_) => hook(ws, item),
        EntryKind::Summary(s) => {
            EventView::Summary(s.summary.map(|t| t.decode(src).into_owned()).unwrap_or_default())
        }
        EntryKind::PrLink(pr) => {
            let url = pr.url.map(|u| u.decode(src).into_owned()).unwrap_or_default();
            let label = format!(
                "Pull request #{} in {}",
                pr.number.unwrap_or(0),
                pr.repository.map(|r| r.decode(src).into_owned()).unwrap_or_default()
            );
            EventView::PrLink { label, href: safe_href(&url) }
        }
        _ => EventView::Raw,
    }
}

fn hook(ws: &Workspace, item: &Item) -> EventView {
    hook_view(ws, item.line, "hook").map_or(EventView::Raw, EventView::Hook)
}

/// An event says one line; legacy system lines can hold a whole terminal screen.
fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().chars().take(300).collect()
}
