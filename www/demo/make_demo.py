# Writes the demo session that the page shows on a first visit (and bundles into the wasm): one
# short, made-up session that exercises every panel cctv has, laid out as Claude Code writes
# sessions (<session>.jsonl and <session>/subagents/agent-<id>.jsonl with its .meta.json).
# Run it after changing it: python3 www/demo/make_demo.py
import json, zlib, struct, base64, itertools, os

HERE = os.path.dirname(os.path.abspath(__file__))

SESSION = "7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20"
lines = []
counter = itertools.count(1)
clock = [0]
def uid():
    n = next(counter)
    return f"d3m0{n:04x}-5e55-4a1d-9c0d-{n:012x}"
# Lines added later take their ids from a counter of their own, so the ids above (which tests
# link to) stay where they are.
later = itertools.count(1)
def uid_later():
    n = next(later)
    return f"d3m1{n:04x}-5e55-4a1d-9c0d-{n:012x}"
def ts(step=3):
    clock[0] += step
    s = clock[0]
    return f"2026-11-20T09:{(s//60)%60:02d}:{s%60:02d}.{(s*37)%1000:03d}Z"
BASE = {"isSidechain": False, "userType": "external", "cwd": "/home/ada/greet", "sessionId": SESSION,
        "version": "2.1.114", "gitBranch": "main", "slug": "tidy-curious-lovelace"}
last = [None]
def emit(obj, chain=True):
    lines.append(obj)
    if chain and "uuid" in obj:
        last[0] = obj["uuid"]
    return obj

def user(content, parent=None, new_id=uid, **extra):
    o = dict(BASE, parentUuid=parent if parent is not None else last[0], type="user",
             message={"role": "user", "content": content}, uuid=new_id(), timestamp=ts(), **extra)
    return emit(o)

msg_n = itertools.count(1)
def response():
    n = next(msg_n)
    return f"msg_01Demo{n:04d}", f"req_01Demo{n:04d}"

def assistant(block, mid, rid, stop=None, out=20, parent=None, new_id=uid):
    o = dict(BASE, parentUuid=parent if parent is not None else last[0], type="assistant", requestId=rid,
             message={"model": "claude-opus-4-5-20251101", "id": mid, "type": "message", "role": "assistant",
                      "content": [block], "stop_reason": stop, "stop_sequence": None,
                      "usage": {"input_tokens": 12, "cache_creation_input_tokens": 900, "cache_read_input_tokens": 18000,
                                "output_tokens": out}},
             uuid=new_id(), timestamp=ts())
    return emit(o)

def result(tool_use_id, content, tool_use_result, parent, is_error=False, new_id=uid):
    block = {"tool_use_id": tool_use_id, "type": "tool_result", "content": content}
    if is_error: block["is_error"] = True
    return user([block], parent=parent, new_id=new_id, toolUseResult=tool_use_result, sourceToolAssistantUUID=parent)

def tool(mid, rid, tid, name, inp, stop="tool_use"):
    return assistant({"type": "tool_use", "id": tid, "name": name, "input": inp}, mid, rid, stop=stop)

def png():
    w = h = 24
    raw = b""
    for y in range(h):
        raw += b"\0" + b"".join(bytes((40 + 8 * x, 120 + 4 * y, 200, 255)) for x in range(w))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    return base64.b64encode(data).decode()

emit({"type": "permission-mode", "permissionMode": "default", "sessionId": SESSION})
emit({"type": "ai-title", "aiTitle": "Add a --verbose flag to the greet CLI", "sessionId": SESSION})
emit(dict(BASE, parentUuid=None, type="attachment", uuid=uid(), timestamp=ts(),
          attachment={"type": "hook_success", "hookEvent": "SessionStart", "hookName": "SessionStart:startup",
                      "toolUseID": "SessionStart", "content": "", "stdout": "greet dev env ready\n", "stderr": "",
                      "exitCode": 0, "command": "./scripts/session-start.sh", "durationMs": 41}))
first = user([{"type": "text", "text": "Add a `--verbose` flag to the **greet** CLI that prints each step, and fix the failing test.\n\nHere is the error I see in the terminal:"},
              {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png()}}])
fork_point = first["uuid"]
emit(dict(BASE, parentUuid=last[0], type="attachment", uuid=uid(), timestamp=ts(1),
          attachment={"type": "hook_additional_context", "hookEvent": "UserPromptSubmit", "hookName": "UserPromptSubmit",
                      "toolUseID": "UserPromptSubmit", "content": ["branch: main", "tests: 1 failing"]}))

