//! Search matches marked in the rows on screen: `<mark>` elements around the matched words, in
//! text nodes only, wherever a row draws them (Markdown, tool input and output, diffs, nested
//! sub-agents); and, while the Share tab is open, the secrets and personal details it found,
//! as masked or kept. Where they are is `query::search::Matcher`'s and
//! `export::share::Highlights`' answer; this file only finds the text nodes and wraps the
//! ranges it is given.
//!
//! The rows are drawn by many renderers and re-drawn as panels open and the list scrolls, so the
//! marks are laid over the DOM after it changes (a MutationObserver), not built into each
//! renderer. Marks are created with `createElement`, and text stays text.

use std::cell::Cell;
use std::ops::Range;
use std::rc::Rc;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Node, Text};

use super::state::Viewer;
use crate::export::share::Highlights;
use crate::query::search::{Matcher, Scope};

const MARK: &str = "cctv-mark";
const CURRENT: &str = "cctv-mark--current";
/// A finding of the Share tab, masked in an export or kept.
const MASKED: &str = "cctv-mark--masked";
const KEPT: &str = "cctv-mark--kept";

/// Where marks go in a text, and what each is.
type Ranges<'a> = &'a dyn Fn(&str) -> Vec<(Range<usize>, MarkKind)>;

/// What a mark is.
enum MarkKind {
    Match,
    /// With what it becomes.
    Masked(String),
    Kept,
}

/// Keeps the marks in `list` up to date with the viewer's search, and brings the current row's
/// first match into view inside its panel when a search step asks for it.
pub(crate) fn watch(viewer: Viewer, list: NodeRef<Div>) {
    let scheduled = Rc::new(Cell::new(false));
    let observer: Rc<Cell<Option<web_sys::MutationObserver>>> = Rc::new(Cell::new(None));
    let pass = {
        let (scheduled, observer) = (scheduled.clone(), observer.clone());
        Closure::<dyn FnMut()>::new(move || {
            scheduled.set(false);
            // A frame can come after the list (or, embedded, the viewer) is gone: then there is
            // nothing to mark.
            let Some(root) = list.try_get_untracked().flatten() else { return };
            let Some(matcher) = viewer.matcher.try_get_untracked() else { return };
            let Some(findings) = viewer.share.highlights.try_get_untracked() else { return };
            mark_all(&root, matcher.ok().flatten().as_ref(), findings.as_deref());
            if viewer.reveal_match.try_get_untracked() == Some(true) && reveal_current(&root) {
                viewer.reveal_match.try_set(false);
            }
            // What this pass changed is not a change to react to.
            if let Some(o) = observer.take() {
                o.take_records();
                observer.set(Some(o));
            }
        })
    };
    let pass = Rc::new(pass);
    let schedule = {
        let (scheduled, pass) = (scheduled.clone(), pass.clone());
        move || {
            if !scheduled.replace(true) {
                let _ = window().request_animation_frame(pass.as_ref().as_ref().unchecked_ref());
            }
        }
    };
    let changed = Closure::<dyn FnMut()>::new(schedule.clone());
    if let Ok(o) = web_sys::MutationObserver::new(changed.as_ref().unchecked_ref()) {
        observer.set(Some(o));
    }
    // Both live as long as the page: like the list's ResizeObserver callback, they are made once
    // per list (once per session shown).
    changed.forget();
    std::mem::forget(pass);
    list.on_load(move |el| {
        if let Some(o) = observer.take() {
            let options = web_sys::MutationObserverInit::new();
            options.set_child_list(true);
            options.set_subtree(true);
            options.set_character_data(true);
            let _ = o.observe_with_options(&el, &options);
            observer.set(Some(o));
        }
    });
    Effect::new(move |_| {
        viewer.matcher.track();
        viewer.share.highlights.track();
        viewer.target.track();
        viewer.reveal_match.track();
        schedule();
    });
}

/// Where a search in each scope looks on screen: the rows' bodies, the bodies of the person's
/// rows, or what tools printed and read.
fn scope_selector(scope: Scope) -> &'static str {
    match scope {
        Scope::Everything => ".cctv-item__body",
        Scope::Prompts => ".cctv-item--user > .cctv-item__body",
        Scope::ToolOutput => {
            ".cctv-item--tool .cctv-out, .cctv-item--tool .cctv-code, .cctv-item--tool .cctv-json, .cctv-item--tool .cctv-md"
        }
    }
}

/// The viewer's own words inside a row (copy buttons, line numbers, a diff's signs): never
/// searched, never marked.
const NOT_TEXT: &str = ".cctv-copy, .cctv-code__no, .cctv-diff__no, .cctv-diff__sign";

/// Elements whose text is a block of its own: the text on either side of their edges is not one
/// word.
const BLOCK: &str =
    "p, li, td, th, tr, pre, div, dt, dd, blockquote, h1, h2, h3, h4, h5, h6, summary, button";

