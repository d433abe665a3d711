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
/// Points drawn at most: one per two pixels of the plot.
const MAX_POINTS: usize = 320;
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
    // A chart is a few hundred pixels wide: of a run of responses that would share a pixel,
    // the one with the most context is drawn (a peak is what a reader looks for).
    let run = n.div_ceil(MAX_POINTS).max(1);
    let points: Vec<Point> = context
        .points
        .chunks(run)
        .enumerate()
        .filter_map(|(chunk, ps)| {
            let (offset, p) = ps.iter().enumerate().max_by_key(|(i, p)| (p.tokens, std::cmp::Reverse(*i)))?;
            let i = chunk * run + offset;
            let of_run = match ps.len() {
                1 => String::new(),
                len => format!(" (the most of responses {}-{})", chunk * run + 1, chunk * run + len),
            };
            Some(Point {
                x: round(x_of(i as f64)),
                y: round(y_of(p.tokens)),
                label: match p.dollars {
                    Some(d) => format!(
                        "response {}: {} tokens of context · {}{of_run}",
                        i + 1,
                        thousands(p.tokens),
                        dollars_label(d)
                    ),
                    None => format!("response {}: {} tokens of context{of_run}", i + 1, thousands(p.tokens)),
                },
                item: p.item,
            })
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
    /// How many calls it stands for: calls closer than a pixel at this zoom share a bar.
    pub calls: usize,
    /// One of them failed.
    pub failed: bool,
    /// The first of them.
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
    /// The prompts: where, and their row (of prompts closer than a tick, the first).
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

/// Room a prompt's tick takes.
const PROMPT_SPACE: f64 = 4.0;

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
    let mut bars: Vec<Bar> = Vec::new();
    let mut last_of_row: std::collections::HashMap<(usize, usize), usize> = Default::default();
    for s in &timeline.spans {
        let (start, end) = (x(s.start), x(s.end));
        // A call that begins where the last bar of its row ends (within a pixel, at this zoom)
        // is drawn in that bar: thousands of calls would otherwise be thousands of bars on top
        // of each other. The bar leads to its first call and says how many it holds.
        if let Some(bar) = last_of_row.get(&(s.lane, s.row)).map(|&at| &mut bars[at]) {
            if bar.x <= start && start <= bar.x + bar.width + 1.0 {
                bar.width = bar.width.max(end - bar.x).max(3.0);
                bar.calls += 1;
                bar.failed |= s.failed;
                continue;
            }
        }
        last_of_row.insert((s.lane, s.row), bars.len());
        bars.push(Bar {
            x: start,
            y: tops[s.lane] + s.row as f64 * BAR_ROW,
            // A call of a few milliseconds is still something to point at.
            width: (end - start).max(3.0),
            label: s.label.clone(),
            calls: 1,
            failed: s.failed,
            thread: s.thread,
            item: s.item,
        });
    }
    for bar in bars.iter_mut().filter(|b| b.calls > 1) {
        bar.width = round(bar.width);
        bar.label = format!("{} calls from {}", bar.calls, bar.label);
    }
    let cuts = spaced(
        timeline
            .idle()
            .iter()
            .map(|idle| (round(x(idle.start) + CUT / 2.0), duration((idle.end - idle.start) as f64))),
        LABEL_SPACE,
    );
    // A tick per prompt, but of prompts closer than a tick's width the first only: a session
    // of thousands of prompts would draw them on top of each other.
    let prompts = spaced(timeline.prompts.iter().map(|&(ms, item)| (x(ms), item)), PROMPT_SPACE);
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

    #[test]
    fn thousands_of_responses_are_drawn_as_a_few_hundred_points_that_keep_every_peak() {
        let points = (0..5000u32)
            .map(|i| ContextPoint { tokens: u64::from(i % 97) * 1000, item: i, millis: None, dollars: None })
            .collect();
        let context = Context { points, compactions: Vec::new(), limit: 200_000 };
        let chart = context_chart(&context);
        assert!(chart.points.len() <= MAX_POINTS, "{} points", chart.points.len());
        assert!(chart.points.iter().all(|p| p.label.contains("(the most of responses")));
        // Each run of 16 holds a multiple of 97 minus one at most 15 apart: its peak is kept.
        let highest = chart.points.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
        let (_, top, _, bottom) = chart.plot;
        assert_eq!(highest, round(bottom - 96_000.0 / 200_000.0 * (bottom - top)));
        assert_eq!(
            chart.points[0].label,
            "response 16: 15,000 tokens of context (the most of responses 1-16)"
        );
    }

    #[test]
    fn calls_closer_than_a_pixel_share_a_bar_and_prompts_a_tick_that_lead_to_the_first() {
        use crate::insight::timeline::{Lane, Span};
        let span = |start, end, item, failed| Span {
            start,
            end,
            lane: 0,
            row: 0,
            label: format!("call {item}"),
            failed,
            thread: ThreadRef::Main,
            item,
        };
        // 1,000 calls of 1 ms, one every 10 ms, then one apart from them.
        let mut spans: Vec<Span> = (0..1000).map(|i| span(i * 10, i * 10 + 1, i as u32, i == 500)).collect();
        spans.push(span(60_000, 61_000, 1000, false));
        let mut timeline = Timeline::default();
        timeline.lanes = vec![Lane { label: "Main conversation".into(), thread: ThreadRef::Main, rows: 1 }];
        timeline.pieces = vec![(0, 61_000)];
        timeline.spans = spans;
        timeline.prompts = (0..1000).map(|i| (i * 10, i as u32)).collect();
        let chart = timeline_chart(&timeline, 1.0);
        // 1,000 prompts over 164 px: a tick every 4 px at most, each leading to its first prompt.
        assert_eq!(chart.prompts.first(), Some(&(8.0, 0)));
        assert!(
            chart.prompts.len() <= 42 && chart.prompts.windows(2).all(|w| w[1].0 - w[0].0 >= PROMPT_SPACE)
        );
        assert_eq!(chart.bars.len(), 2);
        let first = &chart.bars[0];
        assert_eq!((first.calls, first.failed, first.item), (1000, true, 0));
        assert_eq!(first.label, "1000 calls from call 0");
        assert_eq!((chart.bars[1].calls, chart.bars[1].item), (1, 1000));
        // Zoomed in far enough, each call has its own bar.
        assert_eq!(timeline_chart(&timeline, 64.0).bars.len(), 1001);
    }
}
