//! Where every input line went: rendered, merged into something rendered, or not shown with a
//! reason. Nothing is dropped silently. The reasons are words in `present::accounting`.

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// Claude Code's own bookkeeping: requests, backups, latches (the kind says which).
    Bookkeeping(crate::model::Bookkeeping),
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
    /// A side question's copy of a line of the conversation it was asked in (the context it
    /// replays): that line is shown there.
    Replayed,
    /// A `fork-context-ref` that made no fork's link: in a session's own file, or in a fork's
    /// whose parent line is not loaded (or that is linked by its call instead).
    ForkReferenceUnlinked,
    /// No step placed it: a bug in cctv, counted so that it is said rather than lost.
    Unplaced,
}
