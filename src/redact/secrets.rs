//! Secrets found by gitleaks' rules (`gitleaks.toml`, MIT, see `GITLEAKS-LICENSE`), applied as
//! gitleaks applies them: a rule runs only on text that holds one of its keywords; its secret is
//! its secret group (else its first group that matched, else the whole match); a secret below
//! the rule's entropy, or allowed by the rule's or the global allowlist, is not one.

use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::Anchored;
use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use crate::normalize::pace::{self, Pace};

#[derive(Deserialize)]
struct Config {
    rules: Vec<RuleSpec>,
    allowlist: AllowSpec,
}

#[derive(Deserialize)]
struct RuleSpec {
    id: String,
    description: Option<String>,
    regex: Option<String>,
    path: Option<String>,
    secret_group: usize,
    entropy: Option<f64>,
    keywords: Vec<String>,
    allowlists: Vec<AllowSpec>,
}

#[derive(Clone, Deserialize)]
struct AllowSpec {
    regexes: Vec<String>,
    stopwords: Vec<String>,
    target: String,
    all: bool,
}

/// A rule, compiled the first time a text holds one of its keywords: most never run on a given
/// session (a handful of a session's keywords select its rules), and compiling all of them took
/// about 0.1 s native and twice that in wasm, before the Share tab could look at anything.
/// `tests::nearly_every_gitleaks_rule_is_used` compiles each, so none fails where it runs.
pub struct Rule {
    pub id: String,
    pub description: String,
    /// Its pattern, as gitleaks writes it.
    pattern: String,
    /// Runs only on text that holds one of these (any case); on any text when there are none.
    pub keywords: Vec<String>,
    secret_group: usize,
    entropy: Option<f64>,
    allows: Vec<AllowSpec>,
    compiled: OnceLock<Result<Compiled, String>>,
}

/// What a rule runs: its regex and its allowlists.
struct Compiled {
    /// Its pattern, without the lead it may begin with ([`Lead`]).
    regex: Regex,
    lead: Lead,
    allowlists: Vec<Allowlist>,
}

impl Rule {
    /// Its regex and allowlists, compiled now if not yet; why its pattern does not compile.
    fn compiled(&self) -> Result<&Compiled, &str> {
        let compile = || {
            let (lead, rest) = Lead::of(&self.pattern);
            let regex = compile(&rest)?;
            Ok(Compiled { regex, lead, allowlists: self.allows.iter().map(allowlist).collect() })
        };
        self.compiled.get_or_init(compile).as_ref().map_err(|e| e.as_str())
    }
}

/// The lead of gitleaks' semi-generic patterns (101 of its 217 rules, the generic one among
/// them): `[\w.-]{0,50}?` before the keyword, lazily, so a match takes in the name a key is
/// assigned to (`MY_SERVICE_API_KEY = …`). It only says where a match begins: where one is, and
/// what its groups hold, is the same without it. But a lazy lead that may begin at any of 50
/// places made the regex's lazy DFA build new states all through a text (its determinization was
/// a third of Share's scan on real sessions, and the rule four times slower than without the
/// lead). So a pattern is run without its lead, and where each match begins is found after,
/// looking back from it over the lead's characters ([`Lead::start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lead {
    /// How many characters it takes at most (0: the pattern has none).
    most: usize,
    /// How many of them, nearest the match, are case-insensitive: there `\w` takes in the two
    /// letters outside ASCII that fold to ASCII ones, `K` (U+212A, the Kelvin sign, for `k`) and
    /// `ſ` (U+017F, the long s), as Go's `(?i)` does too.
    folded: usize,
}

/// The lead's text in a pattern, before its bound.
const LEAD: &str = r"[\w.-]{0,";

