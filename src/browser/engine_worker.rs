//! What the page's engine worker runs ([`super::engine`] starts it): it reads the files the page
//! shows from the `File`s the page read, or is handed their bytes a piece at a time, and answers
//! what the page asks of them
//! ([`crate::engine::session`]), each answer in one go (a worker may take as long as it needs),
//! but for the Share tab's findings of a large session: their scan is split over workers
//! ([`super::share_scan`]), and its answer comes once they are done, maybe after answers to later
//! asks (the page matches answers to asks by their `id`). Findings asked again of the same files
//! with the same patterns are answered from the last scan; asked while a scan runs, they wait
//! for it. The page can say, as it hands over `File`s, that the findings will be asked (`look`):
//! the split scan then starts at once, its workers handed each slice as the engine reads it, and
//! the ask, which comes once the engine read them all, waits for it.
//!
//! Its messages, in the order the page posts them:
//! - `{ open, files: [[name, size], …] }`: files are coming (the ones held before are dropped);
//!   `open` numbers them.
//! - `{ piece }`: the next bytes of those files (a `Uint8Array`).
//! - or, instead of pieces, `{ open, files, blobs: [File, …], look? }`: the `File`s the page read
//!   them from, which the worker reads itself, answering `{ opened, fingerprints }` (each file's
//!   [`fingerprint`], as text, for the page to check it read what the page holds) or `{ opened,
//!   unread }` (why it could not read them: the page then sends pieces under the same `open`).
//!   `look`, the JSON of the reader's patterns, says the findings will be asked next.
//! - `{ id, open, ask }`: an [`Ask`] as JSON, about files `open`. The answer is `{ id, answer }`,
//!   `answer` the JSON of a `Result<Answer, String>` as UTF-8 bytes (a `Uint8Array`), and
//!   `memory` the worker's memory in bytes.
//!   An export's text is not in the JSON but beside it, as UTF-8 bytes (`text`), and so are the
//!   Overview's long lists (`parts`, an array of JSON parts: `Answer::take_parts`); an HTML
//!   export's ask has the viewer's own files beside it (`viewer`).
//!
//! While it reads the `File`s and while it looks for findings, it tells the page how far it got:
//! `{ progress }`, a [`Progress`] as JSON, each time 8 MB more were read or looked through (of
//! a split scan, in its own part).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, DedicatedWorkerGlobalScope, MessageEvent};

use super::share_scan;
use super::timers::promise;
use crate::engine::session::{fingerprint, Answer, Arrival, Ask, Progress, SessionEngine};
use crate::export::to_html::ViewerFiles;
use crate::redact::split::names_and_sizes;
use crate::redact::{Finding, Scanner};

/// The files being received, then the engine made of them.
enum Held {
    Nothing,
    Arriving(u32, Arrival),
    Whole(u32, SessionEngine),
    /// They could not all arrive (why).
    Failed(u32, String),
}

/// Findings in files `open` (their number), with the reader's patterns.
type Found = (u32, Vec<String>, Vec<Finding>);

thread_local! {
    static HELD: RefCell<Held> = const { RefCell::new(Held::Nothing) };
    /// The last findings worked out.
    static LAST_FOUND: RefCell<Option<Found>> = const { RefCell::new(None) };
    /// Resolves when the split scan under way ends (one at a time), and what gives it up.
    static SPLITTING: RefCell<Option<(Promise, Rc<share_scan::Look>)>> = const { RefCell::new(None) };
    /// The split scan handed the slices of files `open` as they are read.
    static FEEDING: RefCell<Option<(u32, Rc<share_scan::Look>)>> = const { RefCell::new(None) };
    /// Counts the files handed over (each `open` message): a scan of files handed over before
    /// the last keeps nothing.
    static HANDED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs in the engine worker: answers the page's messages.
#[wasm_bindgen(js_name = startEngineWorker, skip_typescript)]
pub fn start_engine_worker() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let heard = Closure::<dyn Fn(MessageEvent)>::new(|event: MessageEvent| {
        if let Some(reply) = heard(&event.data()) {
            post(reply);
        }
    });
    scope.set_onmessage(Some(heard.as_ref().unchecked_ref()));
    // The worker lives as long as its handler: there is no other owner to give it to.
    heard.forget();
    let _ = scope.post_message(&"ready".into());
}

