//! One row of the conversation, by the kind of item it shows.

use std::sync::Arc;

use leptos::prelude::*;

use super::content::{image, result_content};
use super::hooks::{hook, raw_line};
use super::markup::{markdown, terminal};
use super::panel::{local_panel, panel};
use super::state::{part, use_viewer};
use super::tools::tool_call;
use crate::model::body::{self, ToolResultContent};
use crate::model::{BlockKind, Content, EntryKind, SystemSubtype};
use crate::normalize::{ids, Item, ItemKind, Workspace};
use crate::present::calls::duration;
use crate::present::markup::safe_href;
use crate::present::rows::{self, Row, ThreadRef};

pub fn row_view(ws: Arc<Workspace>, session: usize, row: Row) -> AnyView {
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
    let Some(item) = rows::thread(s, row.thread).items.get(row.item as usize).cloned() else {
        return ().into_any();
    };
    let viewer = use_viewer();
    let id = ids::item_id(&ws, &item);
    let (role, role_class) = role(&ws, &item);
    let time = ws
        .line(item.line)
        .entry()
        .and_then(|e| e.envelope.timestamp)
        .map(|t| t.decode(&ws.file(item.line).bytes).get(11..19).unwrap_or_default().to_owned());
    let target = (row.thread, row.item);
    let highlighted = move || viewer.target.get() == Some(target);
    let forks = if row.thread == ThreadRef::Main { rows::forks_at(s, item.line) } else { Vec::new() };
    let last_of_line = rows::thread(s, row.thread)
        .items
        .get(row.item as usize + 1)
        .is_none_or(|next| next.line != item.line);
    let body = item_body(ws.clone(), row, &item);
    let href = format!("#{}", js_sys::encode_uri_component(&id));
    let copy_id = id.clone();
    view! {
        <article
            class=move || {
                format!(
                    "cctv-item {role_class}{}{}{}",
                    if item.meta { " cctv-item--meta" } else { "" },
                    if item.synthetic { " cctv-item--synthetic" } else { "" },
                    if highlighted() { " cctv-item--target" } else { "" },
                )
            }
            style=format!("--depth: {}", row.depth)
            data-id=id
        >
            <div class="cctv-item__gutter">
                <span class="cctv-item__role">{role}</span>
                {time.map(|t| view! { <span class="cctv-item__time">{t}</span> })}
                <a class="cctv-item__anchor" href=href title="link to this item">"#"</a>
                <button class="cctv-item__copy" title="copy a link to this item" on:click=move |_| copy_link(&copy_id)>
                    "copy"
                </button>
            </div>
            <div class="cctv-item__body">{body}</div>
        </article>
        {(last_of_line && !forks.is_empty()).then(|| branch_switch(ws.clone(), session, forks))}
    }
    .into_any()
}

fn copy_link(id: &str) {
    let window = window();
    let location = window.location();
    let base = location.href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default().to_owned();
    let url = format!("{base}#{}", js_sys::encode_uri_component(id));
    let _ = window.navigator().clipboard().write_text(&url);
}

fn role(ws: &Workspace, item: &Item) -> (&'static str, &'static str) {
    match &item.kind {
        ItemKind::Prompt if item.meta => ("meta", "cctv-item--user"),
        ItemKind::Prompt => ("you", "cctv-item--user"),
        ItemKind::Text | ItemKind::RedactedThinking => ("claude", "cctv-item--assistant"),
        ItemKind::Thinking => ("thinking", "cctv-item--thinking"),
        ItemKind::ToolCall(_) | ItemKind::OrphanResult => ("tool", "cctv-item--tool"),
        ItemKind::CompactBoundary(_) => ("compact", "cctv-item--system"),
        ItemKind::Unknown | ItemKind::Malformed | ItemKind::UnknownBlock => ("raw", "cctv-item--raw"),
        ItemKind::Event => match ws.line(item.line).entry().map(|e| &e.kind) {
            Some(EntryKind::Attachment(_)) | Some(EntryKind::Progress(_)) => ("hook", "cctv-item--system"),
            _ => ("system", "cctv-item--system"),
        },
    }
}

