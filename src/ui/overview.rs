//! The session at a glance, over the conversation (which keeps its place underneath): what it
//! cost, how its context filled, and what each tool did. Worked out by the engine, off the page,
//! when opened ([`crate::insight::figures`]); every point, bar and row in it leads to its place
//! in the conversation.

use std::collections::BTreeMap;
use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;

use super::content::numbered;
use super::item::reader_zone;
use super::navigation::reveal;
use super::state::{use_viewer, Viewer};
use super::tools::diff_view;
use crate::browser::timers::after_a_frame;
use crate::engine::session::{Answer, Ask};
use crate::insight::changes::{FileChange, TurnChoice};
use crate::insight::chart::{context_chart, timeline_chart, tokens_short, LineChart, TimelineChart, BAR_ROW};
use crate::insight::cost::{dollars_label, Total, PRICES_CHECKED, PRICES_SOURCE};
use crate::insight::figures::{AgentCost, Figures};
use crate::insight::overview::{Context, ToolTotal};
use crate::insight::timeline::Timeline;
use crate::normalize::{ItemRef, ThreadRef, Workspace};
use crate::present::when;
use crate::text::format::{duration, isolate, thousands};
use crate::text::highlight::language_of_path;

/// The overview's sections: cost, context, timeline, files changed, tools.
const SECTIONS: usize = 5;

/// The overview of session `session` of `ws`: asked of the engine, drawn when it answers.
pub(crate) fn overview(ws: Arc<Workspace>, session: usize) -> AnyView {
    let viewer = use_viewer();
    if ws.sessions.get(session).is_none() {
        return ().into_any();
    }
    let figures = RwSignal::new(None::<Result<Arc<Figures>, String>>);
    // How many of its sections are drawn: one per frame, so that none keeps the page busy long.
    let drawn = RwSignal::new(0usize);
    // The files changed, asked apart once the figures came: their replay takes as long as the
    // rest, which is drawn meanwhile.
    let changed = RwSignal::new(None::<Changed>);
    let asked = ws.clone();
    leptos::task::spawn_local(async move {
        let result = match viewer.engine.get_value().ask(&asked, Ask::Figures { session }).await {
            Ok(Answer::Figures(Some(f))) => Ok(Arc::new(*f)),
            Ok(_) => Err("the engine does not know this session".to_owned()),
            Err(e) => Err(e),
        };
        let answered = result.is_ok();
        // The overview may have been closed for other files meanwhile.
        if figures.try_set(Some(result)).is_some() {
            return;
        }
        // Then the files changed, replayed while the figures are drawn.
        if answered {
            leptos::task::spawn_local(async move {
                let answer =
                    viewer.engine.get_value().ask(&asked, Ask::Changes { session, turn: None }).await;
                let _ = changed.try_set(Some(changed_of(answer)));
            });
        }
        for section in 1..=SECTIONS {
            after_a_frame().await;
            if drawn.try_set(section).is_some() {
                return;
            }
        }
    });
    // Focus moves into it as it opens, and Escape (navigation.rs) closes it.
    let heading = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if viewer.overview.get() {
            if let Some(h) = heading.get() {
                let _ = h.focus();
            }
        }
    });
    let go = move |at: ItemRef| go_to(viewer, session, at);
    let sections = move || {
        match figures.get() {
        None => view! { <p class="cctv-muted" role="status">"Working out the cost, the context, the timeline and the files changed…"</p> }.into_any(),
        Some(Err(e)) => view! { <p class="cctv-overview__warn" role="alert">{format!("cctv could not work out the overview: {e}")}</p> }.into_any(),
        Some(Ok(f)) => {
            let ws = ws.clone();
            let section = move |at: usize, id: &'static str, title: &'static str, body: Box<dyn Fn() -> AnyView + Send + Sync>| {
                // Drawn once, when its turn comes (a closure on `drawn` itself would draw every
                // section again as each next one comes).
                let due = Memo::new(move |_| drawn.get() > at);
                move || due.get().then(|| view! { <section aria-labelledby=id><h3 id=id>{title}</h3>{body()}</section> })
            };
            let (f1, f2, f3, f4, f5) = (f.clone(), f.clone(), f.clone(), f.clone(), f.clone());
            view! {
                {section(0, "cctv-cost", "Cost (an estimate)", Box::new(move || cost_view(&f1, session, go).into_any()))}
                {section(1, "cctv-context", "Context", Box::new(move || context_view(&f2.context, go)))}
                {section(2, "cctv-timeline", "Timeline", Box::new(move || timeline_view(Arc::new(f3.timeline.clone()), session)))}
                {section(3, "cctv-changes", "Files changed", Box::new(move || files_changed(ws.clone(), session, f4.clone(), changed)))}
                {section(4, "cctv-tools", "Tools", Box::new(move || tools_table(f5.tools.clone(), go).into_any()))}
            }
            .into_any()
        }
        }
    };
    view! {
        <div class="cctv-overview" role="region" aria-label="overview of the session">
            <div class="cctv-overview__head">
                <h2 tabindex="-1" node_ref=heading>"Overview"</h2>
                <button class="cctv-button" on:click=move |_| viewer.overview.set(false)>"Back to the conversation"</button>
            </div>
            {sections}
        </div>
    }
    .into_any()
}

