//! What Claude Code writes around the conversation, read as Claude Code showed it, on real
//! sessions from ../shared/fixtures: slash commands and their output, notes injected for the model,
//! rejections and interrupts, API errors, thinking without text, white-space-only answers.

mod common;

use cctv::normalize::{self, ItemKind, NotShown, Workspace};
use cctv::present::calls::Outcome;
use cctv::present::event::EventView;
use cctv::present::item::{item_view, ItemBody, ItemView, Role};
use cctv::present::rows::Row;
use common::{fixture_files, input};

const FE5E: &str = "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";
const EF95: &str = "handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl";
const MOREDIP: &str =
    "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl";
const GENERAL: &str =
    "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl";
const MCLAUDE_USAGE: &str = "M-Thisness__M-Claude/Archives/3cfce0ff-0725-47be-a572-f8af8122b71e.jsonl";
const MCLAUDE_TIMEOUT: &str = "M-Thisness__M-Claude/Archives/7fcdbdcd-c55c-4463-b1d1-3a8d85864ad0.jsonl";
const ENTIRE: &str = "entireio__cli/18/4069756ffc/0/full.jsonl";

fn open(path: &str) -> Workspace {
    normalize::normalize(vec![input(path)])
}

/// Every row of every session, with the line number it shows.
fn views(ws: &Workspace) -> Vec<(u32, ItemView)> {
    let mut out = Vec::new();
    for s in &ws.sessions {
        for (thread, items) in s.threads() {
            for (i, item) in items.items.iter().enumerate() {
                let view = item_view(ws, s, Row::new(thread, i as u32, 0)).unwrap();
                out.push((ws.line(item.line).number, view));
            }
        }
    }
    out
}

fn row(ws: &Workspace, line: u32) -> ItemView {
    views(ws).into_iter().find(|(n, _)| *n == line).unwrap_or_else(|| panic!("a row for line {line}")).1
}

#[test]
fn a_slash_command_is_one_row_with_its_expanded_prompt_folded_under_it() {
    // fe5e1c67 (CC 1.0.98) line 2: `<command-message>orchestrator is running…</command-message>
    // <command-name>/orchestrator</command-name><command-args>create TODO app by Next.js…`; line 3
    // is the isMeta prompt it expanded to.
    let ws = open(FE5E);
    let view = row(&ws, 2);
    assert_eq!(view.role, Role::You);
    let ItemBody::Command(command) = view.body else { panic!("{:?}", view.body) };
    assert_eq!(command.line, "/orchestrator create TODO app by Next.js");
    assert!(command.expansion.as_deref().is_some_and(|e| e.starts_with("Split complex tasks")));
    assert!(views(&ws).iter().all(|(n, _)| *n != 3), "the expansion is not a row of its own");
    // The command is what the person ran: a prompt in the count and a j/k stop; its expansion
    // (meta) is neither.
    let s = &ws.sessions[0];
    let typed: Vec<u32> =
        s.thread.items.iter().filter(|i| i.is_typed_prompt()).map(|i| ws.line(i.line).number).collect();
    assert_eq!(typed.first(), Some(&2));
    assert!(!typed.contains(&3));
    assert_eq!(s.stats.user_prompts as usize, typed.len());
}

#[test]
fn a_local_command_shows_what_it_printed_and_its_caveat_is_accounted_for() {
    // ef958aa1 (CC 2.1.114) lines 178-180: the caveat, `/exit`, `<local-command-stdout>See ya!`.
    let ws = open(EF95);
    let ItemBody::Command(command) = row(&ws, 179).body else { panic!() };
    assert_eq!(command.line, "/exit");
    assert_eq!(command.stdout, "See ya!");
    let s = &ws.sessions[0];
    assert!(s.not_shown.iter().any(|(l, why)| ws.line(*l).number == 178 && *why == NotShown::CommandCaveat));
    assert!(views(&ws).iter().all(|(n, _)| *n != 180), "the output is folded into the command");
}

#[test]
fn a_background_task_notification_is_a_folded_note_not_a_prompt() {
    // moredip 0ccf1a04 line 22: `<task-notification><task-id>ac27727</task-id>…`.
    let ws = open(MOREDIP);
    let view = row(&ws, 22);
    assert_eq!(view.role, Role::Meta);
    let ItemBody::Injected(note) = view.body else { panic!() };
    assert_eq!(note.label, "background task");
    assert!(note.text.contains("ac27727"));
    let s = &ws.sessions[0];
    let item = s.thread.items.iter().find(|i| ws.line(i.line).number == 22).unwrap();
    assert!(matches!(item.kind, ItemKind::Injected) && !item.is_typed_prompt());
}

