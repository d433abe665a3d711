//! The list of many sessions, on real folders: every fixture listed from its two ends agrees with
//! the same fixture read whole, and real `~/.claude/projects` copies sort into their projects.

mod common;

use cctv::catalog::shelf::{FileInfo, Shelf};
use cctv::catalog::summary::{from_ends, whole, Summary};
use cctv::catalog::{wider, HEAD_BYTES, TAIL_BYTES};
use cctv::normalize::{agent_id_of_name, normalize, Input, ThreadRef};
use cctv::present::link::resolve;
use cctv::query::across::found_in;
use cctv::query::grams::Grams;
use cctv::query::search::{Query, Scope};
use common::{fixture, fixture_files};

/// A session's summary from its ends, read as the page reads them: wider while an end holds no
/// whole line.
fn ends(name: &str, bytes: &[u8]) -> Summary {
    let size = bytes.len() as u64;
    let (mut head, mut tail) = (HEAD_BYTES.min(size), TAIL_BYTES.min(size));
    while let Some(more) = wider(&bytes[..head as usize], size) {
        head = more;
    }
    while let Some(more) = wider(&bytes[(size - tail) as usize..], size) {
        tail = more;
    }
    let from = (size - tail) as usize;
    from_ends(name, &bytes[..head as usize], &bytes[from..], from == 0)
}

fn whole_of(name: &str, bytes: Vec<u8>) -> Summary {
    let ws = normalize(vec![Input { name: name.to_owned(), bytes }]);
    whole(&ws, &ws.sessions[0])
}

#[test]
fn every_fixture_listed_from_its_ends_says_what_reading_it_whole_says() {
    let mut compared = 0;
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        if agent_id_of_name(&name).is_some() || name.ends_with("journal.jsonl") {
            continue;
        }
        let bytes = fixture(&name);
        let (quick, full) = (ends(&name, &bytes), whole_of(&name, bytes.clone()));
        if full.first_timestamp.is_none() {
            // Not a conversation (a hostile or empty sample): nothing to list it by but its name.
            continue;
        }
        assert_eq!(quick.session_id, full.session_id, "{name}");
        assert_eq!(quick.title, full.title, "{name}");
        assert_eq!(quick.first_timestamp, full.first_timestamp, "{name}");
        assert_eq!(quick.last_timestamp, full.last_timestamp, "{name}");
        assert_eq!(quick.cwd, full.cwd, "{name}");
        assert_eq!(quick.git_branch, full.git_branch, "{name}");
        assert_eq!(quick.versions, full.versions, "{name}");
        assert_eq!(quick.first_uuid, full.first_uuid, "{name}");
        assert!(
            full.models.iter().take(1).all(|m| quick.models.contains(m)) || bytes.len() > 192 * 1024,
            "{name}"
        );
        // Counts need every line: from the ends they are not guessed.
        assert_eq!(quick.counts, None, "{name}");
        assert!(full.counts.is_some(), "{name}");
        compared += 1;
    }
    assert!(compared >= 25, "only {compared} fixtures compared");
}

/// Every file under a fixtures folder, named as a folder pick names them.
fn folder(relative: &str) -> Vec<(FileInfo, Vec<u8>)> {
    common::folder(relative)
        .into_iter()
        .map(|Input { name, bytes }| (FileInfo { name, size: bytes.len() as u64 }, bytes))
        .collect()
}

/// A shelf of `files` with every session's ends read, as the page does it.
fn shelf_of(files: &[(FileInfo, Vec<u8>)]) -> Shelf {
    let mut shelf = Shelf::new(files.iter().map(|(f, _)| f.clone()).collect());
    for file in shelf.loose.clone() {
        let summary = ends(&files[file].0.name, &files[file].1);
        shelf.place_loose(file, summary.session_id.as_deref());
    }
    for s in 0..shelf.sessions.len() {
        if let Some(file) = shelf.sessions[s].file {
            let summary = ends(&files[file].0.name, &files[file].1);
            shelf.set_summary(s, summary);
        }
    }
    shelf.link_continued();
    shelf
}

