//! Following a session while Claude Code writes it (Chromium: the File System Access API gives a
//! handle to read a file again). About once a second each followed file is asked its size; only
//! what was appended is read and handed to [`normalize::live`](crate::normalize::live), and the
//! grown session is handed to the viewer ([`FollowTarget::show_more`]). A file that was
//! rewritten rather than appended to is read again whole, and a session Claude Code starts in a
//! followed folder (`/clear`, a new run) is followed instead. A file that can no longer be
//! followed (emptied, grown past what the viewer holds, unreadable for seconds) ends following
//! with the reason, and what was shown stays.
//!
//! The follower is a state machine: [`State`] says what it does next, [`Follower::next`] does it
//! and says what follows.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::folders::Followed;
use super::read::{read_bytes, Named};
use super::timers::{now, sleep, PageTurns};
use crate::normalize::beside::beside;
use crate::normalize::live::{Growth, Live};
use crate::normalize::pace::{Pace, Pause};
use crate::normalize::Workspace;

/// How often a followed file is asked whether it grew.
const EVERY_MS: f64 = 1000.0;
/// Reading what arrived and making the grown session may take at most this share of the time: a
/// very large session, whose every reading costs hundreds of ms, is read less often rather than
/// keeping the page busy.
const BUSY_SHARE: f64 = 0.25;
/// Reads that fail this many seconds in a row end following.
const FAILURES: u32 = 5;
/// At most this much of what was appended is read at a time (a file that grew by a gigabyte is
/// read in steps, the page answering between them, and shown once it is all read).
const MOST_PER_READING: usize = 64 * 1024 * 1024;
/// A file that changed but not in size is compared with what was read in slices of this size.
const COMPARE_STEP: usize = 16 * 1024 * 1024;
/// A followed folder is looked at for a new session (Claude Code starts one on `/clear`) every
/// this many readings.
const NEW_SESSION_EVERY: u32 = 3;

/// The viewer a follower shows the session in.
pub(crate) trait FollowTarget {
    /// Whether this follower is still wanted (the reader did not stop it or follow another).
    fn running(&self) -> bool;
    /// Opens `files` as any files are opened; the workspace made of them, or `None` when they
    /// were not shown (the load said why) or other files were opened meanwhile.
    fn open(&self, files: Vec<Named>) -> Pin<Box<dyn Future<Output = Option<Arc<Workspace>>> + '_>>;
    /// Whether what [`open`](FollowTarget::open) showed is still shown and followed.
    fn still(&self) -> bool;
    /// The session `name` is followed from now on; `again` says why its files were read again.
    fn following(&self, name: Option<String>, again: Option<String>);
    /// More of the followed files arrived.
    fn show_more(&self, workspace: Workspace);
    /// Following ended: with the reason when the files could no longer be read.
    fn ended(&self, reason: Option<String>);
    /// The most bytes of files the viewer can hold (what opening them allows).
    fn max_bytes(&self) -> f64;
}

/// What the follower does next.
enum State {
    /// Choose the files and open them from scratch; `again` says why, once they are shown.
    Open { again: Option<String> },
    /// Wait before asking the files again.
    Wait(Watch),
    /// Ask the files whether they grew, and read what did.
    Read(Watch),
    /// Stop: with the reason when the files could no longer be read.
    End(Option<String>),
}

/// A session being watched: what was read of it, and how the readings went.
struct Watch {
    live: Live,
    /// How long the last reading that found something took.
    busy: f64,
    /// Readings that failed in a row.
    failures: u32,
    readings: u32,
    /// The lines the viewer shows, and whether a file was added since it was shown.
    shown_lines: usize,
    added: bool,
}

/// What one reading of the followed files found.
enum Reading {
    /// Read; whether a file was added (a file new since, or metadata written again), and
    /// whether more was appended than one reading takes.
    Read { added: bool, behind: bool },
    /// A file was rewritten, not appended to (its name).
    Rewritten(String),
    /// A file can no longer be followed (why): emptied, or grown past what the viewer holds.
    Unfollowable(String),
    /// A file could not be read now (why).
    Failed(String),
    /// Other files were opened, or following was stopped, meanwhile.
    Gone,
}

/// The session `handle` is (a file, or the newest in a folder), followed until the reader stops,
/// opens something else, or it can no longer be read.
pub(crate) async fn follow(target: impl FollowTarget, handle: Followed) {
    // The sessions in the folder before the files are first chosen: any other that appears later
    // is new. (Listed at the first listing that works, if this one fails.)
    let known = handle.sessions().await;
    let mut follower = Follower { target, handle, chosen: None, known, modified: HashMap::new() };
    let mut state = State::Open { again: None };
    loop {
        state = match follower.next(state).await {
            State::End(reason) => return follower.target.ended(reason),
            next => next,
        };
    }
}

