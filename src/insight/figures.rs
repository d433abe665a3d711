//! Everything the Overview shows of one session, worked out at once: the engine computes it off
//! the page and sends it whole (a few hundred kB for a session of GBs), and the page only draws
//! it. The files changed are asked for apart ([`changes`]), as are the changes of one turn and a
//! file as it was after a turn ([`file_after`]): replaying the edits is half the figures' time,
//! so the rest is drawn while it runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::changes::{self, turn_choices, FileChange, TurnChoice};
use super::cost::{session_cost, turn_costs, Total};
use super::overview::{context, tools, Context, ContextPoint, ToolTotal};
use super::timeline::{self, timeline, Timeline};
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
        tools: tools(ws, s),
    })
}

/// One of the Overview's long lists (the figures' and the files changed), or a stretch of it. The
/// engine sends these apart from the rest, in pieces the page reads one at a time: the figures of
/// a GB session are 16 MB of JSON, which took the page 77 ms to read in one task (146 ms at 2 GB).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Part {
    Agents(Vec<AgentCost>),
    Turns(Vec<TurnChoice>),
    TurnCosts(Vec<Total>),
    Points(Vec<ContextPoint>),
    Spans(Vec<timeline::Span>),
    Prompts(Vec<(i64, u32)>),
    Pieces(Vec<(i64, i64)>),
    Changes(Vec<FileChange>),
}

impl Figures {
    /// Takes the long lists out, leaving what is left small.
    pub fn take_parts(&mut self) -> Vec<Part> {
        vec![
            Part::Agents(std::mem::take(&mut self.agents)),
            Part::Turns(std::mem::take(&mut self.turns)),
            Part::TurnCosts(std::mem::take(&mut self.turn_costs)),
            Part::Points(std::mem::take(&mut self.context.points)),
            Part::Spans(std::mem::take(&mut self.timeline.spans)),
            Part::Prompts(std::mem::take(&mut self.timeline.prompts)),
            Part::Pieces(std::mem::take(&mut self.timeline.pieces)),
        ]
    }

    /// Adds `part` at the end of its list: the parts put back in the order they were taken
    /// (stretches in order) give the figures they were taken from. The files changed are not
    /// one of them.
    pub fn put(&mut self, part: Part) -> Result<(), String> {
        match part {
            Part::Agents(more) => self.agents.extend(more),
            Part::Turns(more) => self.turns.extend(more),
            Part::TurnCosts(more) => self.turn_costs.extend(more),
            Part::Points(more) => self.context.points.extend(more),
            Part::Spans(more) => self.timeline.spans.extend(more),
            Part::Prompts(more) => self.timeline.prompts.extend(more),
            Part::Pieces(more) => self.timeline.pieces.extend(more),
            Part::Changes(_) => return Err("the files changed came with the figures".into()),
        }
        Ok(())
    }
}

impl Part {
    /// The part as the JSON of parts of about `budget` bytes each (a stretch of its list each; one
    /// element larger than `budget` is a part of its own).
    pub fn to_json(&self, budget: usize) -> Vec<Vec<u8>> {
        match self {
            Part::Agents(list) => stretches("Agents", list, budget),
            Part::Turns(list) => stretches("Turns", list, budget),
            Part::TurnCosts(list) => stretches("TurnCosts", list, budget),
            Part::Points(list) => stretches("Points", list, budget),
            Part::Spans(list) => stretches("Spans", list, budget),
            Part::Prompts(list) => stretches("Prompts", list, budget),
            Part::Pieces(list) => stretches("Pieces", list, budget),
            Part::Changes(list) => stretches("Changes", list, budget),
        }
    }
}

/// `list` as the JSON of `Part::<name>`s of about `budget` bytes each, written an element at a
/// time so that nothing is serialized twice.
fn stretches<T: Serialize>(name: &str, list: &[T], budget: usize) -> Vec<Vec<u8>> {
    let open = format!("{{\"{name}\":[");
    let mut out = Vec::new();
    let mut piece = open.clone().into_bytes();
    for (n, element) in list.iter().enumerate() {
        if piece.len() > open.len() {
            piece.push(b',');
        }
        // Serializing figures (plain numbers and strings) cannot fail.
        let _ = serde_json::to_writer(&mut piece, element);
        if piece.len() >= budget || n + 1 == list.len() {
            piece.extend_from_slice(b"]}");
            out.push(std::mem::replace(&mut piece, open.clone().into_bytes()));
        }
    }
    out
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
        assert!(f.tools.iter().any(|t| t.longest.is_some()), "the longest call is kept for its link");
        // As the engine sends it (a dollar figure may come back a unit off in its last place).
        let sent = serde_json::to_string(&f).unwrap();
        let received: Figures = serde_json::from_str(&sent).unwrap();
        assert_eq!((received.turns, received.timeline), (f.turns.clone(), f.timeline.clone()));
        assert!((received.total.dollars - f.total.dollars).abs() < 1e-9);
        assert_eq!(figures(&ws, 7), None);
    }

    #[test]
    fn figures_sent_in_parts_of_a_budget_come_back_whole() {
        let ws = fixtures::workspace(PLANETFALL);
        let whole = figures(&ws, 0).expect("the session");
        for budget in [1, 300, 4096, usize::MAX] {
            let mut head = whole.clone();
            let parts: Vec<Vec<u8>> = head.take_parts().iter().flat_map(|p| p.to_json(budget)).collect();
            let mut received: Figures = serde_json::from_slice(&serde_json::to_vec(&head).unwrap()).unwrap();
            assert!(received.turns.is_empty() && received.timeline.spans.is_empty(), "the lists go apart");
            for part in &parts {
                // A part goes over its budget by its last element only (and its closing `]}`).
                let mut value: serde_json::Value = serde_json::from_slice(part).unwrap();
                let list = value.as_object_mut().and_then(|o| o.values_mut().next()).unwrap();
                list.as_array_mut().unwrap().pop();
                assert!(
                    serde_json::to_vec(&value).unwrap().len() < budget.max(32).saturating_add(2),
                    "{budget}"
                );
                received.put(serde_json::from_slice(part).unwrap()).unwrap();
            }
            // Both once through JSON (a dollar figure may come back a unit off in its last place).
            let sent_whole: Figures = serde_json::from_slice(&serde_json::to_vec(&whole).unwrap()).unwrap();
            assert_eq!(received, sent_whole, "{budget}");
            let elements = [
                whole.agents.len(),
                whole.turns.len(),
                whole.turn_costs.len(),
                whole.context.points.len(),
                whole.timeline.spans.len(),
                whole.timeline.prompts.len(),
                whole.timeline.pieces.len(),
            ];
            let lists = elements.iter().filter(|&&n| n > 0).count();
            match budget {
                1 => assert_eq!(parts.len(), elements.iter().sum::<usize>(), "a part per element"),
                usize::MAX => assert_eq!(parts.len(), lists, "a part per list"),
                _ => assert!(parts.len() > lists && parts.len() < elements.iter().sum(), "{budget}"),
            }
        }
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
