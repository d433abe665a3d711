//! An attachment that is not a hook run, in words. Claude Code writes two sorts: context it
//! injects for the model (reminders, listings, memory files, instructions), which the row folds
//! under a label as it folds a `<system-reminder>`, and things that happened (plan mode entered,
//! a file edited outside, a read cut short), which the row says as an event.
//!
//! Every type Claude Code 2.1.332 tests for has a reading in [`ATTACHMENTS`]; a few read their
//! own fields first ([`attachment`]). A type not in the list still says its name and its text.

use serde_json::Value;

use super::{line, EventView, Tone};
use crate::present::fields::{
    colon, fields_in_words, first_line, first_str, list, path_of, str_field, text_of, to_text,
};
use crate::text::format::{isolate, plural};

/// How an attachment type reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Context injected for the model, folded under `label`; the line says `phrase` (and the
    /// file or the text's first line).
    Context { label: &'static str, phrase: &'static str },
    /// Something that happened, said as `phrase` (and the file or the text's first line).
    Event { phrase: &'static str, tone: Tone },
    /// A hook run (`hook_*`): drawn by `present::hooks`.
    Hook,
}

const fn context(label: &'static str, phrase: &'static str) -> Reading {
    Reading::Context { label, phrase }
}

const fn event(phrase: &'static str) -> Reading {
    Reading::Event { phrase, tone: Tone::Normal }
}

/// Claude Code's own bookkeeping: said, quietly.
const fn quiet(phrase: &'static str) -> Reading {
    Reading::Event { phrase, tone: Tone::Quiet }
}

