//! What a worker of the list does ([`super::pool`] starts them): reads one session of a folder
//! whole and counts it or searches it ([`crate::engine::scan`]), so the page never parses a
//! folder's GBs itself. Where no worker can start, the page runs the same [`work`] itself.
//!
//! A worker runs the page's own wasm: `www/worker.js` imports the page's wasm-bindgen JS and
//! instantiates the module the page compiled, then calls [`start_list_worker`].

use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, File, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::js_error::describe;
use super::read::read_promise;
use crate::catalog::summary::Summary;
use crate::engine::scan::{FoundSet, SessionReader};
use crate::query::search::Query;

/// A session asked of a worker: its files' names and sizes (the `File`s go beside, in the
/// message), and what to do with it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Job {
    pub(crate) id: u32,
    pub(crate) names: Vec<String>,
    pub(crate) sizes: Vec<f64>,
    pub(crate) work: Work,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Work {
    /// What the list says about it once every line is read, and its three-byte sequences.
    Count,
    /// The matches of a query, the first `limit` of each session.
    Search { query: Query, limit: usize },
}

/// What a worker answers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Done {
    /// `None` when the files hold no conversation. The grams go beside, as bytes.
    Counted(Option<Summary>),
    /// The files hold no Claude Code transcript at all (why): left off the list.
    LeftOut(String),
    Searched(Vec<FoundSet>),
    /// The files could not be read (why).
    Failed(String),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    pub(crate) id: u32,
    pub(crate) done: Done,
    /// The worker's wasm memory, in bytes: it never shrinks, so a worker that read a large
    /// session is replaced once idle.
    pub(crate) memory: f64,
}

/// Starts a worker of the page (`www/worker.js`) that will run `role`'s entry point (`"list"`:
/// [`start_list_worker`]; `"engine"`: `super::engine_worker`), handing it the address of the
/// page's wasm-bindgen JS and the module the page compiled. `None` when this page cannot have one.
/// Its messages wait until the caller sets its handlers, in the same task.
pub(crate) fn start_worker(role: &str) -> Option<Worker> {
    start_worker_with(role, None)
}

/// [`start_worker`] for a worker of one job (`"scan"`: `super::share_scan`), which it is given
/// with its start: `job`, and the buffers in it to transfer.
pub(crate) fn start_worker_with(role: &str, job: Option<(&JsValue, &Array)>) -> Option<Worker> {
    let glue = super::viewer_files::script_url();
    let script = web_sys::Url::new_with_base("worker.js", &glue).ok()?;
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(&script.href(), &options).ok()?;
    let start = Object::new();
    let _ = Reflect::set(&start, &"glue".into(), &glue.into());
    let _ = Reflect::set(&start, &"module".into(), &wasm_bindgen::module());
    let _ = Reflect::set(&start, &"role".into(), &role.into());
    let transfer = match job {
        Some((job, transfer)) => {
            let _ = Reflect::set(&start, &"job".into(), job);
            transfer.clone()
        }
        None => Array::new(),
    };
    if worker.post_message_with_transfer(&start, &transfer).is_err() {
        worker.terminate();
        return None;
    }
    Some(worker)
}

/// Ends `worker`: it is heard no more (a message it posted before it went would reach a listener
/// that is gone), then stopped.
pub(crate) fn end(worker: &Worker) {
    worker.set_onmessage(None);
    worker.set_onerror(None);
    worker.terminate();
}

/// Bytes read per slice of a large file (one read each for smaller ones).
const READ_STEP: f64 = 16.0 * 1024.0 * 1024.0;

/// Runs in a worker: answers each job posted to it (several may be read at once; each is
/// parsed in one go, which a worker may take as long as it needs for).
#[wasm_bindgen(js_name = startListWorker, skip_typescript)]
pub fn start_list_worker() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let answer = Closure::<dyn Fn(MessageEvent)>::new(|event: MessageEvent| {
        wasm_bindgen_futures::spawn_local(async move {
            let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
            let message = answer(event.data()).await;
            let grams = Reflect::get(&message, &"grams".into()).ok().filter(|g| !g.is_undefined());
            let transfer = Array::new();
            if let Some(grams) = grams {
                transfer.push(&grams.unchecked_into::<Uint8Array>().buffer());
            }
            let _ = scope.post_message_with_transfer(&message, &transfer);
        });
    });
    scope.set_onmessage(Some(answer.as_ref().unchecked_ref()));
    // The worker lives as long as its handler: there is no other owner to give it to.
    answer.forget();
    let _ = scope.post_message(&"ready".into());
}

