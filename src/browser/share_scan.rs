//! The Share tab's scan of a large session, split over workers: the engine worker starts one per
//! share of the files ([`crate::redact::split`]), hands each the bytes its share needs as it has
//! them (as it reads the `File`s the page read, or from the copy it holds), and puts what they
//! find together. The engine looks through none itself: its thread stays free to read, to hand
//! over and to say how far they got. A worker that cannot start, fails or stays silent leaves
//! the whole look to the engine, which then looks through the files itself, so the findings are
//! whole either way.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

use super::timers::{later, promise};
use super::worker::{end, start_worker_with};
use crate::redact::split::{merge_shares, names_and_sizes, share_begins, Share, ShareScan};
use crate::redact::{compile_patterns, Finding, Scanner};

/// Bytes a share holds at least: looking through them takes about 0.15 s in wasm, more than
/// starting a worker costs (it compiles the rules its share needs as it meets their keywords).
const PART_BYTES: u64 = 12 << 20;
/// Shares at most, however many cores the machine has.
const MOST_PARTS: usize = 4;
/// Bytes handed over at a time from the copy the engine holds.
pub(crate) const SLICE: usize = 8 << 20;
/// Bytes looked through (or read) between two words of how far the engine got: about 0.1 s of
/// a scan in wasm.
pub(crate) const TELL_EVERY: u64 = 8 << 20;

/// How many shares files of `total` bytes are looked through in: one per core, up to
/// [`MOST_PARTS`], each of [`PART_BYTES`] at least (1: not split).
pub(crate) fn shares(total: u64) -> usize {
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).unwrap_or_default();
    let cores = Reflect::get(&navigator, &"hardwareConcurrency".into()).ok().and_then(|c| c.as_f64());
    (cores.unwrap_or(1.0) as usize).min(MOST_PARTS).min((total / PART_BYTES) as usize).max(1)
}

/// Bytes a worker may be handed ahead of what it took in: the engine reads faster than a worker
/// looks, and what it hands over waits in the worker's messages meanwhile. The engine reads in
/// order, so a worker of a later share is handed nothing while the engine waits for an earlier
/// one: enough that it waits only in sessions of many hundred MB (at 64 MB, the two shares of a
/// 200 MB session were looked through one after the other, 2.6 s instead of 1.9).
pub(crate) const AHEAD: u64 = 256 << 20;

/// A look under way: a worker per share.
pub(crate) struct Look {
    names: Vec<String>,
    total: u64,
    helpers: Vec<Helper>,
}

struct Helper {
    worker: Worker,
    /// Where its share would begin: it is handed no byte before.
    from: (usize, u64),
    /// Bytes handed to it, and how many of them it took in, as it last said.
    fed: Cell<u64>,
    taken: Rc<Cell<u64>>,
    /// It answered (or failed): it is handed nothing more.
    done: Rc<Cell<bool>>,
    /// Resolves with the worker's answer, or `undefined` when it failed or was given up on.
    answer: Promise,
    /// Gives up on it: resolves `answer` with `undefined`.
    give_up: Function,
    _listeners: [Closure<dyn Fn(JsValue)>; 2],
}

impl Drop for Helper {
    fn drop(&mut self) {
        end(&self.worker);
    }
}

