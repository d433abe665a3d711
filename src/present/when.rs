//! Times as a reader reads them: in their own time zone, the date where the day changes, and
//! "42 min later" where the session paused. The zone is a function from an instant to its offset
//! (the browser's, in the page; a fixed one in tests), so this stays plain Rust.

use crate::normalize::pace::{self, Pace};
use crate::normalize::time::parse_millis;
use crate::normalize::{Item, Session, Workspace};
use crate::present::rows::Row;

/// Minutes east of UTC at an instant (milliseconds since the epoch): `+60` for Paris in winter.
pub(crate) type Zone<'a> = &'a dyn Fn(i64) -> i32;

/// A zone that asks `ask` (the browser's: a call into JavaScript) a few times per week of time
/// met, not once per instant: the contents and the dates above the rows ask for each of tens of
/// thousands of prompts of a GB session. What is known is one stretch of time with its offset:
/// asked at an instant and a week before and after it, an equal answer stands for the week
/// between (no zone changes its offset twice within a week); a different one is narrowed down to
/// within a quarter hour of where it changed.
pub struct KnownZone<F> {
    ask: F,
    /// From, to (inclusive) and the offset between.
    known: std::cell::Cell<Option<(i64, i64, i32)>>,
}

const QUARTER_HOUR_MS: i64 = 15 * 60 * 1000;
const WEEK_MS: i64 = 7 * 24 * 60 * 60 * 1000;

impl<F: Fn(i64) -> i32> KnownZone<F> {
    pub fn new(ask: F) -> Self {
        KnownZone { ask, known: std::cell::Cell::new(None) }
    }

    /// Minutes east of UTC at `ms`.
    pub fn offset(&self, ms: i64) -> i32 {
        if let Some((from, to, offset)) = self.known.get() {
            if (from..=to).contains(&ms) {
                return offset;
            }
        }
        let offset = (self.ask)(ms);
        let (from, to) = (self.edge(ms, offset, -WEEK_MS), self.edge(ms, offset, WEEK_MS));
        self.known.set(Some((from, to, offset)));
        offset
    }

    /// The instant farthest from `ms` towards `ms + reach` (a week either way) known to have
    /// `offset`, as `ms` has.
    fn edge(&self, ms: i64, offset: i32, reach: i64) -> i64 {
        let (mut same, mut other) = (ms, ms.saturating_add(reach));
        if (self.ask)(other) == offset {
            return other;
        }
        while (other - same).abs() > QUARTER_HOUR_MS {
            let middle = same + (other - same) / 2;
            if (self.ask)(middle) == offset {
                same = middle;
            } else {
                other = middle;
            }
        }
        same
    }
}

/// A pause at least this long between two rows is shown as one.
pub(crate) const GAP_MS: i64 = 10 * 60 * 1000;

/// When an item's line was written, in milliseconds since the epoch.
pub(crate) fn item_millis(ws: &Workspace, item: &Item) -> Option<i64> {
    let stamp = ws.entry(item.line)?.envelope.timestamp?;
    parse_millis(stamp.key(ws.src(item.line)))
}

