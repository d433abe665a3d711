//! What cctv did not recognise in the loaded files: a report for the next version of cctv.
//!
//! Claude Code's format moves every few releases. cctv never breaks on what it does not know (an
//! unknown entry is shown raw, an unknown field ignored), and this report turns that tolerance
//! into a list: every entry type, system subtype, progress type, attachment type, content block
//! type, tool and top-level field it has no reading for, with how often it was seen, in which
//! Claude Code versions, and one example line with its long strings shortened, so the report
//! can go in a bug report without the transcript's content. Lines of a known type whose payload
//! did not fit are listed with the error.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::model::{
    BlockKind, EntryKind, Line, MetadataKind, ProgressKind, RecordKind, SystemSubtype, Tool, Transcript,
};
use crate::normalize::Workspace;
use crate::present::event::known_attachment;
use crate::present::tools::family;

/// Top-level fields cctv reads (`model::wire`), and those it knows and leaves alone on purpose.
const KNOWN_FIELDS: &[&str] = &[
    // Read into entries.
    "type",
    "subtype",
    "uuid",
    "parentUuid",
    "logicalParentUuid",
    "sessionId",
    "timestamp",
    "agentId",
    "cwd",
    "version",
    "gitBranch",
    "slug",
    "isSidechain",
    "isMeta",
    "isVisibleInTranscriptOnly",
    "isCompactSummary",
    "message",
    "requestId",
    "isApiErrorMessage",
    "apiError",
    "error",
    "toolUseResult",
    "sourceToolAssistantUUID",
    "sourceToolUseID",
    "permissionMode",
    "content",
    "level",
    "durationMs",
    "messageCount",
    "compactMetadata",
    "retryAttempt",
    "maxRetries",
    "retryInMs",
    "hookCount",
    "preventedContinuation",
    "toolUseID",
    "parentToolUseID",
    "data",
    "attachment",
    "summary",
    "leafUuid",
    "messageId",
    "isSnapshotUpdate",
    "operation",
    "prNumber",
    "prUrl",
    "prRepository",
    "lastPrompt",
    "aiTitle",
    "customTitle",
    "agentName",
    "mode",
    "effort",
    // Read when a row is shown (stop hooks, micro-compactions).
    "hookInfos",
    "hookErrors",
    "stopReason",
    "microcompactMetadata",
    // Known, with nothing to show: who wrote the line and how, undo data, internal ids.
    "userType",
    "snapshot",
    "cause",
    "hasOutput",
    "hookAdditionalContext",
    "interruptedMessageId",
    "promptId",
    "thinkingMetadata",
    "todos",
    "costUSD",
    "entrypoint",
    "promptSource",
    // Metadata entries of 2.1.x: read, or known with nothing to show.
    "agentColor",
    "agentSetting",
    "bridgeSessionId",
    "lastSequenceNum",
    "declaredDialogKinds",
    "sessionGroupingId",
    "noHistoryBackfill",
    "ownerAccountUuid",
    "ownerOrganizationUuid",
    "continuedInSessionId",
    "explicit",
    "atis",
    "totalCostUSD",
    "totalAPIDuration",
    "totalAPIDurationWithoutRetries",
    "totalToolDuration",
    "totalLinesAdded",
    "totalLinesRemoved",
    "totalDuration",
    "startTime",
    "modelUsage",
    "hasUnknownModelCost",
    "modelCallCostUSD",
    // fork-context-ref: read as the fork's link (normalize::sidechains).
    "parentSessionId",
    "parentLastUuid",
    "contextLength",
    // Fields of conversation lines in 2.1.x: where a session runs and who wrote a line, shown
    // in the side panel or known with nothing to show.
    "sessionKind",
    "teamName",
    "attributionAgent",
    "attributionSkill",
    "attributionPlugin",
    "attributionMcpServer",
    "attributionMcpTool",
    "requestSessionId",
    "dataFlowOn",
    "forkedFrom",
    // 2.1.220+ writes the session id twice, once in snake case.
    "session_id",
    // Session state and record rows of 2.1.2xx-2.1.33x (`tag`, `relocated`, `worktree-state`,
    // `frame-link`, `content-replacement`, `fork-context-ref`).
    "tag",
    "relocatedCwd",
    "worktreeSession",
    "path",
    "frameUrl",
    "title",
    "artifactCount",
    "replacements",
];

