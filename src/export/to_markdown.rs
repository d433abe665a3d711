//! A session, some of its turns, or one turn as Markdown, for pasting into an issue, a pull
//! request or a chat: the prompts, Claude's answers, each tool call as one line with its output
//! folded in `<details>`, edits as `diff` blocks, and (when asked) thinking, sub-agents and
//! system events.
//!
//! Transcript text goes into fenced blocks with a fence longer than any run of backticks inside
//! it, so a pasted transcript cannot close its block and turn into markup of its own; what the
//! person typed is quoted with `<` and `&` escaped, so it cannot open HTML either; Claude's own
//! Markdown is kept as Markdown, with a fence it left open closed again, and then made inert
//! ([`inert`]: no raw HTML, no link to a script, no heading at a turn's level). Bidi controls
//! are written as their code points everywhere.

use std::ops::Range;

use crate::export::inert::{self, inline_code, unix_lines, visible_controls};
use crate::normalize::{Item, ItemKind, ItemRef, Session, ThreadRef, Workspace};
use crate::present::calls::{call_view, CallView};
use crate::present::event::{event_view, EventView};
use crate::present::tools::{tool_body, Change, ToolBody};
use crate::text::diff::RowKind;

/// What an export holds besides prompts, answers and tool calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MarkdownOptions {
    /// Claude's thinking, folded.
    pub thinking: bool,
    /// What each tool returned, folded (the call itself is always there).
    pub tool_output: bool,
    /// Each sub-agent's conversation, folded under the call that started it.
    pub sub_agents: bool,
    /// What Claude Code noted around the conversation: compactions, API errors, hooks.
    pub system_events: bool,
}

impl Default for MarkdownOptions {
    fn default() -> Self {
        MarkdownOptions { thinking: false, tool_output: true, sub_agents: false, system_events: false }
    }
}

/// Whether [`MarkdownOptions::sub_agents`] changes what [`session`] writes: some sub-agent was
/// started in the session's own conversation (by a call, or born at one of its rows). A
/// sub-agent's file without its session's is written whole either way.
pub fn sub_agents_matter(session: &Session) -> bool {
    let spawned = |item: &Item| matches!(&item.kind, ItemKind::ToolCall(call) if !call.agents.is_empty());
    session.thread.items.iter().any(spawned)
        || session.born.iter().any(|(at, _)| at.thread == ThreadRef::Main)
}

/// `session` as Markdown: its title and what it was, then its turns (those in `turns`, by
/// number from 0, or all), each under a heading.
pub fn session(
    ws: &Workspace,
    session: &Session,
    options: MarkdownOptions,
    turns: Option<Range<usize>>,
) -> String {
    let title =
        session.title.clone().or(session.session_id.clone()).unwrap_or_else(|| "Claude Code session".into());
    let mut out = format!("# {}\n\n", escape_inline(&one_line(&title, 200)));
    let mut about = Vec::new();
    if let Some(t) = &session.stats.first_timestamp {
        about.push(escape_inline(&t.chars().take(16).collect::<String>().replace('T', " ")));
    }
    about.extend(session.stats.models.keys().map(|m| escape_inline(m)));
    about.push(format!("{} prompts", session.stats.user_prompts));
    out.push_str(&format!("*{}*\n\n", about.join(" · ")));
    let starts = session.thread.turn_starts();
    let range = turns.unwrap_or(0..starts.len());
    for (n, &first) in starts.iter().enumerate().take(range.end).skip(range.start) {
        let end = starts.get(n + 1).map_or(session.thread.items.len(), |&next| next as usize);
        let heading = session.thread.items[first as usize..end]
            .iter()
            .find(|it| it.is_typed_prompt())
            .and_then(|it| ws.item_text(it))
            .map(|t| one_line(&t, 80))
            .unwrap_or_else(|| "Before the first prompt".into());
        out.push_str(&format!("## {}. {}\n\n", n + 1, escape_inline(&heading)));
        out.push_str(&items(ws, session, ThreadRef::Main, first as usize..end, options));
    }
    if session.thread.items.is_empty() {
        // Sub-agents' files without their session's: their conversations are all there is (the
        // viewer shows them as the session's rows), so each is said whole, under what it is;
        // not also folded under another, where one was born in another's thread.
        let options = MarkdownOptions { sub_agents: false, ..options };
        for (agent, a) in session.agents.iter().enumerate() {
            let kind =
                crate::present::agents::label(ws, session, agent as u32).map_or("sub-agent", |l| l.kind);
            let about = a.description.clone().or(a.agent_type.clone()).unwrap_or_default();
            let heading = match about.trim() {
                "" => capitalized(kind),
                about => format!("{}: {}", capitalized(kind), escape_inline(&one_line(about, 80))),
            };
            out.push_str(&format!("## {heading}\n\n"));
            out.push_str(&items(
                ws,
                session,
                ThreadRef::Agent(agent as u32),
                0..a.thread.items.len(),
                options,
            ));
        }
    }
    visible_controls(out.trim_end()) + "\n"
}

