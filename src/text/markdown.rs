//! Markdown to a safe markup tree, with pulldown-cmark's events walked by hand.
//!
//! Raw HTML in the text is shown as text, exactly as written. Links keep only `http(s)` targets;
//! anything else (and every image, since the page loads nothing) is shown as inert text.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag as Md, TagEnd};

use crate::text::markup::{safe_href, Element, Node, Tag};

pub fn render(text: &str) -> Vec<Node> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut tree = Tree { stack: vec![Element::new(Tag::Div)], in_table_head: false, code_language: None };
    for event in Parser::new_ext(text, options) {
        tree.event(event);
    }
    tree.finish()
}

/// The elements open while the events are read, the innermost last.
struct Tree {
    stack: Vec<Element>,
    /// Table cells are header cells until the head ends.
    in_table_head: bool,
    /// The language of the fenced code block being read, to highlight it when it ends.
    code_language: Option<String>,
}

impl Tree {
    fn event(&mut self, event: Event) {
        let stack = &mut self.stack;
        match event {
            Event::Start(tag) => {
                let element = self.open(tag);
                self.stack.push(element);
            }
            Event::End(end) => self.end(end),
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => push_text(stack, &t),
            Event::Code(code) => {
                let mut element = Element::new(Tag::Code);
                element.children.push(Node::Text(code.to_string()));
                push(stack, element);
            }
            Event::InlineMath(m) | Event::DisplayMath(m) => push_text(stack, &m),
            Event::FootnoteReference(name) => push_text(stack, &format!("[^{name}]")),
            Event::SoftBreak => push_text(stack, "\n"),
            Event::HardBreak => push(stack, Element::new(Tag::Br)),
            Event::Rule => push(stack, Element::new(Tag::Hr)),
            Event::TaskListMarker(done) => push_text(stack, if done { "☑ " } else { "☐ " }),
        }
    }

    /// The element a tag opens (a code block and a table head open two: the outer one is pushed
    /// here).
    fn open(&mut self, tag: Md) -> Element {
        match tag {
            Md::Paragraph => Element::new(Tag::P),
            Md::Heading { level, .. } => Element::new(match level {
                HeadingLevel::H1 => Tag::H1,
                HeadingLevel::H2 => Tag::H2,
                HeadingLevel::H3 => Tag::H3,
                HeadingLevel::H4 => Tag::H4,
                HeadingLevel::H5 => Tag::H5,
                HeadingLevel::H6 => Tag::H6,
            }),
            Md::BlockQuote(_) => Element::new(Tag::Blockquote),
            Md::CodeBlock(kind) => {
                let mut pre = Element::new(Tag::Pre).with_class("cctv-md__code");
                if let CodeBlockKind::Fenced(lang) = kind {
                    let lang = lang.split_whitespace().next().unwrap_or("");
                    // The language is shown as a label, never used as a class.
                    if !lang.is_empty() {
                        pre.title = Some(lang.to_owned());
                        self.code_language = Some(lang.to_owned());
                    }
                }
                self.stack.push(pre);
                Element::new(Tag::Code)
            }
            Md::List(Some(start)) => {
                let mut ol = Element::new(Tag::Ol);
                ol.start = Some(start);
                ol
            }
            Md::List(None) => Element::new(Tag::Ul),
            Md::Item => Element::new(Tag::Li),
            Md::Emphasis => Element::new(Tag::Em),
            Md::Strong => Element::new(Tag::Strong),
            Md::Strikethrough => Element::new(Tag::Del),
            Md::Link { dest_url, .. } => link(&dest_url),
            Md::Image { dest_url, .. } => {
                let mut span = Element::new(Tag::Span).with_class("cctv-md__image");
                span.title = Some(dest_url.to_string());
                span.children.push(Node::Text("[image: ".into()));
                span
            }
            Md::Table(_) => Element::new(Tag::Table),
            Md::TableHead => {
                self.in_table_head = true;
                self.stack.push(Element::new(Tag::Thead));
                Element::new(Tag::Tr)
            }
            Md::TableRow => Element::new(Tag::Tr),
            Md::TableCell => Element::new(if self.in_table_head { Tag::Th } else { Tag::Td }),
            Md::HtmlBlock => Element::new(Tag::Pre).with_class("cctv-md__html"),
            _ => Element::new(Tag::Div),
        }
    }

