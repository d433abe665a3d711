//! AskUserQuestion (the questions, their options, the one chosen), and plan mode: ExitPlanMode
//! (the plan) and EnterPlanMode.

use serde_json::Value;

use super::Output;
use crate::model::body::ToolResultContent;
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct AskBody {
    pub questions: Vec<Question>,
    /// What the tool told the model (the answers in words).
    pub answer_text: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub text: String,
    pub choices: Vec<Choice>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub label: String,
    pub description: String,
    /// The user picked this one.
    pub chosen: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlanBody {
    /// The plan, Markdown; empty when entering plan mode.
    pub plan: String,
    pub output: Output,
}

impl AskBody {
    pub fn of(call: &CallView) -> AskBody {
        let answers = match call.structured() {
            Some(ToolUseResult::Other { value, .. }) => value.get("answers").cloned(),
            _ => None,
        };
        let questions =
            call.input.get("questions").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let str_of = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        let questions = questions
            .iter()
            .map(|q| {
                let text = str_of(q, "question");
                let chosen = answers.as_ref().and_then(|a| a.get(&text)).and_then(Value::as_str);
                let options =
                    q.get("options").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
                let choices = options
                    .iter()
                    .map(|o| {
                        let label = str_of(o, "label");
                        Choice {
                            chosen: chosen == Some(label.as_str()),
                            label,
                            description: str_of(o, "description"),
                        }
                    })
                    .collect();
                Question { text, choices }
            })
            .collect();
        let answer_text = call.result.as_ref().map(|r| match &r.content {
            ToolResultContent::Text(t) => t.clone(),
            _ => String::new(),
        });
        AskBody { questions, answer_text }
    }
}

impl PlanBody {
    pub fn of(call: &CallView) -> PlanBody {
        PlanBody { plan: call.text("plan").unwrap_or_default().to_owned(), output: Output::of(call) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, ToolBody};
    use crate::fixtures::workspace;

    const FIXTURE: &str =
        "handgemacht-ai__claude-code-log/test/test_data/real_projects/-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl";

    #[test]
    fn real_questions_show_their_options_and_the_answer_picked() {
        let ws = workspace(FIXTURE);
        let asks = calls(&ws, "AskUserQuestion");
        assert!(!asks.is_empty());
        let bodies: Vec<_> = asks
            .iter()
            .map(|c| match tool_body(c, None) {
                ToolBody::Ask(a) => a,
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(bodies
            .iter()
            .all(|b| b.questions.iter().all(|q| !q.text.is_empty() && !q.choices.is_empty())));
        assert!(bodies.iter().any(|b| b.answer_text.as_deref().is_some_and(|t| !t.is_empty())));
    }

    #[test]
    fn real_plans_show_the_plan() {
        let ws = workspace(FIXTURE);
        let plans = calls(&ws, "ExitPlanMode");
        assert!(!plans.is_empty());
        for call in &plans {
            let ToolBody::Plan(body) = tool_body(call, None) else { panic!() };
            assert_eq!(body.plan, call.text("plan").unwrap());
            assert!(!body.plan.is_empty());
        }
    }
}
