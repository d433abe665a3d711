//! The wire format: JSONL bytes to typed lines, none lost, none refused.
//!
//! [`parse`] reads every physical line into an [`Entry`] or an [`Invalid`] reason. Entries keep
//! positions ([`Span`], [`JsonStr`]) into the buffer instead of copies, so indexing a file of
//! hundreds of MB costs a few hundred bytes per line; bodies are decoded when they are shown
//! ([`body`], [`tool_result`]). A file that arrives in slices, or keeps growing, is parsed as it
//! comes by a [`GrowingTranscript`], to the same lines.

pub mod body;
mod census;
mod content;
mod deserializer;
mod entry;
mod line;
pub mod persisted;
mod read;
mod scan;
mod span;
mod stream;
pub mod synthetic;
mod tool;
pub mod tool_result;
pub mod user_text;
mod wire;

pub use census::Census;
pub use content::*;
pub use entry::*;
pub use line::{read_line, Invalid, Line, LineContent, SplitLines};
pub use read::{is_known_type, read_both_ways, KNOWN_TYPES};
pub use span::{JsonStr, Span};
pub use stream::GrowingTranscript;
pub use tool::Tool;

/// Reads every physical line of `bytes`. Never panics, never stops early.
pub fn parse(bytes: &[u8]) -> Vec<Line> {
    SplitLines::new(bytes)
        .map(|(number, span, terminated)| read_line(bytes, number, span, terminated))
        .collect()
}

/// Reads lines of `bytes` from where `split` stands until at least `budget` bytes are read (or the
/// end), appending them to `lines`. Returns whether the end was reached. [`GrowingTranscript`]
/// reads a file in such steps so a page can paint between them.
pub fn parse_step(bytes: &[u8], split: &mut SplitLines, budget: usize, lines: &mut Vec<Line>) -> bool {
    let stop = split.offset().saturating_add(budget);
    while split.offset() < stop {
        match split.next() {
            Some((number, span, terminated)) => lines.push(read_line(bytes, number, span, terminated)),
            None => return true,
        }
    }
    split.offset() >= bytes.len()
}

/// A parsed file: its name, its bytes, and its lines, whose spans point into those bytes.
#[derive(Clone, Debug)]
pub struct Transcript {
    /// The path as the user gave it (relative inside a dropped folder), which tells a session
    /// file from a sub-agent file.
    pub name: String,
    pub bytes: Vec<u8>,
    pub lines: Vec<Line>,
}

impl Transcript {
    pub fn parse(name: impl Into<String>, bytes: Vec<u8>) -> Transcript {
        let lines = parse(&bytes);
        Transcript { name: name.into(), bytes, lines }
    }

    pub fn census(&self) -> Census {
        Census::of(&self.lines, &self.bytes)
    }
}