#[test]
fn a_projects_folder_sorts_into_projects_with_their_sessions_and_sub_agents() {
    let files = folder("handgemacht-ai__claude-code-log/test/test_data/real_projects");
    let shelf = shelf_of(&files);
    assert!(shelf.loose.is_empty());
    let projects = shelf.projects();
    let folders: Vec<&str> = projects.iter().map(|p| p.folder.as_str()).collect();
    assert_eq!(projects.len(), 4, "{folders:?}");
    // Newest first, each with its sessions newest first.
    let last: Vec<_> = projects.iter().map(|p| p.last_ms).collect();
    assert!(last.windows(2).all(|w| w[0] >= w[1]), "{last:?}");
    for p in &projects {
        let times: Vec<_> = p.sessions.iter().map(|&s| shelf.sessions[s].last_ms()).collect();
        assert!(times.windows(2).all(|w| w[0] >= w[1]), "{}: {times:?}", p.folder);
    }
    let project = |folder: &str| projects.iter().find(|p| p.folder == folder).unwrap();
    // The two sessions of one project, by their own ids.
    assert_eq!(project("-Users-dain-workspace-claude-code-log-sample").sessions.len(), 2);
    // A sub-agent of the oldest layout joins the session its lines name; a nested one, its folder's.
    let with_agents = |folder: &str| &shelf.sessions[project(folder).sessions[0]];
    let deep = with_agents("-src-deep-manifest");
    assert_eq!(deep.key, "a7da6a22-facc-4fcd-8bab-f83c87862004");
    assert_eq!(deep.agents.len(), 1);
    let worktrees = with_agents("-experiments-worktrees");
    assert_eq!((worktrees.agents.len(), worktrees.beside.len()), (2, 2));
    // Paths: the sessions' own directory where it fits the folder name, else the name decoded
    // (this copy's sessions ran in a folder since renamed).
    assert_eq!(project("-src-deep-manifest").path, "/src/deep-manifest");
    assert_eq!(
        project("-Users-dain-workspace-coderabbit-review-helper").path,
        "/Users/dain/workspace/coderabbit-review-helper"
    );
    assert_eq!(
        project("-Users-dain-workspace-claude-code-log-sample").path,
        "/Users/dain/workspace/claude/code/log/sample"
    );
    // Every file is in exactly one session.
    let mut placed: Vec<usize> = shelf.sessions.iter().flat_map(|s| s.files().collect::<Vec<_>>()).collect();
    placed.sort();
    assert_eq!(placed, (0..files.len()).collect::<Vec<_>>());
    // Sizes add up.
    assert_eq!(projects.iter().map(|p| p.size).sum::<u64>(), files.iter().map(|(f, _)| f.size).sum::<u64>());
}

#[test]
fn a_session_that_begins_with_a_copy_of_another_is_linked_to_it() {
    // A resume or a background session replays the earlier session's lines under a new id
    // (no public pair of files has both halves; the copy is made from a real session the way
    // Claude Code makes one).
    let name =
        "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl";
    let original = fixture(name);
    let id = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68";
    let copy_id = "11111111-2222-4333-8444-555555555555";
    let mut copy = String::from_utf8(original.clone()).unwrap().replace(id, copy_id);
    copy.push_str(&format!(
        r#"{{"type":"user","uuid":"c0ffee00-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"{copy_id}","timestamp":"2030-01-01T00:00:00.000Z","message":{{"role":"user","content":"and now the next part"}}}}"#
    ));
    copy.push('\n');
    let files = vec![
        (FileInfo { name: format!("p/{copy_id}.jsonl"), size: copy.len() as u64 }, copy.into_bytes()),
        (FileInfo { name: format!("p/{id}.jsonl"), size: original.len() as u64 }, original),
    ];
    let shelf = shelf_of(&files);
    assert_eq!(shelf.sessions[0].key, copy_id);
    assert_eq!(shelf.sessions[0].continues, Some(1));
    assert_eq!(shelf.sessions[1].continues, None);
}

