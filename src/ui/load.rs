//! Getting files into the viewer: a picker, a folder picker, or a drop of files and folders.
//! Files are read as bytes (`File.arrayBuffer()`, one copy into wasm memory), never as strings,
//! and nothing leaves the page.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Array, Promise, Uint8Array};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DataTransfer, File, FileSystemDirectoryEntry, FileSystemEntry, FileSystemFileEntry};

use super::state::{Progress, Viewer};
use crate::model::GrowingTranscript;
use crate::normalize::beside::beside;
use crate::normalize::pace::{Pace, Pause};
use crate::normalize::{self, Input};

/// A file to read, with the name it should carry (its path inside a dropped folder).
pub struct Named {
    pub name: String,
    pub file: File,
}

/// The files of a picker (`<input type=file>`, with `webkitdirectory` for folders).
pub fn from_file_list(list: &web_sys::FileList) -> Vec<Named> {
    (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|file| {
            let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
                .ok()
                .and_then(|v| v.as_string())
                .filter(|p| !p.is_empty());
            let in_folder = relative.is_some();
            (in_folder, Named { name: relative.map(strip_top_folder).unwrap_or_else(|| file.name()), file })
        })
        .filter(|(in_folder, n)| wanted(&n.name, *in_folder))
        .map(|(_, n)| n)
        .collect()
}

/// A folder pick names files `folder/a/b.jsonl`; cctv names them relative to the folder.
fn strip_top_folder(path: String) -> String {
    match path.split_once('/') {
        Some((_, rest)) => rest.to_owned(),
        None => path,
    }
}

/// Inside folders only transcripts and the files Claude Code writes beside them are read; files
/// dropped or picked one by one are always read, so a wrong file gets a message instead of
/// silence.
pub fn wanted(name: &str, in_folder: bool) -> bool {
    !in_folder || name.ends_with(".jsonl") || beside(name).is_some()
}

/// Opens what the reader handed over: a folder of many sessions on their list, anything else in
/// the viewer.
pub async fn open(viewer: Viewer, files: Vec<Named>, in_folder: bool) {
    if in_folder && super::library::holds_many_sessions(&files) {
        super::library::open(viewer, files).await;
    } else {
        if !files.is_empty() {
            viewer.library.close();
        }
        load(viewer, files).await;
    }
}

/// Everything a drop holds: files, and folders walked to the bottom; and whether it held a folder.
pub async fn from_drop(transfer: DataTransfer) -> (Vec<Named>, bool) {
    let mut out = Vec::new();
    let items = transfer.items();
    let mut entries = Vec::new();
    let mut loose = Vec::new();
    for i in 0..items.length() {
        let Some(item) = items.get(i) else { continue };
        match item.webkit_get_as_entry() {
            Ok(Some(entry)) => entries.push(entry),
            _ => {
                if let Ok(Some(file)) = item.get_as_file() {
                    loose.push(file);
                }
            }
        }
    }
    let in_folder = entries.iter().any(|e| e.is_directory());
    for entry in entries {
        walk(entry, String::new(), true, &mut out).await;
    }
    for file in loose {
        out.push(Named { name: file.name(), file });
    }
    (out, in_folder)
}

async fn walk(entry: FileSystemEntry, prefix: String, top: bool, out: &mut Vec<Named>) {
    if entry.is_file() {
        let entry: FileSystemFileEntry = entry.unchecked_into();
        let promise =
            Promise::new(&mut |resolve, reject| entry.file_with_callback_and_callback(&resolve, &reject));
        if let Ok(file) = JsFuture::from(promise).await {
            let file: File = file.unchecked_into();
            let name = format!("{prefix}{}", file.name());
            if wanted(&name, !top) {
                out.push(Named { name, file });
            }
        }
        return;
    }
    let directory: FileSystemDirectoryEntry = entry.clone().unchecked_into();
    let reader = directory.create_reader();
    // A dropped folder's own name is not part of the names inside it.
    let prefix = if top { String::new() } else { format!("{prefix}{}/", entry.name()) };
    loop {
        // readEntries hands out a batch at a time, and an empty batch at the end.
        let promise = Promise::new(&mut |resolve, reject| {
            let _ = reader.read_entries_with_callback_and_callback(&resolve, &reject);
        });
        let Ok(batch) = JsFuture::from(promise).await else { break };
        let batch: Array = batch.unchecked_into();
        if batch.length() == 0 {
            break;
        }
        for child in batch.iter() {
            Box::pin(walk(child.unchecked_into(), prefix.clone(), false, out)).await;
        }
    }
}