/// A reply to the page, and the bytes it carries (transferred).
type Reply = (JsValue, Vec<Uint8Array>);

fn post((reply, bytes): Reply) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let transfer = Array::new();
    for bytes in bytes {
        transfer.push(&bytes.buffer());
    }
    let _ = scope.post_message_with_transfer(&reply, &transfer);
}

/// Takes one message; returns the reply to an ask, unless it comes later (a scan split over
/// workers posts its own).
fn heard(data: &JsValue) -> Option<Reply> {
    let get = |key: &str| Reflect::get(data, &key.into()).ok().filter(|v| !v.is_undefined());
    if let Some(piece) = get("piece") {
        take(&piece.unchecked_into::<Uint8Array>().to_vec());
        return None;
    }
    let open = get("open").and_then(|o| o.as_f64()).map(|o| o as u32);
    if let (Some(open), Some(files)) = (open, get("files")) {
        let files: Result<Vec<(String, usize)>, _> = serde_wasm_bindgen::from_value(files);
        let described = files.as_ref().cloned().unwrap_or_default();
        // What was found, or is being looked for, is of the files before (or of the same ones,
        // read otherwise than the page read them).
        HANDED.with(|h| h.set(h.get().wrapping_add(1)));
        LAST_FOUND.with(|l| *l.borrow_mut() = None);
        FEEDING.with(|f| *f.borrow_mut() = None);
        if let Some((_, look)) = SPLITTING.with(|s| s.borrow().clone()) {
            look.give_up();
        }
        HELD.with(|held| {
            // The files held before go first: their memory is the next files' room.
            *held.borrow_mut() = Held::Nothing;
            *held.borrow_mut() = match files {
                Ok(files) => Held::Arriving(open, Arrival::new(files)),
                Err(e) => Held::Failed(open, format!("the files were not described: {e}")),
            };
        });
        if let Some(blobs) = get("blobs") {
            let look = get("look").and_then(|l| l.as_string());
            if let Some(patterns) = look.and_then(|l| serde_json::from_str::<Vec<String>>(&l).ok()) {
                let (names, sizes): (Vec<String>, Vec<u64>) =
                    described.iter().map(|(n, s)| (n.clone(), *s as u64)).unzip();
                if let Some(look) = split_scan(open, &names, &sizes, patterns) {
                    FEEDING.with(|f| *f.borrow_mut() = Some((open, look)));
                }
            }
            // The page asks nothing of these files before it hears that they were read.
            wasm_bindgen_futures::spawn_local(async move {
                let read = read_blobs(open, &described, blobs.unchecked_into()).await;
                // A look fed what was read cannot end without the rest.
                let fed = FEEDING.with(|f| f.borrow_mut().take_if(|(o, _)| *o == open));
                if let (Err(_), Some((_, look))) = (&read, fed) {
                    look.give_up();
                }
                post(opened(open, read));
            });
        }
        return None;
    }
    let id = get("id")?;
    let ask = get("ask").and_then(|a| a.as_string()).unwrap_or_default();
    let viewer = get("viewer").map(|v| viewer_files(&v));
    let open = open.unwrap_or(u32::MAX);
    let answer = match serde_json::from_str::<Ask>(&ask) {
        Ok(Ask::Findings { patterns }) => return findings(open, id, patterns, true),
        Ok(ask) => with_engine(open, |engine| {
            if let Some(viewer) = viewer {
                engine.viewer(viewer);
            }
            engine.answer(&ask)
        })
        .and_then(|answer| answer),
        Err(e) => Err(format!("the question was not understood: {e}")),
    };
    Some(reply(id, answer))
}

