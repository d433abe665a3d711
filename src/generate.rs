//! Realistic sessions of any size, for benchmarks and large-input tests.
//!
//! The fixtures stop at 1.2 MB; real sessions reach hundreds. This writes a session with the mix
//! real ones have: per-block assistant lines (thinking, text, parallel tool calls), tool results
//! that carry most of the bytes twice (in `tool_result` and `toolUseResult`), Read / Edit / Write /
//! Bash / Grep / TodoWrite / Task calls, bash_progress and hook lines, turn durations,
//! file-history snapshots, compactions, and sub-agent files under `<session>/subagents/`.
//! Deterministic: the same size and seed give the same bytes.

use std::borrow::Cow;

use serde_json::{json, Value};

use crate::model::Tool;
use crate::normalize::Input;

/// A small, fast, deterministic generator (xorshift64*): no dependency for reproducible noise.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the", "session", "file", "parser", "returns", "value", "error", "line", "test", "build", "cache",
    "index", "module", "request", "config", "update", "handler", "should", "because", "instead", "check",
    "before", "after", "number", "string", "result", "function", "struct", "agent", "tool", "call", "output",
];

const CODE: &[&str] = &[
    "    let result = parse(&input)?;",
    "    if value.is_empty() { return Err(Error::Empty); }",
    "fn handle(request: &Request) -> Response {",
    "    for (i, line) in lines.iter().enumerate() {",
    "        println!(\"{}: {}\", i, line);",
    "    }",
    "}",
    "// TODO: handle the \"quoted\" case and tabs\t here",
    "    let config = Config::load(\"settings.json\").unwrap_or_default();",
    "import { readFile } from \"node:fs/promises\";",
    "export async function main(args) { return args.map((a) => a.trim()); }",
];

fn words(rng: &mut Rng, n: usize) -> String {
    let mut out = String::with_capacity(n * 7);
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(rng.pick(WORDS));
    }
    out
}

fn code(rng: &mut Rng, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 80);
    while out.len() < bytes {
        out.push_str(rng.pick(CODE));
        out.push('\n');
    }
    out
}

/// Writes the lines of one conversation, chaining `parentUuid`s as Claude Code does.
struct Writer<'r> {
    rng: &'r mut Rng,
    session: String,
    agent: Option<String>,
    lines: Vec<u8>,
    last: Option<String>,
    ids: u64,
    clock: u64,
}

impl Writer<'_> {
    fn uuid(&mut self) -> String {
        self.ids += 1;
        let tag = self.agent.as_deref().map_or(0, |a| a.len() as u64 * 7919);
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            self.rng.next() as u32,
            tag & 0xffff,
            self.ids >> 36,
            (self.ids >> 24) & 0xfff,
            self.ids
        )
    }

    fn timestamp(&mut self) -> String {
        self.clock += 1 + self.rng.below(20);
        let s = self.clock;
        format!(
            "2026-03-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            1 + (s / 86_400) % 28,
            (s / 3600) % 24,
            (s / 60) % 60,
            s % 60,
            s % 1000
        )
    }

    fn push(&mut self, mut line: Value, chain: bool) -> String {
        let uuid = self.uuid();
        let object = line.as_object_mut().expect("lines are objects");
        object.insert("uuid".into(), json!(uuid));
        object.insert("parentUuid".into(), json!(self.last));
        object.insert("sessionId".into(), json!(self.session));
        object.insert("timestamp".into(), json!(self.timestamp()));
        object.insert("isSidechain".into(), json!(self.agent.is_some()));
        object.insert("cwd".into(), json!("/home/dev/project"));
        object.insert("version".into(), json!("2.1.30"));
        object.insert("gitBranch".into(), json!("main"));
        object.insert("userType".into(), json!("external"));
        if let Some(agent) = &self.agent {
            object.insert("agentId".into(), json!(agent));
        }
        self.raw(&line);
        if chain {
            self.last = Some(uuid.clone());
        }
        uuid
    }

    fn raw(&mut self, line: &Value) {
        serde_json::to_writer(&mut self.lines, line).expect("writing to a Vec cannot fail");
        self.lines.push(b'\n');
    }

    fn prompt(&mut self, text: String) {
        self.push(json!({"type": "user", "message": {"role": "user", "content": text}}), true);
    }

    fn assistant(&mut self, id: &str, block: Value, output_tokens: u64) -> String {
        let line = json!({"type": "assistant", "requestId": format!("req_{id}"),
            "message": {"id": format!("msg_{id}"), "model": "claude-opus-4-5-20251101", "role": "assistant", "type": "message",
                        "content": [block], "stop_reason": null,
                        "usage": {"input_tokens": 3, "output_tokens": output_tokens, "cache_read_input_tokens": 40_000, "cache_creation_input_tokens": 900}}});
        self.push(line, true)
    }

    fn result(&mut self, parent: &str, tool_use_id: &str, content: String, structured: Value) {
        let saved = self.last.replace(parent.to_owned());
        let line = json!({"type": "user", "sourceToolAssistantUUID": parent, "toolUseResult": structured,
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use_id, "content": content}]}});
        let uuid = self.push(line, false);
        // Parallel results hang off their own call; the chain goes on from the last result.
        self.last = saved.map(|_| uuid);
    }
}

