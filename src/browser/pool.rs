//! The page's workers for the list: sessions of a folder are read, counted and searched in
//! workers ([`super::worker`]), so the page only lists and draws. Jobs are queued and handed to
//! whichever worker has room; a search's jobs go before a count's.
//!
//! A worker runs the page's own wasm: it is sent the address of the page's wasm-bindgen JS and
//! the module the page compiled, so it fetches and compiles nothing. Where a worker cannot start
//! (no module workers, a page opened from `file://`, a host that does not serve `worker.js`), the
//! page does the jobs itself, one at a time.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, MessageEvent, Worker};

use super::worker::{answer, reply_message, start_worker, Done, Job, Reply, Work};
use crate::query::grams::Grams;

/// What a worker is given at once: sessions up to this many bytes in all (or one larger), so
/// that while it parses one, the next are being read, many files in parallel (which is how a
/// browser reads a folder of small files fastest).
const BYTES_PER_WORKER: f64 = 64.0 * 1024.0 * 1024.0;
/// And at most this many sessions.
const JOBS_PER_WORKER: usize = 32;
/// A worker whose memory grew past this (it read a large session) is replaced once idle.
const RECYCLE_BYTES: f64 = 512.0 * 1024.0 * 1024.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Count,
    Search,
}

/// A worker's answer: what it did, and for a count the session's grams.
pub(crate) struct Answer {
    pub(crate) done: Done,
    pub(crate) grams: Option<Grams>,
}

/// A job stopped before it was done ([`Pool::stop`]).
#[derive(Debug)]
pub(crate) struct Stopped;

/// The workers, shared by the list's jobs.
#[derive(Clone)]
pub(crate) struct Pool(Rc<RefCell<Inner>>);

struct Inner {
    slots: Vec<Slot>,
    queue: VecDeque<Pending>,
    next_id: u32,
    /// No worker could start: the page does the jobs, one at a time.
    on_page: bool,
    /// A worker has started here once (so a later one that does not is no reason to give up on
    /// workers).
    ever_ready: bool,
    /// The jobs the page does, and whether it is doing one.
    page_queue: VecDeque<Pending>,
    page_busy: bool,
    /// Numbers the workers, so a message from a worker replaced since is told apart.
    next_serial: u32,
}

struct Slot {
    serial: u32,
    worker: Worker,
    ready: bool,
    running: Vec<Pending>,
    recycle: bool,
    _listeners: [Closure<dyn Fn(JsValue)>; 2],
}

struct Pending {
    id: u32,
    kind: Kind,
    /// The size of the session's files.
    bytes: f64,
    /// Asked again once already, after its worker crashed.
    retried: bool,
    message: JsValue,
    /// Called with the answer, or with `undefined` when the job is stopped (a rejection nobody
    /// awaits any more would be reported as an error).
    resolve: Function,
}

impl Pool {
    pub(crate) fn new() -> Pool {
        let pool = Pool(Rc::new(RefCell::new(Inner {
            slots: Vec::new(),
            queue: VecDeque::new(),
            next_id: 0,
            on_page: false,
            ever_ready: false,
            page_queue: VecDeque::new(),
            page_busy: false,
            next_serial: 0,
        })));
        pool.fill();
        pool
    }

    /// How many jobs are worth having asked at once.
    pub(crate) fn depth(&self) -> usize {
        let inner = self.0.borrow();
        if inner.on_page {
            1
        } else {
            inner.slots.len().max(1) * JOBS_PER_WORKER
        }
    }

    /// Asks for `work` on a session's `files` (name, file). The job is queued now; the future
    /// says how it went.
    pub(crate) fn run(
        &self,
        kind: Kind,
        work: Work,
        files: &[(String, f64, File)],
    ) -> Pin<Box<dyn Future<Output = Result<Answer, Stopped>>>> {
        let id = {
            let mut inner = self.0.borrow_mut();
            inner.next_id = inner.next_id.wrapping_add(1);
            inner.next_id
        };
        let job = Job {
            id,
            names: files.iter().map(|(n, _, _)| n.clone()).collect(),
            sizes: files.iter().map(|(_, s, _)| *s).collect(),
            work,
        };
        let message = job_message(&job, files);
        let mut queued = None;
        let promise = Promise::new(&mut |resolve, _| {
            let bytes = job.sizes.iter().sum();
            queued = Some(Pending { id, kind, bytes, retried: false, message: message.clone(), resolve });
        });
        if let Some(pending) = queued {
            let mut inner = self.0.borrow_mut();
            if inner.on_page {
                drop(inner);
                self.on_page(pending);
            } else {
                inner.queue.push_back(pending);
                drop(inner);
                self.dispatch();
            }
        }
        Box::pin(async move {
            let message = JsFuture::from(promise).await.map_err(|_| Stopped)?;
            answer_of(id, &message)
        })
    }

