//! A session followed while Claude Code writes it gives, at every moment, what opening its files
//! at that moment gives: fed in arbitrary pieces (cut inside lines and inside UTF-8 characters,
//! sub-agent files appearing later), the followed workspace has the outline of the files cut
//! after their last whole line; and a rewrite is told from an append.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::normalize::live::{Growth, Live, OVERLAP};
use cctv::normalize::pace::{self, Pace};
use cctv::normalize::{self, Input, Workspace};
use cctv::present::outline::outline;

/// A session with five sub-agents in `<uuid>/subagents/`, with non-ASCII text in each file.
const MOREDIP: &str = "moredip__session-share/samples/claude-code-projects";

fn outline_of(ws: &Workspace) -> String {
    ws.sessions.iter().map(|s| outline(ws, s)).collect::<Vec<_>>().join("\n")
}

/// What opening the files gives when each holds its first `cut` bytes: whole lines only, as a
/// follower shows them (a line still being written is not shown yet).
fn opened_at(files: &[Input], cuts: &[usize]) -> String {
    let inputs = files
        .iter()
        .zip(cuts)
        .filter(|(_, &cut)| cut > 0)
        .map(|(f, &cut)| {
            let whole = f.bytes[..cut].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            Input { name: f.name.clone(), bytes: f.bytes[..whole].to_vec() }
        })
        .collect();
    outline_of(&normalize::normalize(inputs))
}

/// A small deterministic generator of piece sizes.
struct Pieces(u64);

impl Pieces {
    fn next(&mut self, max: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        1 + (self.0 % max as u64) as usize
    }
}

/// Offsets inside multi-byte characters (after a character's first byte).
fn inside_characters(bytes: &[u8]) -> Vec<usize> {
    (1..bytes.len()).filter(|&i| bytes[i] & 0xC0 == 0x80).collect()
}

#[test]
fn a_session_fed_in_pieces_shows_what_its_files_hold_at_every_step() {
    let files = common::folder(MOREDIP);
    assert_eq!(files.len(), 6, "the session and its five sub-agents");
    let session = files.iter().position(|f| !f.name.contains('/')).unwrap();
    let mut live = Live::new();
    let mut cuts = vec![0; files.len()];
    // The session's file is followed from its first 1,000 bytes; each sub-agent file appears
    // once the session is a third written.
    live.add(&files[session].name, &files[session].bytes[..1000]);
    cuts[session] = 1000;
    let mut pieces = Pieces(0x2545_f491_4f6c_dd1d);
    let mut split_characters = 0;
    let mut steps = 0;
    while cuts.iter().zip(&files).any(|(&c, f)| c < f.bytes.len()) {
        let i = steps % files.len();
        steps += 1;
        let file = &files[i];
        if cuts[i] == file.bytes.len() || (i != session && cuts[session] < files[session].bytes.len() / 3) {
            continue;
        }
        if cuts[i] == 0 {
            let first = pieces.next(4000).min(file.bytes.len());
            live.add(&file.name, &file.bytes[..first]);
            cuts[i] = first;
        } else {
            // Every third piece ends inside the next multi-byte character, if there is one.
            let inside = inside_characters(&file.bytes[cuts[i] + 1..]).first().map(|o| cuts[i] + 1 + o);
            let end = match inside {
                Some(at) if steps % 3 == 0 => {
                    split_characters += 1;
                    at
                }
                _ => (cuts[i] + pieces.next(3000)).min(file.bytes.len()),
            };
            assert_eq!(live.compare(&file.name, end), Growth::Appended(end - cuts[i]));
            let from = live.read_from(&file.name);
            assert_eq!(from, cuts[i].saturating_sub(OVERLAP));
            assert_eq!(live.take(&file.name, from, &file.bytes[from..end]), Growth::Appended(end - cuts[i]));
            cuts[i] = end;
        }
        assert_eq!(
            outline_of(&live.workspace()),
            opened_at(&files, &cuts),
            "after step {steps}, cuts {cuts:?}"
        );
    }
    assert!(split_characters >= 10, "cuts inside characters: {split_characters}");
    // In the end, exactly the whole session, every sub-agent nested under its call.
    let whole = outline_of(&normalize::normalize(files.clone()));
    assert_eq!(outline_of(&live.workspace()), whole);
    let agents: usize = live.workspace().sessions.iter().map(|s| s.agents.len()).sum();
    assert_eq!(agents, 5);
}

