//! The Share tab: what a shared copy of the session would hold (the secrets and personal details
//! found in its files, each masked or kept as the reader ticks it, counted by kind, and marked in
//! the rows on screen while the tab is open), and the exports themselves: Markdown to download or
//! copy, and one HTML file with the viewer in it. Nothing is uploaded: an export is a download.

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::navigation::reveal;
use super::state::{use_viewer, SideTab, Viewer};
use crate::browser::timers::after_a_frame;
use crate::engine::session::{Answer, Ask, Progress, STOPPED};
use crate::export::share::{export_name, masked_note, row_of, Highlights};
use crate::export::to_markdown::MarkdownOptions;
use crate::normalize::{Generation, ThreadRef, Workspace};
use crate::redact::{Finding, Kind};
use crate::text::format::size;

/// The Share tab's state, kept while the panel is drawn again.
#[derive(Clone, Copy)]
pub(crate) struct Share {
    /// What was found in the files shown (by the load they belong to), once looked for.
    found: RwSignal<Option<Scan>>,
    /// Findings the reader flipped from their default (a certain one masked, a candidate kept),
    /// by text.
    flipped: RwSignal<HashSet<String>>,
    /// The reader's own patterns, one regular expression per line.
    patterns: RwSignal<String>,
    options: RwSignal<MarkdownOptions>,
    /// The turns to export, from 1, both included, of the session it names; all when `None`.
    turns: RwSignal<Option<(usize, usize, usize)>>,
    /// What the last export did, or why it could not.
    status: RwSignal<Option<String>>,
    /// How far the engine got looking for the findings, while it looks.
    progress: RwSignal<Option<Progress>>,
    /// The findings marked in the rows: while the Share tab is open.
    pub(crate) highlights: Signal<Option<Arc<Highlights>>>,
}

/// What was found, and in what: the workspace (by its generation: more of a large file, or of a
/// followed one, is another workspace, and may lie where a freed one did) and the reader's
/// patterns then.
#[derive(Clone)]
struct Scan {
    workspace: Generation,
    patterns: String,
    result: Result<Arc<Vec<Finding>>, String>,
    /// The reader stopped the look: that stands, whatever is shown and asked since (a followed
    /// session that grew, other patterns), until they ask to look again.
    stopped: bool,
}

impl Scan {
    /// Whether this is what to show and export for `ws` with `patterns`.
    fn answers(&self, ws: &Workspace, patterns: &str) -> bool {
        self.stopped || (self.workspace == ws.generation && self.patterns == patterns)
    }
}

impl Share {
    pub(crate) fn new(side_tab: RwSignal<Option<SideTab>>) -> Share {
        let found = RwSignal::new(None::<Scan>);
        let flipped = RwSignal::new(HashSet::new());
        // Built again only when what it depends on changes, not on each read.
        let highlights = Memo::new_with_compare(
            move |_| {
                if side_tab.get() != Some(SideTab::Share) {
                    return None;
                }
                let findings = found.get()?.result.ok()?;
                let flipped = flipped.get();
                Highlights::new(&findings, |f| is_masked(f, &flipped)).map(Arc::new)
            },
            |a: Option<&Option<Arc<Highlights>>>, b: Option<&Option<Arc<Highlights>>>| match (a, b) {
                (Some(Some(a)), Some(Some(b))) => !Arc::ptr_eq(a, b),
                (Some(None), Some(None)) => false,
                _ => true,
            },
        );
        Share {
            found,
            flipped,
            patterns: RwSignal::new(String::new()),
            options: RwSignal::new(MarkdownOptions::default()),
            turns: RwSignal::new(None),
            status: RwSignal::new(None),
            progress: RwSignal::new(None),
            highlights: highlights.into(),
        }
    }

    /// Forgets what was found and chosen: other files are shown.
    pub(crate) fn reset(&self) {
        self.found.set(None);
        self.flipped.set(HashSet::new());
        self.turns.set(None);
        self.status.set(None);
    }