/// Every attachment type cctv reads, with its reading: the names Claude Code 2.1.332 tests for
/// (`/work/shared/CLAUDE_CODE_FORMAT.md`), and `companion_intro` (earlier versions).
pub(crate) const ATTACHMENTS: &[(&str, Reading)] = &[
    ("account_memory_recall", context("memory", "Memories recalled from the account")),
    ("advisor_stripped", quiet("Advisor messages left out of the request")),
    ("advisor_tool", context("advisor", "Advisor tool offered to the model")),
    ("agent_ask_notice", event("A sub-agent asks")),
    ("agent_listing_delta", context("sub-agents", "Sub-agent types listed for the model")),
    ("already_read_file", context("file", "File already read, kept in context")),
    ("artifact_opening_prefetch", context("artifact", "Artifact opened for the model")),
    ("async_hook_response", event("A background hook answered")),
    ("async_hook_response_batch", event("Background hooks answered")),
    ("agent_mention", context("@-agent", "An agent mentioned with @")),
    ("at_mention_reference", context("@-mention", "Mentioned with @")),
    ("auto_mode", event("Auto mode on")),
    ("auto_mode_exit", event("Auto mode off")),
    ("batching_reminder", context("system reminder", "Reminder to batch tool calls")),
    ("batching_reminder_sent", quiet("Batching reminder sent")),
    ("claude_app_notice", context("notice", "Claude app notice")),
    ("command_permissions", context("permissions", "Tools the command may use")),
    ("companion_intro", quiet("Companion introduced")),
    ("compact_file_reference", context("file", "File kept in context after compaction")),
    ("context_sections", context("context", "Context sections sent to the model")),
    ("coordinator_context", context("coordinator", "Coordinator context sent to the model")),
    ("cowork_memory_context", context("memory", "Shared memory sent to the model")),
    ("critical_system_reminder", context("system reminder", "Critical system reminder")),
    ("date", context("date", "Today's date told to the model")),
    ("date_change", quiet("The date is now")),
    ("deferred_tools_delta", context("tools", "Tools made available to the model")),
    ("deferred_tools_record", context("tools", "Deferred tools recorded")),
    ("diagnostics", context("diagnostics", "Diagnostics reported to the model")),
    ("dir_sync_notice", quiet("Folder sync notice")),
    ("directory", context("directory", "Directory listed for the model")),
    ("document", context("document", "Document attached")),
    ("dynamic_skill", context("skill", "Skill loaded")),
    ("edited_text_file", event("File changed outside Claude Code")),
    ("environment", context("environment", "Environment told to the model")),
    ("file", event("File attached")),
    ("first_week", context("notice", "First-week tips")),
    ("fork_briefing", context("briefing", "Briefing for a forked agent")),
    ("goal_status", event("Goal")),
    ("hook_additional_context", Reading::Hook),
    ("hook_blocking_error", Reading::Hook),
    ("hook_cancelled", Reading::Hook),
    ("hook_deferred_tool", Reading::Hook),
    ("hook_error_during_execution", Reading::Hook),
    ("hook_non_blocking_error", Reading::Hook),
    ("hook_permission_decision", Reading::Hook),
    ("hook_stopped_continuation", Reading::Hook),
    ("hook_success", Reading::Hook),
    ("hook_system_message", Reading::Hook),
    ("image", event("Image attached")),
    ("inlined_image_paths", context("images", "Image paths inlined for the model")),
    ("instructions", context("instructions", "Instructions loaded")),
    ("invoked_skills", context("skills", "Skills invoked")),
    ("language", context("language", "Reply language")),
    ("max_turns_reached", event("Stopped: the maximum number of turns was reached")),
    ("mcp_dropped_tools_delta", context("tools", "MCP tools no longer available")),
    ("mcp_instructions_delta", context("MCP", "MCP server instructions sent to the model")),
    ("mcp_resource", context("MCP resource", "MCP resource attached")),
    ("message_pdf_reads", context("PDF", "PDF pages read")),
    ("model", quiet("Model")),
    ("nested_memory", context("memory", "Memory file loaded")),
    ("notebook", context("notebook", "Notebook attached")),
    ("output_limit_note", context("note", "Output limit note")),
    ("output_style_instructions", context("output style", "Output style instructions")),
    ("pdf_reference", context("PDF", "PDF referenced")),
    ("peer_mention", event("Mentioned by a peer")),
    ("plan_file_reference", context("plan", "Plan file")),
    ("plan_mode", event("Plan mode")),
    ("plan_mode_exit", event("Plan mode off")),
    ("plan_mode_reentry", event("Plan mode on again")),
    ("plugin_note", context("plugin", "Plugin note")),
    ("poll_events", context("events", "Events polled for the model")),
    ("progress_reminder_sent", quiet("Progress reminder sent")),
    ("project_doc_reads", context("project docs", "Project documents read")),
    ("projects_thread_ask", event("A project thread asks")),
    ("prompt_as_file", context("prompt", "Prompt saved as a file")),
    ("prompt_render_point", quiet("Prompt rendered")),
    ("prompt_snapshot", quiet("Prompt snapshot kept")),
    ("queued_command", event("Queued while Claude worked")),
    ("read_truncation_notice", event("Read cut short")),
    ("relevant_memories", context("memory", "Relevant memories")),
    ("remote_session_change", event("Remote session changed")),
    ("repl_mcp_needs_auth", Reading::Event { phrase: "MCP server needs signing in", tone: Tone::Error }),
    ("sandbox_instructions", context("sandbox", "Sandbox instructions")),
    ("secondary_reminder", context("system reminder", "Reminder")),
    ("secondary_reminder_sent", quiet("Reminder sent")),
    ("selected_lines_in_diff", context("selection", "Lines selected in a diff")),
    ("selected_lines_in_ide", context("selection in the IDE", "Lines selected in the IDE")),
    ("session_context", context("session", "Session context")),
    ("session_cron_carry", quiet("Scheduled tasks carried over")),
    ("silent_turn_reminder", context("system reminder", "Silent turn reminder")),
    ("skill_listing", context("skills", "Skills listed for the model")),
    ("structured_output", context("structured output", "Structured output")),
    ("task_reminder", context("task list", "Task list reminder")),
    ("task_status", event("Background task")),
    ("team_context", context("team", "Team context")),
    ("teammate_mailbox", context("mailbox", "Messages from teammates")),
    ("teammate_shutdown_batch", event("Teammates shut down")),
    ("text", context("text", "Text")),
    ("thinking_stripped", quiet("Thinking left out of the request")),
    ("todo_reminder", context("todo list", "Todo list reminder")),
    ("token_usage", context("tokens", "Token usage")),
    ("tool_host_result_lines", context("tool host", "Tool host output")),
    ("tool_hosts_correction", context("tool hosts", "Tool hosts corrected")),
    ("tool_hosts_notice", context("tool hosts", "Tool hosts")),
    ("tool_offer_record", quiet("Tools offered")),
    ("tool_results_cut", quiet("Tool results cut from the context")),
    ("total_tokens_reminder", context("token budget", "Token budget")),
    ("ultra_effort_enter", event("Ultra effort on")),
    ("ultra_effort_exit", event("Ultra effort off")),
    ("withheld_memory", quiet("Memory withheld")),
    ("workflow_size_guideline_change", context("workflow", "Workflow size guideline")),
];