# An abandoned attempt: the user rewound and asked again (shown as a branch).
mid, rid = response()
assistant({"type": "text", "text": "I'll add `-v` as a short flag only."}, mid, rid, stop="end_turn", parent=fork_point)
user("Actually, use the long flag `--verbose` too.")
mid, rid = response()
assistant({"type": "text", "text": "Understood — both `-v` and `--verbose`."}, mid, rid, stop="end_turn")
last[0] = fork_point

mid, rid = response()
assistant({"type": "thinking", "thinking": "The user wants a verbose flag. I should look at how arguments are parsed in `src/main.rs`, then find the failing test. A todo list will keep the steps visible.", "signature": "EpMCdemo"}, mid, rid)
assistant({"type": "redacted_thinking", "data": "EmRlbW8tcmVkYWN0ZWQ="}, mid, rid)
assistant({"type": "text", "text": "I'll start by planning the work, then read the argument parsing code."}, mid, rid)
t_todo = "toolu_01DemoTodo0001"
todos1 = [{"content": "Read argument parsing in src/main.rs", "status": "in_progress", "activeForm": "Reading argument parsing"},
          {"content": "Add --verbose flag", "status": "pending", "activeForm": "Adding --verbose flag"},
          {"content": "Fix the failing greeting test", "status": "pending", "activeForm": "Fixing the failing test"}]
a = tool(mid, rid, t_todo, "TodoWrite", {"todos": todos1})
result(t_todo, "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.", {"oldTodos": [], "newTodos": todos1}, a["uuid"])

main_rs = 'use std::env;\n\nfn main() {\n    let args: Vec<String> = env::args().collect();\n    let name = args.get(1).map(String::as_str).unwrap_or("world");\n    println!("{}", greet(name));\n}\n\npub fn greet(name: &str) -> String {\n    format!("Hello {}", name)\n}\n'
mid, rid = response()
t_read, t_grep, t_glob = "toolu_01DemoRead0001", "toolu_01DemoGrep0001", "toolu_01DemoGlob0001"
a1 = tool(mid, rid, t_read, "Read", {"file_path": "/home/ada/greet/src/main.rs"})
a2 = tool(mid, rid, t_grep, "Grep", {"pattern": "verbose", "path": "/home/ada/greet", "output_mode": "files_with_matches"})
a3 = tool(mid, rid, t_glob, "Glob", {"pattern": "tests/**/*.rs"})
numbered = "".join(f"{i+1:>6}\u2192{l}\n" for i, l in enumerate(main_rs.splitlines()))
result(t_read, numbered, {"type": "text", "file": {"filePath": "/home/ada/greet/src/main.rs", "content": main_rs, "numLines": 11, "startLine": 1, "totalLines": 11}}, a1["uuid"])
result(t_grep, "Found 1 file\n/home/ada/greet/README.md", {"mode": "files_with_matches", "filenames": ["/home/ada/greet/README.md"], "numFiles": 1}, a2["uuid"])
result(t_glob, "/home/ada/greet/tests/greeting.rs", {"filenames": ["/home/ada/greet/tests/greeting.rs"], "durationMs": 4, "numFiles": 1, "truncated": False}, a3["uuid"])

mid, rid = response()
assistant({"type": "text", "text": "The greeting lacks a comma, which is what the test expects. I'll fix `greet` and add the flag."}, mid, rid)
t_edit = "toolu_01DemoEdit0001"
old = '    let name = args.get(1).map(String::as_str).unwrap_or("world");\n    println!("{}", greet(name));'
new = '    let verbose = args.iter().any(|a| a == "--verbose" || a == "-v");\n    let name = args.iter().skip(1).find(|a| !a.starts_with(\'-\')).map(String::as_str).unwrap_or("world");\n    if verbose {\n        eprintln!("greeting {name}");\n    }\n    println!("{}", greet(name));'
a = tool(mid, rid, t_edit, "Edit", {"file_path": "/home/ada/greet/src/main.rs", "old_string": old, "new_string": new})
emit(dict(BASE, parentUuid=a["uuid"], type="attachment", uuid=uid(), timestamp=ts(1),
          attachment={"type": "hook_success", "hookEvent": "PreToolUse", "hookName": "PreToolUse:Edit", "toolUseID": t_edit,
                      "content": "", "stdout": "allowed: src/ is writable\n", "stderr": "", "exitCode": 0,
                      "command": "./hooks/guard-paths.sh", "durationMs": 12}), chain=False)
