//! What a session's own file says about it besides the conversation: its titles, the agent it
//! runs as (name, colour, definition), its modes, its pull requests, where it continued, and
//! where and how it was started (the first conversation line's `cwd`, `gitBranch`, `entrypoint`,
//! `sessionKind`, `teamName`). Metadata entries are re-appended on resume, so the last one wins.

use serde::Deserialize;

use super::pace::Pace;
use super::view::LineRef;
use crate::model::{EntryKind, MetadataKind, RecordKind, Transcript};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct About {
    pub custom_title: Option<String>,
    pub ai_title: Option<String>,
    /// The latest `summary` entry.
    pub summary: Option<String>,
    pub agent_name: Option<String>,
    /// As written: only a known colour name is ever used for styling.
    pub agent_color: Option<String>,
    pub agent_setting: Option<String>,
    /// What it is after its last line: its modes, tag, worktree.
    pub state: State,
    /// Each line after which that became something else, and what: the title says what it was
    /// as of the row being read ([`About::changes_by`]). The last is `state`.
    pub changes: Vec<(u32, State)>,
    /// How many times the permission mode changed (the entry is re-written on every turn; only
    /// a different mode is a change).
    pub permission_changes: usize,
    pub pr_links: Vec<LineRef>,
    /// The session another one took over from this one.
    pub continued_in: Option<String>,
    /// The loaded session this one begins with a copy of (set across sessions, by
    /// [`super::continued`]).
    pub continued_from: Option<super::continued::ContinuedFrom>,
    /// Connected to claude.ai (remote control) when last said.
    pub remote_control: bool,
    /// The working directory it was moved to.
    pub relocated_to: Option<String>,
    /// The line saying which session this one was derived from (its fields read when shown).
    pub derived_from: Option<LineRef>,
    /// Claude Code's own latest cost tally (`cost-state`).
    pub cost_state: Option<LineRef>,
    pub started: Started,
    /// The Claude Code versions that wrote it, first and last.
    pub versions: Option<(String, String)>,
    /// The reasoning effort its first response asked for ([`effort`]).
    pub effort: Option<String>,
}

/// What a session is at some line of it, as the lines before say: what changes as it goes on
/// (a person switches modes, tags it, enters a worktree and leaves it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    /// `coordinator`, `normal`.
    pub mode: Option<String>,
    /// `default`, `plan`, `acceptEdits`, `bypassPermissions`, …
    pub permission_mode: Option<String>,
    /// The tag the person gave it (`/tag`); an empty tag clears it.
    pub tag: Option<String>,
    /// The worktree it works in (`worktree-state`).
    pub worktree: Option<Worktree>,
    /// The model ended the conversation itself.
    pub ended_by_model: bool,
}

impl About {
    /// How many of the [`changes`](About::changes) were made by line `line` (0-based) of its
    /// file, that line included.
    pub fn changes_by(&self, line: u32) -> usize {
        self.changes.partition_point(|(at, _)| *at <= line)
    }

    /// What the session was after its first `changes` changes (all of them, if it made fewer):
    /// nothing said yet after none.
    pub fn state_after(&self, changes: usize) -> &State {
        static NOTHING: State =
            State { mode: None, permission_mode: None, tag: None, worktree: None, ended_by_model: false };
        let made = changes.min(self.changes.len());
        made.checked_sub(1).map_or(&NOTHING, |i| &self.changes[i].1)
    }
}

/// A worktree as `worktree-state` describes it. Each field is read on its own, so one of an
/// unexpected type leaves only that one unknown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Worktree {
    pub worktree_name: Option<String>,
    pub worktree_path: Option<String>,
    pub worktree_branch: Option<String>,
    pub original_cwd: Option<String>,
}

/// What a `worktree-state` line says.
#[derive(Clone, Debug, PartialEq)]
pub enum WorktreeSaid {
    /// Working in this worktree.
    In(Worktree),
    /// No worktree (`null`, or no `worktreeSession` at all): the session left it, or never had one.
    Left,
    /// A `worktreeSession` that is neither an object nor `null`: nothing can be said.
    Unreadable,
}

