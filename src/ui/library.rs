//! Every session in a folder: a whole `~/.claude/projects` (or one project's folder) handed over
//! at once opens on a list of its projects and their sessions instead of loading it all. The
//! list's state lives here; `browser::library` reads the files (their ends for the list, then
//! each session whole in the workers to count it or search it) and reports to it.
//!
//! Only the session opened is kept in the page's memory; the list holds names, sizes, summaries
//! and grams.

use std::sync::Arc;

use leptos::prelude::*;

use super::load::load;
use super::state::Viewer;
use crate::browser;
use crate::browser::library::{Folder, FoundIn, ListTarget};
use crate::browser::read::Named;
use crate::browser::timers::next_frame;
use crate::catalog::shelf::Shelf;
use crate::present::library::{ListFilter, SortBy};
use crate::present::link::{session_fragment, session_key, session_of};
use crate::query::search::{Matcher, Query};

/// The list's state: the shelf and the files behind it, what the reader chose, and the jobs.
#[derive(Clone, Copy)]
pub(crate) struct Library {
    /// `None` until a folder of sessions is opened.
    pub(crate) shelf: RwSignal<Option<Shelf>>,
    /// The folder's files, and what the workers learnt of them.
    folder: StoredValue<Folder, LocalStorage>,
    /// The list is on screen (else the session opened from it, or files opened without it).
    pub(crate) showing: RwSignal<bool>,
    /// The project whose sessions are listed, by folder.
    pub(crate) project: RwSignal<Option<String>>,
    pub(crate) sort: RwSignal<SortBy>,
    pub(crate) filter: RwSignal<ListFilter>,
    pub(crate) query: RwSignal<Query>,
    pub(crate) found: RwSignal<Vec<Arc<FoundIn>>>,
    /// What the listing and counting jobs are doing; empty once done.
    pub(crate) status: RwSignal<String>,
    pub(crate) search_status: RwSignal<String>,
    /// Each folder opened has a number; jobs of an older one stop.
    number: StoredValue<u64>,
    search_number: StoredValue<u64>,
    /// Where the sessions list was scrolled when a session was opened from it.
    pub(crate) scroll: StoredValue<i32>,
    /// Inside a host page: the address is the host's.
    pub(crate) embedded: StoredValue<bool>,
    /// A search result was opened: its row opens on the match once the session is shown.
    opening_found: StoredValue<bool>,
    /// What the last search looked for (unless stopped): back on the list, it is not run again.
    pub(crate) searched: StoredValue<Option<Matcher>>,
}

impl Library {
    pub(crate) fn new() -> Library {
        Library {
            shelf: RwSignal::new(None),
            folder: StoredValue::new_local(Folder::default()),
            showing: RwSignal::new(false),
            project: RwSignal::new(None),
            sort: RwSignal::new(SortBy::default()),
            filter: RwSignal::new(ListFilter::default()),
            query: RwSignal::new(Query::default()),
            found: RwSignal::new(Vec::new()),
            status: RwSignal::new(String::new()),
            search_status: RwSignal::new(String::new()),
            number: StoredValue::new(0),
            search_number: StoredValue::new(0),
            scroll: StoredValue::new(0),
            embedded: StoredValue::new(false),
            opening_found: StoredValue::new(false),
            searched: StoredValue::new(None),
        }
    }

    /// Whether a folder of sessions is open (its list may be hidden behind a session).
    pub(crate) fn is_open(&self) -> bool {
        self.shelf.with_untracked(Option::is_some)
    }

    /// Closes the list (other files were opened on their own): its jobs stop. A signal is set
    /// only if it changes: setting `showing` again builds the viewer anew (its bar, rows and side
    /// panel), and every file picked outside a list closes it, in the task that then starts
    /// loading them (a task of 80-100 ms at the start of each load, with a layout forced).
    pub(crate) fn close(&self) {
        self.number.update_value(|n| *n += 1);
        self.search_number.update_value(|n| *n += 1);
        self.searched.set_value(None);
        self.folder.with_value(Folder::close);
        if self.shelf.with_untracked(Option::is_some) {
            self.shelf.set(None);
        }
        if self.showing.get_untracked() {
            self.showing.set(false);
        }
        if self.found.with_untracked(|f| !f.is_empty()) {
            self.found.set(Vec::new());
        }
        for status in [self.status, self.search_status] {
            if status.with_untracked(|s| !s.is_empty()) {
                status.set(String::new());
            }
        }
    }

    /// Whether the place being gone to is a search result's (once: asking clears it).
    pub(crate) fn take_opening_found(&self) -> bool {
        let opening = self.opening_found.get_value();
        self.opening_found.set_value(false);
        opening
    }

    /// The session named `key` on the shelf.
    pub(crate) fn find(&self, key: &str) -> Option<usize> {
        self.shelf.with_untracked(|s| s.as_ref()?.sessions.iter().position(|l| l.key == key))
    }
}

impl Default for Library {
    fn default() -> Self {
        Library::new()
    }
}

