//! Search over a whole session, sub-agents and tool output included: what the reader asked for
//! ([`Query`]), compiled once into a [`Matcher`] that both finds the rows (`hits`) and says where
//! in a text the matches are, so the UI can mark the words.

use std::ops::Range;

use regex::{Regex, RegexBuilder};

use crate::model::body::ToolResultContent;
use crate::normalize::{Item, ItemKind, ItemRef, Session, Workspace};
use crate::present::calls::call_text;
use crate::query::grams::Grams;
use crate::query::raw_find::RawFinder;

/// Where to look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Scope {
    #[default]
    Everything,
    /// What the person typed: prompts, slash commands and bash-mode commands.
    Prompts,
    /// What tools returned.
    ToolOutput,
}

/// What the reader typed in the search box, with its options.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Query {
    pub text: String,
    pub case_sensitive: bool,
    pub whole_word: bool,
    pub regex: bool,
    pub scope: Scope,
}

/// Fewer characters than this find too much to be useful, and would mark every row on screen.
pub(crate) const MIN_CHARS: usize = 2;

/// A compiled query.
#[derive(Clone, Debug)]
pub struct Matcher {
    regex: Regex,
    /// For a plain query that JSON writes as it is (letters, digits, spaces and `_-.:,`), the
    /// same text over a row's raw lines: a row whose lines do not hold it cannot match, and
    /// finding that out needs no decoding. A search through GBs reads most rows only this way.
    raw: Option<RawFinder>,
    /// The query has a digit: a number in a call's input is searched as serde_json writes it,
    /// which is not always how the line spells it (`1E5`), so calls are always decoded.
    digits: bool,
    /// For such a query, its longest run of letters (`quartz` in `zebra-quartz-4471`): numbers
    /// hold no letters but `e`, so a file that holds a match holds that run as it is; and all its
    /// runs of three letters or more, for an index of a file's three-byte sequences.
    letters: Option<RawFinder>,
    letter_runs: Vec<String>,
    pub scope: Scope,
}

impl Query {
    /// The matcher for this query: `Ok(None)` while there is too little to search for, `Err`
    /// with a message a person can act on for a regular expression that does not compile.
    pub fn matcher(&self) -> Result<Option<Matcher>, String> {
        let text = if self.regex { self.text.as_str() } else { self.text.trim() };
        if text.chars().count() < MIN_CHARS {
            return Ok(None);
        }
        let pattern = if self.regex { text.to_owned() } else { regex::escape(text) };
        // Half word boundaries: a word begins where no word character comes before it, and ends
        // where none comes after, so `foo()` is a whole word in "call foo() now".
        let pattern =
            if self.whole_word { format!(r"\b{{start-half}}(?:{pattern})\b{{end-half}}") } else { pattern };
        // The flag is part of the pattern (not a builder option) so that two matchers compare
        // by their patterns alone.
        let pattern = if self.case_sensitive { format!("(?m){pattern}") } else { format!("(?mi){pattern}") };
        let regex = RegexBuilder::new(&pattern)
            // A pattern that would take megabytes to compile is a mistake, not a search.
            .size_limit(1 << 20)
            .build()
            .map_err(|e| match e {
                regex::Error::Syntax(detail) => {
                    let last = detail.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default();
                    format!("not a valid regular expression: {}", last.trim_start_matches("error: "))
                }
                regex::Error::CompiledTooBig(_) => "regular expression too large".to_owned(),
                _ => "not a valid regular expression".to_owned(),
            })?;
        // Without word boundaries: in the raw line a word can follow an escape (`\nword`).
        let written_as_is = |c: char| c.is_ascii_alphanumeric() || " _-.:,".contains(c);
        let raw = (!self.regex && text.chars().all(written_as_is))
            .then(|| RawFinder::new(text, self.case_sensitive))
            .flatten();
        let digits = text.chars().any(|c| c.is_ascii_digit());
        let letter_runs: Vec<String> = text
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|run| run.len() >= 3 && !run.chars().all(|c| c.eq_ignore_ascii_case(&'e')))
            .map(str::to_owned)
            .collect();
        let longest = letter_runs.iter().max_by_key(|run| run.len());
        let letters = raw.as_ref().and(longest).and_then(|run| RawFinder::new(run, self.case_sensitive));
        Ok(Some(Matcher { regex, raw, digits, letters, letter_runs, scope: self.scope }))
    }
}