impl Worktree {
    pub fn said(src: &[u8], value: Option<crate::model::Span>) -> WorktreeSaid {
        let Some(value) = value else { return WorktreeSaid::Left };
        let string = |o: &serde_json::Map<String, serde_json::Value>, keys: &[&str]| {
            keys.iter().find_map(|k| o.get(*k)?.as_str().map(str::to_owned))
        };
        match serde_json::from_slice(value.bytes(src)) {
            Ok(serde_json::Value::Null) => WorktreeSaid::Left,
            Ok(serde_json::Value::Object(o)) => WorktreeSaid::In(Worktree {
                worktree_name: string(&o, &["worktreeName", "name"]),
                worktree_path: string(&o, &["worktreePath", "path"]),
                worktree_branch: string(&o, &["worktreeBranch", "branch"]),
                original_cwd: string(&o, &["originalCwd"]),
            }),
            _ => WorktreeSaid::Unreadable,
        }
    }
}

/// What the first conversation line says about where the session runs.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Started {
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    /// `cli`, `claude-vscode`, `sdk-ts`, …
    pub entrypoint: Option<String>,
    /// `bg` for a background session; none for an interactive one.
    pub session_kind: Option<String>,
    pub team_name: Option<String>,
    /// A teammate's own name in its team.
    pub agent_name: Option<String>,
}

pub async fn about(file: &Transcript, file_index: u32, pace: &mut Pace<'_>) -> About {
    let src = &file.bytes[..];
    let mut about = About::default();
    let text = |v: Option<crate::model::JsonStr>| v.map(|v| v.decode(src).into_owned());
    let mut first_conversation = None;
    for (index, line) in file.lines.iter().enumerate() {
        pace.step().await;
        let Some(entry) = line.entry() else { continue };
        if let Some(version) = entry.envelope.version.map(|v| v.decode(src)) {
            match &mut about.versions {
                None => about.versions = Some((version.to_string(), version.into_owned())),
                Some((_, last)) if *last != version => *last = version.into_owned(),
                Some(_) => {}
            }
        }
        let at = LineRef { file: file_index, line: index as u32 };
        match &entry.kind {
            EntryKind::User(_) | EntryKind::Assistant(_) if first_conversation.is_none() => {
                first_conversation = Some(index)
            }
            EntryKind::Summary(s) => about.summary = text(s.summary).or(about.summary.take()),
            EntryKind::PrLink(_) => about.pr_links.push(at),
            EntryKind::Record(r) if r.kind == RecordKind::WorktreeState => {
                match Worktree::said(src, r.value) {
                    WorktreeSaid::In(w) => about.state.worktree = Some(w),
                    WorktreeSaid::Left => about.state.worktree = None,
                    // What it was before still holds as far as anyone can tell.
                    WorktreeSaid::Unreadable => {}
                }
                note_change(&mut about, index);
            }
            EntryKind::Metadata(m) => {
                let value = text(m.value);
                let state = &mut about.state;
                match m.kind {
                    MetadataKind::CustomTitle => about.custom_title = value.or(about.custom_title.take()),
                    MetadataKind::AiTitle => about.ai_title = value.or(about.ai_title.take()),
                    MetadataKind::AgentName => about.agent_name = value.or(about.agent_name.take()),
                    MetadataKind::AgentColor => about.agent_color = value.or(about.agent_color.take()),
                    MetadataKind::AgentSetting => about.agent_setting = value.or(about.agent_setting.take()),
                    MetadataKind::Mode => state.mode = value.or(state.mode.take()),
                    MetadataKind::PermissionMode => {
                        if state.permission_mode.is_some()
                            && value.is_some()
                            && value != state.permission_mode
                        {
                            about.permission_changes += 1;
                        }
                        state.permission_mode = value.or(state.permission_mode.take());
                    }
                    MetadataKind::ContinuedIn => about.continued_in = value.filter(|v| !v.is_empty()),
                    // Clearing the bridge writes an empty id.
                    MetadataKind::BridgeSession => {
                        about.remote_control = value.is_some_and(|v| !v.is_empty())
                    }
                    MetadataKind::CostState => about.cost_state = Some(at),
                    MetadataKind::Tag => state.tag = value.filter(|t| !t.is_empty()),
                    MetadataKind::Relocated => about.relocated_to = value.or(about.relocated_to.take()),
                    MetadataKind::EndedByModel => state.ended_by_model = true,
                    MetadataKind::DerivedFrom => about.derived_from = Some(at),
                    MetadataKind::LastPrompt | MetadataKind::AtisLatch => {}
                }
                note_change(&mut about, index);
            }
            _ => {}
        }
    }
    // These fields are on every conversation line; one line says them (reading them into every
    // line's index would cost bytes per line for what is one fact per file).
    if let Some(line) = first_conversation {
        about.started = serde_json::from_slice(file.lines[line].span.bytes(src)).unwrap_or_default();
    }
    about.effort = effort(file);
    about
}

