//! Task and Agent: the kind of sub-agent, the prompt it was given, and its answer. Its own
//! conversation is nested under the call by the row list, not here.

use serde_json::Value;

use super::{Answer, Output};
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct AgentBody {
    pub agent_type: Option<String>,
    pub status: Option<String>,
    /// The prompt, Markdown.
    pub prompt: String,
    /// The agent's final answer, Markdown.
    pub answer: Answer<String>,
}

impl AgentBody {
    pub fn of(call: &CallView) -> AgentBody {
        let task = match call.structured() {
            Some(ToolUseResult::Task(t)) => Some(t),
            _ => None,
        };
        let answer: String = task
            .map(|t| {
                t.content
                    .iter()
                    .filter_map(|c| c.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n\n")
            })
            .unwrap_or_default();
        AgentBody {
            agent_type: call.text("subagent_type").map(str::to_owned),
            status: task.and_then(|t| t.status.clone()),
            prompt: call.text("prompt").unwrap_or_default().to_owned(),
            answer: if answer.is_empty() {
                Answer::Plain(Output::of(call))
            } else {
                Answer::Structured(answer)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, Answer, ToolBody};
    use crate::fixtures::workspace;

    #[test]
    fn real_task_calls_show_the_prompt_and_the_agents_answer() {
        let ws =
            workspace("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
        let tasks = calls(&ws, "Task");
        assert!(!tasks.is_empty());
        let mut answered = 0;
        for task in &tasks {
            let ToolBody::Agent(body) = tool_body(task, None) else { panic!("Task gets the agent body") };
            assert_eq!(body.prompt, task.text("prompt").unwrap());
            answered += matches!(&body.answer, Answer::Structured(a) if !a.is_empty()) as usize;
        }
        assert!(answered > 0, "some sub-agent's answer is shown from the structured result");
    }
}
