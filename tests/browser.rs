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
    let _mounted = leptos::mount::mount_to(host.clone(), || view! { <cctv::ui::App /> });

    let text = host.text_content().unwrap_or_default();
    assert!(text.contains("cctv — Claude Code Transcript Viewer"), "page text was: {text}");
    assert!(text.contains("nothing is uploaded"), "page text was: {text}");
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

#[wasm_bindgen_test]
fn the_raw_finder_agrees_with_the_obvious_answer_in_wasm_simd() {
    use cctv::query::raw_find::RawFinder;
    // Natively the finder runs its u64 path; here it runs wasm SIMD: the same answers, at every
    // position of a needle in haystacks longer than one SIMD step, in either case.
    for len in 0..48 {
        for at in 0..len {
            for (needle, case_sensitive) in [("enumerate", false), ("ZqXj", false), ("a b", true)] {
                if at + needle.len() > len {
                    continue;
                }
                let mut haystack = vec![b'.'; len];
                haystack[at..at + needle.len()].copy_from_slice(needle.to_ascii_uppercase().as_bytes());
                let finder = RawFinder::new(needle, case_sensitive).unwrap();
                let expected = !case_sensitive || needle == needle.to_ascii_uppercase();
                assert_eq!(finder.is_in(&haystack), expected, "{needle:?} at {at} of {len}");
                haystack[at + needle.len() - 1] = b'#';
                assert!(!finder.is_in(&haystack), "{needle:?} cut at {at} of {len}");
            }
        }
    }
}

// ---- Components, mounted in a real browser ----------------------------------------------------

use cctv::normalize::Input;
use leptos::prelude::*;

/// Lets Leptos apply pending updates to the DOM.
async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Mounts the viewer showing `files` in a fresh, sized element; returns the element.
async fn viewer(files: Vec<(&str, String)>) -> web_sys::HtmlElement {
    let host = fresh_host();
    host.style().set_property("height", "900px").unwrap();
    let inputs: Vec<Input> =
        files.into_iter().map(|(name, text)| Input { name: name.into(), bytes: text.into_bytes() }).collect();
    let handle =
        leptos::mount::mount_to(host.clone(), move || view! { <cctv::ui::App initial=inputs.clone() /> });
    // Keep the app mounted for the rest of the test.
    std::mem::forget(handle);
    tick().await;
    host
}

fn all(host: &web_sys::HtmlElement, selector: &str) -> Vec<web_sys::HtmlElement> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length()).filter_map(|i| list.get(i)).map(|n| n.unchecked_into()).collect()
}

fn jsonl(lines: &[serde_json::Value]) -> String {
    lines.iter().map(|l| l.to_string() + "\n").collect()
}

fn call_session(name: &str, input: serde_json::Value, result: serde_json::Value) -> String {
    use serde_json::json;
    jsonl(&[
        json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s", "message": {"role": "user", "content": "go"}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s", "requestId": "r1",
               "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": name, "input": input}]}}),
        json!({"type": "user", "uuid": "r1", "parentUuid": "a1", "sessionId": "s", "toolUseResult": result,
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "done"}]}}),
    ])
}

async fn open_first_tool(host: &web_sys::HtmlElement) {
    all(host, ".cctv-tool__panel > .cctv-panel__header")[0].click();
    tick().await;
}

#[wasm_bindgen_test]
async fn a_tool_panel_opens_on_click_and_closes_again() {
    let session = call_session(
        "Bash",
        serde_json::json!({"command": "ls -la", "description": "List files"}),
        serde_json::json!({"stdout": "total 0\n", "stderr": "", "interrupted": false, "isImage": false}),
    );
    let host = viewer(vec![("s.jsonl", session)]).await;
    assert!(all(&host, ".cctv-panel__body").is_empty(), "closed at first");
    open_first_tool(&host).await;
    let body = all(&host, ".cctv-panel__body");
    assert_eq!(body.len(), 1);
    assert!(body[0].text_content().unwrap().contains("$ ls -la"));
    open_first_tool(&host).await;
    assert!(all(&host, ".cctv-panel__body").is_empty(), "closed again");
}

