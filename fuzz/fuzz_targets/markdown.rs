//! Any bytes as a session, exported as Markdown with everything in it, and as text made inert:
//! neither panics, the export holds no bidi control, and inert text holds nothing a parser reads
//! as HTML, a link to a script, or a heading at the export's title's or turns' level.
#![no_main]

use cctv::export::inert;
use cctv::export::to_markdown::{session, MarkdownOptions};
use cctv::normalize::{self, Input};
use libfuzzer_sys::fuzz_target;
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};

fuzz_target!(|bytes: &[u8]| {
    let ws = normalize::normalize(vec![Input { name: "s.jsonl".into(), bytes: bytes.to_vec() }]);
    let everything = MarkdownOptions { thinking: true, tool_output: true, sub_agents: true, system_events: true };
    for s in &ws.sessions {
        let md = session(&ws, s, everything, None);
        assert!(!md.chars().any(|c| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')));
    }
    let text = String::from_utf8_lossy(bytes);
    let made = inert::markdown(&text);
    for event in Parser::new_ext(&made, inert::github()) {
        match event {
            Event::Html(h) | Event::InlineHtml(h) => panic!("HTML {h:?} in {made:?}"),
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                assert!(inert::safe_destination(&dest_url), "{dest_url:?} in {made:?}")
            }
            Event::Start(Tag::Heading { level: HeadingLevel::H1 | HeadingLevel::H2, .. }) => {
                panic!("a heading in {made:?}")
            }
            _ => {}
        }
    }
});
