//! Share's scan warmed ahead, in a worker of its own.
//!
//! The engine worker runs the page's own compiled module (`worker::start_worker_with` hands it
//! over), and V8 keeps one copy of a module's code for the page and all its workers: a function
//! one of them made hot is recompiled by the optimizing tier (TurboFan) for all. The scan runs
//! once per Share and was most of its time, mostly in the baseline tier. So a little after the
//! site starts, once no file is loading, a worker looks through the demo for secrets a few times,
//! as the engine worker will look through a session, and goes: off the page's thread, at the
//! cost of a worker on another core for a moment. (Only the site: an embedding page or a shared
//! file may not serve, or allow, a worker's script, and a worker nobody asked for should not
//! fail there.)

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, Worker};

use super::timers::{later, promise, sleep};
use super::worker::start_worker_with;
use crate::demo::demo_inputs;
use crate::redact::Scanner;

/// How long after the viewer starts the scan is warmed at the earliest, and how often whether a
/// load is under way is asked again after that (a load goes first).
const AFTER_MS: i32 = 1500;
const AGAIN_MS: i32 = 500;
/// How many scanners the worker makes (the rules read and compiled anew each time, as the engine
/// worker reads and compiles them), and how many times each looks through the demo (about 50 kB).
const SCANNERS: u32 = 3;
const LOOKS: u32 = 10;
/// A worker that has not answered by then is stopped.
const GIVE_UP_MS: f64 = 20_000.0;

/// Once per page, [`AFTER_MS`] after it is first called and once `loading` says no file is
/// loading: starts the worker, and stops it once it answered (or failed, or after
/// [`GIVE_UP_MS`]). Where no worker can start, nothing is warmed.
pub(crate) async fn warm(loading: impl Fn() -> bool) {
    static STARTED: std::sync::Once = std::sync::Once::new();
    let mut first = false;
    STARTED.call_once(|| first = true);
    if !first {
        return;
    }
    sleep(AFTER_MS).await;
    while loading() {
        sleep(AGAIN_MS).await;
    }
    let Some(worker) = start_worker_with("warm", None) else { return };
    let (answered, answer) = promise();
    // The timer calls the promise's own function, which outlives this: calling it again is
    // nothing.
    later(&answer, GIVE_UP_MS);
    let heard = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
        // A worker that failed is no one's concern: its error is not reported on.
        event.unchecked_into::<web_sys::Event>().prevent_default();
        let _ = answer.call0(&JsValue::NULL);
    });
    worker.set_onmessage(Some(heard.as_ref().unchecked_ref()));
    worker.set_onerror(Some(heard.as_ref().unchecked_ref()));
    let _ = wasm_bindgen_futures::JsFuture::from(answered).await;
    stop(worker);
}

fn stop(worker: Worker) {
    worker.set_onmessage(None);
    worker.set_onerror(None);
    worker.terminate();
}

/// Runs in the warming worker: looks through the demo [`LOOKS`] times with each of [`SCANNERS`]
/// scanners and says `{ warmed }`.
#[wasm_bindgen(js_name = startWarmWorker, skip_typescript)]
pub fn start_warm_worker() {
    let demo = demo_inputs();
    for _ in 0..SCANNERS {
        let Ok(scanner) = Scanner::new(&[]) else { break };
        let files = (0..LOOKS).flat_map(|_| demo.iter().map(|input| (input.name.as_str(), &input.bytes[..])));
        drop(scanner.find_in(files));
    }
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let done = Object::new();
    let _ = Reflect::set(&done, &"warmed".into(), &true.into());
    let _ = scope.post_message(&done);
}
