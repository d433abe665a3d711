//! Bash and PowerShell (Bash's place on Windows): the command at its shell's prompt, and its
//! output as the terminal showed it. The two tools take the same input and keep the same result.

use super::{Answer, Output};
use crate::model::body::ImageSource;
use crate::model::tool_result::ToolUseResult;
use crate::model::Tool;
use crate::present::calls::CallView;
use crate::text::highlight::language_of_path;

#[derive(Clone, Debug, PartialEq)]
pub struct BashBody {
    pub shell: Shell,
    pub command: String,
    /// What the model said the command is for.
    pub description: Option<String>,
    /// For a command that prints one file (`cat`, `head`, `tail` of a path), the grammar its
    /// extension names: the output is that file's text.
    pub language: Option<String>,
    pub output: Answer<BashOutput>,
}

/// Which shell ran the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shell {
    Bash,
    PowerShell,
}

impl Shell {
    /// The prompt the command is shown after, as its shell shows one.
    pub fn prompt(self) -> &'static str {
        match self {
            Shell::Bash => "$",
            Shell::PowerShell => "PS>",
        }
    }
}

/// stdout and stderr apart, as Claude Code kept them.
#[derive(Clone, Debug, PartialEq)]
pub struct BashOutput {
    /// An image the command printed (`isImage`: stdout is a base64 data URL or base64 PNG).
    pub image: Option<ImageSource>,
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
                image: b.is_image.then(|| image_of(&b.stdout)).flatten(),
                stdout: if b.is_image { String::new() } else { b.stdout.clone() },
                stderr: b.stderr.clone(),
                interrupted: b.interrupted,
                note: b.return_code_interpretation.clone(),
            }),
            _ => Answer::Plain(Output::of(call)),
        };
        let command = call.text("command").unwrap_or_default().to_owned();
        let shell = if call.tool == Tool::PowerShell { Shell::PowerShell } else { Shell::Bash };
        BashBody {
            shell,
            // `cat` and the others are Bash's words; in PowerShell they name other commands.
            language: (shell == Shell::Bash)
                .then(|| printed_file(&command))
                .flatten()
                .and_then(language_of_path),
            command,
            description: call.text("description").map(str::to_owned),
            output,
        }
    }
}

/// The file a command prints whole or in part, when it is one plain `cat`, `head` or `tail` of a
/// single path (no pipe, no redirection, no second command).
fn printed_file(command: &str) -> Option<&str> {
    if command.contains(['|', '>', '<', ';', '&', '`', '$', '\n']) {
        return None;
    }
    let mut words = command.split_whitespace();
    if !matches!(words.next()?, "cat" | "head" | "tail") {
        return None;
    }
    let paths: Vec<&str> = words.filter(|w| !w.starts_with('-') && w.parse::<u64>().is_err()).collect();
    match paths.as_slice() {
        [path] => Some(path.trim_matches(['"', '\''])),
        _ => None,
    }
}

/// The image a command printed as base64 (`data:image/png;base64,…`, or bare base64).
fn image_of(stdout: &str) -> Option<ImageSource> {
    let stdout = stdout.trim();
    let (media_type, data) = match stdout.strip_prefix("data:").and_then(|rest| rest.split_once(";base64,")) {
        Some((media, data)) => (media.to_owned(), data),
        None => ("image/png".to_owned(), stdout),
    };
    (!data.is_empty()).then(|| ImageSource::Base64 { media_type, data: data.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, Answer, ToolBody};
    use super::{language_of_path, printed_file};
    use crate::fixtures::workspace;

    #[test]
    fn only_a_plain_print_of_one_file_is_highlighted_as_that_file() {
        assert_eq!(printed_file("cat src/main.rs"), Some("src/main.rs"));
        assert_eq!(printed_file("tail -n 20 /var/log/app.py"), Some("/var/log/app.py"));
        assert_eq!(printed_file("head -n 40 'a b/x.py'"), None, "a quoted path with a space is two words");
        assert_eq!(printed_file("cat a.rs b.rs"), None);
        assert_eq!(printed_file("cat a.rs | grep x"), None);
        assert_eq!(printed_file("cat a.rs > b.rs"), None);
        assert_eq!(printed_file("ls a.rs"), None);
        assert_eq!(language_of_path(printed_file("cat src/main.rs").unwrap()).as_deref(), Some("rs"));
    }

    #[test]
    fn a_real_bash_call_shows_its_command_and_stdout() {
        let ws = workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let bash = calls(&ws, "Bash");
        assert!(!bash.is_empty());
        let ToolBody::Bash(body) = tool_body(&bash[0], None) else { panic!("Bash gets the Bash body") };
        assert_eq!(body.command, bash[0].text("command").unwrap());
        let Answer::Structured(out) = body.output else { panic!("the fixture keeps stdout apart") };
        assert!(!out.stdout.is_empty() || !out.stderr.is_empty());
        assert_eq!(out.image, None);
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332: Bash's input and output, which
    // PowerShell shares), no real line holds it.
    #[test]
    fn a_powershell_call_is_a_shell_with_its_own_prompt() {
        let call = super::super::test_support::documented(
            "PowerShell",
            serde_json::json!({"command": "Get-ChildItem -Path src", "description": "List the sources"}),
            "lib.rs",
            serde_json::json!({"stdout": "lib.rs\r\nmain.rs", "stderr": "", "interrupted": false, "isImage": false}),
        );
        let ToolBody::Bash(body) = tool_body(&call, None) else { panic!("PowerShell gets the shell body") };
        assert_eq!(body.shell, super::Shell::PowerShell);
        assert_eq!(body.shell.prompt(), "PS>");
        assert_eq!(body.command, "Get-ChildItem -Path src");
        assert_eq!(body.description.as_deref(), Some("List the sources"));
        let Answer::Structured(out) = body.output else { panic!("its result is Bash's") };
        assert_eq!(out.stdout, "lib.rs\r\nmain.rs");
        assert_eq!(call.target(), "Get-ChildItem -Path src", "its header says the command");
    }

    #[test]
    fn an_image_printed_by_a_command_is_an_image() {
        // No fixture runs a command that prints an image; `isImage` with a data URL on stdout is
        // the shape Claude Code's Bash tool documents.
        assert_eq!(
            super::image_of("data:image/jpeg;base64,/9j/4AAQ"),
            Some(super::ImageSource::Base64 { media_type: "image/jpeg".into(), data: "/9j/4AAQ".into() })
        );
        assert_eq!(super::image_of("  "), None);
    }
}