/// The reply to ask `id` for the findings in files `open`, unless it comes later: from the last
/// scan if it was the same, after the scan under way if there is one, from a scan split over
/// workers if the files are large (and `may_split`: not after one failed), else from one scan
/// here.
fn findings(open: u32, id: JsValue, patterns: Vec<String>, may_split: bool) -> Option<Reply> {
    let same = |(o, p, _): &&Found| *o == open && *p == patterns;
    if let Some(found) = LAST_FOUND.with(|l| l.borrow().as_ref().filter(same).map(|(_, _, f)| f.clone())) {
        prepare_soon(open);
        return Some(reply(id, Ok(Answer::Findings(Ok(found)))));
    }
    if let Some((running, _)) = SPLITTING.with(|s| s.borrow().clone()) {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = JsFuture::from(running).await;
            if let Some(reply) = findings(open, id, patterns, false) {
                post(reply);
            }
        });
        return None;
    }
    if may_split {
        let started = with_engine(open, |engine| {
            let files = engine.files();
            let (names, sizes) = names_and_sizes(&files);
            let look = split_scan(open, &names, &sizes, patterns.clone());
            // Handed every slice at once: its workers take them as they come to them.
            look.inspect(|look| look.feed_all(&files)).is_some()
        });
        if started == Ok(true) {
            return findings(open, id, patterns, false);
        }
    }
    // One scan here, of every file whole, telling how far it got as a split scan does.
    let answer = with_engine(open, |engine| {
        let files = engine.files();
        let found =
            Scanner::new(&patterns).and_then(|scanner| share_scan::find_here(&scanner, &files, looked));
        Answer::Findings(found)
    });
    if let Ok(Answer::Findings(Ok(found))) = &answer {
        LAST_FOUND.with(|l| *l.borrow_mut() = Some((open, patterns, found.clone())));
    }
    prepare_soon(open);
    Some(reply(id, answer))
}

/// Makes the workspace of files `open` once the findings went to the page (a task after this
/// one): what Share is often followed by (the Overview, an export) needs it, and making it was
/// most of their time (0.5 of the Overview's 0.9 s at 200 MB). The reader reads the findings
/// meanwhile; an ask that comes waits for it, as it would have made it itself.
fn prepare_soon(open: u32) {
    let prepare = Closure::once_into_js(move || {
        if SPLITTING.with(|s| s.borrow().is_none()) {
            let _ = with_engine(open, SessionEngine::prepare);
        }
    });
    super::timers::later(prepare.unchecked_ref(), 0.0);
}

/// Starts the scan of files `open` (named `names`, of `sizes` bytes) split over workers, if they
/// are large enough; the caller hands them the bytes. Its findings are kept as the last ones
/// unless other files were handed over since; an ask waits for it ([`SPLITTING`]).
fn split_scan(
    open: u32,
    names: &[String],
    sizes: &[u64],
    patterns: Vec<String>,
) -> Option<Rc<share_scan::Look>> {
    let look = Rc::new(share_scan::start(names, sizes, &patterns, looked)?);
    let (splitting, done) = promise();
    SPLITTING.with(|s| *s.borrow_mut() = Some((splitting, look.clone())));
    let handed = HANDED.with(|h| h.get());
    let looking = look.clone();
    wasm_bindgen_futures::spawn_local(async move {
        match looking.finish().await {
            // Given up on for other files: nothing to keep, nothing to say.
            _ if HANDED.with(|h| h.get()) != handed => {}
            Ok(found) => LAST_FOUND.with(|l| *l.borrow_mut() = Some((open, patterns, found))),
            Err(why) => {
                let warning = format!("cctv: the split look failed ({why}); the engine looks itself");
                web_sys::console::warn_1(&warning.into());
            }
        }
        // Its workers go now (once the engine's read no longer feeds it), and their memory with
        // them.
        drop(looking);
        SPLITTING.with(|s| *s.borrow_mut() = None);
        let _ = done.call0(&JsValue::NULL);
    });
    Some(look)
}

