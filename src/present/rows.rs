//! The rows of the conversation view: a session's threads flattened into one list, so one
//! virtualized list can show it. Opening a sub-agent's call puts the agent's rows right under it,
//! one level deeper; choosing a branch shows it in place of what followed its fork point. A
//! session that begins with a copy of another's lines shows the copy as one row, until asked.

use std::collections::HashSet;

pub use crate::normalize::ThreadRef;
use crate::normalize::{AgentLink, ItemRef, LineRef, Session};

/// One row: an item of a thread, at a nesting depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    pub thread: ThreadRef,
    pub item: u32,
    pub depth: u16,
    /// Non-zero for the one row that stands for the first `copied` items of the main line, which
    /// are a copy of another session (`about.continued_from`); `item` is then the first of them.
    pub copied: u32,
}

impl Row {
    /// The item the row shows.
    pub fn at(&self) -> ItemRef {
        ItemRef::new(self.thread, self.item)
    }

    pub fn new(thread: ThreadRef, item: u32, depth: u16) -> Row {
        Row { thread, item, depth, copied: 0 }
    }
}

/// What the reader has chosen to see.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    /// Agents whose conversation is shown under their call.
    pub open_agents: HashSet<u32>,
    /// The branch shown instead of the main continuation after its fork point.
    pub branch: Option<u32>,
    /// Show the lines copied from another session row by row, instead of as one row.
    pub show_copied: bool,
}

/// The rows to show, and for each item that passes `keep`.
pub fn rows(session: &Session, choices: &Choices, keep: &dyn Fn(ItemRef) -> bool) -> Vec<Row> {
    let mut out = Vec::new();
    let main = &session.thread;
    let copied = match choices.show_copied {
        true => 0,
        false => main.items.iter().take_while(|item| session.is_copied(item.line)).count(),
    };
    if copied > 0 && (0..copied).any(|i| keep(ItemRef::new(ThreadRef::Main, i as u32))) {
        out.push(Row { copied: copied as u32, ..Row::new(ThreadRef::Main, 0, 0) });
    }
    let fork = choices.branch.and_then(|b| {
        let branch = session.branches.get(b as usize)?;
        Some((b, branch.fork_point))
    });
    match fork {
        Some((b, fork_point)) => {
            // The main line up to the fork point, then the branch.
            let cut = match fork_point {
                Some(line) => main.items.iter().rposition(|i| i.line == line).map_or(0, |p| p + 1),
                None => 0,
            };
            push_thread(session, ThreadRef::Main, copied.min(cut)..cut, 0, choices, keep, &mut out);
            let len = session.branches[b as usize].thread.items.len();
            push_thread(session, ThreadRef::Branch(b), 0..len, 0, choices, keep, &mut out);
        }
        None => push_thread(session, ThreadRef::Main, copied..main.items.len(), 0, choices, keep, &mut out),
    }
    // Agents no call is known to have spawned are listed at the end, so none is lost: with no
    // call to open them under, they are always open. So is an agent linked to a place inside
    // itself (its own thread or one of its agents'), one for each such loop: no walk from the
    // main line reaches it. (An agent under an orphan is reached through it, and not listed.)
    let parents = session.agent_parents();
    for (index, agent) in session.agents.iter().enumerate() {
        if agent.link == AgentLink::Orphan || session.heads_loop(&parents, index as u32) {
            let len = agent.thread.items.len();
            push_thread(session, ThreadRef::Agent(index as u32), 0..len, 1, choices, keep, &mut out);
        }
    }
    out
}

/// The rows of `range` of `thread`, and of the open agents its calls spawned, one level deeper.
fn push_thread(
    session: &Session,
    thread: ThreadRef,
    range: std::ops::Range<usize>,
    depth: u16,
    choices: &Choices,
    keep: &dyn Fn(ItemRef) -> bool,
    out: &mut Vec<Row>,
) {
    let open = |agent| choices.open_agents.contains(&agent);
    session.walk(thread, range, depth, &open, &mut |at, _, depth| {
        if keep(at) {
            out.push(Row::new(at.thread, at.item, depth));
        }
    });
}

/// The agents to open so that an item of `target` shows: its agent, its agent's parent, and so
/// on up to the main line or a branch (returned too, if the item is in one).
pub fn path_to(session: &Session, target: ThreadRef) -> (Vec<u32>, Option<u32>) {
    match target {
        ThreadRef::Agent(agent) => match session.ancestry(&session.agent_parents(), agent) {
            (agents, Some(ItemRef { thread: ThreadRef::Branch(b), .. })) => (agents, Some(b)),
            (agents, _) => (agents, None),
        },
        ThreadRef::Branch(b) => (Vec::new(), Some(b)),
        ThreadRef::Main => (Vec::new(), None),
    }
}

/// The line a fork point item is on, for showing the branch switch there.
pub(crate) fn forks_at(session: &Session, line: LineRef) -> Vec<u32> {
    session
        .branches
        .iter()
        .enumerate()
        .filter(|(_, b)| b.fork_point == Some(line))
        .map(|(i, _)| i as u32)
        .collect()
}