fn capitalized(text: &str) -> String {
    text.chars().take(1).flat_map(char::to_uppercase).chain(text.chars().skip(1)).collect()
}

/// The turn that begins at item `first` of `thread`: that row and every row up to the next
/// prompt the person typed.
pub fn turn(ws: &Workspace, session: &Session, thread: ThreadRef, first: u32) -> String {
    let last = session.thread(thread).turn_end(first as usize);
    let out = items(ws, session, thread, first as usize..last + 1, MarkdownOptions::default());
    visible_controls(out.trim_end()) + "\n"
}

/// Rows `range` of `thread`, each followed by a blank line, and after each, with sub-agents
/// asked for, the forks and side questions born at it.
fn items(
    ws: &Workspace,
    session: &Session,
    thread: ThreadRef,
    range: Range<usize>,
    options: MarkdownOptions,
) -> String {
    let mut out = String::new();
    let start = range.start;
    for (offset, item) in session.thread(thread).items.get(range).unwrap_or_default().iter().enumerate() {
        let part = item_markdown(ws, session, item, options);
        if !part.is_empty() {
            out.push_str(&part);
            out.push_str("\n\n");
        }
        if options.sub_agents {
            for agent in session.born_at(ItemRef::new(thread, (start + offset) as u32)) {
                let kind = crate::present::agents::label(ws, session, agent).map_or("sub-agent", |l| l.kind);
                out.push_str(agent_details(ws, session, agent, kind, options).trim_start());
                out.push_str("\n\n");
            }
        }
    }
    out
}

/// A sub-agent's conversation, folded under what it is (`Sub-agent: Review the parser`).
fn agent_details(
    ws: &Workspace,
    session: &Session,
    agent: u32,
    kind: &str,
    options: MarkdownOptions,
) -> String {
    let Some(a) = session.agents.get(agent as usize) else { return String::new() };
    let about = a.description.clone().or(a.agent_type.clone()).unwrap_or_default();
    let inner = items(ws, session, ThreadRef::Agent(agent), 0..a.thread.items.len(), options);
    format!(
        "\n\n<details><summary>{}: {}</summary>\n\n{}</details>",
        capitalized(kind),
        escape_html(&one_line(&about, 80)),
        inner
    )
}

fn item_markdown(ws: &Workspace, session: &Session, item: &Item, options: MarkdownOptions) -> String {
    let text = || ws.item_text(item).unwrap_or_default();
    match &item.kind {
        ItemKind::Prompt if item.is_typed_prompt() => {
            // As typed: what looks like Markdown in a prompt is shown as the characters it is.
            let quoted: Vec<String> =
                unix_lines(&text()).lines().map(|l| format!("> {}", escape_inline(l))).collect();
            format!("**You:**\n\n{}", quoted.join("\n"))
        }
        ItemKind::Command(_) | ItemKind::Shell(_) => format!("**You ran:** {}", inline_code(&text())),
        ItemKind::Text => format!("**Claude:**\n\n{}", claude_markdown(text().trim())),
        ItemKind::Thinking if options.thinking => {
            format!(
                "<details><summary>Thinking</summary>\n\n{}\n\n</details>",
                claude_markdown(text().trim())
            )
        }
        ItemKind::ToolCall(call) => {
            let mut out = tool(&call_view(ws, item, call), options);
            if options.sub_agents {
                for &agent in &call.agents {
                    out.push_str(&agent_details(ws, session, agent, "sub-agent", options));
                }
            }
            out
        }
        ItemKind::CompactBoundary(_) if options.system_events => "*Conversation compacted*".into(),
        ItemKind::Event if options.system_events => match event_view(ws, item) {
            EventView::Line { text, .. } => format!("*{}*", escape_inline(&one_line(&text, 400))),
            EventView::Summary(text) => format!("*Summary:* {}", escape_inline(&one_line(&text, 400))),
            EventView::Context { label, text, .. } => {
                format!("*{}: {}*", escape_inline(&label), escape_inline(&one_line(&text, 400)))
            }
            _ => String::new(),
        },
        _ => String::new(),
    }
}

