//! The page's clock and its turns: long work (loading, linking, listing, searching) runs in
//! tasks of a few tens of ms and lets the browser paint and answer between them.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::normalize::pace::Pause;

/// How long work runs before it lets the browser paint and handle input.
pub(crate) const TASK_BUDGET_MS: f64 = 40.0;

/// Milliseconds since the page began (`performance.now()`; 0 where there is no window).
pub(crate) fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// A mark in the Performance panel, for benchmarks and the curious.
pub(crate) fn mark(name: &str) {
    let _ = web_sys::window().and_then(|w| w.performance()).map(|p| p.mark(name));
}

/// Lets the browser paint before the next long step: the next task (a timer's), which a frame
/// may or may not come before (see [`after_a_frame`]).
pub(crate) async fn next_frame() {
    sleep(0).await;
}

/// Waits until the browser has drawn a frame, then for a task of its own: what the page changes
/// then is laid out and painted in the next frame alone. Changes made in timers' tasks
/// ([`next_frame`]) pile up in one frame (several run between two), and changes made in the
/// frame's own callback are one task with its layout. In a worker, where there are no frames, a
/// timer's turn; in a page in a background tab, where there are none either, it waits until the
/// page is seen again.
pub(crate) async fn after_a_frame() {
    if let Ok(window) = js_sys::global().dyn_into::<web_sys::Window>() {
        let (promise, resolve) = promise();
        let _ = window.request_animation_frame(&resolve);
        let _ = JsFuture::from(promise).await;
    }
    sleep(0).await;
}

/// Waits `ms` milliseconds (a timer: the page, or the worker, is free meanwhile).
pub(crate) async fn sleep(ms: i32) {
    let (promise, resolve) = promise();
    later(&resolve, f64::from(ms));
    let _ = JsFuture::from(promise).await;
    // What goes on from here runs in the timer's task.
    began_now();
}

thread_local! {
    /// When the task now running began, as far as the page's own work knows; forgotten by a
    /// `setTimeout(0)` set when it is stamped. Tasks that run before that timer (input, a
    /// worker's message) see the older stamp and pause at once: early, never late.
    static TASK_BEGAN: Cell<Option<f64>> = const { Cell::new(None) };
    static FORGET: Function = Closure::<dyn Fn()>::new(|| TASK_BEGAN.with(|b| b.set(None))).into_js_value().unchecked_into();
}

/// When the task now running began: when a timer of [`sleep`] woke it, or else when something
/// in it first asked. Paced work counts its budget from here, so two paced jobs in one task, or
/// one after the page drew what a load ended with, share one task's budget instead of each
/// taking a whole one (the first screen of a GB session was a 56 ms task: the side panel
/// drawn, then the rows' own 40 ms).
pub(crate) fn task_began() -> f64 {
    TASK_BEGAN.with(|b| b.get()).unwrap_or_else(began_now)
}

fn began_now() -> f64 {
    let at = now();
    if TASK_BEGAN.with(|b| b.replace(Some(at))).is_none() {
        FORGET.with(|forget| later(forget, 0.0));
    }
    at
}

/// Calls `f` in `ms` milliseconds: a window's timer or a worker's, whichever this runs in.
pub(crate) fn later(f: &Function, ms: f64) {
    let set_timeout = Reflect::get(&js_sys::global(), &"setTimeout".into()).ok();
    if let Some(set_timeout) = set_timeout.and_then(|t| t.dyn_into::<Function>().ok()) {
        let _ = set_timeout.call2(&JsValue::NULL, f, &ms.into());
    }
}

/// A promise and the function that resolves it (with the value it is called with).
pub(crate) fn promise() -> (Promise, Function) {
    let mut resolve = None;
    let promise = Promise::new(&mut |ok, _| resolve = Some(ok));
    (promise, resolve.expect("a promise's executor runs at once"))
}

/// Lets a paced normalize pause every [`TASK_BUDGET_MS`] of a task (counted from
/// [`task_began`]) for the page's next task: a GB session takes about a second to link, and the
/// page paints and takes input meanwhile.
pub(crate) struct PageTurns {
    /// How long a task may run before it pauses.
    budget: f64,
    /// How long the pauses took in all, so that the time normalize took can be told apart.
    waited: Rc<Cell<f64>>,
}

impl PageTurns {
    pub(crate) fn new() -> PageTurns {
        PageTurns::with_budget(TASK_BUDGET_MS)
    }

    /// For work whose single steps can take 10-15 ms (the page's own secret scan, whose long
    /// step was not pinned down; reading an answer's parts): pausing after less leaves room for
    /// one more within 50 ms.
    pub(crate) fn with_budget(budget: f64) -> PageTurns {
        PageTurns { budget, waited: Rc::default() }
    }

    /// How long the pauses took in all.
    pub(crate) fn waited(&self) -> f64 {
        self.waited.get()
    }
}

impl Pause for PageTurns {
    fn due(&mut self) -> bool {
        now() - task_began() >= self.budget
    }

    fn pause(&mut self) -> Pin<Box<dyn Future<Output = ()>>> {
        let waited = self.waited.clone();
        Box::pin(async move {
            let started = now();
            next_frame().await;
            waited.set(waited.get() + now() - started);
        })
    }
}
