//! What the page says about a whole session: its name in the selector, and the side panel.

use crate::model::tool_result::Todo;
use crate::model::{BlockKind, EntryKind, Tool};
use crate::normalize::about::{About, State};
use crate::normalize::{ItemKind, NotShown, Session, Workspace};
use crate::present::accounting;
use crate::present::tools::TodoView;
use crate::text::format::{self, duration, isolate, thousands};
use crate::text::markup::safe_href;

/// A session as the selector and the title bar name it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionLabel {
    /// The title (custom, AI, summary or first prompt), else the session id: transcript text.
    pub title: String,
    /// `2026-01-22 · 0.1 MB · claude-opus-4`.
    pub detail: String,
    /// The agent it runs as, in its colour; a background session; a mode other than the usual.
    pub badges: Vec<Badge>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Badge {
    /// Transcript text (an agent's name) or cctv's words.
    pub text: String,
    /// One of [`AGENT_COLORS`], never a colour taken from the file as written.
    pub color: Option<&'static str>,
}

/// The colours Claude Code gives agents (`agent-color`).
pub const AGENT_COLORS: &[&str] = &["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"];

/// The title's badges after the first `changes` changes of the session's state
/// ([`About::changes_by`] the line being read): its modes, tag and worktree then.
pub fn badges_after(s: &Session, changes: usize) -> Vec<Badge> {
    badges(&s.about, s.about.state_after(changes))
}

fn badges(about: &About, state: &State) -> Vec<Badge> {
    let mut out = Vec::new();
    if let Some(name) = about.agent_name.as_ref().or(about.started.agent_name.as_ref()) {
        let color =
            about.agent_color.as_deref().and_then(|c| AGENT_COLORS.iter().find(|k| **k == c)).copied();
        out.push(Badge { text: name.clone(), color });
    }
    let plain = |text: &str| Badge { text: text.to_owned(), color: None };
    match about.started.session_kind.as_deref() {
        Some("bg") => out.push(plain("background session")),
        Some(kind) if kind.starts_with("daemon") => out.push(plain("daemon session")),
        _ => {}
    }
    if about.continued_from.is_some() {
        out.push(plain("continues another session"));
    }
    if let Some(tag) = &state.tag {
        out.push(plain(&format!("#{}", isolate(tag))));
    }
    if let Some(w) = &state.worktree {
        let name = w.worktree_name.as_deref().map(isolate).unwrap_or_default();
        out.push(plain(format!("worktree {name}").trim_end()));
    }
    if state.ended_by_model {
        out.push(plain("ended by the model"));
    }
    if let Some(mode) = state.mode.as_deref().filter(|m| *m != "normal") {
        out.push(plain(&format!("{mode} mode")));
    }
    if let Some(mode) = state.permission_mode.as_deref().and_then(permission_mode) {
        out.push(plain(mode));
    }
    out
}

/// A permission mode in words; none for the default.
fn permission_mode(mode: &str) -> Option<&'static str> {
    Some(match mode {
        "plan" => "plan mode",
        "acceptEdits" => "accepting edits",
        "bypassPermissions" => "bypassing permissions",
        "dontAsk" => "not asking",
        "auto" => "auto mode",
        _ => return None,
    })
}

/// Where a session was started from (`entrypoint`), in words.
fn entrypoint(name: &str) -> String {
    match name {
        "cli" => "terminal (cli)".into(),
        "claude-vscode" => "VS Code".into(),
        "claude-desktop" => "Claude desktop app".into(),
        "sdk-ts" => "Agent SDK, TypeScript".into(),
        "sdk-py" => "Agent SDK, Python".into(),
        "sdk-cli" => "Agent SDK, command line".into(),
        "claude-code-github-action" => "GitHub Action".into(),
        other => other.to_owned(),
    }
}

impl SessionLabel {
    /// Title and detail on one line of plain text (for `<option>`s), the title isolated so its
    /// text cannot reorder the detail after it.
    pub fn one_line(&self) -> String {
        format!("{} — {}", isolate(&self.title), self.detail)
    }
}

