//! The normalized outline of two real sessions, committed so a reviewer can read what cctv
//! makes of them. `UPDATE_SNAPSHOTS=1 cargo test --no-default-features` rewrites them.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::normalize;
use cctv::present::outline::outline;

fn check(name: &str, inputs: Vec<normalize::Input>) {
    let ws = normalize::normalize(inputs);
    let text: String = ws.sessions.iter().map(|s| outline(&ws, s)).collect::<Vec<_>>().join("\n");
    let path = common::repository().join("tests/snapshots").join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_SNAPSHOTS=1 to create it)", path.display()));
    if expected != text {
        let first = expected.lines().zip(text.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{name} outline changed at line {}:\n expected: {:?}\n   actual: {:?}\n(run with UPDATE_SNAPSHOTS=1 to accept)",
            first + 1,
            expected.lines().nth(first),
            text.lines().nth(first)
        );
    }
}

#[test]
fn outline_of_the_moredip_session_with_five_subagents() {
    check("moredip-0ccf1a04", common::folder("moredip__session-share/samples/claude-code-projects"));
}

#[test]
fn outline_of_the_handgemacht_worktrees_session_with_hooks() {
    check(
        "handgemacht-ef958aa1",
        common::folder("handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees"),
    );
}