patch = [{"oldStart": 3, "oldLines": 6, "newStart": 3, "newLines": 10, "lines": [
    " fn main() {", "     let args: Vec<String> = env::args().collect();",
    '-    let name = args.get(1).map(String::as_str).unwrap_or("world");',
    '+    let verbose = args.iter().any(|a| a == "--verbose" || a == "-v");',
    '+    let name = args.iter().skip(1).find(|a| !a.starts_with(\'-\')).map(String::as_str).unwrap_or("world");',
    "+    if verbose {", '+        eprintln!("greeting {name}");', "+    }",
    '     println!("{}", greet(name));', " }", ""]},
    {"oldStart": 9, "oldLines": 3, "newStart": 13, "newLines": 3, "lines": [
    " pub fn greet(name: &str) -> String {", '-    format!("Hello {}", name)', '+    format!("Hello, {}!", name)', " }"]}]
r = result(t_edit, "The file /home/ada/greet/src/main.rs has been updated.", {"filePath": "/home/ada/greet/src/main.rs", "oldString": old, "newString": new,
          "originalFile": main_rs, "structuredPatch": patch, "userModified": False, "replaceAll": False}, a["uuid"])
emit(dict(BASE, parentUuid=r["uuid"], type="attachment", uuid=uid(), timestamp=ts(1),
          attachment={"type": "hook_non_blocking_error", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Edit", "toolUseID": t_edit,
                      "stdout": "", "stderr": "rustfmt: 1 file would be reformatted (src/main.rs)\n", "exitCode": 1,
                      "command": "cargo fmt --check", "durationMs": 380}))

mid, rid = response()
t_write = "toolu_01DemoWrite001"
test_rs = 'use std::process::Command;\n\n#[test]\nfn verbose_prints_the_step_to_stderr() {\n    let out = Command::new(env!("CARGO_BIN_EXE_greet"))\n        .args(["--verbose", "Ada"])\n        .output()\n        .unwrap();\n    assert_eq!(String::from_utf8_lossy(&out.stdout), "Hello, Ada!\\n");\n    assert!(String::from_utf8_lossy(&out.stderr).contains("greeting Ada"));\n}\n'
a = tool(mid, rid, t_write, "Write", {"file_path": "/home/ada/greet/tests/verbose.rs", "content": test_rs})
result(t_write, "File created successfully at: /home/ada/greet/tests/verbose.rs", {"type": "create", "filePath": "/home/ada/greet/tests/verbose.rs", "content": test_rs, "structuredPatch": [], "originalFile": None}, a["uuid"])

mid, rid = response()
t_bash = "toolu_01DemoBash0001"
a = tool(mid, rid, t_bash, "Bash", {"command": "cargo test --color=always", "description": "Run the test suite"})
for i, chunk_text in enumerate(["   Compiling greet v0.1.0 (/home/ada/greet)\n", "    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.92s\n"]):
    emit(dict(BASE, parentUuid=a["uuid"], type="progress", uuid=uid(), timestamp=ts(1), toolUseID=f"bash-progress-{i}", parentToolUseID=t_bash,
              data={"type": "bash_progress", "output": chunk_text, "fullOutput": chunk_text, "elapsedTimeSeconds": i + 1, "totalLines": i + 1}), chain=False)
stdout = ("\n\x1b[0m\x1b[1mrunning 2 tests\x1b[0m\ntest verbose_prints_the_step_to_stderr ... \x1b[32mok\x1b[0m\n"
          "test greets_with_a_comma ... \x1b[32mok\x1b[0m\n\ntest result: \x1b[32mok\x1b[0m. 2 passed; 0 failed; 0 ignored\n")
stderr = "\x1b[1m\x1b[33mwarning\x1b[0m\x1b[1m: unused variable: `args`\x1b[0m\n  \x1b[1m\x1b[34m-->\x1b[0m src/main.rs:4:9\n"
result(t_bash, stdout + stderr, {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False}, a["uuid"])

# A tool use the person declines, saying why (Claude Code's REJECT_MESSAGE with their words).
mid, rid = response()
t_clean = "toolu_01DemoClean001"
a = assistant({"type": "tool_use", "id": t_clean, "name": "Bash", "input": {"command": "rm -rf target", "description": "Remove build output"}},
              mid, rid, stop="tool_use", new_id=uid_later)
rejected = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). "
            "To tell you how to proceed, the user said:\nKeep target/, the release build is in there.")
