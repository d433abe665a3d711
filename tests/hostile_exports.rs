//! Hostile input against the exports (issue 37). A secret in every disguise a session writes it
//! in, planted in every place a session keeps text: the scan finds it there (and the Share tab
//! marks it as it is written), and neither the Markdown nor the HTML export holds it in any
//! encoding. Each case is named for the disguise it tries.

mod common;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use cctv::export::share::{html, markdown, Highlights, ShareOptions};
use cctv::export::to_html::{files_from_page, ViewerFiles, SESSION_ID};
use cctv::export::to_markdown::MarkdownOptions;
use cctv::normalize::Input;
use cctv::redact::Scanner;
use common::planted::noise;

const SESSION: &str = "5e551011-0000-4000-8000-00000000abcd";

/// Where a case writes its text.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    /// What the person typed.
    Prompt,
    /// A Bash call's output, in the model's message and again in `toolUseResult`.
    Output,
    /// Claude's answer.
    Answer,
    /// A sub-agent's `.meta.json`.
    Meta,
    /// A whole output saved in `tool-results/` (plain text, not JSON).
    SavedOutput,
    /// The name of the saved output's file.
    FileName,
}

/// One hostile case: `raw` is written at `place` as the file holds it (for a JSON string, what is
/// between its quotes); `shown` is what the string says (what the viewer shows); `form` is how
/// `shown` writes the secret.
struct Case {
    name: &'static str,
    secret: String,
    place: Place,
    raw: String,
    shown: String,
    form: Form,
}

enum Form {
    /// As it is (JSON's escapes are undone before the viewer shows a string).
    AsIs,
    /// Written so.
    Written(String),
    /// In a run of base64 (the characters that hold it depend on its offset).
    Base64,
}

fn github_token(seed: u64) -> String {
    format!("ghp_{}", noise(36, seed))
}

/// An AWS secret access key with a `/` and a `+` (which JSON may escape and URLs encode).
fn aws_key(seed: u64) -> String {
    format!("{}/{}+", noise(20, seed), noise(18, seed + 1))
}

fn json(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap();
    quoted[1..quoted.len() - 1].to_owned()
}

fn percent_all(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02X}")).collect()
}

fn percent_component(text: &str) -> String {
    text.bytes()
        .map(|b| match b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            true => (b as char).to_string(),
            false => format!("%{b:02X}"),
        })
        .collect()
}

/// Base64 as a URL writes it: its `+`, `/` and `=` percent-encoded.
fn percent_base64(encoded: &str) -> String {
    encoded.replace('+', "%2B").replace('/', "%2F").replace('=', "%3D")
}

