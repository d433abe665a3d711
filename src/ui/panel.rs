//! A collapsible panel: a one-line header that says what is inside, and a body built only while
//! it is open (which keeps a session with thousands of tool calls cheap).

use leptos::prelude::*;

use super::state::{use_viewer, PanelKey};

/// A panel whose open state lives in the viewer (so "expand all", search and links reach it).
pub(crate) fn panel(
    key: PanelKey,
    class: &'static str,
    header: AnyView,
    body: impl Fn() -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let viewer = use_viewer();
    let open = move || viewer.is_open(key);
    view! {
        <div class=move || format!("cctv-panel {class}{}", if open() { " cctv-panel--open" } else { "" })>
            <button
                class="cctv-panel__header"
                aria-expanded=move || open().to_string()
                on:click=move |_| viewer.toggle(key)
            >
                <span class="cctv-panel__chevron" aria-hidden="true"></span>
                {header}
            </button>
            {move || open().then(|| view! { <div class="cctv-panel__body">{body()}</div> })}
        </div>
    }
}