result(t_clean, rejected, "User rejected tool use", a["uuid"], is_error=True, new_id=uid_later)

emit(dict(BASE, parentUuid=last[0], type="system", subtype="api_error", level="error", uuid=uid(), timestamp=ts(),
          cause={"code": "ECONNRESET"}, error={"status": 529, "error": {"type": "overloaded_error", "message": "Overloaded"}},
          retryInMs=1052.4, retryAttempt=1, maxRetries=10))

mid, rid = response()
assistant({"type": "text", "text": "Tests pass. I'll ask a reviewer agent to look over the change while I check the docs."}, mid, rid)
t_task, t_ws, t_wf = "toolu_01DemoTask0001", "toolu_01DemoSrch001", "toolu_01DemoFetch01"
a1 = tool(mid, rid, t_task, "Task", {"description": "Review the --verbose change", "subagent_type": "code-reviewer",
                                      "prompt": "Review the uncommitted change in /home/ada/greet: the new --verbose flag and the greeting fix. Report problems only."})
a2 = tool(mid, rid, t_ws, "WebSearch", {"query": "rust cli verbose flag convention stderr"})
a3 = tool(mid, rid, t_wf, "WebFetch", {"url": "https://clig.dev/#output", "prompt": "What does it say about verbose output?"})
for q in ["rust cli verbose flag convention stderr"]:
    emit(dict(BASE, parentUuid=a2["uuid"], type="progress", uuid=uid(), timestamp=ts(1), toolUseID="search-progress-1", parentToolUseID=t_ws,
              data={"type": "query_update", "query": q}), chain=False)
    emit(dict(BASE, parentUuid=a2["uuid"], type="progress", uuid=uid(), timestamp=ts(1), toolUseID="srvtoolu_01Demo", parentToolUseID=t_ws,
              data={"type": "search_results_received", "resultCount": 2, "query": q}), chain=False)
result(t_ws, "Web search results for query: \"rust cli verbose flag convention stderr\"\n\nLinks: [{\"title\":\"Command Line Interface Guidelines\",\"url\":\"https://clig.dev/\"}]",
       {"query": "rust cli verbose flag convention stderr", "results": [{"tool_use_id": "srvtoolu_01Demo", "content": [
           {"title": "Command Line Interface Guidelines", "url": "https://clig.dev/"},
           {"title": "Command line apps in Rust: output", "url": "https://rust-cli.github.io/book/tutorial/output.html"}]},
           "Both recommend sending diagnostic output to stderr and keeping stdout for the result."], "durationSeconds": 1.8}, a2["uuid"])
result(t_wf, "Print messages for humans to stderr; reserve stdout for output that other programs read. Offer `-v/--verbose` for more detail.",
       {"bytes": 48211, "code": 200, "codeText": "OK", "result": "Print messages for humans to **stderr**; reserve stdout for output that other programs read. Offer `-v/--verbose` for more detail.", "durationMs": 912, "url": "https://clig.dev/#output"}, a3["uuid"])
result(t_task, [{"type": "text", "text": "No problems found. The flag parsing skips arguments starting with `-`, so `greet -v Ada` works."}],
       {"status": "completed", "prompt": "Review the uncommitted change in /home/ada/greet: the new --verbose flag and the greeting fix. Report problems only.",
        "agentId": "d3m0a9e", "agentType": "code-reviewer", "content": [{"type": "text", "text": "No problems found. The flag parsing skips arguments starting with `-`, so `greet -v Ada` works."}],
        "totalDurationMs": 18234, "totalTokens": 9120, "totalToolUseCount": 1,
        "usage": {"input_tokens": 4, "cache_creation_input_tokens": 300, "cache_read_input_tokens": 8000, "output_tokens": 816}}, a1["uuid"])

mid, rid = response()
t_mcp, t_ask = "toolu_01DemoMcp00001", "toolu_01DemoAsk00001"
a = tool(mid, rid, t_mcp, "mcp__github__create_issue", {"owner": "ada", "repo": "greet", "title": "Document --verbose", "labels": ["docs"]})
result(t_mcp, [{"type": "text", "text": "{\"number\": 12, \"url\": \"https://github.com/ada/greet/issues/12\"}"}], [{"type": "text", "text": "{\"number\": 12, \"url\": \"https://github.com/ada/greet/issues/12\"}"}], a["uuid"])
mid, rid = response()
questions = [{"question": "Should -v also print timing?", "header": "Timing", "multiSelect": False,
              "options": [{"label": "Yes", "description": "Print how long the greeting took"}, {"label": "No", "description": "Keep it to the steps"}]}]
