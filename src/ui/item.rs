//! One row of the conversation: draws a `present::item::ItemView`.

use leptos::prelude::*;

use super::content::{image, result_content};
use super::copy::{copy_later, copy_with};
use super::hooks::{hook, raw_line};
use super::markup::{markdown, terminal};
use super::panel::panel;
use super::state::{use_viewer, PanelKey, Part};
use super::tools::tool_call;
use crate::normalize::{LineRef, Workspace};
use crate::present::agents::AgentLabel;
use crate::present::commands::{CommandView, InjectedView};
use crate::present::event::{EventView, Tone};
use crate::present::item::{AgentSummary, BranchChoice, Compacted, CopiedView, ItemBody, ItemView, Role};
use crate::present::rows::Row;
use crate::present::when::{self, KnownZone};
use crate::text::format::plural;

/// Draws `view`, row `row` of session `session` of `ws`.
///
/// A row lives on while newer workspaces show it the same (more of a growing file arrived), so
/// what it does later (open a panel, copy its turn) reads the workspace shown then, never a
/// captured one: holding on to it would keep every earlier copy of a followed session in memory.
pub(crate) fn row_view(ws: &Workspace, session: usize, row: Row, view: ItemView) -> AnyView {
    let viewer = use_viewer();
    let highlighted = move || viewer.is_highlighted(row.thread, row.item);
    let (meta, synthetic) = (view.meta, view.synthetic);
    let role_class = role_class(view.role);
    let href = format!("#{}", view.link);
    let starts_turn = view.turn_link.is_some();
    let turn_href = view.turn_link.map(|l| format!("#{l}"));
    let copy_href = href.clone();
    let body = item_body(ws, row, view.line, view.body);
    let forks = (!view.forks.is_empty()).then(|| branch_switch(view.forks));
    let born = view.born.into_iter().map(born_button).collect_view();
    let orphan = view.orphan.map(orphan_heading);
    let stop = view
        .stop
        .map(|s| view! { <div class="cctv-stop"><span class="cctv-badge cctv-badge--warn">{s}</span></div> });
    view! {
        <article
            class=move || {
                format!(
                    "cctv-item {role_class}{}{}{}",
                    if meta { " cctv-item--meta" } else { "" },
                    if synthetic { " cctv-item--synthetic" } else { "" },
                    if highlighted() { " cctv-item--target" } else { "" },
                )
            }
            style=format!("--depth: {}", row.depth)
            data-id=view.id
        >
            <div class="cctv-item__gutter">
                // A prompt the person typed begins a turn: a heading to jump between turns by.
                {match starts_turn {
                    true => view! { <h3 class="cctv-item__role">{view.role.label()}</h3> }.into_any(),
                    false => view! { <span class="cctv-item__role">{view.role.label()}</span> }.into_any(),
                }}
                {view.time.map(|t| {
                    let zone = reader_zone();
                    view! { <span class="cctv-item__time" title=format!("{} {}", when::date(t, &zone), when::clock(t, &zone))>{when::clock(t, &zone)}</span> }
                })}
                <a class="cctv-item__anchor" href=href title="link to this row">"#"</a>
                {turn_href.map(|h| view! { <a class="cctv-item__anchor" href=h title="link to this turn (the prompt and all that answered it)">"turn"</a> })}
                <span class="cctv-item__copy">{copy_with("cctv-copy", "copy a link to this row", "copy", move || link_to(&copy_href))}</span>
                // Masked as the Share tab says: every certain secret, until the reader says otherwise.
                {starts_turn.then(|| {
                    let markdown = move || {
                        let ws = viewer.workspace.get_untracked().unwrap_or_default();
                        async move { viewer.share.turn_markdown(viewer, ws, (session, row.thread, row.item)).await }
                    };
                    view! { <span class="cctv-item__copy">{copy_later("copy this turn as Markdown (masked as the Share tab says)", "md", markdown)}</span> }
                })}
            </div>
            <div class="cctv-item__body">{orphan}{body}{stop}{born}</div>
        </article>
        {forks}
    }
    .into_any()
}