/// What the session cost in all, what it could not price, and the cost by model, by sub-agent
/// and by turn.
fn cost_view(
    f: &Figures,
    session: usize,
    go: impl Fn(ItemRef) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <p class="cctv-overview__figure">
            {dollars_label(f.total.dollars)}
            <span class="cctv-muted">{format!(" · {} responses · {} tokens", thousands(f.total.responses), thousands(f.total.tokens.total()))}</span>
        </p>
        <p class="cctv-muted">
            {format!("Anthropic's list prices (checked {PRICES_CHECKED}, {PRICES_SOURCE}); a subscription, a discount or the Batch API bill differently. Each response is counted once, with its final usage.")}
        </p>
        {(f.total.unpriced > 0).then(|| view! {
            <p class="cctv-overview__warn" role="note">{format!("{} responses are of models cctv has no price for: unpriced, not in the figure above.", f.total.unpriced)}</p>
        })}
        {(f.total.partial > 0).then(|| view! {
            <p class="cctv-overview__warn" role="note">{format!("{} responses had their usage written before they finished (Claude Code does this in some versions): their output tokens, and the cost, are too low.", f.total.partial)}</p>
        })}
        {model_table(&f.by_model)}
        {(!f.agents.is_empty()).then(|| agent_table(&f.main, f.agents.clone(), go))}
        {per_turn(f, session)}
    }
}

