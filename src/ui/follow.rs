//! Following a session while Claude Code writes it, as the page shows it: the buttons that start
//! it, the bar while it runs, and the viewer as the follower (`browser::follow`, which reads what
//! is appended) shows the session in it: the new rows without drawing the others again
//! (`Viewer::show_more`, and the list keeps rows that show the same). The handle is kept
//! (`www/folders.js`), so a later visit can follow the same again.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use leptos::prelude::*;

use super::state::{use_viewer, Viewer};
use crate::browser::folders::Followed;
use crate::browser::follow::FollowTarget;
use crate::browser::read::Named;
use crate::normalize::Workspace;

/// What is followed, as the bar and the conversation show it.
#[derive(Clone, Copy)]
pub(crate) struct Following {
    /// The name of what is followed, while it is.
    pub(crate) name: RwSignal<Option<String>>,
    /// Keep the newest row in view as rows arrive.
    pub(crate) stick: RwSignal<bool>,
    /// Rows that arrived after the last one while the reader was not at the end, until they
    /// scroll down to them.
    pub(crate) fresh: RwSignal<usize>,
    /// What was followed on an earlier visit, to follow again.
    pub(crate) kept: RwSignal<Option<String>>,
    /// What happened to the followed files last (read again whole, another session followed), for
    /// the bar: not a problem, so not among the page's problems.
    pub(crate) event: RwSignal<Option<String>>,
    /// Bumped to stop the follower that runs.
    run: StoredValue<u64>,
}

impl Following {
    pub(crate) fn new() -> Following {
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
    pub(crate) fn stop(&self) {
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

/// What a browser without the File System Access API says when asked to follow.
pub(crate) const NEEDS_CHROMIUM: &str = "following a session as Claude Code writes it needs a Chromium-based browser (Chrome, Edge, Brave, Opera): this browser cannot read a file again once it was opened. Open the file instead, and open it again to see what was added.";

/// Learns what was followed on an earlier visit, and follows files opened from the desktop
/// (cctv installed as an app, "Open with").
pub(crate) fn init(viewer: Viewer) {
    if !Followed::can() {
        return;
    }
    leptos::task::spawn_local(async move {
        viewer.following.kept.try_set(Followed::kept_name().await);
    });
    Followed::on_launch(move |handle| follow(viewer, handle));
}

/// Asks for a project folder and follows its newest session.
pub(crate) async fn pick(viewer: Viewer) {
    if !Followed::can() {
        said(viewer, "Follow", NEEDS_CHROMIUM);
        return;
    }
    match Followed::pick().await {
        Ok(None) => {}
        Ok(Some(handle)) => {
            viewer.following.kept.try_set(handle.name());
            follow(viewer, handle).await;
        }
        Err(e) => said(viewer, "Follow", &e),
    }
}

/// Follows again what was followed on an earlier visit, once the reader allows it.
pub(crate) async fn reopen(viewer: Viewer) {
    match Followed::reopen().await {
        Ok(handle) => follow(viewer, handle).await,
        Err(e) => said(viewer, "Follow again", &e),
    }
}

fn said(viewer: Viewer, what: &str, reason: &str) {
    viewer.problems.update(|p| p.push((what.to_owned(), reason.to_owned())));
}

/// Follows the session `handle` is in the viewer, stopping the follower that ran.
pub(crate) async fn follow(viewer: Viewer, handle: Followed) {
    let following = viewer.following;
    following.run.update_value(|n| *n += 1);
    let run = following.run.get_value();
    following.event.set(None);
    crate::browser::follow::follow(ViewerFollowing { viewer, run, load: Cell::new(None) }, handle).await;
}

/// The viewer, as follower `run` shows the session in it.
struct ViewerFollowing {
    viewer: Viewer,
    run: u64,
    /// The number of the load that showed the followed files.
    load: Cell<Option<u64>>,
}

impl FollowTarget for ViewerFollowing {
    fn running(&self) -> bool {
        self.viewer.following.run.try_get_value() == Some(self.run)
    }

    fn open(&self, files: Vec<Named>) -> Pin<Box<dyn Future<Output = Option<Arc<Workspace>>> + '_>> {
        Box::pin(async move {
            let viewer = self.viewer;
            viewer.library.close();
            let shown = super::load::load(viewer, files).await;
            self.load.set(viewer.load_number.try_get_value());
            if !shown || !self.still() {
                return None;
            }
            viewer.workspace.get_untracked()
        })
    }

    fn still(&self) -> bool {
        self.running() && self.load.get().is_some_and(|number| self.viewer.is_latest_load(number))
    }

    fn following(&self, name: Option<String>, again: Option<String>) {
        let following = self.viewer.following;
        if let Some(why) = again {
            following.event.set(Some(why));
        }
        following.name.set(name);
        following.fresh.set(0);
    }

    fn show_more(&self, workspace: Workspace) {
        self.viewer.show_more(workspace);
    }

    fn max_bytes(&self) -> f64 {
        self.viewer.max_bytes.get_untracked()
    }

    /// Other files opened meanwhile, or the followed ones could not be shown or read: following
    /// ends, the bar says so, and why when they could not be read.
    fn ended(&self, reason: Option<String>) {
        if self.running() {
            self.viewer.following.stop();
            if let Some(reason) = reason {
                said(self.viewer, "Following stopped", &reason);
            }
        }
    }
}

/// The button that starts following a project folder (its newest session, with its sub-agents),
/// and, on the first screen of a visit, the one that follows again what was followed last time.
/// (A single file is followed when the installed app is opened with it.)
#[component]
pub(crate) fn FollowButtons() -> AnyView {
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
pub(crate) fn FollowBar() -> impl IntoView {
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
