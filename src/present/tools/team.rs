//! Teammates: TeamCreate and TeamDelete start and end a team; SendMessage carries a message from
//! one agent of a team to another (or to all).

use super::Output;
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct MessageBody {
    /// The sending agent, where the result says (`team-lead`).
    pub from: Option<String>,
    /// The receiving agent's name, or `*` for the whole team.
    pub to: String,
    pub summary: Option<String>,
    /// The message, Markdown.
    pub message: String,
    /// "Message sent to alice's inbox", or the error.
    pub output: Output,
}

/// TeamCreate and TeamDelete (documented shapes: Claude Code 2.1.112's writer; no public session
/// creates a team).
#[derive(Clone, Debug, PartialEq)]
pub struct TeamBody {
    pub created: bool,
    pub team: Option<String>,
    pub description: Option<String>,
    /// The lead's id in the team (`team-lead@core`), on creation.
    pub lead: Option<String>,
    pub output: Output,
}

impl TeamBody {
    pub fn of(call: &CallView) -> TeamBody {
        let result = call.structured_fields();
        let text = |key: &str| {
            result
                .and_then(|r| r.get(key))
                .and_then(serde_json::Value::as_str)
                .or_else(|| call.text(key))
                .map(str::to_owned)
        };
        TeamBody {
            created: call.tool == Tool::TeamCreate,
            team: text("team_name"),
            description: call.text("description").map(str::to_owned),
            lead: text("lead_agent_id"),
            output: Output::of(call),
        }
    }
}

impl MessageBody {
    pub fn of(call: &CallView) -> MessageBody {
        let first = |keys: &[&str]| keys.iter().find_map(|k| call.text(k)).map(str::to_owned);
        let routing = match call.structured() {
            Some(ToolUseResult::SendMessage(s)) => s.routing.clone(),
            _ => None,
        };
        MessageBody {
            from: routing.and_then(|r| r.sender),
            to: first(&["to", "recipient"]).unwrap_or_default(),
            summary: first(&["summary"]),
            message: first(&["message", "content"]).unwrap_or_default(),
            output: match call.structured() {
                Some(ToolUseResult::SendMessage(s)) if s.message.is_some() => Output::Result {
                    content: crate::model::body::ToolResultContent::Text(
                        s.message.clone().unwrap_or_default(),
                    ),
                    is_error: s.success == Some(false),
                },
                _ => Output::of(call),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, Output, ToolBody};
    use crate::fixtures::workspace;
    use crate::model::body::ToolResultContent;

    #[test]
    fn a_message_between_teammates_names_sender_and_receiver() {
        // A team lead sends round two of a task to its three teammates (CC 2.1.114).
        let ws = workspace("handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl");
        let sends = calls(&ws, "SendMessage");
        assert_eq!(sends.len(), 3);
        let ToolBody::Message(first) = tool_body(&sends[0], None) else { panic!() };
        assert_eq!(first.from.as_deref(), Some("team-lead"));
        assert_eq!(first.to, "alice");
        assert_eq!(first.summary.as_deref(), Some("round 2: pull master, add Comparison"));
        assert!(first.message.starts_with("Round 2"));
        assert_eq!(
            first.output,
            Output::Result {
                content: ToolResultContent::Text("Message sent to alice's inbox".into()),
                is_error: false
            }
        );
    }

    #[test]
    fn a_team_created_names_its_lead() {
        let call = super::super::test_support::documented(
            "TeamCreate",
            serde_json::json!({"team_name": "core", "description": "Ship the parser"}),
            "Team created",
            serde_json::json!({"team_name": "core", "team_file_path": "~/.claude/teams/core/config.json", "lead_agent_id": "team-lead@core"}),
        );
        let ToolBody::Team(team) = tool_body(&call, None) else { panic!() };
        assert!(team.created);
        assert_eq!(team.team.as_deref(), Some("core"));
        assert_eq!(team.lead.as_deref(), Some("team-lead@core"));
        assert_eq!(team.description.as_deref(), Some("Ship the parser"));
    }
}
