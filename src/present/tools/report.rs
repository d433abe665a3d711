//! Reports: ReportFindings (a code review's findings, most severe first: where, what is wrong,
//! how it fails) and SendFeedback (a bug, an idea or a missing capability sent to Anthropic).

use serde_json::Value;

use super::facts::{self, Facts, Listed};
use crate::model::tool_result::{Finding, ReportFindingsResult, ToolUseResult};
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::plural;

pub fn report(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    if call.tool == Tool::SendFeedback {
        feedback(call, &mut facts);
        return facts;
    }
    // The result echoes the findings; a call without one still says what it reported.
    let findings = match call.structured() {
        Some(ToolUseResult::ReportFindings(r)) => {
            facts.said();
            r.clone()
        }
        _ => match ReportFindingsResult::asked(&call.input) {
            Some(asked) => asked,
            // Neither says what was found: the panel is what the tool told the model.
            None => return facts,
        },
    };
    let count = findings.count.unwrap_or(findings.findings.len() as u64);
    facts.field(
        "found",
        Some(if count == 0 { "nothing that held up".to_owned() } else { plural(count, "finding") }),
    );
    facts.field("effort", findings.level.clone().or_else(|| call.text("level").map(str::to_owned)));
    facts.items = findings.findings.iter().map(finding).collect();
    facts
}

impl ReportFindingsResult {
    /// The findings a call's input holds (the same fields as the result's), if they read.
    fn asked(input: &Value) -> Option<ReportFindingsResult> {
        serde::Deserialize::deserialize(input).ok()
    }
}

/// One finding: `file:line`, its severity and verdict, what is wrong and how it fails.
fn finding(f: &Finding) -> Listed {
    let place = match f.line {
        Some(line) => format!("{}:{line}", f.file),
        None => f.file.clone(),
    };
    let note: Vec<String> = [&f.severity, &f.category, &f.verdict, &f.outcome]
        .into_iter()
        .flatten()
        .map(|w| facts::words(&w.to_ascii_lowercase()))
        .collect();
    let text = match &f.failure_scenario {
        Some(how) if !how.is_empty() => format!("{}\n\n{how}", f.summary),
        _ => f.summary.clone(),
    };
    Listed::new(place).note(Some(note.join(" · "))).with_text(Some(text))
}

/// SendFeedback: what kind, its title and details, and whether it was sent.
fn feedback(call: &CallView, facts: &mut Facts) {
    let input = Some(&call.input);
    facts.field("feedback", facts::text(input, "type").map(|t| facts::words(&t)));
    facts.field("title", facts::text(input, "title"));
    facts.field("about", facts::text(input, "area"));
    facts.field("model behaviour", facts::text(input, "failure_mode").map(|t| facts::words(&t)));
    facts.field("while", facts::text(input, "task_category").map(|t| facts::words(&t)));
    let result = facts::result_object(call);
    if let Some(sent) = facts::flag(result, "success") {
        let said = facts::text(result, "message");
        facts.field("sent", Some(if sent { "yes".to_owned() } else { "no".to_owned() }));
        facts.field("answer", said);
        if sent {
            facts.said();
        }
    }
    facts.text("details", facts::text(input, "details"));
}

#[cfg(test)]
mod tests {
    use super::super::facts::Facts;
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::Report(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn findings_are_listed_where_they_are_with_how_they_fail() {
        let finding = json!({"file": "src/parse.rs", "line": 42, "summary": "Off by one at the end of input",
            "failure_scenario": "an input of exactly 4096 bytes drops its last byte",
            "category": "correctness", "severity": "important", "verdict": "CONFIRMED"});
        let review = body(documented(
            "ReportFindings",
            json!({"level": "high", "findings": [finding.clone()]}),
            "1 finding",
            json!({"count": 1, "level": "high", "findings": [finding]}),
        ));
        assert_eq!(review.fields, [("found", "1 finding".to_owned()), ("effort", "high".to_owned())]);
        assert_eq!(review.items[0].title, "src/parse.rs:42");
        assert_eq!(review.items[0].note.as_deref(), Some("important · correctness · confirmed"));
        assert_eq!(
            review.items[0].text.as_deref(),
            Some("Off by one at the end of input\n\nan input of exactly 4096 bytes drops its last byte")
        );
        assert_eq!(review.told, None);
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn feedback_says_what_kind_its_title_and_whether_it_was_sent() {
        let sent = body(documented(
            "SendFeedback",
            json!({"type": "missing_capability", "title": "No way to pin a session", "details": "**What happened:** …",
                   "task_category": "code_edit"}),
            "Feedback sent",
            json!({"success": true, "message": "Thanks, feedback sent"}),
        ));
        assert_eq!(
            sent.fields,
            [
                ("feedback", "missing capability".to_owned()),
                ("title", "No way to pin a session".to_owned()),
                ("while", "code edit".to_owned()),
                ("sent", "yes".to_owned()),
                ("answer", "Thanks, feedback sent".to_owned()),
            ]
        );
        assert_eq!(sent.text, Some(("details", "**What happened:** …".to_owned())));
    }

    #[test]
    fn findings_of_the_wrong_type_still_give_a_panel() {
        // A result that does not fit the type is kept as JSON; the input still says what was reported.
        let review = body(documented(
            "ReportFindings",
            json!({"findings": "not a list"}),
            "error",
            json!({"count": "many", "findings": 3}),
        ));
        assert_eq!(review.fields, []);
        assert!(review.items.is_empty());
        assert!(review.told.is_some(), "what the tool told the model is shown instead");
    }
}
