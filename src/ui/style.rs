//! The viewer's stylesheet, injected once per page, so neither the site nor a page embedding the
//! npm package needs a file of ours.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The viewer's stylesheet, built in so an embedding page needs no file of ours. Every rule is
/// under `.cctv`, and `.cctv` resets what it would inherit, so it neither leaks nor borrows.
const CSS: &str = include_str!("../../www/viewer.css");

/// Adds the viewer's stylesheet once to where `within` is: the shadow root it is in (the
/// `<cctv-viewer>` element, whose styles the host page's cannot reach), or else the document.
pub fn ensure_style(within: Option<&web_sys::Element>) {
    let document = document();
    let shadow = within.and_then(|e| e.get_root_node().dyn_into::<web_sys::ShadowRoot>().ok());
    let present = match &shadow {
        Some(root) => root.query_selector("#cctv-style").ok().flatten().is_some(),
        None => document.get_element_by_id("cctv-style").is_some(),
    };
    if present {
        return;
    }
    let Ok(style) = document.create_element("style") else { return };
    style.set_id("cctv-style");
    style.set_text_content(Some(CSS));
    let _ = match (&shadow, document.head()) {
        (Some(root), _) => root.prepend_with_node_1(&style),
        (None, Some(head)) => head.append_child(&style).map(|_| ()),
        (None, None) => Ok(()),
    };
}
