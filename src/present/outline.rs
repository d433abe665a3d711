//! A plain-text outline of a session, for people reviewing what normalize made of a file
//! (snapshot tests, `cctv-inspect --outline`).

use std::fmt::Write;

use crate::model::EntryKind;
use crate::normalize::{AgentKind, AgentLink, Item, ItemKind, Session, Thread, Workspace};
use crate::present::accounting::in_words;
use crate::text::format::squeeze;

pub fn outline(ws: &Workspace, session: &Session) -> String {
    let mut out = String::new();
    let name = session.file.map(|f| ws.files[f as usize].name.as_str()).unwrap_or("(no session file)");
    let _ = writeln!(out, "session {} ({name})", session.session_id.as_deref().unwrap_or("?"));
    let _ = writeln!(out, "title: {}", session.title.as_deref().unwrap_or("-"));
    thread(&mut out, ws, "main", &session.thread);
    for branch in &session.branches {
        let at = branch.fork_point.map(|l| format!("L{}", ws.line(l).number)).unwrap_or("start".into());
        thread(&mut out, ws, &format!("branch from {at}"), &branch.thread);
    }
    for (index, agent) in session.agents.iter().enumerate() {
        let link = match agent.link {
            AgentLink::Orphan => "orphan".to_string(),
            AgentLink::ToolCall { line, how } => format!("spawned at L{} ({how:?})", ws.line(line).number),
            AgentLink::At { line, how } => format!("born at L{} ({how:?})", ws.line(line).number),
        };
        let link = match &agent.kind {
            AgentKind::Task => match &agent.name {
                Some(name) => format!("named {name:?}, {link}"),
                None => link,
            },
            kind => format!("{kind:?}, {link}"),
        };
        let id = agent.agent_id.as_deref().unwrap_or("inline");
        thread(&mut out, ws, &format!("agent {index} {id}, {link}"), &agent.thread);
    }
    let a = &session.accounting;
    let _ = writeln!(
        out,
        "lines {}: shown {}, merged {}, not shown {:?}",
        a.lines,
        a.rendered,
        a.merged,
        in_words(a).not_shown
    );
    out
}

fn thread(out: &mut String, ws: &Workspace, title: &str, thread: &Thread) {
    let _ = writeln!(out, "[{title}] {} items, {} turns", thread.items.len(), thread.responses.len());
    for item in &thread.items {
        let _ = writeln!(out, "  {}", describe(ws, item));
    }
}

fn describe(ws: &Workspace, item: &Item) -> String {
    let line = ws.line(item.line);
    let src = &ws.file(item.line).bytes;
    let at = match item.block {
        Some(b) => format!("L{}.{b}", line.number),
        None => format!("L{}", line.number),
    };
    let mut flags = String::new();
    if item.meta {
        flags.push_str(" meta");
    }
    if item.synthetic {
        flags.push_str(" synthetic");
    }
    let entry = line.entry();
    let text = || squeeze(&ws.item_text(item).unwrap_or_default(), 60);
    let what = match &item.kind {
        ItemKind::Prompt => format!("prompt {:?}", text()),
        ItemKind::Text => format!("text {:?}", text()),
        ItemKind::Thinking => format!("thinking {:?}", text()),
        ItemKind::RedactedThinking => "redacted thinking".into(),
        ItemKind::ToolCall(call) => {
            let name = call.name.map(|n| n.decode(src).into_owned()).unwrap_or_default();
            let result = match call.result {
                Some(r) => {
                    format!("result L{}{}", ws.line(r.line).number, if r.is_error { " error" } else { "" })
                }
                None => "result missing".into(),
            };
            let mut s = format!("call {name} {result}");
            for (label, n) in [
                ("pre", call.pre_hooks.len()),
                ("post", call.post_hooks.len()),
                ("progress", call.progress.len()),
            ] {
                if n > 0 {
                    let _ = write!(s, " {label} {n}");
                }
            }
            for agent in &call.agents {
                let _ = write!(s, " -> agent {agent}");
            }
            s
        }
        ItemKind::OrphanResult => "result without call".into(),
        ItemKind::Command(c) | ItemKind::Shell(c) => {
            let kind = if matches!(item.kind, ItemKind::Command(_)) { "command" } else { "shell" };
            let mut s = format!("{kind} {:?}", text());
            if let Some(l) = c.expansion {
                let _ = write!(s, " expansion L{}", ws.line(l).number);
            }
            if !c.output.is_empty() {
                let _ = write!(s, " output {}", c.output.len());
            }
            s
        }
        ItemKind::Injected => format!("injected {:?}", text()),
        ItemKind::Event => {
            let kind = match entry.map(|e| (&e.kind, e.label(src))) {
                Some((EntryKind::System(_), (_, subtype))) => {
                    format!("system {}", subtype.unwrap_or_default())
                }
                Some((EntryKind::Attachment(_) | EntryKind::Progress(_), (type_name, subtype))) => {
                    format!("{type_name} {}", subtype.unwrap_or_default())
                }
                Some((EntryKind::Summary(_), _)) => "summary".into(),
                Some((EntryKind::PrLink(_), _)) => "pr-link".into(),
                Some((EntryKind::Record(_), (type_name, _))) => type_name.into_owned(),
                _ => "event".into(),
            };
            format!("event {kind}")
        }
        ItemKind::CompactBoundary(b) => format!(
            "compaction (summary {}, {} summary lines)",
            b.summary.map(|l| format!("L{}", ws.line(l).number)).unwrap_or("none".into()),
            b.summaries.len()
        ),
        ItemKind::UnknownBlock => "unknown block".into(),
        ItemKind::Unknown => "unknown entry".into(),
        ItemKind::Malformed => "malformed entry".into(),
    };
    let response = item.response.map(|r| format!(" t{r}")).unwrap_or_default();
    format!("{at:<8} {what}{response}{flags}")
}