fn item_body(ws: Arc<Workspace>, row: Row, item: &Item) -> AnyView {
    let src = &ws.file(item.line).bytes;
    let line = ws.line(item.line);
    let Some(entry) = line.entry() else { return ().into_any() };
    let block = match &entry.kind {
        EntryKind::User(u) => {
            item.block.and_then(|b| u.message.content.blocks().iter().find(|x| x.index == b))
        }
        EntryKind::Assistant(a) => {
            item.block.and_then(|b| a.message.content.blocks().iter().find(|x| x.index == b))
        }
        _ => None,
    };
    let key = (row.thread, row.item, part::BODY);
    match &item.kind {
        ItemKind::Prompt => {
            let content = match (&entry.kind, block.map(|b| &b.kind)) {
                (_, Some(BlockKind::Text { text })) => Some(text.decode(src).into_owned()),
                (EntryKind::User(u), None) => match u.message.content {
                    Content::Text(text) => Some(text.decode(src).into_owned()),
                    _ => None,
                },
                _ => None,
            };
            match (content, block.map(|b| &b.kind)) {
                (Some(text), _) if item.meta || entry.envelope.is_compact_summary => {
                    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").chars().take(100).collect::<String>();
                    local_panel("cctv-meta", view! { <span class="cctv-muted">{first}</span> }.into_any(), false, move || {
                        view! { <pre class="cctv-text">{text.clone()}</pre> }.into_any()
                    })
                    .into_any()
                }
                (Some(text), _) => long_text(text, |t| view! { <div class="cctv-prompt">{t}</div> }.into_any()),
                (None, Some(BlockKind::Image { source: Some(s) })) => image(&body::image_source(src, *s)),
                (None, Some(BlockKind::Document { title, .. })) => {
                    let title = title.map(|t| t.decode(src).into_owned()).unwrap_or_default();
                    view! { <span class="cctv-badge">{format!("document {title}")}</span> }.into_any()
                }
                _ => raw_line(&ws, item.line),
            }
        }
        ItemKind::Text => {
            let text = match (block.map(|b| &b.kind), &entry.kind) {
                (Some(BlockKind::Text { text }), _) => text.decode(src).into_owned(),
                (None, EntryKind::Assistant(a)) => match a.message.content {
                    Content::Text(t) => t.decode(src).into_owned(),
                    _ => String::new(),
                },
                _ => String::new(),
            };
            long_text(text, |t| markdown(&t))
        }
        ItemKind::Thinking => {
            let Some(BlockKind::Thinking { thinking }) = block.map(|b| &b.kind) else { return ().into_any() };
            let text = thinking.decode(src).into_owned();
            let words = text.split_whitespace().count();
            panel(key, "cctv-thinking", view! { <span>{format!("Thinking · {words} words")}</span> }.into_any(), move || {
                markdown(&text)
            })
            .into_any()
        }
        ItemKind::RedactedThinking => {
            view! { <div class="cctv-muted">"Redacted thinking (encrypted by the API; its text is not in the transcript)"</div> }
                .into_any()
        }
        ItemKind::ToolCall(call) => tool_call(ws.clone(), row, item, call),
        ItemKind::OrphanResult => {
            let Some(BlockKind::ToolResult(r)) = block.map(|b| &b.kind) else { return ().into_any() };
            let content = r.content.map(|c| body::tool_result_content(src, c)).unwrap_or(ToolResultContent::Text(String::new()));
            let error = r.is_error;
            let id = r.tool_use_id.map(|i| i.decode(src).into_owned()).unwrap_or_default();
            panel(
                key,
                "cctv-orphan",
                view! { <span>"Tool result without its call"</span><span class="cctv-muted">{id}</span> }.into_any(),
                move || result_content(&content, error),
            )
            .into_any()
        }
        ItemKind::Event => event(ws.clone(), row, item),
        ItemKind::CompactBoundary(boundary) => {
            let meta = match &entry.kind {
                EntryKind::System(s) => s.compact.clone(),
                _ => None,
            };
            let trigger = meta.as_ref().and_then(|m| m.trigger).map(|t| t.decode(src).into_owned()).unwrap_or_default();
            let tokens = meta.as_ref().and_then(|m| m.pre_tokens).map(|t| format!(", {t} tokens before")).unwrap_or_default()
                + &meta.as_ref().and_then(|m| m.post_tokens).map(|t| format!(", {t} after")).unwrap_or_default();
            let summary = boundary.summary.map(|l| {
                let s = &ws.file(l).bytes;
                match ws.line(l).entry().map(|e| &e.kind) {
                    Some(EntryKind::User(u)) => match &u.message.content {
                        Content::Text(t) => t.decode(s).into_owned(),
                        Content::Blocks(b) => b
                            .iter()
                            .filter_map(|b| match b.kind {
                                BlockKind::Text { text } => Some(text.decode(s).into_owned()),
                                _ => None,
                            })
                            .collect::<Vec<_>>()
                            .join("\n"),
                        Content::Missing => String::new(),
                    },
                    _ => String::new(),
                }
            });
            let summaries: Vec<String> = boundary
                .summaries
                .iter()
                .filter_map(|l| match ws.line(*l).entry().map(|e| &e.kind) {
                    Some(EntryKind::Summary(s)) => s.summary.map(|t| t.decode(&ws.file(*l).bytes).into_owned()),
                    _ => None,
                })
                .collect();
            let header = view! { <span>{format!("Conversation compacted ({trigger}{tokens})")}</span> }.into_any();
            view! {
                <div class="cctv-compact">
                    {panel(key, "cctv-compact__panel", header, move || {
                        view! {
                            {summaries.iter().map(|s| view! { <div class="cctv-field"><span class="cctv-field__label">"summary"</span>{s.clone()}</div> }).collect_view()}
                            {summary.clone().map(|s| markdown(&s))}
                        }
                        .into_any()
                    })}
                </div>
            }
            .into_any()
        }
        ItemKind::UnknownBlock => {
            let name = block.map(|b| match &b.kind {
                BlockKind::Unknown { type_name } => type_name.map(|t| t.decode(src).into_owned()).unwrap_or("not a block".into()),
                BlockKind::Malformed { type_name, error } => format!("{} ({error})", type_name.decode(src)),
                _ => String::new(),
            });
            raw_panel(ws.clone(), row, item, format!("unknown block: {}", name.unwrap_or_default()))
        }
        ItemKind::Unknown => {
            let name = entry.envelope.type_name.map(|t| t.decode(src).into_owned()).unwrap_or("(no type)".into());
            raw_panel(ws.clone(), row, item, format!("unknown type: {name}"))
        }
        ItemKind::Malformed => {
            let name = entry.envelope.type_name.map(|t| t.decode(src).into_owned()).unwrap_or_default();
            let error = match &entry.kind {
                EntryKind::Malformed { error } => error.clone(),
                _ => String::new(),
            };
            raw_panel(ws.clone(), row, item, format!("{name} entry that does not fit: {error}"))
        }
    }
}

