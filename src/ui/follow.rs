//! Following a session while Claude Code writes it (Chromium: the File System Access API gives a
//! handle to read a file again). About once a second each followed file is asked its size; only
//! what was appended is read and parsed, and the conversation shows the new rows without drawing
//! the others again (`Viewer::show_more`, and the list keeps rows that show the same). A file
//! that was rewritten rather than appended to is read again whole, and a session Claude Code
//! starts in a followed folder (`/clear`, a new run) is followed instead. The handle is kept
//! (`www/folders.js`), so a later visit can follow the same again.

use std::collections::HashSet;

use js_sys::{Array, Uint8Array};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use super::load::{self, describe, now, read_promise, sleep, Named};
use super::state::{use_viewer, Viewer};
use crate::normalize::beside::beside;
use crate::normalize::live::{Growth, Live};

#[wasm_bindgen(module = "/www/folders.js")]
extern "C" {
    #[wasm_bindgen(js_name = canFollow)]
    fn can_follow() -> bool;
    #[wasm_bindgen(js_name = pickToFollow, catch)]
    async fn pick_to_follow() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = keepFollowed, catch)]
    async fn keep_followed(handle: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = keptFollowed, catch)]
    async fn kept_followed() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = reopenFollowed, catch)]
    async fn reopen_followed() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = followedFiles, catch)]
    async fn followed_files(handle: &JsValue, chosen: Option<String>) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = sessionNames, catch)]
    async fn session_names(handle: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = newestSession, catch)]
    async fn newest_session(handle: &JsValue, names: Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = onLaunch)]
    fn on_launch(open: &Closure<dyn FnMut(Array)>);
}

/// How often a followed file is asked whether it grew.
const EVERY_MS: f64 = 1000.0;
/// Reading what arrived and making the grown session may take at most this share of the time: a
/// very large session, whose every reading costs hundreds of ms, is read less often rather than
/// keeping the page busy.
const BUSY_SHARE: f64 = 0.25;
/// Reads that fail this many seconds in a row end following.
const FAILURES: u32 = 5;
/// A followed folder is looked at for a new session (Claude Code starts one on `/clear`) every
/// this many readings.
const NEW_SESSION_EVERY: u32 = 3;

/// What is followed, as the bar and the conversation show it.
#[derive(Clone, Copy)]
pub struct Following {
    /// The name of what is followed, while it is.
    pub name: RwSignal<Option<String>>,
    /// Keep the newest row in view as rows arrive.
    pub stick: RwSignal<bool>,
    /// Rows that arrived after the last one while the reader was not at the end, until they
    /// scroll down to them.
    pub fresh: RwSignal<usize>,
    /// What was followed on an earlier visit, to follow again.
    pub kept: RwSignal<Option<String>>,
    /// What happened to the followed files last (read again whole, another session followed), for
    /// the bar: not a problem, so not among the page's problems.
    pub event: RwSignal<Option<String>>,
    /// Bumped to stop the follower that runs.
    run: StoredValue<u64>,
}

impl Following {
    pub fn new() -> Following {
        Following {
            name: RwSignal::new(None),
            stick: RwSignal::new(false),
            fresh: RwSignal::new(0),
            kept: RwSignal::new(None),
            event: RwSignal::new(None),
            run: StoredValue::new(0),
        }
    }

    /// Stops following (what is shown stays).
    pub fn stop(&self) {
        self.run.update_value(|n| *n += 1);
        self.name.set(None);
        self.fresh.set(0);
        self.event.set(None);
    }
}

impl Default for Following {
    fn default() -> Self {
        Following::new()
    }
}

/// Whether this browser can follow a file as it grows.
pub fn can() -> bool {
    can_follow()
}

/// What a browser without the File System Access API says when asked to follow.
pub const NEEDS_CHROMIUM: &str = "following a session as Claude Code writes it needs a Chromium-based browser (Chrome, Edge, Brave, Opera): this browser cannot read a file again once it was opened. Open the file instead, and open it again to see what was added.";

/// Learns what was followed on an earlier visit, and follows files opened from the desktop
/// (cctv installed as an app, "Open with").
pub fn init(viewer: Viewer) {
    if !can() {
        return;
    }
    leptos::task::spawn_local(async move {
        let name = kept_followed().await.ok().and_then(|n| n.as_string());
        viewer.following.kept.try_set(name);
    });
    let open = Closure::<dyn FnMut(Array)>::new(move |handles: Array| {
        let handle = handles.get(0);
        leptos::task::spawn_local(async move {
            let _ = keep_followed(&handle).await;
            follow(viewer, handle).await;
        });
    });
    on_launch(&open);
    // launchQueue may hand over files at any time the page lives.
    open.forget();
}

