//! "Copy" buttons: put a text on the clipboard and say so for a moment, or say why not.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Why a page has no clipboard: browsers give it only to secure pages.
const NO_CLIPBOARD: &str =
    "the browser lets only a page served over https, or from this computer, use the clipboard";

/// The page's clipboard; why there is none (a page served over http from another computer:
/// `navigator.clipboard` is then missing, and calling it threw).
fn clipboard() -> Result<web_sys::Clipboard, String> {
    let clipboard = js_sys::Reflect::get(&window().navigator(), &"clipboard".into()).unwrap_or_default();
    match clipboard.is_undefined() || clipboard.is_null() {
        true => Err(NO_CLIPBOARD.into()),
        false => Ok(clipboard.unchecked_into()),
    }
}

/// Writes `text` to the clipboard, asked now (within a click, as WebKit wants); resolves once
/// it is written, or says why not.
pub(crate) fn write_text(text: &str) -> impl std::future::Future<Output = Result<(), String>> {
    let written = clipboard().map(|c| JsFuture::from(c.write_text(text)));
    async move { written?.await.map(drop).map_err(|e| crate::browser::js_error::describe(&e)) }
}

/// A small button that copies `text` (a code block, a command, a file, an output).
pub(crate) fn copy_button(title: &'static str, text: String) -> AnyView {
    copy_with("cctv-copy", title, "copy", move || text.clone())
}

/// A button (of class `class`) labelled `label` that copies what `text` makes when clicked (made
/// then, not before).
pub(crate) fn copy_with(
    class: &'static str,
    title: &'static str,
    label: &'static str,
    text: impl Fn() -> String + 'static,
) -> AnyView {
    let state = RwSignal::new(Later::Ready);
    let why = RwSignal::new(None::<String>);
    let click = move |_| {
        let written = write_text(&text());
        leptos::task::spawn_local(async move {
            let written = written.await;
            let _ = state.try_set(if written.is_ok() { Later::Copied } else { Later::Failed });
            let _ = why.try_set(written.err());
        });
    };
    view! {
        <button
            class=class
            title=said_why(title, why)
            aria-label=said_why(title, why)
            on:click=click
            on:blur=move |_| settle(state)
            on:mouseleave=move |_| settle(state)
        >
            {move || said(state.get(), label)}
        </button>
    }
    .into_any()
}

