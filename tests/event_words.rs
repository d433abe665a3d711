//! Every name Claude Code 2.1.332 writes for a system subtype, an attachment type or a progress
//! type (`/work/shared/CLAUDE_CODE_FORMAT.md`) has a reading in words: none shows as unknown or
//! as raw JSON, with its evident fields or without them, and every line is accounted for.
//!
//! Written from the documented shape (CLAUDE_CODE_FORMAT.md, 2.1.332); no real line holds it.
//! The fixtures hold only a few of these names; their real lines are tested in
//! `present::event`'s and `present::hooks`' own tests.

use cctv::model::{ProgressKind, SystemSubtype};
use cctv::normalize::{self, Input, ItemKind, NotShown, Workspace};
use cctv::present::event::{EventView, Tone};
use cctv::present::hooks::progress_view;
use cctv::present::item::{item_view, ItemBody, ItemView, Role};
use cctv::present::rows::Row;

/// The system subtypes Claude Code 2.1.332 builds, and `microcompact_boundary` (real transcripts).
const SUBTYPES: &[&str] = &[
    "agents_killed",
    "api_error",
    "api_retry",
    "away_summary",
    "background_tasks_changed",
    "bridge_state",
    "bridge_status",
    "checkpoint_done",
    "cloud_session_delta",
    "cloud_session_status",
    "code_change_published",
    "commands_changed",
    "compact_boundary",
    "control_request_progress",
    "dev_intent",
    "elicitation_complete",
    "feedback_draft_queued",
    "file_attachments_missing",
    "file_snapshot",
    "hook_progress",
    "hook_response",
    "hook_started",
    "informational",
    "inherited_asks_settled",
    "init",
    "instruction_size_warning",
    "late_allow_not_run",
    "local_command",
    "memory_recall",
    "memory_saved",
    "mirror_error",
    "model_consent_fallback",
    "model_fallback",
    "model_refusal_fallback",
    "model_refusal_no_fallback",
    "notification",
    "peer_message_hold",
    "per_turn_effort_changed",
    "permission_check_status",
    "permission_denied",
    "permission_retry",
    "placed",
    "plugin_install",
    "post_turn_summary",
    "rewind_stand_in",
    "scheduled_task_fire",
    "session_metadata",
    "session_state_changed",
    "session_title_changed",
    "session_writes_lost",
    "shell_cwd",
    "start_folder",
    "status",
    "stop_hook_summary",
    "task_notification",
    "task_progress",
    "task_started",
    "task_summary",
    "task_updated",
    "thinking_tokens",
    "tool_host_result",
    "turn_began_before_init",
    "turn_duration",
    "turn_handoff_available",
    "turn_preempted",
    "turn_starting",
    "ui_focus",
    "ui_invalidate",
    "ui_log",
    "ui_notify",
    "ui_notify_cancel",
    "ui_panes",
    "ui_placed",
    "ui_scroll",
    "ui_status",
    "ui_toast",
    "vcs_state_changed",
    "voice_call_talk",
    "worker_shutting_down",
    "microcompact_boundary",
];

