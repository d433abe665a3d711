//! The session at a glance, over the conversation (which keeps its place underneath): what it
//! cost, how its context filled, and what each tool did. Built when opened; every point, bar and
//! row in it leads to its place in the conversation.

use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;

use super::content::numbered;
use super::item::reader_zone;
use super::navigation::reveal;
use super::state::{use_viewer, Viewer};
use super::tools::diff_view;
use crate::insight::changes::{changes, file_after, turn_choices, FileChange, TurnChoice};
use crate::insight::chart::{context_chart, timeline_chart, tokens_short, LineChart, TimelineChart, BAR_ROW};
use crate::insight::cost::{
    dollars_label, session_cost, turn_costs, SessionCost, Total, PRICES_CHECKED, PRICES_SOURCE,
};
use crate::insight::overview::{context, tools, Context, ToolTotal};
use crate::insight::timeline::timeline;
use crate::normalize::{ItemRef, Session, ThreadRef, Workspace};
use crate::present::link::{agent_link, resolve};
use crate::present::when;
use crate::text::format::{duration, isolate, thousands};
use crate::text::highlight::language_of_path;

/// A sub-agent's line of the cost: its name, its total, and where its conversation is.
type AgentRow = (String, Total, Option<ItemRef>);

/// The overview of session `session` of `ws`.
pub(crate) fn overview(ws: Arc<Workspace>, session: usize) -> AnyView {
    let viewer = use_viewer();
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
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
    view! {
        <div class="cctv-overview" role="region" aria-label="overview of the session">
            <div class="cctv-overview__head">
                <h2 tabindex="-1" node_ref=heading>"Overview"</h2>
                <button class="cctv-button" on:click=move |_| viewer.overview.set(false)>"Back to the conversation"</button>
            </div>
            <section aria-labelledby="cctv-cost">
                <h3 id="cctv-cost">"Cost (an estimate)"</h3>
                {cost_view(&ws, session, go)}
            </section>
            <section aria-labelledby="cctv-context">
                <h3 id="cctv-context">"Context"</h3>
                {context_view(&context(&ws, s), go)}
            </section>
            <section aria-labelledby="cctv-timeline">
                <h3 id="cctv-timeline">"Timeline"</h3>
                {timeline_view(&ws, session)}
            </section>
            <section aria-labelledby="cctv-changes">
                <h3 id="cctv-changes">"Files changed"</h3>
                {files_changed(ws.clone(), session)}
            </section>
            <section aria-labelledby="cctv-tools">
                <h3 id="cctv-tools">"Tools"</h3>
                {tools_table(tools(&ws, s), go)}
            </section>
        </div>
    }
    .into_any()
}

/// What the session cost in all, what it could not price, and the cost by model, by sub-agent
/// and by turn.
fn cost_view(ws: &Workspace, session: usize, go: impl Fn(ItemRef) + Copy + 'static) -> Option<impl IntoView> {
    let s = ws.sessions.get(session)?;
    let cost = session_cost(ws, s);
    let agents = agent_rows(ws, s, &cost);
    Some(view! {
        <p class="cctv-overview__figure">
            {dollars_label(cost.total.dollars)}
            <span class="cctv-muted">{format!(" · {} responses · {} tokens", thousands(cost.total.responses), thousands(cost.total.tokens.total()))}</span>
        </p>
        <p class="cctv-muted">
            {format!("Anthropic's list prices (checked {PRICES_CHECKED}, {PRICES_SOURCE}); a subscription, a discount or the Batch API bill differently. Each response is counted once, with its final usage.")}
        </p>
        {(cost.total.unpriced > 0).then(|| view! {
            <p class="cctv-overview__warn" role="note">{format!("{} responses are of models cctv has no price for: unpriced, not in the figure above.", cost.total.unpriced)}</p>
        })}
        {(cost.total.partial > 0).then(|| view! {
            <p class="cctv-overview__warn" role="note">{format!("{} responses had their usage written before they finished (Claude Code does this in some versions): their output tokens, and the cost, are too low.", cost.total.partial)}</p>
        })}
        {model_table(&cost)}
        {(!agents.is_empty()).then(|| agent_table(&cost.main, agents, go))}
        {per_turn(ws, session, &cost)}
    })
}

