//! The page's engine: a worker of its own (one per viewer) that holds the files the page shows
//! and works out what takes long ([`crate::engine::session`]: the Share tab's findings, the
//! Overview's figures, a turn's changes, the exports, a turn copied as Markdown), so the page
//! only draws. The worker reads
//! the files of the workspace the page shows itself where the page read them from `File`s
//! ([`Engine::read_from`]), else the page hands it their bytes, a [`PIECE`] per task; once per
//! workspace, on the first ask. Then the page asks; the
//! answer comes back as JSON, which the page reads in a few ms, with an export's text as bytes
//! beside it and the Overview's long lists as parts read a few per task. Once no panel that asks
//! it is on screen and it answered, it is stopped after [`IDLE_MS`]: a worker's memory never
//! shrinks, and it held as much again as the page (the files and their index) for the tab's
//! life. The next ask starts another, which reads the files again.
//!
//! The worker runs the page's own wasm, as the list's do ([`super::pool`]): `www/worker.js` is
//! sent the module the page compiled and told to run [`super::engine_worker`]. Where no worker
//! can start (no module workers, a page opened from `file://`, an app that bundled the package
//! without `worker.js`), the page works the answer out itself, in one task.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, MessageEvent, Worker};

use super::timers::{next_frame, promise, PageTurns};
use super::worker::{end, start_worker};
use crate::engine::session::{answer_with, findings_paced, fingerprint, Answer, Ask, Progress, STOPPED};
use crate::export::to_html::ViewerFiles;
use crate::normalize::pace::{Pace, Pause};
use crate::normalize::{Generation, Workspace};

/// How long the page looks for secrets itself before it pauses: some of its steps take 10-15 ms
/// in wasm, and twice that on a busy machine (at 25, one run in four of engine.test.mjs went
/// over 50 ms on a slow day; at the usual 40, one in eight on a good one).
const FINDINGS_BUDGET_MS: f64 = 15.0;

/// How long the page reads the parts of an answer (its long lists) before it pauses: a part of
/// 256 kB takes 5-10 ms to read in wasm, more on a busy machine, and the one read after the
/// budget ran out made tasks of 46-49 ms at the usual 40 (the Overview's figures at 200 MB).
const PARTS_BUDGET_MS: f64 = 20.0;

/// Bytes copied to the worker per task: a few ms.
const PIECE: usize = 8 * 1024 * 1024;
/// A worker whose memory grew past this many times the next files' size (and a little) is
/// replaced before they are sent: its memory never shrinks.
const ROOM: f64 = 3.0;
/// How long the worker is kept once nothing that asks it is on screen (Share, the Overview) and
/// it answered its last ask: then it stops, and its memory (the files and their index, about
/// as much again as the page's) goes back to the system. A later ask starts it again.
const IDLE_MS: f64 = 15_000.0;

/// The page's engine: cheap to clone, one worker behind all clones.
#[derive(Clone, Default)]
pub(crate) struct Engine(Rc<RefCell<Inner>>);

#[derive(Default)]
struct Inner {
    worker: Slot,
    /// The files the worker holds, by the workspace they are of; the number they were sent
    /// under; and the promise that resolves once every piece of them is posted.
    holds: Option<(Generation, u32, Promise)>,
    sent: u32,
    next_id: u32,
    /// The asks posted, by id: each resolved with the worker's message (`undefined` if it
    /// stopped).
    waiting: HashMap<u32, Function>,
    /// The worker's memory, as it last said.
    memory: f64,
    /// The `File`s the page read a workspace's given files from, in their order: the worker
    /// reads them itself.
    sources: Option<(Generation, Vec<File>)>,
    /// The files the worker is reading itself, by number, and what is resolved with its word
    /// that it did (`{ opened, fingerprints }` or `{ opened, unread }`), or `undefined` if it
    /// stopped or other files were sent.
    opening: Option<(u32, Function)>,
    /// Whether a panel that asks the worker is on screen.
    in_use: bool,
    /// Counts the asks begun and the changes of what is on screen: a stop made ready before one
    /// of them is not made.
    woken: u32,
    /// Asks begun and not yet answered, however far along (sending the files, waiting, reading
    /// the answer's parts): the worker is not stopped under them.
    asking: u32,
    /// Told how far the worker got as it reads files and looks for findings.
    watching: Option<Rc<dyn Fn(Progress)>>,
    /// How many times the reader stopped the engine: an ask begun before a stop answers that
    /// it was stopped.
    stops: u32,
}

