//! Properties that must hold for any input: no panic, every line accounted for, stable ids.

#![cfg(not(target_arch = "wasm32"))]

use cctv::model;
use cctv::normalize::{self, ids, Input};
use proptest::prelude::*;

/// Lines that look like transcripts, with random ids, parents, types and damage.
fn transcript_line() -> impl Strategy<Value = String> {
    let id = prop_oneof![Just("a".to_string()), Just("b".to_string()), Just("c".to_string()), "[a-f]{1,3}"];
    let kind = prop_oneof![
        Just("user"),
        Just("assistant"),
        Just("system"),
        Just("progress"),
        Just("attachment"),
        Just("summary"),
        Just("tombstone"),
        Just("queue-operation"),
        Just("who-knows"),
    ];
    let content = prop_oneof![
        Just(r#""hi""#.to_string()),
        Just(r#"[{"type":"text","text":"x\ny"}]"#.to_string()),
        Just(r#"[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]"#.to_string()),
        Just(r#"[{"type":"tool_result","tool_use_id":"t1","content":"out"}]"#.to_string()),
        Just(r#"[{"type":"tool_use","id":"t2","name":"Task","input":{}}]"#.to_string()),
        Just("5".to_string()),
        Just("[null,\"s\",{}]".to_string()),
    ];
    (kind, id.clone(), proptest::option::of(id.clone()), content, proptest::option::of(id), any::<bool>(), 0usize..4)
        .prop_map(|(kind, uuid, parent, content, logical, sidechain, damage)| {
            let parent = parent.map_or("null".into(), |p| format!("\"{p}\""));
            let logical = logical.map_or(String::new(), |l| format!(r#","logicalParentUuid":"{l}""#));
            let line = format!(
                r#"{{"type":"{kind}","uuid":"{uuid}","parentUuid":{parent}{logical},"isSidechain":{sidechain},"sessionId":"s","subtype":"compact_boundary","data":{{"type":"bash_progress"}},"parentToolUseID":"t1","toolUseID":"t1","attachment":{{"type":"hook_success","toolUseID":"t1","hookEvent":"PreToolUse"}},"leafUuid":"{uuid}","message":{{"id":"m","uuid":"{uuid}","content":{content}}}}}"#
            );
            match damage {
                0 => line[..line.len() / 2].to_string(),
                1 => line.replace("\"type\"", "\"typ\\u0065\""),
                _ => line,
            }
        })
}

fn session(lines: &[String]) -> Vec<Input> {
    vec![Input { name: "s.jsonl".into(), bytes: lines.join("\n").into_bytes() }]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_parse_into_one_item_per_line_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
        let lines = model::parse(&bytes);
        prop_assert_eq!(lines.len(), model::SplitLines::new(&bytes).count());
        let ws = normalize::normalize(vec![Input { name: "x.jsonl".into(), bytes }]);
        for s in &ws.sessions {
            prop_assert_eq!(s.accounting.rendered + s.accounting.merged + s.accounting.not_shown_total(), s.accounting.lines);
        }
    }

    #[test]
    fn transcript_like_lines_are_always_fully_accounted_for(lines in proptest::collection::vec(transcript_line(), 0..40)) {
        let ws = normalize::normalize(session(&lines));
        let accounted: u64 = ws.sessions.iter().map(|s| s.accounting.lines).sum();
        let rejected = ws.rejected.len();
        prop_assert!(accounted as usize == lines.len() || (rejected == 1 && ws.sessions.is_empty()));
        for s in &ws.sessions {
            let a = &s.accounting;
            prop_assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines);
            prop_assert!(!a.not_shown.contains_key(&cctv::normalize::NotShown::Unplaced), "{:?}", a);
        }
    }

    #[test]
    fn normalizing_the_same_input_twice_gives_identical_ids(lines in proptest::collection::vec(transcript_line(), 0..30)) {
        let ids_of = |ws: &normalize::Workspace| -> Vec<String> {
            ws.sessions
                .iter()
                .flat_map(|s| std::iter::once(&s.thread).chain(s.branches.iter().map(|b| &b.thread)).chain(s.agents.iter().map(|a| &a.thread)))
                .flat_map(|t| t.items.iter())
                .map(|item| ids::item_id(ws, item))
                .collect()
        };
        let first = normalize::normalize(session(&lines));
        let second = normalize::normalize(session(&lines));
        prop_assert_eq!(ids_of(&first), ids_of(&second));
    }
}

/// Text made of the pieces Markdown reads as markup (HTML, fences, code spans, headings and their
/// underlines, links and their schemes, line endings of every kind), in any order.
fn markdownish() -> impl Strategy<Value = String> {
    let pieces = [
        "<",
        ">",
        "`",
        "``",
        "```",
        "~~~",
        "\n",
        "\r",
        "\r\n",
        "\n\n",
        "#",
        "## ",
        "===",
        "---",
        "[",
        "]",
        "(",
        ")",
        "![",
        "](",
        "]: ",
        "javascript:",
        "JaVa\tscript:",
        "data:",
        "jav&#x61;script:",
        "https://a.b",
        "<img src=x>",
        "</details>",
        "<details>",
        "<!--",
        "-->",
        "<a href=",
        "&#60;",
        " ",
        "    ",
        "a",
        "x y",
        "> ",
        "|",
        "*",
        "_",
        "\\",
        "[^1]",
        "1. ",
        "- ",
    ];
    proptest::collection::vec(proptest::sample::select(pieces.to_vec()), 0..40).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Whatever Claude writes, once inert a CommonMark parser with GitHub's extensions reads in it
    /// no raw HTML, no link or image to a script or data, and no heading at the export's title's
    /// or turns' level.
    #[test]
    fn inert_markdown_opens_no_html_links_no_script_and_forges_no_turn(text in markdownish()) {
        use cctv::export::inert;
        use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};
        let made = inert::markdown(&text);
        for event in Parser::new_ext(&made, inert::github()) {
            match event {
                Event::Html(h) | Event::InlineHtml(h) => prop_assert!(false, "HTML {:?} in {:?}", h, made),
                Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                    prop_assert!(inert::safe_destination(&dest_url), "{:?} in {:?}", dest_url, made)
                }
                Event::Start(Tag::Heading { level: HeadingLevel::H1 | HeadingLevel::H2, .. }) => {
                    prop_assert!(false, "a heading in {:?}", made)
                }
                _ => {}
            }
        }
    }

    /// A value in a JSON string, with any text around it and any escapes, is gone from what the
    /// masked string says, and the line is still JSON.
    #[test]
    fn a_masked_value_is_gone_from_a_string_however_it_is_escaped(
        around in proptest::collection::vec(proptest::sample::select(vec!["a", " ", "\n", "%", "/", "\"", "\\", "é", "=", "x1"]), 0..12),
        escape_every in 1usize..4,
    ) {
        use cctv::redact::{mask, Finding, Kind};
        let value = "Secret2Value9Zq/Ab";
        let at = around.len() / 2;
        let text = format!("{}{value}{}", around[..at].concat(), around[at..].concat());
        // The value's characters written as `\uXXXX`, every `escape_every`-th of them.
        let mut raw = serde_json::to_string(&text).unwrap();
        let plain = serde_json::to_string(value).unwrap();
        let escaped: String = value
            .chars()
            .enumerate()
            .map(|(i, c)| if i % escape_every == 0 { format!("\\u{:04x}", c as u32) } else if c == '/' { "\\/".into() } else { c.to_string() })
            .collect();
        raw = raw.replacen(&plain[1..plain.len() - 1], &escaped, 1);
        let line = format!("{{\"k\":{raw}}}");
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        prop_assert_eq!(parsed["k"].as_str(), Some(text.as_str()));
        let finding = Finding {
            kind: Kind::Pattern, label: String::new(), rule: None, text: value.into(), certain: true, count: 1,
            file: String::new(), line: 1, before: String::new(), after: String::new(), mask: "[*]".into(), forms: vec![],
        };
        let input = Input { name: "s.jsonl".into(), bytes: line.clone().into_bytes() };
        let masked = mask(&[input], &[&finding]);
        let out = String::from_utf8(masked[0].bytes.clone()).unwrap();
        let said = serde_json::from_str::<serde_json::Value>(&out).map_err(|e| TestCaseError::fail(format!("{e}: {out}")))?;
        prop_assert!(!said["k"].as_str().unwrap().contains(value), "{} -> {}", line, out);
    }
}
