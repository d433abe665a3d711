//! The rows of the conversation view: a session's threads flattened into one list, so one
//! virtualized list can show it. Opening a sub-agent's call puts the agent's rows right under it,
//! one level deeper; choosing a branch shows it in place of what followed its fork point. A
//! session that begins with a copy of another's lines shows the copy as one row, until asked.

use std::collections::HashSet;

use crate::normalize::pace::{finish, Pace};
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
    finish(rows_paced(session, choices, keep, &mut Pace::never()))
}

/// Items of the main line (or a branch) walked between two questions to the pace: a million items
/// took 64 ms to filter and walk natively (release), more in wasm.
const ROWS_STEP: usize = 16_384;

/// [`rows`], pausing where `pace` says.
pub async fn rows_paced(
    session: &Session,
    choices: &Choices,
    keep: &dyn Fn(ItemRef) -> bool,
    pace: &mut Pace<'_>,
) -> Vec<Row> {
    rows_in_steps(session, choices, keep, ROWS_STEP, pace).await
}

/// [`rows`], asking `pace` after each `step` items of the main line.
async fn rows_in_steps(
    session: &Session,
    choices: &Choices,
    keep: &dyn Fn(ItemRef) -> bool,
    step: usize,
    pace: &mut Pace<'_>,
) -> Vec<Row> {
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
    let mut walks = Vec::new();
    match fork {
        Some((b, fork_point)) => {
            // The main line up to the fork point, then the branch.
            let cut = match fork_point {
                Some(line) => main.items.iter().rposition(|i| i.line == line).map_or(0, |p| p + 1),
                None => 0,
            };
            walks.push((ThreadRef::Main, copied.min(cut)..cut));
            let len = session.branches[b as usize].thread.items.len();
            walks.push((ThreadRef::Branch(b), 0..len));
        }
        None => walks.push((ThreadRef::Main, copied..main.items.len())),
    }
    for (thread, range) in walks {
        // A stretch at a time: a walk enters the agents of the items it is given, so stretches
        // one after the other give the rows of the whole.
        let mut start = range.start;
        while start < range.end {
            let end = (start + step).min(range.end);
            push_thread(session, thread, start..end, 0, choices, keep, &mut out);
            start = end;
            pace.long_step().await;
        }
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
            pace.step().await;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use crate::normalize::normalize;

    #[test]
    fn rows_worked_out_in_stretches_are_the_rows_of_the_whole() {
        let ws = normalize(fixtures::every_fixture());
        let mut pauses = fixtures::EveryTime(0);
        let mut rows_in_all = 0;
        for s in &ws.sessions {
            // Every agent open, and every other row kept: stretches must not lose an agent's rows
            // or the filter's choice.
            let choices = Choices { open_agents: (0..s.agents.len() as u32).collect(), ..Choices::default() };
            let keep = |at: ItemRef| at.item.is_multiple_of(2);
            let whole = rows(s, &choices, &keep);
            for step in [1, 7, 100] {
                let paced = finish(rows_in_steps(s, &choices, &keep, step, &mut Pace::with(&mut pauses)));
                assert_eq!(paced, whole);
            }
            rows_in_all += whole.len();
        }
        assert!(
            rows_in_all > 2_000 && pauses.0 as usize > rows_in_all,
            "{rows_in_all} rows, {} pauses",
            pauses.0
        );
    }
}
