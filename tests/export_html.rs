//! A session shared as one HTML file, on a real fixture with its sub-agent and planted secrets:
//! the page's policy names its one script, the session comes back out of the page line for line,
//! and what was masked is in none of its forms anywhere in the file.

mod common;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use cctv::export::share::{html, ShareOptions};
use cctv::export::to_html::{
    bytes_from_page, files_from_page, ViewerFiles, GRAMMARS_ID, SESSION_ID, WASM_ID,
};
use cctv::normalize::{normalize, Input};
use common::planted::{line_with, noise, plant};
use sha2::{Digest, Sha256};

/// Stands in for the built viewer (its files are tested in the browser, tests/e2e/share.test.mjs).
fn viewer() -> ViewerFiles {
    ViewerFiles {
        script: "async function __wbg_init(m) {}\nexport function openShared() {}\n".into(),
        wasm: b"\0asm\x01\0\0\0".repeat(1000),
        grammars: Some(vec![7; 300]),
        snippets: Vec::new(),
    }
}

/// The text of the element `<script … id="{id}">…</script>`.
fn block<'a>(page: &'a str, id: &str) -> &'a str {
    let open = format!("id=\"{id}\">");
    let start = page.find(&open).unwrap_or_else(|| panic!("no #{id}")) + open.len();
    &page[start..start + page[start..].find("</script>").unwrap()]
}

fn session_with_secrets() -> (Vec<Input>, String, String) {
    let mut inputs = common::folder("moredip__session-share/samples/claude-code-projects");
    let token = format!("ghp_{}", noise(36, 7));
    let key = format!("sk-ant-api03-{}AA", noise(93, 8));
    let prompt = ["message", "content"];
    for (i, secret) in [(0, &token), (1, &key)] {
        let n = line_with(&inputs[i], &prompt);
        plant(&mut inputs[i], n, &prompt, secret);
    }
    assert!(inputs.iter().any(|i| i.name.contains("subagents")), "the fixture has a sub-agent");
    (inputs, token, key)
}

#[test]
fn a_shared_page_holds_the_masked_session_and_only_its_own_script() {
    let (inputs, token, key) = session_with_secrets();
    let shared = html(inputs.clone(), &ShareOptions::default(), &viewer()).unwrap();
    let page = &shared.text;
    assert_eq!(shared.masked, shared.findings.iter().filter(|f| f.certain).count());

    // The policy allows the one inline module script, by its hash, and no request anywhere.
    let policy_start = page.find("Content-Security-Policy\" content=\"").unwrap();
    let policy = &page[policy_start..page[policy_start..].find("\">").unwrap() + policy_start];
    assert!(policy.contains("default-src 'none'"), "{policy}");
    let script = block_of_module(page);
    let hash = BASE64.encode(Sha256::digest(script.as_bytes()));
    assert!(policy.contains(&format!("'sha256-{hash}'")), "{policy}");
    assert_eq!(page.matches("<script").count(), 4, "wasm, grammars, session, and the module");

    // The session comes back out whole: every file, every line.
    let files = files_from_page(block(page, SESSION_ID)).unwrap();
    assert_eq!(files.len(), inputs.len());
    for (before, after) in inputs.iter().zip(&files) {
        assert_eq!(before.name, after.name);
        let lines = |b: &[u8]| String::from_utf8_lossy(b).lines().count();
        assert_eq!(lines(&before.bytes), lines(&after.bytes), "{}", after.name);
    }
    let (ws_before, ws_after) = (normalize(inputs), normalize(files.clone()));
    assert_eq!(ws_before.sessions.len(), ws_after.sessions.len());
    assert_eq!(ws_before.sessions[0].agents.len(), ws_after.sessions[0].agents.len());
    let gunzipped_wasm = {
        use std::io::Read;
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&BASE64.decode(block(page, WASM_ID)).unwrap()[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    };
    assert_eq!(gunzipped_wasm, viewer().wasm);
    assert_eq!(bytes_from_page(block(page, GRAMMARS_ID)).unwrap(), vec![7; 300]);

    // Neither secret is anywhere: not in the page, not in the session unpacked, not in base64 at
    // any of its three alignments.
    let unpacked: String = files.iter().map(|f| String::from_utf8_lossy(&f.bytes).into_owned()).collect();
    for secret in [&token, &key] {
        assert!(!page.contains(secret.as_str()));
        assert!(!unpacked.contains(secret.as_str()), "the session still holds {secret}");
        for shift in 0..3 {
            let encoded = BASE64.encode(format!("{}{secret}", "x".repeat(shift)));
            let inner = &encoded[4..encoded.len() - 4];
            assert!(!page.contains(inner), "base64 of {secret} at {shift}");
        }
    }
    assert!(unpacked.contains("[REDACTED github-pat]") && unpacked.contains("[REDACTED anthropic-api-key]"));
}

/// The page's module script: what follows the last `<script type="module">`.
fn block_of_module(page: &str) -> &str {
    let open = "<script type=\"module\">";
    let start = page.rfind(open).unwrap() + open.len();
    &page[start..start + page[start..].find("</script>").unwrap()]
}

#[test]
fn what_the_caller_keeps_stays_and_a_viewer_that_would_break_the_page_is_refused() {
    let (inputs, token, key) = session_with_secrets();
    let options = ShareOptions { keep: vec!["github-pat".into()], ..Default::default() };
    let shared = html(inputs.clone(), &options, &viewer()).unwrap();
    let files = files_from_page(block(&shared.text, SESSION_ID)).unwrap();
    let unpacked: String = files.iter().map(|f| String::from_utf8_lossy(&f.bytes).into_owned()).collect();
    assert!(unpacked.contains(&token) && !unpacked.contains(&key));

    let mut bad = viewer();
    bad.script.push_str("const s = '</script><script>alert(1)</script>';");
    assert!(html(inputs.clone(), &options, &bad).unwrap_err().contains("</script"));
    let not_cctv = ViewerFiles { script: "export default 1;".into(), ..viewer() };
    assert!(html(inputs, &options, &not_cctv).is_err());
    assert!(files_from_page("not base64 at all!").unwrap_err().contains("damaged"));
}

#[test]
fn an_export_is_named_by_its_session_id_unless_that_is_masked() {
    use cctv::export::share::export_name;
    use cctv::redact::Scanner;
    let (inputs, _, _) = session_with_secrets();
    let ws = normalize(inputs.clone());
    let id = ws.sessions[0].session_id.clone().unwrap();
    assert_eq!(export_name(&ws, 0, &[], "html"), format!("session-{id}.html"));
    let findings = Scanner::new(&[id[..8].to_owned()]).unwrap().find(&inputs);
    let chosen: Vec<_> = findings.iter().filter(|f| f.text == id[..8]).collect();
    assert_eq!(export_name(&ws, 0, &chosen, "md"), "claude-code-session.md");
}
