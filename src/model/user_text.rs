//! The markup Claude Code wraps around text it writes in a user message on the person's behalf:
//! slash commands and their output, bash mode (`!` prompts) and its output, the caveat before
//! local commands, and notes injected for the model (`<system-reminder>`, background task
//! notifications). What is left is what the person typed.

/// What a user text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserText {
    /// Typed by the person; `injected` are notes Claude Code appended for the model.
    Typed { text: String, injected: Vec<Injected> },
    /// A slash command: `/name` and its arguments.
    Command { name: String, args: String },
    /// What a local command (`/cost`, `/plugin`, …) printed.
    CommandOutput { stdout: String, stderr: String },
    /// Claude Code's note to the model that local command messages follow.
    Caveat,
    /// A bash-mode command (`! open index.html`).
    Shell { command: String },
    /// What a bash-mode command printed.
    ShellOutput { stdout: String, stderr: String },
    /// Only an injected note (a reminder, a background task finishing, …).
    Injected(Injected),
}

/// A note Claude Code put in a user message for the model: its tag and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Injected {
    /// `system-reminder`, `task-notification`, `user-prompt-submit-hook`, …
    pub tag: String,
    pub body: String,
}

impl UserText {
    /// What a person reading the session would call a prompt: typed text or a command they ran.
    pub fn is_typed(&self) -> bool {
        match self {
            UserText::Typed { text, .. } => !text.trim().is_empty(),
            UserText::Command { .. } | UserText::Shell { .. } => true,
            _ => false,
        }
    }

    /// The prompt as one line of words: the text, `/name args`, or `! command`.
    pub fn headline(&self) -> Option<String> {
        let line = match self {
            UserText::Typed { text, .. } => {
                after_wrapper(text).lines().find(|l| !l.trim().is_empty())?.trim().to_owned()
            }
            UserText::Command { name, args } if args.trim().is_empty() => name.clone(),
            UserText::Command { name, args } => format!("{name} {}", args.trim()),
            UserText::Shell { command } => format!("! {}", command.trim()),
            _ => return None,
        };
        Some(line)
    }
}

/// What follows a block that a tool wrapped around the words typed (Conductor opens each first
/// prompt with `<system_instruction>…</system_instruction>`): a prompt is named by the words
/// after it, where there are any, not by the wrapper's tag.
fn after_wrapper(text: &str) -> &str {
    let trimmed = text.trim_start();
    let Some(name) = trimmed.strip_prefix('<').and_then(|t| t.split_once('>')).map(|(name, _)| name) else {
        return text;
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return text;
    }
    match trimmed.find(&format!("</{name}>")) {
        Some(end) if !trimmed[end + name.len() + 3..].trim().is_empty() => &trimmed[end + name.len() + 3..],
        _ => text,
    }
}

/// Tags of notes Claude Code injects for the model; a text that starts with one is not typed.
const INJECTED: &[&str] =
    &["system-reminder", "task-notification", "user-prompt-submit-hook", "ide_opened_file", "ide_selection"];

/// Reads a user text.
pub(crate) fn user_text(text: &str) -> UserText {
    let trimmed = text.trim_start();
    if !trimmed.starts_with('<') {
        return typed(text);
    }
    let (tags, rest) = tags(trimmed);
    let Some(&(first, first_body)) = tags.first() else { return typed(text) };
    // A reminder can sit before or after the words typed with it; `typed` splits it off.
    if first == "system-reminder" {
        return typed(text);
    }
    if INJECTED.contains(&first) {
        // A note with words after it ("Read the output file to retrieve the result.") is still
        // the note's.
        let after =
            trimmed.split_once(&format!("</{first}>")).map(|(_, after)| after.trim()).unwrap_or_default();
        let body = [first_body.trim(), after]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("\n\n");
        return UserText::Injected(Injected { tag: first.to_owned(), body });
    }
    // Only text that is nothing but Claude Code's tags is Claude Code's; a prompt that merely
    // starts with markup is the person's.
    if !rest.trim().is_empty() {
        return typed(text);
    }
    let get = |name: &str| tags.iter().find(|(t, _)| *t == name).map(|(_, body)| body.to_string());
    let has = |name: &str| tags.iter().any(|(t, _)| *t == name);
    if has("command-name") {
        return UserText::Command {
            name: get("command-name").unwrap_or_default(),
            args: get("command-args").unwrap_or_default(),
        };
    }
    if has("command-message") {
        // Some versions write only the message (`<command-message>publish-session</command-message>`).
        let message = get("command-message").unwrap_or_default();
        let name = message.strip_suffix(" is running…").unwrap_or(&message);
        return UserText::Command {
            name: format!("/{}", name.trim_start_matches('/')),
            args: get("command-args").unwrap_or_default(),
        };
    }
    if has("local-command-stdout") || has("local-command-stderr") {
        return UserText::CommandOutput {
            stdout: get("local-command-stdout").unwrap_or_default(),
            stderr: get("local-command-stderr").unwrap_or_default(),
        };
    }
    if has("local-command-caveat") {
        return UserText::Caveat;
    }
    if has("bash-input") {
        return UserText::Shell { command: get("bash-input").unwrap_or_default() };
    }
    if has("bash-stdout") || has("bash-stderr") {
        return UserText::ShellOutput {
            stdout: get("bash-stdout").unwrap_or_default(),
            stderr: get("bash-stderr").unwrap_or_default(),
        };
    }
    typed(text)
}

