//! A session as one self-contained HTML file: the viewer itself (its wasm-bindgen script inline,
//! its wasm gzip'ed) and the session's files, gzip'ed, in data blocks of the page, under a
//! Content-Security-Policy that lets nothing be fetched. The reader opens it from `file://` or
//! any host and sees the viewer with the session, with no install and no network.
//!
//! The page's one script is the wasm-bindgen script followed by a few lines that decompress the
//! wasm (`DecompressionStream`), start it, and call its `openShared`, which reads the session
//! from the page ([`files_from_page`], through `ui::shared`). Its hash is in the policy, so no
//! other script can run.

use std::io::{Read, Write};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use flate2::{read::GzDecoder, write::GzEncoder, Compression};
use sha2::{Digest, Sha256};

use crate::normalize::Input;

/// What a viewer is made of, as its host serves it.
pub struct ViewerFiles {
    /// The wasm-bindgen ES module (`cctv.js`, `viewer-<hash>.js`).
    pub script: String,
    pub wasm: Vec<u8>,
    /// The syntax-highlighting grammars (`grammars.packdump`), when the host has them.
    pub grammars: Option<Vec<u8>>,
    /// The modules the script imports from beside it ([`snippet_paths`]), each with its source.
    pub snippets: Vec<(String, String)>,
}

/// The ids of the page's data blocks.
pub const WASM_ID: &str = "cctv-wasm";
pub const GRAMMARS_ID: &str = "cctv-grammars";
pub const SESSION_ID: &str = "cctv-session";

/// The full-page styles of the site (the viewer adds its own).
const PAGE_CSS: &str = include_str!("../../www/page.css");

/// Runs after the wasm-bindgen script, in the same module: `__wbg_init` and `openShared` are its.
const START: &str = r#"
// cctv: start the viewer on the session this file holds (src/export/to_html.rs).
const block = (id) => Uint8Array.from(atob(document.getElementById(id).textContent.trim()), (c) => c.charCodeAt(0));
const gunzip = (bytes) => new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
try {
  await __wbg_init({ module_or_path: await gunzip(block("cctv-wasm")) });
  openShared();
} catch (e) {
  document.body.textContent = `cctv could not start in this browser: ${e}`;
}
"#;

/// The HTML document showing `files` (already masked) with `viewer`; `title` names it.
pub fn document(files: &[Input], viewer: &ViewerFiles, title: &str) -> Result<String, String> {
    if !viewer.script.contains("__wbg_init") || !viewer.script.contains("openShared") {
        return Err("the viewer's script is not a wasm-bindgen module of cctv".into());
    }
    if !viewer.wasm.starts_with(b"\0asm") {
        return Err("the viewer's wasm is not WebAssembly".into());
    }
    let script = format!("{}\n{START}", inline_snippets(&viewer.script, &viewer.snippets)?);
    // What a browser hashes is the script as it parsed it, line breaks made `\n`.
    let script = script.replace("\r\n", "\n").replace('\r', "\n");
    for needle in ["</script", "<!--"] {
        if script.to_ascii_lowercase().contains(needle) {
            return Err(format!("the viewer's script holds {needle:?}, which would end its <script>"));
        }
    }
    let hash = BASE64.encode(Sha256::digest(script.as_bytes()));
    let policy = format!(
        "default-src 'none'; script-src 'sha256-{hash}' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; \
         img-src data: blob:; base-uri 'none'; form-action 'none'"
    );
    let block = |id: &str, bytes: &[u8]| {
        format!("<script type=\"application/octet-stream\" id=\"{id}\">{}</script>\n", BASE64.encode(bytes))
    };
    let mut out = String::new();
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n"));
    // Nor a look-up or a referrer for the links in the session, which the policy does not cover.
    out.push_str("<meta http-equiv=\"x-dns-prefetch-control\" content=\"off\">\n");
    out.push_str("<meta name=\"referrer\" content=\"no-referrer\">\n");
    out.push_str("<meta name=\"generator\" content=\"cctv\">\n");
    out.push_str(&format!("<title>{} — cctv</title>\n", escape(title)));
    out.push_str("<link rel=\"icon\" href=\"data:,\">\n");
    out.push_str(&format!("<style>{PAGE_CSS}</style>\n</head>\n<body>\n"));
    out.push_str(&block(WASM_ID, &gzip(&viewer.wasm)));
    if let Some(grammars) = &viewer.grammars {
        out.push_str(&block(GRAMMARS_ID, &gzip(grammars)));
    }
    out.push_str(&block(SESSION_ID, &gzip(&pack(files)?)));
    out.push_str(&format!("<script type=\"module\">{script}</script>\n</body>\n</html>\n"));
    Ok(out)
}

