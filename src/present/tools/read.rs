//! Read: the file, the range read, and the lines with their numbers (or the image read).

use crate::model::body::ImageSource;
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;
use crate::text::highlight::language_of_path;

#[derive(Clone, Debug, PartialEq)]
pub struct ReadBody {
    pub path: String,
    /// The grammar the file's extension names, for highlighting its lines.
    pub language: Option<String>,
    /// `lines 10–40 of 200`, when the result says.
    pub range: Option<String>,
    pub content: ReadContent,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ReadContent {
    /// Text, numbered from `first`.
    Lines {
        text: String,
        first: u64,
    },
    Image(ImageSource),
}

impl ReadBody {
    /// A read file as Claude Code kept it for its UI, else as the model was told it (`N→line`
    /// numbered lines: all that sub-agent files of 2.1.x keep); anything else is shown as the
    /// generic input and output.
    pub fn of(call: &CallView) -> Option<ReadBody> {
        let Some(ToolUseResult::Read(r)) = call.structured() else { return Self::from_numbered_text(call) };
        let file = &r.file;
        if file.file_path.is_empty() {
            return None;
        }
        let range = (file.total_lines > 0).then(|| {
            format!(
                "lines {}–{} of {}",
                file.start_line,
                file.start_line.saturating_add(file.num_lines.saturating_sub(1)),
                file.total_lines
            )
        });
        let content = match (&file.base64, &file.media_type) {
            (Some(data), Some(media)) => {
                ReadContent::Image(ImageSource::Base64 { media_type: media.clone(), data: data.clone() })
            }
            _ => ReadContent::Lines { text: file.content.clone(), first: file.start_line.max(1) },
        };
        Some(ReadBody {
            language: language_of_path(&file.file_path),
            path: file.file_path.clone(),
            range,
            content,
        })
    }
}

impl ReadBody {
    fn from_numbered_text(call: &CallView) -> Option<ReadBody> {
        let result = call.result.as_ref().filter(|r| !r.is_error)?;
        let text = result.content.texts().next()?;
        let (first, lines) = numbered_lines(text)?;
        let count = lines.lines().count() as u64;
        let path = call.text("file_path").unwrap_or_default().to_owned();
        Some(ReadBody {
            language: language_of_path(&path),
            path,
            range: Some(format!("lines {first}–{}", first.saturating_add(count.saturating_sub(1)))),
            content: ReadContent::Lines { text: lines, first },
        })
    }
}

/// Text as Read gives it to the model, `     12→line`, as its first line number and the lines
/// without their numbers; `None` unless every line is numbered (a reminder Claude Code appends
/// after the file is left out).
fn numbered_lines(text: &str) -> Option<(u64, String)> {
    let text = text.split("<system-reminder>").next().unwrap_or_default().trim_end();
    let mut first = None;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let (number, rest) = line.trim_start().split_once('→')?;
        let number: u64 = number.parse().ok()?;
        first.get_or_insert(number);
        out.push_str(rest);
        out.push('\n');
    }
    Some((first?, out))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::calls;
    use super::super::{tool_body, ToolBody};
    use super::ReadContent;
    use crate::fixtures::workspace;

    #[test]
    fn a_real_read_shows_its_path_range_and_numbered_lines() {
        let ws = workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let reads = calls(&ws, "Read");
        let bodies: Vec<_> = reads.iter().map(|c| tool_body(c, None)).collect();
        let read = bodies
            .iter()
            .find_map(|b| match b {
                ToolBody::Read(r) => Some(r),
                _ => None,
            })
            .expect("a Read with a structured result");
        assert!(read.path.starts_with('/'), "{}", read.path);
        assert!(read.range.as_deref().is_some_and(|r| r.starts_with("lines ")));
        let ReadContent::Lines { text, first } = &read.content else { panic!("text read") };
        assert!(*first >= 1);
        assert!(!text.is_empty());
    }

    #[test]
    fn a_read_with_only_numbered_text_is_still_a_read() {
        // marot agent-a7be2f0 (CC 2.1.39): sub-agent Reads keep no toolUseResult, only
        // `     1→…` lines.
        let ws = workspace("marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20/subagents/agent-a7be2f0.jsonl");
        let reads = calls(&ws, "Read");
        assert!(!reads.is_empty());
        let bodies: Vec<_> = reads
            .iter()
            .filter(|c| c.result.as_ref().is_some_and(|r| !r.is_error))
            .map(|c| (c, tool_body(c, None)))
            .collect();
        assert!(!bodies.is_empty());
        for (call, body) in bodies {
            let ToolBody::Read(read) = body else { panic!("{body:?}") };
            assert_eq!(read.path, call.text("file_path").unwrap());
            let ReadContent::Lines { text, first } = read.content else { panic!() };
            assert!(first >= 1);
            let head = text.lines().next().unwrap_or_default();
            assert!(!head.contains(&format!("{first}→")), "the numbers are not part of the text: {head:?}");
        }
    }

    #[test]
    fn numbered_lines_are_read_back() {
        assert_eq!(super::numbered_lines("     7→a\n     8→  b\n"), Some((7, "a\n  b\n".into())));
        assert_eq!(
            super::numbered_lines("     1→x\n\n<system-reminder>\nlooks safe\n</system-reminder>"),
            Some((1, "x\n".into()))
        );
        assert_eq!(super::numbered_lines("File does not exist."), None);
        assert_eq!(super::numbered_lines(""), None);
    }
}
