//! Files still being written: a session Claude Code is appending to, read again as it grows.
//!
//! Claude Code only ever appends to a transcript. A follower asks each file's size about once a
//! second and hands over what was added; whole lines are parsed at once, and a last line still
//! being written waits for the rest of itself (the bytes read can end anywhere, inside a UTF-8
//! character too). A file that got smaller, or whose bytes before the new ones are not the ones
//! read, was rewritten rather than appended to, and is read again whole.

use crate::model::{GrowingTranscript, Transcript};

use super::beside::beside;
use super::{assemble, Input, Workspace};

/// Bytes read again before the new ones, to tell an append from a rewrite that also grew.
pub const OVERLAP: usize = 64;

/// Bytes parsed per step: the follower parses what arrived in one go (appends are small).
const STEP: usize = 1 << 20;

/// What a file is now, against what was read of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// Nothing new.
    Same,
    /// This many bytes were added at its end (not necessarily a whole line).
    Appended(usize),
    /// It is not what was read plus more: it must be read again whole.
    Rewritten,
}

/// The files of a followed session: transcripts parsed as they grow, and the files beside them
/// (sub-agent metadata), which are small and read whole when they change.
#[derive(Debug, Default)]
pub struct Live {
    transcripts: Vec<GrowingTranscript>,
    side: Vec<Input>,
}

impl Live {
    pub fn new() -> Live {
        Live::default()
    }

    /// Adds a file as read so far (or replaces the one of that name): a transcript is parsed to
    /// its last whole line.
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        self.transcripts.retain(|t| t.name() != name);
        self.side.retain(|s| s.name != name);
        if beside(name).is_some() {
            self.side.push(Input { name: name.to_owned(), bytes });
            return;
        }
        let mut transcript = match GrowingTranscript::new(name, bytes.len()) {
            Ok(t) => t,
            Err(_) => return,
        };
        transcript.feed(&bytes);
        while !transcript.step(STEP) {}
        self.transcripts.push(transcript);
    }

    /// Whether a file of this name was read.
    pub fn has(&self, name: &str) -> bool {
        self.read(name).is_some()
    }

    /// How many bytes of `name` were read.
    pub fn read(&self, name: &str) -> Option<usize> {
        self.transcripts
            .iter()
            .find(|t| t.name() == name)
            .map(GrowingTranscript::bytes_fed)
            .or_else(|| self.side.iter().find(|s| s.name == name).map(|s| s.bytes.len()))
    }

    /// What a file of `size` bytes is against what was read of it, as far as its size tells:
    /// [`take`](Live::take) tells an append from a rewrite that grew.
    pub fn compare(&self, name: &str, size: usize) -> Growth {
        match self.read(name) {
            None => Growth::Rewritten,
            Some(read) if size == read => Growth::Same,
            Some(read) if size < read => Growth::Rewritten,
            // A file beside a session is rewritten whole, never appended to.
            Some(_) if beside(name).is_some() => Growth::Rewritten,
            Some(read) => Growth::Appended(size - read),
        }
    }

    /// Where to read `name` from to [`take`](Live::take) what was added: a few bytes before the
    /// end of what was read.
    pub fn read_from(&self, name: &str) -> usize {
        self.read(name).unwrap_or(0).saturating_sub(OVERLAP)
    }

    /// Takes `bytes`, the file `name` from byte `from` to its end now, where `from` is
    /// [`read_from`](Live::read_from): appends what is new and parses its whole lines. The bytes
    /// from `from` to the end of what was read must be the ones read before, or the file was
    /// rewritten (and nothing is taken).
    pub fn take(&mut self, name: &str, from: usize, bytes: &[u8]) -> Growth {
        let Some(transcript) = self.transcripts.iter_mut().find(|t| t.name() == name) else {
            return Growth::Rewritten;
        };
        let read = transcript.bytes_fed();
        let Some(overlap) = read.checked_sub(from).filter(|&n| n <= bytes.len()) else {
            return Growth::Rewritten;
        };
        if transcript.bytes()[from..] != bytes[..overlap] {
            return Growth::Rewritten;
        }
        let new = &bytes[overlap..];
        if new.is_empty() {
            return Growth::Same;
        }
        transcript.feed(new);
        while !transcript.step(STEP) {}
        Growth::Appended(new.len())
    }

    /// How many whole lines the transcripts hold: an append changes what is shown only when this
    /// grows.
    pub fn lines(&self) -> usize {
        self.transcripts.iter().map(|t| t.lines().len()).sum()
    }

    /// The files' whole lines, as one would get them by opening the files now (a last line still
    /// being written left out).
    pub fn transcripts(&self) -> Vec<Transcript> {
        self.transcripts.iter().map(GrowingTranscript::parsed_so_far).collect()
    }

    /// The files normalized as they are now.
    pub fn workspace(&self) -> Workspace {
        assemble(self.transcripts(), self.side.clone())
    }
}