#[wasm_bindgen_test]
async fn a_long_output_shows_its_head_and_tail_until_asked_for_all() {
    let stdout: String = (1..=20_000).map(|i| format!("\u{1b}[32mok\u{1b}[0m build step {i}\n")).collect();
    let session = call_session(
        "Bash",
        serde_json::json!({"command": "make"}),
        serde_json::json!({"stdout": stdout, "stderr": "", "interrupted": false, "isImage": false}),
    );
    let host = viewer(vec![("s.jsonl", session)]).await;
    open_first_tool(&host).await;
    let text = || all(&host, ".cctv-panel__body")[0].text_content().unwrap();
    assert!(text().contains("build step 1\n") && text().contains("build step 200\n"), "head shown");
    assert!(text().contains("build step 19951\n") && text().contains("build step 20000\n"), "tail shown");
    assert!(!text().contains("build step 201\n") && !text().contains("build step 10000\n"), "middle hidden");
    let more = all(&host, ".cctv-out__more");
    assert_eq!(more.len(), 1);
    assert!(
        more[0].text_content().unwrap().starts_with("Show 19750 more lines ("),
        "{:?}",
        more[0].text_content()
    );
    more[0].click();
    tick().await;
    assert!(text().contains("build step 10000\n"), "all shown after the click");
    assert!(all(&host, ".cctv-out__more").is_empty());
    assert!(all(&host, ".cctv-ansi--fg2").len() >= 20_000, "colours kept");
}

#[wasm_bindgen_test]
async fn an_edit_shows_a_diff_with_hunks_and_line_numbers() {
    let patch = serde_json::json!([{"oldStart": 10, "oldLines": 2, "newStart": 10, "newLines": 2, "lines": [" keep", "-old", "+new"]}]);
    let session = call_session(
        "Edit",
        serde_json::json!({"file_path": "/x.rs", "old_string": "old", "new_string": "new"}),
        serde_json::json!({"filePath": "/x.rs", "oldString": "old", "newString": "new", "structuredPatch": patch,
                           "userModified": false, "replaceAll": false}),
    );
    let host = viewer(vec![("s.jsonl", session)]).await;
    let header = host.query_selector(".cctv-tool__panel").unwrap().unwrap().text_content().unwrap();
    assert!(header.contains("+1 −1"), "{header}");
    open_first_tool(&host).await;
    assert_eq!(all(&host, ".cctv-diff__hunk")[0].text_content().unwrap().trim(), "@@ -10,2 +10,2 @@");
    // old line | new line | sign | text
    let rows: Vec<String> = all(&host, ".cctv-diff tr:not(.cctv-diff__hunk)")
        .iter()
        .map(|r| all(r, "td").iter().map(|c| c.text_content().unwrap()).collect::<Vec<_>>().join("|"))
        .collect();
    assert_eq!(rows, ["10|10| |keep", "11||-|old", "|11|+|new"]);
}

#[wasm_bindgen_test]
async fn a_todo_list_shows_each_state_and_what_changed() {
    let old =
        serde_json::json!([{"content": "a", "status": "pending"}, {"content": "b", "status": "pending"}]);
    let new = serde_json::json!([{"content": "a", "status": "completed"}, {"content": "b", "status": "in_progress", "activeForm": "Doing b"}, {"content": "c", "status": "pending"}]);
    let session = call_session(
        "TodoWrite",
        serde_json::json!({"todos": new}),
        serde_json::json!({"oldTodos": old, "newTodos": new}),
    );
    let host = viewer(vec![("s.jsonl", session)]).await;
    open_first_tool(&host).await;
    let panel = host.query_selector(".cctv-tool__panel").unwrap().unwrap();
    let states: Vec<String> = (0..3)
        .map(|i| {
            panel
                .query_selector_all(".cctv-todo")
                .unwrap()
                .get(i)
                .unwrap()
                .unchecked_into::<web_sys::Element>()
                .get_attribute("data-status")
                .unwrap()
        })
        .collect();
    assert_eq!(states, ["completed", "in_progress", "pending"]);
    let text = panel.text_content().unwrap();
    assert!(text.contains("Doing b"), "the active form names the task in progress: {text}");
    assert!(text.contains("a: pending → completed") && text.contains("added: c"), "{text}");
}

#[wasm_bindgen_test]
async fn a_sub_agent_nests_under_its_task_call_when_opened() {
    let main = call_session(
        "Task",
        serde_json::json!({"description": "look around", "prompt": "Look around", "subagent_type": "Explore"}),
        serde_json::json!({"status": "completed", "agentId": "abc1234", "content": [{"type": "text", "text": "Seen it"}]}),
    );
    let agent = jsonl(&[
        serde_json::json!({"type": "user", "uuid": "x1", "parentUuid": null, "sessionId": "s", "isSidechain": true, "agentId": "abc1234",
                           "message": {"role": "user", "content": "Look around"}}),
        serde_json::json!({"type": "assistant", "uuid": "x2", "parentUuid": "x1", "sessionId": "s", "isSidechain": true, "agentId": "abc1234",
                           "message": {"id": "mx", "role": "assistant", "content": [{"type": "text", "text": "Nothing unusual here"}]}}),
    ]);
    let host = viewer(vec![("s.jsonl", main), ("s/subagents/agent-abc1234.jsonl", agent)]).await;
    assert!(!host.text_content().unwrap().contains("Nothing unusual here"), "closed at first");
    all(&host, ".cctv-agent-toggle")[0].click();
    tick().await;
    let nested = all(&host, ".cctv-item[style*=\"--depth: 1\"]");
    assert_eq!(nested.len(), 2, "the agent's prompt and answer, one level deeper");
    assert!(nested[1].text_content().unwrap().contains("Nothing unusual here"));
}

