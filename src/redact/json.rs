//! A JSON string as it is written in a line, decoded with where each of its bytes came from: the
//! mask looks for a text in what the string says (so `\u0067hp_…` and `https:\/\/…` are found
//! as `ghp_…` and `https://…`) and replaces the bytes that say it, escapes and all.

use std::borrow::Cow;
use std::ops::Range;

/// A string's content decoded, and where each escape in it was: between two escapes the text is
/// the content's own bytes (every string of every file being masked is decoded, so this keeps
/// no more than that).
pub(crate) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// Each escape: the character it says, as a range of `text`, and the escape, as a range of
    /// the content.
    escapes: Vec<(Range<usize>, Range<usize>)>,
    /// The content's length.
    len: usize,
}

impl Decoded<'_> {
    /// Where `range` of the decoded text is written in the string's content: from the start of
    /// the escape or character its first byte is in to the end of the one its last byte is in.
    pub fn source(&self, range: Range<usize>) -> Range<usize> {
        if range.is_empty() {
            let at = match range.start < self.text.len() {
                true => self.start_of(range.start),
                false => self.len,
            };
            return at..at;
        }
        self.start_of(range.start)..self.end_of(range.end - 1)
    }

    /// Where the escape or character holding byte `at` of the text begins in the content.
    fn start_of(&self, at: usize) -> usize {
        match self.escape_at(at) {
            Ok(escape) => escape.start,
            Err(shift) => {
                let mut start = at;
                while !self.text.is_char_boundary(start) {
                    start -= 1;
                }
                start + shift
            }
        }
    }

    /// Where the escape or character holding byte `at` of the text ends in the content.
    fn end_of(&self, at: usize) -> usize {
        match self.escape_at(at) {
            Ok(escape) => escape.end,
            Err(shift) => {
                let mut end = (at + 1).min(self.text.len());
                while !self.text.is_char_boundary(end) {
                    end += 1;
                }
                end + shift
            }
        }
    }

    /// The escape byte `at` of the text came from, or (a byte written as it is) how much longer
    /// the content is than the text up to it.
    fn escape_at(&self, at: usize) -> Result<Range<usize>, usize> {
        let before = self.escapes.partition_point(|(text, _)| text.start <= at);
        match before.checked_sub(1).map(|k| &self.escapes[k]) {
            Some((text, raw)) if at < text.end => Ok(raw.clone()),
            Some((text, raw)) => Err(raw.end - text.end),
            None => Err(0),
        }
    }
}

/// The content of a JSON string (between its quotes) decoded; `None` if it is not valid (bytes
/// that are not UTF-8, an unknown escape).
pub(crate) fn unescape(raw: &[u8]) -> Option<Decoded<'_>> {
    // Escapes are ASCII, so the content is UTF-8 exactly when what is written as it is, is.
    let content = simdutf8::basic::from_utf8(raw).ok()?;
    let Some(first) = memchr::memchr(b'\\', raw) else {
        return Some(Decoded { text: Cow::Borrowed(content), escapes: Vec::new(), len: raw.len() });
    };
    let hex4 = |at: usize| -> Option<u32> {
        let digits = raw.get(at..at + 4)?;
        digits
            .iter()
            .all(u8::is_ascii_hexdigit)
            .then(|| u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok())?
    };
    let mut text = String::with_capacity(raw.len());
    let mut escapes = Vec::new();
    let (mut copied, mut next) = (0, Some(first));
    while let Some(i) = next {
        text.push_str(&content[copied..i]);
        let (c, len) = match raw.get(i + 1)? {
            b'"' => ('"', 2),
            b'\\' => ('\\', 2),
            b'/' => ('/', 2),
            b'b' => ('\u{8}', 2),
            b'f' => ('\u{c}', 2),
            b'n' => ('\n', 2),
            b'r' => ('\r', 2),
            b't' => ('\t', 2),
            b'u' => {
                let high = hex4(i + 2)?;
                let low = (raw.get(i + 6..i + 8) == Some(b"\\u")).then(|| hex4(i + 8)).flatten();
                match (high, low) {
                    (0xD800..=0xDBFF, Some(low @ 0xDC00..=0xDFFF)) => {
                        (char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?, 12)
                    }
                    // A lone surrogate says no character; it stands as one that cannot be a
                    // secret's.
                    (0xD800..=0xDFFF, _) => ('\u{FFFD}', 6),
                    _ => (char::from_u32(high)?, 6),
                }
            }
            _ => return None,
        };
        let at = text.len();
        text.push(c);
        escapes.push((at..text.len(), i..i + len));
        copied = i + len;
        next = memchr::memchr(b'\\', &raw[copied..]).map(|k| copied + k);
    }
    text.push_str(&content[copied..]);
    Some(Decoded { text: Cow::Owned(text), escapes, len: raw.len() })
}

