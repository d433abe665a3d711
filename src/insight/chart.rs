//! Charts as geometry: where each line, point and label goes, in the SVG's own units. The UI draws
//! them as SVG elements, themed by CSS. Plain geometry rather than a plotting crate: a chart here
//! is one line, a few ticks and marks, and its points must be links to rows, which a crate's
//! rendered SVG would not make.

use crate::insight::cost::dollars_label;
use crate::insight::overview::Context;
use crate::insight::timeline::Timeline;
use crate::normalize::ThreadRef;
use crate::text::format::{duration, thousands};

/// A point of a line chart, with what it says on hover and the row it opens.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub label: String,
    pub item: u32,
}

/// A vertical mark across the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub x: f64,
    pub label: String,
    pub item: u32,
    /// Drawn lighter: a micro-compaction.
    pub faint: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    pub width: f64,
    pub height: f64,
    /// The plot's box: left, top, right, bottom.
    pub plot: (f64, f64, f64, f64),
    /// The line through the points, as an SVG path (numbers only).
    pub path: String,
    pub points: Vec<Point>,
    /// Horizontal rules with their labels: (y, label).
    pub y_ticks: Vec<(f64, String)>,
    /// The limit's rule, if drawn: (y, label).
    pub limit: Option<(f64, String)>,
    pub marks: Vec<Mark>,
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 240.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 22.0;

/// `123K`, `1.2M`: a token count on an axis.
pub fn tokens_short(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=999_999 => format!("{}K", (n as f64 / 1e3).round()),
        _ => format!("{:.1}M", n as f64 / 1e6).replace(".0M", "M"),
    }
}

/// The context chart: tokens per response against the model's window, compactions marked.
pub fn context_chart(context: &Context) -> LineChart {
    let (left, top, right, bottom) = (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM);
    let n = context.points.len();
    let top_value = context.limit.max(context.points.iter().map(|p| p.tokens).max().unwrap_or(0)).max(1);
    let x_of =
        |i: f64| if n <= 1 { (left + right) / 2.0 } else { left + i / (n - 1) as f64 * (right - left) };
    let y_of = |tokens: u64| bottom - tokens as f64 / top_value as f64 * (bottom - top);
    let points: Vec<Point> = context
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| Point {
            x: round(x_of(i as f64)),
            y: round(y_of(p.tokens)),
            label: match p.dollars {
                Some(d) => format!(
                    "response {}: {} tokens of context · {}",
                    i + 1,
                    thousands(p.tokens),
                    dollars_label(d)
                ),
                None => format!("response {}: {} tokens of context", i + 1, thousands(p.tokens)),
            },
            item: p.item,
        })
        .collect();
    let path = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}{} {}", if i == 0 { "M" } else { "L" }, p.x, p.y))
        .collect::<Vec<_>>()
        .join(" ");
    let y_ticks = (0..=4)
        .map(|k| {
            let value = top_value / 4 * k;
            (round(y_of(value)), tokens_short(value))
        })
        .collect();
    let limit = Some((round(y_of(context.limit)), format!("window {}", tokens_short(context.limit))));
    let marks = context
        .compactions
        .iter()
        .map(|c| Mark {
            // Between the last point before it and the first after.
            x: round(x_of(c.after as f64 - 0.5).clamp(left, right)),
            label: if c.micro { "micro-compaction".into() } else { "compaction".into() },
            item: c.item,
            faint: c.micro,
        })
        .collect();
    LineChart {
        width: WIDTH,
        height: HEIGHT,
        plot: (left, top, right, bottom),
        path,
        points,
        y_ticks,
        limit,
        marks,
    }
}

/// A bar of the time line: a call, where it is drawn, what it says, the row it opens.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub label: String,
    pub failed: bool,
    pub thread: ThreadRef,
    pub item: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimelineChart {
    pub width: f64,
    pub height: f64,
    /// Each lane: its top, its height, its name.
    pub lanes: Vec<(f64, f64, String)>,
    pub bars: Vec<Bar>,
    /// Each cut: where, and how long the line skips (`2h 14m`).
    pub cuts: Vec<(f64, String)>,
    /// The prompts: where, and their row.
    pub prompts: Vec<(f64, u32)>,
    /// Where each active stretch begins: (x, the instant), for a clock label.
    pub starts: Vec<(f64, i64)>,
}