/// One thing cctv did not recognise.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Unrecognised {
    /// `entry type`, `system subtype`, `progress type`, `attachment type`, `block type`, `tool`,
    /// `field`.
    pub kind: &'static str,
    pub name: String,
    pub count: u64,
    /// The Claude Code versions of the lines it was seen on.
    pub versions: BTreeSet<String>,
    /// The first line it was seen on, its strings shortened.
    pub example: String,
}

/// A line of a known type whose payload did not fit, with why.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Misfit {
    pub file: String,
    pub line: u32,
    pub type_name: String,
    pub error: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Drift {
    pub unrecognised: Vec<Unrecognised>,
    pub misfits: Vec<Misfit>,
}

impl Drift {
    pub fn is_empty(&self) -> bool {
        self.unrecognised.is_empty() && self.misfits.is_empty()
    }
}

/// The drift report of every file of `ws`.
pub fn drift(ws: &Workspace) -> Drift {
    let mut found: BTreeMap<(&'static str, String), Unrecognised> = BTreeMap::new();
    let mut misfits = Vec::new();
    // Only what was given: rebuilt sub-agent files repeat lines of the session file.
    for file in &ws.files[..ws.given] {
        for line in &file.lines {
            let mut note = |kind: &'static str, name: String| {
                let version =
                    line.entry().and_then(|e| e.envelope.version).map(|v| v.decode(&file.bytes).into_owned());
                let seen = found.entry((kind, name.clone())).or_insert_with(|| Unrecognised {
                    kind,
                    name,
                    count: 0,
                    versions: BTreeSet::new(),
                    example: example(file, line),
                });
                seen.count += 1;
                seen.versions.extend(version);
            };
            read_line(file, line, &mut note, &mut misfits);
        }
    }
    Drift { unrecognised: found.into_values().collect(), misfits }
}

fn read_line(
    file: &Transcript,
    line: &Line,
    note: &mut dyn FnMut(&'static str, String),
    misfits: &mut Vec<Misfit>,
) {
    let src = &file.bytes[..];
    let Some(entry) = line.entry() else { return };
    let (type_name, subtype) = entry.label(src);
    match &entry.kind {
        EntryKind::Unknown => {
            note("entry type", if type_name.is_empty() { "(none)".into() } else { type_name.into_owned() })
        }
        EntryKind::Malformed { error } => misfits.push(Misfit {
            file: file.name.clone(),
            line: line.number,
            type_name: type_name.into_owned(),
            error: error.clone(),
        }),
        EntryKind::System(s) if matches!(s.subtype, SystemSubtype::Unknown(_)) => {
            note("system subtype", subtype.unwrap_or_default().into_owned())
        }
        EntryKind::Progress(p) if matches!(p.kind, ProgressKind::Unknown(_)) => {
            note("progress type", subtype.unwrap_or_default().into_owned())
        }
        EntryKind::Attachment(a) if !a.is_hook(src) => {
            let kind = subtype.unwrap_or_default();
            if !known_attachment(&kind) {
                note("attachment type", kind.into_owned());
            }
        }
        _ => {}
    }
    if let Some(message) = entry.message() {
        for block in message.content.blocks() {
            match &block.kind {
                BlockKind::Unknown { type_name } => note(
                    "block type",
                    type_name.map(|t| t.decode(src).into_owned()).unwrap_or_else(|| "(not a block)".into()),
                ),
                BlockKind::Malformed { type_name, error } => misfits.push(Misfit {
                    file: file.name.clone(),
                    line: line.number,
                    type_name: format!("{} block", type_name.decode(src)),
                    error: (*error).to_owned(),
                }),
                BlockKind::ToolUse(t) | BlockKind::ServerToolUse(t) => {
                    let name = t.name.map(|n| n.decode(src).into_owned()).unwrap_or_default();
                    if family(&Tool::from_name(&name)).is_none() {
                        note(if is_garbled(&name) { "garbled tool name" } else { "tool" }, name);
                    }
                }
                _ => {}
            }
        }
    }
    if is_read_whole(&entry.kind) {
        return;
    }
    for field in fields(line.span.text(src)) {
        if !KNOWN_FIELDS.contains(&field.as_str()) {
            note("field", field);
        }
    }
}

/// Lines whose fields are not drift: bookkeeping is never shown (so a new field of it changes
/// nothing a reader sees), and a derived-from or memory-mode line is shown field by field,
/// whatever its fields are.
fn is_read_whole(kind: &EntryKind) -> bool {
    match kind {
        EntryKind::Bookkeeping(_) => true,
        EntryKind::Metadata(m) => m.kind == MetadataKind::DerivedFrom,
        EntryKind::Record(r) => r.kind == RecordKind::MemoryMode,
        _ => false,
    }
}

/// The top-level keys of a line.
/// A tool's name no tool can have: the API takes letters, digits, `_` and `-` (MCP names too), so
/// a name with spaces, quotes or markup is a model's garbled call, nothing cctv could learn to read
/// (its row shows the name as text, as for any unknown tool).
fn is_garbled(name: &str) -> bool {
    name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || "_-.:".contains(c))
}

