//! Where every line went, in words: the reasons a line is not shown, as the side panel, the
//! outline, `cctv-inspect` and the JavaScript API say them.

use std::collections::BTreeMap;

use serde::Serialize;

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
        NotShown::SummaryElsewhere => "summary of a conversation not loaded",
        NotShown::ProgressWithoutCall => "progress of a tool call not loaded",
        NotShown::EmptyMessage => "message without content",
        NotShown::BlankText => "assistant text that is only white space",
        NotShown::CommandCaveat => "local-command caveat (a note to the model)",
        NotShown::Replayed => "copy of the conversation a side question was asked in",
        NotShown::Unplaced => "not placed (cctv bug)",
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
            NotShown::SummaryElsewhere,
            NotShown::ProgressWithoutCall,
            NotShown::EmptyMessage,
            NotShown::BlankText,
            NotShown::CommandCaveat,
            NotShown::Unplaced,
        ];
        let words: std::collections::BTreeSet<&str> = all.iter().map(|&w| reason(w)).collect();
        assert_eq!(words.len(), all.len(), "two reasons read the same");
    }
}
