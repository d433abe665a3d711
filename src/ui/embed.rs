//! The viewer inside any element of a host page (the npm package's `mountViewer`).

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use super::state::{Theme, Viewer};
use super::App;
use crate::normalize::{Input, ItemRef};

/// A viewer mounted in a host element. Dropping it (or `destroy`) removes it.
pub(crate) struct Embedded {
    viewer: Viewer,
    /// Leptos' handle for what it mounted; dropping it unmounts.
    mounted: Option<Box<dyn Any>>,
}

impl Embedded {
    pub(crate) fn mount(
        element: web_sys::HtmlElement,
        files: Vec<Input>,
        theme: Theme,
        on_select: Option<js_sys::Function>,
    ) -> Embedded {
        super::style::ensure_style(Some(&element));
        let slot: Rc<RefCell<Option<Viewer>>> = Rc::new(RefCell::new(None));
        let out = slot.clone();
        let mounted = leptos::mount::mount_to(element, move || {
            // Created under the mount's owner, so unmounting disposes of it too.
            let viewer = Viewer::new();
            viewer.theme.set(theme);
            if let Some(callback) = on_select {
                Effect::new(move |_| {
                    let Some(ItemRef { thread, item }) = viewer.target.get() else { return };
                    let Some(ws) = viewer.workspace.get_untracked() else { return };
                    let Some(s) = ws.sessions.get(viewer.session.get_untracked()) else { return };
                    let Some(item) = s.item(thread, item) else { return };
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

    pub(crate) fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// Shows the item with this anchor id (or the place a link fragment names); false if no
    /// loaded session has it.
    pub(crate) fn scroll_to(&self, id: &str) -> bool {
        super::navigation::go_to_link(self.viewer, id)
    }

    pub(crate) fn destroy(&mut self) {
        self.mounted = None;
    }

    pub(crate) fn is_mounted(&self) -> bool {
        self.mounted.is_some()
    }
}

/// The theme names JavaScript passes.
pub(crate) fn theme_named(name: &str) -> Option<Theme> {
    match name {
        "light" => Some(Theme::Light),
        "dark" => Some(Theme::Dark),
        "system" | "auto" => Some(Theme::System),
        _ => None,
    }
}
