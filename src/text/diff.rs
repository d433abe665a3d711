//! Diff rows for Edit, MultiEdit and Write: from Claude Code's `structuredPatch` when it is there,
//! else computed from the old and new text (older versions kept only those).

use crate::model::tool_result::Hunk;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RowKind {
    /// `@@ -a,b +c,d @@`
    Hunk,
    Context,
    Added,
    Removed,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub kind: RowKind,
    pub old_line: Option<u64>,
    pub new_line: Option<u64>,
    pub text: String,
}

/// The `@@ -a,b +c,d @@` row that opens a hunk.
fn hunk_header(old_start: u64, old_lines: u64, new_start: u64, new_lines: u64) -> Row {
    Row {
        kind: RowKind::Hunk,
        old_line: None,
        new_line: None,
        text: format!("@@ -{old_start},{old_lines} +{new_start},{new_lines} @@"),
    }
}

/// Rows of Claude Code's hunks, numbered from each hunk's header.
pub(crate) fn from_hunks(hunks: &[Hunk]) -> Vec<Row> {
    let mut rows = Vec::new();
    for hunk in hunks {
        rows.push(hunk_header(hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines));
        let (mut old, mut new) = (hunk.old_start, hunk.new_start);
        for line in &hunk.lines {
            let (kind, text) = match line.chars().next() {
                Some('+') => (RowKind::Added, &line[1..]),
                Some('-') => (RowKind::Removed, &line[1..]),
                Some(' ') => (RowKind::Context, &line[1..]),
                // "\ No newline at end of file" and anything unexpected: shown as context.
                _ => (RowKind::Context, line.as_str()),
            };
            let (old_line, new_line) = match kind {
                RowKind::Added => (None, Some(new)),
                RowKind::Removed => (Some(old), None),
                _ => (Some(old), Some(new)),
            };
            if kind != RowKind::Added {
                old += 1;
            }
            if kind != RowKind::Removed {
                new += 1;
            }
            rows.push(Row { kind, old_line, new_line, text: text.to_owned() });
        }
    }
    rows
}

/// Rows of a line diff of `old` against `new`, with three lines of context, numbered from
/// `first_line` (where in the file the old text starts, when known).
pub fn between(old: &str, new: &str, first_line: u64) -> Vec<Row> {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut rows = Vec::new();
    for group in diff.grouped_ops(3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else { continue };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        rows.push(hunk_header(
            old_range.start as u64 + first_line,
            old_range.len() as u64,
            new_range.start as u64 + first_line,
            new_range.len() as u64,
        ));
        for op in &group {
            for change in diff.iter_changes(op) {
                let kind = match change.tag() {
                    similar::ChangeTag::Equal => RowKind::Context,
                    similar::ChangeTag::Insert => RowKind::Added,
                    similar::ChangeTag::Delete => RowKind::Removed,
                };
                rows.push(Row {
                    kind,
                    old_line: change.old_index().map(|i| i as u64 + first_line),
                    new_line: change.new_index().map(|i| i as u64 + first_line),
                    text: change.value().trim_end_matches(['\n', '\r']).to_owned(),
                });
            }
        }
    }
    rows
}

/// (+added, -removed) lines, for panel headers.
pub fn counts(rows: &[Row]) -> (usize, usize) {
    let added = rows.iter().filter(|r| r.kind == RowKind::Added).count();
    let removed = rows.iter().filter(|r| r.kind == RowKind::Removed).count();
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_number_old_and_new_lines_from_their_header() {
        let hunk = Hunk {
            old_start: 4,
            old_lines: 3,
            new_start: 4,
            new_lines: 3,
            lines: vec![" a".into(), "-b".into(), "+B".into(), " c".into()],
        };
        let rows = from_hunks(&[hunk]);
        let numbered: Vec<_> =
            rows.iter().map(|r| (r.kind, r.old_line, r.new_line, r.text.as_str())).collect();
        assert_eq!(
            numbered,
            [
                (RowKind::Hunk, None, None, "@@ -4,3 +4,3 @@"),
                (RowKind::Context, Some(4), Some(4), "a"),
                (RowKind::Removed, Some(5), None, "b"),
                (RowKind::Added, None, Some(5), "B"),
                (RowKind::Context, Some(6), Some(6), "c"),
            ]
        );
        assert_eq!(counts(&rows), (1, 1));
    }

    #[test]
    fn a_computed_diff_marks_changed_lines() {
        let rows = between("one\ntwo\nthree\n", "one\n2\nthree\n", 1);
        let changed: Vec<_> =
            rows.iter().filter(|r| r.kind != RowKind::Context).map(|r| (r.kind, r.text.as_str())).collect();
        assert_eq!(
            changed,
            [(RowKind::Hunk, "@@ -1,3 +1,3 @@"), (RowKind::Removed, "two"), (RowKind::Added, "2")]
        );
    }
}