    /// The findings in `ws` with the reader's patterns, looked for by the engine (off the page)
    /// unless that was done for the same workspace and patterns.
    async fn findings(&self, viewer: Viewer, ws: &Arc<Workspace>) -> Result<Arc<Vec<Finding>>, String> {
        if let Some(found) = self.at_hand(ws) {
            return found;
        }
        let (workspace, patterns) = (ws.generation, self.patterns.get_untracked());
        let progress = self.progress;
        let engine = viewer.engine.get_value();
        let watch: Rc<dyn Fn(Progress)> = Rc::new(move |said| {
            progress.try_set(Some(said));
        });
        engine.watch(watch.clone());
        let answer = engine.ask(ws, findings_ask(&patterns)).await;
        engine.unwatch(&watch);
        progress.try_set(None);
        let stopped = answer.as_ref().is_err_and(|e| e == STOPPED);
        let result = match answer {
            Err(_) if stopped => Err(NOT_LOOKED_THROUGH.into()),
            Ok(Answer::Findings(found)) => found.map(Arc::new),
            Ok(_) => Err("the engine answered another question".into()),
            Err(e) => Err(e),
        };
        // Kept only while it is of what is shown, with the patterns it was asked with (and while
        // the viewer is there: an embed can be destroyed while the engine looks); a stop, even
        // when a followed session grew meanwhile.
        let current = viewer
            .workspace
            .try_with_untracked(|w| w.as_ref().is_some_and(|w| w.generation == workspace))
            .unwrap_or(false);
        if stopped || (current && self.patterns.try_get_untracked().as_ref() == Some(&patterns)) {
            self.found.try_set(Some(Scan { workspace, patterns, result: result.clone(), stopped }));
        }
        result
    }

    /// Looks for the findings in the files the reader just opened, if they are small, so that
    /// the Share tab shows them as it opens: a reader who shares a session of a few MB then waits
    /// for nothing (looking through 10 MB, with the worker's start, took 0.3-0.4 s after the tab
    /// was opened). A larger session is looked through when the tab asks: on every load, its
    /// scan would keep cores and a copy of the files busy for seconds for a tab that may never
    /// open. Not where the engine works on the page (it would scan there), nor in a viewer
    /// embedded in another page (which may not allow a worker: one starts only when asked), nor
    /// while the tab is open (it asks itself).
    pub(crate) fn look_ahead(&self, viewer: Viewer) {
        let Some(ws) = viewer.workspace.get_untracked() else { return };
        let bytes: usize = ws.given_files().map(|(_, bytes)| bytes.len()).sum();
        let off_page = viewer.engine.with_value(|engine| engine.may_work_off_page());
        let embedded = viewer.library.embedded.get_value();
        let open = viewer.side_tab.get_untracked() == Some(SideTab::Share);
        if bytes > LOOK_AHEAD_BYTES || !off_page || embedded || open || self.at_hand(&ws).is_some() {
            return;
        }
        let share = *self;
        leptos::task::spawn_local(async move {
            // Not in the task that drew the files: starting the worker is a few tens of ms.
            after_a_frame().await;
            let current = viewer.workspace.try_with_untracked(|w| w.as_ref().map(|w| w.generation));
            if current == Some(Some(ws.generation)) {
                let _ = share.findings(viewer, &ws).await;
            }
        });
    }

    /// Whether what was found is of `ws` with the reader's patterns.
    fn is_current(&self, ws: &Arc<Workspace>) -> bool {
        let patterns = self.patterns.get_untracked();
        self.found.with(|f| f.as_ref().is_some_and(|f| f.answers(ws, &patterns)))
    }

    /// What was found, if it is of `ws` with the reader's patterns.
    fn at_hand(&self, ws: &Arc<Workspace>) -> Option<Result<Arc<Vec<Finding>>, String>> {
        let patterns = self.patterns.get_untracked();
        self.found.get_untracked().filter(|f| f.answers(ws, &patterns)).map(|f| f.result)
    }