/// Text past this many bytes shows its beginning and a button for the rest: laying out megabytes
/// of text at once would stall the page, and a 10 MB prompt is more likely a paste than prose.
const LONG_TEXT: usize = 20_000;

fn long_text(text: String, show: impl Fn(String) -> AnyView + Send + Sync + 'static) -> AnyView {
    if text.len() <= LONG_TEXT {
        return show(text);
    }
    let (all, set_all) = signal(false);
    let cut = (0..=LONG_TEXT).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let size = text.len();
    view! {
        {move || if all.get() { show(text.clone()) } else { show(format!("{}…", &text[..cut])) }}
        {move || (!all.get()).then(|| view! {
            <button class="cctv-button" on:click=move |_| set_all.set(true)>
                {format!("Show all {:.1} MB", size as f64 / 1e6)}
            </button>
        })}
    }
    .into_any()
}

/// An entry shown as its raw JSON, open, with a badge saying why.
fn raw_panel(ws: Arc<Workspace>, _row: Row, item: &Item, badge: String) -> AnyView {
    let line = item.line;
    let number = ws.line(line).number;
    view! {
        <div class="cctv-raw">
            <span class="cctv-badge cctv-badge--warn">{badge}</span>
            <span class="cctv-muted">{format!("line {number}")}</span>
            {raw_line(&ws, line)}
        </div>
    }
    .into_any()
}

