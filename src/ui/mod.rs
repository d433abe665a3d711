//! Leptos components. Everything here needs a DOM; what it shows comes from `model`,
//! `normalize` and `present`, which do not.

mod content;
pub mod embed;
mod hooks;
mod item;
mod list;
pub mod load;
mod markup;
mod panel;
mod search;
mod side;
pub mod state;
mod tools;
mod top;
mod warm;

use std::sync::Arc;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::normalize::{ItemKind, Workspace};
use crate::present::rows::{self, Row, ThreadRef};
use list::ConversationList;
use state::{Filter, Theme, Viewer};

/// The whole viewer. Shows `initial` until the reader loads files.
#[component]
pub fn App(
    /// What to show first.
    #[prop(optional)]
    initial: Option<Vec<crate::normalize::Input>>,
    /// `initial` is the demo: say so, and how to open your own.
    #[prop(optional)]
    demo: bool,
    /// The viewer's state, when whoever mounts the App wants to drive it.
    #[prop(optional)]
    viewer: Option<Viewer>,
    /// Inside a host page: leave the address bar alone and take keys only when focused.
    #[prop(optional)]
    embedded: bool,
    /// The most bytes of files to open at once (default `state::MAX_BYTES`).
    #[prop(optional)]
    max_bytes: Option<f64>,
) -> impl IntoView {
    embed::ensure_style();
    let viewer = viewer.unwrap_or_default();
    if let Some(limit) = max_bytes {
        viewer.max_bytes.set(limit);
    }
    provide_context(viewer);
    warm::run();
    if let Some(inputs) = initial.filter(|i| !i.is_empty()) {
        viewer.show(crate::normalize::normalize(inputs));
        viewer.demo.set(demo);
    }
    let (dragging, set_dragging) = signal(0i32);
    let rows = Memo::new(move |_| {
        let Some(ws) = viewer.workspace.get() else { return Vec::new() };
        let session = viewer.session.get();
        let choices = viewer.choices.get();
        let filter = viewer.filter.get();
        let Some(s) = ws.sessions.get(session) else { return Vec::new() };
        let keep = |thread: ThreadRef, item: u32| keep(&ws, s, &filter, thread, item);
        rows::rows(s, &choices, &keep)
    });

    // #<uuid> in the address: show that item, now and whenever the hash changes.
    if !embedded {
        Effect::new(move |_| {
            if viewer.workspace.with(Option::is_some) {
                go_to_hash(viewer);
            }
        });
        let hash = window_event_listener(ev::hashchange, move |_| go_to_hash(viewer));
        on_cleanup(move || hash.remove());
    }
    let keys = window_event_listener(ev::keydown, move |e| keyboard(viewer, rows, embedded, e));
    on_cleanup(move || keys.remove());

    let theme = move || match viewer.theme.get() {
        Theme::System => None,
        Theme::Light => Some("light"),
        Theme::Dark => Some("dark"),
    };
    view! {
        <div
            class={move || if dragging.get() > 0 { "cctv cctv--dragging" } else { "cctv" }}
            data-theme=theme
            on:dragenter=move |e: ev::DragEvent| {
                e.prevent_default();
                set_dragging.update(|d| *d += 1);
            }
            on:dragover=move |e: ev::DragEvent| e.prevent_default()
            on:dragleave=move |e: ev::DragEvent| {
                e.prevent_default();
                set_dragging.update(|d| *d = (*d - 1).max(0));
            }
            on:drop=move |e: ev::DragEvent| {
                e.prevent_default();
                set_dragging.set(0);
                if let Some(transfer) = e.data_transfer() {
                    leptos::task::spawn_local(async move {
                        let files = load::from_drop(transfer).await;
                        load::load(viewer, files).await;
                    });
                }
            }
        >
            <top::TopBar />
            {move || viewer.progress.get().map(|p| {
                let percent = if p.total > 0.0 { p.done / p.total * 100.0 } else { 0.0 };
                view! {
                    <div class="cctv-progress" role="progressbar" aria-valuenow=percent.round() aria-valuemin="0" aria-valuemax="100">
                        <div class="cctv-progress__bar" style=format!("width: {percent:.1}%")></div>
                        <span>{format!("{} · {:.1} of {:.1} MB", p.label, p.done / 1e6, p.total / 1e6)}</span>
                    </div>
                }
            })}
            {move || viewer.demo.get().then(|| view! {
                <div class="cctv-demo-note" role="note">
                    "This is a demo session. To read your own, drop its "<code>".jsonl"</code>" files or its whole folder from "
                    <code>"~/.claude/projects/"</code>" anywhere on this page, or use Open. Nothing is uploaded."
                </div>
            })}
            {move || {
                let problems = viewer.problems.get();
                (!problems.is_empty()).then(|| view! {
                    <div class="cctv-errors" role="alert">
                        {problems.into_iter().map(|(file, reason)| view! { <div>{format!("{file}: {reason}")}</div> }).collect_view()}
                        <button on:click=move |_| viewer.problems.set(Vec::new())>"Dismiss"</button>
                    </div>
                })
            }}
            {move || match viewer.workspace.get() {
                None => view! { <Welcome /> }.into_any(),
                Some(ws) if ws.sessions.is_empty() => view! { <Welcome /> }.into_any(),
                Some(ws) => {
                    let session = viewer.session.get();
                    view! { <Conversation workspace=ws session=session rows=rows /> }.into_any()
                }
            }}
            <div class="cctv-drop-hint" aria-hidden="true">"Drop transcripts or a project folder to open them"</div>
        </div>
    }
}

