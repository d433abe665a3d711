//! The drift report over every real transcript in ../shared/fixtures: what cctv does not yet
//! recognise, stated exactly, so that a fixture bringing something new fails here until it is
//! read (or added below, with why).

mod common;

use std::collections::BTreeSet;

use cctv::insight::drift::drift;
use cctv::normalize;
use common::every_fixture;

/// Unrecognised on purpose: the hand-made edge-case fixture's broken lines, and (real, FSM1's
/// cipher-box) a tool name the model garbled with markup, which no reading could make a tool.
const DELIBERATE: &[(&str, &str)] = &[
    ("entry type", "(none)"),
    ("field", "silly"),
    ("field", "timesstamp"),
    ("tool", "FailingTool"),
    ("garbled tool name", "Task\" >\n<parameter name=\"description"),
];

#[test]
fn the_fixtures_hold_nothing_unrecognised_but_what_is_listed() {
    let report = drift(&normalize::normalize(every_fixture()));
    let found: BTreeSet<(String, String)> =
        report.unrecognised.iter().map(|u| (u.kind.to_owned(), u.name.clone())).collect();
    let expected: BTreeSet<(String, String)> =
        DELIBERATE.iter().map(|(k, n)| (k.to_string(), n.to_string())).collect();
    assert_eq!(found, expected);
    // The one line of a known type that does not fit is the edge-case fixture's deliberate one.
    assert_eq!(report.misfits.len(), 1, "{:?}", report.misfits);
    assert!(report.misfits[0].file.ends_with("edge_cases.jsonl"));
    // Every item says where it was seen and shows an example shorter than the line.
    assert!(report
        .unrecognised
        .iter()
        .all(|u| u.count > 0 && !u.example.is_empty() && u.example.len() <= 2049));
}
