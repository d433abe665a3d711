//! A tree of safe markup: fixed element names, text as text.

/// Elements the renderers may produce. Their names are fixed here, never taken from input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    P,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Ul,
    Ol,
    Li,
    Blockquote,
    Pre,
    Code,
    Em,
    Strong,
    Del,
    A,
    Table,
    Thead,
    Tbody,
    Tr,
    Th,
    Td,
    Hr,
    Br,
    Span,
    Div,
}

impl Tag {
    pub fn name(self) -> &'static str {
        match self {
            Tag::P => "p",
            Tag::H1 => "h1",
            Tag::H2 => "h2",
            Tag::H3 => "h3",
            Tag::H4 => "h4",
            Tag::H5 => "h5",
            Tag::H6 => "h6",
            Tag::Ul => "ul",
            Tag::Ol => "ol",
            Tag::Li => "li",
            Tag::Blockquote => "blockquote",
            Tag::Pre => "pre",
            Tag::Code => "code",
            Tag::Em => "em",
            Tag::Strong => "strong",
            Tag::Del => "del",
            Tag::A => "a",
            Tag::Table => "table",
            Tag::Thead => "thead",
            Tag::Tbody => "tbody",
            Tag::Tr => "tr",
            Tag::Th => "th",
            Tag::Td => "td",
            Tag::Hr => "hr",
            Tag::Br => "br",
            Tag::Span => "span",
            Tag::Div => "div",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Element(Element),
    Text(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub tag: Tag,
    /// Space-separated class names, all chosen by cctv.
    pub class: String,
    /// A link target, only ever an `http:` or `https:` URL.
    pub href: Option<String>,
    /// The first number of an ordered list.
    pub start: Option<u64>,
    /// A tooltip (for inert links: the target that was not linked).
    pub title: Option<String>,
    pub children: Vec<Node>,
}

impl Element {
    pub fn new(tag: Tag) -> Element {
        Element { tag, class: String::new(), href: None, start: None, title: None, children: Vec::new() }
    }

    pub fn with_class(mut self, class: &str) -> Element {
        self.class = class.to_owned();
        self
    }
}

impl Node {
    /// The text a person would read, for tests and search.
    pub fn text(&self) -> String {
        match self {
            Node::Text(t) => t.clone(),
            Node::Element(e) => e.children.iter().map(Node::text).collect(),
        }
    }
}

/// `url` if it is safe to link to: absolute `http:` or `https:`, nothing else (no `javascript:`,
/// `data:`, relative or protocol-relative links).
pub(crate) fn safe_href(url: &str) -> Option<String> {
    let trimmed = url.trim();
    let lower = trimmed.to_ascii_lowercase();
    let ok = (lower.starts_with("http://") || lower.starts_with("https://"))
        && !trimmed.chars().any(|c| c.is_control() || c.is_whitespace());
    ok.then(|| trimmed.to_owned())
}

#[cfg(test)]
mod tests {
    use super::safe_href;

    #[test]
    fn only_absolute_http_links_are_kept() {
        assert_eq!(safe_href("https://example.com/a?b=1").as_deref(), Some("https://example.com/a?b=1"));
        assert_eq!(safe_href(" HTTP://x.org ").as_deref(), Some("HTTP://x.org"));
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "//evil.com",
            "/relative",
            "vbscript:x",
            "https://a b",
            "java\tscript:alert(1)",
            "https://x\u{0}y",
        ] {
            assert_eq!(safe_href(bad), None, "{bad}");
        }
    }
}
