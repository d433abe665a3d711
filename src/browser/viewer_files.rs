//! What this viewer is made of, fetched from where it is served: its wasm-bindgen script, the
//! wasm beside it, the grammars and the script's snippets; or, in an app that bundles the npm
//! package, the package's `cctv-shared.js.txt` (the script with its snippets in it) and wasm,
//! wherever the bundler put them. A shared page (`export::to_html`) holds copies of them.

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::js_error::describe;
use crate::export::to_html::{snippet_paths, ViewerFiles};

#[wasm_bindgen]
extern "C" {
    type ImportMeta;
    /// `import.meta` of the wasm-bindgen script (this is written into it, not into a snippet).
    #[wasm_bindgen(thread_local_v2, js_namespace = import, js_name = meta)]
    static IMPORT_META: ImportMeta;
    #[wasm_bindgen(method, getter)]
    fn url(this: &ImportMeta) -> String;
}

// The package's copy of the viewer's script for a shared page (`cctv-shared.js.txt`, which
// `make package` writes) and its wasm, named the way bundlers follow: Vite and webpack serve
// each from wherever they put it. wasm-bindgen writes this module to
// `snippets/<crate>/inline<n>.js`, two folders below the package's root. (Trunk's site has no
// such files; it asks for them only if its own wasm is missing.)
#[wasm_bindgen(
    inline_js = "export function package_files() { return [new URL('../../cctv-shared.js.txt', import.meta.url).href, new URL('../../cctv_bg.wasm', import.meta.url).href]; }"
)]
extern "C" {
    fn package_files() -> js_sys::Array;
}

/// The address of the wasm-bindgen script: the files beside it are found from there.
pub(crate) fn script_url() -> String {
    IMPORT_META.with(ImportMeta::url)
}

/// The viewer's files, as its host serves them: beside its script (the site, the npm package in
/// a plain page), or else where a bundler put the package's (Vite, webpack, which fold the
/// script into their own).
pub(crate) async fn fetch() -> Result<ViewerFiles, String> {
    let from_file =
        web_sys::window().and_then(|w| w.location().protocol().ok()).is_some_and(|p| p == "file:");
    if from_file {
        return Err("this page cannot copy its own viewer (it was opened from a file)".into());
    }
    match beside_script().await? {
        Beside::Found(files) => Ok(files),
        Beside::Bundled(beside) => from_package().await.map_err(|package| {
            format!(
                "the viewer's files are neither beside its script ({beside}) nor in its package ({package})"
            )
        }),
    }
}

/// What is beside the script.
enum Beside {
    Found(ViewerFiles),
    /// Not the viewer's files: its script is in a bundle, whose address says why.
    Bundled(String),
}

/// wasm-bindgen names the wasm after its script (`cctv.js`, `cctv_bg.wasm`; Trunk's
/// `viewer-<hash>.js`, `viewer-<hash>_bg.wasm`), and the script imports its snippets from
/// beside it.
async fn beside_script() -> Result<Beside, String> {
    let script_url = script_url();
    // webpack writes the package's path on the build machine there.
    if !script_url.starts_with("http") {
        return Ok(Beside::Bundled(format!("the script is at {script_url}")));
    }
    let beside = |name: &str| {
        web_sys::Url::new_with_base(name, &script_url).map(|u| u.href()).map_err(|e| describe(&e))
    };
    let wasm_url = match script_url.split(['?', '#']).next().and_then(|u| u.strip_suffix(".js")) {
        Some(stem) => format!("{stem}_bg.wasm"),
        None => return Err(format!("{script_url} does not name a script")),
    };
    // Beside a bundle (Vite's, and its dev server's) there is no wasm named after it: asked
    // first, so that a bundle is not fetched for nothing.
    let wasm = match get(&wasm_url).await {
        Ok(response) => bytes(&response).await?,
        Err(e) if e.ends_with("HTTP 404") => return Ok(Beside::Bundled(e)),
        Err(e) => return Err(e),
    };
    if !wasm.starts_with(WASM) {
        // A dev server answers a missing file with its page.
        return Ok(Beside::Bundled(format!("{wasm_url} is not wasm")));
    }
    let script = text(&get(&script_url).await?).await?;
    let mut snippets = Vec::new();
    for path in snippet_paths(&script) {
        snippets.push((path.clone(), text(&get(&beside(&path)?).await?).await?));
    }
    // Without them code is shown plain.
    let grammars = grammars(&beside("grammars.packdump")?).await;
    Ok(Beside::Found(ViewerFiles { script, wasm, grammars, snippets }))
}

/// The package's script for a shared page, with its snippets already in it, and its wasm and
/// grammars, where the bundler put them.
async fn from_package() -> Result<ViewerFiles, String> {
    let files = package_files();
    let (Some(script_url), Some(wasm_url)) = (files.get(0).as_string(), files.get(1).as_string()) else {
        return Err("no addresses".into());
    };
    let script = text(&get(&script_url).await?).await?;
    let wasm = bytes(&get(&wasm_url).await?).await?;
    if !wasm.starts_with(WASM) {
        return Err(format!("{wasm_url} is not wasm"));
    }
    let grammars = grammars(&super::grammars::grammars_url()).await;
    Ok(ViewerFiles { script, wasm, grammars, snippets: Vec::new() })
}

/// How WebAssembly begins.
const WASM: &[u8] = b"\0asm";

/// The grammars at `url`, if they are there: a host that answers a missing file with a page of
/// its own is not giving grammars.
async fn grammars(url: &str) -> Option<Vec<u8>> {
    let response = get(url).await.ok()?;
    bytes(&response).await.ok().filter(|b| !b.starts_with(b"<"))
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
