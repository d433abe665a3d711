//! Every kind of sub-agent Claude Code 2.1.332 writes, linked where it was born: an agent's call,
//! an agent of an agent (flat beside it, by `toolUseId`), a fork (at the line its
//! `fork-context-ref` names), a side question (at the prompt of the turn it was asked in) and a
//! team member (at the call that named it, else its team's `TeamCreate`); and each one, with its
//! parent not loaded, an orphan that says what it is.
//!
//! No redistributable transcript holds forks, side questions or a 2.1.332 team, so these run on
//! `tests/format/agents/`, lines written from the documented shapes (see its
//! README); the real fixtures hold agents of agents and real orphans (palimondo/fortress).

mod common;

use cctv::model::EntryKind;
use cctv::normalize::{
    self, AgentKind, AgentLink, Input, ItemKind, ItemRef, LinkEvidence, NotShown, Session, ThreadRef,
    Workspace,
};
use cctv::present::rows::{rows, Choices};

const SESSION: &str = "5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f";
const EXPLORE: &str = "a1b2c3d4e5f6a7b8c";
const NESTED: &str = "a9d8c7b6a5f4e3d2c";
const FORK: &str = "afork-name-1a2b3c";
const ASIDE: &str = "aside_question-4d5e6f";
const MEMBER: &str = "a5e6f7a8b9c0d1e2f";

/// The project folder as a drop of it names its files.
fn files() -> Vec<Input> {
    common::folder_at(&common::repository().join("tests/format/agents/-home-me-shop"))
}

fn agent(session: &Session, id: &str) -> u32 {
    session.agents.iter().position(|a| a.agent_id.as_deref() == Some(id)).unwrap_or_else(|| panic!("{id}"))
        as u32
}

/// The text of the line item `at` shows.
fn line_text(ws: &Workspace, session: &Session, at: ItemRef) -> String {
    let item = session.item(at.thread, at.item).unwrap();
    ws.item_text(item).unwrap_or_default()
}

/// The first item of the thread whose rows contain `agent`'s rows, and the row above its first.
fn row_above(session: &Session, agent: u32) -> (ItemRef, u16) {
    let mut choices = Choices::default();
    choices.open_agents.extend(0..session.agents.len() as u32);
    let all = rows(session, &choices, &|_| true);
    let first = all
        .iter()
        .position(|r| r.thread == ThreadRef::Agent(agent) && r.item == 0)
        .expect("agent's rows shown");
    let above = all[..first].iter().rev().find(|r| r.depth < all[first].depth).expect("a row above it");
    (above.at(), all[first].depth)
}

fn tool_use_id(ws: &Workspace, item: &normalize::Item) -> String {
    let ItemKind::ToolCall(call) = &item.kind else { panic!("not a call") };
    call.tool_use_id.unwrap().decode(&ws.file(item.line).bytes).into_owned()
}

#[test]
fn a_fork_context_ref_line_is_read_as_what_it_names() {
    let fork = files().into_iter().find(|i| i.name.ends_with(&format!("agent-{FORK}.jsonl"))).unwrap();
    let t = cctv::model::Transcript::parse(fork.name, fork.bytes);
    let EntryKind::ForkContextRef(r) = &t.lines[0].entry().unwrap().kind else { panic!("{:?}", t.lines[0]) };
    assert_eq!(r.parent_session_id.unwrap().decode(&t.bytes), SESSION);
    assert_eq!(r.parent_last_uuid.unwrap().decode(&t.bytes), "bf5c4dae-5a6b-4c7d-8e3f-4a5b6c7d8e9f");
    assert_eq!(r.context_length, Some(5));
    assert!(cctv::model::is_known_type("fork-context-ref"));
}