/// Opens `files` on the list: sorts them onto the shelf by name, reads the ends of each
/// session, then counts each session read whole.
pub(crate) async fn open(viewer: Viewer, files: Vec<Named>) {
    let library = viewer.library;
    library.close();
    // A load still running stops; the session shown goes.
    viewer.start_load();
    let number = library.number.get_value();
    viewer.demo.set(false);
    viewer.problems.set(Vec::new());
    viewer.progress.set(None);
    viewer.workspace.set(None);
    library.showing.set(true);
    library.status.set(format!("Listing {} files", files.len()));
    let folder = library.folder.get_value();
    let target = OnList { viewer, counter: library.number, number };
    let Some(infos) = browser::library::list(&folder, &target, files).await else { return };
    // Sorted onto the shelf in one task, drawn in the next: 20,000 names took about 30 ms, and
    // the first rows drawn in the same task made it a long one.
    let shelf = Shelf::new(infos);
    next_frame().await;
    if !target.is_latest() {
        return;
    }
    library.project.set(None);
    library.shelf.set(Some(shelf));
    browser::library::read_ends(&folder, &target).await;
    if !target.is_latest() {
        return;
    }
    // An address naming a session of the folder opens it.
    if !library.embedded.get_value() {
        let hash = window().location().hash().unwrap_or_default();
        if let Some(session) = session_of(&hash).and_then(|key| library.find(&key)) {
            open_session(viewer, session, Some(hash.trim_start_matches('#').to_owned()));
        }
    }
    browser::library::count(&folder, &target).await;
}

/// The list, as the job numbered `number` (by `counter`) reports to it.
struct OnList {
    viewer: Viewer,
    counter: StoredValue<u64>,
    number: u64,
}

impl ListTarget for OnList {
    fn is_latest(&self) -> bool {
        self.counter.try_get_value() == Some(self.number)
    }

    fn shelf<R>(&self, f: impl FnOnce(&Shelf) -> R) -> Option<R> {
        self.viewer.library.shelf.with_untracked(|s| s.as_ref().map(f))
    }

    fn update_shelf(&self, f: impl FnOnce(&mut Shelf)) {
        self.viewer.library.shelf.update(|s| {
            if let Some(s) = s {
                f(s);
            }
        });
    }

    fn status(&self, status: String) {
        self.viewer.library.status.set(status);
    }

    fn unreadable(&self, name: String, reason: &str) {
        self.viewer.problems.update(|p| p.push((name, format!("could not be read: {reason}"))));
    }

    fn left_out(&self, files: Vec<(String, String)>) {
        let said = files.into_iter().map(|(name, why)| (name, format!("{why}; left off the list")));
        self.viewer.problems.update(|p| p.extend(said));
    }

    fn search_status(&self, status: String) {
        self.viewer.library.search_status.set(status);
    }

    fn found(&self, found: FoundIn) {
        self.viewer.library.found.update(|f| f.push(Arc::new(found)));
    }
}

/// Searches every session of the folder for `query` (see `browser::library::search`); stops
/// the search before it.
pub(crate) async fn search(viewer: Viewer, query: Query, matcher: Matcher) {
    let library = viewer.library;
    let number = library.search_number.get_value() + 1;
    library.search_number.set_value(number);
    library.found.set(Vec::new());
    library.searched.set_value(Some(matcher.clone()));
    let Some(folder) = library.folder.try_get_value() else { return };
    let target = OnList { viewer, counter: library.search_number, number };
    browser::library::search(&folder, &target, query, &matcher).await;
}

/// Stops the search running, if any.
pub(crate) fn stop_search(library: Library) {
    library.search_number.update_value(|n| *n += 1);
    library.searched.set_value(None);
    library.search_status.set(String::new());
    library.folder.with_value(Folder::stop_search);
}

/// Opens a search result: its session at its row, the row open on the match.
pub(crate) fn open_found(viewer: Viewer, session: usize, fragment: String) {
    viewer.query.set(viewer.library.query.get_untracked());
    viewer.library.opening_found.set_value(true);
    open_session(viewer, session, Some(fragment));
}

/// Opens a session of the list in the viewer (at `fragment`'s place, else at its start).
pub(crate) fn open_session(viewer: Viewer, session: usize, fragment: Option<String>) {
    let library = viewer.library;
    let Some((key, named)) = library.shelf.with_untracked(|s| {
        let s = s.as_ref()?;
        let listed = s.sessions.get(session)?;
        let named = library.folder.with_value(|folder| folder.session_files(s, session));
        Some((listed.key.clone(), named))
    }) else {
        return;
    };
    library.showing.set(false);
    if !library.embedded.get_value() {
        let fragment = fragment.unwrap_or_else(|| session_fragment(&key));
        if window().location().hash().unwrap_or_default().trim_start_matches('#') != fragment {
            let _ = window().location().set_hash(&fragment);
        }
    }
    leptos::task::spawn_local(async move {
        if load(viewer, named).await {
            viewer.share.look_ahead(viewer);
        }
    });
}

/// Back to the list from the session opened from it.
pub(crate) fn show_list(viewer: Viewer) {
    viewer.library.showing.set(true);
    if !viewer.library.embedded.get_value() && !window().location().hash().unwrap_or_default().is_empty() {
        // A step in the history: Back returns to the session.
        let _ = window().location().set_hash("");
    }
}

/// Follows an address in a folder opened on the list: no place shows the list, a session of the
/// folder not loaded yet is opened. Returns whether it was handled here.
pub(crate) fn follow(viewer: Viewer, hash: &str) -> bool {
    let library = viewer.library;
    if !library.is_open() {
        return false;
    }
    let Some(key) = session_of(hash) else {
        if hash.trim_start_matches('#').is_empty() {
            library.showing.set(true);
            return true;
        }
        return false;
    };
    let loaded = viewer.workspace.with_untracked(|ws| {
        ws.as_ref().is_some_and(|ws| ws.sessions.iter().any(|s| session_key(ws, s).as_deref() == Some(&key)))
    });
    if loaded {
        library.showing.set(false);
        return false;
    }
    match library.find(&key) {
        Some(session) => {
            open_session(viewer, session, Some(hash.trim_start_matches('#').to_owned()));
            true
        }
        None => false,
    }
}
