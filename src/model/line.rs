//! Physical lines: splitting a buffer, and the reasons a line is not an entry.
//!
//! One bad line must never cost the rest of the file (a stream parser that stops at the first
//! error cannot resynchronise), so every line is read on its own and a failure is data.

use super::entry::Entry;
use super::read::read_entry;
use super::span::Span;

/// One physical line of a transcript file.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// 1-based, as editors count.
    pub number: u32,
    /// The line's bytes in the buffer, without its line break.
    pub span: Span,
    pub content: LineContent,
}

// Entries are stored inline: boxing them would cost one allocation per line, which is what the
// index is built to avoid.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum LineContent {
    Entry(Entry),
    Invalid(Invalid),
}

impl Line {
    pub fn entry(&self) -> Option<&Entry> {
        match &self.content {
            LineContent::Entry(entry) => Some(entry),
            LineContent::Invalid(_) => None,
        }
    }

    pub fn invalid(&self) -> Option<&Invalid> {
        match &self.content {
            LineContent::Invalid(invalid) => Some(invalid),
            LineContent::Entry(_) => None,
        }
    }

    /// The line as written, for raw views (lossy only where the bytes are not UTF-8).
    pub fn raw<'s>(&self, src: &'s [u8]) -> std::borrow::Cow<'s, str> {
        String::from_utf8_lossy(self.span.bytes(src))
    }
}

/// Why a line is not an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// Nothing but white space.
    Blank,
    /// A `//` comment, as people add to hand-edited fixtures.
    Comment,
    /// Bytes that are not UTF-8, at this column (1-based, in bytes).
    InvalidUtf8 { column: u32 },
    /// The line ends inside a JSON value: cut off by a crash, a copy, or (as the last line of a
    /// file) a session that is still being written.
    Truncated { last_line: bool },
    /// Nested deeper than the parser follows (128 levels).
    TooDeep,
    /// Not JSON; serde_json's message says where.
    NotJson { message: String },
    /// JSON, but not an object (`42`, `"text"`, `[1]`).
    NotObject { found: &'static str },
}

impl Invalid {
    /// A short, plain-language reason for the UI and the inspect command.
    pub fn reason(&self) -> String {
        match self {
            Invalid::Blank => "blank line".into(),
            Invalid::Comment => "comment line (starts with //)".into(),
            Invalid::InvalidUtf8 { column } => format!("invalid UTF-8 at column {column}"),
            Invalid::Truncated { last_line: true } => {
                "truncated: the last line ends mid-value (the file may still be being written)".into()
            }
            Invalid::Truncated { last_line: false } => "truncated: the line ends mid-value".into(),
            Invalid::TooDeep => "JSON nested too deep (over 128 levels)".into(),
            Invalid::NotJson { message } => format!("not JSON: {message}"),
            Invalid::NotObject { found } => format!("JSON {found}, not an object"),
        }
    }

    /// A stable one-word key, for counting reasons.
    pub fn key(&self) -> &'static str {
        match self {
            Invalid::Blank => "blank",
            Invalid::Comment => "comment",
            Invalid::InvalidUtf8 { .. } => "invalid-utf8",
            Invalid::Truncated { .. } => "truncated",
            Invalid::TooDeep => "too-deep",
            Invalid::NotJson { .. } => "not-json",
            Invalid::NotObject { .. } => "not-object",
        }
    }
}

/// Splits `bytes` into physical lines: `(number, span)`, spans without `\n` or `\r\n`. A UTF-8
/// byte order mark before the first line is skipped. A final line break does not start a line.
pub struct SplitLines<'a> {
    bytes: &'a [u8],
    pos: usize,
    number: u32,
}

impl<'a> SplitLines<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        let pos = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        SplitLines { bytes, pos, number: 0 }
    }

    /// Goes on from `position`, where line `number` ended (for reading a file in steps).
    pub(super) fn resume(bytes: &'a [u8], position: usize, number: u32) -> Self {
        SplitLines { bytes, pos: position, number }
    }

    /// Where the next line starts: the byte offset reached so far.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The number of the last line split off.
    pub fn number(&self) -> u32 {
        self.number
    }
}

impl Iterator for SplitLines<'_> {
    /// `(number, span, ends_with_newline)`.
    type Item = (u32, Span, bool);

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let start = self.pos;
        let (end, terminated) = match memchr::memchr(b'\n', &self.bytes[start..]) {
            Some(i) => (start + i, true),
            None => (self.bytes.len(), false),
        };
        self.pos = end + usize::from(terminated);
        self.number += 1;
        let end = if end > start && self.bytes[end - 1] == b'\r' { end - 1 } else { end };
        Some((self.number, Span::new(start, end), terminated))
    }
}

/// Reads one physical line. `terminated` is false for a last line without a line break.
pub fn read_line(bytes: &[u8], number: u32, span: Span, terminated: bool) -> Line {
    let content = match classify(bytes, span, terminated) {
        Ok(entry) => LineContent::Entry(entry),
        Err(invalid) => LineContent::Invalid(invalid),
    };
    Line { number, span, content }
}

fn classify(bytes: &[u8], span: Span, terminated: bool) -> Result<Entry, Invalid> {
    let raw = span.bytes(bytes);
    // The fast check says only yes or no; std finds the column when it is no.
    let text = simdutf8::basic::from_utf8(raw)
        .or_else(|_| std::str::from_utf8(raw))
        .map_err(|e| Invalid::InvalidUtf8 { column: e.valid_up_to() as u32 + 1 })?;
    let trimmed = text.trim_start();
    if trimmed.trim_end().is_empty() {
        return Err(Invalid::Blank);
    }
    if trimmed.starts_with("//") {
        return Err(Invalid::Comment);
    }
    if trimmed.starts_with('{') {
        return read_entry(text, span.start as usize).map_err(|e| json_error(e, terminated));
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => Err(Invalid::NotObject { found: json_kind(&value) }),
        Err(e) => Err(json_error(e, terminated)),
    }
}

fn json_error(e: serde_json::Error, terminated: bool) -> Invalid {
    let message = e.to_string();
    if message.starts_with("recursion limit exceeded") {
        Invalid::TooDeep
    } else if e.is_eof() {
        Invalid::Truncated { last_line: !terminated }
    } else {
        Invalid::NotJson { message }
    }
}

fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}
