//! Terminal output to styled text: SGR colours and weights become classes; every other escape
//! sequence (cursor movement, OSC 8 hyperlinks, titles) is dropped, its visible text kept. A
//! carriage return rewinds the line, as a terminal shows a progress bar.

use crate::text::markup::{Element, Node, Tag};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Style {
    bold: bool,
    dim: bool,
    italic: bool,
    underline: bool,
    inverse: bool,
    /// 0-15: the 16 terminal colours.
    fg: Option<u8>,
    bg: Option<u8>,
}

impl Style {
    fn class(&self) -> String {
        let mut classes = Vec::new();
        for (on, name) in [
            (self.bold, "cctv-ansi--bold"),
            (self.dim, "cctv-ansi--dim"),
            (self.italic, "cctv-ansi--italic"),
            (self.underline, "cctv-ansi--underline"),
            (self.inverse, "cctv-ansi--inverse"),
        ] {
            if on {
                classes.push(name.to_owned());
            }
        }
        if let Some(fg) = self.fg {
            classes.push(format!("cctv-ansi--fg{fg}"));
        }
        if let Some(bg) = self.bg {
            classes.push(format!("cctv-ansi--bg{bg}"));
        }
        classes.join(" ")
    }

    fn apply(&mut self, params: &[u16]) {
        let mut i = 0;
        if params.is_empty() {
            *self = Style::default();
        }
        while i < params.len() {
            match params[i] {
                0 => *self = Style::default(),
                1 => self.bold = true,
                2 => self.dim = true,
                3 => self.italic = true,
                4 => self.underline = true,
                7 => self.inverse = true,
                22 => (self.bold, self.dim) = (false, false),
                23 => self.italic = false,
                24 => self.underline = false,
                27 => self.inverse = false,
                n @ 30..=37 => self.fg = Some((n - 30) as u8),
                39 => self.fg = None,
                n @ 40..=47 => self.bg = Some((n - 40) as u8),
                49 => self.bg = None,
                n @ 90..=97 => self.fg = Some((n - 90 + 8) as u8),
                n @ 100..=107 => self.bg = Some((n - 100 + 8) as u8),
                n @ (38 | 48) => {
                    let colour = match params.get(i + 1) {
                        Some(5) => {
                            let c = params.get(i + 2).copied();
                            i += 2;
                            c.map(from_256)
                        }
                        Some(2) => {
                            let rgb = (params.get(i + 2), params.get(i + 3), params.get(i + 4));
                            i += 4;
                            match rgb {
                                (Some(&r), Some(&g), Some(&b)) => Some(from_rgb(r, g, b)),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    if n == 38 {
                        self.fg = colour;
                    } else {
                        self.bg = colour;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// The nearest of the 16 colours to a 256-colour index.
fn from_256(n: u16) -> u8 {
    match n {
        0..=15 => n as u8,
        16..=231 => {
            let n = n - 16;
            let scale = |v: u16| if v == 0 { 0 } else { 55 + v * 40 };
            from_rgb(scale(n / 36), scale((n / 6) % 6), scale(n % 6))
        }
        _ => {
            let level = 8 + (n.min(255) - 232) * 10;
            from_rgb(level, level, level)
        }
    }
}

fn from_rgb(r: u16, g: u16, b: u16) -> u8 {
    let bright = r.max(g).max(b) > 170;
    let bit = |v: u16| u8::from(v > 85);
    let base = bit(r) | (bit(g) << 1) | (bit(b) << 2);
    if base == 0 && bright {
        7
    } else {
        base + if bright { 8 } else { 0 }
    }
}

/// Styled spans of `text`; unstyled runs are plain text nodes.
pub fn render(text: &str) -> Vec<Node> {
    render_from(Style::default(), text)
}

/// Styled spans of `text` as a terminal shows it after `before`: the part of a long output shown
/// after its hidden middle keeps the colours the middle left on.
pub fn render_after(before: &str, text: &str) -> Vec<Node> {
    let mut style = Style::default();
    let mut chars = before.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            escape(&mut chars, &mut style);
        }
    }
    render_from(style, text)
}

fn render_from(mut style: Style, text: &str) -> Vec<Node> {
    let mut out = Vec::new();
    // The current line so far, as (style, text) runs, so `\r` can rewind it.
    let mut line: Vec<(Style, String)> = Vec::new();
    let mut chars = text.chars().peekable();
    let put = |line: &mut Vec<(Style, String)>, style: Style, c: char| match line.last_mut() {
        Some((s, t)) if *s == style => t.push(c),
        _ => line.push((style, c.to_string())),
    };
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => escape(&mut chars, &mut style),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => line.clear(),
            '\n' => {
                flush(&mut out, &mut line);
                out.push(Node::Text("\n".into()));
            }
            c if c.is_control() && c != '\t' => {}
            c => put(&mut line, style, c),
        }
    }
    flush(&mut out, &mut line);
    merge_text(out)
}

/// Reads the escape sequence after an ESC: SGR changes `style`, anything else is dropped.
fn escape(chars: &mut std::iter::Peekable<std::str::Chars>, style: &mut Style) {
    match chars.next() {
        Some('[') => {
            let mut params = String::new();
            let mut final_byte = None;
            for c in chars.by_ref() {
                if ('\u{40}'..='\u{7e}').contains(&c) {
                    final_byte = Some(c);
                    break;
                }
                params.push(c);
            }
            if final_byte == Some('m') {
                let numbers: Vec<u16> = params.split(';').map(|p| p.parse::<u16>().unwrap_or(0)).collect();
                let numbers = if params.is_empty() { Vec::new() } else { numbers };
                style.apply(&numbers);
            }
        }
        // OSC: up to BEL or ST (ESC \).
        Some(']') => {
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                    chars.next();
                    break;
                }
            }
        }
        _ => {}
    }
}

fn flush(out: &mut Vec<Node>, line: &mut Vec<(Style, String)>) {
    for (style, text) in line.drain(..) {
        if style == Style::default() {
            out.push(Node::Text(text));
        } else {
            let mut span = Element::new(Tag::Span).with_class(&style.class());
            span.children.push(Node::Text(text));
            out.push(Node::Element(span));
        }
    }
}

fn merge_text(nodes: Vec<Node>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    for node in nodes {
        match (out.last_mut(), node) {
            (Some(Node::Text(last)), Node::Text(t)) => last.push_str(&t),
            (_, node) => out.push(node),
        }
    }
    out
}

/// `text` without any escape sequence, for search and summaries.
pub fn plain(text: &str) -> String {
    render(text).iter().map(Node::text).collect()
}

#[cfg(test)]
mod tests {
    use super::{plain, render, render_after};
    use crate::text::markup::Node;

    #[test]
    fn text_after_a_hidden_part_keeps_the_colour_it_left_on() {
        let nodes = render_after("a \u{1b}[32mgreen\nhidden\n", "still green\u{1b}[0m plain");
        let Node::Element(span) = &nodes[0] else { panic!("{nodes:?}") };
        assert_eq!(span.class, "cctv-ansi--fg2");
        assert_eq!(nodes[0].text(), "still green");
        assert_eq!(nodes[1], Node::Text(" plain".into()));
        assert_eq!(render_after("\u{1b}[32mx\u{1b}[0m\n", "plain"), render("plain"));
    }

    #[test]
    fn colours_become_classes_and_reset_ends_them() {
        let nodes = render("ok \u{1b}[1;31merror\u{1b}[0m done");
        assert_eq!(nodes.len(), 3);
        let Node::Element(span) = &nodes[1] else { panic!("{nodes:?}") };
        assert_eq!(span.class, "cctv-ansi--bold cctv-ansi--fg1");
        assert_eq!(nodes[1].text(), "error");
        assert_eq!(nodes[2], Node::Text(" done".into()));
    }

    #[test]
    fn cursor_moves_and_hyperlinks_are_dropped_keeping_the_text() {
        let text = "\u{1b}[2K\u{1b}[1Gbuilding \u{1b}]8;;https://evil.example\u{7}click\u{1b}]8;;\u{7} now\u{1b}]0;title\u{1b}\\";
        assert_eq!(plain(text), "building click now");
    }

    #[test]
    fn a_carriage_return_rewinds_the_line_like_a_terminal() {
        assert_eq!(plain("10%\r50%\r100%\ndone\r\n"), "100%\ndone\n");
    }

    #[test]
    fn extended_colours_map_to_the_sixteen() {
        let Node::Element(span) = &render("\u{1b}[38;5;196mred\u{1b}[38;2;0;0;255mblue")[0] else { panic!() };
        assert_eq!(span.class, "cctv-ansi--fg9");
    }
}
