//! Workflow: a scripted run of sub-agents started in the background. The panel names the run,
//! says how it went (from `workflows/<runId>.json` and the run's journal, when loaded), and the
//! run's agents nest under the call like a Task's.

use super::Output;
use crate::model::tool_result::ToolUseResult;
use crate::normalize::beside::AgentState;
use crate::present::calls::CallView;
use crate::text::format::{duration, thousands};

#[derive(Clone, Debug, PartialEq)]
pub struct WorkflowBody {
    /// The workflow's name, or the script it ran.
    pub name: String,
    pub run_id: Option<String>,
    /// `async_launched` when started; the run's own status (`completed`, `failed`) when its
    /// snapshot was loaded.
    pub status: Option<String>,
    pub summary: Option<String>,
    pub error: Option<String>,
    /// `4 agents · 3 returned · 1 failed · 2 min · 120,000 tokens`, from the run's files.
    pub totals: Option<String>,
    pub output: Output,
}

impl WorkflowBody {
    pub fn of(call: &CallView) -> WorkflowBody {
        let started = match call.structured() {
            Some(ToolUseResult::Workflow(w)) => Some(w),
            _ => None,
        };
        let run = call.result.as_ref().and_then(|r| r.run.as_ref());
        let snapshot = run.and_then(|r| r.snapshot.as_ref());
        let name = snapshot
            .and_then(|s| s.title.clone().or(s.workflow_name.clone()))
            .or_else(|| started.and_then(|w| w.workflow_name.clone()))
            .or_else(|| call.text("name").or(call.text("scriptPath")).map(str::to_owned))
            .unwrap_or_default();
        let totals = run.map(|run| {
            let count = |state| run.agents.iter().filter(|(_, s)| *s == state).count();
            let agents = snapshot.and_then(|s| s.agent_count).unwrap_or(run.agents.len() as u64);
            let mut parts = vec![format!("{agents} agent{}", if agents == 1 { "" } else { "s" })];
            for (state, word) in [
                (AgentState::Returned, "returned"),
                (AgentState::Failed, "failed"),
                (AgentState::Started, "running"),
            ] {
                let n = count(state);
                if n > 0 {
                    parts.push(format!("{n} {word}"));
                }
            }
            if let Some(ms) = snapshot.and_then(|s| s.duration_ms) {
                parts.push(duration(ms));
            }
            if let Some(tokens) = snapshot.and_then(|s| s.total_tokens) {
                parts.push(format!("{} tokens", thousands(tokens)));
            }
            parts.join(" · ")
        });
        WorkflowBody {
            name,
            run_id: started.and_then(|w| w.run_id.clone()),
            status: snapshot
                .and_then(|s| s.status.clone())
                .or_else(|| started.and_then(|w| w.status.clone())),
            summary: snapshot
                .and_then(|s| s.summary.clone())
                .or_else(|| started.and_then(|w| w.summary.clone())),
            error: snapshot.and_then(|s| s.error.clone()).or_else(|| started.and_then(|w| w.error.clone())),
            totals,
            output: Output::of(call),
        }
    }
}