impl Lead {
    /// The lead `pattern` begins with, and the pattern without it. Leads are taken as gitleaks
    /// writes them: after its flags (`(?i)[\w.-]{0,50}?…`), or two, the second inside a group of
    /// flags (`[\w.-]{0,50}?(?i:[\w.-]{0,50}?…`), whose bounds add up.
    fn of(pattern: &str) -> (Lead, String) {
        let mut rest = pattern;
        let mut head = String::new();
        let (mut most, mut folded, mut insensitive) = (0, 0, false);
        loop {
            for flags in ["(?i)", "(?i:"] {
                if let Some(after) = rest.strip_prefix(flags) {
                    head.push_str(flags);
                    rest = after;
                    insensitive = true;
                }
            }
            let bound = rest.strip_prefix(LEAD).and_then(|after| {
                let (digits, after) = after.split_once("}?")?;
                Some((digits.parse::<usize>().ok()?, after))
            });
            match bound {
                Some((n, after)) => {
                    most += n;
                    // The characters nearest the match are the last lead's.
                    folded = if insensitive { folded + n } else { 0 };
                    rest = after;
                }
                None => break,
            }
        }
        (Lead { most, folded }, format!("{head}{rest}"))
    }

    /// Where a match found at `at` (without the lead) begins with it: back over as many of the
    /// lead's characters as there are, at most its bound, and not before `floor` (where the
    /// previous match ended: matches do not overlap). That is where the whole pattern's match
    /// begins: the leftmost start of a match is the furthest back a lead reaches from the
    /// leftmost place the rest matches. (Of two leads, the one nearest the match takes the
    /// folded letters, and as many characters as it can: the other takes no character it does
    /// not.)
    fn start(self, text: &str, at: usize, floor: usize) -> usize {
        let mut start = at;
        for (taken, c) in text[floor..at].chars().rev().enumerate() {
            let ascii = c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
            let folds = taken < self.folded && matches!(c, '\u{212A}' | '\u{17F}');
            if taken == self.most || !(ascii || folds) {
                break;
            }
            start -= c.len_utf8();
        }
        start
    }
}

struct Allowlist {
    regexes: Vec<Regex>,
    stopwords: Vec<String>,
    /// What the regexes look at: the secret, the whole match, or the whole text.
    target: Target,
    /// Both the regexes and the stopwords must allow it (else either).
    all: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

/// Every rule, compiled once.
pub struct Secrets {
    rules: Vec<Rule>,
    /// Every rule's keywords, any case, as one automaton walked byte by byte ([`Secrets::held`]).
    keywords: DFA,
    /// The longest keyword's length less one: how far before a piece of text its walk begins.
    overlap: usize,
    /// For each keyword, the rules it runs.
    runs: Vec<Vec<usize>>,
    /// Rules without keywords: they run on every text.
    always: Vec<usize>,
    global: Allowlist,
    /// Rules not used, and why (a rule about file paths, one without a pattern).
    pub skipped: Vec<(String, String)>,
}

/// A secret in a text: which rule, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub rule: usize,
    pub secret: Range<usize>,
}

/// At most this many keywords (gitleaks' rules have 244): which a text holds is a bit each.
const KEYWORDS_MAX: usize = 512;

/// Which keywords a text holds.
type Held = [u64; KEYWORDS_MAX / 64];

/// How many pieces of a long text the keywords are looked for in at once ([`Secrets::held`]).
const LANES: usize = 4;

const RULES: &str = include_str!(concat!(env!("OUT_DIR"), "/gitleaks.json"));

/// cctv's own rules, for what sessions hold that gitleaks has no rule for (it scans code, where
/// these are rarer than in a terminal's output): (id, description, pattern, entropy, keywords).
/// The secret is the pattern's first group.
const OWN_RULES: [(&str, &str, &str, f64, &[&str]); 4] = [
    (
        "cctv-bearer-token",
        "A bearer token in an Authorization header",
        r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)",
        3.0,
        &["bearer"],
    ),
    (
        "cctv-url-password",
        "A password in a connection string or URL",
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:@/'\x22]{1,64}:([^\s@/'\x22]{3,128})@[a-z0-9.-]+",
        2.0,
        &["://"],
    ),
    (
        "cctv-env-secret",
        "A secret assigned in an environment file or shell",
        r"(?m)^[ \t]*(?:export[ \t]+)?[A-Z][A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIALS?)[A-Z0-9_]*[ \t]*=[ \t]*['\x22]?([^\s'\x22#]{8,})",
        3.0,
        &["key", "secret", "token", "passw", "pwd", "credential"],
    ),
    (
        "cctv-aws-secret-access-key",
        "An AWS secret access key",
        r"(?i)aws.{0,20}?(?:secret|sk).{0,20}?['\x22\s:=]{1,5}([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)",
        4.0,
        &["aws"],
    ),
];

