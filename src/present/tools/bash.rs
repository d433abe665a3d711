//! Bash: the command, and its output as the terminal showed it.

use super::{Answer, Output};
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct BashBody {
    pub command: String,
    /// What the model said the command is for.
    pub description: Option<String>,
    pub output: Answer<BashOutput>,
}

/// stdout and stderr apart, as Claude Code kept them.
#[derive(Clone, Debug, PartialEq)]
pub struct BashOutput {
    pub stdout: String,
    pub stderr: String,
    pub interrupted: bool,
    /// Claude Code's reading of the exit code ("No matches found").
    pub note: Option<String>,
}

impl BashBody {
    pub fn of(call: &CallView) -> BashBody {
        let output = match call.structured() {
            Some(ToolUseResult::Bash(b)) => Answer::Structured(BashOutput {
                stdout: b.stdout.clone(),
                stderr: b.stderr.clone(),
                interrupted: b.interrupted,
                note: b.return_code_interpretation.clone(),
            }),
            _ => Answer::Plain(Output::of(call)),
        };
        BashBody {
            command: call.text("command").unwrap_or_default().to_owned(),
            description: call.text("description").map(str::to_owned),
            output,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{calls, fixture};
    use super::super::{tool_body, Answer, ToolBody};

    #[test]
    fn a_real_bash_call_shows_its_command_and_stdout() {
        let ws = fixture(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let bash = calls(&ws, "Bash");
        assert!(!bash.is_empty());
        let ToolBody::Bash(body) = tool_body(&bash[0]) else { panic!("Bash gets the Bash body") };
        assert_eq!(body.command, bash[0].text("command").unwrap());
        let Answer::Structured(out) = body.output else { panic!("the fixture keeps stdout apart") };
        assert!(!out.stdout.is_empty() || !out.stderr.is_empty());
    }
}