/// One turn: a prompt, the model's thinking and text, a few tool calls with results.
fn turn(w: &mut Writer, turn: u64, agents: &mut Vec<Input>, rng_seed: u64) {
    let id = format!("{}{turn:06}", w.agent.as_deref().unwrap_or("m"));
    let n = w.rng.below(40) as usize + 10;
    let text = words(w.rng, n);
    w.prompt(text);
    let n = w.rng.below(250) as usize + 50;
    let thinking = words(w.rng, n);
    w.assistant(&id, json!({"type": "thinking", "thinking": thinking, "signature": "EpMCsig"}), 40);
    let n = w.rng.below(60) as usize + 10;
    let text = words(w.rng, n);
    w.assistant(&id, json!({"type": "text", "text": text}), 80);
    let calls = 1 + w.rng.below(3);
    let mut made = Vec::new();
    for call in 0..calls {
        let tool_use_id = format!("toolu_{id}{call}");
        let kind = if w.agent.is_none() && turn % 25 == 7 && call == 0 { 6 } else { w.rng.below(6) };
        let (name, input) = call_input(w, kind, turn);
        let call_line = w.assistant(
            &id,
            json!({"type": "tool_use", "id": tool_use_id, "name": name, "input": input}),
            120,
        );
        made.push((tool_use_id, kind, call_line));
    }
    for (tool_use_id, kind, call_line) in made {
        call_result(w, kind, &call_line, &tool_use_id, (turn, rng_seed), agents);
    }
    let n = w.rng.below(40) as usize + 5;
    let text = words(w.rng, n);
    w.assistant(&format!("{id}e"), json!({"type": "text", "text": text}), 60);
    if w.agent.is_none() {
        let duration = 5_000 + w.rng.below(200_000);
        w.push(
            json!({"type": "system", "subtype": "turn_duration", "durationMs": duration, "isMeta": false}),
            true,
        );
        let message_id = w.last.clone();
        w.raw(&json!({"type": "file-history-snapshot", "messageId": message_id, "snapshot": {"trackedFileBackups": {}}, "isSnapshotUpdate": true}));
    }
}

/// The tool and input of a call of `kind` (0-5 by chance; 6, a sub-agent, every 25 turns).
fn call_input(w: &mut Writer, kind: u64, turn: u64) -> (Cow<'static, str>, Value) {
    match kind {
        0 => (
            Tool::Read.name(),
            json!({"file_path": format!("/home/dev/project/src/{}.rs", w.rng.pick(WORDS))}),
        ),
        1 => (
            Tool::Edit.name(),
            json!({"file_path": "/home/dev/project/src/lib.rs", "old_string": "    let result = parse(&input)?;", "new_string": "    let result = parse(&input).context(\"parsing\")?;"}),
        ),
        2 => (
            Tool::Write.name(),
            json!({"file_path": format!("/home/dev/project/tests/{}.rs", w.rng.pick(WORDS)), "content": "placeholder"}),
        ),
        3 => {
            (Tool::Bash.name(), json!({"command": "cargo test --workspace", "description": "Run the tests"}))
        }
        4 => (Tool::Grep.name(), json!({"pattern": w.rng.pick(WORDS), "output_mode": "files_with_matches"})),
        5 => (
            Tool::TodoWrite.name(),
            json!({"todos": [{"content": "Fix the parser", "status": "in_progress", "activeForm": "Fixing the parser"}, {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}]}),
        ),
        // `Task`, as the version these sessions imitate named what is now `Tool::Agent`.
        _ => (
            "Task".into(),
            json!({"description": "Explore the code", "subagent_type": "Explore", "prompt": format!("Explore the code for turn {turn}")}),
        ),
    }
}