fn event(ws: Arc<Workspace>, row: Row, item: &Item) -> AnyView {
    let src = &ws.file(item.line).bytes;
    let entry = ws.line(item.line).entry().expect("events are entries");
    let key = (row.thread, row.item, part::RAW);
    let raw = {
        let ws = ws.clone();
        let line = item.line;
        move || raw_line(&ws, line)
    };
    let text = |span: Option<crate::model::Span>| span.map(|s| body::text(src, s)).unwrap_or_default();
    match &entry.kind {
        EntryKind::System(s) => {
            let content = text(s.content);
            let (summary, class) = match s.subtype {
                SystemSubtype::TurnDuration => (
                    format!("Turn took {}", duration(s.duration_ms.unwrap_or(0.0))),
                    "cctv-event cctv-event--quiet",
                ),
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
                    (format!("API error{retry}: {short}"), "cctv-event cctv-event--error")
                }
                SystemSubtype::StopHookSummary => {
                    (format!("Stop hooks: {} ran", s.hook_count.unwrap_or(0)), "cctv-event cctv-event--quiet")
                }
                SystemSubtype::AwaySummary => (format!("While you were away: {content}"), "cctv-event"),
                SystemSubtype::LocalCommand | SystemSubtype::Legacy | SystemSubtype::Informational => {
                    (content.clone(), "cctv-event")
                }
                SystemSubtype::Unknown(name) => (
                    format!("unknown system event {}: {content}", name.decode(src)),
                    "cctv-event cctv-event--unknown",
                ),
                _ => (format!("{}: {content}", s.subtype.name(src)), "cctv-event"),
            };
            view! {
                <div class=class>
                    {panel(key, "cctv-event__panel", markup_line(&summary), raw)}
                </div>
            }
            .into_any()
        }
        EntryKind::Attachment(a) if a.is_hook(src) => hook(&ws, item.line, "hook"),
        EntryKind::Attachment(a) => {
            let kind = a.attachment_type.map(|t| t.decode(src).replace('_', " ")).unwrap_or_default();
            view! { <div class="cctv-event">{panel(key, "cctv-event__panel", view! { <span>{format!("attachment: {kind}")}</span> }.into_any(), raw)}</div> }
                .into_any()
        }
        EntryKind::Progress(_) => hook(&ws, item.line, "hook"),
        EntryKind::Summary(s) => {
            let summary = s.summary.map(|t| t.decode(src).into_owned()).unwrap_or_default();
            view! { <div class="cctv-event">{format!("Summary: {summary}")}</div> }.into_any()
        }
        EntryKind::PrLink(pr) => {
            let url = pr.url.map(|u| u.decode(src).into_owned()).unwrap_or_default();
            let label = format!(
                "Pull request #{} in {}",
                pr.number.unwrap_or(0),
                pr.repository.map(|r| r.decode(src).into_owned()).unwrap_or_default()
            );
            let link = match safe_href(&url) {
                Some(href) => view! { <a class="cctv-link" href=href target="_blank" rel="noopener noreferrer nofollow">{label}</a> }.into_any(),
                None => view! { <span>{label}</span> }.into_any(),
            };
            view! { <div class="cctv-event">{link}</div> }.into_any()
        }
        _ => raw_line(&ws, item.line),
    }
}

/// One line of event text, terminal escapes rendered (legacy system lines carry them).
fn markup_line(text: &str) -> AnyView {
    let first: String = text.lines().next().unwrap_or_default().chars().take(300).collect();
    view! { <span class="cctv-event__text">{terminal(&first, "cctv-inline")}</span> }.into_any()
}

/// Where the conversation forked: which continuation is shown, and the others to switch to.
fn branch_switch(ws: Arc<Workspace>, session: usize, branches: Vec<u32>) -> AnyView {
    let viewer = use_viewer();
    let s = &ws.sessions[session];
    let options: Vec<(Option<u32>, String)> =
        std::iter::once((None, "latest (what Claude Code resumes)".to_owned()))
            .chain(branches.iter().map(|&b| {
                let first = s.branches[b as usize]
                    .thread
                    .items
                    .first()
                    .and_then(|i| crate::normalize::outline::item_text(&ws, i));
                let label = first.unwrap_or_default().chars().take(60).collect::<String>();
                (Some(b), format!("earlier: {label}"))
            }))
            .collect();
    view! {
        <div class="cctv-branches" role="group" aria-label="conversation branches">
            <span class="cctv-branches__label">{format!("The conversation forked here ({} versions):", options.len())}</span>
            {options
                .into_iter()
                .map(|(branch, label)| {
                    let chosen = move || viewer.choices.with(|c| c.branch == branch);
                    view! {
                        <button
                            class={move || if chosen() { "cctv-branch cctv-branch--chosen" } else { "cctv-branch" }}
                            aria-pressed=move || chosen().to_string()
                            on:click=move |_| viewer.choices.update(|c| c.branch = branch)
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
    .into_any()
}
