//! The web app Trunk builds from index.html: report panics in the browser console, then mount.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(cctv::ui::App);
}