fn fields(text: &str) -> Vec<String> {
    serde_json::from_str::<BTreeMap<String, serde::de::IgnoredAny>>(text)
        .map(|m| m.into_keys().collect())
        .unwrap_or_default()
}

/// A line as an example: strings past 60 characters cut to their first 40 and their length, so the
/// report shows the shape without the conversation; 2 KB at most.
fn example(file: &Transcript, line: &Line) -> String {
    let text = line.span.text(&file.bytes);
    let shown = match serde_json::from_str::<Value>(text) {
        Ok(mut value) => {
            shorten(&mut value);
            value.to_string()
        }
        Err(_) => text.chars().take(200).collect(),
    };
    if shown.len() > 2048 {
        let cut = (0..=2048).rev().find(|&i| shown.is_char_boundary(i)).unwrap_or(0);
        format!("{}…", &shown[..cut])
    } else {
        shown
    }
}

fn shorten(value: &mut Value) {
    match value {
        Value::String(s) if s.chars().count() > 60 => {
            let n = s.chars().count();
            *s = format!("{}…({n} chars)", s.chars().take(40).collect::<String>());
        }
        Value::Array(items) => items.iter_mut().for_each(shorten),
        Value::Object(map) => map.values_mut().for_each(shorten),
        _ => {}
    }
}

