//! `text::markup` trees as elements. Only this file turns them into DOM, and it only ever
//! creates the fixed elements the tree names, with text as text.

use leptos::prelude::*;

use super::copy::copy_button;
use crate::text::ansi;
use crate::text::clip::{clip, Clipped};
use crate::text::markup::{Element, Node, Tag};

pub(crate) fn nodes(nodes: Vec<Node>) -> AnyView {
    nodes.into_iter().map(node).collect_view().into_any()
}

fn node(node: Node) -> AnyView {
    match node {
        Node::Text(text) => text.into_any(),
        Node::Element(element) => element_view(element),
    }
}

fn element_view(e: Element) -> AnyView {
    let Element { tag, class, href, start, title, children } = e;
    let class = (!class.is_empty()).then_some(class);
    let code = (tag == Tag::Pre).then(|| children.iter().map(Node::text).collect::<String>());
    let kids = move || children.into_iter().map(node).collect_view();
    match tag {
        Tag::P => view! { <p class=class>{kids()}</p> }.into_any(),
        Tag::H1 => view! { <h1 class=class>{kids()}</h1> }.into_any(),
        Tag::H2 => view! { <h2 class=class>{kids()}</h2> }.into_any(),
        Tag::H3 => view! { <h3 class=class>{kids()}</h3> }.into_any(),
        Tag::H4 => view! { <h4 class=class>{kids()}</h4> }.into_any(),
        Tag::H5 => view! { <h5 class=class>{kids()}</h5> }.into_any(),
        Tag::H6 => view! { <h6 class=class>{kids()}</h6> }.into_any(),
        Tag::Ul => view! { <ul class=class>{kids()}</ul> }.into_any(),
        Tag::Ol => view! { <ol class=class start=start>{kids()}</ol> }.into_any(),
        Tag::Li => view! { <li class=class>{kids()}</li> }.into_any(),
        Tag::Blockquote => view! { <blockquote class=class>{kids()}</blockquote> }.into_any(),
        // A code block, with a button that copies its text.
        Tag::Pre => view! {
            <div class="cctv-copyable">
                {copy_button("copy the code", code.unwrap_or_default())}
                <pre class=class data-lang=title>{kids()}</pre>
            </div>
        }
        .into_any(),
        Tag::Code => view! { <code class=class>{kids()}</code> }.into_any(),
        Tag::Em => view! { <em class=class>{kids()}</em> }.into_any(),
        Tag::Strong => view! { <strong class=class>{kids()}</strong> }.into_any(),
        Tag::Del => view! { <del class=class>{kids()}</del> }.into_any(),
        // `safe_href` let only http(s) through; the link opens apart from this page.
        Tag::A => view! {
            <a class=class href=href target="_blank" rel="noopener noreferrer nofollow">{kids()}</a>
        }
        .into_any(),
        Tag::Table => view! { <table class=class>{kids()}</table> }.into_any(),
        Tag::Thead => view! { <thead class=class>{kids()}</thead> }.into_any(),
        Tag::Tbody => view! { <tbody class=class>{kids()}</tbody> }.into_any(),
        Tag::Tr => view! { <tr class=class>{kids()}</tr> }.into_any(),
        Tag::Th => view! { <th class=class>{kids()}</th> }.into_any(),
        Tag::Td => view! { <td class=class>{kids()}</td> }.into_any(),
        Tag::Hr => view! { <hr class=class /> }.into_any(),
        Tag::Br => view! { <br /> }.into_any(),
        Tag::Span => view! { <span class=class title=title>{kids()}</span> }.into_any(),
        Tag::Div => view! { <div class=class>{kids()}</div> }.into_any(),
    }
}

/// Markdown text as elements.
pub(crate) fn markdown(text: &str) -> AnyView {
    view! { <div class="cctv-md">{nodes(crate::text::markdown::render(text))}</div> }.into_any()
}

/// Terminal output as elements. A long output shows its first and last lines, with a button for
/// what lies between ([`clip`]).
pub(crate) fn terminal(text: &str, class: &'static str) -> AnyView {
    let whole = move |text: &str| view! { <pre class=class>{nodes(ansi::render(text))}</pre> }.into_any();
    let Some(Clipped { head, hidden_lines, hidden_bytes, tail }) = clip(text) else {
        return whole(text);
    };
    let size = format!("{:.0} KB", hidden_bytes as f64 / 1024.0);
    let label = match hidden_lines {
        0 => format!("Show {size} more"),
        1 => format!("Show 1 more line ({size})"),
        n => format!("Show {n} more lines ({size})"),
    };
    let (head_end, tail_start) = (head.len(), text.len() - tail.len());
    let text = text.to_owned();
    let (all, set_all) = signal(false);
    (move || {
        if all.get() {
            return whole(&text);
        }
        view! {
            <pre class=class>{nodes(ansi::render(&text[..head_end]))}</pre>
            <button class="cctv-button cctv-out__more" on:click=move |_| set_all.set(true)>
                {label.clone()}
            </button>
            <pre class=class>{nodes(ansi::render_after(&text[..tail_start], &text[tail_start..]))}</pre>
        }
        .into_any()
    })
    .into_any()
}
