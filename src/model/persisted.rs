//! A tool result too large for the conversation: Claude Code writes the whole output to
//! `<session>/tool-results/<tool_use_id>.txt` (or `.json`) and gives the model a preview:
//!
//! ```text
//! <persisted-output>
//! Output too large (141KB). Full output saved to: /home/…/<session>/tool-results/toolu_01….txt
//!
//! Preview (first 2KB):
//! …
//! </persisted-output>
//! ```

/// What a `<persisted-output>` result says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersistedOutput {
    /// Where the whole output was saved, as written (a path on the writer's machine).
    pub path: String,
    /// `141KB`, as written.
    pub size: Option<String>,
}

impl PersistedOutput {
    /// The saved file's name without its folder (`toolu_01….txt`), on any system's paths.
    pub fn file_name(&self) -> &str {
        self.path.rsplit(['/', '\\']).next().unwrap_or(&self.path)
    }
}

const OPEN: &str = "<persisted-output>";
const SAVED_TO: &[&str] = &["saved to: ", "Tool result saved to: "];

/// Reads a tool result's text as a persisted output, if it is one.
pub(crate) fn persisted_output(text: &str) -> Option<PersistedOutput> {
    let body = text.trim_start().strip_prefix(OPEN)?;
    let first = body.trim_start().lines().next()?;
    let at = SAVED_TO.iter().find_map(|s| first.find(s).map(|i| i + s.len()))?;
    let path = first[at..].trim().to_owned();
    let size = first
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(size, _)| size.to_owned())
        .filter(|s| s.len() < 16);
    (!path.is_empty()).then_some(PersistedOutput { path, size })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_where_the_output_went_and_its_size() {
        // As written by 2.1.39 (marot/spotter fixture), shortened.
        let text = "<persisted-output>\nOutput too large (141KB). Full output saved to: /home/USER/.claude/projects/-p/8463c716/tool-results/toolu_019C.txt\n\nPreview (first 2KB):\n RUN v4\n...\n</persisted-output>";
        let p = persisted_output(text).unwrap();
        assert_eq!(p.path, "/home/USER/.claude/projects/-p/8463c716/tool-results/toolu_019C.txt");
        assert_eq!(p.size.as_deref(), Some("141KB"));
        assert_eq!(p.file_name(), "toolu_019C.txt");
        // Windows paths (M-Thisness fixture).
        let windows = "<persisted-output>\nOutput too large (178.2KB). Full output saved to: C:\\Users\\M\\3cfc\\tool-results\\toolu_01VX.txt\n\nPreview (first 2KB):\nx\n</persisted-output>";
        assert_eq!(persisted_output(windows).unwrap().file_name(), "toolu_01VX.txt");
        // The short form of later versions (documented shape).
        let short = "<persisted-output>Tool result saved to: /t/tool-results/toolu_1.json\nUse Read to view</persisted-output>";
        assert_eq!(persisted_output(short).unwrap().file_name(), "toolu_1.json");
        assert_eq!(persisted_output("Output too large, saved to: /x"), None);
    }
}