#[test]
fn every_line_of_the_folder_is_placed_and_every_agent_linked() {
    let ws = normalize::normalize(files());
    assert_eq!(ws.rejected, Vec::<(String, String)>::new());
    assert_eq!(ws.sessions.len(), 1, "one session: the agents of every kind join it");
    let s = &ws.sessions[0];
    assert_eq!(s.session_id.as_deref(), Some(SESSION));
    assert_eq!(s.agents.len(), 5);
    assert!(!s.accounting.not_shown.contains_key(&NotShown::Unplaced), "{:?}", s.accounting);
    let counted = s.accounting.rendered + s.accounting.merged + s.accounting.not_shown_total();
    assert_eq!(counted, s.accounting.lines);
    for a in &s.agents {
        assert_ne!(a.link, AgentLink::Orphan, "{:?} is linked", a.agent_id);
    }
    // The four lines the side question replays are the session's, shown there only.
    assert_eq!(s.accounting.not_shown.get(&NotShown::Replayed), Some(&4));
}

#[test]
fn an_agent_of_an_agent_is_under_the_call_inside_its_parent_agent() {
    let ws = normalize::normalize(files());
    let s = &ws.sessions[0];
    let (explore, nested) = (agent(s, EXPLORE), agent(s, NESTED));
    assert_eq!(s.agents[explore as usize].spawn_depth, Some(1));
    assert_eq!(s.agents[nested as usize].spawn_depth, Some(2));
    assert_eq!(s.agents[nested as usize].parent_agent.as_deref(), Some(EXPLORE));
    let (above, depth) = row_above(s, nested);
    assert_eq!(above.thread, ThreadRef::Agent(explore));
    assert!(
        matches!(&s.item(above.thread, above.item).unwrap().kind, ItemKind::ToolCall(c) if c.agents == [nested])
    );
    assert_eq!(depth, 2);
    assert_eq!(s.agents[nested as usize].kind, AgentKind::Task);
}

#[test]
fn a_fork_is_born_after_the_line_it_was_given_last() {
    let ws = normalize::normalize(files());
    let s = &ws.sessions[0];
    let fork = agent(s, FORK);
    let a = &s.agents[fork as usize];
    assert_eq!(a.kind, AgentKind::Fork);
    assert!(matches!(a.link, AgentLink::At { how: LinkEvidence::ForkContextRef, .. }), "{:?}", a.link);
    let (above, depth) = row_above(s, fork);
    assert_eq!(above.thread, ThreadRef::Main);
    assert!(line_text(&ws, s, above).starts_with("The total is computed in `Cart::total`"));
    assert_eq!(depth, 1);
    // Its fork-context-ref is no row of its own: it is the link.
    assert!(line_text(&ws, s, ItemRef::new(ThreadRef::Agent(fork), 0))
        .starts_with("Try the discount as a percentage"));
    assert_eq!(a.parent_session.as_deref(), Some(SESSION));
}

#[test]
fn a_side_question_is_at_the_prompt_of_its_turn_and_shows_only_its_own_lines() {
    let ws = normalize::normalize(files());
    let s = &ws.sessions[0];
    let aside = agent(s, ASIDE);
    let a = &s.agents[aside as usize];
    assert_eq!(a.kind, AgentKind::SideQuestion);
    assert!(matches!(a.link, AgentLink::At { how: LinkEvidence::SideQuestionTurn, .. }), "{:?}", a.link);
    let (above, _) = row_above(s, aside);
    assert_eq!(above.thread, ThreadRef::Main);
    assert_eq!(line_text(&ws, s, above), "Good. Now set up a small team to write the tests");
    // The question and its answer; not the conversation it replays.
    assert_eq!(a.thread.items.len(), 2);
    assert_eq!(
        line_text(&ws, s, ItemRef::new(ThreadRef::Agent(aside), 0)),
        "Which Rust version does the CI use?"
    );
}

