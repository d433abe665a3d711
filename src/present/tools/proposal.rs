//! What the model puts to the person to approve: ProposeGoal (a condition that ends the session's
//! work when met) and ProposeSkills (skills to write, or to improve, shown on a review card).

use serde_json::Value;

use super::facts::{self, Facts, Listed};
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::plural;

pub fn proposal(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    let result = facts::result_object(call);
    if call.tool == Tool::ProposeGoal {
        // The result keeps the condition as it was shown, and whether the person was asked.
        let asked = facts::flag(result, "askUser").or(facts::flag(Some(&call.input), "ask_user"));
        let how = match asked {
            Some(false) => "set directly, from the person's own words",
            // Asking is the default.
            _ if result.is_some() => "asked the person to approve it",
            _ => "to be approved by the person",
        };
        facts.field("goal", Some(how.to_owned()));
        facts.text(
            "done when",
            facts::text(result, "condition").or(facts::text(Some(&call.input), "condition")),
        );
    } else {
        let proposals = facts::list(Some(&call.input), "proposals");
        facts.field("proposes", Some(plural(proposals.len() as u64, "skill")));
        let shown = facts::number(result, "proposalCount");
        facts.field("on the review card", shown.map(|n| plural(n, "proposal")));
        facts.items = proposals.iter().map(skill).collect();
    }
    if result.is_some() {
        facts.said();
    }
    facts
}

/// One skill proposed: its name, new or which skill it improves, when to use it, and the
/// instructions it would get (the whole SKILL.md, or the edits to the one there is).
fn skill(proposal: &Value) -> Listed {
    let name = facts::text(Some(proposal), "name").unwrap_or_else(|| "(no name)".to_owned());
    let kind = match (facts::text(Some(proposal), "kind").as_deref(), facts::text(Some(proposal), "target")) {
        (Some("improvement"), Some(target)) => format!("improves {target}"),
        (Some("improvement"), None) => "an improvement".to_owned(),
        _ => "new".to_owned(),
    };
    let edits = facts::list(Some(proposal), "edits").len() as u64;
    let body = facts::text(Some(proposal), "skillMd").or_else(|| (edits > 0).then(|| plural(edits, "edit")));
    let when = facts::text(Some(proposal), "description");
    let text = match (when, body) {
        (Some(when), Some(body)) => Some(format!("{when}\n\n{body}")),
        (when, body) => when.or(body),
    };
    Listed::new(name).note(Some(kind)).with_text(text)
}

#[cfg(test)]
mod tests {
    use super::super::facts::Facts;
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::Proposal(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_goal_proposed_says_its_condition_and_whether_the_person_was_asked() {
        let goal = body(documented(
            "ProposeGoal",
            json!({"condition": "all tests in test/auth pass", "ask_user": false}),
            "Goal set",
            json!({"condition": "all tests in test/auth pass (bun test exits 0)", "askUser": false}),
        ));
        assert_eq!(goal.fields, [("goal", "set directly, from the person's own words".to_owned())]);
        assert_eq!(
            goal.text,
            Some(("done when", "all tests in test/auth pass (bun test exits 0)".to_owned()))
        );
        assert_eq!(goal.told, None);
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn skills_proposed_are_listed_new_or_improving_one() {
        let skills = body(documented(
            "ProposeSkills",
            json!({"proposals": [
                {"name": "release-notes", "kind": "new", "description": "Use when writing release notes",
                 "skillMd": "---\nname: release-notes\n---\nList the merged PRs."},
                {"name": "deploy", "kind": "improvement", "target": "deploy", "description": "Use to deploy",
                 "edits": [{"old_string": "a", "new_string": "b"}]}
            ]}),
            "Shown 2 proposals",
            json!({"proposalCount": 2}),
        ));
        assert_eq!(
            skills.fields,
            [("proposes", "2 skills".to_owned()), ("on the review card", "2 proposals".to_owned())]
        );
        assert_eq!(skills.items[0].title, "release-notes");
        assert_eq!(skills.items[0].note.as_deref(), Some("new"));
        assert!(skills.items[0].text.as_deref().unwrap().ends_with("List the merged PRs."));
        assert_eq!(skills.items[1].note.as_deref(), Some("improves deploy"));
        assert_eq!(skills.items[1].text.as_deref(), Some("Use to deploy\n\n1 edit"));
    }
}