/// Two matchers are the same search when they compiled the same pattern for the same scope.
impl PartialEq for Matcher {
    fn eq(&self, other: &Matcher) -> bool {
        self.regex.as_str() == other.regex.as_str() && self.scope == other.scope
    }
}

/// What the search box says about the hits: `no matches`, `3 matches`, or `2 of 3` when one of
/// them is the current row.
pub fn count_label(hits: usize, current: Option<usize>) -> String {
    match (hits, current) {
        (0, _) => "no matches".to_owned(),
        (_, Some(i)) => format!("{} of {hits}", i + 1),
        (1, None) => "1 match".to_owned(),
        (_, None) => format!("{hits} matches"),
    }
}

/// What the search box says while a search is still going: `3 matches so far · 40%`.
pub fn searching_label(hits: usize, done: f64) -> String {
    format!("{} so far · {:.0}%", count_label(hits, None), (done * 100.0).floor())
}

impl Matcher {
    /// Where the matches are in `text`, as byte ranges, in order; empty matches (a pattern such
    /// as `a*`) are left out, since there is nothing to mark.
    pub fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        self.regex.find_iter(text).map(|m| m.range()).filter(|r| !r.is_empty()).collect()
    }

    /// Whether `bytes` (a whole file as written) may hold a match: false only for a plain query
    /// whose raw text is nowhere in them and no `\u` escape could spell it.
    pub fn may_be_in_raw(&self, bytes: &[u8]) -> bool {
        let escaped = || memchr::memmem::find(bytes, b"\\u").is_some();
        match (&self.raw, &self.letters) {
            // A number in a call's input is searched as serde_json writes it, not as the file does:
            // only the query's letters are sure to be there.
            (Some(_), Some(letters)) if self.digits => letters.may_be_in(bytes) || escaped(),
            (Some(_), None) if self.digits => true,
            (Some(raw), _) => raw.may_be_in(bytes) || escaped(),
            (None, _) => true,
        }
    }

    /// Whether a session whose files' three-byte sequences are `grams` may hold a match: the
    /// same question as [`may_be_in_raw`](Self::may_be_in_raw), asked of an index.
    pub fn may_be_in_grams(&self, grams: &Grams) -> bool {
        match (&self.raw, &self.letters) {
            (Some(_), _) if self.digits => self.letter_runs.iter().all(|run| grams.may_hold(run.as_bytes())),
            (Some(raw), _) => grams.may_hold(raw.needle()),
            (None, _) => true,
        }
    }

    pub fn is_match(&self, text: &str) -> bool {
        self.regex.find_iter(text).any(|m| !m.is_empty())
    }
}

/// Every item with a match, main line first, then branches, then sub-agents.
pub fn hits(ws: &Workspace, session: &Session, matcher: &Matcher) -> Vec<ItemRef> {
    let mut search = Search::new(session);
    search.step(ws, session, matcher, usize::MAX);
    search.hits
}

/// A search through a session in steps, so that a page can paint and take a new query between
/// them in a session of GBs: the hits so far, and where to go on.
#[derive(Clone, Debug, Default)]
pub struct Search {
    pub hits: Vec<ItemRef>,
    /// The thread and item to look at next, in the order of [`Session::threads`].
    thread: usize,
    item: usize,
    /// Items looked at, and in all.
    looked_at: usize,
    items: usize,
}

impl Search {
    pub fn new(session: &Session) -> Search {
        Search { items: session.threads().map(|(_, t)| t.items.len()).sum(), ..Search::default() }
    }