/// The attachment types the 2.1.332 binary tests for.
const ATTACHMENTS: &[&str] = &[
    "account_memory_recall",
    "advisor_stripped",
    "advisor_tool",
    "agent_ask_notice",
    "agent_mention",
    "agent_listing_delta",
    "already_read_file",
    "artifact_opening_prefetch",
    "async_hook_response",
    "async_hook_response_batch",
    "at_mention_reference",
    "auto_mode",
    "auto_mode_exit",
    "batching_reminder",
    "batching_reminder_sent",
    "claude_app_notice",
    "command_permissions",
    "compact_file_reference",
    "context_sections",
    "coordinator_context",
    "cowork_memory_context",
    "critical_system_reminder",
    "date",
    "date_change",
    "deferred_tools_delta",
    "deferred_tools_record",
    "diagnostics",
    "dir_sync_notice",
    "directory",
    "document",
    "dynamic_skill",
    "edited_text_file",
    "environment",
    "file",
    "first_week",
    "fork_briefing",
    "goal_status",
    "hook_additional_context",
    "hook_blocking_error",
    "hook_cancelled",
    "hook_deferred_tool",
    "hook_error_during_execution",
    "hook_non_blocking_error",
    "hook_permission_decision",
    "hook_stopped_continuation",
    "hook_success",
    "hook_system_message",
    "image",
    "inlined_image_paths",
    "instructions",
    "invoked_skills",
    "language",
    "max_turns_reached",
    "mcp_dropped_tools_delta",
    "mcp_instructions_delta",
    "mcp_resource",
    "message_pdf_reads",
    "model",
    "nested_memory",
    "notebook",
    "output_limit_note",
    "output_style_instructions",
    "pdf_reference",
    "peer_mention",
    "plan_file_reference",
    "plan_mode",
    "plan_mode_exit",
    "plan_mode_reentry",
    "plugin_note",
    "poll_events",
    "progress_reminder_sent",
    "project_doc_reads",
    "projects_thread_ask",
    "prompt_as_file",
    "prompt_render_point",
    "prompt_snapshot",
    "queued_command",
    "read_truncation_notice",
    "relevant_memories",
    "remote_session_change",
    "repl_mcp_needs_auth",
    "sandbox_instructions",
    "secondary_reminder",
    "secondary_reminder_sent",
    "selected_lines_in_diff",
    "selected_lines_in_ide",
    "session_context",
    "session_cron_carry",
    "silent_turn_reminder",
    "skill_listing",
    "structured_output",
    "task_reminder",
    "task_status",
    "team_context",
    "teammate_mailbox",
    "teammate_shutdown_batch",
    "text",
    "thinking_stripped",
    "todo_reminder",
    "token_usage",
    "tool_host_result_lines",
    "tool_hosts_correction",
    "tool_hosts_notice",
    "tool_offer_record",
    "tool_results_cut",
    "total_tokens_reminder",
    "ultra_effort_enter",
    "ultra_effort_exit",
    "withheld_memory",
    "workflow_size_guideline_change",
];

/// The progress `data.type`s of 2.1.332.
const PROGRESS: &[&str] = &[
    "agent_api_retry",
    "agent_progress",
    "bash_progress",
    "connector_file_progress",
    "hook_progress",
    "mcp_progress",
    "powershell_progress",
    "query_update",
    "repl_tool_call",
    "search_results_received",
    "search_retry",
    "tool_heartbeat",
    "waiting_for_task",
    "workflow_agent",
    "workflow_log",
    "workflow_phase",
];

const ENVELOPE: &str =
    r#""sessionId":"s1","timestamp":"2026-11-20T10:00:00.000Z","version":"2.1.332","cwd":"/p""#;