/// Bytes read from a file per slice, and parsed per step: a step is a few ms, so the page can
/// paint and answer between them while a file of hundreds of MB loads.
const READ_STEP: f64 = 16.0 * 1024.0 * 1024.0;
const PARSE_STEP: usize = 4 * 1024 * 1024;
/// How long the loader works before it lets the browser paint and handle input.
const TASK_BUDGET_MS: f64 = 40.0;

/// A load this large shows its beginning while the rest is read (smaller ones are on screen
/// whole in about 0.2 s): the first file's lines parsed so far, first at [`EARLY_FIRST`] bytes,
/// then each time four times as many are parsed, up to [`EARLY_LAST`]. Each early view is a copy
/// of those lines normalized on their own, so they stay few and small; the whole is shown when
/// every file is read. A first file this large is read in a short first slice ([`FIRST_READ`]).
const EARLY_FROM: f64 = 32e6;
const EARLY_FIRST: usize = 1 << 20;
const EARLY_LAST: usize = 16 << 20;
/// The first slice of a first file that large: enough for the first early view.
const FIRST_READ: f64 = 2.0 * EARLY_FIRST as f64;

/// When the next early view is due, if any.
struct EarlyViews {
    next_at: Option<usize>,
    shown: bool,
}

impl EarlyViews {
    fn new(total: f64) -> EarlyViews {
        EarlyViews { next_at: (total >= EARLY_FROM).then_some(EARLY_FIRST), shown: false }
    }

    /// Whether a view of `parsed` bytes is due; `whole` says the file is parsed to its end and
    /// other files follow (then it always is, once).
    fn due(&mut self, parsed: usize, whole: bool) -> bool {
        let Some(at) = self.next_at else { return false };
        if parsed < at && !whole {
            return false;
        }
        self.next_at = (!whole && parsed < EARLY_LAST).then(|| (parsed * 4).min(EARLY_LAST));
        true
    }
}

