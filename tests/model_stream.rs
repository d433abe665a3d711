//! A file parsed as it arrives gives the lines of the whole file parsed at once, however it is
//! cut: `GrowingTranscript` against `Transcript::parse`, on real transcripts and on the edges
//! slicing can hit (a cut inside a character, between `\r` and `\n`, inside a BOM).

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::mem::MaybeUninit;

use cctv::model::{GrowingTranscript, Invalid, LineContent, Transcript};
use common::{fixture, fixture_files};

/// A real session of about 10 kB with non-ASCII text, small enough to cut at every size.
const SMALL_REAL: &str = "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-aa5ef13.jsonl";
/// A real session of 3.3 MB, cut in a few places.
const ATHENA_LARGE: &str = "tensiondriven__athena/data/claude-logs/archive/20250608_234910_claude_projects_backup/-Users-j-Code-athena/f059ad9a-9964-437c-90a1-28f4dd6d245b.jsonl";

/// Feeds `bytes` in slices of `slice` bytes and, like the loader, parses until caught up after
/// each one.
fn parse_in_slices(bytes: &[u8], slice: usize) -> Transcript {
    let mut growing = GrowingTranscript::new("t.jsonl", bytes.len()).unwrap();
    for chunk in bytes.chunks(slice) {
        growing.feed(chunk);
        while !growing.step(4096) {}
    }
    growing.finish()
}

/// Asserts `got` is what parsing `bytes` at once gives: the same bytes and the same lines, line
/// for line (the first differing line is named, not just a count).
fn assert_same(got: &Transcript, bytes: &[u8], what: &str) {
    let whole = Transcript::parse("t.jsonl", bytes.to_vec());
    assert_eq!(got.name, whole.name, "{what}: name");
    assert!(got.bytes == whole.bytes, "{what}: bytes differ");
    for (i, (a, b)) in got.lines.iter().zip(&whole.lines).enumerate() {
        assert_eq!(a, b, "{what}: line {} differs", i + 1);
    }
    assert_eq!(got.lines.len(), whole.lines.len(), "{what}: line count");
    assert_eq!(got.lines, whole.lines, "{what}");
}

#[test]
fn a_small_real_session_cut_at_every_slice_size_gives_the_lines_of_a_whole_parse() {
    let bytes = fixture(SMALL_REAL);
    assert!(bytes.len() > 5_000 && bytes.iter().any(|&b| b >= 0x80), "fixture changed");
    for slice in 1..=bytes.len() {
        assert_same(&parse_in_slices(&bytes, slice), &bytes, &format!("slices of {slice}"));
    }
}

#[test]
fn every_fixture_in_a_spread_of_slice_sizes_gives_the_lines_of_a_whole_parse() {
    let files = fixture_files();
    assert!(files.len() >= 25, "fixtures missing: found {}", files.len());
    for path in files {
        let name = path.to_string_lossy().into_owned();
        let bytes = fixture(&name);
        for slice in [1, 2, 3, 7, 64, 4096, 65536, bytes.len().max(1)] {
            assert_same(&parse_in_slices(&bytes, slice), &bytes, &format!("{name} in slices of {slice}"));
        }
    }
}

#[test]
fn a_cut_inside_a_multi_byte_character_waits_for_the_rest_of_it() {
    let bytes = fixture(SMALL_REAL);
    let lead = bytes.iter().position(|&b| b >= 0xC0).expect("a multi-byte character");
    // The cut falls after the lead byte, before its continuation bytes.
    assert_eq!(bytes[lead + 1] & 0xC0, 0x80);
    let mut growing = GrowingTranscript::new("t.jsonl", bytes.len()).unwrap();
    growing.feed(&bytes[..lead + 1]);
    while !growing.step(1) {}
    let line_start = growing.bytes_parsed();
    assert!(line_start <= lead, "the cut line is not parsed before the rest of it arrives");
    growing.feed(&bytes[lead + 1..]);
    while !growing.step(1) {}
    assert_same(&growing.finish(), &bytes, "cut inside a character");
}

