//! One session of a folder read whole, off the page: its files fed as they are read (a slice at
//! a time for a large one), then counted ([`Scanned::count`]) or searched ([`Scanned::search`]).
//! The page's workers run this (`browser::worker`); it needs no browser, so it is tested natively.

use crate::catalog::summary::{whole, Summary};
use crate::model::GrowingTranscript;
use crate::normalize::beside::beside;
use crate::normalize::{assemble, Input, Workspace};
use crate::query::across::{found_in, SessionHit};
use crate::query::grams::{Grams, GramsBuilder};
use crate::query::search::Matcher;

/// A session's files being read: each grows as its bytes arrive (the small files beside the
/// transcripts, sub-agent metadata, too; they are not parsed as transcripts).
pub struct SessionReader {
    /// Each file, and whether it is a transcript.
    files: Vec<(GrowingTranscript, bool)>,
    grams: Option<GramsBuilder>,
}

/// What a search found in one session of the files: the first matches, and how many there are.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FoundSet {
    pub found: Vec<SessionHit>,
    pub total: usize,
}

impl SessionReader {
    /// Reads files of `size` bytes in all; `with_grams` also makes their [`Grams`] on the way.
    pub fn new(size: usize, with_grams: bool) -> SessionReader {
        SessionReader { files: Vec::new(), grams: with_grams.then(|| Grams::builder(size)) }
    }

    /// Starts the next file, of `size` bytes. Fails when there is no memory for it.
    pub fn next_file(&mut self, name: &str, size: usize) -> Result<(), String> {
        if let Some(grams) = &mut self.grams {
            grams.next_file();
        }
        let growing = GrowingTranscript::new(name, size).map_err(|_| "not enough memory".to_owned())?;
        self.files.push((growing, beside(name).is_none()));
        Ok(())
    }

    /// Feeds the next `len` bytes of the file, written in place by `write` (see
    /// [`GrowingTranscript::feed_in_place`]): a browser copies them from its buffer straight in.
    pub fn feed_in_place<F>(&mut self, len: usize, write: F)
    where
        F: for<'a> FnOnce(&'a mut [std::mem::MaybeUninit<u8>]) -> &'a mut [u8],
    {
        let Some((growing, _)) = self.files.last_mut() else { return };
        let from = growing.bytes_fed();
        growing.feed_in_place(len, write);
        if let Some(grams) = &mut self.grams {
            grams.feed(&growing.bytes()[from..]);
        }
    }

    /// Feeds the next bytes of the file.
    pub fn feed(&mut self, bytes: &[u8]) {
        let Some((growing, _)) = self.files.last_mut() else { return };
        growing.feed(bytes);
        if let Some(grams) = &mut self.grams {
            grams.feed(bytes);
        }
    }

    /// Whether the raw bytes of the files may hold a match of `matcher` (see
    /// [`Matcher::may_be_in_raw`]): a session that cannot is never parsed.
    pub fn may_hold(&self, matcher: &Matcher) -> bool {
        self.files.iter().any(|(f, _)| matcher.may_be_in_raw(f.bytes()))
    }

    /// Parses and normalizes what was fed.
    pub fn finish(self) -> Scanned {
        let (mut transcripts, mut side) = (Vec::new(), Vec::new());
        for (growing, is_transcript) in self.files {
            match is_transcript {
                true => transcripts.push(growing.finish()),
                false => {
                    let t = growing.finish();
                    side.push(Input { name: t.name, bytes: t.bytes });
                }
            }
        }
        Scanned { ws: assemble(transcripts, side), grams: self.grams.map(GramsBuilder::finish) }
    }
}

/// A session's files read and normalized.
pub struct Scanned {
    pub ws: Workspace,
    /// Made when asked for ([`SessionReader::new`]).
    pub grams: Option<Grams>,
}

impl Scanned {
    /// What the list says about the session once every line was read; `None` for files that
    /// hold no conversation, and why not when none of them is a transcript at all.
    pub fn count(&self) -> Result<Option<Summary>, String> {
        match (self.ws.sessions.first(), self.ws.rejected.first()) {
            (Some(s), _) => Ok(Some(whole(&self.ws, s))),
            (None, Some((_, why))) if self.ws.files.is_empty() => Err(why.clone()),
            (None, _) => Ok(None),
        }
    }

    /// The matches of `matcher` in each session of the files that has some: the first `limit`
    /// of each.
    pub fn search(&self, matcher: &Matcher, limit: usize) -> Vec<FoundSet> {
        self.ws
            .sessions
            .iter()
            .map(|s| found_in(&self.ws, s, matcher, limit))
            .filter(|(_, total)| *total > 0)
            .map(|(found, total)| FoundSet { found, total })
            .collect()
    }
}
