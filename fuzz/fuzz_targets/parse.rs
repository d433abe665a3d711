//! Any bytes: parse never panics, yields one line per physical line, and decodes every span.
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
    }
});
