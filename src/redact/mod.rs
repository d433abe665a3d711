//! What must not leave with a shared session: secrets (by gitleaks' rules and a few of cctv's
//! own, [`secrets`]) and personal details (e-mail addresses, home directories, private host names:
//! [`personal`]), found in a session's files
//! ([`Scanner::find`]) and masked in their bytes ([`mask`]) before anything is exported.
//!
//! Findings are looked for in the text a line holds (each JSON string decoded), so a secret
//! written with escapes is found, and in the disguises a string can write it in (percent-encoded,
//! in base64, cut by a line break: [`disguise`]). They are masked in what every string of every
//! file and every file's name says, however it writes them (escaped: [`json`]; or in a
//! disguise), so the copies Claude Code keeps (a tool's output in the model's message and again
//! in `toolUseResult`, a file's `originalFile`, a sub-agent's own file) go with it.

mod disguise;
mod json;
pub mod personal;
pub mod secrets;
pub mod split;

use std::borrow::Cow;
use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Serialize;

use crate::normalize::pace::{self, Pace};
use crate::normalize::Input;
use secrets::Secrets;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    Secret,
    Email,
    HomeDirectory,
    /// A machine on a private network.
    HostName,
    /// Matched a pattern the reader gave.
    Pattern,
}

/// One text found, with how often and where first.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub kind: Kind,
    /// What it is: the rule's description, "e-mail address", …
    pub label: String,
    /// The rule that found it (for a secret).
    pub rule: Option<String>,
    /// The text itself, as the line holds it (decoded).
    pub text: String,
    /// A secret for sure, or a candidate to look at (see [`Secrets::is_certain`]).
    pub certain: bool,
    /// How many strings of the files hold it.
    pub count: usize,
    /// Where it is first: the file, its line (0: in the file's name), and the text just before
    /// and after it.
    pub file: String,
    pub line: u32,
    pub before: String,
    pub after: String,
    /// What it becomes when masked.
    pub mask: String,
    /// How it is written where it is disguised (percent-encoded, in base64, cut by a line break),
    /// each as the string holds it: the viewer marks these too.
    #[serde(default)]
    pub forms: Vec<String>,
}

/// The rules, compiled once, and the reader's own patterns.
pub struct Scanner {
    secrets: Secrets,
    patterns: Vec<Regex>,
}

/// Characters of context kept on each side of a finding.
const CONTEXT: usize = 40;

impl Scanner {
    /// With the reader's own `patterns` (regular expressions); an invalid one is an error that
    /// says which.
    pub fn new(patterns: &[String]) -> Result<Scanner, String> {
        pace::finish(Scanner::new_paced(patterns, &mut Pace::never()))
    }

    /// [`new`](Scanner::new), pausing where `pace` says (once the keywords are read; each rule is
    /// compiled when a text first holds one of its keywords).
    pub async fn new_paced(patterns: &[String], pace: &mut Pace<'_>) -> Result<Scanner, String> {
        let patterns = compile_patterns(patterns)?;
        Ok(Scanner { secrets: Secrets::new_paced(pace).await, patterns })
    }

    /// Every finding in `inputs`, one per distinct text, certain ones first, then by kind and
    /// where they are first.
    pub fn find(&self, inputs: &[Input]) -> Vec<Finding> {
        self.find_in(inputs.iter().map(|i| i.parts()))
    }

