//! The time line on real fixtures: calls that ran at once are side by side, never on top of each
//! other, sub-agents have lanes of their own, and idle stretches are cut out.

mod common;

use cctv::insight::chart::timeline_chart;
use cctv::insight::timeline::{timeline, Span, IDLE_MS};
use cctv::normalize::normalize;

fn overlap(a: &Span, b: &Span) -> bool {
    a.start < b.end && b.start < a.end
}

#[test]
fn three_agents_spawned_at_once_run_side_by_side_each_with_a_lane() {
    let ws = normalize(common::folder("moredip__session-share/samples/claude-code-projects"));
    let t = timeline(&ws, &ws.sessions[0]);
    assert_eq!(t.lanes.len(), 6, "the main conversation and five sub-agents");
    // The first response called Task three times (green, yellow and red curry) before any result.
    let first: Vec<&Span> = ["green", "yellow", "red"]
        .iter()
        .map(|c| {
            t.spans.iter().find(|s| s.lane == 0 && s.label.contains(&format!("Thai {c} curry"))).unwrap()
        })
        .collect();
    assert!(overlap(first[0], first[1]) && overlap(first[1], first[2]) && overlap(first[0], first[2]));
    let mut rows: Vec<usize> = first.iter().map(|s| s.row).collect();
    rows.sort();
    assert_eq!(rows, [0, 1, 2]);
    assert!(t.lanes[0].rows >= 3);
    // No two calls of a lane's row overlap.
    for a in &t.spans {
        for b in &t.spans {
            if a != b && a.lane == b.lane && a.row == b.row {
                assert!(!overlap(a, b), "{} and {}", a.label, b.label);
            }
        }
    }
    let chart = timeline_chart(&t, 1.0);
    let bars: Vec<_> = chart
        .bars
        .iter()
        .filter(|b| first.iter().any(|s| s.item == b.item && s.thread == b.thread))
        .collect();
    assert_eq!(bars.len(), 3);
    let mut ys: Vec<i64> = bars.iter().map(|b| b.y as i64).collect();
    ys.sort();
    ys.dedup();
    assert_eq!(ys.len(), 3, "drawn on three rows");
}

#[test]
fn idle_stretches_are_cut_out_of_the_line() {
    let ws = normalize(vec![common::input(
        "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl",
    )]);
    let t = timeline(&ws, &ws.sessions[0]);
    let idle = t.idle();
    assert!(!idle.is_empty());
    assert!(idle.iter().all(|i| i.end - i.start > IDLE_MS));
    // A day's session fits the width: the cuts take a few pixels each, not hours of them.
    let chart = timeline_chart(&t, 1.0);
    assert!(chart.width < 1000.0 + 40.0 * idle.len() as f64, "{}", chart.width);
    // Labels too close to the one before are left out, never drawn over it.
    assert!(!chart.cuts.is_empty() && chart.cuts.len() <= idle.len());
    assert!(chart.starts.windows(2).all(|w| w[1].0 - w[0].0 >= 72.0));
    assert!(chart.bars.windows(2).all(|w| w[0].x >= 0.0 && w[0].x <= chart.width));
    assert!(timeline_chart(&t, 4.0).width > chart.width * 3.0, "zoomed in");
}
