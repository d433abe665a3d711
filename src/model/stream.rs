//! Parsing a file while its bytes arrive.
//!
//! A page reads a file of hundreds of MB in slices and parses each slice while the next is read;
//! a session that is still being written grows at its end. Both need the same thing: lines parsed
//! as soon as they are whole, and in the end exactly the lines [`parse`](super::parse) gives for
//! the whole file, however the bytes were cut.

use std::collections::TryReserveError;
use std::mem::MaybeUninit;

use super::line::{Line, SplitLines};
use super::{parse_step, Transcript};

/// Lines parsed before the index is sized for the whole file. An estimate from the first line
/// alone could be off by orders of magnitude (a first line of 100 bytes in a file of 10 kB lines
/// would reserve a hundred times too much); a MB of lines is a fair sample, and below that the
/// index grows by doubling at little cost.
const INDEX_SAMPLE_BYTES: usize = 1 << 20;

/// A transcript whose bytes are still arriving: it owns the bytes fed so far and the lines
/// parsed from them, and parses only whole (newline-terminated) lines until [`finish`] says
/// there is no more, so a line cut by a slice boundary waits for the rest of itself.
///
/// Feeding and stepping can alternate in any order, any number of times: a loader feeds a slice
/// and steps while the next is read; a follower of a growing file feeds what was appended.
///
/// [`finish`]: GrowingTranscript::finish
#[derive(Debug)]
pub struct GrowingTranscript {
    name: String,
    bytes: Vec<u8>,
    lines: Vec<Line>,
    /// The size the file is expected to reach, for sizing the index; a hint, not a limit.
    expected_size: usize,
    /// The end of the last line break fed: lines before it are whole and can be parsed.
    complete_until: usize,
    /// Where the next line starts: everything before it is parsed (or is a skipped BOM).
    next_line_at: usize,
    /// The number of the last line parsed; 0 before the first, which is when a BOM is skipped.
    last_number: u32,
    /// Whether the index has been sized for the whole file (done once).
    index_sized: bool,
}

impl GrowingTranscript {
    /// Reserves room for `expected_size` bytes at once, so that a file too large for memory is
    /// an error the caller can explain instead of a dead tab, and so bytes are never copied to a
    /// larger buffer while they arrive.
    pub fn new(name: impl Into<String>, expected_size: usize) -> Result<Self, TryReserveError> {
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(expected_size)?;
        Ok(GrowingTranscript {
            name: name.into(),
            bytes,
            lines: Vec::new(),
            expected_size,
            complete_until: 0,
            next_line_at: 0,
            last_number: 0,
            index_sized: false,
        })
    }

    /// Appends `chunk` to the file's bytes. Nothing is parsed until [`step`](Self::step).
    pub fn feed(&mut self, chunk: &[u8]) {
        let from = self.bytes.len();
        self.bytes.extend_from_slice(chunk);
        self.note_line_breaks(from);
    }