/// The message answering ask `id`.
fn reply(id: JsValue, mut answer: Result<Answer, String>) -> Reply {
    // An export's text goes beside the answer, as bytes the page hands to a download as they
    // are: as JSON, the page would read tens of MB into its own memory in one task.
    let text = match &mut answer {
        Ok(Answer::Text(text)) => Some(Uint8Array::from(std::mem::take(text).as_bytes())),
        _ => None,
    };
    // The Overview's long lists go beside it, in parts the page reads one at a time.
    let parts: Vec<Uint8Array> = match &mut answer {
        Ok(answer) => answer.take_parts().iter().map(|part| Uint8Array::from(&part[..])).collect(),
        Err(_) => Vec::new(),
    };
    let reply = Object::new();
    let _ = Reflect::set(&reply, &"id".into(), &id);
    // As UTF-8 bytes too: as a string, the page would encode it into its memory in one task (the
    // Overview's figures of a GB session were 16 MB of JSON, 0.2 s, before their lists went apart).
    let json = serde_json::to_vec(&answer)
        .or_else(|e| serde_json::to_vec(&Err::<Answer, String>(e.to_string())))
        .unwrap_or_default();
    let json = Uint8Array::from(&json[..]);
    let _ = Reflect::set(&reply, &"answer".into(), &json);
    if let Some(text) = &text {
        let _ = Reflect::set(&reply, &"text".into(), text);
    }
    let _ = Reflect::set(&reply, &"parts".into(), &parts.iter().collect::<Array>());
    // Its memory never shrinks: the page replaces a worker that grew large once it is idle.
    let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>().buffer();
    let memory = memory.unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64;
    let _ = Reflect::set(&reply, &"memory".into(), &memory.into());
    (reply.into(), [json].into_iter().chain(text).chain(parts).collect())
}

/// Tells the page that `done` of `total` bytes were looked through for findings.
fn looked(done: u64, total: u64) {
    tell(Progress::Looking { done, total });
}

/// Tells the page how far a long ask got: `{ progress }`, a [`Progress`] as JSON.
fn tell(progress: Progress) {
    let said = Object::new();
    let json = serde_json::to_string(&progress).unwrap_or_default();
    let _ = Reflect::set(&said, &"progress".into(), &json.into());
    post((said.into(), Vec::new()));
}

/// The next piece of the files arriving.
fn take(piece: &[u8]) {
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        if let Held::Arriving(open, arrival) = &mut *held {
            if let Err(e) = arrival.take(piece) {
                *held = Held::Failed(*open, e);
            }
        }
    });
}

/// Bytes read from a `File` at a time, as the page reads them (`browser::load`).
const READ_SLICE: f64 = 16.0 * 1024.0 * 1024.0;

/// Reads the files arriving as `open`, `described` by name and size, from `blobs` (one per file,
/// in order) a slice at a time, the next slice read while one is copied into the engine's memory;
/// their fingerprints, or why they could not be read.
async fn read_blobs(open: u32, described: &[(String, usize)], blobs: Array) -> Result<Vec<String>, String> {
    if blobs.length() as usize != described.len() {
        return Err(format!("{} files described, {} given", described.len(), blobs.length()));
    }
    // Each slice, with the file it is of and where in it it begins.
    let mut slices = Vec::new();
    for (file, (blob, (name, expected))) in blobs.iter().zip(described).enumerate() {
        let blob: Blob = blob.unchecked_into();
        let size = blob.size();
        if size != *expected as f64 {
            return Err(format!("{name} is {size} bytes, not the {expected} the page read"));
        }
        let mut at = 0.0;
        while at < size {
            let end = (at + READ_SLICE).min(size);
            let slice = blob.slice_with_f64_and_f64(at, end).map_err(|e| super::js_error::describe(&e))?;
            slices.push((file, at as u64, slice));
            at = end;
        }
    }
    let read = |(_, _, slice): &(usize, u64, Blob)| JsFuture::from(slice.array_buffer());
    let total: u64 = described.iter().map(|(_, size)| *size as u64).sum();
    let every = share_scan::TELL_EVERY;
    let mut done = 0;
    let mut next = slices.first().map(read);
    // Files whose every byte the look was handed.
    let mut ended = 0;
    for i in 0..slices.len() {
        let (file, at, _) = slices[i];
        for before in ended..file {
            feed_look(open, before, 0, None);
        }
        ended = file;
        let Some(reading) = next.take() else { break };
        next = slices.get(i + 1).map(read);
        let bytes = Uint8Array::new(&reading.await.map_err(|e| super::js_error::describe(&e))?);
        HELD.with(|held| match &mut *held.borrow_mut() {
            Held::Arriving(number, arrival) if *number == open => {
                arrival.take_with(bytes.length() as usize, |into| bytes.copy_to(into))
            }
            _ => Err("other files came while these were read".into()),
        })?;
        // Copied: the look may take the bytes' buffer itself.
        feed_look(open, file, at, Some(&bytes));
        // What the look's workers were handed waits in their memory until they come to it.
        while FEEDING.with(|f| f.borrow().as_ref().is_some_and(|(o, look)| *o == open && look.behind())) {
            super::timers::sleep(10).await;
        }
        // Said every few MB, not for each of a session's many small files.
        let before = done;
        done += bytes.length() as u64;
        // Not while the files are looked through: that is what the page waits for.
        let looking = SPLITTING.with(|s| s.borrow().is_some());
        if (done / every != before / every || done == total) && !looking {
            tell(Progress::Reading { done, total });
        }
    }
    for file in ended..described.len() {
        feed_look(open, file, 0, None);
    }
    with_engine(open, |engine| {
        engine.files().iter().map(|(_, bytes)| fingerprint(bytes).to_string()).collect()
    })
}

