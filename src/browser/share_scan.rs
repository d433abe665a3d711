//! The Share tab's scan of a large session, split over workers: the engine worker cuts the files
//! into parts ([`crate::redact::split`]), starts a worker for each part but the first (which it
//! looks through itself meanwhile), hands each its part's bytes with its start, and puts what
//! they find together. A part whose worker cannot start, fails or stays silent is looked through
//! by the engine afterwards, so the findings are whole either way.

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

use super::timers::{later, promise};
use super::worker::start_worker_with;
use crate::redact::split::{merge, split, Piece};
use crate::redact::{compile_patterns, Finding, Scanner};

/// Bytes a part holds at least: looking through them takes about 0.15 s in wasm, more than
/// starting a worker costs (it compiles the rules its part needs as it meets their keywords).
const PART_BYTES: usize = 12 << 20;
/// Parts at most (the engine worker and three more), however many cores the machine has.
const MOST_PARTS: usize = 4;

/// A scan under way: the first part, which the engine looks through itself, and the workers
/// looking through the others.
pub(crate) struct Split {
    first: Vec<Piece>,
    /// Each other part, and the worker looking through it (`None`: none could start).
    others: Vec<(Vec<Piece>, Option<Helper>)>,
}

struct Helper {
    worker: Worker,
    /// Resolves once the worker runs (or, at the latest, after [`START_MS`]).
    entered: Promise,
    /// Resolves with the worker's answer, or `undefined` when it failed or was given up on.
    answer: Promise,
    /// Gives up on it: resolves `answer` with `undefined`.
    give_up: Function,
    _listeners: [Closure<dyn Fn(JsValue)>; 2],
}

/// How long the engine waits for its workers to start before it looks through its own part
/// anyway.
const START_MS: i32 = 3000;

impl Drop for Helper {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// Starts workers on all but the first part of `files`; `None` when it is not worth splitting
/// (small files, one core) or a pattern of the reader's is wrong (the caller's one scan says
/// so). The engine then waits until they run ([`Split::entered`]) before it looks through the
/// first part ([`Split::first`]): a worker a worker starts loads its script through the one
/// that started it, which must be free for that (busy, it held its worker back 1.2 s at 200 MB).
pub(crate) fn start(files: &[(&str, &[u8])], patterns: &[String]) -> Option<Split> {
    let size: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let cores =
        Reflect::get(&navigator, &"hardwareConcurrency".into()).ok()?.as_f64().unwrap_or(1.0) as usize;
    let count = cores.min(MOST_PARTS).min(size / PART_BYTES);
    if count < 2 {
        return None;
    }
    compile_patterns(patterns).ok()?;
    let mut parts = split(files, count).into_iter();
    let first = parts.next()?;
    let others = parts.map(|pieces| {
        let helper = helper(files, &pieces, patterns);
        (pieces, helper)
    });
    Some(Split { first, others: others.collect() })
}

impl Split {
    /// Once every worker runs (or failed, or was given [`START_MS`]).
    pub(crate) async fn entered(&self) {
        for helper in self.others.iter().filter_map(|(_, helper)| helper.as_ref()) {
            let _ = JsFuture::from(helper.entered.clone()).await;
        }
    }

    /// The part the engine looks through itself.
    pub(crate) fn first(&self) -> &[Piece] {
        &self.first
    }

