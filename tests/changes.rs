//! What a session changed, on a real fixture: a file's net diff is its first content with every
//! change applied, checked here against Claude Code's own patches (`structuredPatch`) applied to
//! the file as the session first read it, straight from the file's JSON.

mod common;

use cctv::insight::changes::{changes, file_after};
use cctv::normalize::normalize;
use serde_json::Value;

const PLANETFALL: &str = "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl";
const DRONE_BAY: &str = "/Users/goose-guest/Documents/work/planetfall-seed-signalkit/src/droneBayView.js";

/// `text` with one `structuredPatch` hunk list applied (each hunk says which old lines it
/// replaces, and with what).
fn apply(text: &str, hunks: &[Value]) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    // Last hunk first, so the line numbers of the ones before still hold.
    for hunk in hunks.iter().rev() {
        let start = hunk["oldStart"].as_u64().unwrap() as usize;
        let old_lines = hunk["oldLines"].as_u64().unwrap() as usize;
        let new: Vec<String> = hunk["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .filter(|l| !l.starts_with('-') && !l.starts_with('\\'))
            .map(|l| l[1..].to_owned())
            .collect();
        let at = start.saturating_sub(1);
        lines.splice(at..at + old_lines, new);
    }
    lines.join("\n")
}

#[test]
fn a_file_edited_seven_times_ends_as_its_original_with_every_patch_applied() {
    let input = common::input(PLANETFALL);
    let ws = normalize(vec![input.clone()]);
    let changed = changes(&ws, &ws.sessions[0], None);
    let design =
        changed.iter().find(|c| c.path.ends_with("memory/level2-drone-bay-design.md")).expect("listed");
    assert_eq!((design.calls.len(), design.partial, design.outside), (7, false, false));

    // From the JSON alone: the first change's originalFile, then each change's patch in order.
    let mut text: Option<String> = None;
    for line in String::from_utf8(input.bytes).unwrap().lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        let result = &value["toolUseResult"];
        if result["filePath"].as_str() == Some(design.path.as_str()) {
            let base = text.take().or(result["originalFile"].as_str().map(str::to_owned)).unwrap();
            text = Some(apply(&base, result["structuredPatch"].as_array().unwrap()));
        }
    }
    assert_eq!(design.last.as_deref(), text.as_deref());
    assert_eq!((design.added, design.removed), (6, 0));
    assert_eq!(design.rows.first().map(|r| r.kind), Some(cctv::text::diff::RowKind::Hunk));
}

#[test]
fn a_file_also_changed_outside_the_session_says_so_and_ends_as_its_patches_leave_it() {
    let input = common::input(PLANETFALL);
    let ws = normalize(vec![input.clone()]);
    let changed = changes(&ws, &ws.sessions[0], None);
    let drone = changed.iter().find(|c| c.path == DRONE_BAY).expect("the file is listed");
    // Between two of its 36 changes something else changed it (their patches stop fitting the
    // file as the session's own changes left it, until a Write gives its whole content again).
    assert_eq!((drone.calls.len(), drone.partial, drone.outside), (36, false, true));
    // From the JSON alone: the last whole content a Write gave, then each later patch in turn.
    let mut text: Option<String> = None;
    for line in String::from_utf8(input.bytes).unwrap().lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        let result = &value["toolUseResult"];
        if result["filePath"] != DRONE_BAY {
            continue;
        }
        text = Some(match result["type"].as_str() {
            Some("update" | "create") => result["content"].as_str().unwrap().to_owned(),
            _ => apply(text.as_deref().unwrap(), result["structuredPatch"].as_array().unwrap()),
        });
    }
    assert_eq!(drone.last.as_deref(), text.as_deref());
}

#[test]
fn a_turn_changes_only_what_its_rows_changed_and_a_file_can_be_seen_after_any_row() {
    let ws = normalize(vec![common::input(PLANETFALL)]);
    let s = &ws.sessions[0];
    let all = changes(&ws, s, None);
    let drone = all.iter().find(|c| c.path == DRONE_BAY).unwrap();
    // The turn of the file's first change, from the prompt before it to the next.
    let first_call = drone.calls[0].item;
    let starts = s.thread.turn_starts();
    let begin = starts.iter().rev().find(|&&i| i <= first_call).copied().unwrap_or(0) as usize;
    let end = s.thread.turn_end(begin) + 1;
    let turn = changes(&ws, s, Some(begin..end));
    let in_turn = turn.iter().find(|c| c.path == DRONE_BAY).expect("the turn changed it");
    assert!(
        in_turn.calls.len() < drone.calls.len()
            && in_turn.calls.iter().all(|c| (begin..end).contains(&(c.item as usize)))
    );
    // Its first content is the file as it was before the turn, and its last as it was after.
    assert_eq!(in_turn.first.as_deref(), file_after(&ws, s, DRONE_BAY, begin.saturating_sub(1)).as_deref());
    assert_eq!(in_turn.last.as_deref(), file_after(&ws, s, DRONE_BAY, end - 1).as_deref());
    assert_eq!(file_after(&ws, s, DRONE_BAY, s.thread.items.len()).as_deref(), drone.last.as_deref());
}

#[test]
fn a_file_written_by_the_shell_is_listed_as_such_and_one_never_read_is_partial() {
    let ws = normalize(vec![common::input(PLANETFALL)]);
    let all = changes(&ws, &ws.sessions[0], None);
    let shell = all.iter().find(|c| c.path == "/tmp/landcheck.mjs").expect("a heredoc's target");
    assert!(shell.by_shell && !shell.partial && shell.rows.is_empty());
    let css = all.iter().find(|c| c.path.ends_with("src/style.css")).unwrap();
    assert!(css.partial && css.first.is_none() && css.added > 0, "edited, never read whole: its hunks only");
    assert!(!all.iter().any(|c| c.path == "EOF" || c.path.starts_with("1.")));
}