/// Starts a worker on each share of the files `names`, of `sizes` bytes; `told` hears how many
/// bytes of all they looked through, of how many, as they go. `None` when it is not worth
/// splitting (small files, one core), a worker cannot start, or a pattern of the reader's is
/// wrong (the caller's own scan says so).
pub(crate) fn start(
    names: &[String],
    sizes: &[u64],
    patterns: &[String],
    told: fn(u64, u64),
) -> Option<Look> {
    let total: u64 = sizes.iter().sum();
    let count = shares(total);
    if count < 2 {
        return None;
    }
    compile_patterns(patterns).ok()?;
    let job = Object::new();
    let _ = Reflect::set(&job, &"names".into(), &serde_json::to_string(names).ok()?.into());
    let _ = Reflect::set(&job, &"sizes".into(), &serde_json::to_string(sizes).ok()?.into());
    let _ = Reflect::set(&job, &"patterns".into(), &serde_json::to_string(patterns).ok()?.into());
    let _ = Reflect::set(&job, &"count".into(), &(count as u32).into());
    let looked: Rc<[Cell<u64>]> = (0..count).map(|_| Cell::new(0)).collect();
    let helpers = (0..count).map(|share| {
        let _ = Reflect::set(&job, &"share".into(), &(share as u32).into());
        let looked = looked.clone();
        let tell = move |done: u64| {
            looked[share].set(done);
            told(looked.iter().map(Cell::get).sum(), total);
        };
        helper(&job, share_begins(sizes, share, count), Box::new(tell))
    });
    let helpers = helpers.collect::<Option<_>>()?;
    Some(Look { names: names.to_vec(), total, helpers })
}

impl Look {
    /// Hands bytes `at..` of file `file` to each worker whose share may hold them and that
    /// wants more: `bytes` itself to the last (transferred: it is empty after), a copy to the
    /// others.
    pub(crate) fn feed(&self, file: usize, at: u64, bytes: &Uint8Array) {
        let end = at + bytes.length() as u64;
        let wanting: Vec<&Helper> =
            self.helpers.iter().filter(|h| !h.done.get() && (file, end) > h.from).collect();
        for (i, helper) in wanting.iter().enumerate() {
            let last = i + 1 == wanting.len();
            let bytes = if last { bytes.clone() } else { bytes.slice(0, bytes.length()) };
            let message = Object::new();
            let _ = Reflect::set(&message, &"file".into(), &(file as u32).into());
            let _ = Reflect::set(&message, &"at".into(), &(at as f64).into());
            let _ = Reflect::set(&message, &"bytes".into(), &bytes);
            let _ = helper.worker.post_message_with_transfer(&message, &Array::of1(&bytes.buffer()));
            helper.fed.set(helper.fed.get() + end - at);
        }
    }

    /// Whether a worker that wants more was handed more than [`AHEAD`] bytes past what it looked
    /// through: the engine waits before it reads on.
    pub(crate) fn behind(&self) -> bool {
        let behind = |h: &Helper| !h.done.get() && h.fed.get().saturating_sub(h.taken.get()) > AHEAD;
        self.helpers.iter().any(behind)
    }

    /// Says every byte of file `file` was handed over.
    pub(crate) fn end_file(&self, file: usize) {
        let message = Object::new();
        let _ = Reflect::set(&message, &"ended".into(), &(file as u32).into());
        for helper in self.helpers.iter().filter(|h| !h.done.get() && file >= h.from.0) {
            let _ = helper.worker.post_message(&message);
        }
    }

    /// Hands over every byte of `files` (held whole), a [`SLICE`] at a time, saying each end.
    pub(crate) fn feed_all(&self, files: &[(&str, &[u8])]) {
        for (file, (_, bytes)) in files.iter().enumerate() {
            for (i, chunk) in bytes.chunks(SLICE).enumerate() {
                let at = (i * SLICE) as u64;
                if self.helpers.iter().any(|h| !h.done.get() && (file, at + chunk.len() as u64) > h.from) {
                    self.feed(file, at, &Uint8Array::from(chunk));
                }
            }
            self.end_file(file);
        }
    }

    /// Gives up on every worker: the look then ends as failed.
    pub(crate) fn give_up(&self) {
        for helper in &self.helpers {
            let _ = helper.give_up.call0(&JsValue::NULL);
        }
    }