#[test]
fn rejected_and_cancelled_calls_are_not_tool_errors() {
    for path in [GENERAL, MCLAUDE_USAGE] {
        let ws = open(path);
        let outcomes: Vec<Outcome> = views(&ws)
            .into_iter()
            .filter_map(|(_, v)| match v.body {
                ItemBody::ToolCall(call) => Some(call.outcome),
                _ => None,
            })
            .collect();
        let rejected = outcomes.iter().filter(|o| **o == Outcome::Rejected).count();
        let errors = outcomes.iter().filter(|o| **o == Outcome::Error).count();
        let stats = &ws.sessions[0].stats;
        assert!(rejected > 0, "{path} has rejected calls");
        assert_eq!(
            stats.tool_rejections as usize, rejected,
            "{path}: declined calls, not those cancelled beside them"
        );
        assert_eq!(stats.tool_errors as usize, errors, "{path}: errors are the tools' own");
    }
}

#[test]
fn an_interrupt_is_a_notice_and_counted() {
    // moredip 0ccf1a04: "[Request interrupted by user]".
    let ws = open(MOREDIP);
    let notices: Vec<ItemView> =
        views(&ws).into_iter().map(|(_, v)| v).filter(|v| v.role == Role::Notice).collect();
    assert!(!notices.is_empty());
    assert!(notices
        .iter()
        .all(|v| matches!(&v.body, ItemBody::Notice(n) if n.headline == "Interrupted by the user")));
    assert_eq!(ws.sessions[0].stats.interruptions as usize, notices.len());
}

#[test]
fn an_api_error_message_is_an_error_row_not_an_answer() {
    // 7fcdbdcd (CC 2.1.3): a <synthetic> assistant line "Request timed out" with isApiErrorMessage.
    for (path, message) in
        [(MCLAUDE_TIMEOUT, "Request timed out"), (MCLAUDE_USAGE, "You're out of extra usage")]
    {
        let ws = open(path);
        let errors: Vec<ItemView> =
            views(&ws).into_iter().map(|(_, v)| v).filter(|v| v.role == Role::Error).collect();
        assert!(!errors.is_empty(), "{path}");
        assert!(
            errors
                .iter()
                .any(|v| matches!(&v.body, ItemBody::ApiError { message: m, .. } if m.starts_with(message))),
            "{path}: {errors:#?}"
        );
    }
}

#[test]
fn thinking_kept_only_as_a_signature_says_so() {
    // ef958aa1 (CC 2.1.114) writes `"thinking": ""` with a signature.
    let ws = open(EF95);
    assert!(views(&ws)
        .iter()
        .any(|(_, v)| v.body == ItemBody::ThinkingNotRecorded && v.role == Role::Thinking));
    assert!(views(&ws).iter().all(|(_, v)| !matches!(&v.body, ItemBody::Thinking { words: 0, .. })));
}

#[test]
fn white_space_only_answers_are_not_rows_but_are_accounted_for() {
    // entireio 4069756ffc (CC 2.1.42) has assistant text blocks of only "\n\n".
    let ws = open(ENTIRE);
    assert!(views(&ws).iter().all(|(_, v)| !matches!(&v.body, ItemBody::Answer(t) if t.trim().is_empty())));
    assert!(ws.sessions.iter().any(|s| s.accounting.not_shown.contains_key(&NotShown::BlankText)));
}

/// The markup Claude Code wraps around what it writes for the person.
const WRAPPERS: &[&str] = &[
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<system-reminder>",
    "<task-notification>",
];

#[test]
fn no_wrapper_markup_reaches_a_title_a_prompt_or_a_command_row_in_any_fixture() {
    for path in fixture_files() {
        let path = path.to_string_lossy().into_owned();
        let ws = open(&path);
        for s in &ws.sessions {
            let title = s.title.clone().unwrap_or_default();
            assert!(!WRAPPERS.iter().any(|w| title.contains(w)), "{path}: title {title:?}");
        }
        for (line, view) in views(&ws) {
            let shown = match &view.body {
                // What shows as typed must hold no wrapper at all (notes are folded apart).
                ItemBody::Prompt { text, .. } => {
                    assert!(
                        !text.contains("<system-reminder>"),
                        "{path} line {line}: a reminder in a prompt"
                    );
                    text.clone()
                }
                ItemBody::Command(c) | ItemBody::Shell(c) => format!("{}{}{}", c.line, c.stdout, c.stderr),
                ItemBody::Injected(n) => n.text.clone(),
                ItemBody::Folded { first_line, .. } => first_line.clone(),
                ItemBody::Event(EventView::Line { text, .. }) => text.clone(),
                _ => continue,
            };
            // A prompt that quotes the markup (someone asking about it) may hold it; what
            // Claude Code wrapped must not start with it.
            let starts = WRAPPERS.iter().any(|w| shown.trim_start().starts_with(w));
            assert!(!starts, "{path} line {line}: {:?}", shown.chars().take(120).collect::<String>());
        }
    }
}

