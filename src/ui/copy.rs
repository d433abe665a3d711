//! "Copy" buttons: put a text on the clipboard and say so for a moment.

use leptos::prelude::*;

/// A small button that copies `text` (a code block, a command, a file, an output).
pub(crate) fn copy_button(title: &'static str, text: String) -> AnyView {
    copy_with(title, "copy", move || text.clone())
}

/// A button labelled `label` that copies what `text` makes when clicked (made then, not before:
/// a turn as Markdown is only worth building when asked for).
pub(crate) fn copy_with(
    title: &'static str,
    label: &'static str,
    text: impl Fn() -> String + 'static,
) -> AnyView {
    let copied = RwSignal::new(false);
    view! {
        <button
            class="cctv-copy"
            title=title
            aria-label=title
            on:click=move |_| {
                let _ = window().navigator().clipboard().write_text(&text());
                copied.set(true);
            }
            on:blur=move |_| copied.set(false)
            on:mouseleave=move |_| copied.set(false)
        >
            {move || if copied.get() { "copied" } else { label }}
        </button>
    }
    .into_any()
}
