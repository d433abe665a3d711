//! Every session in a folder: a whole `~/.claude/projects` (or one project's folder) handed over
//! at once opens on a list of its projects and their sessions instead of loading it all.
//!
//! Three jobs read the files:
//! - listing: the two ends of each session's file ([`catalog::summary::from_ends`]), read by the
//!   page in steps that leave it free between them, so the list appears after a few kB per
//!   session, not after GBs;
//! - counting: then each session read whole by a worker ([`super::pool`]), for what only every
//!   line can say (prompts, tool calls, sub-agents) and for its grams;
//! - searching: every session that may hold the query read whole by a worker and searched with
//!   the same matcher as a single session, its matches shown as they are found.
//!
//! Only the session opened is kept in the page's memory; the list holds names, sizes, summaries
//! and grams.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use js_sys::{Array, Promise, Uint8Array};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use super::load::{describe, load, next_frame, now, read_promise, sleep, Named, PageTurns};
use super::pool::{Answer, Kind, Pool, Stopped};
use super::state::Viewer;
use super::worker::{Done, Work};
use crate::catalog::shelf::{FileInfo, Shelf};
use crate::catalog::summary::{from_ends, Summary};
use crate::catalog::{wider, HEAD_BYTES, TAIL_BYTES};
use crate::engine::scan::FoundSet;
use crate::normalize::pace::Pause;
use crate::present::library::{ListFilter, SortBy};
use crate::present::link::{session_fragment, session_key, session_of};
use crate::query::across::Found;
use crate::query::grams::Grams;
use crate::query::search::{Matcher, Query};
use crate::text::format::plural;

/// How many files' ends are read at once: the browser reads them in parallel.
const ENDS_AT_ONCE: usize = 16;
/// Matches kept per session, and sessions whose matches are shown (all are counted).
const FOUND_PER_SESSION: usize = 20;
const SESSIONS_SHOWN: u64 = 200;
/// How long listing works before the page may paint.
const TASK_BUDGET_MS: f64 = 40.0;

/// What a search across sessions found in one session.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundIn {
    /// Into the shelf's sessions.
    pub session: usize,
    /// The project's path, on the first result of a project.
    pub project: Option<String>,
    pub found: Vec<Found>,
    pub total: usize,
}

/// The list's state: the shelf and the files behind it, what the reader chose, and the jobs.
#[derive(Clone, Copy)]
pub struct Library {
    /// `None` until a folder of sessions is opened.
    pub shelf: RwSignal<Option<Shelf>>,
    files: StoredValue<Vec<File>, LocalStorage>,
    /// The list is on screen (else the session opened from it, or files opened without it).
    pub showing: RwSignal<bool>,
    /// The project whose sessions are listed, by folder.
    pub project: RwSignal<Option<String>>,
    pub sort: RwSignal<SortBy>,
    pub filter: RwSignal<ListFilter>,
    pub query: RwSignal<Query>,
    pub found: RwSignal<Vec<Arc<FoundIn>>>,
    /// What the listing and counting jobs are doing; empty once done.
    pub status: RwSignal<String>,
    pub search_status: RwSignal<String>,
    /// Each folder opened has a number; jobs of an older one stop.
    number: StoredValue<u64>,
    search_number: StoredValue<u64>,
    /// Where the sessions list was scrolled when a session was opened from it.
    pub scroll: StoredValue<i32>,
    /// Inside a host page: the address is the host's.
    pub embedded: StoredValue<bool>,
    /// A search result was opened: its row opens on the match once the session is shown.
    opening_found: StoredValue<bool>,
    /// A search is running: counting waits for it.
    searching: StoredValue<bool>,
    /// What the last search looked for (unless stopped): back on the list, it is not run again.
    pub searched: StoredValue<Option<Matcher>>,
    /// Each counted session's three-byte sequences: a search reads only the sessions whose
    /// sequences hold its query's.
    grams: StoredValue<HashMap<usize, Grams>>,
    /// The workers that count and search, started with the first folder.
    pool: StoredValue<Option<Pool>, LocalStorage>,
}

impl Library {
    pub fn new() -> Library {
        Library {
            shelf: RwSignal::new(None),
            files: StoredValue::new_local(Vec::new()),
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
            searching: StoredValue::new(false),
            searched: StoredValue::new(None),
            grams: StoredValue::new(HashMap::new()),
            pool: StoredValue::new_local(None),
        }
    }

    /// Whether a folder of sessions is open (its list may be hidden behind a session).
    pub fn is_open(&self) -> bool {
        self.shelf.with_untracked(Option::is_some)
    }