/// A viewer that goes (an embed destroyed) stops its worker, and the copy of the files it holds.
impl Drop for Inner {
    fn drop(&mut self) {
        if let Slot::Starting(worker, ..) | Slot::Ready(worker, _) = &self.worker {
            end(worker);
        }
    }
}

#[derive(Default)]
enum Slot {
    #[default]
    None,
    /// Started; the promise resolves with `true` once it runs, `false` if it cannot (the
    /// function resolves it).
    Starting(Worker, Promise, Listeners, Function),
    /// Runs; the listeners live as long as it does.
    Ready(Worker, #[allow(dead_code)] Listeners),
    /// No worker can start here: the page works answers out itself.
    OnPage,
}

type Listeners = Rc<[Closure<dyn Fn(JsValue)>; 2]>;

impl Engine {
    /// The workspace of `generation` was read from `files`, in the order of its given files: the
    /// worker can read them itself (off the page, with no copy on the page's side) instead of
    /// being handed their bytes.
    pub(crate) fn read_from(&self, generation: Generation, files: Vec<File>) {
        self.0.borrow_mut().sources = Some((generation, files));
    }

    /// Whether answers are, or may yet be, worked out in a worker: not once none could start
    /// (the page then works them out itself).
    pub(crate) fn may_work_off_page(&self) -> bool {
        !matches!(self.0.borrow().worker, Slot::OnPage)
    }

    /// Tells `watch` how far the engine got while it reads the files and looks for findings,
    /// until [`unwatch`](Engine::unwatch)ed.
    pub(crate) fn watch(&self, watch: Rc<dyn Fn(Progress)>) {
        self.0.borrow_mut().watching = Some(watch);
    }

    /// Stops telling `watch`, unless another watches since.
    pub(crate) fn unwatch(&self, watch: &Rc<dyn Fn(Progress)>) {
        let mut inner = self.0.borrow_mut();
        if inner.watching.as_ref().is_some_and(|w| Rc::ptr_eq(w, watch)) {
            inner.watching = None;
        }
    }

    /// Stops the look for findings, at the reader's word: it answers [`STOPPED`]. The worker
    /// goes (a scan reads no message until it ends, so there is no other way to stop it), and
    /// its scan workers with it; any other ask under way (the Overview's figures beside the Share
    /// tab) is asked again of a new worker. Where the page looks for findings itself, it stops at
    /// its next pause.
    pub(crate) fn stop(&self) {
        let starting = {
            let mut inner = self.0.borrow_mut();
            inner.stops = inner.stops.wrapping_add(1);
            match std::mem::take(&mut inner.worker) {
                Slot::Starting(worker, _, _, started) => {
                    end(&worker);
                    Some(started)
                }
                other => {
                    inner.worker = other;
                    None
                }
            }
        };
        match starting {
            // The ask waiting for it to start hears that it stopped (not that none can start).
            Some(started) => {
                let _ = started.call1(&JsValue::NULL, &false.into());
            }
            None => stopped(&self.0),
        }
    }

    /// Whether a panel that asks the worker is on screen: once none is, and the worker answered
    /// its last ask, it is stopped after [`IDLE_MS`].
    pub(crate) fn in_use(&self, in_use: bool) {
        let mut inner = self.0.borrow_mut();
        inner.in_use = in_use;
        inner.woken = inner.woken.wrapping_add(1);
        drop(inner);
        self.stop_when_idle();
    }

    /// Stops the worker after [`IDLE_MS`] unless it is asked again or a panel that asks it opens
    /// meanwhile.
    fn stop_when_idle(&self) {
        let inner = self.0.borrow();
        if inner.in_use || !matches!(inner.worker, Slot::Ready(..)) {
            return;
        }
        let (weak, woken) = (Rc::downgrade(&self.0), inner.woken);
        let stop = Closure::once_into_js(move || {
            let Some(inner) = weak.upgrade() else { return };
            let idle = {
                let i = inner.borrow();
                let ready = matches!(i.worker, Slot::Ready(..));
                ready
                    && i.woken == woken
                    && !i.in_use
                    && i.asking == 0
                    && i.waiting.is_empty()
                    && i.opening.is_none()
            };
            if idle {
                stopped(&inner);
            }
        });
        super::timers::later(stop.unchecked_ref(), IDLE_MS);
    }

