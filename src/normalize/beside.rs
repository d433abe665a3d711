//! Files Claude Code writes beside a session that are not conversations, recognised by where
//! they are in the session's folder:
//!
//! - `subagents/…/agent-<id>.meta.json`: what a sub-agent is (its type, its spawning call);
//! - `tool-results/<tool_use_id>.txt` (or `.json`): a tool's whole output, when it was too large
//!   for the conversation and the model was given a preview;
//! - `workflows/<runId>.json`: a workflow run's outcome, and
//!   `subagents/workflows/<runId>/journal.jsonl`: which of its agents started, returned or failed.

use serde::Deserialize;

use super::sidechains::AgentMeta;
use super::Input;

/// What a file beside a session is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Beside {
    AgentMeta,
    SavedOutput { tool_use_id: String },
    WorkflowRun { run_id: String },
    WorkflowJournal { run_id: String },
}

/// What `name` (a path inside a dropped folder, or a file name) is, if it is not a transcript.
pub fn beside(name: &str) -> Option<Beside> {
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    let (file, folders) = parts.split_last()?;
    let parent = folders.last().copied();
    if file.ends_with(".meta.json") {
        return Some(Beside::AgentMeta);
    }
    if parent == Some("tool-results") {
        let id = file.strip_suffix(".txt").or_else(|| file.strip_suffix(".json"))?;
        return Some(Beside::SavedOutput { tool_use_id: id.to_owned() });
    }
    if parent == Some("workflows") {
        let run_id = file.strip_suffix(".json")?;
        return Some(Beside::WorkflowRun { run_id: run_id.to_owned() });
    }
    if *file == "journal.jsonl" && folders.len() >= 2 && folders[folders.len() - 2] == "workflows" {
        return Some(Beside::WorkflowJournal { run_id: parent?.to_owned() });
    }
    None
}

/// A tool's whole output, saved beside the session.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedOutput {
    /// The file's path as given.
    pub name: String,
    pub tool_use_id: String,
    pub bytes: Vec<u8>,
}

/// A workflow run: what its snapshot and its journal say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkflowRun {
    pub run_id: String,
    pub snapshot: Option<RunSnapshot>,
    /// Each agent the journal names, in the order it started, with how it ended.
    pub agents: Vec<(String, AgentState)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentState {
    Started,
    Returned,
    Failed,
}

/// `workflows/<runId>.json`: the fields a reader wants of it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunSnapshot {
    pub workflow_name: Option<String>,
    pub title: Option<String>,
    pub status: Option<String>,
    pub summary: Option<String>,
    pub error: Option<String>,
    pub duration_ms: Option<f64>,
    pub agent_count: Option<u64>,
    pub total_tokens: Option<u64>,
    pub total_tool_calls: Option<u64>,
}

/// The side files read into what they say. A file that cannot be read is returned with the
/// reason, to be listed as rejected.
#[derive(Default)]
pub struct Read {
    pub metas: Vec<(String, AgentMeta)>,
    pub saved_outputs: Vec<SavedOutput>,
    pub workflow_runs: Vec<WorkflowRun>,
    /// The metadata and workflow files read, as given (a shared copy of the session carries them).
    pub side: Vec<Input>,
    pub rejected: Vec<(String, String)>,
}

pub fn read(inputs: Vec<Input>) -> Read {
    let mut out = Read::default();
    for input in inputs {
        let Some(kind) = beside(&input.name) else {
            out.rejected.push((input.name, "not a file Claude Code writes beside a session".into()));
            continue;
        };
        match kind {
            Beside::AgentMeta => match serde_json::from_slice::<AgentMeta>(&input.bytes) {
                Ok(meta) => {
                    out.metas.push((input.name.clone(), meta));
                    out.side.push(input);
                }
                Err(e) => out.rejected.push((input.name, format!("not a sub-agent .meta.json: {e}"))),
            },
            Beside::SavedOutput { tool_use_id } => {
                out.saved_outputs.push(SavedOutput { name: input.name, tool_use_id, bytes: input.bytes })
            }
            Beside::WorkflowRun { run_id } => match serde_json::from_slice::<RunSnapshot>(&input.bytes) {
                Ok(snapshot) => {
                    run(&mut out.workflow_runs, &run_id).snapshot = Some(snapshot);
                    out.side.push(input);
                }
                Err(e) => out.rejected.push((input.name, format!("not a workflow run snapshot: {e}"))),
            },
            Beside::WorkflowJournal { run_id } => {
                let agents = &mut run(&mut out.workflow_runs, &run_id).agents;
                journal(&input.bytes, agents);
                out.side.push(input);
            }
        }
    }
    out
}

fn run<'a>(runs: &'a mut Vec<WorkflowRun>, run_id: &str) -> &'a mut WorkflowRun {
    match runs.iter().position(|r| r.run_id == run_id) {
        Some(i) => &mut runs[i],
        None => {
            runs.push(WorkflowRun { run_id: run_id.to_owned(), ..WorkflowRun::default() });
            runs.last_mut().expect("just pushed")
        }
    }
}

/// Reads a journal's `started`/`result`/`failed` lines; others (`launched`, `restored`, …) say
/// nothing about an agent.
fn journal(bytes: &[u8], agents: &mut Vec<(String, AgentState)>) {
    #[derive(Deserialize)]
    struct Line {
        #[serde(rename = "type")]
        kind: String,
        #[serde(rename = "agentId")]
        agent_id: Option<String>,
    }
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(Line { kind, agent_id: Some(agent) }) = serde_json::from_slice::<Line>(line) else { continue };
        let state = match kind.as_str() {
            "started" => AgentState::Started,
            "result" => AgentState::Returned,
            "failed" => AgentState::Failed,
            _ => continue,
        };
        match agents.iter_mut().find(|(a, _)| *a == agent) {
            Some((_, s)) => *s = state,
            None => agents.push((agent, state)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_files_are_known_by_where_they_are() {
        assert_eq!(beside("s/subagents/agent-a1.meta.json"), Some(Beside::AgentMeta));
        assert_eq!(
            beside("s/tool-results/toolu_01.txt"),
            Some(Beside::SavedOutput { tool_use_id: "toolu_01".into() })
        );
        assert_eq!(beside("s/workflows/wf_1.json"), Some(Beside::WorkflowRun { run_id: "wf_1".into() }));
        assert_eq!(
            beside("s/subagents/workflows/wf_1/journal.jsonl"),
            Some(Beside::WorkflowJournal { run_id: "wf_1".into() })
        );
        assert_eq!(beside("s/subagents/workflows/wf_1/agent-a2.jsonl"), None);
        assert_eq!(beside("s.jsonl"), None);
        assert_eq!(beside("journal.jsonl"), None);
    }

    #[test]
    fn a_journal_says_how_each_agent_ended() {
        // The journal's documented line shapes (Claude Code 2.1.330's writer; no real run seen).
        let journal = br#"{"type":"launched"}
{"type":"started","key":"v2:aa","agentId":"a1"}
{"type":"started","key":"v2:bb","agentId":"a2"}
{"type":"result","key":"v2:aa","agentId":"a1","result":"done"}
{"type":"failed","key":"v2:bb","agentId":"a2"}
not json
"#;
        let read = read(vec![Input {
            name: "s/subagents/workflows/wf_1/journal.jsonl".into(),
            bytes: journal.to_vec(),
        }]);
        assert_eq!(
            read.workflow_runs[0].agents,
            [("a1".to_owned(), AgentState::Returned), ("a2".to_owned(), AgentState::Failed)]
        );
    }
}