/// A diff's rows as unified-diff lines.
fn diff_lines(rows: &[crate::text::diff::Row]) -> Vec<String> {
    rows.iter()
        .map(|r| match r.kind {
            RowKind::Hunk => r.text.clone(),
            RowKind::Context => format!(" {}", r.text),
            RowKind::Added => format!("+{}", r.text),
            RowKind::Removed => format!("-{}", r.text),
        })
        .collect()
}

/// Output longer than this is cut in the Markdown (with a note saying how much was left out).
const OUTPUT_LIMIT: usize = 4000;

fn tool(call: &CallView, options: MarkdownOptions) -> String {
    let target = call.target();
    let mut out = match target.is_empty() {
        true => format!("**{}**", escape_inline(&call.name)),
        false => format!("**{}** {}", escape_inline(&call.name), inline_code(&target)),
    };
    // An edit is its diff, shown (the point of reading it), not folded.
    if let ToolBody::Edit(edit) = tool_body(call, None) {
        match edit.change {
            Change::Diff(rows) if !rows.is_empty() => {
                out.push_str(&format!("\n\n{}", fenced_as(&diff_lines(&rows).join("\n"), "diff")));
            }
            Change::WholeFile { content, .. } if options.tool_output => {
                out.push_str(&format!(
                    "\n\n<details><summary>file</summary>\n\n{}\n\n</details>",
                    fenced(&content)
                ));
            }
            // A notebook cell: what became of it, then its diff or its new source.
            Change::Cell(cell) => {
                out.push_str(&format!("\n\n{}", escape_inline(&cell.words())));
                match cell.diff {
                    Some(rows) if !rows.is_empty() => {
                        out.push_str(&format!("\n\n{}", fenced_as(&diff_lines(&rows).join("\n"), "diff")))
                    }
                    _ if !cell.source.is_empty() => out.push_str(&format!("\n\n{}", fenced(&cell.source))),
                    _ => {}
                }
            }
            _ => {}
        }
        return out;
    }
    if !options.tool_output {
        return out;
    }
    let Some(result) = &call.result else { return out };
    let text = result.content.texts().collect::<Vec<_>>().join("\n");
    if text.trim().is_empty() {
        return out;
    }
    let cut = (0..=OUTPUT_LIMIT.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let shown = match cut < text.len() {
        true => format!("{}\n… ({} more bytes)", &text[..cut], text.len() - cut),
        false => text.clone(),
    };
    let label = if result.is_error { "error" } else { "output" };
    out.push_str(&format!("\n\n<details><summary>{label}</summary>\n\n{}\n\n</details>", fenced(&shown)));
    out
}

/// Markdown written by the model with any code fence it left open closed again (a truncated
/// answer), so that what follows it in the export is not swallowed into its block.
fn close_fences(text: &str) -> String {
    let open = text.lines().fold(None, |open, line| fence_after(open, line).0);
    match open {
        Some((c, n)) => format!("{text}\n{}", c.to_string().repeat(n)),
        None => text.to_owned(),
    }
}

/// A code fence open before `line` (its character and length), and `line`: the fence open after
/// it, and whether the line is a fence (one that opens or closes a block, or a fence line inside
/// a block of another).
fn fence_after(open: Option<(char, usize)>, line: &str) -> (Option<(char, usize)>, bool) {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return (open, false);
    }
    let Some(c) = trimmed.chars().next().filter(|c| *c == '`' || *c == '~') else { return (open, false) };
    let run = trimmed.chars().take_while(|&x| x == c).count();
    if run < 3 {
        return (open, false);
    }
    let after = match open {
        None => Some((c, run)),
        Some((o, n)) if o == c && run >= n && trimmed[run..].trim().is_empty() => None,
        still => still,
    };
    (after, true)
}

