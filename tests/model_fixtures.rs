//! The model over every real transcript in `../shared/fixtures`.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::model::{self, body, EntryKind, LineContent, Transcript};
use common::{fixture, fixture_files};

/// Invalid lines per file: `//` comment headers added by fixture authors, and the deliberately
/// bad lines of the hand-made edge-case file. Every other file has none.
fn expected_invalid(path: &str) -> usize {
    if path.starts_with("moredip__session-share/session-viewer/test/INTEGRATION/fixtures/") {
        2
    } else if path.ends_with("edge_cases.jsonl") {
        3
    } else {
        0
    }
}

#[test]
fn every_fixture_parses_with_exactly_the_expected_invalid_lines() {
    let files = fixture_files();
    assert!(files.len() >= 25, "fixtures missing: found {}", files.len());
    for path in files {
        let name = path.to_string_lossy().into_owned();
        let transcript = Transcript::parse(name.clone(), fixture(&name));
        let physical_lines = transcript.bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
        assert_eq!(transcript.lines.len(), physical_lines, "{name}: one item per line");
        assert_eq!(transcript.census().invalid(), expected_invalid(&name), "{name}: invalid lines");
    }
}

fn census(path: &str) -> Vec<(String, usize)> {
    let t = Transcript::parse(path, fixture(path));
    t.census().0.into_iter().collect()
}

fn expect(pairs: &[(&str, usize)]) -> Vec<(String, usize)> {
    let mut v: Vec<_> = pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect();
    v.sort();
    v
}

#[test]
fn census_of_a_newest_format_session_with_hooks_and_metadata() {
    let path = "handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl";
    assert_eq!(
        census(path),
        expect(&[
            ("assistant", 62),
            ("attachment/deferred_tools_delta", 1),
            ("attachment/hook_additional_context", 1),
            ("attachment/hook_success", 45),
            ("attachment/skill_listing", 1),
            ("attachment/task_reminder", 1),
            ("file-history-snapshot", 3),
            ("last-prompt", 7),
            ("permission-mode", 8),
            ("system/away_summary", 2),
            ("system/stop_hook_summary", 2),
            ("system/turn_duration", 2),
            ("user", 45),
        ])
    );
}

#[test]
fn census_of_a_session_with_api_errors_queue_and_progress() {
    let path =
        "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl";
    assert_eq!(
        census(path),
        expect(&[
            ("assistant", 25),
            ("file-history-snapshot", 10),
            ("progress/bash_progress", 1),
            ("queue-operation", 14),
            ("summary", 1),
            ("system/api_error", 9),
            ("system/turn_duration", 2),
            ("user", 24),
        ])
    );
}

#[test]
fn census_of_the_tool_call_fixture_with_every_progress_kind() {
    let path = "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl";
    assert_eq!(
        census(path),
        expect(&[
            ("assistant", 266),
            ("file-history-snapshot", 17),
            ("invalid/comment", 2),
            ("progress/bash_progress", 66),
            ("progress/hook_progress", 48),
            ("progress/query_update", 6),
            ("progress/search_results_received", 6),
            ("progress/waiting_for_task", 1),
            ("queue-operation", 8),
            ("summary", 4),
            ("user", 138),
        ])
    );
}

#[test]
fn census_of_the_oldest_format_with_legacy_system_lines() {
    let path = "handgemacht-ai__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl";
    assert_eq!(census(path), expect(&[("assistant", 32), ("system", 8), ("user", 28)]));
}

#[test]
fn census_of_the_edge_cases_keeps_unknown_malformed_and_invalid_apart() {
    let path = "handgemacht-ai__claude-code-log/test/test_data/edge_cases.jsonl";
    assert_eq!(
        census(path),
        expect(&[
            ("assistant", 4),
            ("invalid/not-object", 3),
            ("malformed/user", 1),
            ("summary", 1),
            ("unknown/", 1),
            ("user", 9),
        ])
    );
    let t = Transcript::parse(path, fixture(path));
    let malformed = t.lines.iter().find_map(|l| match &l.entry()?.kind {
        EntryKind::Malformed { error } => Some((l.number, error.clone())),
        _ => None,
    });
    let (number, error) = malformed.expect("the user line whose message is a string");
    assert_eq!(number, 11);
    assert!(error.contains("invalid type: string \"error\""), "{error}");
}