#[test]
fn a_team_member_is_under_the_call_that_named_it_else_its_teams_creation() {
    let ws = normalize::normalize(files());
    let s = &ws.sessions[0];
    let member = agent(s, MEMBER);
    let a = &s.agents[member as usize];
    assert_eq!(a.kind, AgentKind::TeamMember { name: Some("alice".into()), team: Some("cart-tests".into()) });
    assert!(matches!(a.link, AgentLink::ToolCall { how: LinkEvidence::TeamName, .. }), "{:?}", a.link);
    let (above, _) = row_above(s, member);
    let item = s.item(above.thread, above.item).unwrap();
    assert!(matches!(&item.kind, ItemKind::ToolCall(c) if c.agents == [member]));
    assert_eq!(tool_use_id(&ws, item), "toolu_01TmAlice9Kd3");

    // Without the call that named it, the member is under the call that created its team.
    let without_call: Vec<Input> = files()
        .into_iter()
        .map(|mut input| {
            if input.name.ends_with(&format!("{SESSION}.jsonl")) {
                let text = String::from_utf8(input.bytes).unwrap();
                let kept: Vec<&str> = text.lines().filter(|l| !l.contains("toolu_01TmAlice9Kd3")).collect();
                input.bytes = (kept.join("\n") + "\n").into_bytes();
            }
            input
        })
        .collect();
    let ws = normalize::normalize(without_call);
    let s = &ws.sessions[0];
    let member = agent(s, MEMBER);
    assert!(matches!(
        s.agents[member as usize].link,
        AgentLink::ToolCall { how: LinkEvidence::TeamCreate, .. }
    ));
    let (above, _) = row_above(s, member);
    let item = s.item(above.thread, above.item).unwrap();
    assert!(matches!(&item.kind, ItemKind::ToolCall(c) if c.agents == [member]));
    assert_eq!(tool_use_id(&ws, item), "toolu_01TcCartTests4Fw");
}

#[test]
fn with_the_session_missing_each_kind_is_an_orphan_that_knows_its_kind() {
    let agents_only: Vec<Input> = files().into_iter().filter(|i| i.name.contains("/subagents/")).collect();
    let ws = normalize::normalize(agents_only);
    assert_eq!(ws.sessions.len(), 1);
    let s = &ws.sessions[0];
    assert_eq!(s.file, None);
    let kind = |id| s.agents[agent(s, id) as usize].kind.clone();
    assert_eq!(kind(FORK), AgentKind::Fork);
    assert_eq!(kind(ASIDE), AgentKind::SideQuestion);
    assert_eq!(
        kind(MEMBER),
        AgentKind::TeamMember { name: Some("alice".into()), team: Some("cart-tests".into()) }
    );
    assert_eq!(kind(EXPLORE), AgentKind::Task);
    // Only the agent of an agent still has its parent: the Explore agent's call.
    for id in [FORK, ASIDE, MEMBER, EXPLORE] {
        assert_eq!(s.agents[agent(s, id) as usize].link, AgentLink::Orphan, "{id}");
    }
    assert!(matches!(s.agents[agent(s, NESTED) as usize].link, AgentLink::ToolCall { .. }));
    assert!(!s.accounting.not_shown.contains_key(&NotShown::Unplaced));
}

#[test]
fn the_shelf_puts_every_kind_with_the_session_whose_folder_it_is_in() {
    use cctv::catalog::shelf::{FileInfo, Shelf};
    // As a whole ~/.claude/projects names them: under the project folder.
    let infos: Vec<FileInfo> = files()
        .into_iter()
        .map(|i| FileInfo { name: format!("-home-me-shop/{}", i.name), size: i.bytes.len() as u64 })
        .collect();
    let shelf = Shelf::new(infos);
    assert_eq!(shelf.sessions.len(), 1);
    assert!(shelf.loose.is_empty());
    let listed = &shelf.sessions[0];
    assert_eq!(listed.key, SESSION);
    let agents: Vec<&str> =
        listed.agents.iter().map(|&f| shelf.files[f].name.rsplit('/').next().unwrap()).collect();
    for id in [EXPLORE, NESTED, FORK, ASIDE, MEMBER] {
        assert!(agents.contains(&format!("agent-{id}.jsonl").as_str()), "{id} in {agents:?}");
    }
    assert_eq!(listed.agents.len(), 5);
    assert_eq!(listed.beside.len(), 4, "the four .meta.json files");
}