    /// The answer to `ask` about the files of `ws`; an error says why there is none.
    pub(crate) async fn ask(&self, ws: &Arc<Workspace>, ask: Ask) -> Result<Answer, String> {
        self.ask_for(ws, ask, None).await.map(|(answer, _)| answer)
    }

    /// An export (`ask` is an [`Ask::Markdown`] or an [`Ask::Html`], which needs the viewer's own
    /// files) as UTF-8 bytes in a JavaScript array, which a download takes as it is.
    pub(crate) async fn export(
        &self,
        ws: &Arc<Workspace>,
        ask: Ask,
        viewer: Option<&ViewerFiles>,
    ) -> Result<Uint8Array, String> {
        match self.ask_for(ws, ask, viewer).await? {
            (_, Some(text)) => Ok(text),
            (Answer::Text(text), None) => Ok(Uint8Array::from(text.as_bytes())),
            _ => Err("the engine answered another question".into()),
        }
    }

    /// The answer, and the text the worker sent beside it.
    async fn ask_for(
        &self,
        ws: &Arc<Workspace>,
        ask: Ask,
        viewer: Option<&ViewerFiles>,
    ) -> Result<(Answer, Option<Uint8Array>), String> {
        {
            let mut inner = self.0.borrow_mut();
            inner.woken = inner.woken.wrapping_add(1);
            inner.asking += 1;
        }
        let answer = loop {
            let stops = self.0.borrow().stops;
            let answer = self.answer(ws, ask.clone(), viewer, stops).await;
            // The worker went at the reader's word, not for want of memory.
            let stopped = self.0.borrow().stops != stops && answer.is_err();
            match &ask {
                _ if !stopped => break answer,
                // What the reader stopped: the look for findings.
                Ask::Findings { .. } => break Err(STOPPED.into()),
                // Stopped with it (the Overview's figures, an export under way beside the
                // Share tab): asked again, of a new worker.
                _ => continue,
            }
        };
        self.0.borrow_mut().asking -= 1;
        // Answered: the worker may go once no other ask or panel comes.
        self.stop_when_idle();
        answer
    }

    /// What [`ask_for`](Engine::ask_for) answers (which then readies the worker's stop, however
    /// this ended), asked when the reader had stopped the engine `stops` times.
    async fn answer(
        &self,
        ws: &Arc<Workspace>,
        ask: Ask,
        viewer: Option<&ViewerFiles>,
        stops: u32,
    ) -> Result<(Answer, Option<Uint8Array>), String> {
        self.make_room(ws);
        let Some(worker) = self.worker().await? else {
            // The page answers itself: the findings paced, the rest in one task.
            next_frame().await;
            if let Ask::Findings { patterns } = &ask {
                let mut turns = PageTurns::with_budget(FINDINGS_BUDGET_MS);
                let inner = self.0.clone();
                let mut go_on = |progress| {
                    tell(&inner, progress);
                    inner.borrow().stops == stops
                };
                let found = findings_paced(ws, patterns, &mut Pace::with(&mut turns), &mut go_on).await;
                // Not found to be none: not looked for, as when a worker is stopped.
                if found.as_ref().is_err_and(|e| e == STOPPED) {
                    return Err(STOPPED.into());
                }
                // Drawing them is a task of its own, as when a worker answers.
                turns.pause().await;
                return Ok((Answer::Findings(found), None));
            }
            return answer_with(ws, &ask, viewer).map(|answer| (answer, None));
        };
        // Findings asked of files the worker reads itself are looked for as it reads them.
        let look = match &ask {
            Ask::Findings { patterns } => serde_json::to_string(patterns).ok(),
            _ => None,
        };
        let open = self.send(&worker, ws, look).await;
        // The worker may have stopped, or been handed newer files, while these were sent.
        if !matches!(&self.0.borrow().holds, Some((_, n, _)) if *n == open) {
            return Err("the engine stopped, or other files were opened, before it could answer".into());
        }
        let id = {
            let mut inner = self.0.borrow_mut();
            inner.next_id = inner.next_id.wrapping_add(1);
            inner.next_id
        };
        let json = serde_json::to_string(&ask).map_err(|e| e.to_string())?;
        let message = object(&[("id", id.into()), ("open", open.into()), ("ask", json.into())]);
        let transfer = Array::new();
        if let Some(viewer) = viewer {
            let sent = viewer_message(viewer, &transfer);
            let _ = Reflect::set(&message, &"viewer".into(), &sent);
        }
        let (promise, resolve) = promise();
        self.0.borrow_mut().waiting.insert(id, resolve);
        worker.post_message_with_transfer(&message, &transfer).map_err(|e| super::js_error::describe(&e))?;
        let reply = JsFuture::from(promise).await.map_err(|e| super::js_error::describe(&e))?;
        let bytes =
            |key: &str| Reflect::get(&reply, &key.into()).ok().and_then(|b| b.dyn_into::<Uint8Array>().ok());
        let answer = bytes("answer").ok_or("the engine stopped before it answered (out of memory?)")?;
        let mut answer = serde_json::from_slice::<Result<Answer, String>>(&answer.to_vec())
            .map_err(|e| e.to_string())??;
        // The long lists came apart, each read in a few ms: as many as fit are read per task.
        let parts = Reflect::get(&reply, &"parts".into()).ok().and_then(|p| p.dyn_into::<Array>().ok());
        if let Some(parts) = parts {
            let mut turns = PageTurns::with_budget(PARTS_BUDGET_MS);
            for part in parts.iter() {
                if turns.due() {
                    turns.pause().await;
                }
                answer.put_part(&part.unchecked_into::<Uint8Array>().to_vec())?;
            }
        }
        let text = bytes("text");
        Ok((answer, text))
    }

