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

/// What indexing a line costs whatever its length: its [`Line`] with room to grow, and a little
/// beside it. The index is sized for the whole file once a MB of it is parsed, but where that
/// cannot be had it grows by doubling, and holds its old copy beside the new while it moves.
const LINE_COST: usize = 2 * std::mem::size_of::<Line>() + 32;
/// The most memory files and their index may take: WebAssembly has 4 GB in all, and the page,
/// the answers and the copies a caller makes need the rest.
const INDEX_BUDGET: usize = 3_000_000_000;

/// Whether files of these bytes can be indexed together, and how many lines they hold; why not,
/// in words. Ten million empty lines are a 10 MB file whose index needs 4 GB: refused here, they
/// are a message and not a WebAssembly trap (a real session of 2 GB holds about a million lines).
pub fn check_fits<'b>(files: impl IntoIterator<Item = &'b [u8]>) -> Result<usize, String> {
    let (mut bytes, mut lines) = (0usize, 0usize);
    for file in files {
        bytes += file.len();
        lines += lines_in(file) + 1;
    }
    fits(bytes, lines).map(|()| lines)
}

/// Whether files of `bytes` bytes in all could be indexed at all: asked before they are copied
/// in, which for GBs takes seconds and the memory the answer is about.
pub fn check_size(bytes: u64) -> Result<(), String> {
    if bytes <= INDEX_BUDGET as u64 {
        return Ok(());
    }
    Err(format!(
        "{:.1} MB of files is more than the {:.0} GB cctv can use (WebAssembly has 4 GB in all)",
        bytes as f64 / 1e6,
        INDEX_BUDGET as f64 / 1e9,
    ))
}

/// The line breaks in `bytes`.
pub fn lines_in(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// Whether `lines` lines in `bytes` bytes can be indexed ([`check_fits`], counted as they come).
pub fn fits(bytes: usize, lines: usize) -> Result<(), String> {
    let need = bytes.saturating_add(lines.saturating_mul(LINE_COST));
    if need <= INDEX_BUDGET {
        return Ok(());
    }
    Err(format!(
        "too many lines to index: {lines} lines in {:.1} MB need about {:.1} GB, more than the {:.0} GB cctv can use (WebAssembly has 4 GB in all)",
        bytes as f64 / 1e6,
        need as f64 / 1e9,
        INDEX_BUDGET as f64 / 1e9,
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_million_empty_lines_are_refused_in_words_and_real_files_fit() {
        let lines = vec![b'\n'; 10_000_000];
        let refused = check_fits([&lines[..]]).unwrap_err();
        assert!(
            refused.starts_with("too many lines to index: 10000001 lines in 10.0 MB need about"),
            "{refused}"
        );
        // Files indexed together count together.
        let half = &lines[..5_000_000];
        assert!(check_fits([half, half]).is_err());
        assert_eq!(check_fits([&half[..100_000]]), Ok(100_001));
        let every: Vec<Vec<u8>> = crate::fixtures::every_fixture().into_iter().map(|i| i.bytes).collect();
        assert!(check_fits(every.iter().map(Vec::as_slice)).is_ok());
    }

    /// The page checks each slice it reads (16 MiB) before parsing it: a slice of one-byte lines
    /// is refused on its own, before its millions of lines are indexed (at 352 bytes a line, it
    /// was let through, and its index grew until the page died).
    #[test]
    fn a_slice_of_one_byte_lines_is_refused_before_it_is_parsed() {
        let slice = 16 << 20;
        assert!(fits(slice, slice / 2).is_err());
    }

    #[test]
    fn files_too_large_in_all_are_refused_before_their_lines_are_counted() {
        assert_eq!(check_size(2_000_000_000), Ok(()));
        assert_eq!(
            check_size(3_000_000_001),
            Err("3000.0 MB of files is more than the 3 GB cctv can use (WebAssembly has 4 GB in all)".into())
        );
    }
}
