//! The side panel: draws `present::session::SideView`.

use std::sync::Arc;

use leptos::prelude::*;

use super::copy::copy_with;
use super::even_rows;
use super::item::reader_zone;
use super::navigation::reveal;
use super::share::share_tab;
use super::state::{use_viewer, SideTab as Tab};
use super::tools::todo_list;
use crate::browser::timers::{after_a_frame, next_frame};
use crate::insight::drift::{as_text, drift};
use crate::normalize::Workspace;
use crate::present::contents::{contents, entry_text, Entry, EntryKind};
use crate::present::session::side_view;
use crate::present::when;

/// The side panel: the contents of the session, and what is known about it. Beside the
/// conversation on a wide screen; over it, behind a button, on a narrow one. Drawn again as more
/// of the files arrives, on the same tab, in a task of its own after the one that shows them: at
/// 1 GB the rows and the panel each took 30-60 ms (the contents list every prompt of tens of
/// thousands), and together they were one task.
pub(crate) fn side(session: usize) -> impl IntoView {
    let viewer = use_viewer();
    let shown = RwSignal::new(viewer.workspace.get_untracked());
    let same = |a: &Option<Arc<Workspace>>, b: &Option<Arc<Workspace>>| match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        _ => a.is_none() && b.is_none(),
    };
    Effect::new(move |_| {
        let ws = viewer.workspace.get();
        leptos::task::spawn_local(async move {
            next_frame().await;
            // Unless other files came meanwhile, or these are shown already.
            let current = viewer.workspace.try_with_untracked(|now| same(now, &ws)) == Some(true);
            if current && shown.try_with_untracked(|shown| same(shown, &ws)) == Some(false) {
                let _ = shown.try_set(ws);
            }
        });
    });
    move || shown.get().map(|ws| panel(ws, session, viewer.side_tab))
}

/// The panel for `ws`; `chosen` is the tab the reader clicked, if they did.
fn panel(ws: Arc<Workspace>, session: usize, chosen: RwSignal<Option<Tab>>) -> AnyView {
    let viewer = use_viewer();
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
    let entries = contents(&ws, s);
    // Until the reader chooses, the contents if there is more than one entry in them.
    let default = if entries.len() > 1 { Tab::Contents } else { Tab::Session };
    let tab = Signal::derive(move || Some(chosen.get().unwrap_or(default)));
    let tab_button = move |which: Tab, label: &'static str| {
        view! {
            <button
                class="cctv-side__tab"
                role="tab"
                aria-selected=move || (tab.get() == Some(which)).to_string()
                on:click=move |_| chosen.set(Some(which))
            >
                {label}
            </button>
        }
    };
    let session_part = session_view(ws.clone(), session);
    // Counts the panel's scrolls, and the moments its contents come into view: the contents
    // draw the lines in view then.
    let scrolled = RwSignal::new(0u64);
    Effect::new(move |_| {
        tab.track();
        viewer.side_open.track();
        scrolled.update(|n| *n += 1);
    });
    view! {
        <aside
            class=move || if viewer.side_open.get() { "cctv-side cctv-side--open" } else { "cctv-side" }
            aria-label="contents and stats"
            on:scroll=move |_| scrolled.update(|n| *n += 1)
        >
            <div class="cctv-side__tabs" role="tablist">
                {tab_button(Tab::Contents, "Contents")}
                {tab_button(Tab::Session, "Session")}
                {tab_button(Tab::Share, "Share")}
                                <button class="cctv-button cctv-side__narrow" on:click=move |_| {
                    viewer.side_open.set(false);
                    viewer.overview.set(true);
                }>"Overview"</button>
                <button class="cctv-button cctv-side__close" on:click=move |_| viewer.side_open.set(false)>"Close"</button>
            </div>
            <div role="tabpanel" hidden=move || tab.get() != Some(Tab::Contents)>{contents_view(ws.clone(), session, entries, scrolled)}</div>
            <div role="tabpanel" hidden=move || tab.get() != Some(Tab::Session)>{session_part}</div>
            <div role="tabpanel" hidden=move || tab.get() != Some(Tab::Share)>{share_tab(ws.clone(), session)}</div>
        </aside>
    }
    .into_any()
}