/// Whether cctv reads attachments of type `kind` (hook runs, `hook_*`, are read as hooks).
pub(crate) fn known_attachment(kind: &str) -> bool {
    ATTACHMENTS.iter().any(|(name, _)| *name == kind)
}

/// Whether attachments of type `kind` are context injected for the model (folded under a label).
pub(crate) fn is_context(kind: &str) -> bool {
    matches!(reading(kind), Some(Reading::Context { .. }))
}

fn reading(kind: &str) -> Option<Reading> {
    ATTACHMENTS.iter().find(|(name, _)| *name == kind).map(|(_, r)| *r)
}

/// An attachment that is not a hook run, in words.
pub(crate) fn attachment(kind: &str, a: &Value) -> EventView {
    let names = |key: &str| list(a, key).iter().map(to_text).collect::<Vec<_>>();
    let details = || fields_in_words(a, &[]);
    match kind {
        // What the person typed while Claude worked.
        "queued_command" => line(
            format!("Queued while Claude worked{}", colon(&str_field(a, "prompt"))),
            Tone::Normal,
            vec![],
        ),
        "task_reminder" => {
            let n = a.get("itemCount").and_then(Value::as_u64).unwrap_or(0);
            folded("task list", format!("Task list reminder ({})", plural(n, "item")), text_of(a))
        }
        "deferred_tools_delta" => {
            let added = names("addedNames");
            let said = format!("Tools made available to the model: {}", plural(added.len() as u64, "tool"));
            folded("tools", said, added.join("\n"))
        }
        "agent_listing_delta" => {
            let added = names("addedTypes").join(", ");
            folded(
                "sub-agents",
                format!("Sub-agent types listed for the model: {added}"),
                names("addedLines").join("\n"),
            )
        }
        "skill_listing" => {
            let content = str_field(a, "content");
            let skills = content.lines().filter(|l| l.starts_with("- ")).count() as u64;
            let count = a.get("skillCount").and_then(Value::as_u64).unwrap_or(skills);
            folded("skills", format!("Skills listed for the model: {}", plural(count, "skill")), content)
        }
        "instructions" => {
            let files = files(a);
            let paths: Vec<String> = files.iter().map(path_of).filter(|p| !p.is_empty()).collect();
            let body = files.iter().map(|f| format!("{}\n{}", path_of(f), text_of(f))).collect::<Vec<_>>();
            let said = match paths.len() {
                0 => "Instructions loaded".to_owned(),
                _ => format!("Instructions loaded: {}", paths.join(", ")),
            };
            folded("instructions", said, if body.is_empty() { text_of(a) } else { body.join("\n\n") })
        }
        "command_permissions" => {
            let allowed = names("allowedTools");
            let said = match allowed.is_empty() {
                true => "Tools the command may use".to_owned(),
                false => format!("Tools the command may use: {}", allowed.join(", ")),
            };
            folded("permissions", said, details().join("\n"))
        }
        "total_tokens_reminder" => {
            let text = text_of(a);
            let said = strip_tags(&text);
            folded("token budget", format!("Token budget{}", colon(&first_line(&said))), text)
        }
        "date_change" => match str_field(a, "newDate") {
            date if date.is_empty() => line("The date changed".into(), Tone::Quiet, details()),
            date => line(format!("The date is now {date}"), Tone::Quiet, vec![]),
        },
        // A file Claude had read was changed outside it (by the person or a tool); the model is
        // shown the changed lines.
        "edited_text_file" => line(
            format!("File changed outside Claude Code{}", colon(&path_of(a))),
            Tone::Normal,
            vec![str_field(a, "snippet")],
        ),
        "file" => {
            let path = path_of(a);
            let text = text_of(a);
            let details = if text.trim().is_empty() { details() } else { vec![text] };
            line(format!("File attached{}", colon(&path)), Tone::Normal, details)
        }
        "plan_mode" => {
            let path = first_str(a, &["planFilePath"]);
            let said = match (path.is_empty(), a.get("planExists").and_then(Value::as_bool)) {
                (true, _) => "Plan mode: Claude plans and changes nothing".to_owned(),
                (false, Some(true)) => format!("Plan mode: the plan is in {path}"),
                (false, _) => format!("Plan mode: the plan will be written to {path}"),
            };
            line(said, Tone::Normal, details())
        }
        "max_turns_reached" => {
            let turns = first_str(a, &["maxTurns", "turnCount", "turns"]);
            let said = match turns.is_empty() {
                true => "Stopped: the maximum number of turns was reached".to_owned(),
                false => format!("Stopped: the maximum of {turns} turns was reached"),
            };
            line(said, Tone::Normal, details())
        }
        // `{condition, met, sentinel, reason}`: set (sentinel), then checked each turn until met.
        "goal_status" => {
            let condition = first_str(a, &["condition", "goal", "text", "content"]);
            let reason = first_str(a, &["reason", "status", "message"]);
            let met = a.get("met").and_then(Value::as_bool);
            let sentinel = a.get("sentinel").and_then(Value::as_bool).unwrap_or(false);
            let said = match (met, sentinel) {
                (Some(true), _) => format!("Goal met{}", colon(&condition)),
                (_, true) => format!("Goal set{}", colon(&condition)),
                (Some(false), _) if !reason.is_empty() => format!("Goal not met yet: {reason}"),
                (Some(false), _) => format!("Goal not met yet{}", colon(&condition)),
                (None, _) => format!(
                    "Goal{}",
                    colon(&first_line(if condition.is_empty() { &reason } else { &condition }))
                ),
            };
            line(said, Tone::Normal, details())
        }
        // `{response: {hook_event_name, …}, toolUseID}`: a hook run in the background answered.
        "async_hook_response" => {
            let response = a.get("response").unwrap_or(&Value::Null);
            let hook = match first_str(a, &["hookName", "hookEvent", "command"]) {
                hook if hook.is_empty() => {
                    first_str(response, &["hook_event_name", "hookEventName", "hookName"])
                }
                hook => hook,
            };
            let said = match hook.is_empty() {
                true => "A background hook answered".to_owned(),
                false => format!("A background {} hook answered", isolate(&hook)),
            };
            line(said, Tone::Normal, details())
        }
        // `{banner, toolUseID}`: a Read showed the model only part of a file.
        "read_truncation_notice" => {
            let about = match path_of(a) {
                path if path.is_empty() => first_str(a, &["banner", "message", "text"]),
                path => path,
            };
            line(format!("Read cut short{}", colon(&first_line(&about))), Tone::Normal, details())
        }
        "auto_mode" => {
            let bypass = a.get("bypass").and_then(Value::as_bool).unwrap_or(false);
            let said = if bypass { "Auto mode on, bypassing permissions" } else { "Auto mode on" };
            line(said.to_owned(), Tone::Normal, details())
        }
        // Memory files recalled for the model: `{memories: [{path, content}]}`.
        "relevant_memories" | "account_memory_recall" | "cowork_memory_context" if !files(a).is_empty() => {
            let files = files(a);
            let paths: Vec<String> = files.iter().map(path_of).filter(|p| !p.is_empty()).collect();
            let said = match paths.is_empty() {
                true => format!("Memories recalled: {}", plural(files.len() as u64, "memory file")),
                false => format!("Memories recalled: {}", paths.join(", ")),
            };
            let body = files.iter().map(|f| format!("{}\n{}", path_of(f), text_of(f))).collect::<Vec<_>>();
            folded("memory", said, body.join("\n\n"))
        }
        _ => match reading(kind) {
            Some(Reading::Context { label, phrase }) => {
                let text = text_of(a);
                let about = match path_of(a) {
                    path if !path.is_empty() => path,
                    _ => first_line(&strip_tags(&text)),
                };
                let body = if text.trim().is_empty() { details().join("\n") } else { text };
                folded(label, format!("{phrase}{}", colon(&about)), body)
            }
            Some(Reading::Event { phrase, tone }) => {
                let about = match path_of(a) {
                    path if !path.is_empty() => path,
                    _ => first_line(&text_of(a)),
                };
                line(format!("{phrase}{}", colon(&about)), tone, details())
            }
            // Only reached for a hook line `present::hooks` could not read.
            Some(Reading::Hook) => line(format!("Hook: {}", kind.replace('_', " ")), Tone::Quiet, details()),
            None => {
                let fields = details();
                let text = match text_of(a) {
                    text if !text.trim().is_empty() => first_line(&text),
                    _ => fields.join("; "),
                };
                line(format!("{kind}{}", colon(&text)), Tone::Unknown, fields)
            }
        },
    }
}