/// The height of a row of bars, and of a lane's title.
pub(crate) const BAR_ROW: f64 = 14.0;
const LANE_TITLE: f64 = 16.0;
const CUT: f64 = 28.0;
/// The width the activity takes at zoom 1.
const ACTIVE_WIDTH: f64 = 1000.0;

/// Room a label on the line takes: one closer to the last one kept is left out.
const LABEL_SPACE: f64 = 72.0;

/// The labels of `labels` (by x, in order) at least `space` apart.
fn spaced<T>(labels: impl Iterator<Item = (f64, T)>, space: f64) -> Vec<(f64, T)> {
    let mut out: Vec<(f64, T)> = Vec::new();
    for (x, label) in labels {
        if out.last().is_none_or(|(last, _)| x >= last + space) {
            out.push((x, label));
        }
    }
    out
}

/// The time line drawn `zoom` times wider than the width it fits at 1.
pub fn timeline_chart(timeline: &Timeline, zoom: f64) -> TimelineChart {
    let px_per_ms = ACTIVE_WIDTH * zoom.max(0.1) / timeline.active_ms().max(1) as f64;
    let left = 8.0;
    let x = |ms: i64| round(left + timeline.x(ms, px_per_ms, CUT));
    let mut lanes = Vec::new();
    let mut tops = Vec::new();
    let mut y = 22.0;
    for lane in &timeline.lanes {
        let height = LANE_TITLE + lane.rows as f64 * BAR_ROW + 6.0;
        lanes.push((y, height, lane.label.clone()));
        tops.push(y + LANE_TITLE);
        y += height;
    }
    let bars = timeline
        .spans
        .iter()
        .map(|s| {
            let start = x(s.start);
            Bar {
                x: start,
                y: tops[s.lane] + s.row as f64 * BAR_ROW,
                // A call of a few milliseconds is still something to point at.
                width: (x(s.end) - start).max(3.0),
                label: s.label.clone(),
                failed: s.failed,
                thread: s.thread,
                item: s.item,
            }
        })
        .collect();
    let cuts = spaced(
        timeline
            .idle()
            .iter()
            .map(|idle| (round(x(idle.start) + CUT / 2.0), duration((idle.end - idle.start) as f64))),
        LABEL_SPACE,
    );
    let prompts = timeline.prompts.iter().map(|&(ms, item)| (x(ms), item)).collect();
    let starts = spaced(timeline.pieces.iter().map(|&(start, _)| (x(start), start)), LABEL_SPACE);
    let width = round(x(timeline.pieces.last().map_or(0, |p| p.1)) + 16.0);
    TimelineChart { width, height: y + 4.0, lanes, bars, cuts, prompts, starts }
}

fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insight::overview::{Compaction, ContextPoint};

    #[test]
    fn points_span_the_plot_and_a_compaction_sits_between_its_neighbours() {
        let point = |tokens, item| ContextPoint { tokens, item, millis: None, dollars: None };
        let context = Context {
            points: vec![point(50_000, 1), point(150_000, 4), point(20_000, 9)],
            compactions: vec![Compaction { after: 2, item: 7, micro: false }],
            limit: 200_000,
        };
        let chart = context_chart(&context);
        let (left, top, right, bottom) = chart.plot;
        assert_eq!((chart.points[0].x, chart.points[2].x), (left, right));
        assert_eq!(chart.points[1].y, round(bottom - 0.75 * (bottom - top)));
        assert_eq!(
            chart.path,
            format!(
                "M{} {} L{} {} L{} {}",
                left, chart.points[0].y, chart.points[1].x, chart.points[1].y, right, chart.points[2].y
            )
        );
        let mark = &chart.marks[0];
        assert!(chart.points[1].x < mark.x && mark.x < chart.points[2].x);
        assert_eq!(chart.limit.as_ref().unwrap().0, top);
        assert_eq!(chart.y_ticks.last().unwrap().1, "200K");
        assert_eq!(chart.points[1].label, "response 2: 150,000 tokens of context");
        assert_eq!(tokens_short(1_000_000), "1M");
        assert_eq!(tokens_short(1_250_000), "1.2M");
    }
}
