//! Every entry type, attachment type, system subtype and progress type Claude Code 2.1.332 can
//! write has a reading: the lists are read from `../shared/CLAUDE_CODE_FORMAT.md` itself, and
//! `tests/format/` holds a line of each, written from the documented shapes (no redistributable
//! real file holds them; see `tests/format/README.md`).

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::insight::drift::drift;
use cctv::model::{is_known_type, EntryKind};
use cctv::normalize::about::State;
use cctv::normalize::{normalize, Input, ItemKind, NotShown};
use cctv::present::accounting::in_words;
use cctv::present::event::{event_view, EventView};
use cctv::present::session::{badges_after, session_label, side_view};
use common::repository;

/// The names of one section of the format document: the entry types' table (its first column).
fn entry_types() -> Vec<String> {
    let doc = std::fs::read_to_string(repository().join("../shared/CLAUDE_CODE_FORMAT.md")).unwrap();
    let section = doc.split("## Entry types").nth(1).unwrap().split("\n## ").next().unwrap();
    let names: Vec<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .filter(|first| *first != "type" && !first.starts_with("---"))
        .flat_map(|first| first.split(", ").map(str::to_owned).collect::<Vec<_>>())
        .collect();
    // The document's heading says 48, but its table names 47: every one of them is checked.
    assert_eq!(names.len(), 47, "the table's names: {names:?}");
    names
}

/// The names of a section that lists them as words (attachment types, system subtypes, progress
/// types): every word after its heading line.
fn names_under(heading: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(repository().join("../shared/CLAUDE_CODE_FORMAT.md")).unwrap();
    let section = doc.split(heading).nth(1).unwrap().split("\n## ").next().unwrap();
    let body = section.split_once('\n').unwrap().1;
    // The system subtypes' paragraph ends by naming one more seen in real files, in a sentence.
    let body = body.split("Real transcripts").next().unwrap();
    body.split(|c: char| c.is_whitespace() || c == ',' || c == '.')
        .filter(|w| !w.is_empty())
        .inspect(|w| assert!(w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "not a name: {w}"))
        .map(str::to_owned)
        .collect()
}

fn named(file: &str) -> Input {
    Input { name: file.into(), bytes: std::fs::read(repository().join("tests/format").join(file)).unwrap() }
}

fn every_entry_type() -> Input {
    let bytes = std::fs::read(repository().join("tests/format/every-entry-type.jsonl")).unwrap();
    Input { name: "5e55a0f0-2133-4c2d-9a1e-000000000332.jsonl".into(), bytes }
}

#[test]
fn every_entry_type_of_the_list_is_read_and_the_file_holds_one_of_each() {
    let ws = normalize(vec![every_entry_type()]);
    let file = &ws.files[0];
    let written: Vec<String> = file
        .lines
        .iter()
        .filter_map(|l| l.entry())
        .filter_map(|e| e.envelope.type_name.map(|t| t.decode(&file.bytes).into_owned()))
        .collect();
    for name in entry_types() {
        assert!(is_known_type(&name), "{name} is not read");
        assert!(written.contains(&name), "no line of {name} in the documented-shape file");
    }
    for line in &file.lines {
        let entry = line.entry().expect("every line is JSON");
        assert!(
            !matches!(entry.kind, EntryKind::Unknown | EntryKind::Malformed { .. }),
            "line {} reads as {:?}",
            line.number,
            entry.kind
        );
    }
}

#[test]
fn the_drift_report_finds_nothing_unrecognised_in_them() {
    let report = drift(&normalize(vec![every_entry_type()]));
    assert!(report.is_empty(), "{:#?}", report);
}

#[test]
fn bookkeeping_is_counted_with_its_reason_and_nothing_shows_raw() {
    let ws = normalize(vec![every_entry_type()]);
    let s = &ws.sessions[0];
    assert!(!s.accounting.not_shown.contains_key(&NotShown::Unplaced));
    let words = in_words(&s.accounting).not_shown;
    assert_eq!(words.get("API request record (kept to resume the session)"), Some(&4));
    assert_eq!(words.get("file-history delta (a backup for rewinding edits)"), Some(&1));
    assert_eq!(words.get("session switch (latch, owner, suppression)"), Some(&4));
    for item in &s.thread.items {
        assert!(!matches!(item.kind, ItemKind::Unknown | ItemKind::Malformed), "{item:?}");
        if matches!(item.kind, ItemKind::Event) {
            assert_ne!(event_view(&ws, item), EventView::Raw, "line {:?} has no words", item.line);
        }
    }
}