#[test]
fn nothing_is_lost_every_line_leads_back_to_its_exact_bytes() {
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let t = Transcript::parse(name.clone(), fixture(&name));
        // Gluing the lines back with the line breaks between them gives the file again.
        let mut rebuilt = Vec::new();
        let mut cursor = 0usize;
        for line in &t.lines {
            let range = line.span.range();
            rebuilt.extend_from_slice(&t.bytes[cursor..range.start]);
            rebuilt.extend_from_slice(&t.bytes[range.clone()]);
            cursor = range.end;
        }
        rebuilt.extend_from_slice(&t.bytes[cursor..]);
        assert_eq!(rebuilt, t.bytes, "{name}");
        for line in &t.lines {
            assert!(!line.span.bytes(&t.bytes).contains(&b'\n'), "{name}:{} spans a line break", line.number);
            let is_unknown = matches!(
                line.entry().map(|e| &e.kind),
                Some(EntryKind::Unknown | EntryKind::Malformed { .. })
            );
            if is_unknown {
                // What the UI shows raw for an unknown entry is the line's own JSON, whole.
                let kept = body::line_value(&t.bytes, line).expect("kept JSON");
                let original: serde_json::Value = serde_json::from_slice(line.span.bytes(&t.bytes)).unwrap();
                assert_eq!(kept, original, "{name}:{}", line.number);
            }
        }
    }
}

#[test]
fn spans_decode_to_the_same_values_serde_json_reads() {
    // Every indexed id and body must decode to what a full serde_json parse of the line holds.
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let t = Transcript::parse(name.clone(), fixture(&name));
        let src = &t.bytes;
        for line in &t.lines {
            let LineContent::Entry(entry) = &line.content else { continue };
            let value: serde_json::Value = serde_json::from_slice(line.span.bytes(src)).unwrap();
            let s = |v: &serde_json::Value| v.as_str().map(str::to_owned);
            let decoded = |j: Option<model::JsonStr>| j.map(|j| j.decode(src).into_owned());
            assert_eq!(decoded(entry.envelope.uuid), s(&value["uuid"]), "{name}:{}", line.number);
            assert_eq!(
                decoded(entry.envelope.parent_uuid),
                s(&value["parentUuid"]),
                "{name}:{}",
                line.number
            );
            assert_eq!(decoded(entry.envelope.timestamp), s(&value["timestamp"]), "{name}:{}", line.number);
            let message = match &entry.kind {
                EntryKind::User(u) => &u.message,
                EntryKind::Assistant(a) => &a.message,
                _ => continue,
            };
            assert_eq!(decoded(message.id), s(&value["message"]["id"]), "{name}:{}", line.number);
            match &message.content {
                model::Content::Text(text) => {
                    assert_eq!(
                        Some(text.decode(src).into_owned()),
                        s(&value["message"]["content"]),
                        "{name}:{}",
                        line.number
                    )
                }
                model::Content::Blocks(blocks) => {
                    let items = value["message"]["content"].as_array().unwrap();
                    assert_eq!(blocks.len(), items.len(), "{name}:{}", line.number);
                    for block in blocks {
                        let item = &items[block.index as usize];
                        match &block.kind {
                            model::BlockKind::Text { text } => {
                                let expected = s(&item["text"]).or_else(|| s(item));
                                assert_eq!(
                                    Some(text.decode(src).into_owned()),
                                    expected,
                                    "{name}:{}",
                                    line.number
                                )
                            }
                            model::BlockKind::Thinking { thinking } => {
                                assert_eq!(Some(thinking.decode(src).into_owned()), s(&item["thinking"]))
                            }
                            model::BlockKind::ToolUse(t) => {
                                assert_eq!(decoded(t.id), s(&item["id"]));
                                assert_eq!(decoded(t.name), s(&item["name"]));
                                assert_eq!(body::value(src, t.input.unwrap()).unwrap(), item["input"]);
                            }
                            model::BlockKind::ToolResult(r) => {
                                assert_eq!(decoded(r.tool_use_id), s(&item["tool_use_id"]));
                                assert_eq!(r.is_error, item["is_error"].as_bool().unwrap_or(false));
                                if let Some(content) = r.content {
                                    assert_eq!(body::value(src, content).unwrap(), item["content"]);
                                }
                            }
                            other => {
                                assert_eq!(other.type_name(), item["type"].as_str(), "{name}:{}", line.number)
                            }
                        }
                    }
                }
                model::Content::Missing => assert!(value["message"].get("content").is_none()),
            }
        }
    }
}