/// The cost by model, in tokens of each kind.
fn model_table(cost: &SessionCost) -> impl IntoView {
    view! {
        <div class="cctv-overview__wide"><table class="cctv-overview__table">
            <thead><tr><th scope="col">"Model"</th><th scope="col">"Responses"</th><th scope="col">"Input"</th><th scope="col">"Cache read"</th><th scope="col">"Cache write"</th><th scope="col">"Output"</th><th scope="col">"Cost"</th></tr></thead>
            <tbody>
                {cost.by_model.iter().map(|(model, t)| view! {
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

/// Each sub-agent's name, total, and the place of its conversation.
fn agent_rows(ws: &Workspace, s: &Session, cost: &SessionCost) -> Vec<AgentRow> {
    s.agents
        .iter()
        .enumerate()
        .zip(&cost.agents)
        .map(|((i, agent), total)| {
            let name = agent.description.clone().or(agent.agent_type.clone()).or(agent.agent_id.clone());
            let place = agent_link(ws, s, i as u32)
                .and_then(|l| resolve(ws, &l))
                .map(|p| ItemRef::new(p.thread, p.first));
            (name.unwrap_or_else(|| format!("sub-agent {}", i + 1)), total.clone(), place)
        })
        .collect()
}

/// The cost of the main conversation and of each sub-agent, whose name leads to it.
fn agent_table(main: &Total, agents: Vec<AgentRow>, go: impl Fn(ItemRef) + Copy + 'static) -> impl IntoView {
    view! {
        <div class="cctv-overview__wide"><table class="cctv-overview__table">
            <thead><tr><th scope="col">"Sub-agent"</th><th scope="col">"Responses"</th><th scope="col">"Tokens"</th><th scope="col">"Cost"</th></tr></thead>
            <tbody>
                <tr>
                    <th scope="row">"Main conversation"</th>
                    <td>{thousands(main.responses)}</td>
                    <td>{thousands(main.tokens.total())}</td>
                    <td>{dollars_label(main.dollars)}</td>
                </tr>
                {agents.into_iter().map(|(name, t, place)| view! {
                    <tr>
                        <th scope="row">{match place {
                            Some(at) => Either::Left(view! { <button class="cctv-link" on:click=move |_| go(at)><bdi>{name.clone()}</bdi></button> }),
                            None => Either::Right(view! { <bdi>{name.clone()}</bdi> }),
                        }}</th>
                        <td>{thousands(t.responses)}</td>
                        <td>{thousands(t.tokens.total())}</td>
                        <td>{dollars_label(t.dollars)}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
    }
}

/// Each tool's calls, errors and time, with a link to its longest call.
fn tools_table(tools: Vec<ToolTotal>, go: impl Fn(ItemRef) + Copy + 'static) -> impl IntoView {
    view! {
        <div class="cctv-overview__wide"><table class="cctv-overview__table">
            <thead><tr><th scope="col">"Tool"</th><th scope="col">"Calls"</th><th scope="col">"Errors"</th><th scope="col">"Time in all"</th><th scope="col">"Longest"</th></tr></thead>
            <tbody>
                {tools.into_iter().map(|t| view! {
                    <tr>
                        <th scope="row"><bdi>{t.name.clone()}</bdi></th>
                        <td>{thousands(t.calls)}</td>
                        <td>{thousands(t.errors)}</td>
                        <td>{(t.timed > 0).then(|| duration(t.total_ms as f64))}</td>
                        <td>{t.longest.map(|at| view! {
                            <button class="cctv-link" title="open the longest call" on:click=move |_| go(at)>{duration(t.longest_ms as f64)}</button>
                        })}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
    }
}

/// What each turn cost, folded: a long session has hundreds.
fn per_turn(ws: &Workspace, session: usize, cost: &SessionCost) -> Option<AnyView> {
    let s = ws.sessions.get(session)?;
    let turns = turn_choices(ws, s);
    let ranges: Vec<_> = turns.iter().map(|t| t.items.clone()).collect();
    let mut costs = turn_costs(ws, s, cost, &ranges);
    // The sub-agents no call of the main conversation leads to, if any.
    let unattributed = costs.pop().filter(|t| t.responses > 0);
    let viewer = use_viewer();
    Some(
        view! {
            <details class="cctv-overview__turns">
                <summary>{format!("Cost per turn ({})", turns.len())}</summary>
                <div class="cctv-overview__wide"><table class="cctv-overview__table">
                    <thead><tr><th scope="col">"Turn"</th><th scope="col">"Responses"</th><th scope="col">"Tokens"</th><th scope="col">"Cost"</th></tr></thead>
                    <tbody>
                        {turns.into_iter().zip(costs).map(|(turn, t)| {
                            let first = turn.items.start as u32;
                            view! {
                                <tr>
                                    <th scope="row"><button class="cctv-link" on:click=move |_| go_to(viewer, session, ItemRef::new(ThreadRef::Main, first))><bdi>{turn.label}</bdi></button></th>
                                    <td>{thousands(t.responses)}</td>
                                    <td>{thousands(t.tokens.total())}</td>
                                    <td>{dollars_label(t.dollars)}</td>
                                </tr>
                            }
                                                }).collect_view()}
                        {unattributed.map(|t| view! {
                            <tr>
                                <th scope="row">"sub-agents no call leads to"</th>
                                <td>{thousands(t.responses)}</td>
                                <td>{thousands(t.tokens.total())}</td>
                                <td>{dollars_label(t.dollars)}</td>
                            </tr>
                        })}
                    </tbody>
                </table></div>
            </details>
        }
        .into_any(),
    )
}

/// Every file the session changed, each with its net diff, for the whole session or one turn;
/// and each file as it was after any turn.
fn files_changed(ws: Arc<Workspace>, session: usize) -> AnyView {
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
    let turns: Arc<[TurnChoice]> = turn_choices(&ws, s).into();
    // None: the whole session; else an index into `turns`.
    let chosen = RwSignal::new(None::<usize>);
    let labels: Vec<String> = turns.iter().map(|t| t.label.clone()).collect();
    let list = {
        let (ws, turns) = (ws.clone(), turns.clone());
        move || {
            let Some(s) = ws.sessions.get(session) else { return ().into_any() };
            let range = chosen.get().and_then(|i| turns.get(i)).map(|t| t.items.clone());
            let files = changes(&ws, s, range);
            if files.is_empty() {
                return view! { <p class="cctv-muted">"No file was changed here."</p> }.into_any();
            }
            let (added, removed) = files.iter().fold((0, 0), |(a, r), f| (a + f.added, r + f.removed));
            let summary = format!("{} files · +{added} −{removed}", files.len());
            let after_turns = turns.clone();
            view! {
                <p class="cctv-muted">{summary}</p>
                {files.into_iter().map(|f| file_view(ws.clone(), session, f, after_turns.clone())).collect_view()}
            }
            .into_any()
        }
    };
    view! {
        <label class="cctv-overview__turn">
            "Changes of "
            <select on:change=move |e| chosen.set(event_target_value(&e).parse().ok())>
                <option value="">"the whole session"</option>
                {labels.into_iter().enumerate().map(|(i, label)| view! { <option value=i.to_string()>{format!("turn {}", isolate(&label))}</option> }).collect_view()}
            </select>
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
    // Built when a turn is picked: the replay up to its end.
    let content = move || {
        let turn = turns.get(after.get()?)?;
        let s = ws.sessions.get(session)?;
        Some(match file_after(&ws, s, &path, turn.items.end) {
            Some(text) => numbered(&text, 1, language_of_path(&path).as_deref()),
            None => {
                view! { <p class="cctv-muted">"cctv does not know the file as it was then."</p> }.into_any()
            }
        })
    };
    let rows = f.rows.clone();
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
                    <select on:change=move |e| after.set(event_target_value(&e).parse().ok())>
                        <option value="">"(pick a turn)"</option>
                        {choices.iter().enumerate().map(|(i, t)| view! { <option value=i.to_string()>{format!("turn {}", isolate(&t.label))}</option> }).collect_view()}
                    </select>
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

/// The context chart, with a table of the same figures for screen readers.
fn context_view(context: &Context, go: impl Fn(ItemRef) + Copy + 'static) -> AnyView {
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
    let rows: Vec<(usize, u64)> = context.points.iter().enumerate().map(|(i, p)| (i + 1, p.tokens)).collect();
    view! {
        <p class="cctv-muted">{summary}</p>
        <div class="cctv-overview__wide">{chart_svg(chart, go)}</div>
        <table class="cctv-sr-only">
            <caption>"Context per response"</caption>
            <thead><tr><th scope="col">"Response"</th><th scope="col">"Tokens of context"</th></tr></thead>
            <tbody>{rows.into_iter().map(|(n, tokens)| view! { <tr><td>{n}</td><td>{thousands(tokens)}</td></tr> }).collect_view()}</tbody>
        </table>
    }
    .into_any()
}

/// The time line, zoomable: a lane per conversation, a bar per call, the prompts as ticks and
/// the idle stretches cut out. The tools table below says the same in figures.
fn timeline_view(ws: &Workspace, session: usize) -> AnyView {
    let Some(s) = ws.sessions.get(session) else { return ().into_any() };
    let line = Arc::new(timeline(ws, s));
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
    go: impl Fn(ItemRef) + Copy + 'static,
    zone: &impl Fn(i64) -> i32,
) -> impl IntoView {
    view! {
        <svg class="cctv-timeline" width=chart.width height=chart.height viewBox=format!("0 0 {} {}", chart.width, chart.height) aria-hidden="true">
            {chart.lanes.iter().enumerate().map(|(i, (y, h, label))| view! {
                <rect class=if i % 2 == 0 { "cctv-timeline__lane" } else { "cctv-timeline__lane cctv-timeline__lane--odd" } x="0" y=*y width=chart.width height=*h />
                <text class="cctv-timeline__name" x="8" y=y + 12.0>{isolate(label)}</text>
            }).collect_view()}
            {chart.starts.iter().map(|&(x, ms)| view! {
                <text class="cctv-timeline__clock" x=x y="12">{when::clock(ms, &zone)}</text>
            }).collect_view()}
            {chart.cuts.iter().map(|(x, label)| view! {
                <line class="cctv-timeline__cut" x1=*x x2=*x y1="16" y2=chart.height />
                <text class="cctv-timeline__clock" x=*x y=chart.height - 2.0 text-anchor="middle">{label.clone()}</text>
            }).collect_view()}
            {chart.prompts.iter().map(|&(x, item)| view! {
                <g class="cctv-timeline__prompt" on:click=move |_| go(ItemRef::new(ThreadRef::Main, item))>
                    <title>"a prompt"</title>
                    <path d=format!("M{} 16 l-4 -6 h8 z", x) />
                    <line x1=x x2=x y1="16" y2=chart.lanes.first().map_or(40.0, |(y, h, _)| y + h) />
                </g>
            }).collect_view()}
            {chart.bars.into_iter().map(|b| {
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
            }).collect_view()}
        </svg>
    }
}

/// A line chart as SVG: rules, the limit, marks, the line, and a point per response that opens
/// its row. Hidden from screen readers, which read the table beside it.
fn chart_svg(chart: LineChart, go: impl Fn(ItemRef) + Copy + 'static) -> impl IntoView {
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
            {chart.points.into_iter().map(|p| {
                let item = p.item;
                view! {
                    <circle class="cctv-chart__point" cx=p.x cy=p.y r="3" on:click=move |_| go(ItemRef::new(ThreadRef::Main, item))>
                        <title>{p.label}</title>
                    </circle>
                }
            }).collect_view()}
        </svg>
    }
}

/// Leaves the overview for row `item` of `thread`.
fn go_to(viewer: Viewer, session: usize, at: ItemRef) {
    let Some(ws) = viewer.workspace.get_untracked() else { return };
    viewer.overview.set(false);
    reveal(viewer, &ws, session, at.thread, at.item);
}
