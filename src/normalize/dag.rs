//! The `parentUuid` graph of one conversation: which lines are the main line, which are
//! alternative branches, which are replays.
//!
//! Claude Code resumes from the latest leaf and walks its parents, so the main line is that
//! chain. Real files fork for two different reasons, and only one of them is a branch:
//! - structure: a `tool_result` hangs off the assistant block that made the call while the
//!   next block continues the chain, and progress and hook lines hang off whatever preceded
//!   them. These side nodes are dead ends without a user prompt in them.
//! - rewind or edit: the user went back and wrote a new prompt; the old continuation is a
//!   subtree with a user prompt and an answer to it. That is an alternative branch.
//!
//! Everything not in an alternative branch reads in file order, which is the order it happened.

use std::collections::hash_map::Entry;

use super::fxhash::FxMap;
use super::pace::Pace;

use crate::model::{Content, EntryKind, Line};

/// Where each line of a conversation goes.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    /// Line indices on the main line, in file order.
    pub main: Vec<u32>,
    /// Alternative continuations: the line they fork from, and their lines in file order.
    pub branches: Vec<(Option<u32>, Vec<u32>)>,
    /// Lines whose uuid an earlier line already had (replayed on resume).
    pub duplicates: Vec<u32>,
}

/// Plans the conversation made of `lines` (indices into `all`, in file order).
/// Pauses where `pace` says: a GB session's main line is a million lines.
pub async fn plan(all: &[Line], src: &[u8], lines: &[u32], pace: &mut Pace<'_>) -> Plan {
    let mut plan = Plan::default();
    // Nodes are the lines with a uuid, first occurrence wins.
    let mut node_of: FxMap<&[u8], usize> = FxMap::with_capacity_and_hasher(lines.len(), Default::default());
    let mut nodes: Vec<u32> = Vec::with_capacity(lines.len());
    let mut node_at: Vec<Option<usize>> = vec![None; lines.len()];
    let mut duplicate = vec![false; lines.len()];
    for (position, &index) in lines.iter().enumerate() {
        pace.step().await;
        let Some(uuid) = all[index as usize].entry().and_then(|e| e.envelope.uuid) else { continue };
        match node_of.entry(uuid.key(src)) {
            Entry::Occupied(_) => {
                plan.duplicates.push(index);
                duplicate[position] = true;
            }
            Entry::Vacant(slot) => {
                slot.insert(nodes.len());
                node_at[position] = Some(nodes.len());
                nodes.push(index);
            }
        }
    }
    let parents = parents(all, src, &nodes, &node_of, pace).await;
    let Some(leaf) =
        (0..nodes.len()).rev().find(|&n| is_message(&all[nodes[n] as usize])).or(nodes.len().checked_sub(1))
    else {
        plan.main = lines.iter().zip(&duplicate).filter(|(_, &d)| !d).map(|(&i, _)| i).collect();
        return plan;
    };

    let mut on_chain = vec![false; nodes.len()];
    let mut cursor = Some(leaf);
    while let Some(n) = cursor {
        pace.step().await;
        on_chain[n] = true;
        cursor = parents[n];
    }

    // For each node off the chain, the top of its off-chain subtree.
    let mut top: Vec<Option<usize>> = vec![None; nodes.len()];
    // One path buffer for all walks: a vector per node was most of plan's allocations.
    let mut path = Vec::new();
    for start in 0..nodes.len() {
        pace.step().await;
        if on_chain[start] || top[start].is_some() {
            continue;
        }
        path.clear();
        let mut n = start;
        let found = loop {
            if let Some(t) = top[n] {
                break t;
            }
            path.push(n);
            match parents[n] {
                Some(p) if !on_chain[p] => n = p,
                _ => break n,
            }
        };
        for &n in &path {
            top[n] = Some(found);
        }
    }
    // A subtree is an alternative when a conversation happened in it (a prompt and an answer)
    // and it forks off the chain. Local commands (`/doctor`, `/mcp`) hang off one shared line
    // without an answer; they and separate roots (continuations, orphans) are read in place.
    let mut has_prompt = vec![false; nodes.len()];
    let mut has_answer = vec![false; nodes.len()];
    for n in 0..nodes.len() {
        pace.step().await;
        if let Some(t) = top[n] {
            let line = &all[nodes[n] as usize];
            has_prompt[t] |= is_prompt(line);
            has_answer[t] |= matches!(line.entry().map(|e| &e.kind), Some(EntryKind::Assistant(_)));
        }
    }
    let branch_of = |n: usize| top[n].filter(|&t| has_prompt[t] && has_answer[t] && parents[t].is_some());

    let mut branch_index: FxMap<usize, usize> = FxMap::default();
    for (position, &index) in lines.iter().enumerate() {
        pace.step().await;
        let branch = node_at[position].and_then(branch_of);
        match branch {
            Some(t) => {
                let b = *branch_index.entry(t).or_insert_with(|| {
                    plan.branches.push((parents[t].map(|p| nodes[p]), Vec::new()));
                    plan.branches.len() - 1
                });
                plan.branches[b].1.push(index);
            }
            None if duplicate[position] => {}
            None => plan.main.push(index),
        }
    }
    plan
}

