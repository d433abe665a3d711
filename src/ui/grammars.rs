//! The syntax-highlighting grammars, fetched once from beside the wasm: the first screen does not
//! wait for them, and rows are drawn again, highlighted, when they arrive.

use js_sys::Uint8Array;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::load::describe;
use super::state::Viewer;
use crate::text::highlight::{grammars_loaded, load_grammars};

// Where the grammars are: beside the wasm, whoever serves it (the site's dist/, the npm package,
// a bundler that follows `new URL(…, import.meta.url)`). wasm-bindgen writes this module to
// `snippets/<crate>/inline<n>.js`, two folders below.
#[wasm_bindgen(
    inline_js = "export function grammars_url() { return new URL('../../grammars.packdump', import.meta.url).href; }"
)]
extern "C" {
    /// Where the grammars are served.
    pub fn grammars_url() -> String;
}

/// Fetches the grammars unless they are loaded, then sets `viewer.grammars`.
pub fn fetch(viewer: Viewer) {
    if grammars_loaded() {
        viewer.grammars.set(true);
        return;
    }
    // A shared page holds its grammars, or goes without: it fetches nothing.
    if super::shared::is_shared_page() {
        return;
    }
    leptos::task::spawn_local(async move {
        match load().await {
            Ok(()) => viewer.grammars.set(true),
            // Code is shown plain; everything else works.
            Err(e) => web_sys::console::warn_1(&format!("cctv: no syntax highlighting: {e}").into()),
        }
    });
}

async fn load() -> Result<(), String> {
    let url = grammars_url();
    let failed = |e: JsValue| format!("{url}: {}", describe(&e));
    let response = JsFuture::from(window().fetch_with_str(&url)).await.map_err(failed)?;
    let response: web_sys::Response = response.unchecked_into();
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(failed)?).await.map_err(failed)?;
    load_grammars(&Uint8Array::new(&buffer).to_vec())
}
