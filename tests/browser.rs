//! Browser tests: `wasm-pack test --headless --chrome` (or `make test`) runs them in Chromium.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element appended to the body, so tests do not see each other's output.
fn fresh_host() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    host.unchecked_into()
}

#[wasm_bindgen_test]
fn app_shows_the_viewer_title() {
    let host = fresh_host();
    // Dropping the handle would unmount the app, so hold it until the assertion is done.
    let _mounted = leptos::mount::mount_to(host.clone(), cctv::ui::App);

    let text = host.text_content().unwrap_or_default();
    assert!(text.contains("cctv — Claude Code Transcript Viewer"), "page text was: {text}");
}

/// A real session, parsed by the wasm build through the JavaScript API, as a page would call it.
#[wasm_bindgen_test]
fn parse_transcript_reads_a_real_session_in_the_browser() {
    const SESSION: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/fixtures/moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl"
    ));
    let bytes = js_sys::Uint8Array::from(SESSION);
    let parsed = cctv::api::parse_transcript(bytes.into()).expect("parses");
    let get = |value: &wasm_bindgen::JsValue, key: &str| js_sys::Reflect::get(value, &key.into()).unwrap();

    let lines = js_sys::Array::from(&get(&parsed, "lines"));
    assert_eq!(lines.length(), 86);
    let census = get(&parsed, "census");
    let count = |key: &str| get(&census, key).as_f64().unwrap_or(0.0) as u32;
    assert_eq!(
        (count("user"), count("assistant"), count("system/api_error"), count("queue-operation")),
        (24, 25, 9, 14)
    );
    let first = lines.get(0);
    assert_eq!(get(&first, "line").as_f64(), Some(1.0));
    assert_eq!(get(&first, "status").as_string().as_deref(), Some("entry"));
}

/// Bad lines cross into JavaScript as data with their reason; the lines after them still parse.
#[wasm_bindgen_test]
fn parse_transcript_reports_bad_lines_with_their_reason() {
    let text = "// a comment\n{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"content\":\"hi\"}}\n{\"type\": broken\n";
    let parsed = cctv::api::parse_transcript(text.into()).expect("parses");
    let lines = js_sys::Array::from(&js_sys::Reflect::get(&parsed, &"lines".into()).unwrap());
    let field = |i: u32, key: &str| js_sys::Reflect::get(&lines.get(i), &key.into()).unwrap().as_string();
    assert_eq!(field(0, "status").as_deref(), Some("invalid"));
    assert_eq!(field(0, "reason").as_deref(), Some("comment line (starts with //)"));
    assert_eq!(field(1, "uuid").as_deref(), Some("u1"));
    assert_eq!(field(2, "status").as_deref(), Some("invalid"));
    assert!(field(2, "reason").unwrap().starts_with("not JSON"));
}

#[wasm_bindgen_test]
fn parse_transcript_refuses_a_number_with_an_error_not_a_panic() {
    let error = cctv::api::parse_transcript(42.into()).unwrap_err();
    let message: String = error.message().into();
    assert!(message.contains("Uint8Array"), "{message}");
}