struct Follower<T> {
    target: T,
    handle: Followed,
    /// The followed session's file name, once chosen.
    chosen: Option<String>,
    known: Option<HashSet<String>>,
    /// When each file was last modified, as last read: a file rewritten with as many bytes as
    /// it had is told by this.
    modified: HashMap<String, f64>,
}

impl<T: FollowTarget> Follower<T> {
    /// Does what `state` says; returns what follows.
    async fn next(&mut self, state: State) -> State {
        match state {
            State::Open { again } => self.open(again).await,
            State::Wait(watch) => self.wait(watch).await,
            State::Read(watch) => self.read(watch).await,
            State::End(reason) => State::End(reason),
        }
    }

    /// Opens the files as they are, as any files are opened, and watches them from the bytes
    /// the viewer was given.
    async fn open(&mut self, again: Option<String>) -> State {
        if !self.target.running() {
            return State::End(None);
        }
        let files = match self.handle.files(&self.chosen).await {
            Ok(files) if files.is_empty() => {
                return State::End(Some("there is no .jsonl file to follow".into()))
            }
            Ok(files) => files,
            Err(e) => return State::End(Some(e)),
        };
        if !self.target.running() {
            return State::End(None);
        }
        self.chosen = files.first().map(|f| f.name.clone());
        self.modified = files.iter().map(|f| (f.name.clone(), f.file.last_modified())).collect();
        let Some(shown) = self.target.open(files).await else { return State::End(None) };
        self.target.following(self.chosen.clone(), again);
        let mut live = Live::new();
        let mut turns = PageTurns::new();
        for (name, bytes) in shown.given_files() {
            live.add_paced(name, bytes, &mut Pace::with(&mut turns)).await;
        }
        let shown_lines = live.lines();
        State::Wait(Watch { live, busy: 0.0, failures: 0, readings: 0, shown_lines, added: false })
    }

    /// Waits a second (longer when reading is slow), then looks for a newer session now and
    /// then.
    async fn wait(&mut self, mut watch: Watch) -> State {
        sleep((EVERY_MS.max(watch.busy / BUSY_SHARE)) as i32).await;
        if !self.target.still() {
            return State::End(None);
        }
        watch.readings += 1;
        if watch.readings.is_multiple_of(NEW_SESSION_EVERY) {
            let newer = self.newer_session().await;
            if !self.target.still() {
                return State::End(None);
            }
            if let Some(name) = newer {
                let again = format!("{name} is a new session in the folder: followed instead of the last");
                self.chosen = Some(name);
                return State::Open { again: Some(again) };
            }
        }
        State::Read(watch)
    }

    /// Reads what was appended to the files and shows the grown session. A file can be
    /// unreadable for a moment (Chromium refuses a `File` whose file changed since it was asked
    /// for, which a file being written does all the time): the next second reads it again; only
    /// several failures in a row end following.
    async fn read(&mut self, mut watch: Watch) -> State {
        let started = now();
        let reading = match self.handle.files(&self.chosen).await {
            Err(e) => Reading::Failed(e),
            Ok(files) => self.read_grown(&mut watch.live, files).await,
        };
        let added = match reading {
            Reading::Gone => return State::End(None),
            Reading::Rewritten(name) => {
                let again = format!("{name} was rewritten, not appended to: read again whole");
                return State::Open { again: Some(again) };
            }
            Reading::Unfollowable(why) => return State::End(Some(why)),
            Reading::Failed(_) | Reading::Read { .. } if !self.target.still() => return State::End(None),
            Reading::Failed(e) if watch.failures + 1 >= FAILURES => return State::End(Some(e)),
            Reading::Failed(_) => {
                watch.failures += 1;
                false
            }
            Reading::Read { added, behind } => {
                watch.failures = 0;
                watch.added |= added;
                // The rest is read at once, and all of it shown when it is read.
                if behind {
                    return State::Read(watch);
                }
                std::mem::take(&mut watch.added)
            }
        };
        if added || watch.live.lines() != watch.shown_lines {
            let mut turns = PageTurns::new();
            let workspace = watch.live.workspace_paced(&mut Pace::with(&mut turns)).await;
            // Making it and showing it are separate tasks, so neither waits for the other.
            turns.pause().await;
            if !self.target.still() {
                return State::End(None);
            }
            self.target.show_more(workspace);
            watch.shown_lines = watch.live.lines();
            // The page's own turns while this paused are not the follower's time.
            watch.busy = now() - started - turns.waited();
        } else {
            watch.busy = 0.0;
        }
        State::Wait(watch)
    }