/// The cost by model, in tokens of each kind.
fn model_table(by_model: &BTreeMap<String, Total>) -> impl IntoView {
    view! {
        <div class="cctv-overview__wide"><table class="cctv-overview__table">
            <thead><tr><th scope="col">"Model"</th><th scope="col">"Responses"</th><th scope="col">"Input"</th><th scope="col">"Cache read"</th><th scope="col">"Cache write"</th><th scope="col">"Output"</th><th scope="col">"Cost"</th></tr></thead>
            <tbody>
                {by_model.iter().map(|(model, t)| view! {
                    <tr>
                        <th scope="row"><bdi>{model.clone()}</bdi></th>
                        <td>{thousands(t.responses)}</td>
                        <td>{thousands(t.tokens.input)}</td>
                        <td>{thousands(t.tokens.cache_read)}</td>
                        <td>{thousands(t.tokens.cache_write_5m.saturating_add(t.tokens.cache_write_1h))}</td>
                        <td>{thousands(t.tokens.output)}</td>
                        <td>{if t.unpriced == t.responses { "unpriced".to_owned() } else { dollars_label(t.dollars) }}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
    }
}

/// The cost of the main conversation and of each sub-agent, whose name leads to it.
fn agent_table(
    main: &Total,
    agents: Vec<AgentCost>,
    go: impl Fn(ItemRef) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <div class="cctv-overview__wide"><table class="cctv-overview__table">
            <thead><tr><th scope="col">"Sub-agent"</th><th scope="col">"Responses"</th><th scope="col">"Tokens"</th><th scope="col">"Cost"</th></tr></thead>
            <tbody>
                <tr>
                    <th scope="row">"Main conversation"</th>
                    {total_cells(main)}
                </tr>
                {in_batches(agents, move |AgentCost { name, total: t, place }| view! {
                    <tr>
                        <th scope="row">{match place {
                            Some(at) => Either::Left(view! { <button class="cctv-link" on:click=move |_| go(at)><bdi>{name.clone()}</bdi></button> }),
                            None => Either::Right(view! { <bdi>{name.clone()}</bdi> }),
                        }}</th>
                        {total_cells(&t)}
                    </tr>
                })}
            </tbody>
        </table></div>
    }
}

/// Each tool's calls, errors and time, with a link to its longest call.
fn tools_table(tools: Vec<ToolTotal>, go: impl Fn(ItemRef) + Copy + Send + Sync + 'static) -> impl IntoView {
    view! {
        <div class="cctv-overview__wide"><table class="cctv-overview__table">
            <thead><tr><th scope="col">"Tool"</th><th scope="col">"Calls"</th><th scope="col">"Errors"</th><th scope="col">"Time in all"</th><th scope="col">"Longest"</th></tr></thead>
            <tbody>
                {in_batches(tools, move |t| view! {
                    <tr>
                        <th scope="row"><bdi>{t.name.clone()}</bdi></th>
                        <td>{thousands(t.calls)}</td>
                        <td>{thousands(t.errors)}</td>
                        <td>{(t.timed > 0).then(|| duration(t.total_ms as f64))}</td>
                        <td>{t.longest.map(|at| view! {
                            <button class="cctv-link" title="open the longest call" on:click=move |_| go(at)>{duration(t.longest_ms as f64)}</button>
                        })}</td>
                    </tr>
                })}
            </tbody>
        </table></div>
    }
}

/// A total's responses, tokens and dollars, as the cells of a row of the cost tables.
fn total_cells(t: &Total) -> impl IntoView {
    view! {
        <td>{thousands(t.responses)}</td>
        <td>{thousands(t.tokens.total())}</td>
        <td>{dollars_label(t.dollars)}</td>
    }
}

/// What each turn cost, folded: a long session has hundreds.
fn per_turn(f: &Figures, session: usize) -> AnyView {
    let viewer = use_viewer();
    // Drawn when opened: a long session has hundreds of turns.
    let opened = RwSignal::new(false);
    let (turns, costs, unattributed) = (f.turns.clone(), f.turn_costs.clone(), f.unattributed.clone());
    let table = move || {
        opened.get().then(|| {
            let rows = turns.clone().into_iter().zip(costs.clone());
            let unattributed = unattributed.clone();
            view! {
            <div class="cctv-overview__wide"><table class="cctv-overview__table">
                <thead><tr><th scope="col">"Turn"</th><th scope="col">"Responses"</th><th scope="col">"Tokens"</th><th scope="col">"Cost"</th></tr></thead>
                <tbody>
                    {in_batches(rows.collect::<Vec<_>>(), move |(turn, t)| {
                        let first = turn.items.start as u32;
                        view! {
                            <tr>
                                <th scope="row"><button class="cctv-link" on:click=move |_| go_to(viewer, session, ItemRef::new(ThreadRef::Main, first))><bdi>{turn.label}</bdi></button></th>
                                {total_cells(&t)}
                            </tr>
                        }
                    })}
                    {unattributed.map(|t| view! {
                        <tr>
                            <th scope="row">"sub-agents no call leads to"</th>
                            {total_cells(&t)}
                        </tr>
                    })}
                </tbody>
            </table></div>
            }
        })
    };
    view! {
        <details class="cctv-overview__turns" on:toggle=move |e| opened.set(event_target::<web_sys::HtmlDetailsElement>(&e).open())>
            <summary>{format!("Cost per turn ({})", f.turns.len())}</summary>
            {table}
        </details>
    }
    .into_any()
}

/// The files changed the engine answered with, or why there are none.
type Changed = Result<Vec<FileChange>, String>;

fn changed_of(answer: Result<Answer, String>) -> Changed {
    match answer? {
        Answer::Changes(files) => Ok(files),
        _ => Err("the engine answered another question".into()),
    }
}

/// Every file the session changed, each with its net diff, for the whole session (`whole`, once
/// the engine answers) or one turn (asked of the engine when picked); and each file as it was
/// after any turn.
fn files_changed(
    ws: Arc<Workspace>,
    session: usize,
    f: Arc<Figures>,
    whole: RwSignal<Option<Changed>>,
) -> AnyView {
    let viewer = use_viewer();
    let turns: Arc<[TurnChoice]> = f.turns.clone().into();
    let chosen = RwSignal::new(None::<usize>);
    // The picked turn's once the engine answers (`Some(None)`: asked, not answered yet).
    let picked = RwSignal::new(None::<Option<Changed>>);
    let files = move || match chosen.get() {
        None => whole.get(),
        Some(_) => picked.get().flatten(),
    };
    let shown = StoredValue::new(ws.clone());
    let pick = move |turn: Option<usize>| {
        chosen.set(turn);
        picked.set(None);
        let Some(turn) = turn else { return };
        picked.set(Some(None));
        let Some(ws) = shown.try_get_value() else { return };
        leptos::task::spawn_local(async move {
            let answer = viewer.engine.get_value().ask(&ws, Ask::Changes { session, turn: Some(turn) }).await;
            // Only the latest pick is shown, if the overview is still open.
            if chosen.try_get_untracked() == Some(Some(turn)) {
                let _ = picked.try_set(Some(Some(changed_of(answer))));
            }
        });
    };
    let labels: Vec<String> = turns.iter().map(|t| t.label.clone()).collect();
    let list = move || {
        let files = match files() {
            None => return view! { <p class="cctv-muted" role="status">"Replaying the edits…"</p> }.into_any(),
            Some(Err(e)) => {
                return view! { <p class="cctv-overview__warn" role="alert">{format!("cctv could not replay the edits: {e}")}</p> }
                    .into_any()
            }
            Some(Ok(files)) => files,
        };
        if files.is_empty() {
            return view! { <p class="cctv-muted">"No file was changed here."</p> }.into_any();
        }
        let (added, removed) = files.iter().fold((0, 0), |(a, r), f| (a + f.added, r + f.removed));
        let summary = format!("{} files · +{added} −{removed}", files.len());
        let after_turns = turns.clone();
        view! {
            <p class="cctv-muted">{summary}</p>
            {let ws = ws.clone(); in_batches(files, move |f| file_view(ws.clone(), session, f, after_turns.clone()))}
        }
        .into_any()
    };
    view! {
        <label class="cctv-overview__turn">
            "Changes of "
            {turn_picker(labels, "the whole session", pick)}
        </label>
        {list}
    }
    .into_any()
}

/// One changed file: its path and counts, then (opened) its diff, and the file as it was after
/// a turn the reader picks.
fn file_view(ws: Arc<Workspace>, session: usize, f: FileChange, turns: Arc<[TurnChoice]>) -> impl IntoView {
    let viewer = use_viewer();
    // What it shows when opened is built when it opens: a session changes hundreds of files.
    let opened = RwSignal::new(false);
    let language = language_of_path(&f.path);
    let note = match (f.by_shell, f.partial, f.outside, f.created) {
        (true, ..) => Some("Written by a shell command: cctv cannot show how."),
        (_, true, ..) => Some(
            "Partial: cctv does not know this file as it was before (it was changed without being read whole first), so these are its changes one by one.",
        ),
        (_, _, true, _) => Some(
            "Also changed by something other than this session's edits (a command, a person): the diff holds those changes too.",
        ),
        (_, _, _, true) => Some("Created by the session."),
        _ => None,
    };
    let first_call = f.calls.first().copied();
    let (path, after) = (f.path.clone(), RwSignal::new(None::<usize>));
    let choices = turns.clone();
    // Asked of the engine when a turn is picked: the replay up to its end.
    let after_turn = RwSignal::new(None::<Option<String>>);
    Effect::new(move |_| {
        let Some(turn) = after.get() else { return };
        after_turn.set(None);
        let (ws, path) = (ws.clone(), path.clone());
        leptos::task::spawn_local(async move {
            let answer = viewer.engine.get_value().ask(&ws, Ask::FileAfter { session, path, turn }).await;
            if after.try_get_untracked() == Some(Some(turn)) {
                let _ = after_turn.try_set(Some(match answer {
                    Ok(Answer::FileAfter(text)) => text,
                    _ => None,
                }));
            }
        });
    });
    let shown = f.path.clone();
    let content = move || {
        after.get()?;
        Some(match after_turn.get() {
            None => view! { <p class="cctv-muted" role="status">"Replaying the edits…"</p> }.into_any(),
            Some(Some(text)) => numbered(&text, 1, language_of_path(&shown).as_deref()),
            Some(None) => {
                view! { <p class="cctv-muted">"cctv does not know the file as it was then."</p> }.into_any()
            }
        })
    };
    let rows = f.rows;
    view! {
                <details class="cctv-overview__file" on:toggle=move |e| opened.set(event_target::<web_sys::HtmlDetailsElement>(&e).open())>
            <summary>
                <bdi class="cctv-overview__path">{f.path.clone()}</bdi>
                " "
                <span class="cctv-overview__added">{format!("+{}", f.added)}</span>
                " "
                <span class="cctv-overview__removed">{format!("−{}", f.removed)}</span>
                {format!(" · {} change{}", f.calls.len(), if f.calls.len() == 1 { "" } else { "s" })}
            </summary>
                        {move || opened.get().then(|| {
                let (choices, rows, language, content) = (choices.clone(), rows.clone(), language.clone(), content.clone());
                view! {
            {note.map(|n| view! { <p class="cctv-muted">{n}</p> })}
            <p>
                {first_call.map(|at| view! { <button class="cctv-link" on:click=move |_| go_to(viewer, session, at)>"its first change"</button> })}
                " · "
                <label>
                    "the file after "
                    {turn_picker(choices.iter().map(|t| t.label.clone()).collect(), "(pick a turn)", move |turn| after.set(turn))}
                </label>
            </p>
            {move || match content() {
                Some(file) => file,
                None if rows.is_empty() => ().into_any(),
                None => diff_view(rows.clone(), language.as_deref()),
            }}
                }
            })}
        </details>
    }
}

/// Turns listed at most in a menu: a session of thousands of turns takes its number instead (a
/// menu of thousands is slow to draw and to lay out, and no quicker to pick from).
const TURNS_IN_A_MENU: usize = 200;

/// Picks one of the turns `labels` (or none: `none` says what that means): a menu, or for many
/// turns a number with the picked turn's label beside it.
fn turn_picker(
    labels: Vec<String>,
    none: &'static str,
    pick: impl Fn(Option<usize>) + Copy + 'static,
) -> AnyView {
    if labels.len() <= TURNS_IN_A_MENU {
        return view! {
            <select on:change=move |e| pick(event_target_value(&e).parse().ok())>
                <option value="">{none}</option>
                {labels.into_iter().enumerate().map(|(i, label)| view! { <option value=i.to_string()>{format!("turn {}", isolate(&label))}</option> }).collect_view()}
            </select>
        }
        .into_any();
    }
    let count = labels.len();
    let picked = RwSignal::new(None::<usize>);
    let on_input = move |e| {
        // Turns are numbered from 1, as their labels are; anything else is none.
        let turn = event_target_value(&e)
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=count).contains(n))
            .map(|n| n - 1);
        picked.set(turn);
        pick(turn);
    };
    view! {
        <input class="cctv-overview__turn-number" type="number" min="1" max=count placeholder=none aria-label=format!("turn number, 1 to {count}") on:change=on_input />
        " "
        <bdi class="cctv-muted">{move || picked.get().and_then(|i| labels.get(i).cloned())}</bdi>
    }
    .into_any()
}

