//! The tree of sub-agents under a session's calls: which call spawned each agent (or at which
//! item a fork or a side question was born, [`Session::born`]), and a walk over a thread in
//! reading order that goes into the agents its items started. A damaged file can
//! make an agent its own ancestor; every walk here takes each agent at most once on a path.

use std::collections::HashSet;
use std::ops::Range;

use super::view::{Item, ItemKind, ItemRef, Session, ThreadRef};

impl Session {
    /// Where each agent was born, as (thread, item), by agent index: its spawning call, or the
    /// item a fork or a side question was born at.
    pub fn agent_parents(&self) -> Vec<Option<ItemRef>> {
        let mut parents = vec![None; self.agents.len()];
        for (t, thread) in self.threads() {
            for (index, item) in thread.items.iter().enumerate() {
                if let ItemKind::ToolCall(call) = &item.kind {
                    for &agent in &call.agents {
                        parents[agent as usize] = Some(ItemRef::new(t, index as u32));
                    }
                }
            }
        }
        for &(at, agent) in &self.born {
            if let Some(parent) = parents.get_mut(agent as usize) {
                *parent = Some(at);
            }
        }
        parents
    }

    /// The agents born at item `at` that its call (if it is one) did not spawn: forks and side
    /// questions.
    pub fn born_at(&self, at: ItemRef) -> impl Iterator<Item = u32> + '_ {
        let from = self.born.partition_point(|(item, _)| *item < at);
        self.born[from..].iter().take_while(move |(item, _)| *item == at).map(|&(_, agent)| agent)
    }

    /// The agents from `agent` up to the main line or a branch, `agent` first, and the thread
    /// the topmost one's call is in (`None` for an agent no call is known to have spawned).
    pub fn ancestry(&self, parents: &[Option<ItemRef>], agent: u32) -> (Vec<u32>, Option<ItemRef>) {
        let mut agents = vec![agent];
        let mut at = parents.get(agent as usize).copied().flatten();
        while let Some(ItemRef { thread: ThreadRef::Agent(a), .. }) = at {
            if agents.contains(&a) {
                return (agents, None);
            }
            agents.push(a);
            at = parents.get(a as usize).copied().flatten();
        }
        (agents, at)
    }

    /// Whether `agent` stands for a loop of agents each linked inside the next (or itself, in
    /// its own thread): no walk from the main line or a branch reaches them, and no orphan
    /// either. One agent of each loop stands for it, the lowest: listed with the orphans, the
    /// rest of the loop shows under it. An agent hung below a loop is not in it.
    pub fn heads_loop(&self, parents: &[Option<ItemRef>], agent: u32) -> bool {
        let (agents, at) = self.ancestry(parents, agent);
        if at.is_some() {
            return false;
        }
        // The topmost agent's parent is the agent the chain came back to, if it went round.
        let Some(&last) = agents.last() else { return false };
        let Some(ItemRef { thread: ThreadRef::Agent(back), .. }) =
            parents.get(last as usize).copied().flatten()
        else {
            return false;
        };
        let Some(from) = agents.iter().position(|&a| a == back) else { return false };
        agents[from..].iter().min() == Some(&agent)
    }

    /// Walks `range` of `thread` in reading order, depth first: `visit(at, item, depth)`
    /// for each item, and, after a call, the whole of each agent it spawned that `enter` lets in,
    /// one level deeper.
    pub fn walk(
        &self,
        thread: ThreadRef,
        range: Range<usize>,
        depth: u16,
        enter: &dyn Fn(u32) -> bool,
        visit: &mut dyn FnMut(ItemRef, &Item, u16),
    ) {
        Walk { session: self, enter, visit, visiting: HashSet::new() }.thread(thread, range, depth);
    }
}

/// A walk under way: what it asks of each agent and each item, and the agents on the path to
/// where it is.
struct Walk<'s, 'f> {
    session: &'s Session,
    enter: &'f dyn Fn(u32) -> bool,
    visit: &'f mut dyn FnMut(ItemRef, &Item, u16),
    visiting: HashSet<u32>,
}

impl Walk<'_, '_> {
    fn thread(&mut self, thread: ThreadRef, range: Range<usize>, depth: u16) {
        let session = self.session;
        let items = &session.thread(thread).items;
        for index in range {
            let Some(item) = items.get(index) else { break };
            let at = ItemRef::new(thread, index as u32);
            (self.visit)(at, item, depth);
            let called = match &item.kind {
                ItemKind::ToolCall(call) => &call.agents[..],
                _ => &[],
            };
            for agent in called.iter().copied().chain(session.born_at(at)) {
                let Some(a) = session.agents.get(agent as usize) else { continue };
                if (self.enter)(agent) && self.visiting.insert(agent) {
                    self.thread(ThreadRef::Agent(agent), 0..a.thread.items.len(), depth + 1);
                    self.visiting.remove(&agent);
                }
            }
        }
    }
}
