//! Any bytes as a file, masked for a text its first line names: the mask never panics, a line
//! that was JSON stays JSON, and what the masked file's strings say no longer holds the text.
#![no_main]

use cctv::normalize::Input;
use cctv::redact::{mask, Finding, Kind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let (first, rest) = match bytes.iter().position(|&b| b == b'\n') {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[][..]),
    };
    // A text of letters and digits: a mask (`[*]`) has none, so no occurrence can be made of a
    // mask and what is beside it; and long enough that a run of base64 encoded again after
    // masking does not spell it by chance.
    let text: String = String::from_utf8_lossy(first).chars().filter(char::is_ascii_alphanumeric).take(40).collect();
    if text.len() < 8 {
        return;
    }
    let finding = Finding {
        kind: Kind::Pattern,
        label: "fuzzed".into(),
        rule: None,
        text: text.clone(),
        certain: true,
        count: 1,
        file: "s.jsonl".into(),
        line: 1,
        before: String::new(),
        after: String::new(),
        mask: "[*]".into(),
        forms: Vec::new(),
    };
    let name = format!("p/{}.jsonl", String::from_utf8_lossy(&rest[..rest.len().min(30)]));
    let input = Input { name, bytes: rest.to_vec() };
    let masked = mask(std::slice::from_ref(&input), &[&finding]);
    assert!(!masked[0].name.contains(&text), "{:?}", masked[0].name);
    let json_lines = |b: &[u8]| {
        b.split(|&c| c == b'\n').filter(|l| serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok()).count()
    };
    // A mask may join lines that are not JSON (a secret a line break cut), never lose one that is.
    assert!(json_lines(&masked[0].bytes) >= json_lines(&input.bytes));
    for line in masked[0].bytes.split(|&b| b == b'\n') {
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(line) {
            let mut strings = Vec::new();
            collect(&value, &mut strings);
            assert!(strings.iter().all(|s| !s.contains(&text)), "{text:?} in {}", String::from_utf8_lossy(line));
        }
    }
});

fn collect(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            collect(v, out)
        }),
        _ => {}
    }
}