    /// Looks at items until about `budget` bytes of text were searched (at least one item), and
    /// says whether the session is done.
    pub fn step(&mut self, ws: &Workspace, session: &Session, matcher: &Matcher, budget: usize) -> bool {
        let mut searched = 0usize;
        for (thread_ref, thread) in session.threads().skip(self.thread) {
            while let Some(item) = thread.items.get(self.item) {
                if searched >= budget.max(1) {
                    return false;
                }
                let lines =
                    matcher.raw.as_ref().and_then(|raw| Some((raw, source_lines(ws, item, matcher.digits)?)));
                if let Some((raw, lines)) = lines {
                    searched += lines.iter().map(|l| l.len()).sum::<usize>() / RAW_SPEEDUP;
                    // Only a line without `\u` escapes can rule a row out: a writer that escapes
                    // non-ASCII (or anything) spells some of its letters that way.
                    let may_match =
                        |line: &&[u8]| raw.may_be_in(line) || memchr::memmem::find(line, b"\\u").is_some();
                    if !lines.iter().any(may_match) {
                        self.item += 1;
                        self.looked_at += 1;
                        continue;
                    }
                }
                if let Some(text) = search_text(ws, item, matcher.scope) {
                    searched += text.len() + 1;
                    if matcher.is_match(&text) {
                        self.hits.push(ItemRef::new(thread_ref, self.item as u32));
                    }
                }
                self.item += 1;
                self.looked_at += 1;
            }
            self.thread += 1;
            self.item = 0;
        }
        true
    }

    /// How much of the session has been looked at, from 0 to 1.
    pub fn done(&self) -> f64 {
        if self.items == 0 {
            1.0
        } else {
            self.looked_at as f64 / self.items as f64
        }
    }
}

/// Raw bytes are scanned this many times faster than text is decoded and searched: how much a
/// byte of raw line weighs against a step's budget.
const RAW_SPEEDUP: usize = 8;

/// The raw lines an item's [`search_text`] is made from, when it is made from its lines alone
/// and as they spell it: its own, and a call's result (unless results may have been saved to
/// files beside, or the query has `digits`).
fn source_lines<'w>(ws: &'w Workspace, item: &Item, digits: bool) -> Option<Vec<&'w [u8]>> {
    let own = |line| ws.line(line).span.bytes(ws.src(line));
    match &item.kind {
        ItemKind::Prompt | ItemKind::Text | ItemKind::Thinking => Some(vec![own(item.line)]),
        ItemKind::ToolCall(call) if ws.saved_outputs.is_empty() && !digits => {
            Some(std::iter::once(item.line).chain(call.result.map(|r| r.line)).map(own).collect())
        }
        _ => None,
    }
}

/// The text a search in `scope` looks in for an item (`None` when the scope leaves the item out):
/// what the row shows, and for a call its input's values and its output too.
pub(crate) fn search_text(ws: &Workspace, item: &Item, scope: Scope) -> Option<String> {
    match (&item.kind, scope) {
        (ItemKind::ToolCall(call), Scope::Everything | Scope::ToolOutput) => {
            let call = call_text(ws, item, call);
            let mut text = String::new();
            if scope == Scope::Everything {
                text.push_str(&call.name);
                push_values(&call.input, &mut text);
            }
            if let Some((content, _)) = &call.result {
                push_result(content, &mut text);
            }
            Some(text)
        }
        (ItemKind::OrphanResult, Scope::Everything | Scope::ToolOutput) => Some(ws.raw_text(item)),
        (_, Scope::ToolOutput) => None,
        (ItemKind::Prompt, _) if item.meta || item.synthetic => {
            (scope == Scope::Everything).then(|| ws.shown_text(item))
        }
        (ItemKind::Prompt | ItemKind::Command(_) | ItemKind::Shell(_), _) => Some(ws.shown_text(item)),
        (_, Scope::Prompts) => None,
        (ItemKind::Text | ItemKind::Thinking | ItemKind::Injected, _) => Some(ws.shown_text(item)),
        _ => Some(ws.raw_text(item)),
    }
}

