//! What must not leave with a shared session: secrets (by gitleaks' rules and a few of cctv's
//! own, [`secrets`]) and personal details (e-mail addresses, home directories, private host names:
//! [`personal`]), found in a session's files
//! ([`Scanner::find`]) and masked in their bytes ([`mask`]) before anything is exported.
//!
//! Findings are looked for in the text a line holds (each JSON string decoded), so a secret
//! written with escapes is found; they are masked in the raw bytes of every file and in the
//! files' names, wherever the same text is written, so the copies Claude Code keeps (a tool's
//! output in the model's message and again in `toolUseResult`, a file's `originalFile`, a
//! sub-agent's own file) go with it.

pub mod personal;
pub mod secrets;

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

    /// [`new`](Scanner::new), pausing where `pace` says (between rules compiled).
    pub async fn new_paced(patterns: &[String], pace: &mut Pace<'_>) -> Result<Scanner, String> {
        let patterns = patterns
            .iter()
            .filter(|p| !p.trim().is_empty())
            .map(|p| Regex::new(p).map_err(|e| format!("{p}: {e}")))
            .collect::<Result<_, _>>()?;
        Ok(Scanner { secrets: Secrets::new_paced(pace).await, patterns })
    }

    /// Every finding in `inputs`, one per distinct text, certain ones first, then by kind and
    /// where they are first.
    pub fn find(&self, inputs: &[Input]) -> Vec<Finding> {
        self.find_in(inputs.iter().map(|i| (i.name.as_str(), &i.bytes[..])))
    }

    /// [`find`](Scanner::find) in files given as (name, bytes).
    pub fn find_in<'a>(&self, files: impl Iterator<Item = (&'a str, &'a [u8])>) -> Vec<Finding> {
        let mut finder = self.finder();
        for (name, bytes) in files {
            finder.file(name);
            for line in bytes.split(|&b| b == b'\n') {
                finder.line(line);
            }
        }
        finder.finish()
    }

    /// A search fed a line at a time ([`Finder`]), for files read in pieces or looked at a few
    /// thousand lines per step.
    pub fn finder(&self) -> Finder<'_> {
        Finder { scanner: self, found: HashMap::new(), order: Vec::new(), file: String::new(), line: 0 }
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

/// A search under way: the files' lines fed in order, then [`finish`](Finder::finish).
pub struct Finder<'s> {
    scanner: &'s Scanner,
    found: HashMap<(Kind, String), Finding>,
    /// The texts in the order they were first found.
    order: Vec<(Kind, String)>,
    file: String,
    /// The number of the last line fed (0: the file's name).
    line: u32,
}

impl Finder<'_> {
    /// Starts the next file: its name is looked at too (it leaves with the file), as line 0.
    pub fn file(&mut self, name: &str) {
        self.file = name.to_owned();
        self.line = 0;
        self.look(&[Cow::Borrowed(name)]);
    }

    /// The file's next line, without its newline.
    pub fn line(&mut self, line: &[u8]) {
        self.line += 1;
        match strings_of(line) {
            Some(strings) => self.look(&strings),
            // A line that is not JSON is looked at as it is.
            None => self.look(&[String::from_utf8_lossy(line)]),
        }
    }

    fn look(&mut self, strings: &[Cow<'_, str>]) {
        for text in strings {
            for (kind, range, label, rule, certain, mask) in self.scanner.in_text(text) {
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
                        line: self.line,
                        before: context_before(&text[..range.start]),
                        after: text[range.end..].chars().take(CONTEXT).collect(),
                        mask: mask.clone(),
                    }
                });
                // A text two rules find is named by a certain one.
                if certain && !entry.certain {
                    (entry.label, entry.rule, entry.certain, entry.mask) = (label, rule, certain, mask);
                }
                entry.count += 1;
            }
        }
    }

    /// Every finding, one per distinct text, certain ones first, then by kind and where they
    /// are first.
    pub fn finish(mut self) -> Vec<Finding> {
        let mut out: Vec<Finding> = self.order.into_iter().filter_map(|k| self.found.remove(&k)).collect();
        out.sort_by_key(|f| (!f.certain, f.kind as u8));
        out
    }
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
/// its mask.
pub fn mask_text(text: &str, masked: &[&Finding]) -> String {
    let findings: Vec<&&Finding> = masked.iter().filter(|f| !f.text.is_empty()).collect();
    let Ok(finder) =
        AhoCorasick::builder().match_kind(MatchKind::LeftmostLongest).build(findings.iter().map(|f| &f.text))
    else {
        return text.to_owned();
    };
    let masks: Vec<&str> = findings.iter().map(|f| f.mask.as_str()).collect();
    finder.replace_all(text, &masks)
}

