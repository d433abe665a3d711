//! Numbers, durations and transcript text as the page's chrome shows them.

/// `1.2s`, `3m 05s`.
pub(crate) fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        return format!("{ms:.0}ms");
    }
    let s = ms / 1000.0;
    if s < 60.0 {
        return format!("{s:.1}s");
    }
    let m = (s / 60.0).floor();
    if m < 60.0 {
        return format!("{m:.0}m {:02.0}s", s - m * 60.0);
    }
    format!("{:.0}h {:02.0}m", (m / 60.0).floor(), m % 60.0)
}

/// `text` on one line (white space collapsed), cut at `chars` characters with `…`.
pub(crate) fn squeeze(text: &str, chars: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(chars) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// A file's size: `12 KB` under a tenth of a megabyte (where `0.0 MB` would say nothing), else
/// `1.2 MB`, or `1.20 GB`.
pub fn size(bytes: usize) -> String {
    let bytes = bytes as f64;
    if bytes < 100_000.0 {
        format!("{:.0} KB", (bytes / 1e3).max(if bytes > 0.0 { 1.0 } else { 0.0 }))
    } else if bytes < 1e9 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.2} GB", bytes / 1e9)
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let text = n.to_string();
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Transcript text (a title, a file or agent name) set among the page's own words, isolated so
/// that a right-to-left override or an unclosed embedding inside it cannot reorder what follows:
/// FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, which ends every embedding opened inside it
/// (Unicode bidi algorithm, rule X6a). Elements use `<bdi>`; this is for text that cannot hold
/// elements, such as a `<select>`'s options.
pub(crate) fn isolate(text: &str) -> String {
    format!("\u{2068}{text}\u{2069}")
}

/// `1 session`, `12 sessions`, `3 matches`, `1,200 lines`.
pub(crate) fn plural(n: u64, what: &str) -> String {
    let ending = match n {
        1 => "",
        _ if what.ends_with("ch") || what.ends_with('s') || what.ends_with('x') => "es",
        _ => "s",
    };
    format!("{} {what}{ending}", thousands(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_say_something_at_every_scale() {
        assert_eq!(size(0), "0 KB");
        assert_eq!(size(300), "1 KB");
        assert_eq!(size(41_500), "42 KB");
        assert_eq!(size(99_999), "100 KB");
        assert_eq!(size(100_000), "0.1 MB");
        assert_eq!(size(215_000_000), "215.0 MB");
        assert_eq!(size(2_147_483_648), "2.15 GB");
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(250.0), "250ms");
        assert_eq!(duration(1500.0), "1.5s");
        assert_eq!(duration(185_000.0), "3m 05s");
        assert_eq!(duration(2.0 * 3_600_000.0 + 60_000.0), "2h 01m");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn isolated_text_opens_and_closes_one_isolate() {
        let title = "evil\u{202E} title";
        let shown = isolate(title);
        assert!(shown.starts_with('\u{2068}') && shown.ends_with('\u{2069}'));
        assert_eq!(shown.trim_matches(['\u{2068}', '\u{2069}']), title);
    }

    #[test]
    fn plurals_read_as_english() {
        assert_eq!(plural(1, "item"), "1 item");
        assert_eq!(plural(0, "item"), "0 items");
        assert_eq!(plural(3, "tool"), "3 tools");
        assert_eq!(plural(1, "match"), "1 match");
        assert_eq!(plural(3, "match"), "3 matches");
        assert_eq!(plural(1200, "session"), "1,200 sessions");
    }
}