#[test]
fn a_tool_input_written_as_a_json_string_is_read_as_the_object() {
    // No fixture writes one; seed 000 (processContent) parses a string input back into its object.
    let lines = [
        r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"list files"}}"#,
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":"{\"command\":\"ls -la\"}"}]}}"#,
    ];
    let ws = normalize::normalize(vec![normalize::Input {
        name: "s.jsonl".into(),
        bytes: lines.join("\n").into_bytes(),
    }]);
    let ItemBody::ToolCall(call) = row(&ws, 2).body else { panic!() };
    assert_eq!(call.target, "ls -la");
    assert_eq!(call.call.text("command"), Some("ls -la"));
}

#[test]
fn a_response_whose_lines_interleave_with_another_is_one_turn() {
    // general-tool-calls (CC 2.1.14): 49 assistant lines return to a message id after lines of
    // another response; each API response must be one turn, or its usage is counted twice.
    for path in fixture_files() {
        let path = path.to_string_lossy().into_owned();
        let ws = open(&path);
        for s in &ws.sessions {
            for (_, thread) in s.threads() {
                let mut ids = std::collections::HashSet::new();
                for turn in &thread.responses {
                    let Some(first) = turn.lines.first() else { continue };
                    let Some(cctv::model::EntryKind::Assistant(a)) = ws.entry(*first).map(|e| &e.kind) else {
                        continue;
                    };
                    let Some(id) = a.message.id else { continue };
                    let key = (
                        id.raw(ws.src(*first)).to_owned(),
                        a.request_id.map(|r| r.raw(ws.src(*first)).to_owned()),
                    );
                    assert!(ids.insert(key.clone()), "{path}: response {key:?} is split across turns");
                }
            }
        }
    }
}

#[test]
fn an_answer_cut_by_the_token_limit_says_so_on_its_last_row() {
    // No fixture has one; the shape is the API's (`stop_reason: "max_tokens"` on the last line of
    // the response, null on the lines before it).
    let lines = [
        r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"write a long essay"}}"#,
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","requestId":"r1","message":{"id":"m1","role":"assistant","stop_reason":null,"content":[{"type":"thinking","thinking":"plan","signature":"x"}]}}"#,
        r#"{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s","requestId":"r1","message":{"id":"m1","role":"assistant","stop_reason":"max_tokens","content":[{"type":"text","text":"Once upon a"}]}}"#,
        r#"{"type":"user","uuid":"u2","parentUuid":"a2","sessionId":"s","message":{"role":"user","content":"thanks"}}"#,
        r#"{"type":"assistant","uuid":"a3","parentUuid":"u2","sessionId":"s","requestId":"r2","message":{"id":"m2","role":"assistant","stop_reason":"end_turn","content":[{"type":"text","text":"You're welcome."}]}}"#,
    ];
    let ws = normalize::normalize(vec![normalize::Input {
        name: "s.jsonl".into(),
        bytes: lines.join("\n").into_bytes(),
    }]);
    assert_eq!(row(&ws, 2).stop, None, "only the response's last row says it");
    assert_eq!(row(&ws, 3).stop.as_deref(), Some("cut off: the response reached its token limit"));
    assert_eq!(row(&ws, 5).stop, None, "an ordinary end says nothing");
}