/// `inputs` with every finding in `masked` replaced by its mask, in every file's bytes and
/// name: the text as JSON writes it in a string (so a line stays valid JSON) and as it is; a
/// home directory also in the project folder names Claude Code makes of it (`-Users-ada-`).
pub fn mask(inputs: &[Input], masked: &[&Finding]) -> Vec<Input> {
    let mut patterns: Vec<String> = Vec::new();
    let mut masks: Vec<String> = Vec::new();
    let mut add = |pattern: String, mask: &str| {
        if !pattern.is_empty() && !patterns.contains(&pattern) {
            patterns.push(pattern);
            masks.push(mask.to_owned());
        }
    };
    for f in masked {
        let escaped = serde_json::to_string(&f.text).expect("a string serializes");
        add(escaped[1..escaped.len() - 1].to_owned(), &f.mask);
        // As it is, for a line that is not JSON; but never with a quote or a backslash, which a
        // JSON line only holds as its own syntax.
        if !f.text.contains(['"', '\\']) {
            add(f.text.clone(), &f.mask);
        }
        if f.kind == Kind::HomeDirectory {
            let folder: String =
                f.text.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
            add(format!("{folder}-"), "-~-");
        }
    }
    if patterns.is_empty() {
        return inputs.to_vec();
    }
    let finder = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&patterns)
        .expect("plain strings build an automaton");
    inputs
        .iter()
        .map(|input| Input {
            name: finder.replace_all(&input.name, &masks),
            bytes: mask_lines(&input.bytes, &finder, &masks),
        })
        .collect()
}

/// Masks each line: inside its JSON strings only, for a line that is JSON (so a pattern can
/// never touch a number, a key's quotes or an escape, and the line stays JSON); anywhere, for a
/// line that is not.
fn mask_lines(bytes: &[u8], finder: &AhoCorasick, masks: &[String]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok() {
            mask_strings(line, finder, masks, &mut out);
        } else {
            out.extend(finder.replace_all_bytes(line, masks));
        }
    }
    out
}

/// Copies a JSON `line` to `out` with matches of `finder` inside its strings masked; a match
/// must begin and end between characters (never inside an escape like `\n` or `\u00e9`).
fn mask_strings(line: &[u8], finder: &AhoCorasick, masks: &[String], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < line.len() {
        out.push(line[i]);
        if line[i] != b'"' {
            i += 1;
            continue;
        }
        i += 1;
        let start = i;
        // Offsets (in the string) that fall inside an escape.
        let mut inside = Vec::new();
        while i < line.len() && line[i] != b'"' {
            if line[i] == b'\\' {
                let len = if line.get(i + 1) == Some(&b'u') { 6 } else { 2 };
                inside.extend((1..len).map(|k| i - start + k));
                i += len;
            } else {
                i += 1;
            }
        }
        let content = &line[start..i.min(line.len())];
        let mut copied = 0;
        for m in finder.find_iter(content) {
            if inside.binary_search(&m.start()).is_ok() || inside.binary_search(&m.end()).is_ok() {
                continue;
            }
            out.extend_from_slice(&content[copied..m.start()]);
            out.extend_from_slice(masks[m.pattern().as_usize()].as_bytes());
            copied = m.end();
        }
        out.extend_from_slice(&content[copied..]);
        if i < line.len() {
            out.push(b'"');
            i += 1;
        }
    }
}
