//! Bad input, one case each: the reason given, and that the lines after it still parse.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::model::{self, body, BlockKind, Content, EntryKind, Invalid, Line, SystemSubtype};

const USER: &str =
    r#"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"hello"}}"#;
const ASSISTANT: &str = r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"hi"}]}}"#;

fn uuid(line: &Line, src: &[u8]) -> Option<String> {
    line.entry()?.envelope.uuid.map(|u| u.decode(src).into_owned())
}

/// Parses `bad` between two good lines and returns the bad line's reason.
fn between_good_lines(bad: &[u8]) -> Invalid {
    let mut bytes = format!("{USER}\n").into_bytes();
    bytes.extend_from_slice(bad);
    bytes.extend_from_slice(format!("\n{ASSISTANT}\n").as_bytes());
    let lines = model::parse(&bytes);
    assert_eq!(lines.len(), 3);
    assert_eq!(uuid(&lines[0], &bytes).as_deref(), Some("u1"));
    assert_eq!(lines[1].number, 2);
    assert_eq!(uuid(&lines[2], &bytes).as_deref(), Some("a1"), "the line after the bad one still parses");
    lines[1].invalid().cloned().expect("the bad line is reported invalid")
}

#[test]
fn a_byte_order_mark_before_the_first_line_is_skipped() {
    let bytes = format!("\u{feff}{USER}\n{ASSISTANT}").into_bytes();
    let lines = model::parse(&bytes);
    assert_eq!(lines.len(), 2);
    assert_eq!(uuid(&lines[0], &bytes).as_deref(), Some("u1"));
    assert_eq!(lines[0].span.start, 3);
}

#[test]
fn crlf_line_breaks_are_not_part_of_the_line() {
    let bytes = format!("{USER}\r\n{ASSISTANT}\r\n").into_bytes();
    let lines = model::parse(&bytes);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.entry().is_some()));
    assert!(!lines[0].raw(&bytes).ends_with('\r'));
}

#[test]
fn a_blank_line_is_reported_as_blank() {
    assert_eq!(between_good_lines(b"   \t"), Invalid::Blank);
    assert_eq!(between_good_lines(b""), Invalid::Blank);
}

#[test]
fn a_comment_line_is_reported_as_a_comment() {
    assert_eq!(between_good_lines(b"// Source: a gist"), Invalid::Comment);
}

#[test]
fn a_final_line_without_a_newline_still_parses() {
    let bytes = format!("{USER}\n{ASSISTANT}").into_bytes();
    let lines = model::parse(&bytes);
    assert_eq!(lines.len(), 2);
    assert_eq!(uuid(&lines[1], &bytes).as_deref(), Some("a1"));
}

#[test]
fn a_final_line_cut_mid_value_is_truncated_and_the_rest_loads() {
    let cut = &ASSISTANT[..ASSISTANT.len() / 2];
    let bytes = format!("{USER}\n{ASSISTANT}\n{cut}").into_bytes();
    let lines = model::parse(&bytes);
    assert_eq!(lines.len(), 3);
    assert!(lines[..2].iter().all(|l| l.entry().is_some()));
    let invalid = lines[2].invalid().unwrap();
    assert_eq!(invalid, &Invalid::Truncated { last_line: true });
    assert!(invalid.reason().contains("being written"), "{}", invalid.reason());
}

#[test]
fn a_line_cut_mid_value_in_the_middle_of_a_file_is_truncated() {
    let cut = &USER[..40];
    assert_eq!(between_good_lines(cut.as_bytes()), Invalid::Truncated { last_line: false });
}