    /// The findings the reader has masked.
    fn chosen<'a>(&self, findings: &'a [Finding]) -> Vec<&'a Finding> {
        let flipped = self.flipped.get_untracked();
        findings.iter().filter(|f| is_masked(f, &flipped)).collect()
    }

    /// The turn that begins at `row` (session, thread, item), as Markdown, masked as the Share
    /// tab says (every certain finding, until the reader says otherwise); or what went wrong.
    /// Worked out by the engine: the findings (unless at hand), then the turn.
    pub(crate) async fn turn_markdown(
        &self,
        viewer: Viewer,
        ws: Arc<Workspace>,
        (session, thread, item): (usize, ThreadRef, u32),
    ) -> Result<String, String> {
        let findings = self.findings(viewer, &ws).await?;
        let masked = self.chosen(&findings).into_iter().cloned().collect();
        let ask = Ask::Turn { session, thread, item, masked };
        let text = viewer.engine.get_value().export(&ws, ask, None).await?;
        Ok(String::from_utf8_lossy(&text.to_vec()).into_owned())
    }
}

/// What the Share tab says once the reader stopped the engine looking: without the findings,
/// nothing leaves (an export asks for them first).
const NOT_LOOKED_THROUGH: &str =
    "Stopped before every line was looked at: nothing can be exported until it is.";

/// The most bytes of files looked through for findings as soon as they are opened
/// ([`Share::look_ahead`]): about half a second of a core's time in the engine's worker (split
/// with a second worker from 24 MB), and its workspace made after it, as after any Share.
const LOOK_AHEAD_BYTES: usize = 32 << 20;

/// What to ask for the reader's `patterns`: one per line; blank lines are none (`Scanner::new`
/// skips them).
fn findings_ask(patterns: &str) -> Ask {
    Ask::Findings { patterns: patterns.lines().map(str::to_owned).collect() }
}

/// A certain finding is masked and a candidate kept, unless the reader flipped it.
fn is_masked(finding: &Finding, flipped: &HashSet<String>) -> bool {
    finding.certain != flipped.contains(&finding.text)
}

/// Findings listed at most, per list: the rest are counted, and masked or kept all at once.
const LISTED: usize = 200;

