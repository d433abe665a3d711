//! A folder opened through the File System Access API (Chromium) instead of a folder input: its
//! handle is kept, so a later visit reopens `~/.claude/projects` with one click and one
//! permission prompt. Browsers without the API keep the folder input. `www/folders.js` does the
//! browser's part.

use js_sys::Array;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::File;

use super::load::{self, describe, Named};
use super::state::Viewer;

#[wasm_bindgen(module = "/www/folders.js")]
extern "C" {
    #[wasm_bindgen(js_name = canPickFolder)]
    fn can_pick_folder() -> bool;
    #[wasm_bindgen(js_name = pickFolder, catch)]
    async fn pick_folder() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = keptFolder, catch)]
    async fn kept_folder() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = reopenFolder, catch)]
    async fn reopen_folder() -> Result<JsValue, JsValue>;
}

/// Whether folders are picked here with a handle that can be kept.
pub fn can_pick() -> bool {
    can_pick_folder()
}

/// The name of the folder a reader opened on an earlier visit, if one was kept.
pub async fn kept() -> Option<String> {
    kept_folder().await.ok()?.as_string()
}

/// Asks for a folder and opens it (nothing when the reader cancels).
pub async fn pick(viewer: Viewer) {
    match pick_folder().await {
        Ok(files) if files.is_null() => {}
        Ok(files) => load::open(viewer, named(&files), true).await,
        Err(e) => said(viewer, "The folder", &describe(&e)),
    }
}

/// Opens the folder kept from an earlier visit, once the reader allows it.
pub async fn reopen(viewer: Viewer, name: String) {
    match reopen_folder().await {
        Ok(files) => load::open(viewer, named(&files), true).await,
        Err(e) => said(viewer, &name, &describe(&e)),
    }
}

fn said(viewer: Viewer, what: &str, reason: &str) {
    viewer.problems.update(|p| p.push((what.to_owned(), format!("could not be opened: {reason}"))));
}

/// `[path, File]` pairs (what `www/folders.js` gives) as the files of a folder.
pub(super) fn named(pairs: &JsValue) -> Vec<Named> {
    Array::from(pairs)
        .iter()
        .filter_map(|pair| {
            let pair = Array::from(&pair);
            let name = pair.get(0).as_string()?;
            let file = pair.get(1).dyn_into::<File>().ok()?;
            Some(Named { name, file })
        })
        .collect()
}