#[test]
fn the_oldest_and_a_single_project_folder_list_too() {
    let files =
        folder("tensiondriven__athena/data/claude-logs/archive/20250608_234910_claude_projects_backup");
    let shelf = shelf_of(&files);
    let projects = shelf.projects();
    assert_eq!(projects.len(), 2);
    assert!(projects.iter().all(|p| p.sessions.len() == 1));
    let paths: Vec<&str> = projects.iter().map(|p| p.path.as_str()).collect();
    assert!(paths.contains(&"/Users/j/Code/athena"), "{paths:?}");
    let files = folder("d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project");
    let shelf = shelf_of(&files);
    assert_eq!(shelf.sessions.len(), 1);
    assert_eq!(shelf.sessions[0].folder, "");
}

#[test]
fn a_search_across_sessions_finds_a_sub_agents_tool_output_in_context_with_a_link_to_its_row() {
    let ws = normalize(common::folder("moredip__session-share/samples/claude-code-projects"));
    let session = &ws.sessions[0];
    let query = Query { text: "adjectives describe".into(), scope: Scope::ToolOutput, ..Query::default() };
    let matcher = query.matcher().unwrap().unwrap();
    let (found, total) = found_in(&ws, session, &matcher, 50);
    assert!(total >= 1 && found.len() == total, "{total}");
    let f = found
        .iter()
        .find(|f| f.what.starts_with("sub-agent · WebSearch"))
        .expect("the WebSearch of a sub-agent");
    assert_eq!(f.matched, "adjectives describe");
    assert!(f.before.ends_with("Thai green curry "), "{f:?}");
    assert!(f.after.chars().count() <= 60 && !f.after.contains('\n'), "{f:?}");
    // The link names the session and leads to the very row, in the sub-agent's conversation.
    assert_eq!(f.link.session.as_deref(), Some("0ccf1a04-1b4c-43b6-8aa5-79e41db43a68"));
    let place = resolve(&ws, &f.link).expect("the link resolves");
    assert!(matches!(place.thread, ThreadRef::Agent(_)), "{place:?}");
    // The limit keeps the first matches and still counts them all.
    let everything = Query { text: "curry".into(), ..Query::default() }.matcher().unwrap().unwrap();
    let (first, all) = found_in(&ws, session, &everything, 2);
    assert!(first.len() == 2 && all > 2, "{all}");
}

