//! The session on a time line: each tool call a bar from its call to its result, calls that ran
//! at once side by side, each sub-agent a lane of its own under the main conversation's, the
//! prompts as ticks. Long idle stretches (waiting for the person, a night) are cut out and
//! labelled, so the work fills the width.

use crate::normalize::time::parse_millis;
use crate::normalize::{ItemKind, Session, Thread, ThreadRef, Workspace};
use crate::present::calls::call_input;
use crate::present::when::item_millis;
use crate::text::format::{duration, squeeze};

/// A call from its start to its result, on a lane.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub start: i64,
    pub end: i64,
    pub lane: usize,
    /// Its row in the lane: calls that overlap are on different rows.
    pub row: usize,
    pub label: String,
    pub failed: bool,
    pub thread: ThreadRef,
    pub item: u32,
}

/// A lane: the main conversation, or a sub-agent's.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Lane {
    pub label: String,
    pub thread: ThreadRef,
    pub rows: usize,
}

/// A stretch with nothing running, cut out of the line.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Idle {
    pub start: i64,
    pub end: i64,
}

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timeline {
    pub lanes: Vec<Lane>,
    pub spans: Vec<Span>,
    /// The prompts typed: (time, row in the main conversation).
    pub prompts: Vec<(i64, u32)>,
    /// Active stretches, in order; between two of them the line is cut.
    pub pieces: Vec<(i64, i64)>,
    /// For each piece, the active milliseconds of the pieces before it.
    active_before: Vec<i64>,
}

/// A pause longer than this is cut out of the line.
pub const IDLE_MS: i64 = 5 * 60 * 1000;

/// The time line of `session`.
pub fn timeline(ws: &Workspace, session: &Session) -> Timeline {
    let mut out = Timeline::default();
    add_lane(ws, &mut out, "Main conversation".into(), ThreadRef::Main, &session.thread);
    for (i, agent) in session.agents.iter().enumerate() {
        let label = agent
            .description
            .clone()
            .or(agent.agent_type.clone())
            .unwrap_or_else(|| format!("sub-agent {}", i + 1));
        add_lane(ws, &mut out, label, ThreadRef::Agent(i as u32), &agent.thread);
    }
    for (index, item) in session.thread.items.iter().enumerate() {
        if item.is_typed_prompt() {
            if let Some(ms) = item_millis(ws, item) {
                out.prompts.push((ms, index as u32));
            }
        }
    }
    // The active stretches: the instants something happened (rows written, calls begun and
    // ended; not a call's whole span: one that waited all night for a permission was idle),
    // merged where less than IDLE_MS apart. A call across a cut is drawn across it.
    let mut moments: Vec<i64> = out.prompts.iter().map(|&(ms, _)| ms).collect();
    let threads = std::iter::once(&session.thread).chain(session.agents.iter().map(|a| &a.thread));
    for thread in threads {
        moments.extend(thread.items.iter().filter_map(|it| item_millis(ws, it)));
    }
    moments.extend(out.spans.iter().flat_map(|s| [s.start, s.end]));
    moments.sort_unstable();
    for ms in moments {
        match out.pieces.last_mut() {
            Some(last) if ms <= last.1.saturating_add(IDLE_MS) => last.1 = last.1.max(ms),
            _ => out.pieces.push((ms, ms)),
        }
    }
    let mut active = 0i64;
    for &(start, end) in &out.pieces {
        out.active_before.push(active);
        active = active.saturating_add(end - start);
    }
    out
}

fn add_lane(ws: &Workspace, out: &mut Timeline, label: String, thread_ref: ThreadRef, thread: &Thread) {
    let lane = out.lanes.len();
    let mut spans: Vec<Span> = Vec::new();
    for (index, item) in thread.items.iter().enumerate() {
        let ItemKind::ToolCall(call) = &item.kind else { continue };
        let Some(start) = item_millis(ws, item) else { continue };
        let end = call
            .result
            .and_then(|r| ws.entry(r.line)?.envelope.timestamp.map(|t| (r, t)))
            .and_then(|(r, t)| parse_millis(t.key(ws.src(r.line))))
            .unwrap_or(start)
            .max(start);
        // The call's name and input only: decoding every result took most of the time line.
        let (name, input) = call_input(ws, item, call);
        spans.push(Span {
            start,
            end,
            lane,
            row: 0,
            label: label_of(&name, &input, end - start),
            failed: call.result.is_some_and(|r| r.failed()),
            thread: thread_ref,
            item: index as u32,
        });
    }
    // Rows: each call on the first row free at its start.
    spans.sort_by_key(|s| (s.start, s.end));
    let mut ends: Vec<i64> = Vec::new();
    for span in &mut spans {
        span.row = match ends.iter().position(|&end| end <= span.start) {
            Some(row) => row,
            None => {
                ends.push(i64::MIN);
                ends.len() - 1
            }
        };
        // A call of no length still takes its instant.
        ends[span.row] = span.end.max(span.start + 1);
    }
    out.lanes.push(Lane { label, thread: thread_ref, rows: ends.len().max(1) });
    out.spans.extend(spans);
}

/// `Bash · npm test · 3.6s`: the tool, what it was given, how long it took.
fn label_of(name: &str, input: &serde_json::Value, ms: i64) -> String {
    let key = ["command", "file_path", "pattern", "description", "url", "query", "path", "prompt"]
        .iter()
        .find_map(|k| input.get(k)?.as_str())
        .map(|t| format!(" · {}", squeeze(t, 80)))
        .unwrap_or_default();
    format!("{name}{key} · {}", duration(ms as f64))
}

impl Timeline {
    /// Milliseconds of activity on the line (the pieces, without the cut-out stretches).
    pub fn active_ms(&self) -> i64 {
        self.pieces.iter().map(|(s, e)| e - s).sum()
    }

    /// Where `ms` is on a line `px_per_ms` wide per millisecond, with `gap` pixels for each cut:
    /// in the piece that holds it (or the first that ends after it), after the pieces and cuts
    /// before that.
    pub fn x(&self, ms: i64, px_per_ms: f64, gap: f64) -> f64 {
        if self.pieces.is_empty() {
            return 0.0;
        }
        let i = self.pieces.partition_point(|&(_, end)| end < ms).min(self.pieces.len() - 1);
        let (start, end) = self.pieces[i];
        let before = self.active_before.get(i).copied().unwrap_or(0);
        before as f64 * px_per_ms + i as f64 * gap + (ms.clamp(start, end) - start) as f64 * px_per_ms
    }

    /// The stretches cut out, between the pieces.
    pub fn idle(&self) -> Vec<Idle> {
        self.pieces.windows(2).map(|w| Idle { start: w[0].1, end: w[1].0 }).collect()
    }
}