/// "Show the fork of the conversation": puts the rows of an agent born at this row (a fork after
/// it, a side question at its prompt) under it, as a call's button does for the agent it spawned.
fn born_button(agent: AgentSummary) -> AnyView {
    let viewer = use_viewer();
    let index = agent.agent;
    let open = move || viewer.choices.with(|c| c.open_agents.contains(&index));
    let kind = agent.label.kind;
    let link = agent.link.map(|l| {
        let href = format!("#{l}");
        view! { <a class="cctv-agent-link" href=href title="link to this sub-agent's conversation">"link"</a> }
    });
    view! {
        <div>
            <button
                class={move || if open() { "cctv-agent-toggle cctv-agent-toggle--open" } else { "cctv-agent-toggle" }}
                on:click=move |_| viewer.choices.update(|c| {
                    if !c.open_agents.remove(&index) {
                        c.open_agents.insert(index);
                    }
                })
                disabled=agent.items == 0
            >
                {move || format!("{} {kind}", if open() { "Hide the" } else { "Show the" })}
                <span class="cctv-muted">" (" {agent.label.origin} {format!(" · {})", agent.counts)}</span>
            </button>
            {link}
        </div>
    }
    .into_any()
}

/// Above the first row of an agent no loaded call or line leads to: what it is, and that its
/// parent is not loaded.
fn orphan_heading(label: AgentLabel) -> AnyView {
    view! {
        <div class="cctv-agent-origin">
            <span class="cctv-badge">{label.kind}</span>
            {label.name.map(|n| view! { " "<bdi>{n}</bdi> })}
            " · "<span class="cctv-muted">{label.origin}</span>
        </div>
    }
    .into_any()
}

/// The rows copied from another session, as one row: show them here, or open the original.
fn copied_rows(copied: CopiedView) -> AnyView {
    let viewer = use_viewer();
    let from = copied.from;
    view! {
        <div class="cctv-copied">
            <span>{copied.text}</span>
            " "
            <button class="cctv-link" on:click=move |_| viewer.choices.update(|c| c.show_copied = true)>"Show them here"</button>
            " · "
            <button class="cctv-link" on:click=move |_| {
                viewer.session.set(from);
                viewer.reset_view();
            }>{format!("Open “{}”", copied.from_title)}</button>
        </div>
    }
    .into_any()
}

fn role_class(role: Role) -> &'static str {
    match role {
        Role::You | Role::Meta => "cctv-item--user",
        Role::Claude => "cctv-item--assistant",
        Role::Thinking => "cctv-item--thinking",
        Role::Tool => "cctv-item--tool",
        Role::Compact | Role::Hook | Role::System | Role::Notice => "cctv-item--system",
        Role::Error => "cctv-item--error",
        Role::Raw => "cctv-item--raw",
    }
}

/// The reader's time zone, as the browser knows it: minutes east of UTC at an instant. Asked of
/// the browser a few times per week of time met (`when::KnownZone`): the dates above the rows and
/// the contents ask it for every row, and a `Date` per row was most of that at 1 GB.
pub(crate) fn reader_zone() -> impl Fn(i64) -> i32 {
    let zone = KnownZone::new(|ms: i64| {
        -(js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64)).get_timezone_offset() as i32)
    });
    move |ms| zone.offset(ms)
}

/// The page's address with `fragment` (`#…`) in place of its own.
fn link_to(fragment: &str) -> String {
    let base = window().location().href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}{fragment}")
}

