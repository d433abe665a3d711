//! Everything the Overview shows of one session, worked out at once: the engine computes it off
//! the page and sends it whole (a few hundred kB for a session of GBs), and the page only draws
//! it. What the reader can ask for later (the changes of one turn, a file as it was after a turn)
//! is asked for then ([`changes`], [`file_after`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::changes::{self, turn_choices, FileChange, TurnChoice};
use super::cost::{session_cost, turn_costs, Total};
use super::overview::{context, tools, Context, ToolTotal};
use super::timeline::{timeline, Timeline};
use crate::normalize::{ItemRef, Workspace};
use crate::present::link::{agent_link, resolve};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The main conversation and every sub-agent.
    pub total: Total,
    /// The main conversation alone.
    pub main: Total,
    pub by_model: BTreeMap<String, Total>,
    pub agents: Vec<AgentCost>,
    /// The session's turns, and what each cost.
    pub turns: Vec<TurnChoice>,
    pub turn_costs: Vec<Total>,
    /// What the sub-agents no call of the main conversation leads to cost, if anything.
    pub unattributed: Option<Total>,
    pub context: Context,
    pub timeline: Timeline,
    /// The files the whole session changed.
    pub changes: Vec<FileChange>,
    pub tools: Vec<ToolTotal>,
}

/// A sub-agent's line of the cost: its name, its total, and where its conversation begins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentCost {
    pub name: String,
    pub total: Total,
    pub place: Option<ItemRef>,
}

/// The figures of session `session` of `ws`; `None` when there is no such session.
pub fn figures(ws: &Workspace, session: usize) -> Option<Figures> {
    let s = ws.sessions.get(session)?;
    let cost = session_cost(ws, s);
    let agents = s
        .agents
        .iter()
        .enumerate()
        .zip(&cost.agents)
        .map(|((i, agent), total)| {
            let name = agent.description.clone().or(agent.agent_type.clone()).or(agent.agent_id.clone());
            let place = agent_link(ws, s, i as u32)
                .and_then(|l| resolve(ws, &l))
                .map(|p| ItemRef::new(p.thread, p.first));
            AgentCost {
                name: name.unwrap_or_else(|| format!("sub-agent {}", i + 1)),
                total: total.clone(),
                place,
            }
        })
        .collect();
    let turns = turn_choices(ws, s);
    let ranges: Vec<_> = turns.iter().map(|t| t.items.clone()).collect();
    let mut turn_costs = turn_costs(ws, s, &cost, &ranges);
    // The last is the sub-agents no call leads to.
    let unattributed = turn_costs.pop().filter(|t| t.responses > 0);
    Some(Figures {
        total: cost.total,
        main: cost.main,
        by_model: cost.by_model,
        agents,
        turns,
        turn_costs,
        unattributed,
        context: context(ws, s),
        timeline: timeline(ws, s),
        changes: changes::changes(ws, s, None),
        tools: tools(ws, s),
    })
}

/// The files turn `turn` of session `session` changed (the whole session's when `None`).
pub fn changes(ws: &Workspace, session: usize, turn: Option<usize>) -> Vec<FileChange> {
    let Some(s) = ws.sessions.get(session) else { return Vec::new() };
    let range = match turn {
        Some(turn) => match turn_choices(ws, s).get(turn) {
            Some(t) => Some(t.items.clone()),
            None => return Vec::new(),
        },
        None => None,
    };
    changes::changes(ws, s, range)
}

/// File `path` as it was after turn `turn` of session `session`, when cctv knows it.
pub fn file_after(ws: &Workspace, session: usize, path: &str, turn: usize) -> Option<String> {
    let s = ws.sessions.get(session)?;
    let end = turn_choices(ws, s).get(turn)?.items.end;
    changes::file_after(ws, s, path, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    const PLANETFALL: &str = "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl";

    #[test]
    fn the_figures_of_a_real_session_say_what_each_analysis_says_and_survive_the_trip_to_the_page() {
        let ws = fixtures::workspace(PLANETFALL);
        let s = &ws.sessions[0];
        let f = figures(&ws, 0).expect("the session");
        let cost = session_cost(&ws, s);
        assert_eq!((f.total.clone(), f.main.clone()), (cost.total, cost.main));
        assert_eq!(f.turns, turn_choices(&ws, s));
        assert_eq!(f.turn_costs.len(), f.turns.len());
        assert_eq!(f.timeline, timeline(&ws, s));
        assert_eq!(f.tools, tools(&ws, s));
        assert!(!f.changes.is_empty(), "the session edits files");
        assert!(f.tools.iter().any(|t| t.longest.is_some()), "the longest call is kept for its link");
        // As the engine sends it (a dollar figure may come back a unit off in its last place).
        let sent = serde_json::to_string(&f).unwrap();
        let received: Figures = serde_json::from_str(&sent).unwrap();
        assert_eq!(
            (received.turns, received.timeline, received.changes),
            (f.turns.clone(), f.timeline.clone(), f.changes.clone())
        );
        assert!((received.total.dollars - f.total.dollars).abs() < 1e-9);
        assert_eq!(figures(&ws, 7), None);
    }

    #[test]
    fn a_turns_changes_and_a_file_after_it_are_those_of_its_rows() {
        let ws = fixtures::workspace(PLANETFALL);
        let s = &ws.sessions[0];
        let turns = turn_choices(&ws, s);
        let (at, turn) = turns
            .iter()
            .enumerate()
            .find(|(_, t)| !changes::changes(&ws, s, Some(t.items.clone())).is_empty())
            .expect("a turn that changes a file");
        let changed = changes(&ws, 0, Some(at));
        assert_eq!(changed, changes::changes(&ws, s, Some(turn.items.clone())));
        let path = &changed[0].path;
        assert_eq!(file_after(&ws, 0, path, at), changes::file_after(&ws, s, path, turn.items.end));
        assert_eq!(changes(&ws, 0, Some(turns.len())), Vec::new(), "no such turn");
    }
}
