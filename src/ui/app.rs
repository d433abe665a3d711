//! The viewer: the bar, the conversation and the side panel, the drop zone, and what the page
//! says while loading or when something went wrong.

use leptos::either::EitherOf3;
use leptos::ev;
use leptos::prelude::*;

use super::item::reader_zone;
use super::library_view::LibraryView;
use super::list::ConversationList;
use super::navigation::{go_to_hash, keyboard};
use super::state::{use_viewer, SideTab, Theme, Viewer};
use super::{follow, load, overview, side, style, top, warm};
use crate::browser::read::from_drop;
use crate::browser::timers::{next_frame, PageTurns};
use crate::normalize::fxhash::FxMap;
use crate::normalize::pace::Pace;
use crate::present::problems;
use crate::present::rows::{self, Row};
use crate::present::when::{self, Above};
use crate::text::highlight::grammars_loaded;

/// Highlights code once the grammars are there: fetched unless they are loaded, and the first
/// screen does not wait for them; rows are drawn again, highlighted, when they arrive.
fn highlight_when_grammars_arrive(viewer: Viewer) {
    if grammars_loaded() {
        viewer.grammars.set(true);
        return;
    }
    // A shared page holds its grammars, or goes without: it fetches nothing.
    if super::shared::is_shared_page() {
        return;
    }
    leptos::task::spawn_local(async move {
        match crate::browser::grammars::fetch().await {
            Ok(()) => viewer.grammars.set(true),
            // Code is shown plain; everything else works.
            Err(e) => web_sys::console::warn_1(&format!("cctv: no syntax highlighting: {e}").into()),
        }
    });
}

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
    // Embedded, the mount adds it where the viewer is (a shadow root, perhaps).
    if !embedded {
        style::ensure_style(None);
    }
    let viewer = viewer.unwrap_or_default();
    if let Some(limit) = max_bytes {
        viewer.max_bytes.set(limit);
    }
    provide_context(viewer);
    viewer.library.embedded.set_value(embedded);
    warm::run();
    // The site (which starts with the demo) warms Share's scan in a worker; see warm_scan.
    if demo {
        let loading = move || viewer.progress.try_with_untracked(Option::is_some).unwrap_or(false);
        leptos::task::spawn_local(crate::browser::warm_scan::warm(loading));
    }
    highlight_when_grammars_arrive(viewer);
    if !embedded {
        follow::init(viewer);
    }
    if let Some(inputs) = initial.filter(|i| !i.is_empty()) {
        viewer.show(crate::normalize::normalize(inputs));
        viewer.demo.set(demo);
    }
    // The engine worker is kept while a panel that asks it is on screen; then it goes, and with
    // it its copy of the files.
    Effect::new(move |_| {
        let in_use = viewer.overview.get() || viewer.side_tab.get() == Some(SideTab::Share);
        viewer.engine.with_value(|engine| engine.in_use(in_use));
    });
    let rows = use_rows(viewer);
    let above = use_above(viewer, rows);
    if !embedded {
        follow_address(viewer);
    }
    let keys = window_event_listener(ev::keydown, move |e| keyboard(viewer, rows, embedded, e));
    on_cleanup(move || keys.remove());
    let updated = use_update_ready(embedded);
    view! {
        <DropZone>
            {move || (!viewer.library.showing.get()).then(|| view! { <top::TopBar /> })}
            <follow::FollowBar />
            <Progress />
            {move || updated.get().then(|| view! { <UpdateNote /> })}
            {move || viewer.demo.get().then(|| view! { <DemoNote /> })}
            // A place further on in files still arriving is not missing yet.
            {move || (!embedded && viewer.progress.with(Option::is_none)).then(|| viewer.wanted.get()).flatten().map(|link| view! {
                <div class="cctv-demo-note" role="status">{link.not_open_note()}</div>
            })}
            <Problems />
            <Shown rows=rows above=above />
            <div class="cctv-drop-hint" aria-hidden="true">"Drop transcripts or a project folder to open them"</div>
        </DropZone>
    }
}