    /// Closes the list (other files were opened on their own): its jobs stop.
    pub fn close(&self) {
        self.number.update_value(|n| *n += 1);
        self.search_number.update_value(|n| *n += 1);
        self.searching.set_value(false);
        self.searched.set_value(None);
        self.grams.set_value(HashMap::new());
        if let Some(pool) = self.pool.with_value(Clone::clone) {
            pool.stop(Kind::Count);
            pool.stop(Kind::Search);
        }
        self.shelf.set(None);
        self.files.set_value(Vec::new());
        self.showing.set(false);
        self.found.set(Vec::new());
        self.status.set(String::new());
        self.search_status.set(String::new());
    }

    /// Whether the place being gone to is a search result's (once: asking clears it).
    pub fn take_opening_found(&self) -> bool {
        let opening = self.opening_found.get_value();
        self.opening_found.set_value(false);
        opening
    }

    /// The session named `key` on the shelf.
    pub fn find(&self, key: &str) -> Option<usize> {
        self.shelf.with_untracked(|s| s.as_ref()?.sessions.iter().position(|l| l.key == key))
    }
}

impl Default for Library {
    fn default() -> Self {
        Library::new()
    }
}

/// Whether `files` are many sessions (so open on the list rather than all loaded at once).
pub fn holds_many_sessions(files: &[Named]) -> bool {
    let infos = files.iter().map(|f| FileInfo { name: f.name.clone(), size: 0 }).collect();
    let shelf = Shelf::new(infos);
    shelf.sessions.len() + usize::from(!shelf.loose.is_empty()) > 1
}

/// Opens `files` on the list: sorts them onto the shelf by name, reads the ends of each
/// session, then counts each session read whole.
pub async fn open(viewer: Viewer, files: Vec<Named>) {
    let library = viewer.library;
    library.close();
    // A load still running stops; the session shown goes.
    viewer.start_load();
    let number = library.number.get_value();
    let latest = move || library.number.try_get_value() == Some(number);
    viewer.demo.set(false);
    viewer.problems.set(Vec::new());
    viewer.progress.set(None);
    viewer.workspace.set(None);
    library.showing.set(true);
    library.status.set(format!("Listing {} files", files.len()));
    let mut infos = Vec::with_capacity(files.len());
    let mut since = now();
    for f in &files {
        // `File.size` can be a round trip to the browser: thousands take a while.
        if now() - since >= TASK_BUDGET_MS {
            next_frame().await;
            if !latest() {
                return;
            }
            since = now();
        }
        infos.push(FileInfo { name: f.name.clone(), size: f.file.size() as u64 });
    }
    library.files.set_value(files.into_iter().map(|n| n.file).collect());
    library.project.set(None);
    library.shelf.set(Some(Shelf::new(infos)));
    read_ends(viewer, number).await;
    if !latest() {
        return;
    }
    // An address naming a session of the folder opens it.
    if !library.embedded.get_value() {
        let hash = window().location().hash().unwrap_or_default();
        if let Some(session) = session_of(&hash).and_then(|key| library.find(&key)) {
            open_session(viewer, session, Some(hash.trim_start_matches('#').to_owned()));
        }
    }
    count(viewer, number).await;
}

/// Reads the two ends of every session's file (and the first lines of sub-agent files that only
/// say in them whose they are), a batch at a time.
async fn read_ends(viewer: Viewer, number: u64) {
    let library = viewer.library;
    let latest = move || library.number.try_get_value() == Some(number);
    let Some((jobs, loose)) = library.shelf.with_untracked(|s| {
        let s = s.as_ref()?;
        let jobs: Vec<(usize, usize)> =
            s.sessions.iter().enumerate().filter_map(|(i, l)| Some((i, l.file?))).collect();
        Some((jobs, s.loose.clone()))
    }) else {
        return;
    };
    let total = jobs.len() + loose.len();
    let mut done = 0;
    for batch in loose.chunks(ENDS_AT_ONCE) {
        let summaries = summaries(viewer, batch).await;
        if !latest() {
            return;
        }
        library.shelf.update(|s| {
            let Some(s) = s else { return };
            for (&file, summary) in batch.iter().zip(summaries) {
                s.place_loose(file, summary.and_then(|s| s.session_id).as_deref());
            }
        });
        done += batch.len();
        library.status.set(format!("Reading the sessions' first and last lines: {done} of {total} files"));
    }
    for batch in jobs.chunks(ENDS_AT_ONCE) {
        let files: Vec<usize> = batch.iter().map(|(_, f)| *f).collect();
        let summaries = summaries(viewer, &files).await;
        if !latest() {
            return;
        }
        library.shelf.update(|s| {
            let Some(s) = s else { return };
            for (&(session, _), summary) in batch.iter().zip(summaries) {
                s.set_summary(session, summary.unwrap_or_default());
            }
            s.link_continued();
        });
        done += batch.len();
        library.status.set(format!("Reading the sessions' first and last lines: {done} of {total} files"));
        next_frame().await;
    }
}