/// Claude's Markdown as the export holds it: a fence it left open closed, its headings two levels
/// down (at most `######`, below the export's own title and turns, so its `## Plan` does not read
/// as a turn), and `<` outside code written as `&lt;`, so a `</details>` in its text cannot close
/// the export's own folds, nor an `<!--` hide the rest; then whatever a parser still reads as
/// HTML, a link to a script or a turn's heading made inert ([`inert::markdown`]).
fn claude_markdown(text: &str) -> String {
    inert::markdown(&demote_headings(&close_fences(&unix_lines(text))))
}

fn demote_headings(text: &str) -> String {
    let mut fence: Option<(char, usize)> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let (after, is_fence) = fence_after(fence, line);
        fence = after;
        if is_fence {
            out.push(line.to_owned());
            continue;
        }
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        let heading = fence.is_none()
            && indent <= 3
            && (1..=6).contains(&hashes)
            && trimmed[hashes..].chars().next().is_none_or(|c| c == ' ' || c == '\t');
        let line = match fence {
            Some(_) => line.to_owned(),
            None => escape_html_outside_code(line),
        };
        out.push(match heading {
            true => format!("{}{}", "#".repeat((hashes + 2).min(6)), &line.trim_start_matches(' ')[hashes..]),
            false => line,
        });
    }
    out.join("\n")
}

/// `text` in a fenced block whose fence is longer than any backtick run inside it.
fn fenced(text: &str) -> String {
    fenced_as(text, "")
}

fn fenced_as(text: &str, language: &str) -> String {
    let text = unix_lines(text);
    let fence = "`".repeat(inert::longest_backticks(&text).max(2) + 1);
    format!("{fence}{language}\n{}\n{fence}", text.trim_end_matches('\n'))
}

/// The first line of `text`, at most `chars` characters.
fn one_line(text: &str, chars: usize) -> String {
    let text = unix_lines(text);
    let line = text.trim().lines().next().unwrap_or_default();
    match line.chars().count() > chars {
        true => line.chars().take(chars).collect::<String>() + "…",
        false => line.to_owned(),
    }
}

/// A line of Markdown with `<` outside its code spans as `&lt;` (inside them it is shown as it is).
fn escape_html_outside_code(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut span: Option<usize> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '`' {
            let mut run = 1;
            while chars.peek() == Some(&'`') {
                chars.next();
                run += 1;
            }
            span = match span {
                None => Some(run),
                Some(open) if open == run => None,
                still => still,
            };
            out.push_str(&"`".repeat(run));
        } else if c == '<' && span.is_none() {
            out.push_str("&lt;");
        } else {
            out.push(c);
        }
    }
    out
}

/// Text that cannot become HTML: `&` and `<` as entities.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;")
}

