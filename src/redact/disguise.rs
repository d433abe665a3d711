//! Where a text hides in a decoded string: percent-encoded (`%67%68%70_…` in a URL), in base64
//! (a Kubernetes secret, `echo … | base64`, at any of the three offsets a run of base64 can hold
//! it), or split by a terminal that wrapped a long line. Each is a view of the string with a map
//! back to its bytes, so what the scan finds in a view is a place in the string, and what the mask
//! looks for in a view is replaced there. A view that decodes to more of the same is looked into
//! once more ([`NESTED`]): base64 in a URL, whose `+`, `/` and `=` are percent-encoded, or a
//! base64 text holding base64 (a Kubernetes secret of a Docker config, whose `auth` is base64
//! again). (JSON's own escapes, `\u0067` and `\/`, are undone before a string gets here:
//! [`super::json`].)

use std::ops::Range;
use std::rc::Rc;

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;

/// How a view decodes its string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum How {
    Percent,
    Base64,
    Wrapped,
}

/// A string decoded one way, with where each of its bytes came from.
pub(crate) struct View {
    pub how: How,
    pub text: String,
    /// For each byte of `text`, where its source begins and ends in the string viewed.
    from: Vec<usize>,
    to: Vec<usize>,
    /// Offsets of `text` where a line break was taken out (a wrapped view).
    joins: Vec<usize>,
    /// The view this one decodes further, when it is a view of a view: then `from` and `to` are
    /// places in that view's text.
    within: Option<Rc<View>>,
}

/// How many decodings deep a text is looked for: a view, and the views of it.
pub(crate) const NESTED: usize = 2;

impl View {
    /// Where `range` of the view's text is written in the string viewed.
    pub fn source(&self, range: Range<usize>) -> Range<usize> {
        let own = self.own_source(range);
        match &self.within {
            Some(outer) => outer.source(own),
            None => own,
        }
    }

    /// Where `range` is in what this view decodes: the string, or the view it is within.
    fn own_source(&self, range: Range<usize>) -> Range<usize> {
        match range.is_empty() {
            true => self.from.get(range.start).map_or(0..0, |&s| s..s),
            false => self.from[range.start]..self.to[range.end - 1],
        }
    }

    /// Whether a text at `range` of the view is disguised in the string (a text written as it is
    /// is found in the string itself); in a view of a view, by this view (one that the view it
    /// is within found too is found there first: the scan takes each place once).
    pub fn disguised(&self, range: &Range<usize>) -> bool {
        match self.how {
            How::Wrapped => self.joins.iter().any(|&j| range.start < j && j < range.end),
            How::Percent => self.own_source(range.clone()).len() != range.len(),
            How::Base64 => true,
        }
    }

    /// How many decodings deep it is.
    fn depth(&self) -> usize {
        1 + self.within.as_ref().map_or(0, |outer| outer.depth())
    }
}

/// The views of `text` that may hide something: percent-decoded, its base64 runs that decode to
/// text, and its long tokens that a line break cuts.
pub(crate) fn views(text: &str) -> Vec<View> {
    let mut out = decoded(text);
    out.extend(wrapped(text));
    // Percent-encoded or base64 views that decode further, [`NESTED`] deep (a wrapped view is a
    // piece of a line, and base64 runs are read across their own breaks).
    let mut i = 0;
    while i < out.len() {
        if out[i].how != How::Wrapped && out[i].depth() < NESTED {
            let inner: Vec<View> = decoded(&out[i].text);
            if !inner.is_empty() {
                // What the inner views map their places through: this view's map, once.
                let outer = Rc::new(View {
                    how: out[i].how,
                    text: String::new(),
                    from: out[i].from.clone(),
                    to: out[i].to.clone(),
                    joins: Vec::new(),
                    within: out[i].within.clone(),
                });
                out.extend(inner.into_iter().map(|view| View { within: Some(outer.clone()), ..view }));
            }
        }
        i += 1;
    }
    out
}

/// The views of `text` that decode it (percent, base64), not the wrapped ones.
fn decoded(text: &str) -> Vec<View> {
    percent(text).into_iter().chain(runs(text).into_iter().filter_map(|run| run.view(text))).collect()
}

