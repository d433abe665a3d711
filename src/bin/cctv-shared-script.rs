//! Writes the npm package's `cctv-shared.js.txt`: its wasm-bindgen script (`cctv.js`) with the
//! snippets it imports inlined, which is the script a shared HTML page holds
//! (`export::to_html`). A page that bundles cctv (Vite, webpack) has no `cctv.js` or snippets
//! of its own to copy into a shared page; the package names this file through
//! `new URL(…, import.meta.url)`, so the bundler serves it as it is. The name does not end in
//! `.js`, so that no bundler transforms or minifies it (the shared page calls the script's own
//! names).
//!
//!   cargo run --bin cctv-shared-script -- pkg

use std::path::Path;

use cctv::export::to_html::{inline_snippets, snippet_paths};

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: cctv-shared-script PACKAGE_DIR");
        std::process::exit(2);
    };
    if let Err(e) = write(Path::new(&dir)) {
        eprintln!("cctv-shared-script: {e}");
        std::process::exit(1);
    }
}

fn write(dir: &Path) -> Result<(), String> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let script = read("cctv.js")?;
    let mut snippets = Vec::new();
    for path in snippet_paths(&script) {
        let source = read(path.trim_start_matches("./"))?;
        snippets.push((path, source));
    }
    let shared = inline_snippets(&script, &snippets)?;
    std::fs::write(dir.join("cctv-shared.js.txt"), shared).map_err(|e| format!("cctv-shared.js.txt: {e}"))
}