/// Shown before anything is loaded (the embed without files).
#[component]
fn Welcome() -> impl IntoView {
    view! {
        <div class="cctv-welcome">
            <h1>"cctv — Claude Code Transcript Viewer"</h1>
            <p>
                "Drop Claude Code session files (" <code>"~/.claude/projects/<project>/*.jsonl"</code>
                ") or a whole project folder here, or use the Open buttons. Everything is read in your "
                "browser; nothing is uploaded."
            </p>
        </div>
    }
}

#[component]
fn Conversation(workspace: Arc<Workspace>, session: usize, rows: Memo<Vec<Row>>) -> impl IntoView {
    view! {
        <div class="cctv-main">
            <section class="cctv-conversation" aria-label="conversation">
                <ConversationList workspace=workspace.clone() rows=rows />
            </section>
            {side::side(workspace, session)}
        </div>
    }
}

fn keep(
    ws: &Workspace,
    s: &crate::normalize::Session,
    filter: &Filter,
    thread: ThreadRef,
    item: u32,
) -> bool {
    let Some(item) = rows::thread(s, thread).items.get(item as usize) else { return false };
    let src = &ws.file(item.line).bytes;
    let error = match &item.kind {
        ItemKind::ToolCall(call) => call.result.is_some_and(|r| r.is_error),
        ItemKind::Unknown | ItemKind::Malformed | ItemKind::UnknownBlock => true,
        ItemKind::Event => matches!(
            ws.line(item.line).entry().map(|e| &e.kind),
            Some(crate::model::EntryKind::System(s)) if s.subtype == crate::model::SystemSubtype::ApiError
        ),
        _ => item.synthetic,
    };
    if filter.errors_only && !error {
        return false;
    }
    // Picking one tool shows its calls and nothing else.
    if let Some(tool) = &filter.tool {
        return matches!(&item.kind, ItemKind::ToolCall(call) if call.name.is_some_and(|n| n.decode(src) == *tool));
    }
    match &item.kind {
        ItemKind::Prompt => filter.user,
        ItemKind::Text | ItemKind::RedactedThinking => filter.assistant,
        ItemKind::Thinking => filter.thinking,
        ItemKind::ToolCall(_) | ItemKind::OrphanResult => filter.tools,
        ItemKind::Event
        | ItemKind::CompactBoundary(_)
        | ItemKind::Unknown
        | ItemKind::Malformed
        | ItemKind::UnknownBlock => filter.system,
    }
}