/// `text` with each `%XX` that stands for an ASCII character decoded; `None` without one. (A
/// secret is ASCII; other escapes are kept, so the view is always UTF-8.)
pub(crate) fn percent(text: &str) -> Option<View> {
    let bytes = text.as_bytes();
    let escape = |i: usize| -> Option<u8> {
        let hex = bytes.get(i + 1..i + 3)?;
        let value = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
        (bytes[i] == b'%' && value < 0x80 && hex.iter().all(u8::is_ascii_hexdigit)).then_some(value)
    };
    memchr::memchr_iter(b'%', bytes).find(|&i| escape(i).is_some())?;
    let mut view = View {
        how: How::Percent,
        text: String::new(),
        from: Vec::new(),
        to: Vec::new(),
        joins: vec![],
        within: None,
    };
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let (byte, len) = escape(i).map_or((bytes[i], 1), |b| (b, 3));
        out.push(byte);
        view.from.push(i);
        view.to.push(i + len);
        i += len;
    }
    view.text = String::from_utf8(out).ok()?;
    Some(view)
}

/// Characters a token a terminal wraps is made of: what secrets, URLs and addresses are written
/// with. A break between two of them may be a wrap; one after `;` or before `}` is code.
fn token_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"_-+/=.:@%~".contains(&c)
}

/// Shorter than this, a token across a line break is two words, not a wrapped secret.
const WRAPPED_TOKEN: usize = 16;
/// How much of its line before a wrapped token a view holds: the words that say what it is
/// (`Authorization: Bearer`, `aws_secret_access_key =`).
const WRAPPED_CONTEXT: usize = 64;

/// For each token a line break cuts (its characters on both sides of the break), a view of the
/// token joined again, with the start of its line before it.
pub(crate) fn wrapped(text: &str) -> Vec<View> {
    let bytes = text.as_bytes();
    // A break `\n` or `\r\n` between token characters: (where it starts, where it ends).
    let breaks: Vec<(usize, usize)> = memchr::memchr_iter(b'\n', bytes)
        .filter_map(|i| {
            let start = if i > 0 && bytes[i - 1] == b'\r' { i - 1 } else { i };
            (start > 0 && token_char(bytes[start - 1]) && bytes.get(i + 1).is_some_and(|&c| token_char(c)))
                .then_some((start, i + 1))
        })
        .collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < breaks.len() {
        // The token around breaks[k], and every later break inside it.
        let mut start = breaks[k].0;
        while start > 0 && token_char(bytes[start - 1]) {
            start -= 1;
        }
        let mut cuts = vec![breaks[k]];
        let mut end = breaks[k].1;
        loop {
            while end < bytes.len() && token_char(bytes[end]) {
                end += 1;
            }
            match breaks.get(k + cuts.len()) {
                Some(&next) if next.0 == end => {
                    cuts.push(next);
                    end = next.1;
                }
                _ => break,
            }
        }
        k += cuts.len();
        let removed: usize = cuts.iter().map(|(s, e)| e - s).sum();
        if end - start - removed < WRAPPED_TOKEN {
            continue;
        }
        let line = bytes[..start].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut from = start.saturating_sub(WRAPPED_CONTEXT).max(line);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let mut view = View {
            how: How::Wrapped,
            text: String::new(),
            from: Vec::new(),
            to: Vec::new(),
            joins: vec![],
            within: None,
        };
        let mut at = from;
        for &(cut, after) in cuts.iter().chain(std::iter::once(&(end, end))) {
            view.text.push_str(&text[at..cut]);
            view.from.extend(at..cut);
            view.to.extend(at + 1..cut + 1);
            if cut < end {
                view.joins.push(view.text.len());
            }
            at = after;
        }
        out.push(view);
    }
    out
}

/// Fewer base64 characters than this hold too little to hide a secret in (16 make 12 bytes).
const BASE64_RUN: usize = 16;

/// A run of base64 in a string: standard or URL-safe, with or without padding, on one line or
/// wrapped at a fixed width (as `base64` writes it).
pub(crate) struct Run {
    /// Where the run is, from its first character to the end of its padding.
    pub range: Range<usize>,
    /// How many base64 characters it has (line breaks are not counted).
    count: usize,
    url_safe: bool,
    padded: bool,
    /// The length of its lines, and its line break, when it is wrapped.
    wrap: Option<(usize, &'static str)>,
}

const fn engine_of(alphabet: &'static alphabet::Alphabet) -> GeneralPurpose {
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true)
        .with_encode_padding(true);
    GeneralPurpose::new(alphabet, config)
}

/// Built once: every run is looked at with one, and building its tables is no small part of
/// decoding sixteen characters.
static STANDARD: GeneralPurpose = engine_of(&alphabet::STANDARD);
static URL_SAFE: GeneralPurpose = engine_of(&alphabet::URL_SAFE);

fn engine(url_safe: bool) -> &'static GeneralPurpose {
    if url_safe {
        &URL_SAFE
    } else {
        &STANDARD
    }
}