/// The tab for session `session` of `ws`.
pub(crate) fn share_tab(ws: Arc<Workspace>, session: usize) -> impl IntoView {
    let viewer = use_viewer();
    let share = viewer.share;
    // Looks when the tab opens, and again when what is shown changes (a followed session grew),
    // unless the reader stopped it.
    let looking = RwSignal::new(false);
    let look = move || {
        if looking.get_untracked() {
            return;
        }
        looking.set(true);
        leptos::task::spawn_local(async move {
            // Until what was looked at is what is shown, with the patterns now given (either may
            // change while the engine looks); once only, if neither did.
            while let Some(ws) = viewer.workspace.get_untracked().filter(|ws| !share.is_current(ws)) {
                let asked = (Some(ws.generation), share.patterns.get_untracked());
                let _ = share.findings(viewer, &ws).await;
                let now = (
                    viewer.workspace.with_untracked(|w| w.as_ref().map(|w| w.generation)),
                    share.patterns.get_untracked(),
                );
                if now == asked {
                    break;
                }
            }
            looking.set(false);
        });
    };
    Effect::new(move |_| {
        let open = viewer.side_tab.get() == Some(SideTab::Share);
        let Some(ws) = viewer.workspace.get() else { return };
        share.found.track();
        if open && !share.is_current(&ws) {
            look();
        }
    });
    // The engine's worker goes, and with it the scan: the next ask starts another.
    let stop = move |_| viewer.engine.with_value(|engine| engine.stop());
    // What was found is forgotten, and looked for again (the effect above): with the patterns as
    // they are now, or after a stop.
    let look_again = move |_| share.found.set(None);
    let turn_count = ws.sessions.get(session).map_or(0, |s| s.thread.turn_starts().len());
    // Offered where it changes anything.
    let agents_apart = ws.sessions.get(session).is_some_and(crate::export::to_markdown::sub_agents_matter);
    let ws_found = ws.clone();
    view! {
        <div class="cctv-share">
            <p>
                "Export this session to show it to someone. cctv looks for secrets and personal details first: "
                "what is ticked is masked in the export, and marked in the conversation. Nothing is uploaded."
            </p>
            {move || {
                if looking.get() {
                    // Only the words change as the engine gets further, not the button under the
                    // reader's pointer.
                    let said = move || {
                        let progress = share.progress.get();
                        progress.map_or_else(|| "Looking for secrets and personal details…".into(), |p| p.said())
                    };
                    return view! {
                        <div class="cctv-share__looking">
                            <p class="cctv-muted" role="status">{said}</p>
                            <button class="cctv-button" on:click=stop>"Stop"</button>
                        </div>
                    }
                    .into_any();
                }
                match share.found.get().map(|f| f.result) {
                    None => ().into_any(),
                    Some(Err(e)) => view! {
                        <div class="cctv-share__looking">
                            <p class="cctv-share__error" role="alert">{e}</p>
                            <button class="cctv-button" on:click=look_again>"Look again"</button>
                        </div>
                    }
                    .into_any(),
                    Some(Ok(findings)) => found_view(ws_found.clone(), findings),
                }
            }}
            <details class="cctv-share__patterns">
                <summary>"Also mask your own patterns"</summary>
                <textarea
                    rows="3"
                    placeholder="One regular expression per line, e.g. ACME-\\d{4}"
                    aria-label="your own patterns, one regular expression per line"
                    prop:value=move || share.patterns.get()
                    on:input=move |e| share.patterns.set(event_target_value(&e))
                ></textarea>
                <button class="cctv-button" on:click=look_again>"Look again"</button>
            </details>
            <h2>"Export"</h2>
            {export_options(session, turn_count, agents_apart)}
            <div class="cctv-share__actions">
                <button class="cctv-button" on:click=move |_| export_markdown(viewer, session, Delivery::Download)>"Download Markdown"</button>
                <button class="cctv-button" on:click=move |_| export_markdown(viewer, session, Delivery::Copy)>"Copy Markdown"</button>
                <button class="cctv-button" on:click=move |_| export_html(viewer, session)>"Download HTML"</button>
            </div>
            <p class="cctv-muted">
                "HTML: one file with this viewer and the whole session in it (every line: thinking, files read, paths, sub-agents; all turns), "
                "for anyone to open in a browser, offline. Markdown: the conversation as chosen above, for a pull request or an issue. "
                "Both mask what is ticked."
            </p>
            {move || share.status.get().map(|s| view! { <p class="cctv-share__status" role="status">{s}</p> })}
        </div>
    }
}

/// The counts by kind, then the certain findings and the candidates, each with its checkbox.
fn found_view(ws: Arc<Workspace>, findings: Arc<Vec<Finding>>) -> AnyView {
    let viewer = use_viewer();
    let share = viewer.share;
    if findings.is_empty() {
        return view! { <p class="cctv-share__none">"Nothing found: no secret, e-mail address, home directory or private host name."</p> }.into_any();
    }
    let kinds = [
        (Kind::Secret, "secrets"),
        (Kind::Email, "e-mail addresses"),
        (Kind::HomeDirectory, "home directories"),
        (Kind::HostName, "host names"),
        (Kind::Pattern, "your patterns"),
    ];
    let counts = {
        let findings = findings.clone();
        move || {
            let flipped = share.flipped.get();
            let mut parts: Vec<String> = kinds
                .iter()
                .filter_map(|&(kind, label)| {
                    let of_kind: Vec<&Finding> =
                        findings.iter().filter(|f| f.certain && f.kind == kind).collect();
                    (!of_kind.is_empty()).then(|| {
                        let masked = of_kind.iter().filter(|f| is_masked(f, &flipped)).count();
                        format!("{label} {} ({masked} masked)", of_kind.len())
                    })
                })
                .collect();
            let candidates: Vec<&Finding> = findings.iter().filter(|f| !f.certain).collect();
            if !candidates.is_empty() {
                let masked = candidates.iter().filter(|f| is_masked(f, &flipped)).count();
                parts.push(format!("candidates {} ({masked} masked)", candidates.len()));
            }
            parts.join(" · ")
        }
    };
    let certain: Vec<Finding> = findings.iter().filter(|f| f.certain).cloned().collect();
    let candidates: Vec<Finding> = findings.iter().filter(|f| !f.certain).cloned().collect();
    view! {
        <p class="cctv-share__counts" role="status">{counts}</p>
        {(!certain.is_empty()).then(|| view! {
            <h2>"Scan"</h2>
            {finding_list(ws.clone(), certain)}
        })}
        {(!candidates.is_empty()).then(|| view! {
            <h2>"Candidates"</h2>
            <p class="cctv-muted">"Random-looking strings near words like key or token: some are secrets, many are ids or hashes. Tick the ones to mask."</p>
            {finding_list(ws.clone(), candidates)}
        })}
    }
    .into_any()
}

