//! What the page says of each kind of sub-agent: the words of its kind and of where it was born
//! (on the button that opens it), and, for an orphan, on its first row, that its parent is not
//! loaded. On `tests/format/agents/` (written from the documented shapes; see
//! its README) and on real sessions: handgemacht's teammates, palimondo/fortress's orphans.

mod common;

use cctv::normalize::{self, Input, ItemRef, Session, ThreadRef, Workspace};
use cctv::present::agents::label;
use cctv::present::item::{item_view, ItemBody, ItemView};
use cctv::present::rows::Row;

const FORK: &str = "afork-name-1a2b3c";
const ASIDE: &str = "aside_question-4d5e6f";
const MEMBER: &str = "a5e6f7a8b9c0d1e2f";
const EXPLORE: &str = "a1b2c3d4e5f6a7b8c";
const NESTED: &str = "a9d8c7b6a5f4e3d2c";

fn files() -> Vec<Input> {
    common::folder_at(&common::repository().join("tests/format/agents/-home-me-shop"))
}

fn agent(session: &Session, id: &str) -> u32 {
    session.agents.iter().position(|a| a.agent_id.as_deref() == Some(id)).unwrap_or_else(|| panic!("{id}"))
        as u32
}

/// The view of the main line's item on line `number` of the session file (its last item).
fn main_row(ws: &Workspace, s: &Session, number: u32) -> ItemView {
    let index = s.thread.items.iter().rposition(|i| ws.line(i.line).number == number).unwrap();
    item_view(ws, s, Row::new(ThreadRef::Main, index as u32, 0)).unwrap()
}

/// The view of an agent's first row.
fn first_row(ws: &Workspace, s: &Session, agent: u32) -> ItemView {
    item_view(ws, s, Row::new(ThreadRef::Agent(agent), 0, 1)).unwrap()
}

const FSI: char = '\u{2068}';
const PDI: char = '\u{2069}';

#[test]
fn a_fork_and_a_side_question_open_from_the_row_they_were_born_at() {
    let ws = normalize::normalize(files());
    let s = &ws.sessions[0];
    // Line 5: Claude's answer the fork was given last.
    let row = main_row(&ws, s, 5);
    assert_eq!(row.born.len(), 1);
    let fork = &row.born[0];
    assert_eq!(fork.agent, agent(s, FORK));
    assert_eq!(fork.label.kind, "fork of the conversation");
    assert_eq!(fork.label.origin, "forked after line 5");
    assert_eq!(fork.agent_type, "fork of the conversation");
    // Line 6: the prompt of the turn the side question was asked in.
    let row = main_row(&ws, s, 6);
    assert_eq!(row.born.iter().map(|b| b.agent).collect::<Vec<_>>(), [agent(s, ASIDE)]);
    assert_eq!(row.born[0].label.in_words(), "side question · asked in the turn of the prompt at line 6");
    assert_eq!(row.born[0].items, 2, "its question and answer, not the conversation it replays");
    // No other row has an agent born at it.
    let others = (0..s.thread.items.len() as u32)
        .map(|i| item_view(&ws, s, Row::new(ThreadRef::Main, i, 0)).unwrap())
        .filter(|v| !v.born.is_empty())
        .count();
    assert_eq!(others, 2);
    // Linked rows are not orphans.
    assert_eq!(first_row(&ws, s, agent(s, FORK)).orphan, None);
}

#[test]
fn a_team_member_is_named_on_the_button_of_the_call_that_started_it() {
    let ws = normalize::normalize(files());
    let s = &ws.sessions[0];
    let row = main_row(&ws, s, 9);
    let ItemBody::ToolCall(call) = row.body else { panic!("line 9 is alice's Agent call") };
    assert_eq!(call.agents.len(), 1);
    let member = &call.agents[0];
    assert_eq!(member.agent, agent(s, MEMBER));
    assert_eq!(member.agent_type, format!("team member {FSI}alice{PDI} · general-purpose"));
    assert_eq!(member.label.name.as_deref(), Some("alice"));
    assert_eq!(member.label.origin, "started by the call at line 9");
    // An agent of an agent: started by the call inside its parent agent.
    let nested = label(&ws, s, agent(s, NESTED)).unwrap();
    assert_eq!(nested.kind, "sub-agent");
    assert!(nested.origin.starts_with("started by the call at line "), "{}", nested.origin);
}