/// What the ends of `files` say, read at once; `None` for a file that could not be read (and
/// says so).
async fn summaries(viewer: Viewer, files: &[usize]) -> Vec<Option<Summary>> {
    let ends = read_batch(viewer.library, files).await;
    ends.into_iter()
        .zip(files)
        .map(|(e, &file)| match e {
            Ok((name, head, tail, start)) => Some(from_ends(&name, &head, &tail, start)),
            Err(reason) => {
                unreadable(viewer, file, &reason);
                None
            }
        })
        .collect()
}

/// Says that a file of the list could not be read, and why (its session stays listed, uncounted).
fn unreadable(viewer: Viewer, file: usize, reason: &str) {
    let name = viewer.library.shelf.with_untracked(|s| s.as_ref().map(|s| s.files[file].name.clone()));
    if let Some(name) = name {
        viewer.problems.update(|p| p.push((name, format!("could not be read: {reason}"))));
    }
}

/// The ends of `files`, read at once: (name, head, tail, whether the tail is the whole file).
async fn read_batch(
    library: Library,
    files: &[usize],
) -> Vec<Result<(String, Vec<u8>, Vec<u8>, bool), String>> {
    let mut out = Vec::with_capacity(files.len());
    let Some(infos) = library.shelf.with_untracked(|s| {
        s.as_ref().map(|s| files.iter().map(|&f| s.files[f].clone()).collect::<Vec<_>>())
    }) else {
        return out;
    };
    let handles: Vec<File> = library.files.with_value(|all| files.iter().map(|&f| all[f].clone()).collect());
    // A file no larger than both ends is read once, whole.
    let reads = Array::new();
    let mut at = Vec::with_capacity(infos.len());
    for (info, file) in infos.iter().zip(&handles) {
        let size = info.size as f64;
        let head = reads.length();
        if info.size <= HEAD_BYTES + TAIL_BYTES {
            reads.push(&read_promise(file, 0.0, size, size));
            at.push((head, head));
        } else {
            reads.push(&read_promise(file, 0.0, HEAD_BYTES as f64, size));
            reads.push(&read_promise(file, size - TAIL_BYTES as f64, size, size));
            at.push((head, head + 1));
        }
    }
    let buffers = match JsFuture::from(Promise::all_settled(&reads)).await {
        Ok(b) => Array::from(&b),
        Err(e) => return files.iter().map(|_| Err(describe(&e))).collect(),
    };
    for (i, (info, file)) in infos.iter().zip(&handles).enumerate() {
        let bytes = |k: u32| -> Result<Vec<u8>, String> {
            let settled = buffers.get(k);
            let value = js_sys::Reflect::get(&settled, &"value".into()).map_err(|e| describe(&e))?;
            let buffer: js_sys::ArrayBuffer = value.dyn_into().map_err(|_| "could not be read".to_owned())?;
            Ok(Uint8Array::new(&buffer).to_vec())
        };
        let ends = match (bytes(at[i].0), bytes(at[i].1)) {
            (Ok(mut head), Ok(mut tail)) => {
                // An end without a whole line says nothing: read more of it.
                while let Some(more) = wider(&head, info.size) {
                    head = read_bytes(file, 0.0, more as f64).await.unwrap_or_default();
                }
                while let Some(more) = wider(&tail, info.size) {
                    let from = (info.size - more) as f64;
                    tail = read_bytes(file, from, info.size as f64).await.unwrap_or_default();
                }
                let start = tail.len() as u64 == info.size;
                Ok((info.name.clone(), head, tail, start))
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        out.push(ends);
    }
    out
}

async fn read_bytes(file: &File, from: f64, to: f64) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(read_promise(file, from, to, file.size())).await.map_err(|e| describe(&e))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// A session's files as a worker is handed them: name, size, file.
fn files_of(library: Library, session: usize) -> Vec<(String, f64, File)> {
    library.shelf.with_untracked(|s| {
        let Some(s) = s else { return Vec::new() };
        let Some(listed) = s.sessions.get(session) else { return Vec::new() };
        library.files.with_value(|all| {
            listed
                .files()
                .filter_map(|f| Some((s.files[f].name.clone(), s.files[f].size as f64, all.get(f)?.clone())))
                .collect()
        })
    })
}

/// The workers, started with the first folder.
fn pool(library: Library) -> Pool {
    if let Some(pool) = library.pool.with_value(Clone::clone) {
        return pool;
    }
    let pool = Pool::new();
    library.pool.set_value(Some(pool.clone()));
    pool
}

/// Has each session read whole by the workers, newest first, for its counts and grams; the
/// list is updated a few times a second, not per session. A search stops it; it goes on after.
async fn count(viewer: Viewer, number: u64) {
    let library = viewer.library;
    let latest = move || library.number.try_get_value() == Some(number);
    let order = newest_first(library);
    let total = order.len();
    let pool = pool(library);
    let mut asked = VecDeque::new();
    let mut next = 0;
    let mut counted = Vec::new();
    let mut shown_at = now();
    let mut done = 0;
    let mut turns = PageTurns::from_now();
    while done < total {
        // Answers that arrived together are taken a few at a time, the page free between.
        if turns.due() {
            turns.pause().await;
            if !latest() {
                return;
            }
        }
        while library.searching.get_value() {
            sleep(100).await;
            if !latest() {
                return;
            }
        }
        // Asking takes a moment per session too: a few at a time.
        while asked.len() < pool.depth() && next < total && (asked.is_empty() || !turns.due()) {
            let session = order[next];
            asked.push_back((next, pool.run(Kind::Count, Work::Count, &files_of(library, session))));
            next += 1;
        }
        let Some((at, answer)) = asked.pop_front() else { break };
        let answer = answer.await;
        if !latest() {
            return;
        }
        let session = order[at];
        match answer {
            // Stopped for a search: asked again once it is done.
            Err(Stopped) => {
                next = at;
                asked.clear();
                continue;
            }
            Ok(Answer { done: Done::Counted(summary), grams }) => {
                if let Some(grams) = grams {
                    library.grams.update_value(|all| {
                        all.insert(session, grams);
                    });
                }
                if let Some(summary) = summary {
                    counted.push((session, summary));
                }
            }
            Ok(Answer { done: Done::Failed(reason), .. }) => {
                if let Some(file) = library.shelf.with_untracked(|s| s.as_ref()?.sessions[session].file) {
                    unreadable(viewer, file, &reason);
                }
            }
            Ok(_) => {}
        }
        done = at + 1;
        if now() - shown_at >= SHOW_EVERY_MS || done == total {
            library.status.set(format!("Counting prompts and tool calls: {done} of {total} sessions"));
            library.shelf.update(|shelf| {
                if let Some(shelf) = shelf {
                    for (session, summary) in counted.drain(..) {
                        shelf.set_summary(session, summary);
                    }
                }
            });
            shown_at = now();
        }
    }
    library.shelf.update(|s| {
        if let Some(s) = s {
            for (session, summary) in counted.drain(..) {
                s.set_summary(session, summary);
            }
            s.link_continued();
        }
    });
    library.status.set(String::new());
}

/// How often counting shows what it counted.
const SHOW_EVERY_MS: f64 = 250.0;

/// Every session, project by project (the project last active first, its sessions newest
/// first), and each session's project path.
fn by_project(library: Library) -> (Vec<usize>, Vec<String>) {
    library.shelf.with_untracked(|s| {
        let Some(s) = s else { return (Vec::new(), Vec::new()) };
        let mut paths = vec![String::new(); s.sessions.len()];
        let mut order = Vec::with_capacity(s.sessions.len());
        for project in s.projects() {
            for &session in &project.sessions {
                paths[session] = project.path.clone();
                order.push(session);
            }
        }
        (order, paths)
    })
}

/// Every session, the one last active first.
fn newest_first(library: Library) -> Vec<usize> {
    library.shelf.with_untracked(|s| {
        let Some(s) = s else { return Vec::new() };
        let mut order: Vec<usize> = (0..s.sessions.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(s.sessions[i].last_ms()));
        order
    })
}

/// Searches every session for `query`, project by project, in the workers; stops when another
/// search starts. Sessions already counted whose grams lack the query's are not read at all;
/// the others are read by the workers, which parse only those whose raw bytes may hold it.
/// Results are shown in order as they come. Counting stops meanwhile: a reader who searches
/// wants the answer first.
pub async fn search(viewer: Viewer, query: Query, matcher: Matcher) {
    let library = viewer.library;
    let number = library.search_number.get_value() + 1;
    library.search_number.set_value(number);
    let latest = move || library.search_number.try_get_value() == Some(number);
    library.found.set(Vec::new());
    library.searching.set_value(true);
    library.searched.set_value(Some(matcher.clone()));
    let pool = pool(library);
    pool.stop(Kind::Search);
    pool.stop(Kind::Count);
    // Project by project (the last active first), so results come grouped.
    let (mut order, project_of) = by_project(library);
    let total = order.len();
    library
        .grams
        .with_value(|grams| order.retain(|s| grams.get(s).is_none_or(|g| matcher.may_be_in_grams(g))));
    let (mut matches, mut sessions, mut done, mut unread) = (0, 0, total - order.len(), 0);
    let mut last_project: Option<String> = None;
    let work = Work::Search { query, limit: FOUND_PER_SESSION };
    let mut asked = VecDeque::new();
    let mut next = 0;
    let mut turns = PageTurns::from_now();
    loop {
        if turns.due() {
            turns.pause().await;
            if !latest() {
                return;
            }
        }
        while asked.len() < pool.depth() && next < order.len() && (asked.is_empty() || !turns.due()) {
            let session = order[next];
            asked.push_back((session, pool.run(Kind::Search, work.clone(), &files_of(library, session))));
            next += 1;
        }
        library.search_status.set(format!(
            "Searching: {done} of {total} sessions · {} in {}",
            plural(matches as u64, "match"),
            plural(sessions, "session"),
        ));
        let Some((session, answer)) = asked.pop_front() else { break };
        let answer = answer.await;
        if !latest() {
            return;
        }
        done += 1;
        let found = match answer {
            Err(Stopped) => return,
            Ok(Answer { done: Done::Searched(found), .. }) => found,
            Ok(_) => {
                unread += 1;
                continue;
            }
        };
        for FoundSet { found, total: all } in found {
            matches += all;
            sessions += 1;
            if sessions > SESSIONS_SHOWN {
                continue;
            }
            let project = Some(project_of[session].clone()).filter(|p| Some(p) != last_project.as_ref());
            last_project = Some(project_of[session].clone());
            library.found.update(|f| f.push(Arc::new(FoundIn { session, project, found, total: all })));
        }
    }
    library.searching.set_value(false);
    // A session a worker could not read is said, not left out silently.
    let unread = match unread {
        0 => String::new(),
        n => format!(" ({} could not be read)", plural(n, "session")),
    };
    library
        .search_status
        .set(format!("{} in {sessions} of {total} sessions{unread}", plural(matches as u64, "match")));
}

/// Stops the search running, if any.
pub fn stop_search(library: Library) {
    library.search_number.update_value(|n| *n += 1);
    library.searched.set_value(None);
    library.searching.set_value(false);
    library.search_status.set(String::new());
    if let Some(pool) = library.pool.with_value(Clone::clone) {
        pool.stop(Kind::Search);
    }
}

/// Opens a search result: its session at its row, the row open on the match.
pub fn open_found(viewer: Viewer, session: usize, fragment: String) {
    viewer.query.set(viewer.library.query.get_untracked());
    viewer.library.opening_found.set_value(true);
    open_session(viewer, session, Some(fragment));
}

/// Opens a session of the list in the viewer (at `fragment`'s place, else at its start).
pub fn open_session(viewer: Viewer, session: usize, fragment: Option<String>) {
    let library = viewer.library;
    let Some((key, named)) = library.shelf.with_untracked(|s| {
        let s = s.as_ref()?;
        let listed = s.sessions.get(session)?;
        let named = library.files.with_value(|all| {
            listed
                .files()
                .map(|f| Named { name: s.files[f].name.clone(), file: all[f].clone() })
                .collect::<Vec<_>>()
        });
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
        load(viewer, named).await;
    });
}

/// Back to the list from the session opened from it.
pub fn show_list(viewer: Viewer) {
    viewer.library.showing.set(true);
    if !viewer.library.embedded.get_value() && !window().location().hash().unwrap_or_default().is_empty() {
        // A step in the history: Back returns to the session.
        let _ = window().location().set_hash("");
    }
}

/// Follows an address in a folder opened on the list: no place shows the list, a session of the
/// folder not loaded yet is opened. Returns whether it was handled here.
pub fn follow(viewer: Viewer, hash: &str) -> bool {
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