/// A list of findings (the first [`LISTED`]), with buttons to mask or keep them all.
fn finding_list(ws: Arc<Workspace>, findings: Vec<Finding>) -> AnyView {
    let share = use_viewer().share;
    let texts: Vec<(String, bool)> = findings.iter().map(|f| (f.text.clone(), f.certain)).collect();
    // Masks (or keeps) all of them: flips each from its default as needed.
    let set_all = move |mask: bool| {
        let texts = texts.clone();
        move |_| {
            share.flipped.update(|flipped| {
                for (text, certain) in &texts {
                    if *certain != mask {
                        flipped.insert(text.clone());
                    } else {
                        flipped.remove(text);
                    }
                }
            })
        }
    };
    let more = findings.len().saturating_sub(LISTED);
    view! {
        <div class="cctv-share__all">
            <button class="cctv-link" on:click=set_all(true)>"mask all"</button>
            " · "
            <button class="cctv-link" on:click=set_all(false)>"keep all"</button>
        </div>
        <ul class="cctv-findings">
            {findings.into_iter().take(LISTED).map(|f| finding_row(ws.clone(), f)).collect_view()}
        </ul>
        {(more > 0).then(|| view! { <p class="cctv-muted">{format!("and {more} more, masked or kept with the buttons above")}</p> })}
    }
    .into_any()
}

fn finding_row(ws: Arc<Workspace>, f: Finding) -> impl IntoView {
    let viewer = use_viewer();
    let share = viewer.share;
    let text = f.text.clone();
    let masked = {
        let text = text.clone();
        Memo::new(move |_| share.flipped.with(|flipped| f.certain != flipped.contains(&text)))
    };
    let flip = move |_| {
        share.flipped.update(|flipped| {
            if !flipped.remove(&text) {
                flipped.insert(text.clone());
            }
        })
    };
    let place = row_of(&ws, &f.file, f.line);
    let show = move |_| {
        let Some((session, thread, item)) = place else { return };
        let Some(ws) = viewer.workspace.get_untracked() else { return };
        if viewer.session.get_untracked() != session {
            viewer.session.set(session);
            viewer.reset_view();
        }
        reveal(viewer, &ws, session, thread, item);
        viewer.side_open.set(false);
    };
    let file_name = f.file.rsplit('/').next().unwrap_or(&f.file).to_owned();
    view! {
        <li class=move || if masked.get() { "cctv-finding cctv-finding--masked" } else { "cctv-finding" }>
            // A secret by its rule's id (gitleaks' descriptions are sentences), described on hover.
            <label class="cctv-finding__choice" title=f.label.clone()>
                <input type="checkbox" prop:checked=move || masked.get() on:change=flip />
                <span>{f.rule.clone().unwrap_or(f.label.clone())}</span>
            </label>
            <code class="cctv-finding__context">
                <bdi>{format!("…{}", f.before)}</bdi>
                <mark class=move || if masked.get() { "cctv-finding__text cctv-finding__text--masked" } else { "cctv-finding__text" }>{f.text.clone()}</mark>
                <bdi>{format!("{}…", f.after)}</bdi>
            </code>
            <span class="cctv-finding__where">
                {move || if masked.get() { format!("→ {} · ", f.mask) } else { "kept · ".to_owned() }}
                {format!("{}× · ", f.count)}
                <button class="cctv-link" disabled=place.is_none() on:click=show title="show it in the conversation">
                    <bdi>{format!("{file_name}:{}", f.line)}</bdi>
                </button>
            </span>
        </li>
    }
}