#[test]
fn a_side_question_without_a_parent_line_to_follow_is_placed_by_its_time() {
    // Its question's parentUuid taken away: the turn under way at its time is the same turn.
    let inputs: Vec<Input> = files()
        .into_iter()
        .map(|mut input| {
            if input.name.ends_with(&format!("agent-{ASIDE}.jsonl")) {
                let text = String::from_utf8(input.bytes).unwrap();
                let question = "\"parentUuid\":\"c06d5ebf-6b7c-4d8e-9f4a-5b6c7d8e9fa0\"";
                assert_eq!(text.matches(question).count(), 1);
                input.bytes = text.replace(question, "\"parentUuid\":null").into_bytes();
            }
            input
        })
        .collect();
    let ws = normalize::normalize(inputs);
    let s = &ws.sessions[0];
    let aside = agent(s, ASIDE);
    assert!(matches!(
        s.agents[aside as usize].link,
        AgentLink::At { how: LinkEvidence::SideQuestionTurn, .. }
    ));
    let (above, _) = row_above(s, aside);
    assert_eq!(line_text(&ws, s, above), "Good. Now set up a small team to write the tests");
}

#[test]
fn nothing_in_the_folder_is_unknown_to_cctv() {
    let ws = normalize::normalize(files());
    let mut report = cctv::insight::drift::drift(&ws);
    // `session_id` beside `sessionId` (2.1.220+) is not this test's to read.
    report.unrecognised.retain(|u| u.name != "session_id");
    assert!(report.unrecognised.is_empty() && report.misfits.is_empty(), "{report:#?}");
}

#[test]
fn a_team_member_known_only_by_its_agent_id_is_still_found_by_its_name() {
    // Its lines say `agentId: "alice@cart-tests"` and neither `agentName` nor `teamName`; its
    // .meta.json no name.
    let inputs: Vec<Input> = files()
        .into_iter()
        .map(|mut input| {
            let text = String::from_utf8(input.bytes.clone()).unwrap();
            if input.name.ends_with(&format!("agent-{MEMBER}.jsonl")) {
                let text = text
                    .replace(&format!("\"agentId\":\"{MEMBER}\""), "\"agentId\":\"alice@cart-tests\"")
                    .replace(",\"teamName\":\"cart-tests\",\"agentName\":\"alice\"", "");
                assert!(!text.contains("teamName") && text.contains("alice@cart-tests"));
                input.bytes = text.into_bytes();
            } else if input.name.ends_with(&format!("agent-{MEMBER}.meta.json")) {
                input.bytes = text.replace(",\"name\":\"alice\"", "").into_bytes();
                assert!(!String::from_utf8_lossy(&input.bytes).contains("alice"));
            }
            input
        })
        .collect();
    let ws = normalize::normalize(inputs);
    let s = &ws.sessions[0];
    let a = &s.agents[agent(s, MEMBER) as usize];
    assert_eq!(a.kind, AgentKind::TeamMember { name: Some("alice".into()), team: Some("cart-tests".into()) });
    assert!(matches!(a.link, AgentLink::ToolCall { how: LinkEvidence::TeamName, .. }), "{:?}", a.link);
}

/// The folder with the file whose name ends with `suffix` edited by `edit`.
fn edited(inputs: Vec<Input>, suffix: &str, edit: impl Fn(String) -> String) -> Vec<Input> {
    let mut found = false;
    let out = inputs
        .into_iter()
        .map(|mut input| {
            if input.name.ends_with(suffix) {
                found = true;
                let text = String::from_utf8(input.bytes).unwrap();
                let new = edit(text.clone());
                assert_ne!(new, text, "{suffix} unchanged");
                input.bytes = new.into_bytes();
            }
            input
        })
        .collect();
    assert!(found, "{suffix}");
    out
}

/// Whether any row of `agent` shows, every agent open.
fn shown(session: &Session, agent: u32) -> bool {
    let mut choices = Choices::default();
    choices.open_agents.extend(0..session.agents.len() as u32);
    rows(session, &choices, &|_| true).iter().any(|r| r.thread == ThreadRef::Agent(agent))
}