/// The height of every line of the contents, in CSS pixels (`.cctv-contents > li` says the same):
/// one height for all, so that the lines on screen are found by dividing, not by laying out the
/// tens of thousands of prompts of a GB session.
const CONTENTS_LINE_PX: f64 = 24.0;
/// Lines drawn above and below the part of the list in view.
const CONTENTS_MARGIN: usize = 20;

/// A line of the contents: the date where the day changes, or an entry.
#[derive(Clone)]
enum ContentsLine {
    Date(String),
    Entry(usize),
}

/// The prompts and commands, each a button that goes to its row. Only the lines in view are
/// drawn (the side panel's scrolling moves them); the list keeps the height of all of them.
fn contents_view(
    ws: Arc<Workspace>,
    session: usize,
    entries: Vec<Entry>,
    scrolled: RwSignal<u64>,
) -> AnyView {
    let viewer = use_viewer();
    if entries.is_empty() {
        return view! { <p class="cctv-muted">"No prompts typed in this session."</p> }.into_any();
    }
    // The date once per day, the time on every entry.
    let zone = reader_zone();
    let mut day = None;
    let mut lines = Vec::with_capacity(entries.len() + 1);
    for (index, e) in entries.iter().enumerate() {
        if let Some(date) = e.time.map(|t| when::date(t, &zone)) {
            if day.replace(date.clone()).as_ref() != Some(&date) {
                lines.push(ContentsLine::Date(date));
            }
        }
        lines.push(ContentsLine::Entry(index));
    }
    let (entries, lines) = (Arc::new(entries), Arc::new(lines));
    let count = lines.len();
    let list = NodeRef::<leptos::html::Ol>::new();
    // The lines in view: where the panel's visible part falls on the list. Measured once a frame
    // has laid the list out, and when the panel scrolls, shows or changes tab (`scrolled`), all
    // after the list was laid out: measured in the task that drew it, the
    // page's whole new layout (the rows' as well) was made then and there, 13-22 ms of a long
    // task at every step of a large load.
    let laid_out = RwSignal::new(false);
    let in_view = Memo::new(move |_| {
        scrolled.track();
        let ol = laid_out.get().then(|| list.get_untracked()).flatten();
        let Some(ol) = ol else { return 0..count.min(2 * CONTENTS_MARGIN) };
        let Some(panel) = ol.closest(".cctv-side").ok().flatten() else {
            return 0..count.min(2 * CONTENTS_MARGIN);
        };
        let (list_top, panel) = (ol.get_bounding_client_rect().top(), panel.get_bounding_client_rect());
        even_rows::in_view(list_top, (panel.top(), panel.bottom()), CONTENTS_LINE_PX, CONTENTS_MARGIN, count)
    });
    list.on_load(move |_| {
        leptos::task::spawn_local(async move {
            after_a_frame().await;
            laid_out.try_set(true);
        })
    });
    let line = move |index: usize| match &lines[index] {
        ContentsLine::Date(date) => view! { <li class="cctv-contents__date">{date.clone()}</li> }.into_any(),
        ContentsLine::Entry(at) => {
            let e = &entries[*at];
            let time = e.time.map(|t| when::short_clock(t, &reader_zone())).unwrap_or_default();
            let text = ws.sessions.get(session).map(|s| entry_text(&ws, s, e)).unwrap_or_default();
            let title = text.clone();
            let class = match e.kind {
                EntryKind::Prompt => "cctv-contents__entry",
                EntryKind::Command => "cctv-contents__entry cctv-contents__entry--command",
                EntryKind::Compaction => "cctv-contents__entry cctv-contents__entry--compaction",
            };
            let ws = ws.clone();
            let (thread, item) = (e.thread, e.item);
            view! {
                <li>
                    <button class=class title=title on:click=move |_| {
                        viewer.side_open.set(false);
                        reveal(viewer, &ws, session, thread, item);
                    }>
                        <span class="cctv-contents__time">{time}</span>
                        <bdi class="cctv-contents__text">{text}</bdi>
                    </button>
                </li>
            }
            .into_any()
        }
    };
    let style = move || in_view.with(|drawn| even_rows::style(drawn, count, CONTENTS_LINE_PX));
    view! {
        <nav aria-label="contents">
            <ol class="cctv-contents" node_ref=list style=style>
                <For each=move || in_view.get() key=|index| *index children=line />
            </ol>
        </nav>
    }
    .into_any()
}