/// The modules the wasm-bindgen `script` imports from beside it (`./snippets/…`, what
/// `#[wasm_bindgen(module)]` and `inline_js` write), once each: a shared page holds them inline,
/// since it can fetch nothing.
pub fn snippet_paths(script: &str) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    for (_, path) in script.lines().filter_map(snippet_import) {
        if !paths.iter().any(|p| p == path) {
            paths.push(path.to_owned());
        }
    }
    paths
}

/// What a snippet import binds.
enum Binding<'a> {
    /// `import { a, b as c } from …`: the names between the braces.
    Names(&'a str),
    /// `import * as x from …`.
    Namespace(&'a str),
}

/// A line `import { a, b as c } from './snippets/…';` or `import * as x from "./snippets/…"`, as
/// what it binds and the path.
fn snippet_import(line: &str) -> Option<(Binding<'_>, &str)> {
    let rest = line.trim().strip_prefix("import")?.trim_start();
    let (binding, rest) = match rest.strip_prefix('{') {
        Some(names) => {
            let (names, rest) = names.split_once('}')?;
            (Binding::Names(names), rest)
        }
        None => {
            let (name, rest) = rest.strip_prefix("* as ")?.split_once(char::is_whitespace)?;
            (Binding::Namespace(name), rest)
        }
    };
    let path = rest.trim().strip_prefix("from")?.trim().trim_end_matches(';');
    let path = path.strip_prefix(['\'', '"'])?.strip_suffix(['\'', '"'])?;
    path.starts_with("./snippets/").then_some((binding, path))
}

/// `script` with its snippet imports replaced by the snippets themselves: each run once, in a
/// function of its own (so its names cannot meet the script's) that returns what it exports,
/// and each import bound to that. A script without snippet imports is given back as it is, so
/// the npm package's `cctv-shared.js.txt` (made by this, `src/bin/cctv-shared-script.rs`) serves
/// with no snippets.
pub fn inline_snippets(script: &str, snippets: &[(String, String)]) -> Result<String, String> {
    let mut out = String::with_capacity(script.len());
    let mut done: Vec<&str> = Vec::new();
    for line in script.split_inclusive('\n') {
        let Some((binding, path)) = snippet_import(line) else {
            out.push_str(line);
            continue;
        };
        let module = match done.iter().position(|p| *p == path) {
            Some(n) => format!("__cctv_snippet{n}"),
            None => {
                let (_, source) = snippets
                    .iter()
                    .find(|(p, _)| p == path)
                    .ok_or_else(|| format!("the viewer's script imports {path}, which is missing"))?;
                let module = format!("__cctv_snippet{}", done.len());
                out.push_str(&format!("const {module} = {};\n", run_once(path, source)?));
                done.push(path);
                module
            }
        };
        match binding {
            Binding::Namespace(name) => out.push_str(&format!("const {name} = {module};\n")),
            Binding::Names(names) => {
                let bound: Vec<String> = names
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(|n| match n.split_once(" as ") {
                        Some((theirs, ours)) => format!("{}: {}", theirs.trim(), ours.trim()),
                        None => n.to_owned(),
                    })
                    .collect();
                out.push_str(&format!("const {{ {} }} = {module};\n", bound.join(", ")));
            }
        }
    }
    Ok(out)
}

/// A snippet module as an expression: a function that runs it and returns what it exports.
fn run_once(path: &str, source: &str) -> Result<String, String> {
    let (mut body, mut exported) = (String::new(), Vec::new());
    for line in source.lines() {
        let code = line.trim_start();
        if ["import ", "export {", "export *", "export default"].iter().any(|p| code.starts_with(p)) {
            return Err(format!("{path} is not a module of plain declarations: {line}"));
        }
        if let Some(declaration) = code.strip_prefix("export ") {
            let name = declaration
                .trim_start_matches("async ")
                .split_once(' ')
                .map(|(_, rest)| rest.trim_start_matches('*').trim_start())
                .and_then(|rest| rest.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).next())
                .filter(|name| !name.is_empty())
                .ok_or_else(|| format!("{path}: cannot tell what this exports: {line}"))?;
            exported.push(name.to_owned());
            body.push_str(declaration);
        } else {
            body.push_str(line);
        }
        body.push('\n');
    }
    Ok(format!("(() => {{\n{body}return {{ {} }};\n}})()", exported.join(", ")))
}

/// The files a shared page holds, from the text of its session block.
pub fn files_from_page(block: &str) -> Result<Vec<Input>, String> {
    unpack(&bytes_from_page(block).map_err(|e| format!("the session is damaged: {e}"))?)
}