#[test]
fn a_fork_whose_parent_line_is_its_own_is_an_orphan_and_shown() {
    // Hand-written from the documented shape: its `parentLastUuid` names its own answer's line.
    let inputs = edited(files(), &format!("agent-{FORK}.jsonl"), |text| {
        text.replacen(
            "\"parentLastUuid\":\"bf5c4dae-5a6b-4c7d-8e3f-4a5b6c7d8e9f\"",
            "\"parentLastUuid\":\"61a7f859-a5b6-4c28-9de4-f5a6b7c8d9e1\"",
            1,
        )
    });
    let ws = normalize::normalize(inputs);
    let s = &ws.sessions[0];
    let fork = agent(s, FORK);
    assert_eq!(s.agents[fork as usize].link, AgentLink::Orphan);
    assert!(shown(s, fork));
}

#[test]
fn an_agent_linked_inside_itself_is_listed_at_the_end_and_labelled_an_orphan() {
    // However it came to be linked there, an agent born inside its own thread is shown.
    let mut ws = normalize::normalize(files());
    let s = &mut ws.sessions[0];
    let fork = agent(s, FORK);
    let at = ItemRef::new(ThreadRef::Agent(fork), 1);
    s.born.retain(|&(_, a)| a != fork);
    s.born.push((at, fork));
    s.born.sort_unstable();
    s.agents[fork as usize].link = AgentLink::At {
        line: s.agents[fork as usize].thread.items[1].line,
        how: LinkEvidence::ForkContextRef,
    };
    let s = &ws.sessions[0];
    assert!(shown(s, fork));
    let label = cctv::present::agents::label(&ws, s, fork).unwrap();
    assert!(label.orphan, "{label:?}");
    assert_eq!(label.origin, "the line it forked after is not among the loaded lines");
}

#[test]
fn a_named_agent_of_no_team_is_a_task_that_shows_its_name() {
    // 2.1.332 gives any agent a `name` to be addressed by (`AgentInput.name`); its .meta.json
    // says it. Hand-written from that shape.
    let inputs = edited(files(), &format!("agent-{EXPLORE}.meta.json"), |text| {
        text.replacen("\"spawnDepth\":1", "\"name\":\"mapper\",\"spawnDepth\":1", 1)
    });
    let ws = normalize::normalize(inputs);
    let s = &ws.sessions[0];
    let explore = agent(s, EXPLORE);
    let a = &s.agents[explore as usize];
    assert_eq!(a.kind, AgentKind::Task);
    assert_eq!(a.name.as_deref(), Some("mapper"));
    assert_eq!(
        cctv::present::agents::label(&ws, s, explore).unwrap().what(),
        "sub-agent \u{2068}mapper\u{2069}"
    );
    // A member of a known team is still one.
    let member = &s.agents[agent(s, MEMBER) as usize];
    assert_eq!(
        member.kind,
        AgentKind::TeamMember { name: Some("alice".into()), team: Some("cart-tests".into()) }
    );
}

/// The folder with the Explore agent's call also named alice (with `team`, if any), and nothing
/// else to link the Explore agent by but its prompt. Hand-written from the documented shapes.
fn two_calls_named_alice(team: Option<&str>) -> Vec<Input> {
    let extra = match team {
        Some(team) => format!(",\"name\":\"alice\",\"team_name\":\"{team}\""),
        None => ",\"name\":\"alice\"".to_owned(),
    };
    let inputs = edited(files(), &format!("{SESSION}.jsonl"), |text| {
        text.replacen("\"subagent_type\":\"Explore\"", &format!("\"subagent_type\":\"Explore\"{extra}"), 1)
            .replacen(
                "\"status\":\"completed\",\"agentId\":\"a1b2c3d4e5f6a7b8c\",",
                "\"status\":\"completed\",",
                1,
            )
    });
    edited(inputs, &format!("agent-{EXPLORE}.meta.json"), |text| {
        text.replacen("\"toolUseId\":\"toolu_01AgMapCart7Xq2\",", "", 1)
    })
}

