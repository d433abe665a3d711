//! The bar above the conversation: open files, pick a session, search, filter, theme.

use leptos::ev;
use leptos::html::Input;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::folders;
use super::load;
use super::navigation::reveal;
use super::searching::{self, SearchState};
use super::state::{use_viewer, Filter, PanelKey, Part, Theme, Viewer};
use crate::browser::folders::{can_pick, kept as kept_folder};
use crate::browser::read::from_file_list;
use crate::normalize::ItemRef;
use crate::present::session::{badges_after, session_groups, session_label, SessionLabel};
use crate::query::search::{count_label, searching_label, Query, Scope};
use crate::text::format::isolate;

/// The bar above a session: the pickers, the session, the search, the views, and the filters.
#[component]
pub(crate) fn TopBar() -> impl IntoView {
    let viewer = use_viewer();
    // On a phone the filters and the search options fold away behind a button.
    let options_open = RwSignal::new(false);
    view! {
        <header class=move || if options_open.get() { "cctv-top cctv-top--options" } else { "cctv-top" }>
            <div class="cctv-top__row">
                <Brand />
                {move || viewer.library.shelf.with(Option::is_some).then(|| view! {
                    <button class="cctv-button" title="every session of the folder" on:click=move |_| super::library::show_list(viewer)>"← Sessions"</button>
                })}
                <OpenButtons />
                <SessionPicker />
                <SessionTitle />
                <span class="cctv-top__spacer"></span>
                <SearchBox />
                <OptionsToggle open=options_open />
                <ViewButtons />
                <ThemeButton />
            </div>
            <Filters />
        </header>
    }
}

/// The name of the tool, in the bar's first corner.
#[component]
pub(crate) fn Brand() -> impl IntoView {
    view! { <span class="cctv-brand" title="Claude Code Transcript Viewer">"cctv"</span> }
}

/// The button that unfolds, on a phone, what the bar folds away (the filters, search options).
#[component]
pub(crate) fn OptionsToggle(
    /// Whether they are unfolded.
    open: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <button class="cctv-button cctv-top__phone" aria-expanded=move || open.get().to_string() on:click=move |_| open.update(|o| *o = !*o)>
            "Options"
        </button>
    }
}

/// The sessions to switch between, by project, where the files hold more than one.
#[component]
fn SessionPicker() -> impl IntoView {
    let viewer = use_viewer();
    let groups = move || viewer.workspace.get().map(|ws| session_groups(&ws));
    move || {
        groups().filter(|g| g.iter().map(|g| g.sessions.len()).sum::<usize>() > 1).map(|groups| view! {
        <select
            class="cctv-sessions"
            aria-label="session"
            on:change=move |e| {
                if let Ok(i) = event_target_value(&e).parse::<usize>() {
                    viewer.session.set(i);
                    viewer.reset_view();
                }
            }
        >
            {groups.into_iter().map(|group| view! {
                <optgroup label=isolate(&group.project)>
                    {group.sessions.into_iter().map(|(i, label)| view! {
                        <option value=i.to_string() selected=move || viewer.session.get() == i>{label.one_line()}</option>
                    }).collect_view()}
                </optgroup>
            }).collect_view()}
        </select>
    })
    }
}

/// The title of the only session, what it is, and its badges.
#[component]
fn SessionTitle() -> impl IntoView {
    let viewer = use_viewer();
    // The session's state changes at a few lines: the title is drawn again only when the line
    // being read crosses one of them.
    let changes = Memo::new(move |_| {
        let ws = viewer.workspace.get().filter(|ws| ws.sessions.len() == 1)?;
        let s = &ws.sessions[0];
        let line = viewer.reading.get().filter(|l| Some(l.file) == s.file)?;
        Some(s.about.changes_by(line.line))
    });
    let single = move || {
        let ws = viewer.workspace.get().filter(|ws| ws.sessions.len() == 1)?;
        let s = &ws.sessions[0];
        let mut label = session_label(&ws, s);
        if let Some(changes) = changes.get() {
            label.badges = badges_after(s, changes);
        }
        Some(label)
    };
    move || {
        single().map(|label| {
            let SessionLabel { title, detail, badges } = label;
            let whole = format!("{title} — {detail}");
            // Every badge's words, whole, for the pointer: a narrow bar cuts them short.
            let said = badges.iter().map(|b| isolate(&b.text)).collect::<Vec<_>>().join(" · ");
            // <bdi>: the title is transcript text and must not reorder the detail after it. The
            // title and the badges give way together (each cut short with an ellipsis), so that
            // however many badges a session brings, the buttons after them stay on screen.
            view! {
                <span class="cctv-top__session">
                    <span class="cctv-title" title=whole><bdi>{title}</bdi>{format!(" — {detail}")}</span>
                    <span class="cctv-top__badges" title=said>
                        {badges.into_iter().map(|b| {
                            let class = match b.color {
                                Some(c) => format!("cctv-badge cctv-badge--agent cctv-agent-color--{c}"),
                                None => "cctv-badge".to_owned(),
                            };
                            view! { <bdi class=class>{b.text}</bdi> }
                        }).collect_view()}
                    </span>
                </span>
            }
        })
    }
}

