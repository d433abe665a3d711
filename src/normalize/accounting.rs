//! Where every input line went: rendered, merged into something rendered, or not shown with a
//! reason. Nothing is dropped silently.

/// The fate of one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Not yet decided; a finished session has none (the accounting test checks).
    Pending,
    /// Shown as one or more items.
    Rendered,
    /// Folded into an item shown elsewhere (a tool result into its call, a hook, progress, a
    /// compaction summary into its boundary, further lines of one API response).
    Merged,
    NotShown(NotShown),
}

/// Why a line is not shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NotShown {
    /// Not an entry at all; the line's own reason says why.
    Invalid,
    /// Withdrawn by a tombstone.
    Tombstoned,
    /// The tombstone itself: a control line.
    TombstoneControl,
    /// The same uuid appeared earlier (lines replayed on resume).
    Duplicate,
    /// Undo data for file edits.
    FileHistorySnapshot,
    /// Prompts queued while the model was busy (the prompt itself arrives as a user message).
    QueueOperation,
    /// permission-mode, last-prompt, ai-title, custom-title, agent-name, mode: shown in the
    /// header, not as rows.
    Metadata,
    /// A `summary` of a conversation that is not among the loaded files.
    SummaryElsewhere,
    /// Progress of a tool call that is not among the loaded lines.
    ProgressWithoutCall,
    /// A message with no content at all.
    EmptyMessage,
    /// Assistant text that is only white space.
    BlankText,
    /// Claude Code's note to the model that local command messages follow
    /// (`<local-command-caveat>`).
    CommandCaveat,
}

impl NotShown {
    pub fn reason(self) -> &'static str {
        match self {
            NotShown::Invalid => "invalid line",
            NotShown::Tombstoned => "withdrawn by a tombstone",
            NotShown::TombstoneControl => "tombstone (control line)",
            NotShown::Duplicate => "duplicate uuid (replayed on resume)",
            NotShown::FileHistorySnapshot => "file-history snapshot (undo data)",
            NotShown::QueueOperation => "queue operation",
            NotShown::Metadata => "session metadata",
            NotShown::SummaryElsewhere => "summary of a conversation not loaded",
            NotShown::ProgressWithoutCall => "progress of a tool call not loaded",
            NotShown::EmptyMessage => "message without content",
            NotShown::BlankText => "assistant text that is only white space",
            NotShown::CommandCaveat => "local-command caveat (a note to the model)",
        }
    }
}