/// Values that stand for a secret without being one: placeholders and variables.
const PLACEHOLDER: &str = r"(?i)^(?:\$\{?[a-z_]+\}?|<[^>]*>|\*+|x{3,}|\.{3,}|(?:your|my)[_-]?\w*|password|passwd|secret|changeme|example\w*)$";

impl Secrets {
    pub fn new() -> Secrets {
        pace::finish(Secrets::new_paced(&mut Pace::never()))
    }

    /// [`new`](Secrets::new), pausing where `pace` says. The rules are compiled when first run
    /// ([`Rule`]); the keywords' automaton and the global allowlist take a few ms here.
    pub async fn new_paced(pace: &mut Pace<'_>) -> Secrets {
        let config: Config = serde_json::from_str(RULES).expect("build.rs writes this JSON");
        let mut rules = Vec::new();
        let mut skipped = Vec::new();
        let mut keywords: Vec<String> = Vec::new();
        let mut runs: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        let own = OWN_RULES.iter().map(|&(id, description, regex, entropy, keywords)| RuleSpec {
            id: id.into(),
            description: Some(description.into()),
            regex: Some(regex.into()),
            path: None,
            secret_group: 1,
            entropy: Some(entropy),
            keywords: keywords.iter().map(|k| k.to_string()).collect(),
            allowlists: vec![AllowSpec {
                regexes: vec![PLACEHOLDER.into()],
                stopwords: Vec::new(),
                target: "secret".into(),
                all: false,
            }],
        });
        for spec in config.rules.into_iter().chain(own) {
            // A rule about file names (a .p12 file, a Terraform file) says nothing of a line of
            // a transcript.
            if spec.path.is_some() {
                skipped.push((spec.id, "a rule about file paths".into()));
                continue;
            }
            let Some(pattern) = spec.regex else {
                skipped.push((spec.id, "no pattern".into()));
                continue;
            };
            let index = rules.len();
            if spec.keywords.is_empty() {
                always.push(index);
            }
            for keyword in &spec.keywords {
                let keyword = keyword.to_lowercase();
                match keywords.iter().position(|k| *k == keyword) {
                    Some(at) => runs[at].push(index),
                    None => {
                        keywords.push(keyword);
                        runs.push(vec![index]);
                    }
                }
            }
            rules.push(Rule {
                description: spec.description.unwrap_or_else(|| spec.id.clone()),
                id: spec.id,
                pattern,
                keywords: spec.keywords,
                secret_group: spec.secret_group,
                entropy: spec.entropy,
                allows: spec.allowlists,
                compiled: OnceLock::new(),
            });
        }
        assert!(keywords.len() <= KEYWORDS_MAX, "{} keywords: raise KEYWORDS_MAX", keywords.len());
        let overlap = keywords.iter().map(|k| k.len()).max().unwrap_or(1).saturating_sub(1);
        // No prefilter: short keywords (`sk`, `ey`, `s.`) are in nearly every text, so it would
        // find candidates every few bytes and only add its own cost.
        let keywords = DFA::builder()
            .ascii_case_insensitive(true)
            .prefilter(false)
            .build(&keywords)
            .expect("keywords are plain strings");
        pace.long_step().await;
        let global = allowlist(&config.allowlist);
        Secrets { rules, keywords, overlap, runs, always, global, skipped }
    }

    pub fn rule(&self, index: usize) -> &Rule {
        &self.rules[index]
    }