    fn end(&mut self, end: TagEnd) {
        let closes = match end {
            TagEnd::CodeBlock | TagEnd::TableHead => 2,
            _ => 1,
        };
        if let TagEnd::TableHead = end {
            self.in_table_head = false;
        }
        if let (TagEnd::CodeBlock, Some(language)) = (end, self.code_language.take()) {
            if let Some(code) = self.stack.last_mut() {
                let text: String = code.children.iter().map(Node::text).collect();
                code.children = crate::text::highlight::highlight(&text, &language);
            }
        }
        if let TagEnd::Image = end {
            if let Some(top) = self.stack.last_mut() {
                top.children.push(Node::Text("]".into()));
            }
        }
        for _ in 0..closes {
            close(&mut self.stack);
        }
    }

    fn finish(mut self) -> Vec<Node> {
        while self.stack.len() > 1 {
            close(&mut self.stack);
        }
        self.stack.pop().map(|root| root.children).unwrap_or_default()
    }
}

/// A link: an `<a>` for an http(s) target, else inert text that shows the target on hover.
fn link(dest_url: &str) -> Element {
    match safe_href(dest_url) {
        Some(href) => {
            let mut a = Element::new(Tag::A);
            a.href = Some(href);
            a
        }
        None => {
            let mut span = Element::new(Tag::Span).with_class("cctv-md__inert-link");
            span.title = Some(dest_url.to_string());
            span
        }
    }
}

fn close(stack: &mut Vec<Element>) {
    if stack.len() > 1 {
        let done = stack.pop().expect("more than the root");
        push(stack, done);
    }
}

fn push(stack: &mut [Element], element: Element) {
    if let Some(top) = stack.last_mut() {
        top.children.push(Node::Element(element));
    }
}

fn push_text(stack: &mut [Element], text: &str) {
    if let Some(top) = stack.last_mut() {
        if let Some(Node::Text(last)) = top.children.last_mut() {
            last.push_str(text);
        } else {
            top.children.push(Node::Text(text.to_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::render;
    use crate::text::markup::{Element, Node, Tag};

    fn find<'a>(nodes: &'a [Node], tag: Tag, out: &mut Vec<&'a Element>) {
        for node in nodes {
            if let Node::Element(e) = node {
                if e.tag == tag {
                    out.push(e);
                }
                find(&e.children, tag, out);
            }
        }
    }

    fn all(nodes: &[Node], tag: Tag) -> Vec<&Element> {
        let mut out = Vec::new();
        find(nodes, tag, &mut out);
        out
    }

    fn text(nodes: &[Node]) -> String {
        nodes.iter().map(Node::text).collect()
    }

    #[test]
    fn headings_lists_tables_and_code_become_their_elements() {
        let nodes =
            render("# Title\n\n- a\n- **b**\n\n1. x\n\n| h |\n|---|\n| c |\n\n```rust\nfn main() {}\n```\n");
        assert_eq!(all(&nodes, Tag::H1).len(), 1);
        assert_eq!(all(&nodes, Tag::Li).len(), 3);
        assert_eq!(all(&nodes, Tag::Strong)[0].children, [Node::Text("b".into())]);
        assert_eq!(all(&nodes, Tag::Th).len(), 1);
        assert_eq!(all(&nodes, Tag::Td).len(), 1);
        let pre = all(&nodes, Tag::Pre);
        assert_eq!(pre[0].title.as_deref(), Some("rust"));
        assert_eq!(text(&pre[0].children), "fn main() {}\n");
        let keywords: Vec<&Element> = all(&pre[0].children, Tag::Span);
        assert!(
            keywords.iter().any(|s| s.class == "cctv-hl--keyword"),
            "the fenced rust block is highlighted"
        );
    }

    #[test]
    fn raw_html_is_text_not_markup() {
        let source = "<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)> <b>bold</b>";
        let nodes = render(source);
        let shown = text(&nodes);
        assert!(shown.contains("<script>alert(1)</script>"), "{shown}");
        assert!(shown.contains("<img src=x onerror=alert(1)>"), "{shown}");
        assert!(all(&nodes, Tag::Strong).is_empty(), "no <b> became bold");
    }

    #[test]
    fn only_http_links_link_and_images_never_load() {
        let nodes = render("[ok](https://example.com) [bad](javascript:alert(1)) [d](data:text/html,x) ![pic](https://t.co/p.png)");
        let links = all(&nodes, Tag::A);
        assert_eq!(links.len(), 1);
        assert_eq!(links[0].href.as_deref(), Some("https://example.com"));
        let spans = all(&nodes, Tag::Span);
        assert_eq!(spans.len(), 3, "two inert links and one image placeholder");
        assert!(spans.iter().all(|s| s.href.is_none()));
        assert!(text(&nodes).contains("[image: pic]"));
    }
}