    /// [`find`](Scanner::find) in files given as (name, bytes).
    pub fn find_in<'a>(&self, files: impl Iterator<Item = (&'a str, &'a [u8])>) -> Vec<Finding> {
        let mut finder = self.finder();
        for (name, bytes) in files {
            finder.file(name);
            // memchr, not `split`: a byte-by-byte split was a sixth of the scan.
            let mut start = 0;
            for end in memchr::memchr_iter(b'\n', bytes).chain([bytes.len()]) {
                finder.line(&bytes[start..end]);
                start = end + 1;
            }
        }
        finder.finish()
    }

    /// A search fed a line at a time ([`Finder`]), for files read in pieces or looked at a few
    /// thousand lines per step.
    pub fn finder(&self) -> Finder<'_> {
        Finder {
            scanner: self,
            found: HashMap::new(),
            order: Vec::new(),
            file: String::new(),
            line: 0,
            text: String::new(),
            text_line: None,
        }
    }

    /// What one decoded string holds: (kind, range, label, rule, certain, mask).
    #[allow(clippy::type_complexity)]
    fn in_text(
        &self,
        text: &str,
    ) -> Vec<(Kind, std::ops::Range<usize>, String, Option<String>, bool, String)> {
        let mut out = Vec::new();
        for hit in self.secrets.find(text) {
            let rule = self.secrets.rule(hit.rule);
            let mask = format!("[REDACTED {}]", rule.id);
            out.push((
                Kind::Secret,
                hit.secret,
                rule.description.clone(),
                Some(rule.id.clone()),
                self.secrets.is_certain(hit.rule),
                mask,
            ));
        }
        for range in personal::emails(text) {
            out.push((Kind::Email, range, "e-mail address".into(), None, true, "[email]".into()));
        }
        for range in personal::hosts(text) {
            out.push((
                Kind::HostName,
                range,
                "host name (a machine on a private network)".into(),
                None,
                true,
                "[host]".into(),
            ));
        }
        for (range, _) in personal::homes(text) {
            out.push((
                Kind::HomeDirectory,
                range,
                "home directory (names the user)".into(),
                None,
                true,
                "~".into(),
            ));
        }
        for pattern in &self.patterns {
            for m in pattern.find_iter(text).filter(|m| !m.is_empty()) {
                out.push((
                    Kind::Pattern,
                    m.range(),
                    format!("matches {}", pattern.as_str()),
                    None,
                    true,
                    "[REDACTED]".into(),
                ));
            }
        }
        out
    }
}

/// The reader's patterns compiled (the blank ones left out), or which one is not a regular
/// expression, and why.
pub fn compile_patterns(patterns: &[String]) -> Result<Vec<Regex>, String> {
    patterns
        .iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| Regex::new(p).map_err(|e| format!("{p}: {e}")))
        .collect()
}

/// A search under way: the files' lines fed in order, then [`finish`](Finder::finish).
pub struct Finder<'s> {
    scanner: &'s Scanner,
    found: HashMap<(Kind, String), Finding>,
    /// The texts in the order they were first found.
    order: Vec<(Kind, String)>,
    file: String,
    /// The number of the last line fed (0: the file's name).
    line: u32,
    /// Lines fed that are not JSON, one after another, not yet looked at: they are looked at as
    /// one text (a saved output, a plain file), so a secret a line break cuts, or a key over many
    /// lines, is found; and the line the first is.
    text: String,
    text_line: Option<u32>,
}

/// Lines that are not JSON are looked at in texts of about this many bytes at most.
const TEXT_BLOCK: usize = 1 << 20;

