//! Reading a folder of many sessions for its list. Three jobs read the files:
//! - listing: the two ends of each session's file ([`catalog::summary::from_ends`]), read by the
//!   page in steps that leave it free between them, so the list appears after a few kB per
//!   session, not after GBs;
//! - counting: then each session read whole by a worker ([`super::pool`]), for what only every
//!   line can say (prompts, tool calls, sub-agents) and for its grams;
//! - searching: every session that may hold the query read whole by a worker and searched with
//!   the same matcher as a single session, its matches handed over as they are found.
//!
//! The list itself (its shelf, what it says, its results) is the ui's: the jobs see it through
//! [`ListTarget`]. What they share is a [`Folder`]: its files, and what the workers learnt.
//!
//! [`catalog::summary::from_ends`]: crate::catalog::summary::from_ends

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use super::js_error::describe;
use super::pool::{Answer, Kind, Pool, Stopped};
use super::read::{self, read_bytes, read_promise, Named};
use super::timers::{next_frame, now, sleep, PageTurns};
use super::worker::{Done, Work};
use crate::catalog::shelf::{FileInfo, Shelf};
use crate::catalog::summary::{from_ends, Summary};
use crate::catalog::{wider, HEAD_BYTES, TAIL_BYTES};
use crate::engine::scan::FoundSet;
use crate::normalize::pace::Pause;
use crate::query::across::SessionHit;
use crate::query::grams::Grams;
use crate::query::search::{Matcher, Query};
use crate::text::format::plural;

/// How many files' ends are read at once: the browser reads them in parallel.
const ENDS_AT_ONCE: usize = 16;
/// Matches kept per session, and sessions whose matches are shown (all are counted).
const FOUND_PER_SESSION: usize = 20;
const SESSIONS_SHOWN: u64 = 200;
/// How often counting shows what it counted.
const SHOW_EVERY_MS: f64 = 250.0;

/// What a search across sessions found in one session.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FoundIn {
    /// Into the shelf's sessions.
    pub(crate) session: usize,
    /// The project's path, on the first result of a project.
    pub(crate) project: Option<String>,
    pub(crate) found: Vec<SessionHit>,
    pub(crate) total: usize,
}

/// The list a job reports to, as the ui keeps it.
pub(crate) trait ListTarget {
    /// Whether this job is still wanted (the folder is still open, the search the latest).
    fn is_latest(&self) -> bool;
    /// `f` of the shelf, while a folder is open.
    fn shelf<R>(&self, f: impl FnOnce(&Shelf) -> R) -> Option<R>;
    fn update_shelf(&self, f: impl FnOnce(&mut Shelf));
    /// What listing and counting are doing; empty once done.
    fn status(&self, status: String);
    /// A file of the list could not be read (its session stays listed, uncounted).
    fn unreadable(&self, name: String, reason: &str);
    /// Files that hold no transcript, and why: their sessions were taken off the list.
    fn left_out(&self, files: Vec<(String, String)>);
    /// What a search is doing, or found in all.
    fn search_status(&self, status: String);
    /// More that a search found.
    fn found(&self, found: FoundIn);
}

/// The folder's files, the grams the workers found in its sessions, and the workers: what the
/// list's jobs share.
#[derive(Clone, Default)]
pub(crate) struct Folder(Rc<RefCell<Held>>);

#[derive(Default)]
struct Held {
    files: Vec<File>,
    /// Each counted session's three-byte sequences: a search reads only the sessions whose
    /// sequences hold its query's.
    grams: HashMap<usize, Grams>,
    /// The workers that count and search, started with the first folder.
    pool: Option<Pool>,
    /// A search is running: counting waits for it.
    searching: bool,
}

impl Folder {
    /// Forgets the folder's files: their jobs stop (the workers stay for the next folder).
    pub(crate) fn close(&self) {
        let mut held = self.0.borrow_mut();
        held.searching = false;
        held.grams.clear();
        held.files.clear();
        let pool = held.pool.clone();
        drop(held);
        if let Some(pool) = pool {
            pool.stop(Kind::Count);
            pool.stop(Kind::Search);
        }
    }

