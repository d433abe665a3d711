//! The tree of sub-agents under a session's calls: which call spawned each agent, and a walk
//! over a thread in reading order that goes into the agents its calls spawned. A damaged file can
//! make an agent its own ancestor; every walk here takes each agent at most once on a path.

use std::collections::HashSet;
use std::ops::Range;

use super::view::{Item, ItemKind, ItemRef, Session, ThreadRef};

impl Session {
    /// Where each agent's spawning call is, as (thread, item), by agent index.
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
        parents
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
        let mut visiting = HashSet::new();
        self.walk_within(thread, range, depth, enter, visit, &mut visiting);
    }

    fn walk_within(
        &self,
        thread: ThreadRef,
        range: Range<usize>,
        depth: u16,
        enter: &dyn Fn(u32) -> bool,
        visit: &mut dyn FnMut(ItemRef, &Item, u16),
        visiting: &mut HashSet<u32>,
    ) {
        let items = &self.thread(thread).items;
        for index in range {
            let Some(item) = items.get(index) else { break };
            visit(ItemRef::new(thread, index as u32), item, depth);
            let ItemKind::ToolCall(call) = &item.kind else { continue };
            for &agent in &call.agents {
                let Some(a) = self.agents.get(agent as usize) else { continue };
                if enter(agent) && visiting.insert(agent) {
                    let whole = 0..a.thread.items.len();
                    self.walk_within(ThreadRef::Agent(agent), whole, depth + 1, enter, visit, visiting);
                    visiting.remove(&agent);
                }
            }
        }
    }
}
