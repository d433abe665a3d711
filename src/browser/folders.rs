//! Folders and files opened through the File System Access API (Chromium) instead of a folder
//! input: their handles are kept in IndexedDB, so a later visit reopens `~/.claude/projects` (or
//! follows the same session again) with one click and one permission prompt. Browsers without
//! the API keep the folder input. `www/folders.js` does the browser's part; this is its Rust
//! face, errors described and files named.

use std::collections::HashSet;
use std::future::Future;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::File;

use super::js_error::describe;
use super::read::{wanted, Named};

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
    #[wasm_bindgen(js_name = canFollow)]
    fn can_follow() -> bool;
    #[wasm_bindgen(js_name = pickToFollow, catch)]
    async fn pick_to_follow() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = keepFollowed, catch)]
    async fn keep_followed(handle: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = keptFollowed, catch)]
    async fn kept_followed() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = reopenFollowed, catch)]
    async fn reopen_followed() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = followedFiles, catch)]
    async fn followed_files(handle: &JsValue, chosen: Option<String>) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = sessionNames, catch)]
    async fn session_names(handle: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = newestSession, catch)]
    async fn newest_session(handle: &JsValue, names: Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = onLaunch)]
    fn on_launch(open: &Closure<dyn FnMut(Array)>);
}

/// Whether folders are picked here with a handle that can be kept.
pub(crate) fn can_pick() -> bool {
    can_pick_folder()
}

/// Asks for a folder (and keeps it): its files, or `None` when the reader cancels.
pub(crate) async fn pick() -> Result<Option<Vec<Named>>, String> {
    let files = pick_folder().await.map_err(|e| describe(&e))?;
    Ok((!files.is_null()).then(|| named(&files)))
}

/// The name of the folder a reader opened on an earlier visit, if one was kept.
pub(crate) async fn kept() -> Option<String> {
    kept_folder().await.ok()?.as_string()
}

/// The files of the folder kept from an earlier visit, once the reader allows it.
pub(crate) async fn reopen() -> Result<Vec<Named>, String> {
    reopen_folder().await.map(|files| named(&files)).map_err(|e| describe(&e))
}

/// What is followed: a project folder (its newest session, with its sub-agents), or a session's
/// file (the installed app opened with it).
pub(crate) struct Followed(JsValue);

impl Followed {
    /// Whether this browser can follow a file as it grows.
    pub(crate) fn can() -> bool {
        can_follow()
    }

    /// Asks for a project folder to follow (and keeps it); `None` when the reader cancels.
    pub(crate) async fn pick() -> Result<Option<Followed>, String> {
        let handle = pick_to_follow().await.map_err(|e| describe(&e))?;
        Ok((!handle.is_null()).then_some(Followed(handle)))
    }

    /// The name of what was followed on an earlier visit.
    pub(crate) async fn kept_name() -> Option<String> {
        kept_followed().await.ok().and_then(|n| n.as_string())
    }

    /// What was followed on an earlier visit, once the reader allows reading it again.
    pub(crate) async fn reopen() -> Result<Followed, String> {
        reopen_followed().await.map(Followed).map_err(|e| describe(&e))
    }

    /// Has `open` follow each file the page is handed from the desktop (cctv installed as an
    /// app, "Open with"), kept first as the one followed last.
    pub(crate) fn on_launch<F: Future<Output = ()> + 'static>(open: impl Fn(Followed) -> F + 'static) {
        let open = Rc::new(open);
        let launched = Closure::<dyn FnMut(Array)>::new(move |handles: Array| {
            let handle = handles.get(0);
            let open = open.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let _ = keep_followed(&handle).await;
                open(Followed(handle)).await;
            });
        });
        on_launch(&launched);
        // launchQueue may hand over files at any time the page lives.
        launched.forget();
    }

    pub(crate) fn name(&self) -> Option<String> {
        js_sys::Reflect::get(&self.0, &"name".into()).ok()?.as_string()
    }

    /// The followed session's files now, each with the name it is shown by. `chosen` is the
    /// session's file name, once known: a folder's newest session is chosen on the first call.
    pub(crate) async fn files(&self, chosen: &Option<String>) -> Result<Vec<Named>, String> {
        let pairs = followed_files(&self.0, chosen.clone()).await.map_err(|e| describe(&e))?;
        let mut seen = HashSet::new();
        let mut files = named(&pairs);
        files.retain(|f| wanted(&f.name, true) && seen.insert(f.name.clone()));
        Ok(files)
    }

    /// The names of the sessions in a followed folder (none when a file is followed); `None`
    /// when the folder cannot be listed now.
    pub(crate) async fn sessions(&self) -> Option<HashSet<String>> {
        let names = session_names(&self.0).await.ok()?;
        Some(Array::from(&names).iter().filter_map(|name| name.as_string()).collect())
    }

    /// Of `names` (sessions in the folder), the one written to last, leaving out empty files.
    pub(crate) async fn newest(&self, names: &[String]) -> Option<String> {
        newest_session(&self.0, names.iter().map(JsValue::from).collect()).await.ok()?.as_string()
    }
}

/// `[path, File]` pairs (what `www/folders.js` gives) as the files of a folder.
fn named(pairs: &JsValue) -> Vec<Named> {
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