impl Finder<'_> {
    /// Starts the next file: its name is looked at too (it leaves with the file), as line 0.
    pub fn file(&mut self, name: &str) {
        self.flush();
        self.file = name.to_owned();
        self.line = 0;
        self.look(&[Cow::Borrowed(name)], None);
    }

    /// Goes on with a file from its line `line` (its name and the lines before it are looked at
    /// elsewhere: [`split`]).
    pub fn file_from(&mut self, name: &str, line: u32) {
        self.flush();
        self.file = name.to_owned();
        self.line = line.saturating_sub(1);
    }

    /// The file's next line, without its newline.
    pub fn line(&mut self, line: &[u8]) {
        self.line += 1;
        match strings_of(line) {
            Some(strings) => {
                self.flush();
                self.look(&strings, None)
            }
            // A line that is not JSON is looked at as it is, with the lines around it that are
            // not JSON either.
            None => {
                match self.text_line {
                    None => self.text_line = Some(self.line),
                    Some(_) => self.text.push('\n'),
                }
                self.text.push_str(&String::from_utf8_lossy(line));
                if self.text.len() > TEXT_BLOCK {
                    self.flush();
                }
            }
        }
    }

    /// Looks at the lines kept that are not JSON.
    fn flush(&mut self) {
        if let Some(first) = self.text_line.take() {
            let text = std::mem::take(&mut self.text);
            // Lines that together are one JSON value (a file written pretty, whose lines are not
            // JSON alone): its strings are looked at decoded too, where an escape could hide a
            // secret, each on the value's first line.
            if text.contains('\\') {
                if let Some(strings) = strings_of(text.as_bytes()) {
                    let here = std::mem::replace(&mut self.line, first);
                    self.look(&strings, None);
                    self.line = here;
                }
            }
            self.look(&[Cow::Owned(text)], Some(first));
        }
    }

    /// Looks at `strings`: those of the last line fed, or (`first` given) lines run together
    /// from line `first` on, where each hit is on the line its offset says.
    fn look(&mut self, strings: &[Cow<'_, str>], first: Option<u32>) {
        let here = self.line;
        for text in strings {
            let line_of = |at: usize| match first {
                Some(first) => first + memchr::memchr_iter(b'\n', &text.as_bytes()[..at]).count() as u32,
                None => here,
            };
            let plain = self.scanner.in_text(text);
            let taken: Vec<std::ops::Range<usize>> = plain.iter().map(|hit| hit.1.clone()).collect();
            // Where a view found something: another view (a view of it) finding it at the same
            // place again finds no more.
            let mut seen: Vec<std::ops::Range<usize>> = Vec::new();
            for hit in plain {
                let line = line_of(hit.1.start);
                self.record(hit, text, None, line);
            }
            // The same text decoded the ways a secret hides in it; a hit there that the string
            // shows as it is, or that lies within one found as written (`abc%2Fdef` found as it
            // is, `abc/def` decoded), is not another finding.
            for view in disguise::views(text) {
                let before = seen.len();
                for hit in self.scanner.in_text(&view.text) {
                    // Lines joined make an address of a word and a decorator (`Routes` and
                    // `@app.route`): across a break only secrets are looked for.
                    if !view.disguised(&hit.1)
                        || (view.how == disguise::How::Wrapped && hit.0 != Kind::Secret)
                    {
                        continue;
                    }
                    let source = view.source(hit.1.clone());
                    if taken.iter().any(|t| t.start <= source.start && source.end <= t.end)
                        || seen[..before].contains(&source)
                    {
                        continue;
                    }
                    let line = line_of(source.start);
                    self.record(hit, &view.text, Some(&text[source.clone()]), line);
                    seen.push(source);
                }
            }
        }
    }

    /// One hit in `text`, written in the string as `form` when that is a disguise of it.
    #[allow(clippy::type_complexity)]
    fn record(
        &mut self,
        (kind, range, label, rule, certain, mask): (
            Kind,
            std::ops::Range<usize>,
            String,
            Option<String>,
            bool,
            String,
        ),
        text: &str,
        form: Option<&str>,
        line: u32,
    ) {
        let key = (kind, text[range.clone()].to_owned());
        let entry = self.found.entry(key.clone()).or_insert_with(|| {
            self.order.push(key);
            Finding {
                kind,
                label: label.clone(),
                rule: rule.clone(),
                text: text[range.clone()].to_owned(),
                certain,
                count: 0,
                file: self.file.clone(),
                line,
                before: context_before(&text[..range.start]),
                after: text[range.end..].chars().take(CONTEXT).collect(),
                mask: mask.clone(),
                forms: Vec::new(),
            }
        });
        // A text two rules find is named by a certain one.
        if certain && !entry.certain {
            (entry.label, entry.rule, entry.certain, entry.mask) = (label, rule, certain, mask);
        }
        if let Some(form) = form.filter(|f| !entry.forms.iter().any(|g| g == f)) {
            entry.forms.push(form.to_owned());
        }
        entry.count += 1;
    }

    /// Every finding, one per distinct text, certain ones first, then by kind and where they
    /// are first.
    pub fn finish(self) -> Vec<Finding> {
        in_finding_order(self.into_found())
    }

    /// Every finding, in the order they were first found.
    pub fn into_found(mut self) -> Vec<Finding> {
        self.flush();
        self.order.into_iter().filter_map(|k| self.found.remove(&k)).collect()
    }
}

/// Findings in the order they were first found, put in the order a scan gives them: certain ones
/// first, then by kind, then by where they are first.
fn in_finding_order(mut found: Vec<Finding>) -> Vec<Finding> {
    found.sort_by_key(|f| (!f.certain, f.kind as u8));
    found
}

/// Every string value of one JSON text, decoded (borrowed where it holds no escape); `None`
/// when it is not JSON. Keys are not taken: they name fields.
fn strings_of(line: &[u8]) -> Option<Vec<Cow<'_, str>>> {
    let mut out = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(line);
    Strings(&mut out).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(out)
}

/// Walks a JSON value without building it, keeping its strings.
struct Strings<'v, 'de>(&'v mut Vec<Cow<'de, str>>);