#[test]
fn a_name_two_calls_share_links_by_prompt_and_a_call_of_another_team_is_not_a_members() {
    for (team, how) in [(None, LinkEvidence::Prompt), (Some("other-team"), LinkEvidence::TeamName)] {
        let ws = normalize::normalize(two_calls_named_alice(team));
        let s = &ws.sessions[0];
        let member = agent(s, MEMBER);
        let AgentLink::ToolCall { line, how: linked } = s.agents[member as usize].link else {
            panic!("{:?}", s.agents[member as usize].link)
        };
        assert_eq!(linked, how, "{team:?}");
        let (above, _) = row_above(s, member);
        assert_eq!(s.item(above.thread, above.item).unwrap().line, line);
        assert_eq!(
            tool_use_id(&ws, s.item(above.thread, above.item).unwrap()),
            "toolu_01TmAlice9Kd3",
            "{team:?}"
        );
        let (above, _) = row_above(s, agent(s, EXPLORE));
        assert_eq!(
            tool_use_id(&ws, s.item(above.thread, above.item).unwrap()),
            "toolu_01AgMapCart7Xq2",
            "{team:?}"
        );
    }
}

#[test]
fn an_inline_agent_is_no_team_member_by_the_session_files_lines() {
    // An inline sidechain agent in the session's own file, its id a lead's (`team-lead@core`):
    // hand-written from the documented shapes. Its first line is the session file's, not a
    // member's file's.
    let inputs = edited(files(), &format!("{SESSION}.jsonl"), |text| {
        text + concat!(
            r#"{"parentUuid":null,"isSidechain":true,"userType":"external","cwd":"/home/me/shop","sessionId":"5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f","version":"2.1.332","type":"user","uuid":"0e0e0e0e-0000-4000-8000-000000000001","timestamp":"2026-11-26T10:05:00.000Z","message":{"role":"user","content":"Check the build"},"agentId":"team-lead@core"}"#,
            "\n",
            r#"{"parentUuid":"0e0e0e0e-0000-4000-8000-000000000001","isSidechain":true,"userType":"external","cwd":"/home/me/shop","sessionId":"5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f","version":"2.1.332","type":"assistant","uuid":"0e0e0e0e-0000-4000-8000-000000000002","timestamp":"2026-11-26T10:05:05.000Z","requestId":"req_i1","message":{"id":"msg_i1","type":"message","role":"assistant","model":"claude-opus-4-7","content":[{"type":"text","text":"The build passes."}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":4}},"agentId":"team-lead@core"}"#,
            "\n"
        )
    });
    let ws = normalize::normalize(inputs);
    let s = &ws.sessions[0];
    let inline = agent(s, "team-lead@core");
    assert_eq!(s.agents[inline as usize].file, None);
    assert_eq!(s.agents[inline as usize].kind, AgentKind::Task);
}

#[test]
fn a_fork_context_ref_is_merged_only_where_it_made_a_forks_link() {
    const UNLINKED: &str = "fork reference that links no fork to a loaded line";
    let words = |ws: &Workspace| cctv::present::accounting::in_words(&ws.sessions[0].accounting);
    // In the folder, the fork's own reference made its link: merged, no line left unlinked.
    let base = words(&normalize::normalize(files()));
    assert!(!base.not_shown.contains_key(UNLINKED), "{base:?}");
    // Hand-written from the documented shape: the same reference in the session's own file,
    // where nothing reads it.
    let inputs = edited(files(), &format!("{SESSION}.jsonl"), |text| {
        text + r#"{"type":"fork-context-ref","parentSessionId":"5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f","parentLastUuid":"bf5c4dae-5a6b-4c7d-8e3f-4a5b6c7d8e9f","contextLength":5,"sessionId":"5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f","timestamp":"2026-11-26T10:09:00.000Z"}"#
            + "\n"
    });
    let with = words(&normalize::normalize(inputs));
    assert_eq!(with.merged, base.merged);
    assert_eq!(with.not_shown.get(UNLINKED), Some(&1), "{with:?}");
    // A fork whose parent line is not loaded: its reference links nothing.
    let agents_only: Vec<Input> = files().into_iter().filter(|i| i.name.contains("/subagents/")).collect();
    let orphaned = words(&normalize::normalize(agents_only));
    assert_eq!(orphaned.not_shown.get(UNLINKED), Some(&1), "{orphaned:?}");
}
