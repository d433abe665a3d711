//! What a sub-agent is and where it was born, in words: a task's agent, a fork, a side question,
//! a team member; the call or the line that started it, or, when none is loaded, that its parent
//! is not loaded (an orphan says so, and which kind it is).

use crate::normalize::{AgentKind, AgentLink, LinkEvidence, Session, Workspace};
use crate::text::format::isolate;

#[derive(Clone, Debug, PartialEq)]
pub struct AgentLabel {
    /// What it is, in the page's words: `sub-agent`, `fork of the conversation`, `side question`,
    /// `team member`.
    pub kind: &'static str,
    /// A team member's name in its team, or the name any other agent was given: transcript text.
    pub name: Option<String>,
    /// Where it was born (`forked after line 12`), or that its parent is not loaded: the page's
    /// words, with any transcript text in them isolated ([`isolate`]).
    pub origin: String,
    /// No call or line it was born at is loaded.
    pub orphan: bool,
}

impl AgentLabel {
    /// `team member alice`: its kind and name, the name isolated, for text without elements.
    pub fn what(&self) -> String {
        match &self.name {
            Some(name) => format!("{} {}", self.kind, isolate(name)),
            None => self.kind.to_owned(),
        }
    }

    /// `team member alice · started by the call at line 9`.
    pub fn in_words(&self) -> String {
        format!("{} · {}", self.what(), self.origin)
    }
}

/// Agent `agent` of `session`, labelled.
pub fn label(ws: &Workspace, session: &Session, agent: u32) -> Option<AgentLabel> {
    let a = session.agents.get(agent as usize)?;
    let (kind, name) = match &a.kind {
        AgentKind::Task => ("sub-agent", a.name.clone()),
        AgentKind::Fork => ("fork of the conversation", None),
        AgentKind::SideQuestion => ("side question", None),
        AgentKind::TeamMember { name, .. } => ("team member", name.clone()),
    };
    let line_number = |line| ws.line(line).number;
    // Whether the conversation that would hold the parent is loaded at all: with it loaded, a
    // parent not found is not among its lines; without it, it is not loaded.
    let missing = match session.file {
        Some(_) => "is not among the loaded lines",
        None => "is not loaded",
    };
    // Linked to a place inside itself (a damaged or hand-made folder): nothing above it is
    // shown, so it is listed with the orphans and said as one ([`super::rows::rows`]).
    let orphan = a.link == AgentLink::Orphan || session.heads_loop(&session.agent_parents(), agent);
    let link = if orphan { AgentLink::Orphan } else { a.link };
    let origin = match link {
        AgentLink::ToolCall { line, how: LinkEvidence::TeamCreate } => {
            format!("started with its team by the call at line {}", line_number(line))
        }
        AgentLink::ToolCall { line, .. } => format!("started by the call at line {}", line_number(line)),
        AgentLink::At { line, how: LinkEvidence::ForkContextRef } => {
            format!("forked after line {}", line_number(line))
        }
        AgentLink::At { line, how: LinkEvidence::SideQuestionTurn } => {
            format!("asked in the turn of the prompt at line {}", line_number(line))
        }
        AgentLink::At { line, .. } => format!("born at line {}", line_number(line)),
        AgentLink::Orphan => match (&a.kind, &a.parent_agent) {
            (AgentKind::Fork, _) => match &a.parent_session {
                Some(id) if session.session_id.as_deref() != Some(id.as_str()) => {
                    format!("the conversation it forked from (session {}) is not loaded", isolate(id))
                }
                _ => format!("the line it forked after {missing}"),
            },
            (AgentKind::SideQuestion, _) => format!("the conversation it was asked in {missing}"),
            (_, Some(parent))
                if !session.agents.iter().any(|p| p.agent_id.as_deref() == Some(parent.as_str())) =>
            {
                format!("the agent that started it ({}) is not loaded", isolate(parent))
            }
            (AgentKind::TeamMember { team: Some(team), .. }, _) => {
                format!("the call or the team ({}) that started it {missing}", isolate(team))
            }
            _ => format!("the call that started it {missing}"),
        },
    };
    Some(AgentLabel { kind, name, origin, orphan })
}