/// Asks for a project folder and follows its newest session.
pub async fn pick(viewer: Viewer) {
    if !can() {
        said(viewer, "Follow", NEEDS_CHROMIUM);
        return;
    }
    match pick_to_follow().await {
        Ok(handle) if handle.is_null() => {}
        Ok(handle) => {
            viewer.following.kept.try_set(handle_name(&handle));
            follow(viewer, handle).await;
        }
        Err(e) => said(viewer, "Follow", &describe(&e)),
    }
}

/// Follows again what was followed on an earlier visit, once the reader allows it.
pub async fn reopen(viewer: Viewer) {
    match reopen_followed().await {
        Ok(handle) => follow(viewer, handle).await,
        Err(e) => said(viewer, "Follow again", &describe(&e)),
    }
}

fn handle_name(handle: &JsValue) -> Option<String> {
    js_sys::Reflect::get(handle, &"name".into()).ok()?.as_string()
}

fn said(viewer: Viewer, what: &str, reason: &str) {
    viewer.problems.update(|p| p.push((what.to_owned(), reason.to_owned())));
}

/// Opens the session `handle` is (a file, or the newest in a folder) and shows what is appended
/// to it until the reader stops, opens something else, or it can no longer be read.
pub async fn follow(viewer: Viewer, handle: JsValue) {
    let following = viewer.following;
    following.run.update_value(|n| *n += 1);
    let run = following.run.get_value();
    let running = move || following.run.try_get_value() == Some(run);
    let mut chosen = None;
    following.event.set(None);
    // Why the files are read again, said once they are.
    let mut again: Option<String> = None;
    // The sessions in the folder before the files are first chosen: any other that appears later
    // is new. (Listed at the first listing that works, if this one fails.)
    let mut known = sessions_in(&handle).await;
    'reading: loop {
        if !running() {
            return;
        }
        // The files as they are, opened as any files are.
        let files = match files_now(&handle, &chosen).await {
            Ok(files) if files.is_empty() => {
                return stopped(viewer, running(), "there is no .jsonl file to follow")
            }
            Ok(files) => files,
            Err(e) => return stopped(viewer, running(), &e),
        };
        if !running() {
            return;
        }
        chosen = files.first().map(|f| f.name.clone());
        viewer.library.close();
        let shown = load::load(viewer, files).await;
        let Some(number) = viewer.load_number.try_get_value() else { return };
        let still = move || running() && viewer.is_latest_load(number);
        // Other files opened meanwhile, or these could not be shown (the load said why):
        // following ends, and the bar says so.
        let quit = move || {
            if running() {
                following.stop();
            }
        };
        if !shown || !still() {
            return quit();
        }
        if let Some(why) = again.take() {
            following.event.set(Some(why));
        }
        let Some(ws) = viewer.workspace.get_untracked() else { return };
        following.name.set(chosen.clone());
        following.fresh.set(0);
        // The follower reads on from the bytes the viewer was given.
        let mut state = Live::new();
        for (name, bytes) in ws.given_files() {
            state.add(name, bytes.to_vec());
        }
        drop(ws);
        let mut busy = 0.0;
        let mut failures = 0;
        let mut readings = 0;
        loop {
            sleep((EVERY_MS.max(busy / BUSY_SHARE)) as i32).await;
            if !still() {
                return quit();
            }
            readings += 1;
            if readings % NEW_SESSION_EVERY == 0 {
                let newer = newer_session(&handle, &mut known, &chosen).await;
                if !still() {
                    return quit();
                }
                if let Some(name) = newer {
                    again =
                        Some(format!("{name} is a new session in the folder: followed instead of the last"));
                    chosen = Some(name);
                    continue 'reading;
                }
            }
            let started = now();
            let lines_before = state.lines();
            // A file new since, or rewritten beside the session (sub-agent metadata).
            let mut added = false;
            // A file can be unreadable for a moment (Chromium refuses a `File` whose file changed
            // since it was asked for, which a file being written does all the time): the next
            // second reads it again; only several failures in a row end following.
            let mut failed = None;
            match files_now(&handle, &chosen).await {
                Err(e) => failed = Some(e),
                Ok(files) => {
                    for Named { name, file } in files {
                        let size = file.size() as usize;
                        let result = match state.compare(&name, size) {
                            Growth::Same => Ok(Growth::Same),
                            // A file new since (or one the loader could not read as a transcript:
                            // an empty session file), or metadata written again.
                            Growth::Rewritten if !state.has(&name) || beside(&name).is_some() => {
                                read(&file, 0, size).await.map(|bytes| {
                                    state.add(&name, bytes);
                                    added = true;
                                    Growth::Same
                                })
                            }
                            Growth::Rewritten => Ok(Growth::Rewritten),
                            Growth::Appended(_) => {
                                let from = state.read_from(&name);
                                read(&file, from, size).await.map(|bytes| state.take(&name, from, &bytes))
                            }
                        };
                        if !still() {
                            return quit();
                        }
                        match result {
                            Ok(Growth::Rewritten) => {
                                again =
                                    Some(format!("{name} was rewritten, not appended to: read again whole"));
                                continue 'reading;
                            }
                            Ok(Growth::Appended(_) | Growth::Same) => {}
                            Err(e) => {
                                failed = Some(format!("{name}: {e}"));
                                break;
                            }
                        }
                    }
                }
            }
            if !still() {
                return quit();
            }
            match failed {
                Some(e) if failures + 1 >= FAILURES => return stopped(viewer, true, &e),
                Some(_) => failures += 1,
                None => failures = 0,
            }
            if added || state.lines() != lines_before {
                viewer.show_more(state.workspace());
                busy = now() - started;
            } else {
                busy = 0.0;
            }
        }
    }
}

