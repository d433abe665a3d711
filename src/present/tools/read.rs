//! Read: the file, the range read, and the lines with their numbers (or the image read).

use crate::model::body::ImageSource;
use crate::model::tool_result::ToolUseResult;
use crate::present::calls::CallView;

#[derive(Clone, Debug, PartialEq)]
pub struct ReadBody {
    pub path: String,
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
    /// Only a result Claude Code kept as a read file is drawn this way; anything else is shown as
    /// the generic input and output.
    pub fn of(call: &CallView) -> Option<ReadBody> {
        let Some(ToolUseResult::Read(r)) = call.structured() else { return None };
        let file = &r.file;
        if file.file_path.is_empty() {
            return None;
        }
        let range = (file.total_lines > 0).then(|| {
            format!(
                "lines {}–{} of {}",
                file.start_line,
                file.start_line + file.num_lines.saturating_sub(1),
                file.total_lines
            )
        });
        let content = match (&file.base64, &file.media_type) {
            (Some(data), Some(media)) => {
                ReadContent::Image(ImageSource::Base64 { media_type: media.clone(), data: data.clone() })
            }
            _ => ReadContent::Lines { text: file.content.clone(), first: file.start_line.max(1) },
        };
        Some(ReadBody { path: file.file_path.clone(), range, content })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{calls, fixture};
    use super::super::{tool_body, ToolBody};
    use super::ReadContent;

    #[test]
    fn a_real_read_shows_its_path_range_and_numbered_lines() {
        let ws = fixture(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let reads = calls(&ws, "Read");
        let bodies: Vec<_> = reads.iter().map(tool_body).collect();
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
}