    /// Whether a rule's findings are secrets for sure, or candidates a person should look at:
    /// gitleaks' generic rule (a long random value after a word like `key`) and a high-entropy
    /// value in a URL find things that are not secrets often enough.
    pub fn is_certain(&self, index: usize) -> bool {
        let id = &self.rules[index].id;
        !id.starts_with("generic") && id != "cctv-url-password"
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Which keywords `text` holds, a bit each.
    ///
    /// The automaton is walked here a byte at a time, not through an overlapping search: a short
    /// keyword (`sk`, `ey`) is in a long output hundreds of times, and the search returns for
    /// each. And a long text is walked as [`LANES`] pieces at once, each from a little before
    /// where it begins (so a keyword across two pieces is in one): a walk is a chain of table
    /// lookups each waiting on the last, and four chains run side by side in one core. This
    /// walk was a quarter of Share's scan.
    fn held(&self, text: &str) -> Held {
        let bytes = text.as_bytes();
        let mut held = [0u64; KEYWORDS_MAX / 64];
        let chunk = bytes.len().div_ceil(LANES);
        // A short text in one walk: pieces begun that far before their start would walk it
        // nearly twice.
        if chunk < 4 * self.overlap {
            self.walk([bytes], &mut held);
        } else {
            let n = (chunk + self.overlap).min(bytes.len());
            let lane = |i: usize| {
                let start = (i * chunk).saturating_sub(self.overlap).min(bytes.len() - n);
                &bytes[start..start + n]
            };
            self.walk(std::array::from_fn::<_, LANES, _>(lane), &mut held);
        }
        held
    }

    /// Walks the keywords' automaton through each of `lanes` (all of one length), side by side.
    #[inline(always)]
    fn walk<const L: usize>(&self, lanes: [&[u8]; L], held: &mut Held) {
        let dfa = &self.keywords;
        let n = lanes[0].len();
        assert!(lanes.iter().all(|lane| lane.len() == n));
        let mut states = [dfa.start_state(Anchored::No).expect("built for unanchored searches"); L];
        for at in 0..n {
            for (state, lane) in states.iter_mut().zip(&lanes) {
                *state = dfa.next_state(Anchored::No, *state, lane[at]);
                if dfa.is_special(*state) && dfa.is_match(*state) {
                    // A match state holds every keyword that ends here, the shorter ones within
                    // it too (`ey` in `key`).
                    for i in 0..dfa.match_len(*state) {
                        let k = dfa.match_pattern(*state, i).as_usize();
                        held[k / 64] |= 1 << (k % 64);
                    }
                }
            }
        }
    }

    /// The secrets in `text`.
    pub fn find(&self, text: &str) -> Vec<Hit> {
        let held = self.held(text);
        let mut rules: Vec<usize> = self.always.clone();
        for (word, bits) in held.iter().enumerate().filter(|(_, bits)| **bits != 0) {
            let keywords = (0..64).filter(|b| bits & (1 << b) != 0).map(|b| word * 64 + b);
            rules.extend(keywords.flat_map(|k| &self.runs[k]));
        }
        rules.sort_unstable();
        rules.dedup();
        let mut hits = Vec::new();
        for index in rules {
            let rule = &self.rules[index];
            // A pattern that does not compile finds nothing (none does: the tests compile each).
            let Ok(compiled) = rule.compiled() else { continue };
            let mut ended = 0;
            for captures in compiled.regex.captures_iter(text) {
                let found = captures.get(0).expect("group 0 is the match");
                let start = compiled.lead.start(text, found.start(), ended);
                ended = found.end();
                let whole = start..found.end();
                let group = match rule.secret_group {
                    0 => captures.iter().skip(1).flatten().find(|g| !g.as_str().is_empty()),
                    n => captures.get(n),
                };
                let secret = group.map_or(whole.clone(), |g| g.range());
                let (secret_text, whole) = (&text[secret.clone()], &text[whole]);
                if secret_text.is_empty() {
                    continue;
                }
                if rule.entropy.is_some_and(|least| entropy(secret_text) < least) {
                    continue;
                }
                let allowed = |a: &Allowlist| a.allows(secret_text, whole, text);
                if allowed(&self.global) || compiled.allowlists.iter().any(allowed) {
                    continue;
                }
                hits.push(Hit { rule: index, secret });
            }
        }
        hits
    }
}

impl Default for Secrets {
    fn default() -> Self {
        Secrets::new()
    }
}

impl Allowlist {
    fn allows(&self, secret: &str, whole: &str, line: &str) -> bool {
        let target = match self.target {
            Target::Secret => secret,
            Target::Match => whole,
            Target::Line => line,
        };
        let by_regex = !self.regexes.is_empty() && self.regexes.iter().any(|r| r.is_match(target));
        let lower = secret.to_lowercase();
        let by_word = !self.stopwords.is_empty() && self.stopwords.iter().any(|w| lower.contains(w.as_str()));
        match self.all {
            true => (self.regexes.is_empty() || by_regex) && (self.stopwords.is_empty() || by_word),
            false => by_regex || by_word,
        }
    }
}

fn allowlist(spec: &AllowSpec) -> Allowlist {
    Allowlist {
        regexes: spec.regexes.iter().filter_map(|r| compile(r).ok()).collect(),
        stopwords: spec.stopwords.iter().map(|w| w.to_lowercase()).collect(),
        target: match spec.target.as_str() {
            "match" => Target::Match,
            "line" => Target::Line,
            _ => Target::Secret,
        },
        all: spec.all,
    }
}

/// gitleaks' patterns are Go's RE2 syntax, which this crate's engine reads too (both never
/// backtrack), but for one difference: Go's `\w`, `\d`, `\s` and `\b` are ASCII, this crate's
/// Unicode. They are made ASCII here, which is what gitleaks means, and keeps patterns like
/// `[\w-]{50,1000}` small enough to compile.
fn compile(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(&ascii_classes(pattern)).size_limit(32 << 20).build().map_err(|e| e.to_string())
}

fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    // Inside `[...]`, and whether the class has just begun (where `]` is a literal).
    let mut class = false;
    let mut class_start = false;
    while let Some(c) = chars.next() {
        let starting = class_start;
        class_start = false;
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push(c);
                    break;
                };
                let ascii = match next {
                    'w' => Some(("[:word:]", r"(?-u:\w)")),
                    'd' => Some(("[:digit:]", r"(?-u:\d)")),
                    's' => Some(("[:space:]", r"(?-u:\s)")),
                    // Word boundaries as Go draws them: between ASCII word characters and the rest
                    // (a key right after a CJK character is still found).
                    'b' if !class => Some(("", r"(?-u:\b)")),
                    'B' if !class => Some(("", r"(?-u:\B)")),
                    _ => None,
                };
                match ascii {
                    Some((in_class, outside)) => out.push_str(if class { in_class } else { outside }),
                    None => {
                        out.push(c);
                        out.push(next);
                    }
                }
            }
            '[' if !class => {
                class = true;
                class_start = true;
                out.push(c);
                if chars.peek() == Some(&'^') {
                    out.push(chars.next().expect("peeked"));
                }
            }
            '[' if chars.peek() == Some(&':') => {
                // A POSIX class inside a class: copied whole.
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == ']' {
                        break;
                    }
                }
            }
            ']' if class && !starting => {
                class = false;
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Shannon entropy in bits per character, as gitleaks measures a secret.
pub fn entropy(text: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let mut total = 0.0;
    for c in text.chars() {
        *counts.entry(c).or_insert(0.0) += 1.0;
        total += 1.0;
    }
    counts.values().map(|n: &f64| -(n / total) * (n / total).log2()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearly_every_gitleaks_rule_is_used() {
        let secrets = Secrets::new();
        for (id, why) in &secrets.skipped {
            eprintln!("skipped {id}: {why}");
        }
        assert!(secrets.len() >= 215, "{} rules", secrets.len());
        // Compiled when first run, so each is compiled here.
        let failing: Vec<_> =
            secrets.rules.iter().filter_map(|r| Some((&r.id, r.compiled().err()?))).collect();
        assert!(failing.is_empty(), "{failing:?}");
        assert!(
            secrets.skipped.iter().all(|(_, why)| why == "a rule about file paths"),
            "{:?}",
            secrets.skipped
        );
    }

    /// `hir` without its anchors and word boundaries, which rand_regex cannot write: the examples
    /// are set between spaces, which satisfy them.
    #[cfg(not(target_arch = "wasm32"))]
    fn without_looks(hir: regex_syntax::hir::Hir) -> regex_syntax::hir::Hir {
        use regex_syntax::hir::{Hir, HirKind};
        match hir.into_kind() {
            HirKind::Look(_) => Hir::empty(),
            HirKind::Concat(parts) => Hir::concat(parts.into_iter().map(without_looks).collect()),
            HirKind::Alternation(parts) => Hir::alternation(parts.into_iter().map(without_looks).collect()),
            HirKind::Repetition(mut r) => {
                r.sub = Box::new(without_looks(*r.sub));
                Hir::repetition(r)
            }
            HirKind::Capture(mut c) => {
                c.sub = Box::new(without_looks(*c.sub));
                Hir::capture(c)
            }
            HirKind::Literal(l) => Hir::literal(l.0),
            HirKind::Class(c) => Hir::class(c),
            HirKind::Empty => Hir::empty(),
        }
    }

    /// Every rule finds a secret in an example written from its own regular expression (a true
    /// example), and not in the same example cut short three characters into its secret (a false
    /// one: a prefix without the token, like `ghp_abc`). The examples are random strings that
    /// match the rule's pattern (rand_regex), from a fixed seed, so the test is the same each run.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn every_rule_finds_an_example_of_its_own_and_not_the_example_cut_short() {
        use rand::SeedableRng;
        let secrets = Secrets::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
        let mut failures = Vec::new();
        for (index, rule) in secrets.rules.iter().enumerate() {
            let pattern = rule.compiled().expect("every rule compiles").regex.as_str();
            let hir = regex_syntax::ParserBuilder::new().build().parse(pattern);
            let Ok(generator) = hir.map_err(|e| e.to_string()).and_then(|hir| {
                rand_regex::Regex::with_hir(without_looks(hir), 6).map_err(|e| e.to_string())
            }) else {
                failures.push(format!("{}: no example can be written from its regex", rule.id));
                continue;
            };
            // The example on a line of its own, after a line with the rule's keyword: a regex
            // does not always spell it (airtable's does not name airtable; `.` in
            // `hooks.slack.com` can be any character).
            let keyword = rule.keywords.first().map_or(String::new(), |k| format!("{k}\n"));
            let found = (0..200).find_map(|_| {
                let sample: String = rand::distr::Distribution::sample(&generator, &mut rng);
                let text = format!("{keyword}{sample} \n");
                let hit = secrets.find(&text).into_iter().find(|h| h.rule == index)?;
                Some((text, hit.secret))
            });
            let Some((text, secret)) = found else {
                failures.push(format!("{}: no true example found", rule.id));
                continue;
            };
            let cut =
                text[secret.clone()].char_indices().nth(3).map_or(secret.end, |(i, _)| secret.start + i);
            let lookalike = format!("{}{}", &text[..cut], &text[secret.end..]);
            if secrets.find(&lookalike).iter().any(|h| h.rule == index) {
                failures.push(format!("{}: found in the false example {lookalike:?}", rule.id));
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} rules:\n{}",
            failures.len(),
            secrets.len(),
            failures.join("\n")
        );
    }

    /// An overlapping search for the keywords, numbered in the automaton's order (as
    /// `new_paced` numbers them), and the bits it sets for a text: what [`Secrets::held`] must
    /// give.
    fn keyword_search(secrets: &Secrets) -> impl Fn(&str) -> Held {
        let mut keywords: Vec<String> = Vec::new();
        for keyword in secrets.rules.iter().flat_map(|r| &r.keywords).map(|k| k.to_lowercase()) {
            if !keywords.contains(&keyword) {
                keywords.push(keyword);
            }
        }
        let search =
            aho_corasick::AhoCorasick::builder().ascii_case_insensitive(true).build(&keywords).unwrap();
        move |text| {
            let mut held = [0u64; KEYWORDS_MAX / 64];
            for m in search.find_overlapping_iter(text) {
                let k = m.pattern().as_usize();
                held[k / 64] |= 1 << (k % 64);
            }
            held
        }
    }

    #[test]
    fn the_keywords_held_are_those_an_overlapping_search_finds() {
        let secrets = Secrets::new();
        let held_by_search = keyword_search(&secrets);
        // The shortest text walked in lanes ([`Secrets::held`]).
        let lanes_from = LANES * (4 * secrets.overlap - 1) + 1;
        // Every string of every fixture (their long outputs are walked in lanes).
        let mut long = 0;
        for input in crate::fixtures::every_fixture() {
            for line in input.bytes.split(|&b| b == b'\n') {
                for text in crate::redact::strings_of(line).unwrap_or_default() {
                    long += usize::from(text.len() >= lanes_from);
                    assert_eq!(secrets.held(&text), held_by_search(&text), "{text:?}");
                }
            }
        }
        assert!(long > 1000, "{long} strings long enough to be walked in lanes");
        // A keyword at every place in texts around the length where lanes begin, across every
        // lane's edge, in any case; the longest keyword too.
        let longest = secrets.rules.iter().flat_map(|r| &r.keywords).max_by_key(|k| k.len()).unwrap();
        for keyword in ["sk", "AKIA", "hvs.", "Passwd", longest.as_str()] {
            for len in [lanes_from - 1, lanes_from, 700, 1001] {
                for at in 0..=len - keyword.len() {
                    let text = format!("{}{keyword}{}", "#".repeat(at), "#".repeat(len - at - keyword.len()));
                    let held = secrets.held(&text);
                    assert_eq!(held, held_by_search(&text), "{keyword} at {at} of {len}");
                    assert!(held.iter().any(|&bits| bits != 0), "{keyword} at {at} of {len}");
                }
            }
        }
    }

    /// Each match's place and groups, the whole match's begun where `lead` says.
    fn matches(regex: &Regex, lead: Lead, text: &str) -> Vec<Vec<Option<Range<usize>>>> {
        let mut ended = 0;
        let each = regex.captures_iter(text).map(|captures| {
            let mut groups: Vec<_> = captures.iter().map(|g| g.map(|g| g.range())).collect();
            let found = captures.get(0).expect("group 0 is the match");
            groups[0] = Some(lead.start(text, found.start(), ended)..found.end());
            ended = found.end();
            groups
        });
        each.collect()
    }

    /// A rule whose pattern begins with a lead, run without it, matches where its whole pattern
    /// does, with the same groups: on every string of every fixture that holds one of its
    /// keywords (as [`Secrets::find`] runs it), and on texts made to try the lead's edges (a
    /// name as long as the lead's bound, or longer; two assignments with nothing between).
    #[test]
    fn a_pattern_run_without_its_lead_matches_where_the_whole_pattern_does() {
        let secrets = Secrets::new();
        let led: Vec<usize> =
            (0..secrets.len()).filter(|&i| secrets.rules[i].compiled().unwrap().lead.most > 0).collect();
        assert!(led.len() >= 80, "{} rules with a lead", led.len());
        let mut texts: Vec<String> = Vec::new();
        for input in crate::fixtures::every_fixture() {
            for line in input.bytes.split(|&b| b == b'\n') {
                texts.extend(
                    crate::redact::strings_of(line).unwrap_or_default().into_iter().map(|t| t.into_owned()),
                );
            }
        }
        let names =
            ["", "x", "a.b-c_d", "q".repeat(48).as_str(), "Q".repeat(50).as_str(), "n".repeat(51).as_str()]
                .map(|n| n.to_owned());
        for &rule in &led {
            let keyword = secrets.rules[rule].keywords[0].clone();
            for name in names.iter().chain([&"p".repeat(99), &"p_".repeat(60)]) {
                let one = format!("{name}{keyword}_token = \"Zx8Qv2Lm9Tr4Ws7Yp3KdHj6Gf1Nb5Cv0Xa\"");
                let bare = format!("{name}{keyword}_token = Zx8Qv2Lm9Tr4Ws7Yp3KdHj6Gf1Nb5Cv0Xa");
                texts.extend([
                    one.clone(),
                    format!("{one}{one}"),
                    format!("{one};{one}"),
                    format!("{one}\n{one}"),
                ]);
                // A match can end in a lead's character (`\n` written as an escape): the next
                // match's lead stops there.
                texts.extend([format!("{bare}\\n{bare}"), format!("{bare}\\r{bare}\\n")]);
            }
        }
        // Each rule's own example (written from its pattern without the lead, as the test above
        // writes them) after names from none to past two leads' bounds, alone and twice.
        #[cfg(not(target_arch = "wasm32"))]
        {
            use rand::SeedableRng;
            let mut rng = rand::rngs::StdRng::seed_from_u64(35);
            // Lead characters, with the two letters outside ASCII a case-insensitive `\w` takes.
            let lead_chars = ["p_.-q9", "aK_ſ.-"].map(|chars| chars.chars().cycle());
            for &rule in &led {
                let regex = &secrets.rules[rule].compiled().unwrap().regex;
                let hir = regex_syntax::ParserBuilder::new().build().parse(regex.as_str()).unwrap();
                let Ok(generator) = rand_regex::Regex::with_hir(without_looks(hir), 6) else { continue };
                let example = (0..200)
                    .map(|_| -> String { rand::distr::Distribution::sample(&generator, &mut rng) })
                    .find(|e| regex.is_match(e));
                let Some(example) = example else { continue };
                for len in [0, 1, 49, 50, 51, 99, 100, 101, 120] {
                    for chars in &lead_chars {
                        let name: String = chars.clone().take(len).collect();
                        texts.extend([format!("{name}{example}"), format!("{name}{example}{name}{example}")]);
                    }
                }
            }
        }
        let whole: Vec<Regex> = led.iter().map(|&i| compile(&secrets.rules[i].pattern).unwrap()).collect();
        // Matches whose lead reached its bound: of one lead, and of two (their bounds added).
        let (mut compared, mut led_back, mut at_bound, mut at_double_bound) = (0, 0, 0, 0);
        for text in &texts {
            let held = secrets.held(text);
            let mut runs = vec![false; secrets.len()];
            for k in (0..KEYWORDS_MAX).filter(|k| held[k / 64] & (1 << (k % 64)) != 0) {
                secrets.runs[k].iter().for_each(|&r| runs[r] = true);
            }
            for (n, &rule) in led.iter().enumerate().filter(|(_, &rule)| runs[rule]) {
                let compiled = secrets.rules[rule].compiled().unwrap();
                let expected = matches(&whole[n], Lead { most: 0, folded: 0 }, text);
                let got = matches(&compiled.regex, compiled.lead, text);
                assert_eq!(got, expected, "{} in {text:?}", secrets.rules[rule].id);
                compared += got.len();
                for (groups, found) in got.iter().zip(compiled.regex.find_iter(text)) {
                    let start = groups[0].as_ref().unwrap().start;
                    led_back += usize::from(start < found.start());
                    let bound = found.start() - start == compiled.lead.most;
                    at_bound += usize::from(bound);
                    at_double_bound += usize::from(bound && compiled.lead.most > 50);
                }
            }
        }
        assert!(
            compared > 1000 && led_back > 500 && at_bound > 50 && at_double_bound > 0,
            "{compared} {led_back} {at_bound} {at_double_bound}"
        );
    }

    #[test]
    fn leads_are_taken_as_gitleaks_writes_them() {
        // (pattern, its lead's bound and the part of it that folds, the pattern without it)
        let cases = [
            (r"(?i)[\w.-]{0,50}?(?:key)x", 50, 50, r"(?i)(?:key)x"),
            (r"[\w.-]{0,50}?(?i:[\w.-]{0,50}?(?:okta))x", 100, 50, r"(?i:(?:okta))x"),
            (r"\b(AKIA[A-Z]{16})", 0, 0, r"\b(AKIA[A-Z]{16})"),
            (r"[\w.-]{0,50}(?:key)", 0, 0, r"[\w.-]{0,50}(?:key)"),
        ];
        for (pattern, most, folded, rest) in cases {
            assert_eq!(Lead::of(pattern), (Lead { most, folded }, rest.to_owned()), "{pattern}");
        }
    }

    #[test]
    fn gos_ascii_classes_stay_ascii() {
        assert_eq!(ascii_classes(r"\w+[\w.-]\d\\w[]\s]"), r"(?-u:\w)+[[:word:].-](?-u:\d)\\w[][:space:]]");
        assert_eq!(ascii_classes(r"[^\s[:alpha:]]\S"), r"[^[:space:][:alpha:]]\S");
        let r = compile(r"^\w+$").unwrap();
        assert!(r.is_match("abc_1") && !r.is_match("café"));
        let r = compile(r"\bAKIA\d+\b").unwrap();
        assert!(r.is_match("密钥AKIA123") && !r.is_match("xAKIA123"));
    }
}