/// The search of the session: the box, its options, how many matches, and steps between them.
#[component]
fn SearchBox() -> impl IntoView {
    let viewer = use_viewer();
    let search = NodeRef::<Input>::new();
    let found = searching::run(viewer);
    let step = move |forward: bool| step_to_match(viewer, found, forward);
    view! {
        <div class="cctv-searchbox" role="search">
            <input
                id="cctv-search"
                class="cctv-search"
                type="search"
                placeholder="Search (/)"
                aria-label="search the session"
                aria-describedby="cctv-search-count"
                prop:value=move || viewer.query.with(|q| q.text.clone())
                on:input=move |e| viewer.query.update(|q| q.text = event_target_value(&e))
                on:keydown=move |e: ev::KeyboardEvent| match e.key().as_str() {
                    "Enter" => step(!e.shift_key()),
                    // Clears the search and leaves the box, so the keys work again.
                    "Escape" => {
                        e.prevent_default();
                        viewer.query.update(|q| q.text.clear());
                        if let Some(input) = search.get_untracked() {
                            let _ = input.blur();
                        }
                    }
                    _ => {}
                }
                node_ref=search
            />
            <SearchOptions query=viewer.query />
            <span
                id="cctv-search-count"
                class=move || if viewer.matcher.with(Result::is_err) { "cctv-search__count cctv-search__count--error" } else { "cctv-search__count" }
                aria-live="polite"
            >
                {move || match_count(viewer, found)}
            </span>
            <button class="cctv-button" title="previous match (Shift+Enter)" aria-label="previous match" on:click=move |_| step(false)>"↑"</button>
            <button class="cctv-button" title="next match (Enter)" aria-label="next match" on:click=move |_| step(true)>"↓"</button>
        </div>
    }
}

/// Goes to the next match after the target (or the one before it), opening its row.
fn step_to_match(viewer: Viewer, found: RwSignal<SearchState>, forward: bool) {
    let hits = found.with_untracked(|f| f.hits.clone());
    if hits.is_empty() {
        return;
    }
    let n = hits.len();
    let next = match viewer.target.get_untracked().and_then(|t| hits.iter().position(|h| *h == t)) {
        Some(i) if forward => (i + 1) % n,
        Some(i) => (i + n - 1) % n,
        None => 0,
    };
    let at = hits[next];
    if let Some(ws) = viewer.workspace.get_untracked() {
        let session = viewer.session.get_untracked();
        viewer.open.update(|o| {
            o.insert(PanelKey { at, part: Part::Body });
        });
        reveal(viewer, &ws, session, at.thread, at.item);
        viewer.reveal_match.set(true);
    }
}

/// What the search found so far, and which match is the target; or why the query is wrong.
fn match_count(viewer: Viewer, found: RwSignal<SearchState>) -> String {
    match viewer.matcher.get() {
        Err(message) => message,
        Ok(None) => String::new(),
        Ok(Some(current)) => found.with(|f| {
            // The box can hold a newer search than the one the hits are of, for a moment.
            if f.matcher.as_ref() != Some(&current) {
                return searching_label(0, 0.0);
            }
            if f.done < 1.0 {
                return searching_label(f.hits.len(), f.done);
            }
            let at = viewer.target.get().and_then(|t| f.hits.iter().position(|x| *x == t));
            count_label(f.hits.len(), at)
        }),
    }
}

/// The overview, and (on a narrow screen) the side panel.
#[component]
fn ViewButtons() -> impl IntoView {
    let viewer = use_viewer();
    view! {
        // On a phone it is in the side panel, so that the bar stays one row.
        <button
            class="cctv-button cctv-top__wide"
            title="what the session cost, how its context filled, what each tool did"
            aria-pressed=move || viewer.overview.get().to_string()
            on:click=move |_| viewer.overview.update(|o| *o = !*o)
        >
            "Overview"
        </button>
        <button
            class="cctv-button cctv-top__narrow"
            title="the session's contents and stats"
            aria-expanded=move || viewer.side_open.get().to_string()
            on:click=move |_| viewer.side_open.update(|o| *o = !*o)
        >
            "Contents"
        </button>
    }
}