/// The result of a call of `kind` (with its hooks and progress lines); a sub-agent's own file
/// goes to `agents`. `at` is the turn's number and the session's seed.
fn call_result(
    w: &mut Writer,
    kind: u64,
    call_line: &str,
    tool_use_id: &str,
    at: (u64, u64),
    agents: &mut Vec<Input>,
) {
    let (turn, rng_seed) = at;
    match kind {
        0 => {
            let size = 2_000 + w.rng.below(30_000) as usize;
            let content = code(w.rng, size);
            let numbered: String =
                content.lines().enumerate().map(|(i, l)| format!("{:>6}\u{2192}{l}\n", i + 1)).collect();
            let lines = content.lines().count();
            w.result(call_line, tool_use_id, numbered, json!({"type": "text", "file": {"filePath": "/home/dev/project/src/lib.rs", "content": content, "numLines": lines, "startLine": 1, "totalLines": lines}}));
        }
        1 => {
            let size = 5_000 + w.rng.below(25_000) as usize;
            let original = code(w.rng, size);
            hook(w, call_line, tool_use_id, "PreToolUse");
            let patch = json!([{"oldStart": 12, "oldLines": 3, "newStart": 12, "newLines": 3, "lines": [" fn handle(request: &Request) -> Response {", "-    let result = parse(&input)?;", "+    let result = parse(&input).context(\"parsing\")?;", " }"]}]);
            w.result(call_line, tool_use_id, "The file /home/dev/project/src/lib.rs has been updated.".into(), json!({"filePath": "/home/dev/project/src/lib.rs", "oldString": "    let result = parse(&input)?;", "newString": "    let result = parse(&input).context(\"parsing\")?;", "originalFile": original, "structuredPatch": patch, "userModified": false, "replaceAll": false}));
            hook(w, call_line, tool_use_id, "PostToolUse");
        }
        2 => {
            let size = 2_000 + w.rng.below(10_000) as usize;
            let content = code(w.rng, size);
            w.result(call_line, tool_use_id, "File created successfully".into(), json!({"type": "create", "filePath": "/home/dev/project/tests/new.rs", "content": content, "structuredPatch": [], "originalFile": null}));
        }
        3 => {
            let size = 1_000 + w.rng.below(20_000) as usize;
            let output = code(w.rng, size);
            let steps = 2 + w.rng.below(6);
            for step in 1..=steps {
                let so_far = &output[..output.len() * step as usize / steps as usize];
                let progress = json!({"type": "progress", "toolUseID": format!("bash-progress-{step}"), "parentToolUseID": tool_use_id,
                    "data": {"type": "bash_progress", "output": so_far.lines().last().unwrap_or(""), "fullOutput": so_far, "elapsedTimeSeconds": step, "totalLines": so_far.lines().count()}});
                let saved = w.last.replace(call_line.to_owned());
                w.push(progress, false);
                w.last = saved;
            }
            w.result(
                call_line,
                tool_use_id,
                output.clone(),
                json!({"stdout": output, "stderr": "", "interrupted": false, "isImage": false}),
            );
        }
        4 => {
            let files: Vec<String> =
                (0..1 + w.rng.below(30)).map(|i| format!("/home/dev/project/src/m{i}.rs")).collect();
            w.result(
                call_line,
                tool_use_id,
                files.join("\n"),
                json!({"mode": "files_with_matches", "filenames": files, "numFiles": files.len()}),
            );
        }
        5 => {
            let todos = json!([{"content": "Fix the parser", "status": "in_progress", "activeForm": "Fixing the parser"}, {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}]);
            w.result(
                call_line,
                tool_use_id,
                "Todos have been modified successfully.".into(),
                json!({"oldTodos": [], "newTodos": todos}),
            );
        }
        _ => {
            let agent = format!("a{:06x}", (rng_seed ^ turn).wrapping_mul(2_654_435_761) & 0xff_ffff);
            agents.push(sub_agent(&w.session, &agent, turn, rng_seed));
            w.result(call_line, tool_use_id, "Explored.".into(), json!({"status": "completed", "agentId": agent, "prompt": format!("Explore the code for turn {turn}"), "content": [{"type": "text", "text": "Explored."}], "totalDurationMs": 30_000, "totalTokens": 9_000, "totalToolUseCount": 4}));
        }
    }
}