/// `text` as the content of a JSON string.
pub(crate) fn escape(text: &str) -> String {
    let quoted = serde_json::to_string(text).expect("a string serializes");
    quoted[1..quoted.len() - 1].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_decoded_and_placed_back_whole() {
        let raw = r#"a\u0067h\/p \ud83d\ude00 \"q\" \n é"#.as_bytes();
        let d = unescape(raw).unwrap();
        assert_eq!(d.text, "agh/p 😀 \"q\" \n é");
        let at = d.text.find("gh/").unwrap();
        assert_eq!(&raw[d.source(at..at + 3)], br"\u0067h\/");
        let smile = d.text.find('😀').unwrap();
        assert_eq!(&raw[d.source(smile..smile + 4)], br"\ud83d\ude00");
        assert!(unescape(br"bad \x").is_none() && unescape(b"\xff").is_none());
        assert_eq!(unescape(br"\ud800 x").unwrap().text, "\u{FFFD} x");
    }

    /// Where each byte of the decoded text comes from, worked out one escape or character at a
    /// time: the map `source` keeps in its escapes alone.
    fn byte_by_byte(raw: &[u8]) -> Vec<(usize, usize)> {
        let (mut out, mut i) = (Vec::new(), 0);
        while i < raw.len() {
            let pair = raw.get(i + 6..i + 8) == Some(br"\u")
                && matches!(raw.get(i + 2..i + 4), Some(b"d8" | b"d9" | b"da" | b"db"))
                && matches!(raw.get(i + 8..i + 10), Some(b"dc" | b"dd" | b"de" | b"df"));
            let len = match raw[i] {
                b'\\' if raw[i + 1] == b'u' && pair => 12,
                b'\\' if raw[i + 1] == b'u' => 6,
                b'\\' => 2,
                b => [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 3, 4][(b >> 4) as usize],
            };
            let chars = unescape(&raw[i..i + len]).unwrap().text.len();
            out.extend(std::iter::repeat_n((i, i + len), chars));
            i += len;
        }
        out
    }

    #[test]
    fn every_range_maps_to_the_escapes_and_characters_that_wrote_it() {
        let strings: [&[u8]; 5] = [
            br"plain ascii",
            "é日本 😀 mixed".as_bytes(),
            br#"a\u0067h\/p \ud83d\ude00 \"q\" \n"#,
            "\\n\\n\\\\tab\\t é\\u00e9\\u65e5end".as_bytes(),
            br"\ud800\u0041\\\/",
        ];
        for raw in strings {
            let d = unescape(raw).unwrap();
            let map = byte_by_byte(raw);
            assert_eq!(map.len(), d.text.len(), "{:?}", d.text);
            for start in 0..d.text.len() {
                assert_eq!(d.source(start..start), map[start].0..map[start].0);
                for end in start + 1..=d.text.len() {
                    assert_eq!(
                        d.source(start..end),
                        map[start].0..map[end - 1].1,
                        "{:?} {start}..{end}",
                        d.text
                    );
                }
            }
            assert_eq!(d.source(d.text.len()..d.text.len()), raw.len()..raw.len());
        }
    }
}