/// The 2.1.332 agents folder (written from the documented shapes; see its README): its session
/// and fork files, named as a drop of the project folder names them.
macro_rules! agents_file {
    ($path:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/format/agents/-home-me-shop/5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f",
            $path
        ))
    };
}

#[wasm_bindgen_test]
async fn a_fork_opens_under_the_row_it_forked_after() {
    let host = viewer(vec![
        ("5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f.jsonl", agents_file!(".jsonl").into()),
        (
            "5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f/subagents/agent-afork-name-1a2b3c.jsonl",
            agents_file!("/subagents/agent-afork-name-1a2b3c.jsonl").into(),
        ),
    ])
    .await;
    assert!(!host.text_content().unwrap().contains("rounding then needs a rule"), "closed at first");
    let toggles: Vec<_> = all(&host, ".cctv-agent-toggle")
        .into_iter()
        .filter(|t| t.text_content().unwrap().contains("fork of the conversation"))
        .collect();
    assert_eq!(toggles.len(), 1);
    assert!(toggles[0].text_content().unwrap().contains("forked after line 5"));
    toggles[0].click();
    tick().await;
    let nested = all(&host, ".cctv-item[style*=\"--depth: 1\"]");
    assert_eq!(nested.len(), 2, "the fork's prompt and answer, one level deeper");
    assert!(nested[1].text_content().unwrap().contains("rounding then needs a rule"));
    // Right after the row it forked after.
    let rows = all(&host, ".cctv-item");
    let first = rows.iter().position(|r| r.is_same_node(Some(&nested[0]))).unwrap();
    let previous = rows[first - 1].text_content().unwrap();
    assert!(previous.contains("A discount fits there as a field"), "{previous}");
}

#[wasm_bindgen_test]
async fn an_orphan_side_question_says_its_parent_is_not_loaded() {
    let host = viewer(vec![(
        "5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f/subagents/agent-aside_question-4d5e6f.jsonl",
        agents_file!("/subagents/agent-aside_question-4d5e6f.jsonl").into(),
    )])
    .await;
    let headings = all(&host, ".cctv-agent-origin");
    assert_eq!(headings.len(), 1);
    let text = headings[0].text_content().unwrap();
    assert!(
        text.contains("side question") && text.contains("the conversation it was asked in is not loaded"),
        "{text}"
    );
}

#[wasm_bindgen_test]
async fn an_unknown_entry_is_shown_raw_with_a_badge() {
    let session = jsonl(&[
        serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s", "message": {"role": "user", "content": "hi"}}),
        serde_json::json!({"type": "hologram", "uuid": "h1", "parentUuid": "u1", "sessionId": "s", "payload": {"beam": 42}}),
    ]);
    let host = viewer(vec![("s.jsonl", session)]).await;
    let raw = all(&host, ".cctv-raw");
    assert_eq!(raw.len(), 1);
    let text = raw[0].text_content().unwrap();
    assert!(text.contains("unknown type: hologram"), "{text}");
    assert!(text.contains("\"beam\": 42"), "pretty JSON of the whole line: {text}");
}

#[wasm_bindgen_test]
async fn transcript_html_stays_text() {
    let session = jsonl(&[
        serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s", "message": {"role": "user", "content": "<img src=x onerror=alert(1)>"}}),
        serde_json::json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
                           "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": "<script>window.pwned = 1</script> [x](javascript:alert(1))"}]}}),
    ]);
    let host = viewer(vec![("s.jsonl", session)]).await;
    assert!(host.query_selector("script, img[src='x'], a[href^='javascript']").unwrap().is_none());
    let text = host.text_content().unwrap();
    assert!(
        text.contains("<script>window.pwned = 1</script>") && text.contains("<img src=x onerror=alert(1)>")
    );
}

#[wasm_bindgen_test]
async fn fenced_code_in_markdown_is_highlighted() {
    let session = jsonl(&[
        serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s", "message": {"role": "user", "content": "show me"}}),
        serde_json::json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
                           "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": "```rust\nfn main() { let x = \"hi\"; }\n```"}]}}),
    ]);
    // A page fetches the grammars from beside the wasm; the test server has no such file.
    cctv::text::highlight::load_grammars(include_bytes!("../www/grammars.packdump")).unwrap();
    let host = viewer(vec![("s.jsonl", session)]).await;
    let keyword =
        host.query_selector(".cctv-md__code .cctv-hl--keyword").unwrap().expect("a highlighted keyword");
    assert_eq!(keyword.text_content().unwrap(), "fn");
    assert!(host.query_selector(".cctv-md__code .cctv-hl--string").unwrap().is_some());
}