/// `items` drawn a batch at a time, each as its turn comes in the page's one queue of batches
/// (`draw_waiting`), so that thousands of points, bars or rows never keep the page busy long;
/// each batch is drawn once. The first waits its turn too: a section draws several lists (the
/// timeline its lanes, prompts and bars), and their first batches drawn with it made a task of
/// 51-53 ms at 200 MB.
fn in_batches<T, V>(items: Vec<T>, draw: impl Fn(T) -> V + Clone + Send + Sync + 'static) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    const BATCH: usize = 50;
    let batches: Vec<Vec<T>> = items.chunks(BATCH).map(<[T]>::to_vec).collect();
    let shown = RwSignal::new(0usize);
    queue_batches(shown, batches.len());
    batches
        .into_iter()
        .enumerate()
        .map(|(k, batch)| {
            let due = Memo::new(move |_| shown.get() > k);
            let draw = draw.clone();
            // Taken, not copied, when its turn comes: a batch of files changed holds their whole
            // texts.
            let batch = StoredValue::new(Some(batch));
            move || {
                due.get().then(|| {
                    batch
                        .try_update_value(Option::take)
                        .flatten()
                        .unwrap_or_default()
                        .into_iter()
                        .map(draw.clone())
                        .collect_view()
                })
            }
        })
        .collect_view()
}

