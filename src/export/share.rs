//! What leaves with a shared session: its files with secrets and personal details masked
//! ([`crate::redact`]), then written out ([`markdown`]). Masking comes first and works on the
//! files' bytes, so nothing made from them afterwards can hold what was masked.

use std::collections::HashSet;
use std::ops::Range;

use aho_corasick::{AhoCorasick, MatchKind};
use serde::Deserialize;

use crate::export::to_html::{self, ViewerFiles};
use crate::export::to_markdown::{self, MarkdownOptions};
use crate::normalize::{normalize, Input, ItemKind, LineRef, ThreadRef, Workspace};
use crate::redact::{mask_files, mask_text, Finding, Scanner};

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
#[derive(Debug)]
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
    let turns = options.turns.map(|(first, end)| first..end);
    let text = markdown_masked(&pairs(&inputs), &chosen, options.markdown, turns);
    let masked = chosen.len();
    Ok(Shared { text, findings, masked })
}

/// `inputs` masked as `options` say, then as one HTML file that shows them with `viewer`.
pub fn html(inputs: Vec<Input>, options: &ShareOptions, viewer: &ViewerFiles) -> Result<Shared, String> {
    let findings = Scanner::new(&options.patterns)?.find(&inputs);
    let chosen = masked(&findings, options);
    let title = normalize(inputs.clone()).sessions.first().and_then(|s| s.title.clone());
    let text = html_masked(&pairs(&inputs), &chosen, title.as_deref(), viewer)?;
    let masked = chosen.len();
    Ok(Shared { text, findings, masked })
}

/// `inputs` with `chosen` masked, as Markdown; `turns` of the first session only, if given.
pub(crate) fn markdown_masked(
    inputs: &[(&str, &[u8])],
    chosen: &[&Finding],
    options: MarkdownOptions,
    turns: Option<Range<usize>>,
) -> String {
    let ws = normalize(mask_files(inputs.iter().copied(), chosen));
    let sessions: Vec<String> = ws
        .sessions
        .iter()
        .enumerate()
        .map(|(i, s)| to_markdown::session(&ws, s, options, if i == 0 { turns.clone() } else { None }))
        .collect();
    sessions.join("\n---\n\n")
}

/// Files as (name, bytes), borrowed.
fn pairs(inputs: &[Input]) -> Vec<(&str, &[u8])> {
    inputs.iter().map(Input::parts).collect()
}

/// The most bytes of files one HTML file holds: its page holds them about four times over while
/// it is made (the files, masked, packed, compressed, as base64), in a wasm memory of 4 GB.
pub(crate) const HTML_MAX_BYTES: usize = 400_000_000;

/// `inputs` with `chosen` masked, as one HTML file; `title` (the session's, unmasked) names it.
pub(crate) fn html_masked(
    inputs: &[(&str, &[u8])],
    chosen: &[&Finding],
    title: Option<&str>,
    viewer: &ViewerFiles,
) -> Result<String, String> {
    let size: usize = inputs.iter().map(|(_, bytes)| bytes.len()).sum();
    if size > HTML_MAX_BYTES {
        return Err(format!(
            "{} MB of files is more than one HTML file can hold here ({} MB); export Markdown instead",
            size / 1_000_000,
            HTML_MAX_BYTES / 1_000_000
        ));
    }
    let title = mask_text(title.unwrap_or("A session"), chosen);
    to_html::document(&mask_files(inputs.iter().copied(), chosen), viewer, &title)
}

/// The turn that begins at row `item` of `thread` of session `session` of `inputs`, with `chosen`
/// masked, as Markdown. Masked in the files first, like a whole export; masking changes what
/// strings say, never the lines' structure, so the turn is at the same place in what the masked
/// files make.
pub fn turn_masked(
    inputs: &[(&str, &[u8])],
    chosen: &[&Finding],
    (session, thread, item): (usize, ThreadRef, u32),
) -> Result<String, String> {
    let ws = normalize(mask_files(inputs.iter().copied(), chosen));
    let s = ws.sessions.get(session).ok_or("the masked files make fewer sessions")?;
    s.item(thread, item).ok_or("the masked files do not have this row")?;
    Ok(to_markdown::turn(&ws, s, thread, item))
}

