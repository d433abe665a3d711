//! Leptos components. Everything here needs a DOM; the data it shows comes from `model` and
//! `normalize`, which do not.

use leptos::prelude::*;

/// The whole page. For now it only says what cctv is: opening transcripts comes in a later version.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <main class="cctv">
            <h1 class="cctv__title">"cctv — Claude Code Transcript Viewer"</h1>
            <p class="cctv__intro">
                "cctv shows Claude Code session transcripts (the JSONL files Claude Code writes for "
                "each session). It runs entirely in your browser: files are read locally and nothing "
                "is uploaded. Loading files arrives in a later version; this one shows only this page."
            </p>
        </main>
    }
}