    /// The worker, started if need be; `None` where none can start; an error if the reader
    /// stopped it as it started.
    async fn worker(&self) -> Result<Option<Worker>, String> {
        let starting = match &self.0.borrow().worker {
            Slot::Ready(worker, _) => return Ok(Some(worker.clone())),
            Slot::OnPage => return Ok(None),
            Slot::Starting(_, promise, ..) => Some(promise.clone()),
            Slot::None => None,
        };
        let promise = match starting.or_else(|| self.spawn()) {
            Some(promise) => promise,
            None => return Ok(None),
        };
        // Settled once it runs (it is `Ready` then), says it cannot, fails to load, or is stopped.
        let _ = JsFuture::from(promise).await;
        let mut inner = self.0.borrow_mut();
        match std::mem::take(&mut inner.worker) {
            Slot::Ready(worker, listeners) => {
                inner.worker = Slot::Ready(worker.clone(), listeners);
                Ok(Some(worker))
            }
            Slot::Starting(worker, ..) => {
                end(&worker);
                web_sys::console::warn_1(&"cctv: no engine worker; the page works things out itself".into());
                inner.worker = Slot::OnPage;
                Ok(None)
            }
            // Stopped as it started (`stop`).
            Slot::None => Err(STOPPED.into()),
            Slot::OnPage => {
                inner.worker = Slot::OnPage;
                Ok(None)
            }
        }
    }