/// The report as text for a bug report: one line per item, then the misfits.
pub fn as_text(drift: &Drift) -> String {
    let mut out = String::from("cctv drift report: what this version of cctv did not recognise\n");
    for u in &drift.unrecognised {
        let versions: Vec<&str> = u.versions.iter().map(String::as_str).collect();
        out.push_str(&format!(
            "- {} `{}`: {} line{} (Claude Code {})\n  example: {}\n",
            u.kind,
            u.name,
            u.count,
            if u.count == 1 { "" } else { "s" },
            if versions.is_empty() { "?".into() } else { versions.join(", ") },
            u.example
        ));
    }
    for m in &drift.misfits {
        out.push_str(&format!("- {} line {} ({}): {}\n", m.file, m.line, m.type_name, m.error));
    }
    if drift.is_empty() {
        out.push_str("nothing: every line was recognised\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::{normalize, Input};

    fn report(lines: &[&str]) -> Drift {
        drift(&normalize(vec![Input { name: "s.jsonl".into(), bytes: lines.join("\n").into_bytes() }]))
    }

    #[test]
    fn what_is_new_is_listed_with_its_versions_and_a_short_example() {
        let long = "x".repeat(500);
        let drift = report(&[
            &format!(r#"{{"type":"brand-new","uuid":"n1","version":"2.1.300","secret":"{long}"}}"#),
            r#"{"type":"brand-new","uuid":"n2","version":"2.1.301"}"#,
            r#"{"type":"system","subtype":"quantum_leap","uuid":"s1","content":"x","version":"2.1.300"}"#,
            r#"{"type":"assistant","uuid":"a1","version":"2.1.300","newField":1,"message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Teleport","input":{}},{"type":"hologram"}]}}"#,
            r#"{"type":"user","uuid":"u1","message":{"role":"user","content":[{"type":"text"}]}}"#,
        ]);
        let find = |kind: &str, name: &str| {
            drift.unrecognised.iter().find(|u| u.kind == kind && u.name == name).cloned()
        };
        let entry = find("entry type", "brand-new").expect("the entry type");
        assert_eq!(entry.count, 2);
        assert_eq!(entry.versions.iter().map(String::as_str).collect::<Vec<_>>(), ["2.1.300", "2.1.301"]);
        assert!(!entry.example.contains(&long) && entry.example.contains("(500 chars)"), "{}", entry.example);
        assert!(find("system subtype", "quantum_leap").is_some());
        assert!(find("tool", "Teleport").is_some());
        assert!(find("block type", "hologram").is_some());
        assert!(find("field", "newField").is_some());
        assert!(find("field", "secret").is_some());
        assert!(find("tool", "Bash").is_none());
        assert_eq!(drift.misfits.len(), 1, "a text block without text: {:?}", drift.misfits);
        let text = as_text(&drift);
        assert!(text.contains("entry type `brand-new`: 2 lines (Claude Code 2.1.300, 2.1.301)"), "{text}");
    }

    #[test]
    fn a_session_of_known_things_has_nothing_to_report() {
        let drift = report(&[
            r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","userType":"external","cwd":"/","version":"2.1.0","message":{"role":"user","content":"hi"}}"#,
            r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}]}}"#,
        ]);
        assert!(drift.is_empty(), "{drift:?}");
        assert!(as_text(&drift).contains("every line was recognised"));
    }

    #[test]
    fn every_built_in_tool_of_claude_code_2_1_332_is_read() {
        // The built-in tools of 2.1.332 (its `sdk-tools.d.ts`, and those real transcripts hold
        // beside it), one call each: none is listed as a tool cctv shows only as JSON.
        let names = [
            "Agent",
            "Bash",
            "PowerShell",
            "Edit",
            "Read",
            "Write",
            "NotebookEdit",
            "Glob",
            "Grep",
            "TodoWrite",
            "WebFetch",
            "WebSearch",
            "AskUserQuestion",
            "EnterPlanMode",
            "ExitPlanMode",
            "TaskCreate",
            "TaskGet",
            "TaskUpdate",
            "TaskList",
            "TaskStop",
            "TaskOutput",
            "Workflow",
            "CronCreate",
            "CronDelete",
            "CronList",
            "ScheduleWakeup",
            "Monitor",
            "RemoteTrigger",
            "EnterWorktree",
            "ExitWorktree",
            "Artifact",
            "PushNotification",
            "ReportFindings",
            "ProposeGoal",
            "ProposeSkills",
            "ListMcpResources",
            "ReadMcpResource",
            "ReadMcpResourceDir",
            "RefreshMcpTools",
            "SendFeedback",
            "ClaudeDesign",
            "Projects",
            "ReadNotifications",
            "OfferChromeSetup",
            "ShowOnboardingRolePicker",
            "SendMessage",
            "ListAgents",
            "SendUserFile",
            "TeamCreate",
            "TeamDelete",
            "Skill",
            "ToolSearch",
            "LSP",
        ];
        let lines: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                format!(
                    r#"{{"type":"assistant","uuid":"a{i}","sessionId":"s","requestId":"r{i}","message":{{"id":"m{i}","role":"assistant","content":[{{"type":"tool_use","id":"t{i}","name":"{name}","input":{{}}}}]}}}}"#
                )
            })
            .collect();
        let drift = report(&lines.iter().map(String::as_str).collect::<Vec<_>>());
        let unread: Vec<&str> =
            drift.unrecognised.iter().filter(|u| u.kind == "tool").map(|u| u.name.as_str()).collect();
        assert!(unread.is_empty(), "shown only as JSON: {unread:?}");
    }

    #[test]
    fn the_entries_and_fields_of_claude_code_2_1_are_recognised() {
        // Documented shapes (Claude Code 2.1.112/2.1.330 writers); no public session holds them.
        let drift = report(&[
            r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","version":"2.1.330","entrypoint":"cli","sessionKind":"bg","promptSource":"typed","teamName":"core","requestSessionId":"p","message":{"role":"user","content":"hi"}}"#,
            r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","requestId":"r","attributionSkill":"deck","attributionMcpServer":"srv","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Workflow","input":{"name":"w"}}]}}"#,
            r#"{"type":"agent-color","agentColor":"red","sessionId":"s"}"#,
            r#"{"type":"agent-setting","agentSetting":"reviewer","sessionId":"s"}"#,
            r#"{"type":"bridge-session","sessionId":"s","bridgeSessionId":"b","lastSequenceNum":0}"#,
            r#"{"type":"atis-latch","sessionId":"s","atis":"x"}"#,
            r#"{"type":"cost-state","sessionId":"s","totalCostUSD":0.5,"totalAPIDuration":1,"totalAPIDurationWithoutRetries":1,"totalToolDuration":1,"totalLinesAdded":1,"totalLinesRemoved":0,"totalDuration":2,"startTime":1,"modelUsage":{}}"#,
            r#"{"type":"continued-in","sessionId":"s","continuedInSessionId":"s2","timestamp":"2026-11-20T10:00:00Z"}"#,
            r#"{"type":"last-prompt","lastPrompt":"hi","leafUuid":"u1","explicit":true,"sessionId":"s"}"#,
        ]);
        assert!(drift.is_empty(), "{drift:?}");
    }
}
