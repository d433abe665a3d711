//! What a browser call that failed says, for the reader's messages.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What went wrong, from a JavaScript error or whatever else a promise was rejected with.
pub(crate) fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{error:?}"))
}