    /// The findings of every part, `own` those of the first, once the workers answered (a
    /// worker silent for `wait_ms` more is given up on); a part no worker looked through is
    /// looked through by `look` (an error if the files are no longer there).
    pub(crate) async fn finish(
        self,
        own: Vec<Finding>,
        wait_ms: f64,
        look: impl Fn(&[Piece]) -> Result<Vec<Finding>, String>,
    ) -> Result<Vec<Finding>, String> {
        for helper in self.others.iter().filter_map(|(_, helper)| helper.as_ref()) {
            later(&helper.give_up, wait_ms);
        }
        let mut found = vec![own];
        for (pieces, helper) in self.others {
            let answer = match &helper {
                Some(helper) => JsFuture::from(helper.answer.clone()).await.ok(),
                None => None,
            };
            // Done with it: its memory (a part's bytes, twice) goes at once.
            drop(helper);
            let json = answer
                .and_then(|a| Reflect::get(&a, &"found".into()).ok())
                .and_then(|f| f.dyn_into::<Uint8Array>().ok())
                .map(|f| f.to_vec());
            found.push(match json.and_then(|json| serde_json::from_slice(&json).ok()) {
                Some(part) => part,
                None => look(&pieces)?,
            });
        }
        Ok(merge(found))
    }
}

/// What a part holds, looked through here.
pub(crate) fn find(scanner: &Scanner, files: &[(&str, &[u8])], pieces: &[Piece]) -> Vec<Finding> {
    find_telling(scanner, files, pieces, &mut |_, _| {})
}

/// Bytes looked through (or read) between two words of how far the engine got: about 0.1 s of
/// a scan in wasm.
pub(crate) const TELL_EVERY: usize = 8 << 20;

/// [`find`], telling `told` what share of the part it looked through (done, of bytes) as it
/// goes, from none: until the first 8 MB are looked through, the page would say what came
/// before (the files read).
pub(crate) fn find_telling(
    scanner: &Scanner,
    files: &[(&str, &[u8])],
    pieces: &[Piece],
    told: &mut dyn FnMut(usize, usize),
) -> Vec<Finding> {
    let size = pieces.iter().map(|p| p.range.len()).sum();
    told(0, size);
    let bytes = pieces.iter().map(|p| (p, &files[p.file].1[p.range.clone()]));
    scanner.find_part_telling(bytes, TELL_EVERY, &mut |done| told(done, size))
}

/// A worker started on part `pieces` of `files`, or `None` if none starts.
fn helper(files: &[(&str, &[u8])], pieces: &[Piece], patterns: &[String]) -> Option<Helper> {
    // Straight into a JavaScript buffer, a piece at a time (a byte at a time took 0.7 s for
    // 100 MB).
    let bytes = Uint8Array::new_with_length(pieces.iter().map(|p| p.range.len()).sum::<usize>() as u32);
    let mut at = 0;
    for piece in pieces {
        let end = at + piece.range.len() as u32;
        bytes.subarray(at, end).copy_from(&files[piece.file].1[piece.range.clone()]);
        at = end;
    }
    let job = Object::new();
    let _ = Reflect::set(&job, &"pieces".into(), &serde_json::to_string(pieces).ok()?.into());
    let _ = Reflect::set(&job, &"patterns".into(), &serde_json::to_string(patterns).ok()?.into());
    let _ = Reflect::set(&job, &"bytes".into(), &bytes);
    let transfer = Array::of1(&bytes.buffer());
    let worker = start_worker_with("scan", Some((&job, &transfer)))?;
    let (entered, enter) = promise();
    let (answer, answered) = promise();
    // Waited for no longer than START_MS.
    later(&enter, f64::from(START_MS));
    let heard = {
        let (enter, answered) = (enter.clone(), answered.clone());
        Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            let data = event.unchecked_into::<MessageEvent>().data();
            let _ = enter.call0(&JsValue::NULL);
            let has = |key: &str| Reflect::has(&data, &key.into()).unwrap_or(false);
            if has("found") || has("failed") {
                let _ = answered.call1(&JsValue::NULL, &data);
            }
        })
    };
    let failed = {
        let answered = answered.clone();
        Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            // Handled here: not reported again in the engine's scope, which would stop it.
            event.unchecked_into::<web_sys::Event>().prevent_default();
            let _ = enter.call0(&JsValue::NULL);
            let _ = answered.call1(&JsValue::NULL, &JsValue::UNDEFINED);
        })
    };
    worker.set_onmessage(Some(heard.as_ref().unchecked_ref()));
    worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
    Some(Helper { worker, entered, answer, give_up: answered, _listeners: [heard, failed] })
}

/// Runs in a scan worker: says it runs (`{ entered }`), looks through the part it was given
/// (`{ pieces, patterns, bytes }`) and answers `{ found }`, the findings' JSON as UTF-8 bytes,
/// or `{ failed }`, why not.
#[wasm_bindgen(js_name = startScanWorker, skip_typescript)]
pub fn start_scan_worker(job: JsValue) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let entered = Object::new();
    let _ = Reflect::set(&entered, &"entered".into(), &true.into());
    let _ = scope.post_message(&entered);
    let reply = Object::new();
    match scan_job(&job) {
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

/// The findings' JSON of a scan worker's job.
fn scan_job(job: &JsValue) -> Result<Vec<u8>, String> {
    let get = |key: &str| Reflect::get(job, &key.into()).map_err(|_| format!("the job has no {key}"));
    let text = |key: &str| get(key)?.as_string().ok_or(format!("the job's {key} is not text"));
    let pieces: Vec<Piece> = serde_json::from_str(&text("pieces")?).map_err(|e| e.to_string())?;
    let patterns: Vec<String> = serde_json::from_str(&text("patterns")?).map_err(|e| e.to_string())?;
    let bytes = get("bytes")?.dyn_into::<Uint8Array>().map_err(|_| "the job's bytes are not bytes")?.to_vec();
    // Copied: the buffer can go while the part is looked through.
    let _ = Reflect::delete_property(job.unchecked_ref::<Object>(), &"bytes".into());
    let scanner = Scanner::new(&patterns)?;
    let mut at = 0;
    let mut slices = Vec::with_capacity(pieces.len());
    for piece in &pieces {
        let end = at + piece.range.len();
        slices.push(bytes.get(at..end).ok_or("the job's bytes are fewer than its pieces")?);
        at = end;
    }
    let found = scanner.find_part(pieces.iter().zip(slices));
    serde_json::to_vec(&found).map_err(|e| e.to_string())
}
