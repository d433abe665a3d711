//! Any bytes: parse never panics, yields one line per physical line, and decodes every span; and
//! wherever the fast deserializer reads a line, it reads it exactly as serde_json does.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let lines = cctv::model::parse(bytes);
    assert_eq!(lines.len(), cctv::model::SplitLines::new(bytes).count());
    for line in &lines {
        let _ = line.raw(bytes);
        let _ = cctv::model::body::line_value(bytes, line);
        if let Some(entry) = line.entry() {
            let _ = entry.envelope.uuid.map(|u| u.decode(bytes));
        }
        if let Ok(text) = std::str::from_utf8(line.span.bytes(bytes)) {
            if let (Some(fast), reference) = cctv::model::read_both_ways(text) {
                assert_eq!(Ok(fast), reference, "{text}");
            }
        }
    }
});