thread_local! {
    /// The lists of batches still to draw: how many of its batches each shows, and has.
    static WAITING: std::cell::RefCell<std::collections::VecDeque<(RwSignal<usize>, usize)>> =
        Default::default();
}

/// Queues the `count` batches of a list, shown as `shown` grows.
fn queue_batches(shown: RwSignal<usize>, count: usize) {
    if count == 0 {
        return;
    }
    // `draw_waiting` runs exactly while the queue holds a list: start it if it was empty.
    let idle = WAITING.with_borrow_mut(|waiting| {
        waiting.push_back((shown, count));
        waiting.len() == 1
    });
    if idle {
        leptos::task::spawn_local(draw_waiting());
    }
}

/// Draws one batch a frame, taking the lists in turn, and ends as soon as none waits (so that
/// the next list queued starts it again, and never a second one beside it). One a frame for the
/// whole page, not one per list and per task: the Overview draws the context chart's points, its
/// table for screen readers and the timeline's lanes, ticks and bars at once, and their batches
/// piled up in one frame of 50-80 ms (its layout and style). A list no longer on the page is
/// dropped.
async fn draw_waiting() {
    loop {
        after_a_frame().await;
        while let Some((shown, count)) = WAITING.with_borrow_mut(|waiting| waiting.pop_front()) {
            let drawn = shown.try_update(|n| {
                *n += 1;
                *n
            });
            if let Some(drawn) = drawn {
                if drawn < count {
                    WAITING.with_borrow_mut(|waiting| waiting.push_back((shown, count)));
                }
                break;
            }
        }
        if WAITING.with_borrow(|waiting| waiting.is_empty()) {
            return;
        }
    }
}

