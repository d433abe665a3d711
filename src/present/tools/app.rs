//! Claude Code's own state and dialogs, not the project's: ListAgents (the agents running
//! beside the session), OfferChromeSetup (an offer to connect the person's own browser, and
//! what they answered) and ShowOnboardingRolePicker (the role a new user picked, or not).

use serde_json::Value;

use super::facts::{self, Facts, Listed};
use crate::model::Tool;
use crate::present::calls::CallView;

pub fn app(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    let result = facts::result_object(call);
    match call.tool {
        Tool::OfferChromeSetup => {
            facts.field("needs the browser for", call.text("reason").map(str::to_owned));
            let answer = facts::text(result, "outcome").map(|o| match o.as_str() {
                "connected" => "connected Chrome".to_owned(),
                "not_now" => "not now".to_owned(),
                "no_attempt_yet" => "has not tried yet".to_owned(),
                other => facts::words(other),
            });
            facts.field("the person", answer);
        }
        Tool::ShowOnboardingRolePicker => {
            let picked = match (facts::text(result, "role"), facts::flag(result, "dismissed")) {
                (Some(role), _) => Some(role),
                (None, Some(true)) => Some("none: the picker was dismissed".to_owned()),
                _ => None,
            };
            facts.field("role", picked);
        }
        _ => agents(call, &mut facts),
    }
    if !facts.fields.is_empty() && result.is_some() {
        facts.said();
    }
    facts
}

/// ListAgents: its shape is not documented. A result that lists agents as objects is read by
/// the names agents go by elsewhere (`name`, `agentType`, `status`, `description`); anything
/// else is shown as the tool told it.
fn agents(call: &CallView, facts: &mut Facts) {
    let structured = facts::result_list(call)
        .or_else(|| facts::result_object(call).map(|r| facts::list(Some(r), "agents")))
        .unwrap_or_default();
    let listed: Vec<Listed> = structured.iter().filter(|a| a.is_object()).map(agent).collect();
    if !listed.is_empty() {
        facts.fields.push(("running", crate::text::format::plural(listed.len() as u64, "agent")));
        facts.items = listed;
        facts.said();
    }
}

fn agent(a: &Value) -> Listed {
    let a = Some(a);
    let first = |keys: &[&str]| keys.iter().find_map(|k| facts::text(a, k));
    let note = [first(&["agentType", "agent_type", "type"]), first(&["status", "state"])];
    Listed::new(first(&["name", "agentId", "agent_id", "id"]).unwrap_or_default())
        .note(Some(note.into_iter().flatten().collect::<Vec<_>>().join(" · ")))
        .with_text(first(&["description", "task"]))
}

#[cfg(test)]
mod tests {
    use super::super::facts::Facts;
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::App(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_dialog_says_what_the_person_answered() {
        let chrome = body(documented(
            "OfferChromeSetup",
            json!({"reason": "log in to the staging dashboard"}),
            "Connected",
            json!({"outcome": "not_now"}),
        ));
        assert_eq!(
            chrome.fields,
            [
                ("needs the browser for", "log in to the staging dashboard".to_owned()),
                ("the person", "not now".to_owned())
            ]
        );
        assert_eq!(chrome.told, None);
        let role =
            body(documented("ShowOnboardingRolePicker", json!({}), "Dismissed", json!({"dismissed": true})));
        assert_eq!(role.fields, [("role", "none: the picker was dismissed".to_owned())]);
    }

    #[test]
    fn agents_listed_in_a_shape_not_known_are_shown_as_the_tool_said_them() {
        // ListAgents has no documented shape: a text result stays what the model was told.
        let listed = body(documented("ListAgents", json!({}), "2 agents running", json!("2 agents running")));
        assert!(listed.fields.is_empty() && listed.items.is_empty());
        assert!(listed.told.is_some());
        // A list of agent objects is read by the names agents go by elsewhere.
        let listed = body(documented(
            "ListAgents",
            json!({}),
            "…",
            json!([{"name": "reviewer", "agentType": "general-purpose", "status": "running", "description": "Review the PR"}]),
        ));
        assert_eq!(listed.fields, [("running", "1 agent".to_owned())]);
        assert_eq!(listed.items[0].note.as_deref(), Some("general-purpose · running"));
    }
}