#[test]
fn session_state_is_in_the_side_panel_and_the_last_line_of_each_wins() {
    let ws = normalize(vec![every_entry_type()]);
    let s = &ws.sessions[0];
    let about = &s.about;
    assert_eq!(about.state.tag.as_deref(), Some("docs"));
    assert_eq!(about.relocated_to.as_deref(), Some("/home/dev/app-moved"));
    assert!(about.state.ended_by_model);
    assert_eq!(about.state.worktree, None, "the last worktree-state left it");
    let side = side_view(&ws, s);
    let row = |label: &str| side.about.iter().find(|(l, _)| *l == label).map(|(_, v)| v.clone());
    assert_eq!(row("tag").as_deref(), Some("docs"));
    assert_eq!(row("moved to").as_deref(), Some("/home/dev/app-moved"));
    assert_eq!(row("ended").as_deref(), Some("by the model"));
    assert!(row("derived from").is_some_and(|d| d.contains("11111111-2222-4333-8444-555555555555")));
    assert_eq!(side.pull_requests.len(), 1);
}

#[test]
fn every_attachment_type_subtype_and_progress_type_of_the_list_has_a_line_and_words() {
    let attachments = names_under("## Attachment types");
    let subtypes = names_under("## System subtypes");
    let progress = names_under("## Progress `data.type`s");
    // As many as the document names (counted by hand from it).
    assert_eq!((attachments.len(), subtypes.len(), progress.len()), (110, 79, 16));
    let ws = normalize(vec![named("every-attachment-subtype-and-progress.jsonl")]);
    let file = &ws.files[0];
    let mut labels = std::collections::BTreeSet::new();
    for line in &file.lines {
        let (_, subtype) = line.entry().unwrap().label(&file.bytes);
        labels.extend(subtype.map(|s| s.into_owned()));
    }
    for name in attachments.iter().chain(&subtypes).chain(&progress) {
        assert!(labels.contains(name), "no line of {name}");
    }
    let report = drift(&ws);
    assert!(report.is_empty(), "{report:#?}");
    let s = &ws.sessions[0];
    assert!(!s.accounting.not_shown.contains_key(&NotShown::Unplaced));
    for item in s.thread.items.iter().filter(|i| matches!(i.kind, ItemKind::Event)) {
        assert_ne!(event_view(&ws, item), EventView::Raw, "line {:?} has no words", item.line);
    }
}

#[test]
fn cctv_inspect_drift_on_the_folder_reports_nothing_unrecognised() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cctv-inspect"))
        .arg(repository().join("tests/format"))
        .arg("--drift")
        .output()
        .expect("cctv-inspect runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["unrecognised"], serde_json::json!([]), "{report:#}");
    assert_eq!(report["misfits"], serde_json::json!([]));
}

#[test]
fn the_titles_badges_say_what_the_session_was_as_of_the_line_being_read() {
    // Written from the documented shapes (tests/format/README.md): a session whose permission
    // mode, tag and worktree change between its turns.
    let path = repository().join("tests/format/57a7e000-0000-4000-8000-000000000001.jsonl");
    let bytes = std::fs::read(path).unwrap();
    let ws = normalize(vec![Input { name: "57a7e000-0000-4000-8000-000000000001.jsonl".into(), bytes }]);
    let s = &ws.sessions[0];
    // The permission mode re-written unchanged (line 12) is no change.
    let lines: Vec<u32> = s.about.changes.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [0, 3, 6, 7, 8, 11, 15]);
    let said = |line: u32| -> Vec<String> {
        let badges = badges_after(s, s.about.changes_by(line));
        badges
            .into_iter()
            .map(|b| b.text.replace(['\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}'], ""))
            .collect()
    };
    let none: [&str; 0] = [];
    assert_eq!(said(1), none, "the first turn: the default mode, no badge");
    assert_eq!(said(4), ["plan mode"]);
    assert_eq!(said(9), ["#release-prep", "worktree fix-ledger", "bypassing permissions"]);
    assert_eq!(said(13), ["#release-prep", "bypassing permissions"], "the worktree was left");
    assert_eq!(said(15), ["#release-prep", "ended by the model", "bypassing permissions"]);
    // With no line read (the session list, a first draw), the title says how the session ended.
    assert_eq!(session_label(&ws, s).badges, badges_after(s, s.about.changes.len()));
    assert_eq!(s.about.state_after(0), &State::default());
    assert_eq!(s.about.state_after(99), &s.about.state);
}
