//! What the lists of projects and sessions say, and in what order: plain strings, sorted and
//! filtered here so the page only draws them (what a search across sessions found is
//! `query::across`).

use crate::catalog::shelf::{Listed, Project, Shelf};
use crate::present::when::{date, short_clock, Zone};
use crate::text::format::{self, plural, squeeze};

/// How a project's sessions are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortBy {
    /// Last active first.
    #[default]
    Newest,
    Largest,
    Longest,
}

/// What the reader narrowed the sessions to. Empty fields keep everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Words in the title, the id, the branch or the directory (any case).
    pub text: String,
    /// Active on or after / on or before these days (`YYYY-MM-DD`, in the reader's zone).
    pub from: String,
    pub to: String,
    pub model: String,
    pub branch: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProjectRow {
    /// Into [`Shelf::projects`].
    pub index: usize,
    pub path: String,
    pub sessions: String,
    pub last: String,
    pub size: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SessionRow {
    /// Into [`Shelf::sessions`].
    pub session: usize,
    pub key: String,
    pub title: String,
    /// `2026-01-22 14:03 – 15:10`, or across days `2026-01-22 14:03 – 2026-01-23 09:12`.
    pub when: String,
    pub duration: String,
    pub size: String,
    /// `12 prompts · 40 tool calls · 2 sub-agents`, or what is known before the whole is read.
    pub counts: String,
    pub models: String,
    pub branch: String,
    pub version: String,
    /// The title of the session it continues.
    pub continues: Option<String>,
}

impl ProjectRow {
    /// How many sessions, when last active and how large, as far as each is known.
    pub fn detail(&self) -> String {
        said(&[&self.sessions, &self.last, &self.size])
    }
}

impl SessionRow {
    /// When, how long and how large, as far as each is known.
    pub fn timing(&self) -> String {
        said(&[&self.when, &self.duration, &self.size])
    }
}

/// The parts that say something, one after another: a part not known yet (a date before the
/// file is read) leaves no empty place between two dots.
fn said(parts: &[&str]) -> String {
    parts.iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join(" · ")
}

pub fn project_rows(shelf: &Shelf, projects: &[Project], zone: Zone) -> Vec<ProjectRow> {
    projects
        .iter()
        .enumerate()
        .map(|(index, p)| ProjectRow {
            index,
            path: p.path.clone(),
            sessions: plural(p.sessions.len() as u64, "session"),
            last: p
                .last_ms
                .map(|ms| format!("{} {}", date(ms, zone), short_clock(ms, zone)))
                .unwrap_or_default(),
            size: format::size(p.size as usize),
        })
        .filter(|_| !shelf.sessions.is_empty())
        .collect()
}

/// A project's sessions as the reader asked for them.
pub fn session_rows(
    shelf: &Shelf,
    project: &Project,
    sort: SortBy,
    filter: &ListFilter,
    zone: Zone,
) -> Vec<SessionRow> {
    session_order(shelf, project, sort, filter, zone)
        .into_iter()
        .map(|s| session_row(shelf, s, zone))
        .collect()
}

/// Which of a project's sessions the list shows, in the order the reader asked for: the list
/// says in words only the rows on screen ([`session_row`]).
pub fn session_order(
    shelf: &Shelf,
    project: &Project,
    sort: SortBy,
    filter: &ListFilter,
    zone: Zone,
) -> Vec<usize> {
    let mut sessions: Vec<usize> =
        project.sessions.iter().copied().filter(|&s| keeps(filter, &shelf.sessions[s], zone)).collect();
    let duration = |s: usize| shelf.sessions[s].summary.as_ref().and_then(|s| s.duration_ms());
    match sort {
        SortBy::Newest => {}
        SortBy::Largest => sessions.sort_by_key(|&s| std::cmp::Reverse(shelf.size(s))),
        SortBy::Longest => sessions.sort_by_key(|&s| std::cmp::Reverse(duration(s))),
    }
    sessions
}

/// A title or a branch is cut to this many characters on the list: one of 10 kB (a prompt, a
/// title a session set itself) made its row two thousand pixels tall.
const TITLE_CHARS: usize = 200;

pub fn session_row(shelf: &Shelf, session: usize, zone: Zone) -> SessionRow {
    let listed = &shelf.sessions[session];
    let summary = listed.summary.clone().unwrap_or_default();
    let when = match (summary.first_ms, summary.last_ms) {
        (Some(a), Some(b)) if date(a, zone) == date(b, zone) => {
            format!("{} {} – {}", date(a, zone), short_clock(a, zone), short_clock(b, zone))
        }
        (Some(a), Some(b)) => {
            format!("{} {} – {} {}", date(a, zone), short_clock(a, zone), date(b, zone), short_clock(b, zone))
        }
        (Some(t), None) | (None, Some(t)) => format!("{} {}", date(t, zone), short_clock(t, zone)),
        (None, None) => String::new(),
    };
    let files = listed.agents.len() as u64;
    let counts = match summary.counts {
        Some(c) => [
            plural(c.prompts, "prompt"),
            plural(c.tool_calls, "tool call"),
            plural(c.sub_agents, "sub-agent"),
        ]
        .join(" · "),
        None if listed.summary.is_none() => "reading…".to_owned(),
        None if files > 0 => format!("{} · counting…", plural(files, "sub-agent")),
        None => "counting…".to_owned(),
    };
    let version = match &summary.versions {
        Some((first, last)) if first != last => format!("v{first}–{last}"),
        Some((first, _)) => format!("v{first}"),
        None => String::new(),
    };
    SessionRow {
        session,
        key: listed.key.clone(),
        title: squeeze(summary.title.as_deref().unwrap_or(&listed.key), TITLE_CHARS),
        when,
        duration: summary.duration_ms().map(|d| format::duration(d as f64)).unwrap_or_default(),
        size: format::size(shelf.size(session) as usize),
        counts,
        models: summary.models.join(", "),
        branch: squeeze(summary.git_branch.as_deref().unwrap_or_default(), TITLE_CHARS),
        version,
        continues: listed.continues.map(|o| {
            let original = &shelf.sessions[o];
            let title = original.summary.as_ref().and_then(|s| s.title.as_deref());
            squeeze(title.unwrap_or(&original.key), TITLE_CHARS)
        }),
    }
}

fn keeps(filter: &ListFilter, listed: &Listed, zone: Zone) -> bool {
    let summary = listed.summary.as_ref();
    let field = |get: fn(&crate::catalog::summary::Summary) -> Option<&String>| {
        summary.and_then(get).map(String::as_str).unwrap_or_default()
    };
    let text = filter.text.trim().to_lowercase();
    if !text.is_empty() {
        let haystack = [
            field(|s| s.title.as_ref()),
            &listed.key,
            field(|s| s.git_branch.as_ref()),
            field(|s| s.cwd.as_ref()),
        ]
        .join("\n")
        .to_lowercase();
        if !text.split_whitespace().all(|word| haystack.contains(word)) {
            return false;
        }
    }
    if !filter.model.is_empty()
        && !summary.is_some_and(|s| s.models.iter().any(|m| m.contains(&filter.model)))
    {
        return false;
    }
    if !filter.branch.is_empty() && field(|s| s.git_branch.as_ref()) != filter.branch {
        return false;
    }
    // A session is in a date range when it was active in it at all.
    let day = |ms: Option<i64>| ms.map(|ms| date(ms, zone));
    let (first, last) = (day(summary.and_then(|s| s.first_ms)), day(listed.last_ms()));
    if !filter.from.is_empty() && last.as_ref().is_none_or(|d| *d < filter.from) {
        return false;
    }
    if !filter.to.is_empty() && first.or(last).is_none_or(|d| d > filter.to) {
        return false;
    }
    true
}

/// What the filters offer: the models and branches of a project's sessions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilterChoices {
    pub models: Vec<String>,
    pub branches: Vec<String>,
}