    /// Stops every job of `kind`: those queued are dropped, and a worker doing one is replaced
    /// (a worker cannot be interrupted in the middle of parsing).
    pub(crate) fn stop(&self, kind: Kind) {
        let mut inner = self.0.borrow_mut();
        let (stopped, kept): (Vec<_>, Vec<_>) = inner.queue.drain(..).partition(|p| p.kind == kind);
        inner.queue = kept.into();
        let (on_page, kept): (Vec<_>, Vec<_>) = inner.page_queue.drain(..).partition(|p| p.kind == kind);
        inner.page_queue = kept.into();
        let stopped: Vec<Pending> = stopped.into_iter().chain(on_page).collect();
        let busy: Vec<u32> = inner
            .slots
            .iter()
            .filter(|s| s.running.iter().any(|p| p.kind == kind))
            .map(|s| s.serial)
            .collect();
        let mut stopped = stopped;
        for serial in busy {
            if let Some(at) = inner.slots.iter().position(|s| s.serial == serial) {
                let slot = inner.slots.swap_remove(at);
                slot.worker.terminate();
                stopped.extend(slot.running);
            }
        }
        drop(inner);
        for pending in stopped {
            // A job of another kind on a replaced worker is asked again, not stopped.
            if pending.kind == kind {
                let _ = pending.resolve.call0(&JsValue::NULL);
            } else {
                self.0.borrow_mut().queue.push_front(pending);
            }
        }
        self.fill();
        self.dispatch();
    }

    /// Starts workers up to the number wanted; where none can start, the page does the jobs.
    fn fill(&self) {
        while !self.0.borrow().on_page && self.0.borrow().slots.len() < workers_wanted() {
            if !self.spawn() {
                let waiting: Vec<Pending> = {
                    let mut inner = self.0.borrow_mut();
                    if !inner.slots.is_empty() {
                        break;
                    }
                    inner.on_page = true;
                    inner.queue.drain(..).collect()
                };
                for job in waiting {
                    self.on_page(job);
                }
                break;
            }
        }
    }

    /// Starts a worker; `false` when this page cannot have one.
    fn spawn(&self) -> bool {
        let Some(worker) = start_worker("list") else { return false };
        let serial = {
            let mut inner = self.0.borrow_mut();
            inner.next_serial += 1;
            inner.next_serial
        };
        let weak = Rc::downgrade(&self.0);
        let on_message = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            let event: MessageEvent = event.unchecked_into();
            heard(&weak, serial, event.data());
        });
        let weak = Rc::downgrade(&self.0);
        let on_error = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            let reason = Reflect::get(&event, &"message".into()).ok().and_then(|m| m.as_string());
            failed(&weak, serial, reason.unwrap_or_else(|| "the worker stopped".into()));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        self.0.borrow_mut().slots.push(Slot {
            serial,
            worker,
            ready: false,
            running: Vec::new(),
            recycle: false,
            _listeners: [on_message, on_error],
        });
        true
    }

    /// Hands queued jobs to the workers with room, a search's first.
    fn dispatch(&self) {
        let mut inner = self.0.borrow_mut();
        let inner = &mut *inner;
        for slot in inner.slots.iter_mut().filter(|s| s.ready) {
            while slot.running.len() < JOBS_PER_WORKER && !slot.recycle {
                let next = inner
                    .queue
                    .iter()
                    .position(|p| p.kind == Kind::Search)
                    .or((!inner.queue.is_empty()).then_some(0));
                let Some(at) = next else { return };
                let running: f64 = slot.running.iter().map(|p| p.bytes).sum();
                if !slot.running.is_empty() && running + inner.queue[at].bytes > BYTES_PER_WORKER {
                    break;
                }
                let Some(pending) = inner.queue.remove(at) else { return };
                if slot.worker.post_message(&pending.message).is_err() {
                    let _ = pending
                        .resolve
                        .call1(&JsValue::NULL, &failure(pending.id, "could not be handed to a worker"));
                    continue;
                }
                slot.running.push(pending);
            }
        }
    }
}

/// The message that hands `job` to a worker: `{ job, files }`, the `File`s beside the job.
fn job_message(job: &Job, files: &[(String, f64, File)]) -> JsValue {
    let message = Object::new();
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let _ = Reflect::set(
        &message,
        &"job".into(),
        &serde::Serialize::serialize(job, &serializer).unwrap_or(JsValue::NULL),
    );
    let _ = Reflect::set(
        &message,
        &"files".into(),
        &files.iter().map(|(_, _, f)| JsValue::from(f)).collect::<Array>(),
    );
    message.into()
}

/// What a worker's message says of job `id` (`undefined` when the job was stopped).
fn answer_of(id: u32, message: &JsValue) -> Result<Answer, Stopped> {
    if message.is_undefined() {
        return Err(Stopped);
    }
    let reply = Reflect::get(message, &"reply".into()).map_err(|_| Stopped)?;
    let reply: Reply = serde_wasm_bindgen::from_value(reply).unwrap_or(Reply {
        id,
        done: Done::Failed("the worker's answer was not understood".into()),
        memory: 0.0,
    });
    let grams = Reflect::get(message, &"grams".into())
        .ok()
        .and_then(|g| g.dyn_into::<Uint8Array>().ok())
        .and_then(|g| Grams::from_bytes(&g.to_vec()));
    Ok(Answer { done: reply.done, grams })
}

