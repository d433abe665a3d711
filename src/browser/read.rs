//! Files as the reader hands them over (a picker, a folder picker, a drop of files and folders)
//! and their bytes, read in pieces. Files are read as bytes (`File.arrayBuffer()`, one copy into
//! wasm memory), never as strings, and nothing leaves the page.

use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DataTransfer, File, FileSystemDirectoryEntry, FileSystemEntry, FileSystemFileEntry};

use super::js_error::describe;
use super::timers::PageTurns;
use crate::normalize::beside::beside;
use crate::normalize::pace::Pause;

/// A file to read, with the name it should carry (its path inside a dropped folder).
pub(crate) struct Named {
    pub(crate) name: String,
    pub(crate) file: File,
}

/// The files of a picker (`<input type=file>`, with `webkitdirectory` for folders), as an array
/// taken from its `FileList` (which the picker empties as soon as it is read). Named a step at a
/// time: each name is a few calls into the browser, and a folder of 20,000 files took 0.2 s.
pub(crate) async fn from_file_list(files: Array) -> Vec<Named> {
    let mut turns = PageTurns::with_budget(FILE_CALLS_BUDGET_MS);
    let mut named = Vec::new();
    for file in files.iter() {
        if turns.due() {
            turns.pause().await;
        }
        let file: File = file.unchecked_into();
        let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
            .ok()
            .and_then(|v| v.as_string())
            .filter(|p| !p.is_empty());
        let in_folder = relative.is_some();
        let name = relative.map(strip_top_folder).unwrap_or_else(|| file.name());
        if wanted(&name, in_folder) {
            named.push(Named { name, file });
        }
    }
    named
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
pub(crate) fn wanted(name: &str, in_folder: bool) -> bool {
    !in_folder || name.ends_with(".jsonl") || beside(name).is_some()
}

/// Everything a drop holds: files, and folders walked to the bottom; and whether it held a folder.
pub(crate) async fn from_drop(transfer: DataTransfer) -> (Vec<Named>, bool) {
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

/// How long asking files their names or sizes runs before the page's next task. Shorter than
/// the task budget: `File.size` of a file from a folder picker is a synchronous round trip to the
/// browser process (20,000 took 5.5 s in Chromium, 0.3 ms each), and one in thousands waits
/// 10-25 ms; naming them made tasks of 55-59 ms with a third of that in the browser's own work.
const FILE_CALLS_BUDGET_MS: f64 = 20.0;

/// The sizes of `files`, asked a few ms at a time with the page's tasks between; `None` once
/// `stopped` says the job was given up.
pub(crate) async fn sizes(files: &[Named], stopped: impl Fn() -> bool) -> Option<Vec<f64>> {
    let mut sizes = Vec::with_capacity(files.len());
    let mut turns = PageTurns::with_budget(FILE_CALLS_BUDGET_MS);
    for f in files {
        if turns.due() {
            turns.pause().await;
            if stopped() {
                return None;
            }
        }
        sizes.push(f.file.size());
    }
    Some(sizes)
}

/// Starts reading `file[from..to]` of a file of `size` bytes: the whole file without a slice,
/// which costs the browser a round trip per call (2 s of 17 in a search through 2,000 files).
pub(crate) fn read_promise(file: &File, from: f64, to: f64, size: f64) -> Promise {
    let read = if from <= 0.0 && to >= size {
        Ok(file.array_buffer())
    } else {
        file.slice_with_f64_and_f64(from, to).map(|b| b.array_buffer())
    };
    read.unwrap_or_else(|e| Promise::reject(&e))
}

/// Starts reading `file[from..to]` of a file of `size` bytes; the future is its `ArrayBuffer`.
pub(crate) fn read_slice(file: &File, from: f64, to: f64, size: f64) -> JsFuture {
    JsFuture::from(read_promise(file, from, to, size))
}

/// `file[from..to]`, read.
pub(crate) async fn read_bytes(file: &File, from: f64, to: f64) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(read_promise(file, from, to, file.size())).await.map_err(|e| describe(&e))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