fn wrap(text: &str, width: usize) -> String {
    text.as_bytes().chunks(width).map(|c| std::str::from_utf8(c).unwrap()).collect::<Vec<_>>().join("\n")
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let plain = |name, secret: String, place, shown: String| Case {
        name,
        raw: json(&shown),
        secret,
        place,
        shown,
        form: Form::AsIs,
    };
    // JSON's escapes: every character as `\uXXXX`, and `/` as `\/`.
    let token = github_token(1);
    let escaped: String = token.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
    out.push(Case {
        name: "json_unicode_escapes_in_a_prompt",
        raw: format!("my token is {escaped} ok"),
        shown: format!("my token is {token} ok"),
        secret: token,
        place: Place::Prompt,
        form: Form::AsIs,
    });
    let key = aws_key(2);
    out.push(Case {
        name: "json_escaped_slash_in_an_output",
        raw: format!("aws_secret_access_key = {}\\n", key.replace('/', "\\/")),
        shown: format!("aws_secret_access_key = {key}\n"),
        secret: key,
        place: Place::Output,
        form: Form::AsIs,
    });
    // Percent-encoding: every byte, and only what a URL must.
    let token = github_token(3);
    let shown = format!("GET https://api.example.com/hook?token={} 200", percent_all(&token));
    out.push(Case {
        form: Form::Written(percent_all(&token)),
        ..plain("percent_encoded_every_byte_in_an_output", token, Place::Output, shown)
    });
    let key = aws_key(4);
    let shown =
        format!("curl 'https://s3.example.com/?aws_secret_access_key={}&x=1'", percent_component(&key));
    out.push(Case {
        form: Form::Written(percent_component(&key)),
        ..plain("percent_encoded_url_component_in_a_prompt", key, Place::Prompt, shown)
    });
    // base64 of a text holding the secret, at each of the three offsets it can start at.
    for (n, lead) in ["", "x", "xy"].iter().enumerate() {
        let token = github_token(10 + n as u64);
        let encoded = STANDARD.encode(format!("{lead}GITHUB_TOKEN={token}\n"));
        let name = [
            "base64_at_offset_0_in_an_output",
            "base64_at_offset_1_in_an_output",
            "base64_at_offset_2_in_an_output",
        ][n];
        let shown = format!("$ kubectl get secret gh -o yaml\ndata:\n  env: {encoded}\n");
        out.push(Case { form: Form::Base64, ..plain(name, token, Place::Output, shown) });
    }
    // base64 as `base64` writes it: wrapped at 76 characters (57 bytes a line), the secret across
    // a break (bytes 43 to 83), in a plain file whose lines are not JSON.
    let token = github_token(20);
    let text = format!("# settings for the deploy job\nGITHUB_TOKEN={token}\n");
    assert!(text.find("ghp_").unwrap() < 57 && text.find("ghp_").unwrap() + 40 > 57);
    let shown = format!("$ base64 .env\n{}\n", wrap(&STANDARD.encode(&text), 76));
    out.push(Case {
        form: Form::Base64,
        ..plain("base64_wrapped_at_76_in_a_saved_output", token, Place::SavedOutput, shown)
    });
    // A terminal's wrap in a plain file.
    let token = github_token(22);
    let shown = format!("$ env\nGITHUB_TOKEN={}\n{}\nHOME=/tmp\n", &token[..20], &token[20..]);
    out.push(Case {
        form: Form::Written(format!("{}\n{}", &token[..20], &token[20..])),
        ..plain("split_by_a_line_break_in_a_saved_output", token, Place::SavedOutput, shown)
    });
    // URL-safe base64 without padding, in the person's words.
    let token = github_token(21);
    let shown = format!("decode {} please", URL_SAFE_NO_PAD.encode(format!("t={token}")));
    out.push(Case {
        form: Form::Base64,
        ..plain("base64_url_safe_in_a_prompt", token, Place::Prompt, shown)
    });
    // A terminal that wrapped the line: the token cut in two, and in three.
    let token = github_token(30);
    let shown = format!("export GITHUB_TOKEN={}\n{}\n$ next", &token[..17], &token[17..]);
    out.push(Case {
        form: Form::Written(format!("{}\n{}", &token[..17], &token[17..])),
        ..plain("split_by_a_terminal_line_break_in_an_output", token, Place::Output, shown)
    });
    let token = github_token(31);
    let shown = format!("Authorization: token {}\r\n{}\r\n{}", &token[..10], &token[10..25], &token[25..]);
    out.push(Case {
        form: Form::Written(format!("{}\r\n{}\r\n{}", &token[..10], &token[10..25], &token[25..])),
        ..plain("split_across_three_crlf_lines_in_an_answer", token, Place::Answer, shown)
    });
    // The places a session keeps text beside its lines.
    let token = github_token(40);
    out.push(plain("in_a_file_name", token.clone(), Place::FileName, format!("notes-{token}.txt")));
    let token = github_token(41);
    let escaped: String = token.chars().map(|c| format!("\\u{:04X}", c as u32)).collect();
    out.push(Case {
        name: "json_escaped_in_a_meta_json",
        raw: format!("look up {escaped}"),
        shown: format!("look up {token}"),
        secret: token,
        place: Place::Meta,
        form: Form::AsIs,
    });
    let token = github_token(42);
    let shown = format!("token=%{}", &percent_all(&token)[1..]);
    out.push(Case {
        form: Form::Written(percent_all(&token)),
        ..plain("percent_encoded_in_a_saved_output", token, Place::SavedOutput, shown)
    });
    // A saved output that is JSON written pretty: no line of it is JSON alone.
    let token = github_token(44);
    let escaped: String = token.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
    out.push(Case {
        name: "json_escaped_in_a_pretty_printed_saved_output",
        raw: format!("{{\n  \"result\": {{\n    \"token\": \"{escaped}\"\n  }}\n}}\n"),
        shown: format!("{{\n  \"result\": {{\n    \"token\": \"{token}\"\n  }}\n}}\n"),
        secret: token,
        place: Place::SavedOutput,
        form: Form::AsIs,
    });
    // Two disguises, one in the other. Base64 in a URL, its `+`, `/` and `=` percent-encoded: a
    // lead is picked whose `€` makes a `+` or `/` that cuts the run before the token where no
    // group of four begins (so what follows the escape is no base64 read alone).
    let token = github_token(45);
    let encoded = (0..64)
        .find_map(|n| {
            let lead = format!("{}s€:", "u".repeat(n));
            let encoded = STANDARD.encode(format!("{lead}{token}"));
            let cut = encoded[..lead.len() * 4 / 3].rfind(['+', '/'])?;
            ((cut + 1) % 4 != 0).then_some(encoded)
        })
        .unwrap();
    let shown = format!("GET https://example.com/callback?state={} 302", percent_base64(&encoded));
    out.push(Case {
        form: Form::Base64,
        ..plain("base64_percent_encoded_in_a_url_in_an_output", token, Place::Output, shown)
    });
    // URL-safe base64 with nothing escaped in it, after escapes that leave it two characters off
    // in the string as it is (`%3D` before it reads as `3D…`).
    let token = github_token(47);
    let shown = format!(
        "GET /login?next=https%3A%2F%2Fexample.com%2Fcb%3Fstate%3D{} 302",
        URL_SAFE_NO_PAD.encode(format!("id:{token}"))
    );
    out.push(Case {
        form: Form::Base64,
        ..plain("base64_after_escapes_in_a_url_in_an_output", token, Place::Output, shown)
    });
    // Base64 in base64: a Kubernetes secret of a Docker config, whose `auth` is base64 again.
    let token = github_token(46);
    let config =
        format!(r#"{{"auths":{{"ghcr.io":{{"auth":"{}"}}}}}}"#, STANDARD.encode(format!("deploy:{token}")));
    let shown =
        format!("apiVersion: v1\nkind: Secret\ndata:\n  .dockerconfigjson: {}\n", STANDARD.encode(config));
    out.push(Case {
        form: Form::Base64,
        ..plain("base64_within_base64_in_an_output", token, Place::Output, shown)
    });
    let token = github_token(43);
    out.push(plain(
        "in_an_images_alt_text",
        token.clone(),
        Place::Answer,
        format!("Here is the screenshot: ![the page with {token} on it](https://example.com/shot.png)"),
    ));
    out
}

/// A session of four lines (a prompt, a Bash call, its output, an answer), a sub-agent's
/// `.meta.json` and a saved output, with `case` written at its place.
fn session(case: &Case) -> Vec<Input> {
    let at = |place: Place, default: &str| match case.place == place {
        true => case.raw.clone(),
        false => json(default),
    };
    let common = format!(
        r#""sessionId":"{SESSION}","timestamp":"2026-01-01T00:00:00Z","cwd":"/tmp/p","isSidechain":false"#
    );
    let lines = [
        format!(
            r#"{{"type":"user","uuid":"u1","parentUuid":null,{common},"message":{{"role":"user","content":"{}"}}}}"#,
            at(Place::Prompt, "deploy it")
        ),
        format!(
            r#"{{"type":"assistant","uuid":"a1","parentUuid":"u1",{common},"requestId":"r1","message":{{"id":"m1","role":"assistant","model":"claude","content":[{{"type":"tool_use","id":"toolu_t1","name":"Bash","input":{{"command":"./deploy.sh"}}}}]}}}}"#
        ),
        format!(
            r#"{{"type":"user","uuid":"u2","parentUuid":"a1",{common},"message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_t1","content":"{out}"}}]}},"toolUseResult":{{"stdout":"{out}","stderr":"","interrupted":false}}}}"#,
            out = at(Place::Output, "deployed")
        ),
        format!(
            r#"{{"type":"assistant","uuid":"a2","parentUuid":"u2",{common},"requestId":"r2","message":{{"id":"m2","role":"assistant","model":"claude","content":[{{"type":"text","text":"{}"}}]}}}}"#,
            at(Place::Answer, "Done.")
        ),
    ];
    // A saved output is plain text: what it holds is what it says, but for JSON in it, which
    // holds its escapes.
    let saved = match case.place {
        Place::SavedOutput if case.raw != json(&case.shown) => case.raw.clone(),
        Place::SavedOutput => case.shown.clone(),
        _ => "the whole output".into(),
    };
    let saved_name = match case.place {
        Place::FileName => case.shown.clone(),
        _ => "toolu_t1.txt".into(),
    };
    vec![
        Input { name: format!("p/{SESSION}.jsonl"), bytes: (lines.join("\n") + "\n").into_bytes() },
        Input {
            name: format!("p/{SESSION}/subagents/agent-a1.meta.json"),
            bytes: format!(r#"{{"agentType":"Explore","description":"{}"}}"#, at(Place::Meta, "look around"))
                .into_bytes(),
        },
        Input { name: format!("p/{SESSION}/tool-results/{saved_name}"), bytes: saved.into_bytes() },
    ]
}

/// Every way `value` can be written in an export: as it is, as JSON escapes it (each character
/// `\u`-escaped, `/` as `\/`), percent-encoded (every byte, or what a URL must, in either case
/// of hex), and in base64 (standard and URL-safe, at each of the three offsets; the characters
/// that hold only the value's bytes), and two of these one in the other: base64 percent-encoded as
/// a URL writes it, and base64 in base64.
fn encodings(value: &str) -> Vec<(String, String)> {
    let mut out = single_encodings(value);
    for (how, encoded) in out.clone().into_iter().filter(|(how, _)| how.starts_with("base64")) {
        out.push((format!("{how}, percent-encoded"), percent_base64(&encoded)));
        for (outer, twice) in base64_forms(&encoded) {
            out.push((format!("{how}, in {outer}"), twice));
        }
    }
    out
}

/// The characters of `value`'s base64 that hold only its bytes, standard and URL-safe, at each
/// of the three offsets.
fn base64_forms(value: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for shift in 0..3 {
        let lead = "x".repeat(shift);
        for (alphabet, engine) in
            [("standard", &STANDARD), ("URL-safe", &base64::engine::general_purpose::URL_SAFE)]
        {
            let encoded = engine.encode(format!("{lead}{value}"));
            // The first group holds the lead, the last the padding: the rest is the value's alone.
            out.push((format!("base64 {alphabet} at {shift}"), encoded[4..encoded.len() - 4].to_owned()));
        }
    }
    out
}

/// [`encodings`] but those of two disguises.
fn single_encodings(value: &str) -> Vec<(String, String)> {
    let mut out = vec![
        ("as it is".to_string(), value.to_string()),
        ("JSON".into(), json(value)),
        ("JSON \\u".into(), value.chars().map(|c| format!("\\u{:04x}", c as u32)).collect()),
        ("JSON \\U".into(), value.chars().map(|c| format!("\\u{:04X}", c as u32)).collect()),
        ("JSON \\/".into(), json(value).replace('/', "\\/")),
        ("percent".into(), percent_all(value)),
        ("percent lower".into(), percent_all(value).to_lowercase()),
        ("percent component".into(), percent_component(value)),
    ];
    out.extend(base64_forms(value));
    out
}

/// The encodings of `value` that `text` holds; looked for also with line breaks (as they are or
/// as JSON's `\n`, `\r`) taken out, so a value cut by one is found, and with backslashes taken
/// out, so a value Markdown escapes (`ghp\_…`, which it shows as `ghp_…`) is found.
fn leaks(text: &str, value: &str) -> Vec<String> {
    let joined = text.replace("\\r", "").replace("\\n", "").replace(['\r', '\n'], "");
    let unescaped = joined.replace('\\', "");
    encodings(value)
        .into_iter()
        .filter(|(_, encoded)| [text, &joined, &unescaped].iter().any(|t| t.contains(encoded.as_str())))
        .map(|(how, _)| how)
        .collect()
}

/// Stands in for the built viewer (its files are tested in the browser).
fn viewer() -> ViewerFiles {
    ViewerFiles {
        script: "async function __wbg_init(m) {}\nexport function openShared() {}\n".into(),
        wasm: b"\0asm\x01\0\0\0".to_vec(),
        grammars: None,
        snippets: Vec::new(),
    }
}

/// An HTML export as text to search: the page, and every file the page holds, name and bytes.
fn html_text(page: &str) -> String {
    let open = format!("id=\"{SESSION_ID}\">");
    let start = page.find(&open).unwrap() + open.len();
    let files = files_from_page(&page[start..start + page[start..].find("</script>").unwrap()]).unwrap();
    let unpacked: Vec<String> =
        files.iter().map(|f| format!("{}\n{}", f.name, String::from_utf8_lossy(&f.bytes))).collect();
    format!("{page}\n{}", unpacked.join("\n"))
}

fn everything() -> ShareOptions {
    ShareOptions {
        markdown: MarkdownOptions {
            thinking: true,
            tool_output: true,
            sub_agents: true,
            system_events: true,
        },
        ..ShareOptions::default()
    }
}

#[test]
fn the_helper_finds_every_encoding_it_looks_for() {
    let value = aws_key(99);
    for (how, encoded) in encodings(&value) {
        assert!(leaks(&format!("before {encoded} after"), &value).contains(&how), "{how}");
    }
    assert!(leaks(&wrap(&value, 7), &value).contains(&"as it is".to_string()));
    let markdown_escaped = value.replace('/', "\\/").replace('+', "\\+");
    assert!(leaks(&markdown_escaped, &value).contains(&"as it is".to_string()));
    assert!(leaks("nothing here", &value).is_empty());
}

#[test]
fn a_secret_in_every_disguise_is_found_where_it_is_written() {
    let scanner = Scanner::new(&[]).unwrap();
    let mut failures = Vec::new();
    for case in cases() {
        let inputs = session(&case);
        let findings = scanner.find(&inputs);
        let Some(found) = findings.iter().find(|f| f.text == case.secret) else {
            failures.push(format!(
                "{}: not found ({:?})",
                case.name,
                findings.iter().map(|f| &f.text).collect::<Vec<_>>()
            ));
            continue;
        };
        let (file, line) = match case.place {
            Place::Prompt => (inputs[0].name.as_str(), 1),
            Place::Output => (inputs[0].name.as_str(), 3),
            Place::Answer => (inputs[0].name.as_str(), 4),
            Place::Meta => (inputs[1].name.as_str(), 1),
            Place::SavedOutput => (inputs[2].name.as_str(), 0),
            Place::FileName => (inputs[2].name.as_str(), 0),
        };
        let line_ok = match case.place {
            // A saved output's text is on the lines of its file.
            Place::SavedOutput => found.line >= 1,
            _ => found.line == line,
        };
        if found.file != file || !line_ok || !found.certain {
            failures.push(format!(
                "{}: found at {}:{} (certain: {})",
                case.name, found.file, found.line, found.certain
            ));
        }
        let forms_ok = match &case.form {
            Form::AsIs => found.forms.is_empty(),
            Form::Written(form) => found.forms.contains(form),
            Form::Base64 => {
                !found.forms.is_empty()
                    && found
                        .forms
                        .iter()
                        .all(|f| !f.contains(&case.secret) && case.shown.contains(f.as_str()))
            }
        };
        if !forms_ok {
            failures.push(format!("{}: its forms are {:?}", case.name, found.forms));
        }
        // The Share tab marks it where the viewer shows it, as it is written there.
        let marks = Highlights::new(&findings, |_| true).unwrap();
        if marks.ranges(&case.shown).next().is_none() {
            failures.push(format!("{}: nothing marked in {:?}", case.name, case.shown));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_secret_in_every_disguise_leaves_in_no_encoding_in_either_export() {
    let mut failures = Vec::new();
    for case in cases() {
        let inputs = session(&case);
        // Kept, the secret is in the HTML export as the files write it (the helper is not blind).
        let kept = ShareOptions { keep: vec!["*".into()], ..everything() };
        let page = html(inputs.clone(), &kept, &viewer()).unwrap().text;
        if leaks(&html_text(&page), &case.secret).is_empty() {
            failures.push(format!("{}: not in the unmasked HTML export either", case.name));
        }
        let md = markdown(inputs.clone(), &everything()).unwrap();
        let leaked = leaks(&md.text, &case.secret);
        if !leaked.is_empty() {
            failures.push(format!("{}: the Markdown holds it {leaked:?}:\n{}", case.name, md.text));
        }
        let page = html(inputs.clone(), &everything(), &viewer()).unwrap();
        let leaked = leaks(&html_text(&page.text), &case.secret);
        if !leaked.is_empty() {
            failures.push(format!("{}: the HTML holds it {leaked:?}", case.name));
        }
        // Every line that was JSON still is.
        let masked =
            cctv::redact::mask(&inputs, &md.findings.iter().filter(|f| f.certain).collect::<Vec<_>>());
        for (before, after) in inputs.iter().zip(&masked) {
            let (a, b) = (String::from_utf8_lossy(&before.bytes), String::from_utf8_lossy(&after.bytes));
            for (old, new) in a.lines().zip(b.lines()) {
                let parses = |l: &str| serde_json::from_str::<serde_json::Value>(l).is_ok();
                if parses(old) && !parses(new) {
                    failures.push(format!("{}: {} no longer parses: {new}", case.name, after.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Where a hostile text can be in a session the Markdown export writes out.
const MARKDOWN_PLACES: [&str; 10] = [
    "title",
    "prompt",
    "answer",
    "thinking",
    "output",
    "command",
    "file name",
    "tool name",
    "model",
    "event",
];

/// One case of `tests/hostile/markdown.json`: a text named for what it attacks.
#[derive(serde::Deserialize)]
struct Attack {
    name: String,
    text: String,
}

fn attacks() -> Vec<Attack> {
    let path = common::repository().join("tests/hostile/markdown.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Said last in every session: it must be a paragraph of the export's own, outside any block.
const LAST_WORDS: &str = "Sentinel of the end";

/// A session with `text` at `place` and plain words everywhere else; it ends with an answer
/// saying [`LAST_WORDS`].
fn markdown_session(place: &str, text: &str) -> Vec<Input> {
    let at = |p: &str, default: &str| serde_json::to_string(if p == place { text } else { default }).unwrap();
    let common = format!(
        r#""sessionId":"{SESSION}","timestamp":"2026-01-01T00:00:00Z","cwd":"/tmp/p","isSidechain":false"#
    );
    let lines = [
        format!(
            r#"{{"type":"custom-title","customTitle":{},"sessionId":"{SESSION}"}}"#,
            at("title", "A title")
        ),
        format!(
            r#"{{"type":"user","uuid":"u1","parentUuid":null,{common},"message":{{"role":"user","content":{}}}}}"#,
            at("prompt", "go")
        ),
        format!(
            r#"{{"type":"assistant","uuid":"a1","parentUuid":"u1",{common},"requestId":"r1","message":{{"id":"m1","role":"assistant","model":{},"content":[{{"type":"thinking","thinking":{},"signature":"s"}},{{"type":"text","text":{}}}]}}}}"#,
            at("model", "claude"),
            at("thinking", "hmm"),
            at("answer", "Sure.")
        ),
        format!(
            r#"{{"type":"assistant","uuid":"a2","parentUuid":"a1",{common},"requestId":"r2","message":{{"id":"m2","role":"assistant","model":"claude","content":[{{"type":"tool_use","id":"t1","name":"Bash","input":{{"command":{}}}}},{{"type":"tool_use","id":"t2","name":"Read","input":{{"file_path":{}}}}},{{"type":"tool_use","id":"t3","name":{},"input":{{}}}}]}}}}"#,
            at("command", "ls"),
            at("file name", "/tmp/p/a.txt"),
            at("tool name", "Custom")
        ),
        format!(
            r#"{{"type":"user","uuid":"u2","parentUuid":"a2",{common},"message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t1","content":{}}},{{"type":"tool_result","tool_use_id":"t2","content":"ok"}},{{"type":"tool_result","tool_use_id":"t3","content":"ok"}}]}}}}"#,
            at("output", "a.txt")
        ),
        format!(
            r#"{{"type":"system","subtype":"informational","uuid":"e1","parentUuid":"u2",{common},"content":{},"level":"info"}}"#,
            at("event", "A note")
        ),
        format!(
            r#"{{"type":"assistant","uuid":"a3","parentUuid":"e1",{common},"requestId":"r3","message":{{"id":"m3","role":"assistant","model":"claude","content":[{{"type":"text","text":"{LAST_WORDS}"}}]}}}}"#
        ),
    ];
    vec![Input { name: format!("p/{SESSION}.jsonl"), bytes: lines.join("\n").into_bytes() }]
}

/// What a GitHub-like renderer reads in `md` that transcript text must not have made: raw HTML
/// beyond the export's own `<details>`/`<summary>` (each event with those taken out must hold
/// no `<`, and they must open and close in order), a link or image to a script or data, a
/// heading at the title's or a turn's level beyond the export's (one title, `turns` turns), a bidi
/// control, and the last words anywhere but in a paragraph of their own at the top level.
fn markdown_breaks(md: &str, turns: usize) -> Vec<String> {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
    let mut out = Vec::new();
    let mut open: Vec<Tag> = Vec::new();
    let (mut folds, mut h1, mut h2) = (0i32, 0, 0);
    let mut last_words_at_top = false;
    for event in Parser::new_ext(md, cctv::export::inert::github()) {
        match &event {
            Event::Html(html) | Event::InlineHtml(html) => {
                let mut rest = html.to_string();
                for (tag, step) in [("<details>", 1), ("</details>", -1)] {
                    folds += step * rest.matches(tag).count() as i32;
                    rest = rest.replace(tag, "");
                }
                rest = rest.replace("<summary>", "").replace("</summary>", "");
                if rest.contains('<') {
                    out.push(format!("raw HTML from the transcript: {html:?}"));
                }
                if folds < 0 {
                    out.push("a </details> closes a fold the export did not open".into());
                }
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. })
                if !cctv::export::inert::safe_destination(dest_url) =>
            {
                out.push(format!("a link to {dest_url:?}"))
            }
            Event::Start(Tag::Heading { level: HeadingLevel::H1, .. }) => h1 += 1,
            Event::Start(Tag::Heading { level: HeadingLevel::H2, .. }) => h2 += 1,
            Event::Text(text) if text.contains(LAST_WORDS) => {
                last_words_at_top = folds == 0 && matches!(open.as_slice(), [Tag::Paragraph]);
            }
            _ => {}
        }
        match event {
            Event::Start(tag) => open.push(tag),
            Event::End(TagEnd::Paragraph | _) => {
                open.pop();
            }
            _ => {}
        }
    }
    if (h1, h2) != (1, turns) {
        out.push(format!("{h1} level-1 and {h2} level-2 headings, not 1 and {turns}"));
    }
    if folds != 0 {
        out.push(format!("{folds} <details> left open"));
    }
    if !last_words_at_top {
        out.push("what follows is swallowed: the last answer is not a paragraph of its own".into());
    }
    if let Some(c) = md.chars().find(|&c| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')) {
        out.push(format!("a bidi control {c:?}"));
    }
    out
}

#[test]
fn the_markdown_checks_catch_what_they_look_for() {
    let own = "# T\n\n## 1. go\n\n<details><summary>output</summary>\n\n```\nx\n```\n\n</details>\n\nSentinel of the end\n";
    assert!(markdown_breaks(own, 1).is_empty(), "{:?}", markdown_breaks(own, 1));
    for (broken, why) in [
        (own.replace("x\n```", "x\n```\n<img src=x>"), "raw HTML"),
        (own.replace("x\n```\n\n</details>", "x\n```\n\n</details></details>"), "closes a fold"),
        (own.replace("## 1. go", "## 1. go\n\n## 2. forged"), "level-2"),
        (own.replace("x\n```", "[a](javascript:x)\n```\n[a](javascript:x)"), "a link"),
        (own.replace("```\nx", "````\nx"), "swallowed"),
        (own.replace("go", "g\u{202E}o"), "bidi"),
    ] {
        let found = markdown_breaks(&broken, 1);
        assert!(found.iter().any(|f| f.contains(why)), "{why}: {found:?} in\n{broken}");
    }
}

#[test]
fn no_hostile_text_anywhere_in_a_session_breaks_out_of_the_markdown_export() {
    use cctv::export::to_markdown::session;
    use cctv::normalize::normalize;
    let everything =
        MarkdownOptions { thinking: true, tool_output: true, sub_agents: true, system_events: true };
    let mut failures = Vec::new();
    let attacks = attacks();
    assert!(attacks.len() >= 25, "the corpus is there");
    for attack in &attacks {
        for place in MARKDOWN_PLACES {
            let ws = normalize(markdown_session(place, &attack.text));
            let md = session(&ws, &ws.sessions[0], everything, None);
            let broken = markdown_breaks(&md, 1);
            if !broken.is_empty() {
                failures.push(format!("{} in the {place}: {}\n{md}", attack.name, broken.join("; ")));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n\n{}",
        failures.len(),
        attacks.len() * MARKDOWN_PLACES.len(),
        failures.join("\n\n")
    );
}

#[test]
fn lines_joined_again_find_secrets_but_make_no_address_of_code() {
    let scanner = Scanner::new(&[]).unwrap();
    let code = "from flask import Routes\n@app.route('/x')\ndef x():\n    return 'aGVsbG8gd29ybGQsIGhlbGxv'";
    let line = serde_json::json!({ "type": "user", "message": { "content": code } }).to_string();
    let findings = scanner.find(&[Input { name: "s.jsonl".into(), bytes: line.into_bytes() }]);
    assert!(findings.is_empty(), "{findings:?}");
}
