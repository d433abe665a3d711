//! A JSON string as it is written in a line, decoded with where each of its bytes came from: the
//! mask looks for a text in what the string says (so `\u0067hp_…` and `https:\/\/…` are found
//! as `ghp_…` and `https://…`) and replaces the bytes that say it, escapes and all.

use std::ops::Range;

/// A string's content decoded, and for each byte of it the range of the escape or character it
/// was written as.
pub(crate) struct Decoded {
    pub text: String,
    from: Vec<usize>,
    to: Vec<usize>,
}

impl Decoded {
    /// Where `range` of the decoded text is written in the string's content.
    pub fn source(&self, range: Range<usize>) -> Range<usize> {
        if range.is_empty() {
            let at = self.from.get(range.start).or(self.to.last()).copied().unwrap_or(0);
            return at..at;
        }
        self.from[range.start]..self.to[range.end - 1]
    }
}

/// The content of a JSON string (between its quotes) decoded; `None` if it is not valid (bytes
/// that are not UTF-8, an unknown escape).
pub(crate) fn unescape(raw: &[u8]) -> Option<Decoded> {
    let mut out = Decoded { text: String::with_capacity(raw.len()), from: Vec::new(), to: Vec::new() };
    let hex4 = |at: usize| -> Option<u32> {
        let digits = raw.get(at..at + 4)?;
        digits
            .iter()
            .all(u8::is_ascii_hexdigit)
            .then(|| u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok())?
    };
    let mut i = 0;
    while i < raw.len() {
        let (c, len) = match raw[i] {
            b'\\' => match raw.get(i + 1)? {
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
            },
            _ => {
                let len = utf8_len(raw[i])?;
                let s = std::str::from_utf8(raw.get(i..i + len)?).ok()?;
                (s.chars().next()?, len)
            }
        };
        let before = out.text.len();
        out.text.push(c);
        for _ in before..out.text.len() {
            out.from.push(i);
            out.to.push(i + len);
        }
        i += len;
    }
    Some(out)
}

fn utf8_len(first: u8) -> Option<usize> {
    match first {
        0x00..=0x7F => Some(1),
        0xC2..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF4 => Some(4),
        _ => None,
    }
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
}
