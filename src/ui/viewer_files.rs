//! What this viewer is made of, fetched from where it is served: its wasm-bindgen script, the
//! wasm beside it, the grammars and the script's snippets. A shared page
//! (`present::to_html`) holds copies of them.

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::load::describe;
use crate::present::to_html::{snippet_paths, ViewerFiles};

#[wasm_bindgen]
extern "C" {
    type ImportMeta;
    /// `import.meta` of the wasm-bindgen script (this is written into it, not into a snippet).
    #[wasm_bindgen(thread_local_v2, js_namespace = import, js_name = meta)]
    static IMPORT_META: ImportMeta;
    #[wasm_bindgen(method, getter)]
    fn url(this: &ImportMeta) -> String;
}

/// Why a bundled viewer cannot copy itself: Vite and webpack fold its script into theirs and give
/// the wasm an address of their own, so nothing is beside the script to copy.
const BUNDLED: &str =
    "this page bundles cctv (Vite, webpack), so its files are not where the package has them; \
     a shared HTML page needs cctv.js and cctv_bg.wasm served as they are";

/// The address of the wasm-bindgen script: the files beside it are found from there.
pub fn script_url() -> String {
    IMPORT_META.with(ImportMeta::url)
}

/// The viewer's files, as its host serves them. wasm-bindgen names the wasm after its script
/// (`cctv.js`, `cctv_bg.wasm`; Trunk's `viewer-<hash>.js`, `viewer-<hash>_bg.wasm`).
pub async fn fetch() -> Result<ViewerFiles, String> {
    let script_url = script_url();
    if !script_url.starts_with("http") {
        // webpack writes the package's path on the build machine into the bundle as its address.
        let from_file =
            web_sys::window().and_then(|w| w.location().protocol().ok()).is_some_and(|p| p == "file:");
        let why = if from_file {
            "this page cannot copy its own viewer (it was opened from a file)".into()
        } else if script_url.starts_with("file:") {
            BUNDLED.into()
        } else {
            format!("this page cannot copy its own viewer (its script is at {script_url})")
        };
        return Err(why);
    }
    let beside = |name: &str| {
        web_sys::Url::new_with_base(name, &script_url).map(|u| u.href()).map_err(|e| describe(&e))
    };
    let wasm_url = match script_url.split(['?', '#']).next().and_then(|u| u.strip_suffix(".js")) {
        Some(stem) => format!("{stem}_bg.wasm"),
        None => return Err(format!("{script_url} does not name a script")),
    };
    let script = text(&get(&script_url).await?).await?;
    let mut snippets = Vec::new();
    for path in snippet_paths(&script) {
        snippets.push((path.clone(), text(&get(&beside(&path)?).await?).await?));
    }
    let wasm = match get(&wasm_url).await {
        Ok(response) => bytes(&response).await?,
        // Under a bundler the wasm is not beside the script.
        Err(e) if e.ends_with("HTTP 404") => return Err(format!("{BUNDLED} ({e})")),
        Err(e) => return Err(e),
    };
    // A dev server answers a missing file with its page.
    if !wasm.starts_with(b"\0asm") {
        return Err(format!("{BUNDLED} ({wasm_url} is not wasm)"));
    }
    // Without them code is shown plain.
    let grammars = match get(&beside("grammars.packdump")?).await {
        // A host that answers a missing file with a page of its own is not giving grammars.
        Ok(response) => bytes(&response).await.ok().filter(|b| !b.starts_with(b"<")),
        Err(_) => None,
    };
    Ok(ViewerFiles { script, wasm, grammars, snippets })
}

async fn get(url: &str) -> Result<web_sys::Response, String> {
    let failed = |e: JsValue| format!("{url}: {}", describe(&e));
    let response =
        JsFuture::from(web_sys::window().ok_or("no window")?.fetch_with_str(url)).await.map_err(failed)?;
    let response: web_sys::Response = response.unchecked_into();
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    Ok(response)
}

async fn text(response: &web_sys::Response) -> Result<String, String> {
    let promise = response.text().map_err(|e| describe(&e))?;
    JsFuture::from(promise).await.map_err(|e| describe(&e))?.as_string().ok_or_else(|| "not text".into())
}

async fn bytes(response: &web_sys::Response) -> Result<Vec<u8>, String> {
    let promise = response.array_buffer().map_err(|e| describe(&e))?;
    Ok(Uint8Array::new(&JsFuture::from(promise).await.map_err(|e| describe(&e))?).to_vec())
}