/// Shows the item the address names (`#<uuid>`).
fn go_to_hash(viewer: Viewer) {
    let hash = window().location().hash().unwrap_or_default();
    let Some(id) = hash.strip_prefix('#').filter(|h| !h.is_empty()) else { return };
    let id =
        js_sys::decode_uri_component(id).ok().and_then(|s| s.as_string()).unwrap_or_else(|| id.to_owned());
    go_to_id(viewer, &id);
}

/// Finds the item with this anchor id in any session, opens the way to it and shows it.
pub fn go_to_id(viewer: Viewer, id: &str) -> bool {
    let Some(ws) = viewer.workspace.get_untracked() else { return false };
    for (index, s) in ws.sessions.iter().enumerate() {
        let threads = std::iter::once(ThreadRef::Main)
            .chain((0..s.branches.len() as u32).map(ThreadRef::Branch))
            .chain((0..s.agents.len() as u32).map(ThreadRef::Agent));
        for thread in threads {
            let found = rows::thread(s, thread)
                .items
                .iter()
                .position(|item| crate::normalize::ids::item_id(&ws, item) == *id);
            if let Some(item) = found {
                if viewer.session.get_untracked() != index {
                    viewer.session.set(index);
                    viewer.reset_view();
                }
                reveal(viewer, &ws, index, thread, item as u32);
                return true;
            }
        }
    }
    false
}

/// Opens the sub-agents and the branch an item is in, clears filters that hide it, and scrolls
/// to it.
pub fn reveal(viewer: Viewer, ws: &Workspace, session: usize, thread: ThreadRef, item: u32) {
    let Some(s) = ws.sessions.get(session) else { return };
    let (agents, branch) = rows::path_to(s, thread);
    viewer.choices.update(|c| {
        c.open_agents.extend(agents);
        if branch.is_some() {
            c.branch = branch;
        }
    });
    if !keep(ws, s, &viewer.filter.get_untracked(), thread, item) {
        viewer.filter.set(Filter::default());
    }
    viewer.go_to((thread, item));
}

fn keyboard(viewer: Viewer, rows: Memo<Vec<Row>>, embedded: bool, e: ev::KeyboardEvent) {
    // Embedded in a host page, keys are the viewer's only while focus is inside it.
    let inside = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|t| t.closest(".cctv").ok().flatten().is_some());
    if embedded && !inside {
        return;
    }
    let typing = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return;
    }
    match e.key().as_str() {
        "/" => {
            e.prevent_default();
            if let Some(input) = document().get_element_by_id("cctv-search") {
                let _ = input.unchecked_into::<web_sys::HtmlElement>().focus();
            }
        }
        "j" | "k" => next_prompt(viewer, rows, e.key() == "j"),
        "e" => top::expand_all(viewer, true),
        "E" => top::expand_all(viewer, false),
        "t" => top::toggle_theme(viewer),
        _ => {}
    }
}

/// Moves to the next (or previous) prompt the user typed.
fn next_prompt(viewer: Viewer, rows: Memo<Vec<Row>>, forward: bool) {
    let Some(ws) = viewer.workspace.get_untracked() else { return };
    let session = viewer.session.get_untracked();
    let Some(s) = ws.sessions.get(session) else { return };
    let rows = rows.get_untracked();
    let current =
        viewer.target.get_untracked().and_then(|t| rows.iter().position(|r| (r.thread, r.item) == t));
    let is_prompt = |r: &Row| {
        let item = &rows::thread(s, r.thread).items[r.item as usize];
        matches!(item.kind, ItemKind::Prompt) && !item.meta && !item.synthetic
    };
    let found = if forward {
        let from = current.map_or(0, |c| c + 1);
        rows.iter().skip(from).find(|r| is_prompt(r))
    } else {
        let to = current.unwrap_or(rows.len());
        rows.iter().take(to).rev().find(|r| is_prompt(r))
    };
    if let Some(r) = found {
        viewer.go_to((r.thread, r.item));
    }
}
