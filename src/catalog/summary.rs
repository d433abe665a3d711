//! What the list says about a session: its title, when it ran, where, with what, and how much.
//!
//! A folder of thousands of sessions is listed from the two ends of each file ([`from_ends`]): the
//! first lines say where and when it started and what was asked first, the last lines when it
//! ended and the titles Claude Code re-appends as it goes. Counts need every line; they are filled
//! in when the whole session has been read ([`whole`]), and until then say they are unknown.

use crate::model::Transcript;
use crate::normalize::{assemble, Session, Workspace};

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    pub session_id: Option<String>,
    /// The person's title, else Claude's, else a summary, else the first typed prompt.
    pub title: Option<String>,
    pub first_timestamp: Option<String>,
    pub last_timestamp: Option<String>,
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    /// The Claude Code versions that wrote it, first and last.
    pub versions: Option<(String, String)>,
    /// Models seen, most used first (in the lines read).
    pub models: Vec<String>,
    /// The uuid of the first line of its own conversation: a session that begins with a copy of
    /// another (a resume, a background copy) begins with the same one.
    pub first_uuid: Option<String>,
    /// Known once every line was read.
    pub counts: Option<Counts>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    pub prompts: u64,
    pub tool_calls: u64,
    pub sub_agents: u64,
}

/// A session known from the start and the end of its file: `head` is the file's first bytes and
/// `tail` its last (they may overlap, or be the whole file). Only whole lines are read: the head
/// up to its last line break, the tail from its first (unless it is the start of the file).
pub fn from_ends(name: &str, head: &[u8], tail: &[u8], tail_is_start: bool) -> Summary {
    let head = &head[..memchr::memrchr(b'\n', head).map_or(head.len(), |i| i + 1)];
    let tail =
        if tail_is_start { tail } else { memchr::memchr(b'\n', tail).map_or(&tail[..0], |i| &tail[i + 1..]) };
    let first = assemble(vec![Transcript::parse(name, head.to_vec())], Vec::new());
    let last = assemble(vec![Transcript::parse(name, tail.to_vec())], Vec::new());
    let (Some(start), end) = (first.sessions.first(), last.sessions.first()) else {
        return end_only(&last);
    };
    let mut summary = read(&first, start);
    summary.counts = None;
    let Some(end) = end else { return summary };
    // Titles are re-appended as a session goes on: the latest wins, the person's over Claude's
    // over a summary; the first prompt only where none is written.
    let (a, b) = (&end.about, &start.about);
    let written =
        a.custom_title.clone().or(b.custom_title.clone()).or(a.ai_title.clone()).or(b.ai_title.clone());
    summary.title = written.or(a.summary.clone()).or(summary.title);
    if let (text, Some(ms)) = latest(&last, end) {
        (summary.last_timestamp, summary.last_ms) = (text, Some(ms));
    }
    if let (Some((first_version, _)), Some((_, last_version))) = (&summary.versions, &end.about.versions) {
        summary.versions = Some((first_version.clone(), last_version.clone()));
    }
    for model in models(end) {
        if !summary.models.contains(&model) {
            summary.models.push(model);
        }
    }
    summary
}

/// A head without a whole line (a first line longer than the bytes read): what the end says.
fn end_only(last: &Workspace) -> Summary {
    let mut summary = last.sessions.first().map(|s| read(last, s)).unwrap_or_default();
    summary.counts = None;
    summary.first_uuid = None;
    summary
}

/// A session read whole (its file and its sub-agents'), counts included.
pub fn whole(ws: &Workspace, session: &Session) -> Summary {
    read(ws, session)
}

fn read(ws: &Workspace, s: &Session) -> Summary {
    let stats = &s.stats;
    let first_uuid = s.file.and_then(|f| {
        let file = &ws.files[f as usize];
        file.lines.iter().find_map(|l| {
            let e = l.entry().filter(|e| !e.envelope.is_sidechain)?;
            Some(e.envelope.uuid?.decode(&file.bytes).into_owned())
        })
    });
    let (last_timestamp, last_ms) = latest(ws, s);
    // When it started: its first line with a time (a later line can carry an earlier time, as
    // a replayed command's output does, which the head of the file cannot know of).
    let first = s.file.and_then(|f| first_written(&ws.files[f as usize]));
    let (first_timestamp, first_ms) = match first {
        Some((text, ms)) => (Some(text), Some(ms)),
        None if stats.first_ms.is_none() => agents_first(s),
        None => (stats.first_timestamp.clone(), stats.first_ms),
    };
    Summary {
        session_id: s.session_id.clone(),
        title: s.title.clone(),
        first_timestamp,
        last_timestamp,
        first_ms,
        last_ms,
        cwd: s.about.started.cwd.clone(),
        git_branch: s.about.started.git_branch.clone().filter(|b| !b.is_empty()),
        versions: s.about.versions.clone(),
        models: models(s),
        first_uuid,
        counts: Some(Counts {
            prompts: stats.user_prompts,
            tool_calls: stats.tool_calls.values().sum(),
            sub_agents: s.agents.len() as u64,
        }),
    }
}

/// When the session was last active: the later of its conversation's end and the last line
/// written (a session rewound and left ended on another branch).
fn latest(ws: &Workspace, s: &Session) -> (Option<String>, Option<i64>) {
    match s.file.and_then(|f| last_written(&ws.files[f as usize])) {
        Some((text, ms)) if Some(ms) > s.stats.last_ms => (Some(text), Some(ms)),
        _ if s.stats.last_ms.is_none() => agents_last(s),
        _ => (s.stats.last_timestamp.clone(), s.stats.last_ms),
    }
}

/// When the first of its sub-agents began: the session's own times, for a session whose own
/// file is not there (only its sub-agents' files were kept).
fn agents_first(s: &Session) -> (Option<String>, Option<i64>) {
    let first = s.agents.iter().filter_map(|a| Some((a.stats.first_ms?, &a.stats.first_timestamp))).min();
    first.map_or((None, None), |(ms, text)| (text.clone(), Some(ms)))
}

/// When the last of its sub-agents ended ([`agents_first`]).
fn agents_last(s: &Session) -> (Option<String>, Option<i64>) {
    let last = s.agents.iter().filter_map(|a| Some((a.stats.last_ms?, &a.stats.last_timestamp))).max();
    last.map_or((None, None), |(ms, text)| (text.clone(), Some(ms)))
}

/// The time of the last line of `file` that has one.
fn last_written(file: &Transcript) -> Option<(String, i64)> {
    file.lines.iter().rev().find_map(|l| time_of(file, l))
}

fn first_written(file: &Transcript) -> Option<(String, i64)> {
    file.lines.iter().find_map(|l| time_of(file, l))
}

fn time_of(file: &Transcript, line: &crate::model::Line) -> Option<(String, i64)> {
    let stamp = line.entry()?.envelope.timestamp?.decode(&file.bytes);
    Some((stamp.to_string(), crate::normalize::time::parse_millis(stamp.as_bytes())?))
}

/// Most used first.
fn models(s: &Session) -> Vec<String> {
    let mut models: Vec<(&String, &u64)> = s.stats.models.iter().collect();
    models.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    models.into_iter().map(|(m, _)| m.clone()).collect()
}

impl Summary {
    /// From the first to the last timestamp.
    pub fn duration_ms(&self) -> Option<i64> {
        Some(self.last_ms? - self.first_ms?).filter(|d| *d >= 0)
    }
}
