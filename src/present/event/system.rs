//! A system line in words: a phrase per subtype, with what the line says (its `content`, else
//! its first text field), and its fields when opened. Claude Code's own bookkeeping is quiet.

use serde_json::Value;

use super::{line, EventView, Tone};
use crate::model::user_text::{user_text, UserText};
use crate::model::{body, Span, SystemEntry, SystemSubtype as S};
use crate::present::fields::{
    colon, fields_in_words, first_line, first_str, list, str_field, text_of, to_text,
};
use crate::text::format::{duration, isolate};

/// A system line in words; `fields` is the whole line.
pub(crate) fn system(s: &SystemEntry, src: &[u8], fields: &Value) -> EventView {
    let content = s.content.map(|c: Span| body::text(src, c)).unwrap_or_default();
    let str_of = |key: &str| str_field(fields, key);
    let (text, tone, details) = match s.subtype {
        S::TurnDuration => {
            (format!("Turn took {}", duration(s.duration_ms.unwrap_or(0.0))), Tone::Quiet, vec![])
        }
        S::ApiError => {
            let retry = s
                .retry
                .map(|r| {
                    format!(
                        ", retry {}/{} in {}",
                        r.attempt.unwrap_or(0),
                        r.max_retries.unwrap_or(0),
                        duration(r.retry_in_ms.unwrap_or(0.0))
                    )
                })
                .unwrap_or_default();
            let error = s.error.map(|e| body::text(src, e)).unwrap_or_default();
            let short: String =
                error.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(160).collect();
            (format!("API error{retry}: {short}"), Tone::Error, vec![])
        }
        // The SDK's retry notice: `attempt`, `max_retries`, `retry_delay_ms`, `error_status`.
        S::ApiRetry => {
            let attempt = first_str(fields, &["attempt", "retryAttempt"]);
            let max = first_str(fields, &["max_retries", "maxRetries"]);
            let delay = ["retry_delay_ms", "retryInMs"].iter().find_map(|k| fields.get(k)?.as_f64());
            let mut text = "API request retried".to_owned();
            if !attempt.is_empty() {
                text.push_str(&format!(", attempt {attempt}"));
                if !max.is_empty() {
                    text.push_str(&format!(" of {max}"));
                }
            }
            if let Some(delay) = delay {
                text.push_str(&format!(" in {}", duration(delay)));
            }
            let why = first_str(fields, &["error_status", "error", "content", "message"]);
            (format!("{text}{}", colon(&why)), Tone::Error, vec![])
        }
        S::StopHookSummary => {
            let hooks: Vec<String> =
                list(fields, "hookInfos").iter().map(|h| str_field(h, "command")).collect();
            let errors: Vec<String> = list(fields, "hookErrors").iter().map(to_text).collect();
            let count = s.hook_count.unwrap_or(hooks.len() as u64);
            let mut text = format!("Stop hooks: {count} ran");
            if !errors.is_empty() {
                text.push_str(&format!(", {} failed", errors.len()));
            }
            if s.prevented_continuation {
                let reason = str_of("stopReason");
                text.push_str(" and kept the response going");
                if !reason.is_empty() {
                    text.push_str(&format!(": {reason}"));
                }
            }
            let tone = if errors.is_empty() { Tone::Quiet } else { Tone::Error };
            (text, tone, hooks.into_iter().chain(errors.into_iter().map(|e| format!("error: {e}"))).collect())
        }
        // Claude Code's own recap when the person comes back; its text does not repeat the label.
        S::AwaySummary => (format!("While you were away: {content}"), Tone::Normal, vec![]),
        S::MicrocompactBoundary => {
            let meta = fields.get("microcompactMetadata").unwrap_or(&Value::Null);
            let saved = meta
                .get("tokensSaved")
                .and_then(Value::as_u64)
                .map(|t| format!(", {t} tokens freed"))
                .unwrap_or_default();
            (format!("Older tool results cleared from the context{saved}"), Tone::Quiet, vec![])
        }
        S::LocalCommand => match user_text(&content) {
            read @ UserText::Command { .. } => (read.headline().unwrap_or_default(), Tone::Normal, vec![]),
            UserText::CommandOutput { stdout, stderr } => {
                (format!("Command output: {stdout}{stderr}"), Tone::Normal, vec![])
            }
            _ if content.trim().is_empty() => ("Local command".into(), Tone::Normal, vec![]),
            _ => (content, Tone::Normal, vec![]),
        },
        S::Legacy | S::Informational => match content.trim() {
            "" => (format!("Notice{}", colon(&first_line(&text_of(fields)))), Tone::Normal, vec![]),
            _ => (content, Tone::Normal, vec![]),
        },
        S::CompactBoundary => ("Conversation compacted".into(), Tone::Normal, vec![]),
        // The SDK's first message: the model, the folder, the tools.
        S::Init => {
            let model = first_str(fields, &["model"]);
            let tools = list(fields, "tools").len() as u64;
            let mut text = "Session started".to_owned();
            if !model.is_empty() {
                text.push_str(&format!(" with {model}"));
            }
            if tools > 0 {
                text.push_str(&format!(", {}", crate::text::format::plural(tools, "tool")));
            }
            (text, Tone::Quiet, vec![])
        }
        S::ModelFallback | S::ModelRefusalFallback | S::ModelConsentFallback => {
            let from = first_str(fields, &["originalModel", "fromModel", "from", "requestedModel"]);
            let to = first_str(fields, &["fallbackModel", "toModel", "to", "model"]);
            let lead = match s.subtype {
                S::ModelRefusalFallback => "The model declined; another model answered",
                S::ModelConsentFallback => "Another model answered: the one asked for needs consent",
                _ => "Switched to a fallback model",
            };
            let models = match (from.is_empty(), to.is_empty()) {
                (false, false) => format!(" ({} → {})", isolate(&from), isolate(&to)),
                (true, false) => format!(" ({})", isolate(&to)),
                _ => String::new(),
            };
            (format!("{lead}{models}{}", colon(&first_line(&content))), Tone::Normal, vec![])
        }
        S::SessionTitleChanged => {
            let title = first_str(fields, &["title", "newTitle", "content"]);
            (format!("Session renamed{}", colon(&title)), Tone::Normal, vec![])
        }
        S::ShellCwd | S::StartFolder => {
            // The folder is the line's own field, which the envelope's `cwd` also names.
            let folder = first_str(fields, &["newCwd", "folder", "path", "content", "cwd"]);
            let lead = if s.subtype == S::ShellCwd { "The shell is now in" } else { "Started in" };
            (format!("{lead}{}", colon(&folder)), Tone::Quiet, vec![])
        }
        S::HookStarted | S::HookProgress | S::HookResponse => {
            let hook = first_str(fields, &["hook_name", "hookName", "hook_event", "hookEvent"]);
            let lead = match s.subtype {
                S::HookStarted => "Hook started",
                S::HookProgress => "Hook running",
                _ => "Hook answered",
            };
            let outcome = first_str(fields, &["outcome", "exit_code", "exitCode"]);
            let outcome = if outcome.is_empty() { String::new() } else { format!(" ({outcome})") };
            (format!("{lead}{}{outcome}", colon(&hook)), Tone::Quiet, vec![])
        }
        subtype => {
            let (lead, tone) = phrase(subtype);
            let said = match content.trim() {
                "" => first_line(&text_of(fields)),
                text => text.to_owned(),
            };
            match subtype {
                S::Unknown(name) => (format!("{}{}", name.decode(src), colon(&said)), Tone::Unknown, vec![]),
                // The `ui_*` subtypes share a phrase; the name says which.
                _ => match subtype.name(src).strip_prefix("ui_") {
                    Some(what) => {
                        (format!("{lead} ({}){}", what.replace('_', " "), colon(&said)), tone, vec![])
                    }
                    None => (format!("{lead}{}", colon(&said)), tone, vec![]),
                },
            }
        }
    };
    // Opened, a row says its fields in words when its reading has no details of its own.
    let details = if details.is_empty() { fields_in_words(fields, &[]) } else { details };
    line(text, tone, details)
}