a = tool(mid, rid, t_ask, "AskUserQuestion", {"questions": questions})
result(t_ask, "User has answered your questions: \"Should -v also print timing?\"=\"No\".", {"questions": questions, "answers": {"Should -v also print timing?": "No"}}, a["uuid"])

mid, rid = response()
t_todo2 = "toolu_01DemoTodo0002"
todos2 = [dict(todos1[0], status="completed"), dict(todos1[1], status="completed"), dict(todos1[2], status="completed")]
a = tool(mid, rid, t_todo2, "TodoWrite", {"todos": todos2})
result(t_todo2, "Todos have been modified successfully.", {"oldTodos": todos1, "newTodos": todos2}, a["uuid"])
mid, rid = response()
assistant({"type": "text", "text": "Done. `greet --verbose Ada` now reports its step on stderr, and the greeting reads *Hello, Ada!*\n\n| Change | File |\n|---|---|\n| `--verbose` / `-v` flag | `src/main.rs` |\n| comma in greeting | `src/main.rs` |\n| new test | `tests/verbose.rs` |\n\nThe fix itself:\n\n```rust\npub fn greet(name: &str) -> String {\n    // The test expects a comma and an exclamation mark.\n    format!(\"Hello, {}!\", name)\n}\n```"}, mid, rid, stop="end_turn", out=220)
emit(dict(BASE, parentUuid=last[0], type="system", subtype="stop_hook_summary", uuid=uid(), timestamp=ts(1), hookCount=1,
          hookInfos=[{"command": "./hooks/notify.sh", "durationMs": 88}], hookErrors=[], preventedContinuation=False, stopReason="", hasOutput=True, level="suggestion", toolUseID="stop-1"))
emit(dict(BASE, parentUuid=last[0], type="system", subtype="turn_duration", durationMs=97412, messageCount=41, uuid=uid(), timestamp=ts(1), isMeta=False))
uid()  # the id an unknown entry type had here, kept so the ids after it stay the same
emit(dict(BASE, parentUuid=last[0], type="system", subtype="away_summary", uuid=uid(), timestamp=ts(200), isMeta=False,
          content="The --verbose flag landed, tests pass, and issue #12 tracks the docs."))
summary_leaf = last[0]
emit({"type": "summary", "summary": "Added --verbose to greet; fixed greeting comma", "leafUuid": summary_leaf})
boundary = emit(dict(BASE, parentUuid=None, logicalParentUuid=summary_leaf, type="system", subtype="compact_boundary", content="Conversation compacted",
                     isMeta=False, level="info", compactMetadata={"trigger": "manual", "preTokens": 48210}, uuid=uid(), timestamp=ts()))
user("This session is being continued from a previous conversation that ran out of context. Summary:\n\n1. Added `--verbose`/`-v` to `src/main.rs`, printing steps to stderr.\n2. Fixed the greeting to `Hello, NAME!`.\n3. Added `tests/verbose.rs`; all tests pass.", isCompactSummary=True, isVisibleInTranscriptOnly=True)
user([{"type": "text", "text": "Plan the release, then open a PR."}])
mid, rid = response()
t_plan = "toolu_01DemoPlan0001"
plan = "## Release plan\n\n1. Bump version to **0.2.0** in `Cargo.toml`\n2. Add a CHANGELOG entry\n3. Open a PR from `verbose-flag`\n\n```sh\ncargo release minor --execute\n```"
a = tool(mid, rid, t_plan, "ExitPlanMode", {"plan": plan})
result(t_plan, "User has approved your plan. You can now start coding.", {"plan": plan, "isAgent": False}, a["uuid"])
mid, rid = response()
t_bash2 = "toolu_01DemoBash0002"
a = tool(mid, rid, t_bash2, "Bash", {"command": "gh pr create --fill", "description": "Open the pull request"})
result(t_bash2, "[Request interrupted by user for tool use]", "Error: [Request interrupted by user for tool use]", a["uuid"], is_error=True)
user([{"type": "text", "text": "[Request interrupted by user for tool use]"}])
user("Go ahead, it's fine.")
mid, rid = response()
t_bash3 = "toolu_01DemoBash0003"
a = tool(mid, rid, t_bash3, "Bash", {"command": "gh pr create --fill", "description": "Open the pull request"})
result(t_bash3, "https://github.com/ada/greet/pull/13", {"stdout": "https://github.com/ada/greet/pull/13\n", "stderr": "", "interrupted": False, "isImage": False}, a["uuid"])
emit({"type": "pr-link", "sessionId": SESSION, "prNumber": 13, "prUrl": "https://github.com/ada/greet/pull/13", "prRepository": "ada/greet", "timestamp": ts()})
mid, rid = response()
assistant({"type": "text", "text": "PR #13 is open: https://github.com/ada/greet/pull/13"}, mid, rid, stop="end_turn", out=30)
# A local slash command (its caveat, the command, what it printed), then a bash-mode command.
user("<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>", new_id=uid_later, isMeta=True)
user("<command-name>/cost</command-name>\n<command-message>cost</command-message>\n<command-args></command-args>", new_id=uid_later)
user("<local-command-stdout>Total cost:            $0.42\nTotal duration (API):  1m 12s\nTotal code changes:    19 lines added, 2 lines removed</local-command-stdout>", new_id=uid_later)
user("<bash-input>git log --oneline -3</bash-input>", new_id=uid_later)
user("<bash-stdout>9f1c2ab Add --verbose flag\n4d2e8b1 Greet with a comma\n1a0b3c9 Initial commit</bash-stdout><bash-stderr></bash-stderr>", new_id=uid_later)
emit({"type": "last-prompt", "lastPrompt": "Go ahead, it's fine.", "sessionId": SESSION})