/// The context chart, with a table of the same figures for screen readers.
fn context_view(context: &Context, go: impl Fn(ItemRef) + Copy + Send + Sync + 'static) -> AnyView {
    if context.points.is_empty() {
        return view! { <p class="cctv-muted">"No response in this session says how much context it had."</p> }.into_any();
    }
    let chart = context_chart(context);
    let peak = context.points.iter().map(|p| p.tokens).max().unwrap_or(0);
    let summary = format!(
        "{} responses; the context peaked at {} tokens of a {} window; {} compaction(s).",
        context.points.len(),
        thousands(peak),
        tokens_short(context.limit),
        context.compactions.len()
    );
    // The points the chart draws (of thousands of responses, the peak of each run), as words.
    let rows: Vec<String> = chart.points.iter().map(|p| p.label.clone()).collect();
    view! {
        <p class="cctv-muted">{summary}</p>
        <div class="cctv-overview__wide">{chart_svg(chart, go)}</div>
        <table class="cctv-sr-only">
            <caption>"Context per response"</caption>
            <tbody>{in_batches(rows, |row| view! { <tr><td>{row}</td></tr> })}</tbody>
        </table>
    }
    .into_any()
}

/// The time line, zoomable: a lane per conversation, a bar per call, the prompts as ticks and
/// the idle stretches cut out. The tools table below says the same in figures.
fn timeline_view(line: Arc<Timeline>, session: usize) -> AnyView {
    if line.spans.is_empty() {
        return view! { <p class="cctv-muted">"No tool call in this session says when it ran."</p> }
            .into_any();
    }
    let viewer = use_viewer();
    let zoom = RwSignal::new(1.0f64);
    let zone = reader_zone();
    let summary = format!(
        "{} calls in {} lane{}; {} of activity{}.",
        line.spans.len(),
        line.lanes.len(),
        if line.lanes.len() == 1 { "" } else { "s" },
        duration(line.active_ms() as f64),
        match line.idle().len() {
            0 => String::new(),
            n => format!(", {n} idle stretch{} cut out", if n == 1 { "" } else { "es" }),
        }
    );
    let chart = move || {
        let go = move |at| go_to(viewer, session, at);
        timeline_svg(timeline_chart(&line, zoom.get()), go, &zone)
    };
    view! {
        <p class="cctv-muted">{summary}</p>
        <div class="cctv-overview__zoom" role="group" aria-label="zoom the timeline">
            <button class="cctv-button" aria-label="zoom out" on:click=move |_| zoom.update(|z| *z = (*z / 2.0).max(0.25))>"−"</button>
            <button class="cctv-button" aria-label="fit" on:click=move |_| zoom.set(1.0)>"fit"</button>
            <button class="cctv-button" aria-label="zoom in" on:click=move |_| zoom.update(|z| *z = (*z * 2.0).min(64.0))>"+"</button>
        </div>
        <div class="cctv-overview__wide">{chart}</div>
    }
    .into_any()
}

