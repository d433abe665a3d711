//! What leaves with a shared session: its files with secrets and personal details masked
//! ([`crate::redact`]), then written out ([`markdown`]). Masking comes first and works on the
//! files' bytes, so nothing made from them afterwards can hold what was masked.

use serde::Deserialize;

use super::to_markdown::{self, MarkdownOptions};
use crate::normalize::{normalize, Input};
use crate::redact::{mask, Finding, Scanner};

/// What a caller asks of an export; everything is optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ShareOptions {
    #[serde(flatten)]
    pub markdown: MarkdownOptions,
    /// Findings to keep, by their text or their rule (`*`: all): every other certain finding is
    /// masked.
    pub keep: Vec<String>,
    /// Mask the candidates too (found by rules that also find things that are not secrets).
    pub mask_candidates: bool,
    /// The caller's own patterns to mask (regular expressions).
    pub patterns: Vec<String>,
    /// Turns `[first, end)` of the first session, by number from 0; all when absent.
    pub turns: Option<(usize, usize)>,
}

/// An export, and what was found on the way.
pub struct Shared {
    pub text: String,
    pub findings: Vec<Finding>,
    /// How many of the findings were masked.
    pub masked: usize,
}

/// The findings of `inputs` that `options` mask.
pub fn masked<'a>(findings: &'a [Finding], options: &ShareOptions) -> Vec<&'a Finding> {
    findings
        .iter()
        .filter(|f| f.certain || options.mask_candidates)
        .filter(|f| !options.keep.iter().any(|k| k == "*" || *k == f.text || Some(k) == f.rule.as_ref()))
        .collect()
}

/// `inputs` masked as `options` say, then as Markdown: each session, one after another.
pub fn markdown(inputs: Vec<Input>, options: &ShareOptions) -> Result<Shared, String> {
    let findings = Scanner::new(&options.patterns)?.find(&inputs);
    let chosen = masked(&findings, options);
    let masked_count = chosen.len();
    let ws = normalize(mask(&inputs, &chosen));
    let turns = options.turns.map(|(first, end)| first..end);
    let sessions: Vec<String> = ws
        .sessions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            to_markdown::session(&ws, s, options.markdown, if i == 0 { turns.clone() } else { None })
        })
        .collect();
    Ok(Shared { text: sessions.join("\n---\n\n"), findings, masked: masked_count })
}