/// The files an attachment carries (`files` of instructions, `memories` of recalled memories).
fn files(a: &Value) -> &[Value] {
    match list(a, "files") {
        [] => list(a, "memories"),
        files => files,
    }
}

/// Context for the model, folded under `label`.
fn folded(label: &str, said: String, text: String) -> EventView {
    EventView::Context { label: label.to_owned(), text: first_line(&said), body: text }
}

/// Text without its markup tags (`<total_tokens>1 left</total_tokens>` → `1 left`), for a line.
/// A tag is `<` up to the next `>` with no white space or `<` between; the look for its end stops
/// at the first of those, so a text of many `<` costs one pass, not one per `<`.
fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(|c: char| c == '>' || c == '<' || c.is_whitespace()) {
            Some(close) if after[close..].starts_with('>') => rest = &after[close + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tags_are_left_out_of_a_line_but_not_other_angle_brackets() {
        assert_eq!(strip_tags("<total_tokens>14912564 tokens left</total_tokens>"), "14912564 tokens left");
        assert_eq!(strip_tags("a < b and c > d"), "a < b and c > d");
        assert_eq!(strip_tags("<<a>b"), "<b");
        // A text of angle brackets and spaces (hostile): one pass, kept as written.
        let hostile = "< ".repeat(200_000) + ">";
        assert_eq!(strip_tags(&hostile), hostile);
    }

    #[test]
    fn an_attachment_type_not_in_the_list_says_its_name_and_its_text() {
        let EventView::Line { text, tone, details } =
            attachment("brand_new", &json!({"message": "hello\nworld"}))
        else {
            panic!()
        };
        assert_eq!((text.as_str(), tone), ("brand_new: hello", Tone::Unknown));
        assert_eq!(details, vec!["message: hello\nworld"]);
        // Without a text field, its plain fields say it.
        let EventView::Line { text, .. } = attachment("brand_new", &json!({"count": 2, "on": true})) else {
            panic!()
        };
        assert_eq!(text, "brand_new: count: 2; on: yes");
        let EventView::Line { text, .. } = attachment("brand_new", &json!({})) else { panic!() };
        assert_eq!(text, "brand_new");
    }
}