/// The strings in a tool's input, one per line: what the panel shows, without JSON's quotes and
/// escapes (a search for `"a\nb"` text must not have to spell `\n`).
fn push_values(value: &serde_json::Value, out: &mut String) {
    match value {
        serde_json::Value::String(s) => {
            out.push('\n');
            out.push_str(s);
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| push_values(v, out)),
        serde_json::Value::Object(fields) => fields.values().for_each(|v| push_values(v, out)),
        serde_json::Value::Number(n) => {
            out.push('\n');
            out.push_str(&n.to_string());
        }
        _ => {}
    }
}

fn push_result(content: &ToolResultContent, out: &mut String) {
    for text in content.texts() {
        out.push('\n');
        out.push_str(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::folder;
    use crate::normalize::ThreadRef;
    use crate::normalize::{normalize, Input};

    fn query(text: &str) -> Query {
        Query { text: text.into(), ..Query::default() }
    }

    fn moredip() -> Workspace {
        normalize(folder("moredip__session-share/samples/claude-code-projects"))
    }

    #[test]
    fn search_finds_words_in_sub_agents_and_tool_output() {
        let ws = moredip();
        let s = &ws.sessions[0];
        assert!(query("  ").matcher().unwrap().is_none());
        // The prompt names the curries; sub-agents search the web for them.
        let found = hits(&ws, s, &query("GREEN CURRY").matcher().unwrap().unwrap());
        assert!(found.iter().any(|ItemRef { thread: t, .. }| matches!(t, ThreadRef::Agent(_))), "{found:?}");
        assert!(found.iter().any(|ItemRef { thread: t, .. }| *t == ThreadRef::Main), "{found:?}");
    }

    #[test]
    fn a_search_in_small_steps_finds_what_one_step_finds_and_counts_its_way_to_done() {
        let ws = moredip();
        let s = &ws.sessions[0];
        let matcher = query("curry").matcher().unwrap().unwrap();
        let whole = hits(&ws, s, &matcher);
        assert!(whole.len() > 3, "{whole:?}");
        let mut search = Search::new(s);
        let mut steps = 0;
        let mut done = 0.0;
        while !search.step(&ws, s, &matcher, 500) {
            steps += 1;
            assert!(search.done() >= done && search.done() < 1.0, "{} after {}", search.done(), done);
            done = search.done();
        }
        assert!(steps > 10, "{steps} steps");
        assert_eq!(search.done(), 1.0);
        assert_eq!(search.hits, whole);
    }

    #[test]
    fn options_narrow_what_matches() {
        let ws = moredip();
        let s = &ws.sessions[0];
        let count = |q: Query| hits(&ws, s, &q.matcher().unwrap().unwrap()).len();
        let any_case = count(query("curry"));
        let exact_case = count(Query { case_sensitive: true, ..query("Curry") });
        assert!(exact_case < any_case, "{exact_case} < {any_case}");
        // "curr" is inside "curry" but is not a word of its own.
        assert!(count(query("curr")) >= any_case);
        assert_eq!(count(Query { whole_word: true, ..query("curr") }), 0);
        assert_eq!(count(Query { regex: true, ..query("cur+y") }), any_case);
        // Prompts only: the typed prompt, none of the agents' web searches.
        let prompts =
            hits(&ws, s, &Query { scope: Scope::Prompts, ..query("curry") }.matcher().unwrap().unwrap());
        assert!(!prompts.is_empty());
        for ItemRef { thread: t, item: i } in &prompts {
            let item = s.item(*t, *i).unwrap();
            assert!(
                matches!(item.kind, ItemKind::Prompt | ItemKind::Command(_) | ItemKind::Shell(_)),
                "{item:?}"
            );
        }
        let output =
            hits(&ws, s, &Query { scope: Scope::ToolOutput, ..query("curry") }.matcher().unwrap().unwrap());
        assert!(!output.is_empty());
        for ItemRef { thread: t, item: i } in &output {
            assert!(matches!(s.item(*t, *i).unwrap().kind, ItemKind::ToolCall(_) | ItemKind::OrphanResult));
        }
    }

    #[test]
    fn a_bad_regular_expression_is_a_message_and_ranges_are_byte_ranges() {
        let err = Query { regex: true, ..query("a(b") }.matcher().unwrap_err();
        assert!(err.starts_with("not a valid regular expression: "), "{err}");
        assert!(err.contains("unclosed group"), "{err}");
        let m = Query { whole_word: true, ..query("ÉTÉ") }.matcher().unwrap().unwrap();
        assert_eq!(m.ranges("un été, étés"), vec![3..8]);
        let call = Query { whole_word: true, ..query("foo()") }.matcher().unwrap().unwrap();
        assert_eq!(call.ranges("call foo() now, not xfoo()"), vec![5..10]);
        let empty = Query { regex: true, ..query("x*") }.matcher().unwrap().unwrap();
        assert_eq!(empty.ranges("abc"), Vec::<Range<usize>>::new());
        assert!(!empty.is_match("abc"));
    }

    /// Real sessions of every era, with escapes, non-ASCII text, MCP results and sub-agents.
    const FIXTURE_DIRS: [&str; 5] = [
        "moredip__session-share/samples/claude-code-projects",
        "marot__spotter/test/fixtures/transcripts",
        "blackgirlbytes__planetfall-seed-signalkit",
        "M-Thisness__M-Claude",
        "obsessiondb__chkit",
    ];

    #[test]
    fn looking_at_raw_lines_first_never_loses_a_row_that_matches() {
        for dir in FIXTURE_DIRS {
            let ws = normalize(folder(dir));
            for s in &ws.sessions {
                // Words as the rows show them, in both cases, a few per session.
                let mut words: Vec<String> = s
                    .threads()
                    .flat_map(|(_, t)| t.items.iter())
                    .filter_map(|item| search_text(&ws, item, Scope::Everything))
                    .flat_map(|text| {
                        text.split(|c: char| !c.is_alphanumeric() && c != '_')
                            .filter(|w| w.len() >= 3)
                            .map(str::to_owned)
                            .collect::<Vec<_>>()
                    })
                    .step_by(97)
                    .take(12)
                    .collect();
                words.extend(words.clone().iter().map(|w| w.to_uppercase()));
                for word in words {
                    for case_sensitive in [false, true] {
                        let matcher = Query { case_sensitive, ..query(&word) }.matcher().unwrap().unwrap();
                        let decoded_only = Matcher { raw: None, ..matcher.clone() };
                        assert_eq!(
                            hits(&ws, s, &matcher),
                            hits(&ws, s, &decoded_only),
                            "{dir}: {word:?} (case sensitive: {case_sensitive})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn rows_whose_lines_spell_the_text_otherwise_are_still_found() {
        // A writer that escapes non-ASCII spells the Kelvin sign `\u212a`, which `(?i)k`
        // matches; a number in a call's input is searched as serde_json writes it.
        let lines = [
            r#"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"\u212aelvin"}}"#,
            r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Wait","input":{"ms":1E5}}]}}"#,
        ];
        let ws = normalize(vec![Input { name: "s.jsonl".into(), bytes: lines.join("\n").into_bytes() }]);
        let s = &ws.sessions[0];
        let found = |text: &str| hits(&ws, s, &query(text).matcher().unwrap().unwrap());
        assert_eq!(found("kelvin"), vec![ItemRef::new(ThreadRef::Main, 0)]);
        assert_eq!(found("100000"), vec![ItemRef::new(ThreadRef::Main, 1)]);
    }
}
