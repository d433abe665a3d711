//! Transcript text made inert before it joins a Markdown export. Claude's Markdown is rewritten
//! until a CommonMark parser with GitHub's extensions finds in it no raw HTML (an `<img>`, a
//! `</details>` that would close the export's own fold, an `<!--` that hides the rest), no link
//! or image to anything but http(s) or mail (`javascript:`, `data:`), and no heading at the
//! levels of the export's title and turns (a setext `===` or `---` underline); each line ending
//! is one `\n` (a lone `\r` ends a line for CommonMark, not for Rust's `lines`); and bidi controls
//! are written as what they are, so none can reorder the export's text around them.

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag};

/// What GitHub's Markdown reads beyond CommonMark.
pub fn github() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
}

/// `text` with `\r\n` and a lone `\r` as `\n`.
pub(crate) fn unix_lines(text: &str) -> String {
    match text.contains('\r') {
        true => text.replace("\r\n", "\n").replace('\r', "\n"),
        false => text.to_owned(),
    }
}

/// Whether `c` changes the direction of the text after it (Trojan Source's characters).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `text` with each bidi control written as its code point (`‹U+202E›`), in prose and in code
/// alike: a reader sees that it is there, and what follows it keeps its order.
pub(crate) fn visible_controls(text: &str) -> String {
    if !text.chars().any(is_bidi_control) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| match is_bidi_control(c) {
            true => format!("\u{2039}U+{:04X}\u{203A}", c as u32),
            false => c.to_string(),
        })
        .collect()
}

/// Whether a link's destination may stay a link: http(s), mail, or a place on the same page or
/// site. Browsers drop tabs, line breaks and controls from a URL and read its scheme in any case,
/// and so does this.
pub fn safe_destination(dest: &str) -> bool {
    let dest: String = dest.chars().filter(|c| !c.is_ascii_whitespace() && !c.is_control()).collect();
    let dest = dest.to_ascii_lowercase();
    let scheme = dest.find(':').filter(|&colon| {
        dest[..colon]
            .chars()
            .enumerate()
            .all(|(i, c)| c.is_ascii_alphabetic() || (i > 0 && "+.-0123456789".contains(c)))
    });
    match scheme {
        None => true,
        Some(colon) => ["http", "https", "mailto"].contains(&&dest[..colon]),
    }
}

/// One rewrite of Markdown source.
enum Fix {
    /// Every `<` in the range as `&lt;`.
    Escape,
    /// The range as inline code (a link shown as the text it is).
    Code,
    /// A `\` before the range (a heading's `#` or underline, read as text).
    Backslash,
}

/// Claude's Markdown as it may join an export (see the module).
pub fn markdown(text: &str) -> String {
    let mut text = unix_lines(text);
    // Each round fixes what a parse finds; a fix can only take markup away, so a few rounds
    // settle. A text that has not settled by then is shown as a code block.
    for _ in 0..8 {
        let fixes = fixes(&text);
        if fixes.is_empty() {
            return text;
        }
        text = apply(&text, fixes);
    }
    let fence = "`".repeat(longest_backticks(&text).max(2) + 1);
    format!("{fence}\n{text}\n{fence}")
}

fn fixes(text: &str) -> Vec<(Range<usize>, Fix)> {
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(text, github()).into_offset_iter() {
        match event {
            Event::Html(_) | Event::InlineHtml(_) => out.push((range, Fix::Escape)),
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. })
                if !safe_destination(&dest_url) =>
            {
                out.push((range, Fix::Code))
            }
            Event::Start(Tag::Heading { level: HeadingLevel::H1 | HeadingLevel::H2, .. }) => {
                let source = &text[range.clone()];
                let at = match source.trim_start().starts_with('#') {
                    // An ATX heading: its first `#`.
                    true => source.find('#'),
                    // A setext heading: the first `=` or `-` of its underline, its last line.
                    false => {
                        let last = source.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
                        source[last..].find(['=', '-']).map(|i| last + i)
                    }
                };
                if let Some(at) = at {
                    out.push((range.start + at..range.start + at + 1, Fix::Backslash));
                }
            }
            _ => {}
        }
    }
    out
}

fn apply(text: &str, mut fixes: Vec<(Range<usize>, Fix)>) -> String {
    fixes.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
    let mut out = String::with_capacity(text.len() + 16);
    let mut copied = 0;
    for (range, fix) in fixes {
        // A fix inside one already made (an image inside a link) goes with it.
        if range.start < copied {
            continue;
        }
        out.push_str(&text[copied..range.start]);
        let part = &text[range.clone()];
        match fix {
            Fix::Escape => out.push_str(&part.replace('<', "&lt;")),
            Fix::Code => out.push_str(&inline_code(part)),
            Fix::Backslash => {
                out.push('\\');
                out.push_str(part);
            }
        }
        copied = range.end;
    }
    out.push_str(&text[copied..]);
    out
}

/// `text` on one line as inline code, with enough backticks around it that none inside ends it.
pub(crate) fn inline_code(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let ticks = "`".repeat(longest_backticks(&flat) + 1);
    let pad = if flat.starts_with('`') || flat.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{flat}{pad}{ticks}")
}

pub(crate) fn longest_backticks(text: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_bad_links_and_high_headings_are_taken_apart() {
        assert_eq!(markdown("a ` <img src=x onerror=alert(1)>"), "a ` &lt;img src=x onerror=alert(1)>");
        assert_eq!(markdown("x `a\nb` <b>c</b>"), "x `a\nb` &lt;b>c&lt;/b>");
        assert_eq!(
            markdown("[click](javascript:alert(1)) and [ok](https://a.b)"),
            "`[click](javascript:alert(1))` and [ok](https://a.b)"
        );
        assert_eq!(markdown("[x]\n\n[x]: JaVaScRiPt:alert(1)"), "`[x]`\n\n[x]: JaVaScRiPt:alert(1)");
        assert_eq!(markdown("![a](data:image/png;base64,AAAA)"), "`![a](data:image/png;base64,AAAA)`");
        assert_eq!(markdown("Turn 2\n===\n\n> quoted\n> ---"), "Turn 2\n\\===\n\n> quoted\n> \\---");
        assert_eq!(markdown("line\rone\r\ntwo"), "line\none\ntwo");
        assert_eq!(visible_controls("a\u{202E}b"), "a\u{2039}U+202E\u{203A}b");
        assert!(safe_destination("/relative#x") && safe_destination("mailto:a@b.c"));
        assert!(!safe_destination(" java\nscript:x") && !safe_destination("vbscript:x"));
    }
}