/// Following ended because the files could not be read: say so, and why.
fn stopped(viewer: Viewer, running: bool, reason: &str) {
    if running {
        viewer.following.stop();
        said(viewer, "Following stopped", reason);
    }
}

/// The names of the sessions in a followed folder (none when a file is followed); `None` when the
/// folder cannot be listed now.
async fn sessions_in(handle: &JsValue) -> Option<HashSet<String>> {
    let names = session_names(handle).await.ok()?;
    Some(Array::from(&names).iter().filter_map(|name| name.as_string()).collect())
}

/// A session that appeared in the folder since `known` was listed (Claude Code starts one on
/// `/clear`, or on a new run) and was written to since the followed one was: the one to follow
/// now. The others that appeared with it become known, so following does not go back and forth.
/// While the followed session is written to last (two sessions at once), nothing changes.
async fn newer_session(
    handle: &JsValue,
    known: &mut Option<HashSet<String>>,
    chosen: &Option<String>,
) -> Option<String> {
    let names = sessions_in(handle).await?;
    let Some(seen) = known else {
        *known = Some(names);
        return None;
    };
    let mut candidates: Vec<String> =
        names.difference(seen).filter(|name| Some(*name) != chosen.as_ref()).cloned().collect();
    if candidates.is_empty() {
        return None;
    }
    candidates.extend(chosen.clone());
    let newest =
        newest_session(handle, candidates.iter().map(JsValue::from).collect()).await.ok()?.as_string()?;
    if Some(&newest) == chosen.as_ref() {
        return None;
    }
    seen.extend(candidates);
    Some(newest)
}

/// The followed files now, each with the name it is shown by.
async fn files_now(handle: &JsValue, chosen: &Option<String>) -> Result<Vec<Named>, String> {
    let pairs = followed_files(handle, chosen.clone()).await.map_err(|e| describe(&e))?;
    let mut seen = HashSet::new();
    let mut files = super::folders::named(&pairs);
    files.retain(|f| load::wanted(&f.name, true) && seen.insert(f.name.clone()));
    Ok(files)
}

/// `file[from..to]`, read.
async fn read(file: &File, from: usize, to: usize) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(read_promise(file, from as f64, to as f64, file.size()))
        .await
        .map_err(|e| describe(&e))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// The button that starts following a project folder (its newest session, with its sub-agents),
/// and, on the first screen of a visit, the one that follows again what was followed last time.
/// (A single file is followed when the installed app is opened with it.)
#[component]
pub fn FollowButtons() -> AnyView {
    let viewer = use_viewer();
    let following = viewer.following;
    // Inside a host page the host decides what is shown.
    if viewer.library.embedded.get_value() {
        return ().into_any();
    }
    view! {
        <button
            class="cctv-button cctv-top__folder"
            title="follow the newest session of a project folder (~/.claude/projects/<project>) while Claude Code writes it"
            on:click=move |_| leptos::task::spawn_local(pick(viewer))
        >
            "Follow"
        </button>
        {move || following.kept.get().filter(|_| viewer.demo.get() && following.name.with(Option::is_none)).map(|name| view! {
            <button
                class="cctv-button cctv-top__folder cctv-top__reopen"
                title="follow what was followed last time again (the browser asks first)"
                on:click=move |_| leptos::task::spawn_local(reopen(viewer))
            >
                <bdi>{format!("Follow {name} again")}</bdi>
            </button>
        })}
    }
    .into_any()
}

/// While a session is followed: what, the choice to keep the newest row in view, and a way to
/// stop.
#[component]
pub fn FollowBar() -> impl IntoView {
    let following = use_viewer().following;
    move || {
        following.name.get().map(|name| view! {
            <div class="cctv-live" role="status">
                <span class="cctv-live__dot" aria-hidden="true"></span>
                "Following "<bdi class="cctv-live__name">{name}</bdi>
                <label class="cctv-chip">
                    <input type="checkbox" prop:checked=move || following.stick.get() on:change=move |e| following.stick.set(event_target_checked(&e)) />
                    "Keep newest in view"
                </label>
                <button class="cctv-button" on:click=move |_| following.stop()>"Stop"</button>
                {move || following.event.get().map(|event| view! { <bdi class="cctv-live__event">{event}</bdi> })}
            </div>
        })
    }
}
