//! A JSON scanner that checks the grammar and finds where tokens end, without decoding them.
//!
//! Tool outputs, file contents and thinking are most of a transcript's bytes, and indexing only
//! needs to know where each of those strings ends. serde_json looks for the end 8 bytes per step
//! with integer arithmetic; in wasm32 that scan was about 60% of parse time. Here it is 16 bytes
//! per step with wasm SIMD ([`special_bits`]).
//!
//! The scanner accepts a subset of what serde_json accepts: anything it is not sure of (escaped
//! keys, deep nesting, the end of the input) is a [`Stop`], and the caller hands the line back to
//! serde_json, which has the last word and the error messages.

use std::fmt;

/// "Not handled here": the line goes back to serde_json.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for Stop {}

/// Containers nested deeper than this stop the scanner (serde_json follows 127). Real lines nest
/// about ten levels; the margin keeps "accepted here" inside "accepted by serde_json".
pub(crate) const MAX_DEPTH: u32 = 64;

/// A string token: the text between its quotes, as written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StrToken<'a> {
    pub inside: &'a str,
    /// Whether `inside` holds escapes (then it is not the string's value).
    pub escaped: bool,
}

pub(crate) struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str) -> Self {
        Scanner { text, pos: 0 }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The text between two positions this scanner stood at (token boundaries, so always ASCII).
    pub fn slice(&self, start: usize, end: usize) -> &'a str {
        &self.text[start..end]
    }

    /// Skips white space and returns the next byte without taking it.
    pub fn peek(&mut self) -> Result<u8, Stop> {
        let bytes = self.text.as_bytes();
        while let Some(&byte) = bytes.get(self.pos) {
            match byte {
                b' ' | b'\n' | b'\t' | b'\r' => self.pos += 1,
                _ => return Ok(byte),
            }
        }
        Err(Stop)
    }

    /// Takes `byte` as the next token.
    pub fn eat(&mut self, byte: u8) -> Result<(), Stop> {
        if self.peek()? != byte {
            return Err(Stop);
        }
        self.pos += 1;
        Ok(())
    }

    /// Takes the byte [`Self::peek`] just returned.
    pub fn skip_byte(&mut self) {
        self.pos += 1;
    }

    /// Only white space is left.
    pub fn end(&mut self) -> Result<(), Stop> {
        match self.peek() {
            Err(Stop) => Ok(()),
            Ok(_) => Err(Stop),
        }
    }

    /// A string token, from its opening quote.
    pub fn string(&mut self) -> Result<StrToken<'a>, Stop> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut escaped = false;
        let mut padded = [b' '; 16];
        // Every special byte of a 16-byte chunk is handled from one mask: tool outputs escape a
        // line break every few dozen bytes, and reloading after each would halve the speed.
        let mut at = start;
        'chunks: while at < bytes.len() {
            let chunk: &[u8; 16] = match bytes.get(at..at + 16) {
                Some(chunk) => chunk.try_into().expect("16 bytes"),
                None => {
                    // The line's last bytes, padded with bytes that are not special.
                    padded[..bytes.len() - at].copy_from_slice(&bytes[at..]);
                    &padded
                }
            };
            let mut bits = special_bits(chunk);
            while bits != 0 {
                let found = at + bits.trailing_zeros() as usize;
                match bytes[found] {
                    b'"' => {
                        self.pos = found + 1;
                        return Ok(StrToken { inside: &self.text[start..found], escaped });
                    }
                    b'\\' => {
                        escaped = true;
                        let next = found + escape_len(&bytes[found..]).ok_or(Stop)?;
                        if next >= at + 16 {
                            at = next;
                            continue 'chunks;
                        }
                        // Forget the bytes the escape covered (`\"` and `\\` mark their second byte too).
                        bits &= u16::MAX << (next - at);
                    }
                    // A control character: JSON wants it escaped.
                    _ => return Err(Stop),
                }
            }
            at += 16;
        }
        Err(Stop)
    }

    /// A number token, checked against JSON's grammar (no leading zeros, digits after `.` and `e`).
    pub fn number(&mut self) -> Result<&'a str, Stop> {
        self.peek()?;
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let digits = |from: usize| from + bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        let mut at = start + usize::from(bytes.get(start) == Some(&b'-'));
        at = match bytes.get(at) {
            Some(b'0') => at + 1,
            Some(b'1'..=b'9') => digits(at + 1),
            _ => return Err(Stop),
        };
        if bytes.get(at) == Some(&b'.') {
            let end = digits(at + 1);
            if end == at + 1 {
                return Err(Stop);
            }
            at = end;
        }
        if let Some(b'e' | b'E') = bytes.get(at) {
            at += 1;
            if let Some(b'+' | b'-') = bytes.get(at) {
                at += 1;
            }
            let end = digits(at);
            if end == at {
                return Err(Stop);
            }
            at = end;
        }
        self.pos = at;
        Ok(&self.text[start..at])
    }

    /// `true`, `false` or `null`, spelled out.
    pub fn literal(&mut self, word: &str) -> Result<(), Stop> {
        self.peek()?;
        if !self.text[self.pos..].starts_with(word) {
            return Err(Stop);
        }
        self.pos += word.len();
        Ok(())
    }

    /// Steps over one value of any kind, checking it, inside `depth` open containers.
    pub fn skip_value(&mut self, depth: u32) -> Result<(), Stop> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            open @ (b'{' | b'[') => {
                if depth >= MAX_DEPTH {
                    return Err(Stop);
                }
                self.pos += 1;
                let (close, object) = if open == b'{' { (b'}', true) } else { (b']', false) };
                if self.peek()? == close {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    if object {
                        if self.peek()? != b'"' {
                            return Err(Stop);
                        }
                        self.string()?;
                        self.eat(b':')?;
                    }
                    self.skip_value(depth + 1)?;
                    match self.peek()? {
                        b',' => self.pos += 1,
                        byte if byte == close => {
                            self.pos += 1;
                            return Ok(());
                        }
                        _ => return Err(Stop),
                    }
                }
            }
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            _ => self.number().map(drop),
        }
    }
}