/// Reads `files` in slices (one copy into wasm memory) and parses each slice while the next is
/// read, in steps that let the page paint; shows progress; loads them into the viewer. Returns
/// whether it showed them (not when there were none, they were too large, or other files were
/// opened meanwhile).
pub async fn load(viewer: Viewer, mut files: Vec<Named>) -> bool {
    if files.is_empty() {
        return false;
    }
    let number = viewer.start_load();
    // Checked after every wait: other files opened meanwhile (or the viewer gone) end this load.
    let latest = move || viewer.is_latest_load(number);
    // Sessions first, so the first file read is one whose beginning can be shown early; then
    // sub-agents; then the files beside them (the order of sessions is kept).
    files.sort_by_key(|f| match (beside(&f.name), normalize::agent_id_of_name(&f.name)) {
        (Some(_), _) => 2,
        (None, Some(_)) => 1,
        (None, None) => 0,
    });
    // The first file is being read while the others are asked their sizes (`File.size` can
    // cost a round trip to the browser process: ask once per file), in a short slice, so that
    // its beginning can be parsed and shown at once.
    let first_size = files[0].file.size();
    let first_end = first_size.min(if first_size >= EARLY_FROM { FIRST_READ } else { READ_STEP });
    let mut next = Some(read_slice(&files[0].file, 0.0, first_end));
    let mut sizes = Vec::with_capacity(files.len());
    sizes.push(first_size);
    // Listing the files was this task's work already.
    next_frame().await;
    let mut asked_since = now();
    for f in &files[1..] {
        // A folder of thousands of files: a few ms a hundred, so the page paints meanwhile.
        if now() - asked_since >= TASK_BUDGET_MS {
            next_frame().await;
            asked_since = now();
        }
        sizes.push(f.file.size());
    }
    if !latest() {
        return false;
    }
    // A tab that runs out of memory dies without a word; refuse what cannot fit instead.
    let size: f64 = sizes.iter().sum();
    let limit = viewer.max_bytes.get_untracked();
    if size > limit {
        // A load this one stopped leaves its progress to the latest.
        viewer.progress.set(None);
        let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
        viewer.problems.set(vec![(
            names.join(", "),
            format!(
                "too large to open here: {:.0} MB; a browser tab can hold about {:.0} MB of transcripts with cctv. Open fewer files at once.",
                size / 1e6,
                limit / 1e6
            ),
        )]);
        return false;
    }
    // Every byte is read once and parsed once.
    let total = size * 2.0;
    mark("cctv:load");
    // Shown from the start: the beginning of the conversation may be on screen long before the
    // end is read, and the reader must see that more is coming.
    viewer.progress.set(Some(Progress { label: format!("Reading {}", files[0].name), done: 0.0, total }));
    let mut reading = 0.0;
    let mut parsing = 0.0;
    let mut done = 0.0;
    let mut last_yield = now();
    let mut early = EarlyViews::new(size);
    let mut transcripts = Vec::with_capacity(files.len());
    let mut side = Vec::new();
    let mut problems = Vec::new();
    // One read is always in flight: the next slice of this file, or the first of the next file,
    // so the browser reads (off the main thread) while this one is parsed.
    let first_slice =
        |index: usize| files.get(index).map(|f| read_slice(&f.file, 0.0, sizes[index].min(READ_STEP)));
    for (index, Named { name, file }) in files.iter().enumerate() {
        let size = sizes[index];
        // Where the slice in flight ends.
        let mut end = if index == 0 { first_end } else { size.min(READ_STEP) };
        let Some(mut arriving) = Arriving::new(name, size) else {
            problems.push((name.clone(), format!("not enough memory to open its {:.0} MB", size / 1e6)));
            done += 2.0 * size;
            next = first_slice(index + 1);
            continue;
        };
        let mut failed = None;
        while let Some(pending) = next.take() {
            let started = now();
            let chunk = pending.await;
            reading += now() - started;
            if !latest() {
                return false;
            }
            let received = end;
            if received < size {
                end = (received + READ_STEP).min(size);
                next = Some(read_slice(file, received, end));
            } else {
                next = first_slice(index + 1);
            }
            match chunk {
                Ok(buffer) => arriving.append(&Uint8Array::new(&buffer)),
                Err(e) => {
                    failed = Some(describe(&e));
                    // The rest of this file is not worth reading.
                    next = first_slice(index + 1);
                    break;
                }
            }
            if let Arriving::Transcript(transcript) = &mut arriving {
                loop {
                    if now() - last_yield >= TASK_BUDGET_MS {
                        viewer.progress.set(Some(Progress {
                            label: format!("Reading and parsing {name}"),
                            done: done + transcript.bytes_fed() as f64 + transcript.bytes_parsed() as f64,
                            total,
                        }));
                        next_frame().await;
                        if !latest() {
                            return false;
                        }
                        last_yield = now();
                    }
                    let started = now();
                    let caught_up = transcript.step(PARSE_STEP);
                    parsing += now() - started;
                    if index == 0
                        && early
                            .due(transcript.bytes_parsed(), received >= size && caught_up && files.len() > 1)
                    {
                        early.shown |= show_early(viewer, transcript, early.shown, latest).await;
                        last_yield = now();
                    }
                    if caught_up {
                        break;
                    }
                }
            }
            if received >= size {
                break;
            }
        }
        done += 2.0 * size;
        if let Some(reason) = failed {
            problems.push((name.clone(), format!("could not be read: {reason}")));
            continue;
        }
        match arriving {
            Arriving::Beside(bytes) => side.push(Input { name: name.clone(), bytes }),
            Arriving::Transcript(transcript) => {
                // Only a last line without a line break is left to parse.
                let started = now();
                transcripts.push(transcript.finish());
                parsing += now() - started;
            }
        }
    }
    viewer.progress.set(Some(Progress { label: "Linking sessions and sub-agents".into(), done, total }));
    next_frame().await;
    if !latest() {
        return false;
    }
    let started = now();
    let mut turns = PageTurns::from_now();
    let mut workspace = normalize::assemble_paced(transcripts, side, &mut Pace::with(&mut turns)).await;
    let normalizing = now() - started - turns.waited.get();
    workspace.rejected.extend(problems);
    // Linking and the first screen are separate tasks, so neither waits for the other.
    next_frame().await;
    if !latest() {
        return false;
    }
    viewer.progress.set(None);
    if early.shown {
        viewer.show_more(workspace);
    } else {
        viewer.show(workspace);
    }
    // For benchmarks and the curious: where the time went, as a mark in the Performance panel.
    mark(&format!("cctv:phases read {reading:.0} ms, parse {parsing:.0} ms, normalize {normalizing:.0} ms"));
    true
}