fn hook(w: &mut Writer, parent: &str, tool_use_id: &str, event: &str) {
    let saved = w.last.replace(parent.to_owned());
    w.push(json!({"type": "attachment", "attachment": {"type": "hook_success", "hookEvent": event, "hookName": format!("{event}:Edit"), "toolUseID": tool_use_id, "command": "./hooks/check.sh", "exitCode": 0, "stdout": "ok\n", "stderr": "", "durationMs": 40}}), false);
    w.last = saved;
}

fn sub_agent(session: &str, agent: &str, turn_number: u64, seed: u64) -> Input {
    let mut rng = Rng(seed ^ 0x9e37_79b9_7f4a_7c15 ^ turn_number);
    let mut w = Writer {
        rng: &mut rng,
        session: session.to_owned(),
        agent: Some(agent.to_owned()),
        lines: Vec::new(),
        last: None,
        ids: 0,
        clock: turn_number * 100,
    };
    w.prompt(format!("Explore the code for turn {turn_number}"));
    let mut none = Vec::new();
    for t in 0..3 {
        turn(&mut w, t, &mut none, seed);
    }
    Input { name: format!("{session}/subagents/agent-{agent}.jsonl"), bytes: w.lines }
}

/// A session of about `megabytes` MB (sub-agent files included), as files a user would drop.
pub fn session(megabytes: f64, seed: u64) -> Vec<Input> {
    let target = (megabytes * 1e6) as usize;
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let session = format!("{:08x}-0000-4000-8000-{:012x}", seed as u32, seed);
    let mut agents = Vec::new();
    let mut w = Writer {
        rng: &mut rng,
        session: session.clone(),
        agent: None,
        lines: Vec::with_capacity(target + target / 8),
        last: None,
        ids: 0,
        clock: 0,
    };
    w.raw(&json!({"type": "permission-mode", "permissionMode": "default", "sessionId": session}));
    let mut number = 0;
    let mut next_compaction = 40_000_000;
    while w.lines.len() + agents.iter().map(|a: &Input| a.bytes.len()).sum::<usize>() < target {
        turn(&mut w, number, &mut agents, seed);
        number += 1;
        if w.lines.len() > next_compaction {
            next_compaction += 40_000_000;
            let leaf = w.last.clone();
            w.raw(&json!({"type": "summary", "summary": "Work so far", "leafUuid": leaf}));
            w.last = None;
            let boundary = json!({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "logicalParentUuid": leaf, "compactMetadata": {"trigger": "auto", "preTokens": 160_000}});
            w.push(boundary, true);
            w.push(json!({"type": "user", "isCompactSummary": true, "isVisibleInTranscriptOnly": true, "message": {"role": "user", "content": "This session is being continued from a previous conversation. Summary: work so far."}}), true);
        }
    }
    let mut files = vec![Input { name: format!("{session}.jsonl"), bytes: std::mem::take(&mut w.lines) }];
    files.extend(agents);
    files
}

#[cfg(test)]
mod tests {
    use super::session;

    #[test]
    fn the_same_size_and_seed_give_the_same_bytes() {
        let a = session(0.3, 7);
        let b = session(0.3, 7);
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.name, y.name);
            assert_eq!(x.bytes, y.bytes);
        }
        let total: usize = a.iter().map(|f| f.bytes.len()).sum();
        assert!((300_000..400_000).contains(&total), "{total}");
        assert_ne!(session(0.3, 8)[0].bytes, a[0].bytes);
    }
}
