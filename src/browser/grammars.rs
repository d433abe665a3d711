//! The syntax-highlighting grammars, fetched from beside the wasm.

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::js_error::describe;
use crate::text::highlight::load_grammars;

// Where the grammars are: beside the wasm, whoever serves it (the site's dist/, the npm package,
// a bundler that follows `new URL(…, import.meta.url)`). wasm-bindgen writes this module to
// `snippets/<crate>/inline<n>.js`, two folders below.
#[wasm_bindgen(
    inline_js = "export function grammars_url() { return new URL('../../grammars.packdump', import.meta.url).href; }"
)]
extern "C" {
    /// Where the grammars are served.
    pub(crate) fn grammars_url() -> String;
}

/// Fetches the grammars and loads them into the highlighter.
pub(crate) async fn fetch() -> Result<(), String> {
    let url = grammars_url();
    let failed = |e: JsValue| format!("{url}: {}", describe(&e));
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(&url)).await.map_err(failed)?;
    let response: web_sys::Response = response.unchecked_into();
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(failed)?).await.map_err(failed)?;
    load_grammars(&Uint8Array::new(&buffer).to_vec())
}
