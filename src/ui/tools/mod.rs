//! Tool call panels: the header says what the call did; the body, built when opened, shows its
//! hooks, its result drawn per tool family (one file each), and its progress.

mod agent;
mod ask;
mod background;
mod bash;
mod batch;
mod edit;
mod facts;
mod generic;
mod lsp;
mod mcp;
mod read;
mod schedule;
mod search;
mod skill;
mod tasks;
mod team;
mod todo;
mod tool_search;
mod web;
mod workflow;

use leptos::prelude::*;

pub(crate) use edit::diff_view;
pub(crate) use todo::todo_list;

use super::content::result_content;
use super::hooks::{hook, progress};
use super::panel::panel;
use super::state::{use_viewer, PanelKey, Part};
use crate::present::calls::Outcome;
use crate::present::item::{AgentSummary, CallRow};
use crate::present::rows::Row;
use crate::present::tools::{Output, ToolBody};

/// A tool call's row; its panel is made, when opened, from the workspace shown then.
pub(crate) fn tool_call(row: Row, call: CallRow) -> AnyView {
    let viewer = use_viewer();
    let outcome_badge = call.outcome.badge().map(|text| {
        let class = match call.outcome {
            Outcome::Error => "cctv-badge cctv-badge--error",
            _ => "cctv-badge cctv-badge--warn",
        };
        (text, class)
    });
    let hooks = call.hooks;
    let header = view! {
        <span class="cctv-tool__name">{call.name.clone()}</span>
        {call.server.clone().map(|s| view! { <span class="cctv-badge">{format!("MCP {s}")}</span> })}
        // <bdi>: a path or command is transcript text, and must not reorder what follows it.
        <bdi class="cctv-tool__target">{call.target.clone()}</bdi>
        {call.detail.clone().map(|d| view! { <span class="cctv-tool__detail">{d}</span> })}
        {(hooks > 0).then(|| view! { <span class="cctv-badge">{format!("{hooks} hook{}", if hooks == 1 { "" } else { "s" })}</span> })}
        {outcome_badge.map(|(text, class)| view! { <span class=class>{text}</span> })}
    }
    .into_any();
    let key = PanelKey::new(row, Part::Body);
    let agent_toggles = call.agents.clone().into_iter().map(agent_button).collect_view();
    let body = move || {
        let Some(ws) = viewer.workspace.get_untracked() else { return ().into_any() };
        let panel = call.panel(&ws);
        view! {
            {panel.notice.map(|n| view! {
                <div class="cctv-notice">
                    <span class="cctv-badge cctv-badge--warn">{n.headline}</span>
                    {n.feedback.map(|f| view! { <span class="cctv-notice__feedback">{format!("The person said: “{f}”")}</span> })}
                </div>
            })}
            {panel.saved.map(|s| view! {
                <div class="cctv-notice">
                    <span class="cctv-badge">{s.headline}</span>
                    <span class="cctv-notice__feedback">{s.detail}</span>
                </div>
            })}
            {panel.pre.into_iter().map(hook).collect_view()}
            {tool_body(row, panel.body)}
            {panel.post.into_iter().map(hook).collect_view()}
            {panel.progress.map(progress)}
        }
        .into_any()
    };
    view! {
        <div class="cctv-tool">
            {panel(key, "cctv-tool__panel", header, body)}
            {agent_toggles}
        </div>
    }
    .into_any()
}

/// "Show the sub-agent's conversation": puts its rows under this call.
fn agent_button(agent: AgentSummary) -> AnyView {
    let viewer = use_viewer();
    let index = agent.agent;
    let open = move || viewer.choices.with(|c| c.open_agents.contains(&index));
    let link = agent.link.map(|l| {
        let href = format!("#{l}");
        view! { <a class="cctv-agent-link" href=href title="link to this sub-agent's conversation">"link"</a> }
    });
    view! {
        <button
            class={move || if open() { "cctv-agent-toggle cctv-agent-toggle--open" } else { "cctv-agent-toggle" }}
            on:click=move |_| viewer.choices.update(|c| {
                if !c.open_agents.remove(&index) {
                    c.open_agents.insert(index);
                }
            })
            disabled=agent.items == 0
        >
            {move || if open() { "Hide sub-agent conversation" } else { "Show sub-agent conversation" }}
            <span class="cctv-muted">
                " ("<bdi>{agent.agent_type}</bdi>
                {agent.task.map(|t| view! { " · "<bdi>{t}</bdi> })}
                {format!(" · {})", agent.counts)}
            </span>
        </button>
        {link}
    }
    .into_any()
}

fn tool_body(row: Row, body: ToolBody) -> AnyView {
    match body {
        ToolBody::Bash(b) => bash::view(b),
        ToolBody::Background(b) => background::view(b),
        ToolBody::Edit(b) => edit::view(b),
        ToolBody::Read(b) => read::view(b),
        ToolBody::Search(b) => search::view(b),
        ToolBody::WebSearch(b) => web::search(b),
        ToolBody::WebFetch(b) => web::fetch(b),
        ToolBody::Todo(b) => todo::view(b),
        ToolBody::Tasks(b) => tasks::view(b),
        ToolBody::Agent(b) => agent::view(row, b),
        ToolBody::Ask(b) => ask::ask(b),
        ToolBody::Plan(b) => ask::plan(b),
        ToolBody::Skill(b) => skill::view(b),
        ToolBody::Message(b) => team::view(b),
        ToolBody::Team(b) => team::team(b),
        ToolBody::Schedule(b) => schedule::view(b),
        ToolBody::Lsp(b) => lsp::view(b),
        ToolBody::ToolSearch(b) => tool_search::view(b),
        ToolBody::Batch(b) => batch::view(b),
        ToolBody::Workflow(b) => workflow::view(b),
        ToolBody::Mcp(b) => mcp::view(b),
        ToolBody::Worktree(b)
        | ToolBody::Notify(b)
        | ToolBody::Proposal(b)
        | ToolBody::Report(b)
        | ToolBody::McpResources(b)
        | ToolBody::Artifact(b)
        | ToolBody::Cloud(b)
        | ToolBody::App(b) => facts::view(b),
        ToolBody::Generic { input, output } => generic::view(&input, &output),
    }
}

/// What the tool told the model, or a note that nothing came back.
pub(crate) fn output(output: &Output) -> AnyView {
    match output {
        Output::Result { content, is_error } => result_content(content, *is_error),
        Output::Missing => view! {
            <div class="cctv-missing">
                "No result in the transcript: the session ended or was interrupted before this call returned."
            </div>
        }
        .into_any(),
    }
}
