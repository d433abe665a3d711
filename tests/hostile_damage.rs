//! Every real fixture cut short at many places and with bytes flipped: nothing panics, the damaged
//! line is reported, and every intact line parses exactly as it did.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use cctv::model::{self, Invalid, Line};
use cctv::normalize::{self, Input};
use common::{fixture, fixture_files};

/// Offsets to cut at: spread over the file, next to every multi-byte character's first bytes,
/// and just inside string quotes.
fn cuts(bytes: &[u8]) -> Vec<usize> {
    let mut at: Vec<usize> = (1..40).map(|i| bytes.len() * i / 40).collect();
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
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let bytes = fixture(&name);
        let whole = model::parse(&bytes);
        for cut in cuts(&bytes) {
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
}

#[test]
fn a_flipped_byte_damages_only_its_own_line() {
    for path in fixture_files() {
        let name = path.to_string_lossy().into_owned();
        let bytes = fixture(&name);
        let whole = model::parse(&bytes);
        for k in 1..25 {
            let at = bytes.len() * k / 25;
            // Flipping a line break would merge or split lines; damage within a line is the case.
            if matches!(bytes[at], b'\n' | b'\r') || matches!(bytes[at] ^ 0x5a, b'\n' | b'\r') {
                continue;
            }
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
}