#[test]
fn a_line_of_several_megabytes_parses_and_keeps_its_image_as_a_span() {
    let data = "QUJD".repeat(1_500_000); // 6 MB of base64
    let big = format!(
        r#"{{"type":"user","uuid":"big","message":{{"role":"user","content":[{{"type":"image","source":{{"type":"base64","media_type":"image/png","data":"{data}"}}}}]}}}}"#
    );
    let bytes = format!("{USER}\n{big}\n{ASSISTANT}\n").into_bytes();
    let lines = model::parse(&bytes);
    assert_eq!(lines.len(), 3);
    assert_eq!(uuid(&lines[2], &bytes).as_deref(), Some("a1"));
    let EntryKind::User(user) = &lines[1].entry().unwrap().kind else { panic!("user") };
    let BlockKind::Image { source: Some(source) } = user.message.content.blocks()[0].kind else {
        panic!("image")
    };
    assert!(source.len() > 6_000_000);
    match body::image_source(&bytes, source) {
        body::ImageSource::Base64 { media_type, data: decoded } => {
            assert_eq!(media_type, "image/png");
            assert_eq!(decoded.len(), data.len());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn invalid_utf8_inside_a_string_is_reported_with_its_column() {
    let mut bad = br#"{"type":"user","uuid":"x","message":{"content":"caf"#.to_vec();
    let column = bad.len() as u32 + 1;
    bad.extend_from_slice(b"\xE9\"}}");
    assert_eq!(between_good_lines(&bad), Invalid::InvalidUtf8 { column });
}

#[test]
fn json_nested_past_the_depth_limit_is_reported_not_overflowed() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(between_good_lines(deep.as_bytes()), Invalid::TooDeep);
}

#[test]
fn a_deeply_nested_body_stays_raw_and_the_entry_is_kept() {
    // Bodies are skipped, not built, when indexing, so depth inside them costs nothing; building
    // a value of them for display is refused with a message instead of overflowing the stack.
    let deep = format!(
        r#"{{"type":"user","uuid":"d","message":{{"content":"x"}},"toolUseResult":{}{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let lines = model::parse(deep.as_bytes());
    let EntryKind::User(user) = &lines[0].entry().unwrap().kind else { panic!() };
    let error = body::value(deep.as_bytes(), user.tool_use_result.unwrap()).unwrap_err();
    assert!(error.contains("recursion limit"), "{error}");
}

#[test]
fn json_that_is_not_an_object_says_what_it_is() {
    assert_eq!(between_good_lines(b"42"), Invalid::NotObject { found: "number" });
    assert_eq!(between_good_lines(b"\"massive error\""), Invalid::NotObject { found: "string" });
    assert_eq!(between_good_lines(b"[1]"), Invalid::NotObject { found: "array" });
}

#[test]
fn text_that_is_not_json_says_where_it_broke() {
    let Invalid::NotJson { message } = between_good_lines(b"{\"type\": user}") else { panic!() };
    assert!(message.contains("column"), "{message}");
    let Invalid::NotJson { .. } = between_good_lines(b"hello") else { panic!() };
}

#[test]
fn an_unknown_type_is_kept_whole() {
    let line = br#"{"type":"brand-new-thing","uuid":"n1","payload":{"a":[1,2]}}"#;
    let lines = model::parse(line);
    let entry = lines[0].entry().unwrap();
    assert_eq!(entry.kind, EntryKind::Unknown);
    assert_eq!(entry.envelope.uuid.unwrap().decode(line), "n1");
    let kept = body::line_value(line, &lines[0]).unwrap();
    assert_eq!(kept["payload"]["a"][1], 2);
}

#[test]
fn an_unknown_type_with_odd_field_shapes_is_still_unknown_not_malformed() {
    let line = br#"{"type":"brand-new-thing","uuid":7,"isMeta":"yes"}"#;
    let lines = model::parse(line);
    assert_eq!(lines[0].entry().unwrap().kind, EntryKind::Unknown);
}

#[test]
fn a_known_type_that_does_not_fit_keeps_its_envelope_and_the_typed_error() {
    let line = br#"{"type":"assistant","uuid":"a9","parentUuid":"u1","isSidechain":true,"message":{"content":[{"type":"text","text":"x"}],"usage":"lots"}}"#;
    let lines = model::parse(line);
    let entry = lines[0].entry().unwrap();
    let EntryKind::Malformed { error } = &entry.kind else { panic!("{:?}", entry.kind) };
    assert!(error.contains("invalid type: string \"lots\""), "{error}");
    assert_eq!(entry.envelope.uuid.unwrap().decode(line), "a9");
    assert_eq!(entry.envelope.parent_uuid.unwrap().decode(line), "u1");
    assert!(entry.envelope.is_sidechain);
}

#[test]
fn escaped_prompt_text_is_located_and_decoded() {
    let line = br#"{"type":"user","uuid":"u","message":{"role":"user","content":"line one\nline \"two\""}}"#;
    let lines = model::parse(line);
    let EntryKind::User(user) = &lines[0].entry().unwrap().kind else { panic!() };
    let Content::Text(text) = user.message.content else { panic!() };
    assert_eq!(text.decode(line), "line one\nline \"two\"");
}

#[test]
fn a_content_list_mixing_bare_strings_and_blocks_keeps_both() {
    let line = br#"{"type":"user","uuid":"u","message":{"content":["plain",{"type":"text","text":"a\tb"},"esc\"aped",{"type":"hologram","x":1},5]}}"#;
    let lines = model::parse(line);
    let EntryKind::User(user) = &lines[0].entry().unwrap().kind else { panic!() };
    let blocks = user.message.content.blocks();
    assert_eq!(blocks.len(), 5);
    let text = |i: usize| match blocks[i].kind {
        BlockKind::Text { text } => text.decode(line).into_owned(),
        ref other => panic!("{other:?}"),
    };
    assert_eq!(text(0), "plain");
    assert_eq!(text(1), "a\tb");
    assert_eq!(text(2), "esc\"aped");
    let BlockKind::Unknown { type_name: Some(name) } = blocks[3].kind else { panic!() };
    assert_eq!(name.decode(line), "hologram");
    assert_eq!(blocks[4].kind, BlockKind::Unknown { type_name: None });
}

#[test]
fn every_block_kind_is_typed() {
    let line = br#"{"type":"assistant","uuid":"a","message":{"id":"m","content":[
        {"type":"thinking","thinking":"hmm","signature":"s"},
        {"type":"redacted_thinking","data":"xxx"},
        {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"q"}},
        {"type":"document","source":{"type":"text","media_type":"text/plain","data":"d"},"title":"T"},
        {"type":"text","text":5}]}}"#
        .iter()
        .copied()
        .filter(|&b| b != b'\n')
        .collect::<Vec<u8>>();
    let lines = model::parse(&line);
    let EntryKind::Assistant(a) = &lines[0].entry().unwrap().kind else { panic!("{:?}", lines[0]) };
    let kinds: Vec<_> = a.message.content.blocks().iter().map(|b| &b.kind).collect();
    assert!(matches!(kinds[0], BlockKind::Thinking { .. }));
    assert_eq!(kinds[1], &BlockKind::RedactedThinking);
    let BlockKind::ServerToolUse(tool) = kinds[2] else { panic!() };
    assert_eq!(tool.name.unwrap().decode(&line), "web_search");
    let BlockKind::Document { title: Some(title), .. } = kinds[3] else { panic!() };
    assert_eq!(title.decode(&line), "T");
    let BlockKind::Malformed { error, .. } = kinds[4] else { panic!() };
    assert!(error.contains("string `text`"));
}