    /// Stops the search running, if any.
    pub(crate) fn stop_search(&self) {
        self.0.borrow_mut().searching = false;
        let pool = self.0.borrow().pool.clone();
        if let Some(pool) = pool {
            pool.stop(Kind::Search);
        }
    }

    /// The files of `session` on `shelf`, to open it.
    pub(crate) fn session_files(&self, shelf: &Shelf, session: usize) -> Vec<Named> {
        let held = self.0.borrow();
        let Some(listed) = shelf.sessions.get(session) else { return Vec::new() };
        listed
            .files()
            .map(|f| Named { name: shelf.files[f].name.clone(), file: held.files[f].clone() })
            .collect()
    }

    /// A session's files as a worker is handed them: name, size, file.
    fn for_worker(&self, target: &impl ListTarget, session: usize) -> Vec<(String, f64, File)> {
        let held = self.0.borrow();
        target
            .shelf(|s| {
                let Some(listed) = s.sessions.get(session) else { return Vec::new() };
                listed
                    .files()
                    .filter_map(|f| {
                        Some((s.files[f].name.clone(), s.files[f].size as f64, held.files.get(f)?.clone()))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The workers, started with the first folder.
    fn pool(&self) -> Pool {
        let mut held = self.0.borrow_mut();
        held.pool.get_or_insert_with(Pool::new).clone()
    }

    fn searching(&self) -> bool {
        self.0.borrow().searching
    }
}

/// Whether `files` are many sessions (so open on the list rather than all loaded at once).
pub(crate) fn holds_many_sessions(files: &[Named]) -> bool {
    crate::catalog::shelf::holds_many(files.iter().map(|f| f.name.as_str()))
}

/// Takes `files` as the folder's, and says their names and sizes for its shelf; `None` when the
/// job stopped meanwhile.
pub(crate) async fn list(
    folder: &Folder,
    target: &impl ListTarget,
    files: Vec<Named>,
) -> Option<Vec<FileInfo>> {
    let sizes = read::sizes(&files, || !target.is_latest()).await?;
    let infos = files
        .iter()
        .zip(sizes)
        .map(|(f, size)| FileInfo { name: f.name.clone(), size: size as u64 })
        .collect();
    folder.0.borrow_mut().files = files.into_iter().map(|n| n.file).collect();
    // The shelf is sorted and drawn in a task of its own: after the last sizes, it was a task of
    // 60 ms.
    next_frame().await;
    target.is_latest().then_some(infos)
}

/// Reads the two ends of every session's file (and the first lines of sub-agent files that only
/// say in them whose they are), a batch at a time.
pub(crate) async fn read_ends(folder: &Folder, target: &impl ListTarget) {
    let Some((jobs, loose)) = target.shelf(|s| {
        let jobs: Vec<(usize, usize)> =
            s.sessions.iter().enumerate().filter_map(|(i, l)| Some((i, l.file?))).collect();
        (jobs, s.loose.clone())
    }) else {
        return;
    };
    let total = jobs.len() + loose.len();
    let mut done = 0;
    let status = |done: usize| format!("Reading the sessions' first and last lines: {done} of {total} files");
    for batch in loose.chunks(ENDS_AT_ONCE) {
        let summaries = summaries(folder, target, batch).await;
        if !target.is_latest() {
            return;
        }
        target.update_shelf(|s| {
            for (&file, summary) in batch.iter().zip(summaries) {
                s.place_loose(file, summary.and_then(|s| s.session_id).as_deref());
            }
        });
        done += batch.len();
        target.status(status(done));
    }
    // What was read is put on the list every SHOW_EVERY_MS, not every batch: each change to the
    // shelf works out its projects and the rows shown again (a task of 20-30 ms at 10,000
    // sessions, and there are hundreds of batches).
    // The first batch at once.
    let (mut read, mut shown_at) = (Vec::new(), f64::NEG_INFINITY);
    for (n, batch) in jobs.chunks(ENDS_AT_ONCE).enumerate() {
        let files: Vec<usize> = batch.iter().map(|(_, f)| *f).collect();
        let summaries = summaries(folder, target, &files).await;
        if !target.is_latest() {
            return;
        }
        read.extend(batch.iter().map(|&(session, _)| session).zip(summaries));
        done += batch.len();
        if now() - shown_at >= SHOW_EVERY_MS || (n + 1) * ENDS_AT_ONCE >= jobs.len() {
            target.update_shelf(|s| {
                for (session, summary) in read.drain(..) {
                    s.set_summary(session, summary.unwrap_or_default());
                }
            });
            target.status(status(done));
            shown_at = now();
        }
        next_frame().await;
    }
    // Once, when every first line is known: linking looks at every session (15 ms for 15,000 in
    // wasm), which each batch of a large folder did before.
    target.update_shelf(Shelf::link_continued);
}

/// What the ends of `files` say, read at once; `None` for a file that could not be read (and
/// says so).
async fn summaries(folder: &Folder, target: &impl ListTarget, files: &[usize]) -> Vec<Option<Summary>> {
    let ends = read_batch(folder, target, files).await;
    ends.into_iter()
        .zip(files)
        .map(|(e, &file)| match e {
            Ok((name, head, tail, start)) => Some(from_ends(&name, &head, &tail, start)),
            Err(reason) => {
                unreadable(target, file, &reason);
                None
            }
        })
        .collect()
}

/// Says that file `file` of the list could not be read, and why.
fn unreadable(target: &impl ListTarget, file: usize, reason: &str) {
    if let Some(name) = target.shelf(|s| s.files[file].name.clone()) {
        target.unreadable(name, reason);
    }
}

/// A file's two ends: (name, head, tail, whether the tail is the whole file).
type Ends = (String, Vec<u8>, Vec<u8>, bool);

/// The ends of `files`, read at once.
async fn read_batch(folder: &Folder, target: &impl ListTarget, files: &[usize]) -> Vec<Result<Ends, String>> {
    let Some(infos) = target.shelf(|s| files.iter().map(|&f| s.files[f].clone()).collect::<Vec<_>>()) else {
        return Vec::new();
    };
    let handles: Vec<File> = {
        let held = folder.0.borrow();
        files.iter().map(|&f| held.files[f].clone()).collect()
    };
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
    let bytes = |k: u32| -> Result<Vec<u8>, String> {
        let settled = buffers.get(k);
        let value = js_sys::Reflect::get(&settled, &"value".into()).map_err(|e| describe(&e))?;
        let buffer: js_sys::ArrayBuffer = value.dyn_into().map_err(|_| "could not be read".to_owned())?;
        Ok(Uint8Array::new(&buffer).to_vec())
    };
    let mut out = Vec::with_capacity(files.len());
    for (i, (info, file)) in infos.iter().zip(&handles).enumerate() {
        out.push(match (bytes(at[i].0), bytes(at[i].1)) {
            (Ok(head), Ok(tail)) => Ok(whole_lines(info, file, head, tail).await),
            (Err(e), _) | (_, Err(e)) => Err(e),
        });
    }
    out
}

/// A file's ends, each widened until it holds a whole line: an end without one says nothing.
async fn whole_lines(info: &FileInfo, file: &File, mut head: Vec<u8>, mut tail: Vec<u8>) -> Ends {
    while let Some(more) = wider(&head, info.size) {
        head = read_bytes(file, 0.0, more as f64).await.unwrap_or_default();
    }
    while let Some(more) = wider(&tail, info.size) {
        let from = (info.size - more) as f64;
        tail = read_bytes(file, from, info.size as f64).await.unwrap_or_default();
    }
    let start = tail.len() as u64 == info.size;
    (info.name.clone(), head, tail, start)
}

/// Has each session read whole by the workers, newest first, for its counts and grams; the
/// list is updated a few times a second, not per session. A search stops it; it goes on after.
pub(crate) async fn count(folder: &Folder, target: &impl ListTarget) {
    let order = newest_first(target);
    let total = order.len();
    let pool = folder.pool();
    let mut asked = VecDeque::new();
    let mut next = 0;
    let mut counted = Counted { sessions: Vec::new(), left_out: Vec::new(), shown_at: now() };
    let mut done = 0;
    let mut turns = PageTurns::new();
    while done < total {
        // Answers that arrived together are taken a few at a time, the page free between.
        if turns.due() {
            turns.pause().await;
            if !target.is_latest() {
                return;
            }
        }
        while folder.searching() {
            sleep(100).await;
            if !target.is_latest() {
                return;
            }
        }
        // Asking takes a moment per session too: a few at a time.
        while asked.len() < pool.depth() && next < total && (asked.is_empty() || !turns.due()) {
            let files = folder.for_worker(target, order[next]);
            asked.push_back((next, pool.run(Kind::Count, Work::Count, &files)));
            next += 1;
        }
        let Some((at, answer)) = asked.pop_front() else { break };
        let answer = answer.await;
        if !target.is_latest() {
            return;
        }
        if let Err(Stopped) = answer {
            // Stopped for a search: asked again once it is done.
            next = at;
            asked.clear();
            continue;
        }
        counted.take(folder, target, order[at], answer);
        done = at + 1;
        if now() - counted.shown_at >= SHOW_EVERY_MS || done == total {
            target.status(format!("Counting prompts and tool calls: {done} of {total} sessions"));
            counted.show(target);
        }
    }
    counted.show(target);
    // Copies linked to their originals once every session is counted, in a task of their own:
    // linking looks at every session, and the list is drawn again after it.
    next_frame().await;
    if !target.is_latest() {
        return;
    }
    target.update_shelf(Shelf::link_continued);
    target.status(String::new());
}

/// Sessions counted and not yet on the list (`None`: no conversation in them), those that hold
/// no transcript, and when the list last showed counts.
struct Counted {
    sessions: Vec<(usize, Option<Summary>)>,
    left_out: Vec<(usize, String)>,
    shown_at: f64,
}

impl Counted {
    /// Keeps what a worker said of `session`.
    fn take(
        &mut self,
        folder: &Folder,
        target: &impl ListTarget,
        session: usize,
        answer: Result<Answer, Stopped>,
    ) {
        match answer {
            Ok(Answer { done: Done::Counted(summary), grams }) => {
                if let Some(grams) = grams {
                    folder.0.borrow_mut().grams.insert(session, grams);
                }
                self.sessions.push((session, summary));
            }
            Ok(Answer { done: Done::LeftOut(why), .. }) => self.left_out.push((session, why)),
            Ok(Answer { done: Done::Failed(reason), .. }) => {
                if let Some(file) = target.shelf(|s| s.sessions[session].file).flatten() {
                    unreadable(target, file, &reason);
                }
            }
            Ok(_) | Err(Stopped) => {}
        }
    }

    /// Puts the counted sessions on the list.
    fn show(&mut self, target: &impl ListTarget) {
        if self.sessions.is_empty() && self.left_out.is_empty() {
            return;
        }
        let left_out = std::mem::take(&mut self.left_out);
        let names = target.shelf(|shelf| {
            let name = |s: usize| shelf.sessions[s].files().next().map(|f| shelf.files[f].name.clone());
            left_out.iter().filter_map(|(s, why)| Some((name(*s)?, why.clone()))).collect::<Vec<_>>()
        });
        target.update_shelf(|shelf| {
            for (session, summary) in self.sessions.drain(..) {
                match summary {
                    Some(summary) => shelf.set_summary(session, summary),
                    None => shelf.set_empty(session),
                }
            }
            for (session, _) in &left_out {
                shelf.sessions[*session].left_out = true;
            }
        });
        // Said once each, all that arrived together in one go.
        if let Some(names) = names.filter(|n| !n.is_empty()) {
            target.left_out(names);
        }
        self.shown_at = now();
    }
}

/// Every session, project by project (the project last active first, its sessions newest
/// first), and each session's project path.
fn by_project(target: &impl ListTarget) -> (Vec<usize>, Vec<String>) {
    target
        .shelf(|s| {
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
        .unwrap_or_default()
}

/// Every session, the one last active first.
fn newest_first(target: &impl ListTarget) -> Vec<usize> {
    target
        .shelf(|s| {
            let mut order: Vec<usize> = (0..s.sessions.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(s.sessions[i].last_ms()));
            order
        })
        .unwrap_or_default()
}

/// Searches every session for `query`, project by project, in the workers; stops when another
/// search starts. Sessions already counted whose grams lack the query's are not read at all;
/// the others are read by the workers, which parse only those whose raw bytes may hold it.
/// Results are handed over in order as they come. Counting stops meanwhile: a reader who
/// searches wants the answer first.
pub(crate) async fn search(folder: &Folder, target: &impl ListTarget, query: Query, matcher: &Matcher) {
    folder.0.borrow_mut().searching = true;
    let pool = folder.pool();
    pool.stop(Kind::Search);
    pool.stop(Kind::Count);
    // Project by project (the last active first), so results come grouped.
    let (mut order, project_of) = by_project(target);
    let total = order.len();
    {
        let held = folder.0.borrow();
        order.retain(|s| held.grams.get(s).is_none_or(|g| matcher.may_be_in_grams(g)));
    }
    let mut tally =
        Tally { matches: 0, sessions: 0, done: total - order.len(), total, unread: 0, last_project: None };
    let work = Work::Search { query, limit: FOUND_PER_SESSION };
    let mut asked = VecDeque::new();
    let mut next = 0;
    let mut turns = PageTurns::new();
    loop {
        if turns.due() {
            turns.pause().await;
            if !target.is_latest() {
                return;
            }
        }
        while asked.len() < pool.depth() && next < order.len() && (asked.is_empty() || !turns.due()) {
            let session = order[next];
            asked.push_back((
                session,
                pool.run(Kind::Search, work.clone(), &folder.for_worker(target, session)),
            ));
            next += 1;
        }
        target.search_status(tally.running());
        let Some((session, answer)) = asked.pop_front() else { break };
        let answer = answer.await;
        if !target.is_latest() {
            return;
        }
        tally.done += 1;
        match answer {
            Err(Stopped) => return,
            Ok(Answer { done: Done::Searched(found), .. }) => tally.take(target, &project_of, session, found),
            Ok(_) => tally.unread += 1,
        }
    }
    folder.0.borrow_mut().searching = false;
    target.search_status(tally.finished());
}

/// What a search found so far.
struct Tally {
    matches: usize,
    sessions: u64,
    done: usize,
    total: usize,
    /// Sessions a worker could not read.
    unread: u64,
    /// The project of the last result shown.
    last_project: Option<String>,
}

impl Tally {
    /// Hands over what was found in `session`.
    fn take(
        &mut self,
        target: &impl ListTarget,
        project_of: &[String],
        session: usize,
        found: Vec<FoundSet>,
    ) {
        for FoundSet { found, total: all } in found {
            self.matches += all;
            self.sessions += 1;
            if self.sessions > SESSIONS_SHOWN {
                continue;
            }
            let path = &project_of[session];
            let project = Some(path.clone()).filter(|p| Some(p) != self.last_project.as_ref());
            self.last_project = Some(path.clone());
            target.found(FoundIn { session, project, found, total: all });
        }
    }

    fn running(&self) -> String {
        format!(
            "Searching: {} of {} sessions · {} in {}",
            self.done,
            self.total,
            plural(self.matches as u64, "match"),
            plural(self.sessions, "session"),
        )
    }

    fn finished(&self) -> String {
        // A session a worker could not read is said, not left out silently.
        let unread = match self.unread {
            0 => String::new(),
            n => format!(" ({} could not be read)", plural(n, "session")),
        };
        format!(
            "{} in {} of {} sessions{unread}",
            plural(self.matches as u64, "match"),
            self.sessions,
            self.total
        )
    }
}
