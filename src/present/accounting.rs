//! Where every line went, in words: the reasons a line is not shown, as the side panel, the
//! outline, `cctv-inspect` and the JavaScript API say them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::Bookkeeping;
use crate::normalize::{Accounting, NotShown};

/// Why a line is not shown, in a few words.
pub fn reason(why: NotShown) -> &'static str {
    match why {
        NotShown::Invalid => "invalid line",
        NotShown::Tombstoned => "withdrawn by a tombstone",
        NotShown::TombstoneControl => "tombstone (control line)",
        NotShown::Duplicate => "duplicate uuid (replayed on resume)",
        NotShown::FileHistorySnapshot => "file-history snapshot (undo data)",
        NotShown::QueueOperation => "queue operation",
        NotShown::Metadata => "session metadata",
        NotShown::Bookkeeping(kind) => bookkeeping(kind),
        NotShown::SummaryElsewhere => "summary of a conversation not loaded",
        NotShown::ProgressWithoutCall => "progress of a tool call not loaded",
        NotShown::EmptyMessage => "message without content",
        NotShown::BlankText => "assistant text that is only white space",
        NotShown::CommandCaveat => "local-command caveat (a note to the model)",
        NotShown::Replayed => "copy of the conversation a side question was asked in",
        NotShown::ForkReferenceUnlinked => "fork reference that links no fork to a loaded line",
        NotShown::Unplaced => "not placed (cctv bug)",
    }
}

/// Claude Code's bookkeeping, by what it keeps.
fn bookkeeping(kind: Bookkeeping) -> &'static str {
    match kind {
        Bookkeeping::FileHistoryDelta => "file-history delta (a backup for rewinding edits)",
        Bookkeeping::ApiRequest => "API request record (kept to resume the session)",
        Bookkeeping::DataFlow => "data-flow record (where context came from)",
        Bookkeeping::ResumeHead => "resume point (bookkeeping)",
        Bookkeeping::Attribution => "attribution snapshot (for commit attribution)",
        Bookkeeping::Latch => "session switch (latch, owner, suppression)",
        Bookkeeping::ToolsUsed => "tools used (kept for the next start)",
        Bookkeeping::ArtifactWatch => "published pages watched for comments",
        Bookkeeping::ObserverRef => "observer reference (bookkeeping)",
    }
}

/// A session's accounting with its reasons in words (sorted by them), as JavaScript and
/// `cctv-inspect` read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountingInWords {
    pub lines: u64,
    pub rendered: u64,
    pub merged: u64,
    /// Reason -> lines.
    pub not_shown: BTreeMap<&'static str, u64>,
}

pub fn in_words(a: &Accounting) -> AccountingInWords {
    AccountingInWords {
        lines: a.lines,
        rendered: a.rendered,
        merged: a.merged,
        not_shown: a.not_shown.iter().map(|(&why, &n)| (reason(why), n)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_told_apart_by_their_words() {
        let all = [
            NotShown::Invalid,
            NotShown::Tombstoned,
            NotShown::TombstoneControl,
            NotShown::Duplicate,
            NotShown::FileHistorySnapshot,
            NotShown::QueueOperation,
            NotShown::Metadata,
            NotShown::Bookkeeping(Bookkeeping::FileHistoryDelta),
            NotShown::Bookkeeping(Bookkeeping::ApiRequest),
            NotShown::Bookkeeping(Bookkeeping::DataFlow),
            NotShown::Bookkeeping(Bookkeeping::ResumeHead),
            NotShown::Bookkeeping(Bookkeeping::Attribution),
            NotShown::Bookkeeping(Bookkeeping::Latch),
            NotShown::Bookkeeping(Bookkeeping::ToolsUsed),
            NotShown::Bookkeeping(Bookkeeping::ArtifactWatch),
            NotShown::Bookkeeping(Bookkeeping::ObserverRef),
            NotShown::SummaryElsewhere,
            NotShown::ProgressWithoutCall,
            NotShown::EmptyMessage,
            NotShown::BlankText,
            NotShown::CommandCaveat,
            NotShown::Replayed,
            NotShown::ForkReferenceUnlinked,
            NotShown::Unplaced,
        ];
        let words: std::collections::BTreeSet<&str> = all.iter().map(|&w| reason(w)).collect();
        assert_eq!(words.len(), all.len(), "two reasons read the same");
    }
}
