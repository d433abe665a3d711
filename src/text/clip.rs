//! Long outputs shortened for display: their first lines and their last, and how much lies
//! between. A megabyte of build log laid out at once stalls the page for a third of a second;
//! its head and tail are what a reader looks at first (the command, then how it ended).

/// A text shown as `head`, then a note of what is hidden, then `tail`.
#[derive(Debug, PartialEq, Eq)]
pub struct Clipped<'a> {
    pub head: &'a str,
    pub hidden_lines: usize,
    pub hidden_bytes: usize,
    pub tail: &'a str,
}

/// Lines and bytes kept at each end. Bytes bound a few enormous lines (minified files, base64).
const HEAD_LINES: usize = 200;
const TAIL_LINES: usize = 50;
const HEAD_BYTES: usize = 16 * 1024;
const TAIL_BYTES: usize = 8 * 1024;

/// `None` when `text` is short enough to show whole.
pub fn clip(text: &str) -> Option<Clipped<'_>> {
    let head_end = floor_char(text, nth_line_end(text, HEAD_LINES).min(HEAD_BYTES));
    let tail_start =
        ceil_char(text, nth_line_start_from_end(text, TAIL_LINES).max(text.len().saturating_sub(TAIL_BYTES)));
    // Clipping must hide something worth a button, or the text is simply shown.
    if tail_start <= head_end || tail_start - head_end < 4 * 1024 {
        return None;
    }
    let hidden = &text[head_end..tail_start];
    Some(Clipped {
        head: &text[..head_end],
        hidden_lines: hidden.bytes().filter(|&b| b == b'\n').count(),
        hidden_bytes: hidden.len(),
        tail: &text[tail_start..],
    })
}

/// The offset just past the `n`th line break (or the end).
fn nth_line_end(text: &str, n: usize) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).nth(n.saturating_sub(1)).map_or(text.len(), |i| i + 1)
}

/// Where the last `n` lines start (a final line break does not start a line).
fn nth_line_start_from_end(text: &str, n: usize) -> usize {
    let body = text.strip_suffix('\n').unwrap_or(text);
    memchr::memrchr_iter(b'\n', body.as_bytes()).nth(n.saturating_sub(1)).map_or(0, |i| i + 1)
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(lines: usize) -> String {
        (1..=lines).map(|i| format!("line {i} of the build output\n")).collect()
    }

    #[test]
    fn short_text_is_whole() {
        assert_eq!(clip("one\ntwo\n"), None);
        assert_eq!(clip(&numbered(260)), None, "a few lines over the limit are not worth a button");
    }

    #[test]
    fn long_output_keeps_its_first_and_last_lines() {
        let text = numbered(10_000);
        let c = clip(&text).expect("clipped");
        assert!(c.head.starts_with("line 1 of") && c.head.ends_with("line 200 of the build output\n"));
        assert!(c.tail.starts_with("line 9951 of") && c.tail.ends_with("line 10000 of the build output\n"));
        assert_eq!(c.hidden_lines, 10_000 - 250);
        assert_eq!(c.head.len() + c.hidden_bytes + c.tail.len(), text.len());
    }

    #[test]
    fn one_enormous_line_is_cut_by_bytes_on_char_boundaries() {
        let text = "é".repeat(500_000);
        let c = clip(&text).expect("clipped");
        assert!(c.head.len() <= HEAD_BYTES && c.tail.len() <= TAIL_BYTES + 1);
        assert_eq!(c.hidden_lines, 0);
        assert_eq!(c.head.len() + c.hidden_bytes + c.tail.len(), text.len());
    }
}