    /// Appends `len` bytes that `write` puts straight into the buffer, for a source that copies
    /// into memory itself (a browser's `Uint8Array::copy_to_uninit`): [`feed`](Self::feed) would
    /// need them in an initialised slice first, a second pass over hundreds of MB.
    ///
    /// `write` gets the `len` uninitialised bytes after the end and must return them as the
    /// initialised slice (as `copy_to_uninit` does). That returned slice is the proof they were
    /// written, which keeps this safe: safe code cannot make a `&mut [u8]` over those bytes
    /// without initialising them.
    ///
    /// # Panics
    /// If `write` returns any slice other than the one it was given.
    pub fn feed_in_place<F>(&mut self, len: usize, write: F)
    where
        F: for<'a> FnOnce(&'a mut [MaybeUninit<u8>]) -> &'a mut [u8],
    {
        let from = self.bytes.len();
        self.bytes.reserve(len);
        let spare = &mut self.bytes.spare_capacity_mut()[..len];
        let start = spare.as_ptr() as *const u8;
        let written = write(spare);
        assert!(
            written.as_ptr() == start && written.len() == len,
            "feed_in_place: `write` must return the slice it was given, initialised"
        );
        // SAFETY: `written` is a `&mut [u8]` over exactly the `len` bytes after `from` (checked
        // just above), and a `&mut [u8]` only ever points at initialised bytes.
        unsafe { self.bytes.set_len(from + len) };
        self.note_line_breaks(from);
    }

    /// How many more bytes can be fed before the bytes fed so far are copied to a larger buffer.
    pub fn room(&self) -> usize {
        self.bytes.capacity() - self.bytes.len()
    }

    /// Gives the bytes fed so far a larger buffer: `larger` holds a copy of them, made by the
    /// caller in steps a page can pause between (a growing buffer copies all of itself at once,
    /// which at hundreds of MB holds a page for a tenth of a second).
    ///
    /// # Panics
    /// If `larger` does not hold as many bytes as were fed, or has no more room than now.
    pub fn move_to(&mut self, larger: Vec<u8>) {
        assert!(
            larger.len() == self.bytes.len() && larger.capacity() > self.bytes.capacity(),
            "move_to: `larger` must be a copy of the bytes fed, with more room"
        );
        debug_assert!(larger == self.bytes);
        self.bytes = larger;
    }

    /// Moves the end of the complete lines past the last line break in the bytes fed from
    /// `from` on. Only new bytes are searched, so feeding a byte at a time stays linear.
    fn note_line_breaks(&mut self, from: usize) {
        if let Some(i) = memchr::memrchr(b'\n', &self.bytes[from..]) {
            self.complete_until = from + i + 1;
        }
    }

    /// Parses whole lines for about `budget` bytes (at least one line), so a page can paint
    /// between steps. Returns whether every whole line fed so far is parsed; a last line without
    /// its line break yet is left for more bytes or [`finish`](Self::finish).
    pub fn step(&mut self, budget: usize) -> bool {
        let caught_up = self.parse_until(self.complete_until, budget.max(1));
        if caught_up {
            self.size_index();
        }
        caught_up
    }

    /// Parses everything left, a last line without a line break included (which, if it ends
    /// mid-value, is [`Invalid::Truncated`](super::Invalid::Truncated) `{ last_line: true }`,
    /// as for [`parse`](super::parse)).
    pub fn finish(mut self) -> Transcript {
        self.parse_until(self.bytes.len(), usize::MAX);
        Transcript { name: self.name, bytes: self.bytes, lines: self.lines }
    }

    /// A copy of the lines parsed so far with the bytes they span: what a page shows while the
    /// rest of a large file is still being read. It is the transcript [`parse`](super::parse)
    /// gives for the file cut after its last parsed line, so normalizing it gives the beginning of
    /// the conversation (a tool call whose result is further on shows as still running).
    pub fn parsed_so_far(&self) -> Transcript {
        Transcript {
            name: self.name.clone(),
            bytes: self.bytes[..self.next_line_at].to_vec(),
            lines: self.lines.clone(),
        }
    }

    fn parse_until(&mut self, end: usize, budget: usize) -> bool {
        let region = &self.bytes[..end];
        // A BOM counts only at the very start of the file. The first region that has a line
        // break starts with the whole BOM if the file does (a BOM holds no `\n`), so deciding on
        // it is deciding on the whole file, as `SplitLines::new` would.
        let mut split = if self.last_number == 0 {
            SplitLines::new(region)
        } else {
            SplitLines::resume(region, self.next_line_at, self.last_number)
        };
        let caught_up = parse_step(region, &mut split, budget, &mut self.lines);
        self.next_line_at = split.offset();
        self.last_number = split.number();
        caught_up
    }

    /// Sizes the index for the whole expected file by the lines per byte seen so far, rather
    /// than copying it each time it doubles. Once, when caught up with enough lines to judge.
    fn size_index(&mut self) {
        let parsed = self.next_line_at;
        if self.index_sized || parsed < INDEX_SAMPLE_BYTES || parsed >= self.expected_size {
            return;
        }
        self.index_sized = true;
        let expected = self.lines.len() as f64 * self.expected_size as f64 / parsed as f64;
        let wanted = ((expected * 1.1) as usize).saturating_sub(self.lines.len());
        // Only a hint: if it cannot be had, the index grows as it goes.
        let _ = self.lines.try_reserve(wanted);
    }

    /// The name the file was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The bytes fed so far.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The lines parsed so far; their spans point into [`bytes`](Self::bytes).
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// How many bytes have been fed.
    pub fn bytes_fed(&self) -> usize {
        self.bytes.len()
    }

    /// How many bytes have been parsed (the start of the next line to parse).
    pub fn bytes_parsed(&self) -> usize {
        self.next_line_at
    }
}
