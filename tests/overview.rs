//! A session at a glance, on a real fixture: the context per response with its compaction, and
//! each tool's calls, errors and time.

mod common;

use cctv::insight::overview::{context, tools};
use cctv::normalize::{normalize, ItemRef};

#[test]
fn the_context_grows_until_the_compaction_and_falls_after_it() {
    let ws = normalize(vec![common::input(
        "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl",
    )]);
    let s = &ws.sessions[0];
    let c = context(&ws, s);
    assert_eq!(c.points.len(), 171, "one point per response");
    // Its prompts went past 200K tokens (Opus 4.8, with the 1M window).
    let peak = c.points.iter().map(|p| p.tokens).max().unwrap();
    assert!(peak > 200_000, "{peak}");
    assert_eq!(c.limit, 1_000_000);
    let compaction = c.compactions.iter().find(|c| !c.micro).expect("the session was compacted");
    let at = compaction.after as usize;
    let (before, after) = (c.points[at - 1].tokens, c.points[at].tokens);
    assert!(after * 2 < before, "the context fell from {before} to {after} tokens");
    eprintln!("peak {peak}; compacted from {before} to {after} tokens");
    // Each point leads to the first row of its response, in order.
    assert!(c.points.windows(2).all(|w| w[0].item < w[1].item));
    assert!(c.points.iter().all(|p| s.thread.items[p.item as usize].response.is_some()));
}

#[test]
fn each_tool_has_its_calls_errors_and_time() {
    let ws = normalize(vec![common::input(
        "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl",
    )]);
    let s = &ws.sessions[0];
    let totals = tools(&ws, s);
    let calls: u64 = totals.iter().map(|t| t.calls).sum();
    assert_eq!(calls, s.stats.tool_calls.values().sum::<u64>());
    let errors: u64 = totals.iter().map(|t| t.errors).sum();
    assert_eq!(errors, s.stats.tool_errors);
    assert!(totals.windows(2).all(|w| w[0].calls >= w[1].calls), "most called first");
    let bash = totals.iter().find(|t| t.name == "Bash").expect("Bash was called");
    assert!(bash.timed > 0 && bash.longest_ms > 0 && bash.total_ms >= bash.longest_ms);
    let ItemRef { thread, item } = bash.longest.unwrap();
    assert!(s.item(thread, item).is_some());
}