pub fn session_label(ws: &Workspace, s: &Session) -> SessionLabel {
    let title = s.title.clone().unwrap_or_else(|| s.session_id.clone().unwrap_or_default());
    let date = s.stats.first_timestamp.as_deref().and_then(|t| t.get(..10)).unwrap_or("");
    let size: usize = s
        .file
        .iter()
        .chain(s.agents.iter().filter_map(|a| a.file.as_ref()))
        .map(|f| ws.files[*f as usize].bytes.len())
        .sum();
    let model = s.stats.models.keys().next().map(String::as_str).unwrap_or_default();
    SessionLabel {
        title,
        detail: format!("{date} · {} · {model}", format::size(size)),
        badges: badges(&s.about, &s.about.state),
    }
}

/// The sessions of one project (the folder Claude Code ran in) for the session selector.
#[derive(Clone, Debug, PartialEq)]
pub struct ProjectGroup {
    /// The folder (`cwd`), or the folder the files were dropped in, or "other sessions".
    pub project: String,
    /// (index into the workspace's sessions, its label), newest first.
    pub sessions: Vec<(usize, SessionLabel)>,
}

/// Every session, grouped by project, newest first: the project whose latest session is newest
/// comes first, and within a project the session last active.
pub fn session_groups(ws: &Workspace) -> Vec<ProjectGroup> {
    let mut groups: Vec<ProjectGroup> = Vec::new();
    let mut order: Vec<usize> = (0..ws.sessions.len()).collect();
    let latest = |i: usize| ws.sessions[i].stats.last_ms.or(ws.sessions[i].stats.first_ms);
    // Newest first; sessions without a time keep their load order, last.
    order.sort_by_key(|&i| std::cmp::Reverse(latest(i)));
    for i in order {
        let s = &ws.sessions[i];
        let project = project_of(ws, s);
        let label = session_label(ws, s);
        match groups.iter_mut().find(|g| g.project == project) {
            Some(group) => group.sessions.push((i, label)),
            None => groups.push(ProjectGroup { project, sessions: vec![(i, label)] }),
        }
    }
    groups
}

fn project_of(ws: &Workspace, s: &Session) -> String {
    if let Some(cwd) = &s.about.started.cwd {
        return cwd.clone();
    }
    let file = s.file.or_else(|| s.agents.iter().find_map(|a| a.file));
    match file.and_then(|f| ws.files.get(f as usize)).and_then(|f| f.name.rsplit_once('/')) {
        Some((folder, _)) => folder.to_owned(),
        None => "other sessions".to_owned(),
    }
}