/// The time line drawn: a lane per conversation with its name, the clock where each stretch
/// starts, the cuts, a tick per prompt and a bar per call, each leading to its row.
fn timeline_svg(
    chart: TimelineChart,
    go: impl Fn(ItemRef) + Copy + Send + Sync + 'static,
    zone: &impl Fn(i64) -> i32,
) -> impl IntoView {
    let first_lane_end = chart.lanes.first().map_or(40.0, |(y, h, _)| y + h);
    let width = chart.width;
    view! {
        <svg class="cctv-timeline" width=chart.width height=chart.height viewBox=format!("0 0 {} {}", chart.width, chart.height) aria-hidden="true">
            // A lane per agent: hundreds in a session of many sub-agents.
            {in_batches(chart.lanes.into_iter().enumerate().collect(), move |(i, (y, h, label))| view! {
                <rect class=if i % 2 == 0 { "cctv-timeline__lane" } else { "cctv-timeline__lane cctv-timeline__lane--odd" } x="0" y=y width=width height=h />
                <text class="cctv-timeline__name" x="8" y=y + 12.0>{isolate(&label)}</text>
            })}
            {chart.starts.iter().map(|&(x, ms)| view! {
                <text class="cctv-timeline__clock" x=x y="12">{when::clock(ms, &zone)}</text>
            }).collect_view()}
            {chart.cuts.iter().map(|(x, label)| view! {
                <line class="cctv-timeline__cut" x1=*x x2=*x y1="16" y2=chart.height />
                <text class="cctv-timeline__clock" x=*x y=chart.height - 2.0 text-anchor="middle">{label.clone()}</text>
            }).collect_view()}
            {in_batches(chart.prompts, move |(x, item)| view! {
                <g class="cctv-timeline__prompt" on:click=move |_| go(ItemRef::new(ThreadRef::Main, item))>
                    <title>"a prompt"</title>
                    <path d=format!("M{} 16 l-4 -6 h8 z", x) />
                    <line x1=x x2=x y1="16" y2=first_lane_end />
                </g>
            })}
            {in_batches(chart.bars, move |b| {
                let (thread, item) = (b.thread, b.item);
                view! {
                    <rect
                        class=if b.failed { "cctv-timeline__bar cctv-timeline__bar--failed" } else { "cctv-timeline__bar" }
                        x=b.x y=b.y width=b.width height=BAR_ROW - 3.0 rx="2"
                        on:click=move |_| go(ItemRef::new(thread, item))
                    >
                        <title>{b.label}</title>
                    </rect>
                }
            })}
        </svg>
    }
}

