//! Getting around: `#<id>` links, revealing an item wherever it is, and the keyboard.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::{Filter, PanelKey, Part, Viewer};
use super::top::{expand_all, toggle_theme};
use crate::normalize::{ItemRef, ThreadRef, Workspace};
use crate::present::link::{self, Link};
use crate::present::rows::{self, Row};

/// Shows the place the address names (`#s=…&i=…`, `#<uuid>`; see `present::link`). A link to
/// a session that is not loaded yet is kept, and followed when its files are opened.
pub(crate) fn go_to_hash(viewer: Viewer) {
    let hash = window().location().hash().unwrap_or_default();
    if super::library::follow(viewer, &hash) {
        return;
    }
    go_to_link(viewer, &hash);
}

/// Follows a link fragment (or a bare row id); false if no loaded session has the place.
pub(crate) fn go_to_link(viewer: Viewer, fragment: &str) -> bool {
    let Some(link) = Link::parse(fragment) else {
        viewer.wanted.set(None);
        return false;
    };
    let Some(ws) = viewer.workspace.get_untracked() else { return false };
    let Some(place) = link::resolve(&ws, &link) else {
        viewer.wanted.set(Some(link));
        return false;
    };
    viewer.wanted.set(None);
    if viewer.session.get_untracked() != place.session {
        viewer.session.set(place.session);
        viewer.reset_view();
    }
    reveal(viewer, &ws, place.session, place.thread, place.first);
    viewer.span.set(place.last);
    if viewer.library.take_opening_found() {
        // Opened from a search across sessions: the row shows its match, as a search step does.
        viewer.open.update(|o| {
            o.insert(PanelKey { at: ItemRef::new(place.thread, place.first), part: Part::Body });
        });
        viewer.reveal_match.set(true);
    }
    true
}

/// Opens the sub-agents and the branch an item is in, clears filters that hide it, and scrolls
/// to it.
pub(crate) fn reveal(viewer: Viewer, ws: &Workspace, session: usize, thread: ThreadRef, item: u32) {
    let Some(s) = ws.sessions.get(session) else { return };
    let (agents, branch) = rows::path_to(s, thread);
    let copied = s.item(thread, item).is_some_and(|i| s.is_copied(i.line));
    viewer.choices.update(|c| {
        c.open_agents.extend(agents);
        if branch.is_some() {
            c.branch = branch;
        }
        c.show_copied |= copied;
    });
    if !viewer.filter.get_untracked().keeps(ws, s, ItemRef::new(thread, item)) {
        viewer.filter.set(Filter::default());
    }
    viewer.go_to(ItemRef::new(thread, item));
}

pub(crate) fn keyboard(viewer: Viewer, rows: ReadSignal<Vec<Row>>, embedded: bool, e: ev::KeyboardEvent) {
    // Where the key was pressed: the first of its path, since inside a shadow root (the
    // <cctv-viewer> element) the page sees the event come from the host element instead.
    let target = e.composed_path().get(0).dyn_into::<web_sys::Element>().ok();
    // Embedded in a host page, keys are the viewer's only while focus is inside it.
    let inside = target.as_ref().is_some_and(|t| t.closest(".cctv").ok().flatten().is_some());
    if embedded && !inside {
        return;
    }
    let typing =
        target.as_ref().is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return;
    }
    match e.key().as_str() {
        "/" => {
            e.prevent_default();
            // The viewer's own search box, in the document or the shadow root the key came from.
            let root = target.map(|t| t.get_root_node());
            let search = root
                .and_then(|r| r.dyn_into::<web_sys::DocumentFragment>().ok())
                .and_then(|r| r.query_selector("#cctv-search").ok().flatten())
                .or_else(|| document().get_element_by_id("cctv-search"));
            if let Some(input) = search {
                let _ = input.unchecked_into::<web_sys::HtmlElement>().focus();
            }
        }
        "j" | "k" => next_prompt(viewer, rows, e.key() == "j"),
        "e" => expand_all(viewer, true),
        "E" => expand_all(viewer, false),
        "t" => toggle_theme(viewer),
        "Escape" if viewer.overview.get_untracked() => viewer.overview.set(false),
        _ => {}
    }
}

/// Moves to the next (or previous) prompt the user typed.
fn next_prompt(viewer: Viewer, rows: ReadSignal<Vec<Row>>, forward: bool) {
    let Some(ws) = viewer.workspace.get_untracked() else { return };
    let session = viewer.session.get_untracked();
    let Some(s) = ws.sessions.get(session) else { return };
    let rows = rows.get_untracked();
    let current = viewer.target.get_untracked().and_then(|t| rows.iter().position(|r| r.at() == t));
    let is_prompt = |r: &Row| s.item(r.thread, r.item).is_some_and(|i| i.is_typed_prompt());
    let found = if forward {
        let from = current.map_or(0, |c| c + 1);
        rows.iter().skip(from).find(|r| is_prompt(r))
    } else {
        let to = current.unwrap_or(rows.len());
        rows.iter().take(to).rev().find(|r| is_prompt(r))
    };
    if let Some(r) = found {
        viewer.go_to(r.at());
    }
}