/// The answer to a message `{ job, files }` (see [`reply_message`]).
pub(crate) async fn answer(message: JsValue) -> JsValue {
    // The job's number, read apart from the rest: an answer the page can match to its job even
    // when the job could not be read.
    let raw_id = Reflect::get(&message, &"job".into())
        .and_then(|j| Reflect::get(&j, &"id".into()))
        .ok()
        .and_then(|i| i.as_f64())
        .unwrap_or(0.0);
    let job = Reflect::get(&message, &"job".into()).map_err(|e| describe(&e));
    let job = job.and_then(|j| serde_wasm_bindgen::from_value::<Job>(j).map_err(|e| e.to_string()));
    let files: Array = Reflect::get(&message, &"files".into()).map(|f| Array::from(&f)).unwrap_or_default();
    let (id, done, grams) = match job {
        Ok(job) => {
            let (done, grams) = work(&job, &files).await;
            (job.id, done, grams)
        }
        Err(reason) => (raw_id as u32, Done::Failed(reason), None),
    };
    let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>().buffer();
    let memory = memory.unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64;
    reply_message(Reply { id, done, memory }, grams)
}

/// An answer as the page reads it: `{ id, reply, grams? }`, the job's number apart from the
/// reply so that it is there even if the reply does not serialize.
pub(crate) fn reply_message(reply: Reply, grams: Option<Vec<u8>>) -> JsValue {
    let out = Object::new();
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let _ = Reflect::set(&out, &"id".into(), &reply.id.into());
    let _ = Reflect::set(&out, &"reply".into(), &reply.serialize(&serializer).unwrap_or(JsValue::NULL));
    if let Some(grams) = grams {
        let _ = Reflect::set(&out, &"grams".into(), &Uint8Array::from(&grams[..]));
    }
    out.into()
}

/// Reads the job's files (all at once; a large one a slice at a time), then does its work.
/// Returns the grams, as bytes, for a count.
pub(crate) async fn work(job: &Job, files: &Array) -> (Done, Option<Vec<u8>>) {
    let files: Vec<File> = files.iter().map(JsCast::unchecked_into).collect();
    if files.len() != job.names.len() {
        return (Done::Failed("the files were not all handed over".into()), None);
    }
    let size = job.sizes.iter().sum::<f64>() as usize;
    let mut reader = SessionReader::new(size, matches!(job.work, Work::Count));
    // Every file read in one piece is asked for at once: the browser reads them in parallel.
    let whole: Vec<Option<Promise>> = files
        .iter()
        .zip(&job.sizes)
        .map(|(f, &size)| (size <= READ_STEP).then(|| read_promise(f, 0.0, size, size)))
        .collect();
    for (((file, name), &size), whole) in files.iter().zip(&job.names).zip(&job.sizes).zip(whole) {
        if let Err(reason) = read_into(&mut reader, file, name, size, whole).await {
            return (Done::Failed(reason), None);
        }
    }
    match &job.work {
        Work::Count => {
            let scanned = reader.finish();
            let grams = scanned.grams.as_ref().map(|g| g.to_bytes());
            match scanned.count() {
                Ok(summary) => (Done::Counted(summary), grams),
                Err(why) => (Done::LeftOut(why), None),
            }
        }
        Work::Search { query, limit } => {
            let matcher = match query.matcher() {
                Ok(Some(m)) => m,
                Ok(None) => return (Done::Searched(Vec::new()), None),
                Err(e) => return (Done::Failed(e), None),
            };
            if !reader.may_hold(&matcher) {
                return (Done::Searched(Vec::new()), None);
            }
            (Done::Searched(reader.finish().search(&matcher, *limit)), None)
        }
    }
}

/// Feeds `file` to `reader`: from the read of the whole of it when one was started, else a
/// slice at a time.
async fn read_into(
    reader: &mut SessionReader,
    file: &File,
    name: &str,
    size: f64,
    whole: Option<Promise>,
) -> Result<(), String> {
    reader.next_file(name, size as usize)?;
    let mut from = 0.0;
    let mut whole = whole;
    while from < size || whole.is_some() {
        let to = (from + READ_STEP).min(size);
        let read = whole.take().unwrap_or_else(|| read_promise(file, from, to, size));
        let buffer = JsFuture::from(read).await.map_err(|e| describe(&e))?;
        let array = Uint8Array::new(&buffer);
        reader.feed_in_place(array.length() as usize, |spare| array.copy_to_uninit(spare));
        from += f64::from(array.length());
        if array.length() == 0 {
            break;
        }
    }
    Ok(())
}