#[test]
fn a_file_that_shrinks_or_is_replaced_is_a_rewrite() {
    let files = common::folder(MOREDIP);
    let file = files.iter().find(|f| !f.name.contains('/')).unwrap();
    let mut live = Live::new();
    live.add(&file.name, &file.bytes[..20_000]);
    assert_eq!(live.compare(&file.name, 20_000), Growth::Same);
    assert_eq!(live.compare(&file.name, 19_999), Growth::Rewritten);
    assert_eq!(live.compare("other.jsonl", 10), Growth::Rewritten);
    // Grown, but not from what was read: other bytes where the old end was.
    let mut replaced = file.bytes[..30_000].to_vec();
    replaced[19_990] ^= 1;
    let from = live.read_from(&file.name);
    assert_eq!(live.take(&file.name, from, &replaced[from..]), Growth::Rewritten);
    // Nothing of the replacement was taken: it is still the file as first read.
    assert_eq!(live.read(&file.name), Some(20_000));
    assert_eq!(live.take(&file.name, from, &file.bytes[from..30_000]), Growth::Appended(10_000));
}

/// The page tells workspaces apart by their generation (what the Share tab found holds for one
/// generation): each workspace made has its own, the same files made twice included, and a
/// followed session that grew is a new one.
#[test]
fn every_workspace_made_has_its_own_generation_and_a_grown_one_a_new_one() {
    let files = common::folder(MOREDIP);
    let file = files.iter().find(|f| !f.name.contains('/')).unwrap();
    let first = normalize::normalize(vec![file.clone()]);
    let second = normalize::normalize(vec![file.clone()]);
    assert_ne!(first.generation, second.generation, "the same files, made twice");
    assert_eq!(first.clone().generation, first.generation, "a clone holds the same files");
    assert_ne!(Workspace::default().generation, Workspace::default().generation);

    let mut live = Live::new();
    live.add(&file.name, &file.bytes[..20_000]);
    let before = live.workspace();
    let from = live.read_from(&file.name);
    assert_eq!(live.take(&file.name, from, &file.bytes[from..30_000]), Growth::Appended(10_000));
    let grown = live.workspace();
    assert!(grown.files[0].lines.len() > before.files[0].lines.len(), "more lines were read");
    assert_ne!(grown.generation, before.generation);
}

#[test]
fn following_a_large_session_pauses_for_the_page_and_shows_the_same() {
    // 3.3 MB: its first half parsed when following starts, then the rest appended at once, more
    // than the room kept after the half (a megabyte): its bytes move to a larger buffer. Parsing,
    // moving, copying for normalize and normalizing go in steps of a megabyte or so.
    let input = common::input("entireio__cli/18/4069756ffc/0/full.jsonl");
    let half = input.bytes.len() / 2;
    let mut pause = common::EveryTime(0);
    let mut live = Live::new();
    pace::finish(live.add_paced(&input.name, &input.bytes[..half], &mut Pace::with(&mut pause)));
    let from = live.read_from(&input.name);
    let growth =
        pace::finish(live.take_paced(&input.name, from, &input.bytes[from..], &mut Pace::with(&mut pause)));
    assert_eq!(growth, Growth::Appended(input.bytes.len() - half));
    let reading = pause.0;
    assert!(reading >= 4, "reading 3.3 MB in two goes paused {reading} times");
    let ws = pace::finish(live.workspace_paced(&mut Pace::with(&mut pause)));
    assert!(pause.0 - reading >= 4, "copying and linking paused {} times", pause.0 - reading);
    assert_eq!(outline_of(&ws), outline_of(&live.workspace()));
    assert_eq!(outline_of(&ws), outline_of(&normalize::normalize(vec![input])));
}