/// Hands the look fed as files `open` are read ([`FEEDING`]) bytes `at..` of file `file`, or
/// (`None`) says every byte of it was.
fn feed_look(open: u32, file: usize, at: u64, bytes: Option<&Uint8Array>) {
    FEEDING.with(|feeding| match (&*feeding.borrow(), bytes) {
        (Some((o, look)), Some(bytes)) if *o == open => look.feed(file, at, bytes),
        (Some((o, look)), None) if *o == open => look.end_file(file),
        _ => {}
    });
}

/// The word that files `open` were read here, or why not (the page then sends them).
fn opened(open: u32, read: Result<Vec<String>, String>) -> Reply {
    let said = Object::new();
    let _ = Reflect::set(&said, &"opened".into(), &open.into());
    match read {
        Ok(fingerprints) => {
            let fingerprints: Array = fingerprints.iter().map(|f| JsValue::from(f.as_str())).collect();
            let _ = Reflect::set(&said, &"fingerprints".into(), &fingerprints);
        }
        Err(why) => {
            let _ = Reflect::set(&said, &"unread".into(), &why.into());
        }
    }
    (said.into(), Vec::new())
}

/// The viewer's own files, as the page sends them beside an HTML export's ask: `{ script, wasm,
/// grammars?, snippets: [[path, source], …] }`.
fn viewer_files(value: &JsValue) -> ViewerFiles {
    let get = |key: &str| Reflect::get(value, &key.into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let bytes = |key: &str| get(key).and_then(|b| b.dyn_into::<Uint8Array>().ok()).map(|b| b.to_vec());
    ViewerFiles {
        script: get("script").and_then(|s| s.as_string()).unwrap_or_default(),
        wasm: bytes("wasm").unwrap_or_default(),
        grammars: bytes("grammars"),
        snippets: get("snippets").and_then(|s| serde_wasm_bindgen::from_value(s).ok()).unwrap_or_default(),
    }
}

/// `f` of the engine of files `open`, made of them once they are all there; an error if other
/// files came since, or these could not all arrive.
fn with_engine<R>(open: u32, f: impl FnOnce(&mut SessionEngine) -> R) -> Result<R, String> {
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        let now = match std::mem::replace(&mut *held, Held::Nothing) {
            // Only these files' own ask makes them whole: others may be arriving still (a scan
            // of the files before can end while the next are sent).
            Held::Arriving(number, arrival) if number == open => match arrival.whole() {
                Ok(files) => Held::Whole(number, SessionEngine::new(files)),
                Err(e) => Held::Failed(number, e),
            },
            other => other,
        };
        *held = now;
        match &mut *held {
            Held::Whole(number, engine) if *number == open => Ok(f(engine)),
            Held::Failed(number, e) if *number == open => Err(e.clone()),
            // Other files came since: the page no longer shows these.
            _ => Err("other files are open now".into()),
        }
    })
}
