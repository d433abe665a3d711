//! `cctv-inspect` as a script in CI runs it: each session's cost, tools and changed files in its
//! JSON, and a
//! session as Markdown with a planted secret masked.

mod common;

use std::process::Command;

use serde_json::Value;

fn inspect(args: &[&str]) -> (String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_cctv-inspect")).args(args).output().expect("cctv-inspect runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_json_says_what_each_session_cost_and_what_each_tool_did() {
    let path =
        common::fixtures_dir().join("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");
    let (json, _) = inspect(&[path.to_str().unwrap()]);
    let report: Value = serde_json::from_str(&json).unwrap();
    let session = &report["sessions"][0];
    // The figures tests/cost.rs checks by hand.
    let cost = &session["cost"];
    assert!((cost["estimatedDollars"].as_f64().unwrap() - 25.1713005).abs() < 1e-6);
    assert_eq!(cost["byModel"]["claude-opus-4-8"]["responses"], 171);
    assert_eq!(cost["total"]["tokens"]["output"], 334_632);
    assert_eq!(cost["prices"]["checked"], cctv::insight::cost::PRICES_CHECKED);
    let tools = session["tools"].as_array().unwrap();
    let edit = tools.iter().find(|t| t["name"] == "Edit").unwrap();
    assert_eq!((edit["calls"].as_u64(), edit["errors"].as_u64()), (Some(71), Some(2)));
    // tests/changes.rs checks this file's net diff against Claude Code's own patches.
    let files = session["changedFiles"].as_array().unwrap();
    let design =
        files.iter().find(|f| f["path"].as_str().unwrap().ends_with("level2-drone-bay-design.md")).unwrap();
    assert_eq!(
        (design["added"].as_u64(), design["removed"].as_u64(), design["changes"].as_u64()),
        (Some(6), Some(0), Some(7))
    );
    assert_eq!(design["partial"], false);
}

#[test]
fn markdown_on_the_command_line_masks_a_planted_secret_and_names_it() {
    let dir = std::env::temp_dir().join(format!("cctv-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut input = common::input(
        "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
    );
    let secret = format!("ghp_{}", common::planted::noise(36, 3));
    let n = common::planted::line_with(&input, &["message", "content"]);
    common::planted::plant(&mut input, n, &["message", "content"], &secret);
    let path = dir.join("session.jsonl");
    std::fs::write(&path, &input.bytes).unwrap();
    let (markdown, names) = inspect(&["--markdown", path.to_str().unwrap()]);
    assert!(!markdown.contains(&secret) && markdown.contains("REDACTED github-pat"));
    assert!(names.contains("github-pat"), "{names}");
    std::fs::remove_dir_all(&dir).unwrap();
}