/// The bar's second row: which rows to show, expand or collapse them all, the keys.
#[component]
fn Filters() -> impl IntoView {
    let viewer = use_viewer();
    let chip = move |label: &'static str, get: fn(&Filter) -> bool, set: fn(&mut Filter, bool)| {
        view! {
            <label class="cctv-chip">
                <input
                    type="checkbox"
                    prop:checked=move || viewer.filter.with(get)
                    on:change=move |e| set_filter(viewer, set, event_target_checked(&e))
                />
                {label}
            </label>
        }
    };
    view! {
        <div class="cctv-top__row cctv-filters" role="group" aria-label="filters">
            {chip("you", |f| f.user, |f, v| f.user = v)}
            {chip("claude", |f| f.assistant, |f, v| f.assistant = v)}
            {chip("thinking", |f| f.thinking, |f, v| f.thinking = v)}
            {chip("tools", |f| f.tools, |f, v| f.tools = v)}
            {chip("system", |f| f.system, |f, v| f.system = v)}
            {chip("notes", |f| f.injected, |f, v| f.injected = v)}
            {chip("errors only", |f| f.errors_only, |f, v| f.errors_only = v)}
            <ToolFilter />
            <span class="cctv-top__spacer"></span>
            <button class="cctv-button" title="expand all (e)" on:click=move |_| expand_all(viewer, true)>"Expand all"</button>
            <button class="cctv-button" title="collapse all (E)" on:click=move |_| expand_all(viewer, false)>"Collapse all"</button>
            <span class="cctv-keys">"j/k prompts · / search · e/E expand · t theme"</span>
        </div>
    }
}

/// Only the calls of one tool, from the tools the session called.
#[component]
fn ToolFilter() -> impl IntoView {
    let viewer = use_viewer();
    let tool_names = move || {
        viewer
            .workspace
            .get()
            .and_then(|ws| {
                ws.sessions
                    .get(viewer.session.get())
                    .map(|s| s.stats.tool_calls.keys().cloned().collect::<Vec<_>>())
            })
            .unwrap_or_default()
    };
    view! {
        <select
            class="cctv-tool-filter"
            aria-label="only calls of one tool"
            on:change=move |e| {
                let value = event_target_value(&e);
                viewer.filter.update(|f| f.tool = (!value.is_empty()).then_some(value));
            }
        >
            <option value="">"all tools"</option>
            {move || tool_names().into_iter().map(|t| view! { <option value=t.clone()>{t.clone()}</option> }).collect_view()}
        </select>
    }
}

/// The search's options: case, whole words, regular expression, and where to look.
#[component]
pub(crate) fn SearchOptions(
    /// The query they change.
    query: RwSignal<Query>,
) -> impl IntoView {
    let option = move |label: &'static str,
                       title: &'static str,
                       get: fn(&Query) -> bool,
                       set: fn(&mut Query, bool)| {
        view! {
            <button
                class="cctv-button cctv-search__option"
                title=title
                aria-label=title
                aria-pressed=move || query.with(get).to_string()
                on:click=move |_| query.update(|q| {
                    let on = !get(q);
                    set(q, on);
                })
            >
                {label}
            </button>
        }
    };
    view! {
        <span class="cctv-search__options">
            {option("Aa", "match case", |q| q.case_sensitive, |q, v| q.case_sensitive = v)}
            {option("W", "whole words only", |q| q.whole_word, |q, v| q.whole_word = v)}
            {option(".*", "regular expression", |q| q.regex, |q, v| q.regex = v)}
            <select
                class="cctv-search__scope"
                aria-label="search in"
                on:change=move |e| {
                    let scope = match event_target_value(&e).as_str() {
                        "prompts" => Scope::Prompts,
                        "output" => Scope::ToolOutput,
                        _ => Scope::Everything,
                    };
                    query.update(|q| q.scope = scope);
                }
            >
                <option value="all" selected=move || query.with(|q| q.scope == Scope::Everything)>"everything"</option>
                <option value="prompts" selected=move || query.with(|q| q.scope == Scope::Prompts)>"prompts"</option>
                <option value="output" selected=move || query.with(|q| q.scope == Scope::ToolOutput)>"tool output"</option>
            </select>
        </span>
    }
}

