//! The viewer inside any element of a host page (the npm package's `mountViewer`), and the style
//! it brings along.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use super::state::{Theme, Viewer};
use super::App;
use crate::normalize::Input;

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

/// A viewer mounted in a host element. Dropping it (or `destroy`) removes it.
pub struct Embedded {
    viewer: Viewer,
    /// Leptos' handle for what it mounted; dropping it unmounts.
    mounted: Option<Box<dyn Any>>,
}

impl Embedded {
    pub fn mount(
        element: web_sys::HtmlElement,
        files: Vec<Input>,
        theme: Theme,
        on_select: Option<js_sys::Function>,
    ) -> Embedded {
        let slot: Rc<RefCell<Option<Viewer>>> = Rc::new(RefCell::new(None));
        let out = slot.clone();
        let mounted = leptos::mount::mount_to(element, move || {
            // Created under the mount's owner, so unmounting disposes of it too.
            let viewer = Viewer::new();
            viewer.theme.set(theme);
            if let Some(callback) = on_select {
                Effect::new(move |_| {
                    let Some((thread, item)) = viewer.target.get() else { return };
                    let Some(ws) = viewer.workspace.get_untracked() else { return };
                    let Some(s) = ws.sessions.get(viewer.session.get_untracked()) else { return };
                    let Some(item) = crate::present::rows::thread(s, thread).items.get(item as usize) else {
                        return;
                    };
                    let id = crate::normalize::ids::item_id(&ws, item);
                    let _ = callback.call1(&wasm_bindgen::JsValue::NULL, &id.into());
                });
            }
            *out.borrow_mut() = Some(viewer);
            view! { <App initial=files viewer=viewer embedded=true /> }
        });
        let viewer = slot.borrow_mut().take().expect("the App provides its viewer while mounting");
        Embedded { viewer, mounted: Some(Box::new(mounted)) }
    }

    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// Shows the item with this anchor id; false if no loaded item has it.
    pub fn scroll_to(&self, id: &str) -> bool {
        super::go_to_id(self.viewer, id)
    }

    pub fn destroy(&mut self) {
        self.mounted = None;
    }

    pub fn is_mounted(&self) -> bool {
        self.mounted.is_some()
    }
}

/// The theme names JavaScript passes.
pub fn theme_named(name: &str) -> Option<Theme> {
    match name {
        "light" => Some(Theme::Light),
        "dark" => Some(Theme::Dark),
        "system" | "auto" => Some(Theme::System),
        _ => None,
    }
}