with open(os.path.join(HERE, "7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20.jsonl"), "w") as f:
    for o in lines:
        f.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")) + "\n")

# The reviewer sub-agent, in the newest layout: <session>/subagents/agent-<id>.jsonl
AB = dict(BASE, isSidechain=True, agentId="d3m0a9e")
agent = []
u1 = dict(AB, parentUuid=None, type="user", uuid=uid(), timestamp=ts(), message={"role": "user", "content": "Review the uncommitted change in /home/ada/greet: the new --verbose flag and the greeting fix. Report problems only."})
agent.append(u1)
ta = "toolu_01DemoAgentRd1"
a = dict(AB, parentUuid=u1["uuid"], type="assistant", requestId="req_01DemoAg01", uuid=uid(), timestamp=ts(),
         message={"model": "claude-sonnet-4-5-20250929", "id": "msg_01DemoAg01", "type": "message", "role": "assistant", "stop_reason": "tool_use",
                  "content": [{"type": "tool_use", "id": ta, "name": "Bash", "input": {"command": "git diff --stat", "description": "See what changed"}}],
                  "usage": {"input_tokens": 4, "cache_creation_input_tokens": 300, "cache_read_input_tokens": 4000, "output_tokens": 40}})
agent.append(a)
r = dict(AB, parentUuid=a["uuid"], type="user", uuid=uid(), timestamp=ts(), sourceToolAssistantUUID=a["uuid"],
         message={"role": "user", "content": [{"tool_use_id": ta, "type": "tool_result", "content": " src/main.rs      | 8 ++++++--\n tests/verbose.rs | 11 +++++++++++\n 2 files changed, 17 insertions(+), 2 deletions(-)"}]},
         toolUseResult={"stdout": " src/main.rs      | 8 ++++++--\n tests/verbose.rs | 11 +++++++++++\n 2 files changed, 17 insertions(+), 2 deletions(-)\n", "stderr": "", "interrupted": False, "isImage": False})
agent.append(r)
agent.append(dict(AB, parentUuid=r["uuid"], type="assistant", requestId="req_01DemoAg02", uuid=uid(), timestamp=ts(),
                  message={"model": "claude-sonnet-4-5-20250929", "id": "msg_01DemoAg02", "type": "message", "role": "assistant", "stop_reason": "end_turn",
                           "content": [{"type": "text", "text": "No problems found. The flag parsing skips arguments starting with `-`, so `greet -v Ada` works."}],
                           "usage": {"input_tokens": 4, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 4300, "output_tokens": 776}}))
with open(os.path.join(HERE, "7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20/subagents/agent-d3m0a9e.jsonl"), "w") as f:
    for o in agent:
        f.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")) + "\n")
with open(os.path.join(HERE, "7d3e5a10-9c2b-4f61-8e0a-3b5c7d9e1f20/subagents/agent-d3m0a9e.meta.json"), "w") as f:
    json.dump({"agentType": "code-reviewer", "description": "Review the --verbose change"}, f)
print(f"wrote {len(lines)} session lines and {len(agent)} sub-agent lines")
