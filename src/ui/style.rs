//! The viewer's stylesheet, injected once per page, so neither the site nor a page embedding the
//! npm package needs a file of ours.

use leptos::prelude::*;

/// The viewer's stylesheet, built in so an embedding page needs no file of ours. Every rule is
/// under `.cctv`, and `.cctv` resets what it would inherit, so it neither leaks nor borrows.
const CSS: &str = include_str!("../../www/viewer.css");

/// Adds the viewer's stylesheet to the document once.
pub fn ensure_style() {
    let document = document();
    if document.get_element_by_id("cctv-style").is_some() {
        return;
    }
    if let (Ok(style), Some(head)) = (document.create_element("style"), document.head()) {
        style.set_id("cctv-style");
        style.set_text_content(Some(CSS));
        let _ = head.append_child(&style);
    }
}