#[test]
fn small_entry_types_from_the_seeds_are_typed() {
    let text = [
        r#"{"type":"pr-link","sessionId":"s","prNumber":3,"prUrl":"https://github.com/o/r/pull/3","prRepository":"o/r"}"#,
        r#"{"type":"tombstone","message":{"type":"assistant","uuid":"gone-1","message":{"content":[]}}}"#,
        r#"{"type":"ai-title","aiTitle":"Fix the parser","sessionId":"s"}"#,
        r#"{"type":"custom-title","customTitle":"Mine","sessionId":"s"}"#,
        r#"{"type":"agent-name","agentName":"explorer","sessionId":"s"}"#,
        r#"{"type":"mode","mode":"plan","sessionId":"s"}"#,
        r#"{"type":"system","subtype":"quantum_event","content":"?","uuid":"q"}"#,
        r#"{"type":"system","subtype":"compact_boundary","parentUuid":null,"logicalParentUuid":"p","compactMetadata":{"trigger":"manual","preTokens":1000}}"#,
        r#"{"type":"progress","data":{"type":"agent_progress","agentId":"a1","message":{"type":"user"}},"parentToolUseID":"toolu_1"}"#,
    ]
    .join("\n");
    let src = text.as_bytes();
    let lines = model::parse(src);
    let kinds: Vec<_> = lines.iter().map(|l| &l.entry().unwrap().kind).collect();
    let EntryKind::PrLink(pr) = kinds[0] else { panic!() };
    assert_eq!(pr.number, Some(3));
    let EntryKind::Tombstone(t) = kinds[1] else { panic!() };
    assert_eq!(t.target.unwrap().decode(src), "gone-1");
    for (i, value) in [(2, "Fix the parser"), (3, "Mine"), (4, "explorer"), (5, "plan")] {
        let EntryKind::Metadata(m) = kinds[i] else { panic!() };
        assert_eq!(m.value.unwrap().decode(src), value);
    }
    let EntryKind::System(s) = kinds[6] else { panic!() };
    assert_eq!(s.subtype.name(src), "quantum_event");
    assert!(matches!(s.subtype, SystemSubtype::Unknown(_)));
    let EntryKind::System(s) = kinds[7] else { panic!() };
    assert_eq!(s.subtype, SystemSubtype::CompactBoundary);
    assert_eq!(s.compact.as_ref().unwrap().pre_tokens, Some(1000));
    let EntryKind::Progress(p) = kinds[8] else { panic!() };
    assert_eq!(p.kind.name(src), "agent_progress");
    assert_eq!(p.agent_id.unwrap().decode(src), "a1");
    assert_eq!(p.parent_tool_use_id.unwrap().decode(src), "toolu_1");
}

#[test]
fn nothing_in_a_random_byte_soup_panics_and_every_line_is_accounted() {
    // A tiny deterministic generator: no dependency needed for a smoke check (fuzzing is its own job).
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"{}[]\":,\\ntrufalse0123456789 \n\r\xff\xc3\xa9/";
    for _ in 0..2_000 {
        let len = (next() % 200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
        let lines = model::parse(&bytes);
        let expected = model::SplitLines::new(&bytes).count();
        assert_eq!(lines.len(), expected);
    }
}

#[test]
fn parsing_in_steps_gives_the_same_lines_as_parsing_at_once() {
    let bytes = common::fixture(
        "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
    );
    let at_once = model::parse(&bytes);
    for budget in [1, 100, 4096, 1 << 20] {
        let mut split = model::SplitLines::new(&bytes);
        let mut lines = Vec::new();
        let mut steps = 0;
        while !model::parse_step(&bytes, &mut split, budget, &mut lines) {
            steps += 1;
        }
        assert_eq!(lines, at_once, "budget {budget}");
        assert!(budget >= bytes.len() || steps > 0);
    }
}