pub fn choices(shelf: &Shelf, project: &Project) -> FilterChoices {
    let (mut models, mut branches) = (Vec::new(), Vec::new());
    for summary in project.sessions.iter().filter_map(|&s| shelf.sessions[s].summary.as_ref()) {
        models.extend(summary.models.iter().cloned());
        branches.extend(summary.git_branch.iter().cloned());
    }
    for list in [&mut models, &mut branches] {
        list.sort();
        list.dedup();
    }
    FilterChoices { models, branches }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::shelf::FileInfo;
    use crate::catalog::summary::{Counts, Summary};

    const UTC: Zone = &|_| 0;

    fn shelf() -> Shelf {
        let file = |name: &str, size| FileInfo { name: name.to_owned(), size };
        let mut shelf = Shelf::new(vec![
            file("p/a.jsonl", 1000),
            file("p/b.jsonl", 5000),
            file("p/b/subagents/agent-x.jsonl", 500),
            file("p/c.jsonl", 10),
        ]);
        let day = |d: u32, h: u32| {
            crate::normalize::time::parse_millis(format!("2026-01-{d:02}T{h:02}:00:00Z").as_bytes())
        };
        let summary = |title: &str, first, last, branch: &str, model: &str| Summary {
            title: Some(title.to_owned()),
            first_ms: first,
            last_ms: last,
            git_branch: Some(branch.to_owned()),
            models: vec![model.to_owned()],
            ..Summary::default()
        };
        shelf.set_summary(0, summary("Fix the parser", day(10, 9), day(10, 17), "main", "claude-opus-4-5"));
        let mut b = summary("Write docs", day(12, 9), day(12, 10), "docs", "claude-sonnet-4-5");
        b.counts = Some(Counts { prompts: 3, tool_calls: 1, sub_agents: 1 });
        shelf.set_summary(1, b);
        shelf.set_summary(2, summary("Tiny", day(11, 9), day(13, 9), "main", "claude-opus-4-5"));
        shelf
    }

    #[test]
    fn sessions_sort_by_date_size_or_duration() {
        let shelf = shelf();
        let project = &shelf.projects()[0];
        let order = |sort| -> Vec<String> {
            session_rows(&shelf, project, sort, &ListFilter::default(), UTC)
                .into_iter()
                .map(|r| r.title)
                .collect()
        };
        assert_eq!(order(SortBy::Newest), ["Tiny", "Write docs", "Fix the parser"]);
        assert_eq!(order(SortBy::Largest), ["Write docs", "Fix the parser", "Tiny"]);
        assert_eq!(order(SortBy::Longest), ["Tiny", "Fix the parser", "Write docs"]);
    }

    #[test]
    fn filters_narrow_by_text_dates_model_and_branch() {
        let shelf = shelf();
        let project = &shelf.projects()[0];
        let titles = |filter: ListFilter| -> Vec<String> {
            session_rows(&shelf, project, SortBy::Newest, &filter, UTC).into_iter().map(|r| r.title).collect()
        };
        assert_eq!(
            titles(ListFilter { text: "PARSER fix".into(), ..ListFilter::default() }),
            ["Fix the parser"]
        );
        assert_eq!(
            titles(ListFilter { branch: "main".into(), ..ListFilter::default() }),
            ["Tiny", "Fix the parser"]
        );
        assert_eq!(titles(ListFilter { model: "sonnet".into(), ..ListFilter::default() }), ["Write docs"]);
        // Active at all in the range: "Tiny" ran from the 11th to the 13th.
        let range =
            ListFilter { from: "2026-01-11".into(), to: "2026-01-11".into(), ..ListFilter::default() };
        assert_eq!(titles(range), ["Tiny"]);
    }

    #[test]
    fn a_row_says_when_how_long_how_large_and_what_it_holds() {
        let shelf = shelf();
        let row = session_row(&shelf, 1, UTC);
        assert_eq!(row.when, "2026-01-12 09:00 – 10:00");
        assert_eq!(row.duration, "1h 00m");
        assert_eq!(row.counts, "3 prompts · 1 tool call · 1 sub-agent");
        assert_eq!(row.size, format::size(5500));
        let row = session_row(&shelf, 2, UTC);
        assert_eq!(row.when, "2026-01-11 09:00 – 2026-01-13 09:00");
        assert_eq!(row.counts, "counting…");
    }

    #[test]
    fn a_title_of_10_kb_is_one_short_line_on_the_list() {
        let mut shelf = shelf();
        let long = format!("first\nline {}", "<b>x</b>\u{202E}".repeat(1200));
        shelf.sessions[1].summary.as_mut().unwrap().title = Some(long);
        let row = session_row(&shelf, 1, UTC);
        assert_eq!(row.title.chars().count(), TITLE_CHARS + 1);
        assert!(row.title.starts_with("first line <b>x</b>") && row.title.ends_with('…'));
    }
}
