//! A session that begins with a copy of another (a background session, a fork): built from a
//! real 2.1.3 session the way Claude Code makes one, its first lines copied under a new session
//! id and the conversation going on from there.

mod common;

use cctv::normalize::{self, ids, Input, ItemRef, Workspace};
use cctv::present::item::{item_view, ItemBody};
use cctv::present::rows::{rows, Choices};

const ORIGINAL: &str = "M-Thisness__M-Claude/Archives/7fcdbdcd-c55c-4463-b1d1-3a8d85864ad0.jsonl";
const ORIGINAL_ID: &str = "7fcdbdcd-c55c-4463-b1d1-3a8d85864ad0";
const COPY_ID: &str = "0b5e0000-1111-4222-8333-444455556666";
/// The original's lines copied: two summaries and a snapshot, its first exchange up to the
/// `turn_duration` line after the answer, and the snapshot taken before its next prompt.
const COPIED_LINES: usize = 21;

/// The copy first, so that a link to a shared line would find it first if nothing chose.
fn workspace() -> Workspace {
    let original = String::from_utf8(common::fixture(ORIGINAL)).unwrap();
    let copied: Vec<&str> = original.lines().take(COPIED_LINES).collect();
    let last_uuid = copied.iter().rev().find_map(|l| uuid(l)).unwrap();
    let mut copy: Vec<String> = copied.iter().map(|l| l.replace(ORIGINAL_ID, COPY_ID)).collect();
    copy.push(format!(
        r#"{{"type":"user","uuid":"bg000000-0000-4000-8000-000000000001","parentUuid":"{last_uuid}","sessionId":"{COPY_ID}","sessionKind":"bg","timestamp":"2026-01-12T09:00:00.000Z","message":{{"role":"user","content":"Carry on in the background"}}}}"#
    ));
    normalize::normalize(vec![
        Input { name: format!("{COPY_ID}.jsonl"), bytes: copy.join("\n").into_bytes() },
        Input { name: format!("{ORIGINAL_ID}.jsonl"), bytes: original.into_bytes() },
    ])
}

fn uuid(line: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    Some(value.get("uuid")?.as_str()?.to_owned())
}

fn session(ws: &Workspace, id: &str) -> usize {
    ws.sessions.iter().position(|s| s.session_id.as_deref() == Some(id)).unwrap()
}

#[test]
fn the_copy_is_recognised_line_by_line() {
    let ws = workspace();
    let (copy, original) = (session(&ws, COPY_ID), session(&ws, ORIGINAL_ID));
    let from = ws.sessions[copy].about.continued_from.clone().expect("the copy says what it continues");
    assert_eq!(from.session as usize, original);
    // Of the 21 lines, 17 have a uuid (the summaries and the snapshots have none); the last of
    // them is the `turn_duration` line, the file's line 20.
    assert_eq!((from.copied, from.through), (17, 19));
    assert_eq!(ws.sessions[original].about.continued_from, None);
}

#[test]
fn the_copied_rows_are_one_row_until_the_reader_asks_for_them() {
    let ws = workspace();
    let s = &ws.sessions[session(&ws, COPY_ID)];
    let all = |_: ItemRef| true;
    let folded = rows(s, &Choices::default(), &all);
    let shown = rows(s, &Choices { show_copied: true, ..Choices::default() }, &all);
    let marker = folded[0];
    assert!(marker.copied > 0);
    // One row for the copy, then the session's own: the prompt typed in the background.
    assert_eq!(folded.len(), 2, "{folded:?}");
    assert_eq!(shown.len(), marker.copied as usize + 1);
    assert!(shown.iter().all(|r| r.copied == 0));

    let view = item_view(&ws, s, marker).unwrap();
    let ItemBody::Copied(copied) = view.body else { panic!("{:?}", view.body) };
    assert_eq!(copied.from, session(&ws, ORIGINAL_ID));
    assert!(copied.text.contains("begins with 17 lines copied from it"), "{}", copied.text);
    assert!(copied.text.contains(&format!("({} rows, folded here)", marker.copied)), "{}", copied.text);
    let own = item_view(&ws, s, folded[1]).unwrap();
    assert!(matches!(own.body, ItemBody::Prompt { ref text, .. } if text == "Carry on in the background"));
}

#[test]
fn a_link_to_a_copied_line_opens_the_original() {
    let ws = workspace();
    // The first prompt, in both files (the fixture's publisher masked part of its uuid).
    let found = ids::find(&ws, "3cf92bd2-d87e-[REDACTED_CARD]8286").unwrap();
    assert_eq!(found.session, session(&ws, ORIGINAL_ID));
    let bg = ids::find(&ws, "bg000000-0000-4000-8000-000000000001").unwrap();
    assert_eq!(bg.session, session(&ws, COPY_ID));
}

#[test]
fn the_copy_is_named_by_its_own_first_prompt_not_by_the_title_it_copied() {
    let ws = workspace();
    let title = |id| ws.sessions[session(&ws, id)].title.clone().unwrap();
    assert_eq!(title(ORIGINAL_ID), "Greeting and Chrome Command Attempt");
    assert_eq!(title(COPY_ID), "Carry on in the background");
}