#[test]
fn the_look_at_raw_bytes_and_at_the_index_never_rules_out_a_session_that_has_a_match() {
    // Queries with digits too: numbers in call inputs are searched as serde_json writes them.
    let queries =
        ["line 1", "2025-06", "exit code 1", "toolu_01", "1.0", "README", "claude-opus-4", "100", "true"];
    let mut checked = 0;
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let bytes = fixture(&name);
        let ws = normalize(vec![Input { name: name.clone(), bytes: bytes.clone() }]);
        let grams = Grams::of(&[&bytes]);
        for text in queries {
            for case_sensitive in [false, true] {
                let query = Query { text: text.into(), case_sensitive, ..Query::default() };
                let matcher = query.matcher().unwrap().unwrap();
                let found =
                    ws.sessions.iter().any(|s| !cctv::query::search::hits(&ws, s, &matcher).is_empty());
                if found {
                    assert!(
                        matcher.may_be_in_raw(&bytes),
                        "{name}: {text:?} matches but the raw look rules it out"
                    );
                    assert!(
                        matcher.may_be_in_grams(&grams),
                        "{name}: {text:?} matches but the index rules it out"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
    // And they rule out: a query with digits whose letters are nowhere in the file, and for the
    // index (a bit per three bytes, so words made of common sequences pass) a rarer one.
    let bytes =
        fixture("moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");
    let absent = Query { text: "zebra-quartz-4471".into(), ..Query::default() }.matcher().unwrap().unwrap();
    assert!(!absent.may_be_in_raw(&bytes));
    let absent = Query { text: "xylophone wombat".into(), ..Query::default() }.matcher().unwrap().unwrap();
    assert!(!absent.may_be_in_grams(&Grams::of(&[&bytes])));
}

#[test]
fn a_session_read_in_pieces_off_the_page_counts_and_searches_as_when_read_whole() {
    use cctv::engine::scan::SessionReader;
    let inputs = common::folder("moredip__session-share/samples/claude-code-projects");
    let size = inputs.iter().map(|i| i.bytes.len()).sum();
    let ws = normalize(inputs.clone());
    let query = Query { text: "adjectives describe".into(), ..Query::default() };
    let matcher = query.matcher().unwrap().unwrap();
    for piece in [1 << 20, 4093, 7] {
        let mut reader = SessionReader::new(size, true);
        for input in &inputs {
            reader.next_file(&input.name, input.bytes.len()).unwrap();
            for chunk in input.bytes.chunks(piece) {
                // Both ways in: as a browser copies (in place) and from a slice.
                if chunk.len() % 2 == 0 {
                    reader.feed_in_place(chunk.len(), |spare| {
                        for (to, &from) in spare.iter_mut().zip(chunk) {
                            to.write(from);
                        }
                        // SAFETY: every byte was written just above.
                        unsafe {
                            std::slice::from_raw_parts_mut(spare.as_mut_ptr().cast::<u8>(), spare.len())
                        }
                    });
                } else {
                    reader.feed(chunk);
                }
            }
        }
        assert!(reader.may_hold(&matcher));
        let absent =
            Query { text: "zebra-quartz-4471".into(), ..Query::default() }.matcher().unwrap().unwrap();
        assert!(!reader.may_hold(&absent));
        let scanned = reader.finish();
        assert_eq!(scanned.count(), Ok(Some(whole(&ws, &ws.sessions[0]))), "pieces of {piece}");
        let all: Vec<&[u8]> = inputs.iter().map(|i| &i.bytes[..]).collect();
        assert_eq!(scanned.grams, Some(Grams::of(&all)));
        let found = scanned.search(&matcher, 5);
        let (expected, total) = found_in(&ws, &ws.sessions[0], &matcher, 5);
        assert_eq!(found.len(), 1);
        assert_eq!((&found[0].found, found[0].total), (&expected, total));
        assert!(total >= 1);
    }
}

/// A `.jsonl` in a projects folder that holds no transcript (bytes, a JSON array, words) is said
/// to be none when read whole, and its session taken off the list; one of metadata alone is a
/// session of no prompts.
#[test]
fn a_file_that_is_no_transcript_is_left_off_the_list() {
    use cctv::engine::scan::SessionReader;
    let count = |bytes: &[u8]| {
        let mut reader = SessionReader::new(bytes.len(), true);
        reader.next_file("p/broken.jsonl", bytes.len()).unwrap();
        reader.feed(bytes);
        reader.finish().count()
    };
    for bytes in [&b"\x00\x01\x02 binary"[..], b"[1, 2, 3]\n", b"just some words\nand more\n"] {
        let why = count(bytes).unwrap_err();
        assert!(why.starts_with("not a Claude Code transcript"), "{why}");
    }
    let metadata = count(b"{\"type\":\"summary\",\"summary\":\"a title\"}\n").unwrap().unwrap();
    assert_eq!((metadata.title.as_deref(), metadata.counts.unwrap().prompts), (Some("a title"), 0));

    let mut shelf = Shelf::new(
        ["p/broken.jsonl", "p/good.jsonl"].map(|name| FileInfo { name: name.into(), size: 1 }).to_vec(),
    );
    shelf.sessions[0].left_out = true;
    assert_eq!(shelf.listed(), 1);
    let projects = shelf.projects();
    assert_eq!(projects[0].sessions, [1]);
}

/// Whether a folder opens on the list is told from its names until a second session is found:
/// the same answer as sorting every file onto a shelf, for folders of many sessions, of one
/// session with its sub-agents, and of loose sub-agent files.
#[test]
fn many_sessions_are_told_from_names_as_the_shelf_tells_them() {
    use cctv::catalog::shelf::holds_many;
    let by_shelf = |infos: &[FileInfo]| {
        let shelf = Shelf::new(infos.to_vec());
        shelf.sessions.len() + usize::from(!shelf.loose.is_empty()) > 1
    };
    let mut seen = [false, false];
    for relative in [
        "handgemacht-ai__claude-code-log/test/test_data/real_projects",
        "moredip__session-share/samples/claude-code-projects",
        "tensiondriven__athena/data/claude-logs/archive/20250608_234910_claude_projects_backup",
        "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project",
    ] {
        let infos: Vec<FileInfo> = folder(relative).into_iter().map(|(info, _)| info).collect();
        // The whole folder, and each session's own file with what sits under its folder.
        let mut sets = vec![infos.clone()];
        for own in infos.iter().filter(|f| f.name.ends_with(".jsonl")) {
            let stem = own.name.trim_end_matches(".jsonl");
            sets.push(
                infos
                    .iter()
                    .filter(|f| f.name == own.name || f.name.starts_with(&format!("{stem}/")))
                    .cloned()
                    .collect(),
            );
        }
        for set in sets {
            let expected = by_shelf(&set);
            seen[usize::from(expected)] = true;
            assert_eq!(
                holds_many(set.iter().map(|f| f.name.as_str())),
                expected,
                "{:?}",
                set.iter().map(|f| &f.name).collect::<Vec<_>>()
            );
        }
    }
    assert_eq!(seen, [true, true], "both answers were tried");
}

/// A session of which only its sub-agents' files were kept (fortress, 2.1.238: two
/// `<session>/subagents/agent-*.jsonl` and no `<session>.jsonl`) is dated by its sub-agents, and
/// its project's row says when, with no empty place where the date was (it read
/// "1 session ·  · 0.4 MB").
#[test]
fn a_session_kept_only_as_its_sub_agents_is_dated_by_them() {
    use cctv::engine::scan::SessionReader;
    use cctv::present::library::{project_rows, session_row};
    let files = folder("palimondo__fortress/projects");
    let mut shelf = shelf_of(&files);
    assert_eq!((shelf.sessions.len(), shelf.sessions[0].file), (1, None));
    let parts: Vec<usize> = shelf.sessions[0].files().collect();
    let size = parts.iter().map(|&f| files[f].1.len()).sum();
    let mut reader = SessionReader::new(size, false);
    for f in parts {
        reader.next_file(&files[f].0.name, files[f].1.len()).unwrap();
        reader.feed(&files[f].1);
    }
    let summary = reader.finish().count().unwrap().unwrap();
    // The agents' first and last lines: 18:05:17 (a6a8…'s compaction) to the last line written.
    assert_eq!(summary.first_timestamp.as_deref(), Some("2026-08-21T18:05:17.073Z"));
    assert!(summary.last_ms > summary.first_ms, "{summary:?}");
    shelf.set_summary(0, summary);
    let utc = &|_: i64| 0;
    let row = &project_rows(&shelf, &shelf.projects(), utc)[0];
    assert!(row.last.starts_with("2026-08-2"), "{row:?}");
    assert_eq!(row.detail(), format!("1 session · {} · {}", row.last, row.size));
    assert!(session_row(&shelf, 0, utc).timing().starts_with("2026-08-21 18:05 – "));

    // Before its files are read, nothing is said of when.
    let unread = shelf_of(&files);
    let row = &project_rows(&unread, &unread.projects(), utc)[0];
    assert_eq!(row.detail(), format!("1 session · {}", row.size));
}
