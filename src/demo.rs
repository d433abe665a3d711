//! The demo session shown on a first visit, built into the page so showing it needs no request.
//! It is laid out as Claude Code writes sessions: `<session>.jsonl` and `<session>/subagents/`
//! (`www/demo/make_demo.py` writes it).

use crate::normalize::Input;

const DEMO_SESSION: &str = "7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20";
const DEMO: &[u8] = include_bytes!("../www/demo/7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20.jsonl");
const DEMO_AGENT: &[u8] =
    include_bytes!("../www/demo/7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20/subagents/agent-d3m0a9e.jsonl");
const DEMO_AGENT_META: &[u8] =
    include_bytes!("../www/demo/7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20/subagents/agent-d3m0a9e.meta.json");

/// The demo's files, named as a folder drop would name them.
pub fn demo_inputs() -> Vec<Input> {
    let agent = |file: &str, bytes: &[u8]| Input {
        name: format!("{DEMO_SESSION}/subagents/{file}"),
        bytes: bytes.to_vec(),
    };
    vec![
        Input { name: format!("{DEMO_SESSION}.jsonl"), bytes: DEMO.to_vec() },
        agent("agent-d3m0a9e.jsonl", DEMO_AGENT),
        agent("agent-d3m0a9e.meta.json", DEMO_AGENT_META),
    ]
}
