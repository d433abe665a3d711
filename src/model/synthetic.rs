//! Texts Claude Code writes in the user's name (its `SYNTHETIC_MESSAGES` and the messages around
//! tool permissions): they are control signals, not something a person said, and each means a
//! particular outcome for the call or the turn.

/// What a synthetic text says happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Synthetic {
    /// The person stopped the response (`[Request interrupted by user]`), or a tool call while
    /// it ran (`… for tool use]`).
    Interrupted,
    /// The person declined a tool use when asked (`REJECT_MESSAGE`), in a sub-agent the
    /// permission was denied (`SUBAGENT_REJECT_MESSAGE`), or auto mode's classifier denied it.
    Rejected,
    /// "The user doesn't want to take this action right now" (`CANCEL_MESSAGE`).
    Cancelled,
    /// `[Tool result missing due to internal error]`: Claude Code paired a call that never
    /// returned with a placeholder.
    MissingResult,
    /// "No response requested." after a local command.
    NoResponseRequested,
}

const REJECTED: &[&str] = &[
    "The user doesn't want to proceed with this tool use",
    "Permission for this tool use was denied",
    // Auto mode's classifier (`AUTO_MODE_REJECTION_PREFIX`).
    "Permission for this action has been denied",
];

/// What `text` (a user text or a tool result's text) says, if Claude Code wrote it.
pub fn synthetic(text: &str) -> Option<Synthetic> {
    let text = text.trim_start();
    if text.starts_with("[Request interrupted by user") {
        Some(Synthetic::Interrupted)
    } else if REJECTED.iter().any(|p| text.starts_with(p)) {
        Some(Synthetic::Rejected)
    } else if text.starts_with("The user doesn't want to take this action right now") {
        Some(Synthetic::Cancelled)
    } else if text.starts_with("[Tool result missing due to internal error]") {
        Some(Synthetic::MissingResult)
    } else if text.trim_end() == "No response requested." {
        Some(Synthetic::NoResponseRequested)
    } else {
        None
    }
}

/// The words the person added when rejecting a tool use, if any ("To tell you how to proceed, the
/// user said: …", "The user provided the following reason for the rejection: …").
pub(crate) fn rejection_feedback(text: &str) -> Option<&str> {
    const SAID: &[&str] = &["the user said:", "the following reason for the rejection:"];
    SAID.iter()
        .find_map(|marker| text.find(marker).map(|at| text[at + marker.len()..].trim()))
        .filter(|feedback| !feedback.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_codes_own_texts_say_what_happened() {
        // As written in real sessions (../shared/fixtures: M-Claude, athena, marot).
        let reject = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
        assert_eq!(synthetic(reject), Some(Synthetic::Rejected));
        assert_eq!(rejection_feedback(reject), None);
        assert_eq!(synthetic("[Request interrupted by user for tool use]"), Some(Synthetic::Interrupted));
        assert_eq!(synthetic("[Request interrupted by user]"), Some(Synthetic::Interrupted));
        assert_eq!(
            synthetic("The user doesn't want to take this action right now. STOP what you are doing"),
            Some(Synthetic::Cancelled)
        );
        assert_eq!(
            synthetic("Permission for this tool use was denied. The tool use was rejected"),
            Some(Synthetic::Rejected)
        );
        assert_eq!(synthetic("[Tool result missing due to internal error]"), Some(Synthetic::MissingResult));
        assert_eq!(synthetic("No response requested."), Some(Synthetic::NoResponseRequested));
        assert_eq!(synthetic("Error: file not found"), None);
        assert_eq!(synthetic("please don't proceed"), None);
    }

    #[test]
    fn a_rejection_keeps_what_the_person_said() {
        let said = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nbefore we do this - are we sure?";
        assert_eq!(rejection_feedback(said), Some("before we do this - are we sure?"));
        let reason = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection:  Let's keep the name";
        assert_eq!(rejection_feedback(reason), Some("Let's keep the name"));
    }
}
