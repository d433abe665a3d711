//! Between the session and the person away from it: PushNotification (a message to their phone
//! or desktop, and whether it reached them), SendUserFile (a file handed to them), and
//! ReadNotifications (what reached the session from outside: webhooks, triggers, messages).

use serde_json::Value;

use super::facts::{Facts, Listed};
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::plural;

pub fn notify(call: &CallView) -> Facts {
    let mut facts = Facts::new(call);
    match (&call.tool, call.structured()) {
        (_, Some(ToolUseResult::PushNotification(sent))) => {
            facts.field(
                "sent",
                Some(reached(sent.push_sent, sent.local_sent, sent.disabled_reason.as_deref())),
            );
            facts.field("at", sent.sent_at.clone());
            let message = Some(sent.message.clone()).filter(|m| !m.is_empty());
            facts.text("message", message.or_else(|| call.text("message").map(str::to_owned)));
            facts.said();
        }
        (_, Some(ToolUseResult::ReadNotifications(read))) => {
            facts.field("read", Some(plural(read.notifications.len() as u64, "notification")));
            facts.field("still queued", read.remaining.filter(|n| *n > 0).map(|n| n.to_string()));
            facts.items = read
                .notifications
                .iter()
                .map(|n| {
                    Listed::new(from_words(&n.origin))
                        .note(n.queued_at.clone())
                        .with_text(Some(n.content.clone()))
                })
                .collect();
            facts.said();
        }
        (Tool::PushNotification, _) => facts.text("message", call.text("message").map(str::to_owned)),
        (Tool::SendUserFile, _) => {
            // SendUserFile's shape is not documented: the file is read from the names a path
            // goes by in other tools, the result is shown as the tool told it.
            let one = ["file_path", "path", "file"].iter().find_map(|k| call.text(k)).map(str::to_owned);
            let many = ["file_paths", "files", "paths"]
                .iter()
                .find_map(|k| call.input.get(*k).and_then(Value::as_array))
                .map(|files| files.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "));
            facts.field("file", one.or(many));
            let message = ["message", "caption", "description"].iter().find_map(|k| call.text(k));
            facts.text("message", message.map(str::to_owned));
        }
        _ => {}
    }
    facts
}

/// Where a notification went: the phone, this computer, or why nowhere.
fn reached(push: Option<bool>, local: Option<bool>, disabled: Option<&str>) -> String {
    let places: Vec<&str> = [(push, "to the phone"), (local, "on this computer")]
        .into_iter()
        .filter_map(|(sent, place)| (sent == Some(true)).then_some(place))
        .collect();
    if !places.is_empty() {
        return places.join(" and ");
    }
    match disabled {
        Some("config_off") => "no: notifications are turned off".to_owned(),
        Some("user_present") => "no: the person was at the terminal".to_owned(),
        Some("no_transport") => "no: there was no way to reach the person".to_owned(),
        Some(other) => format!("no: {other}"),
        None => "not said".to_owned(),
    }
}

/// Where a notification came from, in words: `github_webhook` → `GitHub webhook`.
fn from_words(origin: &str) -> String {
    match origin {
        "github_webhook" => "GitHub webhook".to_owned(),
        "trigger_fire" => "a trigger fired".to_owned(),
        "mcp_send_message" => "an MCP server's message".to_owned(),
        "" => "from somewhere not said".to_owned(),
        other => super::facts::words(other),
    }
}

#[cfg(test)]
mod tests {
    use super::super::facts::{Facts, Listed};
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use serde_json::json;

    fn body(call: crate::present::calls::CallView) -> Facts {
        match tool_body(&call, None) {
            ToolBody::Notify(facts) => facts,
            other => panic!("{other:?}"),
        }
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_push_notification_says_whether_it_reached_the_person() {
        let sent = body(documented(
            "PushNotification",
            json!({"message": "Build green, PR ready"}),
            "Notification sent",
            json!({"message": "Build green, PR ready", "pushSent": true, "localSent": true, "sentAt": "2026-11-20T10:05:00Z"}),
        ));
        assert_eq!(
            sent.fields,
            [
                ("sent", "to the phone and on this computer".to_owned()),
                ("at", "2026-11-20T10:05:00Z".to_owned())
            ]
        );
        assert_eq!(sent.text, Some(("message", "Build green, PR ready".to_owned())));
        let held = body(documented(
            "PushNotification",
            json!({"message": "Done"}),
            "Not sent",
            json!({"message": "Done", "pushSent": false, "disabledReason": "user_present"}),
        ));
        assert_eq!(held.fields, [("sent", "no: the person was at the terminal".to_owned())]);
        let header = documented(
            "PushNotification",
            json!({"message": "Done"}),
            "Not sent",
            json!({"message": "Done"}),
        );
        assert_eq!(header.detail().as_deref(), Some("not sent"), "the header says it was not sent");
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn notifications_read_are_listed_with_where_they_came_from() {
        let read = body(documented(
            "ReadNotifications",
            json!({}),
            "1 notification",
            json!({"notifications": [{"notification_id": "n1", "origin": "github_webhook",
                   "queued_at": "2026-11-20T10:00:00Z", "content": "PR #12 was merged"}], "remaining": 2}),
        ));
        assert_eq!(read.fields, [("read", "1 notification".to_owned()), ("still queued", "2".to_owned())]);
        assert_eq!(
            read.items,
            [Listed {
                title: "GitHub webhook".into(),
                href: None,
                note: Some("2026-11-20T10:00:00Z".into()),
                text: Some("PR #12 was merged".into())
            }]
        );
    }

    #[test]
    fn a_file_sent_to_the_person_names_the_file_and_keeps_what_the_tool_said() {
        // SendUserFile has no documented shape; a path under `file_path`, as other tools name it.
        let sent = body(documented(
            "SendUserFile",
            json!({"file_path": "/repo/report.pdf", "message": "The report"}),
            "File sent",
            json!("File sent"),
        ));
        assert_eq!(sent.fields, [("file", "/repo/report.pdf".to_owned())]);
        assert_eq!(sent.text, Some(("message", "The report".to_owned())));
        assert!(sent.told.is_some());
    }
}
