//! Background shells and tasks: BashOutput and TaskOutput read what one has printed so far,
//! KillShell (KillBash before it) and TaskStop end one. The panel names the shell or task, what
//! it runs, its state, and its output as the terminal showed it.

use serde_json::Value;

use super::{Answer, Output};
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct BackgroundBody {
    pub action: BackgroundAction,
    /// The shell's or task's id (`bash_1`, `be613ab`).
    pub id: String,
    pub output: Answer<BackgroundOutput>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackgroundAction {
    /// Reads what it printed; `wait` says the call waited for it to finish (TaskOutput `block`).
    Read {
        wait: bool,
    },
    Stop,
}

/// What a background shell or task is and has printed, as Claude Code kept it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BackgroundOutput {
    /// The command it runs, or what it is for.
    pub what: Option<String>,
    /// `running`, `completed`, `failed`, `killed`.
    pub status: Option<String>,
    pub exit_code: Option<i64>,
    pub stdout: String,
    pub stderr: String,
    /// The call stopped waiting before the task finished (`retrieval_status: timeout`).
    pub timed_out: bool,
    /// What a stop said ("Successfully killed shell: bash_1 (npm run dev)").
    pub message: Option<String>,
}

impl BackgroundBody {
    pub fn of(call: &CallView) -> BackgroundBody {
        let action = match call.tool {
            Tool::KillShell | Tool::TaskStop => BackgroundAction::Stop,
            _ => BackgroundAction::Read {
                wait: call.input.get("block").and_then(Value::as_bool).unwrap_or(false),
            },
        };
        let id = ["bash_id", "shell_id", "task_id"].iter().find_map(|k| call.text(k)).unwrap_or_default();
        let output = match call.structured() {
            Some(ToolUseResult::ShellOutput(s)) => Answer::Structured(BackgroundOutput {
                what: non_empty(&s.command),
                status: non_empty(&s.status),
                exit_code: s.exit_code,
                stdout: s.stdout.clone(),
                stderr: s.stderr.clone(),
                ..BackgroundOutput::default()
            }),
            Some(ToolUseResult::TaskOutput(t)) => Answer::Structured(BackgroundOutput {
                what: t.task.description.clone(),
                status: t.task.status.clone(),
                exit_code: t.task.exit_code,
                stdout: t.task.output.clone(),
                timed_out: t.retrieval_status.as_deref() == Some("timeout"),
                ..BackgroundOutput::default()
            }),
            // A stop's result is a message naming what was stopped.
            Some(ToolUseResult::Other { value, .. }) if value.get("message").is_some() => {
                Answer::Structured(BackgroundOutput {
                    message: value.get("message").and_then(Value::as_str).map(str::to_owned),
                    ..BackgroundOutput::default()
                })
            }
            _ => Answer::Plain(Output::of(call)),
        };
        BackgroundBody { action, id: id.to_owned(), output }
    }

    /// For the header: the id, and what the shell runs where the result says.
    pub fn target(&self) -> String {
        match &self.output {
            Answer::Structured(BackgroundOutput { what: Some(what), .. }) => format!("{} · {what}", self.id),
            _ => self.id.clone(),
        }
    }

    /// For the header: the state it was found in.
    pub fn detail(&self) -> Option<String> {
        let Answer::Structured(out) = &self.output else { return None };
        let status = out.status.clone()?;
        Some(match (out.exit_code, out.timed_out) {
            (_, true) => format!("{status}, stopped waiting"),
            (Some(code), _) if status != "running" => format!("{status}, exit {code}"),
            _ => status,
        })
    }
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, Answer, ToolBody};
    use super::*;
    use crate::fixtures::workspace;

    fn body(call: &CallView) -> BackgroundBody {
        match tool_body(call, None) {
            ToolBody::Background(b) => b,
            other => panic!("{} gets the background body, not {other:?}", call.name),
        }
    }

    #[test]
    fn bash_output_shows_the_shell_its_command_state_and_output() {
        // d-kimuson/claude-code-viewer's sample session (CC 1.0.98) runs dev servers in the background.
        let ws = workspace("d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
        let reads = calls(&ws, "BashOutput");
        assert!(!reads.is_empty());
        let first = body(&reads[0]);
        assert_eq!(first.action, BackgroundAction::Read { wait: false });
        assert_eq!(first.id, "bash_1");
        assert_eq!(first.target(), "bash_1 · pnpm dev --port 3001");
        assert_eq!(first.detail().as_deref(), Some("running"));
        let Answer::Structured(out) = &first.output else { panic!() };
        assert!(out.stdout.contains("next dev --port 3001"), "{}", out.stdout);
        assert!(!out.stderr.is_empty());

        let kill = body(&calls(&ws, "KillBash")[0]);
        assert_eq!(kill.action, BackgroundAction::Stop);
        let Answer::Structured(out) = &kill.output else { panic!() };
        assert_eq!(out.message.as_deref(), Some("Successfully killed shell: bash_1 (pnpm dev --port 3001)"));
    }

    #[test]
    fn kill_shell_says_what_it_stopped() {
        let ws = workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let kill = body(&calls(&ws, "KillShell")[0]);
        assert_eq!((kill.action, kill.id.as_str()), (BackgroundAction::Stop, "b5798f9"));
        let Answer::Structured(out) = &kill.output else { panic!() };
        assert!(out.message.as_deref().unwrap().starts_with("Successfully killed shell: b5798f9"));
    }

    #[test]
    fn task_output_shows_the_task_and_that_the_wait_ran_out() {
        let ws =
            workspace("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
        let reads: Vec<_> = calls(&ws, "TaskOutput").iter().map(body).collect();
        let first = &reads[0];
        assert_eq!(first.action, BackgroundAction::Read { wait: true });
        assert_eq!(first.target(), "be613ab · Run transcript renderer tests");
        assert_eq!(first.detail().as_deref(), Some("running, stopped waiting"));
        let Answer::Structured(out) = &first.output else { panic!() };
        assert!(out.stdout.contains("Compiling"));
        // The last read found it finished.
        assert!(reads
            .iter()
            .any(|b| matches!(&b.output, Answer::Structured(o) if o.status.as_deref() == Some("completed"))));
    }

    #[test]
    fn a_failed_task_stop_shows_the_error() {
        let ws = workspace("obsessiondb__chkit/62/9489e96930/0/full.jsonl");
        let stop = body(&calls(&ws, "TaskStop")[0]);
        assert_eq!((stop.action, stop.id.as_str()), (BackgroundAction::Stop, "a14e17b584f801579"));
        assert!(matches!(stop.output, Answer::Plain(Output::Result { is_error: true, .. })));
    }
}