/// A line of text in Markdown (a heading, a quoted prompt, an event) that cannot become markup
/// of its own: characters Markdown reads as markup are escaped.
fn escape_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            // A line break would end the line this text is set in.
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            // `@` too: pasted on GitHub, `@name` would call that person.
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '>' | '~' | '!' | '@' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    // What would open a list or underline a heading at the start of a line is a character too.
    let lead = out.len() - out.trim_start().len();
    let rest = &out[lead..];
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if rest.starts_with(['-', '+', '=']) {
        out.insert(lead, '\\');
    } else if digits > 0 && rest[digits..].starts_with(['.', ')']) {
        out.insert(lead + digits, '\\');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_turn_reads_as_markdown_with_its_tools_folded() {
        let ws = crate::fixtures::workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let s = &ws.sessions[0];
        let first = s.thread.items.iter().position(Item::is_typed_prompt).unwrap() as u32;
        let md = turn(&ws, s, ThreadRef::Main, first);
        assert!(md.starts_with("**You:**\n\n> read plan.md and roadmap.md."), "{md}");
        assert!(md.contains("**Read** `/Users/pete/git/moredip/session-share/docs/plan.md`"), "{md}");
        assert!(md.contains("<details><summary>output</summary>"), "{md}");
        assert!(md.contains("**Claude:**"), "{md}");
        // It stops before the next prompt.
        assert!(!md.contains("I forgot to tell you"), "{md}");
        assert_eq!(md.matches("**You:**").count(), 1);
    }

    #[test]
    fn sub_agents_matter_where_the_conversation_started_some() {
        let with = |options| MarkdownOptions { sub_agents: options, ..MarkdownOptions::default() };
        let folder = crate::fixtures::folder("moredip__session-share/samples/claude-code-projects");
        let alone = crate::fixtures::workspace(
            "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-a5bdbc1.jsonl",
        );
        let none = crate::fixtures::workspace(
            "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl",
        );
        let mut seen = [false; 2];
        for ws in [crate::normalize::normalize(folder), alone, none] {
            for s in &ws.sessions {
                let matter = sub_agents_matter(s);
                seen[matter as usize] = true;
                let differ = session(&ws, s, with(true), None) != session(&ws, s, with(false), None);
                assert_eq!(matter, differ, "{:?}", s.session_id);
            }
        }
        assert_eq!(seen, [true, true], "sessions with and without");
    }

    #[test]
    fn a_sub_agents_file_alone_exports_its_conversation() {
        let ws = crate::fixtures::workspace(
            "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-a5bdbc1.jsonl",
        );
        let s = &ws.sessions[0];
        assert!(s.thread.items.is_empty() && s.agents.len() == 1);
        let md = session(&ws, s, MarkdownOptions::default(), None);
        let (head, body) = md.split_once("\n## ").unwrap_or_else(|| panic!("no section: {md}"));
        assert!(head.ends_with("· 0 prompts*\n"), "{head}");
        assert!(body.starts_with("Sub-agent\n\n**You:**\n\n> Write a poem about Thai yellow curry."), "{md}");
        assert!(body.contains("**Claude:**") && body.contains("**WebSearch**"), "{md}");
    }

    // Written from the documented shape (sdk-tools.d.ts, 2.1.332), no real line holds it.
    #[test]
    fn a_notebook_edit_exports_as_the_cell_changed_and_its_diff() {
        let call = crate::present::tools::test_support::documented(
            "NotebookEdit",
            serde_json::json!({"notebook_path": "/n.ipynb", "cell_id": "c2", "new_source": "x = 2"}),
            "Updated cell c2",
            serde_json::json!({"new_source": "x = 2", "old_source": "x = 1", "cell_id": "c2", "cell_type": "code",
                "language": "python", "edit_mode": "replace", "notebook_path": "/n.ipynb"}),
        );
        let out = tool(&call, MarkdownOptions::default());
        assert!(out.starts_with("**NotebookEdit** `/n.ipynb`\n\ncell c2 replaced\n\n```diff\n"), "{out}");
        assert!(out.contains("\n-x = 1\n+x = 2\n"), "{out}");
    }

    #[test]
    fn transcript_backticks_cannot_close_their_block() {
        assert_eq!(fenced("a ``` b"), "````\na ``` b\n````");
        assert_eq!(fenced("plain"), "```\nplain\n```");
        assert_eq!(close_fences("see:\n```rust\nfn x() {}"), "see:\n```rust\nfn x() {}\n```");
        assert_eq!(close_fences("a\n~~~~\nb\n~~~~\nc"), "a\n~~~~\nb\n~~~~\nc");
        assert_eq!(close_fences("````\n```\n"), "````\n```\n\n````");
        assert_eq!(inline_code("say `hi`"), "`` say `hi` ``");
        assert_eq!(inline_code("ls\n  -la"), "`ls -la`");
    }

    #[test]
    fn claudes_headings_go_below_the_turns() {
        assert_eq!(
            demote_headings("# Plan\n## Steps\n#### Deep\n##### Deeper"),
            "### Plan\n#### Steps\n###### Deep\n###### Deeper"
        );
        assert_eq!(demote_headings("```\n# a comment\n```\n#hashtag"), "```\n# a comment\n```\n#hashtag");
    }

    #[test]
    fn html_in_claudes_text_stays_text_but_not_in_its_code() {
        assert_eq!(
            claude_markdown("a </details> b `<b>` c\n```html\n<p>x</p>\n```\n<!-- hide"),
            "a &lt;/details> b `<b>` c\n```html\n<p>x</p>\n```\n&lt;!-- hide"
        );
        assert_eq!(escape_inline("- item"), "\\- item");
        assert_eq!(escape_inline("12. item"), "12\\. item");
        assert_eq!(escape_inline("ping @ada"), "ping \\@ada");
    }
}
