//! Hook runs and progress lines, drawn inside their tool call (or as rows of their own when they
//! ran outside one), and raw lines.

use leptos::prelude::*;

use super::markup::terminal;
use crate::normalize::{LineRef, Workspace};
use crate::present::hooks::{raw_text, HookView, ProgressView};
use crate::text::format::plural;

pub(crate) fn hook(hook: HookView) -> AnyView {
    let class = if hook.failed { "cctv-hook cctv-hook--failed" } else { "cctv-hook" };
    view! {
        <div class=class>
            <div class="cctv-hook__head">
                <span class="cctv-badge">{format!("hook {}", hook.name)}</span>
                {(!hook.kind.is_empty()).then(|| view! { <span class="cctv-muted">{hook.kind.clone()}</span> })}
                {(!hook.command.is_empty()).then(|| view! { <code>{hook.command.clone()}</code> })}
                {hook.exit.map(|e| view! { <span class="cctv-muted">{format!("exit {e}")}</span> })}
                {hook.took.clone().map(|t| view! { <span class="cctv-muted">{t}</span> })}
            </div>
            {hook.blocking.clone().map(|b| view! { <div class="cctv-out cctv-out--error">{format!("blocked: {b}")}</div> })}
            {(!hook.stdout.is_empty()).then(|| terminal(&hook.stdout, "cctv-out"))}
            {(!hook.stderr.is_empty()).then(|| terminal(&hook.stderr, "cctv-out cctv-out--stderr"))}
            {(!hook.content.is_empty()).then(|| terminal(&hook.content, "cctv-out"))}
        </div>
    }
    .into_any()
}

/// A call's progress lines, folded into notes and the last output.
pub(crate) fn progress(progress: ProgressView) -> AnyView {
    view! {
        <div class="cctv-progress-lines">
            <div class="cctv-out__label">{format!("progress ({})", plural(progress.lines as u64, "line"))}</div>
            {progress.notes.into_iter().map(|n| view! { <div class="cctv-muted">{n}</div> }).collect_view()}
            {progress.last_output.map(|o| terminal(&o, "cctv-out cctv-out--progress"))}
        </div>
    }
    .into_any()
}

/// The raw JSON of a line, pretty-printed, or its text when it is not JSON.
pub(crate) fn raw_line(ws: &Workspace, line: LineRef) -> AnyView {
    view! { <pre class="cctv-json">{raw_text(ws, line)}</pre> }.into_any()
}
