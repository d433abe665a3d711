//! Counting what a file holds, by entry type and subtype.

use std::collections::BTreeMap;

use super::entry::EntryKind;
use super::line::{Line, LineContent};

/// Lines per kind. Keys: `user`, `system/turn_duration`, `progress/bash_progress`,
/// `attachment/hook_success`, `unknown/<type>`, `malformed/<type>`, `invalid/<reason>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Census(pub BTreeMap<String, usize>);

impl Census {
    pub fn of(lines: &[Line], src: &[u8]) -> Census {
        let mut counts = BTreeMap::new();
        for line in lines {
            *counts.entry(key(line, src)).or_insert(0) += 1;
        }
        Census(counts)
    }

    pub fn get(&self, key: &str) -> usize {
        self.0.get(key).copied().unwrap_or(0)
    }

    /// Lines that are not entries.
    pub fn invalid(&self) -> usize {
        self.0.iter().filter(|(k, _)| k.starts_with("invalid/")).map(|(_, n)| n).sum()
    }
}

fn key(line: &Line, src: &[u8]) -> String {
    let entry = match &line.content {
        LineContent::Invalid(invalid) => return format!("invalid/{}", invalid.key()),
        LineContent::Entry(entry) => entry,
    };
    let (type_name, subtype) = entry.label(src);
    match (&entry.kind, subtype) {
        (EntryKind::Unknown, _) => format!("unknown/{type_name}"),
        (EntryKind::Malformed { .. }, _) => format!("malformed/{type_name}"),
        (EntryKind::System(_), Some(subtype)) => format!("system/{subtype}"),
        (EntryKind::System(_), None) => "system".into(),
        (EntryKind::Progress(_), Some(subtype)) => format!("progress/{subtype}"),
        (EntryKind::Attachment(_), Some(subtype)) => format!("attachment/{subtype}"),
        _ => type_name.into_owned(),
    }
}