fn item_body(ws: &Workspace, row: Row, line: LineRef, body: ItemBody) -> AnyView {
    let key = PanelKey::new(row, Part::Body);
    match body {
        ItemBody::Prompt { text, notes } => view! {
            {long_text(text, |t| view! { <div class="cctv-prompt">{t}</div> }.into_any())}
            // What Claude Code appended for the model, folded apart from what was typed.
            {notes.into_iter().map(|n| view! {
                <details class="cctv-note">
                    <summary><span class="cctv-badge">{n.label}</span></summary>
                    <pre class="cctv-text">{n.text}</pre>
                </details>
            }).collect_view()}
        }
        .into_any(),
        ItemBody::Folded { first_line, text } => panel(
            key,
            "cctv-meta",
            view! { <span class="cctv-muted">{first_line}</span> }.into_any(),
            move || view! { <pre class="cctv-text">{text.clone()}</pre> }.into_any(),
        )
        .into_any(),
        ItemBody::Image(source) => image(&source),
        ItemBody::Document { title } => {
            view! { <span class="cctv-badge">{format!("document {title}")}</span> }.into_any()
        }
        ItemBody::Answer(text) => long_text(text, |t| markdown(&t)),
        ItemBody::Thinking { text, words } => panel(
            key,
            "cctv-thinking",
            view! { <span>{format!("Thinking · {}", plural(words as u64, "word"))}</span> }.into_any(),
            move || markdown(&text),
        )
        .into_any(),
        ItemBody::ThinkingNotRecorded => view! {
            <div class="cctv-muted">"Thinking not recorded (only its signature is in the transcript)"</div>
        }
        .into_any(),
        ItemBody::Command(c) => command(row, c, "cctv-command-row"),
        ItemBody::Shell(c) => command(row, c, "cctv-command-row cctv-command-row--shell"),
        ItemBody::Injected(note) => {
            let InjectedView { label, text } = note;
            let first: String = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").chars().take(100).collect();
            panel(
                key,
                "cctv-meta",
                view! { <span class="cctv-badge">{label}</span>" "<span class="cctv-muted">{first}</span> }.into_any(),
                move || view! { <pre class="cctv-text">{text.clone()}</pre> }.into_any(),
            )
            .into_any()
        }
        ItemBody::Notice(n) => view! {
            <div class="cctv-notice">
                <span class="cctv-badge cctv-badge--warn">{n.headline}</span>
                {n.feedback.map(|f| view! { <span class="cctv-notice__feedback">{format!("“{f}”")}</span> })}
            </div>
        }
        .into_any(),
        ItemBody::ApiError { message, detail } => view! {
            <div class="cctv-api-error">
                <span class="cctv-badge cctv-badge--error">"API error"</span>
                " "<span>{message}</span>
                {detail.map(|d| view! { <div class="cctv-muted">{d}</div> })}
            </div>
        }
        .into_any(),
        ItemBody::RedactedThinking => view! {
            <div class="cctv-muted">"Redacted thinking (encrypted by the API; its text is not in the transcript)"</div>
        }
        .into_any(),
        ItemBody::ToolCall(call) => tool_call(row, *call),
        ItemBody::OrphanResult { tool_use_id, content, is_error } => panel(
            key,
            "cctv-orphan",
            view! { <span>"Tool result without its call"</span><span class="cctv-muted">{tool_use_id}</span> }.into_any(),
            move || result_content(&content, is_error),
        )
        .into_any(),
        ItemBody::Event(event) => event_view(row, line, event),
        ItemBody::Compacted(c) => compacted(row, c),
        ItemBody::Copied(copied) => copied_rows(copied),
        // A prompt with nothing to show in words is its raw line, as it always was.
        ItemBody::Raw { badge, .. } if badge.is_empty() => raw_line(ws, line),
        ItemBody::Raw { badge, line_number } => view! {
            <div class="cctv-raw">
                <span class="cctv-badge cctv-badge--warn">{badge}</span>
                <span class="cctv-muted">{format!("line {line_number}")}</span>
                {raw_line(ws, line)}
            </div>
        }
        .into_any(),
        ItemBody::Empty => ().into_any(),
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

/// An event: its line; opened, its details in words, and its raw JSON line behind a toggle of
/// its own (closed until asked for: Expand all leaves it closed).
fn event_view(row: Row, line: LineRef, event: EventView) -> AnyView {
    let key = PanelKey::new(row, Part::Body);
    match event {
        EventView::Line { text, tone, details } => {
            let class = match tone {
                Tone::Normal => "cctv-event",
                Tone::Quiet => "cctv-event cctv-event--quiet",
                Tone::Error => "cctv-event cctv-event--error",
                Tone::Unknown => "cctv-event cctv-event--unknown",
            };
            // Legacy system lines carry terminal colours; other lines read the same either way.
            let header =
                view! { <span class="cctv-event__text">{terminal(&text, "cctv-inline")}</span> }.into_any();
            let body = move || {
                view! {
                    {(!details.is_empty()).then(|| view! {
                        <ul class="cctv-event__details">{details.iter().map(|d| view! { <li>{d.clone()}</li> }).collect_view()}</ul>
                    })}
                    {raw_toggle(row, line)}
                }
                .into_any()
            };
            view! { <div class=class>{panel(key, "cctv-event__panel", header, body)}</div> }.into_any()
        }
        // Context injected for the model, folded under its label as a `<system-reminder>` is.
        EventView::Context { label, text, body } => {
            let header = view! {
                <span class="cctv-badge">{label}</span>" "<span class="cctv-muted cctv-event__text">{text}</span>
            }
            .into_any();
            let body = move || {
                view! {
                    {(!body.trim().is_empty()).then(|| view! { <pre class="cctv-text cctv-event__body">{body.clone()}</pre> })}
                    {raw_toggle(row, line)}
                }
                .into_any()
            };
            view! { <div class="cctv-event cctv-event--quiet">{panel(key, "cctv-meta", header, body)}</div> }
                .into_any()
        }
        EventView::Hook(h) => hook(h),
        EventView::Summary(summary) => {
            view! { <div class="cctv-event">{format!("Summary: {summary}")}</div> }.into_any()
        }
        EventView::Link { label, href } => {
            let link = match href {
                Some(href) => view! { <a class="cctv-link" href=href target="_blank" rel="noopener noreferrer nofollow">{label}</a> }.into_any(),
                None => view! { <span>{label}</span> }.into_any(),
            };
            view! { <div class="cctv-event">{link}</div> }.into_any()
        }
        EventView::Raw => view! { <div class="cctv-event">{raw_toggle(row, line)}</div> }.into_any(),
    }
}

/// An event's raw JSON line, behind a small toggle of its own.
fn raw_toggle(row: Row, line: LineRef) -> AnyView {
    let viewer = use_viewer();
    let raw = move || viewer.workspace.get_untracked().map(|ws| raw_line(&ws, line)).into_any();
    let header = view! { <span class="cctv-muted">"raw line"</span> }.into_any();
    panel(PanelKey::new(row, Part::Raw), "cctv-raw-toggle", header, raw).into_any()
}

fn compacted(row: Row, c: Compacted) -> AnyView {
    let Compacted { header, summaries, summary } = c;
    let header = view! { <span>{header}</span> }.into_any();
    view! {
        <div class="cctv-compact">
            {panel(PanelKey::new(row, Part::Body), "cctv-compact__panel", header, move || {
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

/// Where the conversation forked: which continuation is shown, and the others to switch to.
fn branch_switch(choices: Vec<BranchChoice>) -> AnyView {
    let viewer = use_viewer();
    view! {
        <div class="cctv-branches" role="group" aria-label="conversation branches">
            <span class="cctv-branches__label">{format!("The conversation forked here ({}):", plural(choices.len() as u64, "version"))}</span>
            {choices
                .into_iter()
                .map(|BranchChoice { branch, label }| {
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

/// A command the person ran: the command line, then what it printed (like a terminal), with a
/// slash command's expanded prompt folded under it.
fn command(row: Row, c: CommandView, class: &'static str) -> AnyView {
    let CommandView { line, expansion, stdout, stderr } = c;
    view! {
        <div class=class>
            <pre class="cctv-command">{line}</pre>
            {(!stdout.is_empty()).then(|| terminal(&stdout, "cctv-out"))}
            {(!stderr.is_empty()).then(|| terminal(&stderr, "cctv-out cctv-out--stderr"))}
            {expansion.map(|text| {
                let key = PanelKey::new(row, Part::Prompt);
                panel(key, "cctv-meta", view! { <span class="cctv-muted">"Expanded prompt"</span> }.into_any(), move || markdown(&text))
            })}
        </div>
    }
    .into_any()
}
