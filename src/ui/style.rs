//! The viewer's stylesheet, injected once per page, so neither the site nor a page embedding the
//! npm package needs a file of ours.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// `www/css/<name>.css` for each name, in the order given, joined by a blank line: one `concat!`
/// of `include_str!`s, so the whole sheet is still one constant in the wasm.
macro_rules! stylesheet {
    ($first:literal $(, $rest:literal)* $(,)?) => {
        concat!(
            include_str!(concat!("../../www/css/", $first, ".css"))
            $(, "\n", include_str!(concat!("../../www/css/", $rest, ".css")))*
        )
    };
}

/// The viewer's stylesheet, built in so an embedding page needs no file of ours. Every rule is
/// under `.cctv`, and `.cctv` resets what it would inherit, so it neither leaks nor borrows.
///
/// The order is the cascade: rules of equal specificity resolve to the later one, and several
/// files override an earlier one on purpose (`narrow` and `phone` restyle the top bar, the list,
/// the rows and the side panel drawn before them; `phone-panel` comes after `panel`, whose header
/// it lets wrap; `highlight`'s dark colours after its light ones). Moving a file moves its rules.
/// The files were cut from one sheet at its blank lines, and this joins them back byte for byte.
const CSS: &str = stylesheet!(
    "theme",       // the colours as variables, light and dark; `.cctv` resets what it inherits
    "base",        // form controls, code, links, badges, agent colours, buttons
    "top",         // the top bar (ui/top.rs): title, sessions, the search box and its options
    "status",      // loading progress, errors, the drop hint, the welcome
    "layout",      // the conversation beside the side panel
    "library",     // a folder's projects and sessions (ui/library_view.rs)
    "overview",    // the overview over the conversation (ui/overview.rs), its charts, timeline
    "list",        // the scrolled list of rows (ui/list.rs)
    "side",        // the side panel (ui/side.rs): tabs, about, stats, contents
    "narrow",      // under 900px: the side panel opens over the conversation
    "phone",       // under 700px: the top bar wraps, filters fold, rows take less room
    "item",        // a row (ui/item.rs): gutter, role, prompt, images
    "markdown",    // text drawn from Markdown
    "panel",       // collapsible panels (ui/panel.rs) and the tool calls in them (ui/tools/)
    "code",        // code with line numbers, diffs
    "todos",       // todos, questions, hooks
    "event",       // events, compactions, raw lines, the branches of a fork
    "ansi",        // terminal colours
    "highlight",   // syntax highlighting, light then dark
    "notices",     // the demo's note; commands, notices, API errors, stops, drift
    "marks",       // search matches and what Share masks, in the rows (ui/marks.rs)
    "share",       // the Share tab (ui/share.rs)
    "when",        // day changes and pauses above a row; the link to a sub-agent
    "focus",       // where the keyboard is; reduced motion
    "copy",        // copy buttons (ui/copy.rs)
    "phone-panel", // under 700px: a call's header wraps (after `panel`, which it overrides)
    "live",        // a followed session (ui/follow.rs, browser/follow.rs): its bar and the fresh rows button
);

/// Adds the viewer's stylesheet once to where `within` is: the shadow root it is in (the
/// `<cctv-viewer>` element, whose styles the host page's cannot reach), or else the document.
pub(crate) fn ensure_style(within: Option<&web_sys::Element>) {
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