/// Removes the old marks under `root` and marks every match of `matcher` and every finding of
/// `findings` in the rows' bodies.
fn mark_all(root: &Element, matcher: Option<&Matcher>, findings: Option<&Highlights>) {
    unmark(root);
    let mark_in = |selector: &str, ranges: Ranges| {
        let Ok(bodies) = root.query_selector_all(selector) else { return };
        for i in 0..bodies.length() {
            let Some(body) = bodies.item(i) else { continue };
            mark(&body, ranges);
        }
    };
    if let Some(findings) = findings {
        mark_in(scope_selector(Scope::Everything), &|text| {
            findings
                .ranges(text)
                .map(|(range, masked, mask)| {
                    (range, if masked { MarkKind::Masked(mask.to_owned()) } else { MarkKind::Kept })
                })
                .collect()
        });
    }
    let Some(matcher) = matcher else { return };
    mark_in(scope_selector(matcher.scope), &|text| {
        matcher.ranges(text).into_iter().map(|range| (range, MarkKind::Match)).collect()
    });
    // The current row's matches stand out.
    if let Ok(current) =
        root.query_selector_all(&format!(".cctv-item--target .{MARK}:not(.{MASKED}):not(.{KEPT})"))
    {
        for i in 0..current.length() {
            if let Some(m) = current.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                let _ = m.class_list().add_1(CURRENT);
            }
        }
    }
}

fn unmark(root: &Element) {
    let Ok(marks) = root.query_selector_all(&format!("mark.{MARK}")) else { return };
    for i in 0..marks.length() {
        let Some(mark) = marks.item(i) else { continue };
        let Some(parent) = mark.parent_node() else { continue };
        while let Some(child) = mark.first_child() {
            let _ = parent.insert_before(&child, Some(&mark));
        }
        let _ = parent.remove_child(&mark);
        // Joins the text split around the mark again, so the next search sees whole words.
        parent.normalize();
    }
}

/// Marks what `ranges` finds in one row's body. The text nodes are searched as one text, so a
/// match that spans several nodes (a highlighted token, a word in bold) is marked piece by piece.
fn mark(body: &Node, ranges: Ranges) {
    let mut nodes = Vec::new();
    text_nodes(body, &mut nodes);
    nodes.retain(|n| n.parent_element().is_some_and(|p| p.closest(NOT_TEXT).ok().flatten().is_none()));
    // The text as one string, with a line break between nodes in different blocks (in the string
    // only), so that neither a match nor a word boundary runs from one cell or line into the next.
    let mut text = String::new();
    // Where each node's text begins and ends in it.
    let mut spans: Vec<(usize, usize)> = Vec::with_capacity(nodes.len());
    let mut block = None;
    for node in &nodes {
        let here = node.parent_element().and_then(|p| p.closest(BLOCK).ok().flatten());
        if !spans.is_empty() && here != block {
            text.push('\n');
        }
        block = here;
        let start = text.len();
        text.push_str(&node.data());
        spans.push((start, text.len()));
    }
    let ranges = ranges(&text);
    if ranges.is_empty() {
        return;
    }
    // Every (node, start..end) piece, in bytes of that node's text; wrapped last piece first so
    // splitting a node does not move the pieces still to wrap.
    let mut pieces = Vec::new();
    for (range, found) in &ranges {
        let first = spans.partition_point(|&(s, _)| s <= range.start).saturating_sub(1);
        for (index, &(start, end)) in spans.iter().enumerate().skip(first) {
            if start >= range.end {
                break;
            }
            let (from, to) = (range.start.max(start), range.end.min(end));
            if from < to {
                pieces.push((index, from - start, to - start, found));
            }
        }
    }
    let Some(document) = body.owner_document() else { return };
    for (index, from, to, found) in pieces.into_iter().rev() {
        let node = &nodes[index];
        let data = node.data();
        let (Some(before), Some(inside)) = (data.get(..from), data.get(from..to)) else { continue };
        let (from16, len16) = (utf16_len(before), utf16_len(inside));
        let Ok(middle) = node.split_text(from16) else { continue };
        let _ = middle.split_text(len16);
        let Ok(mark) = document.create_element("mark") else { continue };
        match found {
            MarkKind::Match => mark.set_class_name(MARK),
            MarkKind::Masked(mask) => {
                mark.set_class_name(&format!("{MARK} {MASKED}"));
                let _ = mark.set_attribute("data-mask", mask);
                let _ = mark.set_attribute("title", &format!("masked in an export as {mask}"));
            }
            MarkKind::Kept => {
                mark.set_class_name(&format!("{MARK} {KEPT}"));
                let _ = mark.set_attribute("title", "kept in an export");
            }
        }
        let Some(parent) = middle.parent_node() else { continue };
        let _ = parent.insert_before(&mark, Some(&middle));
        let _ = mark.append_child(&middle);
    }
}

fn utf16_len(text: &str) -> u32 {
    text.encode_utf16().count() as u32
}

/// The text nodes under `node`, in document order.
fn text_nodes(node: &Node, out: &mut Vec<Text>) {
    let children = node.child_nodes();
    for i in 0..children.length() {
        let Some(child) = children.item(i) else { continue };
        match child.dyn_into::<Text>() {
            Ok(text) => out.push(text),
            Err(child) => text_nodes(&child, out),
        }
    }
}

/// Scrolls the first match of the current row into view inside whatever scrolls around it
/// within the row (a long Write or output panel); whether the row had a match to show.
fn reveal_current(root: &Element) -> bool {
    let Ok(Some(mark)) = root.query_selector(&format!(".{CURRENT}")) else { return false };
    let Ok(Some(row)) = mark.closest(".cctv-item") else { return false };
    let mut at = mark.parent_element();
    while let Some(el) = at {
        if el == row {
            break;
        }
        if el.scroll_height() > el.client_height() + 1 {
            let (outer, inner) = (el.get_bounding_client_rect(), mark.get_bounding_client_rect());
            let offset = inner.top() - outer.top() + el.scroll_top() as f64;
            el.set_scroll_top((offset - el.client_height() as f64 / 2.0).max(0.0) as i32);
        }
        at = el.parent_element();
    }
    true
}
