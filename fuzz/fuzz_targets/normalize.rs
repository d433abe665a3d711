//! Any bytes, split into a session file and a sub-agent file at the first NUL: normalize never
//! panics and accounts for every line.
#![no_main]

use cctv::normalize::{self, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let (main, agent) = match bytes.iter().position(|&b| b == 0) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[][..]),
    };
    let ws = normalize::normalize(vec![
        Input { name: "s.jsonl".into(), bytes: main.to_vec() },
        Input { name: "s/subagents/agent-a1.jsonl".into(), bytes: agent.to_vec() },
    ]);
    for s in &ws.sessions {
        let a = &s.accounting;
        assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines);
        assert!(!a.not_shown.contains_key(&cctv::normalize::NotShown::Unplaced));
        for item in s.thread.items.iter() {
            let _ = normalize::ids::item_id(&ws, item);
        }
    }
});