/// Options of the Markdown export, and its turns, of session `session`; "sub-agents" only where
/// `agents_apart` says it changes anything.
fn export_options(session: usize, turn_count: usize, agents_apart: bool) -> impl IntoView {
    let share = use_viewer().share;
    let option =
        move |label: &'static str, get: fn(&MarkdownOptions) -> bool, set: fn(&mut MarkdownOptions, bool)| {
            view! {
                <label class="cctv-share__option">
                    <input
                        type="checkbox"
                        prop:checked=move || share.options.with(get)
                        on:change=move |e| {
                            let on = event_target_checked(&e);
                            share.options.update(|o| set(o, on));
                        }
                    />
                    {label}
                </label>
            }
        };
    let turn_input = move |label: &'static str, which: usize| {
        view! {
            <label class="cctv-share__turn">
                {label}
                <input
                    type="number"
                    min="1"
                    max=turn_count
                    prop:value=move || {
                        let (first, last) = turns_of(share.turns.get(), session, turn_count);
                        if which == 0 { first } else { last }
                    }
                    on:change=move |e| {
                        let n: usize = event_target_value(&e).parse().unwrap_or(1);
                        let (mut first, mut last) = turns_of(share.turns.get_untracked(), session, turn_count);
                        if which == 0 { first = n.clamp(1, turn_count.max(1)) } else { last = n.clamp(1, turn_count.max(1)) }
                        share.turns.set(Some((session, first.min(last), first.max(last))));
                    }
                />
            </label>
        }
    };
    view! {
        <fieldset class="cctv-share__options">
            <legend>"Markdown holds"</legend>
            {option("Claude's thinking", |o| o.thinking, |o, v| o.thinking = v)}
            {option("tool output", |o| o.tool_output, |o, v| o.tool_output = v)}
            {agents_apart.then(|| option("sub-agents", |o| o.sub_agents, |o, v| o.sub_agents = v))}
            {option("system events", |o| o.system_events, |o, v| o.system_events = v)}
            // A range only where there is one to choose: a sub-agent's file opened alone has no
            // prompt the person typed, so no turn ("turns 1 to 0 of 0").
            {(turn_count > 1).then(|| view! {
                <div class="cctv-share__turns">
                    {turn_input("turns ", 0)}
                    {turn_input(" to ", 1)}
                    {format!(" of {turn_count}")}
                </div>
            })}
        </fieldset>
    }
}

/// The turns chosen for `session` (from 1, both included), else all of its `count`.
fn turns_of(chosen: Option<(usize, usize, usize)>, session: usize, count: usize) -> (usize, usize) {
    match chosen {
        Some((s, first, last)) if s == session => (first.min(count.max(1)), last.min(count.max(1))),
        _ => (1, count),
    }
}

enum Delivery {
    Download,
    Copy,
}

/// The files and the findings in them, or why not (no files, or they could not be looked at).
async fn prepared(viewer: Viewer) -> Result<(Arc<Workspace>, Arc<Vec<Finding>>), String> {
    let share = viewer.share;
    let Some(ws) = viewer.workspace.get_untracked() else {
        return Err("no session is open".into());
    };
    if !share.is_current(&ws) {
        share.status.set(Some("Looking for secrets and personal details first…".into()));
    }
    Ok((ws.clone(), share.findings(viewer, &ws).await?))
}