fn session_view(ws: Arc<Workspace>, session: usize) -> AnyView {
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
    let side = side_view(&ws, s);
    view! {
        <div class="cctv-side__session">
            {(!side.about.is_empty() || !side.pull_requests.is_empty()).then(|| view! {
                <section class="cctv-about" aria-label="about the session">
                    <h2>"About"</h2>
                    <dl>
                        // Values are transcript text: isolated, so none reorders the next row.
                        {side.about.into_iter().map(|(label, value)| view! { <dt>{label}</dt><dd><bdi>{value}</bdi></dd> }).collect_view()}
                    </dl>
                    {(!side.pull_requests.is_empty()).then(|| view! {
                        <h3>"Pull requests"</h3>
                        <ul>
                            {side.pull_requests.into_iter().map(|(label, href)| match href {
                                Some(href) => view! { <li><a href=href rel="noopener noreferrer" target="_blank"><bdi>{label}</bdi></a></li> }.into_any(),
                                None => view! { <li><bdi>{label}</bdi></li> }.into_any(),
                            }).collect_view()}
                        </ul>
                    })}
                </section>
            })}
            <section class="cctv-stats" aria-label="session stats">
                <h2>"Session"</h2>
                <dl>
                    {side.stats.into_iter().map(|(label, value)| view! { <dt>{label}</dt><dd>{value}</dd> }).collect_view()}
                </dl>
                <ul class="cctv-stats__tools">
                    {side.tools.into_iter().map(|(name, n)| view! { <li><span>{name}</span><span>{n}</span></li> }).collect_view()}
                </ul>
            </section>
            {side.todos.map(|t| view! { <section class="cctv-side__todos"><h2>"Latest todos"</h2>{todo_list(t, Vec::new())}</section> })}
            <section class="cctv-accounting" aria-label="lines">
                <h2>"Lines"</h2>
                <p>{side.lines}</p>
                <ul>{side.not_shown.into_iter().map(|k| view! { <li>{k}</li> }).collect_view()}</ul>
                {(!side.unreadable.is_empty()).then(|| view! {
                    <h3>"Lines that could not be read"</h3>
                    <ul class="cctv-problems">{side.unreadable.into_iter().map(|(file, what)| view! { <li><bdi>{file}</bdi>" "{what}</li> }).collect_view()}</ul>
                })}
            </section>
            {drift_section(ws)}
        </div>
    }
    .into_any()
}

/// What cctv did not recognise in the loaded files, worked out when asked (it reads every line
/// again), with a button that copies the report for a bug report.
fn drift_section(ws: Arc<Workspace>) -> AnyView {
    let (report, set_report) = signal(None);
    view! {
        <section class="cctv-drift" aria-label="format drift">
            <h2>"Not recognised"</h2>
            {move || match report.get() {
                None => {
                    let ws = ws.clone();
                    view! {
                        <button class="cctv-button" on:click=move |_| set_report.set(Some(drift(&ws)))>
                            "Check the files for what cctv does not know"
                        </button>
                    }
                    .into_any()
                }
                Some(d) if d.is_empty() => view! { <p>"Nothing: cctv recognised every line."</p> }.into_any(),
                Some(d) => {
                    let text = as_text(&d);
                    view! {
                        <ul class="cctv-drift__list">
                            {d.unrecognised.iter().map(|u| view! {
                                <li><span class="cctv-muted">{u.kind}</span>" "<bdi><code>{u.name.clone()}</code></bdi>{format!(" ×{}", u.count)}</li>
                            }).collect_view()}
                            {d.misfits.iter().map(|m| view! {
                                <li><bdi>{m.file.clone()}</bdi>{format!(" line {}: {} ({})", m.line, m.type_name, m.error)}</li>
                            }).collect_view()}
                        </ul>
                        {copy_with("cctv-button", "copy the report", "Copy the report", move || text.clone())}
                    }
                    .into_any()
                }
            }}
        </section>
    }
    .into_any()
}