/// The rows of the session shown, as the reader's choices and filters leave them: worked out in
/// the task that asked for them, or for a session of many items in paced steps (a million items
/// take 64 ms to filter and walk natively, more in wasm). Meanwhile the rows shown stay, if they
/// are of the same session (other choices or filters); another session's are taken away at once.
fn use_rows(viewer: Viewer) -> ReadSignal<Vec<Row>> {
    let (rows, set_rows) = signal(Vec::new());
    let asked = StoredValue::new(0u64);
    // The files (`Viewer::loaded`) and session the rows shown are of.
    let shown_of = StoredValue::new(None);
    let show = move |made: Vec<Row>| {
        // The viewer may have been taken down (an embedding's `destroy`) while they were made.
        if rows.try_with_untracked(|shown| *shown != made) == Some(true) {
            set_rows.try_set(made);
        }
    };
    Effect::new(move |_| {
        let ws = viewer.workspace.get();
        let session = viewer.session.get();
        let choices = viewer.choices.get();
        let filter = viewer.filter.get();
        let number = asked.get_value() + 1;
        asked.set_value(number);
        let Some(ws) = ws.filter(|ws| ws.sessions.len() > session) else { return show(Vec::new()) };
        // Not the workspace's generation: a followed session is made anew as it grows, and its
        // rows so far stay right while those of its new lines are made.
        let of = Some((viewer.loaded.get_untracked(), session));
        if shown_of.get_value() != of {
            shown_of.set_value(of);
            show(Vec::new());
        }
        let s = &ws.sessions[session];
        let choices = filter.widen(s, choices);
        let items = s.thread.items.len() + s.agents.iter().map(|a| a.thread.items.len()).sum::<usize>();
        if items <= ROWS_AT_ONCE {
            return show(rows::rows(s, &choices, &|at| filter.keeps(&ws, s, at)));
        }
        leptos::task::spawn_local(async move {
            let s = &ws.sessions[session];
            let mut turns = PageTurns::new();
            let keep = |at| filter.keeps(&ws, s, at);
            let made = rows::rows_paced(s, &choices, &keep, &mut Pace::with(&mut turns)).await;
            // Unless other rows were asked for meanwhile.
            if asked.try_get_value() == Some(number) {
                show(made);
            }
        });
    });
    rows
}

/// Items of a session whose rows are worked out in the task that asks for them (a few ms).
const ROWS_AT_ONCE: usize = 100_000;

/// Rows whose dates are worked out in the task that made them (a few ms): more wait for the
/// page's next frame.
const ROWS_DATED_AT_ONCE: usize = 20_000;

/// The date where the day changes and the long pauses, above the rows they precede: worked out
/// after the rows are drawn, pausing for the page (every row's time is read), and dropped when
/// the rows changed meanwhile.
fn use_above(viewer: Viewer, rows: ReadSignal<Vec<Row>>) -> ReadSignal<FxMap<Row, Above>> {
    let (above, set_above) = signal(FxMap::default());
    let asked = StoredValue::new(0u64);
    // The files (`Viewer::loaded`) and session the dates shown are of: another session's go at
    // once, or they would stand above the new rows of the same places until these are dated.
    let dated_of = StoredValue::new(None);
    Effect::new(move |_| {
        let rows = rows.get();
        let number = asked.get_value() + 1;
        asked.set_value(number);
        let Some(ws) = viewer.workspace.get_untracked() else { return set_above.set(FxMap::default()) };
        let session = viewer.session.get_untracked();
        let of = Some((viewer.loaded.get_untracked(), session));
        if dated_of.get_value() != of {
            dated_of.set_value(of);
            set_above.set(FxMap::default());
        }
        leptos::task::spawn_local(async move {
            let Some(s) = ws.sessions.get(session) else { return set_above.set(FxMap::default()) };
            // Many rows: the task that made them has had its time; a few: shown with them.
            if rows.len() > ROWS_DATED_AT_ONCE {
                next_frame().await;
            }
            let mut turns = PageTurns::new();
            let found = when::above_paced(&ws, s, &rows, &reader_zone(), &mut Pace::with(&mut turns)).await;
            if asked.try_get_value() == Some(number) {
                set_above.set(found.into_iter().map(|(i, a)| (rows[i], a)).collect());
            }
        });
    });
    above
}

/// #<uuid> in the address: show that item, now and whenever the hash changes. Files that are
/// still arriving follow it once, when the place is first there, and leave the reader be after.
fn follow_address(viewer: Viewer) {
    Effect::new(move |followed: Option<u64>| {
        let loaded = viewer.loaded.get();
        if !viewer.workspace.with(Option::is_some) {
            return 0;
        }
        if followed != Some(loaded) || viewer.wanted.get_untracked().is_some() {
            go_to_hash(viewer);
        }
        loaded
    });
    let hash = window_event_listener(ev::hashchange, move |_| go_to_hash(viewer));
    on_cleanup(move || hash.remove());
}

/// Whether the site's service worker (www/sw.js) found a new version and cached it: the page
/// says that a reload uses it, and leaves the reload to the reader (what they opened is not
/// reopened by it). Never, embedded.
fn use_update_ready(embedded: bool) -> RwSignal<bool> {
    let updated = RwSignal::new(false);
    if !embedded {
        let said_before = js_sys::Reflect::get(&window(), &"cctvUpdated".into()).is_ok_and(|v| v.is_truthy());
        updated.set(said_before);
        let update = window_event_listener_untyped("cctv-updated", move |_| updated.set(true));
        on_cleanup(move || update.remove());
    }
    updated
}

/// The viewer's root element, in the theme chosen: files or a folder dropped anywhere on it are
/// opened (enter and leave are counted, so the highlight does not flicker over its children).
#[component]
fn DropZone(children: Children) -> impl IntoView {
    let viewer = use_viewer();
    let (dragging, set_dragging) = signal(0i32);
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
                        let (files, in_folder) = from_drop(transfer).await;
                        load::open(viewer, files, in_folder).await;
                    });
                }
            }
        >
            {children()}
        </div>
    }
}