/// `14:03:22` in the reader's zone.
pub fn clock(ms: i64, zone: Zone) -> String {
    let (_, seconds) = local(ms, zone);
    format!("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
}

/// `14:03`, for lists where seconds are noise.
pub fn short_clock(ms: i64, zone: Zone) -> String {
    clock(ms, zone)[..5].to_owned()
}

/// `2026-01-22` in the reader's zone.
pub(crate) fn date(ms: i64, zone: Zone) -> String {
    let (days, _) = local(ms, zone);
    let (y, m, d) = civil(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `42 min later`, `3 h 5 min later`, `2 days later`.
pub fn later(ms: i64) -> String {
    let minutes = ms / 60_000;
    match minutes {
        0..60 => format!("{minutes} min later"),
        60..1440 if minutes % 60 == 0 => format!("{} h later", minutes / 60),
        60..1440 => format!("{} h {} min later", minutes / 60, minutes % 60),
        _ if minutes / 1440 == 1 => "1 day later".to_owned(),
        _ => format!("{} days later", minutes / 1440),
    }
}

/// What is said above a row: the date, where the day changed since the row before (and on the
/// first row with a time), and the pause since the row before, where it was long.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Above {
    pub date: Option<String>,
    pub gap: Option<String>,
}

/// For each row that needs one (by index into `rows`), what is said above it. Rows are compared
/// with the row before them that has a time, in the order shown.
pub fn above(ws: &Workspace, session: &Session, rows: &[Row], zone: Zone) -> Vec<(usize, Above)> {
    pace::finish(above_paced(ws, session, rows, zone, &mut Pace::never()))
}

/// [`above`], pausing where `pace` says: every row's time is read, and a GB session has millions
/// of rows.
pub async fn above_paced(
    ws: &Workspace,
    session: &Session,
    rows: &[Row],
    zone: Zone<'_>,
    pace: &mut Pace<'_>,
) -> Vec<(usize, Above)> {
    let mut out = Vec::new();
    let mut previous: Option<(i64, i64)> = None;
    for (index, row) in rows.iter().enumerate() {
        pace.step().await;
        let Some(ms) = session.item(row.thread, row.item).and_then(|i| item_millis(ws, i)) else { continue };
        // A row written before the one above it (a sub-agent's row under its call) says nothing:
        // its date and pause would put the rows after it under the wrong day.
        if previous.is_some_and(|(before, _)| ms < before) {
            continue;
        }
        let day = local(ms, zone).0;
        let mut above = Above::default();
        if previous.is_none_or(|(_, d)| d != day) {
            above.date = Some(date(ms, zone));
        }
        if let Some((before, _)) = previous {
            if ms - before >= GAP_MS {
                above.gap = Some(later(ms - before));
            }
        }
        if above != Above::default() {
            out.push((index, above));
        }
        previous = Some((ms, day));
    }
    out
}

/// (days since the epoch, seconds into that day) in the reader's zone.
fn local(ms: i64, zone: Zone) -> (i64, i64) {
    let seconds = ms.div_euclid(1000) + i64::from(zone(ms)) * 60;
    (seconds.div_euclid(86_400), seconds.rem_euclid(86_400))
}

/// The calendar date of a day number (days since 1970-01-01), after Howard Hinnant's
/// `civil_from_days`.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const UTC: Zone = &|_| 0;

    #[test]
    fn clocks_and_dates_follow_the_zone() {
        let ms = parse_millis(b"2026-01-22T23:30:05.158Z").unwrap();
        assert_eq!((clock(ms, UTC), date(ms, UTC)), ("23:30:05".into(), "2026-01-22".into()));
        let paris: Zone = &|_| 60;
        assert_eq!((clock(ms, paris), date(ms, paris)), ("00:30:05".into(), "2026-01-23".into()));
        let la: Zone = &|_| -480;
        assert_eq!((short_clock(ms, la), date(ms, la)), ("15:30".into(), "2026-01-22".into()));
        let leap = parse_millis(b"2024-02-29T12:00:00Z").unwrap();
        assert_eq!(date(leap, UTC), "2024-02-29");
        assert_eq!(date(0, UTC), "1970-01-01");
        assert_eq!(date(-1, UTC), "1969-12-31");
    }

    #[test]
    fn a_known_zone_answers_as_the_zone_at_every_instant_asking_it_a_few_times_a_week() {
        // Paris in 2026: +60, then +120 from 01:00 UTC on 29 March, +60 again from 01:00 UTC on
        // 25 October; and a zone of its own that moves by 30 minutes at a quarter past an hour.
        let spring = parse_millis(b"2026-03-29T01:00:00Z").unwrap();
        let autumn = parse_millis(b"2026-10-25T01:00:00Z").unwrap();
        let paris = |ms: i64| if (spring..autumn).contains(&ms) { 120 } else { 60 };
        let odd_change = parse_millis(b"2026-03-30T04:15:00Z").unwrap();
        let odd = |ms: i64| if ms < odd_change { 330 } else { 300 };
        let start = parse_millis(b"2026-03-20T00:00:00Z").unwrap();
        for zone in [&paris as &dyn Fn(i64) -> i32, &odd] {
            let asked = std::cell::Cell::new(0);
            let known = KnownZone::new(|ms| {
                asked.set(asked.get() + 1);
                zone(ms)
            });
            // Every 7 minutes and a second over 20 days, a few steps back, and the same instants
            // backwards (as a list sorted newest first asks).
            let forward = (0..4200).map(|k| start + k * 421_000);
            let instants: Vec<i64> =
                forward.clone().chain([start, spring - 1, spring]).chain(forward.rev()).collect();
            for ms in instants {
                assert_eq!(known.offset(ms), zone(ms), "at {ms}");
            }
            assert!(asked.get() < 120, "asked {} times for 8,403 instants", asked.get());
        }
    }

    #[test]
    fn pauses_read_in_words() {
        assert_eq!(later(42 * 60_000 + 59_000), "42 min later");
        assert_eq!(later(120 * 60_000), "2 h later");
        assert_eq!(later(185 * 60_000), "3 h 5 min later");
        assert_eq!(later(1440 * 60_000 + 1), "1 day later");
        assert_eq!(later(3 * 1440 * 60_000), "3 days later");
    }

    #[test]
    fn a_real_session_says_its_date_once_and_its_long_pauses() {
        // This athena session runs over three days (UTC), with long pauses.
        let ws = crate::fixtures::workspace(
            "tensiondriven__athena/data/claude-logs/archive/20250608_234910_claude_projects_backup/-Users-j-Code-experiments-notes-export/9acf0b36-fef3-4804-b46c-36f79bf1f248.jsonl",
        );
        let s = &ws.sessions[0];
        let rows = crate::present::rows::rows(s, &Default::default(), &|_| true);
        let marks = above(&ws, s, &rows, UTC);
        let dates: Vec<_> = marks.iter().filter_map(|(_, a)| a.date.clone()).collect();
        assert_eq!(dates.len(), 3, "{dates:?}");
        assert!(dates.windows(2).all(|w| w[0] < w[1]), "{dates:?}");
        let gaps = marks.iter().filter(|(_, a)| a.gap.is_some()).count();
        assert!(gaps > 0, "{marks:?}");
        // Every gap is a real pause between the rows either side of it.
        for (index, above) in &marks {
            if above.gap.is_some() {
                let item = s.item(rows[*index].thread, rows[*index].item).unwrap();
                let ms = item_millis(&ws, item).unwrap();
                let before = rows[..*index]
                    .iter()
                    .filter_map(|r| item_millis(&ws, s.item(r.thread, r.item).unwrap()))
                    .max()
                    .unwrap();
                assert!(ms - before >= GAP_MS);
            }
        }
    }
}