/// Shows what is parsed of the first file so far, in a task of its own, unless it holds no
/// session yet (a first line longer than the slice read, a file that is not a transcript) or
/// the load is no longer the latest. Returns whether it was shown.
async fn show_early(
    viewer: Viewer,
    transcript: &GrowingTranscript,
    shown: bool,
    latest: impl Fn() -> bool,
) -> bool {
    next_frame().await;
    if !latest() {
        return false;
    }
    let workspace = normalize::assemble(vec![transcript.parsed_so_far()], Vec::new());
    if workspace.sessions.is_empty() {
        return false;
    }
    if shown {
        viewer.show_more(workspace);
    } else {
        viewer.show(workspace);
    }
    mark("cctv:early");
    next_frame().await;
    true
}

/// Lets a paced normalize pause every [`TASK_BUDGET_MS`] for the page's next task: a GB session
/// takes about a second to link, and the page paints and takes input meanwhile.
pub struct PageTurns {
    /// When the current task began.
    since: Rc<Cell<f64>>,
    /// How long the pauses took in all, so that the time normalize took can be told apart.
    waited: Rc<Cell<f64>>,
}

impl PageTurns {
    pub fn from_now() -> PageTurns {
        PageTurns { since: Rc::new(Cell::new(now())), waited: Rc::default() }
    }
}

impl Pause for PageTurns {
    fn due(&mut self) -> bool {
        now() - self.since.get() >= TASK_BUDGET_MS
    }

    fn pause(&mut self) -> Pin<Box<dyn Future<Output = ()>>> {
        let (since, waited) = (self.since.clone(), self.waited.clone());
        Box::pin(async move {
            let started = now();
            next_frame().await;
            since.set(now());
            waited.set(waited.get() + since.get() - started);
        })
    }
}

/// A file being read: a transcript parsed as it arrives, or a file beside one (a sub-agent's
/// `.meta.json`, a saved tool output, a workflow run), which is only collected.
enum Arriving {
    Transcript(GrowingTranscript),
    Beside(Vec<u8>),
}

impl Arriving {
    /// Reserves room for the whole file at once; `None` if it cannot be had.
    fn new(name: &str, size: f64) -> Option<Arriving> {
        if beside(name).is_some() {
            let mut bytes = Vec::new();
            bytes.try_reserve_exact(size as usize).ok()?;
            Some(Arriving::Beside(bytes))
        } else {
            GrowingTranscript::new(name, size as usize).ok().map(Arriving::Transcript)
        }
    }

    /// Appends a slice read from the file, copying straight into the space reserved for the
    /// whole file (no zero-filling first: that would be a second pass over hundreds of MB).
    fn append(&mut self, array: &Uint8Array) {
        let len = array.length() as usize;
        match self {
            Arriving::Transcript(transcript) => {
                transcript.feed_in_place(len, |spare| array.copy_to_uninit(spare))
            }
            // Metadata, or an output of a few hundred KB: zero-filling them costs little.
            Arriving::Beside(bytes) => {
                let from = bytes.len();
                bytes.resize(from + len, 0);
                array.copy_to(&mut bytes[from..]);
            }
        }
    }
}

pub fn now() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

fn mark(name: &str) {
    let _ = window().performance().map(|p| p.mark(name));
}

/// Starts reading `file[from..to]` of a file of `size` bytes: the whole file without a slice,
/// which costs the browser a round trip per call (2 s of 17 in a search through 2,000 files).
pub fn read_promise(file: &File, from: f64, to: f64, size: f64) -> Promise {
    let read = if from <= 0.0 && to >= size {
        Ok(file.array_buffer())
    } else {
        file.slice_with_f64_and_f64(from, to).map(|b| b.array_buffer())
    };
    read.unwrap_or_else(|e| Promise::reject(&e))
}

/// Starts reading `file[from..to]`.
fn read_slice(
    file: &File,
    from: f64,
    to: f64,
) -> impl std::future::Future<Output = Result<JsValue, JsValue>> {
    let blob = file.slice_with_f64_and_f64(from, to);
    let promise = blob.map(|b| b.array_buffer());
    async move {
        match promise {
            Ok(promise) => JsFuture::from(promise).await,
            Err(e) => Err(e),
        }
    }
}

/// What went wrong, from a JavaScript error or whatever else a promise was rejected with.
pub fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{error:?}"))
}

/// Lets the browser paint before the next long step.
pub async fn next_frame() {
    sleep(0).await;
}

/// Waits `ms` milliseconds (a timer: the page is free meanwhile).
pub async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}
