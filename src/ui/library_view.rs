//! The list of a folder's projects and sessions, and the search across all of them: drawn from
//! what `present::library` says, nothing decided here.

use leptos::either::Either;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::even_rows;
use super::item::reader_zone;
use super::library::{open_found, open_session, search, stop_search};
use super::state::use_viewer;
use super::top::{Brand, OpenButtons, OptionsToggle, SearchOptions, ThemeButton};
use crate::catalog::shelf::Project;
use crate::present::library::{
    choices, project_rows, session_order, session_row, FilterChoices, ListFilter, SessionRow, SortBy,
};
use crate::query::search::Matcher;
use crate::text::format::{plural, size};

/// A folder of many sessions: its bar, and either its projects and their sessions or what a
/// search across all of them found.
#[component]
pub(crate) fn LibraryView() -> impl IntoView {
    let library = use_viewer().library;
    let projects =
        Memo::new(move |_| library.shelf.with(|s| s.as_ref().map(|s| s.projects()).unwrap_or_default()));
    // The project chosen, else the one last active.
    let project = Memo::new(move |_| {
        let chosen = library.project.get();
        projects.with(|ps| {
            chosen.and_then(|c| ps.iter().position(|p| p.folder == c)).or((!ps.is_empty()).then_some(0))
        })
    });
    let matcher = use_search_across();
    let scrolled = RwSignal::new(0u64);
    let searching = move || matcher.with(|m| matches!(m, Ok(Some(_))));
    view! {
        <LibraryBar projects=projects />
        {move || if searching() {
            Either::Left(view! { <SearchResults /> })
        } else {
            Either::Right(view! {
                <div class="cctv-library" on:scroll=move |_| scrolled.update(|n| *n += 1)>
                    <ProjectList projects=projects project=project />
                    <SessionList project=project projects=projects scrolled=scrolled />
                </div>
            })
        }}
    }
}

/// Runs the search across every session whenever the query changes, and stops it when the query
/// is emptied. Returns the query compiled (or why it does not compile).
fn use_search_across() -> Memo<Result<Option<Matcher>, String>> {
    let viewer = use_viewer();
    let library = viewer.library;
    let matcher = Memo::new(move |_| library.query.with(|q| q.matcher()));
    Effect::new(move |_| match matcher.get() {
        // Back on the list, the search that ran (or runs) is not started again.
        Ok(Some(m)) if library.searched.with_value(|s| s.as_ref() == Some(&m)) => {}
        Ok(Some(m)) => leptos::task::spawn_local(search(viewer, library.query.get_untracked(), m)),
        _ => {
            stop_search(library);
            library.found.set(Vec::new());
        }
    });
    matcher
}

/// The bar above the list: the pickers, how much the folder holds, and the search across it.
#[component]
fn LibraryBar(
    /// The folder's projects.
    projects: Memo<Vec<Project>>,
) -> impl IntoView {
    let library = use_viewer().library;
    let totals = move || {
        library.shelf.with(|s| {
            let Some(s) = s else { return String::new() };
            let bytes: u64 =
                (0..s.sessions.len()).filter(|&i| !s.sessions[i].left_out).map(|i| s.size(i)).sum();
            format!(
                "{} · {} · {}",
                plural(projects.with(Vec::len) as u64, "project"),
                plural(s.listed() as u64, "session"),
                size(bytes as usize)
            )
        })
    };
    // On a phone the search options fold away behind a button, as in a session's bar.
    let options_open = RwSignal::new(false);
    view! {
        <header class=move || if options_open.get() { "cctv-top cctv-top--options" } else { "cctv-top" }>
            <div class="cctv-top__row">
                <Brand />
                <OpenButtons />
                <span class="cctv-library__totals">{totals}</span>
                <span class="cctv-top__spacer"></span>
                <div class="cctv-searchbox" role="search">
                    <input
                        class="cctv-search cctv-library__search"
                        type="search"
                        placeholder="Search every session"
                        aria-label="search every session"
                        prop:value=move || library.query.with(|q| q.text.clone())
                        on:change=move |e| library.query.update(|q| q.text = event_target_value(&e))
                        on:keydown=move |e: leptos::ev::KeyboardEvent| if e.key() == "Escape" {
                            library.query.update(|q| q.text.clear());
                        }
                    />
                    <SearchOptions query=library.query />
                </div>
                <OptionsToggle open=options_open />
                <ThemeButton />
            </div>
            {move || {
                let status = library.status.get();
                (!status.is_empty()).then(|| view! { <div class="cctv-top__row cctv-muted cctv-library__status" role="status">{status}</div> })
            }}
        </header>
    }
}