    /// Reads what changed in `files` into `live`.
    async fn read_grown(&mut self, live: &mut Live, files: Vec<Named>) -> Reading {
        let mut added = false;
        let mut behind = false;
        for Named { name, file } in files {
            let size = file.size() as usize;
            let modified = file.last_modified();
            // The time is kept once the file was read as it is now: a reading that fails looks
            // again next time.
            let touched = self.modified.get(&name).is_some_and(|&m| m != modified);
            let growth = match live.compare(&name, size) {
                // Written since, but not longer: rewritten if its bytes are not the ones read.
                Growth::Same if touched && beside(&name).is_none() && live.has(&name) => {
                    match same_bytes(live, &name, &file, size).await {
                        Ok(true) => Growth::Same,
                        Ok(false) => Growth::Rewritten,
                        Err(e) => return Reading::Failed(format!("{name}: {e}")),
                    }
                }
                Growth::Same if touched && live.has(&name) => Growth::Rewritten,
                growth => growth,
            };
            let result = match growth {
                Growth::Same => Ok(Growth::Same),
                // A file new since (or one the loader could not read as a transcript: an empty
                // session file), or metadata written again.
                Growth::Rewritten if !live.has(&name) || beside(&name).is_some() => {
                    match read_bytes(&file, 0.0, size as f64).await {
                        Ok(bytes) => {
                            live.add_paced(&name, &bytes, &mut Pace::with(&mut PageTurns::new())).await;
                            added = true;
                            Ok(Growth::Same)
                        }
                        Err(e) => Err(e),
                    }
                }
                // Read again whole, an empty file would take away what was shown for nothing.
                Growth::Rewritten if size == 0 => {
                    return Reading::Unfollowable(format!(
                        "{name} was emptied; what was read of it stays on screen"
                    ))
                }
                Growth::Rewritten => Ok(Growth::Rewritten),
                Growth::Appended(more) => {
                    if let Some(why) = self.too_large(live, &name, more) {
                        return Reading::Unfollowable(why);
                    }
                    let from = live.read_from(&name);
                    let end = size.min(live.read(&name).unwrap_or(0) + MOST_PER_READING);
                    behind |= end < size;
                    match read_bytes(&file, from as f64, end as f64).await {
                        Ok(bytes) => {
                            // What is new, past the bytes read again to check they are the same.
                            let new = &bytes[(live.read(&name).unwrap_or(0) - from).min(bytes.len())..];
                            let (held, lines) =
                                (live.bytes_read() + new.len(), live.lines() + crate::model::lines_in(new));
                            if let Err(too_many) = crate::model::fits(held, lines) {
                                return Reading::Unfollowable(format!(
                                    "{name}: {too_many}; what was read of it stays on screen"
                                ));
                            }
                            Ok(live
                                .take_paced(&name, from, &bytes, &mut Pace::with(&mut PageTurns::new()))
                                .await)
                        }
                        Err(e) => Err(e),
                    }
                }
            };
            if !self.target.still() {
                return Reading::Gone;
            }
            match result {
                Ok(Growth::Rewritten) => return Reading::Rewritten(name),
                Ok(Growth::Appended(_) | Growth::Same) => {
                    self.modified.insert(name, modified);
                }
                Err(e) => return Reading::Failed(format!("{name}: {e}")),
            }
        }
        Reading::Read { added, behind }
    }

    /// Why `name` cannot grow by `more` bytes, if it cannot: the session would be larger than
    /// the viewer can hold, which a tab that runs out of memory does not say.
    fn too_large(&self, live: &Live, name: &str, more: usize) -> Option<String> {
        let total = (live.bytes_read() + more) as f64;
        let limit = self.target.max_bytes();
        (total > limit).then(|| {
            format!(
                "{name} grew by {:.0} MB: the session would be {:.0} MB, more than this tab can hold ({:.0} MB); what was read of it stays on screen",
                more as f64 / 1e6,
                total / 1e6,
                limit / 1e6
            )
        })
    }

    /// A session that appeared in the folder since the known ones were listed (Claude Code
    /// starts one on `/clear`, or on a new run) and was written to since the followed one was:
    /// the one to follow now. The others that appeared with it become known, so following does
    /// not go back and forth. While the followed session is written to last (two sessions at
    /// once), nothing changes.
    async fn newer_session(&mut self) -> Option<String> {
        let names = self.handle.sessions().await?;
        let Some(seen) = &self.known else {
            self.known = Some(names);
            return None;
        };
        let chosen = &self.chosen;
        let mut candidates: Vec<String> =
            names.difference(seen).filter(|name| Some(*name) != chosen.as_ref()).cloned().collect();
        if candidates.is_empty() {
            return None;
        }
        candidates.extend(chosen.clone());
        let newest = self.handle.newest(&candidates).await?;
        if Some(&newest) == self.chosen.as_ref() {
            return None;
        }
        self.known.get_or_insert_default().extend(candidates);
        Some(newest)
    }
}

/// Whether `file` (of `size` bytes, as many as were read of `name`) still holds the bytes read,
/// compared a slice at a time.
async fn same_bytes(live: &Live, name: &str, file: &web_sys::File, size: usize) -> Result<bool, String> {
    let mut at = 0;
    while at < size {
        let end = size.min(at + COMPARE_STEP);
        let now = read_bytes(file, at as f64, end as f64).await?;
        if live.bytes(name).and_then(|read| read.get(at..end)) != Some(&now[..]) {
            return Ok(false);
        }
        at = end;
    }
    Ok(true)
}
