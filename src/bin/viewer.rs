//! The web app Trunk builds from index.html: report panics in the browser console, then mount the
//! viewer with the demo session.

use cctv::ui::{load::demo_inputs, App};
use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| view! { <App initial=demo_inputs() demo=true /> });
}