/// The side panel: counts, the latest todo list, and where every line went.
#[derive(Clone, Debug, PartialEq)]
pub struct SideView {
    /// (label, value) rows saying where and how the session ran: folder, branch, versions, ….
    pub about: Vec<(&'static str, String)>,
    /// The pull requests it opened or linked: label, and the link where it is a safe one.
    pub pull_requests: Vec<(String, Option<String>)>,
    /// (label, value) rows of the stats list.
    pub stats: Vec<(&'static str, String)>,
    /// Tool name and calls, most used first.
    pub tools: Vec<(String, u64)>,
    pub todos: Option<Vec<TodoView>>,
    /// `120 lines: 100 shown, 15 folded into others, 5 not shown`.
    pub lines: String,
    /// `3 duplicate`, by reason.
    pub not_shown: Vec<String>,
    /// The first lines that could not be read: the file's name (transcript text), and the line's
    /// number and reason.
    pub unreadable: Vec<(String, String)>,
}

pub fn side_view(ws: &Workspace, s: &Session) -> SideView {
    let stats = &s.stats;
    let mut tools: Vec<(String, u64)> = stats.tool_calls.iter().map(|(k, v)| (k.clone(), *v)).collect();
    tools.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let models: Vec<&str> = stats.models.keys().map(String::as_str).collect();
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "—".into());
    let rows = vec![
        ("models", or_dash((!models.is_empty()).then(|| models.join(", ")))),
        ("tokens in", thousands(stats.input_tokens)),
        ("tokens out", thousands(stats.output_tokens)),
        ("cache read", thousands(stats.cache_read_tokens)),
        (
            "cache write",
            match stats.cache_creation_1h_tokens {
                0 => thousands(stats.cache_creation_tokens),
                hour => format!("{} (1 h: {})", thousands(stats.cache_creation_tokens), thousands(hour)),
            },
        ),
        ("prompts", stats.user_prompts.to_string()),
        ("responses", stats.responses.to_string()),
        ("tool calls", tools.iter().map(|t| t.1).sum::<u64>().to_string()),
        ("errors", format!("{} tool, {} API", stats.tool_errors, stats.api_errors)),
        // Not errors: what the person decided.
        ("rejected", stats.tool_rejections.to_string()),
        ("interrupted", stats.interruptions.to_string()),
        ("sub-agents", stats.sub_agents.to_string()),
        ("duration", or_dash(stats.wall_ms.map(|ms| duration(ms as f64)))),
        ("working time", or_dash((stats.turn_duration_ms > 0.0).then(|| duration(stats.turn_duration_ms)))),
    ];
    let a = &s.accounting;
    SideView {
        about: about_rows(ws, &s.about),
        pull_requests: s.about.pr_links.iter().filter_map(|&line| pull_request(ws, line)).collect(),
        stats: rows,
        tools,
        todos: latest_todos(ws, s).map(|t| TodoView::list(&t)),
        lines: format!(
            "{} lines: {} shown, {} folded into others, {} not shown",
            a.lines,
            a.rendered,
            a.merged,
            a.not_shown_total()
        ),
        not_shown: accounting::in_words(a).not_shown.iter().map(|(k, n)| format!("{n} {k}")).collect(),
        unreadable: s
            .not_shown
            .iter()
            .filter(|(_, reason)| *reason == NotShown::Invalid)
            .take(50)
            .map(|(line, _)| {
                let l = ws.line(*line);
                let reason = l.invalid().map(|i| i.reason()).unwrap_or_default();
                (ws.file(*line).name.clone(), format!("line {}: {reason}", l.number))
            })
            .collect(),
    }
}

fn about_rows(ws: &Workspace, about: &About) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    let started = &about.started;
    let mut push = |label, value: Option<String>| {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            rows.push((label, v));
        }
    };
    push("folder", started.cwd.clone());
    push("branch", started.git_branch.clone());
    push(
        "Claude Code",
        about.versions.as_ref().map(|(first, last)| match first == last {
            true => first.clone(),
            false => format!("{first} → {last}"),
        }),
    );
    push("started from", started.entrypoint.as_deref().map(entrypoint));
    push("team", started.team_name.clone());
    push("reasoning effort", about.effort.clone());
    push("agent definition", about.agent_setting.clone());
    // As the session ends; the title's badges say what they were as of the row being read.
    let state = &about.state;
    push("mode", state.mode.clone());
    push(
        "permission mode",
        state.permission_mode.clone().map(|m| match about.permission_changes {
            0 => m,
            1 => format!("{m} (changed once)"),
            n => format!("{m} (changed {n} times)"),
        }),
    );
    push("tag", state.tag.clone());
    push(
        "worktree",
        state.worktree.as_ref().map(|w| {
            // Each part is transcript text among cctv's words: isolated, so none reorders the rest.
            let name = w.worktree_name.as_deref().map(isolate).unwrap_or_default();
            match (w.worktree_path.as_deref().map(isolate), w.worktree_branch.as_deref().map(isolate)) {
                (Some(path), Some(branch)) => format!("{name} at {path} (branch {branch})"),
                (Some(path), None) => format!("{name} at {path}"),
                (None, Some(branch)) => format!("{name} (branch {branch})"),
                (None, None) => name,
            }
        }),
    );
    push("moved to", about.relocated_to.clone());
    push("ended", state.ended_by_model.then(|| "by the model".to_owned()));
    push(
        "derived from",
        about.derived_from.map(|line| {
            let src = ws.src(line);
            let value = serde_json::from_slice(ws.line(line).span.bytes(src)).unwrap_or_default();
            let fields = crate::present::fields::fields_in_words(&value, &[]);
            fields.iter().map(|f| isolate(f)).collect::<Vec<_>>().join(", ")
        }),
    );
    push("remote control", about.remote_control.then(|| "connected to claude.ai".to_owned()));
    push("continued in", about.continued_in.clone());
    push(
        "continued from",
        about.continued_from.as_ref().map(|c| {
            let name = ws.sessions.get(c.session as usize).and_then(session_name).unwrap_or_default();
            let lines = match c.copied {
                1 => "line is".to_owned(),
                n => format!("{n} lines are"),
            };
            format!("{name} (its first {lines} copied from there)")
        }),
    );
    push(
        "cost (Claude Code's tally)",
        about.cost_state.and_then(|line| {
            let src = ws.src(line);
            let value: serde_json::Value = serde_json::from_slice(ws.line(line).span.bytes(src)).ok()?;
            Some(format!("${:.2}", value.get("totalCostUSD")?.as_f64()?))
        }),
    );
    rows
}

