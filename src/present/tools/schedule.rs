//! Scheduled events: Monitor (watch a command or socket in the background), ScheduleWakeup (come
//! back to this session later), and cron jobs (CronCreate, CronList, CronDelete). Each says what
//! will happen, when, and with what prompt.
//!
//! No public session holds these tools yet; the shapes are Claude Code's own (`sdk-tools.d.ts`
//! of the Agent SDK 0.3.x and the 2.1.112 writer), read field by field so a change costs only
//! the field.

use serde_json::Value;

use super::Output;
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::format::duration;

#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleBody {
    /// What was scheduled, as (label, value): `every`, `next`, `watches`, `for`, `id`, ….
    pub fields: Vec<(&'static str, String)>,
    /// The prompt it will send when it fires, Markdown.
    pub prompt: Option<String>,
    /// CronList: the jobs there were.
    pub jobs: Vec<Job>,
    pub output: Output,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub id: String,
    /// `every 5 minutes`, or the cron expression.
    pub schedule: String,
    pub prompt: String,
}

impl ScheduleBody {
    pub fn of(call: &CallView) -> ScheduleBody {
        let result = call.structured_fields();
        let input = |key: &str| call.input.get(key);
        let out = |key: &str| result.and_then(|r| r.get(key));
        let text = |v: Option<&Value>| v.and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned);
        let number = |v: Option<&Value>| v.and_then(Value::as_f64);
        let mut fields = Vec::new();
        let mut field = |label, value: Option<String>| {
            if let Some(v) = value {
                fields.push((label, v));
            }
        };
        let mut jobs = Vec::new();
        match call.tool {
            Tool::Monitor => {
                let socket = input("ws").and_then(|w| text(w.get("url"))).map(|url| format!("socket {url}"));
                field("watches", text(input("command")).or(socket));
                field("for", number(input("timeout_ms")).map(duration));
                field(
                    "until",
                    (input("persistent") == Some(&Value::Bool(true))).then(|| "the session ends".into()),
                );
                field("task", text(out("taskId")));
            }
            Tool::ScheduleWakeup => {
                field(
                    "stops",
                    (input("stop") == Some(&Value::Bool(true))).then(|| "the wake-ups scheduled".into()),
                );
                let delay = number(out("clampedDelaySeconds")).or(number(input("delaySeconds")));
                field("in", delay.map(|s| duration(s * 1000.0)));
                field("at", number(out("scheduledFor")).and_then(epoch_ms));
                field("why", text(input("reason")));
            }
            Tool::CronCreate => {
                field("every", text(out("humanSchedule")).or(text(input("cron"))));
                let recurring = out("recurring").or(input("recurring")).and_then(Value::as_bool);
                field("repeats", recurring.map(|r| if r { "yes" } else { "once" }.to_owned()));
                field("next", text(out("nextFireAt")).or(number(out("nextFireAt")).and_then(epoch_ms)));
                field("id", text(out("id")));
            }
            Tool::CronDelete => field("id", text(input("id"))),
            _ => {
                let listed = out("jobs").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
                jobs = listed
                    .iter()
                    .map(|j| Job {
                        id: text(j.get("id")).unwrap_or_default(),
                        schedule: text(j.get("humanSchedule")).or(text(j.get("cron"))).unwrap_or_default(),
                        prompt: text(j.get("prompt")).unwrap_or_default(),
                    })
                    .collect();
            }
        }
        ScheduleBody { fields, prompt: text(input("prompt")), jobs, output: Output::of(call) }
    }
}

/// Milliseconds since 1970 as `2026-11-20 10:05 UTC`.
fn epoch_ms(ms: f64) -> Option<String> {
    let secs = (ms / 1000.0).floor() as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (ms.is_finite() && ms >= 0.0)
        .then(|| format!("{year}-{month:02}-{day:02} {:02}:{:02} UTC", rest / 3600, rest % 3600 / 60))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::documented;
    use super::super::{tool_body, ToolBody};
    use super::*;
    use serde_json::json;

    fn body(call: CallView) -> ScheduleBody {
        match tool_body(&call, None) {
            ToolBody::Schedule(b) => b,
            other => panic!("{other:?}"),
        }
    }

    // Documented shapes (Agent SDK sdk-tools.d.ts, Claude Code 2.1.112): no public session has them.
    #[test]
    fn a_cron_job_says_when_it_fires_and_what_it_sends() {
        let b = body(documented(
            "CronCreate",
            json!({"cron": "*/5 * * * *", "prompt": "Check the **build**", "recurring": true}),
            "Scheduled",
            json!({"id": "c1", "humanSchedule": "every 5 minutes", "recurring": true, "nextFireAt": 1_795_000_000_000_u64}),
        ));
        assert_eq!(
            b.fields,
            [
                ("every", "every 5 minutes".to_owned()),
                ("repeats", "yes".to_owned()),
                ("next", "2026-11-18 11:06 UTC".to_owned()),
                ("id", "c1".to_owned())
            ]
        );
        assert_eq!(b.prompt.as_deref(), Some("Check the **build**"));
    }

    #[test]
    fn a_cron_list_lists_its_jobs() {
        let b = body(documented(
            "CronList",
            json!({}),
            "1 job",
            json!({"jobs": [{"id": "c1", "cron": "0 9 * * *", "humanSchedule": "every day at 9:00", "prompt": "Standup notes"}]}),
        ));
        assert_eq!(
            b.jobs,
            [Job { id: "c1".into(), schedule: "every day at 9:00".into(), prompt: "Standup notes".into() }]
        );
    }

    #[test]
    fn a_monitor_and_a_wakeup_say_what_they_wait_for() {
        let m = body(documented(
            "Monitor",
            json!({"description": "dev server", "command": "npm run dev", "timeout_ms": 300000}),
            "Monitoring",
            json!({"taskId": "b3k9x2m1q", "timeoutMs": 300000}),
        ));
        assert_eq!(m.fields[0], ("watches", "npm run dev".to_owned()));
        assert_eq!(m.fields[2], ("task", "b3k9x2m1q".to_owned()));
        let w = body(documented(
            "ScheduleWakeup",
            json!({"delaySeconds": 600, "reason": "wait for CI", "prompt": "Check CI"}),
            "Scheduled",
            json!({"scheduledFor": 1_795_000_000_000_u64, "clampedDelaySeconds": 600, "wasClamped": false}),
        ));
        assert_eq!(w.fields.iter().find(|f| f.0 == "why").map(|f| f.1.as_str()), Some("wait for CI"));
        assert_eq!(w.fields.iter().find(|f| f.0 == "at").map(|f| f.1.as_str()), Some("2026-11-18 11:06 UTC"));
    }
}