/// What a copy button labelled `label` says in `state`.
fn said(state: Later, label: &'static str) -> &'static str {
    match state {
        Later::Ready => label,
        Later::Making => "copying…",
        Later::Copied => "copied",
        Later::Failed => "not copied",
    }
}

/// Says the button's label again once the pointer leaves it, or it loses focus, after a copy.
/// "not copied" stays until the next click, its title saying why: it is wider than the label,
/// and shrinking back as the pointer left, or as the click on a button beside it took the focus,
/// it moved what was under the pointer (that click then missed its button).
fn settle(state: RwSignal<Later>) {
    if state.get_untracked() == Later::Copied {
        state.set(Later::Ready);
    }
}

/// A copy button's title, and why the last copy failed.
fn said_why(title: &'static str, why: RwSignal<Option<String>>) -> impl Fn() -> String + Copy {
    move || match why.get() {
        Some(why) => format!("{title}: not copied, {why}"),
        None => title.to_owned(),
    }
}

/// Where a copy button stands.
#[derive(Clone, Copy, PartialEq)]
enum Later {
    Ready,
    Making,
    Copied,
    Failed,
}

/// A button labelled `label` that copies what `text` works out, off the page (a turn as Markdown,
/// masked: the engine looks for secrets in every file first), or says it could not
/// ([`write_later`]). Nothing is worked out where there is no clipboard to copy to.
pub(crate) fn copy_later<F>(
    title: &'static str,
    label: &'static str,
    text: impl Fn() -> F + 'static,
) -> AnyView
where
    F: std::future::Future<Output = Result<String, String>> + 'static,
{
    let state = RwSignal::new(Later::Ready);
    // Why the last copy did not happen, said where the title is.
    let why = RwSignal::new(None::<String>);
    let click = move |_| {
        if state.get_untracked() == Later::Making {
            return;
        }
        if let Err(no_clipboard) = clipboard() {
            state.set(Later::Failed);
            why.set(Some(no_clipboard));
            return;
        }
        state.set(Later::Making);
        why.set(None);
        let written = write_later(text());
        leptos::task::spawn_local(async move {
            let written = written.await;
            let _ = state.try_set(if written.is_ok() { Later::Copied } else { Later::Failed });
            let _ = why.try_set(written.err());
        });
    };
    let said_why = said_why(title, why);
    view! {
        <button class="cctv-copy" title=said_why aria-label=said_why aria-busy=move || (state.get() == Later::Making).then_some("true") on:click=click on:blur=move |_| settle(state) on:mouseleave=move |_| settle(state)>
            {move || said(state.get(), label)}
        </button>
    }
    .into_any()
}

thread_local! {
    /// A handler that does nothing with a rejection.
    static IGNORE: wasm_bindgen::closure::Closure<dyn FnMut(wasm_bindgen::JsValue)> =
        wasm_bindgen::closure::Closure::new(|_| {});
}

/// Writes the text `made` works out, asked of the clipboard now (within a click, as WebKit
/// wants): it is handed the text still to come (a `ClipboardItem` holding a promise), which the
/// browser writes once it is ready; where there are none, it is written when ready. Resolves
/// once written, or says why not: why the text could not be made, before the clipboard's
/// refusal that follows. Where there is no clipboard, `made` is never run.
pub(crate) fn write_later<F>(made: F) -> impl std::future::Future<Output = Result<(), String>>
where
    F: std::future::Future<Output = Result<String, String>> + 'static,
{
    let failed = std::rc::Rc::new(std::cell::Cell::new(None::<String>));
    let asked = clipboard().map(|clipboard| {
        let failed = failed.clone();
        let blob = wasm_bindgen_futures::future_to_promise(async move {
            match made.await {
                Ok(text) => Ok(text_blob(&text)),
                Err(e) => {
                    failed.set(Some(e.clone()));
                    Err(e.into())
                }
            }
        });
        // The clipboard sees a rejection as it is; handled here, it is not also logged as
        // uncaught when it comes before the clipboard looks.
        let _ = IGNORE.with(|ignore| blob.catch(ignore));
        let written = clipboard_item(&blob).map(|item| write(&clipboard, item));
        (blob, written)
    });
    async move {
        let (blob, written) = asked?;
        let written = match written {
            Some(written) => {
                JsFuture::from(written).await.map(drop).map_err(|e| crate::browser::js_error::describe(&e))
            }
            None => match JsFuture::from(blob).await {
                Ok(blob) => blob_text(blob).await,
                Err(e) => Err(crate::browser::js_error::describe(&e)),
            },
        };
        match (written, failed.take()) {
            (Err(_), Some(why)) => Err(why),
            (written, _) => written,
        }
    }
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
    let class = js_sys::Reflect::get(&js_sys::global(), &"ClipboardItem".into()).ok()?;
    let class = class.dyn_into::<js_sys::Function>().ok()?;
    let record = js_sys::Object::new();
    js_sys::Reflect::set(&record, &"text/plain".into(), blob).ok()?;
    js_sys::Reflect::construct(&class, &js_sys::Array::of1(&record)).ok()
}

/// Hands `item` to `clipboard`: the promise settles once it is written, or not.
fn write(clipboard: &web_sys::Clipboard, item: wasm_bindgen::JsValue) -> js_sys::Promise {
    clipboard.write(&js_sys::Array::of1(&item))
}

/// Writes the text of `blob` to the clipboard, or says why not.
async fn blob_text(blob: wasm_bindgen::JsValue) -> Result<(), String> {
    let blob = blob.dyn_into::<web_sys::Blob>().map_err(|_| "nothing was made")?;
    let text = JsFuture::from(blob.text()).await.map_err(|e| crate::browser::js_error::describe(&e))?;
    write_text(&text.as_string().unwrap_or_default()).await
}