/// What another session is called where this one points at it: its title, else its id.
pub(crate) fn session_name(session: &Session) -> Option<String> {
    session.title.clone().or(session.session_id.clone())
}

/// A `pr-link` line: `#12 owner/repo`, and its link where it is a safe one.
fn pull_request(ws: &Workspace, line: crate::normalize::LineRef) -> Option<(String, Option<String>)> {
    let EntryKind::PrLink(pr) = &ws.entry(line)?.kind else { return None };
    let src = ws.src(line);
    let url = pr.url.map(|u| u.decode(src).into_owned()).unwrap_or_default();
    let repository = pr.repository.map(|r| r.decode(src).into_owned()).unwrap_or_default();
    Some((format!("#{} {repository}", pr.number.unwrap_or(0)), safe_href(&url)))
}

/// The last todo list the session's main line wrote.
fn latest_todos(ws: &Workspace, s: &Session) -> Option<Vec<Todo>> {
    s.thread.items.iter().rev().find_map(|item| {
        let ItemKind::ToolCall(call) = &item.kind else { return None };
        let src = ws.src(item.line);
        if call.tool(src) != Tool::TodoWrite {
            return None;
        }
        let BlockKind::ToolUse(t) = &ws.block(item)?.kind else { return None };
        let input: serde_json::Value = crate::model::body::value(src, t.input?).ok()?;
        Some(Todo::list(input.get("todos")?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn general() -> Workspace {
        crate::fixtures::workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        )
    }

    #[test]
    fn the_side_panel_counts_a_real_session() {
        let ws = general();
        let side = side_view(&ws, &ws.sessions[0]);
        let get = |label| side.stats.iter().find(|(l, _)| *l == label).map(|(_, v)| v.as_str()).unwrap();
        assert_eq!(get("tool calls"), ws.sessions[0].stats.tool_calls.values().sum::<u64>().to_string());
        assert!(side.tools.windows(2).all(|w| w[0].1 >= w[1].1), "most used first");
        assert!(side.todos.as_ref().is_some_and(|t| !t.is_empty()), "the fixture writes todos");
        assert!(side.lines.starts_with(&format!("{} lines", ws.sessions[0].accounting.lines)));
    }

    #[test]
    fn a_real_session_says_where_and_how_it_ran() {
        // A 2.1.177 session (GPL-3.0 fixture, read by path) in bypass-permissions mode, from the cli.
        let ws = crate::fixtures::workspace(
            "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl",
        );
        let s = &ws.sessions[0];
        let label = session_label(&ws, s);
        assert_eq!(label.badges, [Badge { text: "bypassing permissions".into(), color: None }]);
        let side = side_view(&ws, s);
        let get = |label| side.about.iter().find(|(l, _)| *l == label).map(|(_, v)| v.as_str());
        assert_eq!(get("started from"), Some("terminal (cli)"));
        assert_eq!(get("Claude Code"), Some("2.1.177"));
        assert!(get("folder").is_some_and(|f| f.starts_with('/')));
        assert_eq!(get("permission mode"), Some("bypassPermissions"), "re-written every turn, never changed");
        // `mode: normal` is the usual: no badge, but the side panel says it.
        assert_eq!(get("mode"), Some("normal"));
        // Its title is Claude's (ai-title).
        assert_eq!(s.title, s.about.ai_title);
        assert!(s.title.is_some());
    }

    #[test]
    fn cache_kept_for_an_hour_is_counted_apart() {
        // 2.1.39 writes `usage.cache_creation` split by how long the cache is kept.
        let ws = crate::fixtures::workspace(
            "marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl",
        );
        let stats = &ws.sessions[0].stats;
        assert!(stats.cache_creation_1h_tokens > 0);
        assert!(stats.cache_creation_1h_tokens <= stats.cache_creation_tokens);
        let side = side_view(&ws, &ws.sessions[0]);
        let write = side.stats.iter().find(|(l, _)| *l == "cache write").unwrap();
        assert!(
            write.1.contains(&format!("(1 h: {})", thousands(stats.cache_creation_1h_tokens))),
            "{}",
            write.1
        );
    }

    #[test]
    fn only_a_known_agent_colour_becomes_a_style() {
        let mut about = About {
            agent_name: Some("reviewer".into()),
            agent_color: Some("purple".into()),
            ..About::default()
        };
        assert_eq!(badges(&about, &about.state), [Badge { text: "reviewer".into(), color: Some("purple") }]);
        about.agent_color = Some("red; background: url(https://x)".into());
        assert_eq!(badges(&about, &about.state), [Badge { text: "reviewer".into(), color: None }]);
    }

    #[test]
    fn sessions_are_grouped_by_project_newest_first() {
        // Each project's sessions, without what is beside them.
        let inputs = crate::fixtures::folder("handgemacht-ai__claude-code-log/test/test_data/real_projects")
            .into_iter()
            .filter(|input| input.name.ends_with(".jsonl") && input.name.matches('/').count() == 1)
            .collect();
        let ws = crate::normalize::normalize(inputs);
        let groups = session_groups(&ws);
        assert!(groups.len() >= 3, "{} projects", groups.len());
        assert_eq!(groups.iter().map(|g| g.sessions.len()).sum::<usize>(), ws.sessions.len());
        let latest = |i: usize| ws.sessions[i].stats.last_ms.or(ws.sessions[i].stats.first_ms);
        for group in &groups {
            let times: Vec<_> = group.sessions.iter().map(|(i, _)| latest(*i)).collect();
            assert!(times.windows(2).all(|w| w[0] >= w[1]), "{}: {times:?}", group.project);
            for (i, _) in &group.sessions {
                assert_eq!(project_of(&ws, &ws.sessions[*i]), group.project);
            }
        }
        let newest: Vec<_> = groups.iter().map(|g| latest(g.sessions[0].0)).collect();
        assert!(newest.windows(2).all(|w| w[0] >= w[1]), "{newest:?}");
    }

    #[test]
    fn a_title_cannot_reorder_the_words_after_it() {
        let mut ws = general();
        ws.sessions[0].title = Some("gnirts\u{202E} reversed".into());
        let label = session_label(&ws, &ws.sessions[0]);
        let line = label.one_line();
        let (title, detail) = line.split_once(" — ").unwrap();
        assert_eq!(title, "\u{2068}gnirts\u{202E} reversed\u{2069}");
        assert!(detail.contains(" MB · "), "{detail}");
        assert!(!detail.contains('\u{202E}'));
    }
}
