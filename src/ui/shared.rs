//! A shared page (`export::to_html`) starting: the session and the grammars it holds, read from
//! its data blocks, shown by the full viewer. Its script calls this through `openShared`.

use leptos::prelude::*;

use super::App;
use crate::export::to_html::{bytes_from_page, files_from_page, GRAMMARS_ID, SESSION_ID};
use crate::text::highlight::load_grammars;

/// Whether this page is a shared session (the viewer then waits for `openShared`).
pub fn is_shared_page() -> bool {
    web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.get_element_by_id(SESSION_ID).is_some())
}

/// Shows the session this page holds; an error says what was wrong with it.
pub(crate) fn open() -> Result<(), String> {
    let document = document();
    let block = |id: &str| document.get_element_by_id(id).and_then(|e| e.text_content());
    let files = files_from_page(&block(SESSION_ID).ok_or("this page holds no session")?)?;
    // Code is shown plain without them; the session still opens.
    if let Some(text) = block(GRAMMARS_ID) {
        if let Err(e) = bytes_from_page(&text).and_then(|g| load_grammars(&g)) {
            web_sys::console::warn_1(&format!("cctv: no syntax highlighting: {e}").into());
        }
    }
    leptos::mount::mount_to_body(move || view! { <App initial=files /> });
    Ok(())
}
