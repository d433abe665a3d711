//! "Copy" buttons: put a text on the clipboard and say so for a moment.

use leptos::prelude::*;

/// A small button that copies `text` (a code block, a command, a file, an output).
pub(crate) fn copy_button(title: &'static str, text: String) -> AnyView {
    copy_with(title, "copy", move || text.clone())
}

/// A button labelled `label` that copies what `text` makes when clicked (made then, not before).
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

/// What a button that copies a text made off the page says.
#[derive(Clone, Copy, PartialEq)]
enum Later {
    Ready,
    Making,
    Copied,
    Failed,
}

/// A button labelled `label` that copies what `text` works out, off the page (a turn as Markdown,
/// masked: the engine looks for secrets in every file first), or says it could not. The
/// clipboard is handed the text still to come within the click (a `ClipboardItem` holding a
/// promise), which the browser lets it write once it is ready; where there is none, it is
/// written when ready.
pub(crate) fn copy_later<F>(
    title: &'static str,
    label: &'static str,
    text: impl Fn() -> F + 'static,
) -> AnyView
where
    F: std::future::Future<Output = Result<String, String>> + 'static,
{
    let state = RwSignal::new(Later::Ready);
    // Why the last text could not be made, said where the title is.
    let why = RwSignal::new(None::<String>);
    let click = move |_| {
        if state.get_untracked() == Later::Making {
            return;
        }
        state.set(Later::Making);
        why.set(None);
        let made = text();
        let blob = wasm_bindgen_futures::future_to_promise(async move {
            match made.await {
                Ok(text) => Ok(text_blob(&text)),
                Err(e) => {
                    let _ = why.try_set(Some(e.clone()));
                    Err(e.into())
                }
            }
        });
        // Asked of the clipboard now, while the click is fresh.
        let written = clipboard_item(&blob).map(write);
        leptos::task::spawn_local(async move {
            let written = match written {
                Some(written) => wasm_bindgen_futures::JsFuture::from(written).await.is_ok(),
                None => match wasm_bindgen_futures::JsFuture::from(blob).await {
                    Ok(blob) => write_text(blob).await,
                    Err(_) => false,
                },
            };
            let _ = state.try_set(if written { Later::Copied } else { Later::Failed });
        });
    };
    let said = move || match state.get() {
        Later::Ready => label,
        Later::Making => "copying…",
        Later::Copied => "copied",
        Later::Failed => "not copied",
    };
    let said_why = move || match why.get() {
        Some(why) => format!("{title}: not copied, {why}"),
        None => title.to_owned(),
    };
    let done = move || {
        if state.get_untracked() != Later::Making {
            state.set(Later::Ready);
        }
    };
    view! {
        <button class="cctv-copy" title=said_why aria-label=said_why aria-busy=move || (state.get() == Later::Making).then_some("true") on:click=click on:blur=move |_| done() on:mouseleave=move |_| done()>
            {said}
        </button>
    }
    .into_any()
}

/// `text` as a plain-text `Blob`, what a `ClipboardItem` holds.
fn text_blob(text: &str) -> wasm_bindgen::JsValue {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain");
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_or(wasm_bindgen::JsValue::NULL, Into::into)
}

/// A `ClipboardItem` of the plain text `blob` will resolve to, where the browser has them.
fn clipboard_item(blob: &js_sys::Promise) -> Option<wasm_bindgen::JsValue> {
    use wasm_bindgen::JsCast;
    let class = js_sys::Reflect::get(&js_sys::global(), &"ClipboardItem".into()).ok()?;
    let class = class.dyn_into::<js_sys::Function>().ok()?;
    let record = js_sys::Object::new();
    js_sys::Reflect::set(&record, &"text/plain".into(), blob).ok()?;
    js_sys::Reflect::construct(&class, &js_sys::Array::of1(&record)).ok()
}

/// Hands `item` to the clipboard: the promise settles once it is written, or not.
fn write(item: wasm_bindgen::JsValue) -> js_sys::Promise {
    window().navigator().clipboard().write(&js_sys::Array::of1(&item))
}

/// Writes the text of `blob` to the clipboard; whether it was.
async fn write_text(blob: wasm_bindgen::JsValue) -> bool {
    use wasm_bindgen::JsCast;
    let Ok(blob) = blob.dyn_into::<web_sys::Blob>() else { return false };
    let Ok(text) = wasm_bindgen_futures::JsFuture::from(blob.text()).await else { return false };
    let text = text.as_string().unwrap_or_default();
    wasm_bindgen_futures::JsFuture::from(window().navigator().clipboard().write_text(&text)).await.is_ok()
}