    /// The findings of every share once each worker answered; an error when one failed, or
    /// said nothing for far longer than looking through its share takes (20 MB/s, and 10 s,
    /// counted from when the last file's end was said).
    pub(crate) async fn finish(&self) -> Result<Vec<Finding>, String> {
        let share_mb = self.total as f64 / 1e6 / self.helpers.len() as f64;
        for helper in &self.helpers {
            later(&helper.give_up, 10_000.0 + 50.0 * share_mb);
        }
        let mut shares = Vec::with_capacity(self.helpers.len());
        for helper in &self.helpers {
            let answer = JsFuture::from(helper.answer.clone()).await.ok();
            let json = answer
                .and_then(|a| Reflect::get(&a, &"found".into()).ok())
                .and_then(|f| f.dyn_into::<Uint8Array>().ok())
                .map(|f| f.to_vec())
                .ok_or("a worker could not look through its share")?;
            shares.push(serde_json::from_slice::<Share>(&json).map_err(|e| e.to_string())?);
        }
        Ok(merge_shares(&self.names, shares))
    }
}

/// The findings in `files` (held whole), looked through here as one share; `told` hears how many
/// bytes of how many it looked through, from none.
pub(crate) fn find_here(
    scanner: &Scanner,
    files: &[(&str, &[u8])],
    told: fn(u64, u64),
) -> Result<Vec<Finding>, String> {
    let (names, sizes) = names_and_sizes(files);
    let total = sizes.iter().sum();
    let mut scan = ShareScan::new(scanner, &names, &sizes, (0, 1));
    told(0, total);
    for (file, (_, bytes)) in files.iter().enumerate() {
        for (i, chunk) in bytes.chunks(SLICE).enumerate() {
            let before = scan.looked();
            scan.feed(file, (i * SLICE) as u64, chunk);
            if scan.looked() / TELL_EVERY != before / TELL_EVERY {
                told(scan.looked(), total);
            }
        }
        scan.end_file(file);
    }
    Ok(merge_shares(&names, vec![scan.finish()?]))
}

/// A worker started on `job`, whose share begins `from`, telling `tell` how far it got; `None`
/// if none starts.
fn helper(job: &Object, from: (usize, u64), tell: Box<dyn Fn(u64)>) -> Option<Helper> {
    let worker = start_worker_with("scan", Some((job, &Array::new())))?;
    let (answer, answered) = promise();
    let done = Rc::new(Cell::new(false));
    let taken = Rc::new(Cell::new(0));
    let heard = {
        let (answered, done, taken) = (answered.clone(), done.clone(), taken.clone());
        Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            let data = event.unchecked_into::<MessageEvent>().data();
            let number = |key: &str| Reflect::get(&data, &key.into()).ok().and_then(|d| d.as_f64());
            if let (Some(looked), Some(took)) = (number("looked"), number("taken")) {
                taken.set(took as u64);
                tell(looked as u64);
            } else {
                done.set(true);
                let _ = answered.call1(&JsValue::NULL, &data);
            }
        })
    };
    let failed = {
        let (answered, done) = (answered.clone(), done.clone());
        Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            // Handled here: not reported again in the engine's scope, which would stop it.
            event.unchecked_into::<web_sys::Event>().prevent_default();
            done.set(true);
            let _ = answered.call1(&JsValue::NULL, &JsValue::UNDEFINED);
        })
    };
    worker.set_onmessage(Some(heard.as_ref().unchecked_ref()));
    worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
    Some(Helper {
        worker,
        from,
        fed: Cell::new(0),
        taken,
        done,
        answer,
        give_up: answered,
        _listeners: [heard, failed],
    })
}

thread_local! {
    /// A scan worker's share under way, and how many bytes it was handed.
    static SCAN: RefCell<Option<ShareScan<'static>>> = const { RefCell::new(None) };
    static TAKEN: Cell<u64> = const { Cell::new(0) };
}