    /// Starts the worker; the promise says whether it runs. `None` (and the page answers from
    /// now on) when this page cannot have one.
    fn spawn(&self) -> Option<Promise> {
        let on_page = || {
            self.0.borrow_mut().worker = Slot::OnPage;
            None
        };
        let Some(worker) = start_worker("engine") else { return on_page() };
        let (promise, started) = promise();
        let weak = Rc::downgrade(&self.0);
        let on_started = started.clone();
        let on_message = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            let data = event.unchecked_into::<MessageEvent>().data();
            if data.as_string().as_deref() == Some("ready") {
                if let Some(inner) = weak.upgrade() {
                    let mut inner = inner.borrow_mut();
                    inner.worker = match std::mem::take(&mut inner.worker) {
                        Slot::Starting(worker, _, listeners, _) => Slot::Ready(worker, listeners),
                        other => other,
                    };
                }
                let _ = on_started.call1(&JsValue::NULL, &true.into());
            } else if Reflect::has(&data, &"failed".into()).unwrap_or(false) {
                let _ = on_started.call1(&JsValue::NULL, &false.into());
            } else if let Some(inner) = weak.upgrade() {
                heard(&inner, &data);
            }
        });
        let weak = Rc::downgrade(&self.0);
        let on_failed = started.clone();
        let on_error = Closure::<dyn Fn(JsValue)>::new(move |_| {
            let _ = on_failed.call1(&JsValue::NULL, &false.into());
            if let Some(inner) = weak.upgrade() {
                stopped(&inner);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let listeners = Rc::new([on_message, on_error]);
        self.0.borrow_mut().worker = Slot::Starting(worker, promise.clone(), listeners, started);
        Some(promise)
    }

    /// Hands the worker the files of `ws` unless it holds them; returns the number they were
    /// sent under once every piece is posted. `look`, the JSON of the reader's patterns, says
    /// the findings are asked next.
    async fn send(&self, worker: &Worker, ws: &Arc<Workspace>, look: Option<String>) -> u32 {
        let held = self
            .0
            .borrow()
            .holds
            .as_ref()
            .filter(|(g, ..)| *g == ws.generation)
            .map(|(_, n, p)| (*n, p.clone()));
        if let Some((open, posted)) = held {
            let _ = JsFuture::from(posted).await;
            return open;
        }
        let files: Vec<(String, usize)> = ws.given_files().map(|(n, b)| (n.to_owned(), b.len())).collect();
        let (posted, done) = promise();
        let open = {
            let mut inner = self.0.borrow_mut();
            inner.sent += 1;
            inner.holds = Some((ws.generation, inner.sent, posted.clone()));
            inner.sent
        };
        let described = serde_wasm_bindgen::to_value(&files).unwrap_or(JsValue::NULL);
        let sources =
            self.0.borrow().sources.as_ref().filter(|(g, _)| *g == ws.generation).map(|(_, f)| f.clone());
        if let Some(sources) = sources {
            let read = self.read_there(worker, open, &described, sources, ws, look).await;
            // Read, or other files were sent meanwhile (or the worker stopped): done either way,
            // and any ask waiting for these files goes on (and finds them there, or not).
            let superseded = self.0.borrow().holds.as_ref().map(|(_, n, _)| *n) != Some(open);
            match read {
                Err(why) if !superseded => {
                    // Their bytes are handed over instead, under the same number.
                    let warning = format!("cctv: the engine read the files otherwise than the page: {why}");
                    web_sys::console::warn_1(&warning.into());
                    self.0.borrow_mut().sources = None;
                }
                _ => {
                    let _ = done.call0(&JsValue::NULL);
                    return open;
                }
            }
        }
        let _ = worker.post_message(&object(&[("open", open.into()), ("files", described)]));
        for (_, bytes) in ws.given_files() {
            for chunk in bytes.chunks(PIECE) {
                // Files of a newer workspace are on their way: these are not wanted any more.
                if self.0.borrow().holds.as_ref().map(|(_, n, _)| *n) != Some(open) {
                    break;
                }
                let piece = Uint8Array::new_with_length(chunk.len() as u32);
                piece.copy_from(chunk);
                let _ = worker.post_message_with_transfer(
                    &object(&[("piece", piece.clone().into())]),
                    &Array::of1(&piece.buffer()),
                );
                // One piece per frame: posting pieces for 12 ms of each task instead made Share
                // no quicker at 200 MB and 1 GB, and ran 72-88 ms tasks at 1 GB (the garbage
                // collector, as hundreds of MB of buffers were made at once).
                next_frame().await;
            }
        }
        let _ = done.call0(&JsValue::NULL);
        let _ = JsFuture::from(posted).await;
        open
    }

    /// Has the worker read the files of `ws`, number `open`, from `sources` itself (and look for
    /// the findings with the patterns `look` meanwhile), and checks it read what the page holds
    /// (each file's [`fingerprint`]); an error says why not.
    async fn read_there(
        &self,
        worker: &Worker,
        open: u32,
        described: &JsValue,
        sources: Vec<File>,
        ws: &Workspace,
        look: Option<String>,
    ) -> Result<(), String> {
        let (promise, resolve) = promise();
        let before = self.0.borrow_mut().opening.replace((open, resolve));
        if let Some((_, before)) = before {
            let _ = before.call1(&JsValue::NULL, &JsValue::UNDEFINED);
        }
        let blobs: Array = sources.iter().collect();
        let message = object(&[
            ("open", open.into()),
            ("files", described.clone()),
            ("blobs", blobs.into()),
            ("look", look.map_or(JsValue::UNDEFINED, JsValue::from)),
        ]);
        worker.post_message(&message).map_err(|e| super::js_error::describe(&e))?;
        let said = JsFuture::from(promise).await.map_err(|e| super::js_error::describe(&e))?;
        if said.is_undefined() {
            return Err("it stopped".into());
        }
        if let Some(unread) = Reflect::get(&said, &"unread".into()).ok().and_then(|f| f.as_string()) {
            return Err(unread);
        }
        let theirs: Vec<String> = Reflect::get(&said, &"fingerprints".into())
            .ok()
            .and_then(|f| serde_wasm_bindgen::from_value(f).ok())
            .unwrap_or_default();
        // As text: a u64 does not cross to JavaScript as a number whole.
        let ours: Vec<String> = ws.given_files().map(|(_, bytes)| fingerprint(bytes).to_string()).collect();
        if theirs != ours {
            return Err("a file changed since the page read it".into());
        }
        Ok(())
    }

    /// Stops the worker before the files of `ws` are sent to it when it grew much larger than
    /// they need (a worker's memory never shrinks): the next ask starts a new one.
    fn make_room(&self, ws: &Workspace) {
        let inner = self.0.borrow();
        let holds_them = inner.holds.as_ref().is_some_and(|(g, ..)| *g == ws.generation);
        let size: usize = ws.given_files().map(|(_, b)| b.len()).sum();
        let large = inner.memory > ROOM * size as f64 + 64e6;
        drop(inner);
        if large && !holds_them {
            stopped(&self.0);
        }
    }
}

/// A message from the worker: an answer, or how far it got.
fn heard(inner: &Rc<RefCell<Inner>>, data: &JsValue) {
    if let Some(json) = Reflect::get(data, &"progress".into()).ok().and_then(|p| p.as_string()) {
        if let Ok(progress) = serde_json::from_str(&json) {
            tell(inner, progress);
        }
        return;
    }
    let id = Reflect::get(data, &"id".into()).ok().and_then(|i| i.as_f64()).map(|i| i as u32);
    let memory = Reflect::get(data, &"memory".into()).ok().and_then(|m| m.as_f64());
    let opened = Reflect::get(data, &"opened".into()).ok().and_then(|o| o.as_f64()).map(|o| o as u32);
    let resolve = {
        let mut inner = inner.borrow_mut();
        inner.memory = memory.unwrap_or(inner.memory);
        if let Some(opened) = opened {
            inner.opening.take_if(|(open, _)| *open == opened).map(|(_, resolve)| resolve)
        } else {
            id.and_then(|id| inner.waiting.remove(&id))
        }
    };
    if let Some(resolve) = resolve {
        let _ = resolve.call1(&JsValue::NULL, data);
    }
}

/// Tells whoever watches how far the engine got (not while `inner` is borrowed: the watcher sets
/// what the page shows).
fn tell(inner: &Rc<RefCell<Inner>>, progress: Progress) {
    let watching = inner.borrow().watching.clone();
    if let Some(watch) = watching {
        watch(progress);
    }
}

/// The worker stopped (it crashed, ran out of memory, or was stopped to make room): every ask
/// waiting is told, and the next ask starts a new one and sends it the files again. One that
/// stopped before it ran (its script was not there, a page from `file://`) means none can run
/// here: the page answers from now on.
fn stopped(inner: &Rc<RefCell<Inner>>) {
    let waiting: Vec<Function> = {
        let mut inner = inner.borrow_mut();
        inner.worker = match std::mem::take(&mut inner.worker) {
            Slot::Starting(worker, ..) => {
                end(&worker);
                Slot::OnPage
            }
            Slot::Ready(worker, _) => {
                end(&worker);
                Slot::None
            }
            other => other,
        };
        inner.holds = None;
        inner.memory = 0.0;
        let opening = inner.opening.take().map(|(_, resolve)| resolve);
        inner.waiting.drain().map(|(_, r)| r).chain(opening).collect()
    };
    for resolve in waiting {
        let _ = resolve.call1(&JsValue::NULL, &JsValue::UNDEFINED);
    }
}

/// The viewer's own files as the worker reads them (`engine_worker::viewer_files`); their
/// bytes' buffers are added to `transfer`.
fn viewer_message(viewer: &ViewerFiles, transfer: &Array) -> JsValue {
    let bytes = |b: &[u8]| {
        let array = Uint8Array::from(b);
        transfer.push(&array.buffer());
        JsValue::from(array)
    };
    let snippets = serde_wasm_bindgen::to_value(&viewer.snippets).unwrap_or(JsValue::NULL);
    let grammars = viewer.grammars.as_deref().map_or(JsValue::NULL, bytes);
    object(&[
        ("script", viewer.script.as_str().into()),
        ("wasm", bytes(&viewer.wasm)),
        ("grammars", grammars),
        ("snippets", snippets),
    ])
}

/// A plain object of these properties.
fn object(properties: &[(&str, JsValue)]) -> JsValue {
    let out = Object::new();
    for (key, value) in properties {
        let _ = Reflect::set(&out, &(*key).into(), value);
    }
    out.into()
}