/// Notes the state after line `index` if the line changed it.
fn note_change(about: &mut About, index: usize) {
    let changed = match about.changes.last() {
        Some((_, before)) => *before != about.state,
        None => about.state != State::default(),
    };
    if changed {
        about.changes.push((index as u32, about.state.clone()));
    }
}

/// The reasoning effort (`low` … `high`) that a file's first response says it was asked for:
/// 2.1.2xx writes it on every assistant line; one line says it, as for [`Started`].
pub(crate) fn effort(file: &Transcript) -> Option<String> {
    #[derive(Deserialize)]
    struct Effort {
        effort: Option<String>,
    }
    let first =
        file.lines.iter().find(|l| l.entry().is_some_and(|e| matches!(e.kind, EntryKind::Assistant(_))))?;
    serde_json::from_slice::<Effort>(first.span.bytes(&file.bytes)).ok()?.effort
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about_of(lines: &[&str]) -> About {
        let t = Transcript::parse("s.jsonl".to_owned(), lines.join("\n").into_bytes());
        crate::normalize::pace::finish(about(&t, 0, &mut Pace::never()))
    }

    #[test]
    fn the_last_metadata_entry_wins_and_the_first_line_says_where_it_runs() {
        // Shapes as Claude Code 2.1.x writes them (its writers; no public file holds them all).
        let a = about_of(&[
            r#"{"type":"agent-name","agentName":"reviewer","sessionId":"s"}"#,
            r#"{"type":"agent-color","agentColor":"purple","sessionId":"s"}"#,
            r#"{"type":"agent-setting","agentSetting":"code-reviewer","sessionId":"s"}"#,
            r#"{"type":"permission-mode","permissionMode":"default","sessionId":"s"}"#,
            r#"{"type":"user","uuid":"u1","sessionId":"s","version":"2.1.300","cwd":"/home/me/app","gitBranch":"main","entrypoint":"cli","sessionKind":"bg","teamName":"core","message":{"role":"user","content":"hi"}}"#,
            r#"{"type":"permission-mode","permissionMode":"acceptEdits","sessionId":"s"}"#,
            r#"{"type":"mode","mode":"coordinator","sessionId":"s"}"#,
            r#"{"type":"bridge-session","sessionId":"s","bridgeSessionId":"b1","lastSequenceNum":3}"#,
            r#"{"type":"atis-latch","sessionId":"s","atis":"x"}"#,
            r#"{"type":"cost-state","sessionId":"s","totalCostUSD":1.25,"modelUsage":{}}"#,
            r#"{"type":"continued-in","sessionId":"s","continuedInSessionId":"s2","timestamp":"2026-11-20T10:00:00Z"}"#,
            r#"{"type":"assistant","uuid":"a1","sessionId":"s","version":"2.1.301","message":{"role":"assistant","content":[]}}"#,
            r#"{"type":"agent-name","agentName":"reviewer ⑂ fix","sessionId":"s"}"#,
        ]);
        assert_eq!(a.agent_name.as_deref(), Some("reviewer ⑂ fix"));
        assert_eq!(a.agent_color.as_deref(), Some("purple"));
        assert_eq!(a.agent_setting.as_deref(), Some("code-reviewer"));
        assert_eq!((a.state.permission_mode.as_deref(), a.permission_changes), (Some("acceptEdits"), 1));
        assert_eq!(a.state.mode.as_deref(), Some("coordinator"));
        assert!(a.remote_control);
        assert_eq!(a.cost_state, Some(LineRef { file: 0, line: 9 }));
        assert_eq!(a.continued_in.as_deref(), Some("s2"));
        assert_eq!(a.versions, Some(("2.1.300".into(), "2.1.301".into())));
        assert_eq!(
            a.started,
            Started {
                cwd: Some("/home/me/app".into()),
                git_branch: Some("main".into()),
                entrypoint: Some("cli".into()),
                session_kind: Some("bg".into()),
                team_name: Some("core".into()),
                agent_name: None,
            }
        );
    }
}
