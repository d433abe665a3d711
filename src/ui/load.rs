//! Getting files into the viewer: a picker, a folder picker, or a drop of files and folders.
//! Files are read as bytes (`File.arrayBuffer()`, one copy into wasm memory), never as strings,
//! and nothing leaves the page.

use js_sys::{Array, Promise, Uint8Array};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DataTransfer, File, FileSystemDirectoryEntry, FileSystemEntry, FileSystemFileEntry};

use super::state::{Progress, Viewer};
use crate::model::GrowingTranscript;
use crate::normalize::beside::beside;
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
fn wanted(name: &str, in_folder: bool) -> bool {
    !in_folder || name.ends_with(".jsonl") || beside(name).is_some()
}

/// Everything a drop holds: files, and folders walked to the bottom.
pub async fn from_drop(transfer: DataTransfer) -> Vec<Named> {
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
    for entry in entries {
        walk(entry, String::new(), true, &mut out).await;
    }
    for file in loose {
        out.push(Named { name: file.name(), file });
    }
    out
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

/// Reads `files` in slices (one copy into wasm memory) and parses each slice while the next is
/// read, in steps that let the page paint; shows progress; loads them into the viewer.
pub async fn load(viewer: Viewer, files: Vec<Named>) {
    if files.is_empty() {
        return;
    }
    // `File.size` can cost a round trip to the browser process: ask once per file.
    let sizes: Vec<f64> = files.iter().map(|f| f.file.size()).collect();
    // A tab that runs out of memory dies without a word; refuse what cannot fit instead.
    let size: f64 = sizes.iter().sum();
    let limit = viewer.max_bytes.get_untracked();
    if size > limit {
        let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
        viewer.problems.set(vec![(
            names.join(", "),
            format!(
                "too large to open here: {:.0} MB; a browser tab can hold about {:.0} MB of transcripts with cctv. Open fewer files at once.",
                size / 1e6,
                limit / 1e6
            ),
        )]);
        return;
    }
    // Every byte is read once and parsed once.
    let total = size * 2.0;
    mark("cctv:load");
    let mut reading = 0.0;
    let mut parsing = 0.0;
    let mut done = 0.0;
    let mut last_yield = now();
    let mut transcripts = Vec::with_capacity(files.len());
    let mut side = Vec::new();
    let mut problems = Vec::new();
    // One read is always in flight: the next slice of this file, or the first of the next file,
    // so the browser reads (off the main thread) while this one is parsed.
    let first_slice = |index: usize| files.get(index).map(|f| read_slice(&f.file, 0.0, sizes[index]));
    let mut next = first_slice(0);
    for (index, Named { name, file }) in files.iter().enumerate() {
        let size = sizes[index];
        let Some(mut arriving) = Arriving::new(name, size) else {
            problems.push((name.clone(), format!("not enough memory to open its {:.0} MB", size / 1e6)));
            done += 2.0 * size;
            next = first_slice(index + 1);
            continue;
        };
        let mut failed = None;
        let mut at = 0.0;
        while let Some(pending) = next.take() {
            let started = now();
            let chunk = pending.await;
            reading += now() - started;
            at = (at + READ_STEP).min(size);
            next = if at < size { Some(read_slice(file, at, size)) } else { first_slice(index + 1) };
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
                        last_yield = now();
                    }
                    let started = now();
                    let caught_up = transcript.step(PARSE_STEP);
                    parsing += now() - started;
                    if caught_up {
                        break;
                    }
                }
            }
            if at >= size {
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
    let started = now();
    let mut workspace = normalize::assemble(transcripts, side);
    let normalizing = now() - started;
    workspace.rejected.extend(problems);
    // Linking and the first screen are separate tasks, so neither waits for the other.
    next_frame().await;
    viewer.progress.set(None);
    viewer.show(workspace);
    // For benchmarks and the curious: where the time went, as a mark in the Performance panel.
    mark(&format!("cctv:phases read {reading:.0} ms, parse {parsing:.0} ms, normalize {normalizing:.0} ms"));
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

fn now() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

fn mark(name: &str) {
    let _ = window().performance().map(|p| p.mark(name));
}

/// Starts reading `file[at..at + READ_STEP]`.
fn read_slice(
    file: &File,
    at: f64,
    size: f64,
) -> impl std::future::Future<Output = Result<JsValue, JsValue>> {
    let blob = file.slice_with_f64_and_f64(at, (at + READ_STEP).min(size));
    let promise = blob.map(|b| b.array_buffer());
    async move {
        match promise {
            Ok(promise) => JsFuture::from(promise).await,
            Err(e) => Err(e),
        }
    }
}

fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{error:?}"))
}

/// Lets the browser paint before the next long step.
pub async fn next_frame() {
    let promise = Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = JsFuture::from(promise).await;
}
