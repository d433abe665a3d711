//! Each normalize step on small hand-made sessions, named for the behaviour it pins.

#![cfg(not(target_arch = "wasm32"))]

use cctv::model::{BlockKind, EntryKind};
use cctv::normalize::{self, ids, AgentLink, Input, ItemKind, LinkEvidence, NotShown, Thread, Workspace};
use serde_json::{json, Value};

fn file(name: &str, lines: &[Value]) -> Input {
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    Input { name: name.into(), bytes: (text.join("\n") + "\n").into_bytes() }
}

fn one(lines: &[Value]) -> Workspace {
    normalize::normalize(vec![file("s.jsonl", lines)])
}

fn user(uuid: &str, parent: Option<&str>, text: &str) -> Value {
    json!({"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": "s", "timestamp": "2026-01-01T10:00:00Z",
           "message": {"role": "user", "content": text}})
}

fn assistant(uuid: &str, parent: &str, message_id: &str, blocks: Value) -> Value {
    json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "sessionId": "s", "requestId": format!("req_{message_id}"),
           "timestamp": "2026-01-01T10:00:01Z",
           "message": {"id": message_id, "role": "assistant", "model": "claude-test", "content": blocks,
                       "usage": {"input_tokens": 10, "output_tokens": 5}}})
}

fn tool_use(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

fn result(uuid: &str, parent: &str, tool_use_id: &str, text: &str) -> Value {
    json!({"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": "s", "timestamp": "2026-01-01T10:00:02Z",
           "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use_id, "content": text}]}})
}

/// Each item as `kind@line[.block]`, for compact assertions.
fn kinds(ws: &Workspace, thread: &Thread) -> Vec<String> {
    thread
        .items
        .iter()
        .map(|item| {
            let kind = match &item.kind {
                ItemKind::Prompt => "prompt".to_string(),
                ItemKind::Text => "text".into(),
                ItemKind::Thinking => "thinking".into(),
                ItemKind::RedactedThinking => "redacted".into(),
                ItemKind::ToolCall(call) => {
                    let src = &ws.file(item.line).bytes;
                    format!("call:{}", call.name.map(|n| n.decode(src).into_owned()).unwrap_or_default())
                }
                ItemKind::OrphanResult => "orphan-result".into(),
                ItemKind::Command(_) => "command".into(),
                ItemKind::Shell(_) => "shell".into(),
                ItemKind::Injected => "injected".into(),
                ItemKind::Event => "event".into(),
                ItemKind::CompactBoundary(_) => "compact".into(),
                ItemKind::UnknownBlock => "unknown-block".into(),
                ItemKind::Unknown => "unknown".into(),
                ItemKind::Malformed => "malformed".into(),
            };
            let number = ws.line(item.line).number;
            match item.block {
                Some(b) => format!("{kind}@{number}.{b}"),
                None => format!("{kind}@{number}"),
            }
        })
        .collect()
}

fn call(thread: &Thread, name_line: u32) -> &normalize::ToolCall {
    thread
        .items
        .iter()
        .find_map(|i| match &i.kind {
            ItemKind::ToolCall(c) if i.line.line + 1 == name_line => Some(c),
            _ => None,
        })
        .expect("a call on that line")
}

fn accounting_adds_up(ws: &Workspace) {
    for s in &ws.sessions {
        let a = &s.accounting;
        assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines, "{a:?}");
        assert!(!a.not_shown.contains_key(&cctv::normalize::NotShown::Unplaced), "{a:?}");
    }
}

#[test]
fn a_multi_block_message_splits_into_items_with_stable_derived_ids() {
    let lines = [
        user("11111111-1111-4111-8111-111111111111", None, "go"),
        assistant(
            "22222222-2222-4222-8222-222222222222",
            "11111111-1111-4111-8111-111111111111",
            "m1",
            json!([{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "ok"}, tool_use("t1", "Bash", json!({"command": "ls"}))]),
        ),
    ];
    let ws = one(&lines);
    let thread = &ws.sessions[0].thread;
    assert_eq!(kinds(&ws, thread), ["prompt@1", "thinking@2.0", "text@2.1", "call:Bash@2.2"]);
    let item_ids: Vec<String> = thread.items.iter().map(|i| ids::item_id(&ws, i)).collect();
    assert_eq!(
        item_ids,
        [
            "11111111-1111-4111-8111-111111111111",
            "22222222-2222-4222-8222-000000000000",
            "22222222-2222-4222-8222-000000000001",
            "22222222-2222-4222-8222-000000000002",
        ]
    );
    let again: Vec<String> =
        one(&lines).sessions[0].thread.items.iter().map(|i| ids::item_id(&ws, i)).collect();
    assert_eq!(item_ids, again, "the same input always yields the same ids");
    accounting_adds_up(&ws);
}

#[test]
fn per_block_lines_of_one_response_merge_into_one_turn_with_the_last_usage() {
    let mut last = assistant("a3", "a2", "m1", json!([tool_use("t1", "Read", json!({"file_path": "/x"}))]));
    last["message"]["usage"] = json!({"input_tokens": 10, "output_tokens": 42});
    let ws = one(&[
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", json!([{"type": "thinking", "thinking": "t"}])),
        assistant("a2", "a1", "m1", json!([{"type": "text", "text": "x"}])),
        last,
        result("r1", "a3", "t1", "file"),
        assistant("a4", "r1", "m2", json!([{"type": "text", "text": "done"}])),
    ]);
    let thread = &ws.sessions[0].thread;
    assert_eq!(thread.responses.len(), 2);
    assert_eq!(thread.responses[0].lines.len(), 3);
    assert_eq!(thread.responses[0].usage.output_tokens, 42);
    let turns: Vec<_> = thread.items.iter().map(|i| i.response).collect();
    assert_eq!(turns, [None, Some(0), Some(0), Some(0), Some(1)]);
    assert_eq!(ws.sessions[0].stats.output_tokens, 42 + 5, "tokens count once per response");
    accounting_adds_up(&ws);
}

#[test]
fn token_counts_a_file_inflates_saturate_instead_of_overflowing() {
    // Found by the normalize fuzzer: two responses of u64::MAX tokens overflowed the session sum.
    let huge = |uuid: &str, parent: &str, id: &str| {
        let mut a = assistant(uuid, parent, id, json!([{"type": "text", "text": "x"}]));
        a["message"]["usage"] = json!({"input_tokens": u64::MAX, "output_tokens": u64::MAX});
        a
    };
    let (a1, a2) = (huge("a1", "u1", "m1"), huge("a2", "a1", "m2"));
    let agent = huge("b1", "p1", "m3");
    let ws = normalize::normalize(vec![
        file("s.jsonl", &[user("u1", None, "go"), a1, a2]),
        file("s/subagents/agent-x.jsonl", &[user("p1", None, "sub"), agent]),
    ]);
    assert_eq!(ws.sessions[0].stats.input_tokens, u64::MAX);
    assert_eq!(ws.sessions[0].stats.output_tokens, u64::MAX);
    accounting_adds_up(&ws);
}

#[test]
fn parallel_tool_calls_pair_with_results_that_arrive_out_of_order() {
    let ws = one(&[
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", json!([tool_use("t1", "Read", json!({}))])),
        assistant("a2", "a1", "m1", json!([tool_use("t2", "Grep", json!({}))])),
        result("r2", "a2", "t2", "grep out"),
        result("r1", "a1", "t1", "read out"),
        assistant("a3", "r1", "m2", json!([{"type": "text", "text": "done"}])),
    ]);
    let thread = &ws.sessions[0].thread;
    assert_eq!(kinds(&ws, thread), ["prompt@1", "call:Read@2.0", "call:Grep@3.0", "text@6.0"]);
    assert_eq!(call(thread, 2).result.unwrap().line.line + 1, 5);
    assert_eq!(call(thread, 3).result.unwrap().line.line + 1, 4);
    assert!(
        ws.sessions[0].branches.is_empty(),
        "results hanging off earlier blocks are structure, not branches"
    );
    accounting_adds_up(&ws);
}

#[test]
fn tool_use_ids_of_other_providers_models_pair_with_their_results() {
    // Models of other providers behind Claude Code write ids of their own form (seen in real
    // folders: `functions.Agent:29`, `call_00_…`); hand-written lines with such ids, the results
    // arriving out of order.
    let ws = one(&[
        user("u1", None, "go"),
        assistant(
            "a1",
            "u1",
            "m1",
            json!([tool_use("functions.Agent:29", "Agent", json!({"description": "look"}))]),
        ),
        assistant("a2", "a1", "m1", json!([tool_use("call_00_Zb3fQ9xKp2", "Grep", json!({"pattern": "x"}))])),
        result("r2", "a2", "call_00_Zb3fQ9xKp2", "grep out"),
        result("r1", "r2", "functions.Agent:29", "agent out"),
        assistant("a3", "r1", "m2", json!([{"type": "text", "text": "done"}])),
    ]);
    let thread = &ws.sessions[0].thread;
    assert_eq!(kinds(&ws, thread), ["prompt@1", "call:Agent@2.0", "call:Grep@3.0", "text@6.0"]);
    assert_eq!(call(thread, 2).result.unwrap().line.line + 1, 5);
    assert_eq!(call(thread, 3).result.unwrap().line.line + 1, 4);
    accounting_adds_up(&ws);
}

#[test]
fn hooks_before_and_after_a_tool_and_its_progress_fold_into_the_call() {
    let hook = |uuid: &str, event: &str, kind: &str| {
        json!({"type": "attachment", "uuid": uuid, "parentUuid": "a1", "sessionId": "s",
               "attachment": {"type": kind, "hookEvent": event, "hookName": format!("{event}:Bash"), "toolUseID": "t1",
                              "command": "./check.sh", "exitCode": 0, "stdout": "ok", "stderr": ""}})
    };
    let progress = json!({"type": "progress", "uuid": "p1", "parentUuid": "a1", "sessionId": "s", "toolUseID": "bash-progress-0",
                          "parentToolUseID": "t1", "data": {"type": "bash_progress", "output": "step 1", "fullOutput": "step 1"}});
    let hook_progress = json!({"type": "progress", "uuid": "p2", "parentUuid": "a1", "sessionId": "s", "toolUseID": "t1",
                               "parentToolUseID": "t1", "data": {"type": "hook_progress", "hookEvent": "PreToolUse", "hookName": "PreToolUse:Bash", "command": "callback"}});
    let ws = one(&[
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", json!([tool_use("t1", "Bash", json!({"command": "make"}))])),
        hook_progress,
        hook("h1", "PreToolUse", "hook_success"),
        progress,
        result("r1", "a1", "t1", "built"),
        hook("h2", "PostToolUse", "hook_blocking_error"),
        json!({"type": "attachment", "uuid": "h3", "parentUuid": "u1", "sessionId": "s",
               "attachment": {"type": "hook_success", "hookEvent": "UserPromptSubmit", "toolUseID": "UserPromptSubmit", "content": ""}}),
    ]);
    let thread = &ws.sessions[0].thread;
    assert_eq!(
        kinds(&ws, thread),
        ["prompt@1", "call:Bash@2.0", "event@8"],
        "a prompt hook is an event of its own"
    );
    let c = call(thread, 2);
    let numbers = |refs: &[normalize::LineRef]| refs.iter().map(|r| r.line + 1).collect::<Vec<_>>();
    assert_eq!(numbers(&c.pre_hooks), [3, 4]);
    assert_eq!(c.result.unwrap().line.line + 1, 6);
    assert_eq!(numbers(&c.post_hooks), [7]);
    assert_eq!(numbers(&c.progress), [5]);
    assert_eq!(ws.sessions[0].accounting.merged, 5);
    accounting_adds_up(&ws);
}

#[test]
fn a_call_without_a_result_shows_it_missing_and_a_result_without_a_call_shows_alone() {
    let ws = one(&[
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", json!([tool_use("t1", "Bash", json!({"command": "sleep 100"}))])),
        result("r9", "a1", "t9", "who called me?"),
    ]);
    let thread = &ws.sessions[0].thread;
    assert_eq!(kinds(&ws, thread), ["prompt@1", "call:Bash@2.0", "orphan-result@3.0"]);
    assert_eq!(call(thread, 2).result, None);
    accounting_adds_up(&ws);
}

#[test]
fn a_tombstone_removes_its_message_and_the_removal_is_counted() {
    let ws = one(&[
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", json!([{"type": "text", "text": "partial answer"}])),
        json!({"type": "tombstone", "message": {"type": "assistant", "uuid": "a1", "message": {"content": []}}}),
        assistant("a2", "u1", "m2", json!([{"type": "text", "text": "full answer"}])),
    ]);
    let s = &ws.sessions[0];
    assert_eq!(kinds(&ws, &s.thread), ["prompt@1", "text@4.0"]);
    assert_eq!(s.accounting.not_shown[&NotShown::Tombstoned], 1);
    assert_eq!(s.accounting.not_shown[&NotShown::TombstoneControl], 1);
    accounting_adds_up(&ws);
}

#[test]
fn lines_replayed_on_resume_keep_the_first_and_count_the_rest() {
    let ws = one(&[
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", json!([{"type": "text", "text": "hi"}])),
        user("u1", None, "go"),
        assistant("a1", "u1", "m1", json!([{"type": "text", "text": "hi"}])),
        user("u2", Some("a1"), "more"),
    ]);
    let s = &ws.sessions[0];
    assert_eq!(kinds(&ws, &s.thread), ["prompt@1", "text@2.0", "prompt@5"]);
    assert_eq!(s.accounting.not_shown[&NotShown::Duplicate], 2);
    accounting_adds_up(&ws);
}

#[test]
fn a_fork_with_two_answered_children_keeps_the_latest_and_offers_the_other() {
    let ws = one(&[
        user("u1", None, "start"),
        assistant("a1", "u1", "m1", json!([{"type": "text", "text": "ready"}])),
        user("u2", Some("a1"), "first try"),
        assistant("a2", "u2", "m2", json!([{"type": "text", "text": "first answer"}])),
        user("u3", Some("a1"), "second try"),
        assistant("a3", "u3", "m3", json!([{"type": "text", "text": "second answer"}])),
    ]);
    let s = &ws.sessions[0];
    assert_eq!(kinds(&ws, &s.thread), ["prompt@1", "text@2.0", "prompt@5", "text@6.0"]);
    assert_eq!(s.branches.len(), 1);
    assert_eq!(s.branches[0].fork_point.map(|l| l.line + 1), Some(2));
    assert_eq!(kinds(&ws, &s.branches[0].thread), ["prompt@3", "text@4.0"]);
    accounting_adds_up(&ws);
}

#[test]
fn a_parent_cycle_is_cut_and_every_line_still_shows() {
    let ws = one(&[
        user("u1", Some("a2"), "start"),
        assistant("a1", "u1", "m1", json!([{"type": "text", "text": "one"}])),
        assistant("a2", "a1", "m2", json!([{"type": "text", "text": "two"}])),
    ]);
    let s = &ws.sessions[0];
    assert_eq!(kinds(&ws, &s.thread), ["prompt@1", "text@2.0", "text@3.0"]);
    accounting_adds_up(&ws);
}

#[test]
fn meta_and_synthetic_messages_are_marked() {
    let mut meta = user("u2", Some("u1"), "<system-reminder>be nice</system-reminder>");
    meta["isMeta"] = json!(true);
    let mut error = assistant("a1", "u3", "m1", json!([{"type": "text", "text": "API Error: overloaded"}]));
    error["isApiErrorMessage"] = json!(true);
    error["message"]["model"] = json!("<synthetic>");
    let ws =
        one(&[user("u1", None, "go"), meta, user("u3", Some("u2"), "[Request interrupted by user]"), error]);
    let flags: Vec<_> = ws.sessions[0].thread.items.iter().map(|i| (i.meta, i.synthetic)).collect();
    assert_eq!(flags, [(false, false), (true, false), (false, true), (false, true)]);
    assert!(ws.sessions[0].stats.models.is_empty(), "<synthetic> is not a model");
    assert_eq!(ws.sessions[0].stats.api_errors, 1);
}

#[test]
fn a_compaction_boundary_takes_its_summary_and_the_chain_continues_through_it() {
    let mut summary = user("cs", Some("cb"), "This session is being continued from a previous conversation.");
    summary["isCompactSummary"] = json!(true);
    let ws = one(&[
        user("u1", None, "start"),
        assistant("a1", "u1", "m1", json!([{"type": "text", "text": "long work"}])),
        json!({"type": "summary", "summary": "Long work", "leafUuid": "a1"}),
        json!({"type": "system", "subtype": "compact_boundary", "uuid": "cb", "parentUuid": null, "logicalParentUuid": "a1",
               "sessionId": "s", "content": "Conversation compacted", "compactMetadata": {"trigger": "auto", "preTokens": 150000}}),
        summary,
        user("u2", Some("cs"), "continue"),
        assistant("a2", "u2", "m2", json!([{"type": "text", "text": "continuing"}])),
    ]);
    let s = &ws.sessions[0];
    assert_eq!(kinds(&ws, &s.thread), ["prompt@1", "text@2.0", "compact@4", "prompt@6", "text@7.0"]);
    let ItemKind::CompactBoundary(boundary) = &s.thread.items[2].kind else { panic!() };
    assert_eq!(boundary.summary.map(|l| l.line + 1), Some(5));
    assert_eq!(boundary.summaries.iter().map(|l| l.line + 1).collect::<Vec<_>>(), [3]);
    assert!(s.branches.is_empty());
    accounting_adds_up(&ws);
}

#[test]
fn nested_agents_link_to_the_calls_that_spawned_them() {
    let task = |id: &str, prompt: &str| {
        tool_use(
            id,
            "Task",
            json!({"description": prompt, "prompt": prompt, "subagent_type": "general-purpose"}),
        )
    };
    let task_result = |uuid: &str, parent: &str, tool_use_id: &str, agent: &str| {
        let mut r = result(uuid, parent, tool_use_id, "done");
        r["toolUseResult"] =
            json!({"status": "completed", "agentId": agent, "content": [], "totalDurationMs": 5});
        r
    };
    let sidechain = |mut line: Value, agent: &str| {
        line["isSidechain"] = json!(true);
        line["agentId"] = json!(agent);
        line
    };
    let main = file(
        "s.jsonl",
        &[
            user("u1", None, "go"),
            assistant("a1", "u1", "m1", json!([task("t1", "outer job")])),
            task_result("r1", "a1", "t1", "outer"),
        ],
    );
    let outer = file(
        "s/subagents/agent-outer.jsonl",
        &[
            sidechain(user("o1", None, "outer job"), "outer"),
            sidechain(assistant("o2", "o1", "om1", json!([task("t2", "inner job")])), "outer"),
            sidechain(task_result("o3", "o2", "t2", "inner"), "outer"),
        ],
    );
    let inner = file(
        "s/subagents/agent-inner.jsonl",
        &[
            sidechain(user("i1", None, "inner job"), "inner"),
            sidechain(assistant("i2", "i1", "im1", json!([{"type": "text", "text": "did it"}])), "inner"),
        ],
    );
    let mut lost = sidechain(user("l1", None, "nobody asked"), "lost");
    lost["sessionId"] = json!("other");
    let orphan = file("other/subagents/agent-lost.jsonl", &[lost]);
    let ws = normalize::normalize(vec![main, outer, inner, orphan]);
    assert_eq!(ws.sessions.len(), 2, "the orphan's session is listed on its own");
    let s = &ws.sessions[0];
    let agent = |id: &str| s.agents.iter().position(|a| a.agent_id.as_deref() == Some(id)).unwrap();
    assert_eq!(call(&s.thread, 2).agents, [agent("outer") as u32]);
    let outer_thread = &s.agents[agent("outer")].thread;
    assert_eq!(call(outer_thread, 2).agents, [agent("inner") as u32], "agents that spawn agents link too");
    assert!(matches!(
        s.agents[agent("inner")].link,
        AgentLink::ToolCall { how: LinkEvidence::ResultAgentId, .. }
    ));
    assert_eq!(s.stats.sub_agents, 2);
    assert_eq!(ws.sessions[1].agents[0].link, AgentLink::Orphan);
    accounting_adds_up(&ws);
}

#[test]
fn files_that_are_not_transcripts_are_rejected_by_name_and_the_rest_load() {
    let ws = normalize::normalize(vec![
        Input { name: "empty.jsonl".into(), bytes: Vec::new() },
        Input { name: "photo.png".into(), bytes: b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec() },
        Input { name: "array.json".into(), bytes: b"[{\"type\": \"user\"}]".to_vec() },
        file("ok.jsonl", &[user("u1", None, "hi")]),
    ]);
    assert_eq!(ws.sessions.len(), 1);
    let reasons: Vec<(&str, &str)> = ws.rejected.iter().map(|(n, r)| (n.as_str(), r.as_str())).collect();
    assert_eq!(reasons[0], ("empty.jsonl", "empty file"));
    assert_eq!(reasons[1].0, "photo.png");
    assert!(reasons[1].1.contains("invalid UTF-8"), "{}", reasons[1].1);
    assert!(reasons[2].1.contains("JSON array, not an object"), "{}", reasons[2].1);
}

#[test]
fn the_model_keeps_every_block_kind_for_the_items_that_show_it() {
    // The view model names blocks; what it names must be what the model typed.
    let ws = one(&[
        user("u1", None, "go"),
        assistant(
            "a1",
            "u1",
            "m1",
            json!([{"type": "redacted_thinking", "data": "x"}, {"type": "future_block", "x": 1}]),
        ),
    ]);
    let thread = &ws.sessions[0].thread;
    assert_eq!(kinds(&ws, thread), ["prompt@1", "redacted@2.0", "unknown-block@2.1"]);
    let line = ws.line(thread.items[2].line);
    let EntryKind::Assistant(a) = &line.entry().unwrap().kind else { panic!() };
    assert!(matches!(a.message.content.blocks()[1].kind, BlockKind::Unknown { .. }));
}