/// Runs in a scan worker: looks through its share of the files (`{ names, sizes, patterns,
/// share, count }`) as it is handed their bytes (`{ file, at, bytes }`) and their ends (`{ ended
/// }`), says how far it got (`{ looked }`, bytes) as it goes, and answers `{ found }`, its
/// [`Share`]'s JSON as UTF-8 bytes, once it needs no more (or `{ failed }`, why not). How far it
/// got is said each time it was handed 8 MB more: `{ looked, taken }`, the bytes of its share it
/// looked through and the bytes it was handed (the engine hands it no more than [`AHEAD`] past
/// these).
#[wasm_bindgen(js_name = startScanWorker, skip_typescript)]
pub fn start_scan_worker(job: JsValue) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    match new_scan(&job) {
        Ok(scan) => SCAN.with(|s| *s.borrow_mut() = Some(scan)),
        Err(why) => return answer(Err(why)),
    }
    let heard = Closure::<dyn Fn(MessageEvent)>::new(|event: MessageEvent| {
        let data = event.data();
        let number = |key: &str| Reflect::get(&data, &key.into()).ok().and_then(|n| n.as_f64());
        let ended = SCAN.with(|scan| {
            let mut scan = scan.borrow_mut();
            let Some(scan) = scan.as_mut() else { return false };
            let before = TAKEN.with(Cell::get);
            if let (Some(file), Some(at)) = (number("file"), number("at")) {
                let bytes =
                    Reflect::get(&data, &"bytes".into()).ok().and_then(|b| b.dyn_into::<Uint8Array>().ok());
                let bytes = bytes.map(|b| b.to_vec()).unwrap_or_default();
                scan.feed(file as usize, at as u64, &bytes);
                TAKEN.with(|t| t.set(before + bytes.len() as u64));
            } else if let Some(file) = number("ended") {
                scan.end_file(file as usize);
            }
            let taken = TAKEN.with(Cell::get);
            if taken / TELL_EVERY != before / TELL_EVERY {
                let said = Object::new();
                let _ = Reflect::set(&said, &"looked".into(), &(scan.looked() as f64).into());
                let _ = Reflect::set(&said, &"taken".into(), &(taken as f64).into());
                let _ = js_sys::global().unchecked_into::<DedicatedWorkerGlobalScope>().post_message(&said);
            }
            scan.is_done()
        });
        if ended {
            if let Some(scan) = SCAN.with(|s| s.borrow_mut().take()) {
                answer(scan.finish().and_then(|share| serde_json::to_vec(&share).map_err(|e| e.to_string())));
            }
        }
    });
    scope.set_onmessage(Some(heard.as_ref().unchecked_ref()));
    // The worker lives for this one share, then the engine ends it.
    heard.forget();
}

/// A scan worker's share, of its job.
fn new_scan(job: &JsValue) -> Result<ShareScan<'static>, String> {
    let get = |key: &str| Reflect::get(job, &key.into()).map_err(|_| format!("the job has no {key}"));
    let text = |key: &str| get(key)?.as_string().ok_or(format!("the job's {key} is not text"));
    let number =
        |key: &str| get(key)?.as_f64().map(|n| n as usize).ok_or(format!("the job's {key} is not a number"));
    let names: Vec<String> = serde_json::from_str(&text("names")?).map_err(|e| e.to_string())?;
    let sizes: Vec<u64> = serde_json::from_str(&text("sizes")?).map_err(|e| e.to_string())?;
    let patterns: Vec<String> = serde_json::from_str(&text("patterns")?).map_err(|e| e.to_string())?;
    // Kept for the worker's life, which is this one share's.
    let scanner: &'static Scanner = Box::leak(Box::new(Scanner::new(&patterns)?));
    Ok(ShareScan::new(scanner, &names, &sizes, (number("share")?, number("count")?)))
}

/// Posts a scan worker's answer.
fn answer(found: Result<Vec<u8>, String>) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = Object::new();
    match found {
        Ok(found) => {
            let found = Uint8Array::from(&found[..]);
            let _ = Reflect::set(&reply, &"found".into(), &found);
            let _ = scope.post_message_with_transfer(&reply, &Array::of1(&found.buffer()));
        }
        Err(why) => {
            let _ = Reflect::set(&reply, &"failed".into(), &why.into());
            let _ = scope.post_message(&reply);
        }
    }
}
