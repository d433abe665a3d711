//! A session exported as Markdown, on real fixtures: one heading per turn, what the options ask
//! for and nothing else, edits as diffs, and transcript text that cannot become markup.

mod common;

use cctv::export::to_markdown::{session, MarkdownOptions};
use cctv::normalize::{normalize, Input};
use common::workspace;
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

/// The headings of `markdown` as a Markdown library reads them: (level, text).
fn headings(markdown: &str) -> Vec<(HeadingLevel, String)> {
    let mut out = Vec::new();
    let mut open: Option<(HeadingLevel, String)> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => open = Some((level, String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text)) = &mut open {
                    text.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => out.extend(open.take()),
            _ => {}
        }
    }
    out
}

#[test]
fn a_session_reads_as_a_title_and_a_heading_per_turn() {
    let ws = normalize(common::folder("moredip__session-share/samples/claude-code-projects"));
    let s = &ws.sessions[0];
    let md = session(&ws, s, MarkdownOptions::default(), None);
    let found = headings(&md);
    assert_eq!(found[0].0, HeadingLevel::H1);
    let turns: Vec<_> = found.iter().filter(|(l, _)| *l == HeadingLevel::H2).collect();
    assert_eq!(turns.len(), s.thread.turn_starts().len());
    assert!(turns[0].1.starts_with("1. "), "{turns:?}");
    let typed = s.thread.items.iter().filter(|i| i.is_typed_prompt()).count();
    assert_eq!(md.matches("**You:**").count() + md.matches("**You ran:**").count(), typed);
    // Sub-agents only when asked, folded under their call, with their own tool calls.
    assert!(!md.contains("Sub-agent:"));
    let with = session(&ws, s, MarkdownOptions { sub_agents: true, ..MarkdownOptions::default() }, None);
    let folded = &with[with.find("<details><summary>Sub-agent:").expect("a sub-agent")..];
    assert!(folded.contains("**WebSearch**"), "{folded}");
    // Tool output is folded unless left out.
    assert!(md.contains("<details><summary>output</summary>"));
    let bare = session(&ws, s, MarkdownOptions { tool_output: false, ..MarkdownOptions::default() }, None);
    assert!(
        !bare.contains("<summary>output</summary>")
            && bare.contains("**WebSearch**") == md.contains("**WebSearch**")
    );
    // A range of turns: just those, numbered as in the whole.
    let second = session(&ws, s, MarkdownOptions::default(), Some(1..2));
    let h2: Vec<_> = headings(&second).into_iter().filter(|(l, _)| *l == HeadingLevel::H2).collect();
    assert_eq!(h2.len(), 1);
    assert_eq!(h2[0].1, turns[1].1);
}

#[test]
fn edits_are_diff_blocks_and_thinking_only_when_asked() {
    let ws =
        workspace("moredip__session-share/session-viewer/test/INTEGRATION/fixtures/edit-tool-variants.jsonl");
    let md = session(&ws, &ws.sessions[0], MarkdownOptions::default(), None);
    let diff = &md[md.find("```diff\n").expect("a diff block")..];
    let body: Vec<&str> = diff.lines().skip(1).take_while(|l| !l.starts_with("```")).collect();
    assert!(body.iter().any(|l| l.starts_with('+')) && body.iter().any(|l| l.starts_with('-')), "{body:?}");
    assert!(body.iter().all(|l| l.starts_with(['+', '-', ' ', '@'])), "{body:?}");

    let ws =
        workspace("moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");
    let s = &ws.sessions[0];
    assert!(!session(&ws, s, MarkdownOptions::default(), None).contains("<summary>Thinking</summary>"));
    let thinking = session(&ws, s, MarkdownOptions { thinking: true, ..MarkdownOptions::default() }, None);
    assert!(thinking.contains("<details><summary>Thinking</summary>"));
}

#[test]
fn what_the_person_typed_cannot_become_markup() {
    let line = |uuid: &str, parent: &str, content: &str| {
        format!(
            r#"{{"type":"user","uuid":"{uuid}","parentUuid":{parent},"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{{"role":"user","content":{}}}}}"#,
            serde_json::to_string(content).unwrap()
        )
    };
    let hostile = "# not a heading </details><script>alert(1)</script> *x* [a](javascript:b)";
    let bytes = [line("u1", "null", hostile), line("u2", "\"u1\"", "ok")].join("\n");
    let ws = normalize(vec![Input { name: "h.jsonl".into(), bytes: bytes.into_bytes() }]);
    let md = session(&ws, &ws.sessions[0], MarkdownOptions::default(), None);
    let found = headings(&md);
    assert_eq!(found.len(), 3, "{md}");
    assert!(
        found[1].1.contains("# not a heading </details><script>"),
        "the heading keeps the text as text: {found:?}"
    );
    for event in Parser::new(&md) {
        assert!(
            !matches!(event, Event::Html(_) | Event::InlineHtml(_)) || !event_text(&event).contains("script"),
            "{event:?}"
        );
        assert!(!matches!(event, Event::Start(Tag::Link { .. })), "{event:?}");
    }
}

fn event_text(event: &Event) -> String {
    match event {
        Event::Html(t) | Event::InlineHtml(t) => t.to_string(),
        _ => String::new(),
    }
}

#[test]
fn an_export_masks_what_is_certain_unless_the_caller_keeps_it() {
    use cctv::export::share::{markdown, ShareOptions};
    let name = "M-Thisness__M-Claude/Archives/abc757d1-3da3-42fb-bb7b-ffa293a4ba29.jsonl";
    let inputs = vec![Input { name: "s.jsonl".into(), bytes: common::fixture(name) }];
    // A Stripe test key a person pasted, and the home directory in its paths.
    let key = "sk_test_EXAMPLE1234567890";
    assert!(String::from_utf8_lossy(&inputs[0].bytes).contains(key));
    let shared = markdown(inputs.clone(), &ShareOptions::default()).unwrap();
    assert!(!shared.text.contains(key) && shared.text.contains("[REDACTED stripe-access-token]"));
    let homes: Vec<&str> = shared
        .findings
        .iter()
        .filter(|f| f.kind == cctv::redact::Kind::HomeDirectory)
        .map(|f| f.text.as_str())
        .collect();
    assert!(!homes.is_empty() && homes.iter().all(|h| !shared.text.contains(h)), "{homes:?} masked");
    assert!(
        shared.masked >= 3 && shared.findings.iter().any(|f| !f.certain),
        "candidates are listed, not masked"
    );
    let keep = ShareOptions { keep: vec!["stripe-access-token".into()], ..ShareOptions::default() };
    let kept = markdown(inputs, &keep).unwrap();
    assert!(kept.text.contains(key) && homes.iter().all(|h| !kept.text.contains(h)));
}