fn export_markdown(viewer: Viewer, session: usize, delivery: Delivery) {
    let share = viewer.share;
    match delivery {
        Delivery::Copy => {
            // Asked of the clipboard within the click (WebKit lets no later ask write), the text
            // to come once the scan and the export are done.
            let copied = std::rc::Rc::new(std::cell::Cell::new(String::new()));
            let said = copied.clone();
            let written = super::copy::write_later(async move {
                let (text, _, masked) = markdown(viewer, session).await?;
                let bytes = text.length() as usize;
                let text = web_sys::TextDecoder::new()
                    .and_then(|d| d.decode_with_buffer_source(&text))
                    .map_err(|e| crate::browser::js_error::describe(&e))?;
                said.set(format!("Copied {} of Markdown{masked}.", size(bytes)));
                Ok(text)
            });
            leptos::task::spawn_local(async move {
                share.status.set(Some(match written.await {
                    Ok(()) => copied.take(),
                    Err(e) => format!("Nothing copied: {e}"),
                }));
            });
        }
        Delivery::Download => leptos::task::spawn_local(async move {
            share.status.set(Some(match markdown(viewer, session).await {
                Ok((text, name, masked)) => match download(&name, &text, "text/markdown") {
                    Ok(()) => format!("Saved {name} ({}){masked}.", size(text.length() as usize)),
                    Err(e) => format!("Could not save {name}: {e}"),
                },
                Err(e) => format!("Nothing exported: {e}"),
            }));
        }),
    }
}

/// The session's Markdown as the tab's options say, masked as ticked: its bytes, its file name,
/// and what the status says was masked; or why there is none.
async fn markdown(viewer: Viewer, session: usize) -> Result<(js_sys::Uint8Array, String, String), String> {
    let share = viewer.share;
    let (ws, findings) = prepared(viewer).await?;
    // What is ticked now is what the export masks, whatever is ticked while it is made.
    let chosen: Vec<Finding> = share.chosen(&findings).into_iter().cloned().collect();
    let count = ws.sessions.get(session).map_or(0, |s| s.thread.turn_starts().len());
    let turns = share.turns.get_untracked().map(|_| {
        let (first, last) = turns_of(share.turns.get_untracked(), session, count);
        first - 1..last
    });
    let name = export_name(&ws, session, &chosen.iter().collect::<Vec<_>>(), "md");
    let masked = masked_note(chosen.len());
    let ask = Ask::Markdown { session, masked: chosen, options: share.options.get_untracked(), turns };
    share.status.set(Some("Writing the Markdown…".into()));
    let text = viewer.engine.get_value().export(&ws, ask, None).await?;
    Ok((text, name, masked))
}

fn export_html(viewer: Viewer, session: usize) {
    let share = viewer.share;
    leptos::task::spawn_local(async move {
        let (ws, findings) = match prepared(viewer).await {
            Ok(prepared) => prepared,
            Err(e) => return share.status.set(Some(format!("Nothing exported: {e}"))),
        };
        // What is ticked now is what the file masks, whatever is ticked while it is made.
        let chosen: Vec<Finding> = share.chosen(&findings).into_iter().cloned().collect();
        let name = export_name(&ws, session, &chosen.iter().collect::<Vec<_>>(), "html");
        let masked = masked_note(chosen.len());
        share.status.set(Some(format!("Making {name}…")));
        let ask = Ask::Html { session, masked: chosen };
        let made = match crate::browser::viewer_files::fetch().await {
            Ok(files) => viewer.engine.get_value().export(&ws, ask, Some(&files)).await,
            Err(e) => Err(e),
        };
        share.status.set(Some(
            match made.and_then(|page| download(&name, &page, "text/html").map(|()| page.length())) {
                Ok(bytes) => format!("Saved {name} ({}){masked}.", size(bytes as usize)),
                Err(e) => format!("Could not make {name}: {e}"),
            },
        ));
    });
}

/// Saves `bytes` as a file named `name`, through the browser's download.
fn download(name: &str, bytes: &js_sys::Uint8Array, kind: &str) -> Result<(), String> {
    let describe = |e: wasm_bindgen::JsValue| crate::browser::js_error::describe(&e);
    let parts = js_sys::Array::of1(bytes);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(kind);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(describe)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(describe)?;
    let link: web_sys::HtmlAnchorElement = document().create_element("a").map_err(describe)?.unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The download has its own copy once started.
    let _ = leptos::prelude::set_timeout_with_handle(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}
