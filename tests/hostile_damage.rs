//! Every real fixture cut short at many places and with bytes flipped: nothing panics, the damaged
//! line is reported, and every intact line parses exactly as it did.
//!
//! `make test` tries every cut and flip below (`CCTV_EVERY_CASE=1`); `make test-native`, which
//! is run after each change, tries a sample of the costly ones (see [`Sample`]).

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::model::{self, Invalid, Line};
use cctv::normalize::{self, Input};
use common::{fixture, fixture_files};

/// Which of a fixture's spread cuts and flips are tried.
///
/// What a cut or a flip proves depends on the byte it lands on (inside a string, a key, a number,
/// a multi-byte character, next to a line break) and on the lines before it, not on which
/// fortieth of the file it is. Each spread cut costs a parse and a normalize of the file up to
/// it, each flip one of the whole file: about 44 passes over every fixture (33 MB in all), 30
/// CPU-seconds in a debug build. The sample takes one spread cut in 8 and one flip in 6, from an
/// offset that moves with the fixture's place in the list: each fixture is still cut in 4 or 5
/// places and flipped in 4, all along its length, and each spread position is tried on one
/// fixture in 8 (cuts) or 6 (flips). The cuts aimed at particular bytes (after multi-byte lead
/// bytes, inside quotes) lie near the start of a file, cost little, and are all tried. Fixed, not
/// random: a failure comes back on the next run; the counts the tests assert say the sample did
/// not shrink to nothing.
struct Sample {
    every_case: bool,
    file: usize,
}

impl Sample {
    fn new(file: usize) -> Self {
        Sample { every_case: std::env::var_os("CCTV_EVERY_CASE").is_some(), file }
    }

    /// Whether spread position `k` is tried, one in `stride` when sampling.
    fn takes(&self, k: usize, stride: usize) -> bool {
        self.every_case || (k + self.file).is_multiple_of(stride)
    }
}

/// Offsets to cut at: spread over the file (sampled), next to every multi-byte character's first
/// bytes, and just inside string quotes.
fn cuts(bytes: &[u8], sample: &Sample) -> Vec<usize> {
    let mut at: Vec<usize> = (1..40).filter(|&i| sample.takes(i, 8)).map(|i| bytes.len() * i / 40).collect();
    at.extend(bytes.iter().enumerate().filter(|(_, &b)| b >= 0xC0).take(20).map(|(i, _)| i + 1));
    at.extend(bytes.iter().enumerate().filter(|(_, &b)| b == b'"').step_by(97).take(20).map(|(i, _)| i + 1));
    at.sort_unstable();
    at.dedup();
    at
}

fn same(a: &Line, b: &Line) -> bool {
    a.span == b.span && a.content == b.content
}

#[test]
fn a_file_cut_anywhere_keeps_every_whole_line_and_reports_the_cut_one() {
    let mut tried = 0;
    let files = fixture_files();
    for (file, path) in files.iter().enumerate() {
        let name = path.to_string_lossy().into_owned();
        let bytes = fixture(&name);
        let whole = model::parse(&bytes);
        for cut in cuts(&bytes, &Sample::new(file)) {
            tried += 1;
            let part = &bytes[..cut];
            let lines = model::parse(part);
            let ends_on_a_break = part.last() == Some(&b'\n');
            for (i, line) in lines.iter().enumerate() {
                let last = i + 1 == lines.len();
                if last && !ends_on_a_break {
                    // The cut line: parsed as it stands if it happens to be whole JSON, else reported.
                    if !same(line, &whole[i]) {
                        if let Some(invalid) = line.invalid() {
                            assert!(
                                matches!(
                                    invalid,
                                    Invalid::Truncated { last_line: true }
                                        | Invalid::InvalidUtf8 { .. }
                                        | Invalid::NotJson { .. }
                                        | Invalid::Blank
                                        | Invalid::NotObject { .. }
                                ),
                                "{name} cut at {cut}: {invalid:?}"
                            );
                        }
                    }
                } else {
                    assert!(same(line, &whole[i]), "{name} cut at {cut}: line {} changed", line.number);
                }
            }
            let ws = normalize::normalize(vec![Input { name: name.clone(), bytes: part.to_vec() }]);
            for s in &ws.sessions {
                let a = &s.accounting;
                assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines, "{name} cut at {cut}");
            }
        }
    }
    // At least 4 spread cuts per fixture (sampled), besides those aimed at particular bytes.
    assert!(tried >= files.len() * 4, "{tried} cuts in {} fixtures", files.len());
}

#[test]
fn a_flipped_byte_damages_only_its_own_line() {
    let mut tried = 0;
    let files = fixture_files();
    for (file, path) in files.iter().enumerate() {
        let name = path.to_string_lossy().into_owned();
        let bytes = fixture(&name);
        let whole = model::parse(&bytes);
        let sample = Sample::new(file);
        for k in (1..25).filter(|&k| sample.takes(k, 6)) {
            let at = bytes.len() * k / 25;
            // Flipping a line break would merge or split lines; damage within a line is the case.
            if matches!(bytes[at], b'\n' | b'\r') || matches!(bytes[at] ^ 0x5a, b'\n' | b'\r') {
                continue;
            }
            tried += 1;
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x5a;
            let lines = model::parse(&damaged);
            assert_eq!(lines.len(), whole.len(), "{name} flip at {at}");
            let hit = whole.iter().position(|l| l.span.range().contains(&at));
            for (i, (a, b)) in lines.iter().zip(&whole).enumerate() {
                if Some(i) != hit {
                    assert!(same(a, b), "{name} flip at {at}: line {} changed", a.number);
                }
            }
            let ws = normalize::normalize(vec![Input { name: name.clone(), bytes: damaged }]);
            for s in &ws.sessions {
                let a = &s.accounting;
                assert_eq!(a.rendered + a.merged + a.not_shown_total(), a.lines, "{name} flip at {at}");
            }
        }
    }
    // Four flips per fixture when sampled (fewer where one would land on a line break).
    assert!(tried >= files.len() * 3, "{tried} flips in {} fixtures", files.len());
}
