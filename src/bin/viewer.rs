//! The web app Trunk builds from index.html: report panics in the browser console, then mount the
//! viewer with the demo session.

use cctv::demo::demo_inputs;
use cctv::ui::App;
use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    // The session list's workers run this same wasm (src/browser/worker.rs): there is nothing to mount.
    if web_sys::window().is_none() {
        return;
    }
    // A shared page (src/export/to_html.rs) starts its session itself, through openShared.
    if cctv::ui::shared::is_shared_page() {
        return;
    }
    // `?max-mb=N` lowers the size limit, to see what happens to a file too large for the tab.
    let search = window().location().search().unwrap_or_default();
    let max_bytes = search
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix("max-mb="))
        .and_then(|mb| mb.parse::<f64>().ok())
        .map(|mb| mb * 1e6);
    let max_bytes = max_bytes.unwrap_or(cctv::ui::state::MAX_BYTES);
    leptos::mount::mount_to_body(
        move || view! { <App initial=demo_inputs() demo=true max_bytes=max_bytes /> },
    );
}