#[test]
fn a_byte_order_mark_is_skipped_however_the_file_is_cut() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(fixture("M-Thisness__M-Claude/Archives/agent-ac46b1a.jsonl"));
    for slice in 1..=bytes.len() {
        let got = parse_in_slices(&bytes, slice);
        assert_eq!(got.lines[0].span.start, 3, "slices of {slice}: the BOM is not part of line 1");
        assert!(got.lines[0].entry().is_some(), "slices of {slice}: line 1 is an entry");
        assert_same(&got, &bytes, &format!("BOM in slices of {slice}"));
    }
}

#[test]
fn only_a_whole_byte_order_mark_at_the_start_is_skipped() {
    for bytes in [
        &b"\xEF\xBB\xBF"[..],
        b"\xEF\xBB",
        b"\xEF\xBB\n{}\n",
        b"\xEF\xBB\xBF\n{}",
        b"{}\n\xEF\xBB\xBF{}\n",
        b"\xEF\xBB\xBF\xEF\xBB\xBF{}",
    ] {
        for slice in 1..=bytes.len() {
            assert_same(&parse_in_slices(bytes, slice), bytes, &format!("{bytes:?} in slices of {slice}"));
        }
    }
}

#[test]
fn a_last_line_cut_mid_value_without_a_line_break_is_truncated_as_in_a_whole_parse() {
    let whole = fixture("M-Thisness__M-Claude/Archives/agent-ac46b1a.jsonl");
    let last_start = whole[..whole.len() - 1].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let bytes = &whole[..last_start + (whole.len() - last_start) / 2];
    for slice in 1..=bytes.len() {
        let got = parse_in_slices(bytes, slice);
        assert_eq!(
            got.lines.last().unwrap().content,
            LineContent::Invalid(Invalid::Truncated { last_line: true }),
            "slices of {slice}"
        );
        assert_same(&got, bytes, &format!("truncated in slices of {slice}"));
    }
}

#[test]
fn line_breaks_blank_lines_and_cr_lf_cut_anywhere_give_the_same_lines() {
    let bytes =
        "{\"type\":\"user\",\"x\":\"é—🦀\"}\r\n\r\n\n  \n// note\r\n[1]\n{\"a\":\n{\"b\":1}\r".as_bytes();
    for slice in 1..=bytes.len() {
        assert_same(&parse_in_slices(bytes, slice), bytes, &format!("slices of {slice}"));
    }
}

#[test]
fn stepping_with_small_budgets_between_feeds_gives_the_same_lines() {
    let bytes = fixture(SMALL_REAL);
    for (slice, budget, steps) in [(1, 1, 1), (7, 1, 2), (100, 50, 1), (1000, 1, 1), (3000, 200, 3)] {
        let mut growing = GrowingTranscript::new("t.jsonl", bytes.len()).unwrap();
        for chunk in bytes.chunks(slice) {
            growing.feed(chunk);
            // Not caught up, most of the time: the next feed comes before the parser is done.
            for _ in 0..steps {
                growing.step(budget);
            }
        }
        assert_same(&growing.finish(), &bytes, &format!("slices of {slice}, {steps} steps of {budget}"));
    }
}

#[test]
fn finishing_without_a_single_step_parses_everything() {
    let bytes = fixture(SMALL_REAL);
    let mut growing = GrowingTranscript::new("t.jsonl", 0).unwrap();
    for chunk in bytes.chunks(333) {
        growing.feed(chunk);
    }
    assert_same(&growing.finish(), &bytes, "no steps");
}

#[test]
fn an_empty_file_has_no_lines() {
    let mut growing = GrowingTranscript::new("t.jsonl", 0).unwrap();
    assert!(growing.step(1));
    growing.feed(b"");
    assert!(growing.step(1));
    let got = growing.finish();
    assert!(got.bytes.is_empty() && got.lines.is_empty());
    assert_same(&got, b"", "empty");
}