/// Typed text, with `<system-reminder>` notes appended to it split off.
fn typed(text: &str) -> UserText {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    let mut rest = text;
    let mut kept = String::new();
    let mut injected = Vec::new();
    while let Some(start) = rest.find(OPEN) {
        let Some(len) = rest[start + OPEN.len()..].find(CLOSE) else { break };
        kept.push_str(&rest[..start]);
        let body = &rest[start + OPEN.len()..start + OPEN.len() + len];
        injected.push(Injected { tag: "system-reminder".into(), body: body.trim().to_owned() });
        rest = &rest[start + OPEN.len() + len + CLOSE.len()..];
    }
    if injected.is_empty() {
        return UserText::Typed { text: text.to_owned(), injected };
    }
    kept.push_str(rest);
    if kept.trim().is_empty() {
        // Only reminders: one note of them all.
        let body = injected.iter().map(|n| n.body.as_str()).collect::<Vec<_>>().join("\n\n");
        return UserText::Injected(Injected { tag: "system-reminder".into(), body });
    }
    UserText::Typed { text: kept.trim_end().to_owned(), injected }
}

/// The top-level `<tag>body</tag>` pairs at the start of `text`, in order, and what follows
/// them. Tags are lower-case names with dashes or underscores, as Claude Code writes them; anything
/// else ends the list.
fn tags(text: &str) -> (Vec<(&str, &str)>, &str) {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while let Some(after) = rest.strip_prefix('<') {
        let Some(end) = after.find('>') else { break };
        let name = &after[..end];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_') {
            break;
        }
        let body_and_rest = &after[end + 1..];
        let close = format!("</{name}>");
        let Some(close_at) = body_and_rest.find(&close) else { break };
        out.push((name, &body_and_rest[..close_at]));
        rest = body_and_rest[close_at + close.len()..].trim_start();
    }
    (out, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_wrapped_by_another_tool_is_named_by_the_words_after_the_wrapper() {
        // Conductor's first prompt, as in the obsessiondb/chkit fixture.
        let text = "<system_instruction>\nYou are working inside Conductor.\n</system_instruction>\n\ndo you have access to the skill?";
        assert_eq!(user_text(text).headline().as_deref(), Some("do you have access to the skill?"));
        // Nothing after it: the text as it is; a tag that is not a name is not a wrapper.
        let only = "<system_instruction>\nhello\n</system_instruction>";
        assert_eq!(user_text(only).headline().as_deref(), Some("<system_instruction>"));
        assert_eq!(user_text("<b c>x</b> y").headline().as_deref(), Some("<b c>x</b> y"));
    }

    #[test]
    fn slash_commands_as_claude_code_writes_them() {
        // fe5e1c67 (d-kimuson, CC 1.0.98), line 2.
        let text = "<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app by Next.js</command-args>";
        let read = user_text(text);
        assert_eq!(
            read,
            UserText::Command { name: "/orchestrator".into(), args: "create TODO app by Next.js".into() }
        );
        assert_eq!(read.headline().as_deref(), Some("/orchestrator create TODO app by Next.js"));
        assert!(read.is_typed());
        // general-tool-calls (moredip), line 555: indented, empty args.
        let text = "<command-name>/plugin</command-name>\n            <command-message>plugin</command-message>\n            <command-args></command-args>";
        assert_eq!(user_text(text).headline().as_deref(), Some("/plugin"));
        // Line 560: only the message.
        let text = "<command-message>publish-session</command-message>\n<command-name>/publish-session</command-name>";
        assert_eq!(user_text(text).headline().as_deref(), Some("/publish-session"));
        assert_eq!(
            user_text("<command-message>publish-session</command-message>").headline().as_deref(),
            Some("/publish-session")
        );
    }

    #[test]
    fn local_command_output_and_caveat() {
        assert_eq!(
            user_text("<local-command-stdout>(no content)</local-command-stdout>"),
            UserText::CommandOutput { stdout: "(no content)".into(), stderr: String::new() }
        );
        assert_eq!(
            user_text("<local-command-stderr>Error: nope</local-command-stderr>"),
            UserText::CommandOutput { stdout: String::new(), stderr: "Error: nope".into() }
        );
        let caveat = "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>";
        assert_eq!(user_text(caveat), UserText::Caveat);
        assert!(!user_text(caveat).is_typed());
    }

    #[test]
    fn bash_mode_as_documented() {
        // No fixture has bash mode; the shape is the one peers document (`<bash-input>` then
        // `<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>`).
        let input = user_text("<bash-input>open index.html</bash-input>");
        assert_eq!(input, UserText::Shell { command: "open index.html".into() });
        assert_eq!(input.headline().as_deref(), Some("! open index.html"));
        assert_eq!(
            user_text("<bash-stdout>ok\n</bash-stdout><bash-stderr></bash-stderr>"),
            UserText::ShellOutput { stdout: "ok\n".into(), stderr: String::new() }
        );
    }

    #[test]
    fn injected_notes_are_not_what_the_person_typed() {
        // marot 8463c716, line 1588.
        let note = "<task-notification>\n<task-id>be613ab</task-id>\n<status>completed</status>\n<summary>Background command finished</summary>\n</task-notification>\nRead the output file to retrieve the result.";
        let read = user_text(note);
        assert!(!read.is_typed(), "{read:?}");
        let UserText::Injected(Injected { tag, body }) = read else { panic!() };
        assert_eq!(tag, "task-notification");
        assert!(
            body.starts_with("<task-id>be613ab</task-id>") && body.ends_with("retrieve the result."),
            "{body}"
        );
        let reminder = "<system-reminder>\nPostToolUse:Write hook additional context\n</system-reminder>";
        assert!(
            matches!(user_text(reminder), UserText::Injected(Injected { ref tag, .. }) if tag == "system-reminder")
        );
        // A prompt with a reminder appended keeps what was typed.
        let mixed = "fix the tests<system-reminder>the todo list is empty</system-reminder>";
        let before = "<system-reminder>the todo list is empty</system-reminder>\nfix the tests";
        assert!(
            matches!(user_text(before), UserText::Typed { ref text, .. } if text.trim() == "fix the tests")
        );
        let two = "<system-reminder>a</system-reminder><system-reminder>b</system-reminder>";
        assert!(matches!(user_text(two), UserText::Injected(Injected { ref body, .. }) if body == "a\n\nb"));
        // moredip general-tool-calls (CC 2.1.11) writes the file open in the IDE as a block.
        let ide = "<ide_opened_file>The user opened the file /a/b.rs in the IDE. This may or may not be related to the current task.</ide_opened_file>";
        assert!(
            matches!(user_text(ide), UserText::Injected(Injected { ref tag, .. }) if tag == "ide_opened_file")
        );
        assert_eq!(
            user_text(mixed),
            UserText::Typed {
                text: "fix the tests".into(),
                injected: vec![Injected {
                    tag: "system-reminder".into(),
                    body: "the todo list is empty".into()
                }]
            }
        );
    }

    #[test]
    fn a_prompt_that_starts_with_markup_is_typed() {
        for text in [
            "<div>hello</div> what does this do?",
            "<b>bold",
            "< 3 apples",
            "<script>alert(1)</script>",
            "<p>x</p>",
        ] {
            let read = user_text(text);
            assert_eq!(read, UserText::Typed { text: text.into(), injected: vec![] }, "{text}");
        }
        assert_eq!(user_text("plain words").headline().as_deref(), Some("plain words"));
    }
}