/// The files of session `session` of `ws`, from `inputs` (its files as given): its own file, its
/// sub-agents', and the files beside them (in its folder, `<id>/…`). All of them when `ws` has
/// one session.
pub fn files_of_session<'a>(
    ws: &Workspace,
    session: usize,
    inputs: Vec<(&'a str, &'a [u8])>,
) -> Vec<(&'a str, &'a [u8])> {
    let Some(s) = ws.sessions.get(session) else { return inputs };
    if ws.sessions.len() == 1 {
        return inputs;
    }
    let mine: HashSet<&str> = std::iter::once(s.file)
        .chain(s.agents.iter().map(|a| a.file))
        .flatten()
        .filter_map(|f| ws.files.get(f as usize).map(|f| f.name.as_str()))
        .collect();
    let in_folder = |name: &str| {
        s.session_id
            .as_deref()
            .is_some_and(|id| name.starts_with(&format!("{id}/")) || name.contains(&format!("/{id}/")))
    };
    inputs.into_iter().filter(|(name, _)| mine.contains(name) || in_folder(name)).collect()
}

/// A file name for an export of session `session`: its id (never its title, which is transcript
/// text), unless a masked finding is in it.
pub fn export_name(ws: &Workspace, session: usize, chosen: &[&Finding], extension: &str) -> String {
    let id = ws.sessions.get(session).and_then(|s| s.session_id.clone()).unwrap_or_default();
    let id: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(36).collect();
    let stem = match id.is_empty() || chosen.iter().any(|f| id.contains(f.text.as_str())) {
        true => "claude-code-session".to_owned(),
        false => format!("session-{id}"),
    };
    format!("{stem}.{extension}")
}

/// What an export says it masked: `, with 3 findings masked`.
pub fn masked_note(masked: usize) -> String {
    match masked {
        0 => ", with nothing masked".into(),
        1 => ", with 1 finding masked".into(),
        n => format!(", with {n} findings masked"),
    }
}

/// Where findings are in a text on screen, and whether each is masked: the viewer marks them in
/// the rows it draws.
pub struct Highlights {
    finder: AhoCorasick,
    /// For each finding's text: masked or kept, and what it becomes when masked.
    marks: Vec<(bool, String)>,
}

impl Highlights {
    /// `findings`, each masked where `is_masked` says: marked where its text is written as it
    /// is, and in each disguise the scan found it in (percent-encoded, in base64, cut by a line
    /// break).
    pub fn new(findings: &[Finding], is_masked: impl Fn(&Finding) -> bool) -> Option<Highlights> {
        let mut texts: Vec<&str> = Vec::new();
        let mut marks = Vec::new();
        for f in findings {
            for text in std::iter::once(&f.text).chain(&f.forms).filter(|t| !t.is_empty()) {
                texts.push(text);
                marks.push((is_masked(f), f.mask.clone()));
            }
        }
        let finder = AhoCorasick::builder().match_kind(MatchKind::LeftmostLongest).build(&texts).ok()?;
        Some(Highlights { finder, marks })
    }

    /// Each finding in `text`: its range, whether it is masked, and its mask.
    pub fn ranges<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (Range<usize>, bool, &'a str)> + 'a {
        self.finder.find_iter(text).map(|m| {
            let (masked, mask) = &self.marks[m.pattern().as_usize()];
            (m.range(), *masked, mask.as_str())
        })
    }
}

/// The row of `ws` that shows line `line` (from 1) of the file named `file`: the item of that
/// line or whose result it is, else the last item before it in the same file. As (session,
/// thread, item).
pub fn row_of(ws: &Workspace, file: &str, line: u32) -> Option<(usize, ThreadRef, u32)> {
    let index = ws.files.iter().position(|f| f.name == file)? as u32;
    let target = LineRef { file: index, line: line.checked_sub(1)? };
    let mut before = None;
    for (s, session) in ws.sessions.iter().enumerate() {
        for (thread_ref, thread) in session.threads() {
            for (i, item) in thread.items.iter().enumerate() {
                let result = match &item.kind {
                    ItemKind::ToolCall(call) => call.result.map(|r| r.line),
                    _ => None,
                };
                if item.line == target || result == Some(target) {
                    return Some((s, thread_ref, i as u32));
                }
                if item.line.file == target.file && item.line.line < target.line {
                    before = Some((s, thread_ref, i as u32));
                }
            }
        }
    }
    before
}