#[test]
fn progress_counts_bytes_fed_bytes_parsed_and_lines() {
    let mut growing = GrowingTranscript::new("t.jsonl", 64).unwrap();
    growing.feed(b"{\"a\":1}\n{\"b\"");
    assert_eq!((growing.bytes_fed(), growing.bytes_parsed(), growing.lines().len()), (12, 0, 0));
    assert!(growing.step(1), "the only whole line fits one step");
    assert_eq!((growing.bytes_fed(), growing.bytes_parsed(), growing.lines().len()), (12, 8, 1));
    growing.feed(b":2}\n{\"c\":3}\n");
    assert!(!growing.step(1), "one line per step of 1 byte: one more is left");
    assert_eq!((growing.bytes_parsed(), growing.lines().len()), (16, 2));
    assert!(growing.step(1));
    assert_eq!((growing.bytes_fed(), growing.bytes_parsed(), growing.lines().len()), (24, 24, 3));
    assert_eq!(growing.name(), "t.jsonl");
    assert_eq!(growing.bytes(), b"{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n");
}

#[test]
fn a_file_that_outgrows_its_expected_size_still_parses_whole() {
    let bytes = fixture(SMALL_REAL);
    let mut growing = GrowingTranscript::new("t.jsonl", 10).unwrap();
    for chunk in bytes.chunks(1000) {
        growing.feed(chunk);
        while !growing.step(64) {}
    }
    assert_same(&growing.finish(), &bytes, "outgrown");
}

/// Writes `chunk` into the space it is given, as a browser's `copy_to_uninit` does.
fn copy_into<'a>(spare: &'a mut [MaybeUninit<u8>], chunk: &[u8]) -> &'a mut [u8] {
    for (to, from) in spare.iter_mut().zip(chunk) {
        to.write(*from);
    }
    // SAFETY: every byte of `spare` was written just above (`chunk` is as long as `spare`).
    unsafe { &mut *(spare as *mut [MaybeUninit<u8>] as *mut [u8]) }
}

#[test]
fn feeding_in_place_gives_the_same_lines_as_feeding_a_slice() {
    let bytes = fixture(SMALL_REAL);
    for slice in [1, 5, 4096, bytes.len()] {
        let mut growing = GrowingTranscript::new("t.jsonl", bytes.len()).unwrap();
        for chunk in bytes.chunks(slice) {
            growing.feed_in_place(chunk.len(), |spare| copy_into(spare, chunk));
            while !growing.step(100) {}
        }
        assert_same(&growing.finish(), &bytes, &format!("in place, slices of {slice}"));
    }
}

#[test]
#[should_panic(expected = "must return the slice it was given")]
fn feeding_in_place_refuses_a_slice_other_than_the_one_given() {
    let mut growing = GrowingTranscript::new("t.jsonl", 4).unwrap();
    growing.feed_in_place(4, |_spare| Vec::leak(b"{}\n\n".to_vec()));
}

#[test]
fn what_is_parsed_so_far_is_the_file_cut_after_its_last_parsed_line() {
    for name in [SMALL_REAL, ATHENA_LARGE] {
        let bytes = fixture(name);
        let mut growing = GrowingTranscript::new("t.jsonl", bytes.len()).unwrap();
        let mut seen = 0;
        for chunk in bytes.chunks(bytes.len() / 7 + 1) {
            growing.feed(chunk);
            // A page shows the beginning while the rest arrives: after a step, not caught up.
            growing.step(bytes.len() / 20 + 1);
            let so_far = growing.parsed_so_far();
            assert_eq!(so_far.bytes, &bytes[..growing.bytes_parsed()], "{name}: bytes");
            assert_same(
                &so_far,
                &so_far.bytes.clone(),
                &format!("{name}: after {} bytes", so_far.bytes.len()),
            );
            assert!(so_far.lines.len() >= seen, "{name}: lines went missing");
            seen = so_far.lines.len();
        }
        assert!(seen > 0, "{name}: nothing was parsed early");
    }
}