/// The length of the escape at the start of `bytes` (which starts with a backslash), if valid.
/// Like serde_json when it skips a string, `\u` needs four hex digits but not a valid code point.
fn escape_len(bytes: &[u8]) -> Option<usize> {
    match bytes.get(1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(2),
        b'u' => bytes.get(2..6)?.iter().all(u8::is_ascii_hexdigit).then_some(6),
        _ => None,
    }
}

/// Whether a string scan must stop at this byte: its end, an escape, or a control character.
// Only the byte-by-byte fallback and the tests call it where there is SIMD.
#[cfg_attr(
    any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64"),
    allow(dead_code)
)]
fn is_special(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// Bit `i` is set where `chunk[i]` [`is_special`]: with wasm SIMD in the browser.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn special_bits(chunk: &[u8; 16]) -> u16 {
    use core::arch::wasm32::*;
    // SAFETY: `chunk` is 16 readable bytes; v128_load takes unaligned addresses.
    let v = unsafe { v128_load(chunk.as_ptr() as *const v128) };
    let hits = v128_or(
        v128_or(u8x16_eq(v, u8x16_splat(b'"')), u8x16_eq(v, u8x16_splat(b'\\'))),
        u8x16_lt(v, u8x16_splat(0x20)),
    );
    u8x16_bitmask(hits)
}

/// Bit `i` is set where `chunk[i]` [`is_special`]: with SSE2 in native x86-64 builds (benchmarks
/// and tests), the same shape of code as the wasm one.
#[cfg(target_arch = "x86_64")]
fn special_bits(chunk: &[u8; 16]) -> u16 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64; `chunk` is 16 readable bytes and the load is unaligned.
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
        let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u16
    }
}

/// Bit `i` is set where `chunk[i]` [`is_special`]: byte by byte elsewhere.
#[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
fn special_bits(chunk: &[u8; 16]) -> u16 {
    chunk.iter().enumerate().fold(0, |bits, (i, &b)| bits | (u16::from(is_special(b)) << i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_bits_marks_exactly_the_special_bytes_at_every_position() {
        for byte in 0..=255u8 {
            for at in 0..16 {
                let mut chunk = [b'a'; 16];
                chunk[at] = byte;
                let expected = if is_special(byte) { 1 << at } else { 0 };
                assert_eq!(special_bits(&chunk), expected, "byte {byte:#x} at {at}");
            }
        }
    }

    #[test]
    fn strings_end_where_they_end_across_chunk_boundaries() {
        for len in 0..50 {
            for (escape, value) in
                [("", ""), (r#"\n"#, "\n"), (r#"\""#, "\""), (r#"\\"#, "\\"), (r#"\u00e9"#, "é")]
            {
                for split in 0..=len {
                    let inside = format!(
                        "{}{escape}{}",
                        "é".repeat(split / 2) + &"x".repeat(split % 2),
                        "y".repeat(len - split)
                    );
                    let text = format!("\"{inside}\",1");
                    let mut scan = Scanner::new(&text);
                    let token = scan.string().unwrap_or_else(|_| panic!("{text}"));
                    assert_eq!(token.inside, inside);
                    assert_eq!(token.escaped, !escape.is_empty());
                    assert_eq!(scan.peek(), Ok(b','));
                    let decoded: String = serde_json::from_str(&text[..text.len() - 2]).unwrap();
                    assert!(decoded.contains(value));
                }
            }
        }
    }

    #[test]
    fn a_string_ends_at_its_closing_quote_past_escaped_quotes() {
        let text = r#""a\"b\\" ,"#;
        let mut scan = Scanner::new(text);
        let token = scan.string().unwrap();
        assert_eq!(token.inside, r#"a\"b\\"#);
        assert!(token.escaped);
        assert_eq!(scan.peek(), Ok(b','));
    }

    #[test]
    fn what_json_forbids_stops_the_scanner() {
        for bad in [
            "\"tab\there\"",
            r#""\x""#,
            r#""\u12g4""#,
            r#""open"#,
            "01",
            "1.",
            "1e",
            "-",
            "+1",
            ".5",
            "tru",
            "nul",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "[1 2]",
        ] {
            let mut scan = Scanner::new(bad);
            let outcome = scan.skip_value(0).and_then(|_| scan.end());
            assert_eq!(outcome, Err(Stop), "{bad}");
        }
    }

    #[test]
    fn what_json_allows_is_stepped_over_whole() {
        for good in [
            r#""""#,
            r#""\u00e9\n\/""#,
            "0",
            "-0.5e+10",
            "123E-2",
            " [ true , false , null ] ",
            r#"{"a":{"b":[{},[]]},"c":"é"}"#,
        ] {
            let mut scan = Scanner::new(good);
            assert_eq!(scan.skip_value(0).and_then(|_| scan.end()), Ok(()), "{good}");
        }
    }

    #[test]
    fn nesting_past_the_limit_stops_the_scanner() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(Scanner::new(&deep(MAX_DEPTH as usize)).skip_value(0), Ok(()));
        assert_eq!(Scanner::new(&deep(MAX_DEPTH as usize + 1)).skip_value(0), Err(Stop));
    }
}
