//! A turn as Markdown, for pasting into an issue, a pull request or a chat: the prompt, Claude's
//! answers, and each tool call as one line with its output folded in `<details>`.
//!
//! Transcript text goes into fenced blocks with a fence longer than any run of backticks inside
//! it, so a pasted transcript cannot close its block and turn into markup of its own; Claude's
//! own Markdown is kept as Markdown, with a fence it left open closed again.

use super::calls::{call_view, CallView};
use crate::normalize::outline::item_text;
use crate::normalize::{Item, ItemKind, Session, ThreadRef, Workspace};

/// Output longer than this is cut in the Markdown (with a note saying how much was left out).
const OUTPUT_LIMIT: usize = 4000;

/// The turn that begins at item `first` of `thread`: that row and every row up to the next
/// prompt the person typed.
pub fn turn(ws: &Workspace, session: &Session, thread: ThreadRef, first: u32) -> String {
    let thread = session.thread(thread);
    let last = thread.turn_end(first as usize);
    let mut out = String::new();
    for item in thread.items.iter().take(last + 1).skip(first as usize) {
        let part = item_markdown(ws, item);
        if !part.is_empty() {
            out.push_str(&part);
            out.push_str("\n\n");
        }
    }
    out.trim_end().to_owned() + "\n"
}

fn item_markdown(ws: &Workspace, item: &Item) -> String {
    let text = || item_text(ws, item).unwrap_or_default();
    match &item.kind {
        ItemKind::Prompt if item.is_typed_prompt() => {
            let quoted: Vec<String> = text().lines().map(|l| format!("> {l}")).collect();
            format!("**You:**\n\n{}", quoted.join("\n"))
        }
        ItemKind::Command(_) | ItemKind::Shell(_) => format!("**You ran:** {}", inline_code(&text())),
        ItemKind::Text => format!("**Claude:**\n\n{}", close_fences(text().trim())),
        ItemKind::ToolCall(call) => tool(&call_view(ws, item, call)),
        _ => String::new(),
    }
}

fn tool(call: &CallView) -> String {
    let target = call.target();
    let mut out = match target.is_empty() {
        true => format!("**{}**", call.name),
        false => format!("**{}** {}", call.name, inline_code(&target)),
    };
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
    let mut open: Option<(char, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start_matches(' ');
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let Some(c) = trimmed.chars().next().filter(|c| *c == '`' || *c == '~') else { continue };
        let run = trimmed.chars().take_while(|&x| x == c).count();
        if run < 3 {
            continue;
        }
        open = match open {
            None => Some((c, run)),
            Some((o, n)) if o == c && run >= n && trimmed[run..].trim().is_empty() => None,
            still => still,
        };
    }
    match open {
        Some((c, n)) => format!("{text}\n{}", c.to_string().repeat(n)),
        None => text.to_owned(),
    }
}

/// `text` as inline code, with enough backticks around it that none inside can end it.
fn inline_code(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let ticks = "`".repeat(longest_run(&flat, '`') + 1);
    let pad = if flat.starts_with('`') || flat.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{flat}{pad}{ticks}")
}

/// `text` in a fenced block whose fence is longer than any backtick run inside it.
fn fenced(text: &str) -> String {
    let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
    format!("{fence}\n{}\n{fence}", text.trim_end_matches('\n'))
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_turn_reads_as_markdown_with_its_tools_folded() {
        let ws = crate::present::tools::test_support::fixture(
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
    fn transcript_backticks_cannot_close_their_block() {
        assert_eq!(fenced("a ``` b"), "````\na ``` b\n````");
        assert_eq!(fenced("plain"), "```\nplain\n```");
        assert_eq!(close_fences("see:\n```rust\nfn x() {}"), "see:\n```rust\nfn x() {}\n```");
        assert_eq!(close_fences("a\n~~~~\nb\n~~~~\nc"), "a\n~~~~\nb\n~~~~\nc");
        assert_eq!(close_fences("````\n```\n"), "````\n```\n\n````");
        assert_eq!(inline_code("say `hi`"), "`` say `hi` ``");
        assert_eq!(inline_code("ls\n  -la"), "`ls -la`");
    }
}
