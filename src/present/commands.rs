//! What Claude Code writes in a user message on the person's behalf, as a reader sees it: the
//! commands they ran (slash commands, bash mode) with what they printed, notes injected for the
//! model, and its own notices (an interrupt, a rejection).

use crate::model::synthetic::{rejection_feedback, synthetic, Synthetic};
use crate::model::user_text::{user_text, UserText};
use crate::normalize::{Item, LineRef, UserCommand, Workspace};

/// A slash command row: `/name args`, its expanded prompt folded, what it printed.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandView {
    /// `/orchestrator create TODO app`, or `! open index.html` for bash mode.
    pub line: String,
    /// The prompt a slash command expanded to.
    pub expansion: Option<String>,
    pub stdout: String,
    pub stderr: String,
}

/// A note Claude Code injected for the model, folded under its label.
#[derive(Clone, Debug, PartialEq)]
pub struct InjectedView {
    /// `system reminder`, `background task`, `command output`, …
    pub label: String,
    pub text: String,
}

/// A notice Claude Code wrote in the person's name: an interrupt, a rejection.
#[derive(Clone, Debug, PartialEq)]
pub struct NoticeView {
    pub kind: Synthetic,
    /// `Interrupted by the user`, `Tool use rejected`, …
    pub headline: &'static str,
    /// What the person added, when they did.
    pub feedback: Option<String>,
}

/// The text of an item of a user message.
fn text_of(ws: &Workspace, item: &Item) -> Option<String> {
    let message = ws.entry(item.line)?.message()?;
    Some(message.text(ws.src(item.line), item.block)?.into_owned())
}

fn text_at(ws: &Workspace, line: LineRef) -> Option<String> {
    let message = ws.entry(line)?.message()?;
    match &message.content {
        crate::model::Content::Text(t) => Some(t.decode(ws.src(line)).into_owned()),
        content => content
            .blocks()
            .iter()
            .find_map(|b| message.text(ws.src(line), Some(b.index)))
            .map(|t| t.into_owned()),
    }
}

pub(crate) fn command_view(ws: &Workspace, item: &Item, command: &UserCommand) -> CommandView {
    let line = text_of(ws, item).map(|t| user_text(&t)).and_then(|read| read.headline()).unwrap_or_default();
    let mut stdout = String::new();
    let mut stderr = String::new();
    for &output in &command.output {
        if let Some(
            UserText::CommandOutput { stdout: out, stderr: err }
            | UserText::ShellOutput { stdout: out, stderr: err },
        ) = text_at(ws, output).map(|t| user_text(&t))
        {
            stdout.push_str(&out);
            stderr.push_str(&err);
        }
    }
    CommandView { line, expansion: command.expansion.and_then(|l| text_at(ws, l)), stdout, stderr }
}

pub(crate) fn injected_view(ws: &Workspace, item: &Item) -> InjectedView {
    let text = text_of(ws, item).unwrap_or_default();
    match user_text(&text) {
        UserText::Injected(note) => InjectedView { label: note_label(&note.tag), text: note.body },
        UserText::CommandOutput { stdout, stderr } | UserText::ShellOutput { stdout, stderr } => {
            InjectedView { label: "command output".into(), text: format!("{stdout}{stderr}") }
        }
        _ => InjectedView { label: "note".into(), text },
    }
}

/// A note's tag in words.
pub(crate) fn note_label(tag: &str) -> String {
    match tag {
        "system-reminder" => "system reminder".into(),
        "task-notification" => "background task".into(),
        "user-prompt-submit-hook" => "prompt hook".into(),
        "ide_opened_file" => "file open in the IDE".into(),
        "ide_selection" => "selection in the IDE".into(),
        other => other.replace(['-', '_'], " "),
    }
}

/// The notice a synthetic user text gives, if it is one.
pub(crate) fn notice_view(ws: &Workspace, item: &Item) -> Option<NoticeView> {
    let text = text_of(ws, item)?;
    let kind = synthetic(&text)?;
    Some(NoticeView {
        kind,
        headline: headline(kind),
        feedback: rejection_feedback(&text).map(str::to_owned),
    })
}

pub fn headline(kind: Synthetic) -> &'static str {
    match kind {
        Synthetic::Interrupted => "Interrupted by the user",
        Synthetic::Rejected => "Tool use rejected",
        Synthetic::Cancelled => "Cancelled by the user",
        Synthetic::MissingResult => "Result missing (Claude Code's placeholder)",
        Synthetic::NoResponseRequested => "No response requested",
    }
}
