//! Counting a thread: tokens per API response, models, tool calls, errors, time.

use super::fxhash::FxMap;
use super::pace::Pace;
use super::time::parse_millis;
use super::view::{ItemKind, Stats, Thread};
use crate::model::synthetic::{synthetic, Synthetic};
use crate::model::{EntryKind, SystemSubtype, Transcript};

/// Adds what `thread` (of `file`) holds to `stats`.
pub async fn add_thread(stats: &mut Stats, thread: &Thread, file: &Transcript, pace: &mut Pace<'_>) {
    let src = &file.bytes[..];
    // Counted by the names as written, turned into owned keys once at the end: one allocation
    // per distinct name rather than per call.
    let mut models: FxMap<&[u8], u64> = FxMap::default();
    let mut tools: FxMap<&[u8], u64> = FxMap::default();
    for response in &thread.responses {
        stats.responses += 1;
        // Counts come from the file: a hostile one can write u64::MAX.
        stats.input_tokens = stats.input_tokens.saturating_add(response.usage.input_tokens);
        stats.output_tokens = stats.output_tokens.saturating_add(response.usage.output_tokens);
        stats.cache_read_tokens =
            stats.cache_read_tokens.saturating_add(response.usage.cache_read_input_tokens);
        stats.cache_creation_tokens =
            stats.cache_creation_tokens.saturating_add(response.usage.cache_creation_input_tokens);
        stats.cache_creation_1h_tokens =
            stats.cache_creation_1h_tokens.saturating_add(response.usage.cache_creation_1h_input_tokens);
        if let Some(model) = response.model {
            // Claude Code's own stand-in for failed responses is not a model.
            let model = model.key(src);
            if model != b"<synthetic>" {
                *models.entry(model).or_insert(0) += 1;
            }
        }
    }
    let mut last_prompt_line = None;
    // The earliest and the latest (millis, timestamp as written).
    type Moment<'s> = (i64, &'s [u8]);
    let mut span: Option<(Moment, Moment)> = None;
    for item in &thread.items {
        pace.step().await;
        let line = &file.lines[item.line.line as usize];
        let Some(entry) = line.entry() else { continue };
        if let Some(text) = entry.envelope.timestamp.map(|t| t.key(src)) {
            if let Some(millis) = parse_millis(text) {
                span = Some(match span {
                    None => ((millis, text), (millis, text)),
                    Some((first, last)) => (
                        if millis < first.0 { (millis, text) } else { first },
                        if millis > last.0 { (millis, text) } else { last },
                    ),
                });
            }
        }
        match &item.kind {
            ItemKind::ToolCall(call) => {
                *tools.entry(call.name.map(|n| n.key(src)).unwrap_or_default()).or_insert(0) += 1;
                match call.result.map(|r| (r.failed(), r.synthetic)) {
                    Some((true, _)) => stats.tool_errors += 1,
                    Some((_, Some(Synthetic::Rejected))) => stats.tool_rejections += 1,
                    // An interrupt is counted once, from its own "[Request interrupted by user for
                    // tool use]" message below, not per call it stopped (calls running beside the
                    // stopped one are "cancelled").
                    _ => {}
                }
            }
            _ if item.is_typed_prompt() && last_prompt_line != Some(item.line) => {
                stats.user_prompts += 1;
                last_prompt_line = Some(item.line);
            }
            ItemKind::Prompt if item.synthetic => {
                let text = entry.message().and_then(|m| m.text(src, item.block));
                if text.is_some_and(|t| synthetic(&t) == Some(Synthetic::Interrupted)) {
                    stats.interruptions += 1;
                }
            }
            ItemKind::Event => match &entry.kind {
                EntryKind::System(s) if s.subtype == SystemSubtype::TurnDuration => {
                    stats.turn_duration_ms += s.duration_ms.unwrap_or(0.0);
                }
                EntryKind::System(s) if s.subtype == SystemSubtype::ApiError => stats.api_errors += 1,
                _ => {}
            },
            _ => {}
        }
        if let EntryKind::Assistant(a) = &entry.kind {
            if a.is_api_error_message && item.block.is_none_or(|b| b == 0) {
                stats.api_errors += 1;
            }
        }
    }
    let decode = |raw: &[u8]| crate::model::JsonStr::unescape(&String::from_utf8_lossy(raw));
    for (model, n) in models {
        *stats.models.entry(decode(model)).or_insert(0) += n;
    }
    for (tool, n) in tools {
        *stats.tool_calls.entry(decode(tool)).or_insert(0) += n;
    }
    if let Some(((first_ms, first), (last_ms, last))) = span {
        if stats.first_ms.is_none_or(|known| first_ms < known) {
            stats.first_ms = Some(first_ms);
            stats.first_timestamp = Some(String::from_utf8_lossy(first).into_owned());
        }
        if stats.last_ms.is_none_or(|known| last_ms > known) {
            stats.last_ms = Some(last_ms);
            stats.last_timestamp = Some(String::from_utf8_lossy(last).into_owned());
        }
        stats.wall_ms = Some(stats.last_ms.unwrap_or(last_ms) - stats.first_ms.unwrap_or(first_ms));
    }
}

/// Folds an agent's counts into its session's (sub-agent work is part of the session's cost).
pub(crate) fn add_agent(session: &mut Stats, agent: &Stats) {
    session.input_tokens = session.input_tokens.saturating_add(agent.input_tokens);
    session.output_tokens = session.output_tokens.saturating_add(agent.output_tokens);
    session.cache_read_tokens = session.cache_read_tokens.saturating_add(agent.cache_read_tokens);
    session.cache_creation_tokens = session.cache_creation_tokens.saturating_add(agent.cache_creation_tokens);
    session.cache_creation_1h_tokens =
        session.cache_creation_1h_tokens.saturating_add(agent.cache_creation_1h_tokens);
    for (model, n) in &agent.models {
        *session.models.entry(model.clone()).or_insert(0) += n;
    }
    for (tool, n) in &agent.tool_calls {
        *session.tool_calls.entry(tool.clone()).or_insert(0) += n;
    }
    session.tool_errors += agent.tool_errors;
    session.tool_rejections += agent.tool_rejections;
    session.interruptions += agent.interruptions;
    session.api_errors += agent.api_errors;
    session.sub_agents += 1;
}