/// A line chart as SVG: rules, the limit, marks, the line, and a point per response that opens
/// its row. Hidden from screen readers, which read the table beside it.
fn chart_svg(chart: LineChart, go: impl Fn(ItemRef) + Copy + Send + Sync + 'static) -> impl IntoView {
    let (left, top, right, bottom) = chart.plot;
    view! {
        <svg
            class="cctv-chart"
            viewBox=format!("0 0 {} {}", chart.width, chart.height)
            aria-hidden="true"
        >
            {chart.y_ticks.into_iter().map(|(y, label)| view! {
                <line class="cctv-chart__rule" x1=left x2=right y1=y y2=y />
                <text class="cctv-chart__tick" x=left - 6.0 y=y + 4.0 text-anchor="end">{label}</text>
            }).collect_view()}
            {chart.limit.map(|(y, label)| view! {
                <line class="cctv-chart__limit" x1=left x2=right y1=y y2=y />
                <text class="cctv-chart__tick" x=right y=y - 4.0 text-anchor="end">{label}</text>
            })}
            {chart.marks.into_iter().map(|m| {
                let item = m.item;
                view! {
                    <g class=if m.faint { "cctv-chart__mark cctv-chart__mark--faint" } else { "cctv-chart__mark" } on:click=move |_| go(ItemRef::new(ThreadRef::Main, item))>
                        <title>{m.label.clone()}</title>
                        <line x1=m.x x2=m.x y1=top y2=bottom />
                        <rect x=m.x - 4.0 y=top width="8" height=bottom - top />
                    </g>
                }
            }).collect_view()}
            <path class="cctv-chart__line" d=chart.path />
            {in_batches(chart.points, move |p| {
                let item = p.item;
                view! {
                    <circle class="cctv-chart__point" cx=p.x cy=p.y r="3" on:click=move |_| go(ItemRef::new(ThreadRef::Main, item))>
                        <title>{p.label}</title>
                    </circle>
                }
            })}
        </svg>
    }
}

/// Leaves the overview for row `item` of `thread`.
fn go_to(viewer: Viewer, session: usize, at: ItemRef) {
    let Some(ws) = viewer.workspace.get_untracked() else { return };
    viewer.overview.set(false);
    reveal(viewer, &ws, session, at.thread, at.item);
}
