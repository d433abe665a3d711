//! Files still being written: a session Claude Code is appending to, read again as it grows.
//!
//! Claude Code only ever appends to a transcript. A follower asks each file's size about once a
//! second and hands over what was added; whole lines are parsed at once, and a last line still
//! being written waits for the rest of itself (the bytes read can end anywhere, inside a UTF-8
//! character too). A file that got smaller, or whose bytes before the new ones are not the ones
//! read, was rewritten rather than appended to, and is read again whole.

use crate::model::{GrowingTranscript, Transcript};

use super::beside::beside;
use super::pace::{self, Pace};
use super::{assemble_paced, Input, Workspace};

/// Bytes read again before the new ones, to tell an append from a rewrite that also grew.
pub const OVERLAP: usize = 64;

/// Bytes parsed, or copied, per [`Pace::long_step`]: a millisecond or two of work.
const STEP: usize = 1 << 20;

/// Lines copied per [`Pace::long_step`].
const LINES_STEP: usize = 4096;

/// Room kept after a followed file's bytes for what is appended to it: an eighth of its size, at
/// least a megabyte. Only when that is used up are its bytes copied to a larger buffer.
fn headroom(size: usize) -> usize {
    (size / 8).max(1 << 20)
}

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
    pub fn add(&mut self, name: &str, bytes: &[u8]) {
        pace::finish(self.add_paced(name, bytes, &mut Pace::never()))
    }

    /// [`add`](Live::add), pausing where `pace` says (following a large session starts by
    /// parsing all of it).
    pub async fn add_paced(&mut self, name: &str, bytes: &[u8], pace: &mut Pace<'_>) {
        self.transcripts.retain(|t| t.name() != name);
        self.side.retain(|s| s.name != name);
        if beside(name).is_some() {
            self.side.push(Input { name: name.to_owned(), bytes: bytes.to_vec() });
            return;
        }
        let mut transcript = match GrowingTranscript::new(name, bytes.len() + headroom(bytes.len())) {
            Ok(t) => t,
            Err(_) => return,
        };
        for piece in bytes.chunks(STEP) {
            transcript.feed(piece);
            pace.long_step().await;
        }
        while !transcript.step(STEP) {
            pace.long_step().await;
        }
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

    /// The bytes read of `name` so far.
    pub fn bytes(&self, name: &str) -> Option<&[u8]> {
        self.transcripts
            .iter()
            .find(|t| t.name() == name)
            .map(GrowingTranscript::bytes)
            .or_else(|| self.side.iter().find(|s| s.name == name).map(|s| &s.bytes[..]))
    }

    /// The bytes read of every file.
    pub fn bytes_read(&self) -> usize {
        let side: usize = self.side.iter().map(|s| s.bytes.len()).sum();
        side + self.transcripts.iter().map(GrowingTranscript::bytes_fed).sum::<usize>()
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
        pace::finish(self.take_paced(name, from, bytes, &mut Pace::never()))
    }

    /// [`take`](Live::take), pausing where `pace` says: when the file outgrows the room left
    /// after it, its bytes are copied to a larger buffer a step at a time.
    pub async fn take_paced(&mut self, name: &str, from: usize, bytes: &[u8], pace: &mut Pace<'_>) -> Growth {
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
        if transcript.room() < new.len() {
            let size = read + new.len();
            let mut larger = Vec::new();
            // Without the memory for a copy, feeding tries the usual way (and says so if it fails).
            if larger.try_reserve_exact(size + headroom(size)).is_ok() {
                for piece in transcript.bytes().chunks(STEP) {
                    larger.extend_from_slice(piece);
                    pace.long_step().await;
                }
                transcript.move_to(larger);
            }
        }
        transcript.feed(new);
        while !transcript.step(STEP) {
            pace.long_step().await;
        }
        Growth::Appended(new.len())
    }

    /// How many whole lines the transcripts hold: an append changes what is shown only when this
    /// grows.
    pub fn lines(&self) -> usize {
        self.transcripts.iter().map(|t| t.lines().len()).sum()
    }

    /// The files normalized as they are now: their whole lines, as one would get them by
    /// opening the files now (a last line still being written left out).
    pub fn workspace(&self) -> Workspace {
        pace::finish(self.workspace_paced(&mut Pace::never()))
    }

    /// [`workspace`](Live::workspace), pausing where `pace` says: copying and normalizing a
    /// followed session grows with it (about 0.2 s natively at 200 MB), and a page paints and
    /// takes input meanwhile.
    pub async fn workspace_paced(&self, pace: &mut Pace<'_>) -> Workspace {
        let mut transcripts = Vec::with_capacity(self.transcripts.len());
        for growing in &self.transcripts {
            transcripts.push(parsed_so_far_paced(growing, pace).await);
        }
        assemble_paced(transcripts, self.side.clone(), pace).await
    }
}

/// The transcript [`GrowingTranscript::parsed_so_far`] gives, copied a step at a time (a file
/// still being read is shown early from such a copy too).
pub async fn parsed_so_far_paced(growing: &GrowingTranscript, pace: &mut Pace<'_>) -> Transcript {
    let parsed = &growing.bytes()[..growing.bytes_parsed()];
    let mut bytes = Vec::with_capacity(parsed.len());
    for piece in parsed.chunks(STEP) {
        bytes.extend_from_slice(piece);
        pace.long_step().await;
    }
    let mut lines = Vec::with_capacity(growing.lines().len());
    for piece in growing.lines().chunks(LINES_STEP) {
        lines.extend_from_slice(piece);
        pace.long_step().await;
    }
    Transcript { name: growing.name().to_owned(), bytes, lines }
}
