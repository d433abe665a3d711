//! Sessions that continue another: a background session (`sessionKind: "bg"`), a fork or a resume
//! can begin with a copy of another session's lines under a new session id. When both files are
//! loaded, the copy is recognised by its lines' `uuid`s, and the later session says which one it
//! continues and how many of its first lines are the copy.

use super::fxhash::FxMap;
use super::view::Session;
use crate::model::Transcript;

/// Where a session's first lines came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContinuedFrom {
    /// The index of the session copied, in the workspace's sessions.
    pub session: u32,
    /// How many of this session's first lines (of those with a uuid) are that session's.
    pub copied: u32,
    /// The index, in this session's file, of the last line of the copy: every line up to it
    /// (the events between the copied messages too) came from the other session.
    pub through: u32,
}

/// Sets `about.continued_from` on each session whose file begins with lines of another's.
/// Lines are known by their `uuid`; those without one (titles, snapshots) are not compared.
pub fn link(sessions: &mut [Session], files: &[Transcript]) {
    let mut with_files: Vec<(usize, &Transcript)> =
        sessions.iter().enumerate().filter_map(|(i, s)| Some((i, &files[s.file? as usize]))).collect();
    if with_files.len() < 2 {
        return;
    }
    // A copy is made later and goes on after its original: a line belongs to the session that
    // ended first among those holding it (timestamps are ISO 8601, so text order is time order).
    with_files.sort_by(|a, b| sessions[a.0].stats.last_timestamp.cmp(&sessions[b.0].stats.last_timestamp));
    let mut owner: FxMap<&[u8], usize> = FxMap::default();
    for &(session, file) in &with_files {
        for (_, uuid) in own_uuids(file) {
            owner.entry(uuid).or_insert(session);
        }
    }
    for &(session, file) in &with_files {
        let mut uuids = own_uuids(file).peekable();
        let Some(from) = uuids.peek().and_then(|(_, u)| owner.get(u)).copied().filter(|&o| o != session)
        else {
            continue;
        };
        let (copied, through) = uuids
            .take_while(|(_, u)| owner.get(u) == Some(&from))
            .fold((0, 0), |(n, _), (line, _)| (n + 1, line as u32));
        sessions[session].about.continued_from =
            Some(ContinuedFrom { session: from as u32, copied, through });
    }
}

/// The lines of the session's own conversation (messages and the events between them, not a
/// sub-agent's): (index in the file, uuid).
fn own_uuids(file: &Transcript) -> impl Iterator<Item = (usize, &[u8])> {
    file.lines.iter().enumerate().filter_map(|(index, line)| {
        let entry = line.entry()?;
        if entry.envelope.is_sidechain {
            return None;
        }
        Some((index, entry.envelope.uuid?.key(&file.bytes)))
    })
}

#[cfg(test)]
mod tests {
    use crate::normalize::{normalize, Input};

    fn line(uuid: &str, parent: Option<&str>, session: &str, text: &str, minute: u32) -> String {
        let parent = parent.map_or("null".to_owned(), |p| format!("\"{p}\""));
        format!(
            r#"{{"type":"user","uuid":"{uuid}","parentUuid":{parent},"sessionId":"{session}","timestamp":"2026-11-20T10:{minute:02}:00Z","message":{{"role":"user","content":"{text}"}}}}"#
        )
    }

    #[test]
    fn a_background_copy_says_which_session_it_continues() {
        // The copy repeats the first session's uuids under its own id (a peer's test fixture of
        // a `sessionKind: "bg"` session; no public real file has both halves).
        let first = [line("u1", None, "a", "start", 1), line("u2", Some("u1"), "a", "go on", 2)].join("\n");
        let copy = [
            line("u1", None, "b", "start", 1),
            line("u2", Some("u1"), "b", "go on", 2),
            line("u3", Some("u2"), "b", "now in the background", 9),
        ]
        .join("\n");
        let ws = normalize(vec![
            Input { name: "b.jsonl".into(), bytes: copy.into_bytes() },
            Input { name: "a.jsonl".into(), bytes: first.into_bytes() },
        ]);
        let (a, b) = (&ws.sessions[1], &ws.sessions[0]);
        assert_eq!(a.about.continued_from, None);
        assert_eq!(b.about.continued_from, Some(super::ContinuedFrom { session: 1, copied: 2, through: 1 }));
    }
}