/// The words of a subtype read by phrase alone, and its tone.
fn phrase(subtype: S) -> (&'static str, Tone) {
    use Tone::{Error, Normal, Quiet};
    match subtype {
        S::AgentsKilled => ("Background agents stopped", Normal),
        S::ApiMetrics => ("API metrics", Quiet),
        S::BackgroundTasksChanged => ("Background tasks changed", Quiet),
        S::BridgeState => ("Remote control", Quiet),
        S::BridgeStatus => ("Remote session", Quiet),
        S::CheckpointDone => ("Checkpoint saved", Quiet),
        S::CloudSessionDelta => ("Cloud session updated", Quiet),
        S::CloudSessionStatus => ("Cloud session", Quiet),
        S::CodeChangePublished => ("Code change published", Normal),
        S::CommandsChanged => ("Slash commands changed", Quiet),
        S::ControlRequestProgress => ("Control request in progress", Quiet),
        S::DevIntent => ("Developer intent", Quiet),
        S::ElicitationComplete => ("An MCP server's question was answered", Normal),
        S::FeedbackDraftQueued => ("Feedback draft queued", Quiet),
        S::FileAttachmentsMissing => ("Attached files are missing", Error),
        S::FileSnapshot => ("File snapshot kept", Quiet),
        S::InheritedAsksSettled => ("Inherited permission questions settled", Quiet),
        S::InstructionSizeWarning => ("Instructions are large", Normal),
        S::LateAllowNotRun => ("Allowed too late: the tool did not run", Normal),
        S::MemoryRecall => ("Memory recalled", Quiet),
        S::MemorySaved => ("Memory saved", Normal),
        S::MirrorError => ("Mirroring the session failed", Error),
        S::ModelRefusalNoFallback => ("The model declined, and no other model could answer", Error),
        S::Notification => ("Notification", Normal),
        S::PeerMessageHold => ("A peer's message held back", Quiet),
        S::PerTurnEffortChanged => ("Effort changed", Normal),
        S::PermissionCheckStatus => ("Permission check", Quiet),
        S::PermissionDenied => ("Permission denied", Error),
        S::PermissionRetry => ("Permission asked again", Normal),
        S::Placed => ("Placed", Quiet),
        S::PluginInstall => ("Plugin installed", Normal),
        S::PostTurnSummary => ("Turn summary", Quiet),
        S::RewindStandIn => ("Rewound: this stands in for what was removed", Quiet),
        S::ScheduledTaskFire => ("Scheduled task ran", Normal),
        S::SessionMetadata => ("Session details", Quiet),
        S::SessionStateChanged => ("Session state", Quiet),
        S::SessionWritesLost => ("Some of the session's lines were not saved", Error),
        S::Status => ("Status", Quiet),
        S::TaskNotification => ("Background task", Normal),
        S::TaskProgress => ("Background task progress", Quiet),
        S::TaskStarted => ("Background task started", Normal),
        S::TaskSummary => ("Background task summary", Normal),
        S::TaskUpdated => ("Background task updated", Quiet),
        S::ThinkingTokens => ("Thinking tokens", Quiet),
        S::ToolHostResult => ("Tool host result", Quiet),
        S::TurnBeganBeforeInit => ("A turn began before the session was ready", Quiet),
        S::TurnHandoffAvailable => ("The turn can be handed off", Quiet),
        S::TurnPreempted => ("Turn preempted", Normal),
        S::TurnStarting => ("Turn starting", Quiet),
        S::VcsStateChanged => ("Version control state changed", Quiet),
        S::VoiceCallTalk => ("Voice call", Normal),
        S::WorkerShuttingDown => ("Worker shutting down", Quiet),
        // What Claude Code's screen did (focus, toasts, panes): its own bookkeeping, one reading
        // for all `ui_*` subtypes.
        S::UiFocus
        | S::UiInvalidate
        | S::UiLog
        | S::UiNotify
        | S::UiNotifyCancel
        | S::UiPanes
        | S::UiPlaced
        | S::UiScroll
        | S::UiStatus
        | S::UiToast => ("Claude Code's screen", Quiet),
        // Read by their own arms in `system`.
        S::ApiError
        | S::ApiRetry
        | S::AwaySummary
        | S::CompactBoundary
        | S::HookProgress
        | S::HookResponse
        | S::HookStarted
        | S::Informational
        | S::Init
        | S::Legacy
        | S::LocalCommand
        | S::MicrocompactBoundary
        | S::ModelConsentFallback
        | S::ModelFallback
        | S::ModelRefusalFallback
        | S::SessionTitleChanged
        | S::ShellCwd
        | S::StartFolder
        | S::StopHookSummary
        | S::TurnDuration
        | S::Unknown(_) => ("", Normal),
    }
}