impl<'de> DeserializeSeed<'de> for Strings<'_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strings<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<(), E> {
        self.0.push(Cow::Borrowed(s));
        Ok(())
    }
    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.0.push(Cow::Owned(s.to_owned()));
        Ok(())
    }
    fn visit_string<E>(self, s: String) -> Result<(), E> {
        self.0.push(Cow::Owned(s));
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Strings(self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key::<IgnoredAny>()?.is_some() {
            map.next_value_seed(Strings(self.0))?;
        }
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

fn context_before(text: &str) -> String {
    let chars: Vec<char> = text.chars().rev().take(CONTEXT).collect();
    chars.into_iter().rev().collect()
}

/// `text` (decoded, not JSON: a title, a file name) with every finding in `masked` replaced by
/// its mask, however it is written there.
pub fn mask_text(text: &str, masked: &[&Finding]) -> String {
    match Masker::new(masked) {
        Some(masker) => masker.text(text),
        None => text.to_owned(),
    }
}

/// `inputs` with every finding in `masked` replaced by its mask, in every file's bytes and
/// name, written as it is or in a disguise: with JSON's escapes (a line stays valid JSON),
/// percent-encoded, in base64 (the run decoded, masked and encoded again), or cut by a line
/// break; a home directory also in the project folder names Claude Code makes of it
/// (`-Users-ada-`).
pub fn mask(inputs: &[Input], masked: &[&Finding]) -> Vec<Input> {
    mask_files(inputs.iter().map(Input::parts), masked)
}

/// [`mask`] of files as (name, bytes) borrowed from where they are held (a workspace's): what
/// is masked is the only copy made.
pub fn mask_files<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    masked: &[&Finding],
) -> Vec<Input> {
    let masker = Masker::new(masked);
    files
        .into_iter()
        .map(|(name, bytes)| match &masker {
            Some(masker) => Input { name: masker.text(name), bytes: masker.lines(bytes) },
            None => Input { name: name.to_owned(), bytes: bytes.to_vec() },
        })
        .collect()
}

/// The findings to mask, as what looks for them.
struct Masker {
    /// Each finding's text, and what Claude Code makes of a home directory in a folder's name.
    plain: AhoCorasick,
    plain_masks: Vec<String>,
    /// Each finding's text alone: what a view of a string (decoded one way) is searched for.
    values: AhoCorasick,
    value_masks: Vec<String>,
}

impl Masker {
    fn new(masked: &[&Finding]) -> Option<Masker> {
        let (mut plain, mut plain_masks) = (Vec::<String>::new(), Vec::new());
        let (mut values, mut value_masks) = (Vec::<String>::new(), Vec::new());
        for f in masked.iter().filter(|f| !f.text.is_empty()) {
            if !values.contains(&f.text) {
                values.push(f.text.clone());
                value_masks.push(f.mask.clone());
                plain.push(f.text.clone());
                plain_masks.push(f.mask.clone());
            }
            if f.kind == Kind::HomeDirectory {
                let folder: String =
                    f.text.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
                plain.push(format!("{folder}-"));
                plain_masks.push("-~-".into());
            }
        }
        let build = |patterns: &[String]| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(patterns)
                .expect("plain strings build an automaton")
        };
        (!values.is_empty()).then(|| Masker {
            plain: build(&plain),
            plain_masks,
            values: build(&values),
            value_masks,
        })
    }

    /// What to replace in `text`, `depth` decodings deep (1: as written), in order and apart:
    /// each range and what it becomes.
    fn replacements(&self, text: &str, depth: usize) -> Vec<(std::ops::Range<usize>, String)> {
        let mut found: Vec<(std::ops::Range<usize>, String)> = self
            .plain
            .find_iter(text)
            .map(|m| (m.range(), self.plain_masks[m.pattern().as_usize()].clone()))
            .collect();
        let values = |view: &str| -> Vec<(std::ops::Range<usize>, String)> {
            let masks = self.values.find_iter(view);
            masks.map(|m| (m.range(), self.value_masks[m.pattern().as_usize()].clone())).collect()
        };
        // Percent-decoded, what is found is masked where it is written; looked into further as
        // deep as the scan looks (base64 in a URL, which an escape before it can leave unreadable
        // in the string as it is: so a replacement there counts though no escape is in it; one
        // the string's own look made too is merged below). A base64 run masked where its `+`,
        // `/` and `=` were escaped is escaped again, so the URL reads as it did.
        if let Some(view) = disguise::percent(text) {
            let inner = match depth < disguise::NESTED {
                true => self.replacements(&view.text, depth + 1),
                false => values(&view.text),
            };
            found.extend(inner.into_iter().map(|(r, with)| {
                let source = view.source(r);
                match text[source.clone()].contains('%') {
                    true => (source, with.replace('+', "%2B").replace('/', "%2F").replace('=', "%3D")),
                    false => (source, with),
                }
            }));
        }
        for view in disguise::wrapped(text) {
            found.extend(
                values(&view.text)
                    .into_iter()
                    .filter(|(r, _)| view.disguised(r))
                    .map(|(r, w)| (view.source(r), w)),
            );
        }
        // A run of base64 that holds a finding is decoded, masked (as deep as the scan looks)
        // and encoded again, at whichever of the three offsets the finding lies (so the rest of
        // it still decodes).
        for run in disguise::runs(text) {
            let Some(bytes) = run.decode(text) else { continue };
            match std::str::from_utf8(&bytes) {
                Ok(decoded) if depth < disguise::NESTED => {
                    let masked = self.text_at(decoded, depth + 1);
                    if masked != decoded {
                        found.push((run.range.clone(), run.encode(masked.as_bytes())));
                    }
                }
                _ if self.values.is_match(&bytes) => {
                    let masked = self.values.replace_all_bytes(&bytes, &self.value_masks);
                    found.push((run.range.clone(), run.encode(&masked)));
                }
                _ => {}
            }
        }
        // Overlapping ranges become one, masked by the first: nothing of either is left.
        found.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
        let mut out: Vec<(std::ops::Range<usize>, String)> = Vec::with_capacity(found.len());
        for (range, with) in found {
            match out.last_mut() {
                Some((last, _)) if range.start < last.end => last.end = last.end.max(range.end),
                _ => out.push((range, with)),
            }
        }
        out
    }

    /// `text` masked.
    fn text(&self, text: &str) -> String {
        self.text_at(text, 1)
    }

    /// `text`, `depth` decodings deep, masked.
    fn text_at(&self, text: &str, depth: usize) -> String {
        let mut out = String::with_capacity(text.len());
        let mut copied = 0;
        for (range, with) in self.replacements(text, depth) {
            out.push_str(&text[copied..range.start]);
            out.push_str(&with);
            copied = range.end;
        }
        out.push_str(&text[copied..]);
        out
    }

    /// Each line masked: inside its JSON strings only, for a line that is JSON (so a mask never
    /// touches a number or a key's quotes, and the line stays JSON); as text, for lines that are
    /// not, run together (as the scan reads them: a secret may be cut by their breaks); as bytes,
    /// for one that is not even UTF-8.
    fn lines(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len());
        // A file that is one JSON value over many lines (written pretty) is masked as one: in
        // what its strings say.
        if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() {
            self.strings(bytes, &mut out);
            return out;
        }
        // Where the lines that are not JSON, not yet masked, begin.
        let mut text: Option<usize> = None;
        let flush = |text: &mut Option<usize>, end: usize, out: &mut Vec<u8>| {
            if let Some(start) = text.take() {
                let lines = std::str::from_utf8(&bytes[start..end]).expect("each line was UTF-8");
                out.extend_from_slice(self.text(lines).as_bytes());
            }
        };
        let mut at = 0;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok() {
                flush(&mut text, at, &mut out);
                self.strings(line, &mut out);
            } else if std::str::from_utf8(line).is_ok() {
                text.get_or_insert(at);
            } else {
                flush(&mut text, at, &mut out);
                out.extend(self.plain.replace_all_bytes(line, &self.plain_masks));
            }
            at += line.len();
        }
        flush(&mut text, at, &mut out);
        out
    }

    /// Copies a JSON `line` to `out` with each string masked in what it says (its escapes
    /// decoded), the bytes that said a finding replaced by its mask as JSON writes it.
    fn strings(&self, line: &[u8], out: &mut Vec<u8>) {
        let mut i = 0;
        while let Some(quote) = memchr::memchr(b'"', &line[i..]).map(|k| i + k) {
            out.extend_from_slice(&line[i..=quote]);
            // The string ends at the next quote no backslash escapes.
            let mut at = quote + 1;
            let end = loop {
                match memchr::memchr2(b'"', b'\\', &line[at.min(line.len())..]) {
                    Some(k) if line[at + k] == b'\\' => at += k + 2,
                    Some(k) => break at + k,
                    None => break line.len(),
                }
            };
            let content = &line[quote + 1..end];
            match json::unescape(content) {
                Some(decoded) => {
                    let mut copied = 0;
                    for (range, with) in self.replacements(&decoded.text, 1) {
                        let source = decoded.source(range);
                        out.extend_from_slice(&content[copied..source.start]);
                        out.extend_from_slice(json::escape(&with).as_bytes());
                        copied = source.end;
                    }
                    out.extend_from_slice(&content[copied..]);
                }
                // Bytes that are not UTF-8 in a string serde let pass: looked for as they are.
                None => out.extend(self.plain.replace_all_bytes(content, &self.plain_masks)),
            }
            if end == line.len() {
                return;
            }
            out.push(b'"');
            i = end + 1;
        }
        out.extend_from_slice(&line[i..]);
    }
}