#[test]
fn with_the_parent_missing_each_kind_says_what_it_is_and_that_its_parent_is_not_loaded() {
    let ws = normalize::normalize(files().into_iter().filter(|i| i.name.contains("/subagents/")).collect());
    let s = &ws.sessions[0];
    let orphan = |id| first_row(&ws, s, agent(s, id)).orphan.unwrap_or_else(|| panic!("{id} is an orphan"));
    assert_eq!(orphan(FORK).in_words(), "fork of the conversation · the line it forked after is not loaded");
    assert_eq!(orphan(ASIDE).in_words(), "side question · the conversation it was asked in is not loaded");
    assert_eq!(
        orphan(MEMBER).in_words(),
        format!("team member {FSI}alice{PDI} · the call or the team ({FSI}cart-tests{PDI}) that started it is not loaded")
    );
    assert_eq!(orphan(EXPLORE).in_words(), "sub-agent · the call that started it is not loaded");
    // The agent of an agent is still under its parent's call, which is loaded.
    assert_eq!(first_row(&ws, s, agent(s, NESTED)).orphan, None);
    // Only an orphan's first row says so.
    assert_eq!(item_view(&ws, s, Row::new(ThreadRef::Agent(agent(s, FORK)), 1, 1)).unwrap().orphan, None);

    // An agent of an agent whose parent agent is missing names it.
    let without_parent: Vec<Input> =
        files().into_iter().filter(|i| i.name.contains("/subagents/") && !i.name.contains(EXPLORE)).collect();
    let ws = normalize::normalize(without_parent);
    let s = &ws.sessions[0];
    assert_eq!(
        first_row(&ws, s, agent(s, NESTED)).orphan.unwrap().origin,
        format!("the agent that started it ({FSI}{EXPLORE}{PDI}) is not loaded")
    );
}

#[test]
fn real_named_agents_of_no_team_are_named_sub_agents() {
    // handgemacht-ai (CC 2.1.114): a lead starts alice and bob with Agent calls that name them,
    // with no `team_name`, no TeamCreate call and no `teamName` on any line: a name is any
    // agent's (2.1.332 `AgentInput.name`, "addressable via SendMessage"), no team's.
    let ws = normalize::normalize(common::session(
        "handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl",
    ));
    let s = &ws.sessions[0];
    let mut names: Vec<String> =
        (0..s.agents.len() as u32).map(|a| label(&ws, s, a).unwrap().what()).collect();
    names.sort();
    assert_eq!(names, [format!("sub-agent {FSI}alice{PDI}"), format!("sub-agent {FSI}bob{PDI}")]);
}

#[test]
fn real_orphans_say_their_parent_is_not_loaded() {
    // palimondo/fortress (CC 2.1.238-239): only the session's subagents/ folder is published.
    let ws = normalize::normalize(common::folder("palimondo__fortress/projects/-home-user-fortress"));
    let s = &ws.sessions[0];
    assert_eq!(s.file, None);
    assert_eq!(s.agents.len(), 2);
    for (a, agent) in s.agents.iter().enumerate() {
        assert_eq!(agent.spawn_depth, Some(1));
        let first = first_row(&ws, s, a as u32);
        assert_eq!(first.orphan.unwrap().in_words(), "sub-agent · the call that started it is not loaded");
        assert_eq!(s.born_at(ItemRef::new(ThreadRef::Main, 0)).count(), 0);
    }
}

#[test]
fn a_markdown_export_with_sub_agents_has_forks_and_side_questions_where_they_were_born() {
    use cctv::export::to_markdown::{session, MarkdownOptions};
    let ws = normalize::normalize(files());
    let s = &ws.sessions[0];
    let with = session(&ws, s, MarkdownOptions { sub_agents: true, ..MarkdownOptions::default() }, None);
    let at = |needle: &str| with.find(needle).unwrap_or_else(|| panic!("{needle} in:\n{with}"));
    let fork = at("<details><summary>Fork of the conversation: Try a percentage discount</summary>");
    assert!(at("A discount fits there as a field") < fork && fork < at("Good. Now set up a small team"));
    let aside = at("<details><summary>Side question: ");
    assert!(at("Good. Now set up a small team") < aside && aside < at("alice is writing the tests"));
    assert!(with[aside..].contains("Which Rust version does the CI use?"));
    // The conversation the side question replays is written once.
    assert_eq!(with.matches("I'll map the cart code first.").count(), 1);
    let without = session(&ws, s, MarkdownOptions::default(), None);
    assert!(!without.contains("<details><summary>Fork") && !without.contains("Side question"));
}