/// Each node's parent: `parentUuid`, or across a compaction `logicalParentUuid`; cycles cut.
async fn parents(
    all: &[Line],
    src: &[u8],
    nodes: &[u32],
    node_of: &FxMap<&[u8], usize>,
    pace: &mut Pace<'_>,
) -> Vec<Option<usize>> {
    let uuid = |n: usize| all[nodes[n] as usize].entry().and_then(|e| e.envelope.uuid).map(|u| u.key(src));
    let parent = |n: usize| {
        let envelope = &all[nodes[n] as usize].entry()?.envelope;
        let find = |id: Option<crate::model::JsonStr>| {
            let id = id?.key(src);
            // Almost every line's parent is the line before it: comparing with that line's
            // uuid, which was just read, saves a hash lookup into a map of every line.
            if n > 0 && uuid(n - 1) == Some(id) {
                return Some(n - 1);
            }
            node_of.get(id).copied()
        };
        find(envelope.parent_uuid).or_else(|| find(envelope.logical_parent_uuid))
    };
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(nodes.len());
    for n in 0..nodes.len() {
        pace.step().await;
        parents.push(parent(n));
    }
    // Hostile files can close a loop; walk each chain once and cut where it comes back.
    const NEW: u8 = 0;
    const WALKING: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; nodes.len()];
    let mut path = Vec::new();
    for start in 0..nodes.len() {
        pace.step().await;
        path.clear();
        let mut n = start;
        loop {
            match state[n] {
                DONE => break,
                WALKING => {
                    // n's parent link closes a cycle: n becomes a root.
                    let last = *path.last().expect("walking nodes are on the path");
                    parents[last] = None;
                    break;
                }
                _ => {}
            }
            state[n] = WALKING;
            path.push(n);
            match parents[n] {
                Some(p) => n = p,
                None => break,
            }
        }
        for &n in &path {
            state[n] = DONE;
        }
    }
    parents
}

fn is_message(line: &Line) -> bool {
    matches!(line.entry().map(|e| &e.kind), Some(EntryKind::User(_) | EntryKind::Assistant(_)))
}

/// A message the user typed: a user line that is not only tool results and not injected.
pub(crate) fn is_prompt(line: &Line) -> bool {
    let Some(entry) = line.entry() else { return false };
    let EntryKind::User(user) = &entry.kind else { return false };
    if entry.envelope.is_meta {
        return false;
    }
    match &user.message.content {
        Content::Text(_) => true,
        Content::Blocks(blocks) => {
            blocks.iter().any(|b| !matches!(b.kind, crate::model::BlockKind::ToolResult(_)))
        }
        Content::Missing => false,
    }
}