/// How far the files being opened are read.
#[component]
fn Progress() -> impl IntoView {
    let viewer = use_viewer();
    move || {
        viewer.progress.get().map(|p| {
        let percent = if p.total > 0.0 { p.done / p.total * 100.0 } else { 0.0 };
        view! {
            <div class="cctv-progress" role="progressbar" aria-valuenow=percent.round() aria-valuemin="0" aria-valuemax="100">
                <div class="cctv-progress__bar" style=format!("width: {percent:.1}%")></div>
                <span>{format!("{} · {:.1} of {:.1} MB", p.label, p.done / 1e6, p.total / 1e6)}</span>
            </div>
        }
    })
    }
}

/// A new version of the site is ready.
#[component]
fn UpdateNote() -> impl IntoView {
    view! {
        <div class="cctv-demo-note" role="status">
            "A new version of cctv is ready; the page uses it the next time it loads. "
            <button class="cctv-button" on:click=move |_| { let _ = window().location().reload(); }>"Reload now"</button>
            " (the files you opened will need opening again)"
        </div>
    }
}

/// What is shown is the demo, and how to open your own.
#[component]
fn DemoNote() -> impl IntoView {
    view! {
        <div class="cctv-demo-note" role="note">
            "This is a demo session. To read your own, drop its "<code>".jsonl"</code>" files or its whole folder from "
            <code>"~/.claude/projects/"</code>" anywhere on this page, or use Open. Nothing is uploaded."
        </div>
    }
}

/// The files that could not be opened, and why, until dismissed.
#[component]
fn Problems() -> impl IntoView {
    let viewer = use_viewer();
    move || {
        let problems = viewer.problems.get();
        // Where following cannot work, what does is offered at once: opening the file.
        let cannot_follow = problems.iter().any(|(_, reason)| reason == follow::NEEDS_CHROMIUM);
        let said = |(file, reason): &(String, String)| view! { <div><bdi>{file.clone()}</bdi>{format!(": {reason}")}</div> };
        (!problems.is_empty()).then(|| {
            let listed = problems::listed(&problems);
            view! {
                <div class="cctv-errors" role="alert">
                    {listed.first.iter().map(said).collect_view()}
                    {listed.between.map(|between| view! { <div>{between}</div> })}
                    {listed.last.iter().map(said).collect_view()}
                    {cannot_follow.then(|| view! {
                        <button class="cctv-button" on:click=move |e: ev::MouseEvent| {
                            viewer.problems.set(Vec::new());
                            top::click_files_input(&e);
                        }>"Open files"</button>
                    })}
                    <button on:click=move |_| viewer.problems.set(Vec::new())>"Dismiss"</button>
                </div>
            }
        })
    }
}

/// The folder's list of sessions, the session chosen, or the welcome before anything is open.
/// Rebuilt for other files or another session; more of the same files is drawn in place.
#[component]
fn Shown(
    /// The session's rows.
    rows: ReadSignal<Vec<Row>>,
    /// What is said above some of them.
    above: ReadSignal<FxMap<Row, Above>>,
) -> impl IntoView {
    let viewer = use_viewer();
    let has_sessions =
        Memo::new(move |_| viewer.workspace.with(|w| w.as_ref().is_some_and(|w| !w.sessions.is_empty())));
    move || {
        if viewer.library.showing.get() {
            return EitherOf3::A(view! { <LibraryView /> });
        }
        viewer.loaded.track();
        has_sessions.track();
        let session = viewer.session.get();
        match viewer.workspace.get_untracked() {
            Some(ws) if !ws.sessions.is_empty() => {
                EitherOf3::B(view! { <Conversation session=session rows=rows above=above /> })
            }
            _ => EitherOf3::C(view! { <Welcome /> }),
        }
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
fn Conversation(
    session: usize,
    rows: ReadSignal<Vec<Row>>,
    above: ReadSignal<FxMap<Row, Above>>,
) -> impl IntoView {
    let viewer = use_viewer();
    // Over the conversation, which keeps its place underneath (and takes no focus or keys while
    // it is covered). Built the first time it opens, then kept for this session; built again
    // when more of the files arrives.
    let opened = RwSignal::new(false);
    Effect::new(move |_| {
        if viewer.overview.get() {
            opened.set(true);
        }
    });
    let overview = move || {
        let ws = opened.get().then(|| viewer.workspace.get()).flatten()?;
        Some(
            view! { <div class="cctv-overview-host" hidden=move || !viewer.overview.get()>{overview::overview(ws, session)}</div> },
        )
    };
    view! {
        <div class="cctv-main">
            <section class="cctv-conversation" aria-label="conversation">
                <div class="cctv-conversation__rows" inert=move || viewer.overview.get()>
                    <ConversationList rows=rows above=above />
                </div>
                {overview}
            </section>
            {side::side(session)}
        </div>
    }
}
