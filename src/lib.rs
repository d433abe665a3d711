//! cctv: a viewer for Claude Code session transcripts.
//!
//! Data flows one way: bytes -> [`model`] (typed lines) -> [`normalize`] (view model) ->
//! [`present`] (what a row says, as plain data and safe markup) -> `ui` (Leptos draws it).
//! [`api`] exposes parse, normalize, export and mount to JavaScript. Everything above `ui` never
//! touches the DOM, so it builds and tests natively with `cargo test --no-default-features`.
//! docs/ARCHITECTURE.md says what each folder owns and where new things go.

pub mod catalog;
pub mod demo;
pub mod engine;
pub mod export;
/// Generated sessions of any size, for the benchmark and the large-input test.
#[cfg(feature = "generate")]
pub mod generate;
pub mod insight;
pub mod model;
pub mod normalize;
pub mod present;
pub mod query;
pub mod redact;
pub mod text;

pub mod api;

/// The browser's I/O under the components: files read, sessions followed, workers, fetches.
#[cfg(feature = "ui")]
pub(crate) mod browser;

/// The real transcripts in `../shared/fixtures`, read for the tests: one file shared with the
/// integration tests (`tests/common`), so both read them the same way.
#[cfg(test)]
#[path = "../tests/common/fixtures.rs"]
mod fixtures;

#[cfg(feature = "ui")]
pub mod ui;
