//! Byte ranges into a transcript's buffer.
//!
//! Sessions reach hundreds of MB, so the index never copies bodies: it keeps where they are and
//! decodes them when they are shown. A [`Span`] is a byte range; a [`JsonStr`] is the span of one
//! JSON string token (quotes included), decoded on demand.

use std::borrow::Cow;
use std::num::NonZeroU32;
use std::ops::Range;

/// A byte range into the buffer a transcript was parsed from. `u32` because wasm32 memory is 4 GiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The bytes this span covers, or nothing if it does not fit `src` (a span from another buffer).
    pub fn bytes(self, src: &[u8]) -> &[u8] {
        src.get(self.range()).unwrap_or_default()
    }

    /// The covered text. Spans are only made over text that was checked to be UTF-8.
    pub fn text(self, src: &[u8]) -> &str {
        std::str::from_utf8(self.bytes(src)).unwrap_or_default()
    }

    /// The span of `inner`, a slice borrowed from `outer`, where `outer` starts at `outer_start`.
    /// serde_json hands out borrowed `&str`s into the line it parses; this turns them back into
    /// positions so nothing needs copying.
    pub(crate) fn of_slice(outer: &str, outer_start: usize, inner: &str) -> Span {
        let offset = (inner.as_ptr() as usize).wrapping_sub(outer.as_ptr() as usize);
        debug_assert!(offset + inner.len() <= outer.len(), "slice not inside its line");
        let start = outer_start + offset.min(outer.len());
        Span::new(start, start + inner.len().min(outer.len() - offset.min(outer.len())))
    }
}

/// The span of a JSON string token in the buffer, quotes included. Its end is never 0 (a token
/// is at least its two quotes), so an `Option<JsonStr>` takes 8 bytes and not 12: the index holds
/// dozens of them a line (ids, names, times), in every line of a session of GBs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JsonStr {
    start: u32,
    end: NonZeroU32,
}

impl JsonStr {
    /// The token `token` covers. A span ending at 0 is no token; it is read as an empty one.
    pub fn new(token: Span) -> JsonStr {
        JsonStr { start: token.start, end: NonZeroU32::new(token.end).unwrap_or(NonZeroU32::MIN) }
    }

    /// Where the token is, quotes included.
    pub fn span(self) -> Span {
        Span { start: self.start, end: self.end.get() }
    }

    /// The raw characters between the quotes, escapes left as written. Ids and names never carry
    /// escapes in real files, so this is what they are compared and hashed by.
    pub fn raw(self, src: &[u8]) -> &str {
        let token = self.span().text(src);
        token.get(1..token.len().saturating_sub(1)).unwrap_or_default()
    }

    /// [`JsonStr::raw`] as bytes, which is what ids are hashed and compared by: it skips the
    /// UTF-8 check `raw` makes (the line was checked when it was parsed), and over the hundreds of
    /// thousands of id lookups of a large session that check was a third of normalize in wasm.
    pub fn key(self, src: &[u8]) -> &[u8] {
        let token = self.span().bytes(src);
        token.get(1..token.len().saturating_sub(1)).unwrap_or_default()
    }

    /// The decoded string: borrowed when it has no escapes, which is almost always.
    pub fn decode<'s>(self, src: &'s [u8]) -> Cow<'s, str> {
        let inner = self.raw(src);
        if !inner.contains('\\') {
            return Cow::Borrowed(inner);
        }
        match serde_json::from_str::<String>(self.span().text(src)) {
            Ok(s) => Cow::Owned(s),
            Err(_) => Cow::Borrowed(inner),
        }
    }

    /// Decodes the inside of a string token given as written (what [`JsonStr::raw`] returns).
    pub fn unescape(raw: &str) -> String {
        if !raw.contains('\\') {
            return raw.to_owned();
        }
        serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.to_owned())
    }
}