#[test]
fn a_sub_agent_whose_file_is_missing_is_rebuilt_from_its_progress_lines() {
    // marot 8463c716 (CC 2.1.39) has 39 agent_progress lines for its Task call's agent; opened
    // without its subagents/ folder, the agent's conversation comes from them.
    const SESSION: &str =
        "marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl";
    let alone = open(SESSION);
    let s = &alone.sessions[0];
    let rebuilt: Vec<_> = s.agents.iter().filter(|a| a.rebuilt).collect();
    assert!(!rebuilt.is_empty());
    for agent in &rebuilt {
        assert!(
            matches!(agent.link, normalize::AgentLink::ToolCall { .. }),
            "linked to its call: {:?}",
            agent.link
        );
        assert!(agent.thread.items.iter().any(|i| matches!(i.kind, ItemKind::Prompt)), "its prompt");
        assert!(agent.thread.items.iter().any(|i| matches!(i.kind, ItemKind::ToolCall(_))), "its calls");
    }
    // The rebuilt files are cctv's, not the user's: the accounting covers the session file only.
    let lines = cctv::model::parse(&common::fixture(SESSION)).len() as u64;
    assert_eq!(s.accounting.lines, lines);
    // With the folder loaded, the agents come from their files and nothing is rebuilt.
    let folder = normalize::normalize(common::folder("marot__spotter/test/fixtures/transcripts"));
    let s = folder.sessions.iter().find(|s| s.file.is_some()).unwrap();
    assert!(!s.agents.is_empty() && s.agents.iter().all(|a| !a.rebuilt));
}

#[test]
fn after_a_split_response_assistant_ids_are_derived_as_claude_code_derives_them() {
    // seed 001 §5.5 (isNewChain): once an assistant message of several blocks is split, every
    // assistant message after it is named deriveUUID(uuid, index). athena f059ad9a (CC 1.0.17)
    // has one multi-block assistant line and 458 single-block ones after it.
    let ws = open("tensiondriven__athena/data/claude-logs/archive/20250608_234910_claude_projects_backup/-Users-j-Code-athena/f059ad9a-9964-437c-90a1-28f4dd6d245b.jsonl");
    let thread = &ws.sessions[0].thread;
    let blocks = |i: &normalize::Item| {
        ws.entry(i.line).and_then(|e| e.message()).map_or(0, |m| m.content.blocks().len())
    };
    let is_assistant = |i: &normalize::Item| {
        matches!(ws.entry(i.line).map(|e| &e.kind), Some(cctv::model::EntryKind::Assistant(_)))
    };
    let split =
        thread.items.iter().position(|i| is_assistant(i) && blocks(i) > 1).expect("a multi-block response");
    let uuid = |i: &normalize::Item| {
        ws.entry(i.line).unwrap().envelope.uuid.unwrap().decode(ws.src(i.line)).into_owned()
    };
    for (at, item) in thread.items.iter().enumerate().filter(|(_, i)| is_assistant(i) && blocks(i) == 1) {
        let id = normalize::ids::item_id(&ws, item);
        if at < split {
            assert_eq!(id, uuid(item), "before the split, a line's own uuid");
        } else {
            assert_eq!(
                id,
                normalize::ids::derive_uuid(&uuid(item), item.block.unwrap()),
                "after it, derived"
            );
        }
    }
    assert!(
        thread.items[split..].iter().any(|i| is_assistant(i) && blocks(i) == 1),
        "the fixture has single-block responses after the split"
    );
}

#[test]
fn a_search_the_api_ran_itself_pairs_with_its_result_in_the_same_message() {
    // No fixture has one; the shape is the API's: `server_tool_use` then `web_search_tool_result`
    // (with its `tool_use_id`) in the assistant content, then the answer.
    let lines = [
        r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"what is new in rust?"}}"#,
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","requestId":"r1","message":{"id":"m1","role":"assistant","stop_reason":"end_turn","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"rust release notes"}},{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Rust Blog","url":"https://blog.rust-lang.org/","encrypted_content":"xyz"}]},{"type":"text","text":"Rust 1.95 is out."}]}}"#,
    ];
    let ws = normalize::normalize(vec![normalize::Input {
        name: "s.jsonl".into(),
        bytes: lines.join("\n").into_bytes(),
    }]);
    let items = &ws.sessions[0].thread.items;
    assert!(
        items.iter().all(|i| !matches!(i.kind, ItemKind::UnknownBlock)),
        "the result is not an unknown block"
    );
    let views = views(&ws);
    let call = views
        .iter()
        .find_map(|(_, v)| match &v.body {
            ItemBody::ToolCall(call) => Some(call.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(call.outcome, Outcome::Ok);
    assert_eq!(call.target, "rust release notes");
    let cctv::present::tools::ToolBody::WebSearch(search) = call.panel(&ws).body else { panic!() };
    let cctv::present::tools::Answer::Structured(results) = search.results else {
        panic!("{:?}", search.results)
    };
    assert!(
        matches!(&results[0], cctv::present::tools::WebResult::Links(l) if l[0].url == "https://blog.rust-lang.org/")
    );
}