/// The pickers: files, or a folder (a folder of many sessions opens on their list).
#[component]
pub(crate) fn OpenButtons() -> impl IntoView {
    let viewer = use_viewer();
    let files = NodeRef::<Input>::new();
    let folder = NodeRef::<Input>::new();
    // A folder picker is an <input type=file webkitdirectory>; the attribute is set once mounted.
    folder.on_load(|el| {
        let _ = el.set_attribute("webkitdirectory", "");
    });
    let picked = move |input: NodeRef<Input>, in_folder: bool| {
        // Naming the files is paced from here: taking 20,000 off the picker's list is part of
        // this task, and a budget counted from after it made a task of 50-63 ms.
        crate::browser::timers::task_began();
        let Some(el) = input.get_untracked() else { return };
        let Some(list) = el.files() else { return };
        let files = js_sys::Array::from(&list);
        // Reset, so picking the same file again loads it again.
        el.set_value("");
        leptos::task::spawn_local(
            async move { load::open(viewer, from_file_list(files).await, in_folder).await },
        );
    };
    // Where the browser gives a folder's handle, it is kept: the folder opened last can be
    // opened again on a later visit.
    let kept = RwSignal::new(None::<String>);
    if can_pick() {
        leptos::task::spawn_local(async move {
            // The bar may be gone by then (a folder opened on the list meanwhile).
            kept.try_set(kept_folder().await);
        });
    }
    let pick_folder = move |_| {
        if can_pick() {
            leptos::task::spawn_local(async move {
                folders::pick(viewer).await;
                kept.try_set(kept_folder().await);
            });
        } else if let Some(el) = folder.get() {
            el.click();
        }
    };
    view! {
        <button class="cctv-button" on:click=move |_| { if let Some(el) = files.get() { el.click(); } }>"Open files"</button>
        <button class="cctv-button cctv-top__folder" on:click=pick_folder>"Open folder"</button>
        {move || kept.get().map(|name| {
            let label = format!("Reopen {name}");
            view! {
                <button
                    class="cctv-button cctv-top__folder cctv-top__reopen"
                    title="open the folder opened last time again (the browser asks first)"
                    on:click=move |_| leptos::task::spawn_local(folders::reopen(viewer, name.clone()))
                >
                    <bdi>{label}</bdi>
                </button>
            }
        })}
        <super::follow::FollowButtons />
        <input class="cctv-hidden cctv-top__files" type="file" multiple accept=".jsonl,.json,application/json" node_ref=files on:change=move |_| picked(files, false) />
        <input class="cctv-hidden" type="file" multiple node_ref=folder on:change=move |_| picked(folder, true) />
    }
}

/// Opens the files picker of the viewer `e` happened in (from elsewhere than the bar's button:
/// the viewer's own root, so inside <cctv-viewer> too).
pub(crate) fn click_files_input(e: &leptos::ev::MouseEvent) {
    let input = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest(".cctv").ok().flatten())
        .and_then(|root| root.query_selector("input.cctv-top__files").ok().flatten())
        .and_then(|input| input.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(input) = input {
        input.click();
    }
}

#[component]
pub(crate) fn ThemeButton() -> impl IntoView {
    let viewer = use_viewer();
    view! {
        <button class="cctv-button" title="switch the theme (t)" on:click=move |_| toggle_theme(viewer)>
            <span class="cctv-top__wide">"Theme: "</span>
            {move || match viewer.theme.get() { Theme::System => "auto", Theme::Light => "light", Theme::Dark => "dark" }}
        </button>
    }
}

fn set_filter(viewer: Viewer, set: fn(&mut Filter, bool), on: bool) {
    viewer.filter.update(|f| set(f, on));
}

pub(crate) fn toggle_theme(viewer: Viewer) {
    viewer.theme.update(|t| {
        *t = match t {
            Theme::System => {
                let dark = window()
                    .match_media("(prefers-color-scheme: dark)")
                    .ok()
                    .flatten()
                    .is_some_and(|m| m.matches());
                if dark {
                    Theme::Light
                } else {
                    Theme::Dark
                }
            }
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        }
    });
}

/// Opens (or closes) every panel of the session and every sub-agent's conversation.
pub(crate) fn expand_all(viewer: Viewer, open: bool) {
    if !open {
        viewer.open.update(|o| o.clear());
        viewer.choices.update(|c| c.open_agents.clear());
        return;
    }
    let Some(ws) = viewer.workspace.get_untracked() else { return };
    let Some(s) = ws.sessions.get(viewer.session.get_untracked()) else { return };
    let mut keys = std::collections::HashSet::new();
    for (thread_ref, thread) in s.threads() {
        for item in 0..thread.items.len() as u32 {
            // Every part of the conversation that folds: tool panels and thinking, events' details
            // and folded context, prompts inside calls, expanded prompts of commands; raw lines
            // stay behind their toggles.
            for part in Part::EXPANDED {
                keys.insert(PanelKey { at: ItemRef::new(thread_ref, item), part });
            }
        }
    }
    viewer.open.set(keys);
    viewer.choices.update(|c| c.open_agents.extend(0..s.agents.len() as u32));
}