/// The bytes of a shared page's data block (the session's or the grammars'), from its text.
pub fn bytes_from_page(block: &str) -> Result<Vec<u8>, String> {
    let packed = BASE64.decode(block.trim()).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    GzDecoder::new(&packed[..]).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// Files as one byte string: for each, the length of its name (u32, little-endian), the name,
/// the length of its bytes, the bytes.
pub fn pack(files: &[Input]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(files.iter().map(|f| f.name.len() + f.bytes.len() + 8).sum());
    for file in files {
        for part in [file.name.as_bytes(), &file.bytes] {
            let len = u32::try_from(part.len()).map_err(|_| format!("{} is over 4 GB", file.name))?;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(part);
        }
    }
    Ok(out)
}

pub(crate) fn unpack(mut bytes: &[u8]) -> Result<Vec<Input>, String> {
    let mut files = Vec::new();
    while !bytes.is_empty() {
        let name = String::from_utf8_lossy(take(&mut bytes)?).into_owned();
        files.push(Input { name, bytes: take(&mut bytes)?.to_vec() });
    }
    Ok(files)
}

/// The next length-prefixed part of `bytes`.
fn take<'a>(bytes: &mut &'a [u8]) -> Result<&'a [u8], String> {
    let damaged = || "the session is damaged: it ends inside a file".to_string();
    let len = u32::from_le_bytes(bytes.get(..4).ok_or_else(damaged)?.try_into().expect("4 bytes")) as usize;
    let end = len.checked_add(4).ok_or_else(damaged)?;
    let part = bytes.get(4..end).ok_or_else(damaged)?;
    *bytes = &bytes[end..];
    Ok(part)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_are_held_inline_run_once_under_the_names_the_script_imports() {
        let script = "import { grammars_url } from './snippets/cctv-1a/inline0.js';\n\
                      import { pick as pick1, keep } from './snippets/cctv-1a/www/folders.js';\n\
                      import * as import1 from \"./snippets/cctv-1a/www/folders.js\"\n\
                      import * as other from 'elsewhere.js';\nconst x = grammars_url();\n";
        assert_eq!(
            snippet_paths(script),
            ["./snippets/cctv-1a/inline0.js", "./snippets/cctv-1a/www/folders.js"]
        );
        let snippets = vec![
            ("./snippets/cctv-1a/inline0.js".into(), "export function grammars_url() { return 1; }".into()),
            (
                "./snippets/cctv-1a/www/folders.js".into(),
                "// folders\nconst db = 2;\nexport async function pick() {\n  return db;\n}\nexport const keep = () => db;".into(),
            ),
        ];
        let inlined = inline_snippets(script, &snippets).unwrap();
        assert!(!inlined.contains("./snippets/"), "{inlined}");
        assert!(
            inlined.starts_with("const __cctv_snippet0 = (() => {\nfunction grammars_url()"),
            "{inlined}"
        );
        assert!(
            inlined.contains("return { grammars_url };\n})();\nconst { grammars_url } = __cctv_snippet0;"),
            "{inlined}"
        );
        assert!(inlined.contains(
            "async function pick() {\n  return db;\n}\nconst keep = () => db;\nreturn { pick, keep };"
        ));
        assert!(inlined
            .contains("const { pick: pick1, keep } = __cctv_snippet1;\nconst import1 = __cctv_snippet1;\n"));
        assert_eq!(inlined.matches("const db = 2;").count(), 1, "each snippet runs once");
        assert!(inlined.contains("import * as other from 'elsewhere.js';\nconst x = grammars_url();"));
        assert!(inline_snippets(script, &snippets[..1]).unwrap_err().contains("folders.js"));
    }

    #[test]
    fn files_pack_and_unpack_whole_and_a_cut_pack_is_an_error() {
        let files = vec![
            Input { name: "a/b.jsonl".into(), bytes: b"{}\n{\"x\":1}\n".to_vec() },
            Input { name: "empty".into(), bytes: Vec::new() },
            Input { name: "bin".into(), bytes: vec![0, 255, 10, 13] },
        ];
        let packed = pack(&files).unwrap();
        let back = unpack(&packed).unwrap();
        assert_eq!(
            back.iter().map(|f| (&f.name, &f.bytes)).collect::<Vec<_>>(),
            files.iter().map(|f| (&f.name, &f.bytes)).collect::<Vec<_>>()
        );
        assert!(unpack(&packed[..packed.len() - 1]).unwrap_err().contains("damaged"));
    }
}