/// The folder's projects, the chosen one marked; choosing one clears the list's filters.
#[component]
fn ProjectList(
    /// The folder's projects.
    projects: Memo<Vec<Project>>,
    /// Which of them is chosen.
    project: Memo<Option<usize>>,
) -> impl IntoView {
    let library = use_viewer().library;
    view! {
        <nav class="cctv-library__projects" aria-label="projects">
            <h2 class="cctv-library__heading">"Projects"</h2>
            <ul>
                {move || library.shelf.with(|s| {
                    let Some(s) = s else { return Vec::new() };
                    projects.with(|ps| project_rows(s, ps, &reader_zone()))
                }).into_iter().map(|row| {
                    let folder = projects.with_untracked(|ps| ps[row.index].folder.clone());
                    let index = row.index;
                    let path = row.path.clone();
                    let detail = row.detail();
                    view! {
                        <li>
                            <button
                                class="cctv-library__project"
                                aria-current=move || (project.get() == Some(index)).then_some("true")
                                title=path
                                on:click=move |_| {
                                    library.project.set(Some(folder.clone()));
                                    library.filter.set(ListFilter::default());
                                }
                            >
                                <bdi class="cctv-library__path">{row.path}</bdi>
                                <span class="cctv-muted">{detail}</span>
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </nav>
    }
}

/// A session's row on the list, in pixels, until one is measured: every row is as tall (three
/// lines, each cut to its width; `www/css/library.css`), so the list draws only the rows in view
/// and knows where each is without drawing it.
const SESSION_ROW_PX: f64 = 84.0;
/// Rows drawn above and below those in view, so a scroll shows drawn rows before the next frame.
const SESSION_MARGIN: usize = 10;

/// The sessions of the project chosen, with the sort and the filters: only the rows in view are
/// drawn. A project of a thousand sessions drawn whole was a task of about 80 ms, and counts
/// arriving for it (a few times a second) moved and drew hundreds of its rows again, tasks of
/// 50-88 ms.
#[component]
fn SessionList(
    /// Which project is chosen.
    project: Memo<Option<usize>>,
    /// The folder's projects.
    projects: Memo<Vec<Project>>,
    /// Changes when something the list is in scrolled (on a phone, the whole list scrolls).
    scrolled: RwSignal<u64>,
) -> impl IntoView {
    let library = use_viewer().library;
    let list = NodeRef::<leptos::html::Section>::new();
    let rows = NodeRef::<leptos::html::Ol>::new();
    // A row's height as drawn (the reader's font size changes it).
    let row_px = RwSignal::new(SESSION_ROW_PX);
    let measure = move || {
        let drawn = rows.get_untracked().and_then(|ol| ol.first_element_child());
        let height =
            drawn.and_then(|li| li.dyn_into::<web_sys::HtmlElement>().ok()).map(|li| li.offset_height());
        if let Some(height) = height.filter(|&h| h > 0).map(f64::from) {
            if height != row_px.get_untracked() {
                row_px.set(height);
            }
        }
        scrolled.update(|n| *n += 1);
    };
    let order = Memo::new(move |_| {
        let (Some(p), sort, filter) = (project.get(), library.sort.get(), library.filter.get()) else {
            return Vec::new();
        };
        library.shelf.with(|s| {
            let Some(s) = s else { return Vec::new() };
            projects.with(|ps| {
                ps.get(p).map(|p| session_order(s, p, sort, &filter, &reader_zone())).unwrap_or_default()
            })
        })
    });
    // The rows in view: where the window shows the list (whichever of its boxes scrolls).
    let in_view = Memo::new(move |_| {
        scrolled.track();
        let (count, row) = (order.with(Vec::len), row_px.get());
        let (Some(ol), Some(height)) = (rows.get(), window().inner_height().ok().and_then(|h| h.as_f64()))
        else {
            return 0..count.min(2 * SESSION_MARGIN);
        };
        even_rows::in_view(ol.get_bounding_client_rect().top(), (0.0, height), row, SESSION_MARGIN, count)
    });
    // Only the rows in view are said in words, again when the shelf changes.
    let shown = move || {
        let range = in_view.get();
        order.with(|order| {
            library.shelf.with(|s| {
                let Some(s) = s else { return Vec::new() };
                let zone = reader_zone();
                let count = order.len();
                order[range.clone()]
                    .iter()
                    .enumerate()
                    .map(|(i, &at)| (range.start + i, count, session_row(s, at, &zone)))
                    .collect::<Vec<_>>()
            })
        })
    };
    // Back from a session, the list is scrolled to where it was: it is as tall as it will be at
    // once. Where it is is kept as it scrolls, once it is back there (the list is made twice on
    // the way back, and the second must find the place the first restored).
    let restore = StoredValue::new(Some(library.scroll.get_value()).filter(|&top| top > 0));
    Effect::new(move |_| {
        scrolled.track();
        if let (None, Some(el)) = (restore.get_value(), list.get_untracked()) {
            library.scroll.set_value(scroller(&el).scroll_top());
        }
    });
    rows.on_load(move |_| {
        request_animation_frame(move || {
            if let (Some(Some(el)), Some(Some(top))) = (list.try_get_untracked(), restore.try_get_value()) {
                scroller(&el).set_scroll_top(top);
                let _ = restore.try_set_value(None);
            }
            let _ = scrolled.try_update(|n| *n += 1);
        });
        request_animation_frame(measure);
    });
    // Another project is shown from its first session (a project is known by its folder: the
    // projects are sorted again as their sessions are read).
    let folder =
        Memo::new(move |_| project.get().and_then(|p| projects.with(|ps| Some(ps.get(p)?.folder.clone()))));
    Effect::new(move |shown: Option<Option<String>>| {
        let chosen = folder.get();
        if shown.is_some_and(|f| f != chosen) {
            if let Some(el) = list.get_untracked() {
                scroller(&el).set_scroll_top(0);
            }
        }
        chosen
    });
    // Fewer rows (a filter, another project): the rows in view are worked out again once the
    // browser has scrolled back within the shorter list.
    Effect::new(move |_| {
        order.with(Vec::len);
        request_animation_frame(move || {
            let _ = scrolled.try_update(|n| *n += 1);
        });
    });
    // The window scrolls the list too where the viewer is part of a longer page.
    let moved = window_event_listener(leptos::ev::scroll, move |_| scrolled.update(|n| *n += 1));
    let resized = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || {
        moved.remove();
        resized.remove();
    });
    let style = move || in_view.with(|drawn| even_rows::style(drawn, order.with(Vec::len), row_px.get()));
    view! {
        <section
            class="cctv-library__sessions"
            aria-label="sessions"
            node_ref=list
            on:scroll=move |_| scrolled.update(|n| *n += 1)
        >
            <SortAndFilters project=project projects=projects />
            // Keyed by all a row says: as counts arrive, only the rows that changed are drawn
            // again.
            <ol class="cctv-library__list" node_ref=rows style=style>
                <For each=shown key=|row| row.clone() let:((place, count, row))>
                    <SessionEntry row=row place=place count=count />
                </For>
            </ol>
        </section>
    }
}

/// The box that scrolls the sessions' list: the list itself, or on a phone the whole page of
/// projects and sessions it is part of.
fn scroller(list: &web_sys::HtmlElement) -> web_sys::HtmlElement {
    if list.scroll_height() > list.client_height() {
        return list.clone();
    }
    list.parent_element().and_then(|p| p.dyn_into().ok()).unwrap_or_else(|| list.clone())
}

/// One session of the list: its title opens it, under it when, how long, how large, and what in.
#[component]
fn SessionEntry(
    row: SessionRow,
    /// Where it is on the list (from 0), and how many the list holds: the list draws only the
    /// rows in view, so it says so.
    place: usize,
    count: usize,
) -> impl IntoView {
    let viewer = use_viewer();
    let session = row.session;
    let open = move |_| open_session(viewer, session, None);
    // Cut to the row's width on screen; whole when pointed at.
    let tip = row.title.clone();
    let timing = row.timing();
    view! {
        <li class="cctv-library__session" aria-posinset=place + 1 aria-setsize=count>
            <button class="cctv-library__open" on:click=open title=tip>
                <bdi class="cctv-library__title">{row.title}</bdi>
            </button>
            <div class="cctv-muted">
                {timing}
                {row.continues.map(|title| view! { " · continues " <bdi>{title}</bdi> })}
            </div>
            <div class="cctv-muted">
                {row.counts}
                {(!row.models.is_empty()).then(|| format!(" · {}", row.models))}
                {(!row.branch.is_empty()).then(|| view! { " · branch " <bdi>{row.branch.clone()}</bdi> })}
                {(!row.version.is_empty()).then(|| format!(" · {}", row.version))}
            </div>
        </li>
    }
}

/// The list's sort, and its filters by text, dates, model and branch.
#[component]
fn SortAndFilters(
    /// Which project is chosen: the models and branches offered are its.
    project: Memo<Option<usize>>,
    /// The folder's projects.
    projects: Memo<Vec<Project>>,
) -> impl IntoView {
    let library = use_viewer().library;
    let picks = move || {
        let p = project.get()?;
        library.shelf.with(|s| projects.with(|ps| Some(choices(s.as_ref()?, ps.get(p)?))))
    };
    let text_filter = move |label: &'static str,
                            get: fn(&ListFilter) -> String,
                            set: fn(&mut ListFilter, String),
                            kind: &'static str| {
        view! {
            <input
                class="cctv-library__filter"
                type=kind
                aria-label=label
                placeholder=label
                prop:value=move || library.filter.with(get)
                on:input=move |e| library.filter.update(|f| set(f, event_target_value(&e)))
            />
        }
    };
    let select_filter = move |label: &'static str,
                              all: &'static str,
                              pick: fn(FilterChoices) -> Vec<String>,
                              set: fn(&mut ListFilter, String)| {
        view! {
            <select class="cctv-library__filter" aria-label=label on:change=move |e| library.filter.update(|f| set(f, event_target_value(&e)))>
                <option value="">{all}</option>
                {move || picks().map(pick).unwrap_or_default().into_iter().map(|v| view! { <option value=v.clone()>{v.clone()}</option> }).collect_view()}
            </select>
        }
    };
    view! {
        <div class="cctv-library__tools" role="group" aria-label="sort and filter">
            <select
                class="cctv-library__filter"
                aria-label="sort by"
                on:change=move |e| library.sort.set(match event_target_value(&e).as_str() {
                    "size" => SortBy::Largest,
                    "duration" => SortBy::Longest,
                    _ => SortBy::Newest,
                })
            >
                <option value="date" selected=move || library.sort.get() == SortBy::Newest>"newest first"</option>
                <option value="size" selected=move || library.sort.get() == SortBy::Largest>"largest first"</option>
                <option value="duration" selected=move || library.sort.get() == SortBy::Longest>"longest first"</option>
            </select>
            {text_filter("filter by text", |f| f.text.clone(), |f, v| f.text = v, "search")}
            {text_filter("active from", |f| f.from.clone(), |f, v| f.from = v, "date")}
            {text_filter("active until", |f| f.to.clone(), |f, v| f.to = v, "date")}
            {select_filter("model", "all models", |c| c.models, |f, v| f.model = v)}
            {select_filter("branch", "all branches", |c| c.branches, |f, v| f.branch = v)}
        </div>
    }
}

/// What a search across sessions found, by project and session, as it is found: sessions are
/// searched project by project, so each result only needs to say when its project begins; results
/// are added, never redrawn.
#[component]
fn SearchResults() -> impl IntoView {
    let viewer = use_viewer();
    let library = viewer.library;
    view! {
        <section class="cctv-library__results" aria-label="search results">
            <div class="cctv-library__tools">
                <span class="cctv-muted" role="status" aria-live="polite">{move || library.search_status.get()}</span>
                <button class="cctv-button" on:click=move |_| stop_search(library)>"Stop"</button>
                <button class="cctv-button" on:click=move |_| library.query.update(|q| q.text.clear())>"Back to the list"</button>
            </div>
            <For each=move || library.found.get() key=|f| f.session let:f>
                {
                    let row = library.shelf.with_untracked(|s| s.as_ref().map(|s| session_row(s, f.session, &reader_zone())));
                    let session = f.session;
                    view! {
                        {f.project.clone().map(|path| view! { <h2 class="cctv-library__heading"><bdi>{path}</bdi></h2> })}
                        <div class="cctv-library__found">
                            <div>
                                <bdi class="cctv-library__title">{row.map(|r| r.title).unwrap_or_default()}</bdi>
                                <span class="cctv-muted">{format!(" · {}", plural(f.total as u64, "match"))}</span>
                            </div>
                            <ul>
                                {f.found.iter().cloned().map(|hit| {
                                    let fragment = hit.link.fragment();
                                    let go = move |_| open_found(viewer, session, fragment.clone());
                                    view! {
                                        <li>
                                            <button class="cctv-library__hit" on:click=go>
                                                <span class="cctv-badge">{hit.what}</span>
                                                " "
                                                <bdi>{hit.before}<mark>{hit.matched}</mark>{hit.after}</bdi>
                                            </button>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        </div>
                    }
                }
            </For>
        </section>
    }
}