/// A worker per core, at least one, at most four: the page itself only lists and draws while
/// they work (with two cores, two workers searched 2 GB in 4.8 s where one took 5.6 s).
fn workers_wanted() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, 4)
}

impl Pool {
    /// Queues a job the page does itself, one at a time (each holds a whole session).
    fn on_page(&self, pending: Pending) {
        self.0.borrow_mut().page_queue.push_back(pending);
        self.next_on_page();
    }

    fn next_on_page(&self) {
        let next = {
            let mut inner = self.0.borrow_mut();
            if inner.page_busy {
                return;
            }
            let Some(next) = inner.page_queue.pop_front() else { return };
            inner.page_busy = true;
            next
        };
        let pool = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let message = answer(next.message).await;
            let _ = next.resolve.call1(&JsValue::NULL, &message);
            pool.0.borrow_mut().page_busy = false;
            pool.next_on_page();
        });
    }
}

/// The message a worker would send for a job it could not do.
fn failure(id: u32, reason: &str) -> JsValue {
    reply_message(Reply { id, done: Done::Failed(reason.into()), memory: 0.0 }, None)
}

/// A worker's message: it is ready, or a job is done.
fn heard(pool: &Weak<RefCell<Inner>>, serial: u32, data: JsValue) {
    let Some(rc) = pool.upgrade() else { return };
    let pool = Pool(rc);
    {
        let mut inner = pool.0.borrow_mut();
        let Some(slot) = inner.slots.iter_mut().find(|s| s.serial == serial) else { return };
        if data.as_string().as_deref() == Some("ready") {
            slot.ready = true;
            inner.ever_ready = true;
        } else if let Some(reason) = Reflect::get(&data, &"failed".into()).ok().and_then(|f| f.as_string()) {
            // It could not start (www/worker.js says why).
            drop(inner);
            failed(&Rc::downgrade(&pool.0), serial, reason);
            return;
        } else {
            let reply = Reflect::get(&data, &"reply".into()).ok();
            // The number the worker read from the job itself (see worker::answer).
            let id = Reflect::get(&data, &"id".into()).ok().and_then(|i| i.as_f64());
            let memory =
                reply.as_ref().and_then(|r| Reflect::get(r, &"memory".into()).ok()).and_then(|m| m.as_f64());
            slot.recycle |= memory.unwrap_or(0.0) > RECYCLE_BYTES;
            if let Some(at) = slot.running.iter().position(|p| Some(f64::from(p.id)) == id) {
                let pending = slot.running.remove(at);
                let _ = pending.resolve.call1(&JsValue::NULL, &data);
            }
            if slot.recycle && slot.running.is_empty() {
                slot.worker.terminate();
                inner.slots.retain(|s| s.serial != serial);
                drop(inner);
                pool.spawn();
            }
        }
    }
    pool.dispatch();
}

/// A worker failed. One that never started, where none has, means none can here: the page does
/// every job itself. One that stopped in its jobs (a crash) is replaced, and its jobs are asked
/// again once (one of them may be what crashed it; a job that crashes a second worker fails).
fn failed(pool: &Weak<RefCell<Inner>>, serial: u32, reason: String) {
    let Some(rc) = pool.upgrade() else { return };
    let pool = Pool(rc);
    let mut inner = pool.0.borrow_mut();
    let Some(at) = inner.slots.iter().position(|s| s.serial == serial) else { return };
    let slot = inner.slots.swap_remove(at);
    slot.worker.terminate();
    if !slot.ready {
        if inner.ever_ready && !inner.slots.is_empty() {
            // The others work: one fewer.
            return;
        }
        inner.on_page = true;
        let mut jobs: Vec<Pending> = inner
            .slots
            .drain(..)
            .flat_map(|s| {
                s.worker.terminate();
                s.running
            })
            .collect();
        jobs.extend(inner.queue.drain(..));
        drop(inner);
        web_sys::console::warn_1(
            &format!("cctv: no worker ({reason}); the page reads the sessions itself").into(),
        );
        for job in jobs {
            pool.on_page(job);
        }
        return;
    }
    let (again, give_up): (Vec<Pending>, Vec<Pending>) = slot.running.into_iter().partition(|j| !j.retried);
    for mut job in again.into_iter().rev() {
        job.retried = true;
        inner.queue.push_front(job);
    }
    drop(inner);
    for job in give_up {
        let _ = job.resolve.call1(&JsValue::NULL, &failure(job.id, &format!("reading it stopped: {reason}")));
    }
    pool.spawn();
    pool.dispatch();
}