/// A session of `lines` (each without its envelope), chained one after the other.
fn session(lines: &[String]) -> Workspace {
    let mut out = vec![format!(
        r#"{{"type":"user","uuid":"u0","parentUuid":null,{ENVELOPE},"message":{{"role":"user","content":"go"}}}}"#
    )];
    for (i, line) in lines.iter().enumerate() {
        let parent = if i == 0 { "u0".to_owned() } else { format!("l{}", i - 1) };
        let body = line.strip_prefix('{').expect("an object");
        out.push(format!(r#"{{"uuid":"l{i}","parentUuid":"{parent}",{ENVELOPE},{body}"#));
    }
    let ws =
        normalize::normalize(vec![Input { name: "s1.jsonl".into(), bytes: out.join("\n").into_bytes() }]);
    let a = &ws.sessions[0].accounting;
    assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines, "{a:?}");
    assert!(!a.not_shown.contains_key(&NotShown::Unplaced), "{a:?}");
    ws
}

/// The rows of the session's main thread after its first prompt.
fn rows(ws: &Workspace) -> Vec<ItemView> {
    let s = &ws.sessions[0];
    (1..s.thread.items.len() as u32)
        .map(|i| item_view(ws, s, Row::new(cctv::normalize::ThreadRef::Main, i, 0)).unwrap())
        .collect()
}

/// What an event row says, as one text to check: its line (and label).
fn said(view: &ItemView) -> (String, Option<Tone>) {
    match &view.body {
        ItemBody::Event(EventView::Line { text, tone, .. }) => (text.clone(), Some(*tone)),
        ItemBody::Event(EventView::Context { label, text, .. }) => (format!("{label}: {text}"), None),
        ItemBody::Event(EventView::Hook(h)) => (format!("hook {} {}", h.name, h.kind), None),
        ItemBody::Compacted(c) => (c.header.clone(), None),
        other => panic!("not words: {other:?}"),
    }
}

fn in_words(name: &str, text: &str, tone: Option<Tone>) {
    assert!(!text.trim().is_empty(), "{name}: no words");
    assert_ne!(tone, Some(Tone::Unknown), "{name}: {text}");
    assert!(!text.contains('{') && !text.to_lowercase().contains("unknown"), "{name}: {text}");
}

#[test]
fn the_lists_here_are_the_names_cctv_reads() {
    let mut subtypes: Vec<&str> =
        SystemSubtype::NAMES.iter().copied().filter(|n| *n != "api_metrics").collect();
    subtypes.sort_unstable();
    let mut listed = SUBTYPES.to_vec();
    listed.sort_unstable();
    assert_eq!(subtypes, listed, "api_metrics (older versions) is the one subtype read besides the list");
    let mut kinds = ProgressKind::NAMES.to_vec();
    kinds.sort_unstable();
    assert_eq!(kinds, PROGRESS);
}

#[test]
fn every_system_subtype_reads_in_words_with_or_without_its_content() {
    for content in [r#","content":"the words it carries""#, ""] {
        let lines: Vec<String> = SUBTYPES
            .iter()
            .map(|name| format!(r#"{{"type":"system","subtype":"{name}","level":"info"{content}}}"#))
            .collect();
        let ws = session(&lines);
        let views = rows(&ws);
        assert_eq!(views.len(), SUBTYPES.len(), "one row each");
        for (name, view) in SUBTYPES.iter().zip(&views) {
            assert_eq!(view.role, if *name == "compact_boundary" { Role::Compact } else { Role::System });
            let (text, tone) = said(view);
            in_words(name, &text, tone);
            if !content.is_empty()
                && !matches!(
                    *name,
                    "turn_duration"
                        | "api_error"
                        | "compact_boundary"
                        | "stop_hook_summary"
                        | "microcompact_boundary"
                        | "init"
                        | "hook_started"
                        | "hook_progress"
                        | "hook_response"
                        | "api_retry"
                )
            {
                assert!(text.contains("the words it carries"), "{name}: {text}");
            }
        }
    }
    // A subtype not in the list says its name and its words, marked as not known.
    let ws =
        session(&[r#"{"type":"system","subtype":"brand_new_thing","content":"it happened"}"#.to_owned()]);
    let (text, tone) = said(&rows(&ws)[0]);
    assert_eq!((text.as_str(), tone), ("brand_new_thing: it happened", Some(Tone::Unknown)));
}

#[test]
fn every_attachment_type_reads_in_words_with_or_without_its_fields() {
    for fields in [r#","content":"the text it carries","path":"/p/notes.md""#, ""] {
        let lines: Vec<String> = ATTACHMENTS
            .iter()
            .map(|name| format!(r#"{{"type":"attachment","attachment":{{"type":"{name}"{fields}}}}}"#))
            .collect();
        let ws = session(&lines);
        let views = rows(&ws);
        assert_eq!(views.len(), ATTACHMENTS.len(), "one row each");
        for (name, view) in ATTACHMENTS.iter().zip(&views) {
            let hook = name.starts_with("hook_");
            assert_eq!(view.role, if hook { Role::Hook } else { Role::System }, "{name}");
            let (text, tone) = said(view);
            in_words(name, &text, tone);
            assert_eq!(matches!(view.body, ItemBody::Event(EventView::Hook(_))), hook, "{name}");
        }
    }
}

#[test]
fn injected_context_folds_under_a_label_and_what_happened_is_an_event() {
    let lines = [
        r#"{"type":"attachment","attachment":{"type":"total_tokens_reminder","text":"<total_tokens>14912564 tokens left</total_tokens>"}}"#,
        r#"{"type":"attachment","attachment":{"type":"nested_memory","path":"/p/CLAUDE.md","content":{"path":"/p/CLAUDE.md","type":"Project","content":"Run the tests first."},"displayPath":"CLAUDE.md"}}"#,
        r#"{"type":"attachment","attachment":{"type":"plan_mode","reminderType":"full","isSubAgent":false,"planFilePath":"/home/u/.claude/plans/a.md","planExists":false}}"#,
        r#"{"type":"attachment","attachment":{"type":"instructions","files":[{"path":"/p/CLAUDE.md","type":"Project","content":"No force pushes."}],"reason":"session_start"}}"#,
        r#"{"type":"attachment","attachment":{"type":"read_truncation_notice","filePath":"/p/big.log"}}"#,
        r#"{"type":"attachment","attachment":{"type":"plan_mode_exit","planFilePath":"/home/u/.claude/plans/a.md"}}"#,
        r#"{"type":"attachment","attachment":{"type":"brand_new","message":"something new"}}"#,
    ]
    .map(str::to_owned);
    let views = rows(&session(&lines));
    let bodies: Vec<&ItemBody> = views.iter().map(|v| &v.body).collect();
    let context = |i: usize| match bodies[i] {
        ItemBody::Event(EventView::Context { label, text, body }) => {
            (label.as_str(), text.as_str(), body.as_str())
        }
        other => panic!("{i}: {other:?}"),
    };
    let event = |i: usize| match bodies[i] {
        ItemBody::Event(EventView::Line { text, tone, details }) => (text.as_str(), *tone, details.clone()),
        other => panic!("{i}: {other:?}"),
    };
    assert_eq!(
        context(0),
        (
            "token budget",
            "Token budget: 14912564 tokens left",
            "<total_tokens>14912564 tokens left</total_tokens>"
        )
    );
    assert_eq!(context(1), ("memory", "Memory file loaded: CLAUDE.md", "Run the tests first."));
    let (text, tone, details) = event(2);
    assert_eq!(
        (text, tone),
        ("Plan mode: the plan will be written to /home/u/.claude/plans/a.md", Tone::Normal)
    );
    assert!(details.contains(&"reminderType: full".to_owned()), "{details:?}");
    assert_eq!(
        context(3),
        ("instructions", "Instructions loaded: /p/CLAUDE.md", "/p/CLAUDE.md\nNo force pushes.")
    );
    assert_eq!(event(4).0, "Read cut short: /p/big.log");
    assert_eq!(event(5).0, "Plan mode off: /home/u/.claude/plans/a.md");
    assert_eq!((event(6).0, event(6).1), ("brand_new: something new", Tone::Unknown));
}

#[test]
fn attachments_read_the_fields_other_readers_of_the_format_record() {
    // Written from the documented shape (CLAUDE_CODE_FORMAT.md, 2.1.332); no real line holds it.
    // The fields are those public tools that read these lines test on (goal_status's condition
    // and met, read_truncation_notice's banner, auto_mode's bypass, relevant_memories' memories,
    // async_hook_response's response, max_turns_reached's maxTurns).
    let lines = [
        r#"{"type":"attachment","attachment":{"type":"goal_status","met":false,"sentinel":true,"condition":"all tests pass"}}"#,
        r#"{"type":"attachment","attachment":{"type":"goal_status","met":false,"condition":"all tests pass","reason":"5 tests still failing"}}"#,
        r#"{"type":"attachment","attachment":{"type":"goal_status","met":true,"condition":"all tests pass"}}"#,
        r#"{"type":"attachment","attachment":{"type":"read_truncation_notice","banner":"[Truncated: PARTIAL view]","toolUseID":"toolu_1"}}"#,
        r#"{"type":"attachment","attachment":{"type":"auto_mode","autoModeConsentFlow":false,"bashFirst":true,"steerOnly":true,"bypass":false}}"#,
        r#"{"type":"attachment","attachment":{"type":"relevant_memories","memories":[{"path":"/repo/memory.md","content":"memory body","mtimeMs":123}]}}"#,
        r#"{"type":"attachment","attachment":{"type":"async_hook_response","response":{"hook_event_name":"Stop"}}}"#,
        r#"{"type":"attachment","attachment":{"type":"max_turns_reached","maxTurns":8,"turnCount":9}}"#,
        r#"{"type":"attachment","attachment":{"type":"command_permissions","allowedTools":["Bash(git *)","Edit"]}}"#,
    ]
    .map(str::to_owned);
    let said: Vec<String> = rows(&session(&lines)).iter().map(|v| said(v).0).collect();
    assert_eq!(
        said,
        [
            "Goal set: all tests pass",
            "Goal not met yet: 5 tests still failing",
            "Goal met: all tests pass",
            "Read cut short: [Truncated: PARTIAL view]",
            "Auto mode on",
            "memory: Memories recalled: /repo/memory.md",
            "A background \u{2068}Stop\u{2069} hook answered",
            "Stopped: the maximum of 8 turns was reached",
            "permissions: Tools the command may use: Bash(git *), Edit",
        ]
    );
}

#[test]
fn every_progress_type_folds_into_its_call_in_words() {
    for name in PROGRESS {
        let lines = [
            r#"{"type":"assistant","requestId":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}]}}"#.to_owned(),
            format!(
                r#"{{"type":"progress","toolUseID":"p1","parentToolUseID":"t1","data":{{"type":"{name}","output":"building","message":"step one","status":"running","query":"rust"}}}}"#
            ),
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]}}"#.to_owned(),
        ];
        let ws = session(&lines);
        let thread = &ws.sessions[0].thread;
        let calls: Vec<_> = thread
            .items
            .iter()
            .filter_map(|i| match &i.kind {
                ItemKind::ToolCall(call) => Some(call),
                _ => None,
            })
            .collect();
        assert_eq!(calls.len(), 1, "{name}");
        assert_eq!(calls[0].progress.len(), 1, "{name}: the progress line is folded into the call");
        let view = progress_view(&ws, &calls[0].progress).unwrap();
        assert!(!view.notes.is_empty() || view.last_output.is_some(), "{name}: {view:?}");
        assert!(
            view.notes.iter().all(|n| !n.starts_with("progress ") && !n.contains('{')),
            "{name}: {view:?}"
        );
    }
}

#[test]
fn a_hook_outside_a_call_is_named_by_its_event_and_a_bare_compaction_has_no_empty_brackets() {
    // Written from the documented shape (CLAUDE_CODE_FORMAT.md, 2.1.332); no real line holds it.
    let lines = [
        r#"{"type":"attachment","attachment":{"type":"hook_success","hookEvent":"SessionStart","command":"./start.sh","exitCode":0}}"#,
        r#"{"type":"system","subtype":"compact_boundary","content":"Conversation compacted"}"#,
    ]
    .map(str::to_owned);
    let views = rows(&session(&lines));
    let ItemBody::Event(EventView::Hook(hook)) = &views[0].body else { panic!("{:?}", views[0].body) };
    assert_eq!((hook.name.as_str(), hook.command.as_str()), ("SessionStart", "./start.sh"));
    assert_eq!(said(&views[1]).0, "Conversation compacted");
}
