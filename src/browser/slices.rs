//! A load's reader: a worker of the page (`www/worker.js`, role `"read"`) that reads slices of
//! the `File`s a load is given with `FileReaderSync` and hands their bytes back, transferred.
//!
//! Why: read on the page (`Blob.arrayBuffer()`), a slice's bytes come in through the page's own
//! thread a piece at a time, so a read makes no progress while a parse step runs. A load of
//! 200 MB waited 412 ms for its slices, most of the 500 ms the same reads take alone. In the
//! worker, the next slice is read while the page parses this one.
//!
//! One per load, ended with it (a worker left running would hold its thread and memory for the
//! tab's life). Where none starts (a page from `file://`, an app that bundled the package
//! without `worker.js`), or once it fails, the page reads the slices itself.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, MessageEvent, Worker};

use super::read::read_promise;
use super::timers::promise;
use super::worker::{end, start_worker};

/// Reads slices of files, in its worker while that runs.
pub(crate) struct Slices(Option<Rc<Running>>);

struct Running {
    worker: Worker,
    /// The reads asked and not yet answered, by number: what resolves each, and what it asked
    /// (read again on the page if the worker fails).
    waiting: RefCell<HashMap<u32, Asked>>,
    next: Cell<u32>,
    /// Whether it failed: every read is made on the page from then on.
    failed: Cell<bool>,
    listeners: RefCell<Option<Listeners>>,
}

type Listeners = [Closure<dyn Fn(JsValue)>; 2];

struct Asked {
    resolve: Function,
    file: File,
    from: f64,
    to: f64,
    size: f64,
}

impl Slices {
    /// Starts the worker; the page reads for itself where none can start.
    pub(crate) fn start() -> Slices {
        let Some(worker) = start_worker("read") else { return Slices(None) };
        let running = Rc::new(Running {
            worker,
            waiting: RefCell::new(HashMap::new()),
            next: Cell::new(0),
            failed: Cell::new(false),
            listeners: RefCell::new(None),
        });
        let weak = Rc::downgrade(&running);
        let on_message = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
            let data = event.unchecked_into::<MessageEvent>().data();
            let Some(running) = weak.upgrade() else { return };
            if Reflect::has(&data, &"id".into()).unwrap_or(false) {
                let id =
                    Reflect::get(&data, &"id".into()).ok().and_then(|i| i.as_f64()).unwrap_or(-1.0) as u32;
                let asked = running.waiting.borrow_mut().remove(&id);
                if let Some(asked) = asked {
                    let read = match Reflect::get(&data, &"buffer".into()) {
                        Ok(buffer) if !buffer.is_undefined() => Promise::resolve(&buffer),
                        // The file could not be read (it changed since it was picked): the page
                        // would fail to read it the same way.
                        _ => Promise::reject(&Reflect::get(&data, &"failed".into()).unwrap_or(JsValue::NULL)),
                    };
                    let _ = asked.resolve.call1(&JsValue::NULL, &read);
                }
            } else if Reflect::has(&data, &"failed".into()).unwrap_or(false) {
                running.fail();
            }
        });
        let weak = Rc::downgrade(&running);
        let on_error = Closure::<dyn Fn(JsValue)>::new(move |_| {
            if let Some(running) = weak.upgrade() {
                running.fail();
            }
        });
        running.worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        running.worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *running.listeners.borrow_mut() = Some([on_message, on_error]);
        Slices(Some(running))
    }

    /// Reads on the page.
    pub(crate) fn on_page() -> Slices {
        Slices(None)
    }

    /// Starts reading `file[from..to]` of a file of `size` bytes; the future is its
    /// `ArrayBuffer`.
    pub(crate) fn read(&self, file: &File, from: f64, to: f64, size: f64) -> JsFuture {
        let on_page = || JsFuture::from(read_promise(file, from, to, size));
        let Some(running) = self.0.as_ref().filter(|r| !r.failed.get()) else { return on_page() };
        let id = running.next.get();
        running.next.set(id.wrapping_add(1));
        let message = Object::new();
        let _ = Reflect::set(&message, &"id".into(), &id.into());
        let _ = Reflect::set(&message, &"file".into(), file);
        let _ = Reflect::set(&message, &"from".into(), &from.into());
        let _ = Reflect::set(&message, &"to".into(), &to.into());
        if running.worker.post_message(&message).is_err() {
            running.fail();
            return on_page();
        }
        let (promise, resolve) = promise();
        let asked = Asked { resolve, file: file.clone(), from, to, size };
        running.waiting.borrow_mut().insert(id, asked);
        JsFuture::from(promise)
    }
}

impl Running {
    /// The worker failed (its script is not there, or it could not start): it goes, and what it
    /// was asked is read on the page.
    fn fail(&self) {
        if self.failed.replace(true) {
            return;
        }
        end(&self.worker);
        let waiting: Vec<Asked> = self.waiting.borrow_mut().drain().map(|(_, asked)| asked).collect();
        for Asked { resolve, file, from, to, size } in waiting {
            let _ = resolve.call1(&JsValue::NULL, &read_promise(&file, from, to, size));
        }
    }
}

/// The load is over (or given up): its worker goes.
impl Drop for Slices {
    fn drop(&mut self) {
        if let Some(running) = &self.0 {
            if !running.failed.get() {
                end(&running.worker);
            }
            // Its listeners go with it; a read still asked is not wanted any more.
            running.listeners.borrow_mut().take();
        }
    }
}