/// Which bytes are base64 characters (either alphabet): every byte of every string is looked up.
static BASE64_CHARS: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_');
        c += 1;
    }
    table
};

fn base64_char(c: u8) -> bool {
    BASE64_CHARS[c as usize]
}

/// Where the first token of at least BASE64_RUN base64 characters at or after `from` begins
/// (`from` is not inside a token: a run ends before a byte that is none). A run's first line is such a token, and most
/// words are shorter: looking at every BASE64_RUN-th byte first, most bytes are never looked at.
fn next_long_token(bytes: &[u8], mut from: usize) -> Option<usize> {
    while from + BASE64_RUN <= bytes.len() {
        // Any long enough token starting in from..=probe holds the probe's byte.
        let probe = from + BASE64_RUN - 1;
        if !base64_char(bytes[probe]) {
            from = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > from && base64_char(bytes[start - 1]) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < bytes.len() && base64_char(bytes[end]) {
            end += 1;
        }
        if end - start >= BASE64_RUN {
            return Some(start);
        }
        from = end + 1;
    }
    None
}

/// The runs of base64 in `text`: long enough, in one alphabet. (Every string is looked through
/// for them, so a run costs no allocation until it is decoded.)
pub(crate) fn runs(text: &str) -> Vec<Run> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(start) = next_long_token(bytes, from) {
        let mut i = start;
        let mut count = 0;
        let mut wrap: Option<(usize, &'static str)> = None;
        loop {
            let line_start = i;
            while i < bytes.len() && base64_char(bytes[i]) {
                i += 1;
            }
            let line = i - line_start;
            count += line;
            // A line break inside a run: lines of one width, each long enough to be base64's.
            let newline = match &bytes[i..] {
                [b'\r', b'\n', ..] => "\r\n",
                [b'\n', ..] => "\n",
                _ => break,
            };
            let next = i + newline.len();
            let fits = line >= BASE64_RUN && wrap.is_none_or(|(width, nl)| width == line && nl == newline);
            if !fits || !bytes.get(next).is_some_and(|&c| base64_char(c)) {
                break;
            }
            wrap = Some((line, newline));
            i = next;
        }
        let mut end = i;
        while end < bytes.len() && bytes[end] == b'=' && end - i < 2 {
            end += 1;
        }
        let run = &bytes[start..i];
        let plus = run.iter().any(|&c| matches!(c, b'+' | b'/'));
        let dash = run.iter().any(|&c| matches!(c, b'-' | b'_'));
        // One character past a multiple of four is no base64's length: the last is not its.
        if count % 4 == 1 {
            count -= 1;
        }
        if !(plus && dash) {
            out.push(Run { range: start..end, count, url_safe: dash, padded: end > i, wrap });
        }
        // The run ends before a byte that is no base64 character, or after its padding.
        from = end;
    }
    out
}

impl Run {
    /// Where each of its base64 characters is in `text` (line breaks are not).
    fn chars<'t>(&self, text: &'t str) -> impl Iterator<Item = usize> + 't {
        let bytes = text.as_bytes();
        self.range.clone().filter(move |&k| base64_char(bytes[k])).take(self.count)
    }

    /// What the run decodes to (`text` is the string it was found in).
    pub fn decode(&self, text: &str) -> Option<Vec<u8>> {
        let encoded: Vec<u8> = self.chars(text).map(|k| text.as_bytes()[k]).collect();
        engine(self.url_safe).decode(&encoded).ok()
    }

    /// `bytes` as this run writes base64: its alphabet, its padding, its lines.
    pub fn encode(&self, bytes: &[u8]) -> String {
        let mut encoded = engine(self.url_safe).encode(bytes);
        if !self.padded {
            encoded.truncate(encoded.trim_end_matches('=').len());
        }
        match self.wrap {
            None => encoded,
            Some((width, newline)) => {
                let lines: Vec<&str> = encoded
                    .as_bytes()
                    .chunks(width)
                    .map(|c| std::str::from_utf8(c).expect("base64 is ASCII"))
                    .collect();
                lines.join(newline)
            }
        }
    }

    /// The run as a view of the text it decodes to, if it decodes to text (not an image's bytes):
    /// UTF-8 with no control character but tabs and line breaks.
    fn view(self, text: &str) -> Option<View> {
        let is_text = |t: &str| t.chars().all(|c| !c.is_control() || "\t\n\r".contains(c));
        // Most runs are not text (an image, a hash, a path): their first bytes say so, before
        // the whole is decoded. They are text if they are UTF-8 up to a character the sixteenth
        // base64 character cuts. (A run's first BASE64_RUN characters are on its first line.)
        let mut head = [0u8; BASE64_RUN / 4 * 3];
        let first = &text.as_bytes()[self.range.start..self.range.start + BASE64_RUN];
        let n = engine(self.url_safe).decode_slice(first, &mut head).ok()?;
        let head_is_text = match std::str::from_utf8(&head[..n]) {
            Ok(t) => is_text(t),
            Err(cut) if cut.error_len().is_none() => {
                is_text(std::str::from_utf8(&head[..cut.valid_up_to()]).expect("valid up to"))
            }
            Err(_) => false,
        };
        if !head_is_text {
            return None;
        }
        let text_decoded = String::from_utf8(self.decode(text)?).ok()?;
        if text_decoded.len() < 12 || !is_text(&text_decoded) {
            return None;
        }
        let chars: Vec<usize> = self.chars(text).collect();
        let last = chars.len() - 1;
        let (from, to) = (0..text_decoded.len())
            .map(|i| {
                let quad = i / 3 * 4;
                (chars[quad], chars[(quad + 3).min(last)] + 1)
            })
            .unzip();
        Some(View { how: How::Base64, text: text_decoded, from, to, joins: Vec::new(), within: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(text: &str) -> String {
        engine(false).encode(text)
    }

    #[test]
    fn a_percent_encoded_text_is_read_and_placed_back() {
        let view = percent("u=%61%62c&x=%E9%zz").unwrap();
        assert_eq!(view.text, "u=abc&x=%E9%zz");
        let at = view.text.find("abc").unwrap();
        assert_eq!(view.source(at..at + 3), 2..9);
        assert!(view.disguised(&(at..at + 3)) && !view.disguised(&(0..2)));
        assert!(percent("100% sure, %zz").is_none());
    }

    #[test]
    fn base64_is_read_at_each_offset_and_wrapped_as_the_tool_wrote_it() {
        for pad in ["", "a", "ab"] {
            let secret = format!("{pad}the hidden text is here");
            let text = format!("data: {} end", b64(&secret));
            let run = runs(&text).into_iter().next().unwrap();
            assert_eq!(run.decode(&text).unwrap(), secret.as_bytes());
            let view = run.view(&text).unwrap();
            let at = view.text.find("hidden").unwrap();
            let source = view.source(at..at + 6);
            assert!(text[source.clone()].len() >= 8 && source.start >= 6, "{source:?}");
        }
        let long = "a long text that base64 wraps at a width of its own, over more than one line".repeat(2);
        let wrapped = b64(&long)
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        let output = format!("$ base64 notes\n{wrapped}\n$ ");
        let found = runs(&output);
        assert_eq!(found.len(), 1, "{:?}", found.iter().map(|r| r.range.clone()).collect::<Vec<_>>());
        assert_eq!(found[0].decode(&output).unwrap(), long.as_bytes());
        assert_eq!(found[0].encode(long.as_bytes()), wrapped);
        let path = "ls /usr/local/lib/nodejs/typescript/bin";
        assert!(runs(path).into_iter().next().unwrap().view(path).is_none(), "a path is not base64 of text");
    }

    #[test]
    fn every_long_enough_token_is_a_run_wherever_it_lies() {
        let token = "QUJDREVGR0hJSktMTU5PUA"; // 22 characters
        for text in [
            token.to_owned(),
            format!("a {token}"),
            format!("short words, {token}, more"),
            format!("{}-{token}", "x".repeat(15)),
            format!("abcdefghijklmno {token}"),
            format!("{} {token}", "y".repeat(40)),
        ] {
            let found: Vec<&str> = runs(&text).iter().map(|r| &text[r.range.clone()]).collect();
            assert!(
                found.contains(&token) || found.iter().any(|f| f.ends_with(token)),
                "{text:?}: {found:?}"
            );
        }
        assert!(runs("fifteen chars!! and these are all short words").is_empty());
        assert_eq!(runs(&"z".repeat(16)).len(), 1);
    }

    #[test]
    fn a_token_cut_by_a_line_break_is_joined_but_words_are_not() {
        let text = "token: abcdefghij\r\nklmnopqrst\nuvw next\nline; end";
        let views = wrapped(text);
        assert_eq!(views.len(), 1);
        assert_eq!(views[0].text, "token: abcdefghijklmnopqrstuvw");
        let at = views[0].text.find("ghijklm").unwrap();
        assert!(views[0].disguised(&(at..at + 7)));
        assert_eq!(&text[views[0].source(at..at + 7)], "ghij\r\nklm");
        let whole = views[0].text.find("abc").unwrap();
        assert_eq!(&text[views[0].source(whole..views[0].text.len())], "abcdefghij\r\nklmnopqrst\nuvw");
    }
}
