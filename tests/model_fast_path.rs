//! The fast deserializer (`model::scan`, `model::deserializer`) against serde_json: on every line
//! it reads, it must give the very entry serde_json gives, and it must read every well-formed line
//! of the real transcripts (or it would be a slow path with extra steps).
//!
//! The crafted lines also run in Chromium (`wasm-pack test`), where strings are scanned with wasm
//! SIMD instead of the SSE2 of native x86-64 builds.

use cctv::model::read_both_ways;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(not(target_arch = "wasm32"))]
mod common;

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_fixture_line_reads_the_same_both_ways_and_the_fast_way_reads_all_well_formed_ones() {
    use cctv::model::{EntryKind, SplitLines};
    use common::{fixture, fixture_files};

    let (mut read, mut left) = (0, Vec::new());
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let bytes = fixture(&name);
        for (number, span, _) in SplitLines::new(&bytes) {
            let Ok(line) = std::str::from_utf8(span.bytes(&bytes)) else { continue };
            if !line.trim_start().starts_with('{') {
                continue; // never read as an entry: `parse` reports it as not an object
            }
            let (fast, reference) = read_both_ways(line);
            match (fast, &reference) {
                (Some(fast), _) => {
                    assert_eq!(Ok(&fast), reference.as_ref(), "{name}:{number}");
                    read += 1;
                }
                (None, Ok(entry)) if !matches!(entry.kind, EntryKind::Malformed { .. }) => {
                    left.push(format!("{name}:{number}"))
                }
                (None, _) => {}
            }
        }
    }
    assert!(left.is_empty(), "well-formed lines left to serde_json: {left:?}");
    assert!(read > 1000, "only {read} lines read");
}

/// Lines that exercise each token kind at each position of a 16-byte SIMD step.
fn varied_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for pad in 0..40 {
        let filler = "x".repeat(pad);
        for (label, body) in [
            ("quote", format!(r#""{filler}\"q""#)),
            ("backslash", format!(r#""{filler}\\""#)),
            ("unicode escape", format!(r#""{filler}\u00e9 \ud83d\ude00""#)),
            ("lone surrogate", format!(r#""{filler}\udc00""#)),
            ("bad escape", format!(r#""{filler}\q""#)),
            ("short unicode escape", format!(r#""{filler}\u12""#)),
            ("control character", format!("\"{filler}\u{1}\"")),
            ("tab", format!("\"{filler}\t\"")),
            ("delete and non-ASCII", format!("\"{filler}\u{7f}é€😀\"")),
            ("unterminated", format!("\"{filler}")),
            ("number", format!("{}.5e-3", pad + 1)),
            ("big number", format!("1{}", "0".repeat(pad))),
            ("negative", format!("-{pad}")),
        ] {
            for template in [
                r#"{"type":"user","uuid":"u1","message":{"role":"user","content":BODY},"toolUseResult":BODY}"#,
                r#"{"type":"assistant","uuid":"a1","message":{"id":"m","content":[{"type":"text","text":BODY},{"type":"tool_use","id":"t","name":"Bash","input":{"command":BODY}}],"usage":{"output_tokens":BODY}}}"#,
                r#"{"type":"progress","data":{"type":"bash_progress","output":BODY,"elapsedTimeSeconds":BODY},"unknownField":[BODY,{"k":BODY}]}"#,
                r#"{"type":"system","subtype":"x","durationMs":BODY,"content":BODY,"isMeta":BODY}"#,
                r#"{"type":"attachment","attachment":{"type":"hook_success","stdout":BODY,"exitCode":BODY}}"#,
            ] {
                lines.push(format!("{label}\t{}", template.replace("BODY", &body)));
            }
        }
    }
    lines
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn crafted_lines_read_the_same_both_ways() {
    let mut read = 0;
    for labelled in varied_lines() {
        let (label, line) = labelled.split_once('\t').unwrap();
        let (fast, reference) = read_both_ways(line);
        if let Some(fast) = fast {
            assert_eq!(Ok(&fast), reference.as_ref(), "{label}: {line}");
            read += 1;
        }
    }
    assert!(read > 500, "only {read} crafted lines read the fast way");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn duplicate_and_misshapen_fields_are_left_to_serde_json_and_keep_its_message() {
    for line in [
        r#"{"type":"user","uuid":"a","uuid":"b","message":{"content":"x"}}"#,
        r#"{"type":"user","parentUuid":null,"parentUuid":"p","message":{"content":"x"}}"#,
        r#"{"type":"user","uuid":7,"message":{"content":"x"}}"#,
        r#"{"type":"user","message":["id","uuid"]}"#,
        r#"{"type":"user","u\u0075id":"a","message":{"content":"x"}}"#,
    ] {
        let (fast, reference) = read_both_ways(line);
        assert_eq!(fast, None, "{line}");
        assert!(reference.is_ok(), "{line}: {reference:?}");
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn fork_context_ref_fields_of_another_shape_on_another_line_stay_on_the_fast_path() {
    // Hand-written: the names a fork-context-ref reads, of other shapes, on lines of other types.
    for line in [
        r#"{"type":"user","parentSessionId":5,"message":{"content":"x"}}"#,
        r#"{"type":"assistant","parentLastUuid":{"a":1},"message":{"content":[]}}"#,
        r#"{"type":"summary","contextLength":"long","summary":"s","leafUuid":"l"}"#,
    ] {
        let (fast, reference) = read_both_ways(line);
        assert_eq!(fast.as_ref(), Some(reference.as_ref().unwrap()), "{line}");
    }
    // And on a fork-context-ref itself, a field of another shape is no value, both ways.
    let line = r#"{"type":"fork-context-ref","parentSessionId":5,"parentLastUuid":"u","contextLength":"7"}"#;
    let (fast, reference) = read_both_ways(line);
    let fast = fast.expect("read the fast way");
    assert_eq!(Ok(&fast), reference.as_ref());
    let cctv::model::EntryKind::ForkContextRef(r) = &fast.kind else { panic!("{fast:?}") };
    assert_eq!((r.parent_session_id, r.context_length), (None, None));
    assert!(r.parent_last_uuid.is_some());
    let line = r#"{"type":"fork-context-ref","parentLastUuid":"u","contextLength":12}"#;
    let (fast, _) = read_both_ways(line);
    let cctv::model::EntryKind::ForkContextRef(r) = &fast.unwrap().kind else { panic!() };
    assert_eq!(r.context_length, Some(12));
}
